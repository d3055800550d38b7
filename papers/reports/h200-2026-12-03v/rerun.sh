#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, thirtieth session, calls 3 and 4: the
# v33 suite with FlashInfer, a3a10f1's kernels, twice: call 3's FlashInfer
# bf16 row at 64 x 1024 came out bimodal, call 4's is the README's table).
#   rerun.sh [--out DIR]  from the committed results files: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder); the suite against the v31
#                         suite, 0f09366 and v7's suite (no case slower by
#                         more than 5%?); call 3's suite against call 4's;
#                         the three FlashInfer repeats at 64 x 1024
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out a3a10f1): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v33_suite.h5" "$@"
[ "${1:-}" = "--gpu" ] && exit 0
report_history "$here/h200_v33_suite.h5" v33 papers/reports/h200-2026-12-03p/h200_v31_suite.h5 v31
report_compare "call 4's suite against call 3's (the same build, another machine)" "$here/h200_v33_suite_call3.h5" "$here/h200_v33_suite.h5"
for k in 1 2 3; do
  echo "== FlashInfer at 64 x 1024, repeat $k (call 4, after the suite)"
  "$M" report "$here/fi64_$k.h5" | awk '/^\| case \| flashinfer_bf16/ && !n { f = 1 } f { print } f && /^\| geomean/ { f = 0; n = 1 }'
done
