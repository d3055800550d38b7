/* test_lds_lanes.c: gfx950's LDS DMA staging and transposing V reads
 * (variants/lds_lanes.h, used by variants/arch/amd_lds.h and amd_mfma.h),
 * checked on the CPU against emulations of the two instructions written from
 * AMD's documented behaviour alone (no AMD GPU is at hand).
 *
 * 1. global_load_lds_dwordx4 (AMD CDNA4 ISA guide, global load to LDS: lane
 *    l of a wave writes its 16 bytes at the instruction's LDS base + 16 l).
 *    The stage loader's instructions, emulated, leave every staged tile
 *    (each KV format's row size and padding, 64- and 32-row tiles, tiles
 *    full, cut by the sequence end, or wholly past it) exactly as the
 *    portable loader (mlab_cp16 per 16 bytes) leaves it: data rows copied,
 *    rows past the end zero, each data byte written once, padding untouched,
 *    and no byte of a row past the sequence end ever read.
 * 2. ds_read_b64_tr_b16 / ds_read_b64_tr_b8 (CDNA4 ISA guide, "MFMA
 *    transpose load from LDS"; the lane grouping as in composable_kernel's
 *    ck_tile LaneGroupTransposeTraits: per 16-lane group, tr_b16 lane 4 j + c
 *    reads row j, columns 4c..4c+3 of a 4 x 16 tile and lane i gets column i,
 *    item j = row j; tr_b8 lane 2 j + c reads row j, columns 8c..8c+7 of an
 *    8 x 16 tile). The B operands pv_bf16 and pv_fp8 build on gfx950 from
 *    these reads equal, item by item, the ones the per-element code built
 *    (and still builds on gfx942), for every lane, k step and column tile;
 *    every read is 8-byte aligned.
 * 3. The checks can fail: a DMA map that forgets the row padding, V halves
 *    swapped, and the other lane grouping (lane 4 c + j) are each caught. */
#include <stdint.h> /* uint8_t, uint16_t, uint64_t */
#include <stdio.h>  /* printf */
#include <string.h> /* memset, memcpy */

#include "tests/mlab_check.h"      /* check, CHECK */
#include "variants/lds_lanes.h"    /* mlab_dma_lane, mlab_dma_insns, mlab_tr16_off, mlab_tr8_off */
#include "variants/mla_params.h"   /* MLA_D, MLA_FP4_ROW */

static uint32_t rng = 2463534242u;
static uint8_t rnd8(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return (uint8_t)rng; }

/* ---- 1. LDS DMA ---- */
enum { MAXROWS = 160, MAXROW = 2 * MLA_D + 16, NT = 512 };
static uint8_t gmem[MAXROWS * 2 * MLA_D];
static uint8_t lds[80 * MAXROW], want[80 * MAXROW]; /* a tile, or V with a base offset */
static int writes[80 * MAXROW];

/* the stage loader (mlab_lds_dma_rows) emulated: map_raw_row is the row
 * pitch the lane map assumes (the tile's, or a wrong one for the negative
 * control); -1 if a lane would write outside the LDS array */
static int dma_emulate(int bn, int map_raw_row, int row_bytes, int r0, int rend)
{
    const int ni = mlab_dma_insns(bn, map_raw_row);
    for (int w = 0; w < NT / 64; w++)
        for (int n = w; n < ni; n += NT / 64)
            for (int l = 0; l < 64; l++) {
                int r, k;
                mlab_dma_lane(n, l, bn, map_raw_row, row_bytes, &r, &k);
                if (r < 0)
                    continue;
                uint8_t *d = lds + 1024 * n + 16 * l; /* the instruction: base + 16 lane */
                if (d + 16 > lds + sizeof lds)
                    return -1;
                if (r0 + r < rend) {
                    const uint8_t *s = gmem + (size_t)(r0 + r) * row_bytes + 16 * k;
                    memcpy(d, s, 16);
                } else {
                    memset(d, 0, 16); /* the plain LDS store of zeros */
                }
                for (int b = 0; b < 16; b++) writes[d - lds + b]++;
            }
    return 0;
}

