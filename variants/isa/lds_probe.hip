/* lds_probe.hip: the dynamic LDS each decode kernel's launcher requests
 * (mla_cfg<KVF>::SMEM, launch_common.h), as constants that harness/amd_isa.sh
 * reads from this file's device listing. Compiled by the same compiler for
 * the same architecture as the kernels, it sees the same (AMD, per-arch)
 * tile configuration; nothing links it. Symbol mlab_dyn_lds_N = KV format N. */
#include "../mla_kernel.h"

#define MLAB_LDS_PROBE(kvf) \
    extern "C" __device__ __attribute__((used)) const int mlab_dyn_lds_##kvf = mla_cfg<kvf>::SMEM;
MLAB_LDS_PROBE(0) /* KV_BF16 */
MLAB_LDS_PROBE(1) /* KV_FP8 */
MLAB_LDS_PROBE(2) /* KV_MXFP4 */
MLAB_LDS_PROBE(3) /* KV_MX8: MXFP4 turned into e4m3 tiles (mxfp4_e4m3) */
MLAB_LDS_PROBE(4) /* KV_MXS: MXFP4 as stored into the scaled MFMA (mxfp4_mfma_scale, gfx950) */
/* the same formats in the 64 KB configuration (KVF | MLA_KV_SMALL: MI300X) */
MLAB_LDS_PROBE(8)
MLAB_LDS_PROBE(9)
MLAB_LDS_PROBE(10)
MLAB_LDS_PROBE(11)
static_assert(KV_BF16 == 0 && KV_FP8 == 1 && KV_MXFP4 == 2 && KV_MX8 == 3 && KV_MXS == 4 && MLA_KV_SMALL == 8,
              "lds_probe.hip: KV format numbers changed");
