#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, seventh session: f16 partials and split rule v10 against v9).
#   rerun.sh   from the committed results files: the two A/B comparisons
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01j
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for k in 1 2; do
  echo "== pair $k: v9 (83ba6be) against f16 partials + split rule v10"
  "$M" compare "$here/h200_v9_83ba6be_run$k.h5" "$here/h200_partials_rule_run$k.h5" || [ $? -eq 6 ]
done
