/* cmd_history.c: `mlabench history R1.h5 R2.h5 ... | DIR` (commands.h): how
 * each (case, variant) moved over several runs, relative to the first run
 * that has it. Runs in the order given, or by label (--by-label); a folder
 * means its *.h5 files by name. A table on stdout (the first run's median
 * in us, then median / that for every later run, and the geometric mean
 * per variant), and one figure per KV format (plots/history.gp), so no
 * figure carries more than MAX_LINES lines (a format with more is left out,
 * saying so); --cases and --variants filter.
 * Fewer than two runs are refused: a history of one run says nothing.
 * The table's index of the runs' rows: history_index.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "exitcodes.h"
#include "history_index.h" /* mlab_hist_* */
#include "results_cli.h" /* mlab_cli_*, mlab_runs_load, mlab_tidy_write, mlab_gnuplot_* */
#include "results_gnuplot.h" /* mlab_gnuplot_* */
#include "results_tidy.h"    /* mlab_tidy_write */
#include "stats.h"       /* mlab_geomean */

#define MAX_LINES 32 /* (variant, case) lines in one figure */
#define MAX_RUNS 64  /* runs the scripts name (their arrays) */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench history R1.h5 R2.h5 ... | DIR [--by-label] [--cases C1,C2]\n"
            "                        [--variants V1,V2] [--out DIR] [--format png|svg|both]\n"
            "                        [--no-plot] [--if-available] [--keep-data]\n"
            "  How each (case, variant) moved over runs, relative to the first run that\n"
            "  has it. Runs in the order given; DIR means its *.h5 files ordered by name;\n"
            "  --by-label orders them by their label (run --label; numbers inside compare\n"
            "  as numbers: rocm-6.4 < rocm-6.10 < rocm-7.0), every run needing one.\n"
            "  Prints a table: per GPU or peer row, the first run's median (us) and\n"
            "  median / that in every later run (\"-\" where the row is missing), then\n"
            "  the geometric mean per variant of those ratios in each run. The runs are\n"
            "  listed first; under a run of another kernel build than the first run's,\n"
            "  the words of kernel_knobs or gpu_compile_flags that differ.\n"
            "  Figures (gnuplot, into DIR, default the first file's folder):\n"
            "    history.KV.FMT   one per KV format (bf16, fp8, mxfp4): a line per\n"
            "                     variant and case, colour by variant, marker by case;\n"
            "                     at most %d lines a figure (a format with more is left\n"
            "                     out, saying so: choose with --cases or --variants)\n"
            "  The data is `mlabench export --order series` of the runs, DIR/history.csv,\n"
            "  removed afterwards unless --keep-data (gnuplot -c plots/history.gp\n"
            "  DIR/history.csv OUT.png png fp8 redraws one).\n"
            "  --no-plot        the table only\n"
            "  --if-available   without gnuplot, the table only and exit 0\n"
            "exit codes: 0 ok, 2 usage (fewer than two runs, a run without a label with\n"
            "  --by-label, too many lines for one figure), 3 not a results file, 4 cannot\n"
            "  read/write or gnuplot not found, 1 gnuplot failed\n",
            MAX_LINES);
}

/* Natural order: runs of digits compare as numbers. */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            char *ea, *eb;
            unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
            if (x != y)
                return x < y ? -1 : 1;
            a = ea;
            b = eb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int by_label(const void *x, const void *y)
{
    const mlab_run_file *a = x, *b = y;
    return natural_cmp(a->r.env.label, b->r.env.label);
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The *.h5 files of a folder, by name; -1 out of memory */
static int list_folder(const char *dir, char ***out, int *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return -2;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) && rc == 0) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".h5") != 0)
            continue;
        char **g = realloc(*out, (size_t)(*n + 1) * sizeof *g);
        size_t need = strlen(dir) + l + 2;
        if (!g || !(g[*n] = malloc(need))) {
            if (g)
                *out = g;
            rc = -1;
            break;
        }
        *out = g;
        snprintf(g[*n], need, "%s/%s", dir, e->d_name);
        (*n)++;
    }
    closedir(d);
    if (rc == 0)
        qsort(*out, (size_t)*n, sizeof **out, by_name);
    return rc;
}

