/* mla_wgmma.h: the fp8 split-KV decode on Hopper's warpgroup MMA (wgmma),
 * for variants/fp8_wgmma.hip, with MX for variants/mxfp4_wgmma.hip (two
 * producer warpgroups turn raw MXFP4 tiles into the same e4m3 tiles:
 * wg_produce_mx, kv scale 1), and with B16 for variants/bf16_wgmma.hip (bf16
 * Q, tiles and P: 72 KB tiles in 128-byte swizzled panels, two stages; K
 * and V^T both read from the panels by wgmma, V^T as a transposed operand;
 * its consumers split the heads, both on every tile, WG_B16_HS: the same
 * steps with NK = 2 heads a thread, N = 8 products). Same ABI (mla_params), same split rule, same
 * outputs (bf16, or f16 partials in kv_scale units + log2-sum-exp2 for
 * mla_combine) and the same arithmetic as the fp8 variant: Q quantized per
 * tensor in the call, e4m3 Q.K, P rounded to e4m3 for P.V, fp32 accumulation
 * (B16: the bf16 variant's, bf16 Q and P, partials scaled as its own).
 *
 * One block = one query row x one split (fp8_wgmma: a persistent block, at
 * most one an SM, loops over such units, below), warp-specialized (FA3's shape):
 *   - a producer warpgroup streams the split's 64-row tiles into a WG_NSTAGE ring:
 *     on sm_90a (WG_TMAP) its thread 0 issues 9 tensor copies a tile on the
 *     stage's mbarrier, which the consumers wait on (v16: -32..-44% on long
 *     calls against the cp.async ring below, perf-notes); without a tensor
 *     map, 16-byte cp.async by the whole warpgroup (WG_NSTAGE - 1 tiles in
 *     flight), a proxy fence and "full" on a named barrier;
 *   - two consumer warpgroups take the tiles in turn (even, odd), each with
 *     its own running max, sums and O, and signal "empty" when done, so one
 *     consumer's softmax overlaps the other's products; at the end consumer
 *     1 hands its state to consumer 0 through shared memory, which merges
 *     (B16: each consumer 8 of the heads of every tile, WG_B16_HS, and each
 *     ends its own: two 72 KB stages are then a double buffer);
 *   - the ring's first fills keep at most WG_GATE_LAND tiles in flight, so
 *     a short unit's tiles land in order (v28).
 * A consumer's tile, in named phases:
 *   1. wg_scores: S^T[64 rows x 16 heads] = K . Q^T, 18 wgmma m64n16k32 e4m3
 *      chained on one accumulator (WG_QK_ACC), K and Q from shared memory (Q quantized once a
 *      block into the K-major layout; WG_QK_SS=0 reads K into registers by
 *      ldmatrix instead: no faster). Kv rows are M: 16 heads fill N = 16.
 *   2. wg_softmax: online softmax per head (max over a warp by 3 shuffles,
 *      over the 4 warps through shared memory); P rounded to e4m3 and stored
 *      as P^T, the B operand of step 3, in the kv-row order of step 3.
 *   3. wg_pv: O^T[512 dims x 16 heads] += V^T . P^T, 16 wgmma m64n16k32 with
 *      V^T from registers (ldmatrix.trans + byte permutes, arch/nv_wgmma.h):
 *      no transpose pass, no conversion; 64 accumulator floats a thread.
 * Tile layout in shared memory: the a8w8 core's 9 panels of 64 rows x 64
 * bytes in the 64-byte swizzle (WG_TMAP: what TMA writes, read by wgmma
 * through swizzled descriptors), or, -DMLAB_WG_NO_TMAP, 16-byte chunk c of kv
 * row r at c * WG_LDC + 16 r (no-swizzle K-major core matrices; see WG_LDC).
 * MTP (mla_params.mtp, template parameter MTP: every item two query rows,
 * one block the item's two): bf16_wgmma's head split takes both rows' 8
 * heads a consumer as 16 columns; the MXFP4 wgmma decodes' M32 keeps the
 * one-row loop (a consumer's tiles every other) with both rows as 32
 * columns (N = 32), so each tile is converted and read from shared memory
 * once for both (perf-notes v59-v61).
 * Every vendor instruction is in arch/nv_wgmma.h, arch/nv_tma.h and
 * arch/nv_bulk.h.
 */
#ifndef MLAB_MLA_WGMMA_H
#define MLAB_MLA_WGMMA_H

#include <type_traits> // std::true_type: consume's WG_ONE_DV copy

#include "arch/nv_tma.h"
#include "arch/nv_wgmma.h"
#include "mla_kernel.h"
#include "smem_lanes.h" // mlab_mx_prod_item: a producer thread's row and blocks (wg_produce_mx)

/* a tile's 16-byte chunk c of kv row r sits at c * WG_LDC + 16 r: chunk
 * columns 1040 bytes apart, not 1024, so the 8 consecutive chunks of one row
 * that a quarter-warp's cp.async writes land in 8 different bank groups,
 * while each core matrix (8 rows of one chunk) stays 128 contiguous bytes */
#define WG_LDC (16 * MLA_BN + 16)
/* WG_TMAP (sm_90a builds with tensor maps; -DMLAB_WG_NO_TMAP builds without):
 * a tile lands instead as the a8w8 core's 9 panels of 64 rows x 64 bytes in
 * the 64-byte swizzle (arch/nv_tma.h, mlab_sw64), by 9 tensor copies from one
 * producer thread counted on the stage's mbarrier (the fp8 core's map,
 * mla_params.kv_tmap), which the consumers wait on; Q.K reads the panels
 * through 64-byte-swizzle descriptors (wg_desc_sw64), P.V's ldmatrix.trans
 * through mlab_sw64. Partial tiles, and every tile where no map could be
 * encoded: 16-byte copies into the same layout, zeros past the end. */
#if MLAB_HAVE_TMAP && !defined(MLAB_WG_NO_TMAP)
#define WG_TMAP 1
#define WG_TILE (MLA_BN * MLA_D) /* 9 swizzled panels */
#else
#define WG_TMAP 0
#define WG_TILE ((MLA_D / 16) * WG_LDC) /* bytes of one fp8 tile in shared memory */
#endif
/* the byte offset of kv row r's 16-byte chunk c in a tile, either layout */
static inline __host__ __device__ int wg_off(int r, int c) { return WG_TMAP ? mlab_sw64(r, c) : c * WG_LDC + 16 * r; }
/* wg_off(r, c + 4) - wg_off(r, c), either layout */
#define WG_OFF4 (WG_TMAP ? MLAB_SW64_PANEL : 4 * WG_LDC)
#define WG_NCONS 2                    /* consumer warpgroups */
#define WG_NT (WG_NCONS * 128 + 128)  /* + the producer warpgroup */
/* MX: producer warpgroups converting tiles (producer q the tiles i with
 * i % WG_NPROD_MX == q, so each feeds one consumer's stages) */
#ifndef WG_NPROD_MX
#define WG_NPROD_MX 2
#endif
#define WG_NT_MX (WG_NCONS * 128 + WG_NPROD_MX * 128)
static_assert(WG_NPROD_MX == 1 || WG_NPROD_MX == WG_NCONS, "a producer feeds one consumer, or all");
/* registers a thread: 65536 / 384 = 168 at launch; the producer gives back
 * down to 40, the consumers take up to 232 (128 x 40 + 256 x 232 = 64512) */
#define WG_REGS_PRODUCER 40
#define WG_REGS_CONSUMER 232
/* MX: a producer converts tiles (WG_MX_KB of a thread's 9 (row, block) items
 * loaded at once, their codes interleaved). One producer: 104 and 192 (128 x
 * 104 + 256 x 192 = 62464; at 96, all 9 items at once spilled); two: 65536 /
 * 512 = 128 a thread at launch, 64 and 192 (256 x 64 + 256 x 192 = 65536; at
 * 72 / 184 the consumers spilled), 3 items at once; 56 and 200 measured the
 * same as 64 and 192 (v40). WG_MX_KB = 1 (one item's loads at a time) was
 * slower on the long calls (v40: mxfp4_wgmma 256x8192 +6%). KB need not
 * divide 9 (the last batch takes the rest): 2, 4 and 5 compile spill-free
 * at 64 / 192 in both MXFP4 decodes and none is faster than 3 (v42: 4 and 5
 * +0.3..+1.2% by geomean on the non-lazy decodes, 256x8192 +1.0..+2.4%; 2
 * +0.7..+1.5%, 256x8192 up to +3.2%); 9 spills at every split up to 96 / 160 */
#ifndef WG_REGS_PRODUCER_MX
#define WG_REGS_PRODUCER_MX (WG_NPROD_MX == 1 ? 104 : 64)
#endif
#ifndef WG_REGS_CONSUMER_MX
#define WG_REGS_CONSUMER_MX 192
#endif
/* WG_LAZY_T: mxfp4_qrow_lazy's threshold (log2 units; mla_decode_wg's
 * template parameter LT, wg_softmax_lazy): a consumer's running max stays
 * while no head's tile max is more than this above it. Every other decode
 * is built with LT = -1 (the eager wg_softmax) */
#ifndef WG_LAZY_T
#define WG_LAZY_T 8
#endif
#ifndef WG_MX_KB
#define WG_MX_KB (WG_NPROD_MX == 1 ? 9 : 3) /* a producer thread's items loaded at once: 9 = all */
#endif
#ifndef WG_NSTAGE
#define WG_NSTAGE 4 /* even: stage s always holds tiles of consumer s % 2 */
#endif
/* WG_PERSIST (mla_params.h, default 1): fp8_wgmma (not MX) with tensor
 * copies is a persistent block, looping over the (row, split) units b =
 * blockIdx.x, + gridDim.x, ... (the runner launches at most SMs x blocks an
 * SM: mla_params.grid_max); its producer streams the next unit's tiles while
 * the consumers end the last one, consumer 1 quantizes the next unit's Q into
 * a second Q buffer and starts that unit's tiles while consumer 0 merges and
 * stores the last one. 0: a block a unit. H200 (perf-notes v18): 256 x 1024
 * -1.3..-1.6%, 256 x 8192 -1.0%, one-wave calls unchanged; MX has no room
 * for the merge buffer (220 KB) */
static_assert(WG_NSTAGE % WG_NCONS == 0, "a stage must belong to one consumer");
#define WG_LAG (WG_NSTAGE - 1) /* tiles the producer keeps in flight */
/* WG_Q_EARLY (the _qrow decodes): the consumers load their first unit's
 * bf16 Q row at the kernel's start, before the block barrier the producers
 * pass to issue the first tiles (as bf16_wgmma's Q copy is issued), not at
 * the start of the first unit, after them. H200 (perf-notes v30): Q ready
 * 4.1-4.3 -> 3.7 us at 4 x 1024; fp8_wgmma_qrow 4 x 1024 -2.2 / -2.8%,
 * mxfp4_wgmma_qrow -5.5 / -5.9% (-1..-2% on 4 x 8192, 32 x 1024, 64 x
 * 1024). The per-tensor decodes' Q waits for the amax pass, not for its
 * loads: there it measured nothing (fp8_wgmma) or +0.3..+1.2%
 * (mxfp4_wgmma), so they load Q as before */
#ifndef WG_Q_EARLY
#define WG_Q_EARLY 1
#endif
/* WG_GATE_LAND = G > 0 (tensor-copy producers): the ring's first fills keep
 * at most G tiles in flight, tile g (< the stages) issued once tile g - G
 * has landed, so a short unit's first tiles land one after another instead
 * of all of them together at the end (perf-notes v28) */
#ifndef WG_GATE_LAND
#define WG_GATE_LAND 2
#endif
/* WG_LAND_GATES16 = G (bf16 tiles; 1, 3 or 9), WG_LAND_GATES (fp8 tiles):
 * a tile's 9 panels land on G mbarriers a stage ("gates": panel p on gate
 * p G / 9, arch/nv_tma.h mlab_tma_tile_panels), and a consumer issues Q.K's
 * k-steps on a panel once its gate has landed (wg_scores), not once the
 * whole tile has: where a consumer waits for its tile (the short calls'
 * first and last tiles) its Q.K runs while the tile's last panels land. 1:
 * one mbarrier a stage, as before. H200 (perf-notes v36): bf16_wgmma with 3
 * gates 4 x 1024 -4.1 / -3.6%, 32 x 1024 -1.0 / -1.1%, geomean -0.6 / -0.6%
 * (its Q.K, ~1360 cycles a tile, runs while the 72 KB tile lands: the first
 * third lands ~0.6 us before the whole); 9 gates no better. The fp8 tiles (36
 * KB, Q.K ~430 cycles): 3 gates fp8_wgmma +1.0 / +0.4% (256 x 1024 +3.3 /
 * +3.2%, its persistent kernel 8 bytes of stack), fp8_wgmma_qrow +0.5 /
 * -0.0%; 9 gates +1.5 / +0.5%, +2.3 / +0.9%: 1. The MXFP4 producers
 * arriving on three gates a tile (a proxy fence and an arrival after each
 * of their three batches) cost the long calls 3-7% */
#ifndef WG_LAND_GATES
#define WG_LAND_GATES 1
#endif
#ifndef WG_LAND_GATES16
#define WG_LAND_GATES16 3
#endif
static_assert(9 % WG_LAND_GATES == 0 && 9 % WG_LAND_GATES16 == 0, "whole panels a gate");
/* WG_MX_SPLIT1 (MX with ONE_DV): a one-tile block's tile converted by both
 * producers, producer q the panels of gate q (0 .. 4, 5 .. 8), so consumer
 * 0's half of Q.K (panels 0 .. 4) starts once producer 0 has stored them;
 * 0: producer 0 converts it alone while producer 1 idles. H200 (perf-notes
 * v36): 4 x 1024 (64 one-tile blocks) mxfp4_wgmma_qrow -2.7 / -2.7%,
 * mxfp4_wgmma -0.6 / -2.3%; producer 0's 5 items a thread take ~1510
 * cycles (trace), not 5/9 of a whole tile's (~1760 at v17): the first
 * pass's latencies more than its work */
#ifndef WG_MX_SPLIT1
#define WG_MX_SPLIT1 1
#endif
/* WG_B16_HS (bf16_wgmma): its two consumers split the 16 heads (8 each, N =
 * 8 products) and both take every tile, so the two stages are a double
 * buffer and nothing is handed over at the end; 0: each consumer every
 * other tile with all 16 heads (perf-notes v28). Splitting each product's
 * A operand instead (WG_ONE_DV's steps on every tile: K and V^T read once a
 * tile, not twice) measured no faster (v32, branch wip/b16dv) */
#ifndef WG_B16_HS
#define WG_B16_HS 1
#endif
/* WG_ONE_DV (the _qrow decodes since v32; mxfp4_wgmma and fp8_wgmma's
 * one-wave kernel since v33, wg_cfg_t::ONE_DV): a block's last unit of one tile (the short
 * calls': 4 x 1024's 64 blocks each one tile) taken by both consumers, each
 * on half of each product's A operand with all 16 heads (N = 16): consumer c
 * the k-steps 9c .. 9c + 8 of Q.K (its partial scores of the other's 8
 * heads handed over through shared memory, one barrier of both), the
 * softmax of its own 8 heads (their P^T columns written into the one P^T, a
 * second barrier), the dims of m-tiles 4c .. 4c + 3 of P.V, each storing its
 * dims (the other's heads' sums handed over, a third barrier). Before,
 * consumer 0 took such a unit alone while consumer 1 waited. H200 (perf-notes
 * v32): mxfp4_wgmma_qrow 4 x 1024 -3.2 / -4.4%, fp8_wgmma_qrow -0.2 / -2.6%,
 * their other calls within 1.5%; v33: mxfp4_wgmma 4 x 1024 -2.1..-5.0%. Since v57
 * each consumer loads its P.V's V^T fragments while its Q.K runs and sums its
 * rows while its P.V runs (H100, four pairs: 4 x 1024 fp8_wgmma -2.0%,
 * mxfp4_wgmma -1.6%, fp8_wgmma_qrow -1.2%, the MXFP4 _qrow decodes the same). Split by heads (N = 8: each consumer read
 * all of K and V^T, wip/split1) it measured nothing; bf16_wgmma's every tile
 * split so (wip/b16dv) was no faster: its tiles wait for bytes, and its
 * epilogue grew. 0: consumer 0 alone */
#ifndef WG_ONE_DV
#define WG_ONE_DV 1
#endif
#ifndef WG_QK_BATCH
#define WG_QK_BATCH 6 /* K fragments loaded per batch of Q.K products (18 = all at once) */
#endif
#ifndef WG_QK_ACC
/* Q.K accumulators (the k-steps go round them). H200 (perf-notes v18,
 * h200-2026-12-02f): one accumulator, not six, takes the consumers' tile
 * loop from 674 to 536 SASS instructions in mxfp4_wgmma (no sums at the end,
 * fewer copies): -2..3% on its long calls, fp8_wgmma within 1%; the longer
 * chain inside the e4m3 wgmma (which adds with fewer bits than fp32) raises
 * the kernel error by 0.1..1.3% relative */
#define WG_QK_ACC 1
#endif
#ifndef WG_QK_SS
#define WG_QK_SS 1    /* K read by wgmma from shared memory (0: from registers by ldmatrix) */
#endif
static_assert(WG_QK_SS || !WG_TMAP, "K from registers (WG_QK_SS=0) reads the unswizzled layout: -DMLAB_WG_NO_TMAP");
/* H200 (perf-notes v8): ss or rs, 1, 3 or 6 accumulators, batches of 6 or
 * 18 all within 1% of each other (256 x 8192: 568-572 us): the products'
 * issue rate, not their dependences, bounds Q.K */
