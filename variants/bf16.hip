/* bf16.hip: variant 'bf16' (id 0), the root of the ladder.
 * Idea: split-KV flash decoding. One block per (query row, split); Q (16 heads)
 * stays in shared memory, 64-row KV tiles stream through a 2-stage cp.async
 * pipeline; S = Q K^T and O += P V on the matrix units (mma.sync m16n8k16 bf16
 * on NVIDIA, MFMA 16x16x16 bf16 on AMD), fp32 accumulation, softmax with expf
 * and IEEE division; splits merged by an LSE combine kernel (mla_kernel.h),
 * launched as a programmatic dependent of the decode on NVIDIA.
 * Parent: none.
 * Measured (H200, CUDA 13.0, recorded competition inputs, cold medians, v6
 * 2041b49; papers/reports/h200-2026-11-30c, papers/perf-notes.md), the
 * 64-row kernel: 256x8192
 * 646 us = 88.6% of copy bandwidth, 64x8192 177 us (80.7%), 32x8192 98.7 us
 * (72.5%), 256x1024 101 us (72.8%), 4x1024 13.7 us; geomean of the 8 cases
 * 68.0 us (v5 71.4 on the same machine; v4 76.9; FlashMLA: 68 us). Kernel
 * error vs the fp32 reference: rel RMS 1.8e-3..2.0e-3 (bf16 output rounding).
 * Tile rule (v9, 6f6ee29): on NVIDIA a call of 16+ 64-row tiles an SM runs
 * bf16_t32's configuration (32-row tiles, two blocks an SM; splits.h,
 * mlab_bf16_small_tiles; the pick below): 256x8192 589 us (1.11x the read
 * limit, was 647), 256x1024 92.4 (-8%), 64x8192 167 (-5%), 32x8192 95.0
 * (-3%); the short calls unchanged; geomean 65.8 us, 1.43x the read limit,
 * 1.01x FlashInfer's (papers/reports/h200-2026-12-01f).
 * v10 (26c83fd, papers/reports/h200-2026-12-01k, perf-notes v10): split
 * partials in f16 with a multiplier a head (mla_kernel.h) and each row's kv
 * range in one load: 4x1024 13.1 us, 4x8192 27.1, 32x1024 26.2; geomean
 * 65.0 us, 1.40x the read limit (FlashInfer 0.7.2: 65.2, 1.42x).
 * Tried and dropped: 4 warps a block (latency-bound, 31-67%); one split per
 * SM wave regardless of block cost (64 splits at 256x8192: 1851 us); a
 * thread per KV row in the cp.async mapping (-12%); L2 prefetch of the tiles
 * beyond the stages (-9%).
 * v11 (cf3bfb0, papers/reports/h200-2026-12-01m, perf-notes v11): the
 * epilogue's two output kinds in their own loops, pairs by packed
 * conversions, P packed in pairs, the outputs staged in shared memory and
 * written 16 bytes a thread: 4x1024 12.2 us, 4x8192 26.4, 32x1024 25.5;
 * geomean 63.4 us, 1.38x the read limit (FlashInfer 65.5, 1.41x).
 * v12 (17bec0f, papers/reports/h200-2026-12-01v, perf-notes v12): the
 * combine that loads every split's partial ahead of the weights on calls of
 * one wave: 4x1024 11.5 us, 4x8192 25.7, 32x1024 24.9; geomean 62.4 us,
 * 1.35x the read limit (FlashInfer 65.1, 1.41x). Then the 64-row tiles by
 * bulk copies (ecb8c24, -x): -0.1..-0.3%.
 * v13 (ba5600e, papers/reports/h200-2026-12-01zb): 4x1024 11.4 us, 4x8192
 * 25.4, 256x8192 597; geomean 62.3 us, 1.34x the read limit (FlashInfer
 * 65.7, 1.41x). Tried: 64-row tiles in one stage a block, two blocks an SM
 * (-z): +5.9% geomean, +19% at 4x8192 and 32x1024.
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): unchanged kernels,
 * 4x1024 11.3 us, 256x8192 595; geomean 62.2 us, 1.34x (FlashInfer 1.41x).
 * v15 (4984294, papers/reports/h200-2026-12-01zl): unchanged kernels on
 * the 8 cases (geomean 62.6 us, 1.35x; FlashInfer 1.41x); ragged batches
 * by the host-planned split (-zj: each row its own split count): 4 rows of
 * 8192 + 60 of 512 113 -> 39.7 us, 64 rows of 128..16383 223 -> 106, one of
 * 16384 + 31 of 256 107 -> 27.8 (FlashInfer 38.5, 106, 36.5).
 * v23 (5148d8f, papers/reports/h200-2026-12-02w call 4, -02x): S rows
 * padded by 8 floats (fp8's header): within -0.4..+0.4% here; ncu (-02w
 * call 3) puts its excess shared wavefronts in the 32-row tiles' cp.async
 * writes (2.4-3.0x ideal), not changed; the v23 suite geomean 62.4 us,
 * 1.36x (FlashInfer 65.7, 1.43x).
 */
#include "launch_common.h"
#include "variants.h"
extern "C" {
#include "splits.h" /* mlab_bf16_small_tiles */
}

static int bps(void) { return blocks_per_sm_fit<KV_BF16, false, false>(); }
static int smem_now(void) { return smem_fit<KV_BF16>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_fit<KV_BF16, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
/* Long calls run bf16_t32's configuration (32-row tiles, two blocks an SM),
 * by the documented rule mlab_bf16_small_tiles (splits.h): NVIDIA only,
 * where it was measured; AMD's configuration is chosen by the device's LDS
 * (launch_fit). */
static const mlab_variant_impl *pick(int total_q, int max_vis, int sms)
{
    extern const mlab_variant_impl mlab_impl_bf16;
#if defined(MLAB_NV)
    if (mlab_bf16_small_tiles(total_q, (max_vis + MLA_BN - 1) / MLA_BN, sms)) return &mlab_impl_bf16_t32;
#else
    (void)total_q; (void)max_vis; (void)sms;
#endif
    return &mlab_impl_bf16;
}
extern const mlab_variant_impl mlab_impl_bf16 = {MLAB_V_bf16, 0, bps, mla_smem_min<KV_BF16>(), launch, 0, 0, NULL, smem_now,
                                                 0, pick};
#endif
