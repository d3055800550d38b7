/* test_sampler.c: the timing loop (harness/sampler.c) against a fake back end
 * that returns synthetic samples: warm-up count, each stop rule, the flush's
 * cost counted against the time limit, errors, graphs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/exitcodes.h"
#include "harness/sampler.h"
#include "mlab_check.h"

typedef struct {
    int warms, colds, graphs, fail_at; /* fail_at: cold call that fails (0 = never) */
    double base, jitter;               /* sample = base + jitter * pattern */
    int cold_before_warm_done;
    int warm_needed;
} fake;

static int fake_warm(void *ctx, char *why, size_t n)
{
    fake *f = ctx;
    f->warms++;
    return 0;
}

static int fake_cold(void *ctx, double *us, char *why, size_t n)
{
    fake *f = ctx;
    if (f->warms < f->warm_needed) f->cold_before_warm_done = 1;
    f->colds++;
    if (f->fail_at && f->colds == f->fail_at) {
        snprintf(why, n, "fake: launch failed");
        return MLAB_EXIT_INTERNAL;
    }
    static const double pat[5] = {0, 1, -1, 0.5, -0.5};
    *us = f->base + f->jitter * pat[f->colds % 5];
    return 0;
}

static int fake_graph(void *ctx, int iters, double *us, char *why, size_t n)
{
    fake *f = ctx;
    f->graphs += iters;
    *us = 0.9 * f->base;
    return 0;
}

/* a GPU's power/thermal-limited counter: each reading adds step ns; a
 * reading fails (nonzero) when fail is set, or from the fail_from-th on */
typedef struct {
    unsigned long long ns, step;
    int reads, fail, fail_from, colds_at_first, colds_at_last;
    fake *f;
} slow_fake;

static int fake_slow_ns(void *ctx, unsigned long long *ns)
{
    slow_fake *s = ctx;
    s->reads++;
    if (s->fail || (s->fail_from && s->reads >= s->fail_from))
        return 1;
    if (s->reads == 1)
        s->colds_at_first = s->f->colds + s->f->warms;
    s->colds_at_last = s->f->colds + s->f->graphs;
    s->ns += s->step;
    *ns = s->ns;
    return 0;
}

static int run(fake *f, const mlab_timing_opts *o, double flush_s, int with_graph, mlab_row *row)
{
    mlab_sampler s = {f, fake_warm, fake_cold, with_graph ? fake_graph : NULL, flush_s};
    char why[256] = "";
    memset(row, 0, sizeof *row);
    f->warm_needed = o->warmup;
    return mlab_sample(&s, o, row, why, sizeof why);
}

