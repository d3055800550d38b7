/* test_metrics: the error metrics and the tolerance table (reference/metrics.c)
 * on hand-made arrays whose answers are worked out in the comments. One check
 * per behaviour; prints every failing check and exits 1 if any.
 *   - max_abs / max_rel and their indices, rel_rms, cos_diff
 *   - mismatches count |o - r| > atol + rtol |r| (strictly greater)
 *   - NaN/Inf positions: both NaN or the same Inf agree; NaN vs finite,
 *     +Inf vs -Inf disagree, and count as mismatches
 *   - the competition rule (allclose 0.1/0.1 or <= 5% not close) passes an
 *     all-zero output against outputs of size ~0.05 (papers/spec.md's point), which
 *     the kernel tolerance rejects
 *   - mlab_tol_pass: the fp8 row's outlier allowance (max_mismatch_frac,
 *     max_abs_atols), none for bf16; mlab_err_judge scales atol by rms(ref)
 */
#include "reference/metrics.h" // mlab_err_compute, mlab_tol_*, mlab_err_judge

#include <math.h>   // fabs, sqrt, NAN, INFINITY
#include <stdio.h>  // printf
#include <stdlib.h> // malloc, free

#include "mlab_check.h" // check, failed, checked

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

/* Two float arrays of n; 0 (a failed check, nothing to free) when out of memory. */
static int alloc_pair(int n, float **a, float **b)
{
    *a = malloc((size_t)n * sizeof **a);
    *b = malloc((size_t)n * sizeof **b);
    if (*a && *b)
        return 1;
    check(0, "out of memory");
    free(*a);
    free(*b);
    return 0;
}

static void test_basic(void)
{
    /* differences 0, .5, 0, .25, .25; relative: -, .125, 0, (r = 0), .5 */
    static const float ref[5] = {1.0f, 4.0f, -4.0f, 0.0f, 0.5f};
    static const float out[5] = {1.0f, 4.5f, -4.0f, 0.25f, 0.75f};
    mlab_err e;
    mlab_err_compute(out, ref, 5, 0.5, 0.125, &e);
    check(e.n == 5 && e.rtol == 0.5 && e.atol == 0.125, "err records n, rtol and atol");
    check(e.max_abs == 0.5 && e.max_abs_idx == 1, "max_abs is the largest |o - r| (0.5 at index 1)");
    check(e.max_rel == 0.5 && e.max_rel_idx == 4,
          "max_rel is the largest |o - r| / |r| over r != 0 (0.5 at index 4; index 3 has r = 0)");
    /* sum d^2 = .375, sum r^2 = 33.25, sum o^2 = 37.875, sum o r = 35.375 */
    check(near(e.rel_rms, sqrt(0.375 / 33.25)), "rel_rms is ||o - r|| / ||r||");
    check(near(e.cos_diff, 1.0 - 2.0 * 35.375 / (37.875 + 33.25)),
          "cos_diff is 1 - 2<o,r> / (|o|^2 + |r|^2)");
    check(near(e.cos_diff, 0.375 / (37.875 + 33.25)) &&
              e.cos_diff <= e.rel_rms * e.rel_rms,
          "cos_diff equals ||o - r||^2 / (|o|^2 + |r|^2), at most rel_rms^2");
    check(e.mismatches == 1, "mismatches at rtol 0.5 atol 0.125: only index 3 (r = 0, d = 0.25)");
    mlab_err_compute(out, ref, 5, 0.0, 0.125, &e);
    check(e.mismatches == 3, "mismatches at rtol 0 atol 0.125: indices 1, 3 and 4");
    mlab_err_compute(out, ref, 5, 0.0, 0.25, &e);
    check(e.mismatches == 1, "a difference equal to atol + rtol |r| is not a mismatch (only index 1)");
    check(e.nonfinite_disagree == 0, "finite arrays: no NaN/Inf disagreement");

    mlab_err_compute(ref, ref, 5, 0.0, 0.0, &e);
    check(e.max_abs == 0 && e.max_rel == 0 && e.rel_rms == 0 && e.cos_diff == 0 && e.mismatches == 0,
          "an output equal to its reference has every error 0");
    static const float zero[3] = {0, 0, 0}, one[3] = {0, 1, 0};
    mlab_err_compute(one, zero, 3, 0.1, 0.1, &e);
    check(isinf(e.rel_rms), "rel_rms against an all-zero reference is Inf when the output is not zero");
}

