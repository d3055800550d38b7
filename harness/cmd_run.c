/* cmd_run.c: `mlabench run`: the main job.
 *
 * For each case: the CPU reference for every KV format (OpenBLAS), the error
 * each format costs against bf16 truth; then, with a GPU, every selected
 * variant: validated against the reference on the same quantized inputs with
 * NaN poison past each sequence end and in the output, and only then timed
 * (cold, with device events). Everything lands in one results file.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../reference/mla_ref.h"
#include "../reference/metrics.h"
#include "../variants/gpu_api.h"
#include "../variants/mla_params.h" /* MLA_MAX_SPLITS */
#include "../variants/variants.h"
#include "args.h"
#include "atomic.h" /* mlab_output_check */
#include "commands.h"
#include "env.h"
#include "exitcodes.h"
#include "gen.h"
#include "h5io.h"
#include "peer.h"
#include "progress.h"
#include "results.h"
#include "results_h5.h"
#include "sweep.h"
#include "tensor_hash.h" /* mlab_tensor_hash_case */
#include <sys/stat.h>
#include "sampler.h"

/* The device fields of the environment, from the GPU side's report. */
static void env_from_gpu(mlab_env *e, const mlab_gpu_info *gi)
{
    e->gpu_index = gi->index;
    snprintf(e->gpu_backend, sizeof e->gpu_backend, "%s", gi->backend);
    snprintf(e->gpu_name, sizeof e->gpu_name, "%s", gi->name);
    snprintf(e->gpu_arch, sizeof e->gpu_arch, "%s", gi->arch);
    snprintf(e->gpu_uuid, sizeof e->gpu_uuid, "%s", gi->uuid);
    snprintf(e->runtime_version, sizeof e->runtime_version, "%s", gi->runtime);
    snprintf(e->driver_version, sizeof e->driver_version, "%s", gi->driver);
    e->gpu_cu_count = gi->sms;
    e->gpu_clock_mhz = gi->clock_mhz;
    e->gpu_mem_clock_mhz = gi->mem_clock_mhz;
    e->gpu_l2_bytes = gi->l2_bytes;
    snprintf(e->kernel_knobs, sizeof e->kernel_knobs, "%s", mlab_gpu_build_knobs());
}

typedef struct {
    int cpu_only, require_gpu, truth_dgemm, splits, no_time, quiet;
    int want[MLAB_V_COUNT];
    mlab_timing_opts timing;
    const char *out;
    int device;                 /* --device N: index among the visible devices */
    const mlab_env *env;        /* for each row's host and GPU identity */
    int gpu_open;
    const char *label;          /* --label: env.label */
    mlab_peer *peers;           /* --peers (harness/peer.h) */
    int npeers, peers_only;
    const char *peer_python;
    int parse_rc;               /* an option's own exit code (else 2 on a bad option) */
} run_opts;

static void run_usage(FILE *f)
{
    int n;
    const mlab_variant *v = mlab_variant_table(&n);
    fprintf(f,
            "usage: mlabench run [CASE.h5 ...] [--default] [case options] [options]\n"
            "  Cases: the files given, then the cases the case options ask for (below;\n"
            "  generated in memory, deterministically, named and filled as `mlabench gen`\n"
            "  would write them: `run --suite`, `run --batch 4,32 --kv-len 1024,8192`).\n"
            "  With no case (or --default): the embedded default case (4 x 1024, seed 4217).\n"
            "  Without a GPU (or with --cpu-only) only the CPU half runs.\n"
            "options:\n"
            "  -o RESULTS.h5       write the results file (atomically); without it nothing is saved\n"
            "  --label L           name the run (e.g. rocm-6.4): recorded as env label,\n"
            "                      shown by compare, export and history (< 64 chars)\n"
            "  --device N          GPU N among the visible ones (default 0; CUDA_VISIBLE_DEVICES /\n"
            "                      HIP_VISIBLE_DEVICES, applied by the runtime, choose which are visible)\n"
            "  --slice K/N         run only slice K (0-based) of N: the cases split into N slices\n"
            "                      of about equal estimated cost (for several GPUs or Slurm tasks)\n"
            "  --list              print the cases (of the slice) and their sizes; run nothing\n"
            "  --variants a,b,..   GPU variants to run (default: all)\n"
            "  --cpu-only          skip the GPU even if there is one\n"
            "  --require-gpu       exit 77 when there is no usable GPU\n"
            "  --truth dgemm       bf16 truth in fp64 (default sgemm, fp32)\n"
            "  --splits N          KV splits, 1..64 (default: the documented rule)\n"
            "  --no-time           validate only\n"
            "  --max-time S        sampling time limit per variant (default 2 s)\n"
            "  --min-samples N     (default 10)   --max-samples N (default 1000)\n"
            "  --rse X             stop when stderr/median < X (default 0.005)\n"
            "  --quiet             no progress lines\n"
            "  --peers LIST        also run peers, validated and timed the same way (README, Peers):\n"
            "                      torch, flashinfer, aiter, submission:FILE.py[@fp8|fp8kv|bf16|mxfp4]\n"
            "  --peers-only        the peers without mlabench's own variants\n"
            "  --peer-python PATH  the Python that runs peers (default $MLAB_PEER_PYTHON or python3)\n"
            "Options take their value as --opt VALUE or --opt=VALUE.\n");
    mlab_sweep_usage(f);
    fprintf(f, "variants:\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-14s [%s] %s\n", v[i].name, mlab_kv_fmt_name(v[i].kv), v[i].idea);
    fprintf(f, "exit: 0 ok, 2 usage, 3 bad input, 4 I/O, 5 a variant or peer failed validation, 77 no GPU "
               "with --require-gpu\n");
}

