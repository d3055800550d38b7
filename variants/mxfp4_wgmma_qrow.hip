/* mxfp4_wgmma_qrow.hip: variant 'mxfp4_wgmma_qrow' (id 13), mxfp4_wgmma with
 * Q scaled per (row, head).
 * Idea: fp8_wgmma_qrow's Q (the task's a8w8 rule per query row and head, by
 * the decode block itself: no amax pass, no grid dependency on it) on
 * mxfp4_wgmma's kernel (producer warpgroups turning MXFP4 tiles into e4m3,
 * fp8_wgmma's consumers; mla_wgmma.h, MX and QR). Judged against its own
 * reference, cpu_ref_mxfp4_a8_qrow (MXFP4 KV dequantized exactly, Q per
 * (row, head), P rounded to e4m3), with kernel:mxfp4_a8's bounds
 * (kernel:mxfp4_a8_qrow). Not the task's per-tensor rule: reported beside
 * mxfp4_wgmma, never in its place. Exact fallback as mxfp4_wgmma's (a scale
 * e4m3 cannot carry: mxfp4's exact path).
 * Measured (H200, papers/reports/h200-2026-12-03i, against mxfp4_wgmma in
 * the same runs, two orders): geomean -0.3 / -0.5%; 64 x 1024 -5.7 / -5.8%,
 * 4 x 8192 -3.9 / -4.3%, but 4 x 1024 +7.5 / +6.8% and 256 x 8192 +1.8 /
 * +2.5%. The v29 suite (-03j): 37.6 us, 1.95 of the read limit
 * (mxfp4_wgmma 37.9, 1.97).
 * v30 (fb7c307, papers/reports/h200-2026-12-03l): the first unit's Q row
 * loaded at the kernel's start, before the barrier the producers pass to
 * issue the first tiles (WG_Q_EARLY): 4 x 1024 -5.5 / -5.9%, 32 x 1024 and
 * 64 x 1024 -1.6..-2.1%, 4 x 8192 -1.9 / -1.2%, the rest -2.0..+1.9%.
 * v31 (82c48af, papers/reports/h200-2026-12-03p): each warp of the
 * consumers owns two whole heads of the row (q_fp8_heads: a head's amax
 * one warp reduction, no shared-memory atomics, no barrier before the
 * codes; the kernel's 16-byte stack gone): geomean -4.5 / -4.2%, every case
 * faster (4 x 1024 -9.0 / -8.2%, 256 x 8192 289.0 -> 278.1 us). The v31
 * suite: 35.5 us, 1.84 of the read limit (mxfp4_wgmma 37.9, 1.96), 280 us
 * at 256 x 8192 against fp8_wgmma's 293.
 * v32 (8ca1751's kernel, papers/reports/h200-2026-12-03s, -03r): a block's
 * last unit of one tile taken by both consumers, each half of each
 * product's operand with all 16 heads (mla_wgmma.h WG_ONE_DV; before,
 * consumer 0 alone): 4 x 1024 -3.2 / -4.4% (10.1 -> 9.75 us; -4.1 / -1.6%
 * in the call before), the rest within 1.4%, geomean -0.5 / -1.0%.
 * v36 (papers/reports/h200-2026-12-04c): mxfp4_wgmma's one-tile block
 * converted by both producers (WG_MX_SPLIT1): 4 x 1024 -2.7 / -2.7% (9.57
 * -> 9.31 us), the others within +-1% but 256 x 8192 +0.4 / +2.5% (its
 * base runs 276 / 275 us: the long MXFP4 calls move 2-3% from run to run
 * with the SASS unchanged, s33 call 1), geomean -0.8 / -0.4%; 4 x 8192
 * merged by the 32-split combine, -4.3 / -4.3%. The v36 suite (-04d)
 * geomean 34.5 us, 1.785x.
 * v39 (papers/reports/h200-2026-12-04h, -04i): the softmax's trims
 * (exact) +0.1 / -0.7% by geomean (long calls -0.5..-1.4%); the consumer
 * index broadcast from lane 0 +2.4 / +1.7% here (short calls +3..+6%, 32
 * bytes of spills; long calls -1..-3%): then not for this variant;
 * broadcast in its consumers' branch alone (16 bytes of spills): -0.9 /
 * -0.4%, long calls -0.3..-1.6% (call 5). ncu at 64x8192: 36.1 M warp
 * instructions against fp8_wgmma_qrow's 19.7 M, ALU pipe 59%, L1 79%,
 * issue 50%, DRAM 47%. The v39 suite geomean 34.2 us, 1.760x; 256x8192
 * 273 us (fp8_wgmma 286).
 * v40 (papers/reports/h200-2026-12-04j, -04k): no zero table for a partial
 * tile's rows past the unit's end (their codes finite, the softmax masks
 * them) and, without it, the block-wide index broadcast without spills:
 * -1.5 / -1.3% by geomean, 256x8192 -4.2 / -3.1%. ncu at 64x8192: 31.5 M
 * warp instructions (-13%), issue 45%, but cycles -3%: its shared memory
 * (L1 82%, 1385 wavefronts a tile) bounds it now. The v40 suite geomean
 * 33.6 us, 1.738x; 256x8192 267 us (fp8_wgmma 292).
 * v41 (papers/reports/h200-2026-12-04l, -04m): its producers bound the long
 * calls (trace: mxfp4_wgmma's figures); the three producer changes tried
 * there: +1.0 / +0.4%, +2.2 / +3.1%, -0.4 / -0.5% (not landed). The v41
 * suite geomean 33.6 us, 1.737x; 256x8192 260 us (fp8_wgmma 286). Its
 * lazy-max child: mxfp4_qrow_lazy.
 * v57 (H100, papers/reports/h100-2026-12-06d): in its one-tile unit each
 * consumer loads its P.V's V^T fragments under its Q.K and sums its rows
 * under its P.V (mla_wgmma.h WG_ONE_DV): 4 x 1024 +0.7 / -1.0 / +0.3 / -1.6% (mean -0.4%: no change, the run order alone
 * moves such a mean ~-0.17%)
 * in four pairs, nothing else moved.
 * v60 (H100, papers/reports/h100-2026-12-06l): its MTP unit (mla_wgmma.h
 * M32; MLAB_MTP): where every item has
 * two query rows, a consumer takes every other tile of the item with both
 * rows as 32 columns, so each tile is converted once for both:
 * -12.4 / -13.0% at 64 x 4096 q_seq_len 2, -18.5 / -20.4% at 64 x 8192
 * against a block a row; 8 x 4096 +10..+11% forced. Both rows' Q loaded
 * at the kernel's start (29b7375, papers/reports/h100-2026-12-06o):
 * -15.7 / -15.8%, -21.2 / -21.4%; 8 x 8192 -3.8 / -4.3%, 8 x 4096 +3.8 /
 * +4.5% forced; by default past 0.3 L2s of MXFP4 KV.
 * v62 (H100, papers/reports/h100-2026-12-06r): M32's softmax cheaper (its
 * tile maxima reduce-scattered over the lane bits, P two columns a word):
 * -4.4 / -3.8% at 64 x 4096 q_seq_len 2, -4.3 / -4.3% at 64 x 8192, -3.2 /
 * -2.8% at 8 x 8192, errors the same to the bit. MTP on against off then
 * (papers/reports/h100-2026-12-06s) -19.4 / -18.9% at 64 x 4096, -24.9 /
 * -25.7% at 64 x 8192: 1.33x its q_seq_len 1 time of the same KV.
 * NVIDIA sm_90a only (wgmma). Parent: mxfp4_wgmma.
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"

#if defined(MLAB_NV) && defined(MLAB_SM90A)
typedef wg_cfg_t<true, false, true> mq_cfg;
#define MQ_KERNEL mla_decode_wg<true, true, false, true>
typedef wg_cfg_t<true, false, true, false, true> mqm_cfg;
#define MQ_MTP_KERNEL mla_decode_wg<true, true, false, true, false, -1, true>
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
extern const mlab_variant_impl mlab_impl_mxfp4_wgmma_qrow = {MLAB_V_mxfp4_wgmma_qrow, 2 /* Q per (row, head) */, bps,
                                                             MQ_SMEM, launch, 0, WG_NT_MX, MQ_WHY, NULL,
                                                             1 /* combine_only */, NULL, 0, exact_fallback,
                                                             &mlab_impl_mxfp4, 0, 0, {0, 0, 0, 0}, 1 /* mtp */};
#endif
