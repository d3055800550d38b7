/* gpu.h: the harness's C view of the GPU side (variants/runner.hip builds it
 * for CUDA or HIP; harness/gpu_none.c when mlabench is built without a GPU).
 * Every function returns 0 or an MLAB_EXIT_* code with a one-line reason. */
#ifndef MLAB_GPU_H
#define MLAB_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "../reference/case.h" /* mlab_case */
#include "results.h"           /* mlab_env */
#include "sampler.h"           /* mlab_timing_opts */

typedef struct mlab_gpu mlab_gpu;

/* mlab_timing_opts, mlab_now_s: sampler.h */

/* Open device 0 and fill the device fields of env (name, arch, uuid, CUs,
 * clocks, driver and runtime). MLAB_EXIT_NOGPU when there is none. */
int mlab_gpu_open(mlab_gpu **g, int device, mlab_env *env, char *why, size_t whylen);
void mlab_gpu_close(mlab_gpu *g);

/* Device-to-device copy bandwidth in GB/s (bytes read + written). */
int mlab_gpu_copy_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen);

/* Upload a case. With poison, the KV buffers are allocated with slack rows
 * filled with NaN (bf16/fp8 NaN codes, E8M0 255) after the last row, and
 * the kernels are run on a copy in which each item's rows are followed by
 * poison (gaps between items), so any read past a sequence end shows. */
int mlab_gpu_load_case(mlab_gpu *g, const mlab_case *c, int poison, char *why, size_t whylen);

/* Run variant id once into a NaN-poisoned output and copy it back as bf16
 * bits [total_q, 16, 512]. splits <= 0: the documented rule. *splits_used
 * gets the split count. */
int mlab_gpu_run(mlab_gpu *g, int variant_id, int splits, uint16_t *out,
                 int *splits_used, char *why, size_t whylen);

/* Time variant id: cold samples (a flush larger than L2 between them, outside
 * the timed region) into row->samples_us (allocated), stop_reason and
 * graph_us. The caller fills the rest of the row. */
int mlab_gpu_time(mlab_gpu *g, int variant_id, int splits, const mlab_timing_opts *o,
                  mlab_row *row, char *why, size_t whylen);

#endif
