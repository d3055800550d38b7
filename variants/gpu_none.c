/* gpu_none.c: the GPU side of a build without a GPU back end (-DMLAB_GPU=none):
 * mlab_gpu_open answers MLAB_GPU_NODEV (77) and nothing else can be reached. */
#include <stdio.h>
#include <string.h>

#include "gpu_api.h"

int mlab_gpu_open(mlab_gpu **g, int device, mlab_gpu_info *info, char *why, size_t whylen)
{
    *g = NULL;
    memset(info, 0, sizeof *info);
    snprintf(info->backend, sizeof info->backend, "none");
    snprintf(why, whylen, "mlabench was built without a GPU back end (-DMLAB_GPU=none)");
    return MLAB_GPU_NODEV;
}

void mlab_gpu_close(mlab_gpu *g) { (void)g; }

static int none(char *why, size_t whylen)
{
    snprintf(why, whylen, "no GPU back end in this build");
    return MLAB_GPU_NODEV;
}

int mlab_gpu_copy_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen)
{
    *gbs = 0;
    return none(why, whylen);
}

int mlab_gpu_read_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen)
{
    *gbs = 0;
    return none(why, whylen);
}

int mlab_gpu_load_case(mlab_gpu *g, const mlab_case *c, int poison, char *why, size_t whylen)
{
    return none(why, whylen);
}

int mlab_gpu_run(mlab_gpu *g, int variant_id, int splits, uint16_t *out, mlab_launch_info *li,
                 char *why, size_t whylen)
{
    return none(why, whylen);
}

int mlab_gpu_select(mlab_gpu *g, int variant_id, int splits, mlab_launch_info *li, char *why,
                    size_t whylen)
{
    return none(why, whylen);
}

int mlab_gpu_select_read(mlab_gpu *g, double bytes, char *why, size_t whylen)
{
    return none(why, whylen);
}

int mlab_gpu_select_empty(mlab_gpu *g, char *why, size_t whylen) { return none(why, whylen); }
int mlab_gpu_select_empty_pair(mlab_gpu *g, char *why, size_t whylen) { return none(why, whylen); }
int mlab_gpu_warm(mlab_gpu *g, char *why, size_t whylen) { return none(why, whylen); }

int mlab_gpu_cold(mlab_gpu *g, double *us, char *why, size_t whylen)
{
    *us = 0;
    return none(why, whylen);
}

int mlab_gpu_graph(mlab_gpu *g, int iters, double *us, char *why, size_t whylen)
{
    *us = 0;
    return none(why, whylen);
}

double mlab_gpu_flush_s(const mlab_gpu *g) { return 0; }

void mlab_gpu_clocks(mlab_gpu *g, int *sm_mhz, int *temp_c, int *throttled)
{
    *sm_mhz = *temp_c = *throttled = -1;
}

int mlab_gpu_slow_ns(mlab_gpu *g, unsigned long long *ns)
{
    *ns = 0;
    return -1;
}

const char *mlab_gpu_build_knobs(void) { return "backend=none"; }

int mlab_gpu_idle_busy(mlab_gpu *g, double window_s, int *pct)
{
    (void)g;
    (void)window_s;
    *pct = -1;
    return -1;
}