/* Keep only the rows the filters choose (free the others' samples). */
static void filter_rows(mlab_results *r, const mlab_strlist *cases, const mlab_strlist *vars)
{
    size_t k = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const mlab_row *w = &r->rows[i];
        int keep = (!cases->n || mlab_strlist_find(cases, w->case_name) >= 0) &&
                   (!vars->n || mlab_strlist_find(vars, w->variant) >= 0);
        if (keep)
            r->rows[k++] = r->rows[i];
        else
            free(r->rows[i].samples_us);
    }
    r->nrows = k;
}

static void run_name(const mlab_run_file *run, char *buf, size_t size)
{
    if (run->r.env.label[0])
        snprintf(buf, size, "%s", run->r.env.label);
    else
        mlab_path_stem(run->path, buf, size);
}

/* by_pair[j] is a row of first's (case, variant) */
static int of_pair(const mlab_hist_index *x, size_t j, const mlab_row *first)
{
    return j < x->n && !mlab_row_key_cv(x->by_pair[j].w, first->case_name, first->variant);
}

/* The table; returns the number of series (timed GPU/peer rows). */
static int print_table(const mlab_run_file *runs, int n, mlab_hist_index *x)
{
    int wk = 12, wr = 9;
    char key[160];
    for (int s = 0; s < x->nkeys; s++) {
        const mlab_row *w = x->rows[x->key_row[s]].w;
        snprintf(key, sizeof key, "%s/%s", w->case_name, w->variant);
        wk = (int)strlen(key) > wk ? (int)strlen(key) : wk;
    }
    char name[96];
    for (int k = 0; k < n; k++) {
        run_name(&runs[k], name, sizeof name);
        wr = (int)strlen(name) > wr ? (int)strlen(name) : wr;
    }
    printf("runs:\n");
    /* a run of another build of the kernels (an A/B's knobs, other compile
     * flags): what differs from the first run's, word by word */
    static const char *const build_fields[] = {"kernel_knobs", "gpu_compile_flags"};
    size_t nef;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (int k = 0; k < n; k++) {
        const mlab_env *e = &runs[k].r.env;
        run_name(&runs[k], name, sizeof name);
        printf("  %d %s: %s, %s, %s, commit %.12s%s, %s\n", k + 1, name, runs[k].path,
               e->gpu_name[0] ? e->gpu_name : "no GPU", e->runtime_version, e->git_commit,
               e->git_dirty ? "-dirty" : "", e->utc_time);
        for (int b = 0; k > 0 && b < 2; b++) {
            const mlab_field *fl = mlab_field_find(ef, nef, build_fields[b]);
            if (!fl || !mlab_field_differs(&runs[0].r.env, e, fl))
                continue;
            printf("      %s (run 1 -> this): ", fl->name);
            mlab_put_field_change(stdout, &runs[0].r.env, e, fl);
            putchar('\n');
        }
    }
    printf("\nmedian in the first run that has the row (us), then median / that:\n");
    printf("%-*s  %10s", wk, "case/variant", "first us");
    for (int k = 0; k < n; k++) {
        run_name(&runs[k], name, sizeof name);
        printf("  %*s", wr, name);
    }
    putchar('\n');
    for (int s = 0; s < x->nkeys; s++) {
        const mlab_row *w0 = x->rows[x->key_row[s]].w;
        char c[160], *slash;
        snprintf(key, sizeof key, "%s/%s", w0->case_name, w0->variant);
        memcpy(c, key, sizeof c);
        slash = strrchr(c, '/');
        *slash = 0;
        /* the rows of (case, variant) split at the key's last '/'; a variant
         * with a '/' of its own, where no row is so named, its own (the scan
         * found none and the table read through NULL) */
        size_t j = mlab_hist_pair_first(x, c, slash + 1);
        if (j == x->n)
            j = mlab_hist_pair_first(x, w0->case_name, w0->variant);
        const mlab_row *first = x->by_pair[j].w;
        printf("%-*s  %10.4g", wk, key, first->median_us);
        for (int k = 0; k < n; k++) { /* by_pair[j..]: the pair's rows by run, each in file order */
            while (of_pair(x, j, first) && x->by_pair[j].run < k)
                j++;
            if (of_pair(x, j, first) && x->by_pair[j].run == k)
                printf("  %*.3f", wr, x->by_pair[j].w->median_us / first->median_us);
            else
                printf("  %*s", wr, "-");
        }
        putchar('\n');
    }
    /* geometric mean per variant of the ratios above: each row against the
     * first run that has it (not run 1's alone: a variant run 1 lacks had
     * no mean at all) */
    printf("\ngeometric mean per variant of the ratios above (each row against the first run that has it):\n");
    for (int v = 0; v < x->nvars; v++) {
        printf("%-*s  %10s", wk, x->rows[x->var_row[v]].w->variant, "");
        size_t i = x->var_start[v];
        for (int k = 0; k < n; k++) {
            size_t m = 0;
            for (; i < x->var_start[v + 1] && x->rows[x->by_var[i]].run == k; i++)
                x->ratio[m++] = x->rows[x->by_var[i]].w->median_us / x->first_us[x->by_var[i]];
            if (m)
                printf("  %*.3f", wr, mlab_geomean(x->ratio, m));
            else
                printf("  %*s", wr, "-");
        }
        putchar('\n');
    }
    return x->nkeys;
}

