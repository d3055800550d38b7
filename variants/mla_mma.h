/* mla_mma.h: the matrix-unit helpers, one set per vendor, same signatures.
 *
 * Every helper works on 16 x 16 fp32 accumulator tiles held by one warp
 * (NVIDIA, 32 lanes: two mma.m16n8 tiles, 8 floats a lane) or one wave
 * (AMD, 64 lanes: one MFMA 16x16 tile, 4 floats a lane). Operands come from
 * shared memory; ldmatrix on NVIDIA, plain LDS reads on AMD. The kernel only
 * sees: acc16, MLAB_ACC_N, acc_row(e), *_col(e) and the four products
 *   qk_bf16<KB> / qk_fp8<KB>  S[16 x 16] += Q[16 x KB bytes] . K[16 rows x KB bytes]^T
 *                             (qk_fp8: AMD only)
 *   qreg_fp8_load / qk_fp8_qreg (NVIDIA, MLAB_QREG): fp8 Q kept in registers
 *                             as f16 fragments, S[16 x 32] per call
 *   pv_bf16<NT> / pv_fp8<NT>  O[16 x 16 NT] += P[16 x 64] . V[64 rows x 16 NT cols]
 *   qk_fp8_qreg_sw / pv_fp8_sw (NVIDIA, TMAP): the fp8 ones over a tile of
 *                             64-byte swizzled panels (arch/nv_tma.h)
 * pv_fp8 takes P as f16 (values already rounded to fp8, so exact) and V as
 * fp8 codes; on NVIDIA it transposes V with ldmatrix.trans on byte pairs and
 * splits even and odd columns into two n8 tiles (pv_fp8_col gives the
 * resulting column of each accumulator element), so no shared-memory
 * conversion pass is needed.
 * The NVIDIA half is below; the AMD half, with every MFMA and fp8 cvt
 * builtin, is variants/arch/amd_mfma.h.
 */
#ifndef MLAB_MLA_MMA_H
#define MLAB_MLA_MMA_H

#include "mlab_hip.h"

#ifdef MLAB_NV
#define MLAB_ACC_N 8
struct acc16 { float c[8]; };

MLAB_DEV int lane_id(void) { return threadIdx.x & 31; }
/* element e: n8 tile j = e / 4, register i = e % 4 */
MLAB_DEV int acc_row(int e) { return (lane_id() >> 2) + 8 * ((e & 3) >> 1); }
/* lanes l and l ^ m (m <= MLAB_ACC_ROW_LANES) hold elements of the same rows */
#define MLAB_ACC_ROW_LANES 3
/* floats of padding a row of S in shared memory (mla_cfg::LDS = BN + this):
 * a warp's float2 stores of its accumulators (lane l: row l / 4, columns
 * 2 (l % 4) and one on) go 16 lanes at a time; at a row of BN + 8 floats
 * those 16 lanes hit 32 different banks (8 (l / 4) + 2 (l % 4), mod 32),
 * at BN + 4 (before v23) rows l / 4 and l / 4 + 1 met: 2-way conflicts, 8
 * such stores a warp and tile (ncu, h200-2026-12-02w) */
#define MLAB_S_PAD 8
MLAB_DEV int acc_col(int e) { return 8 * (e >> 2) + 2 * (lane_id() & 3) + (e & 1); }
MLAB_DEV int pv_bf16_col(int e) { return acc_col(e); }
MLAB_DEV int pv_fp8_col(int e) { return 4 * (lane_id() & 3) + 2 * (e & 1) + (e >> 2); }
/* A lane's accumulator elements as runs of consecutive output columns of one
 * row (one vector store each): run r, element k (k < RUN). fp8 P.V: columns
 * 4t .. 4t+3 of row g (r = 0) or g+8 (r = 1) from elements 2r, 2r+4, 2r+1,
 * 2r+5; bf16: the pairs 2r, 2r+1. */
