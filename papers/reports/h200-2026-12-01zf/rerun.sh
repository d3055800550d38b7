#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eleventh session, call 2: a8w8 stages by tensor copies).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: padded rows by bulk copies against tensor copies" "$here/h200_tmap2_base_$k.h5" "$here/h200_tmap2_new_$k.h5"
done
