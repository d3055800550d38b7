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
 * pv_fp8 takes P as f16 (values already rounded to fp8, so exact) and V as
 * fp8 codes; on NVIDIA it transposes V with ldmatrix.trans on byte pairs and
 * splits even and odd columns into two n8 tiles (pv_fp8_col gives the
 * resulting column of each accumulator element), so no shared-memory
 * conversion pass is needed.
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
 * fragment codes (qreg_fp8_load: 18 registers) and per tile reads only K: ldmatrix of 32 K rows x
 * 16 bytes gives a lane 4 codes a matrix, K[n][4t .. 4t+3]; unpacking bytes
 * 0-1 and 2-3 gives the two B registers of an m16n8k16 whose k slots
 * (2t, 2t+1, 2t+8, 2t+9) hold dims (4t, 4t+1, 4t+2, 4t+3) of the 16-dim
 * step. The Q fragments use the same order, and the sum does not care. */
#define MLAB_QREG 1
/* qf[s]: the fp8 codes of the A fragment of dims 16s .. 16s+15 of the slice
 * at sq (fp8 Q rows, ldq bytes apart): rows g and g+8, dims 4t .. 4t+3.
 * Kept as codes (2 registers a step, not 4) and unpacked at each use. */
template <int NSTEP>
MLAB_DEV void qreg_fp8_load(uint32_t (&qf)[NSTEP][2], const uint8_t *sq, int ldq)
{
    const int l = lane_id(), g = l >> 2, t = l & 3;
#pragma unroll
    for (int s = 0; s < NSTEP; s++) {
        qf[s][0] = *(const uint32_t *)(sq + g * ldq + 16 * s + 4 * t);
        qf[s][1] = *(const uint32_t *)(sq + (g + 8) * ldq + 16 * s + 4 * t);
    }
}
/* S[16 x 32] (two acc16) += Q . K^T over the slice: sk = 32 fp8 K rows at the
 * slice's first dim. */
