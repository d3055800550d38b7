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
    /* optional: called between chunks of the long steps with the step
     * ("q", "kv", "fp8", "mxfp4") and the fraction of the case done */
    void (*progress)(void *ctx, const char *step, double frac);
    void *progress_ctx;
} mlab_gen_spec;

#define MLAB_SUITE_N 8
/* The competition's cases, (batch, kv_len, seed) of papers/spec.md, q_seq_len 1. */
void mlab_suite_spec(int i, mlab_gen_spec *s);
/* The embedded default case of the quick start: the suite's first (4 x 1024). */
void mlab_default_spec(mlab_gen_spec *s);
/* Defaults for a custom case (q_seq_len 1, scale 1, tie up, e4m3fn). */
void mlab_gen_spec_init(mlab_gen_spec *s);

/* The case name of a spec: one rule for every producer (gen, run's in-memory
 * sweeps, data/record_competition.py through data/case_name.py), covering
 * every parameter that changes the bytes (data/README.md, "Case names"):
 *   b<batch>_kv<L>_s<seed>[_x<scale>][_even][_fnuz][_q<n>]
 * L is the uniform kv length; varying lengths give kv<L1>-<L2>-.. when that
 * part is at most 32 characters, else kvvar<8 hex digits of FNV-1a 32 over
 * "L1,L2,..">. A suffix appears only when its parameter differs from the
 * default (input scale 1, tie up, e4m3fn, q_seq_len 1); the scale is written
 * with the fewest %g digits that give back its fp32 value. spec->name, when
 * set, wins. Returns 0, or -1 (with a reason) when the name would not fit
 * 63 characters. */
int mlab_gen_name(const mlab_gen_spec *s, char *out, size_t outlen, char *why, size_t whylen);

/* The end of every case name (gen's, import's): stem, then _even and _fnuz
 * where the tie rule and fp8 flavour differ from the default, then tail;
 * -1 (with a reason) past 63 characters. */
int mlab_case_name_finish(const char *stem, mlab_fp4_tie tie, mlab_fp8_fmt fp8, const char *tail, char *out,
                          size_t outlen, char *why, size_t whylen);

/* Bytes of the case file mlab_h5_write_case writes for a spec (tensors and
 * indptrs; headers of a few KB aside): the size and memory estimate. */
double mlab_gen_file_bytes(const mlab_gen_spec *s);

/* Fill c (allocated here) per spec. Returns MLAB_EXIT_* and a reason. */
int mlab_gen_case(const mlab_gen_spec *s, mlab_case *c, char *why, size_t whylen);

/* The i-th standard normal of (seed, stream) as fp32. */
float mlab_gen_normal(uint64_t seed, uint32_t stream, uint64_t i);

#endif
