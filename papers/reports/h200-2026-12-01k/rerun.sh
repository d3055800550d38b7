#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, seventh session: one-load kv range, v10 against v10b).
#   rerun.sh   from the committed results files: the two A/B comparisons
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: v10 (e4b7b14) against v10b (26c83fd)" "$here/h200_v10_e4b7b14_run$k.h5" "$here/h200_v10b_26c83fd_run$k.h5"
done
