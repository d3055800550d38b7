#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-07, sixty-fourth session: call 1,
# `device-queue.sh mtprule` with the program carried (MLAB_QUEUE_BIN: built
# here, not on the machine), the MTP rule by the GPU's DRAM, MLAB_MTP unset
# (auto) against off, ABBA; call 4, `mtpsplit`, the split rule under the MTP
# units against every power of two).
#   rerun.sh        both: call 1's A/B table and pairs (off -> auto), then
#                   call 4's sweep report (per (case, decode) the fastest
#                   forced count against the rule's pick)
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): mtprule, then
#                   mtpsplit, into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtprule mtpsplit
report_ab_table "call 1 (mtprule): MLAB_MTP=off -> unset (auto), both pairs" "$here/mtprule_off" "$here/mtprule_auto"
report_pairs "call 1 (mtprule): off -> auto" "$here/mtprule_off" "$here/mtprule_auto"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
report_sweeps "$tmp" h200 mtp
