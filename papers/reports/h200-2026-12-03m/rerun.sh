#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-seventh session, call 3: the first
# tile from a block of the decode's shape, papers/microbench/first_tile.cu). No
# results file was kept (the microbenchmark prints CSV, copied into README.md):
# this prints the command that re-measures it on a GPU machine.
set -euo pipefail
echo "On an NVIDIA GPU of sm_90 or later, from the repository root:"
echo "  nvcc -O3 -arch=sm_90a -o first_tile papers/microbench/first_tile.cu && ./first_tile"
