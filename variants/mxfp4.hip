/* mxfp4.hip: variant 'mxfp4' (id 2), the packed MXFP4 cache read directly.
 * Idea: stage 288 packed bytes a row by cp.async (3 stages), dequantize each
 * 64-row tile into a bf16 shared tile (E2M1 x 2^(e-127) is exact in bf16),
 * then the bf16 path. Never writes a bf16 copy of the cache to device memory:
 * 306 bytes a row instead of 1152. The H200 has no native MXFP4; MI355X's
 * scaled MFMA would skip the dequant entirely.
 * Parent: bf16.
 * Measured: see papers/perf-notes.md.
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_of<KV_MXFP4, false, false>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_decode<KV_MXFP4, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4 = {MLAB_V_MXFP4, 0, bps, launch};
#endif
