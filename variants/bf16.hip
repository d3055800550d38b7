/* bf16.hip: variant 'bf16' (id 0), the root of the ladder.
 * Idea: split-KV flash decoding. One block per (query row, split); Q (16 heads)
 * stays in shared memory, 64-row KV tiles stream through a 2-stage cp.async
 * pipeline; S = Q K^T and O += P V on the matrix units (mma.sync m16n8k16 bf16
 * on NVIDIA, MFMA 16x16x16 bf16 on AMD), fp32 accumulation, softmax with expf
 * and IEEE division; splits merged by an LSE combine kernel (mla_kernel.h).
 * Parent: none.
 * Measured: see papers/perf-notes.md (H200 table) and the closing figures there.
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_of<KV_BF16, false, false>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_decode<KV_BF16, false, false>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_bf16 = {MLAB_V_BF16, 0, bps, launch};
#endif
