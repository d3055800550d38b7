#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-06, sixty-second session: call 1, mtpfp,
# the fp8 decodes' M32 of papers/wip/fp8_m32.patch then (landed after it);
# call 3, mtpmx, bf16_wgmma's and the MXFP4 decodes' MTP units, both with
# MLAB_MTP on against off at q_seq_len 2, ABBA).
#   rerun.sh        both calls' on/off tables and pairs, their q_seq_len 1
#                   runs of as many KV rows and FlashInfer beside (auto)
# To re-measure (a GPU machine, this tree: the fp8 M32 is in main since):
#   bash papers/device-queue.sh mtpmx (all six MTP decodes now)
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
report_onoff "call 1 (mtpfp): fp8_wgmma_qrow, fp8_wgmma, mxfp4_qrow_lazy" "$here/fp8m32"
echo "== call 1: MLAB_MTP unset (auto: no fp8 M32 then), FlashInfer beside"; report_table "$here/fp8m32_peer.h5"
report_onoff "call 3 (mtpmx): bf16_wgmma and the MXFP4 wgmma decodes" "$here/mtpmx"
echo "== call 3: MLAB_MTP unset (auto), FlashInfer beside"; report_table "$here/mtpmx_peer.h5"
