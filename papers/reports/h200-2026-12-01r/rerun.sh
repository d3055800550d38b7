#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the phases refactor against fdd094e).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: fdd094e against the phases" "$here/h200_fdd094e_run$k.h5" "$here/h200_phases_run$k.h5"
done
