/* arch/nv_tma.h: NVIDIA Hopper (sm_90+) tensor copies (TMA with a tensor
 * map) of whole fp8 KV tiles into 64-byte swizzled panels, the vendor layer of
 * the decode's TMAP tile loads (mla_kernel.h, mla_cfg::TMAP: the a8w8 family
 * in 64-row tiles), and of whole bf16 tiles into 128-byte swizzled panels
 * (bf16_wgmma: mlab_sw128, mlab_tma_tile_sw128, a map of the bf16 cache). Every instruction it needs is here, as inline PTX, and
 * the host's tensor-map encoding (the driver's cuTensorMapEncodeTiled, found
 * at run time through the runtime: no link-time libcuda dependency).
 *
 * Why: the row-by-row bulk copies (arch/nv_bulk.h) cost every warp ~90 issued
 * instructions a tile (a bulk copy takes warp-uniform operands, so the
 * compiler loops over the issuing lanes), ~18% of the fp8 decode's; and the
 * rows cannot land as one copy because shared rows must be padded for
 * conflict-free ldmatrix. A tensor copy lands a box of 64 rows x 64 bytes
 * with the 16-byte chunks of each row permuted ("64-byte swizzle"), which is
 * what the padding was for: 9 copies a tile, issued by one thread.
 *
 * The panel layout (mlab_sw64): the tile's row r, bytes 64 p .. 64 p + 63 are
 * panel p (4 KB, 64 rows x 64 bytes, 512-byte aligned: the swizzle is a
 * function of the shared address), row r at 64 r in it, its 16-byte chunk c
 * at chunk c ^ ((r >> 1) & 3). Eight consecutive rows at one chunk then fill
 * the 32 banks once: ldmatrix of 8 rows x 16 bytes is conflict-free.
 *
 * The map (128 bytes) is encoded on the host once a case is loaded, as a
 * serving engine plans a decode step, and copied to global memory
 * (mla_params.kv_tmap): a kernel parameter would have to be
 * __grid_constant__ and 64-byte aligned in the parameter block.
 *
 * Memory order: as arch/nv_bulk.h (the copies complete_tx on the stage's
 * mbarrier; fence.proxy.async by the issuing thread after the block barrier
 * that ends the stage's generic reads). Partial tiles (a row's last, where
 * rows past the sequence end must not be read) and builds whose driver
 * cannot encode a map take 16-byte cp.async by every thread into the same
 * layout, zero-filled past the end, each thread's copies arriving on the
 * same mbarrier (cp.async.mbarrier.arrive.noinc): the barrier counts every
 * thread of the block, and a tensor-copied tile has every thread arrive.
 */
#ifndef MLAB_NV_TMA_H
#define MLAB_NV_TMA_H

#include "nv_bulk.h"
#include "nv_swizzle.h" // mlab_sw64, mlab_sw128: the panels' layouts

/* builds with the tensor-copy stages (mla_cfg::TMAP; -DMLAB_NO_TMAP or
 * -DMLAB_NO_BULK builds without), in device and host code alike (the host
 * sizes the shared memory and records the build's knobs) */
#if MLAB_HAVE_BULK && !defined(MLAB_NO_BULK) && !defined(MLAB_NO_TMAP)
#define MLAB_HAVE_TMAP 1
#else
#define MLAB_HAVE_TMAP 0
#endif

/* the panels' layouts: mlab_sw64, mlab_sw128 (plain host/device: nv_swizzle.h) */

#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
/* one thread: the box at (byte x, row y) of the map (global memory) into dst (512-aligned), counted on bar */
MLAB_DEV void mlab_tma_load_2d(void *dst, const void *map, int x, int y, uint64_t *bar, bool ef = false)
{
    if (ef) /* the box's lines evict_first in L2 (arch/nv_bulk.h mlab_l2_evict_first) */
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint"
                     " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(mlab_bulk_smem(dst)),
                     "l"((unsigned long long)map), "r"(x), "r"(y), "r"(mlab_bulk_smem(bar)), "l"(mlab_l2_evict_first())
                     : "memory");
    else
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(mlab_bulk_smem(dst)),
                     "l"((unsigned long long)map), "r"(x), "r"(y), "r"(mlab_bulk_smem(bar))
                     : "memory");
}
/* one thread: a whole tile of 64 rows (rows y .. y + 63 of the map) into dst as 9 swizzled panels of
 * PANEL bytes, each a box W bytes wide; the fence orders the block's earlier generic-proxy reads of dst
 * (ended by a barrier) before the copies. G > 1 (mla_wgmma.h WG_LAND_GATES): the panels land on G
 * mbarriers, panel q on gate q G / 9 (bar + j * gstride, armed with its panels' bytes only), so a
 * reader may start on the first panels while the last are in flight; G = 1: all 9 on bar */
/* gate j's panels 9j / G .. 9(j + 1) / G - 1 are the panels q with q G / 9 == j, the rule a reader of
 * the gates uses (mla_wgmma.h wg_scores) */
