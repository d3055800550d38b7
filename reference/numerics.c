/* numerics.c: the number formats of the MLA decode problem, bit-exact.
 *
 * Contents (declarations and the behaviour they promise: numerics.h):
 *   1. bit casts
 *   2. bf16: round-to-nearest-even on the fp32 bits
 *   3. fp8 e4m3fn / e4m3fnuz: one integer RNE routine for both formats
 *   4. e2m1 (fp4): a threshold table, ties decided by the tie rule
 *   5. e8m0: exponent-only scales
 *   6. the task's per-tensor fp8 quantizer (bf16 arithmetic, like torch)
 *   7. aiter's MXFP4 quantizer ("even" scale) and its dequantizer
 *
 * Everything is plain scalar C; speed does not matter here, only that every
 * bit agrees with the oracle in tests/test_numerics.py (numpy + ml_dtypes).
 */
#include "reference/numerics.h" // the declarations implemented here

#include <math.h>   // fabsf, ldexpf, frexpf, NAN
#include <string.h> // memcpy, memset, strcmp

/* ---- 1. bit casts ------------------------------------------------------- */

uint32_t mlab_f32_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

float mlab_f32_from_bits(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* NaN test on the bits, so it holds whatever the compiler flags. */
static int f32_is_nan(float x)
{
    return (mlab_f32_bits(x) & 0x7FFFFFFFu) > 0x7F800000u;
}

/* ---- 2. bf16 ------------------------------------------------------------ */

uint16_t mlab_bf16_from_f32(float x)
{
    uint32_t b = mlab_f32_bits(x);
    if (f32_is_nan(x))
        return (uint16_t)((b >> 16) | 0x0040u); /* keep sign and top payload, set quiet bit */
    /* Add just under half an ulp, plus one when the kept lsb is odd: a tie
     * then carries only towards the even neighbour. Carries into the
     * exponent are right (next binade, or Inf past the largest finite). */
    b += 0x7FFFu + ((b >> 16) & 1u);
    return (uint16_t)(b >> 16);
}

float mlab_bf16_to_f32(uint16_t b)
{
    return mlab_f32_from_bits((uint32_t)b << 16);
}

/* bf16 rounding of an fp32 value, as torch stores a bf16 tensor op's result. */
static float bf16_round(float x)
{
    return mlab_bf16_to_f32(mlab_bf16_from_f32(x));
}

/* ---- 3. fp8 ------------------------------------------------------------- */

/* The two formats differ only in bias, largest code and NaN code (the last
 * is handled in mlab_fp8_encode / mlab_fp8_decode). */
typedef struct {
    int bias;         /* exponent bias: 7 (fn) or 8 (fnuz) */
    uint8_t max_code; /* largest finite magnitude code: 0x7E = 448, 0x7F = 240 */
} fp8_desc;

static fp8_desc fp8_describe(mlab_fp8_fmt fmt)
{
    fp8_desc d;
    if (fmt == MLAB_FP8_E4M3FNUZ) {
        d.bias = 8;
        d.max_code = 0x7F;
    } else {
        d.bias = 7;
        d.max_code = 0x7E;
    }
    return d;
}

float mlab_fp8_max(mlab_fp8_fmt fmt)
{
    return fmt == MLAB_FP8_E4M3FNUZ ? 240.0f : 448.0f;
}

/* Round the integer m / 2^shift (shift >= 1) to nearest, ties to even. */
static uint32_t rne_shift(uint32_t m, int shift)
{
    if (shift > 31)
        return 0; /* m < 2^24 here, far below half of 2^shift */
    uint32_t q = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u)))
        q++;
    return q;
}

/* Magnitude code (0 .. 0x7F) of a finite |x|, before saturation.
 *
 * x = m * 2^(e - 23) with the 24-bit significand m (implicit bit included).
 * An fp8 binade at exponent E >= emin holds 8 steps of 2^(E - 3); below emin
 * (subnormals) the step stays 2^(emin - 3). So the number of steps is
 * n = rne(x / 2^(max(e, emin) - 3)), and the code is
 *   ((max(e, emin) - emin) << 3) + n
 * which is right in every case: n = 8 + mantissa for normals, n = 16 (rounded
 * up into the next binade) carries into the exponent field, and a subnormal
 * that rounds up to n = 8 becomes the smallest normal, code 0x08. */
