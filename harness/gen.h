/* gen.h: deterministic case generation (the competition's 8 cases and any
 * custom case). Same spec, same bytes, on any machine: values come from a
 * counter-based generator (Philox4x32-10 keyed by the seed) through
 * Box-Muller, so element i of a tensor never depends on thread count.
 * q is drawn first (stream 0), then kv (stream 1), as in the competition;
 * each value is bf16(N(0,1)), then bf16(v * input_scale) when the scale is
 * not 1. This is NOT PyTorch's CUDA stream: data/record_competition.py
 * records the competition's exact tensors instead. */
#ifndef MLAB_GEN_H
#define MLAB_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "../reference/case.h" /* mlab_case */

typedef struct {
    int batch;
    int q_seq_len;          /* 1..4 */
    int kv_len;             /* uniform length when kv_lens is NULL */
    const int *kv_lens;     /* batch lengths, or NULL */
    uint64_t seed;
    float input_scale;
    mlab_fp4_tie fp4_tie;
    mlab_fp8_fmt fp8_fmt;
    char name[64];          /* "" -> derived from the parameters */
} mlab_gen_spec;

#define MLAB_SUITE_N 8
/* The competition's cases, (batch, kv_len, seed) of papers/spec.md, q_seq_len 1. */
void mlab_suite_spec(int i, mlab_gen_spec *s);
/* The embedded default case of the quick start: the suite's first (4 x 1024). */
void mlab_default_spec(mlab_gen_spec *s);
/* Defaults for a custom case (q_seq_len 1, scale 1, tie up, e4m3fn). */
void mlab_gen_spec_init(mlab_gen_spec *s);

/* Fill c (allocated here) per spec. Returns MLAB_EXIT_* and a reason. */
int mlab_gen_case(const mlab_gen_spec *s, mlab_case *c, char *why, size_t whylen);

/* The i-th standard normal of (seed, stream) as fp32. */
float mlab_gen_normal(uint64_t seed, uint32_t stream, uint64_t i);

#endif
