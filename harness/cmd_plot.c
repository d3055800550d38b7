/* cmd_plot.c: `mlabench plot RESULTS` -> gnuplot figures (commands.h):
 * latency, bandwidth, error, and with --history a run-by-run history. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../reference/metrics.h" /* mlab_tol_find */
#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_row_timed, mlab_path_* */
#include "results_h5.h"  /* mlab_atomic_begin/commit */

#ifndef MLAB_PLOTS_DIR
#define MLAB_PLOTS_DIR "plots"
#endif

static void plot_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench plot RESULTS [--out DIR] [--format png|svg|both] [--if-available]\n"
            "                     [--keep-data] [--history R1 R2 ... [--cases C1,C2]\n"
            "                     [--variants V1,V2]]\n"
            "  Draws with gnuplot (found on PATH) and the scripts in $MLAB_PLOTS_DIR\n"
            "  (default %s), into DIR (default: RESULTS's folder):\n"
            "    STEM.latency.FMT    median per case and variant, log y, q1..q3 bars\n"
            "    STEM.bandwidth.FMT  achieved GB/s per case and variant, copy-bandwidth line\n"
            "    STEM.error.FMT      kernel and total rel_rms per variant (KV format), log y\n"
            "    STEM.history.FMT    with --history: the median of the chosen cases and\n"
            "                        variants (default all) in each run R1 R2 ... and\n"
            "                        RESULTS, ordered by their UTC time; x labelled with\n"
            "                        each run's runtime version, date and commit\n"
            "  STEM is RESULTS's name without .h5. Titles name GPU, runtime and commit.\n"
            "  The data gnuplot reads is written to DIR/STEM.plot.csv (and\n"
            "  STEM.history.csv), removed afterwards unless --keep-data.\n"
            "  --if-available  without gnuplot, say \"gnuplot not found: plots skipped\", exit 0\n"
            "exit codes: 0 ok, 2 usage, 3 not a results file, 4 cannot read/write, or\n"
            "  gnuplot not found (without --if-available), 1 gnuplot failed\n",
            MLAB_PLOTS_DIR);
}

/* gnuplot on PATH, or "" */
static void find_gnuplot(char *out, size_t size)
{
    out[0] = 0;
    const char *path = getenv("PATH");
    if (!path)
        return;
    char *dup = strdup(path), *save = NULL;
    if (!dup)
        return;
    for (char *d = strtok_r(dup, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char cand[4096];
        snprintf(cand, sizeof cand, "%s/gnuplot", *d ? d : ".");
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
            snprintf(out, size, "%s", cand);
            break;
        }
    }
    free(dup);
}

/* A gnuplot single-quoted string literal (no escapes; ' is written ''). */
static void gp_str(char *dst, size_t size, const char *s)
{
    size_t k = 0;
    if (size < 3)
        return;
    dst[k++] = '\'';
    for (; *s && k + 3 < size; s++) {
        if (*s == '\'')
            dst[k++] = '\'';
        dst[k++] = *s;
    }
    dst[k++] = '\'';
    dst[k] = 0;
}

/* Letters, digits and ._-/+ only: for names written into the plot data and
 * the word lists gnuplot splits on spaces. */
static void safe_name(char *dst, size_t size, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < size; s++)
        dst[k++] = (strchr(",\"' \t\n", *s)) ? '_' : *s;
    dst[k] = 0;
}

typedef struct {
    const char *gnuplot, *plots_dir, *out_dir, *stem, *fmt;
    char title_vars[2048]; /* gpu=..; runtime=..; commit=.. */
} plot_ctx;

