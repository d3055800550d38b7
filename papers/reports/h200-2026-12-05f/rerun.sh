#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, forty-sixth session, call 2: the v49
# suite: 35ba426's tree, the kernels of d67aa56 and v43 (the panel ring in it
# built off, as by default), the harness of s43-s46; FlashInfer and FlashMLA
# beside).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder); the suite against the v46
#                         suite (no case slower by more than 5%?)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree): the 8 recorded cases with the variants,
#                         FlashInfer and FlashMLA (README "Peers": .peers/
#                         carried, with both packs), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v49_suite.h5" "$@"
[ "${1:-}" = "--gpu" ] && exit 0
report_history "$here/h200_v49_suite.h5" v49 papers/reports/h200-2026-12-05b/h200_v46_suite.h5 v46
report_compare "the v49 suite against the v43 suite (the README's table before it; FlashInfer in both)" \
  papers/reports/h200-2026-12-04r/h200_v43_suite.h5 "$here/h200_v49_suite.h5"
