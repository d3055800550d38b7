// test_mfma_scale_lanes.cpp: mxfp4_mfma_scale's use of gfx950's scaled MFMA
// (v_mfma_scale_f32_16x16x128_f8f6f4, e4m3 A x e2m1 B), checked on the CPU
// against AMD's documented operand layouts (no AMD GPU is at hand):
// 1. variants/mfma_scale_lanes.h's maps equal the documented tables, every
//    lane and item (e4m3: two 16-item halves, k 16g.. and 64 + 16g..; e2m1:
//    32 items from k 32g; a lane's scale byte: its row/column, k-block g).
// 2. Q.K end to end: MXFP8 Q and MXFP4 K (random) are packed into the 64
//    lanes' operands the way qk_mxs (variants/mla_mma.h) addresses LDS, the
//    instruction is modelled from the documented tables only, and the
//    accumulated S over the 18 blocks (8 waves' split: 9 blocks a half,
//    calls of 4, 4, 1) equals sum_d q[h][d] k[n][d] of the dequantized values.
// 3. P.V end to end: the per-lane steps of pv_mxs (V's scale folded into P,
//    the block amax over lanes l and l ^ 16, the MX e4m3 codes, the scale of
//    k-block 1 taken from lane l + 16, V's nibbles gathered down a column)
//    through the modelled instruction equal the reference's arithmetic
//    (mlab_mxfp8_quantize_block of p 2^(e - 127) along 32 rows, times raw E2M1).
// 4. The kernel's MX scale rule (mlab_mx8_scale_byte) equals the reference's
//    (mlab_mxfp8_quantize_block) on random and edge blocks.
// 4b. The reference's fast rounding (mlab_mxfp8_round_block) equals the encoder,
//     e4m3 ties to even included.
// 5. The checker can fail: an e4m3 operand packed as if its 32 items were
//    contiguous (the e2m1 layout) is caught.
#include <math.h>   // ldexp, fabs
#include <stdint.h> // uint8_t, uint32_t
#include <stdio.h>  // printf
#include <stdlib.h> // rand, srand
#include <string.h> // memset

extern "C" {
#include "reference/numerics.h" // mlab_fp8_encode/decode, mlab_e2m1_decode, mlab_e8m0_decode, mlab_mxfp8_quantize_block
}
#include "tests/mlab_check.h"         // check, CHECK
#include "variants/mfma_scale_lanes.h" // mlab_mfs_*, mlab_mx8_*

// ---- AMD's documented layouts (CDNA4 ISA guide, "scaled MFMA"; AMD's
// scale-mapping probe composable_kernel test/mx_mfma_op prints the e4m3 one
// element by element; CK's WarpGemm for e2m1: 32 k a lane group) ----
static int doc_k_f8(int l, int j) { static const int lo[4] = {0, 16, 32, 48}, hi[4] = {64, 80, 96, 112}; return j < 16 ? lo[l / 16] + j : hi[l / 16] + j - 16; }
static int doc_k_f4(int l, int j) { static const int k0[4] = {0, 32, 64, 96}; return k0[l / 16] + j; }

// the operands as registers: a[64][32] items (e4m3 codes), b[64][32] items
// (e2m1 nibbles), scale bytes sa[64], sb[64]
struct regs {
    uint8_t a[64][32], b[64][32];
    int sa[64], sb[64];
};
// D[16][16] += the instruction, from the documented tables only
static void emulate(const regs &r, double d[16][16], int (*ka)(int, int))
{
    double A[16][128], B[128][16];
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    for (int l = 0; l < 64; l++)
        for (int j = 0; j < 32; j++) {
            int k = ka(l, j);
            A[l % 16][k] = mlab_fp8_decode(r.a[l][j], MLAB_FP8_E4M3FN) * ldexp(1.0, r.sa[(k / 32) * 16 + l % 16] - 127);
            int kb = doc_k_f4(l, j);
            B[kb][l % 16] = mlab_e2m1_decode(r.b[l][j]) * ldexp(1.0, r.sb[(kb / 32) * 16 + l % 16] - 127);
        }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double s = 0;
            for (int k = 0; k < 128; k++) s += A[i][k] * B[k][j];
            d[i][j] += s;
        }
}
// the operand items as the kernel builds them from a 32-byte (A) / 16-byte (B) register image
static void unpack_a(const uint8_t bytes[32], uint8_t items[32]) { memcpy(items, bytes, 32); }
static void unpack_b(const uint8_t bytes[16], uint8_t items[32])
{
    for (int j = 0; j < 32; j++) items[j] = (uint8_t)((bytes[j / 2] >> (4 * (j & 1))) & 15); // nibble j, low first
}

