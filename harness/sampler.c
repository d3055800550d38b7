/* sampler.c: the timing loop every row shares (sampler.h).
 *
 *   warm-up: o->warmup untimed calls
 *   samples: one cold sample at a time until, after at least min_samples
 *            samples and min_time_s of sampling, the standard error of the
 *            samples is below target_rse of their median ("rse"), or
 *            max_time_s of sampling has passed ("time_limit"), or
 *            max_samples were taken ("max_samples"). The time counted is the
 *            samples' own plus one flush each (flush_s), since the flush
 *            costs the device as much as the call.
 *   graph:   o->graph_iters warm replays, when the back end has graphs
 * Every sample is kept; nothing is dropped as an outlier (the report shows
 * median and IQR, which outliers do not move).
 */
#include "sampler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h" /* MLAB_EXIT_INTERNAL */
#include "stats.h"     /* mlab_sort_doubles, mlab_quantile_sorted */

/* stderr / median of the n samples (sorted is scratch of n doubles) */
static double rel_stderr(const double *smp, double *sorted, size_t n)
{
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        sum += smp[i];
    const double mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (smp[i] - mean) * (smp[i] - mean);
    memcpy(sorted, smp, n * sizeof *sorted);
    mlab_sort_doubles(sorted, n);
    const double med = mlab_quantile_sorted(sorted, n, 0.5);
    const double se = sqrt(ss / (double)(n - 1)) / sqrt((double)n);
    return med > 0 ? se / med : INFINITY;
}

int mlab_sample(const mlab_sampler *s, const mlab_timing_opts *o, mlab_row *row, char *why,
                size_t whylen)
{
    const size_t cap = o->max_samples > 0 ? o->max_samples : 1;
    double *smp = malloc(sizeof(double) * cap), *sorted = malloc(sizeof(double) * cap);
    int rc = 0;
    row->samples_us = NULL;
    row->nsamples = 0;
    row->graph_us = 0;
    row->slow_us = row->slow_span_us = 0;
    unsigned long long s0 = 0, s1 = 0;
    const int slow = s->slow_ns && s->slow_ns(s->gctx, &s0) == 0;
    const double t0 = slow ? mlab_now_s() : 0;
    if (!smp || !sorted) {
        snprintf(why, whylen, "out of memory for %zu samples", cap);
        rc = MLAB_EXIT_INTERNAL;
        goto fail;
    }
    for (int w = 0; w < o->warmup; w++)
        if ((rc = s->warm(s->ctx, why, whylen)))
            goto fail;
    size_t n = 0;
    double spent = 0;
    const char *stop = "max_samples";
    while (n < cap) {
        double us = 0;
        if ((rc = s->cold(s->ctx, &us, why, whylen)))
            goto fail;
        smp[n++] = us;
        spent += us * 1e-6 + s->flush_s;
        if (n >= o->min_samples && n >= 2 && spent >= o->min_time_s &&
            rel_stderr(smp, sorted, n) < o->target_rse) {
            stop = "rse";
            break;
        }
        if (spent >= o->max_time_s) {
            stop = "time_limit";
            break;
        }
    }
    free(sorted);
    row->samples_us = smp;
    row->nsamples = n;
    snprintf(row->stop_reason, sizeof row->stop_reason, "%s", stop);
    if (o->graph_iters > 0 && s->graph) {
        double g = 0;
        if ((rc = s->graph(s->ctx, o->graph_iters, &g, why, whylen)))
            return rc; /* the samples stay in the row; the caller frees them */
        row->graph_us = g;
    }
    if (slow && s->slow_ns(s->gctx, &s1) == 0 && s1 >= s0) {
        row->slow_span_us = 1e6 * (mlab_now_s() - t0);
        row->slow_us = 1e-3 * (double)(s1 - s0);
    }
    return 0;
fail:
    free(smp);
    free(sorted);
    row->samples_us = NULL;
    row->nsamples = 0;
    return rc;
}
