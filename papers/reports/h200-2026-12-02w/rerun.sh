#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, twentieth session, calls 2-4: shared
# memory bank conflicts found and removed, two A/Bs on the 8 cases).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              (mlabench compare, base first)
# To re-measure (a GPU machine; here first: harness/gpu_ab.sh prepare BASE,
# and carry .ab): check out the new commit, then harness/gpu_ab.sh run BASE
# with the options named in README.md. The ncu profile of call 3 is
# README.md's "Bank conflicts" (ncu --metrics ... --section SourceCounters of
# each decode's validation launch at 64 x 8192).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 2: 03674f2 against ba4a47b (mxfp4_wgmma's producer lanes)" "$here/s20_c2_ab_base" "$here/s20_c2_ab_new"
report_pairs "call 4: ba4a47b against 5148d8f (S rows padded, the MXFP4 tile passes by row)" "$here/s20_c4_ab_base" "$here/s20_c4_ab_new"
