/* mxfp4_unfused.hip: variant 'mxfp4_unfused' (id 3), the control for 'mxfp4'.
 * Idea: what the competition's reference did: dequantize the whole MXFP4
 * cache to a bf16 buffer in device memory (reads 306, writes 1152 bytes a
 * row), then run 'bf16' on it (reads 1152 more). Its time minus bf16's is
 * the cost of not fusing.
 * Parent: bf16.
 * Measured (H200, v6 2041b49, recorded inputs): 256x8192 2366 us, 64x8192
 * 608 us, 32x8192 315 us, 256x1024 334 us, 4x1024 19.6 us; geomean 174.0 us,
 * 2.06x the fused mxfp4's 84.6 us: fusion buys 2x on the H200.
 * v12 (17bec0f, papers/reports/h200-2026-12-01v): 256x8192 2366 us, 4x1024
 * 17.1 (the combine that loads ahead); geomean 168.6 us, 2.17x mxfp4's 77.5.
 * v13 (ba5600e, papers/reports/h200-2026-12-01zb): unchanged kernels,
 * geomean 170.7 us; 4x1024 18.1 us (+5.8% against v12 with byte-identical
 * kernels, the same in both pairs of -y: not explained).
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): unchanged kernels,
 * geomean 167.5 us, 8.63x the read limit.
 * v15 (4984294, papers/reports/h200-2026-12-01zl): unchanged kernels,
 * geomean 169 us, 8.80x the read limit; ragged batches by the host-planned
 * split (-zj, -60% geomean).
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_fit<KV_BF16, false, false>(); }
static int smem_now(void) { return smem_fit<KV_BF16>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    mla_dequant_mxfp4<<<1024, 256, 0, s>>>(*p, scratch);
    mla_params q = *p;
    q.kv_bf16 = scratch;
    return launch_fit<KV_BF16, false, false>(&q, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4_unfused = {MLAB_V_mxfp4_unfused, 0, bps, mla_smem_min<KV_BF16>(), launch, 1, 0, NULL, smem_now};
#endif
