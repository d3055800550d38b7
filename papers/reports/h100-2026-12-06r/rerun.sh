#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-ninth session, call 1: the
# cheaper M32 softmax, papers/wip/m32_softmax.patch of 7efdc1f's tree ("on")
# against the tree as it was ("off"), MLAB_MTP=on, the three MXFP4 M32
# decodes at 8 and 64 x 4096, 8192, q_seq_len 2; landed in the commit that
# added this folder).
#   rerun.sh   from the committed results files: the A/B's table (off ->
#              on, both pairs) and each pair's `mlabench compare`
# To re-measure (a GPU machine): at 7efdc1f, `MLAB_COMMIT=7efdc1f bash
# papers/device-queue.sh mtpsm` (the queue entry and the patch left in the
# commit that landed it; git show that commit's parent for both).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_onoff "the M32 softmax (base -> patched)" "$here/h100_m32sm"
