/* timing.c: the sampling defaults every GPU back end uses, and the host
 * clock (gpu.h). */
#include <time.h>

#include "sampler.h"

double mlab_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void mlab_timing_opts_default(mlab_timing_opts *o)
{
    o->min_time_s = 0.05;  /* at least this long sampling */
    o->max_time_s = 2.0;   /* and at most this long */
    o->min_samples = 10;
    o->max_samples = 1000;
    o->target_rse = 0.005; /* stop once stderr / median < 0.5% */
    o->warmup = 3;         /* untimed calls first */
    o->graph_iters = 20;   /* warm graph replays averaged */
}