constexpr bool mlab_gates_agree(int G)
{
    for (int q = 0; q < 9; q++)
        if (q * G / 9 != q / (9 / G)) return false;
    return true;
}
static_assert(mlab_gates_agree(1) && mlab_gates_agree(3) && mlab_gates_agree(9), "a panel's gate, both ways");
template <int PANEL, int W, int G>
MLAB_DEV void mlab_tma_tile_panels(uint8_t *dst, const void *map, int y, uint64_t *bar, int gstride, bool ef)
{
    static_assert(9 % G == 0, "whole panels a gate");
    mlab_bulk_fence();
#pragma unroll
    for (int j = 0; j < G; j++) {
        mlab_bulk_expect(bar + j * gstride, 9u / G * PANEL);
#pragma unroll
        for (int q = 9 / G * j; q < 9 / G * (j + 1); q++) /* q G / 9 == j */
            mlab_tma_load_2d(dst + q * PANEL, map, W * q, y, bar + j * gstride, ef);
    }
}
/* a tile of 64 fp8 rows (576 bytes each) in the 64-byte swizzle: the a8w8 core's stages and fp8_wgmma's */
template <int G = 1>
MLAB_DEV void mlab_tma_tile_sw64(uint8_t *dst, const void *map, int y, uint64_t *bar, int gstride = 0, bool ef = false)
{
    mlab_tma_tile_panels<MLAB_SW64_PANEL, 64, G>(dst, map, y, bar, gstride, ef);
}
/* the same for a tile of 64 bf16 rows (1152 bytes each) as 9 panels in the 128-byte swizzle (mlab_sw128) */
template <int G = 1>
MLAB_DEV void mlab_tma_tile_sw128(uint8_t *dst, const void *map, int y, uint64_t *bar, int gstride = 0, bool ef = false)
{
    mlab_tma_tile_panels<MLAB_SW128_PANEL, 128, G>(dst, map, y, bar, gstride, ef);
}
/* one thread: fetch the map's 128 bytes into the copy engine's descriptor cache ahead of its first use */
MLAB_DEV void mlab_tma_prefetch(const void *map)
{
    asm volatile("prefetch.tensormap [%0];\n" ::"l"((unsigned long long)map) : "memory");
}
/* one thread: arrive on bar (no bytes expected) */
MLAB_DEV void mlab_bar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(mlab_bulk_smem(bar)) : "memory");
}
/* this thread's earlier cp.async copies arrive on bar once they have landed (one arrival) */
MLAB_DEV void mlab_cp_arrive(uint64_t *bar)
{
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(mlab_bulk_smem(bar)) : "memory");
}
/* one thread: the barrier at bar expects n arrivals a phase */
MLAB_DEV void mlab_bar_init_n(uint64_t *bar, int n)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(mlab_bulk_smem(bar)), "r"(n) : "memory");
}
#endif

#if MLAB_HAVE_BULK /* host code (seen by the device passes too) */
#include <cuda.h> /* the tensor-map types and enums (declarations only) */
/* host: a map of rows x row_bytes bytes at base (row-major, 16-aligned), boxes
 * of box_bytes (64: the fp8 tiles' 64-byte swizzle; 128: the bf16 tiles'
 * 128-byte swizzle) x 64 rows, L2 promotion of l2 bytes (128, 256 or 0:
 * none). 0 when encoded, else -1 (the driver lacks the entry point or refused
 * the shape: the kernel then takes its cp.async path into the same layout).
 *
 * The promotion (the runner's MLAB_TMAP_L2, default 128): on the H200 the
 * 256-byte promotion, which these maps used until v22, streamed a ring of
 * such tiles at ~91% of the rate of plain bulk copies of the same bytes,
 * 128 at 99-100%, none at 81% for the 64-byte boxes and 100% for the 128-byte
 * ones (papers/microbench/tma_order.cu, 1200 MB: 4057 / 4445 / 3638 GB/s
 * against 4471; perf-notes v22) */
static inline __host__ int mlab_tmap_rows(CUtensorMap *map, const void *base, unsigned long long rows, unsigned row_bytes,
                                          unsigned box_bytes = 64, unsigned l2 = 128)
{
    typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || q != cudaDriverEntryPointSuccess || !fn || rows == 0)
        return -1;
    const cuuint64_t dim[2] = {row_bytes, rows}, stride[1] = {row_bytes};
    const cuuint32_t box[2] = {box_bytes, 64}, estride[2] = {1, 1};
    return ((encode_fn)fn)(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, (void *)base, dim, stride, box, estride,
                           CU_TENSOR_MAP_INTERLEAVE_NONE,
                           box_bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
                           l2 == 256   ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                           : l2 == 128 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
                                       : CU_TENSOR_MAP_L2_PROMOTION_NONE,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS
               ? 0 : -1;
}
#endif

#endif