static_assert((MLA_D / 32) % WG_QK_BATCH == 0, "whole batches");
/* named barriers */
#define WG_BAR_FULL(s) (1 + (s))
#define WG_BAR_EMPTY(s) (1 + WG_NSTAGE + (s))
#define WG_BAR_CONS(c) (1 + 2 * WG_NSTAGE + (c))
#define WG_BAR_Q (1 + 2 * WG_NSTAGE + WG_NCONS)
#define WG_BAR_MERGE (WG_BAR_Q + 1)
#define WG_BAR_PROD(q) (WG_BAR_MERGE + 1 + (q)) /* MX: producer warpgroup q alone */
#define WG_BAR_QNEXT (WG_BAR_PROD(1) + 1) /* persistent: the next unit's Q stored (consumer 1 to 0) */
static_assert(WG_BAR_QNEXT < 16, "16 named barriers a block");
/* MX (mxfp4_wgmma): raw MXFP4 stages (64 rows x 288 bytes of E2M1 pairs,
 * one bulk copy a tile) that the producer warpgroups turn into the e4m3
 * stages the consumers read */
#ifndef WG_NRAW
#define WG_NRAW 3
#endif
static_assert(WG_NPROD_MX == 1 || WG_NRAW % 2 == 1, "two producers: tile li - WG_NRAW is the other producer's");
/* one raw MXFP4 tile: its E2M1 rows, then its E8M0 bytes (64 x 18, contiguous
 * in global memory but at any 2-byte offset: the 16-byte-aligned window
 * around them, up to 15 bytes more on either side) */
#define WG_RAW_FP4 (MLA_BN * MLA_FP4_ROW)
#define WG_RAW (WG_RAW_FP4 + MLA_BN * MLA_NBLK + 32)
#define WG_SROW16 (MLA_DV + 8) /* B16: a staged output row (16-bit elements, wg_epilogue16) */
/* B16 (bf16_wgmma): bf16 tiles of 72 KB (9 panels of 64 rows x 128 bytes in
 * the 128-byte swizzle, arch/nv_tma.h mlab_sw128), so two stages, one a
 * consumer; bf16 Q and P^T (twice the fp8 bytes) */
/* ONEU: the one-wave instantiation of fp8_wgmma's persistent decode:
 * launched instead when every block of the call has one unit (launchers.h
 * mlab_call_one_wave), it has no unit loop, no second Q buffer and no merge
 * buffer, and its one-tile units are split between the consumers
 * (WG_ONE_DV; in the persistent kernel that split spilled 20 bytes).
 * fp8_wgmma_qrow's one-wave kernel measured no faster (perf-notes v33) */
/* MTP (bf16_wgmma, mla_params.mtp): a block an item of two query rows, both
 * rows' Q (row 1's at OFF_Q + WG_Q16_BYTES), the consumers' MTP branch of
 * mla_decode_wg */
#define WG_Q16_BYTES (MLA_H * MLA_D * 2) /* one row's bf16 Q */
template <bool MX, bool B16 = false, bool QR = false, bool ONEU = false, bool MTP = false> struct wg_cfg_t {
    static_assert(!MTP || (B16 && WG_B16_HS) || (!B16 && !ONEU), "MTP: bf16_wgmma's head split, or the fp8 core's M32");
    /* M32 (the MTP unit of the decodes on the fp8 core, built for the MXFP4
     * ones): a consumer's tiles (every other, as with one row) take both
     * query rows at once, 32 columns (N = 32: row r's head h column 16 r +
     * h); Q, P^T and the maxima's exchange twice as wide. Per tensor (not QR:
     * mxfp4_wgmma) both rows' codes take the call's one Q scale; never
     * persistent (PERSIST) */
    static constexpr bool M32 = MTP && !B16;
    static constexpr int NST = B16 ? 2 : WG_NSTAGE;        /* stages */
    static constexpr int TILE = B16 ? 9 * MLAB_SW128_PANEL : WG_TILE; /* bytes of a stage */
    static constexpr int OFF_Q = 0;                          /* Q: 36 (bf16: 72) chunks x 16 heads x 16 */
    static constexpr int OFF_STAGE = OFF_Q + MLA_H * MLA_D * (B16 ? 2 : 1) * (MTP ? 2 : 1); /* NST tiles */
    static constexpr int OFF_P = OFF_STAGE + NST * TILE;     /* P^T a consumer: 4 (bf16: 8) chunks x 16 heads x 16 */
    /* M32's P^T (32 columns, 2 KB) goes into its tile's rope panel, free after Q.K: wg_p32 */
    static constexpr int OFF_RED = OFF_P + WG_NCONS * MLA_H * MLA_BN * (B16 ? 2 : 1);
    static constexpr int RED_N = M32 ? 256 : 128; /* a consumer's floats at OFF_RED: 64 (M32 128) max + as many sums */
    static constexpr int OFF_QRED = OFF_RED + WG_NCONS * RED_N * 4;   /* the Q amax: 8 floats */
    static constexpr int OFF_RAW = OFF_QRED + 8 * 4;                  /* MX: WG_NRAW raw tiles */
    static constexpr int OFF_LUT = OFF_RAW + (MX ? WG_NRAW * WG_RAW : 0); /* MX: e4m3 magnitudes by E8M0 [256][8] */
    static constexpr int OFF_BAR = OFF_LUT + (MX ? 256 * 8 : 0);      /* a stage's mbarriers (WG_TMAP or MX) */
    /* a stage's landing gates (WG_LAND_GATES): GM a tile's, G1 a one-tile
     * block's (ONE_DV; MX: WG_MX_SPLIT1), gate j of stage s at bars[j NST + s] */
    static constexpr int GM = MX || !WG_TMAP ? 1 : B16 ? WG_LAND_GATES16 : WG_LAND_GATES;
    static constexpr int G1 = MX && WG_MX_SPLIT1 && WG_ONE_DV && WG_NPROD_MX == 2 && !MTP ? 2 : GM; /* MX: ONE_DV's unit */
    static constexpr int NG = GM > G1 ? GM : G1;
    static constexpr int OFF_RBAR = OFF_BAR + (WG_TMAP || MX ? 8 * NST * NG : 0); /* MX: a raw tile's */
    /* MX, two producers: then a raw stage's "read and reissued" mbarrier */
    static constexpr int OFF_MERGE = OFF_RBAR + (MX ? 8 * WG_NRAW * (WG_NPROD_MX > 1 ? 2 : 1) : 0);
    /* persistent: consumer 1's state for the merge (72 x 128 floats), apart
     * from the stages, which hold the next unit's tiles by then */
    static constexpr bool PERSIST = !MX && !B16 && WG_TMAP && WG_PERSIST && !ONEU && !MTP; /* MTP: a block a unit */
    /* persistent: the next unit's fp8 Q, quantized by consumer 1 while consumer 0 ends the last unit */
    static constexpr int OFF_Q2 = (OFF_MERGE + (PERSIST ? 72 * 128 * 4 : 0) + 127) & ~127;
    /* HS (bf16_wgmma, WG_B16_HS): both consumers on every tile, consumer c
     * the heads 8c .. 8c + 7; their outputs staged apart from the stages
     * (one consumer may still read the last tiles while the other ends) */
    static constexpr bool HS = B16 && WG_B16_HS;
    static constexpr int EMPTY_N = HS ? 384 : 256; /* a stage's release: its consumers and the producer */
    /* ONE_DV (WG_ONE_DV): a block's last one-tile unit split between the
     * consumers; not in the persistent fp8_wgmma (there it spilled 20 bytes,
     * reloaded in its unit loop: its one-wave instantiation, ONEU, has it) */
    static constexpr bool ONE_DV = !B16 && (QR || ONEU || MX) && (WG_TMAP || MX) && WG_ONE_DV && !MTP;
    static constexpr int OFF_STG = (OFF_Q2 + (PERSIST ? MLA_H * MLA_D : 0) + 127) & ~127;
    /* QR (the _qrow variants): a unit's heads' Q scales, two units' (a
     * persistent block quantizes the next unit's Q during one) */
    static constexpr int OFF_QS = OFF_STG + (HS ? MLA_H * WG_SROW16 * 2 : 0); /* scales [2][16] */
    static constexpr int SMEM = OFF_QS + (QR ? 2 * MLA_H * 4 : 0);
    static_assert(!WG_TMAP || OFF_STAGE % 1024 == 0, "swizzled panels 1024-aligned");
    static_assert(OFF_RAW % 16 == 0 && OFF_BAR % 8 == 0, "bulk copies 16-aligned, mbarriers 8-aligned");
    /* consumer 1's state for the merge (64 O + 4 max + 4 sums a thread; M32 twice), over the stages */
    static_assert((M32 ? 144 : 72) * 128 * 4 <= NST * TILE, "merge buffer fits the stages");
    static_assert(!B16 || (WG_TMAP && !MX), "bf16 tiles: the swizzled layout of tensor-copy builds");
    /* B16 stages its outputs in stage 1 (wg_epilogue16), apart from the merge buffer in stage 0 */
    static_assert(!B16 || (!PERSIST && 72 * 128 * 4 <= TILE && MLA_H * WG_SROW16 * 2 <= TILE), "bf16 staging");
    static_assert(!QR || (!B16 && (WG_TMAP || MX)), "per-head Q scales: the fp8 consumers, mbarrier builds");
    /* sm_90's most shared memory a block (227 KB): past it the runner skips
     * the variant at run time, which GPU tests do not count as a failure
     * (88cdae7's staged Q row took mxfp4_wgmma_qrow there unnoticed) */
    static_assert(SMEM <= 227 * 1024, "a wgmma decode's shared memory past sm_90's 227 KB a block");
};
typedef wg_cfg_t<false> wg_cfg;
/* -DMLAB_WG_PROF (diagnostics, with -DMLAB_TRACE): thread 0 of every block
 * sums clock64() cycles per phase of its consumer (prologue, waiting for a
 * tile, Q.K, softmax, P.V, epilogue) into the trace buffer (MLAB_TR_WGPROF:
 * the runner prints a "TW" line a block). Not printf: a function call in the
 * kernel makes ptxas serialize every wgmma (C7510), which the printf of
 * earlier builds did, so their phase cycles (perf-notes v8, v15 call 6) were
 * a serialized kernel's */
#ifdef MLAB_WG_PROF
#ifndef MLAB_TRACE
#error "MLAB_WG_PROF records into the trace buffer: build with -DMLAB_TRACE too"
#endif
#define WG_PROF(...) __VA_ARGS__
#else
#define WG_PROF(...)
#endif

#if MLAB_HAVE_WGMMA
/* one tile of fp8 rows r0 .. r0+63 (zeros past rend) into the wgmma layout,
 * by the producer warpgroup: consecutive threads take consecutive 16-byte
 * chunks of the tile's rows, which are contiguous in global memory (512
 * bytes a warp instruction) */
#if WG_TMAP
/* one tile into the swizzled panels by the producer warpgroup: whole tiles by
 * 9 tensor copies from its thread 0 (the others arrive on bar: it counts 128),
 * partial ones (and every tile without a map) by 16-byte copies, zeros past
 * rend, landed, made visible to wgmma (proxy fence) and then arrived on bar.
 * G > 1 (WG_LAND_GATES): the tensor copies land on the tile's G gates (bar +
 * j gstride; gates 1 .. G - 1 count one arrival, thread 0's); a partial tile
 * is whole at gate 0 (every thread's copies), which a consumer waits on
 * first, so thread 0 only arrives on the others */
template <bool B16 = false, int G = 1>
MLAB_DEV void wg_load_tile_sw(const mla_params &p, uint8_t *dst, uint64_t *bar, int first, int r0, int rend,
                              int gstride = 0)
{
    const int t = threadIdx.x & 127;
    const void *map = B16 ? p.kv_tmap16 : p.kv_tmap; /* bf16 tiles: 128-byte swizzled panels */
    if (map && rend - r0 >= MLA_BN) {
        static_assert(WG_TILE == 9 * MLAB_SW64_PANEL, "a tile is 9 panels");
        if (t == 0) { /* after the consumers' reads of this stage */
            if (B16)
                mlab_tma_tile_sw128<G>(dst, map, first + r0, bar, gstride, p.kv_ef);
            else
                mlab_tma_tile_sw64<G>(dst, map, first + r0, bar, gstride, p.kv_ef);
        } else {
            mlab_bar_arrive(bar);
        }
        return;
    }
    const int nok = rend - r0;
    if constexpr (B16) {
        constexpr int CH = 2 * MLA_D / 16;
        for (int c = t; c < MLA_BN * CH; c += 128) {
            const int r = c / CH, q = c % CH, ok = r < nok;
            mlab_cp16(dst + mlab_sw128(r, q), p.kv_bf16 + (size_t)(first + (ok ? r0 + r : r0)) * MLA_D + 8 * q, ok);
        }
    } else {
        constexpr int CH = MLA_D / 16;
        for (int c = t; c < MLA_BN * CH; c += 128) {
            const int r = c / CH, q = c % CH, ok = r < nok;
            mlab_cp16(dst + wg_off(r, q), p.kv_fp8 + (size_t)(first + (ok ? r0 + r : r0)) * MLA_D + 16 * q, ok);
        }
    }
    mlab_cp_commit();
    mlab_cp_wait<0>();
    wg_fence_smem();
    mlab_bar_arrive(bar);
    if (G > 1 && t == 0)
        for (int j = 1; j < G; j++) mlab_bar_arrive(bar + j * gstride);
}
#endif
MLAB_DEV void wg_load_tile(const mla_params &p, uint8_t *dst, int first, int r0, int rend)
{
    constexpr int CH = MLA_D / 16;
    const uint8_t *base = p.kv_fp8 + (size_t)(first + r0) * MLA_D;
#pragma unroll 8
    for (int q = threadIdx.x & 127; q < MLA_BN * CH; q += 128) {
        const int r = q / CH, c = q % CH;
        const int ok = r0 + r < rend;
        mlab_cp16(dst + wg_off(r, c), ok ? base + 16 * q : p.kv_fp8, ok);
    }
}

/* a consumer's state: running max and sum of its NK heads (4: 8 j + 2 t + e at
 * index 2 j + e; the sums are this thread's share until the epilogue), and
 * O^T, m-tile mt: dims 64 mt + 16 w + (2g, 2g + 1) x the NK heads. NK = 2:
 * bf16_wgmma's head split (WG_B16_HS), the heads 2 t + e of the consumer's 8 */
template <int NK = 4> struct wg_state_t {
    float m[NK], l[NK];
    float o[MLA_DV / 64][2 * NK];
};
typedef wg_state_t<4> wg_state;
/* a unit's start: no row seen (max -inf, sums and O zero) */
template <int NK> MLAB_DEV void wg_reset(wg_state_t<NK> &st)
{
#pragma unroll
    for (int k = 0; k < NK; k++) {
        st.m[k] = -INFINITY;
        st.l[k] = 0.f;
    }
#pragma unroll
    for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
        for (int e = 0; e < 2 * NK; e++) st.o[mt][e] = 0.f;
}
/* the head of a thread's k-th (of its consumer's 16, or 8 with NK = 2: k < 2) */
MLAB_DEV int wg_head(int k) { return 8 * (k >> 1) + 2 * (threadIdx.x & 3) + (k & 1); }
/* where head slot k's values sit in a thread's fragments of 2 NK (the scores'
 * s, a row of O's st.o[mt]): half h (kv rows g, g + 8 of the warp's 16; O's
 * dims g, g + 8) at 4 (k >> 1) + 2 h + (k & 1) */
MLAB_DEV int wg_e(int k, int h) { return 4 * (k >> 1) + 2 * h + (k & 1); }

/* the A descriptor of Q.K's k-step k (32 dims) of a tile: the swizzled
 * panels' (panel k / 2, its 32-byte half k % 2) or the unswizzled layout's */
MLAB_DEV uint64_t wg_k_desc(const uint8_t *tile, int k)
{
#if WG_TMAP
    return wg_desc_add(wg_desc_sw64(tile, 8 * 64), (k >> 1) * MLAB_SW64_PANEL + 32 * (k & 1));
#else
    return wg_desc_add(wg_desc(tile, WG_LDC, 128), 2 * k * WG_LDC);
#endif
}

/* the fp8 Q of the B operand of step 1, K-major in 16-byte columns (head
 * h's chunk k of 8 codes at 256 (k / 2) + 16 h + 8 (k % 2)); its descriptor,
 * and k-step k's (32 codes: two columns). The consumers store it as Q lies
 * in memory (q_fp8_store), 8-way conflicted (ncu, perf-notes v23); the three
 * conflict-free orders measured at v24, each loading Q off memory order,
 * were slower on the short calls (heads inside +2..8%; 4 heads x 8 chunks a
 * warp step into 64-byte-swizzled panels +0.5..1.3%; 8 heads x 4 chunks
 * +1.5..6%); with its loads kept in memory order by a staging copy (v25,
 * WG_Q_STAGE, since removed) geomean +1.0%, 4 x 1024 +3..5% */
