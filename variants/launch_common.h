/* launch_common.h: the launch sequence every variant shares (amax pass when
 * a8w8, the decode kernel, the combine when split), included by each variant
 * file with its own template arguments. */
#ifndef MLAB_LAUNCH_COMMON_H
#define MLAB_LAUNCH_COMMON_H

#include <stdio.h> /* snprintf: the merge's name into mla_params.ran */

#include "gpu_api.h" /* mlab_launch_info: what the sequence launched (mla_params.ran) */
#include "launchers.h"
#include "mla_kernel.h"

/* kern's resident blocks an SM at block threads and smem bytes of dynamic
 * shared memory (set as its limit first); 1 where the GPU refuses either
 * query: a GPU that refuses the shared memory runs none, and the runner
 * refuses the variant before this (smem_bytes against the device's limit).
 * Every variant's blocks_per_sm is this of its main kernel. */
template <typename K> static int occupancy_of(K kern, int block, int smem)
{
    int n = 0;
    if (hipFuncSetAttribute((const void *)kern, hipFuncAttributeMaxDynamicSharedMemorySize, smem) != hipSuccess ||
        hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, kern, block, smem) != hipSuccess)
        return 1;
    return n > 0 ? n : 1;
}

template <int KVF, bool FAST, bool XCD> static int blocks_per_sm_of(void)
{
    return occupancy_of(mla_decode<KVF, FAST, XCD>, MLA_NT, mla_cfg<KVF>::SMEM);
}

/* Launch kern<<<grid, block, smem, s>>>(p) through cudaLaunchKernelEx on
 * NVIDIA: with `dependent`, as a programmatic dependent of the kernel before
 * it in the stream where the GPU supports it (sm_90+: its blocks start while
 * that kernel drains and wait for it with mlab_grid_dep_wait; build with
 * -DMLAB_NO_PDL to measure without it: H200, PDL saves 2-3 us a call on
 * fp8), and with cluster > 1 as clusters of that many blocks, consecutive in
 * blockIdx.x (cluster_merge: rank = split). Elsewhere a plain launch. */
template <typename K>
static hipError_t launch_ex(K kern, int grid, int block, int smem, hipStream_t s, const mla_params *p,
                            bool dependent, int cluster, bool coop = false)
{
#if defined(MLAB_NV)
    cudaLaunchAttribute attr[3];
    int n = 0;
    if (coop) { /* every block resident at once, or the launch fails (the barrier merge) */
        attr[n].id = cudaLaunchAttributeCooperative;
        attr[n++].val.cooperative = 1;
    }
#if !defined(MLAB_NO_PDL)
    if (dependent) {
        attr[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[n++].val.programmaticStreamSerializationAllowed = 1;
    }
#else
    (void)dependent;
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
    (void)dependent; (void)cluster;
    if (coop) {
        void *args[] = {(void *)p};
        return hipLaunchCooperativeKernel((const void *)kern, dim3(grid), dim3(block), args, (unsigned)smem, s);
    }
    kern<<<grid, block, smem, s>>>(*p);
    return hipGetLastError();
#endif
}
template <typename K>
static hipError_t launch_after(K kern, int grid, int block, int smem, hipStream_t s, const mla_params *p,
                               int cluster = 1)
{
    return launch_ex(kern, grid, block, smem, s, p, true, cluster);
}

/* Which combine merges a call's splits (mla_params.combine): one that loads
 * every partial ahead of the weights, the smallest instance that holds the
 * call's splits (MLA_COMBINE_AHEAD: 16, 32 or MLA_MAX_SPLITS), where its
 * grid, a block a (row, head), fits in one wave of it on this GPU (SMs x its
 * blocks an SM, read once), else the plain one (whose fewer registers keep
 * calls of many rows in one wave). Returns the instance: 0 (plain), 1 (16
 * splits ahead), 2 (32), 3 (64). The 32 instance since v36
 * (MLAB_COMBINE_AHEAD32; before, 17 to 32 splits took the 64 one) */
template <bool FAST, int AHEAD> static int combine_slots(void)
{
    static int slots = -1;
    if (slots < 0) {
        int d = 0, sms = 0, n = 0;
        slots = hipGetDevice(&d) == hipSuccess &&
                        hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, d) == hipSuccess &&
                        hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, mla_combine<FAST, AHEAD>, MLA_DV / 4, 0) ==
                            hipSuccess
                    ? sms * n : 0;
    }
    return slots;
}
template <bool FAST> static int combine_ahead(const mla_params *p)
{
    if (p->combine == 1) return 0;
    const bool in32 = MLAB_COMBINE_AHEAD32 && p->splits <= MLA_COMBINE_AHEAD_MID;
    if (p->combine_chunks > 1) /* spread: past 16 splits (mlab_combine_chunks), one wave by construction */
        return in32 ? 2 : 3;
    const int grid = p->total_q * MLA_H;
    if (p->splits <= MLA_COMBINE_AHEAD)
        return p->combine == 2 || grid <= combine_slots<FAST, MLA_COMBINE_AHEAD>() ? 1 : 0;
    if (in32) return p->combine == 2 || grid <= combine_slots<FAST, MLA_COMBINE_AHEAD_MID>() ? 2 : 0;
    return p->combine == 2 || grid <= combine_slots<FAST, MLA_MAX_SPLITS>() ? 3 : 0;
}
/* the combine kernels by that instance: the plain combine and fp8_xcd's
 * placed one (instantiated only where asked: XCD) */
