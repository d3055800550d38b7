/* gpu_api.h: the narrow interface the GPU side (variants/) offers the harness,
 * in plain C types. variants/runner.hip implements it for CUDA and HIP,
 * variants/gpu_none.c for builds without a GPU. The harness owns the timing
 * loop (harness/sampler.c); this side only knows how to run one call, one
 * cold sample, or a graph of warm replays of whatever was selected last: a
 * variant (mlab_gpu_select), a streaming read of N bytes (the read limit,
 * mlab_gpu_select_read) or an empty kernel (mlab_gpu_select_empty).
 *
 * Every function returns 0 or one of the codes below (equal to the harness's
 * exit codes) with a one-line reason in why.
 */
#ifndef MLAB_GPU_API_H
#define MLAB_GPU_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" { /* runner.hip implements it, launch_common.h fills mlab_launch_info (C++) */
#endif

#include "../reference/case.h" /* mlab_case */

enum {
    MLAB_GPU_ERR = 1,       /* a CUDA/HIP call failed, or out of memory */
    MLAB_GPU_USAGE = 2,     /* no such device or variant */
    MLAB_GPU_BADINPUT = 3,  /* the case cannot run here (fp8 flavour, size) */
    MLAB_GPU_HANG = 11,     /* a wait for the GPU passed MLAB_HANG_S: a kernel that never ends (the
                               device is left as it is: nothing more may wait on it) */
    MLAB_GPU_NODEV = 77     /* no usable GPU, or the variant cannot run on it */
};

typedef struct mlab_gpu mlab_gpu;

typedef struct {
    int index;               /* among the visible devices */
    char backend[16];        /* "cuda", "hip", "none" */
    char name[128], arch[32], uuid[64];
    char runtime[64], driver[64];
    int sms;                 /* SMs or CUs */
    int clock_mhz;           /* maximum SM clock */
    int mem_clock_mhz;
    int mem_bus_bits;        /* DRAM bus width (0 unknown): with mem_clock_mhz the peak DRAM rate (the MTP rule's) */
    double l2_bytes;
    int smem_max;            /* shared memory (LDS) a block may use */
} mlab_gpu_info;

typedef struct mlab_launch_info {
    int splits;              /* KV splits of the call */
    int grid, block;         /* of its main kernel */
    int smem_bytes;          /* dynamic shared memory of its main kernel (mlab_gpu_run: of the one it
                                launched; fp8_wgmma's one-wave kernel has less than its persistent one) */
    int blocks_per_sm;       /* resident blocks of it an SM */
    int regs, local_bytes;   /* its registers and local bytes a thread in the binary that ran
                                (mlab_gpu_run fills them; 0 from mlab_gpu_select) */
    int launches;            /* kernels a call launches */
    int exact_id;            /* >= 0: the variant's fast path cannot hold this case
                                exactly and this variant's kernel (its exact path, mxfp4's
                                for mxfp4_e4m3 and mxfp4_wgmma) ran instead; -1: its own */
    char merge[24];          /* how its splits were merged (launch_common.h launch_sequence): "none",
                                "combine", "combine16", "combine64", "combine_xcd",
                                "combine_xcd16", "combine_xcd64", "cluster", "inline";
                                mlab_gpu_run fills it ("" from mlab_gpu_select) */
    char unit[8];            /* a decode block's unit: "row" (a query row's split), "item" (an item's
                                two query rows, mla_params.mtp), "heads" (8 of a row's heads,
                                mla_params.head_pairs) */
    char l2_policy[16];      /* the L2 policy its KV copies asked for (mla_params.kv_ef,
                                MLAB_KV_EVICT): "evict_first" or "normal" in builds with bulk
                                copies (NVIDIA sm_90), "" in others */
} mlab_launch_info;

int mlab_gpu_open(mlab_gpu **g, int device, mlab_gpu_info *info, char *why, size_t whylen);
void mlab_gpu_close(mlab_gpu *g);

/* Device-to-device copy bandwidth (bytes read + written / s), and the
 * bandwidth of the read kernel over 1 GiB (bytes read / s), in GB/s. */
