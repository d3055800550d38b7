// test_mfma_lanes.cpp: the lane <-> element maps the AMD helpers of
// variants/mla_mma.h use (variants/mfma_lanes.h) put every matrix element
// where AMD's documented MFMA layouts want it, and the fp8 byte packings put
// each code in its operand item. No AMD GPU is at hand, so this is the check.
//
// 1. Every (lane, item) of the A, B and D operands of each MFMA the AMD path
//    issues, mapped by mfma_lanes.h, equals the documented table below.
// 2. End to end: random integer matrices are loaded into "registers" the way
//    the helpers address shared memory (qk_*: Q and K row-major tiles with
//    padded rows; pv_*: P row-major, V [kv row][dim]), an MFMA is modelled
//    from the documented table only, and the accumulators read back through
//    acc_row/acc_col equal the exact product.
// 3. The checker can fail: the 16x16x16 map applied to a 16x16x32 MFMA, and a
//    transposed result map, are both caught.
#include <stdint.h> // uint8_t, uint64_t
#include <stdio.h>  // printf
#include <string.h> // memcpy

#include "tests/mlab_check.h"   // check, CHECK
#include "variants/mfma_lanes.h" // mlab_mfma_row, mlab_mfma_k, mlab_mfma_a_off, mlab_mfma_d_row

// AMD's documented layouts (CDNA3 ISA reference guide, "Matrix fused-multiply-
// add" and its register-layout tables; CDNA4 (gfx950) ISA guide for the
// 16x16x32 bf16/f16 forms; the AMD Matrix Instruction Calculator prints the
// same per element). For the 16 x 16 x K instructions, a wave's 64 lanes
// form 4 groups of 16: lane l of group g = l / 16 holds
//   A: row l % 16, k = a_k0[g] + item (items 0 .. kpl-1, low bits first)
//   B: column l % 16, the same k as A
//   D: column l % 16, row = d_r0[g] + item (4 fp32 items)
struct doc_layout {
    const char *insn;
    int k, kpl; // k of the instruction, operand items a lane
    int a_k0[4];
    int d_r0[4];
};
static const doc_layout docs[] = {
    {"v_mfma_f32_16x16x16_bf16 / _f16 (gfx90a+)", 16, 4, {0, 4, 8, 12}, {0, 4, 8, 12}},
    {"v_mfma_f32_16x16x32_bf16 / _f16 (gfx950)", 32, 8, {0, 8, 16, 24}, {0, 4, 8, 12}},
    {"v_mfma_f32_16x16x32_fp8_fp8 (gfx940+, 8 bytes a lane)", 32, 8, {0, 8, 16, 24}, {0, 4, 8, 12}},
};

// the documented element of (lane, item)
static void doc_a(const doc_layout &d, int l, int j, int *row, int *k) { *row = l % 16, *k = d.a_k0[l / 16] + j; }
static void doc_d(const doc_layout &d, int l, int e, int *row, int *col) { *row = d.d_r0[l / 16] + e, *col = l % 16; }

// 1. the maps themselves, every lane and item; returns the mismatches
static int check_maps(const doc_layout &d, int kpl, int esz, bool transposed_d, bool quiet)
{
    const int ld = 16 * 1024 + 48; // a padded row, as the kernel's LDQ/LDK/LDP
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        for (int j = 0; j < d.kpl; j++) {
            int r, k;
            doc_a(d, l, j, &r, &k);
            int off = mlab_mfma_a_off(l, ld, kpl, esz) + esz * j; /* item j follows item 0 */
            int cr = off / ld, ck = (off % ld) / esz;
            int bk = mlab_mfma_k(l, j, kpl), bc = mlab_mfma_row(l); /* B = V[k][col] */
            if (cr != r || ck != k || bk != k || bc != l % 16) {
                if (!quiet && bad < 5)
                    printf("  %s lane %d item %d: code A(%d,%d) B(%d,%d), documented A(%d,%d) B(%d,%d)\n", d.insn,
                           l, j, cr, ck, bk, bc, r, k, k, l % 16);
                bad++;
            }
        }
        for (int e = 0; e < 4; e++) {
            int r, c;
            doc_d(d, l, e, &r, &c);
            int cr = mlab_mfma_d_row(l, e), cc = mlab_mfma_row(l);
            if (transposed_d) { int t = cr; cr = cc; cc = t; }
            if (cr != r || cc != c) {
                if (!quiet && bad < 5)
                    printf("  %s lane %d acc %d: code D(%d,%d), documented D(%d,%d)\n", d.insn, l, e, cr, cc, r, c);
                bad++;
            }
        }
    }
    return bad;
}

