#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-fourth session, calls 2 and 5:
# the combine's first load with and without PDL, then with a control load
# first; trace builds of 6da236c's tree as is and with -DMLAB_NO_PDL (call
# 2), and of 57d15d2's with -DMLAB_TRACE_CTRL and as is (call 5),
# fp8_wgmma_qrow and bf16_wgmma at 4 x 1024 and 32 x 1024). A trace build's
# times are a few percent off the plain build's, so its results files and
# logs are not kept; this prints the calls' summaries from README.md.
# To re-measure (a GPU machine): call 2, at 6da236c, `bash
# papers/device-queue.sh pdltrace` (the entry left in 57d15d2: git show its
# parent); call 5, harness/gpu_trace.sh b4_kv1024 b32_kv1024 -- --variants
# fp8_wgmma_qrow,bf16_wgmma --max-time 0.05, once with
# MLAB_TRACE_CUDA_FLAGS=-DMLAB_TRACE_CTRL and once without.
set -euo pipefail
sed -n '/^## The summaries/,$p' "$(dirname "$0")/README.md"