static void test_nonfinite(void)
{
    /* index 0: both NaN (agree); 1: both +Inf (agree); 2: NaN vs 1 (disagree);
     * 3: 1 vs NaN (disagree); 4: +Inf vs -Inf (disagree); 5: 2 vs 2.5 */
    const float ref[6] = {NAN, INFINITY, NAN, 1.0f, -INFINITY, 2.5f};
    const float out[6] = {NAN, INFINITY, 1.0f, NAN, INFINITY, 2.0f};
    mlab_err e;
    mlab_err_compute(out, ref, 2, 0.0, 0.0, &e);
    check(e.nonfinite_disagree == 0 && e.mismatches == 0,
          "NaN against NaN and +Inf against +Inf at the same index agree");
    mlab_err_compute(out, ref, 6, 0.0, 0.0, &e);
    check(e.nonfinite_disagree == 3, "NaN vs finite (either side) and +Inf vs -Inf disagree (3)");
    check(e.first_nonfinite_idx == 2, "first_nonfinite_idx is the first disagreement (index 2)");
    check(e.mismatches == 4, "NaN/Inf disagreements count as mismatches (3 + the finite one)");
    check(e.max_abs == 0.5 && e.max_abs_idx == 5 && isfinite(e.rel_rms),
          "finite metrics skip the NaN/Inf positions");
    const mlab_tol *bf16 = mlab_tol_find("kernel:bf16");
    mlab_err_compute(out, ref, 2, bf16->rtol, bf16->atol, &e);
    check(mlab_tol_pass(&e, bf16), "agreeing NaN/Inf positions pass the kernel tolerance");
    const float r1[2] = {1, 1}, o1[2] = {1, NAN};
    mlab_err_compute(o1, r1, 2, bf16->rtol, bf16->atol, &e);
    check(!mlab_tol_pass(&e, bf16), "one NaN where the reference is finite fails the kernel tolerance");
}

/* The competition's rule: allclose at 0.1/0.1, or <= 5% not close. */
static void test_competition(void)
{
    enum { N = 4096 };
    float *ref, *out;
    if (!alloc_pair(N, &ref, &out))
        return;
    for (int i = 0; i < N; i++) {
        ref[i] = (i % 2 ? 0.05f : -0.05f) * (1.0f + (float)(i % 7) / 7.0f); /* |r| 0.05..0.1 */
        out[i] = 0.0f;
    }
    mlab_err e;
    mlab_err_compute(out, ref, N, 0.1, 0.1, &e);
    check(e.comp_pass && e.comp_mismatch_frac == 0.0,
          "competition rule: an all-zero output passes against a reference of size ~0.05 (papers/spec.md)");
    check(e.cos_diff == 1.0 && e.rel_rms == 1.0,
          "the all-zero output has rel_rms 1 and cos_diff 1 (the metrics see it)");
    check(!mlab_err_judge(out, ref, N, mlab_tol_find("kernel:bf16"), &e) &&
              !mlab_err_judge(out, ref, N, mlab_tol_find("kernel:fp8"), &e),
          "the kernel tolerances (bf16, fp8) reject the all-zero output");

    /* 100 values, k of them off by 1: <= 5 passes, 6 fails */
    float r[100], o[100];
    for (int i = 0; i < 100; i++)
        r[i] = o[i] = 1.0f;
    for (int i = 0; i < 5; i++)
        o[i * 17] = 2.5f;
    mlab_err_compute(o, r, 100, 0.1, 0.1, &e);
    check(e.comp_mismatch_frac == 0.05 && e.comp_pass,
          "competition rule: exactly 5% of elements not close still passes");
    o[99] = 2.5f;
    mlab_err_compute(o, r, 100, 0.1, 0.1, &e);
    check(!e.comp_pass, "competition rule: 6% of elements not close fails");
    o[99] = NAN;
    mlab_err_compute(o, r, 100, 0.1, 0.1, &e);
    check(!e.comp_pass, "competition rule: a NaN where the reference is finite counts as not close");
    free(ref);
    free(out);
}

/* The fp8 row allows max_mismatch_frac of the outputs outside, none by more
 * than max_abs_atols atol. With ref all 1, rms(ref) = 1, so atol is the
 * table's number (1/8) and an outlier of 0.3 is a mismatch (> 1/8 + 1/8)
 * but within 4 atol (0.5). */
