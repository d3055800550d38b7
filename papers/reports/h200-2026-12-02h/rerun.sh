#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, sixteenth session, call 2: forced split
# counts on the four short calls).
#   rerun.sh   from the committed results files: each (case, variant)'s median
#              at 8, 16, 32 and 64 splits, and the fastest
# To re-measure (a GPU machine): mlabench run --max-time 0.04 --splits N
#   --variants mxfp4_wgmma,fp8_wgmma,fp8_exp2rcp,bf16,mxfp4_e4m3 on the four
#   cases b4_kv1024, b4_kv8192, b32_kv1024, b64_kv1024 (data/record_competition.py)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-02h
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
for n in 8 16 32 64; do "$M" export "$here/h200_s16_c2_splits$n.h5"; done | python3 -c "
import csv, sys
t = {}
for r in csv.DictReader(sys.stdin):
    if r['kind'] == 'gpu':
        t.setdefault((r['case_name'], r['variant']), {})[int(r['splits'])] = float(r['median_us'])
print('%-20s %-12s %9s %9s %9s %9s  best' % ('case', 'variant', 's=8', 's=16', 's=32', 's=64'))
for (c, v), m in sorted(t.items()):
    print('%-20s %-12s %s  %d' % (c, v, ' '.join('%9.2f' % m.get(s, float('nan')) for s in (8, 16, 32, 64)), min(m, key=m.get)))"
