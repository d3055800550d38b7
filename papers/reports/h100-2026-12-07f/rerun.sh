#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, seventieth session, call 1:
# `papers/device-queue.sh mtpmx` with the program carried: the six MTP
# decodes' units on against off at q_seq_len 2, ABBA; the fp8 decodes a
# block a row with their KV copies not evict_first; FlashInfer beside).
#   rerun.sh        the A/B table (MLAB_MTP off -> on, both pairs), each
#                   pair's `mlabench compare`, the q_seq_len 1 calls of the
#                   same KV, the evict_first pair, the peer's run
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): papers/device-
#                   queue.sh mtpmx into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpmx
report_onoff "the MTP units, MLAB_MTP" "$here/h100_mtpmx"
report_pair "MTP off, the fp8 decodes: KV copies evict_first (auto) -> not (MLAB_KV_EVICT=off)" \
  "$here/h100_mtpmx_off_2.h5" "$here/h100_mtpmx_evoff.h5"
echo "== MLAB_MTP=auto (the rule of ec95569), FlashInfer beside"
report_table "$here/h100_mtpmx_peer.h5"
