#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, thirtieth session, call 1: the
# one-wave instantiation of the persistent fp8 decodes and mxfp4_wgmma's
# one-tile split (d55c16d, branch wip/onewave), against 4b10cc9).
#   rerun.sh   from the committed results files: both pairs of the A/B and
#              their table (the README's)
# To re-measure (a GPU machine, the tree of d55c16d; harness/gpu_ab.sh
# prepare 4b10cc9 first): harness/gpu_ab.sh run 4b10cc9 --max-time 0.1
# --variants fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: 4b10cc9 against the one-wave kernels (d55c16d, new)" "$here/s30_c1_base" "$here/s30_c1_new"
report_ab_table "call 1: 4b10cc9 -> d55c16d, median us" "$here/s30_c1_base" "$here/s30_c1_new"
