/* fp8_wgmma.hip: variant 'fp8_wgmma' (id 7), a8w8 on Hopper's warpgroup MMA.
 * Idea: the fp8 variant's arithmetic (Q quantized per tensor in the call, e4m3
 * Q.K, P rounded to e4m3, fp32 accumulation) on the only fp8 tensor path an
 * H100/H200 has: wgmma (mma.sync e4m3 is emulated there, papers/perf-notes.md
 * v5). Kv rows are the M dimension of both products (S^T = K Q^T, O^T = V^T
 * P^T), so 16 heads fill N = 16 without padding; K and Q are read by the
 * instruction straight from shared memory, V^T is built in registers by
 * ldmatrix.trans + byte permutes, so no tile is ever converted or
 * transposed. A producer warp and two consumer warpgroups a block, one block an
 * SM, persistent: each block loops over the call's (row, split) units
 * (mla_wgmma.h).
 * NVIDIA sm_90a only (wgmma is an sm_90a feature): elsewhere the variant is
 * unavailable and mlabench says so.
 * Parent: fp8_exp2rcp (it uses exp2 and the fast reciprocal too).
 * Tolerance: kernel:fp8 (same arithmetic; Hopper's fp8 MMA accumulates with
 * fewer mantissa bits than fp32 inside each instruction, far below fp8's
 * own rounding).
 * Measured (H200, c043d91, recorded inputs, papers/reports/h200-2026-12-01c):
 * 4x8192 23.3 us against fp8_exp2rcp's 25.0 (0.93x: 32 splits of 4 tiles,
 * where two consumers and a 3-tile-deep ring beat two blocks of 2 stages);
 * 4x1024 14.0 vs 13.3; 1.31-1.36x slower on the large cases (256x8192 570
 * vs 420 us); geomean 61.1 vs 51.4 us. Kernel rel RMS as fp8's (1.1e-2 ..
 * 2.5e-2). What bounds it (perf-notes v8): at N = 16 a wgmma m64n16k32 e4m3
 * costs ~60 cycles however its operands arrive (1/7 of the fp8 rate), so a
 * tile's 34 products take about as long as its bytes; the way on is N >= 64.
 * Tried (papers/reports/h200-2026-12-01d): one warpgroup, 2 stages, 2 blocks
 * an SM (643 us at 256x8192); fragments first (622); loads of 512
 * contiguous bytes without bank conflicts (591); 3-5 stages, one block
 * (636-677); warp-specialized (582); K from registers + setmaxnreg (571);
 * 3 or 6 Q.K accumulators (568-572).
 * v11 (107c52b, papers/reports/h200-2026-12-01n, -m): the shared a8w8 Q
 * path (its loads first, packed quantization): 4x1024 13.2 us (-3..-7%),
 * 256x8192 568; geomean 59.9 us, 2.10x the read limit.
 * v12 (17bec0f, papers/reports/h200-2026-12-01v): the combine that loads
 * ahead: 4x1024 12.5 us, 4x8192 22.5; geomean 59.4 us, 2.09x the read limit.
 * v13 (ba5600e, papers/reports/h200-2026-12-01zb): unchanged kernels,
 * 4x1024 12.2 us, 256x8192 569; geomean 59.0 us, 2.07x the read limit.
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): unchanged kernels,
 * 4x1024 12.2 us, 256x8192 574; geomean 59.1 us, 2.07x the read limit.
 * v15 (f6cf942, papers/reports/h200-2026-12-01zm, -zk): the host-planned
 * split for ragged batches: 125 -> 24.2, 128 -> 34.6, 213 -> 97.5 us on
 * ragged_1long32, ragged_b64, ragged_mix64 (-zl); the 8 cases unchanged
 * (geomean 59.6 us, 2.10x). The "~60 cycles a product" above came from the
 * -DMLAB_WG_PROF build, whose printf made ptxas serialize every wgmma
 * (C7510); the profiler now writes to the trace buffer (mla_wgmma.h). A
 * microbenchmark (papers/microbench/wgmma_n_bench_gen.py) runs m64n16k32
 * e4m3 at 20 cycles back to back (40% of the full fp8 rate, which N >= 64
 * reaches) and this kernel's 18 Q.K products of a tile in ~400 cycles in
 * its own block and layouts, beside its copies and its other consumer's
 * traffic; and the serialized build ran about as fast as the plain one: the
 * kernel's schedule (0.32 eligible warps, barrier stalls first, DRAM 43%),
 * not wgmma, is the limit.
 * v16 (this tree, papers/reports/h200-2026-12-01zn): the tiles by 9 tensor
 * copies a tile into the a8w8 core's 64-byte swizzled panels, read by wgmma
 * through swizzled descriptors (mla_wgmma.h WG_TMAP): 256x8192 574 -> 319
 * us (1.15x the read limit, as fp8_exp2rcp's 318), 64x8192 159 -> 92.4
 * (fp8_exp2rcp 95.5), 256x1024 91.8 -> 62.2 (55.6: one block an SM, two
 * waves), 4x1024 12.7 -> 12.4-12.8; geomean -15%. The phase cycles (TW):
 * Q.K 3270 -> 580 cycles a consumer's tile at 64x8192, softmax 3160 -> 980;
 * the consumers now wait for tiles (1670 a tile): the old layout's 16-byte
 * copies were slowing the products reading the same shared memory. The
 * v16 suite (223fdab, papers/reports/h200-2026-12-01zp): geomean 43.1 us,
 * 1.50x the read limit (fp8_exp2rcp 41.5, 1.45x): faster than it at
 * 64x8192 (92.1 vs 95.4) and 32x8192 (55.3 vs 55.7), as fast at 256x8192,
 * slower at 256x1024 (61.7 vs 55.9: one block an SM, two waves) and on the
 * short calls (4x1024 12.1 vs 10.8). Forced split counts (-zo) confirm the
 * rule's choice but at 4x8192 (16 splits 18.3 us, the rule's 32 19.7).
 * v18 (b7a67ac, papers/reports/h200-2026-12-02c, -02d): persistent, at most
 * one block an SM looping over the units, the producer streaming the next
 * unit's tiles and consumer 1 starting them (the next Q quantized into a
 * second buffer) while consumer 0 ends the last unit: 256x1024 -1.3..-1.6%
 * (61.4 -> 60.6 us), 256x8192 -1.0%, one-wave calls unchanged; the v18
 * suite: geomean 43.2 us, 1.52x the read limit (fp8_exp2rcp 41.5, 1.46x).
 * v19 (eadc652, papers/reports/h200-2026-12-02g, -02h, -02i): one Q.K
 * accumulator: within 1.5% everywhere; each consumer its own copy of the
 * code made this persistent kernel (four copies) 4..46% slower, so only
 * mxfp4_wgmma would take it. Forced split counts again: 4x8192 16 splits
 * 18.3-18.7 us against the rule's 32, 19.7-19.8 (unexplained). The v19
 * suite: geomean 43.0 us, 1.51x (fp8_exp2rcp 41.6, 1.46x).
 * v20 (10cc6d8, papers/reports/h200-2026-12-02j, -02k, -02l): a one-tile
 * unit ends with consumer 0 alone (solo): 4x1024 12.2-12.5 -> 11.7-11.8 us
 * (-3.7..-5.7%). Two tiles in flight an SM stream at 98.6% of the best rate
 * a bulk-copy probe reaches, so bytes in flight do not bound it. The v20
 * suite: geomean 42.8 us, 1.50x (fp8_exp2rcp 41.6, 1.46x).
 * v21 (unchanged kernel; papers/reports/h200-2026-12-02n, -02o, -02p): the
 * combine spread over the SMs past 16 splits (4 blocks a (row, head)):
 * 4x8192 -4.7..-4.9% (20.0 -> 19.0 us), so the split rule's 32 is now
 * within ~1.5% of 16 there. The v21 suite: geomean 43.0 us, 1.50x.
 * v22 (unchanged kernel; papers/reports/h200-2026-12-02s, -02t): the
 * tensor map's L2 promotion at 128 bytes, not 256 (runner, MLAB_TMAP_L2):
 * 256x8192 -6.0..-6.4% (316.7 -> 297.6 us, 1.07x), 64x8192 -2.4%; the
 * steady-state gap v19-v21 could not place. Geomean 42.7 us, 1.49x (A/B).
 * v24 (unchanged kernel; papers/reports/h200-2026-12-02y): its prologue's
 * Q stores (8-way bank-conflicted, ncu at v23) made conflict-free three
 * ways, each moving the Q loads off memory order, each slower on the short
 * calls: heads inside +2.0..+5.8%, 4 heads x 8 chunks into 64-byte-swizzled
 * panels +1.0..+1.5% (64 x 1024, 64 x 8192), 8 heads x 4 chunks +1.5..+6.3%;
 * kept as it was. The v24 suite (-02z): geomean 42.5 us, 1.47x.
 * v26 (papers/reports/h200-2026-12-02ze, h200-2026-12-03): the epilogue's
 * output kind chosen once a unit, not per element (~1450 SASS instructions
 * on one warpgroup before): 4x1024 12.29 -> 10.85 us (-11.7%), 32x1024
 * -7.1%, 256x8192 -0.9% in the same run; the v26 suite geomean 40.3 us,
 * 1.42x, the fastest fp8 decode (fp8_exp2rcp 41.0, 1.44x).
 * Tried at v27 and not kept: the ring's first fills gated on the amax (its
 * load queues behind the tiles in flight: 4.4 us at 256x1024; 256x1024
 * -2.1 / -2.5%, 32x1024 +1.8%: papers/reports/h200-2026-12-03c); the
 * tensor map in the kernel parameter (within the drift, -03e).
 * v28 (14056be, papers/reports/h200-2026-12-03f): the ring's first fills two
 * tiles in flight at most (WG_GATE_LAND: tile g once tile g - 2 has landed;
 * all four at once before, which landed together at the end): geomean
 * -1.19 / -0.71% in the A/B against 4f63885, 4x8192 -4.4 / -5.1%, 32x1024
 * -2.3 / -1.8%, 256x1024 -2.1 / -1.5%, 32x8192 +1.2 / +0.7%; one tile in
 * flight was slower (+2.6 / +1.2%). The v28 suite (605050f,
 * papers/reports/h200-2026-12-03g): geomean 39.5 us, 1.40x the read limit,
 * 4x1024 10.6 us; -0.99% against 4f63885's kernel in the same call.
 * v33 (a3a10f1, papers/reports/h200-2026-12-03t, -03u): where the call's
 * grid holds every unit (6 of the 8 cases), the one-wave instantiation
 * (mla_wgmma.h ONEU: no unit loop, no next unit's Q or merge buffer, the
 * one-tile split of the _qrow decodes in it): 4x1024 -4.0 / -0.3, -2.8 /
 * -4.8%, 64x1024 -1.2 / -1.4, -1.9 / -1.7% in two A/Bs; the v33 suite
 * (-03v) geomean 39.5 us, 1.40x.
 * v36 (papers/reports/h200-2026-12-04c, -04d): its tiles on three or nine
 * landing gates (mla_wgmma.h WG_LAND_GATES, bf16_wgmma's) measured no
 * faster (+1.0 / +0.4%, +1.5 / +0.5% by geomean): one; 4x8192 merged by the
 * 32-split combine (launch_common.h combine_ahead), -4.0 / -4.5%. The v36
 * suite geomean 39.1 us, 1.373x.
 * v39 (papers/reports/h200-2026-12-04h, -04i): the consumer index
 * broadcast from lane 0 (mla_wgmma.h mla_decode_wg's cons), -0.3 / -1.0% by
 * geomean; a lazy max (FA4's rescale threshold) +2.4 / +2.6% at 256x1024
 * (spills), not landed. The v39 suite geomean 38.7 us, 1.363x.
 * v42 (papers/reports/h200-2026-12-04o): the split rule's bandwidth factor
 * (its DRAM share at 70 %): the 8 cases' picks as before; 96x4096, 48x4096, 24x8192
 * 1, 2, 4 splits, 6-11% faster than 4, 8, 16. The v42 suite geomean 38.5
 * us, 1.367x.
 * v43 (papers/reports/h200-2026-12-04q, -04r): its DRAM share refitted with
 * two latency terms ({56, 36864, 200}, splits.h): the pick within 1% of the
 * fastest forced count on 28 of 29 sweep shapes (at 70 %: 17); 64x1024
 * unsplit, 24.0 -> 22.8 us (-5.0%; as ratios -5.7%); at 70 % 72x4096,
 * 20x16384, 40x12288 took 8, 32, 16 splits, 8-17% slower than its picks
 * now (1, 4, 2). The v43 suite geomean 38.8 us, 1.357x.
 * v57 (H100, papers/reports/h100-2026-12-06d): in its one-tile unit each
 * consumer loads its P.V's V^T fragments under its Q.K and sums its rows
 * under its P.V (mla_wgmma.h WG_ONE_DV): 4 x 1024 -3.3 / -0.9 / +0.3 / -4.1% (mean -2.0%)
 * in four pairs, nothing else moved.
 * v65 (papers/reports/h200-2026-12-06d): its MTP unit, the MXFP4 `_qrow`
 * decodes' M32 (mla_wgmma.h) on its fp8 tiles, Q per tensor (the call's one Q scale); not
 * persistent (MLAB_MTP): on the H200, on against off at q_seq_len 2,
 * -11.7 / -12.1% at 64 x 4096, -18.0 / -18.1% at 64 x 8192 (91.4 us,
 * 1.05x the q_seq_len 1 time), +4.8 / +2.9% at 8 x 4096, -0.5 / -0.7% at 8 x 8192.
 * On an H100 (v73, papers/reports/h100-2026-12-07f, two pairs) -20.4 /
 * -20.8% at 64 x 4096 (87.7 -> 69.8 us: a block a row took 1.32x its
 * q_seq_len 1 time there, fp8_wgmma_qrow's 1.01x), -2.5 / -2.9% at 64 x
 * 8192, +3.3 / +4.4% at 8 x 4096: auto takes it past 1 L2 of KV on either
 * DRAM (splits.h mlab_mtp_pays; fp8_wgmma_qrow's on a fast one only).
 * v74 (H100, papers/reports/h100-2026-12-07j): at 128 items -10.8..-24.8%
 * at kv 512..2048, where a block a row's 256 units take two rounds of the
 * SMs: auto takes it wherever the items outnumber half the SMs
 * (splits.h mlab_mtp_auto).
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"

/* a one-wave call (every block one unit) runs the instantiation without the
 * persistent unit loop (mla_wgmma.h ONEU: its one-tile units split between
 * the consumers), with less shared memory (no next unit's Q, no merge
 * buffer: the results row records the launched kernel's, mla_params.ran) */