/* Run one script: writes DIR/STEM.KIND.FMT through a temporary. */
static int run_gnuplot(const plot_ctx *c, const char *kind, const char *data, const char *vars)
{
    const char *cmd = "plot";
    char script[4096], final[4096], tmp[4200], assign[8192], q[4500], qd[4500];
    snprintf(script, sizeof script, "%s/%s.gp", c->plots_dir, kind);
    if (access(script, R_OK) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot read the gnuplot script (set MLAB_PLOTS_DIR)",
                   script);
    snprintf(final, sizeof final, "%s/%s.%s.%s", c->out_dir, c->stem, kind, c->fmt);
    if (mlab_atomic_begin(final, tmp, sizeof tmp) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: path too long", final);
    gp_str(q, sizeof q, tmp);
    gp_str(qd, sizeof qd, data);
    int len = snprintf(assign, sizeof assign, "data=%s; out=%s; fmt='%s'; %s; %s", qd, q,
                       c->fmt, c->title_vars, vars);
    if (len < 0 || (size_t)len >= sizeof assign)
        return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "too many cases or variants for one gnuplot command");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "fork: %s", strerror(errno));
    if (pid == 0) {
        char *args[] = {"gnuplot", "-e", assign, script, NULL};
        execv(c->gnuplot, args);
        fprintf(stderr, "mlabench plot: cannot run %s: %s\n", c->gnuplot, strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    struct stat st;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(tmp, &st) != 0 || st.st_size == 0) {
        unlink(tmp);
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "gnuplot failed on %s (%s %d); its messages are above",
                   script, WIFEXITED(status) ? "exit" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
    char why[1024];
    int rc = mlab_atomic_commit(tmp, final, why, sizeof why);
    if (rc)
        return mlab_cli_err(cmd, rc, "%s", why);
    printf("%s\n", final);
    return MLAB_EXIT_OK;
}

/* Index of s in list (adding it when absent); -1 on out of memory. */
static int intern(char ***list, int *n, const char *s)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*list)[i], s) == 0)
            return i;
    char **l = realloc(*list, (size_t)(*n + 1) * sizeof *l);
    if (!l)
        return -1;
    *list = l;
    if (!(l[*n] = strdup(s)))
        return -1;
    return (*n)++;
}