int main(void)
{
    mlab_timing_opts o;
    mlab_row row;

    /* steady samples stop by the rse rule as soon as min samples and min time are met */
    mlab_timing_opts_default(&o);
    fake f = {0};
    f.base = 100;
    f.jitter = 0.01;
    check(run(&f, &o, 0.005, 1, &row) == 0, "a steady series samples without error");
    check(f.warms == 3 && !f.cold_before_warm_done, "three warm-up calls come before the first sample");
    check(strcmp(row.stop_reason, "rse") == 0, "a steady series stops by the rse rule");
    check(row.nsamples == 10, "the rse rule waits for min_samples (10) and min_time (0.05 s of flushes)");
    check(row.samples_us && row.samples_us[0] == 100 + 0.01 * 1, "every raw sample is kept in order");
    check(f.graphs == 20 && fabs(row.graph_us - 90) < 1e-12, "the graph figure averages graph_iters replays");
    free(row.samples_us);

    /* min_time: with no flush cost and 100 us samples, 0.05 s needs 500 samples */
    memset(&f, 0, sizeof f);
    f.base = 100;
    check(run(&f, &o, 0.0, 0, &row) == 0 && row.nsamples == 500 && strcmp(row.stop_reason, "rse") == 0,
          "sampling lasts at least min_time_s of the samples' own time");
    check(row.graph_us == 0, "no graph figure without a graph callback");
    free(row.samples_us);

    /* the rse rule's size: it stops at the first n where the standard error
     * (sample stdev / sqrt(n)), not the stdev, is under target_rse of the
     * median; counted here from the fake's own series (stdev ~2.9% of the
     * median: the stdev alone never gets under 0.5%, so a rule on it runs to
     * max_samples) */
    mlab_timing_opts_default(&o);
    o.min_time_s = 0;
    o.max_time_s = 1e9;
    o.max_samples = 1000;
    memset(&f, 0, sizeof f);
    f.base = 100;
    f.jitter = 4;
    {
        static const double pat[5] = {0, 1, -1, 0.5, -0.5};
        double v[1000];
        size_t want = 0;
        for (size_t n = 1; n <= 1000 && !want; n++) {
            v[n - 1] = 100 + 4 * pat[n % 5];
            if (n < o.min_samples || n < 2) continue;
            double m = 0, ss = 0, med;
            for (size_t i = 0; i < n; i++) m += v[i] / (double)n;
            for (size_t i = 0; i < n; i++) ss += (v[i] - m) * (v[i] - m);
            double srt[1000];
            memcpy(srt, v, n * sizeof *v);
            for (size_t i = 1; i < n; i++) /* insertion sort: n <= 1000 */
                for (size_t j = i; j > 0 && srt[j - 1] > srt[j]; j--) {
                    double t = srt[j];
                    srt[j] = srt[j - 1];
                    srt[j - 1] = t;
                }
            med = n % 2 ? srt[n / 2] : 0.5 * (srt[n / 2 - 1] + srt[n / 2]);
            if (sqrt(ss / (double)(n - 1)) / sqrt((double)n) / med < o.target_rse) want = n;
        }
        check(run(&f, &o, 0, 0, &row) == 0 && strcmp(row.stop_reason, "rse") == 0,
              "a 3%-noisy series stops by the rse rule");
        CHECK(want > 20 && want < 200 && row.nsamples == want,
              "the rse rule is the standard error's: %zu samples, the series' own count %zu", row.nsamples, want);
        free(row.samples_us);
    }

    /* noisy series: the time limit, with the flush's cost counted */
    memset(&f, 0, sizeof f);
    f.base = 100;
    f.jitter = 90;
    o.max_time_s = 0.1;
    o.target_rse = 1e-9;
    check(run(&f, &o, 0.01 - 100e-6, 0, &row) == 0, "a noisy series samples without error");
    check(strcmp(row.stop_reason, "time_limit") == 0, "a noisy series stops at the time limit");
    CHECK(row.nsamples >= 9 && row.nsamples <= 11, "flush cost counts against the limit: %zu samples",
          row.nsamples);
    free(row.samples_us);

    /* max_samples */
    mlab_timing_opts_default(&o);
    o.max_samples = 25;
    o.target_rse = 1e-12;
    memset(&f, 0, sizeof f);
    f.base = 10;
    f.jitter = 5;
    check(run(&f, &o, 0, 0, &row) == 0 && row.nsamples == 25 && strcmp(row.stop_reason, "max_samples") == 0,
          "sampling stops at max_samples");
    free(row.samples_us);

    /* an error in a sample is returned, and no samples are left behind */
    mlab_timing_opts_default(&o);
    memset(&f, 0, sizeof f);
    f.base = 10;
    f.fail_at = 4;
    check(run(&f, &o, 0, 0, &row) == MLAB_EXIT_INTERNAL && row.samples_us == NULL && row.nsamples == 0,
          "a failing sample returns its code and keeps no samples");

    /* the power/thermal-limited time around the sampling: read before the
     * warm-up and after the graph figure, their difference in us */
    mlab_timing_opts_default(&o);
    memset(&f, 0, sizeof f);
    f.base = 100;
    slow_fake sf = {0};
    sf.step = 3000000; /* 3 ms a reading: 3000 us between the two */
    sf.f = &f;
    {
        mlab_sampler s = {&f, fake_warm, fake_cold, fake_graph, 0, fake_slow_ns, &sf};
        char why[256] = "";
        memset(&row, 0, sizeof row);
        f.warm_needed = o.warmup;
        check(mlab_sample(&s, &o, &row, why, sizeof why) == 0 && sf.reads == 2 && sf.colds_at_first == 0 &&
                  sf.colds_at_last == f.colds + f.graphs && fabs(row.slow_us - 3000) < 1e-9 &&
                  row.slow_span_us > 0,
              "slow_ns read twice, before the warm-up and after the graph: slow_us 3000 of a span > 0");
        free(row.samples_us);
        sf = (slow_fake){0};
        sf.f = &f;
        sf.step = 1;
        sf.fail_from = 2; /* the second reading fails: nothing recorded */
        memset(&row, 0, sizeof row);
        row.slow_us = row.slow_span_us = 7; /* left from before: cleared */
        check(mlab_sample(&s, &o, &row, why, sizeof why) == 0 && row.slow_us == 0 && row.slow_span_us == 0,
              "a failed second reading leaves slow_us and slow_span_us 0");
        free(row.samples_us);
        mlab_sampler none = {&f, fake_warm, fake_cold, NULL, 0};
        row.slow_us = row.slow_span_us = 7;
        check(mlab_sample(&none, &o, &row, why, sizeof why) == 0 && row.slow_us == 0 && row.slow_span_us == 0,
              "without slow_ns the row's slow_us and slow_span_us are 0");
        free(row.samples_us);
    }

    /* warm-up 0 means the first call is a sample */
    o.warmup = 0;
    memset(&f, 0, sizeof f);
    f.base = 10;
    check(run(&f, &o, 0.01, 0, &row) == 0 && f.warms == 0, "warmup 0 makes no untimed call");
    free(row.samples_us);

    printf("%d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
