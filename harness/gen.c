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

/* ---- names and sizes ------------------------------------------------------ */

/* The fewest significant digits (%g) that read back (through double, as
 * Python's float() then fp32 does) as the fp32 value x. */
static void scale_str(float x, char *out, size_t n)
{
    for (int p = 1; p <= 9; p++) {
        snprintf(out, n, "%.*g", p, (double)x);
        if ((float)strtod(out, NULL) == x)
            return;
    }
}

static int spec_len(const mlab_gen_spec *s, int b) { return s->kv_lens ? s->kv_lens[b] : s->kv_len; }

int mlab_gen_name(const mlab_gen_spec *s, char *out, size_t outlen, char *why, size_t whylen)
{
    char kv[64], x[32] = "", q[16] = "";
    int uniform = 1;
    for (int b = 1; b < s->batch; b++)
        uniform &= spec_len(s, b) == spec_len(s, 0);
    if (s->name[0]) {
        snprintf(out, outlen, "%s", s->name);
        return 0;
    }
    if (uniform) {
        snprintf(kv, sizeof kv, "kv%d", spec_len(s, 0));
    } else {
        /* kv<L1>-<L2>-.. when short, else an FNV-1a 32 hash of "L1,L2,.." */
        size_t len = 2;
        uint32_t h = 2166136261u;
        snprintf(kv, sizeof kv, "kv");
        for (int b = 0; b < s->batch; b++) {
            char num[16];
            int k = snprintf(num, sizeof num, "%s%d", b ? "," : "", spec_len(s, b));
            for (int j = 0; j < k; j++)
                h = (h ^ (uint8_t)num[j]) * 16777619u;
            if (len + (size_t)k <= 34) {
                if (b)
                    num[0] = '-';
                memcpy(kv + len, num, (size_t)k + 1);
            }
            len += (size_t)k;
        }
        if (len > 34)
            snprintf(kv, sizeof kv, "kvvar%08x", (unsigned)h);
    }
    if (s->input_scale != 1.0f) {
        char v[24];
        scale_str(s->input_scale, v, sizeof v);
        snprintf(x, sizeof x, "_x%s", v);
    }
    if (s->q_seq_len != 1)
        snprintf(q, sizeof q, "_q%d", s->q_seq_len);
    char stem[160];
    snprintf(stem, sizeof stem, "b%d_%s_s%llu%s", s->batch, kv, (unsigned long long)s->seed, x);
    return mlab_case_name_finish(stem, s->fp4_tie, s->fp8_fmt, q, out, outlen, why, whylen);
}

int mlab_case_name_finish(const char *stem, mlab_fp4_tie tie, mlab_fp8_fmt fp8, const char *tail, char *out,
                          size_t outlen, char *why, size_t whylen)
{
    char name[256];
    snprintf(name, sizeof name, "%s%s%s%s", stem, tie == MLAB_TIE_EVEN ? "_even" : "",
             fp8 == MLAB_FP8_E4M3FNUZ ? "_fnuz" : "", tail);
    if (strlen(name) > 63 || strlen(name) >= outlen) {
        snprintf(why, whylen, "case name %s: %zu characters, the limit is 63: give it a --name",
                 name, strlen(name));
        return -1;
    }
    snprintf(out, outlen, "%s", name);
    return 0;
}

double mlab_gen_file_bytes(const mlab_gen_spec *s)
{
    double kv = 0;
    for (int b = 0; b < s->batch; b++)
        kv += spec_len(s, b) > 0 ? spec_len(s, b) : 0;
    double q = (double)s->batch * s->q_seq_len;
    return q * MLAB_HEADS * MLAB_DQK * 2 +
           kv * (MLAB_DQK * 2 + MLAB_DQK + MLAB_FP4_ROW + MLAB_MX_NBLK) + 4 + 2.0 * (s->batch + 1) * 4;
}

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

#define GEN_CHUNKS 32 /* progress points per long step; values never depend on them */

static void report(const mlab_gen_spec *s, const char *step, double frac)
{
    if (s->progress)
        s->progress(s->progress_ctx, step, frac);
}

/* n bf16 normals of (seed, stream) into x; the share [f0, f1) of the case. */
static void fill_bf16(const mlab_gen_spec *s, uint16_t *x, size_t n, uint32_t stream,
                      const char *step, double f0, double f1)
{
    long long npairs = (long long)((n + 1) / 2);
    float scale = s->input_scale;
    int nch = npairs >= (1 << 22) ? GEN_CHUNKS : 1; /* small tensors: one parallel region */
    for (int ch = 0; ch < nch; ch++) {
        long long k0 = npairs * ch / nch, k1 = npairs * (ch + 1) / nch;
#pragma omp parallel for schedule(static)
        for (long long k = k0; k < k1; k++) {
            double z[2];
            normal_pair(s->seed, stream, (uint64_t)k, z);
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
        report(s, step, f0 + (f1 - f0) * (ch + 1) / nch);
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
    char name[64];
    if (mlab_gen_name(s, name, sizeof name, why, whylen))
        return MLAB_EXIT_USAGE;
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
    snprintf(c->name, sizeof c->name, "%s", name);
    size_t nq = (size_t)c->total_q * MLAB_HEADS * MLAB_DQK, nkv = (size_t)total_kv;
    /* shares of the work, by bytes touched: q, kv, fp8 pass, MXFP4 pass */
    double wq = (double)nq, wkv = (double)nkv * MLAB_DQK, tot = wq + 2.5 * wkv + 1;
    double f1 = wq / tot, f2 = (wq + wkv) / tot, f3 = (wq + 1.5 * wkv) / tot;
    fill_bf16(s, c->q, nq, 0, "q", 0, f1);
    fill_bf16(s, c->kv_bf16, nkv * MLAB_DQK, 1, "kv", f1, f2);
    c->kv_fp8_scale = mlab_fp8_quantize_tensor(c->kv_bf16, nkv * MLAB_DQK, s->fp8_fmt, c->kv_fp8);
    report(s, "fp8", f3);
    int nch = nkv >= (1 << 14) ? GEN_CHUNKS : 1;
    for (int ch = 0; ch < nch; ch++) {
        long long r0 = (long long)nkv * ch / nch, r1 = (long long)nkv * (ch + 1) / nch;
#pragma omp parallel for schedule(static)
        for (long long r = r0; r < r1; r++)
            mlab_mxfp4_quantize_row(c->kv_bf16 + (size_t)r * MLAB_DQK, MLAB_DQK, s->fp4_tie,
                                    c->kv_fp4 + (size_t)r * MLAB_FP4_ROW,
                                    c->kv_e8m0 + (size_t)r * MLAB_MX_NBLK);
        report(s, "mxfp4", f3 + (1 - f3) * (ch + 1) / nch);
    }
    /* what a case file would be refused for (a scale past bf16's range:
     * non-finite values) is refused here, before run computes on it or gen
     * writes it: the options asked for it */
    char r[256];
    if (mlab_case_validate(c, r, sizeof r)) {
        snprintf(why, whylen, "%s: --input-scale %g gives a case no file may hold: %s", name,
                 (double)s->input_scale, r);
        mlab_case_free(c);
        return MLAB_EXIT_USAGE;
    }
    return MLAB_EXIT_OK;
}
