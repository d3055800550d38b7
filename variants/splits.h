/* splits.h: the documented KV split rule (README.md, "Split rule"), in plain
 * C so that the CPU tests pin it; variants/runner.hip calls it. */
#ifndef MLAB_SPLITS_H
#define MLAB_SPLITS_H

#include "../reference/mla_shapes.h" /* mlab_kv_fmt, mlab_kv_row_bytes */

/* W query rows, T 64-row tiles in the longest visible sequence (whatever
 * the variant's tile), sms SMs, bps resident blocks an SM. In units of one
 * 64-row tile's time on one SM, s splits (a power of two, 1 <= s <=
 * min(T, MLA_MAX_SPLITS = 64)) cost
 *   waves(s) * k(s) * (ceil(T / s) + SETUP) / share(k)
 *                               the busiest SM's blocks, each its tiles plus a
 *                               set-up, k of them sharing the SM, which runs
 *                               them share(k) times as fast as one
 *   + (s > 1) * (W s / B + 1)   the merge: a partial per split and row, and
 *                               the combine's launch
 * with B = sms x bps, waves(s) = ceil(W s / B), k(s) = min(bps, ceil(W s /
 * sms)) in a single wave, else bps; share(1) = 1, share(k > 1) = SHARE.
 * The smallest cost wins, ties to fewer splits. SETUP and SHARE are fitted
 * to a sweep of forced split counts 1..64 on six competition calls x six
 * variants on the H200 (papers/perf-notes.md v10); the rule before that
 * (every s, B = sms x bps alone, set-up 4) took 64 splits at 4 x 8192 for
 * the two-block variants, 7-15% slower than the 32 this one takes.
 *
 * dram (the variant's mlab_variant_impl.dram, NULL or bw_pct 0 for most):
 * a decode that saturates the DRAM from bw_pct % of the SMs streaming. Its
 * cost is then taken wave by wave: a wave whose busy SMs outnumber those
 * takes its tiles busy / (sms bw_pct / 100) times slower, the set-up not,
 * so a split that only spreads the tiles over more SMs buys less than the
 * model without it says and still pays the merge. Two more terms, fitted
 * where they help: the first free_bytes of each block of the first wave
 * land at the SM's own pace, unslowed (the requests' latency, not the
 * DRAM's rate, bounds them while its queues fill; tile_bytes, the
 * variant's 64-row tile, mlab_kv_tile_bytes, sets how much of a piece that
 * is), and the merge weighs merge_pct % of the term above (the combine's
 * ~2 us are more of a fast decode's tiles). And a decode that pairs heads
 * (pair_pct > 0; the runner passes 0 where pairs are off) is costed as it
 * runs: where the units fill at most half the SMs (mlab_head_pairs) two
 * blocks a unit, each a tile in pair_pct % of a tile's time, the DRAM's
 * share counting a pair once (both read the same bytes). H200, every power
 * of two forced (s39: 15 shapes, papers/reports/h200-2026-12-04o; s40: 14
 * more, -04q; perf-notes v42, v43):
 *   fp8_wgmma, fp8_wgmma_qrow (36 KB tiles) {56, 36864, 200, 0}: the
 *     fastest count, or one within 1%, on 28 and 27 of 29 shapes (mean
 *     excess 0.2%; v42's {70, 0, 100} 17 and 16, mean 3.3 / 4.7%, 40 x 8192
 *     16 splits 15-23% slower than 2, 72 x 4096 8 splits 17-26% slower than
 *     1; without a share 14 and 13); the miss 2 x 8192 (64, 32 5-6%
 *     faster), and for the _qrow decode 6 x 1536 (8, 16 1.1% faster).
 *   bf16_wgmma (72 KB tiles, head pairs) {78, 0, 100, 70}: all 25 shapes it
 *     ran (v42's {53, 0, 100}, blind to its pairs, 20, mean excess 1.3%:
 *     40 x 12288 2 splits, 16 13% faster; 72 x 4096 unsplit, 8 splits 8%
 *     faster; its 53 % was what took 64 x 1024 unsplit, which the pairs do
 *     now: 128 blocks of 8 heads; without a share 19) */
