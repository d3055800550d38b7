#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-fourth session, calls 1 and 3:
# a one-tile unit's chain overlapped, papers/wip/one_dv_overlap.patch of
# 6da236c's tree (new) against the tree as it was (base); landed as 535ebb1).
#   rerun.sh   from the committed results files: both pairs of each call
#              and their tables (the README's)
# To re-measure (a GPU machine): at 6da236c, `MLAB_COMMIT=6da236c bash
# papers/device-queue.sh dvoverlap` (call 1: the 8 recorded cases, five
# variants, --max-time 0.15); call 3 the same with MLAB_AB_SASS=off
# MLAB_AB_CASES_GLOB='b4_kv1024*.h5' (4 x 1024 only). The queue entry left
# with the patch in 535ebb1's successor; git show that commit's parent for it.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1, the 8 cases: base (6da236c) against new (the patch)" "$here/s54_dvov_base" "$here/s54_dvov_new"
report_ab_table "call 1, median us" "$here/s54_dvov_base" "$here/s54_dvov_new"
report_ab_table_rl "call 1, median / the run's read limit" "$here/s54_dvov_base" "$here/s54_dvov_new"
report_pairs "call 3, 4 x 1024: base against new" "$here/s54_dvov4_base" "$here/s54_dvov4_new"
report_ab_table "call 3, median us" "$here/s54_dvov4_base" "$here/s54_dvov4_new"