static void free_list(char **l, int n)
{
    for (int i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

static double pos_or_nan(double v)
{
    return v > 0 && isfinite(v) ? v : NAN;
}

/* The data of latency, bandwidth and error plots:
 *   block 0: case_idx,case_name,min median_us,min gbps      (x tick labels)
 *   block 1: variant_idx,variant [kv],min rel_rms           (x labels of error.gp)
 *   block 1+v, v = 1..nv: one variant's rows, the GPU variants first (the
 *   latency and bandwidth figures draw those), then the CPU reference rows
 *   ("cpu_ref_*", drawn only in the error figure):
 *     1 case_idx, 2 case_name, 3 variant, 4 kv_format, 5 median_us, 6 q1_us,
 *     7 q3_us, 8 gbps, 9 gbps at q3, 10 gbps at q1, 11 pct_copy_bw, 12 tflops,
 *     13 kernel_rel_rms, 14 total_rel_rms, 15 tolerance max_rel_rms,
 *     16 valid, 17 variant_idx (0-based)
 * Blocks are separated by two blank lines (gnuplot's "index"). Values that a
 * log axis cannot show (not timed, zero) are written as NaN. The label
 * blocks carry a y inside the data's range so that the scripts can draw
 * them as invisible points that set the tick labels (gnuplot warns about a
 * plot element without one valid point). */
static int write_plot_data(FILE *f, const mlab_results *r, char ***cases, int *nc,
                           char ***vars, int *nv, int *nv_gpu, int *ntimed, int *nerr)
{
    /* GPU variants first, then the CPU reference rows: the latency and
     * bandwidth figures draw blocks 1..nv_gpu only */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < r->nrows; i++) {
            int cpu = strncmp(r->rows[i].variant, "cpu_ref_", 8) == 0;
            if (cpu != pass)
                continue;
            /* the truth row (zero error against itself) has nothing to draw on a log axis */
            if (cpu && !(r->rows[i].kernel_err.rel_rms > 0) && !(r->rows[i].total_err.rel_rms > 0))
                continue;
            if (intern(cases, nc, r->rows[i].case_name) < 0 ||
                intern(vars, nv, r->rows[i].variant) < 0)
                return -1;
        }
        if (pass == 0)
            *nv_gpu = *nv;
    }
    *ntimed = *nerr = 0;
    char s1[128], s2[128];
    fprintf(f, "# mlabench plot data, block 0: case_idx,case_name,min_median_us,min_gbps\n");
    for (int c = 0; c < *nc; c++) {
        double lo_t = NAN, lo_b = NAN;
        for (size_t i = 0; i < r->nrows; i++) {
            const mlab_row *w = &r->rows[i];
            if (strcmp(w->case_name, (*cases)[c]) || !mlab_row_timed(w))
                continue;
            lo_t = isnan(lo_t) || w->median_us < lo_t ? w->median_us : lo_t;
            if (w->gbps > 0)
                lo_b = isnan(lo_b) || w->gbps < lo_b ? w->gbps : lo_b;
        }
        safe_name(s1, sizeof s1, (*cases)[c]);
        fprintf(f, "%d,%s,%.9g,%.9g\n", c, s1, lo_t, lo_b);
    }
    fprintf(f, "\n\n# block 1: variant_idx,variant [kv_format],min_rel_rms\n");
    for (int v = 0; v < *nv; v++) {
        const char *kv = "";
        double lo = NAN;
        for (size_t i = 0; i < r->nrows; i++) {
            const mlab_row *w = &r->rows[i];
            if (strcmp(w->variant, (*vars)[v]) != 0)
                continue;
            kv = w->kv_format;
            double e[2] = {w->kernel_err.n ? w->kernel_err.rel_rms : NAN,
                           w->total_err.n ? w->total_err.rel_rms : NAN};
            for (int k = 0; k < 2; k++)
                if (e[k] > 0 && isfinite(e[k]))
                    lo = isnan(lo) || e[k] < lo ? e[k] : lo;
        }
        safe_name(s1, sizeof s1, (*vars)[v]);
        safe_name(s2, sizeof s2, kv);
        fprintf(f, "%d,%s [%s],%.9g\n", v, s1, s2, lo);
    }
    for (int v = 0; v < *nv; v++) {
        fprintf(f, "\n\n# block %d: variant %s: case_idx,case_name,variant,kv_format,median_us,"
                   "q1_us,q3_us,gbps,gbps_q3,gbps_q1,pct_copy_bw,tflops,kernel_rel_rms,"
                   "total_rel_rms,tol_max_rel_rms,valid,variant_idx\n",
                v + 2, (*vars)[v]);
        for (int c = 0; c < *nc; c++)
            for (size_t i = 0; i < r->nrows; i++) {
                const mlab_row *w = &r->rows[i];
                if (strcmp(w->variant, (*vars)[v]) || strcmp(w->case_name, (*cases)[c]))
                    continue;
                int timed = mlab_row_timed(w);
                *ntimed += timed;
                *nerr += w->kernel_err.n > 0 || w->total_err.n > 0;
                const mlab_tol *tol = mlab_tol_find(w->kernel_tol);
                double bq3 = timed && w->q3_us > 0 ? w->bytes / (w->q3_us * 1e3) : NAN;
                double bq1 = timed && w->q1_us > 0 ? w->bytes / (w->q1_us * 1e3) : NAN;
                double vals[] = {
                    timed ? w->median_us : NAN, timed ? w->q1_us : NAN, timed ? w->q3_us : NAN,
                    timed ? pos_or_nan(w->gbps) : NAN, pos_or_nan(bq3), pos_or_nan(bq1),
                    timed ? pos_or_nan(w->pct_copy_bw) : NAN, timed ? pos_or_nan(w->tflops) : NAN,
                    w->kernel_err.n ? pos_or_nan(w->kernel_err.rel_rms) : NAN,
                    w->total_err.n ? pos_or_nan(w->total_err.rel_rms) : NAN,
                    tol ? tol->max_rel_rms : NAN,
                };
                safe_name(s1, sizeof s1, w->case_name);
                fprintf(f, "%d,%s,", c, s1);
                safe_name(s1, sizeof s1, w->variant);
                safe_name(s2, sizeof s2, w->kv_format);
                fprintf(f, "%s,%s", s1, s2);
                for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
                    fputc(',', f);
                    if (isnan(vals[k]))
                        fputs("NaN", f);
                    else
                        fprintf(f, "%.9g", vals[k]);
                }
                fprintf(f, ",%d,%d\n", w->valid, v);
            }
    }
    return ferror(f) ? -1 : 0;
}

/* Split "a,b,c" into a list (the filters of --cases / --variants). */
static int split_list(const char *s, char ***out, int *n)
{
    char *dup = strdup(s), *save = NULL;
    if (!dup)
        return -1;
    for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (intern(out, n, t) < 0) {
            free(dup);
            return -1;
        }
    free(dup);
    return 0;
}

