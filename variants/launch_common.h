/* launch_common.h: the launch sequence every variant shares (amax pass when
 * a8w8, the decode kernel, the combine when split), included by each variant
 * file with its own template arguments. */
#ifndef MLAB_LAUNCH_COMMON_H
#define MLAB_LAUNCH_COMMON_H

#include "launchers.h"
#include "mla_kernel.h"

template <int KVF, bool FAST, bool XCD> static int blocks_per_sm_of(void)
{
    typedef mla_cfg<KVF> C;
    (void)hipFuncSetAttribute((const void *)mla_decode<KVF, FAST, XCD>,
                        hipFuncAttributeMaxDynamicSharedMemorySize, C::SMEM);
    int n = 0;
    if (hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, mla_decode<KVF, FAST, XCD>, MLA_NT, C::SMEM) !=
        hipSuccess)
        return 1;
    return n > 0 ? n : 1;
}

template <int KVF, bool FAST, bool XCD>
static hipError_t launch_decode(const mla_params *p, hipStream_t s)
{
    typedef mla_cfg<KVF> C;
    static bool attr_set = false;
    if (!attr_set) {
        hipError_t e = hipFuncSetAttribute((const void *)mla_decode<KVF, FAST, XCD>,
                                           hipFuncAttributeMaxDynamicSharedMemorySize, C::SMEM);
        if (e != hipSuccess) return e;
        attr_set = true;
    }
    if (KVF == KV_FP8) {
        mla_q_amax<<<p->amax_blocks, 256, 0, s>>>(*p);
    }
    mla_decode<KVF, FAST, XCD><<<p->total_q * p->splits, MLA_NT, C::SMEM, s>>>(*p);
    if (p->splits > 1)
        mla_combine<FAST><<<p->total_q * MLA_H, 128, 0, s>>>(*p);
    return hipGetLastError();
}

#endif