#if defined(MLAB_NV) && defined(MLAB_SM90A)
typedef wg_cfg_t<false, false, false, true> wg_cfg1;
typedef wg_cfg_t<false, false, false, false, true> wg_cfgm;
static int bps(void) { return occupancy_of(mla_decode_wg<true>, WG_NT, wg_cfg::SMEM); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    static bool attr_set = false, attr_set1 = false, attr_m = false;
    if (p->mtp) /* an item's two query rows in one block (mla_wgmma.h M32, per tensor; not persistent) */
        return launch_sequence<true, false>(mla_decode_wg<true, false, false, false, false, -1, true>, WG_NT,
                                            wg_cfgm::SMEM, true, p, s, attr_m);
    if (mlab_call_one_wave(p))
        return launch_sequence<true, false>(mla_decode_wg<true, false, false, false, true>, WG_NT, wg_cfg1::SMEM,
                                            true, p, s, attr_set1);
    return launch_sequence<true, false>(mla_decode_wg<true>, WG_NT, wg_cfg::SMEM, true, p, s, attr_set);
}
#define WG_WHY NULL
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define WG_WHY "needs NVIDIA sm_90a (wgmma); build with -DMLAB_CUDA_ARCH=90a"
#endif
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8_wgmma = {MLAB_V_fp8_wgmma, 1, bps, wg_cfg::SMEM, launch, 0, WG_NT,
                                                      WG_WHY, NULL, 1 /* combine_only */, NULL, 0, NULL, NULL,
                                                      wg_cfg::PERSIST, 0, MLAB_SPLIT_DRAM_FP8_WGMMA, 1 /* mtp */};
#endif
