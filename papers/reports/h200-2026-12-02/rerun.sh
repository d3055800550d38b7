#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, fourteenth session: the A/B pairs of
# calls 1-3, each `harness/gpu_ab.sh`'s order new, base, (alt, alt,) base, new).
#   rerun.sh   from the committed results files: every pair's comparison
#              (mlabench compare, base first), each call's rows in order
# To re-measure one (a GPU machine, the commits of README.md prepared with
# `harness/gpu_ab.sh prepare`): harness/gpu_ab.sh run BASE --variants V
# --max-time 0.07 with the new tree checked out (README.md names them).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
pair() { report_pair "call $1, pair $4: $2 (base) against $3" "$here/h200_s14_c$1_$2_$4.h5" "$here/h200_s14_c$1_$3_$4.h5"; }
for k in 1 2; do pair 1 main mxcons $k; pair 1 main wgepi $k; done
for k in 1 2; do pair 2 main nobranch $k; done
for k in 1 2; do pair 3 nobranch bases $k; pair 3 nobranch twoprod $k; done