MLAB_DEV uint2 *wg_q_chunk(uint8_t *sq, int h, int k)
{
    return (uint2 *)(sq + (k >> 1) * (16 * MLA_H) + 16 * h + 8 * (k & 1));
}
MLAB_DEV uint64_t wg_q8_desc(const uint8_t *sq) { return wg_desc(sq, 16 * MLA_H, 128); }
MLAB_DEV uint64_t wg_q8_step(uint64_t dq, int k) { return wg_desc_add(dq, 2 * k * 16 * MLA_H); }
/* the same for M32 (the MXFP4 wgmma decodes' MTP unit): 32 columns, row r's head h
 * column 16 r + h. Its descriptors (Q's here, P^T's: wg_desc32) are the
 * 16-column ones with the leading offset doubled: a call of wg_desc with
 * other arguments in the same file moved the 16-column decodes' SASS (LLVM
 * then no longer folds the constant arguments every call shared into it) */
MLAB_DEV uint2 *wg_q_chunk32(uint8_t *sq, int c, int k)
{
    return (uint2 *)(sq + (k >> 1) * (32 * MLA_H) + 16 * c + 8 * (k & 1));
}
MLAB_DEV uint64_t wg_desc32(const void *smem)
{
    return wg_desc(smem, 16 * MLA_H, 128) + ((uint64_t)(16 * MLA_H >> 4) << 16); /* leading offset 512 bytes */
}
MLAB_DEV uint64_t wg_q8_desc32(const uint8_t *sq) { return wg_desc32(sq); }
MLAB_DEV uint64_t wg_q8_step32(uint64_t dq, int k) { return wg_desc_add(dq, 2 * k * 32 * MLA_H); }
/* bf16_wgmma's Q (wg_q16_issue: mlab_sw128_q): its B descriptor, and k-step k's (panel k / 4,
 * its 32-byte quarter k % 4) */
MLAB_DEV uint64_t wg_q16_desc(const uint8_t *sq) { return wg_desc_sw128(sq, 16, 8 * 128); }
/* k-step k (16 bf16 dims) of a K-major operand in 128-byte-swizzled panels of `panel` bytes */
MLAB_DEV uint64_t wg_sw128_step(uint64_t d, int k, int panel)
{
    return wg_desc_add(d, (k >> 2) * panel + 32 * (k & 3));
}
MLAB_DEV uint64_t wg_q16_step(uint64_t dq, int k) { return wg_sw128_step(dq, k, MLAB_SW128_QPANEL); }

/* every O accumulator of the state fenced (wg_fence_acc) before and after the P.V products */
template <int NK> MLAB_DEV void wg_fence_o(wg_state_t<NK> &st)
{
#pragma unroll
    for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
        for (int e = 0; e < 2 * NK; e++) wg_fence_acc(st.o[mt][e]);
}

/* a tile's landing gates (WG_LAND_GATES): gate j at b + j stride, in phase par */
struct wg_gates {
    uint64_t *b;
    int stride;
    uint32_t par;
    __device__ __forceinline__ void wait(int j) const { mlab_bulk_wait(b + j * stride, par); }
};
/* tile g's gates in a ring of nst stages (G = 1: none: the caller waits on the stage's one mbarrier) */
template <int G> MLAB_DEV wg_gates wg_tile_gates(uint64_t *bars, int g, int nst)
{
    return G > 1 ? wg_gates{bars + g % nst, nst, (uint32_t)((g / nst) & 1)} : wg_gates{nullptr, 0, 0u};
}

/* 1. S^T = K . Q^T of one tile: element 4 j + 2 h + e is (kv row 16 w + g + 8 h,
 * head 8 j + 2 t + e). The 18 k-steps go round WG_QK_ACC accumulators,
 * summed at the end (one, the default: a dependent chain, which wgmma
 * pipelines). K comes from shared memory (WG_QK_SS) or from registers
 * (ldmatrix, WG_QK_BATCH fragments a batch, a batch's registers reused once
 * the batch before it is done); Q (B) from shared memory. NK = 2 (bf16's head
 * split): N = 8, the consumer's 8 heads (dq: their Q), element 2 h + e. K0,
 * KS: the k-steps K0 .. K0 + KS - 1 only (a consumer's half, WG_ONE_DV) */
struct wg_nothing {
    __device__ __forceinline__ void operator()() const {}
};
template <bool B16 = false, int NK = 4, int K0 = 0, int KS = MLA_D / (B16 ? 16 : 32), int G = 1,
          typename Mid = wg_nothing>
MLAB_DEV void wg_scores(float (&s)[2 * NK], const uint8_t *tile, uint64_t dq, wg_gates gt = {nullptr, 0, 0u},
                        Mid mid = Mid())
{
    static_assert(NK == 4 || (B16 && NK == 2) || (!B16 && NK == 8 && WG_QK_SS), "16 heads, bf16's 8, or M32's 32");
    static_assert(K0 == 0 || (WG_QK_SS && !B16), "a k range (K0, KS steps: a consumer's half, WG_ONE_DV): fp8 K by wgmma");
    /* G > 1 (WG_LAND_GATES): an accumulator a gate the k range spans (one
     * across a gate's wait, a divergent spin, made ptxas serialize every
     * wgmma: C7520), each gate's k-steps issued once it has landed */
    constexpr int KP = B16 ? 4 : 2; /* k-steps a panel; k-step k's gate (K0 + k) / KP * G / 9 */
    constexpr int GA = K0 / KP * G / 9, GS = (K0 + KS - 1) / KP * G / 9 - GA + 1; /* the range's first gate, gates */
    constexpr int NA = G > 1 ? GS : WG_QK_ACC; /* KS k-steps from K0: 32 bytes of K a row */
    float acc[NA][2 * NK];
#pragma unroll
    for (int c = 0; c < NA; c++)
#pragma unroll
        for (int e = 0; e < 2 * NK; e++) wg_fence_acc(acc[c][e]);
#if WG_QK_SS
    /* G > 1: the gates up to the range's first at once (the caller waited on gate 0), each later one
     * before the first k-step on its panels, into its own accumulator */
    if constexpr (G > 1)
        for (int j = 1; j <= GA; j++) gt.wait(j);
    wg_fence();
    auto ai = [](int k) { return G > 1 ? (K0 + k) / KP * G / 9 - GA : k % NA; }; /* k-step k's accumulator */
    auto gate = [&](int k) { /* then: whether k-step k adds to its accumulator */
        if (G > 1 && k > 0 && ai(k) != ai(k - 1)) {
            gt.wait(GA + ai(k));
            wg_fence();
        }
        return G > 1 ? k > 0 && ai(k) == ai(k - 1) : k >= NA;
    };
    if constexpr (B16) { /* bf16: k-step k in panel k / 4, its 32-byte quarter k % 4 */
        const uint64_t dk = wg_desc_sw128(tile, 16, 8 * 128);
#pragma unroll
        for (int k = 0; k < KS; k++) {
            const bool add = gate(k);
            if constexpr (NK == 4)
                wg_bf16_ss_n16<0>(acc[ai(k)], wg_sw128_step(dk, k, MLAB_SW128_PANEL), wg_q16_step(dq, k), add);
            else
                wg_bf16_ss_n8<0>(acc[ai(k)], wg_sw128_step(dk, k, MLAB_SW128_PANEL), wg_q16_step(dq, k), add);
        }
    } else {
#pragma unroll
        for (int k = 0; k < KS; k++) {
            const bool add = gate(k);
            if constexpr (NK == 8) /* M32: both query rows */
                wg_e4m3_ss_n32(acc[ai(k)], wg_k_desc(tile, K0 + k), wg_q8_step32(dq, K0 + k), add);
            else
                wg_e4m3_ss_n16(acc[ai(k)], wg_k_desc(tile, K0 + k), wg_q8_step(dq, K0 + k), add);
        }
    }
    wg_commit();
    mid(); /* while the products run (WG_ONE_DV: P.V's V^T fragments) */
#else
    static_assert(!B16, "bf16: K from shared memory");
    static_assert(G == 1, "landing gates: K by wgmma from shared memory");
    const int warp = (threadIdx.x / 32) & 3, l = threadIdx.x & 31;
    const uint8_t *row = tile + (l >> 4) * WG_LDC + 16 * (16 * warp + (l & 7) + 8 * ((l >> 3) & 1));
    constexpr int BATCH = WG_QK_BATCH;
#pragma unroll
    for (int b = 0; b < KS; b += BATCH) {
        uint32_t a[BATCH][4];
#pragma unroll
        for (int k = 0; k < BATCH; k++) wg_k_frag(a[k], row + 2 * (b + k) * WG_LDC);
        wg_fence();
#pragma unroll
        for (int k = 0; k < BATCH; k++)
            wg_e4m3_rs_n16(acc[(b + k) % NA], a[k], wg_q8_step(dq, b + k), b + k >= NA);
        wg_commit();
        wg_wait<1>(); /* the batch before this one is done: its registers are free */
    }
#endif
    wg_wait<0>();
#pragma unroll
    for (int c = 0; c < NA; c++)
#pragma unroll
        for (int e = 0; e < 2 * NK; e++) wg_fence_acc(acc[c][e]);
#pragma unroll
    for (int e = 0; e < 2 * NK; e++) {
        float x = acc[0][e];
#pragma unroll
        for (int c = 1; c < NA; c++) x += acc[c][e];
        s[e] = x;
    }
}

/* a score scale: the same for every head (float), or one for each of a
 * thread's NK heads (the _qrow variants: Q's scale is a head's) */
MLAB_DEV float wg_sc(float s, int) { return s; }
template <int NK> MLAB_DEV float wg_sc(const float (&s)[NK], int k) { return s[k]; }
/* or read from shared memory where they are used (M32: its 8 scales held in
 * registers beside 128 O floats spilled): the call's scale times column
 * wg_head(k)'s Q scale (qs: the columns' scales; all: column 0's, the
 * negative control qscale) */
struct wg_sc_cols {
    float s;
    const float *qs;
    bool all;
};
MLAB_DEV float wg_sc(const wg_sc_cols &c, int k) { return c.s * c.qs[c.all ? 0 : wg_head(k)]; }

/* 2. online softmax of tile t (rows past rend masked): the consumer's 4 warps
 * exchange their maxima through red (16 heads x 4 warps) on barrier bar; P
 * rounded to e4m3 goes to sP (P^T, K-major, kv rows in wg_vslot order); O is
 * rescaled where a head's max moved. Ends with sP visible to wgmma. ONE (a
 * one-tile unit split between the consumers, WG_ONE_DV; NK = 2): sP is the
 * 16 heads' P^T from the consumer's first head on, O is zero (nothing to
 * rescale), and the caller's barrier of both consumers ends the step.
 * Its steps: wg_tile_max, wg_p_store, wg_rescale_o (wg_softmax_lazy shares
 * them) */
/* a tile's scores scaled, rows past rend masked, and the max of each of the
 * thread's NK heads over its warp's 16 rows (warp, g: the caller's) */
template <int NK, typename Sc, bool MTP = false>
MLAB_DEV void wg_tile_scale(float (&s)[2 * NK], int t, int rend, const Sc &sscale, int warp, int g)
{
#pragma unroll
    for (int k = 0; k < NK; k++)
#pragma unroll
        for (int h = 0; h < 2; h++) s[wg_e(k, h)] *= wg_sc(sscale, k);
    /* the unit's last tile: rows past rend masked (MTP: also the tile where
     * the first row's end, one before, falls: at a tile boundary the second
     * row's last tile has no row past rend, but the first row's has one) */
    if ((t + 1) * MLA_BN > rend - (MTP ? 1 : 0))
#pragma unroll
        for (int k = 0; k < NK; k++)
#pragma unroll
            for (int h = 0; h < 2; h++) /* MTP: slots k < NK / 2 are the item's first query row, one row short */
                if (t * MLA_BN + 16 * warp + g + 8 * h >= rend - (MTP && k < NK / 2 ? 1 : 0)) s[wg_e(k, h)] = -INFINITY;
}
template <int NK, typename Sc, bool MTP = false>
MLAB_DEV void wg_tile_max(float (&s)[2 * NK], int t, int rend, const Sc &sscale, float (&tmax)[NK], int warp, int g)
{
    wg_tile_scale<NK, Sc, MTP>(s, t, rend, sscale, warp, g);
#pragma unroll
    for (int k = 0; k < NK; k++) {
        float m = -INFINITY;
#pragma unroll
        for (int h = 0; h < 2; h++) m = fmaxf(m, s[wg_e(k, h)]);
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 4));
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 8));
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 16));
        tmax[k] = m;
    }
}
/* M32 (NK = 8): the same scores scaled and masked; lm[k] the max of slot k
 * over the thread's two rows, and the warp's max over its 16 rows of slot
 * g (column wg_head(g)) returned: the 8 slots' maxima reduce-scattered over
 * the lane bits of g (xor 16, 8, 4: 4, 2, 1 slots sent a step), 7 shuffles
 * where wg_tile_max takes 24, each lane then one slot's, so the caller
 * stores 32 columns' maxima with one store a lane, not 8 a lane of g 0 */
template <typename Sc>
MLAB_DEV float wg_tile_max32(float (&s)[16], int t, int rend, const Sc &sscale, float (&lm)[8], int warp, int g)
{
    wg_tile_scale<8, Sc, true>(s, t, rend, sscale, warp, g);
#pragma unroll
    for (int k = 0; k < 8; k++) lm[k] = fmaxf(s[wg_e(k, 0)], s[wg_e(k, 1)]);
    float a[4], b[2];
#pragma unroll
    for (int j = 0; j < 4; j++) { /* lane bit 4 (g's bit 2): slots 4 .. 7 kept where set */
        const float send = (g & 4) ? lm[j] : lm[j + 4], keep = (g & 4) ? lm[j + 4] : lm[j];
        a[j] = fmaxf(keep, __shfl_xor_sync(0xffffffffu, send, 16));
    }
#pragma unroll
    for (int j = 0; j < 2; j++) { /* g's bit 1 */
        const float send = (g & 2) ? a[j] : a[j + 2], keep = (g & 2) ? a[j + 2] : a[j];
        b[j] = fmaxf(keep, __shfl_xor_sync(0xffffffffu, send, 8));
    }
    const float send = (g & 1) ? b[0] : b[1], keep = (g & 1) ? b[1] : b[0]; /* g's bit 0 */
    return fmaxf(keep, __shfl_xor_sync(0xffffffffu, send, 4));
}
/* head k's P of the thread's two rows against max m (0 where none: no row
 * seen yet), rounded into sP (bf16 or e4m3 P^T); returns their unrounded sum */
template <bool FAST, bool B16, int NK>
MLAB_DEV float wg_p_store(const float (&s)[2 * NK], int k, float m, bool none, uint8_t *sP, int warp, int g)
{
    float sum = 0.f;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const float pj = none ? 0.f : mla_exp(s[wg_e(k, h)] - m, FAST);
        sum += pj; /* l sums P unrounded, P.V takes it rounded, as the task does */
        const int r = 16 * warp + g + 8 * h;
        if (B16) { /* bf16 P^T: kv rows in order (V^T is read as stored), 8 to a 16-byte chunk */
            ((uint16_t *)sP)[(r >> 3) * (8 * 4 * NK) + 8 * wg_head(k) + (r & 7)] = mlab_f32_to_bf16_bits(pj);
        } else {
            const int slot = (r & 32) + wg_vslot(r & 31);
            sP[(slot >> 4) * (16 * MLA_H * (NK == 8 ? 2 : 1)) + 16 * wg_head(k) + (slot & 15)] = mlab_f32_to_fp8(pj);
        }
    }
    return sum;
}
/* M32 (NK = 8): wg_p_store of slots k0 (even) and k0 + 1 (maxima m0, m1)
 * at once, their sums returned as .x, .y: each lane's four codes (its two
 * rows of both columns) in one word, exchanged with the lane of g ^ 1, whose
 * rows fill the slots between its own (wg_vslot: rows g, g + 8 of an even g
 * at slots 4 j, 4 j + 2; of g + 1 at 4 j + 1, 4 j + 3), so an even lane
 * stores column wg_head(k0)'s 4 bytes and an odd one wg_head(k0 + 1)'s as
 * one word: the same bytes as 4 byte stores a lane */
template <bool FAST>
MLAB_DEV float2 wg_p_store32(const float (&s)[16], int k0, float m0, float m1, bool none0, bool none1, uint8_t *sP,
                             int warp, int g)
{
    float p[2][2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
        p[0][h] = none0 ? 0.f : mla_exp(s[wg_e(k0, h)] - m0, FAST);
        p[1][h] = none1 ? 0.f : mla_exp(s[wg_e(k0 + 1, h)] - m1, FAST);
    }
    /* bytes: k0's rows g, g + 8, then k0 + 1's */
    const uint32_t own = mlab_prmt(mlab_f32x2_to_fp8x2(p[0][0], p[0][1]), mlab_f32x2_to_fp8x2(p[1][0], p[1][1]), 0x5410);
    const uint32_t other = __shfl_xor_sync(0xffffffffu, own, 4);
    const int odd = g & 1, r = 16 * warp + (g & ~1), slot = (r & 48) + 4 * (g >> 1);
    *(uint32_t *)(sP + (slot >> 4) * (32 * 16) + 16 * (wg_head(k0) + odd) + (slot & 15)) =
        mlab_prmt(own, other, odd ? 0x3726u : 0x5140u);
    return make_float2(p[0][0] + p[0][1], p[1][0] + p[1][1]);
}
/* M32 (wg_softmax, wg_softmax_lazy's eager step): slots k and k + 1 (k
 * even) past a tile whose maxima over the block are mt(0), mt(1) (a
 * callable, read in the slots' order: as one loop, the kernels' SASS as
 * before): the new running maxima, their alpha, P of both stored at once
 * (wg_p_store32) and the sums taken with it */
