#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-seventh session, call 1: tok_kv
# and the tensor maps in the kernel parameter (new: branch wip/param-tokkv,
# 4cb704b) against c59bd93 (base), and tok_kv alone
# in the parameter (alt: the same tree with -DMLAB_TMAP_PARAM=0)).
#   rerun.sh   from the committed results files: both pairs of each comparison
# To re-measure (a GPU machine, the tree of 4cb704b; harness/gpu_ab.sh
# prepare c59bd93 first): MLAB_AB_ALT=worktree
# MLAB_AB_ALT_CUDA_FLAGS=-DMLAB_TMAP_PARAM=0 harness/gpu_ab.sh run c59bd93
# --max-time 0.1 --variants fp8_wgmma,fp8_wgmma_qrow,bf16_wgmma,mxfp4_wgmma;
# the traces: harness/gpu_trace.sh b4_kv1024 b4_kv8192 b64_kv1024 -- --max-time
# 0.05 --variants (the same four), of that tree and of it built -DMLA_KV_INLINE=0 -DMLAB_TMAP_PARAM=0 (cold)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: c59bd93 against tok_kv and the maps in the kernel parameter (new)" "$here/s27_c1_base" "$here/s27_c1_new"
report_pairs "call 1: c59bd93 against tok_kv alone in the kernel parameter (alt)" "$here/s27_c1_base" "$here/s27_c1_alt"
