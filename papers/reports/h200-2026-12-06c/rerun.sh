#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-06, fifty-sixth session, call 3:
# `papers/device-queue.sh mtpevict`, the KV copies' L2 policy where two query
# rows read every KV row: MLAB_KV_EVICT auto against off, two pairs in
# opposite orders, the six main decodes at 32, 64 x 4096, q_seq_len 1 and 2).
#   rerun.sh        the A/B's table (both pairs: base -> new) and each pair's
#                   `mlabench compare`, from the committed files
#   rerun.sh --gpu  re-measure on a GPU machine (this tree) into $OUT
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  # the call as it ran (its queue entry left papers/device-queue.sh once written up)
  OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
  cmake -S . -B build-gpu -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release > "$OUT/build.log"
  cmake --build build-gpu --target mlabench >> "$OUT/build.log"
  main=bf16_wgmma,fp8_wgmma_qrow,fp8_wgmma,mxfp4_qrow_lazy,mxfp4_wgmma_qrow,mxfp4_wgmma
  for step in auto:1 off:1 off:2 auto:2; do
    MLAB_KV_EVICT=${step%:*} build-gpu/mlabench run --require-gpu --quiet --max-time 0.15 --variants "$main" \
      --batch 32,64 --kv-len 4096 --q-seq-len 1,2 --label "${step%:*}" -o "$OUT/h200_mtp_evict_${step%:*}_${step#*:}.h5"
  done
  report_ab_table "auto -> off, both pairs (this run)" "$OUT/h200_mtp_evict_auto" "$OUT/h200_mtp_evict_off"
  exit
fi
report_ab_table "auto (v51's rule) -> off, both pairs" "$here/h200_mtp_evict_auto" "$here/h200_mtp_evict_off"
report_pairs "auto -> off" "$here/h200_mtp_evict_auto" "$here/h200_mtp_evict_off"