static int in_list(char **l, int n, const char *s)
{
    if (n == 0)
        return 1; /* no filter: everything */
    for (int i = 0; i < n; i++)
        if (strcmp(l[i], s) == 0)
            return 1;
    return 0;
}

typedef struct {
    const char *path;
    mlab_results r;
} run_file;

static int by_time(const void *a, const void *b)
{
    return strcmp(((const run_file *)a)->r.env.utc_time, ((const run_file *)b)->r.env.utc_time);
}

/* History data: block 0: run_idx,runtime_version,"date commit",file,min median of
 * the run's series (the y of its invisible tick-label point); block s
 * (1..ns): run_idx,median_us,q1_us,q3_us of series s ("case/variant"). */
static int write_history_data(FILE *f, run_file *runs, int nr, char **cf, int ncf, char **vf,
                              int nvf, char ***series, int *ns)
{
    char s1[256], s2[128];
    for (int k = 0; k < nr; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++) {
            const mlab_row *w = &runs[k].r.rows[i];
            if (!in_list(cf, ncf, w->case_name) || !in_list(vf, nvf, w->variant) || !mlab_row_timed(w))
                continue;
            char key[128];
            snprintf(key, sizeof key, "%s/%s", w->case_name, w->variant);
            safe_name(s1, sizeof s1, key);
            if (intern(series, ns, s1) < 0)
                return -1;
        }
    fprintf(f, "# mlabench plot history, block 0: run_idx,runtime_version,date,file,"
               "min_median_us\n");
    for (int k = 0; k < nr; k++) {
        safe_name(s1, sizeof s1, runs[k].r.env.runtime_version[0] ? runs[k].r.env.runtime_version
                                                                  : "unknown");
        for (char *p = s1; *p; p++) /* back to spaces for the label: no commas remain */
            if (*p == '_')
                *p = ' ';
        /* date and short commit: runs of one day stay apart */
        snprintf(s2, sizeof s2, "%.10s %.7s", runs[k].r.env.utc_time, runs[k].r.env.git_commit);
        char s3[256];
        safe_name(s3, sizeof s3, runs[k].path);
        double lo = NAN;
        for (size_t i = 0; i < runs[k].r.nrows; i++) {
            const mlab_row *w = &runs[k].r.rows[i];
            if (in_list(cf, ncf, w->case_name) && in_list(vf, nvf, w->variant) && mlab_row_timed(w) &&
                (isnan(lo) || w->median_us < lo))
                lo = w->median_us;
        }
        fprintf(f, "%d,%s,%s,%s,%.9g\n", k, s1, s2, s3, lo);
    }
    for (int s = 0; s < *ns; s++) {
        fprintf(f, "\n\n# block %d: %s: run_idx,median_us,q1_us,q3_us\n", s + 1, (*series)[s]);
        for (int k = 0; k < nr; k++)
            for (size_t i = 0; i < runs[k].r.nrows; i++) {
                const mlab_row *w = &runs[k].r.rows[i];
                char key[128];
                snprintf(key, sizeof key, "%s/%s", w->case_name, w->variant);
                safe_name(s1, sizeof s1, key);
                if (strcmp(s1, (*series)[s]) || !mlab_row_timed(w))
                    continue;
                fprintf(f, "%d,%.9g,%.9g,%.9g\n", k, w->median_us, w->q1_us, w->q3_us);
                break;
            }
    }
    return ferror(f) ? -1 : 0;
}

static void words(char *dst, size_t size, char **l, int n)
{
    size_t k = 0;
    dst[0] = 0;
    for (int i = 0; i < n; i++) {
        char s[256];
        safe_name(s, sizeof s, l[i]);
        int w = snprintf(dst + k, size - k, "%s%s", i ? " " : "", s);
        if (w < 0 || (size_t)w >= size - k)
            break;
        k += (size_t)w;
    }
}

