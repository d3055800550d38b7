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
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
args="--max-time 0.25 --label rerun --peers flashinfer"
[ "${1:-}" = "--gpu" ] && SUITE_RUN_ARGS=$args report_suite "$here/h200_v12_suite.h5" --gpu
report_pairs "d2e72ec against the 64-split combine" "$here/h200_combine64_base" "$here/h200_combine64_new"
SUITE_RUN_ARGS=$args report_suite "$here/h200_v12_suite.h5" "$@"
report_compare "0f09366 against the v12 suite (no case slower by more than 5%)" papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$here/h200_v12_suite.h5"
