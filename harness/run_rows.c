/* run_rows.c: the rows of `mlabench run` for one case (run_rows.h).
 *
 * The CPU half: the OpenBLAS reference for every KV format and what each
 * costs against bf16 truth. The GPU half: the read limit of each format (a
 * streaming read of the call's fewest bytes, timed like the variants), then
 * every selected variant validated against the reference on the same
 * quantized inputs with NaN poison past each sequence end and in the output,
 * and only then timed (cold, device events, harness/sampler.c). The peers:
 * the same validation and timing through a child process (peer.c).
 */
#include "run_rows.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../reference/mla_ref.h"
#include "../reference/metrics.h"
#include "exitcodes.h"

mlab_progress mlab_run_progress;

/* The device fields of the environment, from the GPU side's report. */
void mlab_run_env_from_gpu(mlab_env *e, const mlab_gpu_info *gi)
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
    e->gpu_mem_bus_bits = gi->mem_bus_bits;
    e->gpu_l2_bytes = gi->l2_bytes;
    snprintf(e->kernel_knobs, sizeof e->kernel_knobs, "%s", mlab_gpu_build_knobs());
}


static void progress(void *ctx, int done, int total)
{
    const char *what = ctx;
    if (total >= 8 && done == total && mlab_run_progress.open)
        mlab_progress_line(&mlab_run_progress, "    %s: %d/%d items", what, done, total);
    else if (total >= 8 && done % (total / 8) == 0)
        mlab_progress_update(&mlab_run_progress, "    %s: %d/%d items", what, done, total);
}

/* Fewest bytes a call must move: Q in (bf16), the KV rows in their format,
 * indptrs, and the bf16 output. */
static int out_of_memory(char *why, size_t whylen)
{
    snprintf(why, whylen, "out of memory");
    return MLAB_EXIT_INTERNAL;
}

static double call_bytes(const mlab_case *c, mlab_kv_fmt f)
{
    return (double)c->total_q * MLAB_HEADS * MLAB_DQK * 2 + (double)c->total_kv * mlab_kv_row_bytes(f) +
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
    int mx_native; /* MXFP4 as gfx950's scaled MFMA reads it (mla_ref.h) */
} cpu_ref_spec;

static const cpu_ref_spec cpu_refs[] = {
    {"bf16", MLAB_KV_BF16, 0, 0, 0, 0},
    {"fp8", MLAB_KV_FP8, 1, 1, 0, 0},
    {"fp8_pexact", MLAB_KV_FP8, 1, 0, 0, 0},
    {"fp8_kvonly", MLAB_KV_FP8, 0, 0, 0, 0},
    {"mxfp4", MLAB_KV_MXFP4, 0, 0, 0, 0},
    {"mxfp4_othertie", MLAB_KV_MXFP4, 0, 0, 1, 0},
    {"mxfp4_mx8", MLAB_KV_MXFP4, 0, 0, 0, 1}, /* mxfp4_mfma_scale's arithmetic */
    {"mxfp4_a8", MLAB_KV_MXFP4, 1, 1, 0, 0},  /* mxfp4_wgmma's: Q and P as the fp8 kernels */
    {"fp8_qrow", MLAB_KV_FP8, 2, 1, 0, 0},      /* fp8_wgmma_qrow's: Q per (row, head) */
    {"mxfp4_a8_qrow", MLAB_KV_MXFP4, 2, 1, 0, 0}, /* mxfp4_wgmma_qrow's */
};
#define N_CPU_REFS (sizeof cpu_refs / sizeof cpu_refs[0])
_Static_assert(N_CPU_REFS == MLAB_RUN_NREFS, "run_rows.h: MLAB_RUN_NREFS");

/* The CPU reference a kernel is judged against: the one its tolerance row
 * names, kernel:<label> -> cpu_ref_<label> (the same quantized inputs and P
 * rounding as the kernel); -1 if the row names none (a variant-table error:
 * the CPU half refuses it, so every run, also without a GPU, checks the table). */
