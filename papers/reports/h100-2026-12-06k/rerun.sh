#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-sixth session, calls 6 and 7:
# bf16_wgmma's MTP unit validated, its bug caught, then MLAB_MTP on against
# off at q_seq_len 2, with the q_seq_len 1 calls of as many KV rows and
# FlashInfer beside).
#   rerun.sh        the A/B's table (off -> on, both pairs), each pair's
#                   `mlabench compare`, and the tables of the q_seq_len 1 run
#                   and of FlashInfer's
#   rerun.sh --gpu  re-measure on a GPU machine (this tree; .peers/ carried):
#                   papers/device-queue.sh mtpmx into $OUT (mtp's successor: bf16_wgmma beside the MXFP4 units)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpmx
report_onoff "MLAB_MTP (call 7; the q_seq_len 1 calls: call 6)" "$here/h100_mtp"
echo "== FlashInfer bf16 beside (call 6: bf16_wgmma's rows there are the bug's, not timed)"
report_table "$here/h100_mtp_peer.h5"
