#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, forty-ninth session, call 1: the
# v51 suite: 170b57f's tree, the KV copies evict_first by the rule and the
# read probe with its evict_first shape; FlashInfer beside, FlashMLA's pack
# not carried).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree): the 8 recorded cases with the variants,
#                         FlashInfer and FlashMLA (README "Peers": .peers/
#                         carried, with both packs), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v51_suite.h5" "$@"
