/* test_splits.c: the KV split rule (variants/splits.c) picks what the H200
 * runs measured best (papers/reports/h200-2026-11-30: the "splits" column;
 * the seventh session's sweep of forced split counts, papers/perf-notes.md
 * v10, for 4 x 8192 with two blocks an SM), and stays in its documented range. */
#include <stdio.h>

#include "variants/splits.h"
#include "variants/xcd_map.h"
#include "mlab_check.h" // check, failed, checked

int main(void)
{
    /* (batch, kv_len) of the 8 cases; T = kv_len / 64 tiles; one query row each */
    const int cases[8][2] = {{4, 1024},  {4, 8192},  {32, 1024},  {32, 8192},
                             {64, 1024}, {64, 8192}, {256, 1024}, {256, 8192}};
    /* bf16: 1 block of 175 KB an SM, B = 132; fp8: 2 blocks an SM, B = 264 */
    const int want_bf16[8] = {16, 32, 4, 4, 2, 2, 1, 1};
    const int want_fp8[8] = {16, 32, 4, 8, 4, 4, 1, 1};
    char what[160];
    for (int i = 0; i < 8; i++) {
        int W = cases[i][0], T = cases[i][1] / 64;
        int sb = mlab_choose_splits(W, T, 132, 1, NULL, 0), sf = mlab_choose_splits(W, T, 132, 2, NULL, 0);
        snprintf(what, sizeof what, "%dx%d on 132 SMs, 1 block each: %d splits (measured with %d)",
                 W, cases[i][1], sb, want_bf16[i]);
        check(sb == want_bf16[i], what);
        snprintf(what, sizeof what, "%dx%d on 132 SMs, 2 blocks each: %d splits (measured with %d)",
                 W, cases[i][1], sf, want_fp8[i]);
        check(sf == want_fp8[i], what);
    }
    /* the wgmma decodes that saturate the DRAM from part of the SMs (their
     * DRAM share, splits.h): the fastest forced counts on the H200, one
     * block an SM, every power of two (the s39 sweeps,
     * papers/reports/h200-2026-12-04o: 7 competition cases and 8 more
     * shapes; the s40 sweeps, -04q: 4 more for the fp8 decodes, then 10
     * shapes where the fp8 decodes' new share and v42's disagreed, all
     * three decodes). bf16_wgmma {78, 0, 100, 70} (its head pairs counted)
     * picks the fastest, or one within 1%, on all 25 it ran (4 x 8192's 32
     * within 0.3% of 16); the fp8 decodes {56, 36864, 200, 0} on 28 and 27
     * of 29 (2 x 8192: 64, 32 5-6% faster; 6 x 1536: 8, 16 1.1% faster for
     * fp8_wgmma_qrow, 0.5% for fp8_wgmma) */
    {
        const int sh[29][2] = {{4, 1024},   {4, 8192},   {32, 1024},  {32, 8192},  {64, 1024}, {64, 8192},
                               {256, 1024}, {2, 8192},   {4, 2048},   {8, 1024},   {16, 1024}, {24, 8192},
                               {48, 4096},  {96, 4096},  {32, 512},   {160, 2048}, {160, 3072}, {192, 3072},
                               {20, 16384}, {3, 3072},   {40, 12288}, {48, 512},   {56, 512},  {6, 1536},
                               {72, 4096},  {40, 8192},  {80, 8192},  {64, 2048},  {192, 1024}};
        /* -1: not run (bf16_wgmma on s40's first four) */
        const int want16[29] = {16, 32, 4, 4, 1, 2, 1, 32, 16, 8, 4, 4, 2, 1, 2, 4, 4,
                                2,  32, 16, 16, 1, 1, 8, 8, -1, -1, -1, -1};
        const int want8[29] = {16, 32, 4, 4, 1, 2, 1, 64 /* miss: 32 */, 32, 16, 8, 4, 2, 1, 4, 2, 2, 2, 4, 16,
                               2,  1,  1, 8 /* 16 */, 1, 2, 1, 2, 1};
        const mlab_split_dram d16 = MLAB_SPLIT_DRAM_BF16_WGMMA, d8 = MLAB_SPLIT_DRAM_FP8_WGMMA;
        const int tb16 = mlab_kv_tile_bytes(MLAB_KV_BF16), tb8 = mlab_kv_tile_bytes(MLAB_KV_FP8);
        check(tb16 == 73728 && tb8 == 36864 && mlab_kv_tile_bytes(MLAB_KV_MXFP4) == 64 * 306, "the tiles' bytes");
        for (int i = 0; i < 29; i++) {
            const int W = sh[i][0], T = sh[i][1] / 64;
            const int s16 = mlab_choose_splits(W, T, 132, 1, &d16, tb16), s8 = mlab_choose_splits(W, T, 132, 1, &d8, tb8);
            if (want16[i] > 0) {
                snprintf(what, sizeof what, "%dx%d, 132 SMs, bf16_wgmma's DRAM share: %d splits (want %d)", W,
                         sh[i][1], s16, want16[i]);
                check(s16 == want16[i], what);
            }
            snprintf(what, sizeof what, "%dx%d, 132 SMs, the fp8 wgmma decodes' DRAM share: %d splits (want %d)", W,
                     sh[i][1], s8, want8[i]);
            check(s8 == want8[i], what);
        }
        /* the pairs matter: counted (pair_pct 70), 64 x 1024 runs unsplit
         * (128 blocks of 8 heads), 7% faster than 2 splits; without them
         * (MLAB_PAIRS=off: the runner passes pair_pct 0) the same share
         * splits it */
        const mlab_split_dram d16np = {d16.bw_pct, d16.free_bytes, d16.merge_pct, 0};
        check(mlab_choose_splits(64, 16, 132, 1, &d16, tb16) == 1 && mlab_choose_splits(64, 16, 132, 1, &d16np, tb16) == 2,
              "64x1024: unsplit with the pairs counted, 2 splits without");
        /* the free bytes matter: without them the fp8 decodes take 4 splits
         * at 16 x 1024, 5.9% slower than the 8 measured fastest */
        check(mlab_choose_splits(16, 16, 132, 1, &d8, 0) == 4, "16x1024 without the free bytes: 4 splits, not 8");
    }
    /* a DRAM share only ever takes splits away: never more than without it
     * (a property of these shapes, not a theorem of the per-wave model) */
    for (int W = 1; W <= 600; W += 29)
        for (int T = 1; T <= 300; T += 11)
            for (int bw = 10; bw <= 100; bw += 30)
                for (int form = 0; form < 3; form++) { /* form 2: a pairing decode, against bw 0 with its pairs */
                    const mlab_split_dram d = {bw, form == 1 ? 36864 : 0, form == 1 ? 200 : 100, form == 2 ? 70 : 0},
                                          d0 = {0, 0, 100, d.pair_pct};
                    const int s0 = mlab_choose_splits(W, T, 132, 1, &d0, 0),
                              s1 = mlab_choose_splits(W, T, 132, 1, &d, mlab_kv_tile_bytes(MLAB_KV_FP8));
                    snprintf(what, sizeof what, "W %d T %d share {%d, %d, %d, %d}: %d splits, not more than the %d without",
                             W, T, d.bw_pct, d.free_bytes, d.merge_pct, d.pair_pct, s1, s0);
                    check(s1 <= s0, what);
                }
    check(mlab_choose_splits(10, 1, 132, 1, NULL, 0) == 1, "one tile: no split");
    check(mlab_choose_splits(10, 0, 132, 1, NULL, 0) == 1, "empty sequences: no split");
    check(mlab_choose_splits(1, 10000, 132, 2, NULL, 0) == 64, "one long row: capped at 64 splits");
    for (int W = 1; W <= 600; W += 37)
        for (int T = 1; T <= 300; T += 13) {
            const mlab_split_dram d = MLAB_SPLIT_DRAM_FP8_WGMMA;
            int s = mlab_choose_splits(W, T, 132, 1 + (W & 1), (W & 2) ? &d : NULL, mlab_kv_tile_bytes(MLAB_KV_FP8));
            snprintf(what, sizeof what, "W %d T %d: %d splits, a power of two within 1..min(T, 64)", W, T, s);
            check(s >= 1 && s <= (T < 64 ? T : 64) && (s & (s - 1)) == 0, what);
        }
    /* bf16's tile choice: 32-row tiles on the four long cases, where the
     * H200 measured them faster (papers/reports/h200-2026-12-01f), 64-row
     * tiles on the four short ones, where it measured them slower */
    const int want_t32[8] = {0, 0, 0, 1, 0, 1, 1, 1};
    for (int i = 0; i < 8; i++) {
        int W = cases[i][0], T = cases[i][1] / 64;
        int want = want_t32[i], got = mlab_bf16_small_tiles(W, T, 132);
        snprintf(what, sizeof what, "bf16 %dx%d on 132 SMs: %s-row tiles (measured faster: %s)", W, cases[i][1],
                 got ? "32" : "64", want ? "32" : "64");
        check(got == want, what);
    }
    check(!mlab_bf16_small_tiles(1000, 1000, 0), "no SM count: 64-row tiles");
    /* the combine's chunks a (row, head): past 16 splits, 4 at up to 8
     * rows on 132 SMs (512 blocks, four an SM), 2 at 9..16, 1 from 17; none
     * at 16 splits or fewer (measured no faster there); at most the
     * caller's (64-lane waves: 2) */
    {
        const int rows[8] = {1, 4, 8, 9, 16, 17, 32, 256}, want_c[8] = {4, 4, 4, 2, 2, 1, 1, 1};
        for (int i = 0; i < 8; i++) {
            const int c = mlab_combine_chunks(rows[i], 32, 132, 4);
            snprintf(what, sizeof what, "%d rows, 32 splits, 132 SMs: the combine in %d chunks a (row, head), want %d",
                     rows[i], c, want_c[i]);
            check(c == want_c[i], what);
        }
        check(mlab_combine_chunks(4, 16, 132, 4) == 1, "16 splits: 1 chunk");
        check(mlab_combine_chunks(4, 17, 132, 4) == 4, "17 splits: 4 chunks");
        check(mlab_combine_chunks(4, 64, 132, 2) == 2, "64-lane waves: at most 2 chunks");
        check(mlab_combine_chunks(4, 64, 132, 1) == 1, "chunks off: 1");
        check(mlab_combine_chunks(1, 64, 0, 4) == 1, "no SM count: 1 chunk");
        check(mlab_combine_chunks(1, 64, 256, 8) == 4, "never more than 4 chunks (a block of 32 lanes)");
    }
    /* the combine capped where the decode fills at least half the SMs'
     * block slots: 32 x 1024's 128 one-a-SM blocks on 132 SMs, not 4 x
     * 1024's 64; the mma.sync decodes at two an SM: 256 blocks, not 64 */
    check(mlab_combine_capped(128, 132, 1) && mlab_combine_capped(66, 132, 1) && mlab_combine_capped(256, 132, 2),
          "combine capped from half the SMs' block slots");
    check(!mlab_combine_capped(64, 132, 1) && !mlab_combine_capped(65, 132, 1) && !mlab_combine_capped(64, 132, 2),
          "combine not capped below half the block slots (4 x 1024)");
    check(!mlab_combine_capped(0, 132, 1) && !mlab_combine_capped(128, 0, 1) && !mlab_combine_capped(128, 132, 0),
          "combine not capped: bad input");
    /* a unit's heads in two blocks: only where the doubled grid is one wave
     * (4 x 1024 at 16 splits, 64 blocks, on 132 SMs; not 4 x 8192's 128) */
    check(mlab_head_pairs(64, 132) && mlab_head_pairs(66, 132) && mlab_head_pairs(1, 2), "pairs up to half the SMs");
    check(!mlab_head_pairs(67, 132) && !mlab_head_pairs(128, 132), "no pairs past half the SMs");
    check(!mlab_head_pairs(0, 132) && !mlab_head_pairs(4, 0) && !mlab_head_pairs(1, 1), "no pairs: bad input, 1 SM");
    /* a GPU's DRAM bytes an SM clock: the H100 SXM's 12.8, the H200's 18.4 (its bus as CUDA
     * reports it there, 6016 bits: v67's H200), either side of the MTP rule's fast line;
     * unknown figures give 0 (slow) */
    const double h100 = mlab_dram_bpc(2619, 5120, 132, 1980), h200 = mlab_dram_bpc(3201, 6016, 132, 1980);
    check(h100 > 12.7 && h100 < 12.9 && h200 > 18.3 && h200 < 18.5, "DRAM bytes an SM clock: H100 12.8, H200 18.4");
    check(h100 < MLAB_MTP_FAST_BPC && h200 > MLAB_MTP_FAST_BPC, "the fast line between the H100 and the H200");
    check(!mlab_dram_bpc(0, 6144, 132, 1980) && !mlab_dram_bpc(3201, 0, 132, 1980) &&
              !mlab_dram_bpc(3201, 6144, 0, 1980) && !mlab_dram_bpc(3201, 6144, 132, 0),
          "DRAM bytes an SM clock: 0 where a figure is unknown");
    /* the KV copies evict_first up to 4 L2s of KV bytes (the H100's L2: 50 MiB; the H200's 60 MiB
     * puts the suite's cases on the same sides) */
    for (int mib = 50; mib <= 60; mib += 10) {
        const double l2 = mib * 1024.0 * 1024, at = 4 * l2;
        const double bf16_rows = at / mlab_kv_row_bytes(MLAB_KV_BF16), fp8_rows = at / mlab_kv_row_bytes(MLAB_KV_FP8);
        check(mlab_kv_evict_first(bf16_rows, MLAB_KV_BF16, l2) && !mlab_kv_evict_first(bf16_rows + 1, MLAB_KV_BF16, l2),
              "evict_first: bf16 up to 4 L2s of KV bytes, not past");
        check(mlab_kv_evict_first(fp8_rows, MLAB_KV_FP8, l2) && !mlab_kv_evict_first(fp8_rows + 1, MLAB_KV_FP8, l2),
              "evict_first: fp8 up to 4 L2s, not past");
        /* the suite's cases: 64 x 1024 bf16 (75 MB) and 32 x 8192 fp8 (151 MB) in, 32 x 8192 bf16 (302 MB) out */
        check(mlab_kv_evict_first(64 * 1024, MLAB_KV_BF16, l2) && mlab_kv_evict_first(32 * 8192, MLAB_KV_FP8, l2) &&
                  mlab_kv_evict_first(64 * 8192, MLAB_KV_MXFP4, l2),
              "evict_first: 64 x 1024 bf16, 32 x 8192 fp8, 64 x 8192 mxfp4");
        check(!mlab_kv_evict_first(32 * 8192, MLAB_KV_BF16, l2) && !mlab_kv_evict_first(64 * 8192, MLAB_KV_FP8, l2) &&
                  !mlab_kv_evict_first(256 * 8192, MLAB_KV_MXFP4, l2),
              "not evict_first: 32 x 8192 bf16, 64 x 8192 fp8, 256 x 8192 mxfp4");
        check(!mlab_kv_evict_first(64, MLAB_KV_BF16, 0), "not evict_first: L2 size unknown");
        /* the MTP unit (mlab_mtp_pays) on a slow DRAM (the H100's; either L2): bf16 past the same
         * line, the H100 pairs it was drawn between
         * (perf-notes v59: 8 x 4096, 8 x 8192 no faster; 64 x 4096, 64 x 8192 faster) */
        check(!mlab_mtp_pays(8 * 4096, MLAB_KV_BF16, 0, l2, h100) && !mlab_mtp_pays(8 * 8192, MLAB_KV_BF16, 0, l2, h100) &&
                  mlab_mtp_pays(64 * 4096, MLAB_KV_BF16, 0, l2, h100) && mlab_mtp_pays(64 * 8192, MLAB_KV_BF16, 0, l2, h100),
              "MTP unit: 64 x 4096 and 64 x 8192 bf16, not 8 x 4096 or 8 x 8192");
        check(mlab_mtp_pays(bf16_rows + 1, MLAB_KV_BF16, 0, l2, h100) && !mlab_mtp_pays(bf16_rows, MLAB_KV_BF16, 0, l2, h100) &&
                  !mlab_mtp_pays(1e9, MLAB_KV_BF16, 0, 0, h100),
              "MTP unit: past 4 L2s of KV bytes, not at; not where the L2's size is unknown");
        {
            int qf = 2; /* Q per (row, head): fp8_wgmma_qrow (v60, v73: slower everywhere) */
            check(!mlab_mtp_pays(1e9, MLAB_KV_FP8, qf, l2, h100) && !mlab_mtp_pays(1e9, MLAB_KV_FP8, qf, l2, 0),
                  "MTP unit, fp8 per (row, head): never on a slow DRAM or an unknown one");
            /* per tensor: fp8_wgmma past 1 L2, as on a fast DRAM (v73: 8 x 4096 slower, 8 x 8192 the
             * same, 64 x 4096 and 64 x 8192 faster); never on an unknown DRAM */
            qf = 1;
            const double f_rows = l2 / mlab_kv_row_bytes(MLAB_KV_FP8);
            check(!mlab_mtp_pays(8 * 4096, MLAB_KV_FP8, qf, l2, h100) && !mlab_mtp_pays(8 * 8192, MLAB_KV_FP8, qf, l2, h100) &&
                      mlab_mtp_pays(64 * 4096, MLAB_KV_FP8, qf, l2, h100) && mlab_mtp_pays(64 * 8192, MLAB_KV_FP8, qf, l2, h100),
                  "MTP unit, fp8 per tensor, slow DRAM: 64 x 4096 and 64 x 8192, not at 8 items");
            check(mlab_mtp_pays(f_rows + 1, MLAB_KV_FP8, qf, l2, h100) && !mlab_mtp_pays(f_rows - 1, MLAB_KV_FP8, qf, l2, h100) &&
                      !mlab_mtp_pays(1e9, MLAB_KV_FP8, qf, 0, h100),
                  "MTP unit, fp8 per tensor, slow DRAM: past 1 L2, not below; not where the L2's size is unknown");
        }
        /* MXFP4's (M32): past 0.3 L2s, the H100 pairs (perf-notes v60: 8 x 4096 slower; 8 x 8192,
         * 64 x 4096, 64 x 8192 faster) */
        const double mx_rows = 0.3 * l2 / mlab_kv_row_bytes(MLAB_KV_MXFP4);
        check(!mlab_mtp_pays(8 * 4096, MLAB_KV_MXFP4, 1, l2, h100) && mlab_mtp_pays(8 * 8192, MLAB_KV_MXFP4, 1, l2, h100) &&
                  mlab_mtp_pays(64 * 4096, MLAB_KV_MXFP4, 1, l2, h100) && mlab_mtp_pays(64 * 8192, MLAB_KV_MXFP4, 1, l2, h100),
              "MTP unit: 8 x 8192, 64 x 4096 and 64 x 8192 mxfp4, not 8 x 4096");
        check(mlab_mtp_pays(mx_rows + 1, MLAB_KV_MXFP4, 1, l2, h100) && !mlab_mtp_pays(mx_rows - 1, MLAB_KV_MXFP4, 1, l2, h100) &&
                  !mlab_mtp_pays(1e9, MLAB_KV_MXFP4, 1, 0, h100),
              "MTP unit, mxfp4: past 0.3 L2s of KV bytes, not below; not where the L2's size is unknown");
    }
    {
        /* on a fast DRAM (the H200's, 60 MiB of L2; perf-notes v65): bf16 past 0.3 L2s (8 x 4096,
         * 38 MB, faster), fp8 past 1 L2 (8 x 8192, 38 MB, the same; 64 x 4096, 151 MB, faster),
         * MXFP4 as on a slow one (8 x 4096, 10 MB, not) */
        const double l2 = 60 * 1024.0 * 1024;
        const double b_rows = 0.3 * l2 / mlab_kv_row_bytes(MLAB_KV_BF16), f_rows = l2 / mlab_kv_row_bytes(MLAB_KV_FP8);
        check(mlab_mtp_pays(8 * 4096, MLAB_KV_BF16, 0, l2, h200) && mlab_mtp_pays(8 * 8192, MLAB_KV_BF16, 0, l2, h200) &&
                  mlab_mtp_pays(64 * 8192, MLAB_KV_BF16, 0, l2, h200),
              "MTP unit, fast DRAM: bf16 at 8 x 4096, 8 x 8192, 64 x 8192");
        check(mlab_mtp_pays(b_rows + 1, MLAB_KV_BF16, 0, l2, h200) && !mlab_mtp_pays(b_rows - 1, MLAB_KV_BF16, 0, l2, h200),
              "MTP unit, fast DRAM: bf16 past 0.3 L2s, not below");
        for (int qf = 1; qf <= 2; qf++) { /* fp8 per tensor and per (row, head) alike */
            check(!mlab_mtp_pays(8 * 4096, MLAB_KV_FP8, qf, l2, h200) && !mlab_mtp_pays(8 * 8192, MLAB_KV_FP8, qf, l2, h200) &&
                      mlab_mtp_pays(64 * 4096, MLAB_KV_FP8, qf, l2, h200) && mlab_mtp_pays(64 * 8192, MLAB_KV_FP8, qf, l2, h200),
                  qf == 1 ? "MTP unit, fast DRAM: fp8 per tensor at 64 x 4096 and 64 x 8192, not at 8 items"
                          : "MTP unit, fast DRAM: fp8 per (row, head) at 64 x 4096 and 64 x 8192, not at 8 items");
            check(mlab_mtp_pays(f_rows + 1, MLAB_KV_FP8, qf, l2, h200) && !mlab_mtp_pays(f_rows - 1, MLAB_KV_FP8, qf, l2, h200) &&
                      !mlab_mtp_pays(1e9, MLAB_KV_FP8, qf, 0, h200),
                  qf == 1 ? "MTP unit, fast DRAM: fp8 per tensor past 1 L2, not below, nor with the L2 unknown"
                          : "MTP unit, fast DRAM: fp8 per (row, head) past 1 L2, not below, nor with the L2 unknown");
        }
        check(!mlab_mtp_pays(8 * 4096, MLAB_KV_MXFP4, 1, l2, h200) && mlab_mtp_pays(8 * 8192, MLAB_KV_MXFP4, 1, l2, h200),
              "MTP unit, fast DRAM: mxfp4 at 8 x 8192, not 8 x 4096");
        check(!mlab_mtp_pays(1e9, MLAB_KV_BF16, 0, 0, h200), "MTP unit, fast DRAM: bf16 not where the L2's size is unknown");
    }
    {
        /* MLAB_MTP=auto (mlab_mtp_auto): the KV line, or more items than half the SMs (perf-notes
         * v74, an H100's 50 MiB of L2 and 132 SMs, q_seq_len 2, MTP off -> on: 128 x 512, 1024,
         * 2048 faster for bf16_wgmma, fp8_wgmma and fp8_wgmma_qrow; 64 x 512 and 64 x 1024 slower
         * for all three, 32 x 512 too) */
        const double l2 = 50 * 1024.0 * 1024;
        const mlab_kv_fmt f3[3] = {MLAB_KV_BF16, MLAB_KV_FP8, MLAB_KV_FP8};
        const int q3[3] = {0, 1, 2};
        int many = 1, few = 1;
        for (int k = 0; k < 3; k++)
            for (int kv = 512; kv <= 2048; kv *= 2) {
                many &= mlab_mtp_auto(128.0 * kv, f3[k], q3[k], l2, h100, 128, 132);
                if (kv <= 1024) few &= !mlab_mtp_auto(64.0 * kv, f3[k], q3[k], l2, h100, 64, 132);
                if (kv == 512) few &= !mlab_mtp_auto(32.0 * kv, f3[k], q3[k], l2, h100, 32, 132);
            }
        check(many, "MTP auto, H100: 128 items x kv 512..2048, bf16 and fp8 (both Q scales)");
        check(few, "MTP auto, H100: not 64 x 512, 64 x 1024 or 32 x 512, bf16 and fp8 (both Q scales)");
        check(mlab_mtp_auto(1024, MLAB_KV_FP8, 2, l2, h100, 67, 132) && !mlab_mtp_auto(1024, MLAB_KV_FP8, 2, l2, h100, 66, 132),
              "MTP auto: past half the SMs in items (67 of 132), not at (66)");
        int same = 1; /* at most half the SMs in items: the KV line alone, on either DRAM; no SM count: the same */
        for (int k = 0; k < 3; k++)
            for (double rows = 1024; rows < 1e9; rows *= 3)
                for (int d = 0; d < 2; d++) {
                    const double bpc = d ? h200 : h100;
                    same &= mlab_mtp_auto(rows, f3[k], q3[k], l2, bpc, 66, 132) == mlab_mtp_pays(rows, f3[k], q3[k], l2, bpc) &&
                            mlab_mtp_auto(rows, f3[k], q3[k], l2, bpc, 1000, 0) == mlab_mtp_pays(rows, f3[k], q3[k], l2, bpc);
                }
        check(same, "MTP auto: the KV line alone at half the SMs in items or fewer, or with no SM count");
    }
    /* the ragged plan (mlab_plan_splits) */
    {
        /* one long row among short ones: 63 rows of 2 tiles, one of 128; two
         * blocks an SM on 132 SMs. The uniform rule, by the longest row, gives
         * every row 4 splits (pieces of 32 tiles for the long row, empty
         * blocks for the short ones); the plan splits the long row finely and
         * leaves the short ones alone */
        int n[64], sp[64];
        for (int i = 0; i < 64; i++) n[i] = i == 17 ? 128 : 2;
        const int smax = mlab_plan_splits(64, n, 132, 2, NULL, 0, sp);
        int blocks = 0, piece = 0, mono = 1;
        for (int i = 0; i < 64; i++) {
            blocks += sp[i];
            int pi = (n[i] + sp[i] - 1) / sp[i];
            if (pi > piece) piece = pi;
        }
        snprintf(what, sizeof what, "one long row: its splits %d (stride %d), pieces of at most %d tiles, %d blocks",
                 sp[17], smax, piece, blocks);
        check(sp[17] == smax && smax >= 32 && piece <= 4 && blocks <= 264, what);
        check(mlab_choose_splits(64, 128, 132, 2, NULL, 0) == 4, "...where the uniform rule takes 4 splits a row (32-tile pieces)");
        /* the README's ragged batches (h200-2026-12-01zl: 4 rows of 8192 + 60
         * of 512; 1 of 16384 + 31 of 256) planned for one block an SM: the
         * DRAM shares leave their plans as they were timed */
        for (int b = 0; b < 2; b++) {
            const int W = b ? 32 : 64;
            int nr[64], s0[64], s1[64], s2[64];
            for (int i = 0; i < W; i++) nr[i] = b ? (i ? 4 : 256) : (i < 4 ? 128 : 8);
            const int m0 = mlab_plan_splits(W, nr, 132, 1, NULL, 0, s0);
            const mlab_split_dram d16 = MLAB_SPLIT_DRAM_BF16_WGMMA, d8 = MLAB_SPLIT_DRAM_FP8_WGMMA;
            const int m1 = mlab_plan_splits(W, nr, 132, 1, &d16, mlab_kv_tile_bytes(MLAB_KV_BF16), s1);
            const int m2 = mlab_plan_splits(W, nr, 132, 1, &d8, mlab_kv_tile_bytes(MLAB_KV_FP8), s2);
            int same = m0 == m1 && m0 == m2;
            for (int i = 0; i < W; i++) same &= s0[i] == s1[i] && s0[i] == s2[i];
            snprintf(what, sizeof what, "ragged batch %d: the plan (longest row %d splits) the same with bw", b, m0);
            check(same && m0 >= 16, what);
        }
        /* properties over many ragged batches: within 1..min(n_i, 64) (1 for
         * empty rows), longer rows never fewer splits, the stride the largest */
        unsigned x = 12345;
        int okr = 1, oks = 1;
        for (int trial = 0; trial < 200 && okr && oks; trial++) {
            int W = 1 + (int)((x = x * 1103515245u + 12345u) >> 16) % 64;
            for (int i = 0; i < W; i++) n[i] = (int)((x = x * 1103515245u + 12345u) >> 16) % 300;
            const mlab_split_dram d8 = MLAB_SPLIT_DRAM_FP8_WGMMA;
            const int sm = mlab_plan_splits(W, n, 132, 1 + (trial & 1), (trial & 2) ? &d8 : NULL,
                                            mlab_kv_tile_bytes(MLAB_KV_FP8), sp);
            int mx = 0;
            for (int i = 0; i < W; i++) {
                const int cap = n[i] < 1 ? 1 : n[i] < 64 ? n[i] : 64;
                okr &= sp[i] >= 1 && sp[i] <= cap;
                for (int j = 0; j < W; j++) mono &= !(n[i] > n[j] && sp[i] < sp[j]);
                if (sp[i] > mx) mx = sp[i];
            }
            oks &= sm == mx;
        }
        check(okr, "ragged plans: every row's splits within 1..min(its tiles, 64)");
        check(mono, "ragged plans: a longer row never gets fewer splits");
        check(oks, "ragged plans: the returned stride is the largest row's splits");
        check(mlab_plan_splits(0, n, 132, 2, NULL, 0, sp) == 0 && mlab_plan_splits(3, NULL, 132, 2, NULL, 0, sp) == 0,
              "bad input: 0");
    }
    /* the plan's table (mlab_plan_table): every (row, split) exactly once; in
     * row order without XCDs; placed, each on its row's XCD (block b % xcds) */
    {
        static int s[70], w[2 * 80 * 64], seen[70][64];
        unsigned x = 777;
        int ok_once = 1, ok_xcd = 1, ok_order = 1, ok_grid = 1;
        for (int trial = 0; trial < 200; trial++) {
            const int W = 1 + (int)((x = x * 1103515245u + 12345u) >> 16) % 70;
            const int xcds = trial % 3 == 0 ? 1 : 8;
            int total = 0;
            for (int i = 0; i < W; i++) total += s[i] = 1 + (int)((x = x * 1103515245u + 12345u) >> 16) % 64;
            const int nb = mlab_plan_table(W, s, xcds, w);
            ok_grid &= nb >= total && nb <= mlab_plan_table_max(W, xcds) && (xcds == 1 ? nb == total : nb % xcds == 0);
            for (int i = 0; i < W; i++)
                for (int k = 0; k < 64; k++) seen[i][k] = 0;
            for (int b = 0; b < nb; b++) {
                const int r = w[2 * b], k = w[2 * b + 1];
                if (r < 0) continue; /* padding */
                if (r >= W || k < 0 || k >= s[r]) { ok_once = 0; continue; }
                seen[r][k]++;
                ok_xcd &= xcds == 1 || b % xcds == mlab_xcd_of_row(r, W, xcds);
                ok_order &= xcds > 1 || b == 0 || w[2 * b - 2] < r || (w[2 * b - 2] == r && w[2 * b - 1] == k - 1);
            }
            for (int i = 0; i < W; i++)
                for (int k = 0; k < s[i]; k++) ok_once &= seen[i][k] == 1;
        }
        check(ok_once, "plan tables: every (row, split) once, nothing else but padding");
        check(ok_grid, "plan tables: the grid holds every block, within mlab_plan_table_max, whole XCD rounds");
        check(ok_xcd, "plan tables placed by XCD: block b runs a row of XCD b % 8");
        check(ok_order, "plan tables without XCDs: rows in order, a row's splits together");
        check(mlab_plan_table(0, s, 8, w) == 0 && mlab_plan_table(2, NULL, 1, w) == 0, "plan tables: bad input 0");
    }
    printf("test_splits: %d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
