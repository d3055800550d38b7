/* launch_common.h: the launch sequence every variant shares (amax pass when
 * a8w8, the decode kernel, the combine when split), included by each variant
 * file with its own template arguments. */
#ifndef MLAB_LAUNCH_COMMON_H
#define MLAB_LAUNCH_COMMON_H

#include <stdio.h>

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

/* Launch kern<<<grid, block, smem, s>>>(p). On NVIDIA sm_90 (elsewhere a
 * plain launch, and cluster must be 0):
 *   pdl      as a programmatic dependent of the kernel before it in the
 *            stream: its blocks start while that kernel drains and wait for
 *            it with mlab_grid_dep_wait (-DMLAB_NO_PDL turns it off, for
 *            measuring; H200: 2-3 us a call on fp8);
 *   cluster  > 1: thread-block clusters of that many consecutive blocks. */
template <typename K>
static hipError_t launch_ex(K kern, int grid, int block, int smem, hipStream_t s, const mla_params *p, bool pdl,
                            int cluster)
{
#if defined(MLAB_NV)
    cudaLaunchAttribute attr[2];
    int n = 0;
#ifndef MLAB_NO_PDL
    if (pdl) {
        attr[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[n++].val.programmaticStreamSerializationAllowed = 1;
    }
#endif
    if (cluster > 1) {
        attr[n].id = cudaLaunchAttributeClusterDimension;
        attr[n].val.clusterDim.x = cluster;
        attr[n].val.clusterDim.y = 1;
        attr[n++].val.clusterDim.z = 1;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = n;
    return cudaLaunchKernelEx(&cfg, kern, *p);
#else
    (void)pdl;
    (void)cluster;
    kern<<<grid, block, smem, s>>>(*p);
    return hipGetLastError();
#endif
}

/* The cluster size for merging a row's splits in the decode kernel: the
 * split count when it is 2, 4 or 8 (cluster sizes every sm_90 part runs) on
 * NVIDIA, else 0 (partials and mla_combine). -DMLAB_NO_CLUSTER turns it off. */
static int merge_cluster(int splits)
{
#if defined(MLAB_NV) && !defined(MLAB_NO_CLUSTER)
    return splits == 2 || splits == 4 || splits == 8 ? splits : 0;
#else
    (void)splits;
    return 0;
#endif
}

template <int KVF, bool FAST, bool XCD>
static hipError_t launch_decode(const mla_params *p0, hipStream_t s)
{
    typedef mla_cfg<KVF> C;
    static bool attr_set = false;
    if (!attr_set) {
        hipError_t e = hipFuncSetAttribute((const void *)mla_decode<KVF, FAST, XCD>,
                                           hipFuncAttributeMaxDynamicSharedMemorySize, C::SMEM);
        if (e != hipSuccess) return e;
#if defined(MLAB_NV)
        /* every kernel of the sequence asks for the largest shared-memory
         * carve-out, so the SMs need no L1/shared reconfiguration between
         * them (H200: fp8 1-3% faster, papers/perf-notes.md) */
        (void)cudaFuncSetAttribute(mla_combine<FAST>, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
        (void)cudaFuncSetAttribute(mla_q_amax, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
        (void)cudaFuncSetAttribute(mla_decode<KVF, FAST, XCD>, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
#endif
        attr_set = true;
    }
    static bool no_cluster = false; /* set if the GPU refused the cluster launch once */
    mla_params p = *p0;
    p.cluster = no_cluster ? 0 : merge_cluster(p.splits);
    const int grid = p.total_q * p.splits;
    if (KVF == KV_FP8) /* the decode blocks start their KV loads while the amax pass runs */
        mla_q_amax<<<p.amax_blocks, 256, 0, s>>>(p);
    hipError_t e = launch_ex(mla_decode<KVF, FAST, XCD>, grid, MLA_NT, C::SMEM, s, &p, KVF == KV_FP8, p.cluster);
    if (e != hipSuccess && p.cluster > 1) { /* e.g. no GPC can hold the cluster: say so, merge the other way */
        fprintf(stderr, "mlabench: cluster launch of %d blocks refused (%s); merging splits with mla_combine\n",
                p.cluster, hipGetErrorString(e));
        (void)hipGetLastError();
        no_cluster = true;
        p.cluster = 0;
        e = launch_ex(mla_decode<KVF, FAST, XCD>, grid, MLA_NT, C::SMEM, s, &p, KVF == KV_FP8, 0);
    }
    if (e == hipSuccess && p.splits > 1 && p.cluster == 0)
        e = launch_ex(mla_combine<FAST>, p.total_q * MLA_H, MLA_DV / 4, 0, s, &p, true, 0);
    return e != hipSuccess ? e : hipGetLastError();
}

#endif
