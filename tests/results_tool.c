/* results_tool.c: writes synthetic results files for the tests of
 * `mlabench compare/export/plot/report` and of atomic writing, and checks
 * that a file reads back.
 *
 *   results_tool write OUT [--gpu NAME] [--runtime R] [--time ISO] [--seed N]
 *                [--samples N] [--scale F] [--noise F] [--rel-rms F] [--valid 0|1]
 *                [--cases N] [--variants N] [--cpu-rows 1] [--splits N] [--merge S]
 *                [--l2-policy S] [--unit S] [--clock MHZ] [--throttled 0|1] [--slow PCT]
 *     rows: the first N of three cases x the first N of three variants (bf16,
 *     fp8, mxfp4); --cases past 3 adds cases of the three shapes in turn,
 *     named by seed b<B>_kv<L>_s<100000 + index> (a report of thousands of
 *     rows); each row's samples are base * scale * (1 + noise * g),
 *     g ~ N(0, 1) from a fixed-seed generator (splitmix64 + Box-Muller), base
 *     from the bytes the call moves at 3 TB/s plus 5 us. Two files written
 *     with one seed and scale but different seeds are two draws from one
 *     distribution; --scale 1.10 is a 10% slowdown. --cpu-rows 1 adds a CPU
 *     reference row per case ("cpu_ref_fp8", one host-timed sample, judged
 *     by "total:fp8"), as `mlabench run` writes them. --hashes N records
 *     per-tensor input hashes (kv_bf16's depends on N: two files with
 *     different N ran on different inputs); --uuid, --host, --commit,
 *     --label, --knobs (kernel_knobs) set those environment fields; --case-suffix S renames the cases;
 *     --peer 1 adds a peer row ("flashpeer", kind peer, bf16) 20% faster than bf16;
 *     --splits N (default 8) and --merge S (default "", as in files written
 *     before the field) set every GPU row's splits and merge path (GPU rows
 *     also record two blocks an SM and 105232 bytes of shared memory);
 *     --l2-policy S (default "", as before the field) their KV copies' L2 policy;
 *     --unit S (default "", as before the field) their decode block's unit (row, item, heads);
 *     --clock MHZ and --throttled 0|1 every GPU and peer row's SM clock read
 *     after its samples and NVML's slowdown flag (default 0: no reading);
 *     --slow PCT their sampling power- or thermal-limited PCT % of a 1 s span
 *     (slow_us, slow_span_us; default none: both 0, not read);
 *     --regs N and --local N their main kernel's registers and local bytes
 *     a thread (default 0 and 0, as in files written before the fields).
 *     --read-limit F gives the GPU and peer rows of the first
 *     --read-limit-cases N cases (default all) a read limit of F times their
 *     bytes at 3 TB/s (default 0: none, as in files written before it):
 *     --scale 1.10 --read-limit 1.10 is a 10% slower machine, not kernel.
 *   results_tool check FILE
 *     reads FILE with mlab_results_read; prints "ok ROWS SAMPLES" and exits
 *     0, or prints the reason and exits with its MLAB_EXIT_* code.
 * With MLAB_RESULTS_TEST_KILL=1 in the environment, write dies by SIGKILL
 * in the middle of writing the temporary (results_write.c's test hook).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/env.h"        /* mlab_env_fill_host */
#include "harness/exitcodes.h"
#include "harness/results.h"    /* mlab_results, mlab_row_summarize */
#include "harness/results_read.h"  /* mlab_results_read */
#include "harness/results_write.h" /* mlab_results_write */

