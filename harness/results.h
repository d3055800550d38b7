/* results.h: one run's results in memory: the environment it ran in and one
 * row per (case, variant). results_write.c and results_read.c store it as an HDF5 file
 * (schema "mlabench-results", see data/README.md); cmd_export.c exports CSV.
 */
#ifndef MLAB_RESULTS_H
#define MLAB_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "../reference/case.h"    /* mlab_case */
#include "../reference/metrics.h" /* mlab_err */

#define MLAB_RESULTS_FORMAT "mlabench-results"
#define MLAB_RESULTS_VERSION 2 /* 2: row kinds, read limit, launch and clocks per row, labels */

typedef struct {
    /* the program */
    char mlabench_version[32];
    char git_commit[48];
    int git_dirty;               /* 1 when the tree had uncommitted changes at build */
    char compiler[128];          /* C compiler id and version */
    char compile_flags[256];
    char gpu_backend[16];        /* "none", "cuda", "hip" */
    char gpu_compiler[128];      /* nvcc / hipcc version line */
    /* the device */
    char gpu_name[128];          /* "" when no GPU */
    char gpu_arch[32];           /* "sm_90", "gfx950" */
    char gpu_uuid[64];
    int gpu_cu_count;            /* SMs or CUs */
    int gpu_clock_mhz;           /* max SM clock */
    int gpu_mem_clock_mhz;
    int gpu_mem_bus_bits;        /* v2 (since v65): the DRAM bus width; 0 unknown (older files) */
    double gpu_l2_bytes;
    char driver_version[64];
    char runtime_version[64];    /* "CUDA 13.0" or "HIP 6.4.1" */
    double copy_bw_gbs;          /* measured device copy, bytes read + written / s */
    double read_bw_gbs;          /* v2: read-only stream of 1 GiB, bytes read / s */
    double empty_kernel_us;      /* v2: cold median of an empty kernel launch */
    int gpu_index;               /* v2: device index the run used (after *_VISIBLE_DEVICES) */
    char gpu_compile_flags[256]; /* v2: GPU compiler flags that change meaning (fast math, arch) */
    char kernel_knobs[512];      /* v2: build knobs: "pdl=1 trace=0 qreg=1 ..." (256 before v28) */
    char label[64];              /* v2: the user's run label (run --label), "" if none */
    double empty_pair_us;        /* v2 (since 2026-12-02): cold median of two empty kernels, the
                                    second launched as a call launches its combine; 0 if not measured */
    /* the host and the moment */
    char host[128];
    char cpu[128];
    char utc_time[32];           /* ISO 8601, e.g. 2026-11-30T17:02:11Z */
    char command_line[512];
    char stopped[128];           /* v2 (since 2026-12-05 21:00): "" when the run ended; else the
                                    signal and where it stopped ("SIGTERM after 3 of 8 cases"):
                                    the file holds the rows measured before it */
    int idle_busy_pct;           /* since 2026-12-07: the highest GPU utilization NVML sampled while the
                                    run left the GPU idle (at its start and its end, MLAB_IDLE_CHECK_S
                                    each): above 0, another process ran kernels on the GPU during the
                                    run, its times may be slowed; -1 not read (no NVML, AMD, CPU-only
                                    runs, older files); merged: the slices' highest */
    char stopped_case[1024];     /* v2 (since 2026-12-06): the case a run stopped in, its rows
                                    partial ("" when it ended, or stopped between two cases):
                                    the case run --resume runs again whole; merged, every
                                    stopped slice's, one a line */
} mlab_env;

typedef struct {
    char path[512];
    char sha256[65];             /* v2: of the case's tensors (tensor_hash.h); v1: of the file's bytes */
    /* v2: SHA-256 (hex) of each tensor's bytes in memory, so equal tensors
     * hash equal whatever file (or no file) they came from; "" in v1 files */
    char q_sha256[65], kv_bf16_sha256[65], kv_fp8_sha256[65], kv_fp4_sha256[65],
        kv_e8m0_sha256[65], qo_indptr_sha256[65], kv_indptr_sha256[65];
    char schema[32];             /* "mlabench-case" */
    int schema_version;
    char case_name[64];
    double wall_s;               /* since 2026-12-07: host seconds the run spent on the case (its
                                    reading or generation, CPU references, validation, timing, peers),
                                    what run --slice-costs cuts a later sweep by; 0: not recorded
                                    (older files, a case a run stopped in) */
} mlab_input_file;

