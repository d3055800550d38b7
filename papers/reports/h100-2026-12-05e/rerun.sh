#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-05, forty-ninth session, call 3: the
# queue's `pin` call: v49's tree (35ba426) against v51's kernels at 256 x
# 8192, three decodes; FlashMLA beside bf16_wgmma and fp8_wgmma on the 8
# cases with v51's read probe).
#   rerun.sh   from the committed results files: both pairs, and the
#              FlashMLA run's table (median, ratio to the read limit,
#              kernel error; harness/tools/readme_table.py --errors)
# To re-measure (a GPU machine): `bash harness/gpu_ab.sh prepare 35ba426`
# here, then `bash papers/device-queue.sh pin` there (carry .ab and
# .peers/flashmla).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "v49's tree 35ba426 (base) against v51's kernels (new), 256 x 8192" "$here/pin_v49" "$here/pin_v51"
echo "== FlashMLA beside bf16_wgmma and fp8_wgmma (median us (ratio to the read limit, kernel rel RMS))"
python3 harness/tools/readme_table.py --errors --columns bf16_wgmma,fp8_wgmma,flashmla_bf16,flashmla_fp8 \
  "$M" "$here/pin_flashmla.h5"
