/* fp8_xcd.hip: variant 'fp8_xcd' (id 5).
 * Idea: fp8_exp2rcp with block ids remapped so that consecutive work items
 * (the splits of one query row) land on one XCD: MI355X deals work-groups
 * round-robin over its 8 XCDs, each with its own L2. On the H200 (one L2) it
 * is a control: it should cost nothing and gain nothing.
 * Parent: fp8_exp2rcp.
 * Measured (H200, v6 2041b49, recorded inputs): within 1.5% of fp8_exp2rcp
 * on every case (256x8192 419 vs 423 us; geomean 51.6 vs 51.3 us). As
 * expected on a GPU without XCDs; the effect on MI355X is not measurable here.
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_of<KV_FP8, true, true>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_decode<KV_FP8, true, true>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8_xcd = {MLAB_V_fp8_xcd, 1, bps, mla_cfg<KV_FP8>::SMEM, launch};
#endif
