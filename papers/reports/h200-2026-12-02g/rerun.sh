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
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
c=$here/h200_s16
report_pairs "call 1: 1c9ebb1 (main) against 1a983d5 (one Q.K accumulator)" "${c}_c1_main" "${c}_c1_qkacc1"
report_pairs "call 1: 1c9ebb1 (main) against 6b01e4e (each consumer's own copy, both decodes)" "${c}_c1_main" "${c}_c1_ucons"
report_pairs "call 2: 1c9ebb1 (main) against cd9e7c4 (each consumer's own copy, MX only)" "${c}_c2_main" "${c}_c2_uconsmx"
report_pairs "call 3: 1a983d5 (one Q.K accumulator) against 48b41d4 (own copies for MX blocks of >= 16 tiles)" \
  "${c}_c3_qkacc1" "${c}_c3_hybrid"