template <int NSTEP>
MLAB_DEV void qk_fp8_qreg(acc16 (&s)[2], const uint32_t (&qf)[NSTEP][2], const uint8_t *sk, int ldk)
{
    const uint8_t *kb = sk + lane_id() * ldk; /* matrix j: K rows 8j .. 8j+7 */
#pragma unroll
    for (int st = 0; st < NSTEP; st++) {
        uint32_t b[4], a[4];
        ldsm4(b, kb + 16 * st);
        a[0] = mlab_fp8x2_to_f16x2((uint16_t)qf[st][0]);
        a[1] = mlab_fp8x2_to_f16x2((uint16_t)qf[st][1]);
        a[2] = mlab_fp8x2_to_f16x2((uint16_t)(qf[st][0] >> 16));
        a[3] = mlab_fp8x2_to_f16x2((uint16_t)(qf[st][1] >> 16));
#pragma unroll
        for (int j = 0; j < 4; j++)
            mma_f16(s[j >> 1].c + 4 * (j & 1), a, mlab_fp8x2_to_f16x2((uint16_t)b[j]),
                    mlab_fp8x2_to_f16x2((uint16_t)(b[j] >> 16)));
    }
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
        mma_f16(s.c, a0, mlab_fp8x2_to_f16x2((uint16_t)b[0]), mlab_fp8x2_to_f16x2((uint16_t)(b[0] >> 16)));
        mma_f16(s.c + 4, a0, mlab_fp8x2_to_f16x2((uint16_t)b[2]), mlab_fp8x2_to_f16x2((uint16_t)(b[2] >> 16)));
        mma_f16(x, a1, mlab_fp8x2_to_f16x2((uint16_t)b[1]), mlab_fp8x2_to_f16x2((uint16_t)(b[1] >> 16)));
        mma_f16(x + 4, a1, mlab_fp8x2_to_f16x2((uint16_t)b[3]), mlab_fp8x2_to_f16x2((uint16_t)(b[3] >> 16)));
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
    static_assert(KR == 64, "mla_mma.h: NVIDIA tiles are 64 rows");
    const int l = lane_id();
    const uint8_t *pa = (const uint8_t *)sp + (l & 15) * ldp + 16 * (l >> 4);
    /* .trans: matrices (k0-7,n0-7) (k8-15,n0-7) (k0-7,n8-15) (k8-15,n8-15) */
    const uint8_t *vb = (const uint8_t *)sv + ((l & 7) + 8 * ((l >> 3) & 1)) * ldv + 16 * (l >> 4);
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
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

/* The same with P as f16 and V as fp8 codes (P.V as an "e4m3" MMA with V
 * transposed by byte permutes was tried: 2-3% slower on the H200, where that
 * MMA is emulated, see qk_fp8_qreg). ldmatrix.trans on byte pairs
 * gives lane (g, t) the bytes {V[2t][2g], V[2t][2g+1], V[2t+1][2g], V[2t+1][2g+1]};
 * bytes 0,2 are column 2g (the "even" n8 tile), bytes 1,3 column 2g+1 ("odd"). */
template <int NT, int KR = 64> /* KR: kv rows of the tile */
MLAB_DEV void pv_fp8(acc16 *o, const uint16_t *sp, int ldp, const uint8_t *sv, int ldv)
{
    static_assert(KR == 64, "mla_mma.h: NVIDIA tiles are 64 rows");
    const int l = lane_id();
    const uint8_t *pa = (const uint8_t *)sp + (l & 15) * ldp + 16 * (l >> 4);
    /* matrices: (k0-7, bytes 0-15) (k8-15, bytes 0-15) (k0-7, 16-31) (k8-15, 16-31) */
    const uint8_t *vb = sv + ((l & 7) + 8 * ((l >> 3) & 1)) * ldv + 16 * (l >> 4);
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
        uint32_t a[4];
        ldsm4(a, pa + 32 * kk);
#pragma unroll
        for (int t = 0; t < NT / 2; t++) { /* 32 columns (two 16-column tiles) per ldmatrix */
            uint32_t b[4];
            ldsm4t(b, vb + 16 * kk * ldv + 32 * t);
#pragma unroll
            for (int h = 0; h < 2; h++) {
                uint32_t lo = b[2 * h], hi = b[2 * h + 1];
                uint32_t e0 = mlab_fp8x2_to_f16x2((uint16_t)mlab_prmt(lo, 0, 0x0020));
                uint32_t e1 = mlab_fp8x2_to_f16x2((uint16_t)mlab_prmt(hi, 0, 0x0020));
                uint32_t d0 = mlab_fp8x2_to_f16x2((uint16_t)mlab_prmt(lo, 0, 0x0031));
                uint32_t d1 = mlab_fp8x2_to_f16x2((uint16_t)mlab_prmt(hi, 0, 0x0031));
                mma_f16(o[2 * t + h].c, a, e0, e1);
                mma_f16(o[2 * t + h].c + 4, a, d0, d1);
            }
        }
    }
}

#else /* ---------------------------------------------------------------- AMD */
#include "mfma_lanes.h" // the lane <-> element maps, checked by tests/test_mfma_lanes.cpp
#define MLAB_ACC_N 4
struct acc16 { float c[4]; };
typedef __attribute__((ext_vector_type(4))) float mlab_f4;
typedef __attribute__((ext_vector_type(4))) short mlab_s4;
typedef __attribute__((ext_vector_type(4))) _Float16 mlab_h4;
/* gfx950 (MI355X): the 16x16x32 bf16 and f16 MFMAs, twice the k of a
 * 16x16x16 one a call, 8 operand items a lane (mfma_lanes.h: KPL 8) */
#if defined(__gfx950__) && __has_builtin(__builtin_amdgcn_mfma_f32_16x16x32_bf16)
#define MLAB_MFMA_K32 1
typedef __attribute__((ext_vector_type(8))) __bf16 mlab_bf8;
typedef __attribute__((ext_vector_type(8))) _Float16 mlab_h8;
#define MLAB_KPL16 8 /* bf16/f16 items a lane */
#else
#define MLAB_KPL16 4
#endif

MLAB_DEV int lane_id(void) { return threadIdx.x & 63; }
/* MFMA 16x16: lane l holds column l % 16, rows 4 * (l / 16) + e */
MLAB_DEV int acc_row(int e) { return mlab_mfma_d_row(lane_id(), e); }
MLAB_DEV int acc_col(int e) { return mlab_mfma_row(lane_id()); }
MLAB_DEV int pv_bf16_col(int e) { return acc_col(e); }
MLAB_DEV int pv_fp8_col(int e) { return acc_col(e); }
/* MFMA: a lane's elements are 4 rows of one column: runs of one */
#define MLAB_RUN_FP8 1
#define MLAB_RUN_BF16 1
MLAB_DEV int run_elem(bool fp8, int r, int k) { return r + k; }

