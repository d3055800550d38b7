/* arch/nv_cluster.h: NVIDIA Hopper (sm_90+) thread-block clusters, the vendor
 * layer of the decode's cluster merges (mla_kernel.h, cluster_merge, which
 * pulls its peers' results, and cluster_push, whose blocks send theirs).
 * Every instruction they need is here, as inline PTX.
 *
 * A cluster is a group of blocks the GPU runs at the same time on one GPC;
 * each block can read the others' shared memory ("distributed shared
 * memory") by an address that mapa gives for a peer's rank. mlabench makes a
 * query row's split blocks one cluster (launch_common.h), so the row's
 * partial results never leave the SMs.
 *
 * Memory order (PTX ISA, "Parallel synchronization and communication
 * instructions: barrier.cluster"): barrier.cluster.arrive.release orders
 * every shared-memory write the thread made before it; wait.acquire orders
 * every read after it; a cluster barrier completes when every thread of
 * every block of the cluster has arrived. So a block's partial O, max and
 * sum, stored to its own shared memory before mlab_cluster_sync, are seen
 * by every peer's ld.shared::cluster after its mlab_cluster_sync. A block's
 * shared memory exists until the block exits: a second mlab_cluster_sync
 * after the reads keeps every block alive until its peers have read it.
 *
 * MLAB_HAVE_CLUSTER is 1 in builds with the one-launch merges
 * (-DMLAB_ONE_LAUNCH=ON: the cluster merge measured no faster than the
 * combine kernel on the H200, papers/perf-notes.md v9) for sm_90+ (CMake
 * defines MLAB_CLUSTER_BUILD), in their device and host code; 0 elsewhere
 * (AMD has no clusters: the combine kernel merges there).
 */
#ifndef MLAB_NV_CLUSTER_H
#define MLAB_NV_CLUSTER_H

#include "../mlab_hip.h"

#if defined(MLAB_NV) && defined(MLAB_ONE_LAUNCH) && defined(MLAB_CLUSTER_BUILD) && \
    (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)
#define MLAB_HAVE_CLUSTER 1
#else
#define MLAB_HAVE_CLUSTER 0
#endif

/* the largest cluster mlabench launches: 16 blocks (sm_90's non-portable
 * limit; 8 is the portable one). A row with more splits is merged by the
 * combine kernel. */
#define MLAB_CLUSTER_MAX 16

#if MLAB_HAVE_CLUSTER && defined(__CUDA_ARCH__)
/* every thread of every block of the cluster: shared-memory writes before,
 * reads after (release / acquire, see above) */
MLAB_DEV void mlab_cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
/* this block's rank in its cluster */
MLAB_DEV unsigned mlab_cluster_rank(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
/* the cluster address of the same shared-memory location in block `rank`.
 * The loads below are volatile (kept in program order with the barriers,
 * which clobber memory) but do not clobber memory themselves, so a
 * thread's loads are issued back to back. */
MLAB_DEV uint32_t mlab_cluster_map(const void *smem, unsigned rank)
{
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}
MLAB_DEV float mlab_cluster_ld_f32(uint32_t addr)
{
    float v;
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(addr));
    return v;
}
MLAB_DEV float4 mlab_cluster_ld_f32x4(uint32_t addr)
{
    float4 v;
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(addr));
    return v;
}
/* the cluster barrier in two halves (the push merge, mla_kernel.h
 * cluster_push): arrive (release: this thread's shared-memory writes
 * before it) now, wait (acquire) later, other work between */
MLAB_DEV void mlab_cluster_arrive(void) { asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory"); }
MLAB_DEV void mlab_cluster_wait(void) { asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory"); }
/* a store into a peer's shared memory (addr from mlab_cluster_map) that
 * counts its bytes on the peer's mbarrier (bar, mapped the same way): the
 * peer's wait on that mbarrier sees the data (st.async, complete_tx) */
MLAB_DEV void mlab_cluster_st_async_f32x4(uint32_t addr, float4 v, uint32_t bar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];"
                 ::"r"(addr), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w), "r"(bar) : "memory");
}
MLAB_DEV void mlab_cluster_st_async_f32x2(uint32_t addr, float a, float b, uint32_t bar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];"
                 ::"r"(addr), "f"(a), "f"(b), "r"(bar) : "memory");
}
#endif

#endif