/* what the portable loader leaves: data rows, zeros past rend, padding as it was */
static int dma_check(int bn, int raw_row, int map_raw_row, int row_bytes, int r0, int rend)
{
    for (int i = 0; i < bn * raw_row; i++) lds[i] = want[i] = 0xEE, writes[i] = 0;
    for (int r = 0; r < bn; r++)
        for (int b = 0; b < row_bytes; b++)
            want[r * raw_row + b] = r0 + r < rend ? gmem[(size_t)(r0 + r) * row_bytes + b] : 0;
    /* poison the rows past the end in "memory": a read of one would show
     * in the tile, whose rows there must be zero */
    for (int r = rend > 0 ? rend : 0; r < MAXROWS; r++)
        memset(gmem + (size_t)r * row_bytes, 0xA5, row_bytes);
    if (dma_emulate(bn, map_raw_row, row_bytes, r0, rend) < 0)
        return 1 << 20;
    int bad = 0;
    for (int i = 0; i < bn * raw_row; i++) {
        const int data = i % raw_row < row_bytes;
        bad += lds[i] != want[i];
        bad += data ? writes[i] != 1 : writes[i] != 0;
    }
    return bad;
}

static void fill_gmem(void)
{
    for (size_t i = 0; i < sizeof gmem; i++) gmem[i] = rnd8();
}

/* ---- 2. transposing reads ---- */
/* the documented instructions, on per-lane byte addresses into lds */
static uint16_t ld16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static void tr16_emulate(const int addr[64], uint16_t out[64][4], int other_grouping)
{
    for (int l = 0; l < 64; l++) {
        const int g = l / 16, i = l % 16;
        for (int j = 0; j < 4; j++) {
            /* the lane that read tile row j, columns 4 (i / 4) .. +3 */
            const int src = other_grouping ? 16 * g + 4 * (i / 4) + j : 16 * g + 4 * j + i / 4;
            out[l][j] = ld16(lds + addr[src] + 2 * (i % 4));
        }
    }
}
static void tr8_emulate(const int addr[64], uint8_t out[64][8])
{
    for (int l = 0; l < 64; l++) {
        const int g = l / 16, i = l % 16;
        for (int j = 0; j < 8; j++) out[l][j] = lds[addr[16 * g + 2 * j + i / 8] + i % 8];
    }
}

/* mfma_lanes.h's B operand map, restated: lane l, item j = V[8 (l / 16) + j][l % 16] */
static int b_row(int l, int j) { return 8 * (l / 16) + j; }

/* pv_bf16 on gfx950: 2 tr16 reads a (k step, column tile) vs the old per-item reads */
static int check_tr16(int base, int ldv, int swap_halves, int other_grouping, int *misaligned)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof lds; i++) lds[i] = rnd8();
    for (int kk = 0; kk < 64; kk += 32)
        for (int t = 0; t < 4; t++) {
            const int v0 = base + kk * ldv + 2 * 16 * t;
            int a0[64], a1[64];
            for (int l = 0; l < 64; l++) {
                a0[l] = v0 + mlab_tr16_off(l, swap_halves ? 1 : 0, ldv);
                a1[l] = v0 + mlab_tr16_off(l, swap_halves ? 0 : 1, ldv);
                *misaligned += (a0[l] % 8 != 0) + (a1[l] % 8 != 0);
            }
            uint16_t lo[64][4], hi[64][4];
            tr16_emulate(a0, lo, other_grouping);
            tr16_emulate(a1, hi, other_grouping);
            for (int l = 0; l < 64; l++)
                for (int j = 0; j < 8; j++) {
                    const uint16_t got = j < 4 ? lo[l][j] : hi[l][j - 4];
                    /* the old code: *(uint16_t *)(v + j * ldv), v at row kk + mlab_mfma_k(l, 0, 8), column 16 t + l % 16 */
                    const uint16_t old = ld16(lds + base + (kk + b_row(l, j)) * ldv + 2 * (16 * t + l % 16));
                    bad += got != old;
                }
        }
    return bad;
}