static unsigned rnd(void) { return (unsigned)rand(); }
static float rand_val(void) { return ldexpf((float)((int)(rnd() % 2001) - 1000) / 1000.0f, (int)(rnd() % 9) - 4); }

// 2. Q.K: returns the number of (h, n) entries off
static int test_qk(int (*ka)(int, int), bool quiet)
{
    enum { LDQ = 576 + 16, ROW = 288, NB = 18 };
    static uint8_t sq[16 * LDQ + 64], sqs[16 * NB], sk[16 * ROW + 64], sks[16 * NB];
    static float qd[16][576], kd[16][576];
    memset(sq, 0, sizeof sq);
    memset(sk, 0, sizeof sk);
    for (int h = 0; h < 16; h++)
        for (int b = 0; b < NB; b++) {
            float x[32];
            for (int i = 0; i < 32; i++) x[i] = rand_val();
            sqs[h * NB + b] = mlab_mxfp8_quantize_block(x, sq + h * LDQ + 32 * b, qd[h] + 32 * b);
        }
    for (int n = 0; n < 16; n++) {
        for (int i = 0; i < ROW; i++) sk[n * ROW + i] = (uint8_t)rnd();
        for (int b = 0; b < NB; b++) sks[n * NB + b] = (uint8_t)(120 + rnd() % 15);
        for (int d = 0; d < 576; d++) {
            uint8_t byte = sk[n * ROW + d / 2];
            kd[n][d] = mlab_e2m1_decode((d & 1) ? (uint8_t)(byte >> 4) : (uint8_t)(byte & 15)) *
                       mlab_e8m0_decode(sks[n * NB + d / 32]);
        }
    }
    double S[16][16];
    memset(S, 0, sizeof S);
    for (int half = 0; half < 2; half++)
        for (int c = 0; c < 3; c++) {
            const int b0 = 9 * half + 4 * c, nblk = c < 2 ? 4 : 1;
            regs r;
            for (int l = 0; l < 64; l++) { // qk_mxs, lane l
                const int g = l >> 4, row = l & 15;
                uint8_t abytes[32], bbytes[16];
                const uint8_t *qr = sq + row * LDQ + 32 * b0;
                for (int i = 0; i < 16; i++) {
                    abytes[i] = mlab_mfs_q_blk(l, 0) < nblk ? qr[mlab_mfs_q_off(l, 0) + i] : 0;
                    abytes[16 + i] = mlab_mfs_q_blk(l, 1) < nblk ? qr[mlab_mfs_q_off(l, 1) + i] : 0;
                    bbytes[i] = g < nblk ? sk[row * ROW + 16 * b0 + mlab_mfs_k_off(l) + i] : 0;
                }
                unpack_a(abytes, r.a[l]);
                unpack_b(bbytes, r.b[l]);
                r.sa[l] = g < nblk ? sqs[row * NB + b0 + g] : 127;
                r.sb[l] = g < nblk ? sks[row * NB + b0 + g] : 127;
            }
            emulate(r, S, ka);
        }
    int bad = 0;
    for (int h = 0; h < 16; h++)
        for (int n = 0; n < 16; n++) {
            double want = 0, mag = 0;
            for (int d = 0; d < 576; d++) {
                want += (double)qd[h][d] * kd[n][d];
                mag += fabs((double)qd[h][d] * kd[n][d]);
            }
            if (fabs(S[h][n] - want) > 1e-12 * mag + 1e-30) {
                if (!quiet && bad < 3) printf("  S[%d][%d] = %g, want %g\n", h, n, S[h][n], want);
                bad++;
            }
        }
    return bad;
}