static uint32_t fp8_magnitude_code(uint32_t bits, int emin)
{
    int ef = (int)((bits >> 23) & 0xFFu);
    uint32_t m = bits & 0x7FFFFFu;
    int e;
    if (ef == 0) {
        e = -126; /* fp32 subnormal: no implicit bit */
    } else {
        e = ef - 127;
        m |= 0x800000u;
    }
    int eq = e > emin ? e : emin;
    uint32_t n = rne_shift(m, 20 + (eq - e)); /* x / 2^(eq - 3) = m / 2^(23 - 3 + eq - e) */
    return ((uint32_t)(eq - emin) << 3) + n;
}

uint8_t mlab_fp8_encode(float x, mlab_fp8_fmt fmt)
{
    fp8_desc d = fp8_describe(fmt);
    uint32_t bits = mlab_f32_bits(x);
    uint8_t sign = (uint8_t)((bits >> 24) & 0x80u);
    if (f32_is_nan(x))
        return fmt == MLAB_FP8_E4M3FNUZ ? 0x80 : (uint8_t)(sign | 0x7F);

    uint32_t mag = bits & 0x7FFFFFFFu;
    uint32_t code;
    if (mag >= 0x7F800000u) /* Inf saturates like any overflow */
        code = d.max_code;
    else
        code = fp8_magnitude_code(mag, 1 - d.bias);
    if (code > d.max_code)
        code = d.max_code;

    if (fmt == MLAB_FP8_E4M3FNUZ && code == 0)
        return 0x00; /* no -0: 0x80 is NaN */
    return (uint8_t)(sign | code);
}

float mlab_fp8_decode(uint8_t code, mlab_fp8_fmt fmt)
{
    fp8_desc d = fp8_describe(fmt);
    int neg = (code & 0x80) != 0;
    int ef = (code >> 3) & 0xF;
    int mant = code & 0x7;
    if (fmt == MLAB_FP8_E4M3FNUZ ? code == 0x80 : (code & 0x7F) == 0x7F)
        return NAN;
    float v;
    if (ef == 0)
        v = ldexpf((float)mant, 1 - d.bias - 3);       /* subnormal: mant * 2^(emin-3) */
    else
        v = ldexpf((float)(8 + mant), ef - d.bias - 3); /* normal: 1.mmm * 2^(ef-bias) */
    return neg ? -v : v;
}

/* ---- 4. e2m1 (fp4) ------------------------------------------------------ */

/* Magnitudes of codes 0..7 and the midpoints between neighbours. A value on
 * a midpoint is a tie: MLAB_TIE_UP takes the upper code (aiter's "+1 then
 * shift" bit trick), MLAB_TIE_EVEN the code with an even mantissa bit. The
 * two rules agree at 0.75, 1.75 and 3.5 (the upper code is the even one) and
 * differ at 0.25, 1.25, 2.5 and 5. */
static const float e2m1_values[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
static const float e2m1_midpoints[7] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};

const char *mlab_fp4_tie_name(mlab_fp4_tie tie)
{
    switch (tie) {
    case MLAB_TIE_UP: return "up";
    case MLAB_TIE_EVEN: return "even";
    }
    return "?";
}

int mlab_fp4_tie_parse(const char *s, mlab_fp4_tie *tie)
{
    if (s && strcmp(s, "up") == 0) {
        *tie = MLAB_TIE_UP;
        return 0;
    }
    if (s && strcmp(s, "even") == 0) {
        *tie = MLAB_TIE_EVEN;
        return 0;
    }
    return -1;
}

