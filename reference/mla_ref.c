/* mla_ref.c: CPU reference of MLA decode (mla_ref.h).
 *
 * Per batch item: dequantize its kv rows to fp32 (or fp64), S = Q K^T by one
 * GEMM, scale, causal mask, softmax, O = P V by a second GEMM over the first
 * 512 columns of the same rows (ld 576), divide by the row sums. Memory is one
 * item's rows at a time, so the peak is ~L*576*8 bytes above the case.
 */
#include "mla_ref.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numerics.h"

void mlab_ref_dequant_kv(const mlab_case *c, mlab_kv_fmt f, size_t r0, size_t n, float *dst)
{
    switch (f) {
    case MLAB_KV_BF16: {
        const uint16_t *src = c->kv_bf16 + r0 * MLAB_DQK;
        for (size_t i = 0; i < n * MLAB_DQK; i++)
            dst[i] = mlab_bf16_to_f32(src[i]);
        break;
    }
    case MLAB_KV_FP8: {
        float lut[256];
        for (int k = 0; k < 256; k++)
            lut[k] = mlab_fp8_decode((uint8_t)k, c->fp8_fmt) * c->kv_fp8_scale;
        const uint8_t *src = c->kv_fp8 + r0 * MLAB_DQK;
        for (size_t i = 0; i < n * MLAB_DQK; i++)
            dst[i] = lut[src[i]];
        break;
    }
    case MLAB_KV_MXFP4: {
        /* value = e2m1(nibble) * 2^(e-127): exact in fp32 (>= 2^-128) */
        float lut[16];
        for (int k = 0; k < 16; k++)
            lut[k] = mlab_e2m1_decode((uint8_t)k);
        for (long long r = 0; r < (long long)n; r++) {
            const uint8_t *pk = c->kv_fp4 + (r0 + (size_t)r) * MLAB_FP4_ROW;
            const uint8_t *sc = c->kv_e8m0 + (r0 + (size_t)r) * MLAB_MX_NBLK;
            float *d = dst + (size_t)r * MLAB_DQK;
            for (int b = 0; b < MLAB_MX_NBLK; b++) {
                float s = mlab_e8m0_decode(sc[b]);
                for (int i = 0; i < MLAB_MX_BLOCK / 2; i++) {
                    uint8_t byte = pk[b * MLAB_MX_BLOCK / 2 + i];
                    d[b * MLAB_MX_BLOCK + 2 * i] = lut[byte & 15] * s;
                    d[b * MLAB_MX_BLOCK + 2 * i + 1] = lut[byte >> 4] * s;
                }
            }
        }
        break;
    }
    }
}

/* Q as fp32 [total_q*16, 576], and the factor to fold into sm_scale. With
 * q_fp8 the codes are dequantized with their scale here already (exact):
 * q_fp8 1 one scale for the tensor, 2 one for each (row, head). */
static float *load_q(const mlab_case *c, int q_fp8, int mx_native)
{
    size_t n = (size_t)c->total_q * MLAB_HEADS * MLAB_DQK;
    float *q = malloc((n + 1) * sizeof *q);
    if (!q)
        return NULL;
    if (mx_native) { /* MXFP8 per (head row, 32 dims): dequantized exactly */
        for (size_t i = 0; i < n; i++)
            q[i] = mlab_bf16_to_f32(c->q[i]);
        uint8_t codes[32];
        for (size_t b = 0; b < n / 32; b++)
            mlab_mxfp8_quantize_block(q + 32 * b, codes, q + 32 * b);
        return q;
    }
    if (!q_fp8) {
        for (size_t i = 0; i < n; i++)
            q[i] = mlab_bf16_to_f32(c->q[i]);
        return q;
    }
    uint8_t *codes = malloc(n + 1);
    if (!codes) {
        free(q);
        return NULL;
    }
    const size_t g = q_fp8 == 2 ? MLAB_DQK : n; /* the values one scale covers: a (row, head)'s 576, or all */
    for (size_t r0 = 0; r0 < n; r0 += g) {
        float s = mlab_fp8_quantize_tensor(c->q + r0, g, c->fp8_fmt, codes + r0);
        for (size_t i = r0; i < r0 + g; i++)
            q[i] = mlab_fp8_decode(codes[i], c->fp8_fmt) * s;
    }
    free(codes);
    return q;
}

/* P rounded as the fp8 kernels do, in the case's fp8 flavour (the runner
 * only runs a case on a GPU whose flavour it is). */
static float round_p_fp8(float p, mlab_fp8_fmt f)
{
    return mlab_fp8_decode(mlab_fp8_encode(p, f), f);
}

