#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, seventeenth session, calls 2-5: bf16_wgmma).
#   rerun.sh   from the committed results files: call 2's run (mlabench report)
#              and every A/B pair's comparison (mlabench compare, base first)
# To re-measure (a GPU machine; prepare the base here first with
# harness/gpu_ab.sh prepare COMMIT, and carry .ab): check out the new commit,
# then e.g. harness/gpu_ab.sh run 55faf13 --variants bf16_wgmma --max-time 0.05
# (call 5; README for the others).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
c=$here/h200_s17
echo "== call 2: bf16 and bf16_wgmma (8b6b096)"
report_table "${c}_c2_first.h5"
report_pairs "call 3: 8b6b096 against b07ab15 (solo; bf16_wgmma persistent)" "${c}_c3_base" "${c}_c3_solo"
report_pairs "call 4: 8b6b096 against 55faf13 (solo; bf16_wgmma not persistent)" "${c}_c4_base" "${c}_c4_solo2"
report_pairs "call 5: 55faf13 against 10cc6d8 (bf16_wgmma's staged epilogue)" "${c}_c5_base" "${c}_c5_staged"
