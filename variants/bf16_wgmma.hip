/* bf16_wgmma.hip: variant 'bf16_wgmma' (id 11), bf16 on Hopper's warpgroup MMA.
 * Idea: the bf16 variant's arithmetic (bf16 Q and KV, expf softmax, P rounded
 * to bf16 for P.V, fp32 accumulation, IEEE division at the end) on the core
 * fp8_wgmma runs on (mla_wgmma.h, B16): kv rows are the M dimension of both
 * products (S^T = K Q^T, O^T = V^T P^T), so 16 heads fill N = 16. Every
 * operand comes from shared memory: a 64-row tile lands by 9 tensor copies
 * as 128-byte swizzled panels (arch/nv_tma.h, mlab_sw128), Q.K reads K from
 * them K-major, and P.V reads V^T from the same panels as a transposed
 * (MN-major) operand, which wgmma allows for 16-bit types: no ldmatrix, no
 * byte permutes, no transpose pass (fp8_wgmma builds V^T in registers). A
 * tile is 72 KB, so two stages beside a producer warp's tensor copies; the
 * two consumer warpgroups each take 8 of the heads of every tile (N = 8
 * products; v28, mla_wgmma.h WG_B16_HS), so the stages are a double buffer;
 * one block an SM, a block a (row, split) unit.
 * NVIDIA sm_90a only: elsewhere the variant is unavailable and mlabench says
 * so.
 * Parent: bf16 (same arithmetic; tolerance kernel:bf16).
 * Measured (H200, papers/perf-notes.md v20; papers/reports/h200-2026-12-02k,
 * -02l): correct at its first run; as fast as the mma.sync bf16 decode on
 * the long calls within 3.5% either way (v20 suite, 10cc6d8: 256x8192 597
 * us against bf16's 597, 32x8192 92.3 against 93.7, 64x8192 169 against 166,
 * 256x1024 94.8 against 91.6; 1.10-1.16x the read limit), slower on the
 * short ones (4x1024 12.6 against 11.5; geomean 63.7 against 62.4 us): at
 * 64x8192 its consumers wait for tiles 66% of the time (two stages; a third
 * does not fit beside Q). A one-tile unit ends with consumer 0 alone (solo:
 * 4x1024 -2.6..-5.3%), and the outputs are staged in shared memory and
 * written 16 bytes a thread (4x1024 -4.6..-5.5%, 4x8192 -2.5..-3.3%).
 * Tried and dropped: fp8_wgmma's persistent unit loop (256x1024 -0.1..-0.4%,
 * 32x1024 +5.6%).
 * v21 (unchanged kernel; papers/reports/h200-2026-12-02o, -02p): the
 * combine spread past 16 splits, 4x8192 -2.0..-2.3% (25.3 -> 24.8 us); the
 * v21 suite: geomean 63.5 us, 1.37x.
 * v22 (unchanged kernel; papers/reports/h200-2026-12-02s, -02t): the
 * tensor map's L2 promotion at 128 bytes, not 256 (runner, MLAB_TMAP_L2):
 * 256x8192 -6.0% (598.5 -> 562.9 us, 1.04x; FlashInfer 565.5 in the v21
 * suite), 64x8192 -5.2..-5.5% (168.9 -> 160.2), 32x8192 -2.0%: now the
 * fastest bf16 decode on the long calls. Geomean 62.5 us, 1.34x (A/B).
 * v24 (3c97f5e; papers/reports/h200-2026-12-02y call 2, -02z): Q copied by
 * cp.async in memory order from the kernel's first instruction into
 * 128-byte-swizzled panels of 16 heads (mla_wgmma.h wg_q16_issue), not
 * through registers into 16-byte columns after the set-up (8-way conflicted
 * stores): faster on every case, 64x1024 -7.1 / -6.7% (37.7 -> 35.0 us),
 * 32x1024 -5.1 / -4.2%, long calls -0.4..-1.3%; the v24 suite geomean
 * 61.4 us, 1.30x the read limit, the fastest bf16 decode (FlashInfer bf16
 * 65.9 us, 1.40x, in the same run); 4x1024 12.6 us against the mma.sync
 * decode's 11.5.
 * v26 (papers/reports/h200-2026-12-02ze, h200-2026-12-03): the epilogue's
 * output kind (bf16 or f16 partial) chosen once a unit, not per element:
 * 4x1024 12.48 -> 11.84 us (-5.1%), every case -0.5..-5.1% in the same
 * run; the v26 suite geomean 59.8 us, 1.29x the read limit,
 * 0.91x FlashInfer bf16's 65.4. Its outputs staged by stmatrix.trans
 * measured the same (-0.1 / +0.1%, -02zf) and were not kept.
 * v27 (papers/reports/h200-2026-12-03a): the epilogue with one exchange
 * (the row sums and heads' maxima at one barrier) and the partials' scale
 * folded into the division, bit for bit the same outputs with fewer
 * instructions, measured the same (-0.3 / +0.6% geomean), as did O times
 * 1 / l for the division (-0.5 / -0.3%): its ~3700-cycle epilogue is not
 * bound by its instruction count. Not kept.
 * v28 (14056be, papers/reports/h200-2026-12-03f): the consumers split the
 * heads (each 8 of every tile; before, each took every other tile with all
 * 16 heads, a stage its own, and consumer 1 handed its state over at the
 * end): geomean -1.05 / -0.71% in the A/B against 4f63885 (64x8192 -2.4%,
 * 32x8192 -1.9%, 64x1024 +0.9 / +1.2%); the end phase 5.6 -> 1.3 us at
 * 4x8192 (trace), the loop now bound by the tiles landing (~3.1 us a 72 KB
 * tile a block: ~3.0 TB/s over 128 SMs from a flushed cache). The v28
 * suite (605050f, papers/reports/h200-2026-12-03g): geomean 58.5 us, 1.28x
 * the read limit (FlashInfer bf16 65.0, 1.42x); -1.21% against 4f63885's
 * kernel in the same call.
 * v33 (a3a10f1, papers/reports/h200-2026-12-03u): a split's partial
 * multiplier from each head's largest |O| exchanged with its row sums (one
 * barrier, not two; the same multipliers): the short calls -0.4..-1.0% in
 * both pairs; the second tile issued once the first has landed
 * (-DWG_GATE_LAND=1) was slower (+1.7..+3.6%). The v33 suite (-03v):
 * geomean 58.7 us, 1.27x (FlashInfer bf16 65.7, 1.42x).
 * v36 (papers/reports/h200-2026-12-04c): a tile's 9 panels land on three
 * mbarriers, and each consumer issues Q.K's k-steps on a panel once its
 * third has landed (mla_wgmma.h WG_LAND_GATES16; before, once the whole 72
 * KB tile had): the first third is in ~0.6 us before the whole tile at 4 x
 * 1024 (trace), so 2/3 of Q.K (~1360 cycles a tile) runs during the
 * landing. 4x1024 -4.1 / -3.6% (11.6 -> 11.1 us), 32x1024 -1.0 / -1.1%,
 * the long calls within +0.5%; geomean -0.6 / -0.6%. Nine gates (one a
 * panel) measured no better (4x1024 -1.4 / -4.9%). 4x8192 merged by the
 * 32-split combine, -2.8 / -2.8%. The v36 suite (-04d) geomean 58.2 us,
 * 1.254x (FlashInfer bf16 65.7, 1.415x).
 * v38 (papers/reports/h200-2026-12-04f, -04g): head pairs (MLAB_PAIRS,
 * splits.h mlab_head_pairs, mla_wgmma.h): where the units fill at most
 * half the SMs (4x1024: 64), blocks 2u and 2u + 1 take unit u's heads 0-7
 * and 8-15, the other consumer of each only releasing the stages: a tile's
 * Q.K 1495 -> 1128 cycles, P.V 1165 -> 644 (each SM's shared memory reads
 * halved), the blocks' end 6.5 -> 6.0 us; 4x1024 -1.1 / -1.1% with the
 * doubled grid's combine capped (splits.h mlab_combine_capped), +5.7 /
 * +6.0% without (its 64 blocks on the 4 SMs the decode left free). The
 * capped combine: 32x1024 -1.6 / -1.6%. The v38 suite (-04g, before the
 * pairs) geomean 58.0 us, 1.251x (FlashInfer bf16 65.5, 1.415x).
 * v39 (papers/reports/h200-2026-12-04h, -04i): the consumer index
 * broadcast from lane 0 (mla_wgmma.h mla_decode_wg's cons: uniform registers
 * for its descriptors, -200 SASS instructions): -0.2 / -0.4% by geomean;
 * the softmax trims and a lazy max (FA4's threshold, not landed): nothing.
 * The v39 suite (-04i) geomean 57.5 us, 1.247x (FlashInfer bf16 65.0,
 * 1.409x).
 * v42 (papers/reports/h200-2026-12-04o, -04p): the split rule's bandwidth
 * factor (its DRAM share {53, 0, 100}: it saturates the DRAM from ~70 of 132
 * SMs): 64x1024 unsplit, 34.5 -> 32.2 us (-6.5%); the v42 suite geomean
 * 56.9 us, 1.240x (FlashInfer bf16 65.0, 1.42x).
 * v43 (papers/reports/h200-2026-12-04q, -04r): its share with its head pairs
 * counted ({78, 0, 100, 70}, splits.h: unsplit, 64x1024 runs 128 blocks of
 * 8 heads, which the 53 % had stood in for): the pick within 1% of the
 * fastest forced count on all 25 sweep shapes (v42's share 20: 40x12288 2
 * splits, 16 13% faster; 72x4096 unsplit, 8 splits 8% faster); the 8
 * cases' picks as before. The v43 suite geomean 57.7 us, 1.242x (another
 * machine, ~1% slower on every row; FlashInfer bf16 65.6, 1.41x).
 * v46: WG_B16_LEAN no effect, removed (code at d264c39).
 * v49 (papers/reports/h200-2026-12-05e): its tiles as a ring of 23 8 KB
 * panels in place of the two stages (WG_B16_RING: 28% more bytes in flight,
 * each panel released as its products end) slower, +3.1 / +2.5% by geomean,
 * 4x8192 +5.6 / +4.0%, 32x1024 +5.4 / +3.8% (the extra bytes at the start
 * land the first tiles later); 18 panels +1.5 / +0.4%. Removed (code at
 * afaf912). The v49 suite (-05f): geomean 57.7 us, 1.242x (FlashInfer bf16
 * 65.7, 1.414x).
 * v59 (papers/reports/h200-2026-12-06b, h100-2026-12-06j, -06k): with two
 * query rows an item (MTP) each row was its own block, reading its item's
 * KV again: at 64 x 4096 q_seq_len 2 121 us on the H200 against 85 at
 * q_seq_len 1 with as many KV rows, and FlashInfer bf16's 91.6. The MTP
 * unit (mla_params.mtp, mla_wgmma.h: a block an item, consumer c the heads
 * 8c .. 8c + 7 of both rows, N = 16; MLAB_MTP=auto|on|off, auto past 4 L2s
 * of KV, splits.h mlab_mtp_pays): H100, on against off, 64 x 4096 -2.6 /
 * -3.1%, 64 x 8192 -6.0 / -5.7% (221 us against FlashInfer's 223), 8 x 4096
 * +2.3 / +2.5%, 8 x 8192 +0.5 / +0.9% (not taken there by auto); its first
 * build's masking bug (a row past the first row's end where the second's
 * ends on a tile boundary) caught by the GPU validation.
 * v65 (papers/reports/h200-2026-12-06d): on the H200, on against off, 8 x
 * 4096 -8.7 / -8.0%, 8 x 8192 -15.6 / -15.0%, 64 x 4096 -24.3 / -24.5%, 64
 * x 8192 -30.0 / -29.7% (162 us, 1.08x the q_seq_len 1 time; FlashInfer
 * 158): a block a row's second read costs on a fast DRAM, so auto takes the
 * unit there past 0.3 L2s of KV (splits.h mlab_mtp_pays, by the GPU's DRAM
 * bytes an SM clock), on the H100 past 4 L2s as before. v74 (H100,
 * papers/reports/h100-2026-12-07j): 128 items -10.6..-14.6% at kv 512..2048,
 * so auto takes it too wherever the items outnumber half the SMs
 * (splits.h mlab_mtp_auto).
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"

#if defined(MLAB_NV) && defined(MLAB_SM90A) && WG_TMAP
typedef wg_cfg_t<false, true> b16_cfg;
#define B16_KERNEL mla_decode_wg<false, false, true>
/* MTP (mla_params.mtp): both query rows of an item in one block (mla_wgmma.h) */
typedef wg_cfg_t<false, true, false, false, true> b16m_cfg;
#define B16M_KERNEL mla_decode_wg<false, false, true, false, false, -1, true>
static int bps(void) { return occupancy_of(B16_KERNEL, WG_NT, b16_cfg::SMEM); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    static bool attr_set = false, attr_m = false;
    if (p->mtp) return launch_sequence<false, false>(B16M_KERNEL, WG_NT, b16m_cfg::SMEM, false, p, s, attr_m);
    return launch_sequence<false, false>(B16_KERNEL, WG_NT, b16_cfg::SMEM, false, p, s, attr_set);
}
#define B16_WHY NULL
#define B16_SMEM b16_cfg::SMEM
#define B16_PERSIST b16_cfg::PERSIST
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define B16_WHY "needs NVIDIA sm_90a (wgmma) with tensor copies; build with -DMLAB_CUDA_ARCH=90a"
#define B16_SMEM 0
#define B16_PERSIST 0
#endif
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_bf16_wgmma = {MLAB_V_bf16_wgmma, 0, bps, B16_SMEM, launch, 0, WG_NT,
                                                       B16_WHY, NULL, 1 /* combine_only */, NULL, 0, NULL, NULL,
                                                       B16_PERSIST, 1 /* head_pairs */, MLAB_SPLIT_DRAM_BF16_WGMMA,
                                                       1 /* mtp */};
#endif
