#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-eighth session, calls 1-4:
# the MXFP4 producers' magnitude codes by arithmetic (and the new rung
# mxfp4_qrow_lazy in the same runs); the producers' phases traced; the raw
# stage released before the codes; the table entries read first).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's). The traces' logs are not
#              kept: their figures are in the README
# To re-measure (a GPU machine), each knob on its branch (main has none of them):
# call 1: branch wip/s38-arith: MLAB_AB_NEW_CUDA_FLAGS=-DWG_MX_ARITH=1 harness/gpu_ab.sh run worktree
#   --max-time 0.1 --variants mxfp4_wgmma,mxfp4_wgmma_qrow,mxfp4_qrow_lazy
# call 2's traces: harness/gpu_trace.sh b64_kv8192 b256_kv8192 -- --max-time 0.05
#   --variants mxfp4_wgmma,mxfp4_wgmma_qrow,mxfp4_qrow_lazy (c03290f)
# call 3: branch wip/s38-early: MLAB_AB_NEW_CUDA_FLAGS=-DWG_MX_EARLY=1, the same options,
#   --variants mxfp4_wgmma,mxfp4_wgmma_qrow; its trace: MLAB_TRACE_CUDA_FLAGS=-DWG_MX_EARLY=1
#   harness/gpu_trace.sh b256_kv8192 b64_kv8192 -- --max-time 0.05 --variants mxfp4_wgmma_qrow
# call 4: branch wip/s38-hoist: MLAB_AB_NEW_CUDA_FLAGS="-DWG_MX_HOIST=1 -DWG_REGS_PRODUCER_MX=72
#   -DWG_REGS_CONSUMER_MX=184" MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS="-DWG_REGS_PRODUCER_MX=72
#   -DWG_REGS_CONSUMER_MX=184", the same options
# call 5: ctest -L gpu -R "rising|negative_control_lazy" in a CUDA build; then
#   mlabench run --require-gpu --quiet --max-time 0.1 --variants mxfp4_wgmma_qrow,mxfp4_qrow_lazy CASES
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: the default build (base) against the magnitude codes by arithmetic (new)" "$here/s38_c1_base" "$here/s38_c1_new"
report_ab_table "call 1: base -> WG_MX_ARITH=1 (new), median us" "$here/s38_c1_base" "$here/s38_c1_new"
report_ab_table_rl "call 1: the same, median / the run's read limit" "$here/s38_c1_base" "$here/s38_c1_new"
report_pairs "call 3: the default build (base) against the raw stage released before the codes (new)" "$here/s38_c3_base" "$here/s38_c3_new"
report_ab_table "call 3: base -> WG_MX_EARLY=1 (new), median us" "$here/s38_c3_base" "$here/s38_c3_new"
report_ab_table_rl "call 3: the same, median / the run's read limit" "$here/s38_c3_base" "$here/s38_c3_new"
report_pairs "call 4: the default build (base) against the table entries first, registers 72 / 184 (new)" "$here/s38_c4_base" "$here/s38_c4_new"
report_ab_table "call 4: base -> WG_MX_HOIST=1, registers 72 / 184 (new), median us" "$here/s38_c4_base" "$here/s38_c4_new"
report_ab_table "call 4: base -> registers 72 / 184 alone (alt), median us" "$here/s38_c4_base" "$here/s38_c4_alt"
echo "== call 5: mxfp4_qrow_lazy and mxfp4_wgmma_qrow, one run"
"$M" report "$here/s38_c5_lazy.h5" | grep -E '^\| (mxfp4_wgmma_qrow|mxfp4_qrow_lazy) '
