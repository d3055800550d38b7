/* test_numerics_c: hand-checked values of reference/numerics.c, one check per
 * behaviour, in C alone (the exhaustive comparison with numpy + ml_dtypes is
 * tests/test_numerics.py). Prints every failing check; exits 1 if any. */
#include "reference/numerics.h" // everything under test

#include <math.h>   // ldexpf, isnan, INFINITY, NAN
#include <stdio.h>  // printf
#include <string.h> // strcmp

#include "mlab_check.h" // check, failed, checked
#include "variants/mlab_div.h" // mlab_div_rcp: the kernels' division by a reciprocal

static void test_bf16(void)
{
    check(mlab_bf16_from_f32(1.0f + ldexpf(1.0f, -8)) == 0x3F80,
          "bf16 rounds the tie 1+2^-8 down to the even 1.0");
    check(mlab_bf16_from_f32(1.0f + 3.0f * ldexpf(1.0f, -8)) == 0x3F82,
          "bf16 rounds the tie 1+3*2^-8 up to the even 1+2^-6");
    check(mlab_bf16_from_f32(mlab_f32_from_bits(0x3F808001)) == 0x3F81,
          "bf16 rounds just above a tie up");
    check(mlab_bf16_from_f32(mlab_f32_from_bits(0x7F7FFFFF)) == 0x7F80,
          "bf16 of the largest float rounds to +Inf");
    check(mlab_bf16_from_f32(-INFINITY) == 0xFF80, "bf16 keeps -Inf");
    check(mlab_bf16_from_f32(mlab_f32_from_bits(0xFF800001)) == 0xFFC0,
          "bf16 keeps a NaN's sign and sets the quiet bit (payload only in the dropped half)");
    check(mlab_bf16_from_f32(mlab_f32_from_bits(0x7FA12345)) == 0x7FE1,
          "bf16 keeps a NaN's top payload bits");
    check(mlab_f32_bits(mlab_bf16_to_f32(0x0001)) == 0x00010000, "bf16 widens a subnormal exactly");
}

static void test_fp8(void)
{
    const mlab_fp8_fmt fn = MLAB_FP8_E4M3FN, fnuz = MLAB_FP8_E4M3FNUZ;
    check(mlab_fp8_max(fn) == 448.0f && mlab_fp8_max(fnuz) == 240.0f, "fp8 max is 448 / 240");
    check(mlab_fp8_encode(448.0f + 16.0f, fn) == 0x7E, "e4m3fn saturates 448+16 to 448");
    check(mlab_fp8_encode(1e6f, fn) == 0x7E && mlab_fp8_encode(-1e6f, fn) == 0xFE,
          "e4m3fn saturates overflow to +-448");
    check(mlab_fp8_encode(INFINITY, fn) == 0x7E && mlab_fp8_encode(-INFINITY, fnuz) == 0xFF,
          "fp8 saturates +-Inf");
    check(mlab_fp8_encode(248.0f, fnuz) == 0x7F, "e4m3fnuz saturates 240+8 to 240");
    check(isnan(mlab_fp8_decode(0x7F, fn)) && isnan(mlab_fp8_decode(0xFF, fn)),
          "e4m3fn codes 0x7F and 0xFF are NaN");
    check(isnan(mlab_fp8_decode(0x80, fnuz)), "e4m3fnuz code 0x80 is NaN");
    check(mlab_fp8_decode(0x7F, fnuz) == 240.0f && mlab_fp8_decode(0x7E, fn) == 448.0f,
          "fp8 largest codes decode to 240 / 448");
    check(mlab_fp8_encode(NAN, fn) == 0x7F && mlab_fp8_encode(-NAN, fn) == 0xFF &&
              mlab_fp8_encode(-NAN, fnuz) == 0x80,
          "fp8 encodes NaN as the format's NaN (fn keeps the sign)");
    check(mlab_fp8_encode(-0.0f, fn) == 0x80, "e4m3fn keeps -0");
    check(mlab_fp8_encode(-0.0f, fnuz) == 0x00 && mlab_fp8_encode(-ldexpf(1.0f, -12), fnuz) == 0x00,
          "e4m3fnuz has no -0: negatives that round to zero give 0x00");
    check(mlab_fp8_decode(0x01, fn) == ldexpf(1.0f, -9) && mlab_fp8_decode(0x01, fnuz) == ldexpf(1.0f, -10),
          "fp8 smallest subnormal is 2^-9 / 2^-10");
    check(mlab_fp8_encode(ldexpf(1.0f, -10), fn) == 0x00,
          "e4m3fn rounds half the smallest subnormal to even (0)");
    check(mlab_fp8_encode(ldexpf(3.0f, -10), fn) == 0x02, "e4m3fn rounds a subnormal tie to even");
    check(mlab_fp8_encode(ldexpf(7.5f, -9), fn) == 0x08,
          "e4m3fn rounds the tie between the largest subnormal and the smallest normal to the normal (even)");
    check(mlab_fp8_encode(1.9375f, fn) == 0x40, "e4m3fn rounds the tie 1.9375 up into the next binade (2.0)");
    check(mlab_fp8_encode(1.0625f, fn) == 0x38, "e4m3fn rounds the tie 1.0625 down to the even 1.0");
    check(mlab_fp8_encode(1.0625f, fnuz) == 0x40, "e4m3fnuz rounds the tie 1.0625 to the even 1.0 (0x40: bias 8)");
    check(mlab_fp8_decode(0xB8, fn) == -1.0f, "e4m3fn 0xB8 decodes to -1");
}

