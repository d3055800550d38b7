/* numerics_dump: writes the inputs and outputs of reference/numerics.c as raw
 * binary tables, for tests/test_numerics.py to check against numpy + ml_dtypes.
 *
 * Usage: numerics_dump DIR      (DIR is created if missing)
 *
 * Every file is a flat little-endian array named TABLE.ROLE.TYPE, TYPE being
 * u8, u16 or u32 (fp32 values are stored as their u32 bits, bf16 as u16):
 *   bf16_encode   .in.u32  fp32 inputs        .out.u16  mlab_bf16_from_f32
 *   fp8_encode    .in.u32  fp32 inputs        .fn.u8 .fnuz.u8  mlab_fp8_encode
 *   fp8_decode    .fn.u32 .fnuz.u32           decode of codes 0..255
 *   e2m1_encode   .in.u32  fp32 inputs        .up.u8 .even.u8  mlab_e2m1_encode
 *   e2m1_decode   .out.u32                    decode of nibbles 0..15
 *   e8m0_decode   .out.u32                    decode of bytes 0..255
 *   e8m0_encode   .in.u32  fp32 inputs        .out.u8
 *   fp8_quant     .in.u16  bf16 tensors, concatenated; .len.u32 their lengths;
 *                 .fn.u8 .fnuz.u8 codes; .fn_scale.u32 .fnuz_scale.u32 one scale each
 *   mxfp4         .in.u16  bf16 blocks of 32; .up_packed.u8 (16 a block)
 *                 .up_scale.u8 (1 a block) .up_dequant.u32 (32 a block), same for even
 * Inputs: exhaustive bf16 patterns, boundary and tie patterns, and pseudo-random
 * data from a fixed-seed splitmix64, so every run writes the same bytes.
 */
#include "reference/numerics.h" // everything under test

#include <errno.h>    // errno
#include <math.h>     // ldexpf, nextafterf, sqrt, log, cos, INFINITY
#include <stdio.h>    // fopen, fwrite, fprintf
#include <stdlib.h>   // malloc, realloc, free
#include <string.h>   // memcpy, strerror
#include <sys/stat.h> // mkdir

/* ---- small helpers ------------------------------------------------------ */

static uint64_t rng_state = 0x6D6C616265ULL; /* "mlabe" */

