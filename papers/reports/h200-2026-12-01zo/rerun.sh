#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, thirteenth session: mxfp4_wgmma's versions, forced split counts).
#   rerun.sh   from the committed results files: each version's mxfp4_wgmma
#              medians beside mxfp4_e4m3's and fp8_wgmma's, the decoupled
#              producer warps against 223fdab, and the split sweep
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
table() { # file...: case, variant, median us, splits of every GPU row
  for f in "$@"; do
    "$M" export "$f" | python3 -c "
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r['kind'] == 'gpu':
        print('%-30s %-20s %-12s %9.1f us  splits %s' % (sys.argv[1], r['case_name'], r['variant'], float(r['median_us']), r['splits']))" "$(basename "$f" .h5)"
  done
}
echo "== mxfp4_wgmma v1 .. v4 (and mxfp4_e4m3, fp8_wgmma in the same runs)"
table "$here"/h200_s13_mx_v1.h5 "$here"/h200_s13_mx_v1_s2r6.h5 "$here"/h200_s13_mx_v2.h5 "$here"/h200_s13_mx_v3.h5 \
      "$here"/h200_s13_mx_v4.h5 "$here"/h200_s13_mx_v4_s2r6.h5
report_pair "the decoupled producer warps (wip/mx-warp) against 223fdab" "$here/h200_s13_mx_v3_final_1.h5" "$here/h200_s13_mx_warps.h5"
echo "== forced split counts"
table "$here"/h200_s13_splits_16.h5 "$here"/h200_s13_splits_32.h5 "$here"/h200_s13_splits_64.h5
