#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-second session, call 5: the
# short calls' phases from a trace build). No results file was kept (a trace
# build's timings are not the plain build's): this prints how to re-measure.
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
cat <<'MSG'
On a GPU machine, from the repository root (the cases: python3 data/record_competition.py --out /tmp/cases):
  cmake -S . -B build-tr -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_FLAGS=-DMLAB_TRACE"
  cmake --build build-tr --target mlabench
  build-tr/mlabench run --require-gpu --quiet --max-time 0.05 \
    --variants bf16,bf16_wgmma,fp8_exp2rcp,fp8_wgmma,mxfp4_wgmma /tmp/cases/CASE.h5 2> trace.log
  python3 harness/tools/trace_summary.py trace.log
MSG
