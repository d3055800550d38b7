#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, forty-sixth session, call 1:
# bf16_wgmma's panel ring, WG_B16_RING, against the default build).
#   rerun.sh   from the committed results files: both pairs and their tables
#              (the README's)
# To re-measure (a GPU machine): the knob was removed after this call; at
# afaf912, `bash papers/device-queue.sh ring`.
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "the default build (base) against the ring of 23 panels (new)" "$here/s46_ring_base" "$here/s46_ring_new"
report_ab_table "base -> the ring of 23 panels (new), median us" "$here/s46_ring_base" "$here/s46_ring_new"
report_ab_table_rl "the same, median / the run's read limit" "$here/s46_ring_base" "$here/s46_ring_new"
report_ab_table "base -> the ring of 18 panels (alt), median us" "$here/s46_ring_base" "$here/s46_ring_alt"
report_ab_table_rl "the same, median / the run's read limit" "$here/s46_ring_base" "$here/s46_ring_alt"
