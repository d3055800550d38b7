#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-ninth session, call 1: the
# one-tile unit's head split, branch wip/split1 (8dc4f8b), against d5618c2).
#   rerun.sh   from the committed results files: both pairs of the A/B and
#              their table (the README's)
# To re-measure (a GPU machine, the tree of 8dc4f8b; harness/gpu_ab.sh prepare
# d5618c2 first): harness/gpu_ab.sh run d5618c2 --max-time 0.1 --variants
# fp8_wgmma_qrow,mxfp4_wgmma_qrow,fp8_wgmma,mxfp4_wgmma; the trace:
# harness/gpu_trace.sh b4_kv1024 b64_kv1024 -- --max-time 0.05 --variants (the same four)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: d5618c2 against the one-tile unit's head split (wip/split1, new)" "$here/s29_c1_base" "$here/s29_c1_new"
report_ab_table "call 1: d5618c2 -> the one-tile unit's head split (wip/split1), median us" "$here/s29_c1_base" "$here/s29_c1_new"
