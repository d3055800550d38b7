#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eighth session: the fp8 Q path, eb8a83a against 2fa0533 and 835a93f).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: eb8a83a against 2fa0533" "$here/h200_eb8a83a_run$k.h5" "$here/h200_qfp8_2fa0533_run$k.h5"
done
report_pair "eb8a83a against 835a93f (the kv range in the parameters)" "$here/h200_eb8a83a_run1.h5" "$here/h200_tokkv_835a93f_run1.h5"
