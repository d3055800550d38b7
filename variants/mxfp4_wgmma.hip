/* mxfp4_wgmma.hip: variant 'mxfp4_wgmma' (id 10), MXFP4 on Hopper's warpgroup MMA.
 * Idea: the MXFP4 cache (306 bytes a row, half of fp8's 576) streamed by the
 * copy engine into raw stages, and turned into e4m3 tiles by the producer
 * warpgroup of fp8_wgmma's block (issue item 5: "on loading warps in
 * parallel with the products"), every code an E2M1 value times its block's
 * 2^(e - 127) exactly (mxfp4_e4m3's table and permutes, mla_kernel.h
 * e4m3_block); fp8_wgmma's two consumer warpgroups then run their e4m3
 * wgmma products on those tiles unchanged (mla_wgmma.h, wg_produce_mx).
 * The tensor pipe of the H200 takes fp8 only with both operands e4m3, so Q
 * is quantized per tensor and P rounded to e4m3 as in the fp8 variants: the
 * arithmetic is a8 with MXFP4 weights ("a8w4"), checked against its own
 * reference (cpu_ref_mxfp4_a8: MXFP4 KV dequantized exactly, Q and P as
 * the fp8 kernels round them) with the fp8 bounds (kernel:mxfp4_a8); its
 * total error against bf16 truth is reported beside mxfp4's.
 * Exact fallback: a call whose cache holds a scale e4m3 cannot carry exactly
 * (mla_params.mx_e4m3_ok) runs mxfp4's exact bf16 path, as mxfp4_e4m3 does.
 * NVIDIA sm_90a only (wgmma); elsewhere the variant is unavailable.
 * Parent: mxfp4_e4m3 (the same e4m3 tiles, there on mma.sync with f16 Q and P).
 * Measured: not yet (this tree adds it).
 */
#include "launch_common.h"
#include "mla_wgmma.h"
#include "variants.h"

#if defined(MLAB_NV) && defined(MLAB_SM90A)
typedef wg_cfg_t<true> mx_cfg;
static int bps(void)
{
    int n = 0;
    if (hipFuncSetAttribute((const void *)mla_decode_wg<true, true>, hipFuncAttributeMaxDynamicSharedMemorySize,
                            mx_cfg::SMEM) != hipSuccess ||
        hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, mla_decode_wg<true, true>, WG_NT, mx_cfg::SMEM) != hipSuccess)
        return 1;
    return n > 0 ? n : 1;
}
/* a scale e4m3 cannot hold exactly (mla_params.mx_e4m3_ok): mxfp4's exact bf16 path */
static int exact_fallback(const mla_params *p) { return !p->mx_e4m3_ok; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    if (exact_fallback(p)) return launch_fit<KV_MXFP4, false, false>(p, s);
    static bool attr_set = false;
    return launch_sequence<true, false>(mla_decode_wg<true, true>, WG_NT, mx_cfg::SMEM, true, p, s, attr_set);
}
#define MX_WHY NULL
#define MX_SMEM mx_cfg::SMEM
#else
static int bps(void) { return 1; }
static int exact_fallback(const mla_params *p) { return !p->mx_e4m3_ok; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define MX_WHY "needs NVIDIA sm_90a (wgmma); build with -DMLAB_CUDA_ARCH=90a"
#define MX_SMEM 0
#endif
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4_wgmma = {MLAB_V_mxfp4_wgmma, 1, bps, MX_SMEM, launch, 0, WG_NT,
                                                        MX_WHY, NULL, 1 /* combine_only */, NULL, 0,
                                                        exact_fallback};
#endif