static void test_tol_pass(void)
{
    const mlab_tol *f8 = mlab_tol_find("kernel:fp8"), *bf = mlab_tol_find("kernel:bf16");
    check(f8 && bf && !mlab_tol_find("kernel:nonsense"), "mlab_tol_find finds rows by name, NULL else");
    if (!f8 || !bf)
        return;
    size_t ntab;
    const mlab_tol *tab = mlab_tol_table(&ntab);
    int table_ok = ntab > 0;
    for (size_t i = 0; i < ntab; i++)
        table_ok &= mlab_tol_find(tab[i].name) == &tab[i] && tab[i].reason && tab[i].reason[0];
    check(table_ok, "every table row is found by its name and gives a reason");

    enum { N = 20000 };
    float *ref, *out;
    if (!alloc_pair(N, &ref, &out))
        return;
    int nallowed = (int)(f8->max_mismatch_frac * N); /* 2 */
    for (int i = 0; i < N; i++)
        ref[i] = out[i] = 1.0f;
    mlab_err e;
    check(mlab_err_judge(out, ref, N, f8, &e) && e.atol == f8->atol,
          "mlab_err_judge: atol is the table's atol times rms(ref) (rms 1 here)");
    for (int i = 0; i < nallowed; i++)
        out[1000 * i + 7] = 1.3f;
    check(nallowed >= 1 && mlab_err_judge(out, ref, N, f8, &e) && e.mismatches == (size_t)nallowed,
          "kernel:fp8 passes max_mismatch_frac of outliers within max_abs_atols");
    check(!mlab_err_judge(out, ref, N, bf, &e), "kernel:bf16 allows no outlier");
    out[N - 1] = 1.3f;
    check(!mlab_err_judge(out, ref, N, f8, &e),
          "kernel:fp8 fails one outlier more than max_mismatch_frac allows");
    out[N - 1] = 1.0f;
    out[7] = 1.0f + (float)(f8->max_abs_atols * f8->atol) + 0.05f; /* 4 atol (0.5) + 0.05 */
    check(!mlab_err_judge(out, ref, N, f8, &e),
          "kernel:fp8 fails an outlier beyond max_abs_atols atol");

    /* rms 4 scales atol: with ref all 4, atol = 4/8 = 0.5 absolute */
    for (int i = 0; i < N; i++) {
        ref[i] = 4.0f;
        out[i] = 4.0f + (i == 3 ? 0.9f : 0.0f); /* within 0.5 + 4/8: not a mismatch */
    }
    check(mlab_err_judge(out, ref, N, f8, &e) && e.atol == 4.0 * f8->atol && e.mismatches == 0,
          "mlab_err_judge scales atol with rms(ref) (ref 4: atol 0.5)");

    /* rel_rms alone: every element within rtol, but rel_rms above the row's max */
    mlab_err r = {0};
    r.n = 100;
    r.rel_rms = bf->max_rel_rms * 1.5;
    check(!mlab_tol_pass(&r, bf), "mlab_tol_pass fails a rel_rms above max_rel_rms with no mismatch");
    r.rel_rms = NAN;
    check(!mlab_tol_pass(&r, bf), "mlab_tol_pass fails a NaN rel_rms");
    r.rel_rms = bf->max_rel_rms;
    check(mlab_tol_pass(&r, bf), "mlab_tol_pass passes rel_rms equal to max_rel_rms, no mismatch");
    r.cos_diff = bf->max_cos_diff * 1.5;
    check(!mlab_tol_pass(&r, bf), "mlab_tol_pass fails a cos_diff above max_cos_diff, rel_rms within");
    r.cos_diff = NAN;
    check(!mlab_tol_pass(&r, bf), "mlab_tol_pass fails a NaN cos_diff");
    r.cos_diff = bf->max_cos_diff;
    check(mlab_tol_pass(&r, bf), "mlab_tol_pass passes cos_diff equal to max_cos_diff");
    /* each row's cos bound sits between rel_rms^2 / 4 and rel_rms^2 (cos_diff ~ rel_rms^2 / 2
     * at equal norms): neither dead nor stricter than the rel RMS bound by more than 2x */
    int cos_ok = 1;
    for (size_t i = 0; i < ntab; i++) {
        double m2 = tab[i].max_rel_rms * tab[i].max_rel_rms;
        cos_ok &= tab[i].max_cos_diff >= m2 / 4 && tab[i].max_cos_diff <= m2;
    }
    check(cos_ok, "every tolerance row's max_cos_diff lies in [max_rel_rms^2 / 4, max_rel_rms^2]");
    free(ref);
    free(out);
}

int main(void)
{
    test_basic();
    test_nonfinite();
    test_competition();
    test_tol_pass();
    printf("test_metrics: %d of %d checks failed\n", failed, checked);
    return failed ? 1 : 0;
}
