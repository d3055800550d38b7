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
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
  # the ragged batches (README): the same lengths and seeds; then the suite (report_suite)
  "$M" gen --quiet --kv-lens "$(python3 -c "print(','.join(['8192']*4+['512']*60))")" --seed 21 --name ragged_b64 -o "$OUT/ragged_b64.h5"
  "$M" gen --quiet --kv-lens "$(python3 -c "import random; r=random.Random(5); print(','.join(str(int(2**r.uniform(7,14))) for _ in range(64)))")" --seed 22 --name ragged_mix64 -o "$OUT/ragged_mix64.h5"
  "$M" gen --quiet --kv-lens "$(python3 -c "print(','.join(['16384']+['256']*31))")" --seed 23 --name ragged_1long32 -o "$OUT/ragged_1long32.h5"
  "$M" run --require-gpu --quiet --max-time 0.15 --label rerun --peers flashinfer "$OUT"/ragged_*.h5 -o "$OUT/ragged.h5"
  report_compare "the committed ragged run against this one" "$here/h200_v15_ragged.h5" "$OUT/ragged.h5"
fi
SUITE_RUN_ARGS="--max-time 0.25 --label rerun --peers flashinfer" report_suite "$here/h200_v15_suite.h5" "$@"
report_compare "the v14 suite against the v15 suite (no case slower by more than 5%?)" papers/reports/h200-2026-12-01zi/h200_v14_suite.h5 "$here/h200_v15_suite.h5"
report_compare "0f09366 against the v15 suite" papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$here/h200_v15_suite.h5"
report_compare "v7's suite against the v15 suite" papers/reports/h200-2026-12-01/h200_v7_suite.h5 "$here/h200_v15_suite.h5"
echo "== the ragged batches"
"$M" report "$here/h200_v15_ragged.h5"