/* Last kv row (exclusive) that query i of n over L rows may see. */
static int visible(int L, int n, int i)
{
    int v = L - n + i + 1;
    return v < 0 ? 0 : v;
}

/* One thread's scratch for one item: K (fp32, and fp64 for DGEMM), Q (fp64),
 * S/P and the unnormalized O. */
typedef struct {
    float *kf;
    void *k, *qd, *s, *ob;
} ref_bufs;

static void bufs_free(ref_bufs *w, int dbl)
{
    free(w->ob);
    free(w->s);
    if (dbl) {
        free(w->qd);
        free(w->k);
    }
    free(w->kf);
}

static int bufs_alloc(ref_bufs *w, int maxL, int dbl)
{
    const size_t M = 4 * MLAB_HEADS, esz = dbl ? sizeof(double) : sizeof(float);
    w->kf = malloc(((size_t)maxL * MLAB_DQK + 1) * sizeof(float));
    w->k = dbl ? malloc(((size_t)maxL * MLAB_DQK + 1) * esz) : w->kf;
    w->qd = dbl ? malloc(M * MLAB_DQK * esz) : NULL;
    w->s = malloc((M * (size_t)maxL + 1) * esz);
    w->ob = malloc(M * MLAB_DV * esz);
    if (!w->kf || !w->k || (dbl && !w->qd) || !w->s || !w->ob) {
        bufs_free(w, dbl);
        return -1;
    }
    return 0;
}

/* mx_native P.V of item rows [k0, k0 + L): ob[m x 512] = sum_r P'[i][r] E2M1[r][d],
 * P'[i][r] the MXFP8 of p[i][r] 2^(e[r][d / 32] - 127) along blocks of 32
 * rows (per query row i and 32-dim block), p = s (fp32 or fp64, m x L).
 * Returns -1 out of memory. */
static int mx_native_pv(const mlab_case *c, int dbl, const void *s, int m, int k0, int L, void *ob)
{
    enum { NDB = MLAB_DV / 32 };
    const int nb = (L + 31) / 32, Lp = 32 * nb;
    float *pq = malloc(((size_t)m * Lp + 1) * sizeof *pq), *vr = malloc(((size_t)Lp * 32 + 1) * sizeof *vr);
    float *sc = malloc(((size_t)Lp * NDB + 1) * sizeof *sc), *pf = malloc(((size_t)m * Lp + 1) * sizeof *pf);
    double *pd = dbl ? malloc(((size_t)m * Lp + 1) * sizeof *pd) : NULL;
    double *vd = dbl ? malloc(((size_t)Lp * 32 + 1) * sizeof *vd) : NULL;
    if (!pq || !vr || !sc || !pf || (dbl && (!pd || !vd))) {
        free(pq); free(vr); free(sc); free(pf); free(pd); free(vd);
        return -1;
    }
    float lut[16];
    for (int k = 0; k < 16; k++) lut[k] = mlab_e2m1_decode((uint8_t)k);
    /* p as fp32 and V's block scales as factors, rows past L zero */
    for (int i = 0; i < m; i++)
        for (int r = 0; r < Lp; r++)
            pf[(size_t)i * Lp + r] = r < L ? (dbl ? (float)((const double *)s)[(size_t)i * L + r]
                                                  : ((const float *)s)[(size_t)i * L + r]) : 0.0f;
    for (int r = 0; r < Lp; r++)
        for (int db = 0; db < NDB; db++)
            sc[(size_t)r * NDB + db] = r < L ? mlab_e8m0_decode(c->kv_e8m0[(size_t)(k0 + r) * MLAB_MX_NBLK + db]) : 0.0f;
    for (int db = 0; db < NDB; db++) {
        /* V's raw E2M1 of this dim block */
        for (int r = 0; r < Lp; r++)
            for (int d = 0; d < 32; d += 2) {
                const uint8_t byte = r < L ? c->kv_fp4[(size_t)(k0 + r) * MLAB_FP4_ROW + 16 * db + d / 2] : 0;
                vr[r * 32 + d] = lut[byte & 15];
                vr[r * 32 + d + 1] = lut[byte >> 4];
            }
        for (int i = 0; i < m; i++)
            for (int b = 0; b < nb; b++) {
                float x[32];
                const float *pr = pf + (size_t)i * Lp + 32 * b, *sr = sc + (size_t)32 * b * NDB + db;
                for (int j = 0; j < 32; j++) x[j] = pr[j] * sr[(size_t)j * NDB];
                mlab_mxfp8_round_block(x, pq + (size_t)i * Lp + 32 * b);
            }
        if (dbl) {
            for (size_t k = 0; k < (size_t)m * Lp; k++) pd[k] = pq[k];
            for (size_t k = 0; k < (size_t)Lp * 32; k++) vd[k] = vr[k];
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, 32, Lp, 1.0, pd, Lp, vd, 32, 0.0,
                        (double *)ob + 32 * db, MLAB_DV);
        } else {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, 32, Lp, 1.0f, pq, Lp, vr, 32, 0.0f,
                        (float *)ob + 32 * db, MLAB_DV);
        }
    }
    free(pq); free(vr); free(sc); free(pf); free(pd); free(vd);
    return 0;
}

