#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, fifteenth session, call 6: one Q.K
# accumulator, -DWG_QK_ACC=1, against the default six).
#   rerun.sh   from the committed results files: both pairs' comparisons
#              (mlabench compare, base first) and each row's kernel error
# To re-measure (a GPU machine): MLAB_AB_NEW_CMAKE=-DCMAKE_CUDA_FLAGS=-DWG_QK_ACC=1
# harness/gpu_ab.sh run worktree --variants mxfp4_wgmma,fp8_wgmma --max-time 0.04
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "WG_QK_ACC=6 (base) against WG_QK_ACC=1" "$here/h200_s15_c6_acc6" "$here/h200_s15_c6_acc1"
echo "== kernel rel RMS, pair 1 (six accumulators, one)"
for f in acc6 acc1; do "$M" export "$here/h200_s15_c6_${f}_1.h5"; done | python3 -c "
import csv, sys
rows = {}
for line in csv.DictReader(sys.stdin):
    if line['kind'] == 'gpu':
        rows.setdefault((line['case_name'], line['variant']), []).append(float(line['kernel_rel_rms']))
for (c, v), e in sorted(rows.items()):
    print('%-20s %-12s %s' % (c, v, '  '.join('%.4e' % x for x in e)))"