typedef struct {
    char case_name[64];
    int batch, q_seq_len, kv_len, total_q, total_kv;
    char kind[8];                /* v2: "gpu" (a variant), "peer" (an external
                                    implementation), "cpu" (a CPU format reference) */
    char variant[32];            /* stable name from variants/variants.h, a peer's name, or "cpu_ref_*" */
    int variant_id;
    char kv_format[8];           /* "bf16", "fp8", "mxfp4" */
    int splits;                  /* KV splits used; 0 for CPU rows */
    /* accuracy */
    mlab_err kernel_err;         /* vs fp32/fp64 reference on the same quantized inputs */
    char kernel_tol[32];         /* the tolerance row it was judged by */
    int valid;                   /* 1 passed, 0 failed, -1 not checked */
    mlab_err total_err;          /* vs the bf16-truth reference */
    /* timing (cold: cache flushed before each sample); all in microseconds */
    size_t nsamples;
    double *samples_us;          /* nsamples raw samples, owned */
    double median_us, q1_us, q3_us, min_us, mean_us, stdev_us;
    char stop_reason[32];        /* "rse", "time_limit", "max_samples", "not_timed" */
    double graph_us;             /* warm CUDA/HIP-graph replay, per call; 0 if not run */
    /* napkin math */
    double bytes;                /* fewest bytes the call must move */
    double flops;
    double gbps;                 /* bytes / median */
    double pct_copy_bw;          /* 100 * gbps / copy_bw */
    double tflops;
    /* v2: the floor measured in the same run: a streaming read of the call's
     * fewest bytes (same cold timing), and median / that */
    double read_limit_us;
    double read_limit_ratio;
    /* v2: what ran: launch configuration, package version of a peer */
    int grid, block, smem_bytes, blocks_per_sm;
    /* the main kernel's footprint in the binary that ran (the runtime's
     * function attributes): registers a thread and local memory a thread
     * (spills, stack); a new toolchain that spills shows here. 0 for CPU
     * rows, peers and files before the fields */
    int regs, local_bytes;
    char merge[24];              /* how the call's splits were merged: "none", "combine" (the plain
                                    combine kernel), "combine16" / "combine32" / "combine64" (the one that loads
                                    every partial ahead), "combine_xcd*" (fp8_xcd's placed ones),
                                    "cluster", "inline"; "" for peers, CPU rows and files before it */
    char l2_policy[16];          /* the L2 policy the call's KV copies asked for (MLAB_KV_EVICT):
                                    "evict_first" or "normal" on NVIDIA sm_90 builds; "" for AMD
                                    and other builds without bulk copies, peers, CPU rows and files
                                    before it (2026-12-05) */
    char unit[8];                /* a decode block's unit: "row", "item" (MTP: an item's two query rows,
                                    MLAB_MTP) or "heads" (head pairs, MLAB_PAIRS); "" for peers, CPU rows
                                    and files before it (2026-12-06 23:00) */
    char peer_version[64];       /* peers: "flashinfer-python 0.7.2"; "" otherwise */
    /* v2: where and how hot: device of the row (merge keeps it), SM clock and
     * temperature sampled around the row; throttled = 1 when the clock read
     * below 90% of the device's maximum or a throttle reason was set */
    int device_index;
    char gpu_uuid[64];
    char host[64];
    int sm_clock_mhz, temp_c, throttled;
    /* the time NVML's violation counters held the GPU below its clocks by
     * its power or thermal limit (slow_us) while the row's samples ran
     * (slow_span_us, host wall time from before the first to after the
     * last); both 0 where not read (no NVML: AMD, CPU rows, peers, files
     * before 2026-12-05 18:00). One clock reading after the row says little
     * of a row that ran half under the power limit; this says how much */
    double slow_us, slow_span_us;
} mlab_row;

typedef struct {
    mlab_env env;
    mlab_input_file *inputs;
    size_t ninputs;
    size_t cap_inputs; /* as cap_rows, for mlab_results_add_input */
    mlab_row *rows;
    size_t nrows;
    size_t cap_rows; /* rows allocated by mlab_results_add_row (geometric growth); below
                      * nrows (0: set by another writer of rows) means exactly nrows */
} mlab_results;