static void test_e2m1(void)
{
    check(mlab_e2m1_encode(1.25f, MLAB_TIE_UP) == 0x3 && mlab_e2m1_encode(1.25f, MLAB_TIE_EVEN) == 0x2,
          "e2m1 tie 1.25 -> 1.5 under up, 1.0 under even");
    check(mlab_e2m1_encode(0.25f, MLAB_TIE_UP) == 0x1 && mlab_e2m1_encode(0.25f, MLAB_TIE_EVEN) == 0x0,
          "e2m1 tie 0.25 -> 0.5 under up, 0 under even");
    check(mlab_e2m1_encode(-2.5f, MLAB_TIE_UP) == 0xD && mlab_e2m1_encode(-2.5f, MLAB_TIE_EVEN) == 0xC,
          "e2m1 tie -2.5 -> -3 under up, -2 under even");
    check(mlab_e2m1_encode(5.0f, MLAB_TIE_UP) == 0x7 && mlab_e2m1_encode(5.0f, MLAB_TIE_EVEN) == 0x6,
          "e2m1 tie 5 -> 6 under up, 4 under even");
    check(mlab_e2m1_encode(0.75f, MLAB_TIE_UP) == 0x2 && mlab_e2m1_encode(0.75f, MLAB_TIE_EVEN) == 0x2 &&
              mlab_e2m1_encode(1.75f, MLAB_TIE_EVEN) == 0x4 && mlab_e2m1_encode(3.5f, MLAB_TIE_EVEN) == 0x6,
          "e2m1 ties 0.75, 1.75, 3.5 go up under both rules");
    check(mlab_e2m1_encode(100.0f, MLAB_TIE_EVEN) == 0x7 && mlab_e2m1_encode(-INFINITY, MLAB_TIE_UP) == 0xF,
          "e2m1 saturates at +-6");
    check(mlab_e2m1_encode(-0.0f, MLAB_TIE_UP) == 0x8 && mlab_e2m1_encode(-0.1f, MLAB_TIE_EVEN) == 0x8,
          "e2m1 copies the sign bit onto zero");
    check(mlab_e2m1_encode(NAN, MLAB_TIE_UP) == 0x0, "e2m1 encodes NaN as 0");
    check(mlab_e2m1_decode(0x7) == 6.0f && mlab_e2m1_decode(0x9) == -0.5f && mlab_f32_bits(mlab_e2m1_decode(0x8)) == 0x80000000u,
          "e2m1 decodes 0x7 = 6, 0x9 = -0.5, 0x8 = -0");
    mlab_fp4_tie t = MLAB_TIE_EVEN;
    check(mlab_fp4_tie_parse("up", &t) == 0 && t == MLAB_TIE_UP && mlab_fp4_tie_parse("even", &t) == 0 &&
              t == MLAB_TIE_EVEN && mlab_fp4_tie_parse("UP", &t) == -1 && mlab_fp4_tie_parse(NULL, &t) == -1,
          "tie rule names parse exactly");
    check(strcmp(mlab_fp4_tie_name(MLAB_TIE_UP), "up") == 0 && strcmp(mlab_fp4_tie_name(MLAB_TIE_EVEN), "even") == 0,
          "tie rule names are up / even");
}

