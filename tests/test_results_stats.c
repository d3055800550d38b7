/* test_results_stats.c: the statistics behind results files and compare
 * (harness/stats.c, mlab_row_summarize in harness/results.c).
 *
 * Pins: quartiles interpolate like numpy; the sample stdev divides by n - 1;
 * Mann-Whitney U matches scipy's documented asymptotic example and a tied
 * example checked against a pairwise count; the verdict rules (same, slower,
 * faster, unclear for few samples, for a median that moves against the
 * ranks, for a shift inside both IQRs; "same" for a significant change
 * below the threshold); accuracy drift flags pass->fail, a 2x rel_rms growth
 * above the floor, and not noise-level growth.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/results.h" /* mlab_row, mlab_row_summarize */
#include "harness/stats.h"

#include "mlab_check.h" // CHECK, failed

static int close_to(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b) + 1e-300;
}

static void summarize_like_numpy(void)
{
    double s4[] = {4, 1, 3, 2};
    mlab_row r;
    memset(&r, 0, sizeof r);
    r.samples_us = s4;
    r.nsamples = 4;
    mlab_row_summarize(&r);
    /* numpy.quantile([1,2,3,4], [.25,.5,.75]) = 1.75, 2.5, 3.25 */
    CHECK(close_to(r.q1_us, 1.75, 1e-15) && close_to(r.median_us, 2.5, 1e-15) &&
              close_to(r.q3_us, 3.25, 1e-15),
          "quartiles of 1..4: %g %g %g, want 1.75 2.5 3.25", r.q1_us, r.median_us, r.q3_us);
    CHECK(r.min_us == 1 && close_to(r.mean_us, 2.5, 1e-15), "min %g mean %g", r.min_us, r.mean_us);
    CHECK(close_to(r.stdev_us, sqrt(5.0 / 3.0), 1e-14), "sample stdev %g, want sqrt(5/3)",
          r.stdev_us);
    CHECK(s4[0] == 4 && s4[1] == 1, "summarize must not reorder the raw samples");

    double s1[] = {7};
    r.samples_us = s1;
    r.nsamples = 1;
    mlab_row_summarize(&r);
    CHECK(r.median_us == 7 && r.q1_us == 7 && r.q3_us == 7 && r.stdev_us == 0,
          "one sample: median %g stdev %g", r.median_us, r.stdev_us);
    r.samples_us = NULL;
    r.nsamples = 0;
    mlab_row_summarize(&r);
    CHECK(r.median_us == 0 && r.mean_us == 0, "no samples: all zero");
}

static void mann_whitney_like_scipy(void)
{
    /* scipy.stats.mannwhitneyu docs: males vs females, method="asymptotic":
     * statistic 17.0, pvalue 0.11134688653314041 */
    double males[] = {19, 22, 16, 29, 24}, females[] = {20, 11, 17, 12};
    mlab_mwu m;
    CHECK(mlab_mann_whitney(males, 5, females, 4, &m) == 0, "mwu failed");
    CHECK(m.u_a == 17 && m.u_b == 3, "U = %g/%g, want 17/3", m.u_a, m.u_b);
    CHECK(close_to(m.p, 0.11134688653314041, 1e-12), "p = %.17g", m.p);

    /* ties: expected values from a pairwise count of U and the tie formula */
    double a[] = {1, 2, 2, 3, 3, 3, 4, 5, 6, 7}, b[] = {2, 3, 3, 4, 4, 5, 6, 6, 7, 8, 9};
    CHECK(mlab_mann_whitney(a, 10, b, 11, &m) == 0, "mwu failed");
    CHECK(m.u_a == 32 && m.u_b == 78, "tied U = %g/%g, want 32/78", m.u_a, m.u_b);
    CHECK(close_to(m.z, 1.6021874760585826, 1e-12), "tied z = %.17g", m.z);
    CHECK(close_to(m.p, 0.10911415867376531, 1e-12), "tied p = %.17g", m.p);

    double same[] = {5, 5, 5};
    CHECK(mlab_mann_whitney(same, 3, same, 3, &m) == 0 && m.p == 1, "all equal: p %g", m.p);
    CHECK(mlab_mann_whitney(same, 0, same, 3, &m) == -1, "empty side must be refused");
}

static void geomean(void)
{
    double x[] = {1, 4}, y[] = {2, 0};
    CHECK(close_to(mlab_geomean(x, 2), 2, 1e-15), "geomean(1,4) = %g", mlab_geomean(x, 2));
    CHECK(isnan(mlab_geomean(y, 2)), "geomean with a 0 must be NaN");
}

/* A row whose samples are given; summary filled like the harness does. */
static void mkrow(mlab_row *r, double *s, size_t n)
{
    memset(r, 0, sizeof *r);
    r->samples_us = s;
    r->nsamples = n;
    mlab_row_summarize(r);
}

