/* case.h: one MLA decode input case in memory (what a case file holds).
 *
 * Shapes (DeepSeek R1 forward_absorb, papers/spec.md):
 *   q          [total_q, 16, 576]   bf16 bits
 *   kv_bf16    [total_kv, 1, 576]   bf16 bits; K = all 576 dims, V = first 512
 *   kv_fp8     [total_kv, 1, 576]   fp8 codes (fp8_fmt), per-tensor scale kv_fp8_scale
 *   kv_fp4     [total_kv, 1, 288]   E2M1 pairs, low nibble = even index
 *   kv_e8m0    [total_kv, 18]       E8M0 scale per (row, block of 32)
 *   qo_indptr  [batch + 1]          int32, rows of q per item
 *   kv_indptr  [batch + 1]          int32, rows of kv per item
 *   ref_out    [total_q, 16, 512]   optional stored reference output (bf16), or NULL
 * Causal rule for items with n > 1 query rows over L kv rows (aiter/FlashMLA,
 * bottom-right): query i of n attends kv rows 0 .. L-n+i. A query that sees
 * no row (L-n+i < 0, or L = 0) outputs zeros.
 */
#ifndef MLAB_CASE_H
#define MLAB_CASE_H

#include <stddef.h>
#include <stdint.h>

#include "numerics.h" /* mlab_fp8_fmt, mlab_fp4_tie */

#include "mla_shapes.h" /* MLAB_HEADS, MLAB_DQK, MLAB_DV, MLAB_MX_*, MLAB_FP4_ROW, mlab_kv_fmt */

typedef struct {
    char name[64];          /* e.g. "b4_kv1024_s4217" */
    int batch;
    int q_seq_len;          /* uniform rows per item, or -1 when qo_indptr varies */
    int kv_len;             /* uniform length, or -1 when kv_indptr varies */
    int total_q, total_kv;
    float sm_scale;         /* 1/sqrt(576) */
    uint64_t seed;
    float input_scale;      /* 1.0, or 0.02 as before 2026-03-17 */
    mlab_fp8_fmt fp8_fmt;
    mlab_fp4_tie fp4_tie;
    char producer[128];     /* who wrote the file, e.g. "mlabench 0.1.0 gen" */
    char commit[64];        /* producer's git commit, or "unknown" */

    int32_t *qo_indptr;
    int32_t *kv_indptr;
    uint16_t *q;
    uint16_t *kv_bf16;
    uint8_t *kv_fp8;
    float kv_fp8_scale;
    uint8_t *kv_fp4;
    uint8_t *kv_e8m0;
    uint16_t *ref_out;      /* NULL when absent */
} mlab_case;

const char *mlab_kv_fmt_name(mlab_kv_fmt f); /* "bf16", "fp8", "mxfp4" */

/* Allocate the tensors for the given indptrs' totals (ref_out stays NULL).
 * Returns 0, or -1 when out of memory (everything freed). */
int mlab_case_alloc(mlab_case *c, int batch, int total_q, int total_kv);
void mlab_case_free(mlab_case *c);

/* Bytes of the tensors (for memory accounting and napkin math). */
size_t mlab_case_bytes(const mlab_case *c);

/* Check what a loaded or generated case must satisfy: indptrs start at 0,
 * never decrease and end at total rows; q_seq_len 1..4 per item; every bf16
 * value of q and kv finite. On failure writes a one-line reason naming the
 * tensor (e.g. "kv_indptr[3] = 10 < kv_indptr[2] = 12: decreases") and
 * returns -1. */
int mlab_case_validate(const mlab_case *c, char *why, size_t whylen);

#endif
