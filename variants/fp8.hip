/* fp8.hip: variant 'fp8' (id 1), a8w8 as the competition's reference does it.
 * Idea: Q is quantized per tensor inside the call (a Q amax pass, then every
 * block quantizes its own row with TASK.md's bf16-arithmetic rule), KV is
 * fp8 with its per-tensor scale: half the bytes of bf16. Q.K on the fp8
 * matrix units (mma m16n8k32 e4m3); P rounded to e4m3 before P.V, which runs
 * as f16 MMA on the fp8-valued operands (exact) because the fp8 B operand must
 * be k-major: V is transposed in registers by ldmatrix.trans on byte pairs.
 * Parent: bf16.
 * Measured: see papers/perf-notes.md.
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_of<KV_FP8, false, false>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_decode<KV_FP8, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8 = {MLAB_V_FP8, 1, bps, launch};
#endif
