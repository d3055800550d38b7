#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-05, forty-eighth session, call 3: the
# KV copies evict_first by the rule, MLAB_KV_EVICT=auto, against never, off;
# one build, the read probe with its evict_first shape in both).
#   rerun.sh   from the committed results files: both pairs and their tables
#              (the README's)
# To re-measure (a GPU machine): `MLAB_AB_BASE_ENV=MLAB_KV_EVICT=off bash
# harness/gpu_ab.sh run worktree --variants
# fp8_wgmma_qrow,bf16_wgmma,mxfp4_qrow_lazy,fp8_wgmma,mxfp4_wgmma_qrow`.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "MLAB_KV_EVICT=off (base) against auto (new)" "$here/s48_ef_off" "$here/s48_ef_auto"
report_ab_table "off -> auto, median us" "$here/s48_ef_off" "$here/s48_ef_auto"
report_ab_table_rl "the same, median / the run's read limit" "$here/s48_ef_off" "$here/s48_ef_auto"
