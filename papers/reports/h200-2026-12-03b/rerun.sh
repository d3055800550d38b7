#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fourth session, calls 2 and 5:
# the short and mid calls' phases from a trace build of 4f63885's kernels, and
# papers/microbench/first_tile.cu). No results file was kept (a trace build's
# timings are not the plain build's; the microbenchmark prints CSV): this
# prints how to re-measure.
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
cat <<'MSG'
On a GPU machine, from the repository root (the cases: python3 data/record_competition.py --out /tmp/cases):
  cmake -S . -B build-tr -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_FLAGS=-DMLAB_TRACE -DMLAB_WG_PROF"
  cmake --build build-tr --target mlabench
  build-tr/mlabench run --max-time 0.05 \
    --variants bf16_wgmma,fp8_wgmma,mxfp4_wgmma,fp8_exp2rcp,bf16 /tmp/cases/CASE.h5 2> trace.log
  python3 harness/tools/trace_summary.py trace.log
  nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o first_tile papers/microbench/first_tile.cu && ./first_tile
MSG
