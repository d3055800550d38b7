/* launchers.h: what each variant file exports to the runner. */
#ifndef MLAB_LAUNCHERS_H
#define MLAB_LAUNCHERS_H

#include "mla_params.h"
#include "mlab_hip.h"

typedef struct {
    int id;                                  /* mlab_variant_id (variants.h) */
    int q_fp8;                               /* needs the Q amax pass */
    int (*blocks_per_sm)(void);              /* occupancy of its main kernel */
    int smem_bytes;                          /* dynamic shared memory of its main kernel */
    hipError_t (*launch)(const mla_params *p, hipStream_t s, uint16_t *scratch_bf16);
} mlab_variant_impl;

extern const mlab_variant_impl mlab_impl_bf16, mlab_impl_fp8, mlab_impl_mxfp4,
    mlab_impl_mxfp4_unfused, mlab_impl_fp8_exp2rcp, mlab_impl_fp8_xcd;

/* Shared launch plumbing (variants/launch_common.h). */
#endif
