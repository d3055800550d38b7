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
 * Measured (H200, 0bfbdf2, recorded inputs, papers/reports/h200-2026-12-01e):
 * the prediction was wrong where it was aimed and right elsewhere. Long
 * calls are faster: 256x8192 596.5 us against bf16's 647.6 (0.92x, 1.10x
 * its read limit), 256x1024 0.92x, 64x8192 0.95x, 32x8192 0.97x: 99.6 KB a
 * block, so two blocks an SM, two independent tile chains where bf16 has
 * one. Short calls are slower: 4x1024 15.6 against 13.5 us, 4x8192 32.3
 * against 28.0, and at no forced split count (4..32) does it beat bf16
 * there (4x1024 best 13.9 at 16 splits): more blocks also mean more Q
 * loads and more partials to merge. Geomean 68.4 against 67.8 us. 116
 * registers, kernel rel RMS as bf16's.
 * v10 (26c83fd, papers/reports/h200-2026-12-01k): the split rule counts
 * 64-row tiles for every variant (it had counted this one's 32-row tiles,
 * so twice the splits): 4x1024 13.3 us at 16 splits (v9 15.7 at 32), 4x8192
 * 28.7 at 32 (32.3 at 64); 32x1024 27.8 at 4 splits, where 8 measured 3.5%
 * faster in the sweep (perf-notes v10).
 * v11 (ce73700, papers/reports/h200-2026-12-01o): this configuration in 4
 * or 5 stages at one block an SM (3-4 tiles in flight) was 18-32% slower on
 * the long calls and no faster than bf16's 64-row tiles on the short ones:
 * not kept. cf3bfb0 (staged epilogue stores): 4x1024 12.4 us (-4.7%).
 * v12 (17bec0f, papers/reports/h200-2026-12-01v): 4x1024 11.6 us (the
 * combine that loads ahead); geomean 63.3 us, 1.37x the read limit.
 * v13 (ba5600e, papers/reports/h200-2026-12-01zb): unchanged kernels,
 * geomean 63.4 us, 1.37x the read limit.
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): unchanged kernels,
 * geomean 63.4 us, 1.36x the read limit.
 * v15 (4984294, papers/reports/h200-2026-12-01zl): unchanged kernels,
 * geomean 63.8 us, 1.38x; ragged batches by the host-planned split (-zj,
 * -65% geomean): 39.9, 106, 27.8 us on ragged_b64, ragged_mix64,
 * ragged_1long32.
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
extern const mlab_variant_impl mlab_impl_bf16_t32 = {MLAB_V_bf16_t32, 0, bps, mla_cfg<T32>::SMEM, launch, 0, 0, NULL};
#endif
