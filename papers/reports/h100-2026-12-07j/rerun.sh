#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, seventy-first session, call 2:
# `papers/device-queue.sh mtpsmall`: MLAB_MTP on against off, ABBA, the
# bf16 and fp8 wgmma decodes at 32, 64, 128 items x kv 512, 1024, 2048,
# q_seq_len 2).
#   rerun.sh        the A/B table (off -> on, both pairs), each pair's
#                   `mlabench compare`, and each decode's fixed cost and
#                   cost a KV tile by mode (harness/tools/kv_slopes.py)
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): mtpsmall, into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpsmall
report_onoff "the MTP units, MLAB_MTP" "$here/h100_mtpsmall"
echo "== each decode's fixed cost and its cost a KV tile, each mode (harness/tools/kv_slopes.py)"
python3 harness/tools/kv_slopes.py --mlabench "$M" --variants fp8_wgmma_qrow,fp8_wgmma,bf16_wgmma \
  "$here"/h100_mtpsmall_off_{1,2}.h5 "$here"/h100_mtpsmall_on_{1,2}.h5
echo "== the same at 64 items, kv 512 and 1024 only (one grid each)"
python3 harness/tools/kv_slopes.py --mlabench "$M" --variants fp8_wgmma_qrow,fp8_wgmma,bf16_wgmma --kv-lens 512,1024 \
  "$here"/h100_mtpsmall_off_{1,2}.h5 "$here"/h100_mtpsmall_on_{1,2}.h5
