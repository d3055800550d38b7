#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, sixty-first session, call 2: the GPU
# watchdog of papers/wip/hang_watch.patch, landed after it: its test, the
# awkward cases validated, the suite's cases generated in memory and timed
# once).
#   rerun.sh        the suite's medians table, and its times against the
#                   last H100 suite of the same kernels (../h100-2026-12-06m,
#                   v60; recorded cases there, generated here: the inputs
#                   differ, so compare says so, exit 9, and pairs them anyway)
# To re-measure (a GPU machine, this tree: the watchdog is in main since):
#   cmake -S . -B build-gpu -G Ninja -DMLAB_GPU=cuda && cmake --build build-gpu
#   ctest --test-dir build-gpu -R 'gpu_gen_|gpu_hang_watch|gpu_validate_awkward|gpu_validate_splits'
#   build-gpu/mlabench run --require-gpu --quiet --max-time 0.15 --suite -o hang_suite.h5
# (the call as it ran: git show 75c504a:papers/device-queue.sh, entry hang)
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
echo "== the suite timed once with the watchdog"
report_table "$here/h100_hang_suite.h5"
echo "== against the v60 H100 suite (another H100; generated against recorded inputs)"
"$M" compare papers/reports/h100-2026-12-06m/h100_v60_suite_s57.h5 "$here/h100_hang_suite.h5" \
  --threshold 0.05 --force --format csv | python3 -c '
import csv, math, sys
r = [x for x in csv.DictReader(sys.stdin) if x["kind"] != "cpu" and x["change"]]
c = [float(x["change"]) for x in r]
g = math.exp(sum(math.log(float(x["new_median_us"]) / float(x["old_median_us"])) for x in r) / len(r))
print(f"{len(r)} GPU rows: change {100 * min(c):+.1f}..{100 * max(c):+.1f}%, geomean {100 * (g - 1):+.2f}%;",
      "timing verdicts:", ", ".join(sorted(set(x["timing_verdict"] for x in r))))' || [ $? -eq 9 ]