// 3. P.V of one wave's first output tile pair (dim block blk), 64 kv rows
static int test_pv(bool quiet)
{
    enum { ROW = 288, NB = 18 };
    static uint8_t sv[64 * ROW], svs[64 * NB];
    static float sp[16][64];
    for (int i = 0; i < 64 * ROW; i++) sv[i] = (uint8_t)rnd();
    for (int i = 0; i < 64 * NB; i++) svs[i] = (uint8_t)(118 + rnd() % 20);
    for (int h = 0; h < 16; h++)
        for (int r = 0; r < 64; r++) sp[h][r] = (float)(rnd() % 100000) / 100000.0f * (rnd() % 4 ? 1.0f : 1e-3f);
    int bad = 0;
    for (int col0 = 0; col0 < 512; col0 += 64) { // the 8 waves
        for (int bb = 0; bb < 2; bb++) {
            const int blk = col0 / 32 + bb;
            float x[64][16];
            int e[64];
            float amax[64];
            for (int l = 0; l < 64; l++) { // pv_mxs, lane l: fold, lane-local amax
                amax[l] = 0;
                for (int j = 0; j < 16; j++) {
                    const int r = mlab_mfs_p_row(l, j);
                    x[l][j] = sp[l & 15][r] * mlab_e8m0_decode(svs[r * NB + blk]);
                    amax[l] = fmaxf(amax[l], fabsf(x[l][j]));
                }
            }
            regs rg;
            for (int l = 0; l < 64; l++) e[l] = mlab_mx8_scale_byte(fmaxf(amax[l], amax[l ^ 16])); // __shfl_xor 16
            for (int l = 0; l < 64; l++) {
                const int g = l >> 4;
                const float inv = mlab_mx8_inv_scale(e[l]);
                for (int j = 0; j < 32; j++)
                    rg.a[l][j] = j < 16 ? mlab_fp8_encode(x[l][j] * inv, MLAB_FP8_E4M3FN) : 0;
                rg.sa[l] = g == 0 ? e[l] : g == 1 ? e[(l + 16) & 63] : 127; // __shfl(e, l + 16)
                rg.sb[l] = 127;
            }
            for (int tt = 0; tt < 2; tt++) {
                for (int l = 0; l < 64; l++) {
                    const int col = col0 + 32 * bb + 16 * tt + (l & 15);
                    for (int j = 0; j < 32; j++)
                        rg.b[l][j] = l < 32 ? (uint8_t)((sv[mlab_mfs_v_row(l, j) * ROW + col / 2] >> (4 * (col & 1))) & 15) : 0;
                }
                double O[16][16];
                memset(O, 0, sizeof O);
                emulate(rg, O, mlab_mfs_k_f8);
                // the reference's arithmetic: MXFP8 of p 2^(e - 127) along rows 0-31 and 32-63
                for (int h = 0; h < 16; h++) {
                    float deq[64];
                    for (int b = 0; b < 2; b++) {
                        float xx[32];
                        uint8_t codes[32];
                        for (int j = 0; j < 32; j++)
                            xx[j] = sp[h][32 * b + j] * mlab_e8m0_decode(svs[(32 * b + j) * NB + blk]);
                        mlab_mxfp8_quantize_block(xx, codes, deq + 32 * b);
                    }
                    for (int c = 0; c < 16; c++) {
                        const int col = col0 + 32 * bb + 16 * tt + c;
                        double want = 0;
                        for (int r = 0; r < 64; r++) {
                            uint8_t byte = sv[r * ROW + col / 2];
                            want += (double)deq[r] * mlab_e2m1_decode((col & 1) ? (uint8_t)(byte >> 4) : (uint8_t)(byte & 15));
                        }
                        if (fabs(O[h][c] - want) > 1e-12 * fabs(want) + 1e-30) {
                            if (!quiet && bad < 3) printf("  O[%d][%d] = %g, want %g\n", h, col, O[h][c], want);
                            bad++;
                        }
                    }
                }
            }
        }
    }
    return bad;
}

