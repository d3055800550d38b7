/* test_gen: the case generator (harness/gen.c) is deterministic and draws
 * what gen.h says it draws. One check per behaviour; prints every failing
 * check and exits 1 if any.
 *   - the same spec twice gives identical bytes in every tensor
 *   - different seeds give different tensors
 *   - q is bf16(mlab_gen_normal(seed, 0, i)), kv is stream 1, and with an
 *     input scale each value is bf16(bf16(z) * scale)
 *   - golden values of the suite's first case (an accidental change of the
 *     generator is caught here)
 *   - 1M normals have mean ~0 and standard deviation ~1
 *   - the fp8 and MXFP4 tensors are what the numerics quantizers give
 */
#include "harness/gen.h"       // mlab_gen_case, mlab_gen_normal, mlab_suite_spec
#include "reference/numerics.h" // mlab_bf16_*, mlab_fp8_quantize_tensor, mlab_mxfp4_quantize_row

#include <math.h>   // sqrt, fabs
#include <stdio.h>  // printf
#include <stdlib.h> // malloc, free
#include <string.h> // memcmp

#include "mlab_check.h" // check, failed, checked

static size_t n_q(const mlab_case *c) { return (size_t)c->total_q * MLAB_HEADS * MLAB_DQK; }
static size_t n_kv(const mlab_case *c) { return (size_t)c->total_kv * MLAB_DQK; }

static int gen(const mlab_gen_spec *s, mlab_case *c)
{
    char why[256] = "";
    int rc = mlab_gen_case(s, c, why, sizeof why);
    if (rc)
        printf("mlab_gen_case: %s\n", why);
    return rc;
}

/* Awkward lengths, an empty item, q_seq_len 3, scale 0.02: the spec most
 * checks below use. */
static const int lens[] = {5, 0, 1, 77, 31};

static void small_spec(mlab_gen_spec *s, uint64_t seed)
{
    mlab_gen_spec_init(s);
    s->batch = 5;
    s->kv_lens = lens;
    s->q_seq_len = 3;
    s->seed = seed;
    s->input_scale = 0.02f;
}

static int same_case(const mlab_case *a, const mlab_case *b)
{
    return a->total_q == b->total_q && a->total_kv == b->total_kv &&
           !memcmp(a->qo_indptr, b->qo_indptr, ((size_t)a->batch + 1) * 4) &&
           !memcmp(a->kv_indptr, b->kv_indptr, ((size_t)a->batch + 1) * 4) &&
           !memcmp(a->q, b->q, n_q(a) * 2) && !memcmp(a->kv_bf16, b->kv_bf16, n_kv(a) * 2) &&
           !memcmp(a->kv_fp8, b->kv_fp8, n_kv(a)) && a->kv_fp8_scale == b->kv_fp8_scale &&
           !memcmp(a->kv_fp4, b->kv_fp4, (size_t)a->total_kv * MLAB_FP4_ROW) &&
           !memcmp(a->kv_e8m0, b->kv_e8m0, (size_t)a->total_kv * MLAB_MX_NBLK);
}

static void test_deterministic(void)
{
    mlab_gen_spec s;
    mlab_case a, b, d;
    small_spec(&s, 4217);
    if (gen(&s, &a) || gen(&s, &b)) {
        check(0, "gen builds the small case");
        return;
    }
    check(same_case(&a, &b), "gen is deterministic: the same spec twice gives identical bytes");
    small_spec(&s, 4218);
    if (!gen(&s, &d)) {
        size_t eq = 0;
        for (size_t i = 0; i < n_q(&a); i++)
            eq += a.q[i] == d.q[i];
        /* two independent bf16 normals are equal ~0.3% of the time */
        check(eq < n_q(&a) / 50, "gen with a different seed gives a different q");
        check(memcmp(a.kv_bf16, d.kv_bf16, n_kv(&a) * 2) != 0,
              "gen with a different seed gives a different kv");
        mlab_case_free(&d);
    }
    mlab_case_free(&a);
    mlab_case_free(&b);
}

