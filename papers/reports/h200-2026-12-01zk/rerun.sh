#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, twelfth session: lazy rescaling; the wgmma microbenchmark).
#   rerun.sh         call 2's comparisons, from the committed results files
#   rerun.sh --gpu   write, build and run the microbenchmark (papers/microbench/wgmma_n_bench_gen.py; NVIDIA sm_90a, nvcc on PATH)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  python3 papers/microbench/wgmma_n_bench_gen.py "${TMPDIR:-/tmp}/wgmma_n_bench.cu"
  nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o "${TMPDIR:-/tmp}/wgmma_n_bench" "${TMPDIR:-/tmp}/wgmma_n_bench.cu"
  exec "${TMPDIR:-/tmp}/wgmma_n_bench"
fi
for k in 1 2; do
  report_pair "pair $k: base (ca4a198) against lazy rescaling" "$here/h200_s12_lazy_base_$k.h5" "$here/h200_s12_lazy_new_$k.h5"
done