uint8_t mlab_e2m1_encode(float x, mlab_fp4_tie tie)
{
    if (f32_is_nan(x))
        return 0;
    uint8_t sign = (uint8_t)((mlab_f32_bits(x) >> 28) & 0x8u);
    float a = fabsf(x);
    uint8_t k = 0; /* climb while a is past the midpoint above code k */
    while (k < 7) {
        float mid = e2m1_midpoints[k];
        int up = a > mid || (a == mid && (tie == MLAB_TIE_UP || (k & 1u)));
        if (!up)
            break;
        k++;
    }
    return (uint8_t)(sign | k); /* a >= 5 (up) or > 5 (even), Inf included, gives 6 */
}

float mlab_e2m1_decode(uint8_t nibble)
{
    float v = e2m1_values[nibble & 0x7];
    return (nibble & 0x8) ? -v : v;
}

/* ---- 5. e8m0 ------------------------------------------------------------ */

float mlab_e8m0_decode(uint8_t e)
{
    if (e == 255)
        return NAN;
    return ldexpf(1.0f, (int)e - 127); /* exact, e = 0 included (2^-127, subnormal) */
}

uint8_t mlab_e8m0_encode(float x)
{
    if (f32_is_nan(x))
        return 255;
    if (!(x > 0.0f))
        return 0;
    if (x == INFINITY)
        return 254;
    int e;
    frexpf(x, &e); /* x = f * 2^e, f in [0.5, 1): floor(log2 x) = e - 1, subnormals too */
    int b = e - 1 + 127;
    if (b < 0)
        b = 0;
    if (b > 254)
        b = 254;
    return (uint8_t)b;
}

/* ---- 6. per-tensor fp8 quantizer ---------------------------------------- */

float mlab_fp8_quantize_tensor(const uint16_t *x_bf16, size_t n,
                               mlab_fp8_fmt fmt, uint8_t *codes)
{
    float fmax = mlab_fp8_max(fmt);

    /* amax = x.abs().amax(): exact in bf16; NaN propagates like torch.max. */
    float amax = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float a = fabsf(mlab_bf16_to_f32(x_bf16[i]));
        if (f32_is_nan(a)) {
            amax = NAN;
            break;
        }
        if (a > amax)
            amax = a;
    }
    /* .clamp(min=1e-12): fp32 compare, stored as bf16; NaN stays NaN. */
    if (amax < 1e-12f)
        amax = 1e-12f;
    amax = bf16_round(amax);
    /* scale = amax / fmax, stored as bf16. (On a GPU torch multiplies by the
     * fp32 reciprocal of the Python scalar instead; for every bf16 amax the
     * bf16 result is the same, which tests/test_numerics.py checks.) */
    float s = bf16_round(amax / fmax);

    for (size_t i = 0; i < n; i++) {
        float y = bf16_round(mlab_bf16_to_f32(x_bf16[i]) / s);
        if (y > fmax)
            y = fmax;
        if (y < -fmax)
            y = -fmax;
        codes[i] = mlab_fp8_encode(y, fmt); /* NaN y stays NaN through the clamp */
    }
    return s;
}

/* ---- 7. MXFP4 ----------------------------------------------------------- */

/* aiter's "even" block exponent u (scale = 2^u) from the block's amax A >= 0.
 * Adding 0x200000 to the bits rounds A's significand up to the next power of
 * two from 1.75 on; masking keeps that power of two, whose floor(log2) is
 * its exponent field. An exponent field of 255 is +Inf (A = Inf, or A >=
 * 1.75 * 2^127 rounding past the largest float): log2 is +Inf and the clamp
 * gives u = 127. Field 0 (A = 0 or a tiny subnormal) is -Inf or below -127:
 * the clamp gives u = -127. */
static int mxfp4_block_exponent(float amax)
{
    uint32_t r = (mlab_f32_bits(amax) + 0x200000u) & 0xFF800000u;
    int ef = (int)(r >> 23);
    int u;
    if (ef == 255)
        u = 127;
    else if (ef == 0)
        u = -127;
    else
        u = ef - 127 - 2; /* floor(log2 r) - 2: then |x| * 2^-u < 7 */
    if (u < -127)
        u = -127;
    if (u > 127)
        u = 127;
    return u;
}

