#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eleventh session, call 4: the peer merge).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01zh
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  for b in new alt; do
    echo "== pair $k: the combine (base) against $b"
    "$M" compare "$here/h200_peer_base_$k.h5" "$here/h200_peer_${b}_$k.h5" || [ $? -eq 6 ]
  done
done