static mlab_progress run_progress; /* "\r" on a terminal, plain lines in a log */

static void progress(void *ctx, int done, int total)
{
    const char *what = ctx;
    if (total >= 8 && done == total && run_progress.open)
        mlab_progress_line(&run_progress, "    %s: %d/%d items", what, done, total);
    else if (total >= 8 && done % (total / 8) == 0)
        mlab_progress_update(&run_progress, "    %s: %d/%d items", what, done, total);
}

/* Fewest bytes a call must move: Q in (bf16), the KV rows in their format,
 * indptrs, and the bf16 output. */
static double call_bytes(const mlab_case *c, mlab_kv_fmt f)
{
    double row = f == MLAB_KV_BF16 ? 2.0 * MLAB_DQK
               : f == MLAB_KV_FP8  ? 1.0 * MLAB_DQK
                                   : (double)(MLAB_FP4_ROW + MLAB_MX_NBLK);
    return (double)c->total_q * MLAB_HEADS * MLAB_DQK * 2 + (double)c->total_kv * row +
           2.0 * (c->batch + 1) * 4 + (double)c->total_q * MLAB_HEADS * MLAB_DV * 2;
}

static double call_flops(const mlab_case *c)
{
    double f = 0;
    for (int b = 0; b < c->batch; b++) {
        int n = c->qo_indptr[b + 1] - c->qo_indptr[b], L = c->kv_indptr[b + 1] - c->kv_indptr[b];
        for (int i = 0; i < n; i++) {
            int vis = L - n + i + 1;
            if (vis > 0)
                f += (double)vis * MLAB_HEADS * 2.0 * (MLAB_DQK + MLAB_DV);
        }
    }
    return f;
}

static void row_from_case(mlab_row *r, const mlab_case *c, const run_opts *o, int gpu_row)
{
    mlab_row_for_case(r, c);
    /* where the row ran: the host always; the device for GPU rows (-1 for CPU rows) */
    snprintf(r->host, sizeof r->host, "%.63s", o->env->host);
    r->device_index = gpu_row && o->gpu_open ? o->device : -1;
    if (gpu_row && o->gpu_open)
        snprintf(r->gpu_uuid, sizeof r->gpu_uuid, "%s", o->env->gpu_uuid);
}

/* The (informative) tolerance row of a format's total error vs bf16 truth. */
static const char *total_tol_name(mlab_kv_fmt f)
{
    return f == MLAB_KV_BF16 ? "total:bf16" : f == MLAB_KV_FP8 ? "total:fp8" : "total:mxfp4";
}

typedef struct {
    const char *label;      /* row name: cpu_ref_<label> */
    mlab_kv_fmt kv;
    int q_fp8, p_fp8, other_tie;
} cpu_ref_spec;

static const cpu_ref_spec cpu_refs[] = {
    {"bf16", MLAB_KV_BF16, 0, 0, 0},
    {"fp8", MLAB_KV_FP8, 1, 1, 0},
    {"fp8_pexact", MLAB_KV_FP8, 1, 0, 0},
    {"fp8_kvonly", MLAB_KV_FP8, 0, 0, 0},
    {"mxfp4", MLAB_KV_MXFP4, 0, 0, 0},
    {"mxfp4_othertie", MLAB_KV_MXFP4, 0, 0, 1},
};
#define N_CPU_REFS (sizeof cpu_refs / sizeof cpu_refs[0])

/* The CPU half: every reference; errors against bf16 truth. refs[i] keeps
 * each output for the GPU half. */
