#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, sixty-fifth session: `device-queue.sh
# mtprule` with the program carried (MLAB_QUEUE_BIN: built on the CPU machine,
# not on the GPU one), the MTP rule by the GPU's DRAM on its H100 side,
# MLAB_MTP unset (auto) against off, ABBA).
#   rerun.sh        the A/B table and both pairs (off -> auto)
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): mtprule, into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtprule
report_ab_table "mtprule (H100): MLAB_MTP=off -> unset (auto), both pairs" "$here/mtprule_off" "$here/mtprule_auto"
report_pairs "mtprule (H100): off -> auto" "$here/mtprule_off" "$here/mtprule_auto"
