#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01): the three compares of README.md from
# the committed results files (CPU only). MLAB_BIN names the mlabench program.
set -uo pipefail
here=papers/reports/h200-2026-12-01b
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
if [ "${1:-}" = "--out" ]; then mkdir -p "${2:?--out needs a folder}"; fi
ok() { [ "$1" -eq 0 ] || [ "$1" -eq 6 ]; } # 6: a regression found, the point of (1) and (2)
echo "== (1) one launch (a0618ab) against 0f09366, same machine"
"$M" compare "$here/h200_onelaunch_base_0f09366.h5" "$here/h200_onelaunch_a0618ab.h5"; ok $? || exit 1
echo "== (2) combine 16 splits ahead (add3420) against 0f09366, same machine"
"$M" compare "$here/h200_base_0f09366_same_machine_as_add3420.h5" \
     papers/reports/h200-2026-12-01/h200_v7_peers_torch_add3420.h5; ok $? || exit 1
echo "== (3) one-shot sweep against the merged slices"
"$M" compare "$here/h200_sweep_one_shot.h5" "$here/h200_sweep_sliced_merged.h5" --threshold 0.05
