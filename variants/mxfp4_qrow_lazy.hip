/* mxfp4_qrow_lazy.hip: variant 'mxfp4_qrow_lazy' (id 14), mxfp4_wgmma_qrow
 * with a lazy softmax max.
 * Idea (FlashAttention-4's conditional rescaling): a consumer keeps its
 * running max while no head's tile max is more than WG_LAZY_T (8, log2
 * units) above it, so P = 2^(s - m) may reach 2^8 (e4m3 holds 448) and such
 * a tile needs one barrier of the consumer's 4 warps, not two, and no
 * rescale of O (64 floats a thread) or of the sums; a tile past the
 * threshold (and each consumer's first tile of a unit) takes the eager
 * step (mla_wgmma.h wg_softmax_lazy). The result is the same function of the
 * scores (the merge and the epilogue take max and sums as a pair); only
 * P's e4m3 rounding happens at another scale, so against its reference
 * (cpu_ref_mxfp4_a8_qrow, which rounds P = 2^(s - m_true)) it differs by
 * both roundings. Judged with mxfp4_wgmma_qrow's bounds
 * (kernel:mxfp4_a8_qrow). Not the task's per-tensor Q rule (as its parent).
 * Measured (H200, perf-notes v39 as the -DWG_LAZY_T=8 build of the MXFP4
 * decodes, papers/reports/h200-2026-12-04h): geomean -1.4..-3.3%, the long
 * calls -1.2..-3.7%; error against the own reference +6..22%, against the
 * bf16 truth +0.2..2.5%. As a variant (perf-notes v41,
 * papers/reports/h200-2026-12-04l, -04m): against mxfp4_wgmma_qrow in the
 * same runs -0.7, -1.1, -1.3, -0.8% by geomean (256 x 1024 -1.8..-2.7%,
 * 256 x 8192 -0.6..+1.3%: its long calls wait for the producers, not the
 * consumers); the v41 suite 33.2 us, 1.717x (mxfp4_wgmma_qrow 33.6, 1.737x).
 * Kernel error 1.44e-2..2.72e-2 against its reference (+4..+23%; the bound
 * 3e-2), against bf16 truth the same to 3 digits.
 * v42 (papers/reports/h200-2026-12-04n, -04p): the tile maxima in red's
 * halves by the consumer's own tile count (ordered by a barrier, not by the
 * next products' warpgroup arrival): the same speed (-0.3 / -0.6% as
 * read-limit ratios); the v42 suite 33.0 us, 1.724x.
 * v57 (H100, papers/reports/h100-2026-12-06d): in its one-tile unit each
 * consumer loads its P.V's V^T fragments under its Q.K and sums its rows
 * under its P.V (mla_wgmma.h WG_ONE_DV): 4 x 1024 +0.3 / -1.0 / +0.7 / -1.3% (mean -0.3%: no change, the run order alone
 * moves such a mean ~-0.17%)
 * in four pairs, nothing else moved.
 * v60 (H100, papers/reports/h100-2026-12-06l): its MTP unit (mla_wgmma.h
 * M32; MLAB_MTP): where every item has
 * two query rows, a consumer takes every other tile of the item with both
 * rows as 32 columns, so each tile is converted once for both:
 * -14.1 / -14.9% at 64 x 4096 q_seq_len 2, -21.0 / -23.0% at 64 x 8192
 * against a block a row; 8 x 4096 +10..+11% forced. Both rows' Q loaded
 * at the kernel's start (29b7375, papers/reports/h100-2026-12-06o):
 * -17.1 / -17.5%, -23.0 / -23.2%; 8 x 8192 -3.5 / -5.0%, 8 x 4096 +5.3 /
 * +5.5% forced; by default past 0.3 L2s of MXFP4 KV.
 * v62 (H100, papers/reports/h100-2026-12-06r): M32's softmax cheaper (its
 * tile maxima reduce-scattered over the lane bits, P two columns a word):
 * -3.0 / -2.3% at 64 x 4096 q_seq_len 2, -3.4 / -2.8% at 64 x 8192, -2.7 /
 * -2.2% at 8 x 8192, errors the same to the bit; its eager step (a tile
 * past the lazy line) validated on the rising case with two query rows.
 * MTP on against off then (papers/reports/h100-2026-12-06s) -19.5 / -19.5%
 * at 64 x 4096, -25.1 / -25.7% at 64 x 8192: 1.36x its q_seq_len 1 time.
 * NVIDIA sm_90a only (wgmma). Parent: mxfp4_wgmma_qrow.
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"


#if defined(MLAB_NV) && defined(MLAB_SM90A)
typedef wg_cfg_t<true, false, true> mq_cfg;
#define MQ_KERNEL mla_decode_wg<true, true, false, true, false, WG_LAZY_T>
typedef wg_cfg_t<true, false, true, false, true> mqm_cfg;
#define MQ_MTP_KERNEL mla_decode_wg<true, true, false, true, false, WG_LAZY_T, true>
static int bps(void) { return occupancy_of(MQ_KERNEL, WG_NT_MX, mq_cfg::SMEM); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    static bool attr_set = false, attr_m = false;
    if (p->mtp) /* an item's two query rows in one block (mla_wgmma.h, MTP) */
        return launch_sequence<true, false>(MQ_MTP_KERNEL, WG_NT_MX, mqm_cfg::SMEM, false, p, s, attr_m);
    return launch_sequence<true, false>(MQ_KERNEL, WG_NT_MX, mq_cfg::SMEM, false /* no amax pass */, p, s, attr_set);
}
#define MQ_WHY NULL
#define MQ_SMEM mq_cfg::SMEM
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define MQ_WHY "needs NVIDIA sm_90a (wgmma); build with -DMLAB_CUDA_ARCH=90a"
#define MQ_SMEM 0
#endif
/* a scale e4m3 cannot hold exactly (mla_params.mx_e4m3_ok): mxfp4's exact path */
static int exact_fallback(const mla_params *p) { return !p->mx_e4m3_ok; }
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4_qrow_lazy = {MLAB_V_mxfp4_qrow_lazy, 2 /* Q per (row, head) */, bps,
                                                            MQ_SMEM, launch, 0, WG_NT_MX, MQ_WHY, NULL,
                                                            1 /* combine_only */, NULL, 0, exact_fallback,
                                                            &mlab_impl_mxfp4, 0, 0, {0, 0, 0, 0}, 1 /* mtp */};
#endif