/* Item b: S = Q K^T, softmax (optionally fp8 P), O = P V / l. */
static int ref_item(const mlab_case *c, const mlab_ref_opts *o, const float *q, int b,
                    ref_bufs *w, float *out)
{
    const int dbl = o->prec == MLAB_REF_DGEMM;
    int q0 = c->qo_indptr[b], n = c->qo_indptr[b + 1] - q0;
    int k0 = c->kv_indptr[b], L = c->kv_indptr[b + 1] - k0;
    int m = n * MLAB_HEADS;
    float *outb = out + (size_t)q0 * MLAB_HEADS * MLAB_DV;
    if (L == 0) {
        memset(outb, 0, (size_t)m * MLAB_DV * sizeof(float));
        return 0;
    }
    float *kf = w->kf;
    void *s = w->s, *ob = w->ob;
    mlab_ref_dequant_kv(c, o->kv, (size_t)k0, (size_t)L, kf);
    const float *qb = q + (size_t)q0 * MLAB_HEADS * MLAB_DQK;
    if (dbl) {
        double *kd = w->k, *qdd = w->qd;
        for (size_t i = 0; i < (size_t)L * MLAB_DQK; i++)
            kd[i] = kf[i];
        for (size_t i = 0; i < (size_t)m * MLAB_DQK; i++)
            qdd[i] = qb[i];
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, L, MLAB_DQK, 1.0, qdd, MLAB_DQK,
                    kd, MLAB_DQK, 0.0, s, L);
    } else {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, L, MLAB_DQK, 1.0f, qb, MLAB_DQK,
                    kf, MLAB_DQK, 0.0f, s, L);
    }
    /* softmax rows; row r is query r / 16, head r % 16 */
    double sums[4 * MLAB_HEADS];
    for (int r = 0; r < m; r++) {
        int vis = visible(L, n, r / MLAB_HEADS);
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < vis; j++) {
            double v = dbl ? ((double *)s)[(size_t)r * L + j] : ((float *)s)[(size_t)r * L + j];
            if (v > mx)
                mx = v;
        }
        for (int j = 0; j < L; j++) {
            size_t at = (size_t)r * L + j;
            if (j >= vis) {
                if (dbl)
                    ((double *)s)[at] = 0;
                else
                    ((float *)s)[at] = 0;
                continue;
            }
            if (dbl) {
                double p = exp((((double *)s)[at] - mx) * c->sm_scale);
                sum += p;
                ((double *)s)[at] = o->emulate_fp8_p && !o->mx_native ? round_p_fp8((float)p, c->fp8_fmt) : p;
            } else {
                float p = expf((((float *)s)[at] - (float)mx) * c->sm_scale);
                sum += p;
                ((float *)s)[at] = o->emulate_fp8_p && !o->mx_native ? round_p_fp8(p, c->fp8_fmt) : p;
            }
        }
        sums[r] = sum;
    }
    if (o->mx_native && o->kv == MLAB_KV_MXFP4) {
        if (mx_native_pv(c, dbl, s, m, k0, L, ob))
            return -1;
    } else if (dbl)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, MLAB_DV, L, 1.0, s, L, w->k,
                    MLAB_DQK, 0.0, ob, MLAB_DV);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, MLAB_DV, L, 1.0f, s, L, kf,
                    MLAB_DQK, 0.0f, ob, MLAB_DV);
    for (int r = 0; r < m; r++) {
        double inv = sums[r] > 0 ? 1.0 / sums[r] : 0.0;
        for (int d = 0; d < MLAB_DV; d++) {
            double v = dbl ? ((double *)ob)[r * MLAB_DV + d] : ((float *)ob)[r * MLAB_DV + d];
            outb[(size_t)r * MLAB_DV + d] = (float)(v * inv);
        }
    }
    return 0;
}

/* Items run in parallel (OpenMP), each GEMM on one OpenBLAS thread: many
 * small GEMMs (M = 16 rows) scale better across items than inside one, and
 * OpenMP's spinning threads beside OpenBLAS's own pool made every GEMM
 * several times slower (measured: 0.62 s single-threaded vs 1.16 s on 2 cores
 * for the 256 x 1024 bf16 reference). */
