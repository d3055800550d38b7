/* runner.hip: the GPU side (variants/gpu_api.h), one file for both vendors:
 * device discovery, the copy and read bandwidth probes, case upload with NaN
 * poison, the split rule, validation runs, and the three timing primitives
 * (warm call, one cold sample between events, graph replay) of whatever is
 * selected: a variant, a streaming read of N bytes, or an empty kernel. The
 * sampling loop that calls them is the harness's (harness/sampler.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h> /* gettimeofday: NVML's sample stamps */
#include <time.h> /* gpu_wait: clock_gettime, nanosleep */

#include <initializer_list>

#include "launch_common.h" /* launch_after: the empty pair's second launch, as a call's combine */
#include "launchers.h"
#include "mla_kernel.h"
#include "mla_wgmma.h" /* WG_QK_ACC, WG_NPROD_MX, WG_MX_KB: recorded in kernel_knobs */
#include "variants.h"

#ifdef MLAB_ONE_LAUNCH
/* Defaults of the two one-launch choices (prepare): measured on the H200,
 * papers/perf-notes.md v7. */
#ifndef MLAB_MERGE_INLINE_DEFAULT
#define MLAB_MERGE_INLINE_DEFAULT 0
#endif
#ifndef MLAB_AMAX_INLINE_DEFAULT
#define MLAB_AMAX_INLINE_DEFAULT 0
#endif
#endif

/* kept in step with launch_decode (launch_common.h) */
int mlab_decode_launches(int q_fp8, const mla_params *p)
{
    return (q_fp8 == 1 && p->amax_blocks > 0 ? 1 : 0) + 1 + /* 2: no pass (_qrow) */
           (p->splits > 1 && !p->merge_inline && !p->merge_cluster ? 1 : 0);
}

extern "C" {
#include "gpu_api.h"
#include "splits.h" /* mlab_choose_splits */
}
#ifdef MLAB_NV
#include <dlfcn.h> /* NVML, opened at run time (no link-time dependency) */
#endif

#define GAP_ROWS (MLA_BN + 16) /* poisoned rows before and between items */

#define MLAB_V_IMPL(id, name, ...) &mlab_impl_##name,
static const mlab_variant_impl *impls_list[MLAB_V_COUNT] = {MLAB_VARIANT_LIST(MLAB_V_IMPL)};
/* by id: ids are stable and may leave gaps (variant_list.h), so the list's
 * position is not the id; NULL for an id no variant has */
static const mlab_variant_impl *impl_of(int id)
{
    for (int i = 0; i < MLAB_V_COUNT; i++)
        if (impls_list[i]->id == id) return impls_list[i];
    return NULL;
}
#undef MLAB_V_IMPL

/* The read-limit probe: every thread streams 16-byte loads (UNROLL in
 * flight) over n16 chunks and folds them into one word, written only if it
 * equals a value no data gives in practice, so nothing is optimised away.
 * EF: the unrolled loads carry L2's evict_first policy (arch/nv_bulk.h
 * mlab_l2_evict_first, what the decodes' KV copies may take: the read
 * limit is the best read of the bytes, and under the cold protocol's memset
 * such loads read a short call's bytes up to 11% faster, perf-notes v51) */
#define MLAB_READ_EF MLAB_HAVE_BULK /* the probe's shapes include evict_first loads */
/* the probe's policy (none where not EF) and a 16-byte load under it */
template <bool EF> MLAB_DEV uint64_t read_policy(void)
{
#if MLAB_READ_EF && defined(__CUDA_ARCH__)
    if (EF) return mlab_l2_evict_first();
#endif
    return 0;
}
template <bool EF> MLAB_DEV uint4 read16(const uint4 *p, uint64_t pol)
{
#if MLAB_READ_EF && defined(__CUDA_ARCH__)
    if (EF) return mlab_ld_nc16_pol(p, pol);
#endif
    (void)pol;
    return *p;
}
template <int UNROLL, bool EF = false>
__global__ void __launch_bounds__(512) mlab_read_kernel(const uint4 *src, size_t n16, uint32_t *sink)
{
    const uint64_t pol = read_policy<EF>();
    uint32_t acc = 0;
    const size_t step = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (UNROLL - 1) * step < n16; i += UNROLL * step) {
        uint4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) v[u] = read16<EF>(src + i + u * step, pol);
#pragma unroll
        for (int u = 0; u < UNROLL; u++) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < n16; i += step) {
        uint4 v = src[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) sink[0] = acc;
}
/* the cold flush's kernels (MLAB_FLUSH=store | load; the default is a
 * hipMemsetAsync): plain 16-byte stores of v over n16 chunks, as a peer's
 * torch fill_ does, or the read probe's loads */
__global__ void __launch_bounds__(512) mlab_flush_store(uint4 *dst, size_t n16, uint32_t v)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = make_uint4(v, v, v, v);
}
__global__ void mlab_empty_kernel(void) {}
/* the empty pair (mlab_gpu_select_empty_pair): a first kernel that lets its
 * dependent launch at once, and a second, launched as a call launches its
 * combine (launch_common.h launch_after: a programmatic dependent on NVIDIA
 * sm_90+, a plain launch elsewhere), that waits for it; neither reads p */
__global__ void mlab_empty_first(const mla_params p)
{
    (void)p;
    mlab_grid_dep_trigger();
}
__global__ void mlab_empty_second(const mla_params p)
{
    (void)p;
    mlab_grid_dep_wait();
}


enum { SEL_NONE, SEL_VARIANT, SEL_READ, SEL_EMPTY, SEL_EMPTY_PAIR };
enum { FLUSH_MEMSET, FLUSH_STORE, FLUSH_LOAD };

struct mlab_gpu {
    int dev, sms, smem_max; /* shared memory (LDS) a block may use, bytes */
    int clock_mhz;
    int has_fp8_mma;        /* fp8 matrix instructions: sm_89+, gfx940+ */
    int cluster_ok;         /* thread-block clusters: NVIDIA sm_90+ */
    size_t l2;
    double dram_bpc;        /* peak DRAM bytes an SM clock (splits.h mlab_dram_bpc: the MTP rule's); 0 unknown */
    hipStream_t s;
    void *flush;
    size_t flush_bytes;
    int flush_kind;         /* MLAB_FLUSH: FLUSH_MEMSET (default), FLUSH_STORE, FLUSH_LOAD (into rsink) */
    /* the loaded case */
    int loaded, total_q, batch, kv_rows, max_splits;
    int max_vis;            /* the longest sequence (rows): tiles for the split rule */
    int ragged;             /* rows of different lengths: the split plan (splits.h) may apply */
    int mtp_ok;             /* every item two query rows and as many KV tiles: a decode that can
                               (mlab_variant_impl.mtp) takes an item's two rows in one block */
    int *row_tiles;         /* host: each query row's 64-row tiles (the plan's input) */
    int *plan_s, *plan_w;   /* host: a plan's splits a row, and its blocks' (row, split) pairs */
    int *d_plan_w, *d_plan_s; /* device: the same (mla_params.blk_work, row_splits) */
    int amax_blocks;        /* of the Q amax pass, when Q is too large to take whole */
    mla_params base;
    mlab_fp8_fmt fp8_fmt;
    void *bufs[32];         /* every device buffer of the case, freed together */
    int nbufs;
    uint16_t *scratch;      /* one of them: kv_rows x 576 bf16 for mxfp4_unfused */
    /* what warm / cold / graph act on */
    int sel, sel_id;
    const struct mlab_variant_impl *sel_v; /* what runs sel_id on this case (impl_for), resolved once */
    mla_params sel_p;
    void *rbuf;             /* the read probe's source (grows) and its sink */
    size_t rbuf_bytes;
    uint32_t *rsink;
    size_t r_n16;
    int r_grid, r_unroll, r_ef; /* r_ef: evict_first loads (MLAB_READ_EF) */
    hipEvent_t e0, e1;
    double hang_s;          /* MLAB_HANG_S (gpu_wait) */
    int hung;               /* a wait passed hang_s: nothing more waits on this device */
    double last_cold_us;    /* for the -DMLAB_TRACE dump */
    /* NVML (NVIDIA), when libnvidia-ml is there */
    void *nvml_lib, *nvml_dev;
    int (*nvml_clock)(void *, int, unsigned *);
    int (*nvml_temp)(void *, int, unsigned *);
    int (*nvml_reasons)(void *, unsigned long long *);
    int (*nvml_violation)(void *, int, unsigned long long *); /* its last: nvmlViolationTime_t {reference
                                                                 us, violation ns} */
    /* nvmlDeviceGetSamples(dev, type, lastSeenTimeStamp, *valueType, *count, nvmlSample_t *) */
    int (*nvml_samples)(void *, int, unsigned long long, int *, unsigned *, void *);
};

/* what runs variant id on the loaded case: the variant's own entry, the
 * configuration its pick takes for the call's size, or, where this build runs
 * it but its fast path cannot hold the case (exact_fallback, e.g. an MXFP4
 * scale e4m3 cannot carry), its exact path's entry (exact_impl); the split
 * rule, the launch and the launch info all follow that entry */