void mlab_results_init(mlab_results *r);
void mlab_results_free(mlab_results *r);
/* A neighbour's utilization seen (a run's idle check, a resumed file's, a
 * merged slice's: -1 where none was read): env keeps the highest. */
void mlab_env_note_busy(mlab_env *env, int pct);
/* Append a copy of row (samples copied). Returns 0, -1 on out of memory. */
int mlab_results_add_row(mlab_results *r, const mlab_row *row);
int mlab_results_add_input(mlab_results *r, const mlab_input_file *in);
/* The input of case case_name, or NULL. */
const mlab_input_file *mlab_results_find_input(const mlab_results *r, const char *case_name);
/* The case names of a stopped_case (mlab_env: one a line, several in a
 * merged file), split in place: buf holds a copy of it, its newlines become
 * NULs, and names[] gets each distinct line (an empty one too, which names
 * no case) in the order of its first appearance, at most max of them.
 * Returns how many; the results reader and run --resume both read the
 * field through it. */
size_t mlab_stopped_names(char *buf, const char **names, size_t max);
/* Remove every row and the input of case case_name (the others keep their
 * order); the number of rows removed. */
size_t mlab_results_drop_case(mlab_results *r, const char *case_name);
/* Summary statistics of row->samples_us into median/q1/q3/min/mean/stdev
 * (quartiles by linear interpolation, numpy's default; sample stdev, n - 1).
 * With no samples all six are 0 (stop_reason says "not_timed"). */
void mlab_row_summarize(mlab_row *row);
/* The share (0..1) of the row's sampling NVML counted the GPU power- or
 * thermal-limited (slow_us / slow_span_us), -1 where not read. */
double mlab_row_slow_share(const mlab_row *row);
/* What a timed row's printed line ends with: " THROTTLED" where the clock
 * read after it was low or NVML gave a slowdown reason, then the share of
 * its sampling NVML counted power- or thermal-limited where that was read
 * and is at least 1% (" THROTTLED, power/thermal-limited 37% of the row");
 * "" for neither. A static buffer: one row at a time. */
const char *mlab_row_slowed(const mlab_row *row);
/* A row without a read limit (a peer's: the limit is measured per case and
 * format by the GPU half) takes the one a GPU row of the same case and KV
 * format carries in the same results, and its read_limit_ratio with it.
 * Returns the number of rows filled. */
size_t mlab_results_fill_read_limits(mlab_results *r);

/* A row against a key of two strings (a, b): <0, 0, >0 as strcmp (a key of
 * one string ignores b) */
typedef int (*mlab_row_key)(const mlab_row *w, const char *a, const char *b);
/* The keys (case, variant) and (case, KV format) */
int mlab_row_key_cv(const mlab_row *w, const char *case_name, const char *variant);
int mlab_row_key_ckv(const mlab_row *w, const char *case_name, const char *kv_format);
/* The lower bound of (a, b) among n elements at base, size bytes apart and
 * sorted by key: the first whose row is not below it, n if none. Each
 * element is a row's pointer or a struct whose first member is one. */
size_t mlab_rows_lower(const void *base, size_t n, size_t size, mlab_row_key key, const char *a,
                       const char *b);
/* The first element whose row is (a, b) (the lower bound where it matches), n if none */
size_t mlab_rows_find(const void *base, size_t n, size_t size, mlab_row_key key, const char *a,
                      const char *b);

/* A fresh row for case c: zeroed, the case's name and shape, not validated
 * (valid -1), not timed. Every producer of rows (variants, CPU references,
 * peers) starts here. */
void mlab_row_for_case(mlab_row *r, const mlab_case *c);

/* The scalar fields of mlab_env and mlab_row, in file order. One table drives
 * the results file's root attributes and /rows compound, the CSV export,
 * compare's environment diff and the report, so they cannot drift apart.
 * kind: 's' char[size] (NUL-terminated), 'i' int, 'z' size_t, 'd' double.
 * Row fields of the two mlab_err structs are named kernel_<m> and total_<m>. */
typedef struct {
    const char *name;
    char kind;
    size_t offset, size;
} mlab_field;

const mlab_field *mlab_env_fields(size_t *n);
const mlab_field *mlab_row_fields(size_t *n);

#endif
