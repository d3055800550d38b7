/* mfma_scale_lanes.h: the operand maps of gfx950's scaled MFMA
 * v_mfma_scale_f32_16x16x128_f8f6f4 as mxfp4_mfma_scale uses it, and the
 * MX e4m3 scale rule, as plain host/device functions so that
 * tests/test_mfma_scale_lanes.cpp checks them (and an emulated instruction
 * fed through them) on the CPU: no AMD GPU is at hand.
 *
 * The instruction: D[16 x 16] += (A . 2^(sa - 127)) (B . 2^(sb - 127)), K = 128,
 * A and B each in a format chosen by cbsz / blgp (0 = e4m3, 4 = e2m1), one
 * E8M0 scale a row (A) or column (B) and k-block of 32. Lane l, group
 * g = l / 16 (AMD's CDNA4 layouts; the fp8 one confirmed by AMD's own
 * scale-mapping probe in composable_kernel, test/mx_mfma_op):
 *   A, e4m3 (8 dwords, item j = byte j): row l % 16,
 *        k = 16 g + j (j < 16), 64 + 16 g + (j - 16) (j >= 16)
 *   B, e2m1 (4 dwords used, item j = nibble j, low nibble first): column
 *        l % 16, k = 32 g + j
 *   scales: lane l's byte (op_sel 0: byte 0) scales row (A) / column (B)
 *        l % 16 over k-block g (k = 32 g .. 32 g + 31)
 *   D: as the 16x16 MFMAs (mfma_lanes.h): column l % 16, rows 4 g + e. */
#ifndef MLAB_MFMA_SCALE_LANES_H
#define MLAB_MFMA_SCALE_LANES_H

#include <stdint.h> // uint8_t, uint32_t

#include "mlab_hd.h" // MLAB_HD

/* k of item j (0..31) of lane l in an e4m3 operand */
MLAB_HD int mlab_mfs_k_f8(int l, int j) { return 16 * (l >> 4) + (j & 15) + (j >= 16 ? 64 : 0); }
/* k of item j (0..31) of lane l in an e2m1 operand */
MLAB_HD int mlab_mfs_k_f4(int l, int j) { return 32 * (l >> 4) + j; }
/* the k-block (of 32) lane l's scale byte covers */
MLAB_HD int mlab_mfs_scale_kblk(int l) { return l >> 4; }

/* Q.K on it (mxfp4_mfma_scale): one call covers 4 MX blocks of the 576
 * dims, blocks b0 .. b0 + 3, k = dim - 32 b0 (nblk < 4: the last ones are
 * zero). A = Q (e4m3 codes of head row l % 16, row-major), B = K^T (the K
 * row l % 16 of the column group, packed E2M1, 288 bytes a row).
 * Lane l's 32 Q codes: bytes q[32 b0 + 16 g .. +15] and q[32 b0 + 64 + 16 g .. +15];
 * its 16 K bytes: krow[16 (b0 + g) .. +15]. */
MLAB_HD int mlab_mfs_q_off(int l, int half) { return 16 * (l >> 4) + 64 * half; } /* + 32 b0 */
MLAB_HD int mlab_mfs_k_off(int l) { return 16 * (l >> 4); }                       /* + 16 b0 */
/* the block the items j < 16 (half 0) or j >= 16 (half 1) of lane l's A read */
MLAB_HD int mlab_mfs_q_blk(int l, int half) { return (l >> 5) + 2 * half; } /* + b0 */

/* P.V on it: the 64 kv rows of a tile are k = 0 .. 63, so A = P' (e4m3)
 * uses items j < 16 only (rows 16 g + j) and B = V (e2m1) lane groups 0
 * and 1 only (rows 32 g + j); the rest are zero. */
MLAB_HD int mlab_mfs_p_row(int l, int j) { return j < 16 ? 16 * (l >> 4) + j : -1; }
MLAB_HD int mlab_mfs_v_row(int l, int j) { return l < 32 ? 32 * (l >> 4) + j : -1; }

/* The OCP MX e4m3 scale of a block whose largest magnitude is amax (finite,
 * >= 0): E8M0 byte floor(log2 amax) - 8 + 127 (e4m3's largest power of two
 * is 2^8), at least 0 (2^-127: blocks of zeros and tiny values). The
 * elements are then e4m3(x / 2^(byte - 127)), saturated at 448 (|x| / 2^E
 * is below 512). The reference (reference/numerics.c,
 * mlab_mxfp8_quantize_block) composes the same rule from the e8m0 encoder. */
MLAB_HD int mlab_mx8_scale_byte(float amax)
{
    union { float f; uint32_t u; } v;
    v.f = amax;
    const int e = (int)((v.u >> 23) & 0xff); /* floor(log2 amax) + 127 for normal amax; 0 below */
    return e > 8 ? e - 8 : 0;
}
/* 2^(127 - byte): the factor taking a block to its e4m3 codes (byte <= 246) */
MLAB_HD float mlab_mx8_inv_scale(int byte)
{
    union { float f; uint32_t u; } v;
    v.u = (uint32_t)(254 - byte) << 23;
    return v.f;
}

#endif
