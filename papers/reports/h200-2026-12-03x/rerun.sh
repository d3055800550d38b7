#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, thirty-first session, call 1:
# wip/qrow-sc2 (5c9eece) against main's tree, the _qrow decodes).
#   rerun.sh   from the committed results files: both pairs of the A/B and
#              their table (the README's)
# To re-measure (a GPU machine, main's tree at 8f94871 or 19a858c, whose
# kernels are the same; harness/gpu_ab.sh prepare 5c9eece first):
# harness/gpu_ab.sh run 5c9eece --max-time 0.1 --variants fp8_wgmma_qrow,mxfp4_wgmma_qrow
# The trace: harness/gpu_trace.sh b4_kv1024 b4_kv8192 b32_kv1024 b64_kv1024
# b64_kv8192 b256_kv8192 -- --max-time 0.05 --variants
# fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma_qrow,bf16_wgmma (19a858c's tree: its
# combine records when its weights are known).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: wip/qrow-sc2 (5c9eece, base) against main (new)" "$here/s31_c1_base" "$here/s31_c1_new"
report_ab_table "call 1: 5c9eece -> main, median us" "$here/s31_c1_base" "$here/s31_c1_new"
