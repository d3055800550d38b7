/* cmd_report.c: `mlabench report RESULTS` -> Markdown (commands.h). It
 * leads with the headline (case x variant pivots: median, ratio to the
 * parent, to the floor, to the best peer), then the CPU references apart,
 * environment, inputs, per-case tables, figures, tolerance rows used and a
 * glossary of every column and derived format. The rows' lookups:
 * report_rows.c. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h> /* PATH_MAX */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../reference/metrics.h" /* mlab_tol_find */
#include "../variants/variants.h" /* mlab_variant_find: a variant's parent */
#include "commands.h"
#include "exitcodes.h"
#include "report_rows.h" /* mlab_report_rows, mlab_report_row, mlab_report_best_peer */
#include "results_cli.h" /* mlab_cli_*, mlab_out_*, mlab_put_*, mlab_strlist, mlab_row_floor_us */
#include "results_tidy.h" /* mlab_row_floor_us, mlab_row_parent, mlab_ordered_names */
#include "stats.h"       /* mlab_geomean */

static void report_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench report RESULTS [-o REPORT.md] [--plots DIR]\n"
            "  Writes a Markdown report of a results file (to stdout without -o). It\n"
            "  leads with the headline: pivots of case (ordered by bytes) x GPU or peer\n"
            "  variant: the cold median, its ratio to the parent variant, to the row's\n"
            "  floor (measured read limit, else bytes at copy bandwidth) and, when peer\n"
            "  rows exist, to the best peer of its KV format; then the CPU references\n"
            "  apart (what each KV format costs against bf16 truth), the environment,\n"
            "  the inputs and their tensor hashes, one table per case, links to the\n"
            "  figures of `mlabench plot` found in DIR (default: RESULTS's folder; with\n"
            "  -o, linked relative to the report's folder), the\n"
            "  tolerance rows used, and a glossary of every column and derived format.\n"
            "  -o, --output REPORT.md  write there (atomically) instead of stdout (- is stdout)\n"
            "exit codes: 0 ok, 2 usage, 3 not a results file, 4 cannot read or write\n");
}

static void md(FILE *f, const char *s)
{
    mlab_put_str(f, s, MLAB_FMT_MD);
}

static void md_num(FILE *f, double v, const char *fmt)
{
    mlab_put_num(f, v, fmt, MLAB_FMT_MD);
}
/* v when the row has it (have), else "-" */
static void md_num_or_dash(FILE *f, int have, double v, const char *fmt)
{
    if (have)
        md_num(f, v, fmt);
    else
        fprintf(f, "-");
}

enum { H_MEDIAN, H_PARENT, H_FLOOR, H_PEER };

/* A peer row whose cold samples spread over a quarter of their median:
 * host-bound (the Python launch, FlashMLA fp8's short calls: 125..175 us
 * about 150), not the kernel's time */
#define MLAB_NOISY_IQR 0.25
static int noisy_peer(const mlab_row *p)
{
    return p && p->median_us > 0 && (p->q3_us - p->q1_us) / p->median_us > MLAB_NOISY_IQR;
}

/* One headline value of a row: NAN when it has none. *mark: "†" for a
 * floor from the copy bandwidth (no read limit measured), "‡" for a ratio to
 * a best peer whose samples are host-bound (noisy_peer). */
static double headline_value(const mlab_report_rows *x, const mlab_row *w, int what, const char **mark)
{
    const mlab_results *r = x->r;
    *mark = "";
    if (!w || !mlab_row_timed(w))
        return NAN;
    switch (what) {
    case H_MEDIAN: return w->median_us;
    case H_PARENT: {
        const mlab_row *p = mlab_report_row(x, w->case_name, mlab_row_parent(w));
        return p && mlab_row_timed(p) && p != w ? w->median_us / p->median_us : NAN;
    }
    case H_FLOOR: {
        const char *k;
        double fl = mlab_row_floor_us(w, &r->env, &k);
        if (strcmp(k, "copy_bw") == 0)
            *mark = " †";
        return fl > 0 ? w->median_us / fl : NAN;
    }
    default: {
        const mlab_row *p = strcmp(w->kind, "peer") == 0 ? NULL : mlab_report_best_peer(x, w);
        if (noisy_peer(p))
            *mark = " ‡";
        return p ? w->median_us / p->median_us : NAN;
    }
    }
}