#define MLAB_SPLIT_SETUP 1.0
#define MLAB_SPLIT_SHARE 1.2
typedef struct mlab_split_dram {
    int bw_pct;     /* % of the SMs whose streaming saturates the DRAM; 0: none (the v10 rule) */
    int free_bytes; /* the first wave's bytes a block that land unslowed (with bw_pct > 0) */
    int merge_pct;  /* the merge's weight, % of the v10 rule's (with bw_pct > 0) */
    int pair_pct;   /* a decode that pairs heads (mlab_variant_impl.head_pairs): a paired block's tile
                       time, % of an unpaired one's; 0: it does not pair (or pairs are off) */
} mlab_split_dram;
/* the Hopper wgmma decodes that stream their tiles by tensor copies (not
 * the MXFP4 ones, which their conversion bounds: any bw >= 60 picks as
 * none on their 7 cases) */
#define MLAB_SPLIT_DRAM_BF16_WGMMA {78, 0, 100, 70}
#define MLAB_SPLIT_DRAM_FP8_WGMMA {56, 36864, 200, 0}
/* Whether a call's KV copies bring their lines into L2 as evict_first
 * (mla_params.kv_ef, MLAB_KV_EVICT=auto): where its KV bytes (kv_rows rows
 * of format fmt) are at most MLAB_KV_EF_L2S times the L2's. The cold
 * protocol's memset leaves L2 full of dirty lines, so every line a call
 * reads first costs a write-back; lines brought in as evict_first replace
 * each other instead, so the write-backs of up to an L2's bytes are saved,
 * but a long stream then turns over few of each set's ways and reads a few
 * percent slower. H100 (perf-notes v51, papers/reports/h100-2026-12-05b,
 * -05c): every call of at most 3.1 L2s of bytes faster (to -12%) or the
 * same, every one of 5.8 or more of bf16 and fp8 slower (+1..+4%), MXFP4
 * (bound by its SMs, not the DRAM) faster to 3.1 L2s and the same at 12.2 */
#define MLAB_KV_EF_L2S 4.0
static inline int mlab_kv_evict_first(double kv_rows, mlab_kv_fmt fmt, double l2_bytes)
{
    return l2_bytes > 0 && kv_rows * mlab_kv_row_bytes(fmt) <= MLAB_KV_EF_L2S * l2_bytes;
}
#define MLAB_MTP_MX_L2S 0.3 /* MXFP4's MTP line, in L2s of KV bytes (mlab_mtp_pays) */
#define MLAB_MTP_FAST_BPC 16.0 /* a fast DRAM: peak bytes an SM clock past this (mlab_mtp_pays) */
#define MLAB_MTP_FAST_BF16_L2S 0.3 /* bf16's MTP line on a fast DRAM, in L2s of KV bytes */
#define MLAB_MTP_FAST_FP8_L2S 1.0  /* fp8's, in L2s of KV bytes (on a slow DRAM: per tensor only) */
/* A GPU's DRAM bytes an SM clock at its peak (2 transfers a memory clock
 * across the bus, over SMs x the SM clock); 0 where a figure is unknown.
 * H100 SXM 12.8 (2619 MHz, 5120 bits, 132 SMs at 1980 MHz), H200 18.4
 * (3201 MHz, 6016 bits: what CUDA reports on it, perf-notes v67; its six
 * stacks' 6144 would give 18.8) */
