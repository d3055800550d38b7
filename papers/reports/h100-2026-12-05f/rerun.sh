#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-05, forty-ninth session, call 4: the
# rows' NVML violation counters, slow_us of slow_span_us, read on a GPU for
# the first time).
#   rerun.sh   from the committed results file: each timed row's median,
#              clock reading, NVML flag and the two counters
# To re-measure (a GPU machine, NVIDIA): `ctest -R "gpu_gen_|gpu_slow_recorded"`
# in a CUDA build, then `mlabench run --require-gpu --max-time 0.15
# --variants bf16_wgmma,mxfp4_wgmma` on the recorded 256 x 8192, 64 x 8192
# and 4 x 1024 cases (data/record_competition.py).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
"$M" export "$here/slow_counters.h5" | python3 -c "
import csv, sys
print('case variant median_us sm_clock_mhz throttled slow_us slow_span_us')
for r in csv.DictReader(sys.stdin):
    if r['kind'] != 'cpu':
        print(r['case_name'], r['variant'], r['median_us'], r['sm_clock_mhz'], r['throttled'], r['slow_us'], r['slow_span_us'])"