static void headline_table(FILE *f, const mlab_report_rows *ix, const mlab_strlist *cases,
                           const mlab_strlist *vars, int what)
{
    static const char *titles[] = {
        "Cold median, us",
        "Ratio to the parent variant (median / the parent's; below 1 = faster than its parent)",
        "Ratio to the floor (median / the row's floor; 1 = at the floor)",
        "Ratio to the best peer of its KV format (median / the fastest peer's; below 1 = faster)"};
    fprintf(f, "**%s**\n\n| case |", titles[what]);
    for (int v = 0; v < vars->n; v++) {
        fprintf(f, " ");
        md(f, vars->s[v]);
        const mlab_variant *mv = mlab_variant_find(vars->s[v]);
        if (what == H_PARENT && mv && mv->parent[0])
            fprintf(f, " (/ %s)", mv->parent);
        fprintf(f, " |");
    }
    fprintf(f, "\n| --- |");
    for (int v = 0; v < vars->n; v++)
        fprintf(f, " ---: |");
    fprintf(f, "\n");
    double *acc = calloc((size_t)vars->n * ((size_t)cases->n + 1) + 1, sizeof *acc);
    size_t *nacc = calloc((size_t)vars->n + 1, sizeof *nacc);
    for (int c = 0; c < cases->n; c++) {
        fprintf(f, "| ");
        md(f, cases->s[c]);
        fprintf(f, " |");
        for (int v = 0; v < vars->n; v++) {
            const mlab_row *w = mlab_report_row(ix, cases->s[c], vars->s[v]);
            const char *mark;
            double x = headline_value(ix, w, what, &mark);
            if (isnan(x))
                fprintf(f, " - |");
            else {
                fprintf(f, what == H_MEDIAN ? " %.4g%s%s |" : " %.3f%s%s |", x, mark,
                        w->valid == 0 ? " **FAIL**" : "");
                if (acc && nacc && x > 0)
                    acc[(size_t)v * ((size_t)cases->n + 1) + nacc[v]++] = x;
            }
        }
        fprintf(f, "\n");
    }
    fprintf(f, "| geomean |");
    for (int v = 0; v < vars->n; v++) {
        if (acc && nacc && nacc[v])
            fprintf(f, what == H_MEDIAN ? " %.4g (%zu) |" : " %.3f (%zu) |",
                    mlab_geomean(acc + (size_t)v * ((size_t)cases->n + 1), nacc[v]), nacc[v]);
        else
            fprintf(f, " - |");
    }
    fprintf(f, "\n\n");
    free(acc);
    free(nacc);
}