static void test_e8m0(void)
{
    check(mlab_f32_bits(mlab_e8m0_decode(0)) == 0x00400000u, "e8m0 decode(0) is 2^-127, an fp32 subnormal");
    check(mlab_e8m0_decode(127) == 1.0f && mlab_e8m0_decode(254) == ldexpf(1.0f, 127),
          "e8m0 decode(127) = 1, decode(254) = 2^127");
    check(isnan(mlab_e8m0_decode(255)), "e8m0 decode(255) is NaN");
    check(mlab_e8m0_encode(1.0f) == 127 && mlab_e8m0_encode(1.99f) == 127 && mlab_e8m0_encode(0.5f) == 126,
          "e8m0 encode is floor(log2 x) + 127");
    check(mlab_e8m0_encode(ldexpf(1.0f, -127)) == 0 && mlab_e8m0_encode(ldexpf(1.0f, -140)) == 0 &&
              mlab_e8m0_encode(0.0f) == 0 && mlab_e8m0_encode(-4.0f) == 0,
          "e8m0 encode clamps tiny, zero and negative to 0");
    check(mlab_e8m0_encode(INFINITY) == 254 && mlab_e8m0_encode(NAN) == 255,
          "e8m0 encode: +Inf -> 254, NaN -> 255");
}

static void test_fp8_quant(void)
{
    uint16_t x[4] = {mlab_bf16_from_f32(448.0f), mlab_bf16_from_f32(-1.0625f),
                     mlab_bf16_from_f32(0.3f), 0x8000};
    uint8_t c[4];
    float s = mlab_fp8_quantize_tensor(x, 4, MLAB_FP8_E4M3FN, c);
    check(s == 1.0f && c[0] == 0x7E && c[1] == 0xB8 && c[2] == mlab_fp8_encode(mlab_bf16_to_f32(x[2]), MLAB_FP8_E4M3FN) &&
              c[3] == 0x80,
          "fp8 quantizer: amax 448 gives s = 1 and plain rne codes");
    uint16_t y[2] = {mlab_bf16_from_f32(460.0f), mlab_bf16_from_f32(-460.0f)};
    s = mlab_fp8_quantize_tensor(y, 2, MLAB_FP8_E4M3FN, c);
    check(s == 1.0234375f && c[0] == 0x7E && c[1] == 0xFE,
          "fp8 quantizer saturates when s = bf16(amax/448) rounds down (460 -> 450 -> 448)");
    uint16_t z[3] = {0, 0x8000, 0};
    s = mlab_fp8_quantize_tensor(z, 3, MLAB_FP8_E4M3FNUZ, c);
    check(s == mlab_bf16_to_f32(mlab_bf16_from_f32(mlab_bf16_to_f32(mlab_bf16_from_f32(1e-12f)) / 240.0f)) &&
              c[0] == 0 && c[1] == 0 && c[2] == 0,
          "fp8 quantizer of zeros: amax clamps to bf16(1e-12), fnuz codes 0");
    uint16_t n[3] = {0x3F80, 0x7FC0, 0xBF80};
    s = mlab_fp8_quantize_tensor(n, 3, MLAB_FP8_E4M3FNUZ, c);
    check(isnan(s) && c[0] == 0x80 && c[1] == 0x80 && c[2] == 0x80,
          "fp8 quantizer: a NaN makes the scale and every code NaN");
}

