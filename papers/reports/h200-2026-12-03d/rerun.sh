#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fourth session, call 4: the
# a8w8 amax in every decode block (MLAB_AMAX=inline, new) against the amax
# pass (MLAB_AMAX=pass, base), both -DMLAB_ONE_LAUNCH=ON, and the default
# build (alt), the two 4-row cases).
#   rerun.sh   from the committed results files: both pairs of each comparison
# To re-measure (a GPU machine, the tree of 28fcbc4):
# MLAB_AB_CASES_GLOB="b4_kv*.h5" MLAB_AB_NEW_CMAKE=-DMLAB_ONE_LAUNCH=ON MLAB_AB_BASE_CMAKE=-DMLAB_ONE_LAUNCH=ON
# MLAB_AB_NEW_ENV=MLAB_AMAX=inline MLAB_AB_BASE_ENV=MLAB_AMAX=pass MLAB_AB_ALT=worktree
# harness/gpu_ab.sh run worktree --max-time 0.15 --variants fp8_wgmma,mxfp4_wgmma,fp8_exp2rcp,fp8
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 4: MLAB_AMAX=pass against MLAB_AMAX=inline (one-launch build)" "$here/s24_c4_base" "$here/s24_c4_new"
report_pairs "call 4: the one-launch build (pass) against the default build" "$here/s24_c4_base" "$here/s24_c4_alt"
