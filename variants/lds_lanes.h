/* lds_lanes.h: which LDS bytes each lane of a wave (64 lanes) addresses with
 * gfx950's two LDS instructions the decode kernel uses, as plain host/device
 * functions, so that tests/test_lds_lanes.c checks them on the CPU against
 * an emulation of each instruction (no AMD GPU is at hand).
 *
 * 1. global_load_lds_dwordx4 (KV tile staging, arch/amd_lds.h): one
 *    instruction of a wave writes 64 x 16 contiguous bytes of LDS, lane l at
 *    the wave's base + 16 l. The staged tile (BN rows, RAW_ROW bytes apart,
 *    ROW_BYTES of data a row and the rest padding) is cut into 16-byte
 *    chunks in LDS order; instruction n of the tile covers chunks 64 n ..
 *    64 n + 63, so lane l of it owns chunk 64 n + l: a data chunk (row r,
 *    chunk k < ROW_BYTES / 16) loads row r's k-th 16 bytes, a padding chunk
 *    or one past the tile loads nothing. Rows past the sequence end are
 *    written as zeros by an ordinary LDS store, never read from memory.
 *
 * 2. ds_read_b64_tr_b16 / ds_read_b64_tr_b8 (V as the B operand of P.V,
 *    arch/amd_mfma.h). Each 16-lane group of the wave works alone. tr_b16:
 *    lane i of the group reads 4 consecutive 16-bit elements at its address;
 *    the group's 16 reads form a 4 x 16 tile whose row j, columns 4c .. 4c+3
 *    are lane 4 j + c's; after the transpose lane i holds column i: item j
 *    (bits 16 j ..) = tile row j. tr_b8: 8 bytes a lane, an 8 x 16 tile whose
 *    row j, columns 8c .. 8c+7 are lane 2 j + c's; lane i gets column i, item
 *    j (byte j) = row j. (AMD's CDNA4 ISA guide, "MFMA transpose load from
 *    LDS"; the same lane grouping is composable_kernel's ck_tile
 *    LaneGroupTransposeTraits and Triton's CDNA4 LDSTransLoadParams: 16-lane
 *    shuffle groups, 64 bits a lane.) The helpers below give lane l the
 *    address that makes the transposed result the MFMA B operand
 *    (mfma_lanes.h: item j of lane l = V[8 (l / 16) + j][l % 16]).
 */
#ifndef MLAB_LDS_LANES_H
#define MLAB_LDS_LANES_H

#include "mlab_hd.h" // MLAB_HD

/* ---- 1. LDS DMA: chunk 64 n + l of a staged tile ---- */
/* chunks of 16 bytes in a staged tile, and wave instructions to cover them */
MLAB_HD int mlab_dma_chunks(int bn, int raw_row) { return bn * (raw_row / 16); }
MLAB_HD int mlab_dma_insns(int bn, int raw_row) { return (mlab_dma_chunks(bn, raw_row) + 63) / 64; }
/* lane l of instruction n: the staged row and 16-byte chunk it owns, or
 * *row = -1 for a padding chunk or a chunk past the tile (nothing to load) */
MLAB_HD void mlab_dma_lane(int n, int l, int bn, int raw_row, int row_bytes, int *row, int *chunk)
{
    const int c = 64 * n + l, rch = raw_row / 16;
    *row = -1, *chunk = 0;
    if (c >= bn * rch || c % rch >= row_bytes / 16)
        return;
    *row = c / rch, *chunk = c % rch;
}

/* ---- 2. transposing reads of V (row-major [kv row][column], ldv bytes) ----
 * the byte offset lane l reads at, from the V element (kk, 16 t) of a 32-row
 * step: tr_b16, half h (items 4h .. 4h+3 of the 8-item bf16 operand) */
MLAB_HD int mlab_tr16_off(int l, int h, int ldv)
{
    const int g = l >> 4, i = l & 15;
    return (8 * g + 4 * h + (i >> 2)) * ldv + 2 * 4 * (i & 3);
}
/* tr_b8: the 8 fp8 codes of the 16x16x32 fp8 B operand in one read */
MLAB_HD int mlab_tr8_off(int l, int ldv)
{
    const int g = l >> 4, i = l & 15;
    return (8 * g + (i >> 1)) * ldv + 8 * (i & 1);
}

#endif