MLAB_DEV mlab_f4 to_f4(const acc16 &a) { mlab_f4 v = {a.c[0], a.c[1], a.c[2], a.c[3]}; return v; }
MLAB_DEV void from_f4(acc16 &a, mlab_f4 v) { a.c[0] = v[0]; a.c[1] = v[1]; a.c[2] = v[2]; a.c[3] = v[3]; }

/* S += Q . K^T: B = K^T, so the K tile is read like A (its row = S's column) */
template <int KB>
MLAB_DEV void qk_bf16(acc16 &s, const uint16_t *sq, int ldq_b, const uint16_t *sk, int ldk_b)
{
    const int l = lane_id();
    mlab_f4 acc = to_f4(s);
#ifdef MLAB_MFMA_K32
    if constexpr (KB % 64 == 0) { /* 64 bytes of k a call (KB = 1152 bytes: bf16 half rows) */
        const uint8_t *qa = (const uint8_t *)sq + mlab_mfma_a_off(l, ldq_b, 8, 2);
        const uint8_t *kb = (const uint8_t *)sk + mlab_mfma_a_off(l, ldk_b, 8, 2);
#pragma unroll 3
        for (int k = 0; k < KB; k += 64)
            acc = __builtin_amdgcn_mfma_f32_16x16x32_bf16(*(const mlab_bf8 *)(qa + k),
                                                          *(const mlab_bf8 *)(kb + k), acc, 0, 0, 0);
    } else
#endif
    {
        const uint8_t *qa = (const uint8_t *)sq + mlab_mfma_a_off(l, ldq_b, 4, 2);
        const uint8_t *kb = (const uint8_t *)sk + mlab_mfma_a_off(l, ldk_b, 4, 2);
#pragma unroll 4
        for (int k = 0; k < KB; k += 32)
            acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(*(const mlab_s4 *)(qa + k),
                                                            *(const mlab_s4 *)(kb + k), acc, 0, 0, 0);
    }
    from_f4(s, acc);
}
template <int KB>
MLAB_DEV void qk_fp8(acc16 &s, const uint8_t *sq, int ldq_b, const uint8_t *sk, int ldk_b)
{
    const int l = lane_id();
    const uint8_t *qa = sq + mlab_mfma_a_off(l, ldq_b, 8, 1);
    const uint8_t *kb = sk + mlab_mfma_a_off(l, ldk_b, 8, 1);
    mlab_f4 acc = to_f4(s);
#pragma unroll 4
    for (int k = 0; k < KB; k += 32) {
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__)
        /* 8 fp8 codes a lane, item j = byte j (the arch's flavour: mlab_hip.h) */
        acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(*(const long *)(qa + k),
                                                         *(const long *)(kb + k), acc, 0, 0, 0);
#else
        (void)qa; (void)kb; /* no fp8 MFMA before gfx940: the fp8 variants are not built there */
#endif
    }
    from_f4(s, acc);
}
/* MXFP4 on the fp8 core (KV_MX8): Q as f16 in LDS in natural order (the
 * MFMA lane map reads 4 consecutive dims of Q and of K alike), K as e4m3
 * codes unpacked to f16. */
MLAB_DEV int mlab_qk_perm16(int j) { return j; }
template <int KBK>
MLAB_DEV void qk_f16q_fp8k(acc16 &s, const uint8_t *sq, int ldq, const uint8_t *sk, int ldk)
{
    const int l = lane_id();
    const uint8_t *qa = sq + (l & 15) * ldq + 8 * (l >> 4);
    const uint8_t *kb = sk + (l & 15) * ldk + 4 * (l >> 4);
    mlab_f4 acc = to_f4(s);
#pragma unroll 4
    for (int k = 0; k < KBK; k += 16) {
        const uint32_t c = *(const uint32_t *)(kb + k);
        const uint32_t h01 = mlab_fp8x2_to_f16x2((uint16_t)c), h23 = mlab_fp8x2_to_f16x2((uint16_t)(c >> 16));
        mlab_h4 b;
        b[0] = __ushort_as_half((unsigned short)h01);
        b[1] = __ushort_as_half((unsigned short)(h01 >> 16));
        b[2] = __ushort_as_half((unsigned short)h23);
        b[3] = __ushort_as_half((unsigned short)(h23 >> 16));
        acc = __builtin_amdgcn_mfma_f32_16x16x16f16(*(const mlab_h4 *)(qa + 2 * k), b, acc, 0, 0, 0);
    }
    from_f4(s, acc);
}
/* O += P . V: A = P (row-major), B = V [kv row = k][dim = column], item j of
 * lane l from V row k0 + mlab_mfma_k(l, j), column 16 t + l % 16 */
