/* test_smem_lanes.c: the MXFP4 tile passes' lane maps (variants/smem_lanes.h,
 * used by mla_wgmma.h wg_produce_mx and mla_kernel.h dequant_tile and
 * e4m3_tile) take every (row, block) item of a tile once, and cost the
 * shared-memory wavefronts their comments claim under NVIDIA's bank model
 * (smem_lanes.h): conflict-free where claimed, and the maps they replaced
 * as conflicted as ncu measured them on the H200
 * (papers/reports/h200-2026-12-02w), so the model can tell them apart. Also
 * the mma.sync decodes' S rows (mla_cfg::LDS = BN + MLAB_S_PAD, 8 on
 * NVIDIA): a warp's float2 accumulator stores in 2 wavefronts, not 4; and
 * bf16_wgmma's Q in memory order into its 128-byte-swizzled panels: stores
 * conflict-free with loads as coalesced as memory order (and the fp8 Q
 * orders measured at v24). Plain C; no GPU. */
#include <stdio.h>
#include <string.h>

#include "tests/mlab_check.h"    /* check, CHECK */
#include "variants/mla_params.h" /* MLA_FP4_ROW, MLA_NBLK */
#include "variants/arch/nv_swizzle.h" /* mlab_sw64: the panels the producers store into (gpu_tma_layout checks it on the GPU) */
#include "variants/smem_lanes.h" /* mlab_mx_prod_item, mlab_dq_item, mlab_e4_item */

enum { ROWS = 64, BLK = MLA_NBLK, ITEMS = ROWS * BLK };

/* wavefronts of one warp instruction: lane l accesses w bytes at addr[l]
 * (the bank model of smem_lanes.h) */
static int wavefronts(const long *addr, int w)
{
    const int group = w > 4 ? 128 / w : 32;
    int total = 0;
    for (int g0 = 0; g0 < 32; g0 += group) {
        long words[32][32]; /* per bank, the distinct words */
        int n[32] = {0}, worst = 1;
        for (int l = g0; l < g0 + group; l++)
            for (int k = 0; k < (w + 3) / 4; k++) {
                const long word = addr[l] / 4 + k;
                const int bank = (int)(word % 32);
                int seen = 0;
                for (int i = 0; i < n[bank]; i++) seen |= words[bank][i] == word;
                if (!seen) words[bank][n[bank]++] = word;
                if (n[bank] > worst) worst = n[bank];
            }
        total += worst;
    }
    return total;
}


/* the (row, block) items of a tile a map took twice or never */
static int not_once(int seen[ROWS][BLK])
{
    int bad = 0;
    for (int r = 0; r < ROWS; r++)
        for (int b = 0; b < BLK; b++) bad += seen[r][b] != 1;
    return bad;
}

/* a map from thread (or item) index to (row, block) */
typedef void (*item_fn)(int c, int *r, int *b);
static void old_prod(int t, int *r, int *h) { *r = t % 64; *h = t / 64; }
static void old_tile(int c, int *r, int *b) { *r = c / BLK; *b = c % BLK; }

/* mxfp4_wgmma's producers: 128 threads, items (r, h + 2k), k = 0..8. Worst
 * wavefronts of a warp instruction: raw loads, code stores (the two
 * chunks), and the scale bytes; returns items covered twice or never */
static int prod_check(item_fn f, int base, int *ld, int *st, int *sc)
{
    int seen[ROWS][BLK];
    memset(seen, 0, sizeof seen);
    *ld = *st = *sc = 0;
    for (int t = 0; t < 128; t++) {
        int r, h;
        f(t, &r, &h);
        for (int k = 0; k < BLK / 2; k++) seen[r][h + 2 * k]++;
    }
    for (int w = 0; w < 4; w++)
        for (int k = 0; k < BLK / 2; k++) {
            long a[32], s0[32], s1[32], s[32];
            for (int l = 0; l < 32; l++) {
                int r, h;
                f(32 * w + l, &r, &h);
                a[l] = base + (long)r * MLA_FP4_ROW + 16 * h + 32 * k;
                s0[l] = mlab_sw64(r, 2 * (h + 2 * k));
                s1[l] = mlab_sw64(r, 2 * (h + 2 * k) + 1);
                s[l] = base + 2 + (long)r * BLK + h + 2 * k;
            }
            int x = wavefronts(a, 16), y0 = wavefronts(s0, 16), y1 = wavefronts(s1, 16), z = wavefronts(s, 1);
            if (x > *ld) *ld = x;
            if (y0 > *st) *st = y0;
            if (y1 > *st) *st = y1;
            if (z > *sc) *sc = z;
        }
    return not_once(seen);
}