static void write_headline(FILE *f, const mlab_report_rows *ix)
{
    const mlab_results *r = ix->r;
    mlab_strlist cases = {0}, all = {0}, gpu = {0}, cpu = {0};
    if (mlab_ordered_names(r, 0, &cases) || mlab_ordered_names(r, 1, &all))
        goto out;
    int peers = 0, copy_floor = 0, noisy = 0;
    for (int v = 0; v < all.n; v++) {
        const mlab_row *w = mlab_report_variant_first(ix, all.s[v]);
        if (mlab_row_is_cpu(w))
            mlab_strlist_add(&cpu, all.s[v]);
        else
            mlab_strlist_add(&gpu, all.s[v]);
        peers += strcmp(w->kind, "peer") == 0;
    }
    for (size_t i = 0; i < r->nrows; i++)
        noisy |= strcmp(r->rows[i].kind, "peer") && mlab_row_timed(&r->rows[i]) && noisy_peer(mlab_report_best_peer(ix, &r->rows[i]));
    for (size_t i = 0; i < r->nrows; i++) {
        const char *k;
        if (mlab_row_timed(&r->rows[i]) && mlab_row_floor_us(&r->rows[i], &r->env, &k) > 0)
            copy_floor |= strcmp(k, "copy_bw") == 0;
    }
    fprintf(f, "## Headline\n\n");
    if (gpu.n == 0) {
        fprintf(f, "No GPU or peer rows: the run had no GPU (CPU references below).\n\n");
    } else {
        fprintf(f, "Cases ordered by the bytes they move; GPU variants by id%s. Geomean: over the "
                   "cases that have a value (their count in brackets).%s%s\n\n",
                peers ? ", then peers" : "",
                copy_floor ? " † = no read limit was measured for the row: its floor is its fewest "
                             "bytes at the measured copy bandwidth." : "",
                noisy ? " ‡ = the best peer's cold samples spread over a quarter of their median "
                        "(IQR / median > 0.25): a host-bound time (the peer's Python launch), not its "
                        "kernel's; its graph replay, where it has one, is in export's graph_us." : "");
        for (int what = H_MEDIAN; what <= (peers ? H_PEER : H_FLOOR); what++)
            headline_table(f, ix, &cases, &gpu, what);
    }
    if (cpu.n) {
        fprintf(f, "## CPU references (apart: host-timed once, for information)\n\n"
                   "What each KV format costs in accuracy, whatever the kernel: the OpenBLAS "
                   "reference on that format's inputs against bf16 truth (total rel_rms; "
                   "glossary below).\n\n| case |");
        for (int v = 0; v < cpu.n; v++) {
            fprintf(f, " ");
            md(f, cpu.s[v]);
            fprintf(f, " |");
        }
        fprintf(f, "\n| --- |");
        for (int v = 0; v < cpu.n; v++)
            fprintf(f, " ---: |");
        fprintf(f, "\n");
        for (int c = 0; c < cases.n; c++) {
            fprintf(f, "| ");
            md(f, cases.s[c]);
            fprintf(f, " |");
            for (int v = 0; v < cpu.n; v++) {
                const mlab_row *w = mlab_report_row(ix, cases.s[c], cpu.s[v]);
                if (w && w->total_err.n)
                    fprintf(f, " %.3g |", w->total_err.rel_rms);
                else
                    fprintf(f, " - |");
            }
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
    }
out:
    mlab_strlist_free(&cases);
    mlab_strlist_free(&all);
    mlab_strlist_free(&gpu);
    mlab_strlist_free(&cpu);
}

static void write_glossary(FILE *f)
{
    fprintf(f,
            "\n## Glossary\n\n"
            "| term | meaning |\n| --- | --- |\n"
            "| case | one input: `b<batch>_kv<kv_len>_s<seed>` (batch items, KV rows per item, "
            "generator seed); ordered by the bytes it moves |\n"
            "| variant | a GPU kernel of this project (`variants/`), a peer (an external "
            "implementation, kind `peer`) or a CPU reference (`cpu_ref_*`, kind `cpu`) |\n"
            "| parent | the variant a variant builds on (README, Variants); `/ parent` = median "
            "/ the parent's median on the same case |\n"
            "| median us, IQR us | cold time per call (caches flushed before each sample), the "
            "median and q1..q3 of all samples, microseconds |\n"
            "| samples (stop) | samples kept, and why sampling stopped: `rse` (standard error "
            "under its target), `time_limit`, `max_samples`, `not_timed`, `cpu_once` (a CPU row "
            "timed once) |\n"
            "| floor | the least time the call can take here: the row's measured read limit (a "
            "streaming read of its fewest bytes, same cold timing), else its fewest bytes at the "
            "measured copy bandwidth (†) |\n"
            "| GB/s | fewest bytes the call must move / median |\n"
            "| %% copy bw | GB/s as a percentage of the measured device copy bandwidth (bytes read "
            "+ written) |\n"
            "| TFLOP/s | the call's FLOPs / median |\n"
            "| valid | the kernel's output against the CPU reference on the same quantized inputs, "
            "under its tolerance row (pass, **FAIL**, `-` = not checked) |\n"
            "| kernel rel_rms | ‖out − ref‖₂ / ‖ref‖₂ against that reference: the kernel's own "
            "error |\n"
            "| total rel_rms | the same against bf16 truth (the bf16 reference in fp32/fp64): "
            "kernel plus format error |\n"
            "| max abs | the largest \\|out − ref\\| of the kernel error |\n"
            "| mism@tol | (the `run` console) elements outside atol + rtol·\\|ref\\| of the "
            "tolerance row |\n"
            "| comp | (the `run` console) the competition's rule, for comparison only: allclose "
            "at rtol = atol = 0.1, or at most 5%% of elements not close |\n"
            "| cpu_ref_bf16 | the CPU reference on bf16 KV: the truth the others are measured "
            "against (its total error is 0) |\n"
            "| cpu_ref_fp8 | fp8 e4m3 KV with its per-tensor scale, Q quantized to fp8 and P "
            "rounded to fp8 before P·V: what an a8w8 kernel computes |\n"
            "| cpu_ref_fp8_pexact | as cpu_ref_fp8 but P kept exact (fp32): the cost of "
            "rounding P |\n"
            "| cpu_ref_fp8_kvonly | fp8 KV only, Q and P exact: the cost of the KV format "
            "alone |\n"
            "| cpu_ref_mxfp4_up, cpu_ref_mxfp4_even | MXFP4 KV (E2M1 values, an E8M0 scale per "
            "32) with the case's tie rule and with the other one (ties away from zero / to "
            "even) |\n"
            "| cpu_ref_mxfp4_mx8 | MXFP4 KV as gfx950's scaled MFMA reads it (mxfp4_mfma_scale): "
            "Q as MXFP8, P times V's block scales rounded as MXFP8 along the kv rows |\n"
            "| cpu_ref_mxfp4_a8 | MXFP4 KV with Q quantized per tensor and P rounded to fp8 as "
            "the a8w8 kernels do: what mxfp4_wgmma (e4m3 wgmma) computes |\n"
            "| cpu_ref_fp8_qrow, cpu_ref_mxfp4_a8_qrow | as cpu_ref_fp8 and cpu_ref_mxfp4_a8 but Q "
            "quantized per (row, head), the task's rule on each 576 values: what the _qrow "
            "variants compute |\n"
            "| tolerance row | `kernel:<fmt>` judges a kernel, `total:<fmt>` a format against "
            "truth, `ref:*` the reference itself (reference/metrics.c, `mlabench "
            "tolerances`) |\n");
}

/* dir (a folder) as seen from the folder from, both made absolute
 * (realpath), into out: "../figs" for from /a/r, dir /a/figs; "." for the
 * same folder. 0, or -1 (a folder that cannot be resolved, or the two share
 * no folder but the root: the caller links dir as given) */
static int rel_dir(const char *from, const char *dir, char *out, size_t len)
{
    char a[PATH_MAX], b[PATH_MAX];
    if (!realpath(from, a) || !realpath(dir, b))
        return -1;
    size_t i = 0, common = 0; /* the length of the shared leading folders */
    while (a[i] && a[i] == b[i]) {
        if (a[i] == '/')
            common = i;
        i++;
    }
    if (!a[i] && (!b[i] || b[i] == '/'))
        common = i; /* from is dir, or dir lies below it */
    else if (!b[i] && a[i] == '/')
        common = i; /* dir lies above from */
    if (common == 0)
        return -1; /* nothing shared but the root: the path as given reads better */
    size_t n = 0;
    out[0] = 0;
    for (const char *s = a + common; *s; s++) /* one ".." a folder of from past the shared part */
        if (*s == '/')
            n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s..", n ? "/" : "");
    const char *rest = b + common + (b[common] == '/');
    if (*rest)
        n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s", n ? "/" : "", rest);
    if (!n)
        snprintf(out, len, ".");
    return n < len ? 0 : -1;
}

static void write_report(FILE *f, const char *in, const mlab_report_rows *ix, const char *plots_dir,
                         const char *link_dir)
{
    const mlab_results *r = ix->r;
    char stem[1024];
    mlab_path_stem(in, stem, sizeof stem);
    fprintf(f, "# mlabench report: %s\n\n", stem);
    fprintf(f, "Results file `%s` (%s), %zu rows, written %s by mlabench %s "
               "(commit %.12s%s).\n\n",
            in, MLAB_RESULTS_FORMAT, r->nrows, r->env.utc_time,
            r->env.mlabench_version, r->env.git_commit, r->env.git_dirty ? ", dirty tree" : "");

    fprintf(f, "GPU %s, %s, driver %s%s%s%s.\n\n", r->env.gpu_name[0] ? r->env.gpu_name : "none",
            r->env.runtime_version[0] ? r->env.runtime_version : "no runtime",
            r->env.driver_version[0] ? r->env.driver_version : "-", r->env.label[0] ? "; label `" : "",
            r->env.label, r->env.label[0] ? "`" : "");
    if (r->env.stopped[0]) /* a run stopped by a signal: its rows are those measured before it */
        fprintf(f, "**This run was stopped early** (%s): the file holds only the rows measured "
                   "before the signal.\n\n", r->env.stopped);
    if (r->env.idle_busy_pct > 0) /* a neighbour on the GPU (results.h) */
        fprintf(f, "**Another process ran kernels on this GPU during the run**: NVML saw it up to %d%% busy "
                   "while this run left it idle; the times may be slowed.\n\n", r->env.idle_busy_pct);
    write_headline(f, ix);

    fprintf(f, "## Environment\n\n| field | value |\n| --- | --- |\n");
    size_t nef;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t k = 0; k < nef; k++) {
        if ((!strcmp(ef[k].name, "stopped") || !strcmp(ef[k].name, "stopped_case")) &&
            !*((const char *)&r->env + ef[k].offset))
            continue; /* a run that ended: said by its absence (and above where it did not) */
        fprintf(f, "| %s | ", ef[k].name);
        const char *p = (const char *)&r->env + ef[k].offset;
        if (ef[k].kind == 's')
            md(f, p);
        else if (ef[k].kind == 'i')
            fprintf(f, "%d", *(const int *)p);
        else
            md_num(f, *(const double *)p, "%.6g");
        fprintf(f, " |\n");
    }

    fprintf(f, "\n## Inputs\n\n");
    if (r->ninputs == 0)
        fprintf(f, "No input files recorded.\n");
    else {
        fprintf(f, "sha256: of the case's tensors (per tensor in the results file's /inputs; "
                   "equal tensors hash equal), or in a version-1 file of the file's bytes.\n\n");
        fprintf(f, "| case | path | schema | sha256 |\n| --- | --- | --- | --- |\n");
        for (size_t i = 0; i < r->ninputs; i++) {
            const mlab_input_file *x = &r->inputs[i];
            fprintf(f, "| ");
            md(f, x->case_name);
            fprintf(f, " | `");
            md(f, x->path);
            fprintf(f, "` | ");
            md(f, x->schema);
            fprintf(f, " v%d | `%s` |\n", x->schema_version, x->sha256);
        }
    }

    fprintf(f, "\n## Results per case\n\nGPU and peer rows (CPU references: above). Times are cold (caches flushed before each sample), in "
               "microseconds; IQR = q1..q3; GB/s = fewest bytes / median; %% copy bw = of the "
               "measured device copy bandwidth (%.6g GB/s); rel_rms and max abs are the kernel "
               "error against a reference on the same quantized inputs, total rel_rms against "
               "bf16 truth; ran as = splits / blocks an SM of the main kernel / the merge of the "
               "splits / the main kernel's registers a thread (and its local bytes, spills and "
               "stack, where any) in the binary that ran / its block's unit where not a query row's "
               "split (item: both query rows of an item, the MTP unit; heads: head pairs) / the L2 "
               "policy its KV copies asked for (GPU rows; - or nothing where the file does not say).\n",
            r->env.copy_bw_gbs);
    mlab_strlist cases = {0};
    mlab_ordered_names(r, 0, &cases);
    for (int c = 0; c < cases.n; c++) {
        const mlab_row *const *rows; /* its rows, in file order */
        const size_t nr = mlab_report_case_rows(ix, cases.s[c], &rows);
        const mlab_row *first = rows[0];
        fprintf(f, "\n### ");
        md(f, cases.s[c]);
        fprintf(f, " (batch %d, q_seq_len %d, kv_len %d)\n\n", first->batch, first->q_seq_len,
                first->kv_len);
        fprintf(f, "| variant | KV | valid | samples (stop) | median us | IQR us | GB/s | "
                   "%% copy bw | TFLOP/s | kernel rel_rms | total rel_rms | max abs | ran as |\n"
                   "| --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (size_t i = 0; i < nr; i++) {
            const mlab_row *w = rows[i];
            if (mlab_row_is_cpu(w))
                continue; /* CPU rows: in their own section above */
            int timed = mlab_row_timed(w);
            fprintf(f, "| ");
            md(f, w->variant);
            fprintf(f, " | ");
            md(f, w->kv_format);
            fprintf(f, " | %s | %zu (", w->valid == 1 ? "pass" : w->valid == 0 ? "**FAIL**" : "-",
                    w->nsamples);
            md(f, w->stop_reason);
            fprintf(f, ") | ");
            if (timed) {
                md_num(f, w->median_us, "%.4g");
                fprintf(f, " | ");
                md_num(f, w->q1_us, "%.4g");
                fprintf(f, "..");
                md_num(f, w->q3_us, "%.4g");
                fprintf(f, " | ");
                md_num(f, w->gbps, "%.1f");
                fprintf(f, " | ");
                md_num(f, w->pct_copy_bw, "%.1f");
                fprintf(f, " | ");
                md_num(f, w->tflops, "%.3g");
            } else {
                fprintf(f, "- | - | - | - | -");
            }
            fprintf(f, " | ");
            md_num_or_dash(f, w->kernel_err.n > 0, w->kernel_err.rel_rms, "%.3g");
            fprintf(f, " | ");
            md_num_or_dash(f, w->total_err.n > 0, w->total_err.rel_rms, "%.3g");
            fprintf(f, " | ");
            md_num_or_dash(f, w->kernel_err.n > 0, w->kernel_err.max_abs, "%.3g");
            if (strcmp(w->kind, "gpu") == 0 && w->splits > 0) {
                fprintf(f, " | %d / ", w->splits);
                if (w->blocks_per_sm > 0) fprintf(f, "%d", w->blocks_per_sm);
                else fprintf(f, "-");
                fprintf(f, " / ");
                if (w->merge[0]) md(f, w->merge);
                else fprintf(f, "-");
                if (w->regs > 0) { /* the main kernel's footprint, where the file has it */
                    fprintf(f, " / %d regs", w->regs);
                    if (w->local_bytes > 0) fprintf(f, ", %d B local", w->local_bytes);
                }
                if (w->unit[0] && strcmp(w->unit, "row")) { /* an MTP item's or a head pair's unit */
                    fprintf(f, " / unit ");
                    md(f, w->unit);
                }
                if (w->l2_policy[0]) { /* the KV copies' L2 policy, where the file has it */
                    fprintf(f, " / L2 ");
                    md(f, w->l2_policy);
                }
                fprintf(f, " |\n");
            } else {
                fprintf(f, " | - |\n");
            }
        }
    }
    mlab_strlist_free(&cases);

    fprintf(f, "\n## Figures\n\n");
    static const char *kinds[] = {"latency", "bandwidth", "error", "history"};
    static const char *exts[] = {"png", "svg"};
    int nfig = 0;
    for (size_t k = 0; k < 4; k++)
        for (size_t e = 0; e < 2; e++) {
            char p[8192], link[8192];
            int n1 = snprintf(p, sizeof p, "%s/%s.%s.%s", plots_dir, stem, kinds[k], exts[e]);
            if (n1 < 0 || (size_t)n1 >= sizeof p || access(p, R_OK) != 0)
                continue;
            int n2 = link_dir ? snprintf(link, sizeof link, "%s/%s.%s.%s", link_dir, stem, kinds[k], exts[e])
                              : snprintf(link, sizeof link, "%s.%s.%s", stem, kinds[k], exts[e]);
            if (n2 < 0 || (size_t)n2 >= sizeof link)
                continue;
            fprintf(f, "![%s (%s)](%s)\n\n", kinds[k], exts[e], link);
            nfig++;
            break; /* png if there is one, else svg */
        }
    if (nfig == 0)
        fprintf(f, "No figures in `%s` (`mlabench plot %s` draws them).\n", plots_dir, in);

    fprintf(f, "\n## Tolerances used\n\nA kernel passes when no NaN/Inf position disagrees, no "
               "element is off by more than atol + rtol |ref| (atol in units of rms(ref)), and "
               "rel_rms <= max rel_rms (reference/metrics.c holds the table).\n\n"
               "| row | rtol | atol (x rms(ref)) | max rel_rms | reason |\n"
               "| --- | ---: | ---: | ---: | --- |\n");
    mlab_strlist tols = {0};
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].kernel_tol[0] && mlab_strlist_add(&tols, r->rows[i].kernel_tol) < 0)
            break;
    for (int t = 0; t < tols.n; t++) {
        const mlab_tol *tol = mlab_tol_find(tols.s[t]);
        fprintf(f, "| ");
        md(f, tols.s[t]);
        if (tol) {
            fprintf(f, " | %.4g | %.4g | %.4g | ", tol->rtol, tol->atol, tol->max_rel_rms);
            md(f, tol->reason);
            fprintf(f, " |\n");
        } else {
            fprintf(f, " | - | - | - | not in this build's table |\n");
        }
    }
    if (tols.n == 0)
        fprintf(f, "| (none: no row was validated) | | | | |\n");
    mlab_strlist_free(&tols);
    write_glossary(f);
}