template <int NT, int KR = 64> /* KR: kv rows of the tile */
MLAB_DEV void pv_bf16(acc16 *o, const uint16_t *sp, int ldp, const uint16_t *sv, int ldv)
{
    const int l = lane_id();
    const uint8_t *pa = (const uint8_t *)sp + mlab_mfma_a_off(l, ldp, MLAB_KPL16, 2);
#pragma unroll
    for (int kk = 0; kk < KR; kk += 4 * MLAB_KPL16) {
#ifdef MLAB_MFMA_K32
        mlab_bf8 a = *(const mlab_bf8 *)(pa + 2 * kk);
#else
        mlab_s4 a = *(const mlab_s4 *)(pa + 2 * kk);
#endif
#pragma unroll
        for (int t = 0; t < NT; t++) {
            const uint8_t *v = (const uint8_t *)sv + (kk + mlab_mfma_k(l, 0, MLAB_KPL16)) * ldv +
                               2 * (16 * t + mlab_mfma_row(l));
#ifdef MLAB_MFMA_K32
            mlab_bf8 b;
            for (int i = 0; i < 8; i++)
                b[i] = __builtin_bit_cast(__bf16, *(const uint16_t *)(v + i * ldv));
            from_f4(o[t], __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, to_f4(o[t]), 0, 0, 0));
#else
            mlab_s4 b;
            for (int i = 0; i < 4; i++)
                b[i] = (short)*(const uint16_t *)(v + i * ldv);
            from_f4(o[t], __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, to_f4(o[t]), 0, 0, 0));
#endif
        }
    }
}
/* P as f16 (fp8-rounded values, exact), V as fp8 codes.
 * gfx950: on the fp8 MFMA (OCP e4m3, 16x16x32): P's values are fp8 values
 * already (the caller rounded them), so v_cvt_pk_fp8_f32 turns them back
 * into codes exactly, once per 32 k for all NT tiles; V's codes go in as
 * they are (item j = byte j = V row k0 + j): no V conversion at all.
 * Elsewhere: V decoded to f16 (mlab_fp8x2_to_f16x2), 16x16x16 f16 MFMA. */
#if defined(__gfx950__) && __has_builtin(__builtin_amdgcn_cvt_pk_fp8_f32)
#define MLAB_PV_FP8_MFMA 1
#endif
template <int NT, int KR = 64> /* KR: kv rows of the tile */
MLAB_DEV void pv_fp8(acc16 *o, const uint16_t *sp, int ldp, const uint8_t *sv, int ldv)
{
    const int l = lane_id();
#ifdef MLAB_PV_FP8_MFMA
    const uint8_t *pa = (const uint8_t *)sp + mlab_mfma_a_off(l, ldp, 8, 2);
#pragma unroll
    for (int kk = 0; kk < KR; kk += 32) {
        const mlab_h8 ph = *(const mlab_h8 *)(pa + 2 * kk);
        int lo = 0, hi = 0; /* codes of items 0-3 and 4-7, item 0 in the low byte */
        lo = __builtin_amdgcn_cvt_pk_fp8_f32((float)ph[0], (float)ph[1], lo, false);
        lo = __builtin_amdgcn_cvt_pk_fp8_f32((float)ph[2], (float)ph[3], lo, true);
        hi = __builtin_amdgcn_cvt_pk_fp8_f32((float)ph[4], (float)ph[5], hi, false);
        hi = __builtin_amdgcn_cvt_pk_fp8_f32((float)ph[6], (float)ph[7], hi, true);
        const long a = (long)(uint32_t)lo | (long)((unsigned long)(uint32_t)hi << 32);
#pragma unroll
        for (int t = 0; t < NT; t++) {
            const uint8_t *v = sv + (kk + mlab_mfma_k(l, 0, 8)) * ldv + 16 * t + mlab_mfma_row(l);
            uint32_t w[2];
#pragma unroll
            for (int h = 0; h < 2; h++)
                w[h] = (uint32_t)v[(4 * h) * ldv] | (uint32_t)v[(4 * h + 1) * ldv] << 8 |
                       (uint32_t)v[(4 * h + 2) * ldv] << 16 | (uint32_t)v[(4 * h + 3) * ldv] << 24;
            const long b = (long)w[0] | (long)((unsigned long)w[1] << 32);
            from_f4(o[t], __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, to_f4(o[t]), 0, 0, 0));
        }
    }