static const mlab_variant_impl *impl_for(const mlab_gpu *g, int id)
{
    const mlab_variant_impl *v = impl_of(id);
    if (v && !v->unavailable && v->exact_impl && v->exact_fallback(&g->base)) return v->exact_impl;
    return v && v->pick ? v->pick(g->total_q, g->max_vis, g->sms) : v;
}

#define CK(call)                                                                          \
    do {                                                                                  \
        hipError_t e_ = (call);                                                           \
        if (e_ != hipSuccess) {                                                           \
            snprintf(why, whylen, "%s: %s (%s:%d)", #call, hipGetErrorString(e_), __FILE__, __LINE__); \
            return MLAB_GPU_ERR;                                                          \
        }                                                                                 \
    } while (0)

/* MLAB_FAULT=hang (the watchdog's GPU test): a kernel that never ends,
 * launched ahead of the variant's */
__global__ void hang_kernel(void)
{
    for (;;) asm volatile("" ::: "memory");
}

/* A wait for the GPU's work up to event e, with a deadline: MLAB_HANG_S
 * seconds (default 60; 0: no limit, the blocking wait). A kernel that never
 * finishes (perf-notes v63: a broken barrier protocol) otherwise held the run
 * in a wait no signal ends, and whatever ran it (a device call, ctest) lost
 * every row and log with it. Past the deadline the device is left as it is
 * (g->hung: every later wait refuses at once, close frees nothing: a free
 * waits for the GPU too) and MLAB_GPU_HANG goes back up; mlabench run writes
 * the rows measured before it and stops (exit 11). A call's waits are
 * microseconds to milliseconds: the first polls spin, later ones sleep */
static int gpu_wait(mlab_gpu *g, hipEvent_t e, char *why, size_t whylen)
{
    if (g->hung) {
        snprintf(why, whylen, "the GPU hung earlier in this run: nothing more runs on it");
        return MLAB_GPU_HANG;
    }
    if (!(g->hang_s > 0)) {
        hipError_t r = hipEventSynchronize(e);
        if (r == hipSuccess) return 0;
        snprintf(why, whylen, "waiting for the GPU: %s", hipGetErrorString(r));
        return MLAB_GPU_ERR;
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned k = 0;; k++) {
        hipError_t r = hipEventQuery(e);
        if (r == hipSuccess) return 0;
        if (r != hipErrorNotReady) {
            snprintf(why, whylen, "waiting for the GPU: %s", hipGetErrorString(r));
            return MLAB_GPU_ERR;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) > g->hang_s) {
            g->hung = 1;
            snprintf(why, whylen, "the GPU did not finish within MLAB_HANG_S=%g s: a kernel that never ends?", g->hang_s);
            return MLAB_GPU_HANG;
        }
        if (k >= 256) {
            const struct timespec nap = {0, k >= 4096 ? 1000000L : 20000L};
            nanosleep(&nap, NULL);
        }
    }
}
/* gpu_wait in a function with why, whylen: its failure returned */
#define WAIT(e)                                                                           \
    do {                                                                                  \
        const int w_ = gpu_wait(g, (e), why, whylen);                                     \
        if (w_) return w_;                                                                \
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

/* NVML through dlopen: the few calls used, by their C signatures (nvml.h). */
static void nvml_open(mlab_gpu *g, const char *uuid)
{
#ifdef MLAB_NV
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    int (*by_uuid)(const char *, void **) = (int (*)(const char *, void **))dlsym(lib, "nvmlDeviceGetHandleByUUID");
    g->nvml_clock = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    g->nvml_temp = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetTemperature");
    g->nvml_reasons = (int (*)(void *, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!g->nvml_reasons)
        g->nvml_reasons = (int (*)(void *, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    g->nvml_violation = (int (*)(void *, int, unsigned long long *))dlsym(lib, "nvmlDeviceGetViolationStatus");
    g->nvml_samples = (int (*)(void *, int, unsigned long long, int *, unsigned *, void *))dlsym(lib, "nvmlDeviceGetSamples");
    if (!init || !by_uuid || init() != 0 || by_uuid(uuid, &g->nvml_dev) != 0) {
        dlclose(lib);
        g->nvml_dev = NULL;
        return;
    }
    g->nvml_lib = lib;
#else
    (void)g; (void)uuid; /* ROCm SMI not wired: clocks read -1 */
#endif
}

extern "C" void mlab_gpu_clocks(mlab_gpu *g, int *sm_mhz, int *temp_c, int *throttled)
{
    *sm_mhz = *temp_c = *throttled = -1;
    if (!g || !g->nvml_dev) return;
    unsigned v = 0;
    unsigned long long r = 0;
    if (g->nvml_clock && g->nvml_clock(g->nvml_dev, 1 /* NVML_CLOCK_SM */, &v) == 0) *sm_mhz = (int)v;
    if (g->nvml_temp && g->nvml_temp(g->nvml_dev, 0 /* NVML_TEMPERATURE_GPU */, &v) == 0) *temp_c = (int)v;
    /* reasons other than idle (1) and the applications-clocks setting (2):
     * power cap, thermal and hardware slowdowns */
    if (g->nvml_reasons && g->nvml_reasons(g->nvml_dev, &r) == 0) *throttled = (r & ~3ull) != 0;
}

/* NVML's violation counters of the power (NVML_PERF_POLICY_POWER, 0) and
 * thermal (NVML_PERF_POLICY_THERMAL, 1) policies, summed: the time the
 * GPU ran below its clocks for either (gpu_api.h) */
extern "C" int mlab_gpu_slow_ns(mlab_gpu *g, unsigned long long *ns)
{
    *ns = 0;
    if (!g || !g->nvml_dev || !g->nvml_violation) return -1;
    for (int policy = 0; policy < 2; policy++) {
        unsigned long long t[2] = {0, 0}; /* nvmlViolationTime_t: referenceTime (us), violationTime (ns) */
        if (g->nvml_violation(g->nvml_dev, policy, t) != 0) return -1;
        *ns += t[1];
    }
    return 0;
}

/* NVML's GPU utilization samples (NVML_GPU_UTILIZATION_SAMPLES, 1: each an
 * unsigned percent of its period, stamped in CPU microseconds since the
 * epoch at its end; nvmlSample_t is {timeStamp, 8-byte value}) taken while
 * this process left the GPU idle (gpu_api.h). A sample counts only if its
 * whole period, the median gap between the stamps, lies after the wait:
 * the first one after it may still hold this process's last kernels. */
extern "C" int mlab_gpu_idle_busy(mlab_gpu *g, double window_s, int *pct)
{
    *pct = -1;
    if (!g || !g->nvml_dev || !g->nvml_samples || g->hung) return -1;
    if (hipDeviceSynchronize() != hipSuccess) return -1;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    const unsigned long long t0 = (unsigned long long)tv.tv_sec * 1000000ull + (unsigned long long)tv.tv_usec;
    struct timespec ts = {(time_t)window_s, (long)((window_s - (double)(time_t)window_s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0) {
    }
    struct { unsigned long long t, v; } smp[256];
    unsigned n = 256;
    int vt = 0;
    /* samples from a little before the wait, for the period's gaps */
    if (g->nvml_samples(g->nvml_dev, 1, t0 > 1000000 ? t0 - 1000000 : 0, &vt, &n, smp) != 0 || n < 2) return -1;
    unsigned long long gap[256];
    unsigned m = 0;
    for (unsigned i = 1; i < n; i++)
        if (smp[i].t > smp[i - 1].t) gap[m++] = smp[i].t - smp[i - 1].t;
    if (!m) return -1;
    qsort(gap, m, sizeof *gap, [](const void *a, const void *b) {
        const unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
        return (x > y) - (x < y);
    });
    const unsigned long long period = gap[m / 2];
    int best = -1;
    for (unsigned i = 0; i < n; i++)
        if (smp[i].t >= t0 + period) {
            /* nvmlValueType_t: 0 double, 1 unsigned int, 2 unsigned long, 3 unsigned long long */
            double d;
            unsigned u;
            memcpy(&d, &smp[i].v, sizeof d);
            memcpy(&u, &smp[i].v, sizeof u); /* the union's first 4 bytes (little-endian) */
            const double v = vt == 0 ? d : vt == 1 ? (double)u : (double)smp[i].v;
            const int p = v < 0 ? 0 : v > 100 ? 100 : (int)(v + 0.5);
            best = p > best ? p : best;
        }
    *pct = best;
    return best < 0 ? -1 : 0;
}

/* the build's knobs (below), then the run-time ones that change what a
 * call runs: the merge (MLAB_MERGE), the combine kernel (MLAB_COMBINE), its
 * spread and cap (MLAB_COMBINE_SPREAD, MLAB_COMBINE_CAP), the Q amax
 * (MLAB_AMAX), a negative control (MLAB_FAULT), the tensor copies
 * (MLAB_TMAP), the persistent decode (MLAB_PERSIST), a unit's heads in
 * two blocks (MLAB_PAIRS), a ragged batch's split plan (MLAB_PLAN), the
 * KV copies' L2 policy (MLAB_KV_EVICT, "auto" where unset: the rule) and an
 * item's two query rows in one block (MLAB_MTP),
 * "default" where unset; the tensor maps' L2
 * promotion (MLAB_TMAP_L2) as used (0: none; "-": a build without tensor
 * maps) */
static const char *build_knobs(void);
static unsigned tmap_l2(void);
extern "C" const char *mlab_gpu_build_knobs(void)
{
    static char buf[512]; /* the results file keeps 511 characters (results.h kernel_knobs); every
                           * run-time knob's accepted values are at most 10 characters (knob_refused) */
    if (!buf[0]) {
        const char *m = getenv("MLAB_MERGE"), *a = getenv("MLAB_AMAX"), *f = getenv("MLAB_FAULT"),
                   *c = getenv("MLAB_COMBINE"), *t = getenv("MLAB_TMAP"), *ps = getenv("MLAB_PERSIST"),
                   *sp = getenv("MLAB_COMBINE_SPREAD"), *fl = getenv("MLAB_FLUSH"), *cc = getenv("MLAB_COMBINE_CAP"),
                   *hp = getenv("MLAB_PAIRS"), *pl = getenv("MLAB_PLAN"), *ev = getenv("MLAB_KV_EVICT"),
                   *mt = getenv("MLAB_MTP");
        /* the L2 promotion as used, not "default" (the default moved at v22,
         * 256 -> 128); "-" in a build without tensor maps (AMD; -DMLAB_NO_TMAP) */
        char l2[16] = "-";
        if (MLAB_HAVE_TMAP) snprintf(l2, sizeof l2, "%u", tmap_l2());
        /* the wgmma decodes' shape (mla_wgmma.h): Q.K accumulators (the kernel
         * error depends on them a little, perf-notes v18), MXFP4 producer
         * warpgroups, items a producer thread loads at once, bf16_wgmma's head
         * split, tiles in flight in the ring's first fills (v28), the _qrow
         * decodes' Q loaded at the kernel's start (v30) and a one-tile unit
         * split between the consumers (v32: the _qrow decodes; v33:
         * mxfp4_wgmma and fp8_wgmma's one-wave kernel, which it launches when
         * the call's grid holds every unit: the grid column tells), a tile's
         * landing gates (fp8, bf16 tiles) and the MXFP4 one-tile block's tile
         * converted by both producers (v36), mxfp4_qrow_lazy's threshold
         * (v41); the cold flush's kind */
        snprintf(buf, sizeof buf,
                 "%s wg_qk_acc=%d wg_nprod_mx=%d wg_mx_kb=%d wg_b16_hs=%d wg_gate_land=%d wg_q_early=%d wg_one_dv=%d "
                 "wg_land_gates=%d wg_land_gates16=%d wg_mx_split1=%d wg_lazy_t=%d "
                 "merge=%.10s combine=%.10s spread=%.10s cap=%.10s amax=%.10s fault=%.10s tmap_use=%.10s "
                 "persist_use=%.10s tmap_l2=%s flush=%.10s pairs_use=%.10s plan_use=%.10s kv_evict=%.10s "
                 "mtp_use=%.10s",
                 build_knobs(), WG_QK_ACC, WG_NPROD_MX, WG_MX_KB, WG_B16_HS, WG_GATE_LAND, WG_Q_EARLY, WG_ONE_DV,
                 WG_LAND_GATES, WG_LAND_GATES16, WG_MX_SPLIT1, WG_LAZY_T,
                 m ? m : "default", c ? c : "default", sp ? sp : "default", cc ? cc : "default", a ? a : "default",
                 f ? f : "none",
                 t ? t : "default", ps ? ps : "default", l2, fl ? fl : "memset", hp ? hp : "default",
                 pl ? pl : "default", ev ? ev : "auto", mt ? mt : "auto");
    }
    return buf;
}
static const char *build_knobs(void)
{
    return "backend="
#ifdef MLAB_NV
           "cuda"
#else
           "hip"
#endif
           " pdl="
#if defined(MLAB_NV) && !defined(MLAB_NO_PDL)
           "1"
#else
           "0"
#endif
           " trace="
#ifdef MLAB_TRACE
           "1"
#else
           "0"
#endif
           " one_launch="
#ifdef MLAB_ONE_LAUNCH
           "1"
#else
           "0"
#endif
           " bulk="
#if MLAB_HAVE_BULK && !defined(MLAB_NO_BULK)
           "1"
#else
           "0"
#endif
           " tmap="
#if MLAB_HAVE_TMAP
           "1"
#else
           "0"
#endif
           " persist="
#if WG_PERSIST
           "1"
#else
           "0"
#endif
           " qreg="
#ifdef MLAB_QREG
           "1"
#else
           "0"
#endif
           " fast_math="
#if defined(__USE_FAST_MATH__) || defined(MLAB_FAST_MATH_BUILD)
           "1"
#else
           "0"
#endif
           " read_ef="
#if MLAB_READ_EF
           "1"
#else
           "0"
#endif
           " bn=64 nw=8";
}

/* A run-time knob's value v (NULL: unset) that is none of its choices is
 * refused: why says "NAME=v: expected a, b or c" and the result is 1 (the
 * caller returns MLAB_GPU_USAGE); else 0, and *at (where given) the
 * value's place in choices (0 where unset) */
static int knob_refused(const char *name, const char *v, std::initializer_list<const char *> choices, char *why,
                        size_t whylen, int *at = nullptr)
{
    if (at) *at = 0;
    if (!v) return 0;
    int k = 0;
    for (const char *c : choices) {
        if (!strcmp(v, c)) {
            if (at) *at = k;
            return 0;
        }
        k++;
    }
    char expect[96] = "";
    size_t i = 0;
    for (const char *c : choices) {
        const size_t len = strlen(expect);
        snprintf(expect + len, sizeof expect - len, "%s%s", i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ", c);
        i++;
    }
    snprintf(why, whylen, "%s=%.32s: expected %s", name, v, expect);
    return 1;
}

extern "C" int mlab_gpu_open(mlab_gpu **gp, int device, mlab_gpu_info *info, char *why, size_t whylen)
{
    *gp = NULL;
    memset(info, 0, sizeof *info); /* every answer leaves it defined */
    int n = 0;
    hipError_t e = hipGetDeviceCount(&n);
    if (e != hipSuccess || n == 0) {
        snprintf(why, whylen, "no GPU: %s", e != hipSuccess ? hipGetErrorString(e) : "device count 0");
        (void)hipGetLastError(); /* clear the error the failed call left; the reason is in why */
        return MLAB_GPU_NODEV;
    }
    if (device < 0 || device >= n) {
        snprintf(why, whylen, "device %d does not exist: %d visible", device, n);
        return MLAB_GPU_USAGE;
    }
    /* MLAB_HANG_S (gpu_wait): seconds, 0 for no limit; default 60 */
    const char *hs = getenv("MLAB_HANG_S");
    char *hend = NULL;
    const double hang_s = hs && *hs ? strtod(hs, &hend) : 60.0;
    if (hs && *hs && (*hend || !(hang_s >= 0) || hang_s > 1e6)) {
        snprintf(why, whylen, "MLAB_HANG_S='%.20s': seconds a wait for the GPU may take (0: no limit)", hs);
        return MLAB_GPU_USAGE;
    }
    mlab_gpu *g = (mlab_gpu *)calloc(1, sizeof *g);
    if (!g) return MLAB_GPU_ERR;
    *gp = g;
    g->dev = device;
    g->hang_s = hang_s;
    memset(info, 0, sizeof *info);
    info->index = device;
    CK(hipSetDevice(device));
    hipDeviceProp_t prop;
    CK(hipGetDeviceProperties(&prop, device));
    int clk = 0, mclk = 0, l2 = 0, bus = 0;
    CK(hipDeviceGetAttribute(&g->sms, hipDeviceAttributeMultiprocessorCount, device));
    CK(hipDeviceGetAttribute(&clk, hipDeviceAttributeClockRate, device));
    CK(hipDeviceGetAttribute(&mclk, hipDeviceAttributeMemoryClockRate, device));
    CK(hipDeviceGetAttribute(&l2, hipDeviceAttributeL2CacheSize, device));
    g->l2 = (size_t)l2;
    if (hipDeviceGetAttribute(&bus, hipDeviceAttributeMemoryBusWidth, device) != hipSuccess) bus = 0; /* unknown: 0 */
    g->dram_bpc = mlab_dram_bpc(mclk / 1000.0, bus, g->sms, clk / 1000.0);
#ifdef MLAB_NV
    g->smem_max = (int)prop.sharedMemPerBlockOptin;
#else
    g->smem_max = (int)prop.maxSharedMemoryPerMultiProcessor;
#endif
    snprintf(info->name, sizeof info->name, "%.127s", prop.name);
    info->smem_max = g->smem_max;
#ifdef MLAB_NV
    snprintf(info->backend, sizeof info->backend, "cuda");
    snprintf(info->arch, sizeof info->arch, "sm_%d%d", prop.major, prop.minor);
    char *u = info->uuid;
    const unsigned char *b = (const unsigned char *)prop.uuid.bytes;
    snprintf(u, sizeof info->uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    int rv = 0, dv = 0;
    hipRuntimeGetVersion(&rv);
    hipDriverGetVersion(&dv);
    snprintf(info->runtime, sizeof info->runtime, "CUDA %d.%d (driver API %d.%d)",
             rv / 1000, (rv % 1000) / 10, dv / 1000, (dv % 1000) / 10);
    g->fp8_fmt = MLAB_FP8_E4M3FN;
    g->has_fp8_mma = 1; /* the build targets sm_89+ (mma e4m3) or it would not compile */
    g->cluster_ok = prop.major >= 9; /* thread-block clusters (the cluster merge) */
#else
    snprintf(info->backend, sizeof info->backend, "hip");
    snprintf(info->arch, sizeof info->arch, "%s", prop.gcnArchName);
    snprintf(info->uuid, sizeof info->uuid, "(not read)");
    int rv = 0;
    if (hipRuntimeGetVersion(&rv) != hipSuccess) rv = 0; /* recorded as HIP 0.0.0: unknown */
    snprintf(info->runtime, sizeof info->runtime, "HIP %d.%d.%d", rv / 10000000,
             (rv / 100000) % 100, rv % 100000);
    g->fp8_fmt = strstr(prop.gcnArchName, "gfx94") ? MLAB_FP8_E4M3FNUZ : MLAB_FP8_E4M3FN;
    g->has_fp8_mma = strstr(prop.gcnArchName, "gfx94") || strstr(prop.gcnArchName, "gfx95");
#endif
    read_driver_version(info->driver, sizeof info->driver);
    info->sms = g->sms;
    info->clock_mhz = g->clock_mhz = clk / 1000;
    info->mem_clock_mhz = mclk / 1000;
    info->mem_bus_bits = bus;
    info->l2_bytes = (double)l2;
    CK(hipStreamCreate(&g->s));
    CK(hipEventCreate(&g->e0));
    CK(hipEventCreate(&g->e1));
    nvml_open(g, info->uuid);
    /* a flush larger than every cache: 4x L2 and at least 512 MB (MI355X's
     * Infinity Cache is 256 MB), overwritten before every cold sample by a
     * memset (MLAB_FLUSH=memset, the default), a kernel of plain stores
     * (store: as the peers' torch fill_) or read by one (load); the memset
     * does evict what the previous sample read, and the three time the
     * variants the same (papers/microbench/flush_probe.cu, perf-notes v31) */
    const char *fk = getenv("MLAB_FLUSH");
    if (knob_refused("MLAB_FLUSH", fk, {"memset", "store", "load"}, why, whylen)) return MLAB_GPU_USAGE;
    g->flush_kind = !fk || !strcmp(fk, "memset") ? FLUSH_MEMSET : !strcmp(fk, "store") ? FLUSH_STORE : FLUSH_LOAD;
    g->flush_bytes = (size_t)mlab_flush_bytes((double)g->l2);
    CK(hipMalloc(&g->flush, g->flush_bytes));
    CK(hipMalloc((void **)&g->rsink, 64)); /* the read probe's sink, and FLUSH_LOAD's */
    return 0;
}

static void free_case(mlab_gpu *g)
{
    /* a failed free at release has no one to report to: the handle is gone either way */
    for (int i = 0; i < g->nbufs; i++) (void)hipFree(g->bufs[i]);
    g->nbufs = 0;
    free(g->row_tiles); free(g->plan_s); free(g->plan_w);
    g->row_tiles = g->plan_s = g->plan_w = NULL;
    g->d_plan_w = g->d_plan_s = NULL;
    g->ragged = g->mtp_ok = 0;
    g->scratch = NULL;
    g->loaded = 0;
}

extern "C" void mlab_gpu_close(mlab_gpu *g)
{
    if (!g || g->hung) return; /* hung: every free would wait on the kernel that never ends */
    free_case(g);
    if (g->flush) (void)hipFree(g->flush);
    if (g->rbuf) (void)hipFree(g->rbuf);
    if (g->rsink) (void)hipFree(g->rsink);
    if (g->e0) (void)hipEventDestroy(g->e0);
    if (g->e1) (void)hipEventDestroy(g->e1);
    if (g->s) (void)hipStreamDestroy(g->s);
#ifdef MLAB_NV
    if (g->nvml_lib) {
        int (*fin)(void) = (int (*)(void))dlsym(g->nvml_lib, "nvmlShutdown");
        if (fin) fin();
        dlclose(g->nvml_lib);
    }
#endif
    free(g);
}

static int dev_alloc(mlab_gpu *g, void **p, size_t bytes, char *why, size_t whylen)
{
    if (g->nbufs >= (int)(sizeof g->bufs / sizeof g->bufs[0])) { /* 17 in a trace build overran 16 */
        snprintf(why, whylen, "more device buffers than runner.hip keeps (%d)", g->nbufs);
        return MLAB_GPU_ERR;
    }
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
        WAIT(e1);
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

/* the tensor maps' L2 promotion in bytes (MLAB_TMAP_L2: 128, the default, 256 or none: 0) */
static unsigned tmap_l2(void)
{
    const char *v = getenv("MLAB_TMAP_L2");
    return v && !strcmp(v, "256") ? 256 : v && !strcmp(v, "none") ? 0 : 128;
}

extern "C" int mlab_gpu_load_case(mlab_gpu *g, const mlab_case *c, int poison, char *why, size_t whylen)
{
    free_case(g);
    if (c->fp8_fmt != g->fp8_fmt) {
        snprintf(why, whylen, "case %s stores fp8 as %s but this GPU's fp8 is %s: regenerate with --fp8 %s",
                 c->name, c->fp8_fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz",
                 g->fp8_fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz",
                 g->fp8_fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz");
        return MLAB_GPU_BADINPUT;
    }
    const int B = c->batch, gap = poison ? GAP_ROWS : 0;
    const size_t rows = (size_t)c->total_kv + (size_t)(B + 1) * gap;
    if (rows > 0x7fffffff) {
        snprintf(why, whylen, "too many kv rows for int32 offsets");
        return MLAB_GPU_BADINPUT;
    }
    /* host staging: the padded layout, poison in the gaps */
    int32_t *first = (int32_t *)malloc(sizeof(int32_t) * (size_t)B);
    int32_t *tk = (int32_t *)malloc(2 * sizeof(int32_t) * (size_t)c->total_q + 8); /* p.tok_kv */
    uint16_t *hb = (uint16_t *)malloc(rows * MLA_D * 2);
    uint8_t *h8 = (uint8_t *)malloc(rows * MLA_D);
    uint8_t *h4 = (uint8_t *)malloc(rows * MLA_FP4_ROW);
    uint8_t *he = (uint8_t *)malloc(rows * MLA_NBLK);
    int rc = MLAB_GPU_ERR;
    if (!first || !tk || !hb || !h8 || !h4 || !he) {
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
            for (int i = 0; i < n; i++) { /* query i of n sees L - n + i + 1 rows (causal) */
                int t = c->qo_indptr[b] + i, v = L - n + i + 1;
                tk[2 * t] = first[b];
                tk[2 * t + 1] = v > 0 ? v : 0;
            }
            if (L > maxvis) maxvis = L;
        }
        g->max_vis = maxvis;
        /* each row's tiles (the ragged plan's input) and whether they differ */
        g->row_tiles = (int *)malloc(sizeof(int) * (size_t)c->total_q);
        g->plan_s = (int *)malloc(sizeof(int) * (size_t)c->total_q);
        g->plan_w = (int *)malloc(2 * sizeof(int) * (size_t)mlab_plan_table_max(c->total_q, MLAB_XCD_COUNT));
        if (!g->row_tiles || !g->plan_s || !g->plan_w) {
            snprintf(why, whylen, "out of host memory for the split plan of %d rows", c->total_q);
            goto out;
        }
        g->ragged = 0;
        for (int t = 0; t < c->total_q; t++) {
            g->row_tiles[t] = (tk[2 * t + 1] + MLA_BN - 1) / MLA_BN;
            g->ragged |= g->row_tiles[t] != g->row_tiles[0];
        }
        /* MTP (mla_params.mtp): every item two query rows, the items' KV as many tiles (the
         * rows then differ only by the causal row the first does not see) */
        g->mtp_ok = B > 0 && c->total_q == 2 * B;
        for (int b = 0; b < B && g->mtp_ok; b++)
            g->mtp_ok = c->qo_indptr[b + 1] - c->qo_indptr[b] == 2 &&
                        g->row_tiles[c->qo_indptr[b] + 1] == g->row_tiles[c->qo_indptr[1] - 1];
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
    rc = MLAB_GPU_ERR;                                                      \
    if (hipMemcpy(d, (host), (bytes), hipMemcpyHostToDevice) != hipSuccess) {     \
        snprintf(why, whylen, "copying %s to the GPU failed", #field);           \
        goto out;                                                                 \
    }                                                                             \
    p.field = (type)d;
        ALLOC_COPY(q, const uint16_t *, c->q, nq * 2);
        ALLOC_COPY(kv_bf16, const uint16_t *, hb, rows * MLA_D * 2);
        ALLOC_COPY(kv_fp8, const uint8_t *, h8, rows * MLA_D);
#if MLAB_HAVE_BULK /* the fp8 and bf16 decodes' tensor maps (arch/nv_tma.h), encoded once here, kept in global memory */
        {
            CUtensorMap tm;
            p.kv_tmap = p.kv_tmap16 = NULL;
            int bad = 0;
            const unsigned l2 = tmap_l2(); /* MLAB_TMAP_L2 (an unknown value is refused by every call: prepare) */
            if (mlab_tmap_rows(&tm, p.kv_fp8, rows, MLA_D, 64, l2) == 0) {
                ALLOC_COPY(kv_tmap, const void *, &tm, sizeof tm);
            } else bad = 1;
            if (mlab_tmap_rows(&tm, p.kv_bf16, rows, MLA_D * 2, 128, l2) == 0) {
                ALLOC_COPY(kv_tmap16, const void *, &tm, sizeof tm);
            } else bad = 1;
            static int said = 0; /* once a process: those tiles are loaded, slower, by cp.async */
            if (bad && !said++)
                fprintf(stderr, "mlabench: warning: the driver could not encode the KV cache's tensor maps: "
                                "the a8w8 and bf16_wgmma decodes load their tiles by cp.async (slower)\n");
        }
#endif
        ALLOC_COPY(kv_fp4, const uint8_t *, h4, rows * MLA_FP4_ROW);
        ALLOC_COPY(kv_e8m0, const uint8_t *, he, rows * MLA_NBLK);
        ALLOC_COPY(tok_kv, const int32_t *, tk, 2 * sizeof(int32_t) * (size_t)c->total_q);
        /* the ragged plan's tables (filled by prepare when a plan applies) */
        if ((rc = dev_alloc(g, &d, 2 * sizeof(int) * (size_t)mlab_plan_table_max(c->total_q, MLAB_XCD_COUNT), why,
                            whylen)))
            goto out;
        g->d_plan_w = (int *)d;
        if ((rc = dev_alloc(g, &d, sizeof(int) * (size_t)c->total_q, why, whylen))) goto out;
        g->d_plan_s = (int *)d;
#undef ALLOC_COPY
        if ((rc = dev_alloc(g, &d, nout * 2, why, whylen))) goto out;
        p.out = (uint16_t *)d;
        if ((rc = dev_alloc(g, &d, nout * 2 * (size_t)g->max_splits, why, whylen))) goto out;
        p.part_o = (uint16_t *)d; /* f16 partials (mla_params.h) */
        if ((rc = dev_alloc(g, &d, 2 * (size_t)c->total_q * MLA_H * 4 * (size_t)g->max_splits, why, whylen)))
            goto out;
        p.part_lse = (float *)d; /* and part_mul behind it */
        p.part_mul = p.part_lse + (size_t)c->total_q * MLA_H * g->max_splits;
        const size_t amax_want = (nq / 8 + MLA_AMAX_T - 1) / MLA_AMAX_T, amax_cap = (size_t)g->sms * MLA_AMAX_SM;
        p.amax_blocks = (int)(amax_want < amax_cap ? amax_want : amax_cap);
        if (p.amax_blocks < 1) p.amax_blocks = 1;
        if ((rc = dev_alloc(g, &d, sizeof(float) * (size_t)p.amax_blocks, why, whylen))) goto out;
        p.q_amax_part = (float *)d;
        g->amax_blocks = p.amax_blocks;
#ifdef MLAB_ONE_LAUNCH /* the row counters of the one-launch merge */
        if ((rc = dev_alloc(g, &d, sizeof(int) * (size_t)c->total_q, why, whylen))) goto out;
        p.row_count = (int *)d;
        if (hipMemset(d, 0, sizeof(int) * (size_t)c->total_q) != hipSuccess) {
            rc = MLAB_GPU_ERR;
            snprintf(why, whylen, "zeroing the row counters failed");
            goto out;
        }
#endif
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
        p.xcd_count = MLAB_XCD_COUNT;
        /* mxfp4_e4m3's fast path holds E2M1 x 2^(e-127) in e4m3 exactly for
         * e - 127 in [-8, 6] (OCP) or [-9, 5] (fnuz): every scale of the case */
        {
            const int lo = 127 + (g->fp8_fmt == MLAB_FP8_E4M3FN ? -8 : -9);
            const int hi = 127 + (g->fp8_fmt == MLAB_FP8_E4M3FN ? 6 : 5);
            const size_t ns = (size_t)c->total_kv * MLA_NBLK;
            p.mx_e4m3_ok = 1;
            for (size_t i = 0; i < ns && p.mx_e4m3_ok; i++)
                p.mx_e4m3_ok = c->kv_e8m0[i] >= lo && c->kv_e8m0[i] <= hi;
        }
        g->loaded = 1;
        rc = 0;
    }
out:
    free(first); free(tk); free(hb); free(h8); free(h4); free(he);
    if (rc) free_case(g);
    return rc;
}


/* the 64-row tile's bytes of the KV format variant `id` reads (the split
 * rule's free bytes are a share of it: splits.h) */
static int kv_tile_bytes(int id)
{
    const mlab_variant *t = mlab_variant_by_id(id);
    return t ? mlab_kv_tile_bytes(t->kv) : 0;
}

static int prepare(mlab_gpu *g, int id, int splits, mla_params *p, char *why, size_t whylen)
{
    if (!g->loaded) {
        snprintf(why, whylen, "no case loaded");
        return MLAB_GPU_ERR;
    }
    const mlab_variant_impl *v = impl_for(g, id);
    if (!v) {
        snprintf(why, whylen, "unknown variant id %d", id);
        return MLAB_GPU_USAGE;
    }
    if (v->unavailable) {
        snprintf(why, whylen, "not in this build: %s", v->unavailable);
        return MLAB_GPU_NODEV;
    }
    if (v->q_fp8 && !g->has_fp8_mma) {
        snprintf(why, whylen, "variant %d needs fp8 matrix instructions (gfx940+ / sm_89+); this GPU has none",
                 id);
        return MLAB_GPU_NODEV;
    }
    if (v->smem_bytes > g->smem_max) {
        snprintf(why, whylen, "variant %d needs %d bytes of shared memory a block, this GPU allows %d "
                 "(a smaller tile configuration is needed: see variants/mla_kernel.h)",
                 id, v->smem_bytes, g->smem_max);
        return MLAB_GPU_NODEV;
    }
    *p = g->base;
    const int forced = splits > 0;
    /* MLAB_PAIRS=on|off: a decode that can (mlab_variant_impl.head_pairs,
     * bf16_wgmma) takes each unit's 16 heads in two blocks of 8 where its
     * units fill at most half the SMs (splits.h, mlab_head_pairs); off: a
     * block a unit. The GPU tests validate both. The split rule counts the
     * pairs where they may run (its share's pair_pct), as the launch below
     * takes them: a decode that pairs merges by the combine kernel alone
     * (combine_only: no one-launch merge, which pairs would not fit) */
    const char *hp = getenv("MLAB_PAIRS");
    if (knob_refused("MLAB_PAIRS", hp, {"on", "off"}, why, whylen)) return MLAB_GPU_USAGE;
    /* MLAB_MTP=auto|on|off: a decode that can (mlab_variant_impl.mtp:
     * bf16_wgmma, fp8_wgmma, fp8_wgmma_qrow, the MXFP4 wgmma decodes; combine_only: no
     * one-launch merge) takes both query rows of
     * every item in one block where every item has two and as many KV tiles
     * (g->mtp_ok), each KV tile read once for both (its units the items': the
     * split rule counts them; no head pairs, no ragged plan): auto (unset)
     * where the call's KV is past the rule's line for its format and the
     * GPU's DRAM, or its items outnumber half the SMs (splits.h mlab_mtp_auto),
     * on wherever it can, off never (a block a row). The GPU tests validate
     * on and off */
    const char *mt = getenv("MLAB_MTP");
    int mtk = 0; /* 0 auto, 1 on, 2 off */
    if (knob_refused("MLAB_MTP", mt, {"auto", "on", "off"}, why, whylen, &mtk)) return MLAB_GPU_USAGE;
    const mlab_variant *vt = mlab_variant_by_id(id); /* its KV format: the MTP and L2 rules' */
    p->mtp = v->mtp && v->combine_only && g->mtp_ok && vt &&
             (mtk == 1 || (mtk == 0 && mlab_mtp_auto((double)g->kv_rows, vt->kv, v->q_fp8, (double)g->l2, g->dram_bpc,
                                                       g->batch, g->sms)));
    const bool pairs_ok = v->head_pairs && v->combine_only && !(hp && !strcmp(hp, "off")) && !p->mtp;
    mlab_split_dram dram = v->dram;
    if (!pairs_ok) dram.pair_pct = 0;
    if (splits <= 0) {
        splits = mlab_choose_splits(mlab_unit_rows(p), (g->max_vis + MLA_BN - 1) / MLA_BN, g->sms, v->blocks_per_sm(),
                                    &dram, kv_tile_bytes(v->id));
    }
    if (splits > g->max_splits) splits = g->max_splits;
    p->splits = splits;
    /* one launch where it pays: the row's last block merges up to
     * MLA_INLINE_MERGE_MAX splits; a small Q's amax is taken by every block.
     * MLAB_MERGE=inline|combine and MLAB_AMAX=pass|inline force one way
     * (the GPU tests run both); MLAB_FAULT=overread|merge|qscale|lazy is the negative
     * control the GPU tests must catch. */
    const char *m = getenv("MLAB_MERGE"), *a = getenv("MLAB_AMAX"), *f = getenv("MLAB_FAULT");
#ifdef MLAB_ONE_LAUNCH
    p->merge_inline = splits > 1 && splits <= MLA_INLINE_MERGE_MAX && MLAB_MERGE_INLINE_DEFAULT;
    if (m && !strcmp(m, "inline")) p->merge_inline = splits > 1;
    if (v->combine_only) p->merge_inline = 0; /* its decode cannot merge (fp8_wgmma) */
    if (m && !strcmp(m, "combine")) p->merge_inline = 0;
    /* barrier (mla_kernel.h merge_barrier): the row's blocks wait for each
     * other, then each merges its 16 / splits heads (2, 4, 8 or 16 splits);
     * only where the whole grid is resident at once (the launch is
     * cooperative) and the decode is a block a (row, split) (not placed by
     * XCD); elsewhere the combine, and the results row names which merge
     * ran. Measured slower than the combine (perf-notes v25) */
    if (m && !strcmp(m, "barrier")) {
        const bool pow2 = splits == 2 || splits == 4 || splits == 8 || splits == 16;
        const bool fits = g->total_q * splits <= g->sms * v->blocks_per_sm();
        p->merge_inline = pow2 && fits && !v->combine_only && !v->xcd_placed ? 2 : 0;
    }
    p->amax_blocks = g->total_q <= MLA_QSMALL_ROWS && MLAB_AMAX_INLINE_DEFAULT ? 0 : g->amax_blocks;
    if (a && !strcmp(a, "pass")) p->amax_blocks = g->amax_blocks;
    if (a && !strcmp(a, "inline")) p->amax_blocks = 0;
#else
    /* the one-launch paths are compiled out (-DMLAB_ONE_LAUNCH builds them):
     * asking for them here is refused, never silently run the other way */
    if ((m && (!strcmp(m, "inline") || !strcmp(m, "barrier"))) || (a && !strcmp(a, "inline"))) {
        snprintf(why, whylen, "MLAB_MERGE=inline|barrier / MLAB_AMAX=inline need a build with -DMLAB_ONE_LAUNCH=ON");
        return MLAB_GPU_NODEV;
    }
    p->merge_inline = 0;
    p->amax_blocks = g->amax_blocks;
#endif
    /* MLAB_MERGE=cluster: a row's split blocks one thread-block cluster,
     * merged through distributed shared memory (-DMLAB_ONE_LAUNCH builds for
     * sm_90+, NVIDIA sm_90+ GPUs, mla_decode's variants but those whose
     * blocks are placed by XCD (xcd_placed), 2..MLAB_CLUSTER_MAX splits; elsewhere the
     * combine kernel) */
    p->merge_cluster = 0;
    if (m && (!strcmp(m, "cluster") || !strcmp(m, "push"))) {
#if MLAB_HAVE_CLUSTER
        p->merge_cluster = g->cluster_ok && !v->combine_only && !v->xcd_placed &&
                           splits >= 2 && splits <= MLAB_CLUSTER_MAX;
        /* push (an experiment, mla_kernel.h cluster_push): where the splits
         * divide the 16 heads; the pull merge elsewhere, named so */
        if (p->merge_cluster && !strcmp(m, "push") && MLA_H % splits == 0) p->merge_cluster = 2;
#else
        snprintf(why, whylen, "MLAB_MERGE=cluster and push need a build with -DMLAB_ONE_LAUNCH=ON for NVIDIA sm_90+");
        return MLAB_GPU_NODEV;
#endif
    }
    if (knob_refused("MLAB_AMAX", a, {"pass", "inline"}, why, whylen) ||
        knob_refused("MLAB_MERGE", m, {"combine", "cluster", "push", "inline", "barrier"}, why, whylen))
        return MLAB_GPU_USAGE;
    /* MLAB_PLAN=on|off: a ragged batch (rows of different lengths) runs the
     * split plan (splits.h, mlab_plan_splits: each row split so every block
     * gets about the same tiles; its tables copied here, outside the timed
     * call), unless splits were forced (--splits), the call merges in the
     * decode (the one-launch merges), or MLAB_PLAN=off; uniform batches keep
     * the split rule. fp8_xcd's table is placed by XCD (splits.h,
     * mlab_plan_table: a row's blocks on the XCD of its placed combine) */
    p->blk_work = NULL;
    p->row_splits = NULL;
    p->plan_blocks = 0;
    {
        const char *pl = getenv("MLAB_PLAN");
        if (knob_refused("MLAB_PLAN", pl, {"on", "off"}, why, whylen)) return MLAB_GPU_USAGE;
        if (g->ragged && !forced && !(pl && !strcmp(pl, "off")) && !p->merge_inline && !p->merge_cluster && !p->mtp) {
            const int smax =
                mlab_plan_splits(g->total_q, g->row_tiles, g->sms, v->blocks_per_sm(), &dram,
                                 kv_tile_bytes(v->id), g->plan_s);
            const int nb = smax >= 1 ? mlab_plan_table(g->total_q, g->plan_s, v->xcd_placed ? p->xcd_count : 1,
                                                       g->plan_w)
                                     : 0;
            if (nb >= 1) {
                CK(hipMemcpy(g->d_plan_w, g->plan_w, 2 * sizeof(int) * (size_t)nb, hipMemcpyHostToDevice));
                CK(hipMemcpy(g->d_plan_s, g->plan_s, sizeof(int) * (size_t)g->total_q, hipMemcpyHostToDevice));
                p->blk_work = g->d_plan_w;
                p->row_splits = g->d_plan_s;
                p->plan_blocks = nb;
                p->splits = smax;
            }
        }
    }
    /* MLAB_PERSIST=on|off: a persistent decode (mlab_variant_impl.persistent)
     * launches at most SMs x its blocks an SM, each block looping over the
     * call's (row, split) units; off (or any other variant): a block a unit.
     * The GPU tests validate both. */
    p->grid_max = 0;
    {
        const char *ps = getenv("MLAB_PERSIST");
        if (knob_refused("MLAB_PERSIST", ps, {"on", "off"}, why, whylen)) return MLAB_GPU_USAGE;
        if (v->persistent && !(ps && !strcmp(ps, "off")) && !p->mtp) p->grid_max = g->sms * v->blocks_per_sm();
    }
    /* the head pairs (MLAB_PAIRS, above), where the units fill at most half the SMs */
    p->head_pairs = pairs_ok ? mlab_head_pairs(mlab_call_grid(p, v->xcd_placed), g->sms) : 0;
    /* MLAB_COMBINE=plain|ahead: which combine kernel merges the splits
     * (launch_common.h, combine_ahead: ahead is the 16-, 32- or 64-split
     * instance, the smallest that holds the call's splits); unset, the launcher
     * picks by the grid. fp8_xcd's placed combine is neither. */
    const char *c = getenv("MLAB_COMBINE");
    if (knob_refused("MLAB_COMBINE", c, {"plain", "ahead"}, why, whylen)) return MLAB_GPU_USAGE;
    p->combine = !c ? 0 : !strcmp(c, "plain") ? 1 : 2;
    /* MLAB_COMBINE_SPREAD=on|off: a call of few rows and more than 16
     * splits merges each (row, head) in 2 or 4 blocks of its columns, at most
     * MLAB_COMBINE_SPREAD_BPS an SM (splits.h, mlab_combine_chunks;
     * launch_common.h, combine_smem); off: a block a (row, head) */
    const char *sp = getenv("MLAB_COMBINE_SPREAD");
    if (knob_refused("MLAB_COMBINE_SPREAD", sp, {"on", "off"}, why, whylen)) return MLAB_GPU_USAGE;
    p->combine_chunks = (sp && !strcmp(sp, "off")) || (v->xcd_placed && p->xcd_count > 1) /* the placed one: never */
                            ? 1
                            : mlab_combine_chunks(g->total_q, p->splits, g->sms, MLA_DV / 4 / MLAB_WARP);
    /* MLAB_COMBINE_CAP=on|off: where the decode fills at least half the
     * SMs' block slots (splits.h, mlab_combine_capped), the plain combine's
     * blocks at most 4 an SM, or as many as one wave of its grid needs
     * (launch_common.h, combine_smem), so that they spread over the SMs as
     * the decode's blocks end; off: as many as fit (a spread combine is
     * capped either way) */
    const char *cc = getenv("MLAB_COMBINE_CAP");
    if (knob_refused("MLAB_COMBINE_CAP", cc, {"on", "off"}, why, whylen)) return MLAB_GPU_USAGE;
    p->combine_cap = !(cc && !strcmp(cc, "off")) &&
                     mlab_combine_capped(mlab_call_grid(p, v->xcd_placed), g->sms, v->blocks_per_sm());
    /* MLAB_TMAP=off: the a8w8 decode loads every tile by cp.async into its
     * swizzled layout, as where no tensor map could be encoded (the GPU
     * tests validate that path so); on (default): by tensor copies */
    const char *tm = getenv("MLAB_TMAP");
    if (knob_refused("MLAB_TMAP", tm, {"on", "off"}, why, whylen)) return MLAB_GPU_USAGE;
    /* MLAB_TMAP_L2=128|256|none: the maps' L2 promotion (encoded when a case
     * is loaded: tmap_l2), 128 by default (arch/nv_tma.h mlab_tmap_rows) */
    if (knob_refused("MLAB_TMAP_L2", getenv("MLAB_TMAP_L2"), {"128", "256", "none"}, why, whylen))
        return MLAB_GPU_USAGE;
    if (tm && !strcmp(tm, "off")) p->kv_tmap = p->kv_tmap16 = NULL;
    /* MLAB_KV_EVICT=auto|first|off: the decode's KV copies evict_first in
     * L2 where the call's KV is at most a few L2s (splits.h,
     * mlab_kv_evict_first; auto, the default), always, or never */
    const char *ev = getenv("MLAB_KV_EVICT");
    int evk = 0;
    if (knob_refused("MLAB_KV_EVICT", ev, {"auto", "first", "off"}, why, whylen, &evk)) return MLAB_GPU_USAGE;
    p->kv_ef = MLAB_HAVE_BULK && vt && (evk == 1 || (evk == 0 && mlab_kv_evict_first((double)g->kv_rows, vt->kv, (double)g->l2)));
    /* the negative control (mla_params.fault: its place in the list; none,
     * as kernel_knobs records an unset one, 0); a name misspelt would run the
     * kernel unbroken */
    if (knob_refused("MLAB_FAULT", f, {"none", "overread", "merge", "qscale", "lazy", "hang", "oob"}, why, whylen,
                     &p->fault))
        return MLAB_GPU_USAGE;
    /* oob writes past a buffer's end, which only a memory checker may be
     * asked to see: compute-sanitizer (harness/gpu_sanitize.sh --control)
     * puts NV_SANITIZER_* in its target's environment */
    if (p->fault == 6 && !getenv("NV_SANITIZER_INJECTION_PORT_BASE")) {
        snprintf(why, whylen, "MLAB_FAULT=oob writes past the output buffer: it runs only under compute-sanitizer");
        return MLAB_GPU_USAGE;
    }
    return 0;
}

static void launch_info(mlab_gpu *g, int id, const mla_params *p, mlab_launch_info *li)
{
    const mlab_variant_impl *v = impl_for(g, id);
    li->splits = p->splits;
    li->grid = mlab_call_grid(p, v->xcd_placed); /* as launch_sequence's */
    li->block = v->block_threads ? v->block_threads : MLA_NT;
    li->smem_bytes = v->smem_used ? v->smem_used() : v->smem_bytes;
    li->blocks_per_sm = v->blocks_per_sm();
    li->launches = v->pre_launches + mlab_decode_launches(v->q_fp8, p);
    li->exact_id = v && v == impl_of(id)->exact_impl ? v->id : -1; /* impl_for took the exact path */
    li->regs = li->local_bytes = 0; /* mlab_gpu_run's launch fills them, with merge */
    li->merge[0] = 0;
    snprintf(li->unit, sizeof li->unit, "%s", p->mtp ? "item" : p->head_pairs ? "heads" : "row");
    snprintf(li->l2_policy, sizeof li->l2_policy, "%s", !MLAB_HAVE_BULK ? "" : p->kv_ef ? "evict_first" : "normal");
}

extern "C" int mlab_gpu_run(mlab_gpu *g, int id, int splits, uint16_t *out, mlab_launch_info *li,
                            char *why, size_t whylen)
{
    mla_params p;
    int rc = prepare(g, id, splits, &p, why, whylen);
    if (rc) return rc;
    launch_info(g, id, &p, li);
    size_t nout = (size_t)g->total_q * MLA_H * MLA_DV;
    /* poison the output and every workspace: unwritten elements stay NaN */
    CK(hipMemsetAsync(p.out, 0xff, nout * 2, g->s));
    CK(hipMemsetAsync(p.part_o, 0xff, nout * 2 * (size_t)p.splits, g->s)); /* f16 partials */
    CK(hipMemsetAsync(p.part_lse, 0xff, (size_t)g->total_q * MLA_H * 4 * (size_t)p.splits, g->s));
    CK(hipMemsetAsync(p.part_mul, 0xff, (size_t)g->total_q * MLA_H * 4 * (size_t)p.splits, g->s));
    CK(hipMemsetAsync(g->scratch, 0xff, (size_t)g->kv_rows * MLA_D * 2, g->s));
#ifdef MLAB_ONE_LAUNCH
    CK(hipMemsetAsync(p.row_count, 0, sizeof(int) * (size_t)g->total_q, g->s));
#endif
    p.ran = li; /* the launch sequence fills what ran: merge, shared memory, footprint */
    if (p.fault == 5) hang_kernel<<<1, 32, 0, g->s>>>(); /* MLAB_FAULT=hang: ahead of the variant */
    uint16_t *const dout = p.out;
    if (p.fault == 6) p.out += MLA_H * MLA_DV; /* MLAB_FAULT=oob: each query row's output one row on */
    CK(impl_for(g, id)->launch(&p, g->s, g->scratch));
    CK(hipEventRecord(g->e1, g->s));
    WAIT(g->e1);
    CK(hipGetLastError());
    CK(hipMemcpy(out, dout, nout * 2, hipMemcpyDeviceToHost));
    return 0;
}

/* ---- the timing primitives of whatever is selected ---------------------- */

static hipError_t launch_selected(mlab_gpu *g)
{
    switch (g->sel) {
    case SEL_VARIANT:
        return g->sel_v->launch(&g->sel_p, g->s, g->scratch);
    case SEL_READ:
#if MLAB_READ_EF
        if (g->r_unroll == 4 && g->r_ef)
            mlab_read_kernel<4, true><<<g->r_grid, 512, 0, g->s>>>((const uint4 *)g->rbuf, g->r_n16, g->rsink);
        else
#endif
        if (g->r_unroll == 4)
            mlab_read_kernel<4><<<g->r_grid, 512, 0, g->s>>>((const uint4 *)g->rbuf, g->r_n16, g->rsink);
        else
            mlab_read_kernel<1><<<g->r_grid, 512, 0, g->s>>>((const uint4 *)g->rbuf, g->r_n16, g->rsink);
        return hipGetLastError();
    case SEL_EMPTY:
        mlab_empty_kernel<<<1, 32, 0, g->s>>>();
        return hipGetLastError();
    case SEL_EMPTY_PAIR: {
        mlab_empty_first<<<1, 32, 0, g->s>>>(g->base);
        const hipError_t e = hipGetLastError();
        return e != hipSuccess ? e : launch_after(mlab_empty_second, 1, 32, 0, g->s, &g->base);
    }
    }
    return hipErrorInvalidValue;
}

extern "C" int mlab_gpu_select(mlab_gpu *g, int id, int splits, mlab_launch_info *li, char *why,
                               size_t whylen)
{
    int rc = prepare(g, id, splits, &g->sel_p, why, whylen);
    if (rc) return rc;
#ifdef MLAB_ONE_LAUNCH
    CK(hipMemset(g->sel_p.row_count, 0, sizeof(int) * (size_t)g->total_q));
#endif
#ifdef MLAB_TRACE /* no record of the variant before (its graph replays wrote after the print) */
    CK(hipMemset(g->sel_p.trace, 0, 8 * (size_t)MLAB_TR_WORDS));
#endif
    g->sel = SEL_VARIANT;
    g->sel_id = id;
    g->sel_v = impl_for(g, id); /* not on every timed launch */
    launch_info(g, id, &g->sel_p, li);
    return 0;
}

extern "C" int mlab_gpu_warm(mlab_gpu *g, char *why, size_t whylen)
{
    CK(launch_selected(g));
    CK(hipEventRecord(g->e1, g->s));
    WAIT(g->e1);
    return 0;
}

extern "C" int mlab_gpu_cold(mlab_gpu *g, double *us, char *why, size_t whylen)
{
    static unsigned n;
    /* cold: overwrite (or read) a buffer larger than every cache, outside the timed region */
    const unsigned v = n++ & 0xff;
    if (g->flush_kind == FLUSH_MEMSET) {
        CK(hipMemsetAsync(g->flush, (int)v, g->flush_bytes, g->s));
    } else if (g->flush_kind == FLUSH_STORE) {
        mlab_flush_store<<<2 * g->sms, 512, 0, g->s>>>((uint4 *)g->flush, g->flush_bytes / 16, v * 0x01010101u);
        CK(hipGetLastError());
    } else {
        mlab_read_kernel<4><<<2 * g->sms, 512, 0, g->s>>>((const uint4 *)g->flush, g->flush_bytes / 16, g->rsink);
        CK(hipGetLastError());
    }
    CK(hipEventRecord(g->e0, g->s));
    CK(launch_selected(g));
    CK(hipEventRecord(g->e1, g->s));
    WAIT(g->e1);
    float ms;
    CK(hipEventElapsedTime(&ms, g->e0, g->e1));
    *us = g->last_cold_us = 1e3 * ms;
    return 0;
}

extern "C" double mlab_gpu_flush_s(const mlab_gpu *g)
{
    return mlab_flush_seconds((double)g->flush_bytes);
}

extern "C" int mlab_gpu_graph(mlab_gpu *g, int iters, double *us, char *why, size_t whylen)
{
#ifdef MLAB_TRACE
    if (g->sel == SEL_VARIANT) { /* the last call's phase times, one line a block, to stderr */
        unsigned long long *tb = (unsigned long long *)malloc(8 * (size_t)MLAB_TR_WORDS);
        if (tb && hipMemcpy(tb, g->sel_p.trace, 8 * (size_t)MLAB_TR_WORDS, hipMemcpyDeviceToHost) == hipSuccess) {
            /* the variant's name last (trace_summary.py prints the line as its heading) */
            const mlab_variant *vt = mlab_variant_by_id(g->sel_id);
            const char *vn = vt ? vt->name : "?";
            fprintf(stderr, "TRACE variant %d last cold sample %.2f us query rows %d longest %d splits %d name %s\n",
                    g->sel_id, g->last_cold_us, g->total_q, g->max_vis, g->sel_p.splits, vn);
            for (int b = 0; b < 512; b++)
                if (tb[2 * b]) fprintf(stderr, "TA %d %llu %llu\n", b, tb[2 * b], tb[2 * b + 1]);
            for (int b = 0; b < 65536; b++) {
                const unsigned long long *d = tb + MLAB_TR_DECODE + 8 * b;
                if (d[7] == 1) fprintf(stderr, "TD %d %llu %llu %llu %llu %llu %llu %llu\n", b, d[5], d[6], d[0], d[1], d[2], d[3], d[4]);
                else if (d[7]) /* and the time its last P.V result was in */
                    fprintf(stderr, "TD %d %llu %llu %llu %llu %llu %llu %llu %llu\n", b, d[5], d[6], d[0], d[1], d[2], d[3], d[4], d[7]);
                const unsigned long long *c = tb + MLAB_TR_COMBINE + 4 * b;
                if (c[3]) fprintf(stderr, "TC %d %llu %llu %llu %llu\n", b, c[0], c[1], c[2], c[3]);
                const unsigned long long *ci = tb + MLAB_TR_COMBIN + 2 * b; /* inside the combine: lse back, weights stored */
                if (ci[1]) fprintf(stderr, "TE %d %llu %llu\n", b, ci[0], ci[1]);
                if (tb[MLAB_TR_ISSUE + 2 * b]) /* the first tile's landing: 0 where not recorded */
                    fprintf(stderr, "TK %d %llu %llu\n", b, tb[MLAB_TR_ISSUE + 2 * b], tb[MLAB_TR_ISSUE + 2 * b + 1]);
                const unsigned long long *qp = tb + MLAB_TR_QPATH + 2 * b; /* a8w8: before the quantization */
                if (qp[1]) fprintf(stderr, "TQ %d %llu %llu\n", b, qp[0], qp[1]);
                const unsigned long long *w = tb + MLAB_TR_WGPROF + 8 * b; /* fp8_wgmma, -DMLAB_WG_PROF: cycles */
                if (w[7])
                    fprintf(stderr, "TW %d tiles %llu prologue %llu wait %llu qk %llu softmax %llu pv %llu epilogue %llu all %llu\n",
                            b, w[7] - 1, w[0], w[1], w[2], w[3], w[4], w[5], w[6]);
                const unsigned long long *pw = tb + MLAB_TR_WGPROD + 8 * b; /* mxfp4_wgmma's producer: cycles */
                if (pw[7])
                    fprintf(stderr, "TP %d tiles %llu rawwait %llu emptywait %llu convert %llu sync %llu\n", b,
                            pw[7] - 1, pw[0], pw[1], pw[2], pw[3]);
            }
        }
        free(tb);
        (void)hipMemset(g->sel_p.trace, 0, 8 * (size_t)MLAB_TR_WORDS);
    }
#endif
    /* no early return between capture and destroy: a failure still ends the
     * capture and frees the graph (the CK macro returns, so it is not used here) */
    hipGraph_t graph = NULL;
    hipGraphExec_t exec = NULL;
    hipError_t e = hipStreamBeginCapture(g->s, hipStreamCaptureModeThreadLocal);
    if (e == hipSuccess) {
        hipError_t le = launch_selected(g);
        e = hipStreamEndCapture(g->s, &graph);
        if (e == hipSuccess) e = le;
    }
    if (e == hipSuccess) e = hipGraphInstantiate(&exec, graph, NULL, NULL, 0);
    if (e == hipSuccess) e = hipGraphLaunch(exec, g->s);
    if (e == hipSuccess) e = hipEventRecord(g->e0, g->s);
    for (int i = 0; i < iters && e == hipSuccess; i++) e = hipGraphLaunch(exec, g->s);
    if (e == hipSuccess) e = hipEventRecord(g->e1, g->s);
    if (e == hipSuccess) {
        const int w = gpu_wait(g, g->e1, why, whylen);
        if (w) return w; /* hung: the graph is left with the device (freeing it waits) */
    }
    float ms = 0;
    if (e == hipSuccess) e = hipEventElapsedTime(&ms, g->e0, g->e1);
    if (exec) (void)hipGraphExecDestroy(exec);
    if (graph) (void)hipGraphDestroy(graph);
    if (e != hipSuccess) {
        snprintf(why, whylen, "graph replay: %s", hipGetErrorString(e));
        return MLAB_GPU_ERR;
    }
    *us = 1e3 * ms / iters;

    return 0;
}

extern "C" int mlab_gpu_select_empty(mlab_gpu *g, char *why, size_t whylen)
{
    g->sel = SEL_EMPTY;
    return 0;
}

extern "C" int mlab_gpu_select_empty_pair(mlab_gpu *g, char *why, size_t whylen)
{
    g->sel = SEL_EMPTY_PAIR;
    return 0;
}

/* Grow the probe's source to `bytes` (filled with a pattern, so no page is
 * a zero page; its sink is allocated by mlab_gpu_open). */
static int read_buffer(mlab_gpu *g, size_t bytes, char *why, size_t whylen)
{
    if (g->rbuf_bytes >= bytes) return 0;
    if (g->rbuf) (void)hipFree(g->rbuf);
    g->rbuf = NULL;
    g->rbuf_bytes = 0;
    CK(hipMalloc(&g->rbuf, bytes));
    CK(hipMemset(g->rbuf, 0x5a, bytes));
    g->rbuf_bytes = bytes;
    return 0;
}

extern "C" int mlab_gpu_select_read(mlab_gpu *g, double bytes, char *why, size_t whylen)
{
    const size_t n16 = (size_t)((bytes + 15) / 16);
    int rc = read_buffer(g, n16 * 16, why, whylen);
    if (rc) return rc;
    g->sel = SEL_READ;
    g->r_n16 = n16;
    /* the best of a few launch shapes: 1, 2, 4 or 8 blocks of 512 threads an
     * SM, one or four loads in flight a thread (four also with evict_first
     * loads where MLAB_READ_EF); 5 cold samples each, by median */
    static const int per_sm[4] = {1, 2, 4, 8}, unroll[3] = {1, 4, 4};
    double best = 1e30;
    int bg = g->sms, bu = 1, be = 0;
    for (int a = 0; a < 4; a++)
        for (int u = 0; u < 2 + MLAB_READ_EF; u++) {
            g->r_grid = g->sms * per_sm[a];
            g->r_unroll = unroll[u];
            g->r_ef = u == 2;
            double t[5];
            if ((rc = mlab_gpu_warm(g, why, whylen))) return rc;
            for (int k = 0; k < 5; k++)
                if ((rc = mlab_gpu_cold(g, &t[k], why, whylen))) return rc;
            for (int i = 1; i < 5; i++)
                for (int j = i; j > 0 && t[j] < t[j - 1]; j--) { double x = t[j]; t[j] = t[j - 1]; t[j - 1] = x; }
            if (t[2] < best) { best = t[2]; bg = g->r_grid; bu = g->r_unroll; be = g->r_ef; }
        }
    g->r_grid = bg;
    g->r_unroll = bu;
    g->r_ef = be;
    return 0;
}

extern "C" int mlab_gpu_read_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen)
{
    const size_t bytes = (size_t)1 << 30;
    int rc = mlab_gpu_select_read(g, (double)bytes, why, whylen);
    if (rc) return rc;
    double t[9];
    for (int k = 0; k < 9; k++)
        if ((rc = mlab_gpu_cold(g, &t[k], why, whylen))) return rc;
    for (int i = 1; i < 9; i++)
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) { double x = t[j]; t[j] = t[j - 1]; t[j - 1] = x; }
    *gbs = (double)bytes / (t[4] * 1e-6) / 1e9;
    return 0;
}
