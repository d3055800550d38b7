#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, eighteenth session, calls 1, 3, 6 and
# 7: the combine spread over the SMs, short calls at forced split counts, the
# one-launch merges again).
#   rerun.sh   from the committed results files: call 1's A/B pairs (mlabench
#              compare, base first), then each sweep's medians, a table a sweep
# To re-measure (a GPU machine): README.md says each call's command.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
c=$here/s18
report_pairs "call 1: b2f77ec against 3161d13 (the spread combine, first form), the 4-row cases" "${c}_c1_ab_base" "${c}_c1_ab_new"
sweep() { # title, then files: (case, variant) by file, the median (us) and the merge that ran
  echo "== $1"; shift
  for f in "$@"; do "$M" export "$f" | awk -v n="$(basename "$f" .h5)" -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["kind"] == "gpu" { printf "%-32s %-18s %-14s s=%-3s %-14s %8.2f\n", n, $col["case_name"], $col["variant"], $col["splits"], $col["merge"], $col["median_us"] }'
  done
}
sweep "call 1: 4 x 8192 at 16 and 32 splits, spread on and off (3161d13)" "${c}"_c1_spread*.h5
sweep "call 3: the combine's chunks x blocks-an-SM cap, two passes (3161d13 + the sweep's knobs)" "${c}"_c3_chunks*.h5
sweep "call 6: bf16, bf16_t32 and fp8_exp2rcp at 8, 16, 32, 64 splits (34abafb)" "${c}"_c6_splits*.h5
sweep "call 7: the one-launch merges at 16 splits (ee55f07, -DMLAB_ONE_LAUNCH=ON)" "${c}"_c7_*.h5