static int cpu_half(mlab_case *c, const run_opts *o, mlab_results *res, float **refs)
{
    size_t nout = (size_t)c->total_q * MLAB_HEADS * MLAB_DV;
    printf("\n== case %s: batch %d, q rows %d, kv rows %d, q_seq_len %d, input scale %g, "
           "mxfp4 tie %s\n", c->name, c->batch, c->total_q, c->total_kv, c->q_seq_len,
           (double)c->input_scale, mlab_fp4_tie_name(c->fp4_tie));
    printf("CPU reference (OpenBLAS %s), error against bf16 truth:\n", o->truth_dgemm ? "dgemm" : "sgemm");
    printf("  %-16s %8s %10s %10s %10s %10s %9s %6s\n", "format", "time_s", "rel_rms",
           "max_abs", "max_rel", "cos_diff", "mism@tol", "comp");
    for (size_t k = 0; k < N_CPU_REFS; k++) {
        const cpu_ref_spec *s = &cpu_refs[k];
        refs[k] = malloc((nout + 1) * sizeof(float));
        if (!refs[k])
            return MLAB_EXIT_INTERNAL;
        mlab_ref_opts ro = {s->kv, (k == 0 && o->truth_dgemm) ? MLAB_REF_DGEMM : MLAB_REF_SGEMM,
                            s->q_fp8, s->p_fp8, o->quiet ? NULL : progress, (void *)s->label};
        /* the other MXFP4 tie rule: a view of the case whose MXFP4 tensors are
         * requantized from kv_bf16 (the case itself is not touched) */
        mlab_case view = *c;
        if (s->other_tie) {
            size_t nkv = (size_t)c->total_kv;
            view.kv_fp4 = malloc(nkv * MLAB_FP4_ROW + 1);
            view.kv_e8m0 = malloc(nkv * MLAB_MX_NBLK + 1);
            if (!view.kv_fp4 || !view.kv_e8m0) {
                free(view.kv_fp4);
                free(view.kv_e8m0);
                return MLAB_EXIT_INTERNAL;
            }
            view.fp4_tie = c->fp4_tie == MLAB_TIE_UP ? MLAB_TIE_EVEN : MLAB_TIE_UP;
#pragma omp parallel for schedule(static)
            for (long long r = 0; r < (long long)nkv; r++)
                mlab_mxfp4_quantize_row(c->kv_bf16 + r * MLAB_DQK, MLAB_DQK, view.fp4_tie,
                                        view.kv_fp4 + r * MLAB_FP4_ROW, view.kv_e8m0 + r * MLAB_MX_NBLK);
        }
        double t0 = mlab_now_s();
        int rc = mlab_ref_compute(&view, &ro, refs[k]);
        double dt = mlab_now_s() - t0;
        if (s->other_tie) {
            free(view.kv_fp4);
            free(view.kv_e8m0);
        }
        if (rc)
            return MLAB_EXIT_INTERNAL;
        mlab_row row;
        row_from_case(&row, c, o, 0);
        snprintf(row.variant, sizeof row.variant, "cpu_ref_%s", s->label);
        if (s->other_tie)
            snprintf(row.variant, sizeof row.variant, "cpu_ref_mxfp4_%s",
                     mlab_fp4_tie_name(c->fp4_tie == MLAB_TIE_UP ? MLAB_TIE_EVEN : MLAB_TIE_UP));
        else if (s->kv == MLAB_KV_MXFP4)
            snprintf(row.variant, sizeof row.variant, "cpu_ref_mxfp4_%s", mlab_fp4_tie_name(c->fp4_tie));
        row.variant_id = -1 - (int)k;
        snprintf(row.kind, sizeof row.kind, "cpu");
        snprintf(row.kv_format, sizeof row.kv_format, "%s", mlab_kv_fmt_name(s->kv));
        const mlab_tol *tt = mlab_tol_find(total_tol_name(s->kv));
        mlab_err_judge(refs[k], refs[0], nout, tt, &row.total_err);
        row.kernel_err = row.total_err;
        snprintf(row.kernel_tol, sizeof row.kernel_tol, "%s", tt->name);
        double sample = dt * 1e6;
        row.nsamples = 1;
        row.samples_us = &sample;
        mlab_row_summarize(&row);
        snprintf(row.stop_reason, sizeof row.stop_reason, "cpu_once");
        row.bytes = call_bytes(c, s->kv);
        row.flops = call_flops(c);
        if (mlab_results_add_row(res, &row))
            return MLAB_EXIT_INTERNAL;
        const mlab_err *e = &row.total_err;
        printf("  %-16s %8.2f %10.3e %10.3e %10.3e %10.3e %9zu %6s\n", row.variant + 8, dt,
               e->rel_rms, e->max_abs, e->max_rel, e->cos_diff, e->mismatches,
               e->comp_pass ? "pass" : "FAIL");
        fflush(stdout);
    }
    if (c->ref_out) { /* a reference output stored in the case file (e.g. by the recorder) */
        float *st = malloc((nout + 1) * sizeof(float));
        if (!st)
            return MLAB_EXIT_INTERNAL;
        for (size_t i = 0; i < nout; i++)
            st[i] = mlab_bf16_to_f32(c->ref_out[i]);
        mlab_err e;
        int ok = mlab_err_judge(st, refs[0], nout, mlab_tol_find("kernel:bf16"), &e);
        printf("  stored /ref_out against the bf16 reference: rel_rms %.3e, max_abs %.3e, %s "
               "(kernel:bf16 tolerance)\n", e.rel_rms, e.max_abs, ok ? "agrees" : "DISAGREES");
        free(st);
    }
    return MLAB_EXIT_OK;
}

/* Print the worst elements of a failed validation. */
static void print_worst(const uint16_t *out, const float *ref, size_t n, const mlab_err *e)
{
    size_t idx[2] = {e->max_abs_idx, e->max_rel_idx};
    for (int k = 0; k < 2; k++) {
        size_t i = idx[k];
        if (i >= n)
            continue;
        printf("      worst %s at token %zu head %zu dim %zu: got %.6g, want %.6g\n",
               k ? "rel" : "abs", i / (MLAB_HEADS * MLAB_DV), (i / MLAB_DV) % MLAB_HEADS,
               i % MLAB_DV, (double)mlab_bf16_to_f32(out[i]), (double)ref[i]);
    }
    if (e->nonfinite_disagree)
        printf("      %zu NaN/Inf disagreements, first at flat index %zu (got %.6g)\n",
               e->nonfinite_disagree, e->first_nonfinite_idx,
               (double)mlab_bf16_to_f32(out[e->first_nonfinite_idx]));
}

