/* runner.hip: the GPU side of the harness (harness/gpu.h), one file for both
 * vendors: device discovery, the copy-bandwidth probe, case upload with NaN
 * poison, the split rule, validation runs and cold timing with events. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launchers.h"
#include "mla_kernel.h"
#include "variants.h"

extern "C" {
#include "harness/exitcodes.h"
#include "harness/gpu.h"
#include "harness/splits.h" /* mlab_choose_splits */
}

#define GAP_ROWS (MLA_BN + 16) /* poisoned rows before and between items */

static const mlab_variant_impl *impls[MLAB_V_COUNT] = {
    &mlab_impl_bf16, &mlab_impl_fp8, &mlab_impl_mxfp4, &mlab_impl_mxfp4_unfused,
    &mlab_impl_fp8_exp2rcp, &mlab_impl_fp8_xcd,
};

struct mlab_gpu {
    int dev, sms, smem_max; /* shared memory (LDS) a block may use, bytes */
    int has_fp8_mma;        /* fp8 matrix instructions: sm_89+, gfx940+ */
    size_t l2;
    hipStream_t s;
    void *flush;
    size_t flush_bytes;
    /* the loaded case */
    int loaded, total_q, batch, kv_rows, max_tiles, max_splits;
    mla_params base;
    mlab_fp8_fmt fp8_fmt;
    void *bufs[16];         /* every device buffer of the case, freed together */
    int nbufs;
    uint16_t *scratch;      /* one of them: kv_rows x 576 bf16 for mxfp4_unfused */
};

