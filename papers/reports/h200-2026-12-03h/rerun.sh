#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-fifth session, call 3:
# papers/microbench/load_behind.cu). No results file: the microbenchmark
# prints CSV (the table in README.md); this prints the command that
# re-measures it on a GPU machine.
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
echo "On a GPU machine, from the repository root:"
echo "  nvcc -O3 -arch=sm_90a -o load_behind papers/microbench/load_behind.cu && ./load_behind"
