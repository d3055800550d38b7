#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, fortieth session, call 3: the v43
# suite: 63b556d, the fp8 wgmma decodes' DRAM share with the latency terms;
# FlashInfer and FlashMLA beside).
#   rerun.sh [--out DIR]  from the committed results file: report.md and
#                         the suite's figures (PNG; needs gnuplot) into DIR
#                         (default: this folder); the suite against the v42
#                         suite, 0f09366 and v7's suite (no case slower by
#                         more than 5%?)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree): the 8 recorded cases with the variants,
#                         FlashInfer and FlashMLA (README "Peers": .peers/
#                         carried, with both packs), into $OUT.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_suite "$here/h200_v43_suite.h5" "$@"
[ "${1:-}" = "--gpu" ] && exit 0
report_history "$here/h200_v43_suite.h5" v43 papers/reports/h200-2026-12-04p/h200_v42_suite.h5 v42