int mlab_cmd_report(int argc, char **argv)
{
    const char *cmd = "report", *in = NULL, *out = NULL, *plots = NULL;
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'}, {"output", required_argument, NULL, 'o'},
        {"plots", required_argument, NULL, 'p'}, {NULL, 0, NULL, 0}};
    int c;
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        switch (c) {
        case 'h': report_usage(stdout); return MLAB_EXIT_OK;
        case 'o': out = optarg; break;
        case 'p': plots = optarg; break;
        default: report_usage(stderr); return MLAB_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        report_usage(stderr);
        return argc - optind > 1 ? mlab_cli_err(cmd, MLAB_EXIT_USAGE, "one results file at a time")
                                 : MLAB_EXIT_USAGE;
    }
    in = argv[optind];
    mlab_results r;
    int rc = mlab_cli_out_check(cmd, out, &in, 1);
    if (!rc)
        rc = mlab_cli_load(cmd, in, &r);
    if (rc)
        return rc;
    char pdir[4096], rdir[4096];
    if (plots)
        snprintf(pdir, sizeof pdir, "%s", plots);
    else
        mlab_path_dir(in, pdir, sizeof pdir);
    /* the figures' links: bare names when they sit beside the report, else
     * relative to the report's folder, so that the two move together (an
     * absolute --plots path broke once moved); on stdout, or where no
     * relative path reads better, the folder as given */
    mlab_path_dir(out && strcmp(out, "-") ? out : "./x", rdir, sizeof rdir);
    char rel[4096];
    const int to_file = out && strcmp(out, "-"); /* on stdout, where the report will lie is not known */
    const char *link_dir = strcmp(rdir, pdir) == 0                            ? NULL
                           : to_file && rel_dir(rdir, pdir, rel, sizeof rel) == 0 ? rel
                                                                             : pdir;
    if (link_dir && strcmp(link_dir, ".") == 0)
        link_dir = NULL;
    mlab_report_rows ix;
    if (mlab_report_rows_init(&ix, &r)) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "%s: out of memory for %zu rows", in, r.nrows);
        mlab_results_free(&r);
        return rc;
    }
    mlab_outfile o;
    rc = mlab_out_open(cmd, &o, out);
    if (rc == MLAB_EXIT_OK) {
        write_report(o.f, in, &ix, pdir, link_dir);
        rc = mlab_out_close(cmd, &o, 1);
    }
    mlab_report_rows_free(&ix);
    mlab_results_free(&r);
    return rc;
}
