/* cmd_results.c: the subcommands that read results files (commands.h).
 *
 *   export   results -> CSV: one line per row (every field of /rows, same
 *            names and order), or with --samples the raw samples in long
 *            format (case_name,variant,sample_index,us)
 *   compare  OLD NEW -> per (case, variant): medians with IQRs, change, a
 *            Mann-Whitney U p-value, a verdict (stats.h), accuracy drift,
 *            a geometric-mean row, environment differences; exit 6 on a
 *            regression, 7 for different GPU models
 *   plot     results -> gnuplot figures (plots/KIND.gp): latency, bandwidth,
 *            error, and with --history a run-by-run history
 *   report   results -> Markdown: environment, inputs, per-case tables,
 *            links to the figures, the tolerance rows used
 * Every output file is written through a temporary and renamed into place
 * (mlab_atomic_begin/commit), so a reader never sees half a file.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../reference/metrics.h" /* mlab_tol_find */
#include "args.h"                 /* mlab_arg_double, mlab_arg_value */
#include "commands.h"
#include "exitcodes.h"
#include "results.h"    /* mlab_results, mlab_row_fields, mlab_env_fields */
#include "results_h5.h" /* mlab_results_read, mlab_atomic_begin/commit */
#include "stats.h"      /* mlab_compare_timing, mlab_accuracy_drift, mlab_geomean */

#ifndef MLAB_PLOTS_DIR
#define MLAB_PLOTS_DIR "plots"
#endif

/* ---- shared helpers --------------------------------------------------------- */

static int err(const char *cmd, int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mlabench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

static int load(const char *cmd, const char *path, mlab_results *r)
{
    char why[1024];
    int rc = mlab_results_read(path, r, why, sizeof why);
    if (rc != MLAB_EXIT_OK)
        err(cmd, rc, "%s", why);
    return rc;
}

/* The single RESULTS argument of export and report: arg is not an option we
 * know; an unknown option or a second file is a usage error. */
static int take_input(const char *cmd, const char *arg, const char **in, void (*usage)(FILE *))
{
    if (arg[0] == '-' && arg[1]) {
        usage(stderr);
        return err(cmd, MLAB_EXIT_USAGE, "unknown option '%s'", arg);
    }
    if (*in)
        return err(cmd, MLAB_EXIT_USAGE, "one results file at a time ('%s')", arg);
    *in = arg;
    return MLAB_EXIT_OK;
}

/* Load the RESULTS file named on the command line (usage error if none). */
static int load_input(const char *cmd, const char *in, mlab_results *r, void (*usage)(FILE *))
{
    if (!in) {
        usage(stderr);
        return MLAB_EXIT_USAGE;
    }
    return load(cmd, in, r);
}

/* An output file: stdout when path is NULL or "-", else a temporary that
 * out_close renames into place. */
typedef struct {
    FILE *f;
    const char *path;
    char tmp[4200];
} outfile;

static int out_open(const char *cmd, outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return MLAB_EXIT_OK;
    }
    o->path = path;
    if (mlab_atomic_begin(path, o->tmp, sizeof o->tmp) != 0)
        return err(cmd, MLAB_EXIT_IO, "%s: path too long", path);
    o->f = fopen(o->tmp, "w");
    if (!o->f)
        return err(cmd, MLAB_EXIT_IO, "%s: cannot create %s: %s", path, o->tmp, strerror(errno));
    return MLAB_EXIT_OK;
}

/* -o must not be the input, nor an existing non-regular file (atomic.h). */
static int out_check(const char *cmd, const char *out, const char *in)
{
    char why[1024];
    int rc = out ? mlab_output_check(out, &in, 1, why, sizeof why) : MLAB_EXIT_OK;
    return rc ? err(cmd, rc, "%s", why) : MLAB_EXIT_OK;
}

/* Finish the output; with ok == 0 throw the temporary away. */
static int out_close(const char *cmd, outfile *o, int ok)
{
    if (!o->path) {
        if (fflush(stdout) != 0)
            return err(cmd, MLAB_EXIT_IO, "stdout: %s", strerror(errno));
        return MLAB_EXIT_OK;
    }
    int bad = ferror(o->f) || fflush(o->f) != 0;
    bad |= fclose(o->f) != 0;
    if (!ok || bad) {
        unlink(o->tmp);
        return ok ? err(cmd, MLAB_EXIT_IO, "%s: write error", o->path) : MLAB_EXIT_OK;
    }
    char why[1024];
    int rc = mlab_atomic_commit(o->tmp, o->path, why, sizeof why);
    return rc ? err(cmd, rc, "%s", why) : MLAB_EXIT_OK;
}

