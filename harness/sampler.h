/* sampler.h: the timing method, in plain C, for every kind of row: mlabench's
 * own GPU variants (variants/ back end), peers (an external implementation
 * driven through a child process, harness/peer.c) and the read-limit probe.
 *
 * A back end knows how to do one thing at a time: warm up, take ONE cold
 * sample (flush the caches outside the timed region, then time one call with
 * device events), and optionally time warm graph replays. The loop around it
 * (warm-up count, stop rule, time limit, the flush's cost counted against
 * that limit) lives here once, so all rows of a results file are timed the
 * same way and the loop is unit-tested on the CPU against a fake back end.
 */
#ifndef MLAB_SAMPLER_H
#define MLAB_SAMPLER_H

#include <stddef.h>

#include "results.h" /* mlab_row */

typedef struct {
    double min_time_s;  /* keep sampling at least this long (default 0.05) */
    double max_time_s;  /* stop after this much sampling time (default 2) */
    size_t min_samples; /* default 10 */
    size_t max_samples; /* default 1000 */
    double target_rse;  /* stop when stderr/median < this (default 0.005) */
    int warmup;         /* untimed calls before the first sample (default 3) */
    int graph_iters;    /* warm graph replays to average (default 20; 0 = none) */
} mlab_timing_opts;

void mlab_timing_opts_default(mlab_timing_opts *o);
/* Seconds on the monotonic clock (host-side durations: generation, references). */
double mlab_now_s(void);

/* One timing back end. Every function returns 0 or an MLAB_EXIT_* code with a
 * one-line reason in why. */
typedef struct {
    void *ctx;
    /* one untimed call */
    int (*warm)(void *ctx, char *why, size_t whylen);
    /* flush every cache (outside the timed region), then one call timed with
     * device events, in microseconds */
    int (*cold)(void *ctx, double *us, char *why, size_t whylen);
    /* warm graph replays: mean microseconds a call over iters; NULL if the
     * back end has no graphs */
    int (*graph)(void *ctx, int iters, double *us, char *why, size_t whylen);
    /* seconds one flush costs on this device (counted against max_time_s,
     * like the samples themselves) */
    double flush_s;
    /* optional (NULL: not read): the GPU's time so far held below its clocks
     * by its power or thermal limit, in ns (NVML's violation counters:
     * variants/gpu_api.h mlab_gpu_slow_ns), with its argument gctx; read
     * before the warm-up and after the graph figure, the difference is the
     * row's slow_us of slow_span_us (the host's time between) */
    int (*slow_ns)(void *gctx, unsigned long long *ns);
    void *gctx;
} mlab_sampler;

/* Warm up, sample until the stop rule says stop, then the graph figure.
 * Fills row->samples_us (allocated, caller frees), row->nsamples,
 * row->stop_reason ("rse", "time_limit", "max_samples"), row->graph_us and,
 * where the back end reads them, row->slow_us and row->slow_span_us (0 where
 * it does not, or a reading failed). */
int mlab_sample(const mlab_sampler *s, const mlab_timing_opts *o, mlab_row *row, char *why,
                size_t whylen);

#endif
