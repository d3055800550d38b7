/* smem_lanes.h: which item each lane of a pass through shared memory takes
 * (the MXFP4 tile passes' (row, block) items),
 * chosen so that its shared-memory accesses are free of bank conflicts on
 * NVIDIA GPUs; plain host/device functions, so that tests/test_smem_lanes.c
 * checks on the CPU that every item is taken once and counts the
 * wavefronts each warp instruction costs under the model
 * below (no GPU at hand; ncu's shared wavefront counts on the H200 agreed
 * with it: papers/reports/h200-2026-12-02w).
 *
 * The model (NVIDIA since Volta): 32 banks of 4 bytes; a warp instruction
 * of W bytes a lane is served 128 / W lanes at a time when W > 4 (a quarter
 * warp for 16 bytes, a half warp for 8, the whole warp for 4 or fewer), and
 * each group costs as many wavefronts as the most distinct 4-byte words any
 * one bank holds among its addresses. A warp's 16-byte access is at best 4
 * wavefronts (512 bytes), an 8-byte access 2.
 *
 * A tile pass reads raw rows of MLA_FP4_ROW = 288 bytes (18 slots of 16
 * bytes, so rows r and r + 4 share a slot position) and writes codes into
 * rows whose stride or swizzle the consumers fix. A thread keeping one row
 * and stepping through its blocks lets its loop use one base and constant
 * offsets; which row goes to which lane sets the conflicts:
 *   - mlab_mx_prod_item (mxfp4_wgmma's producers, mla_wgmma.h
 *     wg_produce_mx): 128 threads, 64 rows x 18 blocks; thread t takes row
 *     r and blocks h, h + 2, .., h + 16. A quarter warp takes rows {0..3,
 *     8..11} (+ 4 j: lane bits 2 and 3 swapped) and h flips with row bit 3,
 *     so its raw loads hit 8 slots and its stores into the 64-byte-swizzled
 *     panels too (the swizzle XORs the chunk with row bits 1-2). Before v23
 *     (r = t % 64, h = t / 64) the raw loads were 2-way conflicted.
 *   - mlab_dq_item (mxfp4's exact path, mla_kernel.h dequant_tile): 256 or
 *     512 threads, item c = t + NT k; the same rows and flip over c % 64 and
 *     c / 64: the bf16 tile's rows are LDK = 1168 bytes (73 slots) apart, so
 *     8 rows' 64-byte stores of one block land in 8 slots, and the raw loads
 *     with them. Before v23 (row c / 18, block c % 18: consecutive blocks of a
 *     row) the stores were 4-way conflicted.
 *   - mlab_e4_item (mxfp4_e4m3, mla_kernel.h e4m3_tile): rows in order (c %
 *     64, block c / 64): the e4m3 tile's rows are LDK = 592 bytes (37 slots)
 *     apart, so 8 consecutive rows' 32-byte stores land in 8 slots; the raw
 *     loads are 2-way (no order of a row index's 6 bits with a block flip
 *     by any row bits frees all three at this stride: test_smem_lanes
 *     searches the 720 x 64 such maps). Before v23 (consecutive blocks) the
 *     two stores an item were 2-way and the loads free: 8 + 8 + 4
 *     wavefronts a warp and item, now 4 + 4 + 8. */
#ifndef MLAB_SMEM_LANES_H
#define MLAB_SMEM_LANES_H

#include "mlab_hd.h" // MLAB_HD

/* rows {0..3, 8..11} for lanes 0..7: bits 2 and 3 of a 64-row index swapped */
MLAB_HD int mlab_rows_swap23(int l) { return (l & ~12) | ((l >> 1) & 4) | ((l << 1) & 8); }
/* mxfp4_wgmma's producer thread t (0..127): row *r, blocks *h + 2 k (k = 0..8) */
MLAB_HD void mlab_mx_prod_item(int t, int *r, int *h)
{
    *r = mlab_rows_swap23(t % 64);
    *h = (t / 64) ^ ((*r >> 3) & 1);
}
/* dequant_tile's item c (0 .. 64 x 18 - 1): row *r, block *b */
MLAB_HD void mlab_dq_item(int c, int *r, int *b)
{
    *r = mlab_rows_swap23(c % 64);
    *b = (c / 64) ^ ((*r >> 3) & 1);
}
/* e4m3_tile's item c: row *r, block *b */
MLAB_HD void mlab_e4_item(int c, int *r, int *b)
{
    *r = c % 64;
    *b = c / 64;
}

#endif