/* The GPU back end as a timing back end (sampler.h) */
static int gs_warm(void *g, char *why, size_t n) { return mlab_gpu_warm(g, why, n); }
static int gs_cold(void *g, double *us, char *why, size_t n) { return mlab_gpu_cold(g, us, why, n); }
static int gs_graph(void *g, int it, double *us, char *why, size_t n) { return mlab_gpu_graph(g, it, us, why, n); }

static mlab_sampler gpu_sampler(mlab_gpu *g)
{
    mlab_sampler s = {g, gs_warm, gs_cold, gs_graph, mlab_gpu_flush_s(g)};
    return s;
}

/* Median of the selected kernel's cold samples under the run's timing
 * options (no graph figure). */
static int gpu_cold_median(mlab_gpu *g, const mlab_timing_opts *t, double *us, char *why, size_t n)
{
    mlab_timing_opts o = *t;
    o.graph_iters = 0;
    mlab_sampler s = gpu_sampler(g);
    mlab_row r;
    memset(&r, 0, sizeof r);
    int rc = mlab_sample(&s, &o, &r, why, n);
    if (rc)
        return rc;
    mlab_row_summarize(&r);
    *us = r.median_us;
    free(r.samples_us);
    return 0;
}

/* The clocks right after a timed row (its device and host: row_from_case). */
static void row_clocks(mlab_row *r, mlab_gpu *g, const mlab_env *env)
{
    int mhz, temp, thr;
    mlab_gpu_clocks(g, &mhz, &temp, &thr);
    r->sm_clock_mhz = mhz;
    r->temp_c = temp;
    /* throttled: a slowdown reason was reported, or the clock read below 90%
     * of the device's maximum right after the samples */
    r->throttled = thr > 0 || (mhz > 0 && env->gpu_clock_mhz > 0 && mhz < 0.9 * env->gpu_clock_mhz);
}

static int gpu_half(mlab_gpu *g, mlab_case *c, const run_opts *o, mlab_results *res,
                    float **refs, double copy_bw, int *failed)
{
    size_t nout = (size_t)c->total_q * MLAB_HEADS * MLAB_DV;
    char why[512] = "";
    int rc = mlab_gpu_load_case(g, c, 1, why, sizeof why);
    if (rc) {
        fprintf(stderr, "mlabench run: %s\n", why);
        return rc;
    }
    /* the read limit of each format: a streaming read of the call's fewest
     * bytes, timed the same way as the variants */
    double rlim[3] = {0, 0, 0};
    if (!o->no_time) {
        for (int f = 0; f < 3; f++) {
            rc = mlab_gpu_select_read(g, call_bytes(c, (mlab_kv_fmt)f), why, sizeof why);
            if (!rc)
                rc = gpu_cold_median(g, &o->timing, &rlim[f], why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: read limit: %s\n", why);
                return rc;
            }
        }
        printf("read limit (a streaming read of the call's fewest bytes, cold): bf16 %.2f us, "
               "fp8 %.2f us, mxfp4 %.2f us\n", rlim[0], rlim[1], rlim[2]);
    }
    uint16_t *out = malloc((nout + 1) * sizeof *out);
    float *outf = malloc((nout + 1) * sizeof *outf);
    if (!out || !outf) {
        free(out);
        free(outf);
        return MLAB_EXIT_INTERNAL;
    }
    int n;
    const mlab_variant *vt = mlab_variant_table(&n);
    printf("GPU variants (validated with NaN poison, then timed cold; copy bandwidth %.0f GB/s):\n",
           copy_bw);
    printf("  %-14s %5s %6s %10s %9s %8s %7s %7s %10s %10s %s\n", "variant", "valid", "splits",
           "median_us", "iqr_us", "GB/s", "%copy", "x_read", "kern_rms", "total_rms", "samples");
    for (int i = 0; i < n; i++) {
        if (!o->want[i])
            continue;
        const mlab_variant *v = &vt[i];
        mlab_row row;
        row_from_case(&row, c, o, 1);
        snprintf(row.variant, sizeof row.variant, "%s", v->name);
        row.variant_id = v->id;
        snprintf(row.kind, sizeof row.kind, "gpu");
        snprintf(row.kv_format, sizeof row.kv_format, "%s", mlab_kv_fmt_name(v->kv));
        mlab_launch_info li;
        memset(&li, 0, sizeof li);
        rc = mlab_gpu_run(g, v->id, o->splits, out, &li, why, sizeof why);
        if (rc) {
            fprintf(stderr, "mlabench run: %s: %s\n", v->name, why);
            free(out);
            free(outf);
            return rc;
        }
        const int splits_used = li.splits;
        if (li.exact_fallback)
            printf("  %-14s a block scale of this case is outside what its fast path holds "
                   "exactly: its exact path runs\n", v->name);
        row.splits = li.splits;
        row.grid = li.grid;
        row.block = li.block;
        row.smem_bytes = li.smem_bytes;
        row.blocks_per_sm = li.blocks_per_sm;
        row.read_limit_us = rlim[v->kv];
        for (size_t k = 0; k < nout; k++)
            outf[k] = mlab_bf16_to_f32(out[k]);
        /* the kernel's own reference: same quantized inputs, same P rounding */
        const float *kref = v->kv == MLAB_KV_BF16 ? refs[0]
                          : v->kv == MLAB_KV_FP8  ? refs[v->p_fp8 ? 1 : 2]
                                                  : refs[4];
        const mlab_tol *tol = mlab_tol_find(v->tol);
        row.valid = mlab_err_judge(outf, kref, nout, tol, &row.kernel_err);
        snprintf(row.kernel_tol, sizeof row.kernel_tol, "%s", tol->name);
        const mlab_tol *tt = mlab_tol_find(total_tol_name(v->kv));
        mlab_err_judge(outf, refs[0], nout, tt, &row.total_err);
        row.bytes = call_bytes(c, v->kv);
        row.flops = call_flops(c);
        if (!row.valid) {
            *failed = 1;
            printf("  %-14s  FAIL %6d  rel_rms %.3e (max %.1e), %zu mismatches at rtol %.3g atol %.3g\n",
                   v->name, splits_used, row.kernel_err.rel_rms, tol->max_rel_rms,
                   row.kernel_err.mismatches, tol->rtol, row.kernel_err.atol);
            print_worst(out, kref, nout, &row.kernel_err);
        } else if (!o->no_time) {
            rc = mlab_gpu_select(g, v->id, o->splits, &li, why, sizeof why);
            mlab_sampler smp = gpu_sampler(g);
            if (!rc)
                rc = mlab_sample(&smp, &o->timing, &row, why, sizeof why);
            row_clocks(&row, g, &res->env);
            if (rc) {
                fprintf(stderr, "mlabench run: %s: %s\n", v->name, why);
                free(out);
                free(outf);
                return rc;
            }
            mlab_row_summarize(&row);
            row.gbps = row.bytes / (row.median_us * 1e3);
            row.pct_copy_bw = copy_bw > 0 ? 100.0 * row.gbps / copy_bw : 0;
            row.tflops = row.flops / (row.median_us * 1e6);
            row.read_limit_ratio = row.read_limit_us > 0 ? row.median_us / row.read_limit_us : 0;
        }
        if (row.valid && !o->no_time)
            printf("  %-14s %5s %6d %10.2f %9.2f %8.0f %6.1f%% %7.2f %10.3e %10.3e %zu (%s)%s\n",
                   v->name, "ok", splits_used, row.median_us, row.q3_us - row.q1_us, row.gbps,
                   row.pct_copy_bw, row.read_limit_ratio, row.kernel_err.rel_rms,
                   row.total_err.rel_rms, row.nsamples, row.stop_reason,
                   row.throttled > 0 ? " THROTTLED" : "");
        else if (row.valid)
            printf("  %-14s %5s %6d %10s %9s %8s %7s %7s %10.3e %10.3e\n", v->name, "ok",
                   splits_used, "-", "-", "-", "-", "-", row.kernel_err.rel_rms,
                   row.total_err.rel_rms);
        fflush(stdout);
        int arc = mlab_results_add_row(res, &row);
        free(row.samples_us);
        if (arc) {
            free(out);
            free(outf);
            return MLAB_EXIT_INTERNAL;
        }
    }
    free(out);
    free(outf);
    return MLAB_EXIT_OK;
}