template <bool FAST, typename Mt>
MLAB_DEV void wg_step_pair32(wg_state_t<8> &st, int k, const Mt &mt, float (&alpha)[8], const float (&s)[16],
                             uint8_t *sP, int warp, int g)
{
    float mn[2];
    bool none[2];
#pragma unroll
    for (int i = 0; i < 2; i++) {
        mn[i] = fmaxf(st.m[k + i], mt(i));
        none[i] = mn[i] == -INFINITY;
        alpha[k + i] = none[i] ? 1.f : mla_exp(st.m[k + i] - mn[i], FAST);
        st.m[k + i] = mn[i];
    }
    const float2 sum = wg_p_store32<FAST>(s, k, mn[0], mn[1], none[0], none[1], sP, warp, g);
    st.l[k] = st.l[k] * alpha[k] + sum.x;
    st.l[k + 1] = st.l[k + 1] * alpha[k + 1] + sum.y;
}
/* O times each head's alpha: slot k's accumulators (wg_e(k, 0), wg_e(k, 1)).
 * SKIP (wg_softmax): a slot only where a head of it in this warp moved
 * (times 1 elsewhere: exact); once the maxima settle, most tiles move one
 * head of the 16 or none. wg_softmax_lazy's eager step, which runs only
 * where a max moved, every slot */
template <bool SKIP, int NK> MLAB_DEV void wg_rescale_o(wg_state_t<NK> &st, const float (&alpha)[NK])
{
#pragma unroll
    for (int k = 0; k < NK; k++)
        if (!SKIP || __any_sync(0xffffffffu, alpha[k] != 1.f))
#pragma unroll
            for (int mt = 0; mt < MLA_DV / 64; mt++) {
                st.o[mt][wg_e(k, 0)] *= alpha[k];
                st.o[mt][wg_e(k, 1)] *= alpha[k];
            }
}
template <bool FAST, bool B16 = false, int NK = 4, typename Sc = float, bool ONE = false, bool MTP = false>
MLAB_DEV void wg_softmax(wg_state_t<NK> &st, float (&s)[2 * NK], int t, int rend, const Sc &sscale, float *red,
                         uint8_t *sP, int bar)
{
    static_assert(NK == 4 || NK == 2 || (!B16 && NK == 8), "16 heads, a consumer's 8 (WG_B16_HS, WG_ONE_DV), or M32's 32");
    static_assert(!ONE || (!B16 && NK == 2), "ONE: the a8w8 consumers, 8 heads each");
    const int warp = (threadIdx.x / 32) & 3, g = (threadIdx.x & 31) >> 2;
    float tmax[NK];
    if constexpr (NK == 8) { /* M32: one slot's max a lane */
        red[4 * wg_head(g) + warp] = wg_tile_max32<Sc>(s, t, rend, sscale, tmax, warp, g);
    } else {
        wg_tile_max<NK, Sc, MTP>(s, t, rend, sscale, tmax, warp, g);
        if (g == 0)
#pragma unroll
            for (int k = 0; k < NK; k++) red[4 * wg_head(k) + warp] = tmax[k];
    }
    wg_bar_sync(bar, 128);
    float alpha[NK];
    if constexpr (NK == 8) { /* M32: two slots' P at once (wg_p_store32) */
#pragma unroll
        for (int k = 0; k < NK; k += 2)
            wg_step_pair32<FAST>(st, k, [&](int i) {
                const float4 w4 = *(const float4 *)(red + 4 * wg_head(k + i));
                return fmaxf(fmaxf(w4.x, w4.y), fmaxf(w4.z, w4.w));
            }, alpha, s, sP, warp, g);
    } else {
#pragma unroll
        for (int k = 0; k < NK; k++) {
            const float4 w4 = *(const float4 *)(red + 4 * wg_head(k));
            const float mnew = fmaxf(st.m[k], fmaxf(fmaxf(w4.x, w4.y), fmaxf(w4.z, w4.w)));
            const bool none = mnew == -INFINITY;
            alpha[k] = none ? 1.f : mla_exp(st.m[k] - mnew, FAST);
            st.m[k] = mnew;
            const float sum = wg_p_store<FAST, B16, NK>(s, k, mnew, none, sP, warp, g);
            st.l[k] = st.l[k] * alpha[k] + sum;
        }
    }
    if constexpr (!ONE) wg_rescale_o<true>(st, alpha);
    wg_fence_smem();
    if constexpr (!ONE) wg_bar_sync(bar, 128);
}

/* 2'. the same with a lazy max (LT >= 0; FA4's rescale threshold):
 * each warp writes its tile maxima to red's half own & 1 and, where none of
 * them is more than LT (log2 units) over the running max of its
 * head, stores P against the running max at once; ONE barrier, then every
 * warp reads the 4 warps' maxima: where none is over (the same decision in
 * every warp: the same red, the same running maxima), P, O and the max stay
 * as they are and the sums take the tile's. Else (a consumer's first tile
 * of a unit, or a max over the threshold) the eager step: the new max, P
 * again, O rescaled, a second barrier. P is then at most 2^LT (e4m3
 * holds 448; the merge and the epilogue take max and sums as a pair, so the
 * result is the same function of the scores). red's half own & 1 (own:
 * the consumer's own tile count in the unit): its tile n + 2 writes the half
 * its tile n read only after the barrier of its tile n + 1, which every
 * warp passes after its reads of tile n. The caller
 * puts a barrier between the last tile and red's next use (wg_lazy_end). nc_o: the
 * negative control MLAB_FAULT=lazy (mla_params.fault 4): O is not rescaled
 * when the max moves past a unit's first tile, which the GPU test on the
 * rising-scores case must catch (tests/gpu.cmake) */
template <bool FAST, bool B16, int NK, typename Sc, int LT, bool MTP = false>
MLAB_DEV void wg_softmax_lazy(wg_state_t<NK> &st, float (&s)[2 * NK], int t, int rend, const Sc &sscale, float *red,
                              uint8_t *sP, int bar, bool first, bool nc_o, int own)
{
    static_assert(NK == 4 || NK == 2 || (!B16 && NK == 8), "16 heads, a consumer's 8 (WG_B16_HS), or M32's 32");
    static_assert(LT >= 0, "a threshold");
    const float thr = FAST ? (float)LT : (float)LT * 0.69314718f; /* the scores' units */
    const int warp = (threadIdx.x / 32) & 3, g = (threadIdx.x & 31) >> 2;
    float *const rb = red + (NK == 8 ? 128 : 64) * (own & 1); /* own: the consumer's own tile count in the unit */
    float tmax[NK], sum[NK];
    bool fits = !first;
    if constexpr (NK == 8) /* M32: one slot's max a lane; the fit by the thread's own rows' maxima
                            * (the warp's test the same: all of them under the line) */
        rb[4 * wg_head(g) + warp] = wg_tile_max32<Sc>(s, t, rend, sscale, tmax, warp, g);
    else
        wg_tile_max<NK, Sc, MTP>(s, t, rend, sscale, tmax, warp, g);
#pragma unroll
    for (int k = 0; k < NK; k++) {
        if constexpr (NK != 8)
            if (g == 0) rb[4 * wg_head(k) + warp] = tmax[k];
        fits &= st.m[k] > -INFINITY && tmax[k] <= st.m[k] + thr;
        sum[k] = 0.f;
    }
    if (__all_sync(0xffffffffu, fits)) {
        if constexpr (NK == 8)
#pragma unroll
            for (int k = 0; k < NK; k += 2) {
                const float2 s2 = wg_p_store32<FAST>(s, k, st.m[k], st.m[k + 1], false, false, sP, warp, g);
                sum[k] = s2.x;
                sum[k + 1] = s2.y;
            }
        else
#pragma unroll
            for (int k = 0; k < NK; k++) sum[k] = wg_p_store<FAST, B16, NK>(s, k, st.m[k], false, sP, warp, g);
        wg_fence_smem();
    }
    wg_bar_sync(bar, 128);
    float mt4[NK];
    bool over = first;
#pragma unroll
    for (int k = 0; k < NK; k++) {
        const float4 w4 = *(const float4 *)(rb + 4 * wg_head(k));
        mt4[k] = fmaxf(fmaxf(w4.x, w4.y), fmaxf(w4.z, w4.w));
        over |= !(st.m[k] > -INFINITY) || mt4[k] > st.m[k] + thr; /* where any warp stored no P */
    }
    if (!__any_sync(0xffffffffu, over)) {
#pragma unroll
        for (int k = 0; k < NK; k++) st.l[k] += sum[k];
        return;
    }
    float alpha[NK];
    if constexpr (NK == 8) { /* M32: two slots' P at once */
#pragma unroll
        for (int k = 0; k < NK; k += 2) {
            wg_step_pair32<FAST>(st, k, [&](int i) { return mt4[k + i]; }, alpha, s, sP, warp, g);
            if (nc_o) alpha[k] = alpha[k + 1] = 1.f; /* the negative control: O left as it was */
        }
    } else {
#pragma unroll
        for (int k = 0; k < NK; k++) {
            const float mnew = fmaxf(st.m[k], mt4[k]);
            const bool none = mnew == -INFINITY;
            alpha[k] = none ? 1.f : mla_exp(st.m[k] - mnew, FAST);
            st.m[k] = mnew;
            st.l[k] = st.l[k] * alpha[k] + wg_p_store<FAST, B16, NK>(s, k, mnew, none, sP, warp, g);
            if (nc_o) alpha[k] = 1.f; /* the negative control: O left as it was */
        }
    }
    wg_rescale_o<false>(st, alpha);
    wg_fence_smem();
    wg_bar_sync(bar, 128);
}
/* a consumer's online softmax of a tile of a multi-tile loop: lazy where
 * LT >= 0 (first: the consumer's first tile of the unit; nc_o: the lazy
 * step's negative control), else wg_softmax */
template <bool FAST, bool B16 = false, int NK = 4, int LT = -1, typename Sc = float, bool MTP = false>
MLAB_DEV void wg_softmax_loop(wg_state_t<NK> &st, float (&s)[2 * NK], int t, int rend, const Sc &sscale, float *red,
                              uint8_t *sP, int bar, bool first, bool nc_o, int own)
{
    if constexpr (LT >= 0)
        wg_softmax_lazy<FAST, B16, NK, Sc, LT, MTP>(st, s, t, rend, sscale, red, sP, bar, first, nc_o, own);
    else
        wg_softmax<FAST, B16, NK, Sc, false, MTP>(st, s, t, rend, sscale, red, sP, bar);
}
/* after a consumer's tile loop: the barrier that keeps red's next use
 * (the epilogue's sums) behind every warp's reads of the last tile's maxima
 * (lazy: the last step may have had one barrier, before those reads) */
template <int LT> MLAB_DEV void wg_lazy_end(int bar)
{
    if constexpr (LT >= 0) wg_bar_sync(bar, 128);
}

/* 3. O^T += V^T . P^T: every A fragment first (64 registers), then one fence
 * and the 16 products back to back (a fragment written between two wgmmas
 * makes ptxas put a warpgroup.arrive before each) */
/* an O array's accumulators fenced (wg_pv_run's O) */
template <int NK, int MT> MLAB_DEV void wg_fence_o(float (&o)[MT][2 * NK])
{
#pragma unroll
    for (int mt = 0; mt < MT; mt++)
#pragma unroll
        for (int e = 0; e < 2 * NK; e++) wg_fence_acc(o[mt][e]);
}
/* V^T's A fragments of MT m-tiles from m-tile MT0 (ldmatrix.trans + byte permutes) */
template <int MT, int MT0> MLAB_DEV void wg_pv_frags(uint32_t (&a)[MT][MLA_BN / 32][4], const uint8_t *tile)
{
    const int warp = (threadIdx.x / 32) & 3, lane = threadIdx.x & 31;
#pragma unroll
    for (int mt = 0; mt < MT; mt++)
#pragma unroll
        for (int ks = 0; ks < MLA_BN / 32; ks++)
            wg_vt_frag(a[mt][ks], tile + wg_off(32 * ks + lane, 4 * (MT0 + mt) + warp));
}
/* the products on those fragments, committed, not waited for */
template <int MT> MLAB_DEV void wg_pv_issue(float (&o)[MT][8], const uint32_t (&a)[MT][MLA_BN / 32][4], uint64_t dp)
{
    wg_fence();
#pragma unroll
    for (int mt = 0; mt < MT; mt++)
#pragma unroll
        for (int ks = 0; ks < MLA_BN / 32; ks++)
            wg_e4m3_rs_n16(o[mt], a[mt][ks], wg_desc_add(dp, 2 * ks * 16 * MLA_H), 1);
    wg_commit();
}
/* the products on fragments already loaded, waited for, the accumulators
 * fenced on both sides; mid() runs while they do (WG_ONE_DV's unit: its row
 * sums, which need no O) */
template <int MT, typename Mid = wg_nothing>
MLAB_DEV void wg_pv_run(float (&o)[MT][8], const uint32_t (&a)[MT][MLA_BN / 32][4], uint64_t dp, Mid mid = Mid())
{
    wg_fence_o<4, MT>(o);
    wg_pv_issue<MT>(o, a, dp);
    mid();
    wg_wait<0>();
    wg_fence_o<4, MT>(o);
}
/* a tile's whole P.V, waited for (WG_ONE_DV's unit calls the two steps
 * itself: the fragments under its Q.K, its sums under the products) */
MLAB_DEV void wg_pv(wg_state &st, const uint8_t *tile, uint64_t dp)
{
    uint32_t a[MLA_DV / 64][MLA_BN / 32][4];
    wg_pv_frags<MLA_DV / 64, 0>(a, tile);
    wg_pv_run<MLA_DV / 64>(st.o, a, dp);
}

/* M32's P^T (64 kv rows x 32 columns of e4m3, 2 KB: no room beside the
 * MTP unit's second Q row in MXFP4's 227 KB) in the tile's dims 512 .. 575
 * (the rope: 4 KB, contiguous in either layout), which only Q.K reads: free
 * once its products are waited for, until the stage is released after P.V */
MLAB_DEV uint8_t *wg_p32(const uint8_t *tile) { return (uint8_t *)tile + wg_off(0, MLA_DV / 16); }
static_assert(WG_TMAP ? MLAB_SW64_PANEL >= 2 * MLA_H * MLA_BN : (MLA_D - MLA_DV) / 16 * WG_LDC >= 2 * MLA_H * MLA_BN,
              "M32's P^T fits the tile's rope");

/* M32 (the MXFP4 wgmma decodes' MTP unit): O^T[512 dims x 32 columns] += V^T . P^T,
 * m64n32k32 products (128 accumulator floats a thread), the V^T fragments
 * in batches of PB m-tiles, two batches' registers in turn (all 8 m-tiles'
 * 64 registers beside 128 of O do not fit): batch b + 1's loaded while b's
 * products run. PB = 1: at 2 mxfp4_qrow_lazy's M32 spilled 48 bytes (at 1,
 * 24 before its Q scales were read where used, 4 since: one block constant) */
template <int PB = 1> MLAB_DEV void wg_pv32(wg_state_t<8> &st, const uint8_t *tile, uint64_t dp)
{
    constexpr int NB = MLA_DV / 64 / PB;
    const int warp = (threadIdx.x / 32) & 3, lane = threadIdx.x & 31;
    uint32_t a[2][PB][MLA_BN / 32][4];
    auto frags = [&](uint32_t(&f)[PB][MLA_BN / 32][4], int mt0) {
#pragma unroll
        for (int mt = 0; mt < PB; mt++)
#pragma unroll
            for (int ks = 0; ks < MLA_BN / 32; ks++)
                wg_vt_frag(f[mt][ks], tile + wg_off(32 * ks + lane, 4 * (mt0 + mt) + warp));
    };
    wg_fence_o(st);
    frags(a[0], 0);
#pragma unroll
    for (int b = 0; b < NB; b++) {
        wg_fence();
#pragma unroll
        for (int mt = 0; mt < PB; mt++)
#pragma unroll
            for (int ks = 0; ks < MLA_BN / 32; ks++)
                wg_e4m3_rs_n32(st.o[PB * b + mt], a[b & 1][mt][ks], wg_desc_add(dp, 2 * ks * 16 * 2 * MLA_H), 1);
        wg_commit();
        if (b + 1 < NB) {
            wg_wait<1>(); /* batch b - 1 done: its registers are free */
            frags(a[(b + 1) & 1], PB * (b + 1));
        }
    }
    wg_wait<0>();
    wg_fence_o(st);
}

/* 3'. bf16 (B16): O^T += V^T . P^T with V^T straight from the tile, a
 * transposed (MN-major) operand: m-tile mt = dims 64 mt .. 64 mt + 63 =
 * panel mt, k-step ks = kv rows 16 ks .. 16 ks + 15 (2 KB on in the panel);
 * 32 products, no fragments in registers; NK = 2 (the head split): N = 8,
 * P^T's kv-row chunks 128 bytes apart */
