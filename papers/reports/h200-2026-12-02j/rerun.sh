#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, seventeenth session, call 1: bytes in flight).
#   rerun.sh         print the measured table (README.md)
#   rerun.sh --gpu   build and run papers/microbench/bytes_in_flight.cu (nvcc, an
#                    sm_90 GPU): 150 MB and 600 MB, CSV on standard output
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  b=${TMPDIR:-/tmp}/bytes_in_flight
  nvcc -O3 -arch=sm_90a -o "$b" papers/microbench/bytes_in_flight.cu
  "$b" 150
  "$b" 600 | tail -n +2
else
  sed -n '/^Bulk copies/,/^Outcome/p' "$here/README.md" | sed '$d'
fi