/* One case of the run: a file, or a generated case (sweep index, or the
 * embedded default when gen_index is -1 and path NULL). */
typedef struct {
    const char *path;
    size_t gen_index;
    int is_default;
    double cost;
} run_item;

enum { OPT_DEFAULT = 2000, OPT_CPU_ONLY, OPT_REQUIRE_GPU, OPT_NO_TIME, OPT_QUIET, OPT_TRUTH,
       OPT_SPLITS, OPT_MAX_TIME, OPT_RSE, OPT_MIN_SAMPLES, OPT_MAX_SAMPLES, OPT_VARIANTS,
       OPT_DEVICE, OPT_SLICE, OPT_LIST, OPT_LABEL, OPT_PEERS, OPT_PEERS_ONLY, OPT_PEER_PYTHON };

/* Parse run's options (getopt_long: --opt VALUE or --opt=VALUE, files
 * anywhere). 0, 1 for --help (printed), -1 after a one-line message. */
static int run_parse(int argc, char **argv, run_opts *o, mlab_sweep *w, int *use_default,
                     int *slice_k, int *slice_n, int *list_only)
{
    static const struct option longopts[] = {
        MLAB_SWEEP_OPTIONS,
        {"default", no_argument, NULL, OPT_DEFAULT}, {"cpu-only", no_argument, NULL, OPT_CPU_ONLY},
        {"require-gpu", no_argument, NULL, OPT_REQUIRE_GPU}, {"no-time", no_argument, NULL, OPT_NO_TIME},
        {"quiet", no_argument, NULL, OPT_QUIET}, {"truth", required_argument, NULL, OPT_TRUTH},
        {"splits", required_argument, NULL, OPT_SPLITS}, {"max-time", required_argument, NULL, OPT_MAX_TIME},
        {"rse", required_argument, NULL, OPT_RSE}, {"min-samples", required_argument, NULL, OPT_MIN_SAMPLES},
        {"max-samples", required_argument, NULL, OPT_MAX_SAMPLES},
        {"variants", required_argument, NULL, OPT_VARIANTS}, {"device", required_argument, NULL, OPT_DEVICE},
        {"slice", required_argument, NULL, OPT_SLICE}, {"list", no_argument, NULL, OPT_LIST},
        {"label", required_argument, NULL, OPT_LABEL},
        {"peers", required_argument, NULL, OPT_PEERS}, {"peers-only", no_argument, NULL, OPT_PEERS_ONLY},
        {"peer-python", required_argument, NULL, OPT_PEER_PYTHON},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    int c, iv;
    double dv;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h': run_usage(stdout); return 1;
        case 'o': o->out = v; break;
        case OPT_DEFAULT: *use_default = 1; break;
        case OPT_CPU_ONLY: o->cpu_only = 1; break;
        case OPT_REQUIRE_GPU: o->require_gpu = 1; break;
        case OPT_NO_TIME: o->no_time = 1; break;
        case OPT_QUIET: o->quiet = 1; break;
        case OPT_LIST: *list_only = 1; break;
        case OPT_TRUTH:
            if (!strcmp(v, "dgemm")) o->truth_dgemm = 1;
            else if (strcmp(v, "sgemm")) {
                fprintf(stderr, "mlabench run: --truth: '%s' is not sgemm or dgemm\n", v);
                return -1;
            }
            break;
        case OPT_SPLITS:
            if (mlab_arg_int("run", "--splits", v, 1, MLA_MAX_SPLITS, &o->splits)) return -1;
            break;
        case OPT_PEERS_ONLY: o->peers_only = 1; break;
        case OPT_PEER_PYTHON: o->peer_python = v; break;
        case OPT_PEERS: {
            char pwhy[768];
            free(o->peers);
            o->peers = NULL;
            if ((o->parse_rc = mlab_peers_parse(v, &o->peers, &o->npeers, pwhy, sizeof pwhy))) {
                fprintf(stderr, "mlabench run: %s\n", pwhy); /* e.g. 4: the submission file cannot be read */
                return -1;
            }
            break;
        }
        case OPT_LABEL:
            if (strlen(v) >= sizeof(((mlab_env *)0)->label)) {
                fprintf(stderr, "mlabench run: --label: '%s' is longer than 63 characters\n", v);
                return -1;
            }
            o->label = v;
            break;
        case OPT_DEVICE:
            if (mlab_arg_int("run", "--device", v, 0, 1023, &o->device)) return -1;
            break;
        case OPT_SLICE:
            if (mlab_slice_parse("run", v, slice_k, slice_n)) return -1;
            break;
        case OPT_MAX_TIME:
        case OPT_RSE:
            if (mlab_arg_double("run", c == OPT_RSE ? "--rse" : "--max-time", v, &dv)) return -1;
            if (!(dv > 0)) {
                fprintf(stderr, "mlabench run: %s: '%s' must be positive\n", c == OPT_RSE ? "--rse" : "--max-time", v);
                return -1;
            }
            if (c == OPT_RSE) o->timing.target_rse = dv;
            else o->timing.max_time_s = dv;
            break;
        case OPT_MIN_SAMPLES:
        case OPT_MAX_SAMPLES:
            if (mlab_arg_int("run", c == OPT_MIN_SAMPLES ? "--min-samples" : "--max-samples", v, 1, 1000000, &iv))
                return -1;
            if (c == OPT_MIN_SAMPLES) o->timing.min_samples = (size_t)iv;
            else o->timing.max_samples = (size_t)iv;
            break;
        case OPT_VARIANTS: {
            memset(o->want, 0, sizeof o->want);
            char buf[512];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL;
            for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                const mlab_variant *mv = mlab_variant_find(t);
                if (!mv) {
                    fprintf(stderr, "mlabench run: --variants: unknown variant '%s' (see --help)\n", t);
                    return -1;
                }
                o->want[mv->id] = 1;
            }
            break;
        }
        default:
            if (mlab_arg_getopt_error("run", c, argv) || mlab_sweep_option(w, "run", c, v))
                return -1;
        }
    }
    return mlab_sweep_check(w, "run");
}

