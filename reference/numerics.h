/* numerics.h: the number formats of the MLA decode problem, bit-exact.
 *
 * Every function here is pure and works on single values or rows; the bit
 * patterns follow papers/spec.md and the OCP Microscaling spec v1.0.
 *   bf16        1.8.7, round-to-nearest-even from fp32, NaN kept (made quiet)
 *   e4m3fn      OCP fp8: bias 7, max 448, NaN = S.1111.111, no Inf
 *   e4m3fnuz    MI300 fp8: bias 8, max 240, NaN = 0x80, no -0, no Inf
 *   e2m1        fp4: {0,.5,1,1.5,2,3,4,6}, sign bit 3, two per byte
 *   e8m0        MX scale: 2^(e-127); e = 0 is 2^-127; 255 is NaN
 * Tested exhaustively against ml_dtypes in tests/test_numerics.py.
 */
#ifndef MLAB_NUMERICS_H
#define MLAB_NUMERICS_H

#include <stddef.h>
#include <stdint.h>

/* The bits of a float and back (memcpy, no aliasing games). */
uint32_t mlab_f32_bits(float x);
float mlab_f32_from_bits(uint32_t b);

/* ---- bf16 ---------------------------------------------------------------- */
/* Round-to-nearest-even; NaN stays NaN (sign kept, quiet bit set); +-Inf kept;
 * fp32 values beyond the bf16 range round to +-Inf as RNE says.
 * A NaN keeps its top 7 payload bits too: bits = (fp32 bits >> 16) | 0x0040.
 * (torch and ml_dtypes give the canonical 0x7FC0/0xFFC0 instead; nothing in
 * the harness depends on a NaN's payload.) */
uint16_t mlab_bf16_from_f32(float x);
float mlab_bf16_to_f32(uint16_t b);

/* ---- fp8 ----------------------------------------------------------------- */
typedef enum {
    MLAB_FP8_E4M3FN = 0,   /* OCP, gfx950 and NVIDIA */
    MLAB_FP8_E4M3FNUZ = 1  /* gfx940/gfx942 (MI300) */
} mlab_fp8_fmt;

/* Largest finite value: 448 (fn) or 240 (fnuz). */
float mlab_fp8_max(mlab_fp8_fmt fmt);
/* Round-to-nearest-even encode. Overflow SATURATES to +-max (the quantizers
 * clamp first, so this only matters for direct use); NaN -> the format's NaN
 * (fn: 0x7F with the sign of x; fnuz: 0x80); +-Inf saturates to +-max.
 * fnuz has no -0: -0.0 and negatives that round to zero encode as 0x00. */
uint8_t mlab_fp8_encode(float x, mlab_fp8_fmt fmt);
/* Exact for every finite code; the NaN codes (fn 0x7F/0xFF, fnuz 0x80)
 * decode to a quiet NaN. */
float mlab_fp8_decode(uint8_t code, mlab_fp8_fmt fmt);

/* ---- e2m1 (fp4) ---------------------------------------------------------- */
typedef enum {
    MLAB_TIE_UP = 0,   /* competition aiter: ties at .25 1.25 2.5 5 round up (default) */
    MLAB_TIE_EVEN = 1  /* aiter after 2026-03-18: round to nearest even */
} mlab_fp4_tie;

const char *mlab_fp4_tie_name(mlab_fp4_tie tie);       /* "up" / "even" */
int mlab_fp4_tie_parse(const char *s, mlab_fp4_tie *tie); /* 0 ok, -1 bad */

/* Encode an already-scaled value to a nibble (0..15). Saturates at +-6.
 * Nearest value; a tie (|x| exactly 0.25 0.75 1.25 1.75 2.5 3.5 5) goes
 *   MLAB_TIE_UP:   to the larger magnitude: .5 1 1.5 2 3 4 6
 *   MLAB_TIE_EVEN: to the even code:        0  1 1   2 2 4 4
 * so the rules differ at 0.25, 1.25, 2.5 and 5 only.
 * The sign bit is copied from x (so -0.0 and small negatives give 0x8),
 * as aiter's bit arithmetic does. NaN encodes as 0 (e2m1 has no NaN; the
 * MX block carries NaN in its scale). */
uint8_t mlab_e2m1_encode(float x, mlab_fp4_tie tie);
float mlab_e2m1_decode(uint8_t nibble);

/* ---- e8m0 ---------------------------------------------------------------- */
/* Decode: 2^(e-127) for e in 0..254 (e = 0 gives 2^-127, an fp32 subnormal);
 * 255 gives NaN. */
float mlab_e8m0_decode(uint8_t e);
/* Encode a positive scale as floor(log2 x) + 127, clamped to 0..254;
 * x <= 0 (-Inf included) or x below 2^-127 -> 0; NaN (either sign) -> 255;
 * +Inf -> 254. Exact for powers of two in range; fp32 subnormals use their
 * true floor(log2 x), so 2^-127 -> 0. */
