/* stats.c: quantiles, the Mann-Whitney U test, geometric means and the
 * verdicts of `mlabench compare` (stats.h).
 *
 * Mann-Whitney U (Mann & Whitney 1947), as scipy.stats.mannwhitneyu with
 * method="asymptotic", use_continuity=True, alternative="two-sided":
 *   ranks of the pooled samples, ties get their average rank;
 *   U_a = R_a - na (na + 1) / 2,  U_b = na nb - U_a;
 *   sigma^2 = na nb / 12 * ((n + 1) - sum(t^3 - t) / (n (n - 1))), t = tie group sizes;
 *   z = (max(U_a, U_b) - na nb / 2 - 1/2) / sigma;  p = min(1, 2 (1 - Phi(z))).
 * Checked against scipy's documented example in tests/test_results_stats.c.
 */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../reference/metrics.h" /* mlab_tol_find */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void mlab_sort_doubles(double *x, size_t n)
{
    qsort(x, n, sizeof *x, cmp_double);
}

double mlab_quantile_sorted(const double *x, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double h = p * (double)(n - 1);
    size_t lo = (size_t)floor(h);
    if (lo >= n - 1)
        return x[n - 1];
    double frac = h - (double)lo;
    return x[lo] + frac * (x[lo + 1] - x[lo]);
}

typedef struct {
    double v;
    int from_a;
} tagged;

static int cmp_tagged(const void *a, const void *b)
{
    return cmp_double(&((const tagged *)a)->v, &((const tagged *)b)->v);
}

int mlab_mann_whitney(const double *a, size_t na, const double *b, size_t nb, mlab_mwu *out)
{
    memset(out, 0, sizeof *out);
    if (na == 0 || nb == 0)
        return -1;
    size_t n = na + nb;
    tagged *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < na; i++)
        t[i] = (tagged){a[i], 1};
    for (size_t i = 0; i < nb; i++)
        t[na + i] = (tagged){b[i], 0};
    qsort(t, n, sizeof *t, cmp_tagged);

    double rank_sum_a = 0, tie_sum = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && t[j].v == t[i].v)
            j++;
        double avg_rank = 0.5 * (double)(i + 1 + j); /* ranks i+1 .. j */
        for (size_t k = i; k < j; k++)
            if (t[k].from_a)
                rank_sum_a += avg_rank;
        double g = (double)(j - i);
        tie_sum += g * g * g - g;
        i = j;
    }
    free(t);

    double dna = (double)na, dnb = (double)nb, dn = (double)n;
    out->u_a = rank_sum_a - dna * (dna + 1) / 2;
    out->u_b = dna * dnb - out->u_a;
    out->ps_b_gt_a = out->u_b / (dna * dnb);
    double mu = dna * dnb / 2;
    double var = dna * dnb / 12 * ((dn + 1) - (n > 1 ? tie_sum / (dn * (dn - 1)) : 0));
    if (!(var > 0)) { /* every value equal: nothing to tell apart */
        out->z = 0;
        out->p = 1;
        return 0;
    }
    double umax = out->u_a > out->u_b ? out->u_a : out->u_b;
    out->z = (umax - mu - 0.5) / sqrt(var);
    out->p = erfc(out->z / sqrt(2.0)); /* 2 (1 - Phi(z)) */
    if (out->p > 1)
        out->p = 1;
    return 0;
}

double mlab_geomean(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !isfinite(x[i]))
            return NAN;
        s += log(x[i]);
    }
    return exp(s / (double)n);
}

/* ---- verdicts ------------------------------------------------------------ */

const char *mlab_verdict_name(mlab_verdict v)
{
    switch (v) {
    case MLAB_SAME: return "same";
    case MLAB_FASTER: return "faster";
    case MLAB_SLOWER: return "slower";
    case MLAB_UNCLEAR: return "unclear";
    }
    return "?";
}

void mlab_cmp_opts_default(mlab_cmp_opts *o)
{
    o->alpha = 0.05;
    o->threshold = 0.02;
    o->drift_factor = 1.5;
    o->drift_floor = 0.1;
}

