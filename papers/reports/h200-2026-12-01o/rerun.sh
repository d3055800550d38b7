#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eighth session: the amax flag, deeper pipelines).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01o
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
echo "== MLAB_AMAX=pass against the flag"
"$M" compare "$here/h200_amax_pass_65ed098.h5" "$here/h200_amax_flag_65ed098.h5" || [ $? -eq 6 ]
for d in deep4 deep5; do
  echo "== default against $d"
  "$M" compare "$here/h200_default_ce73700.h5" "$here/h200_${d}_ce73700.h5" || [ $? -eq 6 ]
done
