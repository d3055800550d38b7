#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, seventh session: final run, v10).
#   rerun.sh [--out DIR]  from the committed results files: report.md, the
#                         figures (PNG; needs gnuplot) and the comparison of
#                         v9 (83ba6be) against v10 (e4b7b14), same machine
#   rerun.sh --gpu        re-measure on a GPU machine: the 8 recorded cases
#                         with every variant and FlashInfer (README "Peers":
#                         .peers/ carried, PYTHONPATH set), label v10, into
#                         $OUT, then compare against the committed v10 run
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01i
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-h200-2026-12-01i}; mkdir -p "$OUT"
  python3 data/record_competition.py --out "$OUT/suite"
  "$M" run --require-gpu --quiet --max-time 0.25 --label v10 --peers flashinfer "$OUT"/suite/*.h5 -o "$OUT/results.h5"
  "$M" compare "$here/h200_v10_suite.h5" "$OUT/results.h5" --threshold 0.05 || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
"$M" plot "$here/h200_v10_suite.h5" --out "$out" --format png --if-available
"$M" report "$here/h200_v10_suite.h5" --plots "$out" -o "$out/report.md"
"$M" compare "$here/h200_v9_same_machine.h5" "$here/h200_v10_suite.h5" || [ $? -eq 6 ]
