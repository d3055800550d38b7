/* fp8_wgmma.hip: variant 'fp8_wgmma' (id 7), a8w8 on Hopper's warpgroup MMA.
 * Idea: the fp8 variant's arithmetic (Q quantized per tensor in the call, e4m3
 * Q.K, P rounded to e4m3, fp32 accumulation) on the only fp8 tensor path an
 * H100/H200 has: wgmma (mma.sync e4m3 is emulated there, papers/perf-notes.md
 * v5). Kv rows are the M dimension of both products (S^T = K Q^T, O^T = V^T
 * P^T), so 16 heads fill N = 16 without padding; K and Q are read by the
 * instruction straight from shared memory, V^T is built in registers by
 * ldmatrix.trans + byte permutes, so no tile is ever converted or
 * transposed. A producer warp and two consumer warpgroups a block, one block an
 * SM (mla_wgmma.h).
 * NVIDIA sm_90a only (wgmma is an sm_90a feature): elsewhere the variant is
 * unavailable and mlabench says so.
 * Parent: fp8_exp2rcp (it uses exp2 and the fast reciprocal too).
 * Tolerance: kernel:fp8 (same arithmetic; Hopper's fp8 MMA accumulates with
 * fewer mantissa bits than fp32 inside each instruction, far below fp8's
 * own rounding).
 * Measured: see papers/perf-notes.md v8.
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"

#if defined(MLAB_NV) && defined(MLAB_SM90A)
static int bps(void)
{
    int n = 0;
    if (hipFuncSetAttribute((const void *)mla_decode_wg<true>, hipFuncAttributeMaxDynamicSharedMemorySize,
                            wg_cfg::SMEM) != hipSuccess ||
        hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, mla_decode_wg<true>, WG_NT, wg_cfg::SMEM) != hipSuccess)
        return 1;
    return n > 0 ? n : 1;
}
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    static bool attr_set = false;
    return launch_sequence<true, true, false>(mla_decode_wg<true>, WG_NT, wg_cfg::SMEM, true, p, s, attr_set);
}
#define WG_WHY NULL
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define WG_WHY "needs NVIDIA sm_90a (wgmma); build with -DMLAB_CUDA_ARCH=90a"
#endif
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8_wgmma = {MLAB_V_fp8_wgmma, 1, bps, wg_cfg::SMEM, launch, 0, WG_NT,
                                                      WG_WHY};
#endif
