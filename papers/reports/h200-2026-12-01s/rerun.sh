#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, ninth session: the pipelined fp8 tile loop).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  for v in p4 p3; do
    report_pair "run $k: the plain loop against $v" "$here/h200_pipe_base_$k.h5" "$here/h200_pipe_${v}_$k.h5"
  done
done
