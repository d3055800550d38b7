#!/usr/bin/env bash
# Re-run this report (H200, kernels v5, c889935, 2026-11-30).
#   rerun.sh [--out DIR]  from the committed results files: report.md and the
#                         figures (PNG; needs gnuplot) into DIR (default: this
#                         folder), then the v4/v5 same-machine compare and the
#                         --splits 1 runs (claims.md row 13) on stdout. CPU only.
#   rerun.sh --gpu        re-measure on a GPU machine: the session that made
#                         h200_suite_v5.h5, on the current tree (results in
#                         $OUT, default out/rerun-h200-2026-11-30b), and its
#                         compare against this report. For v5's exact kernels,
#                         check out c889935 first (see README.md).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  export OUT=${OUT:-$PWD/out/rerun-h200-2026-11-30b}
  bash harness/gpu_session.sh cuda --max-time 1
  "$M" compare "$here/h200_suite_v5.h5" "$OUT/results.h5" || [ $? -eq 6 ]
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
"$M" plot "$here/h200_suite_v5.h5" --out "$out" --format png --if-available
"$M" history papers/reports/h200-2026-11-30/h200_suite.h5 "$here/h200_v4_same_machine.h5" \
     "$here/h200_suite_v5.h5" --variants bf16,fp8 --out "$out" --format png --if-available
"$M" report "$here/h200_suite_v5.h5" --plots "$out" -o "$out/report.md"
# compare exits 6 when it finds a regression (bf16 256 x 8192 reads +1.8%)
report_pair "v4 (01c4aa4) against v5, same machine" "$here/h200_v4_same_machine.h5" "$here/h200_suite_v5.h5"
report_pair "the split rule (v5) against --splits 1 (claims.md row 13)" "$here/h200_suite_v5.h5" "$here/h200_claim13_splits1.h5"
