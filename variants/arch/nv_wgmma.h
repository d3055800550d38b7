/* arch/nv_wgmma.h: NVIDIA Hopper (sm_90a) warpgroup matrix instructions, the
 * vendor layer of variants/mla_wgmma.h. Every instruction the wgmma kernel
 * needs is here, as inline PTX; the decode logic calls these helpers only.
 * Compiled only where __CUDA_ARCH_FEAT_SM90_ALL is defined (nvcc -arch
 * sm_90a); elsewhere the header defines MLAB_HAVE_WGMMA 0 and nothing else.
 *
 * Operand layouts (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply"):
 * - shared-memory operands are described by a 64-bit descriptor; mlabench
 *   uses the no-swizzle ("interleave") canonical K-major layout: the operand
 *   is cut into core matrices of 8 rows x 16 bytes, each stored as 128
 *   contiguous bytes (row i at +16 i); LBO is the byte distance between core
 *   matrices adjacent along K, SBO between core matrices adjacent along M (or
 *   N). A 16-byte cp.async of (row r, 16-byte chunk c) lands in such a layout
 *   directly at c * LBO + (r / 8) * SBO + (r % 8) * 16.
 * - 16-bit (bf16) operands may be K-major or MN-major (the transpose bit);
 *   mlabench's bf16 tiles use the 128-byte swizzle (wg_desc_sw128).
 * - fp8 (e4m3) operands must be K-major in shared memory; A may instead come
 *   from registers, 4 per thread per m64 x k32 step, the mma.m16n8k32 A
 *   fragment of the thread's warp (warp w: rows 16 w .. 16 w + 15): with
 *   g = lane / 4, t = lane % 4: a0 = (row g, k 4t..4t+3), a1 = (row g + 8,
 *   k 4t..), a2 = (row g, k 16+4t..), a3 = (row g + 8, k 16+4t..).
 * - the f32 accumulator of m64nN: d[4 j + 2 h + e] = (row 16 w + g + 8 h,
 *   column 8 j + 2 t + e), j < N / 8.
 * These maps are checked against the CPU on the GPU by tests/gpu_wgmma_maps.cu.
 */
#ifndef MLAB_NV_WGMMA_H
#define MLAB_NV_WGMMA_H

#include "../mlab_hip.h"

#if defined(MLAB_NV) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MLAB_HAVE_WGMMA 1

/* Descriptor of a no-swizzle K-major operand starting at smem (16-byte
 * aligned): lbo = bytes between core matrices along K, sbo = along M/N. */
MLAB_DEV uint64_t wg_desc(const void *smem, uint32_t lbo, uint32_t sbo)
{
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFF) >> 4) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3FFF) << 32); /* base offset 0, swizzle 0 (none) */
}
/* Descriptor of a K-major operand in the 64-byte swizzle (TMA's
 * CU_TENSOR_MAP_SWIZZLE_64B, arch/nv_tma.h mlab_sw64): rows of 64 bytes, sbo
 * = bytes between 8-row groups (512 for contiguous rows); the leading offset
 * is unused (the k extent of a product, 32 bytes, is within a row). A k step
 * inside the 64-byte row advances the start address (wg_desc_add). The
 * operand must start 512-aligned but for that advance (swizzle phase 0). */
MLAB_DEV uint64_t wg_desc_sw64(const void *smem, uint32_t sbo)
{
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)((sbo >> 4) & 0x3FFF) << 32) |
           ((uint64_t)2 << 62); /* layout type 2: 64-byte swizzle */
}
/* Descriptor of an operand in the 128-byte swizzle (TMA's
 * CU_TENSOR_MAP_SWIZZLE_128B, arch/nv_tma.h mlab_sw128: rows of 128 bytes,
 * row r's 16-byte chunk c at chunk c ^ (r % 8), 1024-aligned panels of 8
 * rows and more). sbo: bytes between 8-row groups (1024 for contiguous
 * rows). lbo: K-major, unused (a product's k extent, 32 bytes of bf16, is
 * within a row: a k step advances the start address); MN-major (a
 * transposed 16-bit operand: the 64 elements of a row are 64 values of M
 * at one k), bytes between such 64-element groups along M. The canonical
 * layouts (PTX ISA, "Matrix Descriptor"; in elements of 16 bytes' worth T):
 * K-major ((8,m),(T,2k)):((8T,SBO),(1,T)), MN-major ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)). */
MLAB_DEV uint64_t wg_desc_sw128(const void *smem, uint32_t lbo, uint32_t sbo)
{
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFF) >> 4) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3FFF) << 32) | ((uint64_t)1 << 62); /* layout type 1: 128-byte swizzle */
}
/* the descriptor advanced by bytes (start address field: 16-byte units) */
MLAB_DEV uint64_t wg_desc_add(uint64_t d, uint32_t bytes) { return d + (bytes >> 4); }

/* Keep the compiler from moving accesses of an accumulator across the
 * asynchronous instructions that write it. */
MLAB_DEV void wg_fence_acc(float &r) { asm volatile("" : "+f"(r)::"memory"); }

/* Before the first wgmma that reads registers or accumulators written by
 * ordinary instructions. */
MLAB_DEV void wg_fence(void) { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
MLAB_DEV void wg_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> MLAB_DEV void wg_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
/* Shared memory written by ordinary stores (or cp.async, completed) made
 * visible to the async proxy that wgmma reads it through; then a barrier. */
MLAB_DEV void wg_fence_smem(void) { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

/* Named barriers (ids 1..15; 0 is __syncthreads): sync waits until n threads
 * (a multiple of 32) have arrived or synced on id; arrive counts this warp
 * and goes on. Both order shared-memory accesses like __syncthreads. */
MLAB_DEV void wg_bar_sync(int id, int n) { asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(n) : "memory"); }
MLAB_DEV void wg_bar_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(n) : "memory"); }