static int kernel_ref_index(const char *tol)
{
    static const char pre[] = "kernel:";
    if (strncmp(tol, pre, sizeof pre - 1))
        return -1;
    for (size_t k = 0; k < N_CPU_REFS; k++)
        if (!strcmp(cpu_refs[k].label, tol + sizeof pre - 1))
            return (int)k;
    return -1;
}

/* The CPU half: every reference; errors against bf16 truth. refs[i] keeps
 * each output for the GPU half. */
int mlab_run_cpu_half(mlab_case *c, const run_opts *o, mlab_results *res, float **refs,
                      char *why, size_t whylen)
{
    size_t nout = (size_t)c->total_q * MLAB_HEADS * MLAB_DV;
    printf("\n== case %s: batch %d, q rows %d, kv rows %d, q_seq_len %d, input scale %g, "
           "mxfp4 tie %s\n", c->name, c->batch, c->total_q, c->total_kv, c->q_seq_len,
           (double)c->input_scale, mlab_fp4_tie_name(c->fp4_tie));
    printf("CPU reference (OpenBLAS %s), error against bf16 truth:\n", o->truth_dgemm ? "dgemm" : "sgemm");
    printf("  %-16s %8s %10s %10s %10s %10s %9s %6s\n", "format", "time_s", "rel_rms",
           "max_abs", "max_rel", "cos_diff", "mism@tol", "comp");
    int nv;
    const mlab_variant *vt = mlab_variant_table(&nv);
    for (int i = 0; i < nv; i++)
        if (kernel_ref_index(vt[i].tol) < 0) {
            snprintf(why, whylen, "variant %s: its tolerance row %s names no CPU reference (a bug)", vt[i].name,
                     vt[i].tol);
            return MLAB_EXIT_INTERNAL;
        }
    for (size_t k = 0; k < N_CPU_REFS; k++) {
        const cpu_ref_spec *s = &cpu_refs[k];
        refs[k] = malloc((nout + 1) * sizeof(float));
        if (!refs[k])
            return out_of_memory(why, whylen);
        mlab_ref_opts ro = {s->kv, (k == 0 && o->truth_dgemm) ? MLAB_REF_DGEMM : MLAB_REF_SGEMM,
                            s->q_fp8, s->p_fp8, o->quiet ? NULL : progress, (void *)s->label, s->mx_native};
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
                return out_of_memory(why, whylen);
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
        if (rc) {
            snprintf(why, whylen, "the CPU reference %s failed (out of memory)", s->label);
            return MLAB_EXIT_INTERNAL;
        }
        mlab_row row;
        row_from_case(&row, c, o, 0);
        snprintf(row.variant, sizeof row.variant, "cpu_ref_%s", s->label);
        if (s->other_tie)
            snprintf(row.variant, sizeof row.variant, "cpu_ref_mxfp4_%s",
                     mlab_fp4_tie_name(c->fp4_tie == MLAB_TIE_UP ? MLAB_TIE_EVEN : MLAB_TIE_UP));
        else if (s->mx_native || s->q_fp8)
            snprintf(row.variant, sizeof row.variant, "cpu_ref_%s", s->label);
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
            return out_of_memory(why, whylen);
        const mlab_err *e = &row.total_err;
        printf("  %-16s %8.2f %10.3e %10.3e %10.3e %10.3e %9zu %6s\n", row.variant + 8, dt,
               e->rel_rms, e->max_abs, e->max_rel, e->cos_diff, e->mismatches,
               e->comp_pass ? "pass" : "FAIL");
        fflush(stdout);
    }
    if (c->ref_out) { /* a reference output stored in the case file (e.g. by the recorder) */
        float *st = malloc((nout + 1) * sizeof(float));
        if (!st)
            return out_of_memory(why, whylen);
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

static int gs_slow_ns(void *g, unsigned long long *ns)
{
    return mlab_gpu_slow_ns(g, ns);
}

static mlab_sampler gpu_sampler(mlab_gpu *g)
{
    mlab_sampler s = {g, gs_warm, gs_cold, gs_graph, mlab_gpu_flush_s(g), gs_slow_ns, g};
    return s;
}

/* Median of the selected kernel's cold samples under the run's timing
 * options (no graph figure). */
int mlab_run_gpu_cold_median(mlab_gpu *g, const mlab_timing_opts *t, double *us, char *why, size_t n)
{
    mlab_timing_opts o = *t;
    o.graph_iters = 0;
    mlab_sampler s = gpu_sampler(g);
    s.slow_ns = NULL; /* a probe's row is not kept: no NVML readings for it */
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

volatile sig_atomic_t mlab_run_stop_sig;

static void run_on_stop(int sig)
{
    if (mlab_run_stop_sig) { /* the second: as if never caught */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    mlab_run_stop_sig = sig;
}

void mlab_run_catch_stops(void)
{
    static const int stops[3] = {SIGTERM, SIGINT, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = run_on_stop;
    sa.sa_flags = SA_RESTART; /* the reads and waits under way go on */
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 3; k++)
        sigaction(stops[k], &sa, NULL);
}

const char *mlab_run_stop_name(int sig)
{
    static char buf[24];
    switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: snprintf(buf, sizeof buf, "signal %d", sig); return buf;
    }
}

int mlab_run_gpu_half(mlab_gpu *g, mlab_case *c, const run_opts *o, mlab_results *res,
                      float **refs, double copy_bw, int *failed, char *why, size_t whylen)
{
    size_t nout = (size_t)c->total_q * MLAB_HEADS * MLAB_DV;
    char err[512] = "";
    int rc = mlab_gpu_load_case(g, c, 1, why, whylen);
    if (rc)
        return rc;
    /* the read limit of each format: a streaming read of the call's fewest
     * bytes, timed the same way as the variants */
    double rlim[3] = {0, 0, 0};
    if (!o->no_time) {
        for (int f = 0; f < 3; f++) {
            rc = mlab_gpu_select_read(g, call_bytes(c, (mlab_kv_fmt)f), err, sizeof err);
            if (!rc)
                rc = mlab_run_gpu_cold_median(g, &o->timing, &rlim[f], err, sizeof err);
            if (rc) {
                snprintf(why, whylen, "read limit: %s", err);
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
        return out_of_memory(why, whylen);
    }
    int n, ran = 0, skipped = 0;
    const mlab_variant *vt = mlab_variant_table(&n);
    printf("GPU variants (validated with NaN poison, then timed cold; copy bandwidth %.0f GB/s):\n",
           copy_bw);
    printf("  %-14s %5s %6s %10s %9s %8s %7s %7s %10s %10s %s\n", "variant", "valid", "splits",
           "median_us", "iqr_us", "GB/s", "%copy", "x_read", "kern_rms", "total_rms", "samples");
    for (int i = 0; i < n && !mlab_run_stop_sig; i++) { /* stopped: no other variant */
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
        rc = mlab_gpu_run(g, v->id, o->splits, out, &li, err, sizeof err);
        if (rc == MLAB_GPU_NODEV) { /* not runnable on this GPU or build: said, not recorded */
            printf("  %-14s  skipped: %s\n", v->name, err);
            skipped++;
            continue;
        }
        if (rc) {
            snprintf(why, whylen, "%s: %s", v->name, err);
            free(out);
            free(outf);
            return rc;
        }
        ran++;
        const int splits_used = li.splits;
        if (li.exact_id >= 0)
            printf("  %-14s a block scale of this case is outside what its fast path holds "
                   "exactly: its exact path runs\n", v->name);
        row.splits = li.splits;
        row.grid = li.grid;
        row.block = li.block;
        row.smem_bytes = li.smem_bytes;
        row.blocks_per_sm = li.blocks_per_sm;
        row.regs = li.regs;
        row.local_bytes = li.local_bytes;
        snprintf(row.merge, sizeof row.merge, "%s", li.merge);
        snprintf(row.l2_policy, sizeof row.l2_policy, "%s", li.l2_policy);
        snprintf(row.unit, sizeof row.unit, "%s", li.unit);
        row.read_limit_us = rlim[v->kv];
        for (size_t k = 0; k < nout; k++)
            outf[k] = mlab_bf16_to_f32(out[k]);
        /* the kernel's own reference (the one its tolerance row names: same
         * quantized inputs, same P rounding); a variant whose exact path ran
         * (e.g. mxfp4_wgmma on scales e4m3 cannot hold: mxfp4's kernel) is
         * judged as the variant whose kernel that is */
        const char *ktol = li.exact_id >= 0 && li.exact_id < n ? vt[li.exact_id].tol : v->tol;
        const float *kref = refs[kernel_ref_index(ktol)]; /* checked by the CPU half */
        const mlab_tol *tol = mlab_tol_find(ktol);
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
            rc = mlab_gpu_select(g, v->id, o->splits, &li, err, sizeof err);
            mlab_sampler smp = gpu_sampler(g); /* its power/thermal-limited time too */
            if (!rc)
                rc = mlab_sample(&smp, &o->timing, &row, err, sizeof err);
            row_clocks(&row, g, &res->env);
            if (rc) {
                snprintf(why, whylen, "%s: %s", v->name, err);
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
                   row.total_err.rel_rms, row.nsamples, row.stop_reason, mlab_row_slowed(&row));
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
            return out_of_memory(why, whylen);
        }
    }
    free(out);
    free(outf);
    if (skipped && !ran && !o->npeers) { /* nothing asked for can run here: not a pass */
        snprintf(why, whylen, "none of the %d variant(s) asked for can run on this GPU or build", skipped);
        return MLAB_GPU_NODEV;
    }
    return MLAB_EXIT_OK;
}

/* the peers' view of the run's GPU (mlab_peer_opts.gctx): its counters
 * around a peer's sampling and its clocks after it, as a variant's row */
typedef struct {
    mlab_gpu *g;
    const mlab_env *env;
} peer_gpu;

static int pg_slow_ns(void *ctx, unsigned long long *ns)
{
    return mlab_gpu_slow_ns(((peer_gpu *)ctx)->g, ns);
}

static void pg_clocks(void *ctx, mlab_row *r)
{
    row_clocks(r, ((peer_gpu *)ctx)->g, ((peer_gpu *)ctx)->env);
}

/* The peers on this case (harness/peer.c), judged against refs[] above. A
 * case made in memory (path NULL) goes to the peers through a temporary file. */
int mlab_run_peers_half(mlab_gpu *g, mlab_case *c, const char *path, const run_opts *o, const mlab_env *env,
                        mlab_results *res, float **refs, int *failed, char *why, size_t whylen)
{
    const char *dev = getenv("MLAB_PEER_DEVICE");
    mlab_peer_refs pr = {{refs[0], refs[1], refs[3], refs[4]}, refs[0],
                         {call_bytes(c, MLAB_KV_BF16), call_bytes(c, MLAB_KV_FP8),
                          call_bytes(c, MLAB_KV_MXFP4)}, call_flops(c)};
    peer_gpu pg = {g, env};
    const int on_gpu = g && !(dev && *dev && strcmp(dev, "cuda") != 0); /* not the CPU peers' */
    mlab_peer_opts po = {o->peer_python, dev && *dev ? dev : "cuda", env->gpu_l2_bytes,
                         env->copy_bw_gbs, &o->timing, o->no_time,
                         on_gpu ? &pg : NULL, on_gpu ? pg_slow_ns : NULL, on_gpu ? pg_clocks : NULL};
    return mlab_peers_run(o->peers, o->npeers, &po, path, c, &pr, res, failed, why, whylen);
}

