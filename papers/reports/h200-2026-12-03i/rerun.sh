#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-03, twenty-sixth session, calls 1 and 2:
# the _qrow variants (Q quantized per (row, head) by the decode block itself)
# against their per-tensor parents, in one build and one run, two runs in
# opposite orders; call 2 also the first Q row by a bulk copy (bulk, 88cdae7)
# against each consumer thread's loads (regs, -DWG_QR_BULK=0)).
#   rerun.sh   from the committed results files: the medians of each run,
#              case by variant (the parent beside its _qrow variant), and
#              regs against bulk for the _qrow variants (both pairs)
# To re-measure (a GPU machine, the tree of 79c1c71): mlabench run --require-gpu
# --quiet --max-time 0.1 --variants fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow
# on the 8 recorded cases (data/record_competition.py), then the reverse order;
# the trace: harness/gpu_trace.sh b4_kv1024 b4_kv8192 b64_kv1024 -- --variants
# fp8_wgmma,fp8_wgmma_qrow
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
for f in s26_c1_1 s26_c1_2 s26_c2_bulk_1 s26_c2_bulk_2 s26_c2_regs_1 s26_c2_regs_2; do
  echo "== $f: medians (us), case by variant"
  report_table "$here/$f.h5"
done
report_pairs "call 2: the _qrow variants, each thread's Q loads (regs, -DWG_QR_BULK=0) against the bulk-copied Q row (88cdae7)" "$here/s26_c2_regs" "$here/s26_c2_bulk"
