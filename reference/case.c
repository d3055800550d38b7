/* case.c: allocation, size and validation of an in-memory case (case.h). */
#include "case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mlab_kv_fmt_name(mlab_kv_fmt f)
{
    switch (f) {
    case MLAB_KV_BF16: return "bf16";
    case MLAB_KV_FP8: return "fp8";
    case MLAB_KV_MXFP4: return "mxfp4";
    }
    return "?";
}

int mlab_case_alloc(mlab_case *c, int batch, int total_q, int total_kv)
{
    c->batch = batch;
    c->total_q = total_q;
    c->total_kv = total_kv;
    size_t nq = (size_t)total_q, nkv = (size_t)total_kv;
    c->qo_indptr = calloc((size_t)batch + 1, sizeof(int32_t));
    c->kv_indptr = calloc((size_t)batch + 1, sizeof(int32_t));
    /* +1 so that empty tensors still get a distinct non-NULL pointer */
    c->q = malloc((nq * MLAB_HEADS * MLAB_DQK + 1) * sizeof(uint16_t));
    c->kv_bf16 = malloc((nkv * MLAB_DQK + 1) * sizeof(uint16_t));
    c->kv_fp8 = malloc(nkv * MLAB_DQK + 1);
    c->kv_fp4 = malloc(nkv * MLAB_FP4_ROW + 1);
    c->kv_e8m0 = malloc(nkv * MLAB_MX_NBLK + 1);
    c->ref_out = NULL;
    if (!c->qo_indptr || !c->kv_indptr || !c->q || !c->kv_bf16 || !c->kv_fp8 ||
        !c->kv_fp4 || !c->kv_e8m0) {
        mlab_case_free(c);
        return -1;
    }
    return 0;
}

void mlab_case_free(mlab_case *c)
{
    free(c->qo_indptr);
    free(c->kv_indptr);
    free(c->q);
    free(c->kv_bf16);
    free(c->kv_fp8);
    free(c->kv_fp4);
    free(c->kv_e8m0);
    free(c->ref_out);
    c->qo_indptr = c->kv_indptr = NULL;
    c->q = c->kv_bf16 = c->ref_out = NULL;
    c->kv_fp8 = c->kv_fp4 = c->kv_e8m0 = NULL;
}

size_t mlab_case_bytes(const mlab_case *c)
{
    size_t nq = (size_t)c->total_q, nkv = (size_t)c->total_kv;
    size_t b = 2 * ((size_t)c->batch + 1) * sizeof(int32_t);
    b += nq * MLAB_HEADS * MLAB_DQK * 2;
    b += nkv * (MLAB_DQK * 2 + MLAB_DQK + MLAB_FP4_ROW + MLAB_MX_NBLK);
    if (c->ref_out)
        b += nq * MLAB_HEADS * MLAB_DV * 2;
    return b;
}

static int check_indptr(const int32_t *p, int batch, int total, const char *name,
                        char *why, size_t whylen)
{
    if (p[0] != 0) {
        snprintf(why, whylen, "%s[0] = %d: must start at 0", name, p[0]);
        return -1;
    }
    for (int b = 0; b < batch; b++) {
        if (p[b + 1] < p[b]) {
            snprintf(why, whylen, "%s[%d] = %d < %s[%d] = %d: decreases", name, b + 1,
                     p[b + 1], name, b, p[b]);
            return -1;
        }
        if (p[b + 1] > total) {
            snprintf(why, whylen, "%s[%d] = %d: past the end of the buffer (%d rows)", name,
                     b + 1, p[b + 1], total);
            return -1;
        }
    }
    if (p[batch] != total) {
        snprintf(why, whylen, "%s[%d] = %d: must end at the buffer's %d rows", name, batch,
                 p[batch], total);
        return -1;
    }
    return 0;
}

/* First non-finite bf16 in n values, or -1. */
static long first_nonfinite_bf16(const uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((x[i] & 0x7F80u) == 0x7F80u)
            return (long)i;
    return -1;
}

int mlab_case_validate(const mlab_case *c, char *why, size_t whylen)
{
    if (c->batch < 1) {
        snprintf(why, whylen, "batch = %d: must be at least 1", c->batch);
        return -1;
    }
    if (check_indptr(c->qo_indptr, c->batch, c->total_q, "qo_indptr", why, whylen) ||
        check_indptr(c->kv_indptr, c->batch, c->total_kv, "kv_indptr", why, whylen))
        return -1;
    for (int b = 0; b < c->batch; b++) {
        int n = c->qo_indptr[b + 1] - c->qo_indptr[b];
        if (n < 1 || n > 4) {
            snprintf(why, whylen, "qo_indptr: item %d has %d query rows (1..4 supported)", b, n);
            return -1;
        }
    }
    if (!(c->sm_scale > 0.0f) || !isfinite(c->sm_scale)) {
        snprintf(why, whylen, "sm_scale = %g: must be positive and finite", (double)c->sm_scale);
        return -1;
    }
    long i = first_nonfinite_bf16(c->q, (size_t)c->total_q * MLAB_HEADS * MLAB_DQK);
    if (i >= 0) {
        snprintf(why, whylen, "q: non-finite value at flat index %ld (token %ld, head %ld, dim %ld)",
                 i, i / (MLAB_HEADS * MLAB_DQK), (i / MLAB_DQK) % MLAB_HEADS, i % MLAB_DQK);
        return -1;
    }
    i = first_nonfinite_bf16(c->kv_bf16, (size_t)c->total_kv * MLAB_DQK);
    if (i >= 0) {
        snprintf(why, whylen, "kv_bf16: non-finite value at flat index %ld (row %ld, dim %ld)", i,
                 i / MLAB_DQK, i % MLAB_DQK);
        return -1;
    }
    if (!(c->kv_fp8_scale > 0.0f) || !isfinite(c->kv_fp8_scale)) {
        snprintf(why, whylen, "kv_fp8_scale = %g: must be positive and finite",
                 (double)c->kv_fp8_scale);
        return -1;
    }
    uint8_t nan8 = c->fp8_fmt == MLAB_FP8_E4M3FNUZ ? 0x80 : 0x7F;
    size_t nkv = (size_t)c->total_kv;
    for (size_t k = 0; k < nkv * MLAB_DQK; k++) {
        if ((c->kv_fp8[k] & (c->fp8_fmt == MLAB_FP8_E4M3FNUZ ? 0xFF : 0x7F)) == nan8) {
            snprintf(why, whylen, "kv_fp8: NaN code at flat index %zu (row %zu, dim %zu)", k,
                     k / MLAB_DQK, k % MLAB_DQK);
            return -1;
        }
    }
    for (size_t k = 0; k < nkv * MLAB_MX_NBLK; k++) {
        if (c->kv_e8m0[k] == 255) {
            snprintf(why, whylen, "kv_mxfp4_scale: NaN scale (255) at row %zu, block %zu",
                     k / MLAB_MX_NBLK, k % MLAB_MX_NBLK);
            return -1;
        }
    }
    return 0;
}
