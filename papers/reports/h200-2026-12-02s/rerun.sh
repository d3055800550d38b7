#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, nineteenth session, calls 1-2: how a
# tensor copy's parameters cost read rate; the decodes loading by cp.async).
#   rerun.sh         the microbenchmark's table (README.md), then call 2's A/B
#                    pairs from the committed results files (mlabench compare,
#                    base first; new: the cp.async ring, alt: the same build
#                    with its tensor copies)
#   rerun.sh --gpu   build and run papers/microbench/tma_order.cu (nvcc, an
#                    sm_90 GPU) at 1200, 600, 300 and 150 MB, CSV on standard
#                    output
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  b=${TMPDIR:-/tmp}/tma_order
  nvcc -O3 -arch=sm_90a -o "$b" papers/microbench/tma_order.cu
  for mb in 1200 600 300 150; do "$b" "$mb"; done
  exit
fi
sed -n '/^Rate (GB\/s)/,/^Outcome/p' "$here/README.md" | sed '$d'
report_pairs "call 2: b82b8df against the cp.async ring (MLAB_TMAP=off)" "$here/s19_c2_ab_base" "$here/s19_c2_ab_new"
report_pairs "call 2: b82b8df against the same build with its tensor copies" "$here/s19_c2_ab_base" "$here/s19_c2_ab_alt"
