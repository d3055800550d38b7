#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-seventh session, calls 4 and
# 5: the split rule under the three MTP units against every power of two).
#   rerun.sh        the sweep's report: per (case, decode) the fastest
#                   forced count against the rule's pick
#   rerun.sh --gpu  re-measure on a GPU machine (this tree):
#                   papers/device-queue.sh mtpsplit into $OUT (to 16 splits)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_queue_calls "${1:-}" mtpsplit
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
report_sweeps "$tmp" h100 mtp