#define MLAB_RUN_FP8 4
#define MLAB_RUN_BF16 2
MLAB_DEV int run_elem(bool fp8, int r, int k) { return fp8 ? 2 * r + 4 * (k & 1) + (k >> 1) : 2 * r + k; }

MLAB_DEV uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
MLAB_DEV void ldsm4(uint32_t r[4], const void *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(p)));
}
MLAB_DEV void ldsm4t(uint32_t r[4], const void *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(p)));
}
MLAB_DEV void mma_bf16(float *c, const uint32_t *a, uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
MLAB_DEV void mma_f16(float *c, const uint32_t *a, uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* Shared layout of every 16-row operand: row-major, ld in BYTES. A 16 x 16-byte
 * block is one ldmatrix.x4; the lane address of an A operand is row l % 16,
 * byte column 16 * (l / 16); of a K operand (n-major) row (l & 7) + 8 * (l >> 4),
 * byte column 16 * ((l >> 3) & 1). */
template <int KBYTES>
MLAB_DEV void qk_tile(acc16 &s, const uint8_t *sq, int ldq, const uint8_t *sk, int ldk)
{
    const int l = lane_id();
    const uint8_t *qa = sq + (l & 15) * ldq + 16 * (l >> 4);
    const uint8_t *kb = sk + ((l & 7) + 8 * (l >> 4)) * ldk + 16 * ((l >> 3) & 1);
    /* two accumulator sets (even / odd k-steps of 32 bytes): four mma chains */
    float x[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll
    for (int k = 0; k < KBYTES; k += 32) {
        uint32_t a[4], b[4];
        ldsm4(a, qa + k);
        ldsm4(b, kb + k);
        float *acc = (k / 32) % 2 ? x : s.c;
        mma_bf16(acc, a, b[0], b[1]);
        mma_bf16(acc + 4, a, b[2], b[3]);
    }
#pragma unroll
    for (int e = 0; e < 8; e++)
        s.c[e] += x[e];
}
/* S += Q . K^T over KB bytes of each row (a slice of the 576 dims; sq and sk
 * point at the slice), bf16 operands. The fp8 Q.K on NVIDIA is qk_fp8_qreg. */
template <int KB>
MLAB_DEV void qk_bf16(acc16 &s, const uint16_t *sq, int ldq_b, const uint16_t *sk, int ldk_b)
{
    qk_tile<KB>(s, (const uint8_t *)sq, ldq_b, (const uint8_t *)sk, ldk_b);
}

/* The a8w8 Q.K with Q held in registers (NVIDIA). Hopper has no fp8
 * mma.sync of its own: ptxas lowers m16n8k32.e4m3 into byte unpacks (F2FP)
 * of both operands, two f16 HMMAs and four FADDs (seen in the SASS), and Q,
 * the same for every tile, would be read from shared memory and unpacked
 * again each time. Instead a warp unpacks its slice of Q once into f16 A
 * fragments (qreg_fp8_load, qreg_fp8_unpack: 36 registers) and per tile reads only K: ldmatrix of 32 K rows x
 * 16 bytes gives a lane 4 codes a matrix, K[n][4t .. 4t+3]; unpacking bytes
 * 0-1 and 2-3 gives the two B registers of an m16n8k16 whose k slots
 * (2t, 2t+1, 2t+8, 2t+9) hold dims (4t, 4t+1, 4t+2, 4t+3) of the 16-dim
 * step. The Q fragments use the same order, and the sum does not care. */
#define MLAB_QREG 1
/* qf[s]: the fp8 codes of the A fragment of dims 16s .. 16s+15 of the slice
 * at sq (fp8 Q rows, ldq bytes apart): rows g and g+8, dims 4t .. 4t+3.
 * Loaded as codes (2 registers a step), unpacked once by qreg_fp8_unpack. */
template <int NSTEP, int STEP_BYTES = 16> /* STEP_BYTES: 64 for a slice of swizzled panels (qk_fp8_qreg_sw) */
MLAB_DEV void qreg_fp8_load(uint32_t (&qf)[NSTEP][2], const uint8_t *sq, int ldq)
{
    const int l = lane_id(), g = l >> 2, t = l & 3;
#pragma unroll
    for (int s = 0; s < NSTEP; s++) {
        qf[s][0] = *(const uint32_t *)(sq + g * ldq + STEP_BYTES * s + 4 * t);
        qf[s][1] = *(const uint32_t *)(sq + (g + 8) * ldq + STEP_BYTES * s + 4 * t);
    }
}
/* The codes unpacked once into the f16 A fragments qh of each step (36
 * registers a warp's slice, not 18: H200, papers/perf-notes.md v13, 36
 * conversions a warp and tile fewer, a8w8 long calls -0.5..-1.5%) */
template <int NSTEP>
MLAB_DEV void qreg_fp8_unpack(uint32_t (&qh)[NSTEP][4], const uint32_t (&qf)[NSTEP][2])
{
#pragma unroll
    for (int st = 0; st < NSTEP; st++) {
        mlab_fp8x4_to_f16x2x2(qf[st][0], qh[st][0], qh[st][2]);
        mlab_fp8x4_to_f16x2x2(qf[st][1], qh[st][1], qh[st][3]);
    }
}
/* one 16-dim step of S[16 x 32] += Q . K^T: ldmatrix of the 32 K rows' 16
 * codes at kb (lane l addresses row l), unpacked into the B registers of
 * four m16n8k16 (matrix j: rows 8j .. 8j+7), against the step's Q fragment */
MLAB_DEV void qk_fp8_step(acc16 (&s)[2], const uint32_t (&qh)[4], const uint8_t *kb)
{
    uint32_t b[4];
    ldsm4(b, kb);
#pragma unroll
    for (int j = 0; j < 4; j++) {
        uint32_t k0, k1;
        mlab_fp8x4_to_f16x2x2(b[j], k0, k1);
        mma_f16(s[j >> 1].c + 4 * (j & 1), qh, k0, k1);
    }
}
/* S[16 x 32] (two acc16) += Q . K^T over the slice: sk = 32 fp8 K rows at the
 * slice's first dim, qh its Q fragments (qreg_fp8_unpack). */
template <int NSTEP>
MLAB_DEV void qk_fp8_qreg(acc16 (&s)[2], const uint32_t (&qh)[NSTEP][4], const uint8_t *sk, int ldk)
{
    const uint8_t *kb = sk + lane_id() * ldk; /* matrix j: K rows 8j .. 8j+7 */
#pragma unroll
    for (int st = 0; st < NSTEP; st++) qk_fp8_step(s, qh[st], kb + 16 * st);
}

/* The same over a tile of 64-byte swizzled panels (mla_cfg::TMAP,
 * arch/nv_tma.h: row r's 16-byte chunk c of panel p at p * 4096 + 64 r +
 * 16 (c ^ ((r >> 1) & 3))): the warp's dim slice d is chunk d of every
 * panel (dims 64 st + 16 d .. +15 at step st; its Q fragments loaded with
 * qreg_fp8_load<NSTEP, 64> from dim 16 d), so a lane's address is one base
 * and an immediate panel offset a step; sk = the tile, rows row0 .. row0 + 31. */
template <int NSTEP>
MLAB_DEV void qk_fp8_qreg_sw(acc16 (&s)[2], const uint32_t (&qh)[NSTEP][4], const uint8_t *sk, int row0, int d)
{
    const int r = row0 + lane_id(); /* matrix j: rows row0 + 8j .. + 7 */
    const uint8_t *kb = sk + 64 * r + ((d ^ ((r >> 1) & 3)) << 4);
#pragma unroll
    for (int st = 0; st < NSTEP; st++) qk_fp8_step(s, qh[st], kb + 4096 * st);
}

/* MXFP4 on the fp8 core (KV_MX8): S += Q . K^T over KBK bytes of e4m3 K
 * (KBK dims), Q in shared memory as f16, each 16-dim group stored in the
 * k-slot order mlab_qk_perm16 gives: ldmatrix of 8 K rows x 16 bytes gives
 * lane (g, t) the codes K[g][4t .. 4t+3], which unpack to the B registers of
 * k slots (2t, 2t+1) and (2t+8, 2t+9); storing Q's dim 4t + i at slot
 * perm(4t + i) makes ldmatrix of Q give the A fragment of the same slots. */
MLAB_DEV int mlab_qk_perm16(int j) { return 2 * (j >> 2) + (j & 1) + ((j & 2) ? 8 : 0); }
template <int KBK>
MLAB_DEV void qk_f16q_fp8k(acc16 &s, const uint8_t *sq, int ldq, const uint8_t *sk, int ldk)
{
    const int l = lane_id();
    const uint8_t *qa = sq + (l & 15) * ldq + 16 * (l >> 4);
    /* matrices: (K rows 0-7, bytes 0-15) (0-7, 16-31) (8-15, 0-15) (8-15, 16-31) */
    const uint8_t *kb = sk + ((l & 7) + 8 * (l >> 4)) * ldk + 16 * ((l >> 3) & 1);
    float x[8] = {0, 0, 0, 0, 0, 0, 0, 0}; /* odd k-steps: a second chain */
#pragma unroll
    for (int k = 0; k < KBK; k += 32) { /* 32 codes: two 16-dim steps */
        uint32_t b[4], a0[4], a1[4];
        ldsm4(b, kb + k);
        ldsm4(a0, qa + 2 * k);
        ldsm4(a1, qa + 2 * k + 32);
        uint32_t kh[4][2];
#pragma unroll
        for (int j = 0; j < 4; j++) mlab_fp8x4_to_f16x2x2(b[j], kh[j][0], kh[j][1]);
        mma_f16(s.c, a0, kh[0][0], kh[0][1]);
        mma_f16(s.c + 4, a0, kh[2][0], kh[2][1]);
        mma_f16(x, a1, kh[1][0], kh[1][1]);
        mma_f16(x + 4, a1, kh[3][0], kh[3][1]);
    }
#pragma unroll
    for (int e = 0; e < 8; e++)
        s.c[e] += x[e];
}

/* O[16 x 16 NT] += P[16 x 64] . V[64 x 16 NT]; P bf16 row-major (ldp bytes), V bf16
 * [kv row][dim] (ldv bytes), pointing at this warp's first column. */
template <int NT, int KR = 64> /* KR: kv rows of the tile */
MLAB_DEV void pv_bf16(acc16 *o, const uint16_t *sp, int ldp, const uint16_t *sv, int ldv)
{
    static_assert(KR == 64 || KR == 32, "mla_mma.h: NVIDIA tiles are 64 or 32 rows");
    const int l = lane_id();
    const uint8_t *pa = (const uint8_t *)sp + (l & 15) * ldp + 16 * (l >> 4);
    /* .trans: matrices (k0-7,n0-7) (k8-15,n0-7) (k0-7,n8-15) (k8-15,n8-15) */
    const uint8_t *vb = (const uint8_t *)sv + ((l & 7) + 8 * ((l >> 3) & 1)) * ldv + 16 * (l >> 4);
#pragma unroll
    for (int kk = 0; kk < KR / 16; kk++) {
        uint32_t a[4];
        ldsm4(a, pa + 32 * kk);
#pragma unroll
        for (int t = 0; t < NT; t++) {
            uint32_t b[4];
            ldsm4t(b, vb + 16 * kk * ldv + 32 * t);
            mma_bf16(o[t].c, a, b[0], b[1]);
            mma_bf16(o[t].c + 4, a, b[2], b[3]);
        }
    }
}

/* 16 kv rows x 32 columns of O += P . V: ldmatrix.trans of byte pairs at vb
 * (the lane's row and 16-byte chunk, pv_fp8's map), each word's bytes 0, 2 |
 * 1, 3 into its halves by one permute, then the even and odd columns' n8
 * tiles of the two 16-column tiles o[0], o[1], against P's fragment a */
MLAB_DEV void pv_fp8_step(acc16 *o, const uint32_t (&a)[4], const uint8_t *vb)
{
    uint32_t b[4];
    ldsm4t(b, vb);
#pragma unroll
    for (int h = 0; h < 2; h++) {
        uint32_t e0, e1, d0, d1;
        mlab_fp8x4_to_f16x2x2(mlab_prmt(b[2 * h], 0, 0x3120), e0, d0);
        mlab_fp8x4_to_f16x2x2(mlab_prmt(b[2 * h + 1], 0, 0x3120), e1, d1);
        mma_f16(o[h].c, a, e0, e1);
        mma_f16(o[h].c + 4, a, d0, d1);
    }
}
/* The same with P as f16 and V as fp8 codes (P.V as an "e4m3" MMA with V
 * transposed by byte permutes was tried: 2-3% slower on the H200, where that
 * MMA is emulated, see qk_fp8_qreg). ldmatrix.trans on byte pairs
 * gives lane (g, t) the bytes {V[2t][2g], V[2t][2g+1], V[2t+1][2g], V[2t+1][2g+1]};
 * bytes 0,2 are column 2g (the "even" n8 tile), bytes 1,3 column 2g+1 ("odd"). */
template <int NT, int KR = 64> /* KR: kv rows of the tile */
MLAB_DEV void pv_fp8(acc16 *o, const uint16_t *sp, int ldp, const uint8_t *sv, int ldv)
{
    static_assert(KR == 64 || KR == 32, "mla_mma.h: NVIDIA tiles are 64 or 32 rows");
    const int l = lane_id();
    const uint8_t *pa = (const uint8_t *)sp + (l & 15) * ldp + 16 * (l >> 4);
    /* matrices: (k0-7, bytes 0-15) (k8-15, bytes 0-15) (k0-7, 16-31) (k8-15, 16-31) */
    const uint8_t *vb = sv + ((l & 7) + 8 * ((l >> 3) & 1)) * ldv + 16 * (l >> 4);
#pragma unroll
    for (int kk = 0; kk < KR / 16; kk++) {
        uint32_t a[4];
        ldsm4(a, pa + 32 * kk);
#pragma unroll
        for (int t = 0; t < NT / 2; t++) /* 32 columns (two 16-column tiles) per ldmatrix */
            pv_fp8_step(o + 2 * t, a, vb + 16 * kk * ldv + 32 * t);
    }
}

/* pv_fp8 over one 64-byte swizzled panel (mla_cfg::TMAP): sv = the panel of
 * this warp's 64 output columns; the lane's 16-byte chunk (l >> 4) + 2t of
 * row (l & 7) + 8 ((l >> 3) & 1) + 16 kk is at one of two bases (t = 0, 1)
 * plus an immediate 1024 kk. */
template <int NT>
MLAB_DEV void pv_fp8_sw(acc16 *o, const uint16_t *sp, int ldp, const uint8_t *sv)
{
    static_assert(NT == 4, "pv_fp8_sw: a panel is 64 columns");
    const int l = lane_id(), r = (l & 7) + 8 * ((l >> 3) & 1), x = (r >> 1) & 3;
    const uint8_t *pa = (const uint8_t *)sp + (l & 15) * ldp + 16 * (l >> 4);
    const uint8_t *vb[2] = {sv + 64 * r + ((((l >> 4)) ^ x) << 4), sv + 64 * r + (((2 + (l >> 4)) ^ x) << 4)};
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
        uint32_t a[4];
        ldsm4(a, pa + 32 * kk);
#pragma unroll
        for (int t = 0; t < NT / 2; t++) {
            pv_fp8_step(o + 2 * t, a, vb[t] + 1024 * kk);
        }
    }
}

#else /* ---------------------------------------------------------------- AMD */
#include "arch/amd_mfma.h" // the same helpers on AMD's matrix instructions (MFMA builtins, fp8 cvt)
#endif

#endif