#else
    const uint8_t *pa = (const uint8_t *)sp + mlab_mfma_a_off(l, ldp, 4, 2);
#pragma unroll
    for (int kk = 0; kk < KR; kk += 16) {
        mlab_h4 a = *(const mlab_h4 *)(pa + 2 * kk);
#pragma unroll
        for (int t = 0; t < NT; t++) {
            const uint8_t *v = sv + (kk + mlab_mfma_k(l, 0, 4)) * ldv + 16 * t + mlab_mfma_row(l);
            mlab_h4 b;
#pragma unroll
            for (int i = 0; i < 4; i += 2) { /* items i, i+1 = V rows i, i+1 */
                uint32_t h = mlab_fp8x2_to_f16x2((uint16_t)(v[i * ldv] | (v[(i + 1) * ldv] << 8)));
                b[i] = __ushort_as_half((unsigned short)h);
                b[i + 1] = __ushort_as_half((unsigned short)(h >> 16));
            }
            from_f4(o[t], __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, to_f4(o[t]), 0, 0, 0));
        }
    }
#endif
}

/* gfx950: the scaled MFMA on MXFP4 read as it is stored (mxfp4_mfma_scale).
 * v_mfma_scale_f32_16x16x128_f8f6f4 with A in e4m3 (cbsz 0) and B in e2m1
 * (blgp 4), one E8M0 scale a row / column and k-block of 32; the operand
 * maps are mfma_scale_lanes.h's, tested on the CPU. */
#if defined(__gfx950__) && __has_builtin(__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4)
#define MLAB_MFMA_SCALE 1
#include "mfma_scale_lanes.h" // mlab_mfs_*, mlab_mx8_*: checked by tests/test_mfma_scale_lanes.cpp
#include "mla_params.h"       // MLA_NBLK
typedef __attribute__((ext_vector_type(8))) int mlab_i8v;

/* S[16 x 16] += Q . K^T over the MX blocks b0 .. b0 + nblk - 1 (nblk <= 4):
 * sq = e4m3 codes of Q (16 rows, ldq bytes), sqs = their E8M0 scales
 * [16][18]; sk = 16 raw MXFP4 K rows (ldk bytes), sks = their E8M0 bytes
 * [16][18]. K goes in as stored: packed E2M1 and its block scales. */
MLAB_DEV void qk_mxs(acc16 &s, const uint8_t *sq, int ldq, const uint8_t *sqs, const uint8_t *sk, int ldk,
                     const uint8_t *sks, int b0, int nblk)
{
    const int l = lane_id(), g = l >> 4, r = l & 15;
    /* every lane loads (past the last block it reads the next row or region
     * of LDS, never beyond it), then the items of blocks past nblk are
     * masked to zero: a select of loads would put the zeros in scratch */
    const uint8_t *qr = sq + r * ldq + 32 * b0;
    const uint4 lo = *(const uint4 *)(qr + mlab_mfs_q_off(l, 0)), hi = *(const uint4 *)(qr + mlab_mfs_q_off(l, 1));
    const uint4 kk = *(const uint4 *)(sk + r * ldk + 16 * b0 + mlab_mfs_k_off(l));
    const int ml = mlab_mfs_q_blk(l, 0) < nblk ? -1 : 0, mh = mlab_mfs_q_blk(l, 1) < nblk ? -1 : 0,
              mk = g < nblk ? -1 : 0;
    const mlab_i8v a = {(int)lo.x & ml, (int)lo.y & ml, (int)lo.z & ml, (int)lo.w & ml,
                        (int)hi.x & mh, (int)hi.y & mh, (int)hi.z & mh, (int)hi.w & mh};
    const mlab_i8v b = {(int)kk.x & mk, (int)kk.y & mk, (int)kk.z & mk, (int)kk.w & mk, 0, 0, 0, 0};
    const int sa = g < nblk ? sqs[r * MLA_NBLK + b0 + g] : 127;
    const int sb = g < nblk ? sks[r * MLA_NBLK + b0 + g] : 127;
    from_f4(s, __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, to_f4(s), 0, 4, 0, sa, 0, sb));
}

