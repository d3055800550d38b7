#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, seventh session: f16 partials and split rule v10 against v9).
#   rerun.sh   from the committed results files: the two A/B comparisons
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for k in 1 2; do
  report_pair "pair $k: v9 (83ba6be) against f16 partials + split rule v10" "$here/h200_v9_83ba6be_run$k.h5" "$here/h200_partials_rule_run$k.h5"
done