int mlab_cmd_history(int argc, char **argv)
{
    const char *cmd = "history", *out_dir = NULL, *format = "png";
    int sort_label = 0, no_plot = 0, if_available = 0, keep = 0, c;
    mlab_strlist cases = {0}, vars = {0};
    mlab_hist_index x = {0};
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},          {"by-label", no_argument, NULL, 'L'},
        {"cases", required_argument, NULL, 'c'},   {"variants", required_argument, NULL, 'v'},
        {"out", required_argument, NULL, 'o'},     {"format", required_argument, NULL, 'F'},
        {"no-plot", no_argument, NULL, 'N'},       {"if-available", no_argument, NULL, 'A'},
        {"keep-data", no_argument, NULL, 'k'},     {NULL, 0, NULL, 0}};
    int rc = MLAB_EXIT_OK;
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        switch (c) {
        case 'h': usage(stdout); goto free_filters;
        case 'L': sort_label = 1; break;
        case 'c':
        case 'v':
            if (mlab_strlist_split(c == 'c' ? &cases : &vars, optarg) < 0) {
                rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
                goto free_filters;
            }
            break;
        case 'o': out_dir = optarg; break;
        case 'F':
            format = optarg;
            if (strcmp(format, "png") && strcmp(format, "svg") && strcmp(format, "both")) {
                rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--format: '%s' is not png, svg or both",
                                  format);
                goto free_filters;
            }
            break;
        case 'N': no_plot = 1; break;
        case 'A': if_available = 1; break;
        case 'k': keep = 1; break;
        default: usage(stderr); rc = MLAB_EXIT_USAGE; goto free_filters;
        }
    }

    /* the runs: files as given, or a folder's *.h5 by name */
    char **listed = NULL;
    int nlisted = 0;
    const char *const *paths = (const char *const *)argv + optind;
    int n = argc - optind;
    struct stat st;
    if (n == 1 && stat(argv[optind], &st) == 0 && S_ISDIR(st.st_mode)) {
        int lr = list_folder(argv[optind], &listed, &nlisted);
        if (lr) {
            rc = lr == -2 ? mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot read the folder", argv[optind])
                          : mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
            goto free_list;
        }
        paths = (const char *const *)listed;
        n = nlisted;
    }
    if (n < 2) {
        usage(stderr);
        rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                          "a history needs at least two runs (got %d)", n);
        goto free_list;
    }
    if (n > MAX_RUNS) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE, "%d runs: at most %d", n, MAX_RUNS);
        goto free_list;
    }
    mlab_run_file *runs;
    if ((rc = mlab_runs_load(cmd, paths, n, &runs)))
        goto free_list;
    if (sort_label) {
        for (int k = 0; k < n; k++)
            if (!runs[k].r.env.label[0]) {
                rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                                  "--by-label: %s has no label (mlabench run --label L)",
                                  runs[k].path);
                goto free_runs;
            }
        qsort(runs, (size_t)n, sizeof *runs, by_label);
    }
    for (int k = 0; k < n; k++)
        filter_rows(&runs[k].r, &cases, &vars);
    if (mlab_hist_index_build(&x, runs, n)) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        goto free_runs;
    }
    if (print_table(runs, n, &x) == 0) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                          "no timed GPU row in the %d runs matches --cases/--variants", n);
        goto free_runs;
    }
    if (no_plot)
        goto free_runs;

    /* one figure per KV format, each with at most MAX_LINES lines: a format
     * with more is left out with a line saying how to choose (the table,
     * the command's answer, is printed: no error for the figure) */
    mlab_strlist fmts = {0}, drawn = {0}; /* every timed row's format; those with a figure */
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++)
            if (mlab_row_timed(&runs[k].r.rows[i]))
                mlab_strlist_add(&fmts, runs[k].r.rows[i].kv_format);
    for (int f = 0; f < fmts.n; f++) {
        const int nl = mlab_hist_format_lines(&x, fmts.s[f], f);
        if (nl > MAX_LINES)
            printf("%s: %d (case, variant) lines, more than %d can be read in one figure: figure left out "
                   "(choose with --cases or --variants)\n", fmts.s[f], nl, MAX_LINES);
        else
            mlab_strlist_add(&drawn, fmts.s[f]);
    }
    const int ndrawn = drawn.n;
    char gnuplot[4096] = "", dir[4096], data[8192] = "";
    if (rc == MLAB_EXIT_OK && ndrawn) {
        mlab_gnuplot_find(gnuplot, sizeof gnuplot);
        if (!gnuplot[0]) {
            if (if_available)
                printf("gnuplot not found: figures skipped\n");
            else
                rc = mlab_cli_err(cmd, MLAB_EXIT_IO, "gnuplot not found on PATH (install "
                                                     "gnuplot-nox; --if-available or --no-plot "
                                                     "skip the figures)");
        }
    }
    if (rc == MLAB_EXIT_OK && ndrawn && gnuplot[0]) {
        if (out_dir)
            snprintf(dir, sizeof dir, "%s", out_dir);
        else
            mlab_path_dir(runs[0].path, dir, sizeof dir);
        snprintf(data, sizeof data, "%s/history.csv", dir);
        mlab_outfile o;
        if ((rc = mlab_make_dir(cmd, dir)) == MLAB_EXIT_OK &&
            (rc = mlab_out_open(cmd, &o, data)) == MLAB_EXIT_OK) {
            int bad = mlab_tidy_write(o.f, runs, n, MLAB_FMT_GPCSV, 1) != 0;
            rc = mlab_out_close(cmd, &o, !bad);
            if (bad && !rc)
                rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        }
        static const char *ext[2] = {"png", "svg"};
        int f0 = strcmp(format, "svg") == 0, f1 = strcmp(format, "png") != 0;
        printf("\n");
        for (int f = 0; f < drawn.n && rc == MLAB_EXIT_OK; f++)
            for (int e = f0; e <= f1 && rc == MLAB_EXIT_OK; e++) {
                char fig[8192];
                snprintf(fig, sizeof fig, "%s/history.%s.%s", dir, drawn.s[f], ext[e]);
                rc = mlab_gnuplot_run(cmd, gnuplot, "history", data, fig, ext[e], drawn.s[f]);
            }
        if (!keep)
            unlink(data);
    }
    mlab_strlist_free(&fmts);
    mlab_strlist_free(&drawn);
free_runs:
    mlab_hist_index_free(&x);
    mlab_runs_free(runs, n);
free_list:
    for (int k = 0; k < nlisted; k++)
        free(listed[k]);
    free(listed);
free_filters:
    mlab_strlist_free(&cases);
    mlab_strlist_free(&vars);
    return rc;
}
