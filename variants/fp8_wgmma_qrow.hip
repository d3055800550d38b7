/* fp8_wgmma_qrow.hip: variant 'fp8_wgmma_qrow' (id 12), fp8_wgmma with Q
 * scaled per (row, head).
 * Idea: the task's a8w8 rule (papers/spec.md: amax, s = bf16(amax / 448),
 * codes of bf16(x / s)) applied to each query row's head (576 values) instead
 * of to the whole Q tensor, as per-token dynamic quantization does. A decode
 * block then needs nothing but its own row's Q: no amax pass before it, no
 * grid dependency on that pass, no load of the pass's maxima queued behind
 * its own tiles in flight (at v27-v28 fp8_wgmma's Q was ready 3.5-4.2 us
 * into a short call, the first tile could have been used ~1.5 us sooner;
 * at 256 x 1024 the pass took 3.4 us and the decode blocks could not start
 * beside it). Each head's score scale is its own (the scores of head h times
 * s_h s_kv sm_scale); the rest is fp8_wgmma's kernel (mla_wgmma.h, QR).
 * Numerics: a finer scale than per tensor, so Q's rounding error is at most
 * the per-tensor one's; judged against its own reference, cpu_ref_fp8_qrow
 * (q_fp8 = 2, reference/mla_ref.c), with kernel:fp8's bounds
 * (kernel:fp8_qrow). This is not the task's per-tensor rule: its results
 * are reported beside fp8_wgmma's, never in their place.
 * Measured (H200, papers/reports/h200-2026-12-03i, against fp8_wgmma in the
 * same runs, two orders): geomean -1.2 / -0.9%; 32 x 1024 -5.0 / -4.9%,
 * 64 x 1024 -5.0 / -4.4%, 4 x 8192 -2.8 / -3.1%, the long calls -1.9..+0.6%,
 * but 4 x 1024 +7.6 / +9.2% (its trace: Q ready 4.0 us after the decode's
 * start however it comes, so there the pass had been off the critical
 * path; ~0.2 us more outside the kernels, not explained). The v29 suite
 * (-03j): 39.2 us, 1.39 of the read limit (fp8_wgmma 39.8, 1.40); 4 x 1024
 * 11.4 us (10.8). Tried: the row by one bulk copy issued before any tile
 * (88cdae7, -03i call 2): the same (-0.46 / +0.45%), reverted.
 * v30 (fb7c307, papers/reports/h200-2026-12-03l): the first unit's Q row
 * loaded at the kernel's start, before the barrier the producer passes to
 * issue the first tiles (WG_Q_EARLY): 4 x 1024 -2.2 / -2.8%, 64 x 1024
 * -0.9 / -1.1%, the rest -0.9..+0.1%; Q ready 4.1-4.3 -> 3.7 us at 4 x 1024.
 * v31 (82c48af, papers/reports/h200-2026-12-03p): each warp of the
 * consumers owns two whole heads of the row (q_fp8_heads, mla_kernel.h: its
 * loads contiguous, a head's amax one warp reduction, its scale one chain a
 * lane; no shared-memory atomics, no barrier before the codes): geomean
 * -2.4 / -2.0%, 4 x 1024 -13.2 / -12.4% (10.9 -> 9.5 us), 256 x 1024 -2%;
 * Q ready 3.7 -> 2.4 us at 4 x 1024, its first tile now used as it lands
 * (2.7). The v31 suite: 38.4 us, 1.35 of the read limit (1.347; fp8_wgmma
 * 39.8, 1.40), 4 x 1024 9.60 us, the fastest of any variant.
 * v32 (8ca1751's kernel, papers/reports/h200-2026-12-03s, -03r): a block's
 * last unit of one tile taken by both consumers, each half of each
 * product's operand with all 16 heads (mla_wgmma.h WG_ONE_DV; before,
 * consumer 0 alone): 4 x 1024 -0.2 / -2.6% (-0.8 / +1.0% in the call
 * before), the rest within 1.5%; the unit's products ~2140 -> ~1700
 * cycles, its epilogue ~2100 -> ~1400.
 * NVIDIA sm_90a only (wgmma). Parent: fp8_wgmma.
 * v33 (papers/reports/h200-2026-12-03t): a one-wave instantiation without
 * the persistent unit loop, as fp8_wgmma's, measured nothing (geomean
 * -0.4 / +0.2%, 4x1024 -1.0 / +0.5%): not kept (branch wip/onewave).
 * v36 (papers/reports/h200-2026-12-04c, -04d): landing gates on its tiles
 * measured nothing (3: +0.5 / -0.0%, 9: +2.3 / +0.9% by geomean); 4x8192
 * merged by the 32-split combine, -4.2 / -4.2%. The v36 suite geomean 37.6
 * us, 1.322x: the fp8 bar (1.35) with Q per (row, head).
 * v39 (papers/reports/h200-2026-12-04h, -04i): the consumer index
 * broadcast from lane 0 (mla_decode_wg's cons: -880 SASS instructions), -0.7
 * / -1.2% by geomean. Its ncu profile at 64x8192: DRAM 83% of peak, issue
 * 27%: byte-bound. The v39 suite geomean 37.1 us, 1.306x.
 * v42 (papers/reports/h200-2026-12-04o): the split rule's bandwidth factor
 * (its DRAM share at 70 %), as fp8_wgmma: 96x4096, 48x4096, 24x8192 11-14% faster.
 * The v42 suite geomean 36.9 us, 1.310x.
 * v43 (papers/reports/h200-2026-12-04q, -04r): the DRAM share with two
 * latency terms, as fp8_wgmma: 27 of 29 sweep shapes within 1% (at 70 %:
 * 16); 64x1024 unsplit, 23.0 -> 21.7 us (-5.6%; as ratios -6.6%); at 70 %
 * 72x4096 took 8 splits, 26% slower than unsplit. The v43 suite geomean
 * 37.1 us, 1.300x.
 * v57 (H100, papers/reports/h100-2026-12-06d): in its one-tile unit each
 * consumer loads its P.V's V^T fragments under its Q.K and sums its rows
 * under its P.V (mla_wgmma.h WG_ONE_DV): 4 x 1024 -1.6 / -1.3 / -0.3 / -1.7% (mean -1.2%)
 * in four pairs, nothing else moved.
 * v65 (papers/reports/h200-2026-12-06d): its MTP unit, the MXFP4 `_qrow`
 * decodes' M32 (mla_wgmma.h) on its fp8 tiles, Q per (row, head); not
 * persistent (MLAB_MTP): on the H200, on against off at q_seq_len 2,
 * -7.8 / -8.0% at 64 x 4096, -15.9 / -15.9% at 64 x 8192 (90.8 us,
 * 1.06x the q_seq_len 1 time), +5.6 / +5.2% at 8 x 4096, +2.1 / +1.2% at 8 x 8192.
 * On an H100 (v60) fp8_wgmma_qrow's was +2..+17% slower everywhere
 * (a block a row cost fp8 nothing there; v73 the same, +0.4..+7.4%): auto
 * takes it only on a fast DRAM past 1 L2 of KV (splits.h mlab_mtp_pays),
 * and (v74, H100, papers/reports/h100-2026-12-07j: 128 items -7.4..-10.4% at
 * kv 512..2048) wherever the items outnumber half the SMs (mlab_mtp_auto).
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"

#if defined(MLAB_NV) && defined(MLAB_SM90A)
typedef wg_cfg_t<false, false, true> qr_cfg;
#define QR_KERNEL mla_decode_wg<true, false, false, true>
typedef wg_cfg_t<false, false, true, false, true> qrm_cfg;
#define QR_MTP_KERNEL mla_decode_wg<true, false, false, true, false, -1, true>
static int bps(void) { return occupancy_of(QR_KERNEL, WG_NT, qr_cfg::SMEM); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    static bool attr_set = false, attr_m = false;
    if (p->mtp) /* an item's two query rows in one block (mla_wgmma.h M32; not persistent) */
        return launch_sequence<true, false>(QR_MTP_KERNEL, WG_NT, qrm_cfg::SMEM, false, p, s, attr_m);
    return launch_sequence<true, false>(QR_KERNEL, WG_NT, qr_cfg::SMEM, false /* no amax pass */, p, s, attr_set);
}
#define QR_WHY NULL
#define QR_SMEM qr_cfg::SMEM
#define QR_PERSIST qr_cfg::PERSIST
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define QR_WHY "needs NVIDIA sm_90a (wgmma); build with -DMLAB_CUDA_ARCH=90a"
#define QR_SMEM 0
#define QR_PERSIST 0
#endif
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8_wgmma_qrow = {MLAB_V_fp8_wgmma_qrow, 2 /* Q per (row, head) */, bps,
                                                           QR_SMEM, launch, 0, WG_NT, QR_WHY, NULL,
                                                           1 /* combine_only */, NULL, 0, NULL, NULL, QR_PERSIST, 0,
                                                           MLAB_SPLIT_DRAM_FP8_WGMMA, 1 /* mtp */};
#endif
