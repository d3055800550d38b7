#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, twelfth session, call 1: the ragged split plan; MX8 swizzled).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  for b in new alt; do
    report_pair "pair $k: base (3d623f9) against $b" "$here/h200_s12_base_$k.h5" "$here/h200_s12_${b}_$k.h5"
  done
  report_pair "pair $k, ragged batches: base (3d623f9) against new (the plan)" "$here/h200_s12_rag_base_$k.h5" "$here/h200_s12_rag_new_$k.h5"
done
