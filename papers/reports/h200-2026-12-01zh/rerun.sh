#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eleventh session, call 4: the peer merge).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  for b in new alt; do
    report_pair "pair $k: the combine (base) against $b" "$here/h200_peer_base_$k.h5" "$here/h200_peer_${b}_$k.h5"
  done
done
