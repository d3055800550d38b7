#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-07, sixty-fourth session, call 2:
# `papers/device-queue.sh oos` with the program carried, the six main
# decodes and both peers beyond the competition's 8: three ragged batches,
# six uniform shapes, two MTP shapes, now under v65's MTP rule).
#   rerun.sh [--out DIR]  from the committed results files: the three merged
#                         (mlabench merge: one machine, one call) into a
#                         temporary h200_oos_all.h5, then report.md (and, where
#                         gnuplot is, the figures, not committed) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure on a GPU machine (this tree; .peers/
#                         carried with both packs): the call again into $OUT,
#                         then each file compared with the committed one
#   rerun.sh --history    these files against the fifty-sixth session's
#                         (h200-2026-12-06b: the same call before the rule)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--history" ]; then report_oos_history h200_oos h200-2026-12-06b "before the MTP rule"; exit; fi
report_oos "h200_oos" "$@"
