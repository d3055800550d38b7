#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, seventy-first session, call 1:
# `papers/device-queue.sh amaxbeside`: the tree built as committed (base)
# and with -DMLAB_AMAX_BESIDE=1 (new), the 8 recorded cases, new, base,
# base, new; then 64 x 4096 q_seq_len 2 with MLAB_MTP=off).
#   rerun.sh        the A/B tables (us, then over each run's read limit)
#                   and each pair's `mlabench compare`
# To re-measure (a GPU machine): the knob was removed after this call; at
# bace9c8, `MLAB_COMMIT=bace9c8 bash papers/device-queue.sh amaxbeside`.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_ab "MLAB_AMAX_BESIDE 0 -> 1" "$here/h100_amaxbeside_ab_base" "$here/h100_amaxbeside_ab_new"