/* The file name without folder and without a .h5/.hdf5 ending. */
static void stem_of(const char *path, char *stem, size_t size)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(stem, size, "%s", b);
    size_t n = strlen(stem);
    if (n > 3 && strcmp(stem + n - 3, ".h5") == 0)
        stem[n - 3] = 0;
    else if (n > 5 && strcmp(stem + n - 5, ".hdf5") == 0)
        stem[n - 5] = 0;
}

static void dir_of(const char *path, char *dir, size_t size)
{
    const char *b = strrchr(path, '/');
    if (!b)
        snprintf(dir, size, ".");
    else if (b == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(b - path), path);
}

/* A row with GPU timing samples: not a CPU reference row ("cpu_ref_*",
 * timed once on the host for information) and not left untimed. Only these
 * are compared for speed and drawn in the latency and bandwidth figures. */
static int gpu_timed(const mlab_row *w)
{
    return w->nsamples > 0 && w->samples_us && w->median_us > 0 &&
           strncmp(w->variant, "cpu_ref_", 8) != 0;
}

static int is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* A number for CSV and tables: %.9g, with nan / inf / -inf spelled one way. */
static void put_num(FILE *f, double v, const char *fmt)
{
    if (isnan(v))
        fputs("nan", f);
    else if (isinf(v))
        fputs(v > 0 ? "inf" : "-inf", f);
    else
        fprintf(f, fmt, v);
}

/* A CSV cell (RFC 4180: quoted when it holds a comma, quote or newline). */
static void put_csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void put_field(FILE *f, const void *rec, const mlab_field *fl, int csv)
{
    const char *p = (const char *)rec + fl->offset;
    switch (fl->kind) {
    case 's':
        if (csv)
            put_csv_str(f, p);
        else
            fprintf(f, "%s", p);
        break;
    case 'i': fprintf(f, "%d", *(const int *)p); break;
    case 'z': fprintf(f, "%zu", *(const size_t *)p); break;
    default: put_num(f, *(const double *)p, "%.9g"); break;
    }
}

/* ---- export ----------------------------------------------------------------- */

static void export_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench export RESULTS [-o FILE.csv] [--samples]\n"
            "  Writes a results file as CSV (to stdout without -o; with -o through a\n"
            "  temporary renamed into place). One header line, then one line per\n"
            "  (case, variant) with every field of the file's /rows in its order\n"
            "  (data/README.md): identity, samples and stop reason, median/q1/q3/min/\n"
            "  mean/stdev in us, bytes, flops, GB/s, %% of copy bandwidth, TFLOP/s,\n"
            "  then kernel_* and total_* error metrics. Numbers as %%.9g.\n"
            "  --samples  the raw samples instead, long format:\n"
            "             case_name,variant,sample_index,us\n"
            "exit codes: 0 ok, 2 usage, 3 not a results file, 4 cannot read or write\n");
}

static void write_rows_csv(FILE *f, const mlab_results *r)
{
    size_t nf;
    const mlab_field *fl = mlab_row_fields(&nf);
    for (size_t k = 0; k < nf; k++)
        fprintf(f, "%s%s", k ? "," : "", fl[k].name);
    fputc('\n', f);
    for (size_t i = 0; i < r->nrows; i++) {
        for (size_t k = 0; k < nf; k++) {
            if (k)
                fputc(',', f);
            put_field(f, &r->rows[i], &fl[k], 1);
        }
        fputc('\n', f);
    }
}

static void write_samples_csv(FILE *f, const mlab_results *r)
{
    fprintf(f, "case_name,variant,sample_index,us\n");
    for (size_t i = 0; i < r->nrows; i++) {
        const mlab_row *row = &r->rows[i];
        for (size_t k = 0; k < row->nsamples && row->samples_us; k++) {
            put_csv_str(f, row->case_name);
            fputc(',', f);
            put_csv_str(f, row->variant);
            fprintf(f, ",%zu,", k);
            put_num(f, row->samples_us[k], "%.9g");
            fputc('\n', f);
        }
    }
}