uint8_t mlab_mxfp4_quantize_block(const uint16_t *x_bf16, mlab_fp4_tie tie,
                                  uint8_t packed[16])
{
    float x[32];
    float amax = 0.0f;
    for (int i = 0; i < 32; i++) {
        x[i] = mlab_bf16_to_f32(x_bf16[i]);
        if (f32_is_nan(x[i])) {
            memset(packed, 0, 16);
            return 255;
        }
        float a = fabsf(x[i]);
        if (a > amax)
            amax = a;
    }

    int u = mxfp4_block_exponent(amax);
    float inv_scale = ldexpf(1.0f, -u); /* exact; 2^-127 is an fp32 subnormal */
    for (int i = 0; i < 16; i++) {
        uint8_t lo = mlab_e2m1_encode(x[2 * i] * inv_scale, tie);
        uint8_t hi = mlab_e2m1_encode(x[2 * i + 1] * inv_scale, tie);
        packed[i] = (uint8_t)(lo | (hi << 4));
    }
    return (uint8_t)(u + 127);
}

void mlab_mxfp4_quantize_row(const uint16_t *x_bf16, size_t dim, mlab_fp4_tie tie,
                             uint8_t *packed, uint8_t *scales)
{
    for (size_t b = 0; b < dim / 32; b++)
        scales[b] = mlab_mxfp4_quantize_block(x_bf16 + 32 * b, tie, packed + 16 * b);
}

void mlab_mxfp4_dequant_row(const uint8_t *packed, const uint8_t *scales,
                            size_t dim, float *out)
{
    for (size_t i = 0; i < dim; i++) {
        uint8_t byte = packed[i / 2];
        uint8_t nibble = (i & 1) ? (uint8_t)(byte >> 4) : (uint8_t)(byte & 0xF);
        /* One rounding of an exact product: exact unless it overflows. */
        out[i] = mlab_e2m1_decode(nibble) * mlab_e8m0_decode(scales[i / 32]);
    }
}

uint8_t mlab_mxfp8_quantize_block(const float x[32], uint8_t codes[32], float deq[32])
{
    float amax = 0.0f;
    for (int i = 0; i < 32; i++)
        if (!f32_is_nan(x[i]) && fabsf(x[i]) > amax)
            amax = fabsf(x[i]);
    int b = (int)mlab_e8m0_encode(amax) - 8; /* amax = 0 -> 0 - 8 -> 0 */
    if (b < 0)
        b = 0;
    const float inv = ldexpf(1.0f, 127 - b), sc = mlab_e8m0_decode((uint8_t)b); /* exact powers of two */
    for (int i = 0; i < 32; i++) {
        codes[i] = mlab_fp8_encode(x[i] * inv, MLAB_FP8_E4M3FN); /* RNE, saturating */
        if (deq)
            deq[i] = mlab_fp8_decode(codes[i], MLAB_FP8_E4M3FN) * sc;
    }
    return (uint8_t)b;
}

void mlab_mxfp8_round_block(const float x[32], float deq[32])
{
    float amax = 0.0f;
    for (int i = 0; i < 32; i++)
        if (!f32_is_nan(x[i]) && fabsf(x[i]) > amax)
            amax = fabsf(x[i]);
    int b = (int)mlab_e8m0_encode(amax) - 8;
    if (b < 0)
        b = 0;
    const float inv = ldexpf(1.0f, 127 - b), sc = mlab_e8m0_decode((uint8_t)b);
    for (int i = 0; i < 32; i++) {
        float y = x[i] * inv, r;
        if (f32_is_nan(y)) {
            deq[i] = y;
            continue;
        }
        if (fabsf(y) < 0x1p-6f) {
            r = nearbyintf(y * 512.0f) / 512.0f; /* e4m3 subnormals: multiples of 2^-9, RNE */
        } else {
            uint32_t u = mlab_f32_bits(y);
            u += 0x7FFFFu + ((u >> 20) & 1u); /* RNE to 3 mantissa bits */
            u &= 0xFFF00000u;
            r = mlab_f32_from_bits(u);
        }
        if (r > 448.0f) r = 448.0f;
        if (r < -448.0f) r = -448.0f;
        deq[i] = r * sc;
    }
}
