#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twenty-second session, calls 1-3:
# the barrier merge against the combine kernel).
#   rerun.sh   from the committed results files: every pair (mlabench
#              compare, the combine first)
# To re-measure (a GPU machine): a -DMLAB_ONE_LAUNCH=ON build, then
# MLAB_MERGE=combine and MLAB_MERGE=barrier mlabench run --max-time 0.1 on
# the recorded cases (data/record_competition.py), in opposite orders;
# README.md names each call's cases and variants.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: the default build (combine) against the one-launch build's barrier merge" "$here/s22_c1_merge_base" "$here/s22_c1_merge_new"
report_pairs "call 1: the default build (combine) against the one-launch build's combine" "$here/s22_c1_merge_base" "$here/s22_c1_merge_alt"
report_pairs "call 2: combine against barrier (70be753)" "$here/s22_c2_combine" "$here/s22_c2_barrier"
report_pairs "call 2: combine against barrier launched plainly" "$here/s22_c2_combine" "$here/s22_c2_barrier_nocoop"
report_pairs "call 3: combine against barrier (05c1eba)" "$here/s22_c3_combine" "$here/s22_c3_barrier"
report_pairs "call 3: combine against barrier with a spinning poll" "$here/s22_c3_combine" "$here/s22_c3_barrier_spin"