int mlab_cmd_export(int argc, char **argv)
{
    const char *cmd = "export", *in = NULL, *out = NULL;
    int samples = 0;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            export_usage(stdout);
            return MLAB_EXIT_OK;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (!(out = mlab_arg_value(cmd, argc, argv, &i)))
                return MLAB_EXIT_USAGE;
        } else if (strcmp(argv[i], "--samples") == 0) {
            samples = 1;
        } else if (take_input(cmd, argv[i], &in, export_usage) != MLAB_EXIT_OK) {
            return MLAB_EXIT_USAGE;
        }
    }
    mlab_results r;
    int rc = out_check(cmd, out, in);
    if (rc || (rc = load_input(cmd, in, &r, export_usage)))
        return rc;
    outfile o;
    rc = out_open(cmd, &o, out);
    if (rc == MLAB_EXIT_OK) {
        if (samples)
            write_samples_csv(o.f, &r);
        else
            write_rows_csv(o.f, &r);
        rc = out_close(cmd, &o, 1);
    }
    mlab_results_free(&r);
    return rc;
}

/* ---- compare ---------------------------------------------------------------- */

static void compare_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench compare OLD NEW [--alpha 0.05] [--threshold 0.02] [--drift 1.5]\n"
            "                        [--force]\n"
            "  Pairs the rows of two results files by (case, variant) and prints per pair\n"
            "  the old and new median with [q1, q3] in us, the change of the median, the\n"
            "  two-sided Mann-Whitney U p-value (only when both sides have >= 9 samples)\n"
            "  and a verdict:\n"
            "    same     p >= alpha (noise explains it) or |change| < threshold\n"
            "    faster / slower   p < alpha AND |change| >= threshold AND the median\n"
            "             and the ranks move the same way AND the medians are not both\n"
            "             inside each other's IQR\n"
            "    unclear  fewer than 9 samples a side, not timed, or one of the last\n"
            "             two conditions fails (re-run with more samples)\n"
            "    accuracy-regression   validation went from pass to fail, NaN/Inf\n"
            "             positions started to disagree, or kernel rel_rms or max_abs grew\n"
            "             by more than --drift times AND above a tenth of its tolerance\n"
            "  CPU reference rows (cpu_ref_*, timed once on the host) and rows timed on\n"
            "  neither side get no timing verdict (\"-\"), only the accuracy check.\n"
            "  Then a geometric-mean row over the pairs timed in both, the rows found in\n"
            "  only one file, and the environment fields that differ.\n"
            "  --alpha A      significance level of the U test (default 0.05)\n"
            "  --threshold T  smallest relative change of the median that counts (0.02)\n"
            "  --drift F      accuracy growth factor that counts as drift (1.5)\n"
            "  --force        compare files from different GPU models anyway\n"
            "exit codes: 0 no regression (every pair same, faster or unclear),\n"
            "  6 a pair is slower or has an accuracy regression,\n"
            "  7 refused: different GPU models (gpu_name) without --force,\n"
            "  2 usage, 3 not a results file, 4 cannot read a file\n");
}

static const mlab_row *find_row(const mlab_results *r, const char *case_name, const char *variant,
                                const char *used)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (!used[i] && strcmp(r->rows[i].case_name, case_name) == 0 &&
            strcmp(r->rows[i].variant, variant) == 0)
            return &r->rows[i];
    return NULL;
}

static void print_env_value(const mlab_env *e, const mlab_field *fl)
{
    const char *p = (const char *)e + fl->offset;
    if (fl->kind == 's')
        printf("%s", p[0] ? p : "(empty)");
    else if (fl->kind == 'i')
        printf("%d", *(const int *)p);
    else
        put_num(stdout, *(const double *)p, "%.6g");
}

static int env_field_differs(const mlab_env *a, const mlab_env *b, const mlab_field *fl)
{
    const char *p = (const char *)a + fl->offset, *q = (const char *)b + fl->offset;
    if (fl->kind == 's')
        return strcmp(p, q) != 0;
    if (fl->kind == 'i')
        return *(const int *)p != *(const int *)q;
    double x = *(const double *)p, y = *(const double *)q;
    return !(x == y || (isnan(x) && isnan(y)));
}

