/* nv_swizzle.h: where the tensor copies' swizzled panels put a tile's bytes
 * (arch/nv_tma.h says why these layouts), as plain host/device functions
 * with no CUDA header, so host C (tests/test_smem_lanes.c) counts the bank
 * traffic of stores into the very layout the kernels use. */
#ifndef MLAB_NV_SWIZZLE_H
#define MLAB_NV_SWIZZLE_H

#include "../mlab_hd.h" // MLAB_HD

/* byte offset of (row r, 16-byte chunk q of the row) in a tile of 64-byte swizzled panels of 64 rows */
#define MLAB_SW64_PANEL 4096
MLAB_HD int mlab_sw64(int r, int q) { return (q >> 2) * MLAB_SW64_PANEL + 64 * r + (((q & 3) ^ ((r >> 1) & 3)) << 4); }

/* the same in the 128-byte swizzle: panel p = bytes 128 p .. 128 p + 127
 * of every row (64 bf16 dims), panels of `panel` bytes (rows x 128,
 * 1024-aligned), row r at 128 r, its 16-byte chunk c at chunk c ^ (r % 8) */
MLAB_HD int mlab_sw128_p(int r, int q, int panel) { return (q >> 3) * panel + 128 * r + (((q & 7) ^ (r & 7)) << 4); }
/* bf16 tiles (bf16_wgmma): panels of 64 rows, 8 KB */
#define MLAB_SW128_PANEL 8192
MLAB_HD int mlab_sw128(int r, int q) { return mlab_sw128_p(r, q, MLAB_SW128_PANEL); }
/* bf16_wgmma's Q (head r's 16-byte chunk q): panels of 16 rows, 2 KB */
#define MLAB_SW128_QPANEL 2048
MLAB_HD int mlab_sw128_q(int r, int q) { return mlab_sw128_p(r, q, MLAB_SW128_QPANEL); }

#endif