static uint64_t rng_next(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint32_t rng_u32(void) { return (uint32_t)(rng_next() >> 32); }

static double rng_uniform(void) /* in (0, 1) */
{
    return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void) /* Box-Muller */
{
    return sqrt(-2.0 * log(rng_uniform())) * cos(6.283185307179586 * rng_uniform());
}

static uint16_t bf16_normal(double stddev)
{
    return mlab_bf16_from_f32((float)(rng_normal() * stddev));
}

/* A random fp32 with random sign and mantissa and exponent in [emin, emax]. */
static uint32_t rng_f32_in_binades(int emin, int emax)
{
    uint32_t r = rng_u32();
    int e = emin + (int)(rng_u32() % (uint32_t)(emax - emin + 1));
    return (r & 0x807FFFFFu) | ((uint32_t)(e + 127) << 23);
}

/* Growable array of fixed-size elements. */
typedef struct {
    unsigned char *p;
    size_t n, cap, size;
} vec;

static vec vec_new(size_t elem_size)
{
    vec v = {NULL, 0, 0, elem_size};
    return v;
}

static void *vec_grow(vec *v, size_t k) /* room for k more; returns where they go */
{
    if (v->n + k > v->cap) {
        size_t cap = v->cap ? v->cap : 1024;
        while (cap < v->n + k)
            cap *= 2;
        unsigned char *p = realloc(v->p, cap * v->size);
        if (!p) {
            fprintf(stderr, "numerics_dump: out of memory\n");
            exit(1);
        }
        v->p = p;
        v->cap = cap;
    }
    void *at = v->p + v->n * v->size;
    v->n += k;
    return at;
}

static void push32(vec *v, uint32_t x) { memcpy(vec_grow(v, 1), &x, 4); }
static void push16(vec *v, uint16_t x) { memcpy(vec_grow(v, 1), &x, 2); }
static void pushf(vec *v, float x) { push32(v, mlab_f32_bits(x)); }
static void pushf_pm(vec *v, float x) /* x and -x */
{
    pushf(v, x);
    pushf(v, -x);
}
/* x, its fp32 neighbours, and the same negated. */
static void pushf_around(vec *v, float x)
{
    pushf_pm(v, x);
    pushf_pm(v, nextafterf(x, INFINITY));
    pushf_pm(v, nextafterf(x, 0.0f));
}

static const char *out_dir;

static int write_table(const char *name, const void *data, size_t elem_size, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "numerics_dump: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t w = n ? fwrite(data, elem_size, n, f) : 0;
    int bad = fclose(f) != 0 || w != n;
    if (bad) {
        fprintf(stderr, "numerics_dump: short write to %s\n", path);
        return -1;
    }
    return 0;
}

static int write_vec(const char *name, const vec *v) { return write_table(name, v->p, v->size, v->n); }

/* ---- element-wise tables ------------------------------------------------ */

static int dump_bf16(void)
{
    vec in = vec_new(4);
    /* every bf16 pattern with low halves: exact, +1, just below half, half
     * (the tie), just above half, all ones */
    static const uint32_t lows[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
    for (uint32_t p = 0; p < 0x10000; p++)
        for (size_t k = 0; k < sizeof lows / sizeof lows[0]; k++)
            push32(&in, (p << 16) | lows[k]);
    /* specials: NaNs with payloads (quiet and signalling, payload only in the
     * dropped half), Inf, the largest finite and the rounding edge to Inf */
    static const uint32_t special[] = {0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                                       0x7F800001, 0xFF800001, 0x7F80FFFF, 0x7FBFFFFF,
                                       0x7FFFFFFF, 0xFFFFFFFF, 0x7FA12345, 0x7F7FFFFF,
                                       0x7F7F7FFF, 0x7F7F8000, 0x7F7F8001, 0x7F7EFFFF,
                                       0x00000001, 0x80000001, 0x007FFFFF, 0x00800000};
    for (size_t k = 0; k < sizeof special / sizeof special[0]; k++)
        push32(&in, special[k]);
    for (int i = 0; i < (1 << 21); i++)
        push32(&in, rng_u32());

    vec out = vec_new(2);
    const uint32_t *x = (const uint32_t *)in.p;
    for (size_t i = 0; i < in.n; i++)
        push16(&out, mlab_bf16_from_f32(mlab_f32_from_bits(x[i])));
    int rc = write_vec("bf16_encode.in.u32", &in) || write_vec("bf16_encode.out.u16", &out);
    free(in.p);
    free(out.p);
    return rc;
}

static int dump_fp8(void)
{
    vec in = vec_new(4);
    for (uint32_t p = 0; p < 0x10000; p++)
        push32(&in, p << 16);
    /* for both formats: every code, and every midpoint between neighbouring
     * codes (the ties, including largest subnormal / smallest normal and the
     * carries into the next binade) with its fp32 neighbours; then the
     * midpoint past the largest finite value and far overflow */
    for (int f = 0; f < 2; f++) {
        mlab_fp8_fmt fmt = (mlab_fp8_fmt)f;
        float fmax = mlab_fp8_max(fmt);
        for (int c = 0; c < 0x7F; c++) {
            float lo = mlab_fp8_decode((uint8_t)c, fmt);
            float hi = mlab_fp8_decode((uint8_t)(c + 1), fmt);
            pushf_around(&in, lo);
            if (hi == hi) /* c + 1 is not the NaN code */
                pushf_around(&in, 0.5f * (lo + hi));
        }
        float step = ldexpf(1.0f, fmt == MLAB_FP8_E4M3FNUZ ? 4 : 5); /* ulp at max */
        pushf_around(&in, fmax + 0.5f * step);
        pushf_around(&in, fmax + step);
        pushf_around(&in, fmax * 4.0f);
        pushf_around(&in, ldexpf(1.0f, -12)); /* below half the smallest subnormal */
    }
    pushf_pm(&in, INFINITY);
    pushf_around(&in, 3.4028235e38f);
    push32(&in, 0x7FC00000);
    push32(&in, 0xFFC00000);
    push32(&in, 0x7F800001);
    push32(&in, 0xFFBFFFFF);
    for (int i = 0; i < (1 << 20); i++)
        push32(&in, rng_u32());
    for (int i = 0; i < (1 << 20); i++)
        push32(&in, rng_f32_in_binades(-13, 9));

    vec fn = vec_new(1), fnuz = vec_new(1);
    const uint32_t *x = (const uint32_t *)in.p;
    for (size_t i = 0; i < in.n; i++) {
        *(uint8_t *)vec_grow(&fn, 1) = mlab_fp8_encode(mlab_f32_from_bits(x[i]), MLAB_FP8_E4M3FN);
        *(uint8_t *)vec_grow(&fnuz, 1) = mlab_fp8_encode(mlab_f32_from_bits(x[i]), MLAB_FP8_E4M3FNUZ);
    }
    uint32_t dec_fn[256], dec_fnuz[256];
    for (int c = 0; c < 256; c++) {
        dec_fn[c] = mlab_f32_bits(mlab_fp8_decode((uint8_t)c, MLAB_FP8_E4M3FN));
        dec_fnuz[c] = mlab_f32_bits(mlab_fp8_decode((uint8_t)c, MLAB_FP8_E4M3FNUZ));
    }
    int rc = write_vec("fp8_encode.in.u32", &in) || write_vec("fp8_encode.fn.u8", &fn) ||
             write_vec("fp8_encode.fnuz.u8", &fnuz) ||
             write_table("fp8_decode.fn.u32", dec_fn, 4, 256) ||
             write_table("fp8_decode.fnuz.u32", dec_fnuz, 4, 256);
    free(in.p);
    free(fn.p);
    free(fnuz.p);
    return rc;
}

static int dump_e2m1(void)
{
    vec in = vec_new(4);
    for (uint32_t p = 0; p < 0x10000; p++)
        push32(&in, p << 16);
    static const float points[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f,
                                   2.5f, 3.0f, 3.5f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    for (size_t k = 0; k < sizeof points / sizeof points[0]; k++)
        pushf_around(&in, points[k]);
    pushf_pm(&in, INFINITY);
    push32(&in, 0x7FC00000);
    push32(&in, 0xFFC00000);
    push32(&in, 0x7F800001);
    for (int i = 0; i < (1 << 20); i++)
        push32(&in, rng_f32_in_binades(-4, 3));
    for (int i = 0; i < (1 << 18); i++)
        push32(&in, rng_u32());

    vec up = vec_new(1), even = vec_new(1);
    const uint32_t *x = (const uint32_t *)in.p;
    for (size_t i = 0; i < in.n; i++) {
        *(uint8_t *)vec_grow(&up, 1) = mlab_e2m1_encode(mlab_f32_from_bits(x[i]), MLAB_TIE_UP);
        *(uint8_t *)vec_grow(&even, 1) = mlab_e2m1_encode(mlab_f32_from_bits(x[i]), MLAB_TIE_EVEN);
    }
    uint32_t dec[16];
    for (int c = 0; c < 16; c++)
        dec[c] = mlab_f32_bits(mlab_e2m1_decode((uint8_t)c));
    int rc = write_vec("e2m1_encode.in.u32", &in) || write_vec("e2m1_encode.up.u8", &up) ||
             write_vec("e2m1_encode.even.u8", &even) ||
             write_table("e2m1_decode.out.u32", dec, 4, 16);
    free(in.p);
    free(up.p);
    free(even.p);
    return rc;
}

static int dump_e8m0(void)
{
    uint32_t dec[256];
    for (int e = 0; e < 256; e++)
        dec[e] = mlab_f32_bits(mlab_e8m0_decode((uint8_t)e));

    vec in = vec_new(4);
    for (uint32_t p = 0; p < 0x10000; p++)
        push32(&in, p << 16);
    for (int k = -149; k <= 127; k++) /* every power of two, subnormals included */
        pushf_around(&in, ldexpf(1.0f, k));
    pushf_pm(&in, INFINITY);
    push32(&in, 0x7FC00000);
    push32(&in, 0xFFC00000);
    for (int i = 0; i < (1 << 20); i++)
        push32(&in, rng_u32());

    vec out = vec_new(1);
    const uint32_t *x = (const uint32_t *)in.p;
    for (size_t i = 0; i < in.n; i++)
        *(uint8_t *)vec_grow(&out, 1) = mlab_e8m0_encode(mlab_f32_from_bits(x[i]));
    int rc = write_table("e8m0_decode.out.u32", dec, 4, 256) ||
             write_vec("e8m0_encode.in.u32", &in) || write_vec("e8m0_encode.out.u8", &out);
    free(in.p);
    free(out.p);
    return rc;
}

/* ---- per-tensor fp8 quantizer ------------------------------------------- */

typedef struct {
    vec in;  /* u16: all tensors, concatenated */
    vec len; /* u32: one length per tensor */
    size_t start;
} tensors;

static void tensor_begin(tensors *t) { t->start = t->in.n; }
static void tensor_end(tensors *t) { push32(&t->len, (uint32_t)(t->in.n - t->start)); }

static void tensor_normal(tensors *t, size_t n, double stddev)
{
    tensor_begin(t);
    for (size_t i = 0; i < n; i++)
        push16(&t->in, bf16_normal(stddev));
    tensor_end(t);
}

/* Every finite bf16 value with |x| <= limit, both signs: with amax = limit
 * such that s = 1, y = x and the codes are the plain fp8 rounding. */
static void tensor_all_bf16_upto(tensors *t, float limit)
{
    tensor_begin(t);
    for (uint32_t p = 0; p < 0x7F80; p++) {
        if (mlab_bf16_to_f32((uint16_t)p) > limit)
            break;
        push16(&t->in, (uint16_t)p);
        push16(&t->in, (uint16_t)(p | 0x8000));
    }
    tensor_end(t);
}

static void tensor_of(tensors *t, const float *v, size_t n)
{
    tensor_begin(t);
    for (size_t i = 0; i < n; i++)
        push16(&t->in, mlab_bf16_from_f32(v[i]));
    tensor_end(t);
}

static int dump_fp8_quant(void)
{
    tensors t = {vec_new(2), vec_new(4), 0};

    tensor_normal(&t, 65536, 1.0);  /* the benchmark's inputs */
    tensor_normal(&t, 65536, 0.02); /* the benchmark before 2026-03-17 */
    tensor_normal(&t, 4096, 1000.0);
    tensor_normal(&t, 1000, 1e-13); /* amax below the 1e-12 clamp */
    tensor_all_bf16_upto(&t, 448.0f); /* fn: s = 1, every fp8 tie once */
    tensor_all_bf16_upto(&t, 240.0f); /* fnuz: s = 1 */
    tensor_all_bf16_upto(&t, 1e-12f); /* bf16 subnormals and tiny normals */
    {
        float zeros[64] = {0};
        tensor_of(&t, zeros, 64);
        for (int i = 0; i < 64; i += 2)
            zeros[i] = -0.0f;
        tensor_of(&t, zeros, 64);
    }
    {
        /* amax straddling 1e-12 in bf16 */
        uint16_t c = mlab_bf16_from_f32(1e-12f);
        for (int d = -2; d <= 2; d++) {
            float v[4] = {mlab_bf16_to_f32((uint16_t)(c + d)), -1e-13f, 5e-13f, 0.0f};
            tensor_of(&t, v, 4);
        }
    }
    {
        /* saturation: s = bf16(amax / fmax) rounds down, so x / s > fmax */
        static const float amax[] = {449.0f, 452.0f, 460.0f, 464.0f, 500.0f, 244.0f, 250.0f,
                                     256.0f, 3.0f, 1.0f / 3.0f};
        for (size_t k = 0; k < sizeof amax / sizeof amax[0]; k++) {
            float v[64];
            float a = mlab_bf16_to_f32(mlab_bf16_from_f32(amax[k]));
            for (int i = 0; i < 64; i++) /* values from amax down to 0.9 amax */
                v[i] = (i & 1 ? -a : a) * (1.0f - 0.1f * (float)i / 64.0f);
            tensor_of(&t, v, 64);
        }
    }
    {
        /* s = 2 (fn) and ties after division: x = 2 * (fp8 midpoints) */
        float v[256];
        int n = 0;
        v[n++] = 896.0f;
        for (int c = 0; c < 0x7E && n < 256; c++) {
            float lo = mlab_fp8_decode((uint8_t)c, MLAB_FP8_E4M3FN);
            float hi = mlab_fp8_decode((uint8_t)(c + 1), MLAB_FP8_E4M3FN);
            v[n++] = (c & 1 ? -1.0f : 1.0f) * (lo + hi);
        }
        tensor_of(&t, v, (size_t)n);
    }
    {
        /* NaN and Inf (documented: NaN -> all NaN codes; Inf -> NaN at the
         * Inf, zeros elsewhere) */
        float v[8] = {1.0f, -2.0f, NAN, 3.0f, 0.5f, -0.0f, 7.0f, 0.25f};
        tensor_of(&t, v, 8);
        v[2] = INFINITY;
        tensor_of(&t, v, 8);
        v[2] = -INFINITY;
        tensor_of(&t, v, 8);
    }
    {
        /* single elements */
        static const float one[] = {1.0f, -1.0f, 448.0f, 240.0f, 1e-20f, -3.0e38f};
        for (size_t k = 0; k < sizeof one / sizeof one[0]; k++)
            tensor_of(&t, &one[k], 1);
    }
    /* every positive finite bf16 amax: a short tensor with +-amax and random
     * fractions of it, so s is checked for each amax */
    for (uint32_t p = 1; p < 0x7F80; p++) {
        float a = mlab_bf16_to_f32((uint16_t)p);
        tensor_begin(&t);
        push16(&t.in, (uint16_t)p);
        push16(&t.in, (uint16_t)(p | 0x8000));
        for (int i = 0; i < 4; i++)
            push16(&t.in, mlab_bf16_from_f32(a * (float)(2.0 * rng_uniform() - 1.0)));
        tensor_end(&t);
    }

    size_t ntens = t.len.n;
    uint8_t *codes[2] = {malloc(t.in.n), malloc(t.in.n)};
    uint32_t *scales[2] = {malloc(4 * ntens), malloc(4 * ntens)};
    int rc = -1;
    if (!codes[0] || !codes[1] || !scales[0] || !scales[1]) {
        fprintf(stderr, "numerics_dump: out of memory\n");
        goto free_all;
    }
    for (int f = 0; f < 2; f++) {
        size_t at = 0;
        const uint16_t *x = (const uint16_t *)t.in.p;
        const uint32_t *len = (const uint32_t *)t.len.p;
        for (size_t k = 0; k < ntens; k++) {
            float s = mlab_fp8_quantize_tensor(x + at, len[k], (mlab_fp8_fmt)f, codes[f] + at);
            scales[f][k] = mlab_f32_bits(s);
            at += len[k];
        }
    }
    rc = write_vec("fp8_quant.in.u16", &t.in) || write_vec("fp8_quant.len.u32", &t.len) ||
         write_table("fp8_quant.fn.u8", codes[0], 1, t.in.n) ||
         write_table("fp8_quant.fnuz.u8", codes[1], 1, t.in.n) ||
         write_table("fp8_quant.fn_scale.u32", scales[0], 4, ntens) ||
         write_table("fp8_quant.fnuz_scale.u32", scales[1], 4, ntens);
free_all:
    free(codes[0]);
    free(codes[1]);
    free(scales[0]);
    free(scales[1]);
    free(t.in.p);
    free(t.len.p);
    return rc;
}

/* ---- MXFP4 -------------------------------------------------------------- */

/* One block: the anchor first (it sets amax), then v[], padded with zeros. */
static void block_of(vec *in, float anchor, const float *v, int n)
{
    push16(in, mlab_bf16_from_f32(anchor));
    for (int i = 0; i < 31; i++)
        push16(in, i < n ? mlab_bf16_from_f32(v[i]) : 0);
}

/* Blocks whose amax gives block exponent u and whose elements land on every
 * e2m1 tie x * 2^-u = t, on the neighbouring bf16 values, and on the codes. */
static void blocks_ties(vec *in, int u)
{
    static const float ties[7] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
    static const float codes[7] = {0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    float anchor = ldexpf(6.0f, u); /* significand 1.5: exponent u */
    float v[31];
    int n = 0;
    for (int k = 0; k < 7; k++) {
        v[n++] = ldexpf(ties[k], u);
        v[n++] = -ldexpf(ties[k], u);
    }
    block_of(in, anchor, v, n);
    for (int d = -1; d <= 1; d += 2) { /* the bf16 neighbours of each tie */
        n = 0;
        for (int k = 0; k < 7; k++) {
            uint16_t b = mlab_bf16_from_f32(ldexpf(ties[k], u));
            float nb = mlab_bf16_to_f32((uint16_t)(b + d));
            v[n++] = nb;
            v[n++] = -nb;
        }
        block_of(in, anchor, v, n);
    }
    n = 0;
    for (int k = 0; k < 7; k++) {
        v[n++] = ldexpf(codes[k], u);
        v[n++] = -ldexpf(codes[k], u);
    }
    block_of(in, anchor, v, n);
    /* amax with significand exactly 1.75 (exponent u + 1: 3.5 is then a
     * tie), and just below (exponent u, 6.97 saturates) */
    v[0] = ldexpf(-7.0f, u);
    v[1] = ldexpf(5.0f, u);
    v[2] = ldexpf(2.5f, u);
    v[3] = ldexpf(0.5f, u);
    v[4] = ldexpf(1.0f, u);
    block_of(in, ldexpf(7.0f, u), v, 5);
    float below = mlab_bf16_to_f32((uint16_t)(mlab_bf16_from_f32(ldexpf(7.0f, u)) - 1));
    block_of(in, below, v + 1, 4);
}

/* Every bf16 value of magnitude <= anchor as an element, 31 to a block. */
static void blocks_sweep(vec *in, float anchor)
{
    float v[31];
    int n = 0;
    for (uint32_t p = 0; p < 0x7F80; p++) {
        float x = mlab_bf16_to_f32((uint16_t)p);
        if (x > anchor)
            break;
        for (int sgn = 0; sgn < 2; sgn++) {
            v[n++] = sgn ? -x : x;
            if (n == 31) {
                block_of(in, anchor, v, n);
                n = 0;
            }
        }
    }
    if (n)
        block_of(in, anchor, v, n);
}

static int dump_mxfp4(void)
{
    enum { DIM = 576 };
    vec in = vec_new(2);

    /* random rows, quantized by mlab_mxfp4_quantize_row below */
    size_t nrows = 0;
    for (int r = 0; r < 1000; r++, nrows++)
        for (int i = 0; i < DIM; i++)
            push16(&in, bf16_normal(1.0));
    for (int r = 0; r < 200; r++, nrows++)
        for (int i = 0; i < DIM; i++)
            push16(&in, bf16_normal(0.02));
    size_t row_elems = in.n;

    /* edge blocks, quantized one block at a time */
    {
        float v[31] = {0};
        block_of(&in, 0.0f, v, 31); /* all +0 */
        for (int i = 0; i < 31; i += 2)
            v[i] = -0.0f;
        block_of(&in, -0.0f, v, 31); /* +-0 */
    }
    static const int us[] = {-127, -126, -125, -124, -100, -20, -3, -2, -1, 0, 1, 2,
                             3, 20, 100, 123, 124, 125};
    for (size_t k = 0; k < sizeof us / sizeof us[0]; k++)
        blocks_ties(&in, us[k]);
    {
        /* the clamps: huge amax (1.75 * 2^127 rounds to Inf: u = 127), tiny
         * amax (u below -127) */
        static const uint16_t amax[] = {0x7F7F, 0x7F60, 0x7F5F, 0x7F00, 0x7E60, 0x0080,
                                        0x0100, 0x0180, 0x00E0, 0x00DF, 0x0060, 0x0001};
        for (size_t k = 0; k < sizeof amax / sizeof amax[0]; k++) {
            float a = mlab_bf16_to_f32(amax[k]);
            float v[31];
            for (int i = 0; i < 31; i++)
                v[i] = a * (float)(2.0 * rng_uniform() - 1.0);
            block_of(&in, a, v, 31);
            block_of(&in, -a, v, 31);
        }
    }
    {
        /* Inf, NaN (payloads included), subnormal elements under a normal amax */
        float v[31];
        for (int i = 0; i < 31; i++)
            v[i] = (float)rng_normal();
        block_of(&in, INFINITY, v, 31);
        block_of(&in, -INFINITY, v, 31);
        v[7] = NAN;
        block_of(&in, 1.0f, v, 31);
        block_of(&in, NAN, v, 0);
        block_of(&in, mlab_f32_from_bits(0xFF810000), v, 0);
        block_of(&in, mlab_f32_from_bits(0x7FC10000), v, 31);
        for (int i = 0; i < 31; i++)
            v[i] = mlab_bf16_to_f32((uint16_t)(1 + i * 4 + (i & 1) * 0x8000));
        block_of(&in, 1.0f, v, 31);
        block_of(&in, mlab_bf16_to_f32(0x0080), v, 31);
    }
    /* every bf16 element value under a few amax values */
    blocks_sweep(&in, 6.0f);
    blocks_sweep(&in, ldexpf(6.0f, -100));
    blocks_sweep(&in, ldexpf(1.0f, -126));
    /* every positive finite bf16 amax, with random fractions of it */
    for (uint32_t p = 1; p < 0x7F80; p++) {
        float a = mlab_bf16_to_f32((uint16_t)p);
        float v[31];
        for (int i = 0; i < 31; i++)
            v[i] = a * (float)(2.0 * rng_uniform() - 1.0);
        block_of(&in, (p & 1) ? -a : a, v, 31);
    }

    size_t nblocks = in.n / 32;
    const uint16_t *x = (const uint16_t *)in.p;
    uint8_t *packed = malloc(16 * nblocks);
    uint8_t *scale = malloc(nblocks);
    float *deq = malloc(4 * 32 * nblocks);
    int rc = -1;
    if (!packed || !scale || !deq) {
        fprintf(stderr, "numerics_dump: out of memory\n");
        goto free_all;
    }
    static const char *names[2][3] = {{"mxfp4.up_packed.u8", "mxfp4.up_scale.u8", "mxfp4.up_dequant.u32"},
                                      {"mxfp4.even_packed.u8", "mxfp4.even_scale.u8", "mxfp4.even_dequant.u32"}};
    rc = write_vec("mxfp4.in.u16", &in);
    for (int t = 0; t < 2 && rc == 0; t++) {
        mlab_fp4_tie tie = t == 0 ? MLAB_TIE_UP : MLAB_TIE_EVEN;
        for (size_t r = 0; r < nrows; r++)
            mlab_mxfp4_quantize_row(x + r * DIM, DIM, tie, packed + r * DIM / 2,
                                    scale + r * DIM / 32);
        for (size_t b = row_elems / 32; b < nblocks; b++)
            scale[b] = mlab_mxfp4_quantize_block(x + 32 * b, tie, packed + 16 * b);
        for (size_t r = 0; r < nrows; r++)
            mlab_mxfp4_dequant_row(packed + r * DIM / 2, scale + r * DIM / 32, DIM,
                                   deq + r * DIM);
        for (size_t b = row_elems / 32; b < nblocks; b++)
            mlab_mxfp4_dequant_row(packed + 16 * b, scale + b, 32, deq + 32 * b);
        rc = write_table(names[t][0], packed, 1, 16 * nblocks) ||
             write_table(names[t][1], scale, 1, nblocks) ||
             write_table(names[t][2], deq, 4, 32 * nblocks);
    }
free_all:
    free(packed);
    free(scale);
    free(deq);
    free(in.p);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: numerics_dump DIR\n");
        return 2;
    }
    out_dir = argv[1];
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "numerics_dump: cannot create %s: %s\n", out_dir, strerror(errno));
        return 1;
    }
    if (dump_bf16() || dump_fp8() || dump_e2m1() || dump_e8m0() || dump_fp8_quant() ||
        dump_mxfp4())
        return 1;
    printf("numerics_dump: tables written to %s\n", out_dir);
    return 0;
}
