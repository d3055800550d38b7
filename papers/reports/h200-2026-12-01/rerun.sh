#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, kernels 7327fbc).
#   rerun.sh [--out DIR]  from the committed results files: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), then the same-machine A/B against 0f09366.
#   rerun.sh --gpu        re-measure on a GPU machine (the current tree; for
#                         these kernels check out 7327fbc): the 8 recorded
#                         cases with the variants and FlashInfer (README
#                         "Peers": .peers/ carried, PYTHONPATH set), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-h200-2026-12-01}; mkdir -p "$OUT"
  python3 data/record_competition.py --out "$OUT/suite"
  "$M" run --require-gpu --quiet --max-time 0.3 --label rerun --peers flashinfer \
       "$OUT"/suite/*.h5 -o "$OUT/results.h5"
  "$M" compare "$here/h200_v7_suite.h5" "$OUT/results.h5" --threshold 0.05 || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
"$M" plot "$here/h200_v7_suite.h5" --out "$out" --format png --if-available
"$M" report "$here/h200_v7_suite.h5" --plots "$out" -o "$out/report.md"
echo "== 0f09366 against the final kernels, same machine (bf16, fp8, mxfp4, fp8_exp2rcp; 6 cases)"
"$M" compare "$here/h200_ab_0f09366.h5" "$here/h200_ab_v7.h5"
