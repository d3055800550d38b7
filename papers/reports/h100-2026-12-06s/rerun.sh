#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-ninth session, call 3: the
# four MTP units with v62's M32 softmax, MLAB_MTP on against off at q_seq_len
# 2, and the q_seq_len 1 calls of the same KV).
#   rerun.sh        the A/B's table (off -> on, both pairs), each pair's
#                   `mlabench compare`, the q_seq_len 1 table
#   rerun.sh --gpu  re-measure on a GPU machine (this tree):
#                   papers/device-queue.sh mtpmx into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpmx
report_onoff "MLAB_MTP" "$here/h100_mtpv62"
