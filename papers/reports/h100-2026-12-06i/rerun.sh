#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-fifth session, call 5: the
# combine's second freshly written line, of another row (-DMLAB_TRACE_CTRL3)
# and of the same row (-DMLAB_TRACE_CTRL2); trace builds of da44734's tree
# with the probe in README.md applied, fp8_wgmma_qrow and bf16_wgmma at
# 4 x 1024 and 32 x 1024). A trace build's times are a few percent off the
# plain build's, so its results files and logs are not kept; this prints
# the call's summaries from README.md.
# To re-measure (a GPU machine): at da44734, apply the README's diff
# (git apply), then harness/gpu_trace.sh b4_kv1024 b32_kv1024 -- --variants
# fp8_wgmma_qrow,bf16_wgmma --max-time 0.05 with
# MLAB_TRACE_CUDA_FLAGS="-DMLAB_TRACE_CTRL2 -DMLAB_TRACE_CTRL3", then with
# MLAB_TRACE_CUDA_FLAGS=-DMLAB_TRACE_CTRL2.
set -euo pipefail
sed -n '/^## The summaries/,$p' "$(dirname "$0")/README.md"