template <int NK = 4> MLAB_DEV void wg_pv16(wg_state_t<NK> &st, const uint8_t *tile, uint64_t dp)
{
    wg_fence_o(st);
    const uint64_t dv = wg_desc_sw128(tile, MLAB_SW128_PANEL, 8 * 128);
    wg_fence();
#pragma unroll
    for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
        for (int ks = 0; ks < MLA_BN / 16; ks++) {
            const uint64_t da = wg_desc_add(dv, mt * MLAB_SW128_PANEL + ks * 16 * 128),
                           db = wg_desc_add(dp, 2 * ks * 64 * NK);
            if constexpr (NK == 4)
                wg_bf16_ss_n16<1>(st.o[mt], da, db, 1);
            else
                wg_bf16_ss_n8<1>(st.o[mt], da, db, 1);
        }
    wg_commit();
    wg_wait<0>();
    wg_fence_o(st);
}

/* a (row, split) unit of the call: block b's (tok, split, S), uniform or a
 * ragged batch's plan (mla_params.blk_work, row_splits: splits.h), its
 * kv range (first buffer row; tiles t0 .. t0 + n - 1; rows before rend) */
struct wg_unit {
    int tok, split, S, first, t0, n, rend;
};

/* a split's log2-sum-exp2 and partial multiplier of this thread's NK heads
 * (one thread of each head: warp 0, g = 0; h0: the consumer's first head) */
template <bool FAST, int NK = 4>
MLAB_DEV void wg_part_stats(const mla_params &p, const wg_state_t<NK> &st, int tok, int split,
                            const float (&lsum)[NK], const float (&mul)[NK], int h0 = 0)
{
#pragma unroll
    for (int k = 0; k < NK; k++) {
        float lse = -INFINITY;
        if (lsum[k] > 0.f)
            lse = FAST ? st.m[k] + log2f(lsum[k]) : (st.m[k] + logf(lsum[k])) * MLA_LOG2E;
        p.part_lse[((size_t)tok * p.splits + split) * MLA_H + h0 + wg_head(k)] = lse;
        p.part_mul[((size_t)tok * p.splits + split) * MLA_H + h0 + wg_head(k)] = mul[k];
    }
}

/* a head's 1 / l (0 for a head that saw no rows), and x / l by it: x rl
 * (FAST) or correctly rounded (mlab_div_rcp) */
template <bool FAST> MLAB_DEV float wg_rcp_l(float l)
{
    return l > 0.f ? (FAST ? mlab_rcp_fast(l) : mlab_rcp_rn(l)) : 0.f;
}
template <bool FAST> MLAB_DEV float wg_div_l(float x, float l, float rl)
{
    return FAST ? x * rl : mlab_div_rcp(x, l, rl);
}

/* the end of consumer 0 (the merged state), both epilogues' first step: the
 * row sums over the warpgroup (red: 16 heads x 4 warps, barrier bar,
 * WG_BAR_CONS(0)) of this thread's NK heads, and their reciprocals (warp:
 * the consumer's warp, g: (threadIdx.x & 31) / 4, the caller's). HM (a bf16
 * partial's multiplier, wg_epilogue16): also each head's largest of the
 * thread's values mx over the warpgroup into hm, exchanged through red + 64
 * on the same barrier (a second exchange and barrier cost the short calls
 * ~0.1 us, v33) */
template <bool FAST, int NK = 4, bool HM = false>
MLAB_DEV void wg_row_sums(const wg_state_t<NK> &st, float *red, float (&lsum)[NK], float (&rl)[NK], int warp, int g,
                          int bar = WG_BAR_CONS(0), const float *mx = nullptr, float *hm = nullptr)
{
#pragma unroll
    for (int k = 0; k < NK; k++) {
        float l = st.l[k];
        l += __shfl_xor_sync(0xffffffffu, l, 4);
        l += __shfl_xor_sync(0xffffffffu, l, 8);
        l += __shfl_xor_sync(0xffffffffu, l, 16);
        if (g == 0) red[4 * wg_head(k) + warp] = l;
        if constexpr (HM) {
            float m = mx[k];
            m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 4));
            m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 8));
            m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 16));
            if (g == 0) red[64 + 4 * wg_head(k) + warp] = m;
        }
    }
    wg_bar_sync(bar, 128);
#pragma unroll
    for (int k = 0; k < NK; k++) {
        const float4 w4 = *(const float4 *)(red + 4 * wg_head(k));
        lsum[k] = (w4.x + w4.y) + (w4.z + w4.w);
        rl[k] = wg_rcp_l<FAST>(lsum[k]);
        if constexpr (HM) {
            const float4 m4 = *(const float4 *)(red + 64 + 4 * wg_head(k));
            hm[k] = fmaxf(fmaxf(m4.x, m4.y), fmaxf(m4.z, m4.w));
        }
    }
}

/* O / l of accumulator e of m-tile mt (head k = 2 (e >> 2) + (e & 1) of the thread's NK) */
template <bool FAST, int NK = 4>
MLAB_DEV float wg_out(const wg_state_t<NK> &st, int mt, int e, float vscale, const float (&lsum)[NK],
                      const float (&rl)[NK])
{
    const int k = 2 * (e >> 2) + (e & 1);
    const float x = st.o[mt][e] * vscale;
    return wg_div_l<FAST>(x, lsum[k], rl[k]); /* = x / l */
}

/* the epilogues' stores from the accumulators: MT m-tiles, each pair of
 * adjacent dims 2g, 2g + 1 of the thread's head k (accumulators e, e + 2)
 * as one 4-byte store (a warp's: 4 heads x 32 bytes, whole sectors); d: the
 * row's base plus the thread's first head, its dims offset, warp and g;
 * out(mt, e): the value of accumulator e of m-tile mt; pack: two floats to
 * the output's pair */
template <int MT, typename Out, typename Pack> MLAB_DEV void wg_store_o(uint16_t *d, Out out, Pack pack)
{
#pragma unroll
    for (int mt = 0; mt < MT; mt++)
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int e = wg_e(k, 0);
            *(uint32_t *)(d + (wg_head(k) - wg_head(0)) * MLA_DV + 64 * mt) = pack(out(mt, e), out(mt, e + 2));
        }
}

/* The end of consumer 0: O / l as bf16 (the row's splits S == 1) or f16
 * partials in units of kv_scale + log2-sum-exp2 (at row stride p.splits, the
 * largest S of a plan); each pair of adjacent dims of a head stored from the
 * accumulators (a warp's store: 4 heads x 32 bytes, whole sectors). The
 * kind and the row are chosen once, not per element: chosen per element
 * (each conversion behind a branch, each address rebuilt) the epilogue ran
 * ~1450 SASS instructions on 4 warps, one a scheduler (v25); once, fp8_wgmma
 * 4 x 1024 -11..-16% on the H200 (perf-notes v26; mla_kernel.h's
 * decode_epilogue learned the same at v14) */
template <bool FAST>
MLAB_DEV void wg_epilogue(const mla_params &p, const wg_state &st, const wg_unit &u, float kvs, float *red)
{
    const int warp = threadIdx.x / 32, g = (threadIdx.x & 31) >> 2;
    float lsum[4], rl[4];
    wg_row_sums<FAST>(st, red, lsum, rl, warp, g);
    auto store = [&](uint16_t *row, float vscale, auto pack) {
        wg_store_o<MLA_DV / 64>(row + wg_head(0) * MLA_DV + 16 * warp + 2 * g,
                                [&](int mt, int e) { return wg_out<FAST>(st, mt, e, vscale, lsum, rl); }, pack);
    };
    if (u.S == 1) {
        store(p.out + (size_t)u.tok * MLA_H * MLA_DV, kvs, mlab_f32x2_to_bf16x2);
    } else { /* f16 partials: kv scale units (the combine applies it) */
        store(p.part_o + ((size_t)u.tok * p.splits + u.split) * MLA_H * MLA_DV, 1.f, mlab_f32x2_to_f16x2);
        if (warp == 0 && g == 0) {
            const float mul[4] = {kvs, kvs, kvs, kvs};
            wg_part_stats<FAST>(p, st, u.tok, u.split, lsum, mul);
        }
    }
}

/* wg_epilogue for M32 (the MXFP4 wgmma decodes' MTP unit, consumer 0 with the
 * merged state): slots k < 4 are the item's first query row (u.tok - 1),
 * 4 .. 7 its second (u.tok), each row stored as wg_epilogue stores one */
template <bool FAST>
MLAB_DEV void wg_epilogue32(const mla_params &p, const wg_state_t<8> &st, const wg_unit &u, float kvs, float *red)
{
    const int warp = threadIdx.x / 32, g = (threadIdx.x & 31) >> 2;
    float lsum[8], rl[8];
    wg_row_sums<FAST, 8>(st, red, lsum, rl, warp, g);
#pragma unroll
    for (int r = 0; r < 2; r++) {
        const int tok = u.tok - 1 + r;
        auto store = [&](uint16_t *row, float vscale, auto pack) {
            wg_store_o<MLA_DV / 64>(row + wg_head(0) * MLA_DV + 16 * warp + 2 * g,
                                    [&](int mt, int e) { return wg_out<FAST, 8>(st, mt, e + 8 * r, vscale, lsum, rl); },
                                    pack);
        };
        if (u.S == 1) {
            store(p.out + (size_t)tok * MLA_H * MLA_DV, kvs, mlab_f32x2_to_bf16x2);
        } else { /* f16 partials: kv scale units (the combine applies it) */
            store(p.part_o + ((size_t)tok * p.splits + u.split) * MLA_H * MLA_DV, 1.f, mlab_f32x2_to_f16x2);
            if (warp == 0 && g == 0)
#pragma unroll
                for (int k = 4 * r; k < 4 * r + 4; k++) {
                    float lse = -INFINITY;
                    if (lsum[k] > 0.f)
                        lse = FAST ? st.m[k] + log2f(lsum[k]) : (st.m[k] + logf(lsum[k])) * MLA_LOG2E;
                    const size_t at = ((size_t)tok * p.splits + u.split) * MLA_H + wg_head(k) - 16 * r;
                    p.part_lse[at] = lse;
                    p.part_mul[at] = kvs;
                }
        }
    }
}

/* the sums of the thread's 4 heads (wg_head(k), k = 2 j + e) and their
 * reciprocals when consumer c holds O^T of all 16 heads but the running sums
 * of its own 8 (WG_ONE_DV): its own by wg_row_sums, the other consumer's
 * through xs (one barrier of both; xs must be free: read by the other
 * before a barrier both have passed) */
template <bool FAST>
MLAB_DEV void wg_dv_sums(const wg_state_t<2> &st, float *red, float4 *xs, int c, float (&ls2)[2], float (&lsum)[4],
                         float (&rl)[4])
{
    const int t = threadIdx.x & 127, warp = t / 32, g = (t & 31) >> 2;
    float rl2[2];
    wg_row_sums<FAST, 2>(st, red, ls2, rl2, warp, g, WG_BAR_CONS(c));
    xs[c * 128 + t] = make_float4(ls2[0], ls2[1], 0.f, 0.f);
    wg_bar_sync(WG_BAR_MERGE, WG_NCONS * 128);
    const float4 po = xs[(1 - c) * 128 + t];
#pragma unroll
    for (int k = 0; k < 4; k++) { /* the own consumer's head where k >> 1 == c */
        const bool own = (k >> 1) == c;
        lsum[k] = own ? ls2[k & 1] : (k & 1) ? po.y : po.x;
        rl[k] = own ? rl2[k & 1] : wg_rcp_l<FAST>(lsum[k]);
    }
}

/* wg_epilogue for a one-tile unit split between the consumers (WG_ONE_DV):
 * consumer c's O^T holds the dims of m-tiles 4c .. 4c + 3 of all 16 heads,
 * its state its own 8 heads' max and sums; each stores its dims and its own
 * heads' log2-sum-exp2 */
template <bool FAST>
MLAB_DEV void wg_epilogue_dv(const mla_params &p, const wg_state_t<2> &st, const float (&o)[MLA_DV / 128][8],
                             const wg_unit &u, float kvs, const float (&ls2)[2], const float (&lsum)[4],
                             const float (&rl)[4], int c)
{
    const int t = threadIdx.x & 127, warp = t / 32, g = (t & 31) >> 2;
    auto out = [&](int mt, int e, float vscale) {
        const int k = 2 * (e >> 2) + (e & 1);
        return wg_div_l<FAST>(o[mt][e] * vscale, lsum[k], rl[k]);
    };
    auto store = [&](uint16_t *row, float vscale, auto pack) {
        wg_store_o<MLA_DV / 128>(row + wg_head(0) * MLA_DV + 256 * c + 16 * warp + 2 * g,
                                 [&](int mt, int e) { return out(mt, e, vscale); }, pack);
    };
    if (u.S == 1) {
        store(p.out + (size_t)u.tok * MLA_H * MLA_DV, kvs, mlab_f32x2_to_bf16x2);
    } else { /* f16 partials: kv scale units (the combine applies it) */
        store(p.part_o + ((size_t)u.tok * p.splits + u.split) * MLA_H * MLA_DV, 1.f, mlab_f32x2_to_f16x2);
        if (warp == 0 && g == 0) {
            const float mul[2] = {kvs, kvs};
            wg_part_stats<FAST, 2>(p, st, u.tok, u.split, ls2, mul, 8 * c);
        }
    }
}

/* the same for bf16 (B16): accumulator rows are dims in order (g, g + 8), so
 * the outputs are staged in shared memory (stg: 16 rows of WG_SROW16 16-bit
 * elements, free by then) and written out 16 bytes a thread, the block's
 * 16 x 512 outputs being contiguous in both kinds (from the accumulators a
 * store would be 2 bytes: the epilogue then took ~1800 cycles more than
 * fp8_wgmma's); a partial is O / l times 2^-k, k from the head's largest
 * |O / l| (red + 64: the warps' maxima), its multiplier 2^k, as
 * mla_kernel.h's bf16 partials. The kind chosen once, as wg_epilogue's.
 * NK = 2 (the head split): consumer c's 8 heads (8c ..), its red and barrier
 * bar, its rows of stg, its outputs. MTP (NK = 4, mla_decode_wg's MTP
 * branch): consumer c's 16 columns are the heads 8c .. 8c + 7 of the item's
 * two query rows, each row's staged and stored in turn */
template <bool FAST, int NK = 4, bool MTP = false>
MLAB_DEV void wg_epilogue16(const mla_params &p, const wg_state_t<NK> &st, const wg_unit &u, float *red, uint16_t *stg,
                            int c = 0, int bar = WG_BAR_CONS(0))
{
    static_assert(!MTP || NK == 4, "MTP: the consumer's 8 heads of two query rows");
    const int warp = threadIdx.x / 32 - 4 * c, g = (threadIdx.x & 31) >> 2, h0 = 8 * c;
    float lsum[NK], rl[NK];
    float pdiv[NK], pmul[NK];
#pragma unroll
    for (int k = 0; k < NK; k++) pdiv[k] = pmul[k] = 1.f;
    if (u.S > 1) { /* the head's largest |O| with the sums (one exchange), times 1 / l: the largest
                    * |O| / l, whose exponent is the multiplier's (fl(x rl) rises with x, so it is
                    * the largest of the products, which v32 exchanged after the sums) */
        float mx[NK], hm[NK];
#pragma unroll
        for (int k = 0; k < NK; k++) {
            float m = 0.f;
#pragma unroll
            for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
                for (int h = 0; h < 2; h++) m = fmaxf(m, fabsf(st.o[mt][wg_e(k, h)]));
            mx[k] = m;
        }
        wg_row_sums<FAST, NK, true>(st, red, lsum, rl, warp, g, bar, mx, hm);
#pragma unroll
        for (int k = 0; k < NK; k++) {
            const int e = part_exp(__float_as_uint(hm[k] * rl[k]));
            pdiv[k] = pow2f_exact(-e);
            pmul[k] = pow2f_exact(e);
        }
    } else {
        wg_row_sums<FAST, NK>(st, red, lsum, rl, warp, g, bar);
    }
    if constexpr (MTP) { /* columns k < 2 of a thread row u.tok - 1, else row u.tok: each row's 8
                          * heads staged in the consumer's 8 rows of stg and written out in turn */
        const int t = threadIdx.x & 127;
#pragma unroll
        for (int r = 0; r < 2; r++) { /* query row u.tok - 1 + r: the thread's columns k = 2 r, 2 r + 1 */
            const int tok = u.tok - 1 + r;
            auto stage = [&](auto pack) {
#pragma unroll
                for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
                    for (int k = 2 * r; k < 2 * r + 2; k++) {
                        const int e = wg_e(k, 0);
                        const uint32_t bits = pack(wg_out<FAST, 4>(st, mt, e, 1.f, lsum, rl) * pdiv[k],
                                                   wg_out<FAST, 4>(st, mt, e + 2, 1.f, lsum, rl) * pdiv[k]);
                        uint16_t *const d = stg + (h0 + (wg_head(k) & 7)) * WG_SROW16 + 64 * mt + 16 * warp + g;
                        d[0] = (uint16_t)bits;
                        d[8] = (uint16_t)(bits >> 16);
                    }
            };
            if (r) wg_bar_sync(bar, 128); /* row 0's stores out of stg before row 1's staging */
            if (u.S == 1)
                stage(mlab_f32x2_to_bf16x2);
            else
                stage(mlab_f32x2_to_f16x2);
            wg_bar_sync(bar, 128);
            uint16_t *const base = (u.S == 1 ? p.out + (size_t)tok * MLA_H * MLA_DV
                                             : p.part_o + ((size_t)tok * p.splits + u.split) * MLA_H * MLA_DV) +
                                   h0 * MLA_DV;
            const uint16_t *const sb = stg + h0 * WG_SROW16;
#pragma unroll
            for (int q = t; q < 8 * MLA_DV / 8; q += 128) { /* the consumer's 8 heads of the row */
                const int hd = q / (MLA_DV / 8), j = q % (MLA_DV / 8);
                *(uint4 *)(base + hd * MLA_DV + 8 * j) = *(const uint4 *)(sb + hd * WG_SROW16 + 8 * j);
            }
        }
        if (u.S > 1 && warp == 0 && g == 0)
#pragma unroll
            for (int k = 0; k < 4; k++) { /* each column's log2-sum-exp2 and multiplier, at its row and head */
                float lse = -INFINITY;
                if (lsum[k] > 0.f)
                    lse = FAST ? st.m[k] + log2f(lsum[k]) : (st.m[k] + logf(lsum[k])) * MLA_LOG2E;
                const size_t at = ((size_t)(u.tok - 1 + (k >> 1)) * p.splits + u.split) * MLA_H + h0 + (wg_head(k) & 7);
                p.part_lse[at] = lse;
                p.part_mul[at] = pmul[k];
            }
        return;
    }
    auto stage = [&](auto pack) { /* one conversion a pair: dims g and g + 8 of a head */
#pragma unroll
        for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
            for (int k = 0; k < NK; k++) {
                const int e = wg_e(k, 0);
                const uint32_t bits = pack(wg_out<FAST, NK>(st, mt, e, 1.f, lsum, rl) * pdiv[k],
                                           wg_out<FAST, NK>(st, mt, e + 2, 1.f, lsum, rl) * pdiv[k]);
                uint16_t *const d = stg + (h0 + wg_head(k)) * WG_SROW16 + 64 * mt + 16 * warp + g;
                d[0] = (uint16_t)bits;
                d[8] = (uint16_t)(bits >> 16);
            }
    };
    if (u.S == 1)
        stage(mlab_f32x2_to_bf16x2);
    else
        stage(mlab_f32x2_to_f16x2);
    wg_bar_sync(bar, 128);
    uint16_t *const base = (u.S == 1 ? p.out + (size_t)u.tok * MLA_H * MLA_DV
                                     : p.part_o + ((size_t)u.tok * p.splits + u.split) * MLA_H * MLA_DV) +
                           h0 * MLA_DV;
    const uint16_t *const sb = stg + h0 * WG_SROW16;
    const int t = threadIdx.x & 127;
#pragma unroll
    for (int q = t; q < 4 * NK * MLA_DV / 8; q += 128) { /* the consumer's 4 NK heads */
        const int hd = q / (MLA_DV / 8), j = q % (MLA_DV / 8);
        *(uint4 *)(base + hd * MLA_DV + 8 * j) = *(const uint4 *)(sb + hd * WG_SROW16 + 8 * j);
    }
    if (u.S > 1 && warp == 0 && g == 0) wg_part_stats<FAST, NK>(p, st, u.tok, u.split, lsum, pmul, h0);
}

