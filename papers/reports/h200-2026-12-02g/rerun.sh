#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, sixteenth session, calls 1-3: one Q.K
# accumulator, and the wgmma consumers' code once per consumer, three ways).
#   rerun.sh   from the committed results files: every A/B pair's comparison
#              (mlabench compare, base first)
# To re-measure (a GPU machine; prepare the base here first with
# harness/gpu_ab.sh prepare COMMIT, and carry .ab): check out the new commit,
# then e.g. MLAB_AB_ALT=1a983d5 harness/gpu_ab.sh run 1c9ebb1 --variants
# mxfp4_wgmma,fp8_wgmma --max-time 0.05 (call 1; README for the others).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-02g
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
. harness/report_lib.sh
for k in 1 2; do
  report_pair "call 1, pair $k: 1c9ebb1 (main) against 1a983d5 (one Q.K accumulator)" "$here/h200_s16_c1_main_$k.h5" "$here/h200_s16_c1_qkacc1_$k.h5"
  report_pair "call 1, pair $k: 1c9ebb1 (main) against 6b01e4e (each consumer's own copy, both decodes)" "$here/h200_s16_c1_main_$k.h5" "$here/h200_s16_c1_ucons_$k.h5"
done
for k in 1 2; do
  report_pair "call 2, pair $k: 1c9ebb1 (main) against cd9e7c4 (each consumer's own copy, MX only)" "$here/h200_s16_c2_main_$k.h5" "$here/h200_s16_c2_uconsmx_$k.h5"
done
for k in 1 2; do
  report_pair "call 3, pair $k: 1a983d5 (one Q.K accumulator) against 48b41d4 (own copies for MX blocks of >= 16 tiles)" "$here/h200_s16_c3_qkacc1_$k.h5" "$here/h200_s16_c3_hybrid_$k.h5"
done
