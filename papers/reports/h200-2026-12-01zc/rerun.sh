#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, tenth session: the merge column; ncu of two decodes).
#   rerun.sh        the merge column of the smoke run, from the committed file
#   rerun.sh --gpu  re-measure on a GPU machine with Nsight Compute (the
#                   current tree; for these kernels check out 5d0abba) into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
here=papers/reports/h200-2026-12-01zc
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-h200-2026-12-01zc}; mkdir -p "$OUT"
  "$M" gen --batch 64 --kv-len 8192 --seed 1360 --name b64_kv8192 -o "$OUT/c.h5"
  ncu --clock-control none -k regex:mla_decode -c 2 --section SpeedOfLight --section SchedulerStats \
      --section WarpStateStats --section InstructionStats --section Occupancy --section MemoryWorkloadAnalysis \
      "$M" run --require-gpu --no-time --quiet --variants fp8_exp2rcp,mxfp4_e4m3 "$OUT/c.h5" > "$OUT/ncu.txt"
  exit
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$M" export "$here/h200_merge_smoke.h5" -o "$tmp/smoke.csv" > /dev/null
python3 -c "
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['kind'] == 'gpu':
        print(r['case_name'], r['variant'], 'splits', r['splits'], 'merge', r['merge'], 'valid', r['valid'])" "$tmp/smoke.csv"
