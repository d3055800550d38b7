#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-seventh session, call 3: the
# v60 suite of 86b063d with both peers, FlashInfer and FlashMLA).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder; the PNGs are not committed)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree): the 8 recorded cases with the variants,
#                         FlashInfer and FlashMLA (README "Peers": .peers/
#                         carried, with both packs), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h100_v60_suite_s57.h5" "$@"