static inline double mlab_dram_bpc(double mem_clock_mhz, double bus_bits, int sms, double clock_mhz)
{
    if (mem_clock_mhz <= 0 || bus_bits <= 0 || sms <= 0 || clock_mhz <= 0) return 0;
    return 2.0 * mem_clock_mhz * (bus_bits / 8.0) / ((double)sms * clock_mhz);
}
/* Whether a call whose every item has two query rows runs a decode's MTP
 * unit (mla_params.mtp, MLAB_MTP=auto): kv_rows rows of format fmt, Q made
 * fp8 as mlab_variant_impl.q_fp8 says (1 per tensor, 2 per (row, head)), on a GPU
 * of l2_bytes of L2 and dram_bpc (mlab_dram_bpc) DRAM bytes an SM clock.
 * A block a row reads each KV tile once a query row: the second read comes
 * from the L2 while the KV fits a few L2s, and the MTP unit (half as many
 * units, each with twice the products a tile) pays only where that second
 * read costs, which is where the DRAM is fast beside the SMs and the L2
 * (the unit's products are the same everywhere).
 * A slow DRAM (the H100's 12.8): bf16 past MLAB_KV_EF_L2S L2s of KV bytes
 * (perf-notes v59, bf16_wgmma at q_seq_len 2, MTP against a block a row:
 * 8 x 4096 (38 MB of KV) +2.3 / +2.4%, 8 x 8192 (75 MB) +0.5 / +0.9%,
 * 64 x 4096 (302 MB) -2.6 / -3.1%, 64 x 8192 (604 MB) -6.0 / -5.7%; the
 * line v51's, between the two pairs); fp8 with Q per (row, head) (q_fp8 2,
 * the `_qrow` decode) never (v60: fp8_wgmma_qrow's M32 +16.5..+17.0% at 8 x
 * 4096, +7.0% at 64 x 4096, +1.8..+2.0% at 64 x 8192: a block a row cost it
 * nothing there; v73 the same: +7.0..+7.4%, +5.0..+5.2%, +0.4..+1.0%), fp8
 * per tensor (q_fp8 1, fp8_wgmma) past MLAB_MTP_FAST_FP8_L2S L2s as on a
 * fast DRAM: its block a row at 64 x 4096 took 1.32x its q_seq_len 1 time
 * of the same KV (v72, v73: 87.7 against 66.4 us; 72.0 with its KV copies
 * not evict_first) and its M32 69.8 (v73, papers/reports/h100-2026-12-07f,
 * two pairs: 8 x 4096 (0.38 L2s) +3.3 / +4.4%, 8 x 8192 -0.6 / -2.1%,
 * 64 x 4096 -20.4 / -20.8%, 64 x 8192 -2.5 / -2.9%).
 * A fast DRAM (the H200's 18.4; v65, both pairs): bf16 past
 * MLAB_MTP_FAST_BF16_L2S L2s (-8.0..-8.7% at 8 x 4096, 38 MB, 0.6 L2s;
 * -15.0..-15.6% at 8 x 8192, -24.3..-24.5% at 64 x 4096, -29.7..-30.0% at
 * 64 x 8192); fp8 past MLAB_MTP_FAST_FP8_L2S L2s (fp8_wgmma and
 * fp8_wgmma_qrow: +2.9..+5.6% at 8 x 4096 (19 MB), -0.7..+2.1% at 8 x 8192
 * (38 MB), -7.8..-12.1% at 64 x 4096 (151 MB), -15.9..-18.2% at 64 x 8192;
 * their M32 is not persistent, the one-row kernels are).
 * MXFP4 (mxfp4_wgmma, mxfp4_wgmma_qrow, mxfp4_qrow_lazy: mla_wgmma.h's M32
 * unit), either DRAM: past MLAB_MTP_MX_L2S L2s of KV bytes. A block a row
 * converts its item's tiles once a query row, a cost of its SM's issue and
 * shared memory, not of the DRAM; the unit converts them once. H100
 * (perf-notes v60, with both rows' Q loaded at the kernel's start), MTP
 * against a block a row, two pairs: 8 x 4096 (10 MB) +3.8..+5.5%, 8 x 8192
 * (20 MB) -3.5..-5.0%, 64 x 4096 (80 MB) -15.7..-17.5%, 64 x 8192 (160 MB)
 * -21.2..-23.2%: half as many units, each ending two rows, where the split
 * call is short (the per-tensor mxfp4_wgmma, v61: -0.3..+1.7%,
 * -6.6..-8.9%, -17.0..-17.6%, -23.7..-23.9%). The line (0.3 L2s: 15.7 MB on
 * the H100, 18.9 on the H200) lies between the 8-item pairs; the H200's
 * (v65) agree: 8 x 4096 +0.9..+1.4% for mxfp4_qrow_lazy (mxfp4_wgmma
 * -2.9..-5.0%), 8 x 8192 -8.5..-13.2%, the 64-item calls -20..-28%.
 * The lines are fitted on these two GPUs' pairs; an unknown L2 size: never */
