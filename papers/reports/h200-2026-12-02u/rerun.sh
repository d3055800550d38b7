#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-02, nineteenth session, call 4: the v22
# suite, cut short by the session's device time after 5 of the 8 cases).
#   rerun.sh         print the quoted table (README.md)
#   rerun.sh --gpu   record the 8 cases and run the suite again (every variant
#                    and FlashInfer) into $OUT (default out/rerun-FOLDER)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
  python3 data/record_competition.py --out "$OUT/suite"
  "$M" run --require-gpu --quiet --max-time 0.1 --label rerun --peers flashinfer "$OUT"/suite/*.h5 -o "$OUT/results.h5"
  "$M" report "$OUT/results.h5"
  exit
fi
sed -n '/^Medians (us)/,/^Outcome/p' "$here/README.md" | sed '$d'
