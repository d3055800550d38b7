/* gpu_none.c: the GPU side of a build without a GPU back end (-DMLAB_GPU=none):
 * every call says so, and mlab_gpu_open answers MLAB_EXIT_NOGPU (77). */
#include <stdio.h>

#include "exitcodes.h"
#include "gpu.h"

int mlab_gpu_open(mlab_gpu **g, int device, mlab_env *env, char *why, size_t whylen)
{
    *g = NULL;
    snprintf(env->gpu_backend, sizeof env->gpu_backend, "none");
    snprintf(why, whylen, "mlabench was built without a GPU back end (-DMLAB_GPU=none)");
    return MLAB_EXIT_NOGPU;
}

void mlab_gpu_close(mlab_gpu *g) { (void)g; }

static int none(char *why, size_t whylen)
{
    snprintf(why, whylen, "no GPU back end in this build");
    return MLAB_EXIT_NOGPU;
}

int mlab_gpu_copy_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen)
{
    *gbs = 0;
    return none(why, whylen);
}

int mlab_gpu_load_case(mlab_gpu *g, const mlab_case *c, int poison, char *why, size_t whylen)
{
    return none(why, whylen);
}

int mlab_gpu_run(mlab_gpu *g, int variant_id, int splits, uint16_t *out, int *splits_used,
                 char *why, size_t whylen)
{
    return none(why, whylen);
}

int mlab_gpu_time(mlab_gpu *g, int variant_id, int splits, const mlab_timing_opts *o,
                  mlab_row *row, char *why, size_t whylen)
{
    return none(why, whylen);
}
