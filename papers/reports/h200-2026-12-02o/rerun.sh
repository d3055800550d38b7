#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, eighteenth session, call 4: the spread
# combine past 16 splits against b2f77ec on the 8 recorded cases).
#   rerun.sh   from the committed results files: both A/B pairs (mlabench
#              compare, base first)
# To re-measure (a GPU machine; here first: harness/gpu_ab.sh prepare b2f77ec,
# and carry .ab): check out 34abafb, then harness/gpu_ab.sh run b2f77ec
# --max-time 0.1
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 4: b2f77ec against 34abafb (the combine spread past 16 splits)" "$here/s18_c4_ab_base" "$here/s18_c4_ab_new"
