#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-07, sixty-eighth session, call 1:
# racecheck's open finding with consumer 1 delayed, then the GPU tests).
#   rerun.sh        the findings (kept in README.md: the call wrote logs only)
#   rerun.sh --gpu  re-measure on a GPU machine (this tree): sanrace (the
#                   san_delay program built there), the patch reversed, then
#                   tests (the build and every test but the slow ones) into $OUT
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = --gpu ]; then
  OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
  c=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  OUT=$OUT MLAB_COMMIT=$c bash papers/device-queue.sh sanrace
  git apply -R papers/wip/san_delay.patch 2>/dev/null || patch -p1 -R < papers/wip/san_delay.patch
  rm -rf build-gpu
  OUT=$OUT MLAB_COMMIT=$c bash papers/device-queue.sh tests
  exit
fi
sed -n '/^- \*\*Finding, racecheck/,/^- \*\*When/p' "$here/README.md" | sed '$d'
