#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-ninth session, call 3: cee01f0,
# bf16_wgmma's operands split between its consumers and the _qrow decodes'
# one-tile units split so, against d5618c2; the suite of that tree).
#   rerun.sh   from the committed results files: both pairs of the A/B and
#              their table (the README's), the suite's table
# To re-measure (a GPU machine, the tree of cee01f0; harness/gpu_ab.sh prepare
# d5618c2 first): harness/gpu_ab.sh run d5618c2 --max-time 0.1 --variants
# bf16_wgmma,fp8_wgmma_qrow,mxfp4_wgmma_qrow; the trace: harness/gpu_trace.sh
# b4_kv1024 b4_kv8192 b64_kv1024 -- --max-time 0.05 --variants (the same three)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 3: d5618c2 against cee01f0 (new)" "$here/s29_c3_base" "$here/s29_c3_new"
report_ab_table "call 3: d5618c2 -> cee01f0, median us" "$here/s29_c3_base" "$here/s29_c3_new"
report_table "$here/s29_c3_suite.h5"
