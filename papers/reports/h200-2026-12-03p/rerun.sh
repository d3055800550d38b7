#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-eighth session, call 3: the
# _qrow decodes' Q by warps owning whole heads (82c48af) against 1eb3e47, and
# the v31 suite with FlashInfer).
#   rerun.sh [--out DIR]  from the committed results files: both pairs of the
#                         A/B; report.md and the suite's figures (PNG; needs
#                         gnuplot) into DIR (default: this folder); the suite
#                         against the v29 suite, 0f09366 and v7's suite (no
#                         case slower by more than 5%?)
#   rerun.sh --gpu        re-measure the suite on a GPU machine (the current
#                         tree; for these kernels check out 82c48af): the 8
#                         recorded cases with the variants and FlashInfer
#                         (README "Peers": .peers/ carried), into $OUT.
# The A/B, re-measured: harness/gpu_ab.sh prepare 1eb3e47, then on the GPU
# machine harness/gpu_ab.sh run 1eb3e47 --max-time 0.1 --variants
# fp8_wgmma_qrow,mxfp4_wgmma_qrow (82c48af's tree).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
[ "${1:-}" = "--gpu" ] || report_pairs "call 3: 1eb3e47 against the _qrow decodes' Q by warps owning whole heads (82c48af)" "$here/s28_c3_base" "$here/s28_c3_new"
report_suite "$here/h200_v31_suite.h5" "$@"
report_history "$here/h200_v31_suite.h5" v31 papers/reports/h200-2026-12-03j/h200_v29_suite.h5 v29