typedef void (*mla_combine_fn)(const mla_params);
template <bool FAST> struct mla_combines {
    static constexpr mla_combine_fn plain[4] = {mla_combine<FAST, 0>, mla_combine<FAST, MLA_COMBINE_AHEAD>,
                                                mla_combine<FAST, MLA_COMBINE_AHEAD_MID>,
                                                mla_combine<FAST, MLA_MAX_SPLITS>};
};
template <bool FAST> struct mla_combines_xcd {
    static constexpr mla_combine_fn placed[4] = {mla_combine_xcd<FAST, 0>, mla_combine_xcd<FAST, MLA_COMBINE_AHEAD>,
                                                 mla_combine_xcd<FAST, MLA_COMBINE_AHEAD_MID>,
                                                 mla_combine_xcd<FAST, MLA_MAX_SPLITS>};
};

/* The plain combine's dynamic shared memory, which it does not use: enough
 * that at most B of its blocks fit on an SM. Launched while the decode
 * drains (its programmatic dependent), its blocks would otherwise pile onto
 * the few SMs the decode left free (a wgmma decode's block takes a whole
 * SM's registers) and then, as the decode's blocks end, up to 16 onto each
 * SM freed first, each SM's loads of its blocks' partials in turn. A combine
 * spread in chunks (mla_params.combine_chunks > 1, perf-notes v21): B =
 * MLAB_COMBINE_SPREAD_BPS; a capped one (mla_params.combine_cap, v38): B =
 * that or, where its grid of `blocks` needs more to be one wave on the SMs,
 * ceil(blocks / SMs); none where B >= 16 (the SM's threads cap it there).
 * Under 48 KB, where no opt-in attribute is needed (H200: 46.7 KB at B = 4;
 * a 76 KB form with the attribute failed to launch one variant's combine,
 * v21); 0 where the device's shared memory or SMs are unknown. */
static int combine_smem(int blocks, bool spread, bool cap)
{
    static int per_sm = -1, sms = 0;
    if (per_sm < 0) {
        int d = 0, n = 0, m = 0;
        const bool ok = hipGetDevice(&d) == hipSuccess &&
                        hipDeviceGetAttribute(&n, hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, d) ==
                            hipSuccess &&
                        hipDeviceGetAttribute(&m, hipDeviceAttributeMultiprocessorCount, d) == hipSuccess;
        per_sm = ok && n > 0 && m > 0 ? n : 0;
        sms = ok ? m : 0;
    }
    if (!(spread || cap) || per_sm <= 0) return 0;
    const int wave = (blocks + sms - 1) / sms; /* blocks an SM for one wave of the grid */
    const int bps = spread || wave < MLAB_COMBINE_SPREAD_BPS ? MLAB_COMBINE_SPREAD_BPS : wave;
    if (bps >= 16) return 0;
    const int bytes = per_sm / (bps + 1) + 1;
    return bytes > 48 * 1024 - 1024 ? 48 * 1024 - 1024 : bytes;
}