/* Move registers between warpgroups (all threads of the warpgroup): the
 * producer gives some back, the consumers take them (sm_90a setmaxnreg). */
template <int N> MLAB_DEV void wg_regs_dec(void) { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N)); }
template <int N> MLAB_DEV void wg_regs_inc(void) { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N)); }

/* D[64 x 16] (+)= A[64 x 32] . B[32 x 16], e4m3 x e4m3 -> f32, both from
 * shared memory. acc: 0 = overwrite D, 1 = accumulate. */
MLAB_DEV void wg_e4m3_ss_n16(float (&d)[8], uint64_t da, uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                   "+f"(d[7])
                 : "l"(da), "l"(db), "r"(acc));
}
/* The same with A from registers (the fragment above). */
MLAB_DEV void wg_e4m3_rs_n16(float (&d)[8], const uint32_t (&a)[4], uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                   "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
}

/* D[64 x 32] (+)= A[64 x 32] . B[32 x 32], e4m3: the _qrow decodes' MTP
 * unit (an item's two query rows, 16 heads each, as N = 32), from shared
 * memory, then with A from registers */
MLAB_DEV void wg_e4m3_ss_n32(float (&d)[16], uint64_t da, uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                   "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
                   "+f"(d[14]), "+f"(d[15])
                 : "l"(da), "l"(db), "r"(acc));
}
MLAB_DEV void wg_e4m3_rs_n32(float (&d)[16], const uint32_t (&a)[4], uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19}, %20, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                   "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
                   "+f"(d[14]), "+f"(d[15])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
}

/* D[64 x 16] (+)= A[64 x 16] . B[16 x 16], bf16 x bf16 -> f32, both from
 * shared memory; B K-major; A K-major (TA = 0) or MN-major (TA = 1: the
 * transpose bit, 16-bit types only: A^T as stored, e.g. V^T read from V's
 * rows). acc: 0 = overwrite D, 1 = accumulate. */
template <int TA> MLAB_DEV void wg_bf16_ss_n16(float (&d)[8], uint64_t da, uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, %11, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                   "+f"(d[7])
                 : "l"(da), "l"(db), "r"(acc), "n"(TA));
}

/* the same with N = 8 (bf16_wgmma's head split: a consumer's 8 heads) */
template <int TA> MLAB_DEV void wg_bf16_ss_n8(float (&d)[4], uint64_t da, uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
                 "{%0,%1,%2,%3}, %4, %5, p, 1, 1, %7, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db), "r"(acc), "n"(TA));
}

/* The A fragment of K (M = 16 kv rows of this warp, K = 32 dims = two
 * 16-byte chunks) from a K-major fp8 tile: one ldmatrix.x4 (matrices: rows
 * 0-7 and 8-15 of the first chunk, then of the second) gives lane (g, t) the
 * codes K[g][4t..4t+3], K[g+8][..], K[g][16+4t..], K[g+8][16+4t..]: the
 * fragment as it is. row: the address of this lane's row and chunk:
 * row (l & 7) + 8 ((l >> 3) & 1), chunk l >> 4. */
MLAB_DEV void wg_k_frag(uint32_t (&a)[4], const void *row)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"((uint32_t)__cvta_generic_to_shared(row)));
}

/* The A fragment of V^T (M = 16 dims of one 16-byte chunk, K = 32 kv rows)
 * from a K-major fp8 tile: ldmatrix.trans on byte pairs gives lane (g, t)
 * x_i = bytes (V[8i + 2t][2g], V[8i + 2t][2g + 1], V[8i + 2t + 1][2g],
 * V[8i + 2t + 1][2g + 1]) of rows block i; two byte permutes per pair of
 * blocks split the two dims. Result: fragment row g <-> dim 2g, row g + 8 <->
 * dim 2g + 1; fragment k 4t + j (+16) <-> kv row wg_vrow(4t + j) (+16).
 * rows: the address of kv row (lane) of the 32, at the chunk. */
MLAB_DEV void wg_vt_frag(uint32_t (&a)[4], const void *rows)
{
    uint32_t x[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                 : "r"((uint32_t)__cvta_generic_to_shared(rows)));
    a[0] = __byte_perm(x[0], x[1], 0x6420);
    a[1] = __byte_perm(x[0], x[1], 0x7531);
    a[2] = __byte_perm(x[2], x[3], 0x6420);
    a[3] = __byte_perm(x[2], x[3], 0x7531);
}
#else
#define MLAB_HAVE_WGMMA 0
#endif

/* The k order of wg_vt_frag, usable on the host too: fragment k (0..31) of
 * a 32-row step holds kv row wg_vrow(k); wg_vslot is its inverse. */
static inline __host__ __device__ int wg_vrow(int k)
{
    const int j = k & 3, t = (k >> 2) & 3;
    return (k & 16) + 8 * (j >> 1) + 2 * t + (j & 1);
}
static inline __host__ __device__ int wg_vslot(int r)
{
    const int r16 = r & 15;
    return (r & 16) + 4 * ((r16 & 7) >> 1) + 2 * (r16 >> 3) + (r16 & 1);
}
/* the dim of accumulator row m (0..15) of a chunk: rows g <-> 2g, g + 8 <-> 2g + 1 */
static inline __host__ __device__ int wg_vdim(int m) { return m < 8 ? 2 * m : 2 * (m - 8) + 1; }

#endif
