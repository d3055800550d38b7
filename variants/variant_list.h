/* variant_list.h: THE list of GPU variants. One line each; the variant table
 * (variants.c), the runner's dispatch (runner.hip), the build (CMakeLists.txt
 * compiles variants/<name>.hip for every line) and the per-variant GPU tests
 * are all derived from it. Adding a variant = one line here + one file
 * variants/<name>.hip defining `mlab_impl_<name>` (see README "Adding a
 * variant"). Ids are stable: never reuse or renumber one.
 *
 * X(id, name, kv format, q_fp8 (1 per tensor, 2 per (row, head)), p_fp8, parent,
 *   tolerance row, idea)
 */
#ifndef MLAB_VARIANT_LIST_H
#define MLAB_VARIANT_LIST_H

#define MLAB_VARIANT_LIST(X)                                                                        \
    X(0, bf16, MLAB_KV_BF16, 0, 0, "", "kernel:bf16",                                               \
      "split-KV flash decoding, bf16 Q and KV on the matrix units, fp32 accumulation, LSE merge; " \
      "on NVIDIA long calls in 32-row tiles (the tile rule)")                                       \
    X(1, fp8, MLAB_KV_FP8, 1, 1, "bf16", "kernel:fp8",                                              \
      "a8w8: Q quantized per tensor in the call, fp8 KV, fp8 Q.K, P rounded to fp8 for P.V")       \
    X(2, mxfp4, MLAB_KV_MXFP4, 0, 0, "bf16", "kernel:mxfp4",                                        \
      "reads packed E2M1 + E8M0 and dequantizes in shared memory, never writing a bf16 cache")     \
    X(3, mxfp4_unfused, MLAB_KV_MXFP4, 0, 0, "bf16", "kernel:mxfp4",                                \
      "control: dequantize the whole cache to a bf16 buffer, then run bf16 (the reference's way)") \
    X(4, fp8_exp2rcp, MLAB_KV_FP8, 1, 1, "fp8", "kernel:fp8",                                       \
      "fp8 with softmax in exp2 (log2 e folded into the scale) and a fast reciprocal at the end")  \
    X(5, fp8_xcd, MLAB_KV_FP8, 1, 1, "fp8_exp2rcp", "kernel:fp8",                                   \
      "fp8_exp2rcp with a row's split blocks and its combine placed on one XCD (8 on MI355X)")     \
    X(6, mxfp4_e4m3, MLAB_KV_MXFP4, 0, 0, "mxfp4", "kernel:mxfp4",                                  \
      "MXFP4 tiles turned into e4m3 codes with the block scale folded in, then the fp8 core")      \
    X(7, fp8_wgmma, MLAB_KV_FP8, 1, 1, "fp8_exp2rcp", "kernel:fp8",                                 \
      "fp8_exp2rcp on Hopper's warpgroup MMA: kv rows as M, K and Q from shared memory, V^T in registers") \
    X(8, mxfp4_mfma_scale, MLAB_KV_MXFP4, 1, 1, "mxfp4", "kernel:mxfp4_mx8",                        \
      "gfx950 scaled MFMA: K as stored (E2M1 + E8M0), Q as MXFP8, P with V's scales folded as MXFP8") \
    X(9, bf16_t32, MLAB_KV_BF16, 0, 0, "bf16", "kernel:bf16",                                       \
      "bf16 in 32-row tiles: twice the blocks, half the chain each, for calls of a few tiles a row") \
    X(10, mxfp4_wgmma, MLAB_KV_MXFP4, 1, 1, "mxfp4_e4m3", "kernel:mxfp4_a8",                        \
      "MXFP4 turned into e4m3 tiles by two producer warpgroups, fp8_wgmma's e4m3 products (Q, P as fp8)") \
    X(11, bf16_wgmma, MLAB_KV_BF16, 0, 0, "bf16", "kernel:bf16",                                       \
      "bf16 on Hopper's warpgroup MMA: K, Q and V^T (a transposed operand) read from swizzled tiles") \
    X(12, fp8_wgmma_qrow, MLAB_KV_FP8, 2, 1, "fp8_wgmma", "kernel:fp8_qrow",                        \
      "fp8_wgmma with Q scaled per (row, head) by the decode itself: no amax pass (not the task's per-tensor rule)") \
    X(13, mxfp4_wgmma_qrow, MLAB_KV_MXFP4, 2, 1, "mxfp4_wgmma", "kernel:mxfp4_a8_qrow",             \
      "mxfp4_wgmma with Q scaled per (row, head) by the decode itself: no amax pass (not the task's per-tensor rule)") \
    X(14, mxfp4_qrow_lazy, MLAB_KV_MXFP4, 2, 1, "mxfp4_wgmma_qrow", "kernel:mxfp4_a8_qrow",             \
      "mxfp4_wgmma_qrow with a lazy softmax max: O and the sums rescaled only past a threshold (FA4's)")

#endif
