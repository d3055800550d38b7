/* arch/amd_lds.h: gfx950's (MI355X) LDS instructions, behind neutral helpers
 * the shared decode logic calls:
 *   - global_load_lds_dwordx4: global memory -> LDS without VGPRs,
 *     asynchronous (counted by vmcnt), 16 bytes a lane at the wave's LDS
 *     base + 16 lane; stages the KV tiles (mla_kernel.h, load_stage)
 *   - s_waitcnt vmcnt(0): mlab_cp_wait's AMD half (mlab_hip.h), so the
 *     staging pipeline waits for those loads
 *   - ds_read_b64_tr_b16 / ds_read_b64_tr_b8: LDS reads that transpose
 *     within 16-lane groups; V's B operand of P.V (arch/amd_mfma.h)
 * The overlap, as compiled (clang 22): clang puts vmcnt(0) before every
 * __syncthreads, whose workgroup release fence covers LDS written by DMA, so
 * the next tile's staging (issued after a tile's first barrier) overlaps
 * that tile's Q.K^T and has landed by its second barrier. A barrier with an
 * LDS-only wait (s_waitcnt lgkmcnt(0); s_barrier) was tried there: clang's
 * waitcnt pass then waits before the softmax's first LDS read instead (it
 * cannot tell S from the staged rows), so it was not kept.
 * Lane maps: ../lds_lanes.h, checked by tests/test_lds_lanes.c. gfx942 has
 * neither the dwordx4 LDS DMA nor the transposing reads: there nothing here
 * is defined and the callers keep their plain loads. Included by mlab_hip.h
 * (AMD only). */
#ifndef MLAB_ARCH_AMD_LDS_H
#define MLAB_ARCH_AMD_LDS_H

#include "../lds_lanes.h" // mlab_dma_lane, mlab_tr16_off, mlab_tr8_off

#define MLAB_LDS_AS __attribute__((address_space(3)))
#define MLAB_GLOBAL_AS __attribute__((address_space(1)))

#if defined(__gfx950__) && __has_builtin(__builtin_amdgcn_global_load_lds)
#define MLAB_LDS_DMA 1 /* KV tiles staged by global_load_lds_dwordx4 */
#endif
#if defined(__gfx950__) && __has_builtin(__builtin_amdgcn_ds_read_tr16_b64_v4i16) && \
    __has_builtin(__builtin_amdgcn_ds_read_tr8_b64_v2i32)
#define MLAB_LDS_TR 1 /* V read by ds_read_b64_tr_b16 / _b8 */
#endif

#ifdef MLAB_LDS_DMA
/* s_waitcnt vmcnt(0): this wave's vector memory loads, the LDS DMA among
 * them, have landed. gfx9 encoding: vmcnt bits 3:0 and 15:14 (0), expcnt
 * 6:4 and lgkmcnt 11:8 at their maximum (7, 15: no wait on those). */
MLAB_DEV void mlab_amd_wait_vm0(void) { __builtin_amdgcn_s_waitcnt(0x0F70); }

/* BN rows of ROW_BYTES from global memory (row r at src + r ROW_BYTES) into
 * a staged tile in LDS (row r - r0 at dst + (r - r0) RAW_ROW), rows r0 ..
 * r0 + BN - 1, by the block's NT / 64 waves: wave w issues instructions w,
 * w + NT / 64, ... (lds_lanes.h: lane l of instruction n owns chunk 64 n + l).
 * Rows at or past rend are zeros, written by a plain LDS store: their
 * memory (poisoned past the sequence end) is never read. dst must be
 * 16-byte aligned; the loads are in flight until mlab_amd_wait_vm0. */
template <int BN, int RAW_ROW, int ROW_BYTES, int NT>
MLAB_DEV void mlab_lds_dma_rows(uint8_t *dst, const uint8_t *src, int r0, int rend)
{
    static_assert(RAW_ROW % 16 == 0 && ROW_BYTES % 16 == 0 && ROW_BYTES <= RAW_ROW, "amd_lds.h: 16-byte chunks");
    constexpr int NI = (BN * (RAW_ROW / 16) + 63) / 64; /* = mlab_dma_insns(BN, RAW_ROW) */
    const int l = threadIdx.x & 63;
    /* not unrolled: unrolled, each instruction's lane map stays live across the
     * tile loop (mxfp4_e4m3's 64 KB kernel: 81 VGPRs, not 75, one wave less) */
#pragma unroll 1
    for (int n = threadIdx.x / 64; n < NI; n += NT / 64) { /* n: the same in the whole wave */
        int r, k;
        mlab_dma_lane(n, l, BN, RAW_ROW, ROW_BYTES, &r, &k);
        if (r < 0)
            continue; /* padding: left as it is */
        if (r0 + r < rend)
            __builtin_amdgcn_global_load_lds((MLAB_GLOBAL_AS void *)(void *)(src + (size_t)(r0 + r) * ROW_BYTES + 16 * k),
                                             (MLAB_LDS_AS void *)(void *)(dst + 1024 * n), 16, 0, 0);
        else
            *(uint4 *)(dst + 1024 * n + 16 * l) = make_uint4(0, 0, 0, 0);
    }
}
#endif

#ifdef MLAB_LDS_TR
typedef __attribute__((ext_vector_type(4))) short mlab_tr_s4;
typedef __attribute__((ext_vector_type(2))) int mlab_tr_i2;
/* ds_read_b64_tr_b16 at p (8-byte aligned LDS): the 64 result bits,
 * item j (bits 16 j ..) = row j of the group's 4 x 16 tile (lds_lanes.h) */
MLAB_DEV uint64_t mlab_lds_tr16(const uint8_t *p)
{
    const mlab_tr_s4 v = __builtin_amdgcn_ds_read_tr16_b64_v4i16((MLAB_LDS_AS mlab_tr_s4 *)(void *)p);
    return __builtin_bit_cast(uint64_t, v);
}
/* ds_read_b64_tr_b8 at p: byte j = row j of the group's 8 x 16 tile */
MLAB_DEV uint64_t mlab_lds_tr8(const uint8_t *p)
{
    const mlab_tr_i2 v = __builtin_amdgcn_ds_read_tr8_b64_v2i32((MLAB_LDS_AS mlab_tr_i2 *)(void *)p);
    return __builtin_bit_cast(uint64_t, v);
}
#endif

#endif
