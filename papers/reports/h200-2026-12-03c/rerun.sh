#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fourth session, call 3: the
# a8w8 amax pass with 8 loads in flight a thread and fp8_wgmma's ring gated
# on the amax (new, e01f25b), against 4f63885 (base) and e01f25b -DWG_GATE=0
# (alt: the amax pass alone)).
#   rerun.sh   from the committed results files: both pairs of each comparison
# To re-measure (a GPU machine, the tree of e01f25b, harness/gpu_ab.sh prepare 4f63885 first):
# MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS=-DWG_GATE=0 harness/gpu_ab.sh run 4f63885
# --max-time 0.1 --variants fp8_wgmma,mxfp4_wgmma,fp8_exp2rcp,fp8; the trace: a build with
# -DCMAKE_CUDA_FLAGS="-DMLAB_TRACE -DMLAB_WG_PROF", mlabench run --max-time 0.05
# CASE 2> trace.log, harness/tools/trace_summary.py trace.log.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 3: 4f63885 against e01f25b (amax pass 8 loads, gated ring)" "$here/s24_c3_base" "$here/s24_c3_new"
report_pairs "call 3: 4f63885 against e01f25b -DWG_GATE=0 (the amax pass alone)" "$here/s24_c3_base" "$here/s24_c3_alt"
