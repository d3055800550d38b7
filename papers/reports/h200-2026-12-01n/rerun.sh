#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eighth session: the fp8 Q path, eb8a83a against 2fa0533 and 835a93f).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01n
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: eb8a83a against 2fa0533"
  "$M" compare "$here/h200_eb8a83a_run$k.h5" "$here/h200_qfp8_2fa0533_run$k.h5" || [ $? -eq 6 ]
done
echo "== eb8a83a against 835a93f (the kv range in the parameters)"
"$M" compare "$here/h200_eb8a83a_run1.h5" "$here/h200_tokkv_835a93f_run1.h5" || [ $? -eq 6 ]
