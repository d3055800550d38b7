/* mxfp4.hip: variant 'mxfp4' (id 2), the packed MXFP4 cache read directly.
 * Idea: stage 288 packed bytes a row by cp.async (3 stages), dequantize each
 * 64-row tile into a bf16 shared tile (E2M1 x 2^(e-127) is exact in bf16),
 * then the bf16 path. Never writes a bf16 copy of the cache to device memory:
 * 306 bytes a row instead of 1152. The H200 has no native MXFP4; MI355X's
 * scaled MFMA would skip the dequant entirely.
 * Parent: bf16.
 * Measured (H200, v6 2041b49, recorded inputs): 256x8192 1010 us (15.2% of
 * copy bandwidth in its 306-byte rows; 2.34x faster than mxfp4_unfused),
 * 64x8192 263 us, 32x8192 138 us, 256x1024 140 us; faster than unfused on
 * all 8 cases (4x1024: 14.3 vs 19.6 us); geomean 84.6 us vs 174.0.
 * Compute-bound on the dequant (~1700 issue cycles a tile against ~1200 of
 * bytes). Kernel error rel RMS 1.7e-3..2.0e-3 (as bf16: the dequant is exact).
 * Tried: E2M1 table in a local array + E8M0 read from global inside the loop
 * (340 us at 256x1024, slower than unfused); byte-permute dequant + bf16x2
 * multiply (188 us); E8M0 prefetched a tile ahead (141 us, kept).
 * v9 (6f6ee29): the 18-chunk rows copied by an unrolled loop from one base
 * pointer (was a loop dividing its counter by the row length): -1..-4%
 * (256x8192 968 us, geomean 83.6 us, 4.34x its read limit;
 * papers/reports/h200-2026-12-01f and -h).
 * v11 (cf3bfb0, papers/reports/h200-2026-12-01m): the lean epilogue and
 * staged stores (-2..-3.4% on short calls): 4x1024 12.9 us, 256x8192 974;
 * geomean 80.0 us, 4.12x its read limit.
 * v12 (17bec0f, papers/reports/h200-2026-12-01v, -u): the refill of the
 * freed stage after the tile's Q.K (NVIDIA, this configuration only):
 * -1..-3% on calls of 8+ tiles a row; the combine that loads ahead: 4x1024
 * 12.0 us; geomean 77.5 us, 4.00x the read limit.
 * v13 (ba5600e, papers/reports/h200-2026-12-01zb): unchanged kernels,
 * geomean 77.7 us, 4.00x. Its raw stages by one bulk copy a tile (-y):
 * +1.1..2.5% on every call (three stages, the late refill): not used here.
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): unchanged kernels,
 * geomean 77.6 us, 4.00x the read limit.
 * v15 (4984294, papers/reports/h200-2026-12-01zl): unchanged kernels on the
 * 8 cases (geomean 77.9 us, 4.05x); ragged batches by the host-planned split
 * (-zj, -81% geomean): 41.1, 145, 28.7 us on ragged_b64, ragged_mix64,
 * ragged_1long32 (-zl).
 * v23 (5148d8f, papers/reports/h200-2026-12-02w call 4, -02x): the tile
 * pass by row (mla_kernel.h dequant_tile, smem_lanes.h mlab_dq_item): its
 * bf16 stores had been 4-way bank-conflicted (ncu: 12 M excess wavefronts, a
 * third of the decode's), -6..-15% on every case (256x8192 963-1027 ->
 * 869-875 us); the v23 suite geomean 71.7 us, 3.76x the read limit.
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_fit<KV_MXFP4, false, false>(); }
static int smem_now(void) { return smem_fit<KV_MXFP4>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_fit<KV_MXFP4, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4 = {MLAB_V_mxfp4, 0, bps, mla_smem_min<KV_MXFP4>(), launch, 0, 0, NULL, smem_now};
#endif
