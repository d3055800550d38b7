#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-eighth session, call 1: does the
# runner's cold flush evict what a sample read? papers/microbench/flush_probe.cu,
# and three variants over the 8 cases under MLAB_FLUSH=memset and =store).
#   rerun.sh   from the committed results files: the two flushes compared
#              (no case slower by more than 5%?) and each one's medians
# The microbenchmark prints CSV (copied into README.md). To re-measure (an
# NVIDIA GPU, the tree of 5853d36):
#   nvcc -O3 -arch=sm_90a -o flush_probe papers/microbench/flush_probe.cu && ./flush_probe
#   MLAB_FLUSH=memset|store mlabench run --require-gpu --quiet --max-time 0.05
#     --variants fp8_wgmma,bf16_wgmma,mxfp4_wgmma_qrow SUITE/*.h5 -o OUT.h5
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_compare "MLAB_FLUSH=memset (the default) against MLAB_FLUSH=store" "$here/h200_flush_memset.h5" "$here/h200_flush_store.h5"
for f in memset store; do echo "== MLAB_FLUSH=$f"; report_table "$here/h200_flush_$f.h5"; done
