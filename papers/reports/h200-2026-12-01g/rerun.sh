#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, sixth session: the cluster merge).
#   rerun.sh   from the committed results files: run 1's comparison (combine
#              forced against the cluster merge as default) and run 4's at
#              8 and 16 splits
# A re-measurement needs a -DMLAB_ONE_LAUNCH=ON build for NVIDIA sm_90 and
# MLAB_MERGE=cluster|combine (README, "The merge of split results").
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
"$M" compare "$here/h200_combine_forced.h5" "$here/h200_cluster_default.h5" || [ $? -eq 6 ]
for s in 8 16; do
  report_pair "$s splits: combine (old) against cluster (new)" "$here/h200_4x1024_32x1024_sp${s}_combine.h5" "$here/h200_4x1024_32x1024_sp${s}_cluster.h5"
done
