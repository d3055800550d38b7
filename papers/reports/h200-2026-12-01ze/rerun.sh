#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, eleventh session, call 1: high-half conversions and launch tables).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  for b in new alt; do
    report_pair "pair $k: base (c3d13f0) against $b" "$here/h200_s11_base_$k.h5" "$here/h200_s11_${b}_$k.h5"
  done
done