/* 2^(e - 127) of an E8M0 byte (255: NaN), as the dequantizers read it */
MLAB_DEV float mlab_e8m0_f32(uint32_t e)
{
    return e == 255 ? __uint_as_float(0x7fc00000u) : e ? __uint_as_float(e << 23) : __uint_as_float(0x00400000u);
}

/* O[16 x 16 NT] += P . V for a 64-row tile, V as stored (raw E2M1 rows, ldv
 * bytes; its E8M0 bytes svs [64][18]) from output column col0 on; P fp32
 * [16][ldp floats]. V's block scale runs along the output dims, not along
 * the kv rows P.V sums over, so it cannot be the B scale; it is folded into
 * P instead: for the 32-dim block of an output tile, P'[h][r] = P[h][r]
 * 2^(e[r] - 127), MX-quantized to e4m3 along r (blocks of 32 rows, the A
 * scale), times V's raw E2M1 (B scale 1). k = the tile's 64 rows: A uses its
 * items j < 16, B its lane groups 0 and 1 (the rest zero). */
template <int NT>
MLAB_DEV void pv_mxs(acc16 *o, const float *sp, int ldp, const uint8_t *sv, int ldv, const uint8_t *svs, int col0)
{
    const int l = lane_id(), g = l >> 4, h = l & 15;
#pragma unroll
    for (int bb = 0; bb < NT / 2; bb++) {
        const int blk = (col0 >> 5) + bb;
        float x[16], amax = 0.f;
#pragma unroll
        for (int j = 0; j < 16; j++) {
            const int r = mlab_mfs_p_row(l, j);
            x[j] = sp[h * ldp + r] * mlab_e8m0_f32(svs[r * MLA_NBLK + blk]);
            amax = fmaxf(amax, fabsf(x[j]));
        }
        amax = fmaxf(amax, __shfl_xor(amax, 16)); /* the block's other 16 rows: lane l ^ 16 */
        const int e = mlab_mx8_scale_byte(amax), eup = __shfl(e, (l + 16) & 63);
        const float inv = mlab_mx8_inv_scale(e);
        int c[4] = {0, 0, 0, 0}; /* item j = byte j */
#pragma unroll
        for (int j = 0; j < 16; j += 4) { /* saturate, then RNE (the reference's rule) */
            float y[4];
#pragma unroll
            for (int k = 0; k < 4; k++) y[k] = fminf(fmaxf(x[j + k] * inv, -448.f), 448.f);
            c[j >> 2] = __builtin_amdgcn_cvt_pk_fp8_f32(y[0], y[1], 0, false);
            c[j >> 2] = __builtin_amdgcn_cvt_pk_fp8_f32(y[2], y[3], c[j >> 2], true);
        }
        const mlab_i8v a = {c[0], c[1], c[2], c[3], 0, 0, 0, 0};
        /* A scale of lane l: k-block g = rows 32 g .. 32 g + 31; block 0's
         * scale is in lane groups 0/1 (own), block 1's in groups 2/3 */
        const int sa = g == 0 ? e : g == 1 ? eup : 127;
#pragma unroll
        for (int tt = 0; tt < 2; tt++) {
            const int col = col0 + 32 * bb + 16 * tt + h, sh = 4 * (col & 1);
            uint32_t w[4] = {0, 0, 0, 0}; /* item j = nibble j, low first */
            if (g < 2) {
#pragma unroll
                for (int j = 0; j < 32; j++) {
                    const uint32_t nib = (sv[mlab_mfs_v_row(l, j) * ldv + (col >> 1)] >> sh) & 15u;
                    w[j >> 3] |= nib << (4 * (j & 7));
                }
            }
            const mlab_i8v b = {(int)w[0], (int)w[1], (int)w[2], (int)w[3], 0, 0, 0, 0};
            const int t = 2 * bb + tt;
            from_f4(o[t], __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, to_f4(o[t]), 0, 4, 0, sa, 0, 127));
        }
    }
}
#endif
#endif

#endif
