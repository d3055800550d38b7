#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-seventh session, calls 1 and
# 2: the MXFP4 _qrow decodes' MTP unit, first as each consumer its query
# row on every tile (design 1, not landed), then as M32 (landed)).
#   rerun.sh        the A/B tables (MLAB_MTP off -> on, both pairs) of both
#                   designs, each pair's `mlabench compare`, the q_seq_len 1
#                   calls of the same KV
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): papers/device-
#                   queue.sh mtpmx into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpmx
report_onoff "M32 (landed), MLAB_MTP (call 2)" "$here/h100_m32"
report_ab_table "design 1 (consumer c its row c on every tile; not landed): off -> on, both pairs (call 1)" \
  "$here/h100_design1_off" "$here/h100_design1_on"