static void test_mxfp4(void)
{
    uint16_t x[32] = {0};
    x[0] = mlab_bf16_from_f32(6.0f); /* amax 6: u = 0, byte 127 */
    x[1] = mlab_bf16_from_f32(1.25f);
    x[2] = mlab_bf16_from_f32(-2.5f);
    x[3] = mlab_bf16_from_f32(5.0f);
    x[4] = mlab_bf16_from_f32(0.3f);
    x[5] = 0x8000;
    uint8_t p[16];
    uint8_t e = mlab_mxfp4_quantize_block(x, MLAB_TIE_UP, p);
    check(e == 127 && p[0] == 0x37 && p[1] == 0x7D && p[2] == 0x81 && p[3] == 0,
          "mxfp4 of a known block, ties up (low nibble = even index)");
    e = mlab_mxfp4_quantize_block(x, MLAB_TIE_EVEN, p);
    check(e == 127 && p[0] == 0x27 && p[1] == 0x6C && p[2] == 0x81, "mxfp4 of a known block, ties to even");
    float d[32];
    mlab_mxfp4_dequant_row(p, &e, 32, d);
    check(d[0] == 6.0f && d[1] == 1.0f && d[2] == -2.0f && d[3] == 4.0f && d[4] == 0.5f && d[6] == 0.0f,
          "mxfp4 dequantizes the known block");

    uint16_t y[32] = {0};
    y[0] = mlab_bf16_from_f32(7.0f); /* significand 1.75: u = 1 */
    y[1] = mlab_bf16_from_f32(6.96875f); /* just below: would be u = 0 alone */
    e = mlab_mxfp4_quantize_block(y, MLAB_TIE_EVEN, p);
    check(e == 128 && p[0] == 0x56,
          "mxfp4 amax significand 1.75 bumps the exponent (7 = 2 * 3.5 -> 4 * 2)");
    y[0] = 0;
    e = mlab_mxfp4_quantize_block(y, MLAB_TIE_EVEN, p);
    check(e == 127 && (p[0] >> 4) == 0x7, "mxfp4 amax 6.96875 keeps u = 0 and saturates to 6");

    uint16_t z[32] = {0};
    z[1] = 0x8000;
    e = mlab_mxfp4_quantize_block(z, MLAB_TIE_UP, p);
    check(e == 0 && p[0] == 0x80 && p[1] == 0, "mxfp4 zero block: scale 0, zeros keep their sign");

    uint16_t h[32] = {0};
    h[0] = 0x7F60; /* 1.75 * 2^127: the rounded amax overflows to Inf */
    h[1] = 0xFF80; /* -Inf */
    h[2] = mlab_bf16_from_f32(1.0f);
    e = mlab_mxfp4_quantize_block(h, MLAB_TIE_UP, p);
    check(e == 254 && p[0] == 0xF4 && p[1] == 0x00,
          "mxfp4 amax >= 1.75 * 2^127 or Inf: u clamps to 127, Inf saturates to 6");
    h[1] = 0;
    h[2] = 0;
    h[0] = 0x0080; /* 2^-126: u = -128 clamps to -127 */
    e = mlab_mxfp4_quantize_block(h, MLAB_TIE_UP, p);
    check(e == 0 && p[0] == 0x04, "mxfp4 tiny amax clamps u to -127");

    uint16_t n[32] = {0};
    n[0] = mlab_bf16_from_f32(3.0f);
    n[9] = 0x7FC1;
    e = mlab_mxfp4_quantize_block(n, MLAB_TIE_UP, p);
    int zero = 1;
    for (int i = 0; i < 16; i++)
        zero &= p[i] == 0;
    check(e == 255 && zero, "mxfp4 NaN block: scale 255, all nibbles 0");
    mlab_mxfp4_dequant_row(p, &e, 32, d);
    check(isnan(d[0]) && isnan(d[31]), "mxfp4 dequant of a NaN scale is NaN");

    uint16_t row[64];
    uint8_t rp[32], rs[2];
    for (int i = 0; i < 32; i++) {
        row[i] = x[i];
        row[32 + i] = z[i];
    }
    mlab_mxfp4_quantize_row(row, 64, MLAB_TIE_UP, rp, rs);
    check(rs[0] == 127 && rs[1] == 0 && rp[0] == 0x37 && rp[16] == 0x80,
          "mxfp4 row = its blocks side by side");
}

/* The kernels divide by one scale (x / q_scale) or one row sum (O / l) with
 * mlab_div_rcp; it must equal IEEE division wherever its header says it does:
 * every finite bf16 dividend with |a| >= 2^-100 (or +-0) whose quotient is
 * a normal float or zero, over divisors from 2^-60 to 2^60 and row sums in
 * [1, 2^14). */
static void test_div_rcp(void)
{
    long bad = 0, n = 0;
    uint32_t s = 12345u;
    for (int k = 0; k < 400; k++) {
        s = s * 1664525u + 1013904223u;
        const float b = k < 200 ? ldexpf(1.0f + (float)(s >> 9) * 0x1p-23f, (int)(s % 121) - 60)
                                : ldexpf(1.0f + (float)(s >> 9) * 0x1p-23f, (int)(s % 14));
        const float rb = 1.0f / b;
        for (uint32_t u = 0; u < 65536; u++) {
            const float a = mlab_bf16_to_f32((uint16_t)u);
            if (!isfinite(a) || (a != 0.0f && fabsf(a) < 0x1p-100f)) continue;
            const float q = a / b, m = mlab_div_rcp(a, b, rb);
            if (isinf(q) || (q != 0.0f && fabsf(q) < 0x1p-126f)) continue;
            n++;
            if (mlab_f32_bits(q) != mlab_f32_bits(m)) {
                if (bad++ < 3) printf("  mlab_div_rcp(%a, %a) = %a, IEEE %a\n", a, b, m, q);
            }
        }
    }
    check(n > 15000000 && bad == 0, "mlab_div_rcp equals IEEE division on 400 divisors x every bf16 dividend");
}

int main(void)
{
    test_bf16();
    test_fp8();
    test_e2m1();
    test_e8m0();
    test_fp8_quant();
    test_mxfp4();
    test_div_rcp();
    printf("test_numerics_c: %d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