static inline int mlab_mtp_pays(double kv_rows, mlab_kv_fmt fmt, int q_fp8, double l2_bytes, double dram_bpc)
{
    if (l2_bytes <= 0) return 0;
    const double l2s = kv_rows * mlab_kv_row_bytes(fmt) / l2_bytes;
    const int fast = dram_bpc > MLAB_MTP_FAST_BPC;
    if (fmt == MLAB_KV_MXFP4) return l2s > MLAB_MTP_MX_L2S;
    if (fmt == MLAB_KV_FP8) return (fast || q_fp8 == 1) && l2s > MLAB_MTP_FAST_FP8_L2S;
    return l2s > (fast ? MLAB_MTP_FAST_BF16_L2S : MLAB_KV_EF_L2S);
}
/* MLAB_MTP=auto (the runner): mlab_mtp_pays' KV line, or a call of more
 * items than half the SMs (items x 2 > sms), whatever its KV. There a block
 * a row makes more one-row units than SMs: the decode runs persistent (132
 * blocks over 256 units at 128 items, each SM two rounds of a row) or in
 * two waves, where the unit's half as many fit one (perf-notes v74, H100,
 * papers/reports/h100-2026-12-07j, MTP off -> on, two pairs: 128 x 512,
 * 1024, 2048 q_seq_len 2 (0.75, 1.5, 3 L2s of fp8 KV; the bf16 line, 4
 * L2s, reached only at 2048): fp8_wgmma -10.8..-24.8%, fp8_wgmma_qrow
 * -7.4..-10.4%, bf16_wgmma -10.6..-14.6%, every pair faster; at 64 items,
 * 128 one-row units in one wave, the unit 7-23% slower at kv 512 and 1024,
 * so the line stays the L2's there). Measured on an H100 only: the H200 has
 * as many SMs, and the waves are the SMs' count, not the DRAM's. The MXFP4
 * decodes' line (0.3 L2s) already takes 128 x 512 (0.38 L2s on an H100); the
 * term moves them only at shorter KV, not measured */
