// test_fp8_sw.cpp: the AMD path's software fp8 conversions (variants/fp8_sw.h)
// equal reference/numerics.c bit for bit, for both flavours: encode over every
// bf16 pattern widened, every midpoint between neighbouring fp8 values and
// its fp32 neighbours, and 2M pseudo-random fp32 patterns; decode (to f16) of
// every code. Nothing else checks this path: there is no AMD GPU here.
#include <math.h>   // isnan
#include <stdio.h>  // printf
#include <string.h> // memcpy

extern "C" {
#include "reference/numerics.h" // mlab_fp8_encode, mlab_fp8_decode, mlab_bf16_to_f32
}
#include "variants/fp8_sw.h" // mlab_fp8_sw_encode, mlab_fp8_sw_to_f16

static float f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 1023, u;
    if (e == 31) u = s | 0x7f800000u | (m << 13);
    else if (e == 0) { /* subnormal f16 (not produced by e4m3, kept for completeness) */
        float v = ldexpf((float)m, -24);
        memcpy(&u, &v, 4);
        u |= s;
    } else u = s | ((e + 112) << 23) | (m << 13);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

template <bool FNUZ> static long check_flavour(const char *name)
{
    const mlab_fp8_fmt fmt = FNUZ ? MLAB_FP8_E4M3FNUZ : MLAB_FP8_E4M3FN;
    long bad = 0, n = 0;
    auto enc = [&](float x) {
        uint8_t want = mlab_fp8_encode(x, fmt), got = mlab_fp8_sw_encode<FNUZ>(x);
        n++;
        if (want != got && bad++ < 5) {
            uint32_t u;
            memcpy(&u, &x, 4);
            printf("FAIL %s encode(0x%08x = %g): software 0x%02x, reference 0x%02x\n", name, u,
                   (double)x, got, want);
        }
    };
    for (uint32_t b = 0; b < 65536; b++)
        enc(mlab_bf16_to_f32((uint16_t)b));
    for (int c = 0; c < 255; c++) { /* midpoints and their neighbours */
        float a = mlab_fp8_decode((uint8_t)c, fmt), b = mlab_fp8_decode((uint8_t)(c + 1), fmt);
        if (isnan(a) || isnan(b)) continue;
        float mid = 0.5f * (a + b);
        enc(mid);
        enc(nextafterf(mid, 1e30f));
        enc(nextafterf(mid, -1e30f));
        enc(-mid);
    }
    uint64_t st = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 2000000; i++) {
        st ^= st << 13, st ^= st >> 7, st ^= st << 17;
        uint32_t u = (uint32_t)st;
        /* bias toward the fp8 range: exponent field 100..140 most of the time */
        if (i & 1) u = (u & 0x807fffffu) | ((100u + (u >> 24) % 41u) << 23);
        float x;
        memcpy(&x, &u, 4);
        enc(x);
    }
    long dbad = 0;
    for (int c = 0; c < 256; c++) {
        float want = mlab_fp8_decode((uint8_t)c, fmt);
        float got = f16_to_f32(mlab_fp8_sw_to_f16<FNUZ>((uint8_t)c));
        int ok = isnan(want) ? isnan(got) : (want == got && signbit(want) == signbit(got));
        if (!ok && dbad++ < 5)
            printf("FAIL %s decode(0x%02x): software %g, reference %g\n", name, c, (double)got,
                   (double)want);
    }
    printf("%s: encode %ld values, %ld mismatches; decode 256 codes, %ld mismatches\n", name, n,
           bad, dbad);
    return bad + dbad;
}

int main()
{
    long bad = check_flavour<false>("e4m3fn (gfx950)") + check_flavour<true>("e4m3fnuz (gfx940-942)");
    return bad ? 1 : 0;
}
