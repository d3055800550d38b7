#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-06, fifty-sixth session, call 5:
# `papers/device-queue.sh oos`, the six main decodes and both peers beyond
# the competition's 8: three ragged batches, six uniform shapes, two MTP
# shapes).
#   rerun.sh [--out DIR]  from the committed results files: the three merged
#                         (mlabench merge: one machine, one call) into a
#                         temporary h200_oos_all.h5, then report.md (and, where
#                         gnuplot is, the figures, not committed) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure on a GPU machine (this tree; .peers/
#                         carried with both packs): the call again into $OUT,
#                         then each file compared with the committed one
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_oos "h200_oos" "$@"
