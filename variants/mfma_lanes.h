/* mfma_lanes.h: which matrix element each lane of a wave (64 lanes) feeds to,
 * and gets back from, AMD's 16 x 16 MFMA instructions, as the AMD helpers of
 * mla_mma.h address their operands. Plain host/device functions, so that
 * tests/test_mfma_lanes.cpp checks every (lane, item) against AMD's
 * documented layouts on the CPU (no AMD GPU is at hand).
 *
 * KPL = operand items a lane (4: v_mfma_f32_16x16x16_{bf16,f16};
 * 8: v_mfma_f32_16x16x32_{bf16,f16} (gfx950), v_mfma_f32_16x16x32_fp8_fp8).
 *   A (16 x K, row-major tile): lane l, item j = A[l % 16][KPL (l / 16) + j]
 *   B (K x 16): lane l, item j = B[KPL (l / 16) + j][l % 16]; for Q.K^T, B is
 *     K^T: the K tile's row l % 16 read like A
 *   D (16 x 16 fp32): lane l, item e = D[4 (l / 16) + e][l % 16]
 * Items are consecutive in a register (bf16/f16: 2 a dword, fp8: 4 a dword,
 * low bits first). */
#ifndef MLAB_MFMA_LANES_H
#define MLAB_MFMA_LANES_H

#include "mlab_hd.h" // MLAB_HD

/* the A row (= the B column, = the D column) of lane l */
MLAB_HD int mlab_mfma_row(int l) { return l & 15; }
/* the k of item j of lane l's A or B operand */
MLAB_HD int mlab_mfma_k(int l, int j, int kpl) { return kpl * (l >> 4) + j; }
/* byte offset of lane l's first A item in a row-major tile, ld bytes a row,
 * esz bytes an element: its items follow contiguously */
MLAB_HD int mlab_mfma_a_off(int l, int ld, int kpl, int esz) { return mlab_mfma_row(l) * ld + esz * mlab_mfma_k(l, 0, kpl); }
/* the D row of lane l's accumulator item e (its column is mlab_mfma_row) */
MLAB_HD int mlab_mfma_d_row(int l, int e) { return 4 * (l >> 4) + e; }

#endif
