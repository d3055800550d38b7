#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, forty-fourth session, call 1: a trace
# of the default build, v43's kernels). A trace build's times are a few percent
# off the plain build's, so its results files are not kept; this prints the
# call's summaries from README.md.
# To re-measure (a GPU machine), the tree of 95e58bb or any later one whose
# kernels are the same: `bash papers/device-queue.sh trace` while that call is
# queued, else harness/gpu_trace.sh, e.g.
#   OUT=out/b16 harness/gpu_trace.sh b4_kv1024 b4_kv8192 b32_kv1024 b256_kv1024 -- --variants bf16_wgmma --max-time 0.05
#   OUT=out/f8q harness/gpu_trace.sh b4_kv1024 b32_kv1024 -- --variants fp8_wgmma_qrow --max-time 0.05
#   OUT=out/mx harness/gpu_trace.sh b64_kv8192 b256_kv8192 -- --variants mxfp4_wgmma_qrow --max-time 0.05
set -euo pipefail
sed -n '/^## The summaries/,$p' "$(dirname "$0")/README.md"