/* a row's bf16 Q into registers: the layout q_fp8_heads takes (QR) or q_fp8_row's */
template <bool QR> MLAB_DEV void wg_q_load(const mla_params &p, int tok, q_fp8_regs<WG_NCONS * 128> &q)
{
    if constexpr (QR)
        q_fp8_load_heads<WG_NCONS * 128>(p, tok, q, threadIdx.x);
    else
        q_fp8_load<WG_NCONS * 128>(p, tok, q);
}

/* persistent: consumer 1 alone quantizes the next unit's Q (row tok) with
 * the call's scale qs (the amax is of the whole Q: computed by the first
 * unit) into sq */
MLAB_DEV void wg_q_next(const mla_params &p, int tok, float qs, uint8_t *sq)
{
    const int t = threadIdx.x & 127;
    q_fp8_regs<128> q;
    q_fp8_load<128>(p, tok, q, t);
    q_fp8_store<128>(p, q, qs, [&](int h, int k, uint2 codes) { *wg_q_chunk(sq, h, k) = codes; }, t);
}

/* the same with per-head scales (QR): consumer 1's 128 threads, each warp
 * 4 heads, leave the heads' scales in hs (q_fp8_heads) */
MLAB_DEV void wg_q_next_heads(const mla_params &p, int tok, uint8_t *sq, float *hs)
{
    const int t = threadIdx.x & 127;
    q_fp8_regs<128> q;
    q_fp8_load_heads<128>(p, tok, q, t);
    q_fp8_heads<128>(p, q, hs, [&](int h, int k, uint2 codes) { *wg_q_chunk(sq, h, k) = codes; }, t);
}

/* row tok's bf16 Q as it is into sq by cp.async (one group), issued by the
 * two consumer warpgroups (threads 0 .. 255) at the kernel's start in memory
 * order, waited for before the first tile (wg_q16_ready); the layout is the
 * B operand of step 1, K-major in the 128-byte swizzle of the tiles' panels
 * (mlab_sw128_q: 9 panels of 16 heads x 128 bytes; descriptor wg_q16_desc):
 * a warp copies 32 consecutive chunks as Q lies in memory (512 contiguous
 * bytes), and each quarter warp's 8 chunks of a head land in one 128-byte
 * row, conflict-free. Until v24 the chunks went through registers into
 * 16-byte columns (chunk j of head h at 256 j + 16 h), stores 8-way
 * conflicted (ncu, perf-notes v23); stored heads inside instead, the loads
 * strided and every short call 2-8% slower (v24, WG_Q_HI) */
MLAB_DEV void wg_q16_issue(const mla_params &p, int tok, uint8_t *sq)
{
    const uint16_t *qg = p.q + (size_t)tok * MLA_H * MLA_D;
#pragma unroll
    for (int c = threadIdx.x; c < MLA_H * MLA_D / 8; c += WG_NCONS * 128)
        mlab_cp16(sq + mlab_sw128_q(c / (MLA_D / 8), c % (MLA_D / 8)), qg + 8 * c, 1);
    mlab_cp_commit();
}
/* the consumers' Q of wg_q16_issue landed and visible to wgmma (then WG_BAR_Q) */
MLAB_DEV void wg_q16_ready(void)
{
    mlab_cp_wait<0>();
    wg_fence_smem();
}

/* unit b of the call (wg_unit) */
MLAB_DEV wg_unit wg_unit_of(const mla_params &p, unsigned b)
{
    wg_unit u;
    u.tok = b / p.splits;
    u.split = b % p.splits;
    u.S = p.splits;
    if (p.blk_work) {
        const int2 w = ((const int2 *)p.blk_work)[b];
        u.tok = w.x;
        u.split = w.y;
        u.S = p.row_splits[u.tok];
    }
    const int2 kvr = ((const int2 *)p.tok_kv)[u.tok]; /* first buffer row, visible rows (mla_params.h) */
    const int vis = kvr.y;
    u.first = kvr.x;
    const int ntiles = (vis + MLA_BN - 1) / MLA_BN;
    const int per = (ntiles + u.S - 1) / u.S;
    u.t0 = min(u.split * per, ntiles);
    u.n = min(u.t0 + per, ntiles) - u.t0;
    u.rend = vis + (p.fault == 1 && vis > 0 ? 1 : 0); /* negative control: one row too many */
    return u;
}

/* the producer: tile i is signalled full once it has landed; then tile
 * i + WG_LAG is loaded into the stage tile i - 1 leaves, once its consumer
 * has signalled it empty (tiles 0 .. WG_LAG - 1 were issued by the prologue) */
#if WG_TMAP
/* the producer with tensor copies: tile li goes into stage li % WG_NSTAGE once
 * the tile before it there (li - WG_NSTAGE) has been signalled empty; the
 * consumers wait on the stage's mbarrier, not on a "full" barrier */
template <bool B16 = false>
MLAB_DEV void wg_produce_sw(const mla_params &p, uint8_t *stages, uint64_t *bars, int first, int t0, int n, int rend,
                            int g0 = 0)
{
    typedef wg_cfg_t<false, B16> C;
    for (int li = 0; li < n; li++) { /* g: the block's tile count (a persistent block's units in turn) */
        const int g = g0 + li;
        if (g >= C::NST) wg_bar_sync(WG_BAR_EMPTY(g % C::NST), C::EMPTY_N);
        else if (WG_GATE_LAND && g >= WG_GATE_LAND && (threadIdx.x & 127) == 0)
            mlab_bulk_wait(bars + (C::GM - 1) * C::NST + (g - WG_GATE_LAND), 0); /* the first fills in landing order */
        wg_load_tile_sw<B16, C::GM>(p, stages + (g % C::NST) * C::TILE, bars + g % C::NST, first, (t0 + li) * MLA_BN,
                                    rend, C::NST);
        /* -DMLAB_TRACE: the producer's lane 32 records when the block's first
         * tile has landed (every gate), after its own arrival on the stage's 128-arrival
         * mbarrier (waiting before it, the tile could never complete) */
        MLAB_TR(if (g == 0 && (threadIdx.x & 127) == 32 && p.trace) {
            for (int j = 0; j < C::GM; j++) mlab_bulk_wait(bars + j * C::NST, 0);
            p.trace[MLAB_TR_ISSUE + 2 * blockIdx.x + 1] = mlab_gtime();
        })
    }
}
#endif
MLAB_DEV void wg_produce(const mla_params &p, uint8_t *stages, int first, int t0, int n, int rend)
{
    for (int i = 0; i < n; i++) {
        mlab_cp_wait<WG_LAG - 1>(); /* groups 0 .. i have landed */
        wg_fence_smem();
        wg_bar_arrive(WG_BAR_FULL(i % WG_NSTAGE), 256);
        const int li = i + WG_LAG;
        if (li < n) {
            if (li >= WG_NSTAGE) wg_bar_sync(WG_BAR_EMPTY(li % WG_NSTAGE), 256);
            wg_load_tile(p, stages + (li % WG_NSTAGE) * WG_TILE, first, (t0 + li) * MLA_BN, rend);
        }
        mlab_cp_commit();
    }
    mlab_cp_wait<0>();
}

/* MX: a producer thread's items KB .. KE - 1 of a tile (item k: its row's
 * block h + 2k, panel k; src, ssc: its raw bytes and scales, d0, d1: its
 * codes' offsets in dst) into e4m3 codes: every load of WG_MX_KB items
 * first, then their codes (the stores might alias the loads). Rows past the
 * unit's end are converted too, without a branch, from whatever the raw
 * stage holds there (an earlier tile's rows, the scale window's neighbours,
 * shared memory never written): every code a table gives is finite (built
 * with satfinite: never 0x7f / 0xff, also for E8M0 0xff), and the softmax
 * masks those rows to P = 0 (wg_softmax), so P x V adds 0. A branch an item
 * kept ptxas from interleaving the items (408 -> 359 us at 256x8192 on the
 * H200, v17); a zero table for those rows (a compare and two selects an
 * item) cost mxfp4_wgmma 1.9-2.0% and mxfp4_wgmma_qrow 1.3-1.5% by geomean
 * (perf-notes v40). Both of wg_produce_mx's paths call it (until v40 the
 * tile loop had its own copy, for v35's SASS: through the function -0.2 /
 * -0.2% and +0.1 / -0.3%, the same) */
template <int KB, int KE>
MLAB_DEV void wg_mx_convert(const uint8_t *src, const uint8_t *ssc, uint8_t *dst, int d0, int d1, const uint2 *lut)
{
#pragma unroll
    for (int k0 = KB; k0 < KE; k0 += WG_MX_KB) { /* WG_MX_KB items at once (registers) */
        uint4 pk[WG_MX_KB];
        uint2 tb[WG_MX_KB];
#pragma unroll
        for (int j = 0; j < WG_MX_KB; j++)
            if (k0 + j < KE) {
                pk[j] = *(const uint4 *)(src + 32 * (k0 + j));
                tb[j] = lut[ssc[2 * (k0 + j)]];
            }
#pragma unroll
        for (int j = 0; j < WG_MX_KB; j++)
            if (k0 + j < KE) {
                uint4 c0, c1;
                e4m3_block(tb[j], (const uint8_t *)&pk[j], &c0, &c1);
                *(uint4 *)(dst + d0 + (k0 + j) * WG_OFF4) = c0;
                *(uint4 *)(dst + d1 + (k0 + j) * WG_OFF4) = c1;
            }
    }
}

/* MX (mxfp4_wgmma): WG_NPROD_MX producer warpgroups (q = 0, 1: tiles i with
 * i % 2 == q, so producer q feeds consumer q) stream raw MXFP4 tiles (one
 * bulk copy of the tile's E2M1 rows, from a thread 0, counted on the raw
 * stage's mbarrier; WG_NRAW tiles ahead, one ring for both) and turn each
 * into the e4m3 stage its consumer reads, in the layout of the fp8 tiles
 * (wg_off), every code an E2M1 value times its block's 2^(e - 127) exactly
 * (the runner sends calls whose scales e4m3 cannot hold to mxfp4's exact
 * path, mx_e4m3_ok): a (row, block of 32) is one table read by its E8M0 byte (lut: e4m3 codes of
 * the 8 magnitudes, built once a block) and two byte permutes a word of 8
 * nibbles (mla_kernel.h e4m3_block, as e4m3_tile); rows past rend are
 * converted from whatever the raw stage holds (wg_mx_convert). A tile's
 * 1152 E8M0 bytes come with its rows: a second bulk copy of the
 * 16-byte-aligned window around them into the raw stage (runner.hip's
 * buffers end 256 bytes past their data, dev_alloc). The stage is then made
 * visible to wgmma (proxy fence) and each thread arrives on its mbarrier (128
 * a phase); once the warpgroup is past its reads of the raw stage, its
 * thread 0 reissues it (tile li + WG_NRAW, the other producer's). Measured on
 * the H200 at 256x8192 (perf-notes v17): one producer warpgroup, a branch an
 * item 408 us; without the branch 356; offsets as bases plus constants and
 * the sign word by one shift 330; two producers 304 (fp8_wgmma 319).
 * Reissuing the raw stage before the codes are computed was slower (v16: 422
 * against 405). -DMLAB_WG_PROF: producer 0's thread 0's cycles a tile of its
 * own waiting for raw tiles, for empty stages, converting (loads, codes,
 * stores), and syncing to reissue ("TP" trace lines). SPLIT1 (WG_MX_SPLIT1):
 * a one-tile block's tile (ONE_DV's unit) is converted by both producers,
 * producer q its panels of gate q (items 0 .. 4, 5 .. 8), each arriving on
 * its gate (gate 1: bars[WG_NSTAGE]) */
