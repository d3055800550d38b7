#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, bf16_t32) from the committed files
# (CPU only). MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01e
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
"$M" report "$here/h200_bf16_t32.h5" | sed -n '/Cold median/,/^| geomean/p'
for s in 4 8 16 32; do
  echo "== --splits $s"
  "$M" export "$here/h200_t32_splits$s.h5" | python3 -c "
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r['kind'] == 'gpu':
        print('  %-20s %-10s %8.2f us' % (r['case_name'], r['variant'], float(r['median_us'])))"
done
