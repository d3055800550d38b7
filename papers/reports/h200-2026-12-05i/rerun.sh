#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, fiftieth session, call 4: three
# decodes of f14ffe0 with FlashInfer and FlashMLA, case by case; --gpu
# re-measures the whole suite, a superset).
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
report_suite "$here/h200_v51_peers.h5" "$@"
