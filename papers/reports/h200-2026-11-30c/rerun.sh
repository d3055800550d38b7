#!/usr/bin/env bash
# Re-run this report (H200, kernels v6, 2041b49, 2026-11-30).
#   rerun.sh [--out DIR]  from the committed results files: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), then the two same-machine compares and the
#                         second machine's table on stdout. CPU only.
#   rerun.sh --gpu        re-measure on a GPU machine: the session that made
#                         h200_suite_v6.h5, on the current tree (results in
#                         $OUT, default out/rerun-h200-2026-11-30c), and its
#                         compare against this report. For v6's exact kernels,
#                         check out 2041b49 first (see README.md).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  export OUT=${OUT:-$PWD/out/rerun-h200-2026-11-30c}
  bash harness/gpu_session.sh cuda --max-time 0.7
  "$M" compare "$here/h200_suite_v6.h5" "$OUT/results.h5" || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
"$M" plot "$here/h200_suite_v6.h5" --out "$out" --format png --if-available
"$M" history papers/reports/h200-2026-11-30b/h200_suite_v5.h5 "$here/h200_suite_v6.h5" \
     --variants bf16,fp8 --out "$out" --format png --if-available
"$M" report "$here/h200_suite_v6.h5" --plots "$out" -o "$out/report.md"
# compare exits 6 when it finds a regression: one row of v5 -> v6 reads slower
report_pair "v5 (2ae5705) against v6, same machine" "$here/h200_v5_same_machine.h5" "$here/h200_suite_v6.h5"
report_pair "a67d97b against v6 (the vector epilogue), same machine" "$here/h200_a67d97b_same_machine.h5" "$here/h200_suite_v6.h5"
echo "== a second H200, seed-7 inputs"
"$M" report "$here/h200_large_seed7_second_machine.h5"
