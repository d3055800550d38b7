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
 * Measured (H200, papers/reports/h200-2026-12-01zo and -zp, 223fdab): every
 * GPU test and case valid, kernel rel RMS 1.3e-2..2.4e-2 (fp8's); 256x8192
 * 405 us (mxfp4_e4m3 492, fp8_wgmma 319; 425 in the v16 suite under a clock
 * slowdown NVML flagged), 64x8192 111 (134), 32x8192 62.4 (74.1), 256x1024
 * 68.8 (71.6), 4x1024 12.9 (13.0); suite geomean 48.1 us, 2.47x its read
 * limit (mxfp4_e4m3 2.76x). Bound by the producer's conversion: at
 * 64x8192 its consumers wait ~2860 cycles a consumer's tile for codes
 * (fp8_wgmma's ~1610 for bytes; TW trace lines, -DMLAB_TRACE
 * -DMLAB_WG_PROF), and v4's producer (TP lines) spent ~3000 cycles a tile,
 * ~1760 of them computing and storing codes: ~40 ALU instructions for 32
 * values on 4 warps, beside the consumers' own ALU work.
 * Tried (-zo): the scales a tile ahead in registers (v1, 454 us: the same
 * producer order as the final one, pairs by row: 9-way bank conflicts on its
 * stores), the scales by bulk copy with pairs by row (v2, 477), items by
 * block with every load first (v3: landed, 405), the raw stage reissued
 * before the codes (v4, 422-427), 2 e4m3 + 6 raw stages (460 / 427), each
 * producer warp its own rows, copies and mbarrier, no warpgroup barrier
 * (branch wip/mx-warp, 424).
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
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    static bool attr_set = false;
    return launch_sequence<true, false>(mla_decode_wg<true, true>, WG_NT, mx_cfg::SMEM, true, p, s, attr_set);
}
#define MX_WHY NULL
#define MX_SMEM mx_cfg::SMEM
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue;
}
#define MX_WHY "needs NVIDIA sm_90a (wgmma); build with -DMLAB_CUDA_ARCH=90a"
#define MX_SMEM 0
#endif
/* a scale e4m3 cannot hold exactly (mla_params.mx_e4m3_ok): the runner runs
 * mxfp4 (the exact bf16 path) instead (exact_impl) */
static int exact_fallback(const mla_params *p) { return !p->mx_e4m3_ok; }
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4_wgmma = {MLAB_V_mxfp4_wgmma, 1, bps, MX_SMEM, launch, 0, WG_NT,
                                                        MX_WHY, NULL, 1 /* combine_only */, NULL, 0,
                                                        exact_fallback, &mlab_impl_mxfp4};
#endif