uint8_t mlab_e8m0_encode(float x);

/* ---- quantizers ---------------------------------------------------------- */
/* The task's per-tensor fp8 quantizer, in bf16 arithmetic like torch:
 *   amax = bf16(max(max|x|, 1e-12)); s = bf16(amax / fmax);
 *   y = clamp(bf16(x / s), -fmax, fmax); code = fp8_rne(y).
 * Writes n codes, returns the scale s as fp32 (dequantize: code * s).
 * NaN in x propagates: amax becomes NaN, and every code is the NaN code.
 * +-Inf in x (torch arithmetic again): amax = s = Inf, so Inf / Inf gives
 * the NaN code at each Inf and finite / Inf gives +-0 elsewhere.
 * Each step is one fp32 operation rounded to bf16. torch on a GPU computes
 * amax / fmax as amax * fp32(1 / fmax) (fmax is a Python scalar there); the
 * bf16 result is the same for every bf16 amax, which the test checks. */
float mlab_fp8_quantize_tensor(const uint16_t *x_bf16, size_t n,
                               mlab_fp8_fmt fmt, uint8_t *codes);

/* aiter-style MXFP4 ("even" scale) of one block of 32 bf16 values:
 *   A = max|x|; u = floor(log2 A) - 2, +1 when A's significand >= 1.75;
 *   u clamped to [-127, 127]; scale byte = u + 127 (zero block -> 0);
 *   element = e2m1(x * 2^-u) with the given tie rule.
 * packed[16] gets two nibbles a byte, low nibble = even index.
 * A block holding NaN gets scale byte 255 and all-zero nibbles.
 * Returns the scale byte (MX: dequantized x = e2m1 * 2^(byte - 127)).
 * Edges, following aiter's arithmetic (u from floor(log2(r)), r = A's bits
 * + 0x200000 masked to sign and exponent, i.e. A rounded to a power of two
 * from significand 1.75 on):
 *   A = +Inf, or A >= 1.75 * 2^127 (r overflows to +Inf): u = 127, byte 254
 *     (the formula alone would give 126); Inf elements encode as +-6;
 *   A = 0 or A < 1.75 * 2^-125 (bf16 subnormals included): byte 0 (where
 *     the formula goes below -127, the clamp lifts it);
 *   x * 2^-u is one fp32 multiply by the exact power of two (2^-127 is an
 *     fp32 subnormal; aiter's exp2 might flush it: a case only huge blocks hit). */
uint8_t mlab_mxfp4_quantize_block(const uint16_t *x_bf16, mlab_fp4_tie tie,
                                  uint8_t packed[16]);
/* A row of `dim` values (dim a multiple of 32): dim/2 packed bytes and
 * dim/32 scale bytes. */
void mlab_mxfp4_quantize_row(const uint16_t *x_bf16, size_t dim, mlab_fp4_tie tie,
                             uint8_t *packed, uint8_t *scales);
/* OCP MXFP8 (e4m3fn elements) of one block of 32 fp32 values, the OCP
 * rule: scale byte = e8m0(amax) - 8 (e4m3's largest power of two is 2^8),
 * at least 0 (amax = max |x| over the non-NaN values; a block of zeros or
 * tiny values gets 2^-127); element = e4m3fn RNE of x / 2^(byte - 127),
 * saturated at +-448 (|x| / 2^E is below 512); NaN stays the NaN code.
 * Dequantized: decode(code) * 2^(byte - 127), written to deq when non-NULL.
 * Returns the scale byte. gfx950's scaled MFMA reads exactly this format
 * (mxfp4_mfma_scale quantizes Q and its folded P so). */
uint8_t mlab_mxfp8_quantize_block(const float x[32], uint8_t codes[32], float deq[32]);
/* The same rounding, dequantized values only, by float arithmetic (RNE to 3
 * mantissa bits, to multiples of 2^-9 below 2^-6, then the saturation), ~5x
 * faster: the reference's hot loop. Equal to mlab_mxfp8_quantize_block's deq
 * for every input (tests/test_mfma_scale_lanes.cpp checks it). */
void mlab_mxfp8_round_block(const float x[32], float deq[32]);
/* Dequantize one row to fp32: e2m1 value * 2^(byte - 127), exact except
 * that products of 2^128 and up become +-Inf (byte 254 with |e2m1| >= 2,
 * byte 253 with |e2m1| >= 4), and scale byte 255 gives NaN for the block. */
void mlab_mxfp4_dequant_row(const uint8_t *packed, const uint8_t *scales,
                            size_t dim, float *out);

#endif
