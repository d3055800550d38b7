/* mla_ref.h: the CPU reference of MLA decode attention, with OpenBLAS.
 *
 * For each batch item b: K = the item's kv rows (dequantized from the chosen
 * format to fp32, one item at a time), S = Q_b K^T * sm_scale by one GEMM,
 * causal bottom-right mask for q_seq_len > 1, softmax with the max
 * subtracted, O = P V by a second GEMM, divided by the row sum.
 * MLAB_REF_SGEMM works in fp32 (cblas_sgemm); MLAB_REF_DGEMM in fp64
 * (cblas_dgemm), the ground truth. With emulate_fp8_p the unnormalized
 * probabilities exp(s - max) are rounded to fp8 (e4m3fn) before P.V, as the
 * fp8 kernels and aiter's test model do (in the case's fp8 flavour); the row sum uses the unrounded p.
 * Q is taken as bf16, or, with q_fp8, quantized per tensor to fp8 first
 * (the a8w8 path; mlab_fp8_quantize_tensor), its scale folded into sm_scale;
 * q_fp8 = 2 applies that rule to each (row, head) of 576 values instead (the
 * _qrow variants).
 */
#ifndef MLAB_MLA_REF_H
#define MLAB_MLA_REF_H

#include <stddef.h>

#include "case.h" /* mlab_case, mlab_kv_fmt */

typedef enum { MLAB_REF_SGEMM = 0, MLAB_REF_DGEMM = 1 } mlab_ref_prec;

typedef struct {
    mlab_kv_fmt kv;        /* which KV tensor to read */
    mlab_ref_prec prec;
    int q_fp8;             /* quantize q to fp8 (a8w8): 1 per tensor, 2 per (row, head) */
    int emulate_fp8_p;     /* round exp(s - max) to fp8 before P.V */
    void (*progress)(void *ctx, int done, int total); /* may be NULL */
    void *progress_ctx;
    int mx_native;         /* MXFP4 KV as gfx950's scaled MFMA reads it (mxfp4_mfma_scale):
                              Q as MXFP8 (mlab_mxfp8_quantize_block per head row and 32
                              dims, instead of q_fp8's per-tensor fp8); P.V as P'[r] =
                              MXFP8 of p[r] 2^(e[r] - 127) along blocks of 32 kv rows (from
                              the item's row 0), per 32-dim block of V, times V's raw E2M1;
                              the row sum from the unrounded p. Ignores q_fp8 and
                              emulate_fp8_p. */
} mlab_ref_opts;

/* out: [total_q, 16, 512] fp32, written fully. Returns 0, -1 out of memory. */
int mlab_ref_compute(const mlab_case *c, const mlab_ref_opts *o, float *out);

/* The same function as a plain triple loop in long double, for tests. */
int mlab_ref_naive(const mlab_case *c, const mlab_ref_opts *o, float *out);

/* Dequantize kv rows [r0, r0 + n) of format f to fp32 [n, 576]. */
void mlab_ref_dequant_kv(const mlab_case *c, mlab_kv_fmt f, size_t r0, size_t n, float *dst);

#endif
