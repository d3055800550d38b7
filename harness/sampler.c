/* sampler.c: PLACEHOLDER from the `peers` branch, only so that harness/peer.c
 * links before the lead's sampler.c lands. On merge, take the lead's file
 * whole and drop this one.
 *
 * Minimal mlab_sample (sampler.h): o->warmup warm calls; cold samples until
 * (at least min_samples and min_time_s) stderr/mean < target_rse, or
 * max_time_s of sampling (samples plus one flush each), or max_samples;
 * then the graph figure when the back end has one. */
#include "sampler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "exitcodes.h"

int mlab_sample(const mlab_sampler *s, const mlab_timing_opts *o, mlab_row *row, char *why,
                size_t whylen)
{
    size_t cap = o->max_samples ? o->max_samples : 1, n = 0;
    double *smp = malloc(cap * sizeof *smp), spent = 0, sum = 0, ss = 0;
    const char *stop = "max_samples";
    int rc = 0;
    row->samples_us = NULL;
    row->nsamples = 0;
    row->graph_us = 0;
    if (!smp) {
        snprintf(why, whylen, "out of memory for %zu samples", cap);
        return MLAB_EXIT_INTERNAL;
    }
    for (int w = 0; w < o->warmup; w++)
        if ((rc = s->warm(s->ctx, why, whylen)))
            goto fail;
    while (n < cap) {
        double us = 0;
        if ((rc = s->cold(s->ctx, &us, why, whylen)))
            goto fail;
        smp[n++] = us;
        sum += us;
        ss += us * us;
        spent += us * 1e-6 + s->flush_s;
        if (n >= o->min_samples && n >= 2 && spent >= o->min_time_s) {
            double mean = sum / n, var = (ss - n * mean * mean) / (n - 1);
            if (mean > 0 && sqrt(var > 0 ? var : 0) / sqrt((double)n) / mean < o->target_rse) {
                stop = "rse";
                break;
            }
        }
        if (spent >= o->max_time_s) {
            stop = "time_limit";
            break;
        }
    }
    row->samples_us = smp;
    row->nsamples = n;
    snprintf(row->stop_reason, sizeof row->stop_reason, "%s", stop);
    if (o->graph_iters > 0 && s->graph)
        return s->graph(s->ctx, o->graph_iters, &row->graph_us, why, whylen);
    return 0;
fail:
    free(smp);
    return rc;
}
