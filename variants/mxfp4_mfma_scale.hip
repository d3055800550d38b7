/* mxfp4_mfma_scale.hip: variant 'mxfp4_mfma_scale' (id 8), gfx950 only.
 * Idea: MI355X's scaled MFMA (v_mfma_scale_f32_16x16x128_f8f6f4) reads MX
 * formats with their E8M0 block scales in hardware, so the MXFP4 cache needs
 * no dequantization at all: the staged rows (288 packed bytes a row, 2
 * stages) are the operands, and no compute tile is written (60 KB of LDS).
 *   Q.K: B = K^T as stored, E2M1 (blgp 4) with its E8M0 bytes as the B
 *     scales (the block scale runs along the dims Q.K sums over: exact).
 *     The instruction wants A in an f8f6f4 format too: Q is quantized in
 *     the kernel to MXFP8 (OCP e4m3, an E8M0 scale a head row and 32 dims,
 *     the OCP rule: floor(log2 amax) - 8), 16 x 18 blocks a query row. The
 *     576 dims are 18 blocks = 4.5 calls of K = 128: each of the 8 waves
 *     takes one 16-column group and 9 blocks (calls of 4, 4 and 1 blocks).
 *   P.V: V's block scale runs along the output dims, not along the kv rows
 *     P.V sums over, so no MFMA scale operand can carry it. It is folded
 *     into P: for an output tile's 32-dim block, P'[h][r] = P[h][r] x
 *     2^(e[r] - 127) is MX-quantized along r (e4m3 codes, an E8M0 scale a
 *     head row and 32 kv rows: the A scale), and V goes in as stored, raw
 *     E2M1 with B scale 1. A 64-row tile fills half of K = 128 (the other
 *     half is zero).
 * The arithmetic differs from mxfp4's (exact bf16 dequant, bf16 P): Q is
 * rounded to e4m3 (MX) and so is P' (MX). Its CPU reference is exactly that
 * quantization (cpu_ref_mxfp4_mx8: reference/mla_ref.c, mx_native), its
 * tolerance row kernel:mxfp4_mx8 (reference/metrics.c) says why.
 * The operand maps and the packing are tested on the CPU against AMD's
 * documented layouts through an emulated instruction
 * (tests/test_mfma_scale_lanes.cpp); the listing shows the scaled MFMA
 * (variants/isa/isa-summary.txt). NOT RUN on any GPU: compile-verified only.
 * On NVIDIA and gfx942 the variant is unavailable (no scaled MFMA).
 * Parent: mxfp4 (the dequantizing path stays as its own variant, so the
 * ladder shows what the native instruction buys).
 * Not yet: V through the transposing LDS read for 4-bit data
 * (ds_read_b64_tr_b4) instead of 32 byte reads a lane, 128-row tiles to fill
 * the P.V instruction, global_load_lds_dwordx4 for the stages.
 */
#include "launch_common.h"
#include "variants.h"

#if defined(MLAB_AMD) && MLAB_AMD_GFX950
static int bps(void) { return blocks_per_sm_of<KV_MXS, false, false>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_decode<KV_MXS, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_mxfp4_mfma_scale = {MLAB_V_mxfp4_mfma_scale, 0, bps,
                                                             mla_cfg<KV_MXS>::SMEM, launch};
#endif
#else
static int bps(void) { return 1; }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)p; (void)s; (void)scratch;
    return hipErrorInvalidValue; /* never called: the runner refuses an unavailable variant */
}
#ifndef __HIP_DEVICE_COMPILE__
extern const mlab_variant_impl mlab_impl_mxfp4_mfma_scale = {
    MLAB_V_mxfp4_mfma_scale, 0, bps, 0, launch, 0, 0,
    "needs AMD gfx950 (v_mfma_scale_f32_16x16x128_f8f6f4, MI355X)"};
#endif
#endif
