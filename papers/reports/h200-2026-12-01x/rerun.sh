#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: bulk-copy tile loads against cp.async).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: cp.async against bulk copies" "$here/h200_bulk_base_$k.h5" "$here/h200_bulk_bulk_$k.h5"
done
