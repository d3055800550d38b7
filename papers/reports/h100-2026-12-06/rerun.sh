#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-second session, call 1: the
# per-tensor a8w8 decodes' amax by a flag, MLAB_AMAX=flag, against the pass).
#   rerun.sh   from the committed results files: both pairs and their tables
#              (the README's)
# To re-measure (a GPU machine): the knob never landed; it is
# papers/wip/amax_flag.patch up to 6a8890e, where
# `bash papers/device-queue.sh amaxflag` applies it and runs this A/B.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "the pass (base) against the flag (new)" "$here/s52_amaxflag_base" "$here/s52_amaxflag_new"
report_ab_table "base -> the flag (new), median us" "$here/s52_amaxflag_base" "$here/s52_amaxflag_new"
report_ab_table_rl "the same, median / the run's read limit" "$here/s52_amaxflag_base" "$here/s52_amaxflag_new"