/* pv_fp8 on gfx950: one tr8 read a (k step, column tile) vs the old byte gathers */
static int check_tr8(int base, int ldv, int *misaligned)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof lds; i++) lds[i] = rnd8();
    for (int kk = 0; kk < 64; kk += 32)
        for (int t = 0; t < 4; t++) {
            const int v0 = base + kk * ldv + 16 * t;
            int a[64];
            for (int l = 0; l < 64; l++) {
                a[l] = v0 + mlab_tr8_off(l, ldv);
                *misaligned += a[l] % 8 != 0;
            }
            uint8_t got[64][8];
            tr8_emulate(a, got);
            for (int l = 0; l < 64; l++) {
                /* the old code: w[h] = v[(4h) ldv] | v[(4h+1) ldv] << 8 | ..., b = w0 | w1 << 32 */
                uint64_t b = 0;
                for (int j = 0; j < 8; j++)
                    b |= (uint64_t)lds[base + (kk + b_row(l, j)) * ldv + 16 * t + l % 16] << (8 * j);
                uint64_t g = 0;
                for (int j = 0; j < 8; j++) g |= (uint64_t)got[l][j] << (8 * j); /* byte j = item j */
                bad += g != b;
            }
        }
    return bad;
}

int main(void)
{
    /* 1. the staged tiles of every format: (rows, row pitch, data bytes a row) */
    const struct { const char *what; int bn, raw_row, row_bytes; } cfg[] = {
        {"bf16 rows, 64-row tile (1152 + 16 bytes)", 64, 2 * MLA_D + 16, 2 * MLA_D},
        {"bf16 rows, 32-row tile (64 KB configuration)", 32, 2 * MLA_D + 16, 2 * MLA_D},
        {"fp8 rows, 64-row tile (576 + 16 bytes)", 64, MLA_D + 16, MLA_D},
        {"raw MXFP4 rows, 64-row tile (288 bytes, no padding)", 64, MLA_FP4_ROW, MLA_FP4_ROW},
        {"raw MXFP4 rows, 32-row tile", 32, MLA_FP4_ROW, MLA_FP4_ROW},
    };
    fill_gmem();
    for (int c = 0; c < (int)(sizeof cfg / sizeof cfg[0]); c++) {
        const int bn = cfg[c].bn, rr = cfg[c].raw_row, rb = cfg[c].row_bytes;
        const int cases[][2] = {{0, 100}, {bn, 3 * bn}, {bn, bn + 5}, {2 * bn, 2 * bn}, {bn, bn - 7}};
        for (int k = 0; k < 5; k++) {
            fill_gmem();
            const int bad = dma_check(bn, rr, rr, rb, cases[k][0], cases[k][1]);
            CHECK(bad == 0, "LDS DMA staging of %s, rows %d.. with the end at %d: the portable loader's tile "
                  "(%d bad bytes)", cfg[c].what, cases[k][0], cases[k][1], bad);
        }
    }
    /* 2. transposing reads: V as the kernels address it (stage or tile base
     * 16-aligned, a wave's columns 64 w on: bf16 128 w bytes, fp8 64 w) */
    int mis = 0;
    for (int w = 0; w < 8; w++) {
        const int bf = check_tr16(16 * 73 + 128 * w, 2 * MLA_D + 16, 0, 0, &mis);
        CHECK(bf == 0, "pv_bf16's ds_read_b64_tr_b16 operands equal the per-item reads (wave %d: %d bad)", w, bf);
        const int f8 = check_tr8(16 * 37 + 64 * w, MLA_D + 16, &mis);
        CHECK(f8 == 0, "pv_fp8's ds_read_b64_tr_b8 operands equal the byte gathers (wave %d: %d bad)", w, f8);
    }
    check(mis == 0, "every transposing read is 8-byte aligned");
    /* 3. the checks can fail */
    check(dma_check(64, 2 * MLA_D + 16, 2 * MLA_D, 2 * MLA_D, 0, 64) > 0,
          "a DMA lane map that ignores the row padding is caught");
    check(check_tr16(0, 2 * MLA_D + 16, 1, 0, &mis) > 0, "V's two tr16 halves swapped are caught");
    check(check_tr16(0, 2 * MLA_D + 16, 0, 1, &mis) > 0,
          "the other lane grouping (lane 4c + j reads row j) gives other operands: caught");
    printf("%d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