#define CK(call)                                                                          \
    do {                                                                                  \
        hipError_t e_ = (call);                                                           \
        if (e_ != hipSuccess) {                                                           \
            snprintf(why, whylen, "%s: %s (%s:%d)", #call, hipGetErrorString(e_), __FILE__, __LINE__); \
            return MLAB_EXIT_INTERNAL;                                                    \
        }                                                                                 \
    } while (0)

/* The kernel driver's version: the first token that looks like a version
 * number ("580.159.04") on the first line of the driver's version file. */
static void read_driver_version(char *dst, size_t n)
{
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f) f = fopen("/sys/module/amdgpu/version", "r");
    if (!f) return;
    char line[512], *save = NULL;
    if (fgets(line, sizeof line, f))
        for (char *t = strtok_r(line, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
            if (t[0] >= '0' && t[0] <= '9' && strchr(t, '.')) {
                snprintf(dst, n, "%s", t);
                break;
            }
    fclose(f);
}

extern "C" int mlab_gpu_open(mlab_gpu **gp, int device, mlab_env *env, char *why, size_t whylen)
{
    *gp = NULL;
    int n = 0;
    hipError_t e = hipGetDeviceCount(&n);
    if (e != hipSuccess || n == 0) {
        snprintf(why, whylen, "no GPU: %s", e != hipSuccess ? hipGetErrorString(e) : "device count 0");
        (void)hipGetLastError(); /* clear the error the failed call left; the reason is in why */
        return MLAB_EXIT_NOGPU;
    }
    if (device < 0 || device >= n) {
        snprintf(why, whylen, "device %d does not exist: %d visible", device, n);
        return MLAB_EXIT_USAGE;
    }
    mlab_gpu *g = (mlab_gpu *)calloc(1, sizeof *g);
    if (!g) return MLAB_EXIT_INTERNAL;
    *gp = g;
    g->dev = device;
    env->gpu_index = device;
    CK(hipSetDevice(device));
    hipDeviceProp_t prop;
    CK(hipGetDeviceProperties(&prop, device));
    int clk = 0, mclk = 0, l2 = 0;
    CK(hipDeviceGetAttribute(&g->sms, hipDeviceAttributeMultiprocessorCount, device));
    CK(hipDeviceGetAttribute(&clk, hipDeviceAttributeClockRate, device));
    CK(hipDeviceGetAttribute(&mclk, hipDeviceAttributeMemoryClockRate, device));
    CK(hipDeviceGetAttribute(&l2, hipDeviceAttributeL2CacheSize, device));
    g->l2 = (size_t)l2;
#ifdef MLAB_NV
    g->smem_max = (int)prop.sharedMemPerBlockOptin;
#else
    g->smem_max = (int)prop.maxSharedMemoryPerMultiProcessor;
#endif
    snprintf(env->gpu_name, sizeof env->gpu_name, "%s", prop.name);
#ifdef MLAB_NV
    snprintf(env->gpu_backend, sizeof env->gpu_backend, "cuda");
    snprintf(env->gpu_arch, sizeof env->gpu_arch, "sm_%d%d", prop.major, prop.minor);
    char *u = env->gpu_uuid;
    const unsigned char *b = (const unsigned char *)prop.uuid.bytes;
    snprintf(u, sizeof env->gpu_uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    int rv = 0, dv = 0;
    hipRuntimeGetVersion(&rv);
    hipDriverGetVersion(&dv);
    snprintf(env->runtime_version, sizeof env->runtime_version, "CUDA %d.%d (driver API %d.%d)",
             rv / 1000, (rv % 1000) / 10, dv / 1000, (dv % 1000) / 10);
    g->fp8_fmt = MLAB_FP8_E4M3FN;
    g->has_fp8_mma = 1; /* the build targets sm_89+ (mma e4m3) or it would not compile */
#else
    snprintf(env->gpu_backend, sizeof env->gpu_backend, "hip");
    snprintf(env->gpu_arch, sizeof env->gpu_arch, "%s", prop.gcnArchName);
    snprintf(env->gpu_uuid, sizeof env->gpu_uuid, "(not read)");
    int rv = 0;
    if (hipRuntimeGetVersion(&rv) != hipSuccess) rv = 0; /* recorded as HIP 0.0.0: unknown */
    snprintf(env->runtime_version, sizeof env->runtime_version, "HIP %d.%d.%d", rv / 10000000,
             (rv / 100000) % 100, rv % 100000);
    g->fp8_fmt = strstr(prop.gcnArchName, "gfx94") ? MLAB_FP8_E4M3FNUZ : MLAB_FP8_E4M3FN;
    g->has_fp8_mma = strstr(prop.gcnArchName, "gfx94") || strstr(prop.gcnArchName, "gfx95");
#endif
    read_driver_version(env->driver_version, sizeof env->driver_version);
    env->gpu_cu_count = g->sms;
    env->gpu_clock_mhz = clk / 1000;
    env->gpu_mem_clock_mhz = mclk / 1000;
    env->gpu_l2_bytes = (double)l2;
    CK(hipStreamCreate(&g->s));
    /* a flush larger than every cache: 4x L2 and at least 512 MB (MI355X's
     * Infinity Cache is 256 MB) */
    g->flush_bytes = g->l2 * 4 > (512u << 20) ? g->l2 * 4 : (512u << 20);
    CK(hipMalloc(&g->flush, g->flush_bytes));
    return 0;
}

static void free_case(mlab_gpu *g)
{
    /* a failed free at release has no one to report to: the handle is gone either way */
    for (int i = 0; i < g->nbufs; i++) (void)hipFree(g->bufs[i]);
    g->nbufs = 0;
    g->scratch = NULL;
    g->loaded = 0;
}

extern "C" void mlab_gpu_close(mlab_gpu *g)
{
    if (!g) return;
    free_case(g);
    if (g->flush) (void)hipFree(g->flush); /* as free_case: nothing to report to at close */
    if (g->s) (void)hipStreamDestroy(g->s);
    free(g);
}

static int dev_alloc(mlab_gpu *g, void **p, size_t bytes, char *why, size_t whylen)
{
    CK(hipMalloc(p, bytes + 256));
    g->bufs[g->nbufs++] = *p;
    return 0;
}

extern "C" int mlab_gpu_copy_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen)
{
    size_t bytes = 1u << 30;
    void *a, *b;
    CK(hipMalloc(&a, bytes));
    CK(hipMalloc(&b, bytes));
    CK(hipMemset(a, 1, bytes));
    hipEvent_t e0, e1;
    CK(hipEventCreate(&e0));
    CK(hipEventCreate(&e1));
    float ms[12];
    for (int i = 0; i < 15; i++) {
        CK(hipEventRecord(e0, g->s));
        CK(hipMemcpyAsync(b, a, bytes, hipMemcpyDeviceToDevice, g->s));
        CK(hipEventRecord(e1, g->s));
        CK(hipEventSynchronize(e1));
        if (i >= 3) CK(hipEventElapsedTime(&ms[i - 3], e0, e1));
    }
    for (int i = 1; i < 12; i++) /* median of 12 by insertion sort */
        for (int j = i; j > 0 && ms[j] < ms[j - 1]; j--) { float t = ms[j]; ms[j] = ms[j - 1]; ms[j - 1] = t; }
    double med = 0.5 * (ms[5] + ms[6]) * 1e-3;
    *gbs = 2.0 * (double)bytes / med / 1e9;
    CK(hipEventDestroy(e0));
    CK(hipEventDestroy(e1));
    CK(hipFree(a));
    CK(hipFree(b));
    return 0;
}

extern "C" int mlab_gpu_load_case(mlab_gpu *g, const mlab_case *c, int poison, char *why, size_t whylen)
{
    free_case(g);
    if (c->fp8_fmt != g->fp8_fmt) {
        snprintf(why, whylen, "case %s stores fp8 as %s but this GPU's fp8 is %s: regenerate with --fp8 %s",
                 c->name, c->fp8_fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz",
                 g->fp8_fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz",
                 g->fp8_fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz");
        return MLAB_EXIT_BADINPUT;
    }
    const int B = c->batch, gap = poison ? GAP_ROWS : 0;
    const size_t rows = (size_t)c->total_kv + (size_t)(B + 1) * gap;
    if (rows > 0x7fffffff) {
        snprintf(why, whylen, "too many kv rows for int32 offsets");
        return MLAB_EXIT_BADINPUT;
    }
    /* host staging: the padded layout, poison in the gaps */
    int32_t *first = (int32_t *)malloc(sizeof(int32_t) * (size_t)B);
    int32_t *ti = (int32_t *)malloc(sizeof(int32_t) * (size_t)c->total_q + 4);
    int32_t *tp = (int32_t *)malloc(sizeof(int32_t) * (size_t)c->total_q + 4);
    int32_t *tn = (int32_t *)malloc(sizeof(int32_t) * (size_t)c->total_q + 4);
    uint16_t *hb = (uint16_t *)malloc(rows * MLA_D * 2);
    uint8_t *h8 = (uint8_t *)malloc(rows * MLA_D);
    uint8_t *h4 = (uint8_t *)malloc(rows * MLA_FP4_ROW);
    uint8_t *he = (uint8_t *)malloc(rows * MLA_NBLK);
    int rc = MLAB_EXIT_INTERNAL;
    if (!first || !ti || !tp || !tn || !hb || !h8 || !h4 || !he) {
        snprintf(why, whylen, "out of host memory staging %zu kv rows", rows);
        goto out;
    }
    for (size_t i = 0; i < rows * MLA_D; i++) hb[i] = 0x7fc0;         /* bf16 NaN */
    memset(h8, g->fp8_fmt == MLAB_FP8_E4M3FN ? 0x7f : 0x80, rows * MLA_D); /* fp8 NaN */
    memset(h4, 0x77, rows * MLA_FP4_ROW);                              /* 6.0, with a NaN scale */
    memset(he, 0xff, rows * MLA_NBLK);                                 /* E8M0 NaN */
    {
        size_t at = (size_t)gap;
        int maxvis = 0;
        for (int b = 0; b < B; b++) {
            int k0 = c->kv_indptr[b], L = c->kv_indptr[b + 1] - k0;
            first[b] = (int32_t)at;
            memcpy(hb + at * MLA_D, c->kv_bf16 + (size_t)k0 * MLA_D, (size_t)L * MLA_D * 2);
            memcpy(h8 + at * MLA_D, c->kv_fp8 + (size_t)k0 * MLA_D, (size_t)L * MLA_D);
            memcpy(h4 + at * MLA_FP4_ROW, c->kv_fp4 + (size_t)k0 * MLA_FP4_ROW, (size_t)L * MLA_FP4_ROW);
            memcpy(he + at * MLA_NBLK, c->kv_e8m0 + (size_t)k0 * MLA_NBLK, (size_t)L * MLA_NBLK);
            at += (size_t)L + gap;
            int n = c->qo_indptr[b + 1] - c->qo_indptr[b];
            for (int i = 0; i < n; i++) {
                int t = c->qo_indptr[b] + i;
                ti[t] = b;
                tp[t] = i;
                tn[t] = n;
            }
            if (L > maxvis) maxvis = L;
        }
        g->max_tiles = (maxvis + MLA_BN - 1) / MLA_BN;
    }
    {
        mla_params &p = g->base;
        memset(&p, 0, sizeof p);
        g->total_q = c->total_q;
        g->batch = B;
        g->kv_rows = (int)rows;
        g->max_splits = MLA_MAX_SPLITS;
        size_t nq = (size_t)c->total_q * MLA_H * MLA_D, nout = (size_t)c->total_q * MLA_H * MLA_DV;
        void *d;
#define ALLOC_COPY(field, type, host, bytes)                                      \
    if ((rc = dev_alloc(g, &d, (bytes), why, whylen))) goto out;                  \
    rc = MLAB_EXIT_INTERNAL;                                                      \
    if (hipMemcpy(d, (host), (bytes), hipMemcpyHostToDevice) != hipSuccess) {     \
        snprintf(why, whylen, "copying %s to the GPU failed", #field);           \
        goto out;                                                                 \
    }                                                                             \
    p.field = (type)d;
        ALLOC_COPY(q, const uint16_t *, c->q, nq * 2);
        ALLOC_COPY(kv_bf16, const uint16_t *, hb, rows * MLA_D * 2);
        ALLOC_COPY(kv_fp8, const uint8_t *, h8, rows * MLA_D);
        ALLOC_COPY(kv_fp4, const uint8_t *, h4, rows * MLA_FP4_ROW);
        ALLOC_COPY(kv_e8m0, const uint8_t *, he, rows * MLA_NBLK);
        ALLOC_COPY(kv_indptr, const int32_t *, c->kv_indptr, sizeof(int32_t) * (size_t)(B + 1));
        ALLOC_COPY(kv_first, const int32_t *, first, sizeof(int32_t) * (size_t)B);
        ALLOC_COPY(tok_item, const int32_t *, ti, sizeof(int32_t) * (size_t)c->total_q);
        ALLOC_COPY(tok_pos, const int32_t *, tp, sizeof(int32_t) * (size_t)c->total_q);
        ALLOC_COPY(tok_nq, const int32_t *, tn, sizeof(int32_t) * (size_t)c->total_q);
#undef ALLOC_COPY
        if ((rc = dev_alloc(g, &d, nout * 2, why, whylen))) goto out;
        p.out = (uint16_t *)d;
        if ((rc = dev_alloc(g, &d, nout * 4 * (size_t)g->max_splits, why, whylen))) goto out;
        p.part_o = (float *)d;
        if ((rc = dev_alloc(g, &d, (size_t)c->total_q * MLA_H * 4 * (size_t)g->max_splits, why, whylen))) goto out;
        p.part_lse = (float *)d;
        p.amax_blocks = (int)((nq / 8 + 255) / 256 < (size_t)g->sms * 2 ? (nq / 8 + 255) / 256 : (size_t)g->sms * 2);
        if (p.amax_blocks < 1) p.amax_blocks = 1;
        if ((rc = dev_alloc(g, &d, sizeof(float) * (size_t)p.amax_blocks, why, whylen))) goto out;
        p.q_amax_part = (float *)d;
#ifdef MLAB_TRACE
        if ((rc = dev_alloc(g, &d, 8 * (size_t)MLAB_TR_WORDS, why, whylen))) goto out;
        p.trace = (unsigned long long *)d;
#endif
        if ((rc = dev_alloc(g, &d, rows * MLA_D * 2, why, whylen))) goto out;
        g->scratch = (uint16_t *)d; /* mxfp4_unfused's bf16 copy of the cache */
        p.batch = B;
        p.total_q = c->total_q;
        p.kv_rows = (int)rows;
        p.sm_scale = c->sm_scale;
        p.kv_scale = c->kv_fp8_scale;
        p.fp8_max = c->fp8_fmt == MLAB_FP8_E4M3FN ? 448.f : 240.f;
        p.xcd_count = 8;
        g->loaded = 1;
        rc = 0;
    }
out:
    free(first); free(ti); free(tp); free(tn); free(hb); free(h8); free(h4); free(he);
    if (rc) free_case(g);
    return rc;
}

static int prepare(mlab_gpu *g, int id, int splits, mla_params *p, char *why, size_t whylen)
{
    if (!g->loaded) {
        snprintf(why, whylen, "no case loaded");
        return MLAB_EXIT_INTERNAL;
    }
    if (id < 0 || id >= MLAB_V_COUNT) {
        snprintf(why, whylen, "unknown variant id %d", id);
        return MLAB_EXIT_USAGE;
    }
    if (impls[id]->q_fp8 && !g->has_fp8_mma) {
        snprintf(why, whylen, "variant %d needs fp8 matrix instructions (gfx940+ / sm_89+); this GPU has none",
                 id);
        return MLAB_EXIT_NOGPU;
    }
    if (impls[id]->smem_bytes > g->smem_max) {
        snprintf(why, whylen, "variant %d needs %d bytes of shared memory a block, this GPU allows %d "
                 "(a smaller tile configuration is needed: see variants/mla_kernel.h)",
                 id, impls[id]->smem_bytes, g->smem_max);
        return MLAB_EXIT_NOGPU;
    }
    *p = g->base;
    if (splits <= 0)
        splits = mlab_choose_splits(g->total_q, g->max_tiles, g->sms * impls[id]->blocks_per_sm());
    if (splits > g->max_splits) splits = g->max_splits;
    p->splits = splits;
    return 0;
}

extern "C" int mlab_gpu_run(mlab_gpu *g, int id, int splits, uint16_t *out, int *splits_used, char *why,
                            size_t whylen)
{
    mla_params p;
    int rc = prepare(g, id, splits, &p, why, whylen);
    if (rc) return rc;
    *splits_used = p.splits;
    size_t nout = (size_t)g->total_q * MLA_H * MLA_DV;
    /* poison the output and every workspace: unwritten elements stay NaN */
    CK(hipMemsetAsync(p.out, 0xff, nout * 2, g->s));
    CK(hipMemsetAsync(p.part_o, 0xff, nout * 4 * (size_t)p.splits, g->s));
    CK(hipMemsetAsync(p.part_lse, 0xff, (size_t)g->total_q * MLA_H * 4 * (size_t)p.splits, g->s));
    CK(hipMemsetAsync(g->scratch, 0xff, (size_t)g->kv_rows * MLA_D * 2, g->s));
    CK(impls[id]->launch(&p, g->s, g->scratch));
    CK(hipStreamSynchronize(g->s));
    CK(hipGetLastError());
    CK(hipMemcpy(out, p.out, nout * 2, hipMemcpyDeviceToHost));
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

extern "C" int mlab_gpu_time(mlab_gpu *g, int id, int splits, const mlab_timing_opts *o, mlab_row *row,
                             char *why, size_t whylen)
{
    mla_params p;
    int rc = prepare(g, id, splits, &p, why, whylen);
    if (rc) return rc;
    size_t cap = o->max_samples;
    double *smp = (double *)malloc(sizeof(double) * (cap + 1)), *sorted = (double *)malloc(sizeof(double) * (cap + 1));
    if (!smp || !sorted) {
        free(smp);
        free(sorted);
        snprintf(why, whylen, "out of memory for samples");
        return MLAB_EXIT_INTERNAL;
    }
    hipEvent_t e0, e1;
    CK(hipEventCreate(&e0));
    CK(hipEventCreate(&e1));
    uint16_t *scr = g->scratch;
    for (int w = 0; w < 3; w++) CK(impls[id]->launch(&p, g->s, scr)); /* warm-up */
    CK(hipStreamSynchronize(g->s));
    size_t n = 0;
    double spent = 0, sum = 0, sum2 = 0;
    const char *stop = "max_samples";
    while (n < cap) {
        /* cold: overwrite a buffer 4x the L2 (outside the timed region) */
        CK(hipMemsetAsync(g->flush, (int)(n & 0xff), g->flush_bytes, g->s));
        CK(hipEventRecord(e0, g->s));
        CK(impls[id]->launch(&p, g->s, scr));
        CK(hipEventRecord(e1, g->s));
        CK(hipEventSynchronize(e1));
        float ms;
        CK(hipEventElapsedTime(&ms, e0, e1));
        double us = 1e3 * ms;
        smp[n++] = us;
        spent += us * 1e-6 + g->flush_bytes / 2e12; /* the flush's time counts against the limit */
        sum += us;
        sum2 += us * us;
        if (n >= o->min_samples && spent >= o->min_time_s) {
            memcpy(sorted, smp, n * sizeof(double));
            qsort(sorted, n, sizeof(double), cmp_double);
            double med = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
            double mean = sum / n, var = (sum2 - n * mean * mean) / (n - 1);
            double rse = sqrt(var > 0 ? var : 0) / sqrt((double)n) / med;
            if (rse < o->target_rse) { stop = "rse"; break; }
        }
        if (spent >= o->max_time_s) { stop = "time_limit"; break; }
    }
#ifdef MLAB_TRACE
    { /* the last cold call's phase times, one line a block, to stderr */
        unsigned long long *tb = (unsigned long long *)malloc(8 * (size_t)MLAB_TR_WORDS);
        if (tb && hipMemcpy(tb, p.trace, 8 * (size_t)MLAB_TR_WORDS, hipMemcpyDeviceToHost) == hipSuccess) {
            fprintf(stderr, "TRACE variant %d last cold sample %.2f us\n", id, smp[n - 1]);
            for (int b = 0; b < 512; b++)
                if (tb[2 * b]) fprintf(stderr, "TA %d %llu %llu\n", b, tb[2 * b], tb[2 * b + 1]);
            for (int b = 0; b < 65536; b++) {
                const unsigned long long *d = tb + MLAB_TR_DECODE + 8 * b;
                if (d[7]) fprintf(stderr, "TD %d %llu %llu %llu %llu %llu %llu %llu\n", b, d[5], d[6], d[0], d[1], d[2], d[3], d[4]);
                const unsigned long long *c = tb + MLAB_TR_COMBINE + 4 * b;
                if (c[3]) fprintf(stderr, "TC %d %llu %llu %llu\n", b, c[0], c[1], c[2]);
            }
        }
        free(tb);
        (void)hipMemset(p.trace, 0, 8 * (size_t)MLAB_TR_WORDS);
    }
#endif
    row->samples_us = smp;
    row->nsamples = n;
    snprintf(row->stop_reason, sizeof row->stop_reason, "%s", stop);
    free(sorted);
    /* warm graph replay: the launch sequence captured once, replayed back to back */
    row->graph_us = 0;
    if (o->graph_iters > 0) {
        hipGraph_t graph;
        hipGraphExec_t exec;
        CK(hipStreamBeginCapture(g->s, hipStreamCaptureModeThreadLocal));
        CK(impls[id]->launch(&p, g->s, scr));
        CK(hipStreamEndCapture(g->s, &graph));
        CK(hipGraphInstantiate(&exec, graph, NULL, NULL, 0));
        CK(hipGraphLaunch(exec, g->s));
        CK(hipEventRecord(e0, g->s));
        for (int i = 0; i < o->graph_iters; i++) CK(hipGraphLaunch(exec, g->s));
        CK(hipEventRecord(e1, g->s));
        CK(hipEventSynchronize(e1));
        float ms;
        CK(hipEventElapsedTime(&ms, e0, e1));
        row->graph_us = 1e3 * ms / o->graph_iters;
        CK(hipGraphExecDestroy(exec));
        CK(hipGraphDestroy(graph));
    }
    CK(hipEventDestroy(e0));
    CK(hipEventDestroy(e1));
    return 0;
}
