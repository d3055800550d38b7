#!/usr/bin/env bash
# Re-run this report (H200, kernels v4, f0cc332, 2026-11-30).
#   rerun.sh [--out DIR]  from the committed results file: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder). CPU only.
#   rerun.sh --gpu        re-measure on a GPU machine: the session that made
#                         h200_suite.h5, on the current tree (results in $OUT,
#                         default out/rerun-h200-2026-11-30), and its compare
#                         against this report. For v4's exact kernels, check
#                         out f0cc332 first (see README.md).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-11-30
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--gpu" ]; then
  export OUT=${OUT:-$PWD/out/rerun-h200-2026-11-30}
  bash harness/gpu_session.sh cuda --max-time 1
  "$M" compare "$here/h200_suite.h5" "$OUT/results.h5" || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
"$M" plot "$here/h200_suite.h5" --out "$out" --format png --if-available
"$M" report "$here/h200_suite.h5" --plots "$out" -o "$out/report.md"
