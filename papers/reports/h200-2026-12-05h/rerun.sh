#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, forty-ninth session, call 2: the
# KV copies' L2 policy on the H200: MLAB_KV_EVICT=off (base) against auto,
# the default (new), and first (alt); one build, the read probe with its
# evict_first shape in all three).
#   rerun.sh   from the committed results files: both pairs of each side
#              and their tables (the README's)
# To re-measure (a GPU machine): `bash papers/device-queue.sh evict` at
# 170b57f (harness/gpu_ab.sh run worktree with MLAB_AB_BASE_ENV=
# MLAB_KV_EVICT=off, MLAB_AB_ALT=worktree, MLAB_AB_ALT_ENV=
# MLAB_KV_EVICT=first, --max-time 0.1, five variants).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "MLAB_KV_EVICT=off (base) against auto (new)" "$here/s49_ef_off" "$here/s49_ef_auto"
report_pairs "MLAB_KV_EVICT=off (base) against first (alt)" "$here/s49_ef_off" "$here/s49_ef_first"
report_ab_table "off -> auto, median us" "$here/s49_ef_off" "$here/s49_ef_auto"
report_ab_table_rl "the same, median / the run's read limit" "$here/s49_ef_off" "$here/s49_ef_auto"
report_ab_table "off -> first, median us" "$here/s49_ef_off" "$here/s49_ef_first"
report_ab_table_rl "the same, median / the run's read limit" "$here/s49_ef_off" "$here/s49_ef_first"
