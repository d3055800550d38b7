/* splits.h: the documented KV split rule (README.md, "Split rule"), in plain
 * C so that the CPU tests pin it; variants/runner.hip calls it. */
#ifndef MLAB_SPLITS_H
#define MLAB_SPLITS_H

/* W query rows, T 64-row tiles in the longest visible sequence, B resident
 * blocks on the whole GPU (SMs x blocks per SM). In units of one tile's time
 * on one SM, s splits cost
 *   waves(s) * (ceil(T / s) + 4)        each block: its tiles + ~4 of set-up
 *   + (s > 1) * (W s / B + 1)           the combine: a partial O (32 KB) per
 *                                       split and row, ~ one tile, plus a launch
 * with waves(s) = ceil(W s / B). The smallest cost wins, ties to fewer splits;
 * 1 <= s <= min(T, MLA_MAX_SPLITS = 64). */
int mlab_choose_splits(int W, int T, int B);

/* The bf16 variant's tile choice (variants/bf16.hip, its pick): 32-row tiles
 * (bf16_t32's configuration, two blocks an SM) when the call has at least
 * MLAB_BF16_T32_TILES 64-row tiles an SM (W query rows, T 64-row tiles in
 * the longest visible sequence, sms SMs); 64-row tiles otherwise. Measured
 * on the H200 (papers/perf-notes.md v9): 32-row tiles are 3-8% faster on
 * the four calls of 31 or more tiles an SM, 2-15% slower on the four of 8
 * or fewer; the threshold sits between. */
#define MLAB_BF16_T32_TILES 16
int mlab_bf16_small_tiles(int W, int T, int sms);

#endif
