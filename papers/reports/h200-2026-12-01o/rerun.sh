#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eighth session: the amax flag, deeper pipelines).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pair "MLAB_AMAX=pass against the flag" "$here/h200_amax_pass_65ed098.h5" "$here/h200_amax_flag_65ed098.h5"
for d in deep4 deep5; do
  report_pair "default against $d" "$here/h200_default_ce73700.h5" "$here/h200_${d}_ce73700.h5"
done