/* The call's launch sequence around a decode kernel `dec` (block threads,
 * smem bytes of dynamic shared memory): the Q amax pass first when a8w8 (the
 * decode launched as its programmatic dependent), the combine after it when
 * split and not merged in a cluster (also a dependent). XCD
 * (fp8_xcd): a row's split blocks and its combine placed on one XCD, the
 * grids padded (xcd_map.h). */
template <bool FAST, bool XCD, typename K>
static hipError_t launch_sequence(K dec, int block, int smem, bool q_fp8, const mla_params *p, hipStream_t s,
                                  bool &attr_set)
{
    if (!attr_set) {
        hipError_t e = hipFuncSetAttribute((const void *)dec, hipFuncAttributeMaxDynamicSharedMemorySize, smem);
        if (e != hipSuccess) return e;
#if defined(MLAB_NV)
        /* every kernel of the sequence asks for the largest shared-memory
         * carve-out, so the SMs need no L1/shared reconfiguration between
         * them (H200: fp8 1-3% faster, papers/perf-notes.md) */
        auto carve = [](const void *k) {
            return cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
        };
        for (const mla_combine_fn k : mla_combines<FAST>::plain)
            if ((e = carve((const void *)k)) != hipSuccess) return e;
        if ((e = carve((const void *)mla_q_amax)) != hipSuccess || (e = carve((const void *)dec)) != hipSuccess)
            return e;
        if constexpr (XCD)
            for (const mla_combine_fn k : mla_combines_xcd<FAST>::placed)
                if ((e = carve((const void *)k)) != hipSuccess) return e;
#if MLAB_HAVE_CLUSTER
        /* clusters of up to 16 blocks (the cluster merge; 8 is the portable limit) */
        if ((e = cudaFuncSetAttribute(dec, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)) != hipSuccess)
            return e;
#endif
#endif
        attr_set = true;
    }
    hipError_t e;
    const bool place = XCD && p->xcd_count > 1;
    const int grid = mlab_call_grid(p, XCD); /* capped for a persistent decode */
    /* the cluster merge: a row's split blocks one cluster (the runner sets
     * merge_cluster only for decodes that merge so, NVIDIA sm_90+) */
    const int cluster = p->merge_cluster ? p->splits : 1;
    const bool coop = p->splits > 1 && p->merge_inline == 2; /* the barrier merge */
    /* the decode blocks start their KV loads while the amax pass runs where
     * they fit beside its blocks (a few rows' pass); a wgmma decode block
     * otherwise waits for its SM's amax blocks (v27; v74 measured a pass
     * made to fit beside it, and dropped it) */
    if (q_fp8 && p->amax_blocks > 0) {
        mla_q_amax<<<p->amax_blocks, MLA_AMAX_T, 0, s>>>(*p);
        e = launch_ex(dec, grid, block, smem, s, p, true, cluster, coop);
    } else if (cluster > 1 || coop) {
        e = launch_ex(dec, grid, block, smem, s, p, false, cluster, coop);
    } else {
        dec<<<grid, block, smem, s>>>(*p);
        e = hipGetLastError();
    }
    const char *merged = p->splits <= 1           ? "none"
                         : p->merge_cluster == 2 ? "push"
                         : p->merge_cluster      ? "cluster"
                         : p->merge_inline == 2  ? "barrier"
                         : p->merge_inline       ? "inline"
                                                 : NULL;
    if (e == hipSuccess && p->splits > 1 && !p->merge_inline && !p->merge_cluster) {
        const int inst = combine_ahead<FAST>(p); /* the kernel launched and the name recorded */
        const int C = p->combine_chunks > 1 ? p->combine_chunks : 1; /* spread: C blocks a (row, head) */
        /* the name: the instance, then ".x2" / ".x4" where spread, ".cap" where capped */
        static const char *const names[5][4] = {{"combine", "combine16", "combine32", "combine64"},
                                                {"combine.x2", "combine16.x2", "combine32.x2", "combine64.x2"},
                                                {"combine.x4", "combine16.x4", "combine32.x4", "combine64.x4"},
                                                {"combine_xcd", "combine_xcd16", "combine_xcd32", "combine_xcd64"},
                                                {"combine.cap", "combine16.cap", "combine32.cap", "combine64.cap"}};
        merged = names[XCD && place ? 3 : C == 1 && p->combine_cap ? 4 : C >> 1][inst];
        if constexpr (XCD) /* (only fp8_xcd instantiates the placed combine) */
            if (place)
                e = launch_after(mla_combines_xcd<FAST>::placed[inst], mlab_xcd_grid(p->total_q, MLA_H, p->xcd_count),
                                 MLA_DV / 4, 0, s, p);
        if (!(XCD && place))
            e = launch_after(mla_combines<FAST>::plain[inst], p->total_q * MLA_H * C, MLA_DV / 4 / C,
                             combine_smem(p->total_q * MLA_H * C, C > 1, p->combine_cap != 0), s, p);
    }
    if (p->ran) { /* what ran: the merge, and the decode kernel's shared memory and footprint */
        snprintf(p->ran->merge, sizeof p->ran->merge, "%s", merged ? merged : "");
        p->ran->smem_bytes = smem;
        hipFuncAttributes a;
        if (hipFuncGetAttributes(&a, (const void *)dec) == hipSuccess) {
            p->ran->regs = a.numRegs;
            p->ran->local_bytes = (int)a.localSizeBytes;
        }
    }
    return e != hipSuccess ? e : hipGetLastError();
}

