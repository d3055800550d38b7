#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, fourteenth session, call 5: wip/wg-epi, forced split counts).
#   rerun.sh   from the committed results files: both A/B pairs' comparisons
#              (base first) and each forced split count's medians
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "202a403 (base) against wip/wg-epi" "$here/h200_s14_c5_main" "$here/h200_s14_c5_wgepi"
echo "== forced split counts (case, variant, median us)"
for s in 8 16 32; do
  "$M" export "$here/h200_s14_splits_$s.h5" | python3 -c "
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r['kind'] == 'gpu':
        print('splits %-3s %-20s %-12s %8.2f us  valid %s' % (sys.argv[1], r['case_name'], r['variant'], float(r['median_us']), r['valid']))" "$s"
done
