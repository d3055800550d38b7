#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, fifteenth session, call 5).
#   rerun.sh   from the committed results files: the 256 x 8192 rows (median,
#              read-limit ratio, NVML's throttled flag) and the A/B pairs of
#              wip/mx-lut (mlabench compare, base first)
# To re-measure (a GPU machine): mlabench run --max-time 0.1 --peers flashinfer
# on the recorded b256_kv8192_s9826 case; harness/gpu_ab.sh for the pairs.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
"$M" export "$here/h200_v18_b256_kv8192.h5" | python3 -c "
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r['kind'] in ('gpu', 'peer'):
        print('%-16s %9s us  x%-6.3f %s' % (r['variant'], r['median_us'], float(r['read_limit_ratio']),
              'throttled' if r['throttled'] == '1' else ''))"
report_pairs "b7a67ac (base) against wip/mx-lut" "$here/h200_s15_c5_main" "$here/h200_s15_c5_mxlut"
