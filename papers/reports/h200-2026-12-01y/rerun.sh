#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: three prepared changes against 988c458).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: 988c458 against the three changes" "$here/h200_v13_base_$k.h5" "$here/h200_v13_new_$k.h5"
done
