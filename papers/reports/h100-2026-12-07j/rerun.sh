#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, seventy-first session, call 2:
# `papers/device-queue.sh mtpsmall`: MLAB_MTP on against off, ABBA, the
# bf16 and fp8 wgmma decodes at 32, 64, 128 items x kv 512, 1024, 2048,
# q_seq_len 2).
#   rerun.sh        the A/B table (off -> on, both pairs) and each pair's
#                   `mlabench compare`
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): mtpsmall, into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpsmall
report_onoff "the MTP units, MLAB_MTP" "$here/h100_mtpsmall"
