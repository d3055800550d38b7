#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-seventh session, call 2: the a8w8
# wgmma decodes' first Q row loaded at the kernel's start (new) against c59bd93).
#   rerun.sh   from the committed results files: both pairs
# To re-measure (a GPU machine, the tree of fb7c307 with WG_Q_EARLY applied to
# every a8w8 wgmma decode (mla_wgmma.h: QE = WG_Q_EARLY); harness/gpu_ab.sh
# prepare c59bd93 first): harness/gpu_ab.sh run c59bd93 --max-time 0.1
# --variants fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow; the trace:
# harness/gpu_trace.sh b4_kv1024 b4_kv8192 b64_kv1024 b32_kv1024 -- --max-time
# 0.05 --variants (the same four)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 2: c59bd93 against Q loaded at the kernel's start (new)" "$here/s27_c2_base" "$here/s27_c2_new"