int mlab_cmd_plot(int argc, char **argv)
{
    const char *cmd = "plot", *in = NULL, *out_dir = NULL, *format = "png";
    int if_available = 0, keep = 0, nhist = 0, want_history = 0;
    const char **hist = calloc((size_t)argc + 1, sizeof *hist);
    char **cf = NULL, **vf = NULL;
    int ncf = 0, nvf = 0;
    int rc = MLAB_EXIT_OK;
    if (!hist)
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},          {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'F'},  {"if-available", no_argument, NULL, 'A'},
        {"keep-data", no_argument, NULL, 'k'},     {"history", no_argument, NULL, 'H'},
        {"cases", required_argument, NULL, 'c'},   {"variants", required_argument, NULL, 'v'},
        {NULL, 0, NULL, 0}};
    int opt;
    mlab_cli_getopt_reset();
    while ((opt = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        switch (opt) {
        case 'h': plot_usage(stdout); goto done;
        case 'o': out_dir = optarg; break;
        case 'F':
            format = optarg;
            if (strcmp(format, "png") && strcmp(format, "svg") && strcmp(format, "both")) {
                rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--format: '%s' is not png, svg or both", format);
                goto done;
            }
            break;
        case 'A': if_available = 1; break;
        case 'k': keep = 1; break;
        case 'H': want_history = 1; break;
        case 'c':
        case 'v':
            if (split_list(optarg, opt == 'c' ? &cf : &vf, opt == 'c' ? &ncf : &nvf) < 0) {
                rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
                goto done;
            }
            break;
        default: plot_usage(stderr); rc = MLAB_EXIT_USAGE; goto done;
        }
    }
    if (optind < argc)
        in = argv[optind++];
    if (optind < argc && !want_history) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "one RESULTS file ('%s'; more runs go after --history)",
                          argv[optind]);
        goto done;
    }
    while (optind < argc)
        hist[nhist++] = argv[optind++];
    if (!in) {
        plot_usage(stderr);
        rc = MLAB_EXIT_USAGE;
        goto done;
    }
    if ((ncf || nvf) && !want_history) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--cases and --variants choose the series of --history");
        goto done;
    }

    char gnuplot[4096];
    find_gnuplot(gnuplot, sizeof gnuplot);
    if (!gnuplot[0]) {
        if (if_available) {
            printf("gnuplot not found: plots skipped\n");
            goto done;
        }
        rc = mlab_cli_err(cmd, MLAB_EXIT_IO,
                 "gnuplot not found on PATH (install gnuplot-nox; --if-available skips plots)");
        goto done;
    }
    rc = MLAB_EXIT_OK;
    run_file *runs = calloc((size_t)nhist + 1, sizeof *runs);
    int nr = 0;
    char **cases = NULL, **vars = NULL, **series = NULL;
    int nc = 0, nv = 0, ns = 0;
    char data[4200] = "", hdata[4200] = "";
    if (!runs) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        goto done;
    }
    runs[0].path = in;
    if ((rc = mlab_cli_load(cmd, in, &runs[0].r)))
        goto free_runs;
    nr = 1;
    for (int k = 0; k < nhist; k++) {
        int dup = strcmp(hist[k], in) == 0;
        for (int j = 1; j < nr; j++)
            dup |= strcmp(hist[k], runs[j].path) == 0;
        if (dup)
            continue;
        runs[nr].path = hist[k];
        if ((rc = mlab_cli_load(cmd, hist[k], &runs[nr].r)))
            goto free_runs;
        nr++;
    }
    const mlab_results *r = &runs[0].r;

    char dirbuf[4096], stem[1024];
    if (!out_dir) {
        mlab_path_dir(in, dirbuf, sizeof dirbuf);
        out_dir = dirbuf;
    }
    struct stat st;
    if (stat(out_dir, &st) != 0) {
        if (mkdir(out_dir, 0777) != 0) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot create the folder: %s", out_dir, strerror(errno));
            goto free_runs;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: not a folder", out_dir);
        goto free_runs;
    }
    mlab_path_stem(in, stem, sizeof stem);
    plot_ctx c = {gnuplot, getenv("MLAB_PLOTS_DIR") ? getenv("MLAB_PLOTS_DIR") : MLAB_PLOTS_DIR,
                  out_dir, stem, "png", ""};
    {
        char g[300], rt[150], cm[120], cmt[64];
        gp_str(g, sizeof g, r->env.gpu_name[0] ? r->env.gpu_name : "no GPU");
        gp_str(rt, sizeof rt, r->env.runtime_version[0] ? r->env.runtime_version : "no runtime");
        snprintf(cmt, sizeof cmt, "%.12s%s", r->env.git_commit, r->env.git_dirty ? "-dirty" : "");
        gp_str(cm, sizeof cm, cmt);
        snprintf(c.title_vars, sizeof c.title_vars, "gpu=%s; runtime=%s; commit=%s", g, rt, cm);
    }

    /* the per-run figures */
    if (snprintf(data, sizeof data, "%s/%s.plot.csv", out_dir, stem) >= (int)sizeof data) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "%s: path too long", out_dir);
        data[0] = 0;
        goto free_runs;
    }
    FILE *f = fopen(data, "w");
    int ntimed = 0, nerr = 0, nv_gpu = 0;
    if (!f) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot create: %s", data, strerror(errno));
        data[0] = 0;
        goto free_runs;
    }
    int bad = write_plot_data(f, r, &cases, &nc, &vars, &nv, &nv_gpu, &ntimed, &nerr);
    if (fclose(f) != 0 || bad) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: write error", data);
        goto free_runs;
    }
    const char *fmts[2] = {"png", "svg"};
    int f0 = strcmp(format, "svg") == 0 ? 1 : 0, f1 = strcmp(format, "png") == 0 ? 0 : 1;
    char vars_words[4096], v1[4400], v2[4600], v3[4600];
    words(vars_words, sizeof vars_words, vars, nv);
    gp_str(v1, sizeof v1, vars_words);
    /* v2: latency and bandwidth (GPU variants only), v3: error (all rows) */
    snprintf(v2, sizeof v2, "nc=%d; nv=%d; variants=%s; copy_bw=%.9g", nc, nv_gpu, v1,
             r->env.copy_bw_gbs > 0 ? r->env.copy_bw_gbs : 0.0);
    snprintf(v3, sizeof v3, "nc=%d; nv=%d; variants=%s", nc, nv, v1);
    if (r->nrows == 0)
        printf("%s: no rows: nothing to plot\n", in);
    else if (ntimed == 0)
        printf("%s: no GPU-timed rows: latency and bandwidth skipped\n", in);
    if (r->nrows > 0 && nerr == 0)
        printf("%s: no error metrics: error figure skipped\n", in);
    for (int fi = f0; fi <= f1 && rc == MLAB_EXIT_OK; fi++) {
        c.fmt = fmts[fi];
        if (ntimed > 0 && (rc = run_gnuplot(&c, "latency", data, v2)))
            break;
        if (ntimed > 0 && (rc = run_gnuplot(&c, "bandwidth", data, v2)))
            break;
        if (nerr > 0 && (rc = run_gnuplot(&c, "error", data, v3)))
            break;
    }

    /* the history figure */
    if (rc == MLAB_EXIT_OK && want_history) {
        qsort(runs, (size_t)nr, sizeof *runs, by_time);
        if (snprintf(hdata, sizeof hdata, "%s/%s.history.csv", out_dir, stem) >=
            (int)sizeof hdata) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "%s: path too long", out_dir);
            hdata[0] = 0;
            goto free_runs;
        }
        f = fopen(hdata, "w");
        if (!f) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot create: %s", hdata, strerror(errno));
            hdata[0] = 0;
            goto free_runs;
        }
        bad = write_history_data(f, runs, nr, cf, ncf, vf, nvf, &series, &ns);
        if (fclose(f) != 0 || bad) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: write error", hdata);
            goto free_runs;
        }
        if (ns == 0) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--history: no timed (case, variant) matches "
                                           "--cases/--variants in the %d runs", nr);
            goto free_runs;
        }
        char sw[8192], q[8400], hv[8600];
        words(sw, sizeof sw, series, ns);
        gp_str(q, sizeof q, sw);
        snprintf(hv, sizeof hv, "nr=%d; ns=%d; series=%s", nr, ns, q);
        for (int fi = f0; fi <= f1 && rc == MLAB_EXIT_OK; fi++) {
            c.fmt = fmts[fi];
            rc = run_gnuplot(&c, "history", hdata, hv);
        }
    }

free_runs:
    if (!keep) {
        if (data[0])
            unlink(data);
        if (hdata[0])
            unlink(hdata);
    }
    for (int k = 0; k < nr; k++)
        mlab_results_free(&runs[k].r);
    free(runs);
    free_list(cases, nc);
    free_list(vars, nv);
    free_list(series, ns);
done:
    free(hist);
    free_list(cf, ncf);
    free_list(vf, nvf);
    return rc;
}

