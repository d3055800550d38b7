#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-sixth session, calls 1-3, 5:
# the wgmma consumers' softmax with a lazy max, its exact trims, the
# consumer index made warp-uniform for ptxas; an ncu profile).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's). The ncu profile's files are
#              not kept (4 MB of per-instruction CSV): its figures in the
#              README are its details page and ncu_banks.py --opcodes of it
# To re-measure (a GPU machine):
# call 1: branch wip/lazy-max: MLAB_AB_NEW_CUDA_FLAGS=-DWG_LAZY_T=8 MLAB_AB_ALT=worktree
#   MLAB_AB_ALT_CUDA_FLAGS=-DWG_LAZY_T=0 harness/gpu_ab.sh run worktree --max-time 0.1
#   --variants bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow
# call 2: 2278b18's tree against c8a7128 (harness/gpu_ab.sh prepare c8a7128, then run c8a7128, the same options)
# call 3: fc90b60's tree with wg_cfg_t::UCONS true for every decode, against 2278b18
# call 5: the tree after 2f5d227 against 2f5d227, --variants mxfp4_wgmma_qrow
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: the default build (base) against the lazy max, WG_LAZY_T=8 (new)" "$here/s36_c1_base" "$here/s36_c1_new"
report_ab_table "call 1: base -> WG_LAZY_T=8 (new), median us" "$here/s36_c1_base" "$here/s36_c1_new"
report_ab_table_rl "call 1: the same, median / the run's read limit" "$here/s36_c1_base" "$here/s36_c1_new"
report_ab_table "call 1: base -> WG_LAZY_T=0 (alt: exact), median us" "$here/s36_c1_base" "$here/s36_c1_alt"
report_pairs "call 2: c8a7128 (base) against the softmax trims (new, 2278b18)" "$here/s36_c2_base" "$here/s36_c2_new"
report_ab_table "call 2: base -> the trims (new), median us" "$here/s36_c2_base" "$here/s36_c2_new"
report_ab_table_rl "call 2: the same, median / the run's read limit" "$here/s36_c2_base" "$here/s36_c2_new"
report_pairs "call 3: 2278b18 (base) against the uniform consumer index in every decode (new)" "$here/s36_c3_base" "$here/s36_c3_new"
report_ab_table "call 3: base -> the uniform index (new), median us" "$here/s36_c3_base" "$here/s36_c3_new"
report_ab_table_rl "call 3: the same, median / the run's read limit" "$here/s36_c3_base" "$here/s36_c3_new"
report_pairs "call 5: fc90b60 + docs (base, 2f5d227) against mxfp4_wgmma_qrow's consumers' index broadcast (new)" "$here/s36_c5_base" "$here/s36_c5_new"
report_ab_table "call 5: base -> the consumers' uniform index (new), median us" "$here/s36_c5_base" "$here/s36_c5_new"
report_ab_table_rl "call 5: the same, median / the run's read limit" "$here/s36_c5_base" "$here/s36_c5_new"
# call 2's profile, on a GPU machine with Nsight Compute, for V in mxfp4_wgmma_qrow fp8_wgmma_qrow:
#   ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats
#     --section WarpStateStats --section SourceCounters -k regex:mla_decode --launch-count 1 -o V
#     build/mlabench run --no-time --quiet --variants V --batch 64 --kv-len 8192 --seed 1360
#   ncu -i V.ncu-rep --page source --csv --print-source sass > V.csv
#   python3 harness/tools/ncu_banks.py --opcodes V.csv --top 10
