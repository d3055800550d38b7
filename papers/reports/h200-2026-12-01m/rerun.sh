#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eighth session: final figures).
#   rerun.sh   from the committed results files: cf3bfb0 against 107c52b (two runs), the suite's report
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "107c52b run $k against cf3bfb0" "$here/h200_v11_107c52b_run$k.h5" "$here/h200_v11b_cf3bfb0.h5"
done
"$M" report "$here/h200_v11_107c52b_suite.h5"
