#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, fifth session).
#   rerun.sh [--out DIR]  from the committed results files: report.md, the
#                         figures (PNG; needs gnuplot), the two-label history
#                         and compare (v7 against v8, same machine)
#   rerun.sh --gpu        re-measure on a GPU machine: the 8 recorded cases
#                         with every variant and FlashInfer (README "Peers":
#                         .peers/ carried, PYTHONPATH set), label v8, into $OUT,
#                         then compare against the committed v8 run
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01c
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-h200-2026-12-01c}; mkdir -p "$OUT"
  python3 data/record_competition.py --out "$OUT/suite"
  "$M" run --require-gpu --quiet --max-time 0.3 --label v8 --peers flashinfer "$OUT"/suite/*.h5 -o "$OUT/results.h5"
  "$M" compare "$here/h200_v8_suite.h5" "$OUT/results.h5" --threshold 0.05 || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
"$M" plot "$here/h200_v8_suite.h5" --out "$out" --format png --if-available
"$M" report "$here/h200_v8_suite.h5" --plots "$out" -o "$out/report.md"
echo "== two labels, one machine: v7 (6c0bb7c) then v8 (c043d91), the variants both have"
"$M" history "$here/h200_v7_same_machine.h5" "$here/h200_v8_suite.h5" --by-label \
     --variants bf16,fp8,fp8_exp2rcp,fp8_xcd,mxfp4,mxfp4_e4m3 --out "$out" --format png --if-available
"$M" compare "$here/h200_v7_same_machine.h5" "$here/h200_v8_suite.h5" || [ $? -eq 6 ]
