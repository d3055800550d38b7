#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, sixteenth session, calls 2 and 6: forced
# split counts).
#   rerun.sh   from the committed results files: each (case, variant)'s median
#              at each split count of a call, and the fastest
# To re-measure (a GPU machine), for each N: call 2, mlabench run --max-time
#   0.04 --splits N --variants mxfp4_wgmma,fp8_wgmma,fp8_exp2rcp,bf16,mxfp4_e4m3
#   on the cases b4_kv1024, b4_kv8192, b32_kv1024, b64_kv1024; call 6,
#   --max-time 0.03 --splits N --variants fp8_wgmma,mxfp4_wgmma,mxfp4_e4m3 on
#   all 8 (data/record_competition.py)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
table() { # call, split counts
  local c=$1; shift
  echo "== call $c"
  for n in "$@"; do "$M" export "$here/h200_s16_c${c}_splits$n.h5"; done | python3 -c "
import csv, sys
counts = [int(a) for a in sys.argv[1:]]
t = {}
for r in csv.DictReader(sys.stdin):
    if r['kind'] == 'gpu':
        t.setdefault((r['case_name'], r['variant']), {})[int(r['splits'])] = float(r['median_us'])
print('%-20s %-12s %s  best' % ('case', 'variant', ' '.join('%9s' % ('s=%d' % s) for s in counts)))
for (c, v), m in sorted(t.items()):
    print('%-20s %-12s %s  %d' % (c, v, ' '.join('%9.2f' % m.get(s, float('nan')) for s in counts), min(m, key=m.get)))" "$@"
}
table 2 8 16 32 64
table 6 1 2 4 8 16
