#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, forty-third session, calls 1-2:
# v45's prepared knobs: WG_MX_HYB and WG_MX_DIRECT + WG_MX_HYB against the
# default build on the MXFP4 wgmma decodes; WG_B16_LEAN, and it with every
# combine uncapped, on bf16_wgmma and fp8_wgmma_qrow).
#   rerun.sh   from the committed results files: both pairs of each A/B
#              and their tables (the README's)
# To re-measure (a GPU machine): the knobs were removed after these calls;
# at d67aa56, `bash papers/device-queue.sh mx` (call 1) and `lean` (call 2).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_pairs "call 1: the default build (base) against WG_MX_HYB (new)" "$here/s43_c1_base" "$here/s43_c1_new"
report_ab_table "call 1: base -> WG_MX_HYB (new), median us" "$here/s43_c1_base" "$here/s43_c1_new"
report_ab_table_rl "call 1: the same, median / the run's read limit" "$here/s43_c1_base" "$here/s43_c1_new"
report_ab_table "call 1: base -> WG_MX_DIRECT + WG_MX_HYB (alt), median us" "$here/s43_c1_base" "$here/s43_c1_alt"
report_ab_table_rl "call 1: the same, median / the run's read limit" "$here/s43_c1_base" "$here/s43_c1_alt"
report_pairs "call 2: the default build (base) against WG_B16_LEAN (new)" "$here/s43_c2_base" "$here/s43_c2_new"
report_ab_table "call 2: base -> WG_B16_LEAN (new), median us" "$here/s43_c2_base" "$here/s43_c2_new"
report_ab_table_rl "call 2: the same, median / the run's read limit" "$here/s43_c2_base" "$here/s43_c2_new"
report_ab_table "call 2: base -> WG_B16_LEAN, every combine uncapped (alt), median us" "$here/s43_c2_base" "$here/s43_c2_alt"
report_ab_table_rl "call 2: the same, median / the run's read limit" "$here/s43_c2_base" "$here/s43_c2_alt"
