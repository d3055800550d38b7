/* cmd_report.c: `mlabench report RESULTS` -> Markdown (commands.h):
 * environment, inputs, per-case tables, links to the figures, the
 * tolerance rows used. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "../reference/metrics.h" /* mlab_tol_find */
#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_out_*, mlab_put_*, mlab_strlist */

static void report_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench report RESULTS [-o REPORT.md] [--plots DIR]\n"
            "  Writes a Markdown report of a results file (to stdout without -o):\n"
            "  the environment, the input files and their hashes, one table per case\n"
            "  (variant, valid, samples, median us, IQR, GB/s, %% copy bw, TFLOP/s,\n"
            "  kernel rel_rms, total rel_rms, max abs), links to the figures of\n"
            "  `mlabench plot` found in DIR (default: RESULTS's folder) and the\n"
            "  tolerance rows the rows were judged by.\n"
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

static void write_report(FILE *f, const char *in, const mlab_results *r, const char *plots_dir,
                         const char *link_dir)
{
    char stem[1024];
    mlab_path_stem(in, stem, sizeof stem);
    fprintf(f, "# mlabench report: %s\n\n", stem);
    fprintf(f, "Results file `%s` (%s v%d), %zu rows, written %s by mlabench %s "
               "(commit %.12s%s).\n\n",
            in, MLAB_RESULTS_FORMAT, MLAB_RESULTS_VERSION, r->nrows, r->env.utc_time,
            r->env.mlabench_version, r->env.git_commit, r->env.git_dirty ? ", dirty tree" : "");

    fprintf(f, "## Environment\n\n| field | value |\n| --- | --- |\n");
    size_t nef;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t k = 0; k < nef; k++) {
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

    fprintf(f, "\n## Results\n\nTimes are cold (caches flushed before each sample), in "
               "microseconds; IQR = q1..q3; GB/s = fewest bytes / median; %% copy bw = of the "
               "measured device copy bandwidth (%.6g GB/s); rel_rms and max abs are the kernel "
               "error against a reference on the same quantized inputs, total rel_rms against "
               "bf16 truth.\n",
            r->env.copy_bw_gbs);
    mlab_strlist cases = {0};
    for (size_t i = 0; i < r->nrows; i++)
        if (mlab_strlist_add(&cases, r->rows[i].case_name) < 0)
            break;
    for (int c = 0; c < cases.n; c++) {
        const mlab_row *first = NULL;
        for (size_t i = 0; i < r->nrows && !first; i++)
            if (strcmp(r->rows[i].case_name, cases.s[c]) == 0)
                first = &r->rows[i];
        fprintf(f, "\n### ");
        md(f, cases.s[c]);
        fprintf(f, " (batch %d, q_seq_len %d, kv_len %d)\n\n", first->batch, first->q_seq_len,
                first->kv_len);
        fprintf(f, "| variant | KV | valid | samples (stop) | median us | IQR us | GB/s | "
                   "%% copy bw | TFLOP/s | kernel rel_rms | total rel_rms | max abs |\n"
                   "| --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (size_t i = 0; i < r->nrows; i++) {
            const mlab_row *w = &r->rows[i];
            if (strcmp(w->case_name, cases.s[c]) != 0)
                continue;
            int timed = w->nsamples > 0 && w->median_us > 0;
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
            if (w->kernel_err.n)
                md_num(f, w->kernel_err.rel_rms, "%.3g");
            else
                fprintf(f, "-");
            fprintf(f, " | ");
            if (w->total_err.n)
                md_num(f, w->total_err.rel_rms, "%.3g");
            else
                fprintf(f, "-");
            fprintf(f, " | ");
            if (w->kernel_err.n)
                md_num(f, w->kernel_err.max_abs, "%.3g");
            else
                fprintf(f, "-");
            fprintf(f, " |\n");
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
            int n2 = link_dir ? snprintf(link, sizeof link, "%s", p)
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
    int rc = mlab_cli_load(cmd, in, &r);
    if (rc)
        return rc;
    char pdir[4096], rdir[4096];
    if (plots)
        snprintf(pdir, sizeof pdir, "%s", plots);
    else
        mlab_path_dir(in, pdir, sizeof pdir);
    /* links relative to the report: bare names when the figures sit beside
     * it, else the folder as given */
    mlab_path_dir(out && strcmp(out, "-") ? out : "./x", rdir, sizeof rdir);
    const char *link_dir = strcmp(rdir, pdir) == 0 ? NULL : pdir;
    mlab_outfile o;
    rc = mlab_out_open(cmd, &o, out);
    if (rc == MLAB_EXIT_OK) {
        write_report(o.f, in, &r, pdir, link_dir);
        rc = mlab_out_close(cmd, &o, 1);
    }
    mlab_results_free(&r);
    return rc;
}