static uint64_t rng_state;

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform01(void) /* (0, 1) */
{
    return ((double)(splitmix64() >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    double u = uniform01(), v = uniform01();
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static int usage(void)
{
    fprintf(stderr, "usage: results_tool write OUT [options] | results_tool check FILE\n");
    return MLAB_EXIT_USAGE;
}

static int do_write(int argc, char **argv)
{
    int splits = 8, regs = 0, local = 0;
    const char *merge = "", *l2_policy = "", *unit = "";
    const char *out = argv[2], *gpu = "NVIDIA H200", *runtime = "CUDA 12.8", *when = NULL;
    uint64_t seed = 1;
    long nsamples = 30, ncases = 3, nvariants = 3;
    double scale = 1.0, noise = 0.02, rel_rms = 1e-3, read_limit = 0;
    long read_limit_cases = 3;
    int valid = 1, cpu_rows = 0, hashes = 0, peer = 0, clock_mhz = 0, throttled = 0;
    double slow_pct = -1;
    const char *uuid = "GPU-00000000-synthetic", *host = NULL, *commit = NULL, *label = "", *knobs = NULL,
               *suffix = "";
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        if (!strcmp(a, "--gpu")) gpu = v;
        else if (!strcmp(a, "--runtime")) runtime = v;
        else if (!strcmp(a, "--time")) when = v;
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--samples")) nsamples = atol(v);
        else if (!strcmp(a, "--scale")) scale = atof(v);
        else if (!strcmp(a, "--noise")) noise = atof(v);
        else if (!strcmp(a, "--rel-rms")) rel_rms = atof(v);
        else if (!strcmp(a, "--valid")) valid = atoi(v);
        else if (!strcmp(a, "--cases")) ncases = atol(v);
        else if (!strcmp(a, "--variants")) nvariants = atol(v);
        else if (!strcmp(a, "--cpu-rows")) cpu_rows = atoi(v);
        else if (!strcmp(a, "--hashes")) hashes = atoi(v);
        else if (!strcmp(a, "--peer")) peer = atoi(v);
        else if (!strcmp(a, "--uuid")) uuid = v;
        else if (!strcmp(a, "--host")) host = v;
        else if (!strcmp(a, "--commit")) commit = v;
        else if (!strcmp(a, "--label")) label = v;
        else if (!strcmp(a, "--knobs")) knobs = v;
        else if (!strcmp(a, "--case-suffix")) suffix = v;
        else if (!strcmp(a, "--splits")) splits = atoi(v);
        else if (!strcmp(a, "--merge")) merge = v;
        else if (!strcmp(a, "--l2-policy")) l2_policy = v;
        else if (!strcmp(a, "--unit")) unit = v;
        else if (!strcmp(a, "--clock")) clock_mhz = atoi(v);
        else if (!strcmp(a, "--throttled")) throttled = atoi(v);
        else if (!strcmp(a, "--slow")) slow_pct = atof(v);
        else if (!strcmp(a, "--regs")) regs = atoi(v);
        else if (!strcmp(a, "--local")) local = atoi(v);
        else if (!strcmp(a, "--read-limit")) read_limit = atof(v);
        else if (!strcmp(a, "--read-limit-cases")) read_limit_cases = atol(v);
        else return usage();
        i++;
    }
    rng_state = seed;

    static const struct { const char *name; int batch, kv_len; } cases[] = {
        {"b4_kv1024_s4217", 4, 1024}, {"b64_kv8192_s1360", 64, 8192}, {"b256_kv8192_s9826", 256, 8192}};
    static const struct { const char *name, *kv; int id; double row_bytes, rel; } vars[] = {
        {"bf16", "bf16", 0, 1152, 1.0}, {"fp8", "fp8", 1, 576, 1.5}, {"mxfp4", "mxfp4", 2, 306, 1.0}};

    mlab_results r;
    mlab_results_init(&r);
    mlab_env_fill_host(&r.env, argc, argv);
    snprintf(r.env.gpu_name, sizeof r.env.gpu_name, "%s", gpu);
    snprintf(r.env.gpu_arch, sizeof r.env.gpu_arch, "sm_90");
    snprintf(r.env.gpu_uuid, sizeof r.env.gpu_uuid, "%s", uuid);
    if (host)
        snprintf(r.env.host, sizeof r.env.host, "%s", host);
    if (commit)
        snprintf(r.env.git_commit, sizeof r.env.git_commit, "%s", commit);
    snprintf(r.env.label, sizeof r.env.label, "%s", label);
    if (knobs)
        snprintf(r.env.kernel_knobs, sizeof r.env.kernel_knobs, "%s", knobs);
    r.env.gpu_cu_count = 132;
    r.env.gpu_clock_mhz = 1980;
    r.env.gpu_mem_clock_mhz = 3201;
    r.env.gpu_mem_bus_bits = 6144;
    r.env.gpu_l2_bytes = 60.0 * 1024 * 1024;
    snprintf(r.env.driver_version, sizeof r.env.driver_version, "570.00");
    snprintf(r.env.runtime_version, sizeof r.env.runtime_version, "%s", runtime);
    r.env.copy_bw_gbs = 4270;
    if (when)
        snprintf(r.env.utc_time, sizeof r.env.utc_time, "%s", when);

    double *samples = malloc((size_t)(nsamples > 0 ? nsamples : 1) * sizeof *samples);
    if (!samples)
        return MLAB_EXIT_INTERNAL;
    for (long c = 0; c < ncases; c++) {
        const long s = c % 3; /* the shape */
        char cname[64];
        if (c < 3)
            snprintf(cname, sizeof cname, "%s%s", cases[c].name, suffix);
        else
            snprintf(cname, sizeof cname, "b%d_kv%d_s%ld%s", cases[s].batch, cases[s].kv_len, 100000 + c, suffix);
        mlab_input_file in;
        memset(&in, 0, sizeof in);
        snprintf(in.path, sizeof in.path, "cases/%s.h5", c < 3 ? cases[c].name : cname);
        for (int k = 0; k < 64; k++)
            in.sha256[k] = "0123456789abcdef"[(c * 7 + k) % 16];
        snprintf(in.schema, sizeof in.schema, "mlabench-case");
        in.schema_version = 1;
        snprintf(in.case_name, sizeof in.case_name, "%s", cname);
        if (hashes) { /* per-tensor hashes (v2): kv_bf16's depends on --hashes N */
            char *t[] = {in.q_sha256, in.kv_bf16_sha256, in.kv_fp8_sha256, in.kv_fp4_sha256,
                         in.kv_e8m0_sha256, in.qo_indptr_sha256, in.kv_indptr_sha256};
            for (int j = 0; j < 7; j++)
                for (int k = 0; k < 64; k++)
                    t[j][k] = "0123456789abcdef"[(c * 7 + k * 3 + j + (j == 1 ? hashes : 0)) % 16];
        }
        mlab_results_add_input(&r, &in);
        for (long v = 0; v < nvariants && v < 3; v++) {
            mlab_row row;
            memset(&row, 0, sizeof row);
            snprintf(row.case_name, sizeof row.case_name, "%s", cname);
            row.batch = cases[s].batch;
            row.q_seq_len = 1;
            row.kv_len = cases[s].kv_len;
            row.total_q = row.batch;
            row.total_kv = row.batch * row.kv_len;
            snprintf(row.variant, sizeof row.variant, "%s", vars[v].name);
            row.variant_id = vars[v].id;
            snprintf(row.kind, sizeof row.kind, "%s", vars[v].id < 0 ? "cpu" : "gpu");
            snprintf(row.kv_format, sizeof row.kv_format, "%s", vars[v].kv);
            row.splits = splits;
            if (vars[v].id >= 0) {
                snprintf(row.merge, sizeof row.merge, "%s", merge);
                snprintf(row.l2_policy, sizeof row.l2_policy, "%s", l2_policy);
                snprintf(row.unit, sizeof row.unit, "%s", unit);
                row.blocks_per_sm = 2;
                row.smem_bytes = 105232;
                row.sm_clock_mhz = clock_mhz; /* the peer row below copies it */
                row.throttled = throttled;
                row.slow_span_us = slow_pct >= 0 ? 1e6 : 0;
                row.slow_us = slow_pct >= 0 ? 1e4 * slow_pct : 0;
                row.regs = regs;
                row.local_bytes = local;
            }
            size_t nout = (size_t)row.total_q * 16 * 512;
            row.kernel_err.n = nout;
            row.kernel_err.rel_rms = rel_rms * vars[v].rel;
            row.kernel_err.max_abs = 0.2 * rel_rms * vars[v].rel;
            row.kernel_err.max_abs_idx = 17;
            row.kernel_err.max_rel = 3 * rel_rms;
            row.kernel_err.cos_diff = rel_rms * rel_rms / 2;
            row.kernel_err.rtol = 1.0 / 64;
            row.kernel_err.atol = 0.05 / 64;
            row.kernel_err.comp_mismatch_frac = 0;
            row.kernel_err.comp_pass = 1;
            snprintf(row.kernel_tol, sizeof row.kernel_tol, "kernel:%s", vars[v].kv);
            row.valid = valid;
            row.total_err = row.kernel_err;
            row.total_err.rel_rms = v == 0 ? rel_rms : 0.05 * vars[v].rel;
            row.total_err.comp_mismatch_frac = 0.001;
            row.bytes = (double)row.total_kv * vars[v].row_bytes + row.total_q * 16.0 * (576 + 512) * 2;
            row.flops = 34816.0 * row.total_kv;
            double base = row.bytes / 3e3 / 1e3 + 5; /* us at 3 TB/s + launch */
            for (long k = 0; k < nsamples; k++)
                samples[k] = base * scale * (1 + noise * gauss());
            row.nsamples = (size_t)(nsamples > 0 ? nsamples : 0);
            row.samples_us = samples;
            snprintf(row.stop_reason, sizeof row.stop_reason, "%s", nsamples ? "rse" : "not_timed");
            mlab_row_summarize(&row);
            row.graph_us = row.median_us * 0.9;
            if (row.median_us > 0) {
                row.gbps = row.bytes / (row.median_us * 1e3);
                row.pct_copy_bw = 100 * row.gbps / r.env.copy_bw_gbs;
                row.tflops = row.flops / (row.median_us * 1e6);
            }
            if (c < read_limit_cases) {
                row.read_limit_us = read_limit * row.bytes / 3e3 / 1e3;
                row.read_limit_ratio = row.read_limit_us > 0 ? row.median_us / row.read_limit_us : 0;
            }
            if (mlab_results_add_row(&r, &row)) {
                fprintf(stderr, "results_tool: out of memory\n");
                return MLAB_EXIT_INTERNAL;
            }
            if (peer && v == 0) { /* a peer of the bf16 row, 20% faster */
                mlab_row pr = row;
                snprintf(pr.variant, sizeof pr.variant, "flashpeer");
                snprintf(pr.kind, sizeof pr.kind, "peer");
                snprintf(pr.peer_version, sizeof pr.peer_version, "flashpeer 1.0");
                pr.variant_id = 100;
                double *ps = malloc((size_t)(nsamples > 0 ? nsamples : 1) * sizeof *ps);
                if (!ps)
                    return MLAB_EXIT_INTERNAL;
                for (long k = 0; k < nsamples; k++)
                    ps[k] = samples[k] * 0.8;
                pr.samples_us = ps;
                mlab_row_summarize(&pr);
                pr.read_limit_ratio = pr.read_limit_us > 0 ? pr.median_us / pr.read_limit_us : 0;
                int bad = mlab_results_add_row(&r, &pr);
                free(ps);
                if (bad)
                    return MLAB_EXIT_INTERNAL;
            }
            if (cpu_rows && v == 1) { /* beside the fp8 row, as cmd_run.c does */
                double once = 1e3 * (1 + gauss() * noise);
                snprintf(row.variant, sizeof row.variant, "cpu_ref_fp8");
                row.variant_id = -2;
                snprintf(row.kind, sizeof row.kind, "cpu");
                row.splits = 0;
                snprintf(row.kernel_tol, sizeof row.kernel_tol, "total:fp8");
                row.kernel_err = row.total_err;
                row.nsamples = 1;
                row.samples_us = &once;
                snprintf(row.stop_reason, sizeof row.stop_reason, "cpu_once");
                mlab_row_summarize(&row);
                row.gbps = row.pct_copy_bw = row.tflops = row.graph_us = 0;
                row.read_limit_us = row.read_limit_ratio = 0; /* the host has none */
                if (mlab_results_add_row(&r, &row))
                    return MLAB_EXIT_INTERNAL;
            }
        }
    }
    free(samples);
    char why[1024];
    int rc = mlab_results_write(out, &r, why, sizeof why);
    if (rc)
        fprintf(stderr, "results_tool: %s\n", why);
    mlab_results_free(&r);
    return rc;
}

static int do_check(const char *path)
{
    mlab_results r;
    char why[1024];
    int rc = mlab_results_read(path, &r, why, sizeof why);
    if (rc) {
        printf("%s\n", why);
        return rc;
    }
    size_t total = 0;
    for (size_t i = 0; i < r.nrows; i++)
        total += r.rows[i].nsamples;
    printf("ok %zu %zu\n", r.nrows, total);
    mlab_results_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "write"))
        return do_write(argc, argv);
    if (argc == 3 && !strcmp(argv[1], "check"))
        return do_check(argv[2]);
    return usage();
}