int mlab_gpu_copy_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen);
int mlab_gpu_read_bandwidth(mlab_gpu *g, double *gbs, char *why, size_t whylen);

/* Upload a case. With poison, each item's KV rows are followed (and the
 * first preceded) by NaN rows, so a read past a sequence end shows. */
int mlab_gpu_load_case(mlab_gpu *g, const mlab_case *c, int poison, char *why, size_t whylen);

/* Run variant id once into a NaN-poisoned output (workspaces poisoned too)
 * and copy it back as bf16 bits [total_q, 16, 512]. splits <= 0: the
 * documented rule. li gets the launch configuration. */
int mlab_gpu_run(mlab_gpu *g, int variant_id, int splits, uint16_t *out, mlab_launch_info *li,
                 char *why, size_t whylen);

/* What the three timing calls below act on. */
int mlab_gpu_select(mlab_gpu *g, int variant_id, int splits, mlab_launch_info *li, char *why,
                    size_t whylen);
/* a kernel reading `bytes` bytes once (the best of a few launch shapes, tried
 * here), and nothing else: the read limit of a call that must read them */
int mlab_gpu_select_read(mlab_gpu *g, double bytes, char *why, size_t whylen);
/* an empty kernel: the fixed cost of one launch */
int mlab_gpu_select_empty(mlab_gpu *g, char *why, size_t whylen);
/* two empty kernels, the second launched as a call launches its combine (a
 * programmatic dependent of the first on NVIDIA sm_90+): what a second
 * launch adds to a call */
int mlab_gpu_select_empty_pair(mlab_gpu *g, char *why, size_t whylen);

int mlab_gpu_warm(mlab_gpu *g, char *why, size_t whylen);
/* flush every cache outside the timed region, then one call between events */
int mlab_gpu_cold(mlab_gpu *g, double *us, char *why, size_t whylen);
int mlab_gpu_graph(mlab_gpu *g, int iters, double *us, char *why, size_t whylen);
/* seconds one flush costs (counted against the sampling time limit) */
double mlab_gpu_flush_s(const mlab_gpu *g);

/* The cold-timing flush, one rule for the variants and the peers: a buffer
 * larger than every cache (4x L2 and at least 512 MB: MI355X's Infinity
 * Cache is 256 MB), overwritten before each sample outside the timed region;
 * one costs about bytes / 2 TB/s (a memset), counted against the time limit. */
static inline double mlab_flush_bytes(double l2_bytes)
{
    const double min = 512.0 * 1024 * 1024;
    return 4 * l2_bytes > min ? 4 * l2_bytes : min;
}
static inline double mlab_flush_seconds(double bytes) { return bytes / 2e12; }

/* SM clock (MHz), temperature (C) and whether the GPU reports a slowdown
 * reason other than idle; -1 where the driver library is not there. */
void mlab_gpu_clocks(mlab_gpu *g, int *sm_mhz, int *temp_c, int *throttled);
/* The time (ns, cumulative since the driver started counting) NVML's
 * violation counters have held the GPU below its clocks by its power or
 * thermal limit, into *ns: 0, or -1 where they cannot be read (no NVML,
 * AMD, a driver without the counters). Two readings around a row say how
 * much of it ran slowed (results.h slow_us). */
int mlab_gpu_slow_ns(mlab_gpu *g, unsigned long long *ns);
/* A neighbour's work: the GPU waited on (nothing of this process left
 * running), then left idle by this process for window_s seconds, and the
 * highest utilization NVML sampled in that window (the percent of a sample
 * period in which any process's kernels ran, the periods wholly inside the
 * window) into *pct: anything above 0 is another process's. 0, or -1 where
 * it cannot be read (no NVML, AMD, no whole sample period in the window). */
int mlab_gpu_idle_busy(mlab_gpu *g, double window_s, int *pct);

/* The build's knobs and flags that change a kernel's meaning ("pdl=1
 * fast_math=1 trace=0 arch=sm_90a ..."), then the run-time ones ("merge=
 * default amax=default fault=none": MLAB_MERGE, MLAB_AMAX, MLAB_FAULT), for
 * the results file. */
const char *mlab_gpu_build_knobs(void);

#ifdef __cplusplus
}
#endif

#endif
