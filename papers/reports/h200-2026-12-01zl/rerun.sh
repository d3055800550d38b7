#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, twelfth session: the v15 suite with FlashInfer).
#   rerun.sh [--out DIR]  from the committed results files: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), and the comparisons against the v14 suite,
#                         0f09366 and v7's suite (no case slower by more than
#                         5%), and the ragged batches' report to stdout.
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 4984294): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried, PYTHONPATH set),
#                         into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01zl
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-h200-2026-12-01zl}; mkdir -p "$OUT"
  python3 data/record_competition.py --out "$OUT/suite"
  "$M" run --require-gpu --quiet --max-time 0.25 --label rerun --peers flashinfer \
       "$OUT"/suite/*.h5 -o "$OUT/results.h5"
  "$M" compare "$here/h200_v15_suite.h5" "$OUT/results.h5" --threshold 0.05 || [ $? -eq 6 ]
  # the ragged batches (README): the same lengths and seeds
  "$M" gen --quiet --kv-lens "$(python3 -c "print(','.join(['8192']*4+['512']*60))")" --seed 21 --name ragged_b64 -o "$OUT/ragged_b64.h5"
  "$M" gen --quiet --kv-lens "$(python3 -c "import random; r=random.Random(5); print(','.join(str(int(2**r.uniform(7,14))) for _ in range(64)))")" --seed 22 --name ragged_mix64 -o "$OUT/ragged_mix64.h5"
  "$M" gen --quiet --kv-lens "$(python3 -c "print(','.join(['16384']+['256']*31))")" --seed 23 --name ragged_1long32 -o "$OUT/ragged_1long32.h5"
  "$M" run --require-gpu --quiet --max-time 0.15 --label rerun --peers flashinfer "$OUT"/ragged_*.h5 -o "$OUT/ragged.h5"
  "$M" compare "$here/h200_v15_ragged.h5" "$OUT/ragged.h5" --threshold 0.05 || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
"$M" plot "$here/h200_v15_suite.h5" --out "$out" --format png --if-available
"$M" report "$here/h200_v15_suite.h5" --plots "$out" -o "$out/report.md"
# the recorded command line names the GPU machine's output folder: as $OUT here
sed -i -E 's#-o /[^ ]*/out/#-o $OUT/#' "$out/report.md"
echo "== the v14 suite against the v15 suite (no case slower by more than 5%?)"
"$M" compare papers/reports/h200-2026-12-01zi/h200_v14_suite.h5 "$here/h200_v15_suite.h5" --threshold 0.05 || [ $? -eq 6 ]
echo "== 0f09366 against the v15 suite"
"$M" compare papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$here/h200_v15_suite.h5" --threshold 0.05 || [ $? -eq 6 ]
echo "== v7's suite against the v15 suite"
"$M" compare papers/reports/h200-2026-12-01/h200_v7_suite.h5 "$here/h200_v15_suite.h5" --threshold 0.05 || [ $? -eq 6 ]
echo "== the ragged batches"
"$M" report "$here/h200_v15_ragged.h5"
