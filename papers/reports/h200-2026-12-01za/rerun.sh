#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: the combine in one-warp blocks).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: one block a (row, head) against four one-warp blocks" "$here/h200_combineq4_base_$k.h5" "$here/h200_combineq4_new_$k.h5"
done
