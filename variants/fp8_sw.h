/* fp8_sw.h: software e4m3 (OCP fn) and e4m3fnuz conversions, for GPUs whose
 * compiler we cannot rely on for conversion instructions (the AMD path:
 * clang 15 knows only gfx940's fnuz ones). Host and device; checked on the
 * CPU against reference/numerics.c by tests/test_fp8_sw.cpp, since no AMD
 * GPU is at hand to run the kernels. */
#ifndef MLAB_FP8_SW_H
#define MLAB_FP8_SW_H

#include <math.h>   // fabsf, frexpf, ldexpf, rintf
#include <stdint.h>
#include <string.h> // memcpy

#include "mlab_hd.h" // MLAB_HD

/* Round-to-nearest-even to e4m3 (FNUZ = false: bias 7, max 448, NaN
 * S.1111.111; true: bias 8, max 240, NaN 0x80, no -0), saturating to +-max;
 * NaN -> the NaN code. */
template <bool FNUZ> MLAB_HD uint8_t mlab_fp8_sw_encode(float x)
{
    const int bias = FNUZ ? 8 : 7, emin = 1 - bias; /* smallest normal exponent */
    const float fmax = FNUZ ? 240.0f : 448.0f;
    const uint32_t maxc = FNUZ ? 0x7f : 0x7e;
    uint32_t u;
    memcpy(&u, &x, 4);
    const uint8_t sign = (u >> 24) & 0x80;
    float a = fabsf(x);
    if (a != a) return FNUZ ? 0x80 : (uint8_t)(sign | 0x7f);
    if (a >= fmax) return (uint8_t)(sign | maxc);
    int e;
    frexpf(a, &e); /* a = m 2^e, m in [0.5, 1): floor(log2 a) = e - 1 */
    int ex = e - 1 < emin ? emin : e - 1;
    float r = rintf(ldexpf(a, 3 - ex)); /* steps of 2^(ex-3), ties to even */
    if (r >= 16.0f) { /* rounded up into the next binade */
        ex += 1;
        r = 8.0f;
    }
    uint32_t code = r < 8.0f ? (uint32_t)r /* subnormal or zero */
                             : ((uint32_t)(ex + bias) << 3) | ((uint32_t)r & 7);
    if (code > maxc) code = maxc;
    if (code == 0) return FNUZ ? 0 : sign;
    return (uint8_t)(sign | code);
}

/* e4m3 code -> f16 bits, exact (every e4m3 value is a normal f16). */
template <bool FNUZ> MLAB_HD uint16_t mlab_fp8_sw_to_f16(uint8_t c)
{
    const uint32_t s = (uint32_t)(c & 0x80) << 8, em = c & 0x7f;
    if (FNUZ ? c == 0x80 : em == 0x7f) return 0x7e00; /* NaN */
    if (em == 0) return (uint16_t)(FNUZ ? 0 : s);
    if ((em >> 3) == 0) { /* subnormal m 2^(1-bias-3): normalize */
        uint32_t m = em & 7, p = m >= 4 ? 2 : m >= 2 ? 1 : 0;
        uint32_t e16 = p - (FNUZ ? 10 : 9) + 15;
        return (uint16_t)(s | (e16 << 10) | ((m ^ (1u << p)) << (10 - p)));
    }
    return (uint16_t)(s | ((((em >> 3) + (FNUZ ? 7 : 8)) << 10) | ((em & 7) << 7)));
}

#endif
