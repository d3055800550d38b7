#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-ninth session, call 4: the
# _qrow decodes' one-tile units split between both consumers, the combine
# triggered at the unit's start (8ca1751), against d5618c2).
#   rerun.sh   from the committed results files: both pairs of the A/B and
#              their table (the README's)
# To re-measure (a GPU machine, the tree of fd8b425, whose _qrow kernels are
# 8ca1751's; harness/gpu_ab.sh prepare d5618c2 first): harness/gpu_ab.sh run
# d5618c2 --max-time 0.1 --variants fp8_wgmma_qrow,mxfp4_wgmma_qrow; the
# trace: harness/gpu_trace.sh b4_kv1024 -- --max-time 0.05 --variants (the same two)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 4: d5618c2 against the _qrow decodes' one-tile unit split (8ca1751, new)" "$here/s29_c4_base" "$here/s29_c4_new"
report_ab_table "call 4: d5618c2 -> 8ca1751, median us" "$here/s29_c4_base" "$here/s29_c4_new"
