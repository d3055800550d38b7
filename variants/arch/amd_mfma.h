/* arch/amd_mfma.h: the AMD half of mla_mma.h, AMD's vendor instructions in
 * one place: the MFMA builtins (16x16x16 / 16x16x32 bf16 and f16, 16x16x32
 * fp8, gfx950's scaled 16x16x128 f8f6f4) and the fp8 conversion builtins the
 * products need. The shared decode logic (mla_kernel.h) calls only the
 * neutral helpers declared here and in the NVIDIA half with the same
 * signatures: acc16, MLAB_ACC_N, acc_row/acc_col, qk_bf16, qk_fp8,
 * qk_f16q_fp8k, pv_bf16, pv_fp8 and, on gfx950, qk_mxs, pv_mxs. Lane maps:
 * ../mfma_lanes.h and ../mfma_scale_lanes.h, tested on the CPU. Included by
 * mla_mma.h only. */
#ifndef MLAB_ARCH_AMD_MFMA_H
#define MLAB_ARCH_AMD_MFMA_H

#include "../mlab_hip.h" // MLAB_DEV, the fp8 helpers and flavour
#include "../mfma_lanes.h" // the lane <-> element maps, checked by tests/test_mfma_lanes.cpp
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
/* lanes l and l ^ m (m <= MLAB_ACC_ROW_LANES) hold elements of the same rows */
#define MLAB_ACC_ROW_LANES 15
/* floats of padding a row of S in shared memory (mla_cfg::LDS; NVIDIA's
 * reason for 8 is in mla_mma.h; the MFMA layout's conflicts are not measured) */
#define MLAB_S_PAD 4
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
 * lane l from V row k0 + mlab_mfma_k(l, j), column 16 t + l % 16; on gfx950
 * read by the transposing LDS reads (arch/amd_lds.h, lds_lanes.h), elsewhere
 * one 16-bit LDS read an item */
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
#if defined(MLAB_MFMA_K32) && defined(MLAB_LDS_TR)
            /* gfx950: two ds_read_b64_tr_b16, items 0-3 and 4-7 (lds_lanes.h) */
            const uint8_t *v0 = (const uint8_t *)sv + kk * ldv + 2 * 16 * t;
            const uint64_t lo = mlab_lds_tr16(v0 + mlab_tr16_off(l, 0, ldv));
            const uint64_t hi = mlab_lds_tr16(v0 + mlab_tr16_off(l, 1, ldv));
            typedef __attribute__((ext_vector_type(2))) uint64_t mlab_u64x2;
            const mlab_u64x2 q = {lo, hi};
            const mlab_bf8 b = __builtin_bit_cast(mlab_bf8, q);
            from_f4(o[t], __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, to_f4(o[t]), 0, 0, 0));
#else
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
#endif
        }
    }
}
/* P as f16 (fp8-rounded values, exact), V as fp8 codes.
 * gfx950: on the fp8 MFMA (OCP e4m3, 16x16x32): P's values are fp8 values
 * already (the caller rounded them), so v_cvt_pk_fp8_f32 turns them back
 * into codes exactly, once per 32 k for all NT tiles; V's codes go in as
 * they are (item j = byte j = V row k0 + j): no V conversion at all,
 * read by one ds_read_b64_tr_b8 a tile (arch/amd_lds.h, lds_lanes.h).
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
#ifdef MLAB_LDS_TR
            /* one ds_read_b64_tr_b8: byte j = V row kk + 8 (l / 16) + j (lds_lanes.h) */
            const long b = (long)mlab_lds_tr8(sv + kk * ldv + 16 * t + mlab_tr8_off(l, ldv));
#else
            const uint8_t *v = sv + (kk + mlab_mfma_k(l, 0, 8)) * ldv + 16 * t + mlab_mfma_row(l);
            uint32_t w[2];
#pragma unroll
            for (int h = 0; h < 2; h++)
                w[h] = (uint32_t)v[(4 * h) * ldv] | (uint32_t)v[(4 * h + 1) * ldv] << 8 |
                       (uint32_t)v[(4 * h + 2) * ldv] << 16 | (uint32_t)v[(4 * h + 3) * ldv] << 24;
            const long b = (long)w[0] | (long)((unsigned long)w[1] << 32);
#endif
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
#include "../mfma_scale_lanes.h" // mlab_mfs_*, mlab_mx8_*: checked by tests/test_mfma_scale_lanes.cpp
#include "../mla_params.h"       // MLA_NBLK
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
