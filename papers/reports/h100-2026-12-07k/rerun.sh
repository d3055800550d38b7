#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, seventy-second session, calls 1-2:
# `papers/device-queue.sh mtpsmall` with MTPSMALL_STEPS="auto:1 off:1 off:2
# auto:2" (the MTP rule as landed, `mlab_mtp_auto`, against a block a row),
# then `mtpsplit` at 32, 64 items x kv 512, 1024, 2048, q_seq_len 2).
#   rerun.sh        the A/B table (off -> auto, both pairs), each pair's
#                   `mlabench compare`, the unit each auto row ran, and the
#                   unit's split sweep (the rule's pick against 1..16 forced)
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): both calls, into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
export MTPSMALL_STEPS="auto:1 off:1 off:2 auto:2" MTPSPLIT_BATCH=32,64 MTPSPLIT_KV=512,1024,2048 \
  MTPSPLIT_VARIANTS=bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpsmall mtpsplit
report_ab_table "the MTP rule (MLAB_MTP=auto) against a block a row: off -> auto, both pairs" \
  "$here/h100_mtpsmall_off" "$here/h100_mtpsmall_auto"
report_pairs "MLAB_MTP off -> auto" "$here/h100_mtpsmall_off" "$here/h100_mtpsmall_auto"
echo "== the unit each auto row ran (pair 1): item = the MTP unit, row or heads = a block a row"
"$M" export "$here/h100_mtpsmall_auto_1.h5" --format csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r["timed"] == "1": print(r["case_name"], r["variant"], "splits", r["splits"], "grid", r["grid"], r["unit"])'
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
report_sweeps "$tmp" h100 c2
