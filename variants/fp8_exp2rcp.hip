/* fp8_exp2rcp.hip: variant 'fp8_exp2rcp' (id 4).
 * Idea: fp8 with softmax in exp2 (log2 e folded into the score scale on the
 * host side of the kernel, so each p is one ex2.approx / v_exp_f32) and the
 * final 1/l by a fast reciprocal (rcp.approx / v_rcp_f32) instead of IEEE
 * division; the Triton submission (740330, papers/spec.md) reports ~200 fewer VALU ops in
 * its hot loop on MI355X.
 * Parent: fp8.
 * Measured (H200, v6 2041b49, recorded inputs): 1-5% faster than fp8 on
 * every case (32x8192 67.5 vs 68.3 us, 4x8192 24.8 vs 25.7, 256x8192 423
 * vs 433); geomean 51.3 vs 52.8 us, with identical error (rel RMS the same
 * to 4 digits): on the H200 the softmax is not the bottleneck. The VALU
 * saving claimed on MI355X is not measurable here.
 * v10 (26c83fd, papers/reports/h200-2026-12-01k): split rule v10 (32 splits
 * at 4x8192, one block an SM, instead of 64) and one load for a row's kv
 * range: 4x8192 21.3 us (v9 25.0), 4x1024 12.7 (13.3), 32x1024 20.6 (21.6);
 * geomean 49.7 us, 1.75x the read limit.
 * v11 (cf3bfb0, papers/reports/h200-2026-12-01m, -n): the a8w8 Q loads
 * before the KV prologue and its quantization by packed conversions (-5..-9%
 * at 4x1024), the lean epilogue: 4x1024 11.8 us, 4x8192 20.5, 64x1024 27.7;
 * geomean 48.0 us, 1.69x the read limit (staged stores: 32x1024 +2.6%).
 * v12 (17bec0f, papers/reports/h200-2026-12-01v): the combine that loads
 * ahead: 4x1024 11.0 us, 4x8192 19.7, 64x1024 27.4; geomean 46.7 us, 1.64x
 * the read limit. Then the tiles by bulk copies (ecb8c24, -x): -0.5..-0.6%.
 * v13 (ba5600e, papers/reports/h200-2026-12-01zb): Q's fragments unpacked
 * once: 4x1024 10.8 us, 4x8192 19.5, 256x8192 403; geomean 45.8 us, 1.61x
 * the read limit. Then the bulk row copies addressed by eight lanes a warp
 * (-zd): -1.2..-1.4% geomean, 256x8192 -3.1..-3.8%.
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): the fp8 core's high-half
 * conversions (-ze: -4.1..-4.5%) and tensor-copied stages (-zg: -3.9..-5.2%):
 * 4x1024 10.6 us, 4x8192 18.9, 256x8192 321 (1.15x its read limit);
 * geomean 41.3 us, 1.45x the read limit.
 * v15 (4984294, papers/reports/h200-2026-12-01zl): unchanged kernels on the
 * 8 cases (geomean 41.5 us, 1.46x); ragged batches by the host-planned split
 * (-zj, -61% geomean): 26.8, 66.1, 20.3 us on ragged_b64, ragged_mix64,
 * ragged_1long32 (-zl) (FlashInfer fp8 104, 333, 90.6).
 * v21 (unchanged kernel; papers/reports/h200-2026-12-02o, -02p): the
 * combine spread past 16 splits is the one change slower here, 4x8192
 * +0.7..+2.1% (two blocks an SM leave the combine free SMs); the v21 suite:
 * geomean 41.8 us, 1.46x the read limit, 4x1024 10.98 us.
 * v23 (5148d8f, papers/reports/h200-2026-12-02w call 4, -02x): S rows of
 * BN + 8 floats (fp8's header): 256x8192 -3.3 / -3.1%, 64x8192 -2.5 /
 * -2.0%; the v23 suite geomean 41.2 us, 1.46x, 4x1024 10.72 us (the fastest
 * decode there).
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_fit<KV_FP8, true, false>(); }
static int smem_now(void) { return smem_fit<KV_FP8>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_fit<KV_FP8, true, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8_exp2rcp = {MLAB_V_fp8_exp2rcp, 1, bps, mla_smem_min<KV_FP8>(), launch, 0, 0, NULL, smem_now};
#endif
