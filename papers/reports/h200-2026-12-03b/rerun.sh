#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fourth session, calls 2 and 5:
# the short and mid calls' phases from a trace build of 4f63885's kernels, and
# papers/microbench/first_tile.cu). No results file was kept (a trace build's
# timings are not the plain build's; the microbenchmark prints CSV): this
# prints the two commands that re-measure them on a GPU machine.
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
echo "On a GPU machine, from the repository root:"
echo "  harness/gpu_trace.sh b4_kv1024 b4_kv8192 b32_kv1024 b64_kv1024 b256_kv1024 --" \
  "--max-time 0.05 --variants bf16_wgmma,fp8_wgmma,mxfp4_wgmma,fp8_exp2rcp,bf16   # out/trace_table.md: the table"
echo "  nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o first_tile papers/microbench/first_tile.cu && ./first_tile"
