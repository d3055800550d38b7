#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-seventh session, calls 1-5:
# the MXFP4 producers without the zero table past a unit's end, with the
# uniform consumer index, one item at a time, other register splits; the
# producer's tile loop through wg_mx_convert; an ncu profile; the softmax's
# cross-warp maxima by shuffles).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's). The ncu profile's files are
#              not kept (per-instruction CSV): its figures in the README are
#              its details page and ncu_banks.py of it
# To re-measure (a GPU machine), on the tree of 3fc67d4 with wip/s37's knobs
# (-DWG_MX_ZERO_PAST_END, -DWG_MX_UCONS_QR; main since 05e1c35 has neither: its
# default is call 2's new build):
# call 1: MLAB_AB_NEW_CUDA_FLAGS=-DWG_MX_ZERO_PAST_END=0 MLAB_AB_ALT=worktree
#   MLAB_AB_ALT_CUDA_FLAGS="-DWG_MX_ZERO_PAST_END=0 -DWG_MX_KB=1 -DWG_MX_UCONS_QR=1"
#   harness/gpu_ab.sh run worktree --max-time 0.1 --variants mxfp4_wgmma,mxfp4_wgmma_qrow
# call 2: new "-DWG_MX_ZERO_PAST_END=0 -DWG_MX_UCONS_QR=1", alt the same and
#   "-DWG_REGS_PRODUCER_MX=56 -DWG_REGS_CONSUMER_MX=200", the same options
# call 3: 05e1c35 with the tile loop through wg_mx_convert (0441f66) against 05e1c35
#   (harness/gpu_ab.sh prepare 05e1c35, then run 05e1c35, the same options)
# call 5: branch wip/s37 (6b4cf89): MLAB_AB_NEW_CUDA_FLAGS=-DWG_RED_SHFL=1 harness/gpu_ab.sh run worktree
#   --max-time 0.1 --variants bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow
# call 4's profile, on a GPU machine with Nsight Compute, for V in mxfp4_wgmma_qrow mxfp4_wgmma:
#   ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats
#     --section WarpStateStats --section SourceCounters -k regex:mla_decode --launch-count 1 -o V
#     build/mlabench run --no-time --quiet --variants V --batch 64 --kv-len 8192 --seed 1360
#   ncu -i V.ncu-rep --page source --csv --print-source sass > V.csv
#   python3 harness/tools/ncu_banks.py --opcodes V.csv --top 14; python3 harness/tools/ncu_banks.py V.csv
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: the default build (base) against no zero table (new)" "$here/s37_c1_base" "$here/s37_c1_new"
report_ab_table "call 1: base -> no zero table (new), median us" "$here/s37_c1_base" "$here/s37_c1_new"
report_ab_table_rl "call 1: the same, median / the run's read limit" "$here/s37_c1_base" "$here/s37_c1_new"
report_ab_table "call 1: base -> no zero table, one item at a time, the whole block's index broadcast (alt), median us" "$here/s37_c1_base" "$here/s37_c1_alt"
report_pairs "call 2: the default build (base) against no zero table and the whole block's index broadcast (new)" "$here/s37_c2_base" "$here/s37_c2_new"
report_ab_table "call 2: base -> no zero table, the uniform index (new), median us" "$here/s37_c2_base" "$here/s37_c2_new"
report_ab_table_rl "call 2: the same, median / the run's read limit" "$here/s37_c2_base" "$here/s37_c2_new"
report_ab_table "call 2: base -> the same with registers 56 / 200 (alt), median us" "$here/s37_c2_base" "$here/s37_c2_alt"
report_pairs "call 3: 05e1c35 (base) against its tile loop through wg_mx_convert (new)" "$here/s37_c3_base" "$here/s37_c3_new"
report_ab_table "call 3: base -> through wg_mx_convert (new), median us" "$here/s37_c3_base" "$here/s37_c3_new"
report_pairs "call 5: 0441f66 (base) against the softmax's cross-warp maxima by shuffles (new)" "$here/s37_c5_base" "$here/s37_c5_new"
report_ab_table "call 5: base -> WG_RED_SHFL=1 (new), median us" "$here/s37_c5_base" "$here/s37_c5_new"
report_ab_table_rl "call 5: the same, median / the run's read limit" "$here/s37_c5_base" "$here/s37_c5_new"
