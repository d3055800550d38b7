/* cmd_run.c: `mlabench run`: the main job.
 *
 * For each case: the CPU reference for every KV format (OpenBLAS), the error
 * each format costs against bf16 truth; then, with a GPU, every selected
 * variant: validated against the reference on the same quantized inputs with
 * NaN poison past each sequence end and in the output, and only then timed
 * (cold, with device events). Everything lands in one results file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../reference/mla_ref.h"
#include "../reference/metrics.h"
#include "../variants/variants.h"
#include "args.h"
#include "atomic.h" /* mlab_output_check */
#include "commands.h"
#include "env.h"
#include "exitcodes.h"
#include "gen.h"
#include "gpu.h"
#include "h5io.h"
#include "results.h"
#include "results_h5.h"

typedef struct {
    int cpu_only, require_gpu, truth_dgemm, splits, no_time, quiet;
    int want[MLAB_V_COUNT];
    mlab_timing_opts timing;
    const char *out;
} run_opts;

static void run_usage(FILE *f)
{
    int n;
    const mlab_variant *v = mlab_variant_table(&n);
    fprintf(f,
            "usage: mlabench run [CASE.h5 ...] [--default] [options]\n"
            "  With no case (or --default): the embedded default case (4 x 1024, seed 4217),\n"
            "  generated in memory. Without a GPU (or with --cpu-only) only the CPU half runs.\n"
            "options:\n"
            "  -o RESULTS.h5       write the results file (atomically)\n"
            "  --variants a,b,..   GPU variants to run (default: all)\n"
            "  --cpu-only          skip the GPU even if there is one\n"
            "  --require-gpu       exit 77 when there is no usable GPU\n"
            "  --truth dgemm       bf16 truth in fp64 (default sgemm, fp32)\n"
            "  --splits N          KV splits (default: the documented rule)\n"
            "  --no-time           validate only\n"
            "  --max-time S        sampling time limit per variant (default 2 s)\n"
            "  --min-samples N     (default 10)   --max-samples N (default 1000)\n"
            "  --rse X             stop when stderr/median < X (default 0.005)\n"
            "  --quiet             no progress lines\n"
            "variants:\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-14s [%s] %s\n", v[i].name, mlab_kv_fmt_name(v[i].kv), v[i].idea);
    fprintf(f, "exit: 0 ok, 2 usage, 3 bad input, 4 I/O, 5 a variant failed validation, 77 no GPU "
               "with --require-gpu\n");
}