/* q[i] == bf16(bf16(z_i) * scale) with z_i from stream 0, kv from stream 1. */
static void test_streams(float scale)
{
    mlab_gen_spec s;
    mlab_case c;
    small_spec(&s, 99);
    s.input_scale = scale;
    if (gen(&s, &c)) {
        check(0, "gen builds the small case");
        return;
    }
    size_t bad_q = 0, bad_kv = 0;
    for (size_t i = 0; i < n_q(&c); i++) {
        uint16_t v = mlab_bf16_from_f32(mlab_gen_normal(99, 0, i));
        if (scale != 1.0f)
            v = mlab_bf16_from_f32(mlab_bf16_to_f32(v) * scale);
        bad_q += c.q[i] != v;
    }
    for (size_t i = 0; i < n_kv(&c); i++) {
        uint16_t v = mlab_bf16_from_f32(mlab_gen_normal(99, 1, i));
        if (scale != 1.0f)
            v = mlab_bf16_from_f32(mlab_bf16_to_f32(v) * scale);
        bad_kv += c.kv_bf16[i] != v;
    }
    if (bad_q || bad_kv)
        printf("  scale %g: %zu q and %zu kv values differ from the streams\n", (double)scale,
               bad_q, bad_kv);
    check(!bad_q, scale == 1.0f ? "q[i] is bf16(mlab_gen_normal(seed, 0, i)) (stream 0)"
                                : "q[i] is bf16(bf16(normal(seed, 0, i)) * 0.02) at scale 0.02");
    check(!bad_kv, scale == 1.0f ? "kv[i] is bf16(mlab_gen_normal(seed, 1, i)) (stream 1)"
                                 : "kv[i] is bf16(bf16(normal(seed, 1, i)) * 0.02) at scale 0.02");
    mlab_case_free(&c);
}

/* Golden values: the suite's first case (batch 4, kv 1024, seed 4217), as
 * the generator computed them when this test was written. If this fails
 * because the generator was changed on purpose, every case file made before
 * holds different numbers: that change needs a new case-file major version
 * (MLAB_CASE_VERSION in harness/case_schema.h), and these values pasted anew. */
static void test_golden(void)
{
    /* -1.203 1.188 0.574 -0.044 and 1.477 -1.539 -3.578 -1.297 */
    static const uint16_t want_q[4] = {0xBF9A, 0x3F98, 0x3F13, 0xBD34};
    static const uint16_t want_kv[4] = {0x3FBD, 0xBFC5, 0xC065, 0xBFA6};
    mlab_gen_spec s;
    mlab_case c;
    mlab_suite_spec(0, &s);
    if (gen(&s, &c)) {
        check(0, "gen builds the suite's first case");
        return;
    }
    check(c.batch == 4 && c.total_kv == 4096 && c.total_q == 4 && c.seed == 4217,
          "the suite's first case is batch 4, kv 1024, seed 4217, q_seq_len 1");
    int ok = 1;
    for (int i = 0; i < 4; i++)
        ok &= c.q[i] == want_q[i] && c.kv_bf16[i] == want_kv[i];
    if (!ok)
        printf("  first 4 bf16 of q: 0x%04X 0x%04X 0x%04X 0x%04X, kv: 0x%04X 0x%04X 0x%04X 0x%04X\n",
               c.q[0], c.q[1], c.q[2], c.q[3], c.kv_bf16[0], c.kv_bf16[1], c.kv_bf16[2],
               c.kv_bf16[3]);
    check(ok, "golden: the first 4 bf16 values of q and kv of case b4_kv1024 seed 4217 are unchanged");
    mlab_case_free(&c);
}