/* "12.3 [12.1, 12.6]" or "not timed" */
static void fmt_median(char *buf, size_t size, const mlab_row *r)
{
    if (r->nsamples == 0 || !(r->median_us > 0))
        snprintf(buf, size, "not timed");
    else
        snprintf(buf, size, "%.4g [%.4g, %.4g]", r->median_us, r->q1_us, r->q3_us);
}

int mlab_cmd_compare(int argc, char **argv)
{
    const char *cmd = "compare", *paths[2] = {NULL, NULL};
    int force = 0, npaths = 0;
    mlab_cmp_opts opt;
    mlab_cmp_opts_default(&opt);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (is_help(a)) {
            compare_usage(stdout);
            return MLAB_EXIT_OK;
        } else if (strcmp(a, "--force") == 0) {
            force = 1;
        } else if (strcmp(a, "--alpha") == 0 || strcmp(a, "--threshold") == 0 ||
                   strcmp(a, "--drift") == 0) {
            double x;
            if (!(v = mlab_arg_value(cmd, argc, argv, &i)) || mlab_arg_double(cmd, a, v, &x))
                return MLAB_EXIT_USAGE;
            if (strcmp(a, "--alpha") == 0) {
                if (!(x > 0 && x < 1))
                    return err(cmd, MLAB_EXIT_USAGE, "--alpha: %g is not in (0, 1)", x);
                opt.alpha = x;
            } else if (strcmp(a, "--threshold") == 0) {
                if (!(x >= 0 && x < 10))
                    return err(cmd, MLAB_EXIT_USAGE, "--threshold: %g is not in [0, 10)", x);
                opt.threshold = x;
            } else {
                if (!(x >= 1))
                    return err(cmd, MLAB_EXIT_USAGE, "--drift: %g is not >= 1", x);
                opt.drift_factor = x;
            }
        } else if (a[0] == '-' && a[1]) {
            compare_usage(stderr);
            return err(cmd, MLAB_EXIT_USAGE, "unknown option '%s'", a);
        } else if (npaths < 2) {
            paths[npaths++] = a;
        } else {
            return err(cmd, MLAB_EXIT_USAGE, "two results files, OLD and NEW ('%s' is a third)", a);
        }
    }
    if (npaths != 2) {
        compare_usage(stderr);
        return MLAB_EXIT_USAGE;
    }

    mlab_results o, n;
    int rc = load(cmd, paths[0], &o);
    if (rc)
        return rc;
    rc = load(cmd, paths[1], &n);
    if (rc) {
        mlab_results_free(&o);
        return rc;
    }
    char *used = calloc(n.nrows + 1, 1), *oused = calloc(o.nrows + 1, 1);
    double *ratios = malloc((o.nrows + 1) * sizeof *ratios);
    double *olds = malloc((o.nrows + 1) * sizeof *olds);
    double *news = malloc((o.nrows + 1) * sizeof *news);
    if (!used || !oused || !ratios || !olds || !news) {
        rc = err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        goto out;
    }

    if (strcmp(o.env.gpu_name, n.env.gpu_name) != 0) {
        if (!force) {
            rc = err(cmd, MLAB_EXIT_DIFFERENT,
                     "different GPU models: '%s' (%s) vs '%s' (%s): times are not comparable "
                     "(--force compares anyway)",
                     o.env.gpu_name, paths[0], n.env.gpu_name, paths[1]);
            goto out;
        }
        printf("warning: different GPU models ('%s' vs '%s'), compared because of --force\n",
               o.env.gpu_name, n.env.gpu_name);
    }

    printf("OLD %s: %s, %s, commit %.12s%s, %s\n", paths[0],
           o.env.gpu_name[0] ? o.env.gpu_name : "no GPU", o.env.runtime_version,
           o.env.git_commit, o.env.git_dirty ? "-dirty" : "", o.env.utc_time);
    printf("NEW %s: %s, %s, commit %.12s%s, %s\n", paths[1],
           n.env.gpu_name[0] ? n.env.gpu_name : "no GPU", n.env.runtime_version,
           n.env.git_commit, n.env.git_dirty ? "-dirty" : "", n.env.utc_time);
    size_t nef, ndiff = 0;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t k = 0; k < nef; k++)
        if (env_field_differs(&o.env, &n.env, &ef[k])) {
            if (ndiff++ == 0)
                printf("environment differences (OLD -> NEW):\n");
            printf("  %s: ", ef[k].name);
            print_env_value(&o.env, &ef[k]);
            printf(" -> ");
            print_env_value(&n.env, &ef[k]);
            printf("\n");
        }
    if (ndiff == 0)
        printf("environment: no differences\n");
    printf("test: two-sided Mann-Whitney U, alpha %g, threshold %.3g%%, >= %d samples a side\n\n",
           opt.alpha, 100 * opt.threshold, MLAB_MWU_MIN_SAMPLES);

    /* column widths */
    int wc = 4, wv = 7;
    for (size_t i = 0; i < o.nrows; i++) {
        int lc = (int)strlen(o.rows[i].case_name), lv = (int)strlen(o.rows[i].variant);
        wc = lc > wc ? lc : wc;
        wv = lv > wv ? lv : wv;
    }
    printf("%-*s  %-*s  %-26s  %-26s  %8s  %-23s  %s\n", wc, "case", wv, "variant",
           "old median [q1, q3] us", "new median [q1, q3] us", "change", "p-value", "verdict");

    size_t npairs = 0, nratio = 0, counts[4] = {0, 0, 0, 0}, nacc = 0, nonly_old = 0;
    size_t nuntimed = 0; /* pairs timed on neither side (CPU reference rows) */
    for (size_t i = 0; i < o.nrows; i++) {
        const mlab_row *ro = &o.rows[i];
        const mlab_row *rn = find_row(&n, ro->case_name, ro->variant, used);
        if (!rn) {
            nonly_old++;
            continue;
        }
        used[rn - n.rows] = 1;
        oused[i] = 1;
        npairs++;
        mlab_timing_cmp tc;
        if (mlab_compare_timing(ro, rn, &opt, &tc)) {
            rc = err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
            goto out;
        }
        int untimed = !gpu_timed(ro) && !gpu_timed(rn);
        if (untimed)
            nuntimed++;
        else
            counts[tc.verdict]++;
        char why[256], mo[64], mn[64], ch[32], pv[40];
        int drift = mlab_accuracy_drift(ro, rn, &opt, why, sizeof why);
        nacc += drift;
        fmt_median(mo, sizeof mo, ro);
        fmt_median(mn, sizeof mn, rn);
        if (isfinite(tc.change) && !untimed) {
            snprintf(ch, sizeof ch, "%+.2f%%", 100 * tc.change);
            ratios[nratio] = rn->median_us / ro->median_us;
            olds[nratio] = ro->median_us;
            news[nratio] = rn->median_us;
            nratio++;
        } else {
            snprintf(ch, sizeof ch, "n/a");
        }
        if (tc.tested)
            snprintf(pv, sizeof pv, "%.3g", tc.mw.p);
        else
            snprintf(pv, sizeof pv, "n/a (%s)", tc.why);
        printf("%-*s  %-*s  %-26s  %-26s  %8s  %-23s  ", wc, ro->case_name, wv, ro->variant, mo, mn,
               ch, pv);
        if (drift)
            printf("accuracy-regression (timing: %s)\n    accuracy: %s\n",
                   mlab_verdict_name(tc.verdict), why);
        else if (untimed)
            printf("-\n");
        else if (tc.tested)
            printf("%s (%s)\n", mlab_verdict_name(tc.verdict), tc.why);
        else
            printf("%s\n", mlab_verdict_name(tc.verdict));
    }
    if (nratio > 0) {
        double g = mlab_geomean(ratios, nratio);
        char go[64], gn[64], ch[32];
        snprintf(go, sizeof go, "%.4g", mlab_geomean(olds, nratio));
        snprintf(gn, sizeof gn, "%.4g", mlab_geomean(news, nratio));
        snprintf(ch, sizeof ch, "%+.2f%%", 100 * (g - 1));
        printf("%-*s  %-*s  %-26s  %-26s  %8s  (geometric mean of new/old medians, %zu pairs)\n",
               wc, "geomean", wv, "", go, gn, ch, nratio);
    }
    if (nonly_old) {
        printf("\nonly in OLD (%zu):", nonly_old);
        for (size_t i = 0; i < o.nrows; i++)
            if (!oused[i])
                printf(" %s/%s", o.rows[i].case_name, o.rows[i].variant);
        printf("\n");
    }
    size_t nonly_new = 0;
    for (size_t i = 0; i < n.nrows; i++)
        nonly_new += !used[i];
    if (nonly_new) {
        printf("%sonly in NEW (%zu):", nonly_old ? "" : "\n", nonly_new);
        for (size_t i = 0; i < n.nrows; i++)
            if (!used[i])
                printf(" %s/%s", n.rows[i].case_name, n.rows[i].variant);
        printf("\n");
    }
    int regression = counts[MLAB_SLOWER] > 0 || nacc > 0;
    printf("\nsummary: %zu pairs: %zu same, %zu faster, %zu slower, %zu unclear",
           npairs, counts[MLAB_SAME], counts[MLAB_FASTER], counts[MLAB_SLOWER],
           counts[MLAB_UNCLEAR]);
    if (nuntimed)
        printf(", %zu not compared (CPU reference or not timed)", nuntimed);
    printf("; %zu accuracy regressions -> %s (exit %d)\n", nacc,
           regression ? "REGRESSION" : "no regression",
           regression ? MLAB_EXIT_REGRESSION : MLAB_EXIT_OK);
    rc = regression ? MLAB_EXIT_REGRESSION : MLAB_EXIT_OK;
