/* mlab_div.h: a / b from rb, the correctly rounded 1 / b, in a multiply and
 * two FMAs (Markstein): q = a rb, r = fma(-q, b, a) (exact), q + r rb rounds to
 * the IEEE quotient. Host and device share this one definition; the host test
 * (tests/test_numerics_c.c) checks it against '/' for every finite bf16 a and
 * many b. Equal to a / b (zeros keep their sign) whenever the quotient is a
 * normal float and |a| >= 2^-100; below that the residual can round (1 ulp off;
 * the kernels round such quotients to fp8 zero or to bf16 below 1e-30), and an
 * overflowing quotient gives NaN (the kernels' quotients are bounded: |x| <=
 * amax for the scale, l >= 1 for O / l). Used where one divisor serves many
 * dividends: the a8w8 Q quantization (x / scale) and the output
 * normalization (O / l), which would otherwise take a division each. */
#ifndef MLAB_DIV_H
#define MLAB_DIV_H

#include <math.h> // fmaf

#include "mlab_hd.h" // MLAB_HD

MLAB_HD float mlab_div_rcp(float a, float b, float rb)
{
    const float q = a * rb;
    return q == 0.0f ? q : fmaf(fmaf(-q, b, a), rb, q);
}

#endif