static void test_moments(void)
{
    const size_t n = 1000000;
    double s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        double z = mlab_gen_normal(4217, 0, i);
        s1 += z;
        s2 += z * z;
    }
    double mean = s1 / (double)n, sd = sqrt(s2 / (double)n - mean * mean);
    /* standard errors: 1/sqrt(n) for the mean, 1/sqrt(2n) for the std */
    printf("  1M normals: mean %.5f, std %.5f\n", mean, sd);
    check(fabs(mean) < 5.0 / sqrt((double)n), "1M normals have mean 0 within 5 sigma");
    check(fabs(sd - 1.0) < 5.0 / sqrt(2.0 * (double)n), "1M normals have std 1 within 5 sigma");
}

/* The stored fp8 and MXFP4 tensors equal the numerics quantizers' output
 * for the spec's fp8 flavour and tie rule. */
static void test_quantized(mlab_fp4_tie tie, mlab_fp8_fmt fmt)
{
    mlab_gen_spec s;
    mlab_case c;
    small_spec(&s, 7);
    s.input_scale = 1.0f;
    s.fp4_tie = tie;
    s.fp8_fmt = fmt;
    if (gen(&s, &c)) {
        check(0, "gen builds the small case");
        return;
    }
    size_t nkv = (size_t)c.total_kv;
    uint8_t *f8 = malloc(n_kv(&c) + 1), *f4 = malloc(nkv * MLAB_FP4_ROW + 1),
            *e8 = malloc(nkv * MLAB_MX_NBLK + 1);
    if (!f8 || !f4 || !e8) {
        check(0, "out of memory");
    } else {
        float scale = mlab_fp8_quantize_tensor(c.kv_bf16, n_kv(&c), fmt, f8);
        for (size_t r = 0; r < nkv; r++)
            mlab_mxfp4_quantize_row(c.kv_bf16 + r * MLAB_DQK, MLAB_DQK, tie,
                                    f4 + r * MLAB_FP4_ROW, e8 + r * MLAB_MX_NBLK);
        int fp8_ok = scale == c.kv_fp8_scale && !memcmp(f8, c.kv_fp8, n_kv(&c));
        int fp4_ok = !memcmp(f4, c.kv_fp4, nkv * MLAB_FP4_ROW) &&
                     !memcmp(e8, c.kv_e8m0, nkv * MLAB_MX_NBLK);
        char what[160];
        snprintf(what, sizeof what, "kv_fp8 and its scale are mlab_fp8_quantize_tensor of kv_bf16 (%s)",
                 fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz");
        check(fp8_ok, what);
        snprintf(what, sizeof what, "kv_fp4 and kv_e8m0 are mlab_mxfp4_quantize_row of kv_bf16 (tie %s)",
                 mlab_fp4_tie_name(tie));
        check(fp4_ok, what);
    }
    free(f8);
    free(f4);
    free(e8);
    mlab_case_free(&c);
}

static void test_rejects(void)
{
    mlab_gen_spec s;
    mlab_case c;
    char why[256];
    mlab_gen_spec_init(&s);
    s.q_seq_len = 5;
    check(mlab_gen_case(&s, &c, why, sizeof why) != 0, "gen rejects q_seq_len 5");
    mlab_gen_spec_init(&s);
    s.batch = 0;
    check(mlab_gen_case(&s, &c, why, sizeof why) != 0, "gen rejects batch 0");
    static const int neg[] = {3, -1};
    mlab_gen_spec_init(&s);
    s.batch = 2;
    s.kv_lens = neg;
    check(mlab_gen_case(&s, &c, why, sizeof why) != 0, "gen rejects a negative kv length");
}

int main(void)
{
    test_deterministic();
    test_streams(1.0f);
    test_streams(0.02f);
    test_golden();
    test_moments();
    test_quantized(MLAB_TIE_UP, MLAB_FP8_E4M3FN);
    test_quantized(MLAB_TIE_EVEN, MLAB_FP8_E4M3FNUZ);
    test_rejects();
    printf("test_gen: %d of %d checks failed\n", failed, checked);
    return failed ? 1 : 0;
}