/* a tile pass of nt threads, item c = t + nt k: raw loads and the stores of
 * one item's `chunks` 16-byte chunks into rows ldk bytes apart; worst
 * wavefronts of a full warp instruction, and the items covered twice or never */
static int tile_check(item_fn f, int nt, int ldk, int chunks, int base, int *ld, int *st)
{
    int seen[ROWS][BLK];
    memset(seen, 0, sizeof seen);
    *ld = *st = 0;
    for (int c = 0; c < ITEMS; c++) {
        int r, b;
        f(c, &r, &b);
        if (r >= 0 && r < ROWS && b >= 0 && b < BLK) seen[r][b]++;
    }
    for (int c0 = 0; c0 + 32 <= ITEMS; c0 += 32) {
        if (c0 % nt + 32 > nt) continue; /* a warp's lanes are one pass step */
        long a[32], d[32];
        for (int l = 0; l < 32; l++) {
            int r, b;
            f(c0 + l, &r, &b);
            a[l] = base + (long)r * MLA_FP4_ROW + 16 * b;
        }
        int x = wavefronts(a, 16);
        if (x > *ld) *ld = x;
        for (int i = 0; i < chunks; i++) {
            for (int l = 0; l < 32; l++) {
                int r, b;
                f(c0 + l, &r, &b);
                d[l] = (long)r * ldk + 16 * (chunks * b + i);
            }
            int y = wavefronts(d, 16);
            if (y > *st) *st = y;
        }
    }
    return not_once(seen);
}

/* e4m3_tile's design space: every map that orders a row index's 6 bits
 * (perm) and flips the block's low bit by the parity of the row's bits in
 * mask, item c -> (perm(c % 64), (c / 64) ^ parity(perm(c % 64) & mask));
 * how many give conflict-free raw loads and code stores at once */
static int e4_perm[6], e4_mask;
static int e4_row(int l)
{
    int r = 0;
    for (int i = 0; i < 6; i++) r |= ((l >> i) & 1) << e4_perm[i];
    return r;
}
static void e4_searched(int c, int *r, int *b)
{
    *r = e4_row(c % 64);
    *b = (c / 64) ^ (__builtin_popcount((unsigned)(*r & e4_mask)) & 1);
}
static int e4_search(int *maps)
{
    int found = 0, p[6] = {0, 1, 2, 3, 4, 5};
    *maps = 0;
    for (;;) { /* the permutations in lexicographic order */
        for (int m = 0; m < 64; m++) {
            int ld, st;
            memcpy(e4_perm, p, sizeof p);
            e4_mask = m;
            ++*maps;
            if (tile_check(e4_searched, 256, MLA_D + 16, 2, 0, &ld, &st) == 0 && ld == 4 && st == 4) found++;
        }
        int i = 4;
        while (i >= 0 && p[i] > p[i + 1]) i--;
        if (i < 0) break;
        int j = 5;
        while (p[j] < p[i]) j--;
        int t = p[i]; p[i] = p[j]; p[j] = t;
        for (int a = i + 1, z = 5; a < z; a++, z--) t = p[a], p[a] = p[z], p[z] = t;
    }
    return found;
}

/* The wgmma decodes' Q (16 heads x 72 chunks of 8 values): a warp step is
 * 32 consecutive items of map f. Returns the chunks taken twice or never;
 * *st: the worst wavefronts of a warp's stores (fp8: 8-byte codes into
 * layout lay; bf16: 16-byte chunks), *lines: the most 128-byte lines of
 * global Q (16 bytes of bf16 a chunk, as Q lies) one warp's loads touch.
 * Layouts: 0 the swizzled panels (bf16_wgmma's since v24, mlab_sw128_q; fp8:
 * 16 heads x 64 bytes in the 64-byte swizzle, measured in v24 and not
 * kept), 1 the 16-byte columns (fp8's, mla_wgmma.h wg_q_chunk; bf16's
 * before v24) */
