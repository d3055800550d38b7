#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, sixty-first session, call 1: the
# one-row MXFP4 decodes with papers/wip/mx_ring.patch's ring, 3 e4m3 stages
# both consumers share and 5 raw stages, against main's 4 and 3, and an alt
# with 3 raw tiles asked for at a block's start).
#   rerun.sh        the A/B's tables from the files (base -> new, base ->
#                   alt; as us and over each run's read limit) and each
#                   pair's `mlabench compare`
# To re-measure (a GPU machine): at 75c504a, `bash papers/device-queue.sh
# mxring` (the entry and its patch left in the commit that wrote this up:
# git show 75c504a:papers/device-queue.sh, 75c504a:papers/wip/mx_ring.patch).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
p=$here/h100_mxring
report_ab "base -> new (5 raw, 3 shared e4m3 stages)" "${p}_base" "${p}_new"
report_ab "base -> alt (new with 3 raw tiles asked for first)" "${p}_base" "${p}_alt"