static inline int mlab_mtp_auto(double kv_rows, mlab_kv_fmt fmt, int q_fp8, double l2_bytes, double dram_bpc,
                                int items, int sms)
{
    return (sms > 0 && 2L * items > sms) || mlab_mtp_pays(kv_rows, fmt, q_fp8, l2_bytes, dram_bpc);
}
/* a 64-row tile's bytes in a KV format */
static inline int mlab_kv_tile_bytes(mlab_kv_fmt fmt)
{
    return 64 * mlab_kv_row_bytes(fmt);
}
#ifdef __cplusplus
extern "C" { /* splits.c is C; the runner and the variant files (C++) include this */
#endif
int mlab_choose_splits(int W, int T, int sms, int bps, const mlab_split_dram *dram, int tile_bytes);

/* Ragged batches (rows of different lengths): per-row split counts, planned
 * on the host when the case is loaded (a serving engine plans a decode step
 * once for all its layers), so that every block gets about the same number
 * of tiles: W rows of n[i] 64-row tiles; for each candidate piece size P
 * (the busiest block's tiles, ceil(max n / k) for k = 1..64), row i takes
 * s_i = min(64, max(1, ceil(n_i / P))) splits and the plan costs what
 * mlab_choose_splits' model says of blocks = sum s_i blocks of P tiles
 *   waves * k * (P + SETUP) / share(k) + (any split) * (blocks / B + 1)
 * (with a DRAM share the first term wave by wave and the merge weighed, as there);
 * the cheapest wins, ties to larger pieces (fewer blocks). Writes s[0..W-1]
 * and returns the largest s_i (the partials' row stride); 0 on bad input. */
int mlab_plan_splits(int W, const int *n, int sms, int bps, const mlab_split_dram *dram, int tile_bytes, int *s);

/* A plan's blocks in launch order, as the decode reads them
 * (mla_params.blk_work): (row, split) pairs w[2b], w[2b+1], rows in order,
 * each row's s[row] splits together. With xcds > 1 (fp8_xcd, whose blocks
 * are placed by XCD: xcd_map.h) block b runs on XCD b % xcds, and the table
 * puts there the blocks of the rows that XCD owns (mlab_xcd_of_row, the
 * same XCD as the rows' placed combine), padding pairs (-1, 0) where an XCD
 * has fewer blocks than the busiest. w holds mlab_plan_table_max(W, xcds)
 * pairs. Returns the grid (pairs written); 0 on bad input. */
int mlab_plan_table(int W, const int *s, int xcds, int *w);
int mlab_plan_table_max(int W, int xcds);

/* The bf16 variant's tile choice (variants/bf16.hip, its pick): 32-row tiles
 * (bf16_t32's configuration, two blocks an SM) when the call has at least
 * MLAB_BF16_T32_TILES 64-row tiles an SM (W query rows, T 64-row tiles in
 * the longest visible sequence, sms SMs); 64-row tiles otherwise. Measured
 * on the H200 (papers/perf-notes.md v9): 32-row tiles are 3-8% faster on
 * the four calls of 31 or more tiles an SM, 2-15% slower on the four of 8
 * or fewer; the threshold sits between. */
#define MLAB_BF16_T32_TILES 16
int mlab_bf16_small_tiles(int W, int T, int sms);

/* The combine's blocks a (row, head) (mla_params.combine_chunks): a call
 * of few rows (W) and more than 16 splits S merges each (row, head) in C
 * blocks of 512 / C columns, at most MLAB_COMBINE_SPREAD_BPS (mla_params.h)
 * of them an SM (launch_common.h), so the merge is spread over the SMs as
 * the decode leaves them instead of piling onto the few it left free (H200,
 * 4 x 8192 at 32 splits: the one-block-an-SM decodes 2-5% faster; at 16
 * splits, 4 x 1024, no faster: perf-notes v21). C is the largest of 1, 2, 4,
 * at most max_c (a block keeps a whole warp: 4 with 32 lanes, 2 with 64),
 * with C x W x 16 <= MLAB_COMBINE_SPREAD_BPS x sms (one wave); 1 for S <= 16. */
int mlab_combine_chunks(int W, int S, int sms, int max_c);

/* Whether the plain combine's blocks are capped a few an SM
 * (mla_params.combine_cap; launch_common.h combine_smem): where the decode's
 * grid of `grid` blocks fills at least half the SMs' block slots (sms x bps).
 * Its blocks then land mostly on SMs the decode's blocks leave, up to 16 on
 * each SM freed first; capped, they spread (H200: 32 x 1024 -1..-4% for every
 * decode, 128 blocks on 132 SMs; bf16_wgmma's head pairs at 4 x 1024, 128
 * blocks: +6% uncapped, -1% capped). Where the decode leaves many SMs free
 * (4 x 1024's 64 blocks) capped blocks were slower (+0.3..+5.7%): they land on
 * SMs that ran no decode block, whose shared memory is set up for none (our
 * reading, not measured apart; perf-notes v38). */
int mlab_combine_capped(int grid, int sms, int bps);

/* A unit's heads in two blocks (mla_params.head_pairs; a variant that can,
 * mlab_variant_impl.head_pairs: bf16_wgmma): 1 where the decode's grid of
 * blocks (one a unit) fills at most half the sms SMs, so that both blocks of
 * every pair run at once in one wave; 0 otherwise. A block then computes 8
 * heads, not 16: bf16_wgmma's two consumers each read the whole tile for
 * their 8 heads (N = 8 products), so a tile's products are bound by the SM's
 * shared memory, and a pair halves each SM's share of them (4 x 1024 on the
 * H200: -1.1%, the doubled grid's combine capped by mlab_combine_capped;
 * perf-notes v38). */
int mlab_head_pairs(int grid, int sms);

#ifdef __cplusplus
}
#endif
#endif