template <bool SPLIT1>
MLAB_DEV void wg_produce_mx(const mla_params &p, uint8_t *stages, uint64_t *bars, uint8_t *raw, uint64_t *rbars,
                            const uint2 *lut, int first, int t0, int n, int rend, int q)
{
    constexpr int PAIRS = MLA_BN * MLA_NBLK, SCN = PAIRS / 128; /* (row, block) pairs of a tile */
    static_assert(PAIRS % 128 == 0, "whole pairs a producer thread");
    const int t = threadIdx.x & 127;
    WG_PROF(long long pc[4] = {0, 0, 0, 0}, pt = clock64();
            auto lap = [&](int k) { long long x = clock64(); pc[k] += x - pt; pt = x; };)
    /* tile li's scales: the window from byte e0 & ~15 of the scales' buffer */
    auto sc_at = [&](int li) { return (size_t)(first + (t0 + li) * MLA_BN) * MLA_NBLK; };
    auto issue = [&](int li) { /* thread 0: raw tile li (rows, scales) into raw stage li % WG_NRAW */
        const int r0 = (t0 + li) * MLA_BN, nok = min(MLA_BN, rend - r0);
        const size_t e0 = sc_at(li), w0 = e0 & ~(size_t)15, w1 = (e0 + nok * MLA_NBLK + 15) & ~(size_t)15;
        uint64_t *rb = rbars + li % WG_NRAW;
        uint8_t *dst = raw + (li % WG_NRAW) * WG_RAW;
        mlab_bulk_fence(); /* the warpgroup's reads of this raw stage (ordered by WG_BAR_PROD) before the copy */
        mlab_bulk_expect(rb, (uint32_t)(nok * MLA_FP4_ROW + (w1 - w0)));
        mlab_bulk_copy(dst, p.kv_fp4 + (size_t)(first + r0) * MLA_FP4_ROW, (uint32_t)(nok * MLA_FP4_ROW), rb, p.kv_ef);
        mlab_bulk_copy(dst + WG_RAW_FP4, p.kv_e8m0 + w0, (uint32_t)(w1 - w0), rb, p.kv_ef);
    };
    /* Every item of a thread is one row r, blocks h + 2k (k = 0..8): its
     * offsets are the thread's bases plus constants (block b + 2 is 4 chunks
     * on: WG_OFF4), and a warp's stores are 32 rows of one 16-byte chunk (the
     * swizzle spreads them over the banks; by (row, block) pairs a warp's 18
     * blocks of a row hit 2 of a line's 8 chunk slots: 9-way conflicts).
     * Which row a lane takes, and h, make its raw loads and its stores
     * conflict-free (smem_lanes.h; v23: -3..-5% on the long calls) */
    static_assert(128 % MLA_BN == 0 && 2 * MLA_BN == 128, "a thread's items: one row, every other block");
    int r, h; /* thread t's items: row r, blocks h + 2k (smem_lanes.h); their codes at d0, d1 (item k: + k WG_OFF4) */
    mlab_mx_prod_item(t, &r, &h);
    const int d0 = wg_off(r, 2 * h), d1 = wg_off(r, 2 * h + 1), roff = r * MLA_FP4_ROW + 16 * h, soff = r * MLA_NBLK + h;
    if (t == 0 && q == 0)
        for (int li = 0; li < WG_NRAW && li < n; li++) issue(li);
    /* gate 0 the panels 0 .. 4, gate 1 the rest, as wg_scores' consumers read two gates (p G / 9) */
    static_assert(4 * 2 / 9 == 0 && 5 * 2 / 9 == 1 && SCN == 9, "producer q the items of gate q");
    if (SPLIT1 && n == 1) { /* a one-tile block: producer q the panels of gate q */
        mlab_bulk_wait(rbars, 0);
        WG_PROF(lap(0);)
        const uint8_t *src = raw + roff, *ssc = raw + WG_RAW_FP4 + (sc_at(0) & 15) + soff; /* raw stage 0 */
        if (q == 0)
            wg_mx_convert<0, 5>(src, ssc, stages, d0, d1, lut);
        else
            wg_mx_convert<5, SCN>(src, ssc, stages, d0, d1, lut);
        wg_fence_smem(); /* this thread's codes visible to wgmma */
        mlab_bar_arrive(bars + q * WG_NSTAGE); /* gate q of stage 0 */
        WG_PROF(lap(2);)
    } else {
        for (int li = q; li < n; li += WG_NPROD_MX) {
            const uint8_t *rs = raw + (li % WG_NRAW) * WG_RAW;
            /* the tile's rows, then its 64 x 18 scales */
            const uint8_t *src = rs + roff, *ssc = rs + WG_RAW_FP4 + (sc_at(li) & 15) + soff;
            uint8_t *dst = stages + (li % WG_NSTAGE) * WG_TILE;
            /* two producers: raw stage li % WG_NRAW held tile li - WG_NRAW, read by
             * the other producer, whose thread 0 then issued tile li and arrived on
             * the stage's second mbarrier (rbars[WG_NRAW + stage]); past that, the
             * stage's mbarrier is in tile li's phase (without it the wait below, on
             * a phase's parity, could pass on tile li - 2 WG_NRAW's). The second
             * mbarrier's phases are unambiguous: tile li - 2 WG_NRAW was this
             * producer's, read before, and tile li is read by no one yet */
            if (WG_NPROD_MX > 1 && li >= WG_NRAW)
                mlab_bulk_wait(rbars + WG_NRAW + li % WG_NRAW, (uint32_t)(((li - WG_NRAW) / WG_NRAW) & 1));
            mlab_bulk_wait(rbars + li % WG_NRAW, (uint32_t)((li / WG_NRAW) & 1));
            WG_PROF(lap(0);)
            if (li >= WG_NSTAGE) wg_bar_sync(WG_BAR_EMPTY(li % WG_NSTAGE), 256);
            WG_PROF(lap(1);)
            wg_mx_convert<0, SCN>(src, ssc, dst, d0, d1, lut);
            wg_fence_smem(); /* this thread's codes visible to wgmma */
            mlab_bar_arrive(bars + li % WG_NSTAGE);
            WG_PROF(lap(2);)
            wg_bar_sync(WG_BAR_PROD(q), 128); /* every thread past its reads of raw stage li % WG_NRAW */
            if (t == 0 && li + WG_NRAW < n) {
                issue(li + WG_NRAW);
                if (WG_NPROD_MX > 1) mlab_bar_arrive(rbars + WG_NRAW + li % WG_NRAW); /* read, and reissued */
            }
            WG_PROF(lap(3);)
        }
    }
    WG_PROF(if (t == 0 && q == 0 && p.trace) { /* producer 0's tiles */
        unsigned long long *tp = p.trace + MLAB_TR_WGPROD + 8 * blockIdx.x;
        tp[0] = pc[0]; tp[1] = pc[1]; tp[2] = pc[2]; tp[3] = pc[3]; tp[7] = (n + WG_NPROD_MX - 1) / WG_NPROD_MX + 1;
    })
}
#endif

/* MX: mxfp4_wgmma (variants/mxfp4_wgmma.hip), the same consumers on e4m3
 * tiles the producer converts from MXFP4 (wg_produce_mx), the block scales
 * folded into the codes (so no kv scale: 1). QR: the _qrow variants, Q
 * quantized per (row, head) by the block itself (q_fp8_heads: no amax pass,
 * no grid dependency), each head's score scale its own */
template <bool FAST, bool MX = false, bool B16 = false, bool QR = false, bool ONEU = false, int LT = -1,
          bool MTP = false>