// 2. end to end. Q [16][K] and Kt [16][K] (S = Q Kt^T) or P [16][K] and
// V [K][16] (O = P V), small integers, exact in fp32 and in every format.
static uint32_t rng = 12345;
static int rnd(void) { rng = rng * 1664525u + 1013904223u; return (int)(rng >> 28) - 8; }

// The modelled MFMA: A and B registers [lane][item] -> D [lane][4], from the
// documented table alone.
static void mfma_model(const doc_layout &d, const int (*a)[8], const int (*b)[8], int (*dacc)[4])
{
    int A[16][32] = {}, B[32][16] = {};
    for (int l = 0; l < 64; l++)
        for (int j = 0; j < d.kpl; j++) {
            int r, k;
            doc_a(d, l, j, &r, &k);
            A[r][k] = a[l][j];
            B[k][l % 16] = b[l][j];
        }
    for (int l = 0; l < 64; l++)
        for (int e = 0; e < 4; e++) {
            int r, c, s = 0;
            doc_d(d, l, e, &r, &c);
            for (int k = 0; k < d.k; k++) s += A[r][k] * B[k][c];
            dacc[l][e] += s;
        }
}

// qk as the helpers do it: A and B both read like A from row-major tiles
// (esz bytes an element; the fp8 form loads 8 bytes as one 64-bit operand)
static int check_qk(const doc_layout &d, int esz, int kb_elems, int load_kpl)
{
    enum { LD = 288 + 8 }; /* elements a padded row */
    static int q[16 * LD], kt[16 * LD]; /* flat: the helpers address bytes */
    for (int i = 0; i < 16 * LD; i++) q[i] = rnd(), kt[i] = rnd();
    int acc[64][4] = {};
    for (int k0 = 0; k0 < kb_elems; k0 += d.k) {
        int a[64][8], b[64][8];
        for (int l = 0; l < 64; l++) {
            int off = mlab_mfma_a_off(l, LD * esz, load_kpl, esz) / esz + k0; /* element offset */
            if (esz == 1) { /* fp8: item j = byte j of the little-endian 64-bit load */
                uint8_t qb[8], kb8[8];
                for (int j = 0; j < 8; j++) qb[j] = (uint8_t)q[off + j], kb8[j] = (uint8_t)kt[off + j];
                uint64_t qw, kw;
                memcpy(&qw, qb, 8), memcpy(&kw, kb8, 8);
                for (int j = 0; j < 8; j++)
                    a[l][j] = (int8_t)(qw >> (8 * j)), b[l][j] = (int8_t)(kw >> (8 * j));
            } else
                for (int j = 0; j < d.kpl; j++) a[l][j] = q[off + j], b[l][j] = kt[off + j];
        }
        mfma_model(d, a, b, acc);
    }
    int bad = 0;
    for (int l = 0; l < 64; l++)
        for (int e = 0; e < 4; e++) {
            int r = mlab_mfma_d_row(l, e), c = mlab_mfma_row(l), s = 0; /* acc_row, acc_col */
            for (int k = 0; k < kb_elems; k++) s += q[r * LD + k] * kt[c * LD + k];
            bad += acc[l][e] != s;
        }
    return bad;
}

