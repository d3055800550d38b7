/* arch/nv_bulk.h: NVIDIA Hopper (sm_90+) bulk copies into shared memory with
 * transaction barriers, the vendor layer of the decode's BULK tile loads
 * (mla_kernel.h, mla_cfg::BULK: bf16 and a8w8 in 64-row tiles; builds with
 * -DMLAB_NO_BULK keep cp.async). Every instruction it needs is here, as
 * inline PTX.
 *
 * cp.async.bulk (the copy engine behind TMA, without a tensor map) copies a
 * run of bytes from global to shared memory and counts them on an mbarrier
 * in shared memory ("complete_tx"); a thread that armed the barrier with the
 * byte count it expects ("arrive.expect_tx") completes the phase once they
 * have all landed, and consumers wait for the phase's parity. A tile is
 * one copy a row (the rows are contiguous in global memory but padded in
 * shared memory), 8 lanes of each warp addressing one row each
 * (mla_kernel.h, load_stage_bulk), or one copy where the rows are not
 * padded: a few dozen instructions a warp and tile instead of a 16-byte
 * cp.async per chunk and thread.
 *
 * Memory order (PTX ISA, "Asynchronous operations", "mbarrier"): the bulk
 * copy writes through the async proxy; a completed mbarrier phase makes
 * those writes visible to threads that observed it with try_wait. Shared
 * memory read by the generic proxy (ldmatrix) and then overwritten by a
 * bulk copy needs fence.proxy.async between the two (mlab_bulk_fence, by
 * the issuing thread after the block barrier that ends the reads).
 * Barrier initialization is made visible to the async proxy by
 * fence.mbarrier_init before the block barrier that follows it.
 */
#ifndef MLAB_NV_BULK_H
#define MLAB_NV_BULK_H

#include "../mlab_hip.h"

/* in builds for sm_90+ (CMake defines MLAB_CLUSTER_BUILD for them), in their
 * device and host code alike (the host sizes the shared memory) */
#if defined(MLAB_NV) && defined(MLAB_CLUSTER_BUILD) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)
#define MLAB_HAVE_BULK 1
#else
#define MLAB_HAVE_BULK 0
#endif

#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
MLAB_DEV uint32_t mlab_bulk_smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
/* An L2 cache policy: every line a load or copy with it brings in is
 * evict_first, the first its set gives up: a streaming read's lines then
 * replace each other rather than the lines already there (the cold
 * protocol's memset leaves L2 full of dirty lines, each a write-back when
 * evicted; perf-notes v51). The decodes' KV copies take it where the call
 * asks (mla_params.kv_ef), the read-limit probe tries it (runner.hip) */
MLAB_DEV uint64_t mlab_l2_evict_first(void)
{
    uint64_t pol;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(pol));
    return pol;
}
/* one thread: the barrier at bar (8 bytes, 8-aligned) expects one arrival a phase */
MLAB_DEV void mlab_bulk_bar_init(uint64_t *bar)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(mlab_bulk_smem(bar)) : "memory");
}
/* after the inits, before the block barrier that publishes them */
MLAB_DEV void mlab_bulk_init_fence(void) { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
/* generic-proxy accesses of shared memory before, async-proxy writes after */
MLAB_DEV void mlab_bulk_fence(void) { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
/* one thread: arrive on bar, expecting bytes more to land in this phase */
MLAB_DEV void mlab_bulk_expect(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(mlab_bulk_smem(bar)), "r"(bytes)
                 : "memory");
}
/* bytes (a multiple of 16; both addresses 16-aligned) from src to dst, counted on bar; ef: the
 * lines evict_first in L2 (mlab_l2_evict_first) */
MLAB_DEV void mlab_bulk_copy(void *dst, const void *src, uint32_t bytes, uint64_t *bar, bool ef = false)
{
    if (ef)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                     " [%0], [%1], %2, [%3], %4;\n" ::"r"(mlab_bulk_smem(dst)),
                     "l"(src), "r"(bytes), "r"(mlab_bulk_smem(bar)), "l"(mlab_l2_evict_first())
                     : "memory");
    else
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                         mlab_bulk_smem(dst)),
                     "l"(src), "r"(bytes), "r"(mlab_bulk_smem(bar))
                     : "memory");
}
/* every thread that reads the copied bytes: wait until bar's phase of this parity completed */
MLAB_DEV void mlab_bulk_wait(uint64_t *bar, uint32_t parity)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "MLAB_BULK_WAIT:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra MLAB_BULK_WAIT;\n"
                 "}\n" ::"r"(mlab_bulk_smem(bar)),
                 "r"(parity)
                 : "memory");
}
/* The L2 prefetch and the direct loads below: WG_MX_DIRECT's (removed at
 * v46), kept for papers/microbench/mx_direct_read.cu; no decode uses them.
 * bytes (a multiple of 16; src 16-aligned) from src into L2, nothing counted
 * (cp.async.bulk.prefetch.L2: the copy engine warms L2 for loads to come) */
MLAB_DEV void mlab_bulk_prefetch_l2(const void *src, uint32_t bytes)
{
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(src), "r"(bytes) : "memory");
}
/* 16 bytes (16-aligned) and one byte of read-only global memory
 * (ld.global.nc), kept in L1 (NA = false: another warp may read the same
 * sector soon after) or not (NA = true, L1::no_allocate); volatile so that
 * they issue where written (a load ahead of its use) */
template <bool NA> MLAB_DEV uint4 mlab_ld_nc16(const void *src)
{
    uint4 v;
    if (NA)
        asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "l"(src));
    else
        asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "l"(src));
    return v;
}
/* 16 bytes of read-only global memory under L2 policy pol, not kept in L1 */
MLAB_DEV uint4 mlab_ld_nc16_pol(const void *src, uint64_t pol)
{
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(src), "l"(pol));
    return v;
}
template <bool NA> MLAB_DEV uint32_t mlab_ld_nc8(const void *src)
{
    uint32_t v;
    if (NA)
        asm volatile("ld.global.nc.L1::no_allocate.u8 %0, [%1];\n" : "=r"(v) : "l"(src));
    else
        asm volatile("ld.global.nc.u8 %0, [%1];\n" : "=r"(v) : "l"(src));
    return v;
}
#endif

#endif