static int q_check(item_fn f, int bf16, int lay, int *st, int *lines)
{
    int seen[16][72];
    memset(seen, 0, sizeof seen);
    *st = *lines = 0;
    for (int c0 = 0; c0 < 16 * 72; c0 += 32) {
        long a[32], g[32];
        int nl = 0;
        for (int l = 0; l < 32; l++) {
            int h, k;
            f(c0 + l, &h, &k);
            if (h < 0 || h >= 16 || k < 0 || k >= 72) return -1;
            seen[h][k]++;
            if (bf16)
                a[l] = lay ? 256L * k + 16 * h : mlab_sw128_q(h, k);
            else
                a[l] = lay ? 256L * (k >> 1) + 16 * h + 8 * (k & 1)
                           : 1024L * (k >> 3) + 64 * h + ((((k >> 1) & 3) ^ ((h >> 1) & 3)) << 4) + 8 * (k & 1);
            g[l] = (16L * (72 * h + k)) / 128;
            int dup = 0;
            for (int i = 0; i < l; i++) dup |= g[i] == g[l];
            nl += !dup;
        }
        const int w = wavefronts(a, bf16 ? 16 : 8);
        if (w > *st) *st = w;
        if (nl > *lines) *lines = nl;
    }
    int bad = 0;
    for (int h = 0; h < 16; h++)
        for (int k = 0; k < 72; k++) bad += seen[h][k] != 1;
    return bad;
}
static void mem_q(int c, int *h, int *k) { *h = c / 72; *k = c % 72; } /* as Q lies in memory */
/* v24's two conflict-free fp8 orders, both measured slower (perf-notes v24):
 * heads inside (WG_Q_HI) and 4 heads x 8 chunks a warp step (into the panels) */
static void hi_q(int c, int *h, int *k)
{
    *h = (((c % 32) >> 1) & 7) | (((c % 32) >> 4) << 3);
    *k = 2 * (c / 32) + (c & 1);
}
static void w48_q(int c, int *h, int *k) { *h = 4 * ((c / 32) % 4) + ((c % 32) >> 3); *k = 8 * (c / 128) + (c & 7); }
/* v25's staged fp8 Q (WG_Q_STAGE, measured slower and removed: perf-notes v25): fp8_wgmma's bf16 Q
 * copied in memory order into rows of 1184 bytes, read back 8 heads x 4 chunks a warp step (a half
 * warp's codes 8 heads x 2 chunks, 128 contiguous bytes of the columns) */
static void stage_q(int c, int *h, int *k)
{
    const int g = c / 32, l = c % 32, i = l & 15;
    *h = 8 * (g % 2) + (i >> 1);
    *k = 4 * (g / 2) + 2 * (l >> 4) + (i & 1);
}
/* its reads of the staged rows (row bytes a head) in map f's order, and its cp.async writes into
 * them in memory order: the worst wavefronts of a warp's 16-byte accesses */
static int stage_reads(item_fn f, long row)
{
    int worst = 0;
    for (int c0 = 0; c0 < 16 * 72; c0 += 32) {
        long a[32];
        for (int l = 0; l < 32; l++) {
            int h, k;
            f(c0 + l, &h, &k);
            a[l] = row * h + 16 * k;
        }
        const int w = wavefronts(a, 16);
        if (w > worst) worst = w;
    }
    return worst;
}

/* the mma.sync S stores: lane l's float2 at row l / 4, columns 2 (l % 4) of
 * rows `lds` floats apart (mla_kernel.h tile_scores, acc_row / acc_col) */
static int s_store(int lds)
{
    long a[32];
    for (int l = 0; l < 32; l++) a[l] = 4L * ((l >> 2) * lds + 2 * (l & 3));
    return wavefronts(a, 8);
}

