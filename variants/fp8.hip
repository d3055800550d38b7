/* fp8.hip: variant 'fp8' (id 1), a8w8 as the competition's reference does it.
 * Idea: Q is quantized per tensor inside the call (a Q amax pass, then every
 * block quantizes its own row with the task's bf16-arithmetic rule, papers/spec.md), KV is
 * fp8 with its per-tensor scale: half the bytes of bf16. Q.K on the fp8
 * matrix units (mma m16n8k32 e4m3); P rounded to e4m3 before P.V, which runs
 * as f16 MMA on the fp8-valued operands (exact) because the fp8 B operand must
 * be k-major: V is transposed in registers by ldmatrix.trans on byte pairs.
 * On NVIDIA (Hopper has no fp8 mma.sync: ptxas emulates m16n8k32.e4m3 with
 * byte unpacks, two f16 HMMAs and FADDs) each warp keeps its quarter of the
 * fp8 Q in registers and runs Q.K as f16 HMMA on K unpacked once
 * (mla_mma.h, qk_fp8_qreg); the decode starts as a programmatic dependent of
 * the amax pass, so its first KV loads overlap it.
 * Parent: bf16.
 * Measured (H200, v6 2041b49, recorded inputs; papers/reports/h200-2026-11-30c):
 * 256x8192 433 us = 66.2% of copy bandwidth in its own bytes (1.49x faster
 * than bf16), 64x8192 122 us (59.0%), 256x1024 68.4 us (55.1%), 32x8192
 * 68.3 us (52.5%; v5 75.0 on the same machine: f16 split partials, the amax
 * maxima in one latency, divisions by one reciprocal, vector epilogue stores);
 * geomean 52.8 us (bf16: 68.0; v5: 62.5): on the H200 a8w8 buys 0.98-1.5x,
 * not the 2-3x claimed for MI355X. Error: kernel vs the reference with P
 * rounded to fp8, rel RMS 1.0e-2..2.5e-2; total vs bf16 truth 3.2e-2..4.4e-2;
 * rounding P to fp8 adds 0.2e-2..0.5e-2 of that (cpu_ref rows fp8 vs
 * fp8_pexact); the f16 partials change neither in the third digit.
 * Tried: 1 block of 3 stages a SM (40-52%); 2 blocks of 2 stages, 128
 * registers (kept: +10-25%); Q loads before the amax wait (no change);
 * P.V as "e4m3" MMA (+2-3% slower: emulated); Q as f16 in shared memory
 * (+5%: twice the shared-memory reads); Q in registers (kept: -1..-4.5%);
 * PDL after the amax pass (kept: -2..-3 us); both stages filled in the
 * prologue (+3.5%); e4m3 -> f16 by integer ops instead of F2FP (V only
 * +5%, K and V +12%: the F2FP pipe was not the limit); split blocks claiming
 * a row's tiles dynamically (+2.7% at 32x8192, papers/perf-notes.md v6
 * report).
 * v11 (cf3bfb0, papers/reports/h200-2026-12-01n, -m): Q's loads before the
 * KV prologue and its quantization by packed conversions (-5.5% at 4x1024
 * and 64x1024), the lean epilogue and staged stores: 4x1024 12.6 us, 4x8192
 * 21.2, 256x8192 420; geomean 49.3 us, 1.74x the read limit.
 * v12 (17bec0f, papers/reports/h200-2026-12-01v): the combine that loads
 * ahead: 4x1024 11.9 us, 4x8192 20.8; geomean 48.3 us, 1.70x the read limit.
 * Then the tiles by bulk copies (ecb8c24, -x): -0.7..-1.0% geomean. A loop
 * overlapping tile t's P.V with tile t+1's Q.K (3-4 stages, one block an
 * SM) was 13-15% slower (-s, branch wip/pipe).
 * v13 (ba5600e, papers/reports/h200-2026-12-01zb): Q's fragments unpacked
 * once (36 registers): 4x1024 11.5 us, 256x8192 419; geomean 47.8 us,
 * 1.67x the read limit. Then the bulk row copies addressed by eight lanes a
 * warp (-zd): -1.5..-1.8% geomean, 256x8192 -2.8..-3.7%. ncu (-zc): 55% of
 * the decode's instructions are on the ALU pipe (unpacks, permutes).
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): the upper pair of each
 * e4m3 word converted from the word's high half (-ze: -3.4..-4.2% geomean)
 * and the stages by 9 tensor copies a tile into 64-byte swizzled panels
 * (-zf, -zg: -4.4..-5.5%; 256x8192 -10%): 4x1024 11.6 us, 256x8192 329 (1.18);
 * geomean 42.9 us, 1.50x the read limit.
 * v15 (4984294, papers/reports/h200-2026-12-01zl): unchanged kernels on the
 * 8 cases (geomean 42.9 us, 1.51x); ragged batches by the host-planned split
 * (-zj, -60% geomean): 27.6, 67.6, 21.0 us on ragged_b64, ragged_mix64,
 * ragged_1long32 (-zl).
 * v23 (5148d8f, papers/reports/h200-2026-12-02w call 4, -02x): S rows of
 * BN + 8 floats (MLAB_S_PAD: the score accumulators' float2 stores had been
 * 2-way bank-conflicted): 64x8192 -2.2 / -2.2%, 256x8192 -5.0 / -5.3%; the
 * v23 suite geomean 42.5 us, 1.50x the read limit.
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_fit<KV_FP8, false, false>(); }
static int smem_now(void) { return smem_fit<KV_FP8>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_fit<KV_FP8, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8 = {MLAB_V_fp8, 1, bps, mla_smem_min<KV_FP8>(), launch, 0, 0, NULL, smem_now};
#endif
