/* mxfp4_e4m3.hip: variant 'mxfp4_e4m3' (id 6), MXFP4 on the fp8 core.
 * Idea: read the packed MXFP4 cache (306 bytes a row) as mxfp4 does, but
 * turn each staged 64-row tile into e4m3 codes with the block's E8M0 scale
 * folded in (an E2M1 value times 2^(e-127) is an e4m3 value exactly while
 * e - 127 stays in [-8, 6], [-9, 5] for fnuz): the block's 8 magnitude codes
 * from a 2 KB table by E8M0 byte (built once a block), then 4 nibbles -> 4
 * codes by one byte permute of them and one of the sign bits (mla_kernel.h,
 * e4m3_tile). The tile is half the bytes
 * of mxfp4's bf16 tile, so two blocks fit an SM (106.5 KB each) and one
 * block's conversion overlaps the other's products; Q.K and P.V then run as
 * the fp8 variant's do (K and V unpacked from e4m3 to f16 for f16 MMAs), with
 * Q as f16 (exact for |q| >= 2^-14) and P as f16 (not rounded to fp8).
 * Exact fallback: a call whose cache holds any scale outside the range runs
 * mxfp4's exact bf16 path instead (the runner checks the scales when it
 * loads the case; the run prints which path ran).
 * Parent: mxfp4. Tolerance: kernel:mxfp4 (the operands are exact; Q in f16
 * and P in f16 are finer than mxfp4's bf16 P).
 * Measured (H200, 7327fbc, recorded inputs, papers/reports/h200-2026-12-01):
 * 256x8192 623 us against mxfp4's 1012 (0.62x), 64x8192 166 vs 264, 32x8192
 * 90.9 vs 138, 256x1024 87.5 vs 140; small cases no gain (4x1024 15.5 vs
 * 14.4: the 7 conversions a block add to a one-tile chain); geomean 66.0 vs
 * 85.0 us, 3.45x its read limit (mxfp4 4.44x). Kernel rel RMS 1.66e-3
 * (mxfp4 1.77e-3). 124 registers, 104.5 KB of shared memory, 2 blocks an SM.
 * v9 (6f6ee29, papers/reports/h200-2026-12-01f and -h): the table (was 7
 * conversions a (row, block)), one permute for 4 signs (was two), the raw
 * rows copied by an unrolled loop: the tile pass 106 -> 69 instructions a
 * (row, block); 256x8192 534 us (-12%), 64x8192 147 (-12%), 256x1024 76.9
 * (-12%), 32x8192 81.7 (-10%), 4x1024 15.5 (-2%); geomean 60.6 us, 3.14x
 * its read limit; 1.28x fp8_exp2rcp at 256x8192 on half its bytes.
 * v10 (26c83fd, papers/reports/h200-2026-12-01k): f16 split partials (were
 * fp32), 32 splits at 4x8192 (was 64), one load for a row's kv range:
 * 4x8192 24.1 us (v9 29.7), 4x1024 13.9 (15.5), 32x1024 22.8 (24.5),
 * 64x1024 30.8 (32.8); geomean 56.9 us, 2.93x its read limit.
 * Not yet: E2M1 unpacked straight into fragments (no tile), wgmma.
 * v11 (cf3bfb0, papers/reports/h200-2026-12-01m): the lean epilogue and
 * staged stores: 4x1024 13.7 us, 4x8192 23.6, 256x8192 531; geomean 56.1
 * us, 2.90x its read limit; 1.27x fp8_exp2rcp at 256x8192.
 * v12 (17bec0f, papers/reports/h200-2026-12-01v): the combine that loads
 * ahead: 4x1024 12.9 us, 4x8192 22.8; geomean 55.3 us, 2.86x the read limit;
 * 256x8192 528 us, 1.28x fp8_exp2rcp's.
 * v13 (papers/reports/h200-2026-12-01y): the raw stages by one bulk copy a
 * tile: 256x8192 527 -> 513 us (-2.7%), 64x8192 -2.4%, 32x8192 -2.3%;
 * 4x8192 +1.7..2.2%, 4x1024 +0.5..1.5%; geomean -0.6%.
 * Why not E2M1 straight into the fragments (counted, not built): K and V
 * are the same rows, so a fragment path converts each value twice (Q.K,
 * then P.V) at ~2.5 instructions a value (nibble masks, table permutes,
 * sign merges, byte placement into f16): ~680 a lane and tile against the
 * tile pass's ~310 plus the fp8 core's 136 conversions.
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): the fp8 core's high-half
 * conversions (-ze: -2.7..-2.9% geomean; its stages stay raw rows, one bulk
 * copy a tile): 256x8192 499 us, geomean 53.5 us, 2.76x the read limit
 * (fp8_exp2rcp 321 us there: not faster than fp8).
 * v15 (4984294, papers/reports/h200-2026-12-01zl): unchanged kernels on the
 * 8 cases (256x8192 495 us, geomean 53.8 us, 2.79x); ragged batches by the
 * host-planned split (-zj, -65% geomean): 31.4, 85.3, 25.6 us on ragged_b64,
 * ragged_mix64, ragged_1long32. Tried and dropped (-zj): the tile pass
 * writing the fp8 core's swizzled panels with Q in registers (branch
 * wip/mx8-sw): +3.5% geomean, long calls +6..9%.
 * v17 (d6710aa, papers/reports/h200-2026-12-02 call 3, -02a): e4m3_block's
 * even-nibble sign word by one shift (shared with mxfp4_wgmma): -0.2..-1.1%
 * geomean in two pairs; the v17 suite 256x8192 487 us, geomean 53.4 us,
 * 2.78x its read limit.
 * v23 (5148d8f, papers/reports/h200-2026-12-02w call 4, -02x): e4m3_tile
 * by row (smem_lanes.h mlab_e4_item: stores conflict-free, raw loads 2-way)
 * and S rows padded by 8 floats: -2.7..-3.9% on the long calls; the v23
 * suite 256x8192 477 us, geomean 52.1 us, 2.73x.
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_fit<KV_MX8, false, false>(); }
static int smem_now(void) { return smem_fit<KV_MX8>(); }
/* a scale e4m3 cannot hold exactly (mla_params.mx_e4m3_ok): the runner runs
 * mxfp4 (the exact bf16 path) instead (exact_impl) */
static int exact_fallback(const mla_params *p) { return !p->mx_e4m3_ok; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_fit<KV_MX8, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4_e4m3 = {MLAB_V_mxfp4_e4m3, 0, bps, mla_smem_min<KV_MX8>(), launch, 0, 0,
                                                       NULL, smem_now, 0, NULL, 0, exact_fallback, &mlab_impl_mxfp4};
#endif