int mlab_ref_compute(const mlab_case *c, const mlab_ref_opts *o, float *out)
{
    int maxL = 0, dbl = o->prec == MLAB_REF_DGEMM, failed = 0, done = 0;
    for (int b = 0; b < c->batch; b++) {
        int L = c->kv_indptr[b + 1] - c->kv_indptr[b];
        if (L > maxL)
            maxL = L;
    }
    float *q = load_q(c, o->q_fp8, o->mx_native);
    if (!q)
        return -1;
#ifdef _OPENMP
    int blas_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
#endif
#pragma omp parallel
    {
        ref_bufs w;
        int ok = bufs_alloc(&w, maxL, dbl) == 0;
        if (!ok) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (int b = 0; b < c->batch; b++) {
            if (!ok)
                continue;
            if (ref_item(c, o, q, b, &w, out)) {
#pragma omp atomic write
                failed = 1;
            }
            if (o->progress) {
#pragma omp critical(mlab_ref_progress)
                o->progress(o->progress_ctx, ++done, c->batch);
            }
        }
        if (ok)
            bufs_free(&w, dbl);
    }
#ifdef _OPENMP
    openblas_set_num_threads(blas_threads);
#endif
    free(q);
    return failed ? -1 : 0;
}

int mlab_ref_naive(const mlab_case *c, const mlab_ref_opts *o, float *out)
{
    float *q = load_q(c, o->q_fp8, o->mx_native);
    int maxL = 0;
    for (int b = 0; b < c->batch; b++)
        if (c->kv_indptr[b + 1] - c->kv_indptr[b] > maxL)
            maxL = c->kv_indptr[b + 1] - c->kv_indptr[b];
    float *k = malloc(((size_t)maxL * MLAB_DQK + 1) * sizeof *k);
    long double *p = malloc(((size_t)maxL + 1) * sizeof *p);
    if (!q || !k || !p) {
        free(q);
        free(k);
        free(p);
        return -1;
    }
    for (int b = 0; b < c->batch; b++) {
        int q0 = c->qo_indptr[b], n = c->qo_indptr[b + 1] - q0;
        int k0 = c->kv_indptr[b], L = c->kv_indptr[b + 1] - k0;
        mlab_ref_dequant_kv(c, o->kv, (size_t)k0, (size_t)L, k);
        for (int t = 0; t < n; t++)
            for (int h = 0; h < MLAB_HEADS; h++) {
                const float *qr = q + ((size_t)(q0 + t) * MLAB_HEADS + h) * MLAB_DQK;
                float *orow = out + ((size_t)(q0 + t) * MLAB_HEADS + h) * MLAB_DV;
                int vis = visible(L, n, t);
                long double mx = -INFINITY, sum = 0;
                for (int j = 0; j < vis; j++) {
                    long double dot = 0;
                    for (int d = 0; d < MLAB_DQK; d++)
                        dot += (long double)qr[d] * k[(size_t)j * MLAB_DQK + d];
                    p[j] = dot * c->sm_scale;
                    if (p[j] > mx)
                        mx = p[j];
                }
                for (int j = 0; j < vis; j++) {
                    long double e = expl(p[j] - mx);
                    sum += e;
                    p[j] = o->emulate_fp8_p && !o->mx_native ? (long double)round_p_fp8((float)e, c->fp8_fmt) : e;
                }
                for (int d = 0; d < MLAB_DV; d++) {
                    long double acc = 0;
                    if (o->mx_native && o->kv == MLAB_KV_MXFP4) { /* mla_ref.h: P' x raw E2M1 */
                        for (int j0 = 0; j0 < vis; j0 += 32) {
                            float x[32], dq[32];
                            uint8_t codes[32];
                            for (int j = 0; j < 32; j++) {
                                const size_t row = (size_t)(k0 + j0 + j);
                                x[j] = j0 + j < vis ? (float)p[j0 + j] * mlab_e8m0_decode(c->kv_e8m0[row * MLAB_MX_NBLK + d / 32])
                                                    : 0.0f;
                            }
                            mlab_mxfp8_quantize_block(x, codes, dq);
                            for (int j = 0; j < 32 && j0 + j < vis; j++) {
                                const uint8_t byte = c->kv_fp4[(size_t)(k0 + j0 + j) * MLAB_FP4_ROW + d / 2];
                                acc += (long double)dq[j] * mlab_e2m1_decode((d & 1) ? (uint8_t)(byte >> 4) : (uint8_t)(byte & 15));
                            }
                        }
                    } else {
                        for (int j = 0; j < vis; j++)
                            acc += p[j] * k[(size_t)j * MLAB_DQK + d];
                    }
                    orow[d] = vis ? (float)(acc / sum) : 0.0f;
                }
            }
    }
    free(q);
    free(k);
    free(p);
    return 0;
}
