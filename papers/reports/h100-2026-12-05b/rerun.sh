#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-05, forty-eighth session, call 2: every
# KV copy evict_first in L2 and the read probe's evict_first shape, against
# plain copies and the plain probe).
#   rerun.sh   from the committed results files: both pairs and their tables
#              (the README's)
# To re-measure (a GPU machine): the build knob of this call became the
# run-time MLAB_KV_EVICT (9484c6e); base: a tree before 9484c6e (483841a),
# new: `MLAB_KV_EVICT=first` on the current tree.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "plain copies and probe (base) against evict_first copies and probe (new)" "$here/s48_ef_plain" "$here/s48_ef_first"
report_ab_table "plain -> evict_first, median us" "$here/s48_ef_plain" "$here/s48_ef_first"
report_ab_table_rl "the same, median / the run's read limit" "$here/s48_ef_plain" "$here/s48_ef_first"
