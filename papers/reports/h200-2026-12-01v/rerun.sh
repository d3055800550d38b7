#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the 64-split combine; the v12 suite).
#   rerun.sh [--out DIR]  from the committed results files: the A/B's two
#                         comparisons, report.md and the figures (PNG; needs
#                         gnuplot) into DIR (default: this folder), and the
#                         comparison against 0f09366.
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out the commit after
#                         d2e72ec): the 8 recorded cases with the variants and
#                         FlashInfer (README "Peers": .peers/ carried,
#                         PYTHONPATH set), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01v
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-h200-2026-12-01v}; mkdir -p "$OUT"
  python3 data/record_competition.py --out "$OUT/suite"
  "$M" run --require-gpu --quiet --max-time 0.25 --label rerun --peers flashinfer \
       "$OUT"/suite/*.h5 -o "$OUT/results.h5"
  "$M" compare "$here/h200_v12_suite.h5" "$OUT/results.h5" --threshold 0.05 || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
for k in 1 2; do
  echo "== pair $k: d2e72ec against the 64-split combine"
  "$M" compare "$here/h200_combine64_base_$k.h5" "$here/h200_combine64_new_$k.h5" || [ $? -eq 6 ]
done
"$M" plot "$here/h200_v12_suite.h5" --out "$out" --format png --if-available
"$M" report "$here/h200_v12_suite.h5" --plots "$out" -o "$out/report.md"
echo "== 0f09366 against the v12 suite (no case slower by more than 5%)"
"$M" compare papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$here/h200_v12_suite.h5" --threshold 0.05 || [ $? -eq 6 ]