int main(void)
{
    int ld, st, sc;
    /* the model itself: consecutive 16-byte lanes are 4 wavefronts, one slot for all 8 lanes of a group 32 */
    long lin[32], same[32];
    for (int l = 0; l < 32; l++) lin[l] = 16 * l, same[l] = 128 * l;
    CHECK(wavefronts(lin, 16) == 4, "model: 32 consecutive 16-byte lanes, 4 wavefronts (%d)", wavefronts(lin, 16));
    CHECK(wavefronts(same, 16) == 32, "model: 32 lanes 128 bytes apart, 32 wavefronts (%d)", wavefronts(same, 16));

    for (int base = 0; base < 128; base += 16) { /* raw stages at any 16-byte offset */
        int bad = prod_check(mlab_mx_prod_item, base, &ld, &st, &sc);
        CHECK(bad == 0, "mxfp4_wgmma producers: every (row, block) once (base %d: %d wrong)", base, bad);
        CHECK(ld == 4 && st == 4, "mxfp4_wgmma producers: raw loads and code stores conflict-free (base %d: %d, %d)",
              base, ld, st);
        CHECK(sc <= 2, "mxfp4_wgmma producers: scale bytes at most 2 wavefronts (base %d: %d; ncu: 2)", base, sc);
        prod_check(old_prod, base, &ld, &st, &sc);
        CHECK(ld == 8 && st == 4, "the v22 producer map: raw loads 2-way, as ncu measured (base %d: %d, %d)", base, ld,
              st);
    }
    for (int nt = 256; nt <= 512; nt *= 2) { /* NVIDIA's 256 threads, AMD's 512 */
        int bad = tile_check(mlab_dq_item, nt, 2 * MLA_D + 16, 4, 0, &ld, &st);
        CHECK(bad == 0, "dequant_tile: every (row, block) once (%d threads: %d wrong)", nt, bad);
        CHECK(ld == 4 && st == 4, "dequant_tile: raw loads and bf16 stores conflict-free (%d threads: %d, %d)", nt,
              ld, st);
        tile_check(old_tile, nt, 2 * MLA_D + 16, 4, 0, &ld, &st);
        CHECK(st == 16, "the v22 dequant_tile map: bf16 stores 4-way (%d threads: %d)", nt, st);
        bad = tile_check(mlab_e4_item, nt, MLA_D + 16, 2, 0, &ld, &st);
        CHECK(bad == 0, "e4m3_tile: every (row, block) once (%d threads: %d wrong)", nt, bad);
        CHECK(ld == 8 && st == 4, "e4m3_tile: code stores conflict-free, raw loads 2-way (%d threads: %d, %d)", nt, ld,
              st);
        tile_check(old_tile, nt, MLA_D + 16, 2, 0, &ld, &st);
        CHECK(st == 8, "the v22 e4m3_tile map: code stores 2-way (%d threads: %d)", nt, st);
    }
    int maps, free3 = e4_search(&maps);
    CHECK(maps == 720 * 64 && free3 == 0,
          "e4m3_tile at LDK = 592: none of the %d row-bit orders and flips frees loads and both stores (%d do)", maps,
          free3);
    CHECK(s_store(64 + 8) == 2, "S rows of BN + 8 floats: float2 stores in 2 wavefronts (%d)", s_store(64 + 8));
    CHECK(s_store(64 + 4) == 4, "S rows of BN + 4 floats (v22): 2-way, as ncu measured (%d)", s_store(64 + 4));
    CHECK(s_store(32 + 8) == 2, "bf16_t32's S rows of 32 + 8 floats: 2 wavefronts (%d)", s_store(32 + 8));
    /* the wgmma decodes' Q stores (v24): bf16's in memory order into its panels, loads as coalesced and
     * stores conflict-free; fp8's as before (the conflict-free orders tried at v24 and v25 were slower) */
    int qs, ql, bad = q_check(mem_q, 0, 1, &qs, &ql);
    CHECK(bad == 0 && qs == 16 && ql == 4, "fp8 Q in memory order into its columns: 8-way, as ncu measured, loads 4 lines "
          "(%d wrong, %d, %d)", bad, qs, ql);
    bad = q_check(hi_q, 0, 1, &qs, &ql);
    CHECK(bad == 0 && qs == 2 && ql == 16, "fp8 Q heads inside (WG_Q_HI): stores 2 wavefronts, loads 16 lines (%d, %d, %d)",
          bad, qs, ql);
    bad = q_check(stage_q, 0, 1, &qs, &ql);
    CHECK(bad == 0 && qs == 2, "staged fp8 Q (v25, WG_Q_STAGE): every chunk once, stores into its columns in 2 "
          "wavefronts (%d wrong, %d)", bad, qs);
    CHECK(stage_reads(stage_q, 1184) == 4 && stage_reads(mem_q, 1184) == 4,
          "staged fp8 Q: reads in stage_q's order and cp.async writes in memory order 4 wavefronts a warp (%d, %d)",
          stage_reads(stage_q, 1184), stage_reads(mem_q, 1184));
    CHECK(stage_reads(stage_q, 1152) == 16, "staged fp8 Q in unpadded rows: its reads 4-way (%d)",
          stage_reads(stage_q, 1152));
    bad = q_check(w48_q, 0, 0, &qs, &ql);
    CHECK(bad == 0 && qs == 2 && ql == 4, "fp8 Q 4 heads x 8 chunks into 64-byte-swizzled panels: stores 2 wavefronts, "
          "loads 4 lines (%d, %d, %d)", bad, qs, ql);
    bad = q_check(mem_q, 1, 0, &qs, &ql);
    CHECK(bad == 0 && qs == 4 && ql == 4, "bf16 Q in memory order into mlab_sw128_q: stores 4 wavefronts, loads 4 lines "
          "(%d wrong, %d, %d)", bad, qs, ql);
    q_check(mem_q, 1, 1, &qs, &ql);
    CHECK(qs == 32, "bf16 Q into v23's columns: 8-way, as ncu measured (%d)", qs);
    printf("%d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
