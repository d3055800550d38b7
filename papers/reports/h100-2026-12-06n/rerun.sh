#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-seventh session, calls 7-9:
# where an M32 block's tile goes: a trace of the two MXFP4 _qrow decodes at
# 64 x 8192 q_seq_len 2 with MLAB_MTP on and off and at q_seq_len 1, and
# ncu's counters of mxfp4_qrow_lazy's M32 and one-row kernels).
#   rerun.sh        the traces' tables, phase summaries and counters (kept
#                   in README.md: a trace's results files are not kept)
#   rerun.sh --gpu  re-measure the traces on a GPU machine (this tree):
#                   papers/device-queue.sh mxtrace into $OUT (the ncu call:
#                   README.md, by hand)
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mxtrace
sed -n '/^## The traces/,/^## Files/p' "$here/README.md" | sed '$d'
