#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, eighteenth session, call 8: the push
# merge against the cluster merge and the combine kernel).
#   rerun.sh   from the committed results files: each run's medians, a line a
#              (case, variant)
# To re-measure (a GPU machine): build with -DMLAB_ONE_LAUNCH=ON, then for M in
#   combine cluster push: MLAB_MERGE=$M MLAB_AMAX=pass mlabench run --splits 16
#   --max-time 0.1 --variants bf16,fp8,fp8_exp2rcp,mxfp4_e4m3,bf16_t32 on the
#   4 x 1024 and 4 x 8192 recorded cases (data/record_competition.py)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
echo "== call 8: median us by merge (two runs each: order combine, cluster, push, then reversed)"
for f in "$here"/s18_c8_*.h5; do "$M" export "$f" | awk -v n="$(basename "$f" .h5)" -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["kind"] == "gpu" { printf "%-20s %-18s %-12s %-10s %8.2f\n", n, $col["case_name"], $col["variant"], $col["merge"], $col["median_us"] }'
done
