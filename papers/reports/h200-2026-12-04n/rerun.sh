#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-ninth session, calls 1-2:
# the lazy rung's maxima in alternating halves of red (wip/s38-lazy-half,
# landed as 6d2def4) against main; the MXFP4 producers' items in flight,
# WG_MX_KB = 4, 5 and 2 against the default 3).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's)
# To re-measure (a GPU machine):
# call 1: at f3bd957 (the halves), harness/gpu_ab.sh prepare faf8721 here, then there
#   MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DWG_MX_KB=4 harness/gpu_ab.sh run faf8721
#   --max-time 0.1 --variants mxfp4_wgmma,mxfp4_wgmma_qrow,mxfp4_qrow_lazy
# call 2: MLAB_AB_NEW_CUDA_FLAGS=-DWG_MX_KB=5 MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DWG_MX_KB=2
#   harness/gpu_ab.sh run worktree, the same options (129f863)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: main, faf8721 (base) against the halves (new)" "$here/s39_c1_base" "$here/s39_c1_new"
report_ab_table "call 1: base -> the halves (new), median us" "$here/s39_c1_base" "$here/s39_c1_new"
report_ab_table_rl "call 1: the same, median / the run's read limit" "$here/s39_c1_base" "$here/s39_c1_new"
report_ab_table "call 1: base -> the halves with WG_MX_KB=4 (alt), median us" "$here/s39_c1_base" "$here/s39_c1_alt"
report_ab_table_rl "call 1: the same, median / the run's read limit" "$here/s39_c1_base" "$here/s39_c1_alt"
report_pairs "call 2: the default build, KB = 3 (base) against KB = 5 (new)" "$here/s39_c2_base" "$here/s39_c2_new"
report_ab_table "call 2: base -> WG_MX_KB=5 (new), median us" "$here/s39_c2_base" "$here/s39_c2_new"
report_ab_table_rl "call 2: the same, median / the run's read limit" "$here/s39_c2_base" "$here/s39_c2_new"
report_ab_table "call 2: base -> WG_MX_KB=2 (alt), median us" "$here/s39_c2_base" "$here/s39_c2_alt"
report_ab_table_rl "call 2: the same, median / the run's read limit" "$here/s39_c2_base" "$here/s39_c2_alt"