// pv as the helpers do it: A = P row-major, B item j = V[k0 + mlab_mfma_k(l, j)][16 t + l % 16].
// pack 1 (pv_fp8, 16x16x16 f16): two codes (rows i, i+1) -> one f16x2 word, low half = row i;
// pack 2 (pv_fp8 on gfx950's fp8 MFMA): P codes (4 a dword, item 0 low) and V
// codes of rows 4h .. 4h+3 in dword h, low byte first, the two dwords one 64-bit operand
static uint64_t pack8(const int *x)
{
    uint32_t w[2] = {0, 0};
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < 4; i++) w[h] |= (uint32_t)(uint8_t)x[4 * h + i] << (8 * i);
    return (uint64_t)w[0] | (uint64_t)w[1] << 32;
}
static int check_pv(const doc_layout &d, int pack)
{
    enum { LDP = 72, NCOL = 64 };
    static int p[16 * LDP], v[64][NCOL];
    for (int i = 0; i < 16 * LDP; i++) p[i] = rnd();
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < NCOL; c++) v[r][c] = rnd();
    int bad = 0;
    for (int t = 0; t < NCOL / 16; t++) {
        int acc[64][4] = {};
        for (int kk = 0; kk < 64; kk += d.k) {
            int a[64][8], b[64][8];
            for (int l = 0; l < 64; l++) {
                int off = mlab_mfma_a_off(l, LDP * 2, d.kpl, 2) / 2 + kk;
                for (int j = 0; j < d.kpl; j++) a[l][j] = p[off + j];
                int row0 = kk + mlab_mfma_k(l, 0, d.kpl), col = 16 * t + mlab_mfma_row(l);
                if (pack == 2) { /* item j = byte j of the 64-bit operands */
                    int vc[8];
                    for (int j = 0; j < 8; j++) vc[j] = v[row0 + j][col];
                    uint64_t aw = pack8(a[l]), bw = pack8(vc);
                    for (int j = 0; j < 8; j++) a[l][j] = (int8_t)(aw >> (8 * j)), b[l][j] = (int8_t)(bw >> (8 * j));
                    continue;
                }
                for (int j = 0; j < d.kpl; j += 2) {
                    if (pack == 1) { /* v[i * ldv] | v[(i + 1) * ldv] << 8 -> f16x2: lo, hi */
                        uint16_t two = (uint16_t)((uint8_t)v[row0 + j][col] | (uint8_t)v[row0 + j + 1][col] << 8);
                        b[l][j] = (int8_t)(two & 0xff), b[l][j + 1] = (int8_t)(two >> 8);
                    } else
                        b[l][j] = v[row0 + j][col], b[l][j + 1] = v[row0 + j + 1][col];
                }
            }
            mfma_model(d, a, b, acc);
        }
        for (int l = 0; l < 64; l++)
            for (int e = 0; e < 4; e++) {
                int r = mlab_mfma_d_row(l, e), c = 16 * t + mlab_mfma_row(l), s = 0;
                for (int k = 0; k < 64; k++) s += p[r * LDP + k] * v[k][c];
                bad += acc[l][e] != s;
            }
    }
    return bad;
}

int main(void)
{
    const doc_layout &k16 = docs[0], &k32 = docs[1], &f8 = docs[2];
    // 1. maps
    CHECK(check_maps(k16, 4, 2, false, false) == 0, "16x16x16 bf16/f16 lane maps match AMD's layout");
    CHECK(check_maps(k32, 8, 2, false, false) == 0, "16x16x32 bf16/f16 (gfx950) lane maps match AMD's layout");
    CHECK(check_maps(f8, 8, 1, false, false) == 0, "16x16x32 fp8 lane maps (byte items) match AMD's layout");
    // 2. end to end, as qk_bf16 (K16 and gfx950's K32), qk_fp8, pv_bf16 (both), pv_fp8 (both)
    CHECK(check_qk(k16, 2, 288, 4) == 0, "qk_bf16 with 16x16x16: S = Q K^T in every accumulator");
    CHECK(check_qk(k32, 2, 288, 8) == 0, "qk_bf16 with 16x16x32 (gfx950): S = Q K^T in every accumulator");
    CHECK(check_qk(f8, 1, 288, 8) == 0, "qk_fp8: 8 codes a lane, byte j = item j: S = Q K^T");
    CHECK(check_pv(k16, 0) == 0, "pv_bf16 with 16x16x16: O = P V in every accumulator");
    CHECK(check_pv(k32, 0) == 0, "pv_bf16 with 16x16x32 (gfx950): O = P V in every accumulator");
    CHECK(check_pv(k16, 1) == 0, "pv_fp8 with 16x16x16 f16: V byte pairs -> f16x2 items, O = P V");
    CHECK(check_pv(f8, 2) == 0, "pv_fp8 on the fp8 MFMA (gfx950): P and V codes, byte j = item j, O = P V");
    // 3. the checker fails when it should
    CHECK(check_maps(k32, 4, 2, false, true) > 0, "a 16x16x16 map used for a 16x16x32 MFMA is caught");
    CHECK(check_maps(k16, 4, 2, true, true) > 0, "a transposed accumulator map is caught");
    CHECK(check_qk(k32, 2, 288, 4) > 0, "operands loaded with the 16x16x16 map into a 16x16x32 MFMA give a wrong S");
    printf("%d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
