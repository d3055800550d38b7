#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, eighteenth session, call 10: the empty
# pair measured by mlabench run).
#   rerun.sh   from the committed results files: each run's empty kernel and
#              empty pair (us), then its rows' medians
# To re-measure (a GPU machine): mlabench run --default --quiet --max-time 0.05
#   --variants bf16,fp8_exp2rcp -o FILE.h5, three times
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2 3; do
  f=$here/s18_c10_pair_$k.h5
  echo "== run $k"
  "$M" report "$f" | grep -E '^[|] (empty_kernel_us|empty_pair_us) '
  report_table "$f"
done