static void progress(void *ctx, int done, int total)
{
    const char *what = ctx;
    if (total >= 8 && (done == total || done % (total / 8) == 0))
        fprintf(stderr, "\r    %s: %d/%d items", what, done, total);
    if (done == total && total >= 8)
        fprintf(stderr, "\n");
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

static void row_from_case(mlab_row *r, const mlab_case *c)
{
    memset(r, 0, sizeof *r);
    snprintf(r->case_name, sizeof r->case_name, "%s", c->name);
    r->batch = c->batch;
    r->q_seq_len = c->q_seq_len;
    r->kv_len = c->kv_len;
    r->total_q = c->total_q;
    r->total_kv = c->total_kv;
    r->valid = -1;
    snprintf(r->stop_reason, sizeof r->stop_reason, "not_timed");
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
        row_from_case(&row, c);
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
    printf("  %-14s %5s %6s %10s %9s %8s %7s %9s %10s %10s %s\n", "variant", "valid", "splits",
           "median_us", "iqr_us", "GB/s", "%copy", "TFLOP/s", "kern_rms", "total_rms", "samples");
    for (int i = 0; i < n; i++) {
        if (!o->want[i])
            continue;
        const mlab_variant *v = &vt[i];
        mlab_row row;
        row_from_case(&row, c);
        snprintf(row.variant, sizeof row.variant, "%s", v->name);
        row.variant_id = v->id;
        snprintf(row.kind, sizeof row.kind, "gpu");
        snprintf(row.kv_format, sizeof row.kv_format, "%s", mlab_kv_fmt_name(v->kv));
        int splits_used = 0;
        rc = mlab_gpu_run(g, v->id, o->splits, out, &splits_used, why, sizeof why);
        if (rc) {
            fprintf(stderr, "mlabench run: %s: %s\n", v->name, why);
            free(out);
            free(outf);
            return rc;
        }
        row.splits = splits_used;
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
            rc = mlab_gpu_time(g, v->id, o->splits, &o->timing, &row, why, sizeof why);
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
        }
        if (row.valid && !o->no_time)
            printf("  %-14s %5s %6d %10.2f %9.2f %8.0f %6.1f%% %9.1f %10.3e %10.3e %zu (%s)\n",
                   v->name, "ok", splits_used, row.median_us, row.q3_us - row.q1_us, row.gbps,
                   row.pct_copy_bw, row.tflops, row.kernel_err.rel_rms, row.total_err.rel_rms,
                   row.nsamples, row.stop_reason);
        else if (row.valid)
            printf("  %-14s %5s %6d %10s %9s %8s %7s %9s %10.3e %10.3e\n", v->name, "ok",
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

int mlab_cmd_run(int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    mlab_timing_opts_default(&o.timing);
    for (int i = 0; i < MLAB_V_COUNT; i++)
        o.want[i] = 1;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0, use_default = 0, rc = MLAB_EXIT_USAGE;
    if (!files)
        return MLAB_EXIT_INTERNAL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int iv;
        double dv;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            run_usage(stdout);
            free(files);
            return MLAB_EXIT_OK;
        } else if (!strcmp(a, "--default")) use_default = 1;
        else if (!strcmp(a, "--cpu-only")) o.cpu_only = 1;
        else if (!strcmp(a, "--require-gpu")) o.require_gpu = 1;
        else if (!strcmp(a, "--no-time")) o.no_time = 1;
        else if (!strcmp(a, "--quiet")) o.quiet = 1;
        else if (a[0] != '-') files[nfiles++] = a;
        else if (!(v = mlab_arg_value("run", argc, argv, &i))) goto done;
        else if (!strcmp(a, "-o")) o.out = v;
        else if (!strcmp(a, "--truth")) {
            if (!strcmp(v, "dgemm")) o.truth_dgemm = 1;
            else if (strcmp(v, "sgemm")) {
                fprintf(stderr, "mlabench run: --truth: '%s' is not sgemm or dgemm\n", v);
                goto done;
            }
        } else if (!strcmp(a, "--splits")) {
            if (mlab_arg_int("run", a, v, 1, 4096, &o.splits)) goto done;
        } else if (!strcmp(a, "--max-time")) {
            if (mlab_arg_double("run", a, v, &dv) || dv <= 0) goto done;
            o.timing.max_time_s = dv;
        } else if (!strcmp(a, "--rse")) {
            if (mlab_arg_double("run", a, v, &dv) || dv <= 0) goto done;
            o.timing.target_rse = dv;
        } else if (!strcmp(a, "--min-samples")) {
            if (mlab_arg_int("run", a, v, 1, 1000000, &iv)) goto done;
            o.timing.min_samples = (size_t)iv;
        } else if (!strcmp(a, "--max-samples")) {
            if (mlab_arg_int("run", a, v, 1, 1000000, &iv)) goto done;
            o.timing.max_samples = (size_t)iv;
        } else if (!strcmp(a, "--variants")) {
            memset(o.want, 0, sizeof o.want);
            char buf[512];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL;
            for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                const mlab_variant *mv = mlab_variant_find(t);
                if (!mv) {
                    fprintf(stderr, "mlabench run: --variants: unknown variant '%s' (see --help)\n", t);
                    goto done;
                }
                o.want[mv->id] = 1;
            }
        } else {
            fprintf(stderr, "mlabench run: unknown option '%s' (see --help)\n", a);
            goto done;
        }
    }
    if (!nfiles)
        use_default = 1;
    char owhy[1024]; /* -o must not replace an input or a non-regular file (atomic.h) */
    if (o.out && (rc = mlab_output_check(o.out, files, nfiles, owhy, sizeof owhy))) {
        fprintf(stderr, "mlabench run: %s\n", owhy);
        goto done;
    }

    mlab_results res;
    mlab_results_init(&res);
    mlab_env_fill_host(&res.env, argc, argv);
    mlab_gpu *g = NULL;
    double copy_bw = 0;
    char why[768] = "";
    int failed = 0;
    if (!o.cpu_only) {
        rc = mlab_gpu_open(&g, 0, &res.env, why, sizeof why);
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
            rc = mlab_gpu_copy_bandwidth(g, &copy_bw, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            res.env.copy_bw_gbs = copy_bw;
            printf("GPU: %s (%s, %d CUs/SMs, %s, driver %s); copy bandwidth %.0f GB/s\n",
                   res.env.gpu_name, res.env.gpu_arch, res.env.gpu_cu_count,
                   res.env.runtime_version, res.env.driver_version, copy_bw);
        }
    }
    int ncases = use_default ? nfiles + 1 : nfiles;
    for (int k = 0; k < ncases; k++) {
        mlab_case c;
        mlab_input_file in;
        memset(&in, 0, sizeof in);
        if (k < nfiles) {
            rc = mlab_h5_read_case(files[k], &c, why, sizeof why);
            if (!rc)
                rc = mlab_sha256_file(files[k], in.sha256, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            snprintf(in.path, sizeof in.path, "%s", files[k]);
        } else {
            mlab_gen_spec s;
            mlab_default_spec(&s);
            rc = mlab_gen_case(&s, &c, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            snprintf(in.path, sizeof in.path, "(embedded default case)");
            snprintf(in.sha256, sizeof in.sha256, "-");
        }
        snprintf(in.schema, sizeof in.schema, "%s", MLAB_CASE_FORMAT);
        in.schema_version = MLAB_CASE_VERSION;
        snprintf(in.case_name, sizeof in.case_name, "%s", c.name);
        mlab_results_add_input(&res, &in);

        float *refs[N_CPU_REFS] = {0};
        rc = cpu_half(&c, &o, &res, refs);
        if (!rc && g)
            rc = gpu_half(g, &c, &o, &res, refs, copy_bw, &failed);
        for (size_t r = 0; r < N_CPU_REFS; r++)
            free(refs[r]);
        mlab_case_free(&c);
        if (rc)
            goto out_results;
    }
    rc = failed ? MLAB_EXIT_ACCURACY : MLAB_EXIT_OK;
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
        fprintf(stderr, "mlabench run: a variant failed validation (exit 5)\n");
out_results:
    if (g)
        mlab_gpu_close(g);
    mlab_results_free(&res);
done:
    free(files);
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
    printf("| comparison | rtol | atol (x rms(ref)) | max rel RMS | outliers allowed | reason |\n");
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < n; i++) {
        char out[64] = "none";
        if (t[i].max_mismatch_frac > 0)
            snprintf(out, sizeof out, "%.3g of outputs, each < %.3g atol", t[i].max_mismatch_frac,
                     t[i].max_abs_atols);
        printf("| %s | %.4g | %.4g | %.3g | %s | %s |\n", t[i].name, t[i].rtol, t[i].atol,
               t[i].max_rel_rms, out, t[i].reason);
    }
    return MLAB_EXIT_OK;
}
