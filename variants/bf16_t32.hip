/* bf16_t32.hip: variant 'bf16_t32' (id 9), bf16 in 32-row tiles.
 * Idea: a call of a few tiles a row (4 x 1024: 4 rows of 16 tiles) is fixed
 * cost: a 64-row tile's chain (arrival, Q.K, softmax, P.V, stores) is ~4 us
 * on the H200 and the split rule cannot use more blocks than tiles (64 for
 * 4 x 1024, half the SMs). Tiles of 32 rows give twice the blocks, each
 * with half the bytes to wait for and half the products; Q.K runs on 4 of
 * the 8 warps (2 column groups x 2 dim halves), P.V on all 8 over 32 rows.
 * The same kernel as bf16 (mla_decode<KV_BF16 | MLA_KV_SMALL>): on AMD that
 * is the 64 KB configuration MI300X runs. The split rule counts 32-row tiles.
 * Parent: bf16. Tolerance: kernel:bf16 (the same arithmetic).
 * Measured: papers/perf-notes.md v8.
 */
#include "launch_common.h"
#include "variants.h"

#define T32 (KV_BF16 | MLA_KV_SMALL)
static int bps(void) { return blocks_per_sm_of<T32, false, false>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_decode<T32, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_bf16_t32 = {MLAB_V_bf16_t32, 0, bps, mla_cfg<T32>::SMEM, launch, 0, 0, NULL,
                                                     NULL, 32};
#endif
