#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-seventh session, call 3: the
# v40 suite: 05e1c35, the MXFP4 producers without the zero table past a
# unit's end and the uniform consumer index in every decode, with FlashInfer
# and FlashMLA beside).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder); the suite against the v39
#                         suite, 0f09366 and v7's suite (no case slower by
#                         more than 5%?)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree): the 8 recorded cases with the variants,
#                         FlashInfer and FlashMLA (README "Peers": .peers/
#                         carried, with both packs), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v40_suite.h5" "$@"
[ "${1:-}" = "--gpu" ] && exit 0
report_history "$here/h200_v40_suite.h5" v40 papers/reports/h200-2026-12-04i/h200_v39_suite.h5 v39
# call 6 (the final tree, 0441f66's kernels: fp8_wgmma and the two MXFP4 wgmma decodes, one run)
report_compare "the v40 suite against the final tree's MXFP4 decodes (call 6, another machine)" "$here/h200_v40_suite.h5" "$here/h200_v40_final_mx.h5"