int main(void)
{
    srand(12345);
    // 1. the maps
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        for (int j = 0; j < 32; j++) {
            bad += mlab_mfs_k_f8(l, j) != doc_k_f8(l, j);
            bad += mlab_mfs_k_f4(l, j) != doc_k_f4(l, j);
            /* Q.K: item j of lane l reads dim 32 b0 + k of its row; P.V: row k */
            const int half = j >= 16, off = mlab_mfs_q_off(l, half) + (j & 15);
            bad += off != doc_k_f8(l, j);
            bad += mlab_mfs_q_blk(l, half) != doc_k_f8(l, j) / 32;
            bad += 2 * mlab_mfs_k_off(l) + j != doc_k_f4(l, j);
            bad += j < 16 ? mlab_mfs_p_row(l, j) != doc_k_f8(l, j) : mlab_mfs_p_row(l, j) != -1;
            bad += l < 32 ? mlab_mfs_v_row(l, j) != doc_k_f4(l, j) : mlab_mfs_v_row(l, j) != -1;
        }
        bad += mlab_mfs_scale_kblk(l) != l / 16;
    }
    CHECK(bad == 0, "the e4m3 and e2m1 operand maps and scale lanes equal AMD's tables (%d off)", bad);
    // 4. the scale rule, kernel vs reference
    int sbad = 0;
    for (int t = 0; t < 20000; t++) {
        float x[32], dq[32];
        uint8_t codes[32];
        float amax = 0;
        const int ex = (int)(rnd() % 260) - 140; /* finite blocks (no Inf), subnormals included */
        for (int i = 0; i < 32; i++) {
            x[i] = t % 97 == 0 ? 0.0f : ldexpf(rand_val(), ex);
            amax = fmaxf(amax, fabsf(x[i]));
        }
        const int want = mlab_mxfp8_quantize_block(x, codes, dq);
        sbad += mlab_mx8_scale_byte(amax) != want;
        for (int i = 0; i < 32; i++) /* the kernel's encode: x 2^(127 - byte), saturating RNE */
            sbad += mlab_fp8_encode(x[i] * mlab_mx8_inv_scale(want), MLAB_FP8_E4M3FN) != codes[i];
    }
    CHECK(sbad == 0, "the kernel's MX e4m3 scale rule and codes equal the reference quantizer's (%d off)", sbad);
    /* the reference's fast rounding equals the encoder's, elements down to
     * 2^-24 of the block's largest (e4m3 subnormals and zeros included) */
    int fbad = 0;
    for (int t = 0; t < 20000; t++) {
        float x[32], dq[32], fq[32];
        uint8_t codes[32];
        const int ex = (int)(rnd() % 260) - 140;
        for (int i = 0; i < 32; i++) x[i] = ldexpf(rand_val(), ex - (int)(rnd() % 20));
        mlab_mxfp8_quantize_block(x, codes, dq);
        mlab_mxfp8_round_block(x, fq);
        for (int i = 0; i < 32; i++) fbad += memcmp(&dq[i], &fq[i], sizeof(float)) != 0;
    }
    CHECK(fbad == 0, "mlab_mxfp8_round_block equals mlab_mxfp8_quantize_block's dequantized values (%d off)", fbad);
    /* ties (scale 2^0 from 448): 1.0625 and -1.0625 round down to even 1.0, 1.1875 up to even 1.25 */
    {
        float x[32] = {448.0f, 1.0625f, 1.1875f, -1.0625f}, dq[32], fq[32];
        uint8_t codes[32];
        mlab_mxfp8_quantize_block(x, codes, dq);
        mlab_mxfp8_round_block(x, fq);
        CHECK(memcmp(dq, fq, sizeof dq) == 0 && fq[1] == 1.0f && fq[2] == 1.25f && fq[3] == -1.0f,
              "mlab_mxfp8_round_block rounds e4m3 ties to even like the encoder (1.0625 1.1875 -1.0625 -> %g %g %g, "
              "encoder %g %g %g)", fq[1], fq[2], fq[3], dq[1], dq[2], dq[3]);
    }
    // 2, 3
    int q = test_qk(mlab_mfs_k_f8, false);
    CHECK(q == 0, "Q.K through the modelled scaled MFMA equals sum_d q k (%d of 256 off)", q);
    int p = test_pv(false);
    CHECK(p == 0, "P.V with V's scales folded equals the reference's MX arithmetic (%d off)", p);
    // 5. negative control: e4m3 items read as contiguous
    int neg = test_qk(doc_k_f4, true);
    check(neg > 0, "negative control: e4m3 packed with the e2m1 (contiguous) layout is caught");
    printf("test_mfma_scale_lanes: %d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
