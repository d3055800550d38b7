#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the late refill against the combine build).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: the combine build against the late refill" "papers/reports/h200-2026-12-01t/h200_combine_new_$k.h5" "$here/h200_refill_late_$k.h5"
done