template <int KVF, bool FAST, bool XCD>
static hipError_t launch_decode(const mla_params *p, hipStream_t s)
{
    static bool attr_set = false;
    return launch_sequence<FAST, XCD>(mla_decode<KVF, FAST, XCD>, MLA_NT, mla_cfg<KVF>::SMEM, (KVF & 7) == KV_FP8, p,
                                      s, attr_set);
}

/* AMD: the decode configuration for this device. A build for MI300X/MI325X
 * (MLAB_AMD_LDS64) holds only the 64 KB one (KVF | MLA_KV_SMALL); a build for
 * MI355X holds both and takes the large one when the device's LDS (read as
 * the runner reads it, maxSharedMemoryPerMultiProcessor) holds it, else the
 * 64 KB one. NVIDIA: the one configuration (227 KB). */
#if defined(MLAB_AMD)
static int mlab_device_lds(void)
{
    static int lds = -1;
    if (lds < 0) {
        int d = 0;
        hipDeviceProp_t pr;
        lds = hipGetDevice(&d) == hipSuccess && hipGetDeviceProperties(&pr, d) == hipSuccess
                  ? (int)pr.maxSharedMemoryPerMultiProcessor : 0;
    }
    return lds;
}
template <int KVF> static bool mla_use_small(void)
{
    return MLAB_AMD_LDS64 || mlab_device_lds() < mla_cfg<KVF>::SMEM;
}
#endif
/* the least shared memory a variant of format KVF runs in (the runner's refusal) */
template <int KVF> constexpr int mla_smem_min(void)
{
#if defined(MLAB_AMD)
    return mla_cfg<KVF | MLA_KV_SMALL>::SMEM;
#else
    return mla_cfg<KVF>::SMEM;
#endif
}
/* the shared memory of the configuration launch_fit takes on this device */
template <int KVF> static int smem_fit(void)
{
#if defined(MLAB_AMD)
    if (mla_use_small<KVF>()) return mla_cfg<KVF | MLA_KV_SMALL>::SMEM;
#endif
    return mla_cfg<KVF>::SMEM;
}
template <int KVF, bool FAST, bool XCD> static int blocks_per_sm_fit(void)
{
#if defined(MLAB_AMD)
#if !MLAB_AMD_LDS64
    if (!mla_use_small<KVF>()) return blocks_per_sm_of<KVF, FAST, XCD>();
#endif
    return blocks_per_sm_of<KVF | MLA_KV_SMALL, FAST, XCD>();
#else
    return blocks_per_sm_of<KVF, FAST, XCD>();
#endif
}
template <int KVF, bool FAST, bool XCD> static hipError_t launch_fit(const mla_params *p, hipStream_t s)
{
#if defined(MLAB_AMD)
#if !MLAB_AMD_LDS64
    if (!mla_use_small<KVF>()) return launch_decode<KVF, FAST, XCD>(p, s);
#endif
    return launch_decode<KVF | MLA_KV_SMALL, FAST, XCD>(p, s);
#else
    return launch_decode<KVF, FAST, XCD>(p, s);
#endif
}

#endif
