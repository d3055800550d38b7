/* timing.c: the sampling defaults every GPU back end uses (gpu.h). */
#include "gpu.h"

void mlab_timing_opts_default(mlab_timing_opts *o)
{
    o->min_time_s = 0.05;  /* at least this long sampling */
    o->max_time_s = 2.0;   /* and at most this long */
    o->min_samples = 10;
    o->max_samples = 1000;
    o->target_rse = 0.005; /* stop once stderr / median < 0.5% */
    o->graph_iters = 20;   /* warm graph replays averaged */
}
