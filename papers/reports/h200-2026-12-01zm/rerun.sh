#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, twelfth session, call 5: the ragged plan for fp8_xcd and fp8_wgmma).
#   rerun.sh   from the committed results files
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: base (4984294) against new (the plan for fp8_xcd and fp8_wgmma), the 8 cases" "$here/h200_s12_plan_base_$k.h5" "$here/h200_s12_plan_new_$k.h5"
  report_pair "pair $k: the ragged batches" "$here/h200_s12_plan_rag_base_$k.h5" "$here/h200_s12_plan_rag_new_$k.h5"
done
