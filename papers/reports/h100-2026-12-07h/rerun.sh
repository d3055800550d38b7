#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, seventieth session, call 3:
# `papers/device-queue.sh oos` with the program carried, the six main
# decodes and both peers beyond the competition's 8: three ragged batches,
# six uniform shapes, two MTP shapes; with the H100's fp8 rule of v73:
# fp8_wgmma's M32 past 1 L2 of KV).
#   rerun.sh [--out DIR]  from the committed results files: the three merged
#                         (mlabench merge: one machine, one call) into a
#                         temporary h100_oos_all.h5, then report.md (and, where
#                         gnuplot is, the figures, not committed) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure on a GPU machine (this tree; .peers/
#                         carried with both packs): the call again into $OUT,
#                         then each file compared with the committed one
#   rerun.sh --history    these files against the sixty-ninth session's
#                         (h100-2026-12-07e: the same call before v73's rule)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--history" ]; then report_oos_history h100_oos h100-2026-12-07e "before v73's rule"; exit; fi
report_oos "h100_oos" "$@"
