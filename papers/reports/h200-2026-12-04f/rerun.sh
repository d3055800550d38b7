#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-fifth session, calls 1, 2, 3
# and 5: bf16_wgmma's head pairs, the combine capped a few blocks an SM).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's)
# To re-measure (a GPU machine), the current tree (both changes are run-time
# knobs, so each A/B is one build run both ways):
# call 3: MLAB_AB_BASE_ENV=MLAB_COMBINE_CAP=off harness/gpu_ab.sh run worktree --max-time 0.1 --variants bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow,fp8_exp2rcp,bf16
# call 5: MLAB_AB_BASE_ENV=MLAB_PAIRS=off MLAB_AB_CASES_GLOB="b4_kv*.h5" harness/gpu_ab.sh run worktree --max-time 0.15 --variants bf16_wgmma
# call 1 ran the pairs without the cap (now: MLAB_AB_NEW_ENV=MLAB_COMBINE_CAP=off
# MLAB_AB_BASE_ENV="MLAB_PAIRS=off MLAB_COMBINE_CAP=off"), its alt f388977;
# call 2 the cap on every plain combine, before its rule (not in the tree).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: bf16_wgmma a block a unit (base, MLAB_PAIRS=off) against head pairs, the combine uncapped (new)" "$here/s35_c1_base" "$here/s35_c1_new"
report_ab_table "call 1: base -> head pairs (new), median us" "$here/s35_c1_base" "$here/s35_c1_new"
report_ab_table "call 1: base -> f388977 (alt), median us" "$here/s35_c1_base" "$here/s35_c1_alt"
report_pairs "call 2: the combine as many blocks an SM as fit (base) against capped on every call (new)" "$here/s35_c2_base" "$here/s35_c2_new"
report_ab_table "call 2: base -> capped everywhere (new), median us" "$here/s35_c2_base" "$here/s35_c2_new"
report_pairs "call 3: MLAB_COMBINE_CAP=off (base) against the cap where the decode fills the SMs (new, dbc1f2e)" "$here/s35_c3_base" "$here/s35_c3_new"
report_ab_table "call 3: base -> the capped combine (new), median us" "$here/s35_c3_base" "$here/s35_c3_new"
report_ab_table_rl "call 3: the same, median / the run's read limit" "$here/s35_c3_base" "$here/s35_c3_new"
report_pairs "call 5: bf16_wgmma a block a unit (base, MLAB_PAIRS=off) against head pairs with the combine capped (new)" "$here/s35_c5_base" "$here/s35_c5_new"
report_ab_table "call 5: base -> head pairs, capped (new), median us" "$here/s35_c5_base" "$here/s35_c5_new"