int mlab_compare_timing(const mlab_row *o, const mlab_row *n, const mlab_cmp_opts *opt,
                        mlab_timing_cmp *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = MLAB_UNCLEAR;
    out->change = (o->median_us > 0 && n->median_us > 0) ? n->median_us / o->median_us - 1 : NAN;
    if (o->nsamples == 0 || n->nsamples == 0 || !o->samples_us || !n->samples_us ||
        !(o->median_us > 0) || !(n->median_us > 0)) {
        out->why = "not timed";
        return 0;
    }
    if (o->nsamples < MLAB_MWU_MIN_SAMPLES || n->nsamples < MLAB_MWU_MIN_SAMPLES) {
        out->why = "need >= 9 samples";
        return 0;
    }
    if (mlab_mann_whitney(o->samples_us, o->nsamples, n->samples_us, n->nsamples, &out->mw))
        return -1;
    out->tested = 1;
    if (out->mw.p >= opt->alpha) {
        out->verdict = MLAB_SAME;
        out->why = "not significant";
        return 0;
    }
    if (fabs(out->change) < opt->threshold) {
        out->verdict = MLAB_SAME;
        out->why = "below threshold";
        return 0;
    }
    /* slower means new samples tend to be larger: P(new > old) > 1/2 */
    int median_slower = out->change > 0;
    int ranks_slower = out->mw.ps_b_gt_a > 0.5;
    if (median_slower != ranks_slower) {
        out->why = "median and ranks disagree";
        return 0;
    }
    if (n->median_us >= o->q1_us && n->median_us <= o->q3_us &&
        o->median_us >= n->q1_us && o->median_us <= n->q3_us) {
        out->why = "shift inside both IQRs";
        return 0;
    }
    out->verdict = median_slower ? MLAB_SLOWER : MLAB_FASTER;
    out->why = "significant";
    return 0;
}

/* 1 when metric went from old to new by more than factor and above floor. */
static int grew(double old, double new, double factor, double floor)
{
    if (!isfinite(new))
        return isfinite(old);
    return new > factor * old && new > floor;
}

int mlab_accuracy_drift(const mlab_row *o, const mlab_row *n, const mlab_cmp_opts *opt,
                        char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = 0;
    if (o->valid == 1 && n->valid == 0) {
        snprintf(why, whylen, "validation passed before, fails now (%s)", n->kernel_tol);
        return 1;
    }
    if (o->kernel_err.nonfinite_disagree == 0 && n->kernel_err.nonfinite_disagree > 0) {
        snprintf(why, whylen, "NaN/Inf positions disagree with the reference at %zu places",
                 n->kernel_err.nonfinite_disagree);
        return 1;
    }
    if (o->kernel_err.n == 0 || n->kernel_err.n == 0) /* an unchecked side */
        return 0;
    const double half_ulp = 1.0 / 512;
    const mlab_tol *tol = mlab_tol_find(n->kernel_tol);
    double rms_budget = tol ? tol->max_rel_rms : half_ulp;
    if (grew(o->kernel_err.rel_rms, n->kernel_err.rel_rms, opt->drift_factor,
             opt->drift_floor * rms_budget)) {
        snprintf(why, whylen, "kernel rel_rms %.3g -> %.3g (%.2fx > %.2fx, above %.3g)",
                 o->kernel_err.rel_rms, n->kernel_err.rel_rms,
                 n->kernel_err.rel_rms / o->kernel_err.rel_rms, opt->drift_factor,
                 opt->drift_floor * rms_budget);
        return 1;
    }
    double abs_budget = n->kernel_err.atol > 0 ? n->kernel_err.atol
                        : o->kernel_err.atol > 0 ? o->kernel_err.atol : half_ulp;
    if (grew(o->kernel_err.max_abs, n->kernel_err.max_abs, opt->drift_factor,
             opt->drift_floor * abs_budget)) {
        snprintf(why, whylen, "kernel max_abs %.3g -> %.3g (%.2fx > %.2fx, above %.3g)",
                 o->kernel_err.max_abs, n->kernel_err.max_abs,
                 n->kernel_err.max_abs / o->kernel_err.max_abs, opt->drift_factor,
                 opt->drift_floor * abs_budget);
        return 1;
    }
    return 0;
}