static void verdicts(void)
{
    enum { N = 30, M = 200 };
    double o[N], same[N], slow[N], fast[N], tiny[N];
    for (int i = 0; i < N; i++) {
        double spread = 2.0 * ((i * 7) % N) / N - 1; /* -1..1, shuffled */
        o[i] = 100 + 2 * spread;
        same[i] = 100 + 2 * (2.0 * ((i * 11 + 3) % N) / N - 1);
        slow[i] = 1.10 * o[i];
        fast[i] = 0.90 * o[i];
        tiny[i] = 1.01 * o[i];
    }
    mlab_cmp_opts opt;
    mlab_cmp_opts_default(&opt);
    mlab_row ro, rn;
    mlab_timing_cmp c;
    mkrow(&ro, o, N);

    mkrow(&rn, same, N);
    mlab_compare_timing(&ro, &rn, &opt, &c);
    CHECK(c.tested && c.verdict == MLAB_SAME, "one distribution: %s (%s) p %g",
          mlab_verdict_name(c.verdict), c.why, c.mw.p);
    mkrow(&rn, slow, N);
    mlab_compare_timing(&ro, &rn, &opt, &c);
    CHECK(c.verdict == MLAB_SLOWER && c.mw.p < 1e-6, "10%% slower: %s p %g",
          mlab_verdict_name(c.verdict), c.mw.p);
    mkrow(&rn, fast, N);
    mlab_compare_timing(&ro, &rn, &opt, &c);
    CHECK(c.verdict == MLAB_FASTER, "10%% faster: %s", mlab_verdict_name(c.verdict));
    mkrow(&rn, tiny, N);
    mlab_compare_timing(&ro, &rn, &opt, &c);
    CHECK(c.verdict == MLAB_SAME && strcmp(c.why, "below threshold") == 0,
          "1%% slower is below the 2%% threshold: %s (%s) p %g", mlab_verdict_name(c.verdict),
          c.why, c.mw.p);
    mkrow(&rn, slow, 8);
    mlab_compare_timing(&ro, &rn, &opt, &c);
    CHECK(!c.tested && c.verdict == MLAB_UNCLEAR, "8 samples must not be tested: %s",
          mlab_verdict_name(c.verdict));

    /* the median moves up 2.2% but most new samples are far below: U says
     * faster (p ~ 0.009), the median says slower -> unclear */
    double wide[N], mixed[N];
    for (int i = 0; i < N; i++) {
        wide[i] = 100 + i;           /* median 114.5 */
        mixed[i] = i < 14 ? 50 : 117; /* median 117 */
    }
    mkrow(&ro, wide, N);
    mkrow(&rn, mixed, N);
    mlab_compare_timing(&ro, &rn, &opt, &c);
    CHECK(c.tested && c.mw.p < 0.05 && c.change > 0.02 && c.verdict == MLAB_UNCLEAR,
          "median vs ranks: %s (%s) p %g change %g", mlab_verdict_name(c.verdict), c.why, c.mw.p,
          c.change);

    /* uniform 80..120 against the same shifted by +4: significant, +4%, but
     * each median sits inside the other's IQR -> unclear */
    double u[M], us[M];
    for (int i = 0; i < M; i++) {
        u[i] = 80 + 40 * (i + 0.5) / M;
        us[i] = u[i] + 4;
    }
    mkrow(&ro, u, M);
    mkrow(&rn, us, M);
    mlab_compare_timing(&ro, &rn, &opt, &c);
    CHECK(c.tested && c.mw.p < 0.05 && c.verdict == MLAB_UNCLEAR &&
              strcmp(c.why, "shift inside both IQRs") == 0,
          "shift inside IQRs: %s (%s) p %g", mlab_verdict_name(c.verdict), c.why, c.mw.p);
}

static void drift(void)
{
    mlab_cmp_opts opt;
    mlab_cmp_opts_default(&opt);
    mlab_row o, n;
    char why[256];
    memset(&o, 0, sizeof o);
    o.valid = 1;
    o.kernel_err.n = 1000;
    o.kernel_err.rel_rms = 1e-3;
    o.kernel_err.max_abs = 1e-4;
    o.kernel_err.atol = 1e-3;
    snprintf(o.kernel_tol, sizeof o.kernel_tol, "kernel:bf16");
    n = o;
    CHECK(!mlab_accuracy_drift(&o, &n, &opt, why, sizeof why), "no change flagged: %s", why);
    n.kernel_err.rel_rms = 1.4e-3;
    CHECK(!mlab_accuracy_drift(&o, &n, &opt, why, sizeof why), "1.4x flagged: %s", why);
    n.kernel_err.rel_rms = 2e-3;
    CHECK(mlab_accuracy_drift(&o, &n, &opt, why, sizeof why) && strstr(why, "rel_rms"),
          "2x rel_rms not flagged");
    n = o;
    n.valid = 0;
    CHECK(mlab_accuracy_drift(&o, &n, &opt, why, sizeof why) && strstr(why, "fails"),
          "pass -> fail not flagged");
    n = o;
    n.kernel_err.max_abs = 5e-4; /* 5x, above 0.1 atol */
    CHECK(mlab_accuracy_drift(&o, &n, &opt, why, sizeof why) && strstr(why, "max_abs"),
          "5x max_abs not flagged");
    o.kernel_err.rel_rms = 1e-7; /* noise level: 3x of nothing is nothing */
    o.kernel_err.max_abs = 1e-8;
    n = o;
    n.kernel_err.rel_rms = 3e-7;
    n.kernel_err.max_abs = 3e-8;
    CHECK(!mlab_accuracy_drift(&o, &n, &opt, why, sizeof why), "noise-level growth flagged: %s",
          why);
}

int main(void)
{
    summarize_like_numpy();
    mann_whitney_like_scipy();
    geomean();
    verdicts();
    drift();
    if (failed) {
        fprintf(stderr, "%d failure(s)\n", failed);
        return 1;
    }
    printf("test_results_stats: ok\n");
    return 0;
}
