#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, sixty-ninth session, call 1:
# `papers/device-queue.sh oos` with the program carried, the six main
# decodes and both peers beyond the competition's 8: three ragged batches,
# six uniform shapes, two MTP shapes; the first H100 run of it since the
# MTP units, v60-v65, and the MTP rule, v67).
#   rerun.sh [--out DIR]  from the committed results files: the three merged
#                         (mlabench merge: one machine, one call) into a
#                         temporary h100_oos_all.h5, then report.md (and, where
#                         gnuplot is, the figures, not committed) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure on a GPU machine (this tree; .peers/
#                         carried with both packs): the call again into $OUT,
#                         then each file compared with the committed one
#   rerun.sh --history    these files against the fifty-sixth session's
#                         (h100-2026-12-06j: the same call before the MTP units)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--history" ]; then report_oos_history h100_oos h100-2026-12-06j "before the MTP units"; exit; fi
report_oos "h100_oos" "$@"
