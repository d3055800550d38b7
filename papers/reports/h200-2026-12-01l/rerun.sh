#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, seventh session: the first two f16-partial builds against v9).
#   rerun.sh   from the committed results files: the two A/B comparisons
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pair "call 1: v9 (83ba6be) against f16 partials, multipliers by atomicMax" "$here/h200_v9_83ba6be_call1.h5" "$here/h200_f16_atomics_call1.h5"
report_pair "call 2: v9 (83ba6be) against f16 partials, multipliers by shuffles" "$here/h200_v9_83ba6be_call2.h5" "$here/h200_f16_shuffles_call2.h5"
