#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, thirtieth session, call 6: the
# epilogues' stores folded into one helper, wg_store_o, against ff4edb7, the
# four cases of 1024 rows).
#   rerun.sh   from the committed results files: both pairs of the A/B and
#              their table (the README's)
# To re-measure (a GPU machine, the tree of the commit that folded them;
# harness/gpu_ab.sh prepare ff4edb7 first): MLAB_AB_CASES_GLOB="b*_kv1024*.h5"
# harness/gpu_ab.sh run ff4edb7 --max-time 0.05 --variants fp8_wgmma,mxfp4_wgmma
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 6: ff4edb7 against the folded stores (new)" "$here/s30_c6_base" "$here/s30_c6_new"
report_ab_table "call 6: ff4edb7 -> the folded stores, median us" "$here/s30_c6_base" "$here/s30_c6_new"
