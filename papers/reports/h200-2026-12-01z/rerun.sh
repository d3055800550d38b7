#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: bf16 in one stage a block; the fp8 core's deep instance).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for x in onestage deep; do
  for k in 1 2; do
    report_pair "$x, pair $k: base against new" "$here/h200_${x}_base_$k.h5" "$here/h200_${x}_new_$k.h5"
  done
done
