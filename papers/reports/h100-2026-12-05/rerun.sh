#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-05, forty-eighth session, call 1: the
# cold protocol's flush, a memset (the default) against a flush by loads).
#   rerun.sh   from the committed results files: both pairs and their tables
#              (the README's)
# To re-measure (a GPU machine): at 483841a, `bash papers/device-queue.sh
# flush` (the traces, then this A/B); since, `MLAB_AB_NEW_ENV=MLAB_FLUSH=load
# bash harness/gpu_ab.sh run worktree --variants
# fp8_wgmma_qrow,bf16_wgmma,mxfp4_qrow_lazy` (the current kernels).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "the memset flush (base) against the flush by loads (new)" "$here/s48_flush_memset" "$here/s48_flush_load"
report_ab_table "memset -> loads, median us" "$here/s48_flush_memset" "$here/s48_flush_load"
report_ab_table_rl "the same, median / the run's read limit" "$here/s48_flush_memset" "$here/s48_flush_load"