/* The peers on this case (harness/peer.c), judged against refs[] above. A
 * case made in memory (path NULL) goes to the peers through a temporary file. */
static int peers_half(mlab_case *c, const char *path, const run_opts *o, const mlab_env *env,
                      mlab_results *res, float **refs, int *failed)
{
    const char *dev = getenv("MLAB_PEER_DEVICE");
    mlab_peer_refs pr = {{refs[0], refs[1], refs[3], refs[4]}, refs[0],
                         {call_bytes(c, MLAB_KV_BF16), call_bytes(c, MLAB_KV_FP8),
                          call_bytes(c, MLAB_KV_MXFP4)}, call_flops(c)};
    mlab_peer_opts po = {o->peer_python, dev && *dev ? dev : "cuda", env->gpu_l2_bytes,
                         env->copy_bw_gbs, &o->timing, o->no_time};
    return mlab_peers_run(o->peers, o->npeers, &po, path, c, &pr, res, failed);
}

int mlab_cmd_run(int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    mlab_timing_opts_default(&o.timing);
    for (int i = 0; i < MLAB_V_COUNT; i++)
        o.want[i] = 1;
    mlab_sweep w;
    mlab_sweep_init(&w);
    int use_default = 0, slice_k = 0, slice_n = 1, list_only = 0, rc = MLAB_EXIT_USAGE;
    run_item *items = NULL;
    size_t *pick = NULL, npick = 0, nitems = 0;
    int prc = run_parse(argc, argv, &o, &w, &use_default, &slice_k, &slice_n, &list_only);
    if (prc) {
        rc = prc > 0 ? MLAB_EXIT_OK : o.parse_rc ? o.parse_rc : MLAB_EXIT_USAGE;
        goto done;
    }
    if (o.peers_only && !o.npeers) {
        fprintf(stderr, "mlabench run: --peers-only needs --peers\n");
        goto done;
    }
    /* the cases: files (the words left after the options), the sweep, the default */
    size_t nfiles = (size_t)(argc - optind), ngen = mlab_sweep_count(&w);
    if (!nfiles && !ngen)
        use_default = 1;
    items = calloc(nfiles + ngen + 2, sizeof *items);
    pick = calloc(nfiles + ngen + 2, sizeof *pick);
    double *cost = calloc(nfiles + ngen + 2, sizeof *cost);
    if (!items || !pick || !cost) {
        free(cost);
        rc = MLAB_EXIT_INTERNAL;
        goto done;
    }
    for (size_t i = 0; i < nfiles; i++) {
        struct stat st;
        items[nitems].path = argv[optind + (int)i];
        items[nitems++].cost = mlab_case_cost(stat(argv[optind + (int)i], &st) ? 0 : (double)st.st_size);
    }
    for (size_t i = 0; i < ngen; i++) {
        mlab_gen_spec s;
        mlab_sweep_spec(&w, i, &s);
        items[nitems].gen_index = i;
        items[nitems++].cost = mlab_case_cost(mlab_gen_file_bytes(&s));
    }
    if (use_default) {
        mlab_gen_spec s;
        mlab_default_spec(&s);
        items[nitems].is_default = 1;
        items[nitems++].cost = mlab_case_cost(mlab_gen_file_bytes(&s));
    }
    for (size_t i = 0; i < nitems; i++)
        cost[i] = items[i].cost;
    npick = mlab_slice_pick(cost, nitems, slice_k, slice_n, pick);
    free(cost);
    if (npick == (size_t)-1) {
        rc = MLAB_EXIT_INTERNAL;
        goto done;
    }
    char owhy[1024]; /* -o must not replace an input or a non-regular file (atomic.h) */
    if (o.out && (rc = mlab_output_check(o.out, (const char *const *)argv + optind, (int)nfiles, owhy,
                                         sizeof owhy))) {
        fprintf(stderr, "mlabench run: %s\n", owhy);
        goto done;
    }

    mlab_results res;
    mlab_results_init(&res);
    mlab_env_fill_host(&res.env, argc, argv);
    if (o.label)
        snprintf(res.env.label, sizeof res.env.label, "%s", o.label);
    o.env = &res.env;
    mlab_progress_init(&run_progress);
    {   /* what is ahead: the cases, their bytes, the largest in memory */
        double total = 0, peak = 0;
        for (size_t j = 0; j < npick; j++) {
            double b = items[pick[j]].cost - mlab_case_cost(0); /* the bytes */
            total += b;
            peak = b > peak ? b : peak;
        }
        FILE *f = list_only ? stdout : stderr;
        /* the estimate where the wait is worth announcing: --list, or
         * 25 MB of inputs and more (a small run that fails still says one line) */
        const int announce = list_only || total >= 25e6;
        if (announce) {
            fprintf(f, "mlabench run: %zu case%s", npick, npick == 1 ? "" : "s");
            if (slice_n > 1)
                fprintf(f, " (slice %d/%d of %zu)", slice_k, slice_n, nitems);
            fprintf(f, ", %.2f GB of inputs, one case in memory at a time (largest %.2f GB, plus "
                       "the references' outputs)\n", total / 1e9, peak / 1e9);
        }
        int nv = 0;
        for (int i = 0; i < MLAB_V_COUNT; i++)
            nv += o.want[i];
        if (announce && !o.cpu_only && !o.no_time && !list_only && npick) {
            char bound[32];
            mlab_duration_str((double)npick * nv * o.timing.max_time_s, bound, sizeof bound);
            fprintf(f, "mlabench run: with a GPU, sampling takes at most %s (%zu case%s x %d variants x "
                       "--max-time %.3g s), plus generation, the CPU references and validation\n",
                    bound, npick, npick == 1 ? "" : "s", nv, o.timing.max_time_s);
        }
        if (list_only) {
            for (size_t j = 0; j < npick; j++) {
                const run_item *it = &items[pick[j]];
                char name[64] = "", why[256];
                mlab_gen_spec s;
                if (it->path) {
                    printf("  %s\n", it->path);
                    continue;
                }
                if (it->is_default)
                    mlab_default_spec(&s);
                else
                    mlab_sweep_spec(&w, it->gen_index, &s);
                mlab_gen_name(&s, name, sizeof name, why, sizeof why);
                printf("  %s (in memory)  %.1f MB\n", name, mlab_gen_file_bytes(&s) / 1e6);
            }
            rc = MLAB_EXIT_OK;
            mlab_results_free(&res);
            goto done;
        }
    }
    if (!o.out)
        fprintf(stderr, "mlabench run: no -o RESULTS.h5: the results are printed, not saved\n");
    mlab_gpu *g = NULL;
    double copy_bw = 0;
    char why[768] = "";
    int failed = 0;
    if (!o.cpu_only) {
        mlab_gpu_info gi;
        rc = mlab_gpu_open(&g, o.device, &gi, why, sizeof why);
        env_from_gpu(&res.env, &gi);
        if (rc == MLAB_EXIT_NOGPU) {
            g = NULL;
            if (o.require_gpu) {
                printf("no usable GPU (%s): --require-gpu, stopping (exit 77)\n", why);
                goto out_results;
            }
            printf("no usable GPU (%s): running the CPU half only\n", why);
        } else if (rc) {
            fprintf(stderr, "mlabench run: %s\n", why);
            goto out_results;
        } else {
            o.gpu_open = 1;
            rc = mlab_gpu_copy_bandwidth(g, &copy_bw, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            res.env.copy_bw_gbs = copy_bw;
            rc = mlab_gpu_read_bandwidth(g, &res.env.read_bw_gbs, why, sizeof why);
            if (!rc)
                rc = mlab_gpu_select_empty(g, why, sizeof why);
            if (!rc)
                rc = gpu_cold_median(g, &o.timing, &res.env.empty_kernel_us, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            printf("GPU %d: %s (%s, %d CUs/SMs, %s, driver %s); copy bandwidth %.0f GB/s, "
                   "read %.0f GB/s, empty kernel %.2f us cold\n",
                   res.env.gpu_index, res.env.gpu_name, res.env.gpu_arch, res.env.gpu_cu_count,
                   res.env.runtime_version, res.env.driver_version, copy_bw, res.env.read_bw_gbs,
                   res.env.empty_kernel_us);
        }
    }
    for (size_t j = 0; j < npick; j++) {
        const run_item *it = &items[pick[j]];
        mlab_case c;
        mlab_input_file in;
        memset(&in, 0, sizeof in);
        if (it->path) {
            rc = mlab_h5_read_case(it->path, &c, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            snprintf(in.path, sizeof in.path, "%s", it->path);
        } else {
            mlab_gen_spec s;
            if (it->is_default)
                mlab_default_spec(&s);
            else
                mlab_sweep_spec(&w, it->gen_index, &s);
            rc = mlab_gen_case(&s, &c, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            snprintf(in.path, sizeof in.path, "%s", it->is_default ? "(embedded default case)"
                                                                    : "(generated in memory, as mlabench gen)");
        }
        if (mlab_tensor_hash_case(&c, &in, why, sizeof why)) {
            fprintf(stderr, "mlabench run: %s\n", why);
            mlab_case_free(&c);
            rc = MLAB_EXIT_INTERNAL;
            goto out_results;
        }
        snprintf(in.schema, sizeof in.schema, "%s", MLAB_CASE_FORMAT);
        in.schema_version = MLAB_CASE_VERSION;
        snprintf(in.case_name, sizeof in.case_name, "%s", c.name);
        mlab_results_add_input(&res, &in);
        if (npick > 1 && !o.quiet)
            mlab_progress_line(&run_progress, "mlabench run: case %zu/%zu: %s", j + 1, npick, c.name);

        float *refs[N_CPU_REFS] = {0};
        rc = cpu_half(&c, &o, &res, refs);
        if (!rc && g && !o.peers_only)
            rc = gpu_half(g, &c, &o, &res, refs, copy_bw, &failed);
        if (!rc && o.npeers && (g || getenv("MLAB_PEER_DEVICE")))
            rc = peers_half(&c, it->path, &o, &res.env, &res, refs, &failed);
        else if (!rc && o.npeers)
            printf("peers skipped: no GPU (MLAB_PEER_DEVICE=cuda runs them on a GPU this "
                   "build has no back end for)\n");
        for (size_t r = 0; r < N_CPU_REFS; r++)
            free(refs[r]);
        mlab_case_free(&c);
        if (rc)
            goto out_results;
    }
    rc = failed ? MLAB_EXIT_ACCURACY : MLAB_EXIT_OK;
    mlab_results_fill_read_limits(&res); /* the peers' rows: their case's read limit */
    if (o.out) {
        int wrc = mlab_results_write(o.out, &res, why, sizeof why);
        if (wrc) {
            fprintf(stderr, "mlabench run: %s\n", why);
            rc = wrc;
        } else {
            printf("\nresults: %s (%zu rows)\n", o.out, res.nrows);
        }
    }
    if (failed)
        fprintf(stderr, "mlabench run: a variant or peer failed validation (exit 5)\n");
out_results:
    if (g)
        mlab_gpu_close(g);
    mlab_results_free(&res);
done:
    free(o.peers);
    free(items);
    free(pick);
    mlab_sweep_free(&w);
    return rc;
}

int mlab_cmd_tolerances(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(argc > 1 && strcmp(argv[1], "--help") ? stderr : stdout,
                "usage: mlabench tolerances   (prints reference/metrics.c's table as Markdown)\n");
        return strcmp(argv[1], "--help") ? MLAB_EXIT_USAGE : MLAB_EXIT_OK;
    }
    size_t n;
    const mlab_tol *t = mlab_tol_table(&n);
    printf("| comparison | rtol | atol (x rms(ref)) | max rel RMS | max cos diff | outliers allowed | reason |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < n; i++) {
        char out[64] = "none";
        if (t[i].max_mismatch_frac > 0)
            snprintf(out, sizeof out, "%.3g of outputs, each < %.3g atol", t[i].max_mismatch_frac,
                     t[i].max_abs_atols);
        printf("| %s | %.4g | %.4g | %.3g | %.3g | %s | %s |\n", t[i].name, t[i].rtol, t[i].atol,
               t[i].max_rel_rms, t[i].max_cos_diff, out, t[i].reason);
    }
    return MLAB_EXIT_OK;
}