__global__ void __launch_bounds__(MX ? WG_NT_MX : WG_NT, 1) mla_decode_wg(const mla_params p)
{
#if MLAB_HAVE_WGMMA
    typedef wg_cfg_t<MX, B16, QR, ONEU, MTP> C;
    constexpr bool MBAR = WG_TMAP || MX; /* the consumers wait on a stage's mbarrier */
    extern __shared__ __align__(1024) uint8_t smem[]; /* WG_TMAP: swizzled panels */
    uint8_t *sQ = smem + C::OFF_Q, *stages = smem + C::OFF_STAGE;
    uint64_t *bars = (uint64_t *)(smem + C::OFF_BAR); /* WG_TMAP or MX: a stage's mbarrier */
    (void)bars;
    const float kvs = MX || B16 ? 1.f : p.kv_scale; /* MX: the block scales are in the codes */
    /* cons >= WG_NCONS: a producer. Broadcast from lane 0 (CUTLASS's idiom), so that
     * ptxas takes it, and the tile indices, stage addresses and wgmma descriptors
     * derived from it, for warp-uniform: uniform registers, no R2UR a product (H200,
     * perf-notes v39: mxfp4_wgmma -1.2 / -1.5%, fp8_wgmma_qrow -0.7 / -1.2% by geomean;
     * mxfp4_wgmma_qrow, whose producers spilled with it until v40 took their zero
     * table away, since v40 too) */
    const int tid = threadIdx.x, warp = tid / 32, cons = __shfl_sync(0xffffffffu, warp / 4, 0);
    WG_PROF(long long pc[6] = {0, 0, 0, 0, 0, 0}, pt = clock64(), pt0 = pt;
            auto lap = [&](int k) { long long n = clock64(); pc[k] += n - pt; pt = n; };
            /* thread `lead` (0; a head pair's second block: 128, consumer 1's
             * first): the block's phases (a persistent block's units summed) */
            auto prof_out = [&](int tiles, unsigned lead = 0) {
                if (threadIdx.x != lead || !p.trace) return;
                unsigned long long *tw = p.trace + MLAB_TR_WGPROF + 8 * blockIdx.x;
                tw[0] = pc[5]; tw[1] = pc[0]; tw[2] = pc[1]; tw[3] = pc[2];
                tw[4] = pc[3]; tw[5] = pc[4]; tw[6] = pt - pt0; tw[7] = tiles + 1; /* tiles + 1: recorded */
            };)
    /* -DMLAB_TRACE: consumer 0's thread 0 records the block's phases as the
     * mma.sync decode's "TD" line (mla_kernel.h trace_decode): start, its
     * first unit's Q stored, its first tile landed, its last unit's loop end,
     * the block's end */
    MLAB_TR(unsigned long long tr0 = mlab_gtime(), tr1 = 0, tr2 = 0, tr3 = 0;)

    /* the block's (row, split) unit; a persistent block (C::PERSIST) takes
     * units blockIdx.x, + gridDim.x, ... of the call's units */
    /* B16 with mla_params.head_pairs: blocks 2u and 2u + 1 both take unit
     * u, the first its heads 0 .. 7, the second 8 .. 15 (hp; -1: all) */
    const int hp = B16 && p.head_pairs ? (int)(blockIdx.x & 1) : -1;
    const int lead = hp > 0 ? 128 : 0; /* -DMLAB_TRACE, -DMLAB_WG_PROF: the recording thread, a consumer's first */
    (void)lead;
    /* MTP: block b the item b / splits, its split b % splits, as the unit of
     * the item's second (longer) query row 2 (b / splits) + 1 */
    const wg_unit u0 = wg_unit_of(p, MTP ? (2 * (blockIdx.x / p.splits) + 1) * p.splits + blockIdx.x % p.splits
                                         : B16 && p.head_pairs ? blockIdx.x >> 1 : blockIdx.x);
    const int first = u0.first, t0 = u0.t0, n = u0.n, rend = u0.rend;
    MLAB_TR(if (tid == WG_NCONS * 128 && p.trace) p.trace[MLAB_TR_ISSUE + 2 * blockIdx.x] = mlab_gtime_after(first);)
    const int units = C::PERSIST ? (p.blk_work ? p.plan_blocks : p.total_q * p.splits) : (int)blockIdx.x + 1;
    if (B16 && cons < WG_NCONS) { /* bf16 Q: in flight from the start (not persistent: the block's one row) */
        if constexpr (MTP) { /* the item's two rows */
            wg_q16_issue(p, u0.tok - 1, sQ);
            wg_q16_issue(p, u0.tok, sQ + WG_Q16_BYTES);
        } else {
            wg_q16_issue(p, u0.tok, sQ);
        }
    }
    constexpr bool QE = WG_Q_EARLY && QR && !MTP; /* the _qrow decodes' unit-0 Q row loaded here (MTP: M32's below) */
    q_fp8_regs<WG_NCONS * 128> qreg0;
    if (QE && cons < WG_NCONS) wg_q_load<QR>(p, u0.tok, qreg0);
    /* M32: both of the item's rows loaded here at once (v60's trace: loaded and
     * quantized in turn in consume, the block's first tile waited ~3.7 us more
     * than a one-row block's) */
    q_fp8_regs<WG_NCONS * 128> qreg1;
    (void)qreg1;
    if (C::M32 && WG_Q_EARLY && cons < WG_NCONS) {
        wg_q_load<QR>(p, u0.tok - 1, qreg0);
        wg_q_load<QR>(p, u0.tok, qreg1);
    }

    if (MBAR) {
        if (tid == 0) { /* the stages' mbarriers: 128 arrivals a phase (the producer warpgroup) */
#if WG_TMAP
            const void *map = B16 ? p.kv_tmap16 : p.kv_tmap;
            if (!MX && map) mlab_tma_prefetch(map);
#endif
            for (int s = 0; s < C::NST; s++) mlab_bar_init_n(bars + s, 128);
            /* gates 1 ..: thread 0's arrival (tensor copies), every producer thread's (MX) */
            for (int s = C::NST; s < C::NST * C::NG; s++) mlab_bar_init_n(bars + s, MX ? 128 : 1);
            if (MX) /* the raw tiles' (and their reads'): one arrival (thread 0's expect, or arrive) a phase */
                for (int s = 0; s < WG_NRAW * (WG_NPROD_MX > 1 ? 2 : 1); s++)
                    mlab_bar_init_n((uint64_t *)(smem + C::OFF_RBAR) + s, 1);
            mlab_bulk_init_fence();
        }
        if (MX) /* the e4m3 codes of the 8 magnitudes for every E8M0 byte */
            for (int e = tid; e < 256; e += WG_NT_MX) ((uint2 *)(smem + C::OFF_LUT))[e] = e4m3_magnitudes((uint32_t)e);
        __syncthreads();
    }
    if (cons >= WG_NCONS && MX) { /* MX: the producers convert each tile for its consumer */
        wg_regs_dec<WG_REGS_PRODUCER_MX>();
        wg_produce_mx<C::G1 == 2>(p, stages, bars, smem + C::OFF_RAW, (uint64_t *)(smem + C::OFF_RBAR),
                      (const uint2 *)(smem + C::OFF_LUT), first, t0, n, rend, cons - WG_NCONS);
    } else if (!MX && cons == WG_NCONS) { /* the producer warpgroup: the first tiles at once, then the ring */
        wg_regs_dec<WG_REGS_PRODUCER>();
#if WG_TMAP
        wg_produce_sw<B16>(p, stages, bars, first, t0, n, rend);
        if (C::PERSIST)
            for (int b = blockIdx.x + gridDim.x, g0 = n; b < units; b += gridDim.x) { /* the next units */
                const wg_unit u = wg_unit_of(p, b);
                wg_produce_sw<B16>(p, stages, bars, u.first, u.t0, u.n, u.rend, g0);
                g0 += u.n;
            }
#else
#pragma unroll
        for (int i = 0; i < WG_LAG; i++) {
            if (i < n) wg_load_tile(p, stages + i * WG_TILE, first, (t0 + i) * MLA_BN, rend);
            mlab_cp_commit();
        }
        wg_produce(p, stages, first, t0, n, rend);
#endif
    } else if (B16 && hp >= 0 && cons != hp) {
        /* head pairs: the pair's other block takes this consumer's 8 heads,
         * so it reads no tile; it stores its share of Q (issued above) with
         * the other consumer's, then releases each stage with the others
         * once its tile is in (the producer reissues a stage only after that
         * release, so no arrival runs a phase ahead), and ends. It only
         * arrives on WG_BAR_Q (its Q stores performed for the consumer that
         * syncs there): a bar.sync here, at another instruction than that
         * consumer's, is the undefined mix of aligned barriers synccheck
         * reported (harness/gpu_sanitize.sh, perf-notes v69) */
        wg_q16_ready();
        wg_fence_smem();
        wg_bar_arrive(WG_BAR_Q, WG_NCONS * 128);
        for (int i = 0; i < n; i++) {
            mlab_bulk_wait(bars + i % C::NST, (uint32_t)((i / C::NST) & 1));
            wg_bar_arrive(WG_BAR_EMPTY(i % C::NST), C::EMPTY_N);
        }
        mlab_grid_dep_trigger();
    } else {
        if (MX)
            wg_regs_inc<WG_REGS_CONSUMER_MX>();
        else
            wg_regs_inc<WG_REGS_CONSUMER>();
        /* one unit (u, its first tile the block's g0-th, the block's ui-th
         * unit): tile g0 + i is consumer (g0 + i) % 2's, in stage (g0 + i) %
         * WG_NSTAGE. Unit 0's Q is quantized by both consumers (the call's
         * amax known: q_fp8_row); a persistent block's next unit's (row
         * next_tok) by consumer 1 alone into the other Q buffer once it has
         * handed its state over, so it starts that unit's tiles while
         * consumer 0 ends this one (consumer 0 waits on WG_BAR_QNEXT) */
        float qs = 0.f; /* the call's Q scale (unit 0) */
        /* one_dv: WG_ONE_DV's split of a last one-tile unit compiled in (the
         * first call only: a persistent block's later units keep one copy of
         * the code without it) */
        auto consume = [&](const wg_unit &u, int g0, int ui, int next_tok, auto one_dv) {
        uint8_t *sQk = C::PERSIST && (ui & 1) ? smem + C::OFF_Q2 : sQ;
        if (ui == 0) { /* Q (its loads before the amax wait), quantized by the consumers into
                       * the K-major layout of the B operand of step 1 */
            if constexpr (B16) { /* bf16 Q as it is (issued at the kernel's start) */
                wg_q16_ready();
                qs = 1.f;
            } else {
                if constexpr (C::M32) { /* the item's two rows: row r's head h column 16 r + h of the 32 */
                    if (!WG_Q_EARLY) {
                        wg_q_load<QR>(p, u.tok - 1, qreg0);
                        wg_q_load<QR>(p, u.tok, qreg1);
                    }
                    auto store0 = [&](int h, int k, uint2 codes) { *wg_q_chunk32(sQ, h, k) = codes; };
                    auto store1 = [&](int h, int k, uint2 codes) { *wg_q_chunk32(sQ, 16 + h, k) = codes; };
                    if constexpr (QR) { /* each (row, head)'s scale at OFF_QS + 16 r + h */
                        q_fp8_heads<WG_NCONS * 128>(p, qreg0, (float *)(smem + C::OFF_QS), store0, tid);
                        q_fp8_heads<WG_NCONS * 128>(p, qreg1, (float *)(smem + C::OFF_QS) + MLA_H, store1, tid);
                        qs = 1.f;
                    } else { /* per tensor: the call's scale (the amax pass's), both rows */
                        qs = q_fp8_row<WG_NCONS * 128>(p, qreg0, (float *)(smem + C::OFF_QRED), store0,
                                                       [] { wg_bar_sync(WG_BAR_Q, WG_NCONS * 128); });
                        q_fp8_store<WG_NCONS * 128>(p, qreg1, qs, store1, tid);
                    }
                } else {
                if (!QE) wg_q_load<QR>(p, u.tok, qreg0);
                auto store = [&](int h, int k, uint2 codes) { *wg_q_chunk(sQ, h, k) = codes; };
                if constexpr (QR) {
                    q_fp8_heads<WG_NCONS * 128>(p, qreg0, (float *)(smem + C::OFF_QS), store, tid);
                    qs = 1.f;
                } else {
                    qs = q_fp8_row<WG_NCONS * 128>(p, qreg0, (float *)(smem + C::OFF_QRED), store,
                                                   [] { wg_bar_sync(WG_BAR_Q, WG_NCONS * 128); });
                }
                }
            }
            wg_fence_smem();
            wg_bar_sync(WG_BAR_Q, WG_NCONS * 128);
            MLAB_TR(if (tid == lead) tr1 = mlab_gtime();)
        } else if (cons == 0) {
            wg_bar_sync(WG_BAR_QNEXT, WG_NCONS * 128); /* consumer 1 has stored this unit's Q */
        }
        const float sscale = p.sm_scale * qs * kvs * (FAST ? MLA_LOG2E : 1.f);
        /* QR: the score scale of each of this thread's 4 heads, each head's Q
         * scale (this unit's buffer; the negative control qscale: head 0's for
         * all). Else sscale for all: passed as one float, as before QR (an
         * array of four equal values changed mxfp4_wgmma's SASS). M32 reads
         * its 8 columns' scales where it uses them (wg_sc_cols) */
        [[maybe_unused]] constexpr int NKQ = C::M32 ? 8 : 4; /* a thread's columns (M32: 4 of each query row) */
        float sch[4];
        (void)sch;
        if constexpr (QR && !C::M32) {
            const float *qsh = (const float *)(smem + C::OFF_QS) + (C::PERSIST ? (ui & 1) * MLA_H : 0);
#pragma unroll
            for (int k = 0; k < 4; k++) sch[k] = sscale * qsh[p.fault == 3 ? 0 : wg_head(k)];
        }

        WG_PROF(lap(5);)
        if constexpr (C::HS) {
            /* every tile, this consumer's 8 heads (MTP: of both query rows, 16
             * columns, NH = 4 a thread, Q.K's B two 8-row groups of Q one row's
             * buffer apart: the descriptor's stride); it ends them itself */
            constexpr int NH = MTP ? 4 : 2;
            wg_state_t<NH> s8;
            wg_reset(s8);
            uint8_t *sP8 = smem + C::OFF_P + cons * 4 * NH * MLA_BN * 2;
            float *red8 = (float *)(smem + C::OFF_RED) + cons * 128;
            const uint64_t dq8 = wg_desc_sw128(sQk + 1024 * cons, 16, MTP ? WG_Q16_BYTES : 8 * 128), /* heads 8c .. */
                dp8 = wg_desc(sP8, 64 * NH, 128); /* P^T: kv-row chunks of the consumer's columns */
            for (int i = 0; i < u.n; i++) {
                const int g = g0 + i;
                const uint8_t *tile = stages + (g % C::NST) * C::TILE;
                mlab_bulk_wait(bars + g % C::NST, (uint32_t)((g / C::NST) & 1));
                MLAB_TR(if (tid == lead && !tr2) tr2 = mlab_gtime();)
                WG_PROF(lap(0);)
                float s4[2 * NH];
                wg_scores<true, NH, 0, MLA_D / 16, C::GM>(s4, tile, dq8, wg_tile_gates<C::GM>(bars, g, C::NST));
                WG_PROF(lap(1);)
                wg_softmax_loop<FAST, true, NH, LT, float, MTP>(s8, s4, u.t0 + i, u.rend, sscale, red8, sP8,
                                                                WG_BAR_CONS(cons), i == 0, p.fault == 4, i);
                WG_PROF(lap(2);)
                wg_pv16<NH>(s8, tile, dp8);
                wg_bar_arrive(WG_BAR_EMPTY(g % C::NST), C::EMPTY_N);
                WG_PROF(lap(3);)
            }
            MLAB_TR(if (tid == lead) tr3 = mlab_gtime();)
            mlab_grid_dep_trigger(); /* the combine may start launching */
            wg_lazy_end<LT>(WG_BAR_CONS(cons));
            if constexpr (MTP)
                wg_epilogue16<FAST, NH, true>(p, s8, u, red8, (uint16_t *)(smem + C::OFF_STG), cons, WG_BAR_CONS(cons));
            else
                wg_epilogue16<FAST, 2>(p, s8, u, red8, (uint16_t *)(smem + C::OFF_STG), cons, WG_BAR_CONS(cons));
            if (cons == (hp >= 0 ? hp : 0)) {
                MLAB_TR(trace_decode(p, tr0, tr1, tr2, tr3, g0 + u.n, 0, lead);)
                WG_PROF(lap(4); prof_out(g0 + u.n, lead);)
            }
        } else if (decltype(one_dv)::value && C::ONE_DV && u.n == 1 && next_tok < 0) {
            /* the block's last unit is one tile (in stage g0 % NST whichever
             * consumer it would have gone to): consumer c the k-steps 9c ..
             * 9c + 8 of Q.K, the heads 8c .. 8c + 7 of the softmax, the dims
             * of m-tiles 4c .. 4c + 3 of P.V (O starts at zero, so no
             * weights are handed over); the next stage, free (nothing
             * follows), carries the partial scores */
            wg_state_t<2> s2;
            wg_reset(s2);
            float o[MLA_DV / 128][8];
#pragma unroll
            for (int mt = 0; mt < MLA_DV / 128; mt++)
#pragma unroll
                for (int e = 0; e < 8; e++) o[mt][e] = 0.f;
            uint8_t *sP16 = smem + C::OFF_P; /* the 16 heads' P^T, each consumer its 8 */
            float *red2 = (float *)(smem + C::OFF_RED) + cons * 128;
            float4 *xs = (float4 *)(stages + ((g0 + 1) % C::NST) * C::TILE);
            const int t = tid & 127;
            const uint64_t dq = wg_q8_desc(sQk), dp = wg_desc(sP16, 16 * MLA_H, 128);
            const uint8_t *tile = stages + (g0 % C::NST) * C::TILE;
            /* the combine may start launching: as early as consumer 1 let it
             * when it took no tile of such a unit (its blocks then wait for
             * this grid's end on SMs this call leaves idle) */
            mlab_grid_dep_trigger();
            mlab_bulk_wait(bars + g0 % C::NST, (uint32_t)((g0 / C::NST) & 1));
            MLAB_TR(if (tid == 0 && !tr2) tr2 = mlab_gtime();)
            WG_PROF(lap(0);)
            float a8[8]; /* S^T over this consumer's 288 dims, all 16 heads */
            /* consumer 0's k-steps read panels 0 .. 4, its P.V's dims panels 0 .. 3 (WG_LAND_GATES) */
            const wg_gates gt = wg_tile_gates<C::G1>(bars, g0, C::NST);
            /* P.V's V^T fragments (this consumer's 4 m-tiles) loaded while its Q.K runs */
            uint32_t va[MLA_DV / 128][MLA_BN / 32][4];
            if (cons == 0)
                wg_scores<false, 4, 0, MLA_D / 64, C::G1>(a8, tile, dq, gt,
                                                          [&] { wg_pv_frags<MLA_DV / 128, 0>(va, tile); });
            else
                wg_scores<false, 4, MLA_D / 64, MLA_D / 64, C::G1>(
                    a8, tile, dq, gt, [&] { wg_pv_frags<MLA_DV / 128, MLA_DV / 128>(va, tile); });
            xs[cons * 128 + t] = cons ? make_float4(a8[0], a8[1], a8[2], a8[3]) : make_float4(a8[4], a8[5], a8[6], a8[7]);
            wg_bar_sync(WG_BAR_MERGE, WG_NCONS * 128);
            const float4 r = xs[(1 - cons) * 128 + t];
            float s4[4] = {(cons ? a8[4] : a8[0]) + r.x, (cons ? a8[5] : a8[1]) + r.y,
                           (cons ? a8[6] : a8[2]) + r.z, (cons ? a8[7] : a8[3]) + r.w};
            WG_PROF(lap(1);)
            if constexpr (QR) {
                const float *qsh = (const float *)(smem + C::OFF_QS) + (C::PERSIST ? (ui & 1) * MLA_H : 0);
                const float sc2[2] = {sscale * qsh[p.fault == 3 ? 0 : 8 * cons + wg_head(0)],
                                      sscale * qsh[p.fault == 3 ? 0 : 8 * cons + wg_head(1)]};
                wg_softmax<FAST, false, 2, float[2], true>(s2, s4, u.t0, u.rend, sc2, red2, sP16 + 128 * cons,
                                                          WG_BAR_CONS(cons));
            } else {
                wg_softmax<FAST, false, 2, float, true>(s2, s4, u.t0, u.rend, sscale, red2, sP16 + 128 * cons,
                                                        WG_BAR_CONS(cons));
            }
            wg_bar_sync(WG_BAR_MERGE, WG_NCONS * 128); /* both halves of P^T stored and visible to wgmma */
            WG_PROF(lap(2);)
            /* while the products run: the sums (they need no O), through xs,
             * free again: each read the other's scores before the P^T barrier */
            float ls2[2], lsum[4], rl[4];
            wg_pv_run<MLA_DV / 128>(o, va, dp, [&] { wg_dv_sums<FAST>(s2, red2, xs, cons, ls2, lsum, rl); });
            WG_PROF(lap(3);)
            MLAB_TR(if (tid == 0) tr3 = mlab_gtime();)
            wg_epilogue_dv<FAST>(p, s2, o, u, kvs, ls2, lsum, rl, cons);
            if (cons == 0) {
                MLAB_TR(trace_decode(p, tr0, tr1, tr2, tr3, g0 + u.n);)
                WG_PROF(lap(4); prof_out(g0 + u.n);)
            }
        } else { /* M32 (the MXFP4 wgmma decodes' MTP unit): the same with both query rows' 32 columns */
            wg_state_t<NKQ> st;
            wg_reset(st);
            uint8_t *sP = smem + C::OFF_P + cons * MLA_H * MLA_BN * (B16 ? 2 : 1); /* M32: wg_p32 */
            float *red = (float *)(smem + C::OFF_RED) + cons * C::RED_N;
            const uint64_t dq = B16 ? wg_q16_desc(sQk) : C::M32 ? wg_q8_desc32(sQk) : wg_q8_desc(sQk),
                           dp = wg_desc(sP, 16 * MLA_H, 128);
            for (int i = (cons - g0) & 1; i < u.n; i += WG_NCONS) {
                const int g = g0 + i;
                const uint8_t *tile = stages + (g % C::NST) * C::TILE;
                if (MBAR)
                    mlab_bulk_wait(bars + g % C::NST, (uint32_t)((g / C::NST) & 1));
                else
                    wg_bar_sync(WG_BAR_FULL(g % C::NST), 256);
                MLAB_TR(if (tid == 0 && !tr2) tr2 = mlab_gtime();)
                WG_PROF(lap(0);)
                float s[2 * NKQ];
                wg_scores<B16, NKQ, 0, MLA_D / (B16 ? 16 : 32), C::GM>(
                    s, tile, dq, wg_tile_gates<C::GM>(bars, g, C::NST));
                WG_PROF(lap(1);)
                const bool first = i < WG_NCONS; /* this consumer's first tile of the unit */
                if constexpr (C::M32) { /* P^T into the tile's rope panel (wg_p32); QR: column 16 r + h's
                                         * Q scale at OFF_QS + 16 r + h, read where used; per tensor one */
                    const auto sc = [&] {
                        if constexpr (QR)
                            return wg_sc_cols{sscale, (const float *)(smem + C::OFF_QS), p.fault == 3};
                        else
                            return sscale;
                    }();
                    wg_softmax_loop<FAST, B16, 8, LT, std::decay_t<decltype(sc)>, true>(
                        st, s, u.t0 + i, u.rend, sc, red, wg_p32(tile), WG_BAR_CONS(cons), first, p.fault == 4,
                        i / WG_NCONS);
                } else if constexpr (QR)
                    wg_softmax_loop<FAST, B16, 4, LT>(st, s, u.t0 + i, u.rend, sch, red, sP, WG_BAR_CONS(cons), first,
                                                      p.fault == 4, i / WG_NCONS);
                else
                    wg_softmax_loop<FAST, B16, 4, LT>(st, s, u.t0 + i, u.rend, sscale, red, sP, WG_BAR_CONS(cons), first,
                                                      p.fault == 4, i / WG_NCONS);
                WG_PROF(lap(2);)
                if constexpr (B16)
                    wg_pv16(st, tile, dp);
                else if constexpr (C::M32)
                    wg_pv32(st, tile, wg_desc32(wg_p32(tile)));
                else
                    wg_pv(st, tile, dp);
                wg_bar_arrive(WG_BAR_EMPTY(g % C::NST), C::EMPTY_N);
                WG_PROF(lap(3);)
            }
            MLAB_TR(if (tid == 0) tr3 = mlab_gtime();)
            if (next_tok < 0) mlab_grid_dep_trigger(); /* the combine may start launching */
            /* consumer 1 hands its state to consumer 0 over the stages (every tile
             * has landed and been consumed once both passed this barrier; the
             * producer, which ran with fewer registers, has left), or, persistent,
             * over its own buffer (the stages hold the next unit's tiles) */
            float *xs = C::PERSIST ? (float *)(smem + C::OFF_MERGE) : (float *)stages;
            const int t = tid & 127;
            /* solo: consumer 1 took no tile of this unit (a one-tile unit) and no
             * unit follows: nothing to hand over, consumer 0 ends alone (the
             * same for both consumers: u.n, g0 and next_tok are the block's).
             * H200: fp8_wgmma 4 x 1024 -3.7..-5.7% (perf-notes v20; MX then
             * without it, its other calls 0.2..2% slower with it), mxfp4_wgmma
             * 4 x 1024 -7.0 / -4.0% with the lean epilogue, its other calls
             * within 1.3% (v26). Both consumers ending a half each (the
             * hand-over of the other half both ways) measured the same as
             * consumer 0 alone (v26: geomean -0.2 / +0.0%) */
            const bool solo = ((1 - g0) & 1) >= u.n && next_tok < 0;
            if (!solo) {
                wg_bar_sync(WG_BAR_MERGE, WG_NCONS * 128);
                if (cons == 1) {
#pragma unroll
                    for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
                        for (int e = 0; e < 2 * NKQ; e++) xs[(2 * NKQ * mt + e) * 128 + t] = st.o[mt][e];
#pragma unroll
                    for (int k = 0; k < NKQ; k++) {
                        xs[(16 * NKQ + k) * 128 + t] = st.m[k];
                        xs[(17 * NKQ + k) * 128 + t] = st.l[k];
                    }
                }
                wg_bar_sync(WG_BAR_MERGE, WG_NCONS * 128);
            }
            if (C::PERSIST && cons == 1 && next_tok >= 0) { /* the next unit's Q, into the other buffer */
                uint8_t *sqn = (ui & 1) ? sQ : smem + C::OFF_Q2;
                if constexpr (QR) { /* into the heads' buffers of the next unit's parity */
                    const int nb = ((ui + 1) & 1) * MLA_H;
                    wg_q_next_heads(p, next_tok, sqn, (float *)(smem + C::OFF_QS) + nb);
                } else {
                    wg_q_next(p, next_tok, qs, sqn);
                }
                wg_fence_smem();
                wg_bar_sync(WG_BAR_CONS(1), 128);
                wg_bar_arrive(WG_BAR_QNEXT, WG_NCONS * 128);
            }
            if (cons == 0 && !solo) {
                float a0[NKQ], a1[NKQ];
#pragma unroll
                for (int k = 0; k < NKQ; k++) { /* each side's weight: 0 for a side that saw no rows */
                    const float m1 = xs[(16 * NKQ + k) * 128 + t], m = fmaxf(st.m[k], m1);
                    a0[k] = st.m[k] == -INFINITY ? 0.f : mla_exp(st.m[k] - m, FAST);
                    a1[k] = m1 == -INFINITY ? 0.f : mla_exp(m1 - m, FAST);
                    st.m[k] = m;
                    st.l[k] = st.l[k] * a0[k] + xs[(17 * NKQ + k) * 128 + t] * a1[k];
                }
#pragma unroll
                for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
                    for (int e = 0; e < 2 * NKQ; e++) {
                        const int k = 2 * (e >> 2) + (e & 1);
                        st.o[mt][e] = st.o[mt][e] * a0[k] + xs[(2 * NKQ * mt + e) * 128 + t] * a1[k];
                    }
            }
            if (cons == 0) {
                if constexpr (B16)
                    /* the stage consumer 1's state did not pass through (not persistent: B16) */
                    wg_epilogue16<FAST>(p, st, u, (float *)(smem + C::OFF_RED), (uint16_t *)(stages + C::TILE));
                else if constexpr (C::M32)
                    wg_epilogue32<FAST>(p, st, u, kvs, (float *)(smem + C::OFF_RED));
                else
                    wg_epilogue<FAST>(p, st, u, kvs, (float *)(smem + C::OFF_RED));
                MLAB_TR(if (next_tok < 0) trace_decode(p, tr0, tr1, tr2, tr3, g0 + u.n);)
                WG_PROF(lap(4); if (next_tok < 0) prof_out(g0 + u.n);)
            }
        }
        };
        /* the block's units: blockIdx.x, then (persistent) + gridDim.x, ...
         * (the first call apart: its constant g0 and ui keep a one-unit
         * block's tile loop as it was without the loop: +2..6% on one-wave
         * calls with a single call site, perf-notes v18) */
        const int nb1 = blockIdx.x + gridDim.x;
        const wg_unit u1 = C::PERSIST && nb1 < units ? wg_unit_of(p, nb1) : u0;
        consume(u0, 0, 0, C::PERSIST && nb1 < units ? u1.tok : -1, std::true_type());
        if (C::PERSIST && nb1 < units) {
            wg_unit u = u1;
            for (int b = nb1, g0 = n, ui = 1;; ui++) {
                const int nb = b + (int)gridDim.x;
                const bool more = nb < units;
                const wg_unit un = more ? wg_unit_of(p, nb) : u;
                consume(u, g0, ui, more ? un.tok : -1, std::false_type());
                if (!more) break;
                g0 += u.n;
                u = un;
                b = nb;
            }
        }
    }
#endif
}

#endif
