#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, seventieth session, call 2:
# `device-queue.sh mtprule` with the program of 76e6fe3 carried: the MTP rule
# with fp8_wgmma's unit on past 1 L2 on the H100 too, MLAB_MTP unset (auto)
# against off, ABBA; then, MTP off at 64 x 4096 q_seq_len 2, the fp8
# decodes at 1 split (one wave) against 2 (the persistent kernel)).
#   rerun.sh        the A/B table and both pairs (off -> auto), then the
#                   splits pair
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): mtprule, into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtprule
report_ab_table "mtprule (H100): MLAB_MTP=off -> unset (auto), both pairs" "$here/h100_mtprule_off" "$here/h100_mtprule_auto"
report_pairs "mtprule (H100): off -> auto" "$here/h100_mtprule_off" "$here/h100_mtprule_auto"
report_pair "MTP off, 64 x 4096 q_seq_len 2: 1 split (fp8_wgmma's one-wave kernel) -> 2 (persistent)" \
  "$here/h100_mtprule_oneu_1.h5" "$here/h100_mtprule_oneu_2.h5"
