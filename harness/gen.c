/* gen.c: deterministic case generation (gen.h).
 * Philox4x32-10 (Salmon et al., SC'11) keyed by the seed, counter = (pair
 * index, stream); Box-Muller in double, each normal rounded to bf16. */
#include "gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"

static const int suite[MLAB_SUITE_N][3] = {
    {4, 1024, 4217},  {4, 8192, 4220},  {32, 1024, 5412},  {32, 8192, 5415},
    {64, 1024, 1357}, {64, 8192, 1360}, {256, 1024, 9823}, {256, 8192, 9826},
};

void mlab_gen_spec_init(mlab_gen_spec *s)
{
    memset(s, 0, sizeof *s);
    s->batch = 1;
    s->q_seq_len = 1;
    s->kv_len = 1024;
    s->seed = 1;
    s->input_scale = 1.0f;
    s->fp4_tie = MLAB_TIE_UP;
    s->fp8_fmt = MLAB_FP8_E4M3FN;
}

void mlab_suite_spec(int i, mlab_gen_spec *s)
{
    mlab_gen_spec_init(s);
    s->batch = suite[i][0];
    s->kv_len = suite[i][1];
    s->seed = (uint64_t)suite[i][2];
}

void mlab_default_spec(mlab_gen_spec *s) { mlab_suite_spec(0, s); }

/* ---- Philox4x32-10 -------------------------------------------------------- */
static void philox(uint32_t ctr[4], uint32_t key0, uint32_t key1)
{
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * ctr[0];
        uint64_t p1 = (uint64_t)0xCD9E8D57u * ctr[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ ctr[1] ^ key0;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ ctr[3] ^ key1;
        ctr[1] = (uint32_t)p1;
        ctr[3] = (uint32_t)p0;
        ctr[0] = n0;
        ctr[2] = n2;
        key0 += 0x9E3779B9u;
        key1 += 0xBB67AE85u;
    }
}

/* Two normals for pair index k of (seed, stream). */
static void normal_pair(uint64_t seed, uint32_t stream, uint64_t k, double z[2])
{
    uint32_t c[4] = {(uint32_t)k, (uint32_t)(k >> 32), stream, 0x6D6C6162u /* "mlab" */};
    philox(c, (uint32_t)seed, (uint32_t)(seed >> 32));
    /* 53-bit uniforms; u1 in (0, 1] so the log is finite */
    uint64_t a = ((uint64_t)c[0] << 21) ^ (c[1] >> 11);
    uint64_t b = ((uint64_t)c[2] << 21) ^ (c[3] >> 11);
    double u1 = ((double)(a & ((1ull << 53) - 1)) + 1.0) * 0x1p-53;
    double u2 = (double)(b & ((1ull << 53) - 1)) * 0x1p-53;
    double r = sqrt(-2.0 * log(u1));
    z[0] = r * cos(6.283185307179586476925 * u2);
    z[1] = r * sin(6.283185307179586476925 * u2);
}

float mlab_gen_normal(uint64_t seed, uint32_t stream, uint64_t i)
{
    double z[2];
    normal_pair(seed, stream, i / 2, z);
    return (float)z[i & 1];
}

static void fill_bf16(uint16_t *x, size_t n, uint64_t seed, uint32_t stream, float scale)
{
    long long npairs = (long long)((n + 1) / 2);
#pragma omp parallel for schedule(static)
    for (long long k = 0; k < npairs; k++) {
        double z[2];
        normal_pair(seed, stream, (uint64_t)k, z);
        for (int j = 0; j < 2; j++) {
            size_t i = 2 * (size_t)k + (size_t)j;
            if (i >= n)
                break;
            uint16_t v = mlab_bf16_from_f32((float)z[j]);
            if (scale != 1.0f)
                v = mlab_bf16_from_f32(mlab_bf16_to_f32(v) * scale);
            x[i] = v;
        }
    }
}

int mlab_gen_case(const mlab_gen_spec *s, mlab_case *c, char *why, size_t whylen)
{
    memset(c, 0, sizeof *c);
    if (s->batch < 1 || s->batch > (1 << 20)) {
        snprintf(why, whylen, "batch %d: must be 1 .. 1048576", s->batch);
        return MLAB_EXIT_USAGE;
    }
    if (s->q_seq_len < 1 || s->q_seq_len > 4) {
        snprintf(why, whylen, "q_seq_len %d: must be 1 .. 4", s->q_seq_len);
        return MLAB_EXIT_USAGE;
    }
    long long total_kv = 0;
    for (int b = 0; b < s->batch; b++) {
        int L = s->kv_lens ? s->kv_lens[b] : s->kv_len;
        if (L < 0) {
            snprintf(why, whylen, "kv length %d of item %d: must be >= 0", L, b);
            return MLAB_EXIT_USAGE;
        }
        total_kv += L;
    }
    if (total_kv > 0x7FFFFFFFll) {
        snprintf(why, whylen, "%lld kv rows: more than int32 indptrs hold", total_kv);
        return MLAB_EXIT_USAGE;
    }
    if (mlab_case_alloc(c, s->batch, s->batch * s->q_seq_len, (int)total_kv)) {
        snprintf(why, whylen, "out of memory for %lld kv rows", total_kv);
        return MLAB_EXIT_INTERNAL;
    }
    int uniform = 1;
    for (int b = 0; b < s->batch; b++) {
        int L = s->kv_lens ? s->kv_lens[b] : s->kv_len;
        if (L != (s->kv_lens ? s->kv_lens[0] : s->kv_len))
            uniform = 0;
        c->qo_indptr[b + 1] = c->qo_indptr[b] + s->q_seq_len;
        c->kv_indptr[b + 1] = c->kv_indptr[b] + L;
    }
    c->q_seq_len = s->q_seq_len;
    c->kv_len = uniform ? (s->kv_lens ? s->kv_lens[0] : s->kv_len) : -1;
    c->sm_scale = 1.0f / sqrtf((float)MLAB_DQK);
    c->seed = s->seed;
    c->input_scale = s->input_scale;
    c->fp4_tie = s->fp4_tie;
    c->fp8_fmt = s->fp8_fmt;
    if (s->name[0])
        snprintf(c->name, sizeof c->name, "%s", s->name);
    else if (uniform)
        snprintf(c->name, sizeof c->name, "b%d_kv%d_q%d_s%llu%s", s->batch, c->kv_len,
                 s->q_seq_len, (unsigned long long)s->seed, s->input_scale != 1.0f ? "_x0.02" : "");
    else
        snprintf(c->name, sizeof c->name, "b%d_kvvar_q%d_s%llu", s->batch, s->q_seq_len,
                 (unsigned long long)s->seed);

    size_t nq = (size_t)c->total_q * MLAB_HEADS * MLAB_DQK, nkv = (size_t)total_kv;
    fill_bf16(c->q, nq, s->seed, 0, s->input_scale);
    fill_bf16(c->kv_bf16, nkv * MLAB_DQK, s->seed, 1, s->input_scale);
    c->kv_fp8_scale = mlab_fp8_quantize_tensor(c->kv_bf16, nkv * MLAB_DQK, s->fp8_fmt, c->kv_fp8);
#pragma omp parallel for schedule(static)
    for (long long r = 0; r < (long long)nkv; r++)
        mlab_mxfp4_quantize_row(c->kv_bf16 + (size_t)r * MLAB_DQK, MLAB_DQK, s->fp4_tie,
                                c->kv_fp4 + (size_t)r * MLAB_FP4_ROW,
                                c->kv_e8m0 + (size_t)r * MLAB_MX_NBLK);
    return MLAB_EXIT_OK;
}
