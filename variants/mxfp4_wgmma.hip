/* mxfp4_wgmma.hip: variant 'mxfp4_wgmma' (id 10), MXFP4 on Hopper's warpgroup MMA.
 * Idea: the MXFP4 cache (306 bytes a row, half of fp8's 576) streamed by the
 * copy engine into raw stages, and turned into e4m3 tiles by two producer
 * warpgroups beside fp8_wgmma's two consumers (issue item 5: "on loading
 * warps in parallel with the products"; producer q converts the tiles its
 * consumer q takes), every code an E2M1 value times its block's 2^(e - 127)
 * exactly (mxfp4_e4m3's table and permutes, mla_kernel.h e4m3_block); the
 * consumers then run fp8_wgmma's e4m3 wgmma products on those tiles
 * unchanged (mla_wgmma.h, wg_produce_mx). 512 threads a block, registers
 * 64 a producer thread and 192 a consumer's (setmaxnreg).
 * The tensor pipe of the H200 takes fp8 only with both operands e4m3, so Q
 * is quantized per tensor and P rounded to e4m3 as in the fp8 variants: the
 * arithmetic is a8 with MXFP4 weights ("a8w4"), checked against its own
 * reference (cpu_ref_mxfp4_a8: MXFP4 KV dequantized exactly, Q and P as
 * the fp8 kernels round them) with the fp8 bounds (kernel:mxfp4_a8); its
 * total error against bf16 truth is reported beside mxfp4's.
 * Exact fallback: a call whose cache holds a scale e4m3 cannot carry exactly
 * (mla_params.mx_e4m3_ok) runs mxfp4's exact bf16 path, as mxfp4_e4m3 does.
 * NVIDIA sm_90a only (wgmma); elsewhere the variant is unavailable.
 * Parent: mxfp4_e4m3 (the same e4m3 tiles, there on mma.sync with f16 Q and P).
 * Measured (H200, papers/reports/h200-2026-12-02, A/B of two pairs each):
 * 256x8192 408 us (v16's one producer) -> 356 (the codes without a branch
 * an item: ptxas had kept each item's chain apart) -> 330 (offsets as bases
 * plus constants, the sign word by one shift: 554 -> 465 instructions a
 * producer thread and tile) -> 304 (two producers), under fp8_wgmma's 319
 * and fp8_exp2rcp's 323 in the same calls; 64x8192 112 -> 86.5, 32x8192
 * 62.9 -> 50.2, 256x1024 69.5 -> 57.4; every GPU test valid. With two
 * producers the consumers wait ~200 cycles a tile, not ~1530 (TW lines,
 * -DMLAB_TRACE -DMLAB_WG_PROF): the products bound it now. The v17 suite
 * (h200-2026-12-02a, d6710aa): 256x8192 308 us (fp8 variants 317-319),
 * geomean 41.0 us, 2.14x its read limit (the fastest variant by geomean).
 * Tried: v16 (-zo): the scales a tile ahead in registers (454 us), by bulk
 * copy with pairs by row (477), the raw stage reissued before the codes
 * (422-427), 2 e4m3 + 6 raw stages (460 / 427), each producer warp its own
 * rows, copies and mbarrier (branch wip/mx-warp, 424); v17 (-zq): the
 * conversion in the consumers (branch wip/mx-cons: 410-413 against 411,
 * slower on short calls).
 * v19 (eadc652, papers/reports/h200-2026-12-02g, -02i): one Q.K accumulator
 * (WG_QK_ACC=1): the long calls -2.3..-3.0% (256x8192 305 -> 296 us in the
 * A/B); v19 suite geomean 40.4 us, 2.09x the read limit. Tried (-02g): each
 * consumer its own copy of the code (Q.K and P.V descriptors in uniform
 * registers, branch wip/wg-ucons-mx): the long calls -0.6..-1.7% more, but
 * one-tile calls +5..7% (a guess: the second copy fetched cold): no gain
 * on the geomean; that copy for long blocks only (wip/wg-ucons-hybrid): short
 * calls +40..66%.
 * v20 (unchanged kernel; papers/reports/h200-2026-12-02k, -02l): the one-tile
 * units' "solo" end the other wgmma decodes took was measured here too:
 * 4x1024 -0.8..-1.3% but the other calls +0.2..+2.0%, so not taken. The
 * v20 suite: geomean 40.4 us, 2.09x; 256x8192 302 us against the fp8
 * variants' 316-332.
 * v21 (unchanged kernel; papers/reports/h200-2026-12-02o, -02p): the
 * combine spread past 16 splits, 4x8192 -1.6%; the v21 suite: geomean
 * 40.3 us, 2.09x; 256x8192 300 us against the fp8 variants' 315-325.
 * v22 (unchanged kernel and loads): its 300 us at 256x8192 (v21 suite) now
 * behind fp8_wgmma's 297.6 / 296.5 (papers/reports/h200-2026-12-02t: the
 * 128-byte L2 promotion sped up fp8's tensor copies; this variant's raw
 * tiles come by bulk copies).
 * v23 (ba4a47b, papers/reports/h200-2026-12-02w call 2, -02x): ncu put it
 * on its SM's shared memory (L1 82%, DRAM 46%) and its producers' raw loads
 * 2-way bank-conflicted (rows 288 bytes apart); each quarter warp now takes
 * rows {0..3, 8..11} with the block parity flipped by row bit 3
 * (smem_lanes.h mlab_mx_prod_item): 256x8192 -3.2 / -4.6% (286 us against
 * fp8_wgmma's 297 in the same runs: faster than fp8 again), 64x8192 -2.5 /
 * -2.7%; the v23 suite 292 us against fp8_wgmma's 296, geomean 39.7 us,
 * 2.08x its read limit (the fastest variant by geomean).
 * v24 (unchanged kernel; papers/reports/h200-2026-12-02y, -02z): the fp8
 * Q orders tried for fp8_wgmma (its header) were slower here too (+0.3..
 * +4.7% on the short calls); the v24 suite geomean 39.9 us, 2.06x; at
 * 256x8192 304 us against fp8_wgmma's 303 in that run (at 1860 MHz against
 * 1965), 290 / 283 against 296 / 296 in the base runs of call 4 there.
 * v26 (papers/reports/h200-2026-12-02ze, -02zf, h200-2026-12-03): the
 * epilogue's output kind chosen once a unit, and a one-tile unit ended by
 * consumer 0 alone (-7.0 / -4.0% at 4x1024 by itself): 4x1024 12.64 ->
 * 10.82 us (-14.4%), 32x1024 -6.9% in the same run; the v26 suite geomean
 * 37.7 us, 1.96x, the fastest variant; 256x8192 292 us against
 * fp8_wgmma's 294 (both 1965 MHz).
 * v33 (a3a10f1, papers/reports/h200-2026-12-03t, -03u): a last one-tile
 * unit split between both consumers (WG_ONE_DV, as the _qrow decodes'
 * since v32): 4x1024 -4.1 / -2.1, -3.6 / -5.0% in two A/Bs; the v33 suite
 * (-03v) geomean 37.3 us, 1.95x; 256x8192 288 us against fp8_wgmma's 293.
 * v36 (papers/reports/h200-2026-12-04c): a one-tile block's tile converted
 * by both producers, producer q the panels of gate q (0-4, 5-8; mla_wgmma.h
 * WG_MX_SPLIT1; before, producer 0 alone while producer 1 idled), so
 * consumer 0's half of Q.K starts once panels 0-4 are stored: 4x1024 -0.6
 * / -2.3%, the rest within +-1.2% (the code runs on one-tile blocks only).
 * 4x8192 merged by the 32-split combine, -3.8 / -3.4%. The v36 suite
 * (-04d) geomean 36.9 us, 1.911x.
 * v39 (papers/reports/h200-2026-12-04h, -04i): SM-bound on integer issue
 * and shared memory (ncu of the _qrow sibling: ALU pipe 59%, L1 79%), so
 * instructions taken out show: the softmax's trims (exact) -0.6 / -0.6%
 * by geomean, the consumer index broadcast from lane 0 (uniform
 * descriptors) -1.2 / -1.5% (256x8192 -2.6 / -3.6%); a lazy max -3.3 /
 * -2.6% but the error against its reference +20% (not landed). The v39
 * suite geomean 36.5 us, 1.882x; 256x8192 277 us at 1830 MHz.
 * v40 (papers/reports/h200-2026-12-04j, -04k): no zero table for a partial
 * tile's rows past the unit's end (a compare and two selects an item; the
 * rows' codes stay finite and the softmax masks them to P = 0): -1.9 /
 * -2.0% by geomean, 32x8192 -3.3 / -3.5%; one item's loads at a time
 * (no spills) slower, 256x8192 +6%. Now bound by its shared memory (ncu of
 * the _qrow sibling: L1 82%, issue 45%). The v40 suite geomean 35.9 us,
 * 1.853x; 256x8192 279 us (fp8_wgmma 292).
 * v41 (papers/reports/h200-2026-12-04l, -04m): traced, its producers bound
 * the long calls (a tile of a producer's own: ~2700 cycles converting,
 * ~500 waiting for raw bytes, ~430 at the reissue barrier, ~50 for an
 * empty stage; the consumers wait for tiles). The table by arithmetic
 * (+1.0 / +0.9%), the raw stage released before the codes (+2.7 / +3.5%)
 * and the table's entries first (+0.8 / +0.4%): none faster (branches
 * wip/s38-*). The v41 suite geomean 35.6 us, 1.838x; 256x8192 266 us
 * (fp8_wgmma 286).
 * v42 (-04n): 2, 4 or 5 items a producer thread in flight (WG_MX_KB) no
 * faster than 3. The v43 suite (-04r) geomean 35.8 us, 1.842x.
 * v46: WG_MX_HYB +4..6%, WG_MX_DIRECT +24..29% slower, removed (code at c5e7e28 / 0583cb8).
 * v57 (H100, papers/reports/h100-2026-12-06d): in its one-tile unit each
 * consumer loads its P.V's V^T fragments under its Q.K and sums its rows
 * under its P.V (mla_wgmma.h WG_ONE_DV): 4 x 1024 -1.1 / -1.5 / -0.9 / -2.7% (mean -1.6%)
 * in four pairs, nothing else moved.
 * v61 (H100, papers/reports/h100-2026-12-06q): its MTP unit (mla_wgmma.h
 * M32, as the _qrow decodes' since v60, both query rows' codes with the
 * call's one Q scale; MLAB_MTP): where every item has two query rows, a
 * consumer takes every other tile of the item with both rows as 32
 * columns, so each tile is converted once for both: against a block a row
 * -17.6 / -17.0% at 64 x 4096 q_seq_len 2, -23.9 / -23.7% at 64 x 8192
 * (136 -> 104 us, 1.35x its q_seq_len 1 time of the same KV), 8 x 8192
 * -8.9 / -6.6%, 8 x 4096 -0.3 / +1.7% forced; by default past 0.3 L2s of
 * MXFP4 KV.
 * v62 (H100, papers/reports/h100-2026-12-06r): M32's softmax cheaper (its
 * tile maxima reduce-scattered over the lane bits, P two columns a word):
 * -5.9 / -5.5% at 64 x 4096 q_seq_len 2, -5.2 / -6.1% at 64 x 8192, -3.8 /
 * -3.5% at 8 x 8192, errors the same to the bit. MTP on against off then
 * (papers/reports/h100-2026-12-06s) -21.3 / -21.5% at 64 x 4096, -27.6 /
 * -28.1% at 64 x 8192: 1.26x its q_seq_len 1 time of the same KV.
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"

#if defined(MLAB_NV) && defined(MLAB_SM90A)
typedef wg_cfg_t<true> mx_cfg;
typedef wg_cfg_t<true, false, false, false, true> mxm_cfg;
#define MX_MTP_KERNEL mla_decode_wg<true, true, false, false, false, -1, true>
static int bps(void) { return occupancy_of(mla_decode_wg<true, true>, WG_NT_MX, mx_cfg::SMEM); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    static bool attr_set = false, attr_m = false;
    if (p->mtp) /* an item's two query rows in one block (mla_wgmma.h, M32), the call's Q scale */
        return launch_sequence<true, false>(MX_MTP_KERNEL, WG_NT_MX, mxm_cfg::SMEM, true, p, s, attr_m);
    return launch_sequence<true, false>(mla_decode_wg<true, true>, WG_NT_MX, mx_cfg::SMEM, true, p, s, attr_set);
}
#define MX_WHY NULL
#define MX_SMEM mx_cfg::SMEM
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define MX_WHY "needs NVIDIA sm_90a (wgmma); build with -DMLAB_CUDA_ARCH=90a"
#define MX_SMEM 0
#endif
/* a scale e4m3 cannot hold exactly (mla_params.mx_e4m3_ok): the runner runs
 * mxfp4 (the exact bf16 path) instead (exact_impl) */
static int exact_fallback(const mla_params *p) { return !p->mx_e4m3_ok; }
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4_wgmma = {MLAB_V_mxfp4_wgmma, 1, bps, MX_SMEM, launch, 0, WG_NT_MX,
                                                        MX_WHY, NULL, 1 /* combine_only */, NULL, 0,
                                                        exact_fallback, &mlab_impl_mxfp4, 0, 0, {0, 0, 0, 0},
                                                        1 /* mtp */};
#endif