out:
    free(used);
    free(oused);
    free(ratios);
    free(olds);
    free(news);
    mlab_results_free(&o);
    mlab_results_free(&n);
    return rc;
}

/* ---- plot ------------------------------------------------------------------- */

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
        return err(cmd, MLAB_EXIT_IO, "%s: cannot read the gnuplot script (set MLAB_PLOTS_DIR)",
                   script);
    snprintf(final, sizeof final, "%s/%s.%s.%s", c->out_dir, c->stem, kind, c->fmt);
    if (out_check(cmd, final, NULL))
        return MLAB_EXIT_USAGE;
    if (mlab_atomic_begin(final, tmp, sizeof tmp) != 0)
        return err(cmd, MLAB_EXIT_IO, "%s: path too long", final);
    gp_str(q, sizeof q, tmp);
    gp_str(qd, sizeof qd, data);
    int len = snprintf(assign, sizeof assign, "data=%s; out=%s; fmt='%s'; %s; %s", qd, q,
                       c->fmt, c->title_vars, vars);
    if (len < 0 || (size_t)len >= sizeof assign)
        return err(cmd, MLAB_EXIT_USAGE, "too many cases or variants for one gnuplot command");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return err(cmd, MLAB_EXIT_INTERNAL, "fork: %s", strerror(errno));
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
        return err(cmd, MLAB_EXIT_INTERNAL, "gnuplot failed on %s (%s %d); its messages are above",
                   script, WIFEXITED(status) ? "exit" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
    char why[1024];
    int rc = mlab_atomic_commit(tmp, final, why, sizeof why);
    if (rc)
        return err(cmd, rc, "%s", why);
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
            if (strcmp(w->case_name, (*cases)[c]) || !gpu_timed(w))
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
                int timed = gpu_timed(w);
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
            if (!in_list(cf, ncf, w->case_name) || !in_list(vf, nvf, w->variant) || !gpu_timed(w))
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
            if (in_list(cf, ncf, w->case_name) && in_list(vf, nvf, w->variant) && gpu_timed(w) &&
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
                if (strcmp(s1, (*series)[s]) || !gpu_timed(w))
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
        return err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (is_help(a)) {
            plot_usage(stdout);
            goto done;
        } else if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) {
            if (!(out_dir = mlab_arg_value(cmd, argc, argv, &i))) {
                rc = MLAB_EXIT_USAGE;
                goto done;
            }
        } else if (strcmp(a, "--format") == 0) {
            if (!(format = mlab_arg_value(cmd, argc, argv, &i))) {
                rc = MLAB_EXIT_USAGE;
                goto done;
            }
            if (strcmp(format, "png") && strcmp(format, "svg") && strcmp(format, "both")) {
                rc = err(cmd, MLAB_EXIT_USAGE, "--format: '%s' is not png, svg or both", format);
                goto done;
            }
        } else if (strcmp(a, "--if-available") == 0) {
            if_available = 1;
        } else if (strcmp(a, "--keep-data") == 0) {
            keep = 1;
        } else if (strcmp(a, "--history") == 0) {
            want_history = 1;
            while (i + 1 < argc && argv[i + 1][0] != '-')
                hist[nhist++] = argv[++i];
        } else if (strcmp(a, "--cases") == 0 || strcmp(a, "--variants") == 0) {
            if (!(v = mlab_arg_value(cmd, argc, argv, &i))) {
                rc = MLAB_EXIT_USAGE;
                goto done;
            }
            if (split_list(v, a[2] == 'c' ? &cf : &vf, a[2] == 'c' ? &ncf : &nvf) < 0) {
                rc = err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
                goto done;
            }
        } else if (a[0] == '-' && a[1]) {
            plot_usage(stderr);
            rc = err(cmd, MLAB_EXIT_USAGE, "unknown option '%s'", a);
            goto done;
        } else if (!in) {
            in = a;
        } else {
            rc = err(cmd, MLAB_EXIT_USAGE, "one RESULTS file ('%s'; more runs go after --history)", a);
            goto done;
        }
    }
    if (!in) {
        plot_usage(stderr);
        rc = MLAB_EXIT_USAGE;
        goto done;
    }
    if ((ncf || nvf) && !want_history) {
        rc = err(cmd, MLAB_EXIT_USAGE, "--cases and --variants choose the series of --history");
        goto done;
    }

    char gnuplot[4096];
    find_gnuplot(gnuplot, sizeof gnuplot);
    if (!gnuplot[0]) {
        if (if_available) {
            printf("gnuplot not found: plots skipped\n");
            goto done;
        }
        rc = err(cmd, MLAB_EXIT_IO,
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
        rc = err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        goto done;
    }
    runs[0].path = in;
    if ((rc = load(cmd, in, &runs[0].r)))
        goto free_runs;
    nr = 1;
    for (int k = 0; k < nhist; k++) {
        int dup = strcmp(hist[k], in) == 0;
        for (int j = 1; j < nr; j++)
            dup |= strcmp(hist[k], runs[j].path) == 0;
        if (dup)
            continue;
        runs[nr].path = hist[k];
        if ((rc = load(cmd, hist[k], &runs[nr].r)))
            goto free_runs;
        nr++;
    }
    const mlab_results *r = &runs[0].r;

    char dirbuf[4096], stem[1024];
    if (!out_dir) {
        dir_of(in, dirbuf, sizeof dirbuf);
        out_dir = dirbuf;
    }
    struct stat st;
    if (stat(out_dir, &st) != 0) {
        if (mkdir(out_dir, 0777) != 0) {
            rc = err(cmd, MLAB_EXIT_IO, "%s: cannot create the folder: %s", out_dir, strerror(errno));
            goto free_runs;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        rc = err(cmd, MLAB_EXIT_IO, "%s: not a folder", out_dir);
        goto free_runs;
    }
    stem_of(in, stem, sizeof stem);
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
        rc = err(cmd, MLAB_EXIT_USAGE, "%s: path too long", out_dir);
        data[0] = 0;
        goto free_runs;
    }
    FILE *f = fopen(data, "w");
    int ntimed = 0, nerr = 0, nv_gpu = 0;
    if (!f) {
        rc = err(cmd, MLAB_EXIT_IO, "%s: cannot create: %s", data, strerror(errno));
        data[0] = 0;
        goto free_runs;
    }
    int bad = write_plot_data(f, r, &cases, &nc, &vars, &nv, &nv_gpu, &ntimed, &nerr);
    if (fclose(f) != 0 || bad) {
        rc = err(cmd, MLAB_EXIT_IO, "%s: write error", data);
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
            rc = err(cmd, MLAB_EXIT_USAGE, "%s: path too long", out_dir);
            hdata[0] = 0;
            goto free_runs;
        }
        f = fopen(hdata, "w");
        if (!f) {
            rc = err(cmd, MLAB_EXIT_IO, "%s: cannot create: %s", hdata, strerror(errno));
            hdata[0] = 0;
            goto free_runs;
        }
        bad = write_history_data(f, runs, nr, cf, ncf, vf, nvf, &series, &ns);
        if (fclose(f) != 0 || bad) {
            rc = err(cmd, MLAB_EXIT_IO, "%s: write error", hdata);
            goto free_runs;
        }
        if (ns == 0) {
            rc = err(cmd, MLAB_EXIT_USAGE, "--history: no timed (case, variant) matches "
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

/* ---- report ------------------------------------------------------------------- */

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

/* Markdown table cell: '|' escaped, newlines flattened. */
static void md(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void md_num(FILE *f, double v, const char *fmt)
{
    if (isnan(v))
        fputs("-", f);
    else
        put_num(f, v, fmt);
}

static void write_report(FILE *f, const char *in, const mlab_results *r, const char *plots_dir,
                         const char *link_dir)
{
    char stem[1024];
    stem_of(in, stem, sizeof stem);
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
    char **cases = NULL;
    int nc = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (intern(&cases, &nc, r->rows[i].case_name) < 0)
            break;
    for (int c = 0; c < nc; c++) {
        const mlab_row *first = NULL;
        for (size_t i = 0; i < r->nrows && !first; i++)
            if (strcmp(r->rows[i].case_name, cases[c]) == 0)
                first = &r->rows[i];
        fprintf(f, "\n### ");
        md(f, cases[c]);
        fprintf(f, " (batch %d, q_seq_len %d, kv_len %d)\n\n", first->batch, first->q_seq_len,
                first->kv_len);
        fprintf(f, "| variant | KV | valid | samples (stop) | median us | IQR us | GB/s | "
                   "%% copy bw | TFLOP/s | kernel rel_rms | total rel_rms | max abs |\n"
                   "| --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (size_t i = 0; i < r->nrows; i++) {
            const mlab_row *w = &r->rows[i];
            if (strcmp(w->case_name, cases[c]) != 0)
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
    free_list(cases, nc);

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
    char **tols = NULL;
    int nt = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].kernel_tol[0] && intern(&tols, &nt, r->rows[i].kernel_tol) < 0)
            break;
    for (int t = 0; t < nt; t++) {
        const mlab_tol *tol = mlab_tol_find(tols[t]);
        fprintf(f, "| ");
        md(f, tols[t]);
        if (tol) {
            fprintf(f, " | %.4g | %.4g | %.4g | ", tol->rtol, tol->atol, tol->max_rel_rms);
            md(f, tol->reason);
            fprintf(f, " |\n");
        } else {
            fprintf(f, " | - | - | - | not in this build's table |\n");
        }
    }
    if (nt == 0)
        fprintf(f, "| (none: no row was validated) | | | | |\n");
    free_list(tols, nt);
}

int mlab_cmd_report(int argc, char **argv)
{
    const char *cmd = "report", *in = NULL, *out = NULL, *plots = NULL;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            report_usage(stdout);
            return MLAB_EXIT_OK;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (!(out = mlab_arg_value(cmd, argc, argv, &i)))
                return MLAB_EXIT_USAGE;
        } else if (strcmp(argv[i], "--plots") == 0) {
            if (!(plots = mlab_arg_value(cmd, argc, argv, &i)))
                return MLAB_EXIT_USAGE;
        } else if (take_input(cmd, argv[i], &in, report_usage) != MLAB_EXIT_OK) {
            return MLAB_EXIT_USAGE;
        }
    }
    mlab_results r;
    int rc = out_check(cmd, out, in);
    if (rc || (rc = load_input(cmd, in, &r, report_usage)))
        return rc;
    char pdir[4096], rdir[4096];
    if (plots)
        snprintf(pdir, sizeof pdir, "%s", plots);
    else
        dir_of(in, pdir, sizeof pdir);
    /* links relative to the report: bare names when the figures sit beside
     * it, else the folder as given */
    dir_of(out && strcmp(out, "-") ? out : "./x", rdir, sizeof rdir);
    const char *link_dir = strcmp(rdir, pdir) == 0 ? NULL : pdir;
    outfile o;
    rc = out_open(cmd, &o, out);
    if (rc == MLAB_EXIT_OK) {
        write_report(o.f, in, &r, pdir, link_dir);
        rc = out_close(cmd, &o, 1);
    }
    mlab_results_free(&r);
    return rc;
}
