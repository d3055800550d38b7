/* results_cli.c: the helpers the results subcommands share (results_cli.h). */
#include "results_cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../reference/case.h"    /* MLAB_DQK, MLAB_HEADS */
#include "../reference/metrics.h" /* mlab_tol_find */
#include "../variants/variants.h" /* mlab_variant_find: a variant's parent */
#include "exitcodes.h"            /* MLAB_EXIT_* */
#include "results_h5.h"            /* mlab_results_read, mlab_atomic_begin/commit */

#ifndef MLAB_PLOTS_DIR
#define MLAB_PLOTS_DIR "plots"
#endif

int mlab_cli_err(const char *cmd, int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mlabench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

void mlab_cli_getopt_reset(void)
{
    optind = 0; /* glibc: 0 re-initializes the scan completely */
    opterr = 0;
}

int mlab_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
                    const struct option *longopts)
{
    char spec[64];
    snprintf(spec, sizeof spec, ":%s", shortopts); /* ':' reports a missing value apart */
    int c = getopt_long(argc, argv, spec, longopts, NULL);
    if (c == '?' || c == ':') {
        const char *a = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
        char shortname[3] = {'-', (char)optopt, 0};
        /* for a short option inside a cluster argv[optind - 1] is the cluster */
        const char *name = optopt && strncmp(a, "--", 2) != 0 ? shortname : a;
        if (c == '?')
            mlab_cli_err(cmd, 0, "unknown option '%s' (see --help)", name);
        else
            mlab_cli_err(cmd, 0, "%s needs a value", name);
        return '?';
    }
    return c;
}

int mlab_cli_load(const char *cmd, const char *path, mlab_results *r)
{
    char why[1024];
    int rc = mlab_results_read(path, r, why, sizeof why);
    if (rc != MLAB_EXIT_OK)
        mlab_cli_err(cmd, rc, "%s", why);
    return rc;
}

int mlab_out_open(const char *cmd, mlab_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return MLAB_EXIT_OK;
    }
    if (!*path)
        return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "an empty output file name");
    o->path = path;
    if (mlab_atomic_begin(path, o->tmp, sizeof o->tmp) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: path too long", path);
    o->f = fopen(o->tmp, "w");
    if (!o->f)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot create %s: %s", path, o->tmp,
                            strerror(errno));
    return MLAB_EXIT_OK;
}

int mlab_out_close(const char *cmd, mlab_outfile *o, int ok)
{
    if (!o->path) {
        if (fflush(stdout) != 0)
            return mlab_cli_err(cmd, MLAB_EXIT_IO, "stdout: %s", strerror(errno));
        return MLAB_EXIT_OK;
    }
    int bad = ferror(o->f) || fflush(o->f) != 0;
    bad |= fclose(o->f) != 0;
    if (!ok || bad) {
        unlink(o->tmp);
        return ok ? mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: write error", o->path) : MLAB_EXIT_OK;
    }
    char why[1024];
    int rc = mlab_atomic_commit(o->tmp, o->path, why, sizeof why);
    return rc ? mlab_cli_err(cmd, rc, "%s", why) : MLAB_EXIT_OK;
}

void mlab_path_stem(const char *path, char *stem, size_t size)
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

void mlab_path_dir(const char *path, char *dir, size_t size)
{
    const char *b = strrchr(path, '/');
    if (!b)
        snprintf(dir, size, ".");
    else if (b == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(b - path), path);
}

int mlab_row_is_cpu(const mlab_row *w)
{
    return strcmp(w->kind, "cpu") == 0;
}

int mlab_row_timed(const mlab_row *w)
{
    return !mlab_row_is_cpu(w) && w->nsamples > 0 && w->samples_us && w->median_us > 0;
}

int mlab_fmt_parse(const char *s)
{
    static const char *names[] = {"text", "csv", "json", "md"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

void mlab_put_num(FILE *f, double v, const char *fmt, mlab_fmt style)
{
    if (style == MLAB_FMT_JSON && !isfinite(v))
        fputs("null", f);
    else if (isnan(v))
        fputs(style == MLAB_FMT_MD ? "-" : "nan", f);
    else if (isinf(v))
        fputs(v > 0 ? "inf" : "-inf", f);
    else
        fprintf(f, fmt, v);
}

void mlab_put_str(FILE *f, const char *s, mlab_fmt style)
{
    switch (style) {
    case MLAB_FMT_GPCSV: /* no quoting at all: gnuplot cuts a quoted value at a comma */
        for (; *s; s++)
            fputc(*s == '"' ? '\'' : *s == ',' ? ';' : (*s == '\n' || *s == '\r') ? ' ' : *s, f);
        return;
    case MLAB_FMT_CSV:
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
        return;
    case MLAB_FMT_JSON:
        fputc('"', f);
        for (; *s; s++) {
            unsigned char c = (unsigned char)*s;
            if (c == '"' || c == '\\')
                fprintf(f, "\\%c", c);
            else if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                fputc(c, f);
        }
        fputc('"', f);
        return;
    case MLAB_FMT_MD:
        for (; *s; s++) {
            if (*s == '|')
                fputs("\\|", f);
            else if (*s == '\n' || *s == '\r')
                fputc(' ', f);
            else
                fputc(*s, f);
        }
        return;
    default:
        fputs(s, f);
    }
}

void mlab_put_field(FILE *f, const void *rec, const mlab_field *fl, mlab_fmt style)
{
    const char *p = (const char *)rec + fl->offset;
    switch (fl->kind) {
    case 's': mlab_put_str(f, p, style); break;
    case 'i': fprintf(f, "%d", *(const int *)p); break;
    case 'z': fprintf(f, "%zu", *(const size_t *)p); break;
    default: mlab_put_num(f, *(const double *)p, "%.9g", style); break;
    }
}

int mlab_field_differs(const void *a, const void *b, const mlab_field *fl)
{
    const char *p = (const char *)a + fl->offset, *q = (const char *)b + fl->offset;
    switch (fl->kind) {
    case 's': return strcmp(p, q) != 0;
    case 'i': return *(const int *)p != *(const int *)q;
    case 'z': return *(const size_t *)p != *(const size_t *)q;
    default: {
        double x = *(const double *)p, y = *(const double *)q;
        return !(x == y || (isnan(x) && isnan(y)));
    }
    }
}

const mlab_field *mlab_field_find(const mlab_field *fl, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(fl[i].name, name) == 0)
            return &fl[i];
    return NULL;
}

int mlab_strlist_find(const mlab_strlist *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->s[i], s) == 0)
            return i;
    return -1;
}

int mlab_strlist_add(mlab_strlist *l, const char *s)
{
    int i = mlab_strlist_find(l, s);
    if (i >= 0)
        return i;
    char **g = realloc(l->s, (size_t)(l->n + 1) * sizeof *g);
    if (!g)
        return -1;
    l->s = g;
    if (!(g[l->n] = strdup(s)))
        return -1;
    return l->n++;
}

int mlab_strlist_split(mlab_strlist *l, const char *csv)
{
    char *dup = strdup(csv), *save = NULL;
    if (!dup)
        return -1;
    int rc = 0;
    for (char *t = strtok_r(dup, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save))
        rc = mlab_strlist_add(l, t) < 0 ? -1 : 0;
    free(dup);
    return rc;
}

void mlab_strlist_free(mlab_strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->s[i]);
    free(l->s);
    l->s = NULL;
    l->n = 0;
}

/* ---- the tidy table ------------------------------------------------------------ */

int mlab_runs_load(const char *cmd, const char *const *paths, int n, mlab_run_file **runs)
{
    *runs = calloc((size_t)n + 1, sizeof **runs);
    if (!*runs)
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
    for (int k = 0; k < n; k++) {
        (*runs)[k].path = paths[k];
        int rc = mlab_cli_load(cmd, paths[k], &(*runs)[k].r);
        if (rc) {
            mlab_runs_free(*runs, k);
            *runs = NULL;
            return rc;
        }
    }
    return MLAB_EXIT_OK;
}

void mlab_runs_free(mlab_run_file *runs, int n)
{
    for (int k = 0; runs && k < n; k++)
        mlab_results_free(&runs[k].r);
    free(runs);
}

double mlab_row_floor_us(const mlab_row *w, const mlab_env *e, const char **kind)
{
    const char *k = "";
    double us = 0;
    if (w->read_limit_us > 0 && isfinite(w->read_limit_us)) {
        k = "read_limit";
        us = w->read_limit_us;
    } else if (!mlab_row_is_cpu(w) && w->bytes > 0 && e->copy_bw_gbs > 0) {
        k = "copy_bw";
        us = w->bytes / (e->copy_bw_gbs * 1e3);
    }
    if (kind)
        *kind = k;
    return us;
}

const char *mlab_row_parent(const mlab_row *w)
{
    if (strcmp(w->kind, "gpu") != 0)
        return "";
    const mlab_variant *v = mlab_variant_find(w->variant);
    return v ? v->parent : "";
}

/* bf16 bytes of a case's tensors: its place on the x axis */
static double case_bytes(const mlab_row *w)
{
    return (double)w->total_kv * MLAB_DQK * 2 + (double)w->total_q * MLAB_HEADS * MLAB_DQK * 2;
}

static int variant_rank(const mlab_row *w)
{
    if (strcmp(w->kind, "gpu") == 0)
        return w->variant_id; /* 0.. */
    if (strcmp(w->kind, "peer") == 0)
        return 1000;
    return 2000 - w->variant_id; /* CPU ids are negative: -1 first */
}

typedef struct {
    const char *name;
    double key;
    int rank;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Distinct names over all runs (cases or variants), ordered by key. */
static keyed *ordered(const mlab_run_file *runs, int n, int variants, int *count)
{
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += runs[k].r.nrows;
    keyed *l = calloc(total + 1, sizeof *l);
    if (!l)
        return NULL;
    int m = 0;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++) {
            const mlab_row *w = &runs[k].r.rows[i];
            const char *name = variants ? w->variant : w->case_name;
            int j = 0;
            while (j < m && strcmp(l[j].name, name) != 0)
                j++;
            if (j == m)
                l[m++] = (keyed){name, variants ? variant_rank(w) : case_bytes(w), 0};
        }
    qsort(l, (size_t)m, sizeof *l, by_key);
    for (int j = 0; j < m; j++)
        l[j].rank = j;
    *count = m;
    return l;
}

static int rank_of(const keyed *l, int m, const char *name)
{
    for (int j = 0; j < m; j++)
        if (strcmp(l[j].name, name) == 0)
            return j;
    return -1;
}

int mlab_ordered_names(const mlab_results *r, int variants, mlab_strlist *out)
{
    mlab_run_file one = {"", *r}; /* a shallow view: read only */
    int m = 0;
    keyed *l = ordered(&one, 1, variants, &m);
    if (!l)
        return -1;
    int rc = 0;
    for (int j = 0; j < m && rc == 0; j++)
        rc = mlab_strlist_add(out, l[j].name) < 0 ? -1 : 0;
    free(l);
    return rc;
}

static const mlab_row *find_in(const mlab_results *r, const char *case_name, const char *variant)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (strcmp(r->rows[i].case_name, case_name) == 0 &&
            strcmp(r->rows[i].variant, variant) == 0)
            return &r->rows[i];
    return NULL;
}

static const char *const tidy_run_cols[] = {"run_index", "file", "label", "date", "gpu",
                                            "runtime", "driver", "commit", "dirty", "backend",
                                            "copy_bw_gbs", "read_bw_gbs"};
static const char *const tidy_row_cols[] = {"case_index", "variant_index", "parent", "timed",
                                            "floor_us", "floor_gbps", "floor_kind",
                                            "ratio_to_floor", "ratio_to_parent", "rel_to_first",
                                            "tol_max_rel_rms"};
#define N_RUN_COLS (sizeof tidy_run_cols / sizeof tidy_run_cols[0])
#define N_ROW_COLS (sizeof tidy_row_cols / sizeof tidy_row_cols[0])

static void cell_sep(FILE *f, mlab_fmt style, int *col, const char *name)
{
    if (style == MLAB_FMT_JSON)
        fprintf(f, "%s\"%s\": ", (*col)++ ? ", " : "", name);
    else if ((*col)++)
        fputc(',', f);
}

static void cell_str(FILE *f, mlab_fmt style, int *col, const char *name, const char *v)
{
    cell_sep(f, style, col, name);
    mlab_put_str(f, v, style);
}

static void cell_num(FILE *f, mlab_fmt style, int *col, const char *name, double v)
{
    cell_sep(f, style, col, name);
    mlab_put_num(f, v, "%.9g", style);
}

static void cell_int(FILE *f, mlab_fmt style, int *col, const char *name, long v)
{
    cell_sep(f, style, col, name);
    fprintf(f, "%ld", v);
}

typedef struct {
    int k, c, v;
    size_t i;
} line_ref;

static int by_series(const void *a, const void *b)
{
    const line_ref *x = a, *y = b;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int mlab_tidy_write(FILE *f, const mlab_run_file *runs, int n, mlab_fmt style, int series_order)
{
    int nc = 0, nv = 0;
    keyed *cases = ordered(runs, n, 0, &nc), *vars = ordered(runs, n, 1, &nv);
    if (!cases || !vars) {
        free(cases);
        free(vars);
        return -1;
    }
    size_t nrf;
    const mlab_field *rf = mlab_row_fields(&nrf);
    const int json = style == MLAB_FMT_JSON;
    if (json) {
        fprintf(f, "{\"format\": \"mlabench-export\", \"columns\": [");
        for (size_t k = 0; k < N_RUN_COLS + N_ROW_COLS + nrf; k++)
            fprintf(f, "%s\"%s\"", k ? ", " : "",
                    k < N_RUN_COLS                ? tidy_run_cols[k]
                    : k < N_RUN_COLS + N_ROW_COLS ? tidy_row_cols[k - N_RUN_COLS]
                                                  : rf[k - N_RUN_COLS - N_ROW_COLS].name);
        fprintf(f, "],\n \"rows\": [");
    } else {
        for (size_t k = 0; k < N_RUN_COLS + N_ROW_COLS + nrf; k++)
            fprintf(f, "%s%s", k ? "," : "",
                    k < N_RUN_COLS                ? tidy_run_cols[k]
                    : k < N_RUN_COLS + N_ROW_COLS ? tidy_row_cols[k - N_RUN_COLS]
                                                  : rf[k - N_RUN_COLS - N_ROW_COLS].name);
        fputc('\n', f);
    }
    size_t total = 0, nl = 0;
    for (int k = 0; k < n; k++)
        total += runs[k].r.nrows;
    line_ref *lines = malloc((total + 1) * sizeof *lines);
    if (!lines) {
        free(cases);
        free(vars);
        return -1;
    }
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++) {
            const mlab_row *w = &runs[k].r.rows[i];
            lines[nl++] = (line_ref){k, rank_of(cases, nc, w->case_name),
                                     rank_of(vars, nv, w->variant), i};
        }
    if (series_order)
        qsort(lines, nl, sizeof *lines, by_series);
    int line = 0;
    for (size_t li = 0; li < nl; li++) {
        const int k = lines[li].k;
        const mlab_results *r = &runs[k].r;
        const mlab_env *e = &r->env;
        char stem[256];
        mlab_path_stem(runs[k].path, stem, sizeof stem);
        {
            const mlab_row *w = &r->rows[lines[li].i];
            int col = 0, timed = mlab_row_timed(w);
            if (json)
                fprintf(f, "%s\n  {", line ? "," : "");
            line++;
            cell_int(f, style, &col, "run_index", k);
            cell_str(f, style, &col, "file", stem);
            cell_str(f, style, &col, "label", e->label);
            cell_str(f, style, &col, "date", e->utc_time);
            cell_str(f, style, &col, "gpu", e->gpu_name);
            cell_str(f, style, &col, "runtime", e->runtime_version);
            cell_str(f, style, &col, "driver", e->driver_version);
            cell_str(f, style, &col, "commit", e->git_commit);
            cell_int(f, style, &col, "dirty", e->git_dirty);
            cell_str(f, style, &col, "backend", e->gpu_backend);
            cell_num(f, style, &col, "copy_bw_gbs", e->copy_bw_gbs);
            cell_num(f, style, &col, "read_bw_gbs", e->read_bw_gbs);

            const char *fk;
            double floor = mlab_row_floor_us(w, e, &fk);
            const mlab_row *par = NULL, *first = NULL;
            const char *pn = mlab_row_parent(w);
            if (pn[0])
                par = find_in(r, w->case_name, pn);
            for (int j = 0; j < n && !first; j++) {
                const mlab_row *x = find_in(&runs[j].r, w->case_name, w->variant);
                if (x && mlab_row_timed(x))
                    first = x;
            }
            const mlab_tol *tol = mlab_tol_find(w->kernel_tol);
            cell_int(f, style, &col, "case_index", rank_of(cases, nc, w->case_name));
            cell_int(f, style, &col, "variant_index", rank_of(vars, nv, w->variant));
            cell_str(f, style, &col, "parent", pn);
            cell_int(f, style, &col, "timed", timed);
            cell_num(f, style, &col, "floor_us", floor > 0 ? floor : NAN);
            cell_num(f, style, &col, "floor_gbps", floor > 0 ? w->bytes / (floor * 1e3) : NAN);
            cell_str(f, style, &col, "floor_kind", fk);
            cell_num(f, style, &col, "ratio_to_floor", timed && floor > 0 ? w->median_us / floor : NAN);
            cell_num(f, style, &col, "ratio_to_parent",
                     timed && par && mlab_row_timed(par) ? w->median_us / par->median_us : NAN);
            cell_num(f, style, &col, "rel_to_first",
                     timed && first ? w->median_us / first->median_us : NAN);
            cell_num(f, style, &col, "tol_max_rel_rms", tol ? tol->max_rel_rms : NAN);
            for (size_t c = 0; c < nrf; c++) {
                cell_sep(f, style, &col, rf[c].name);
                mlab_put_field(f, w, &rf[c], style);
            }
            fputs(json ? "}" : "\n", f);
        }
    }
    if (json)
        fprintf(f, "\n ]}\n");
    free(lines);
    free(cases);
    free(vars);
    return ferror(f) ? -1 : 0;
}

/* ---- gnuplot -------------------------------------------------------------------- */

void mlab_gnuplot_find(char *out, size_t size)
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

const char *mlab_plots_dir(void)
{
    const char *d = getenv("MLAB_PLOTS_DIR");
    return d && *d ? d : MLAB_PLOTS_DIR;
}

int mlab_make_dir(const char *cmd, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (mkdir(dir, 0777) != 0)
            return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot create the folder: %s", dir,
                                strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: not a folder", dir);
    }
    return MLAB_EXIT_OK;
}

int mlab_gnuplot_run(const char *cmd, const char *gnuplot, const char *kind, const char *data,
                     const char *out, const char *fmt, const char *filter)
{
    char script[4096], tmp[4200];
    snprintf(script, sizeof script, "%s/%s.gp", mlab_plots_dir(), kind);
    if (access(script, R_OK) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO,
                            "%s: cannot read the gnuplot script (set MLAB_PLOTS_DIR)", script);
    if (mlab_atomic_begin(out, tmp, sizeof tmp) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: path too long", out);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "fork: %s", strerror(errno));
    if (pid == 0) {
        char *args[] = {"gnuplot", "-c", script, (char *)data, tmp, (char *)fmt,
                        (char *)(filter ? filter : ""), NULL};
        if (!filter || !*filter)
            args[6] = NULL;
        execv(gnuplot, args);
        fprintf(stderr, "mlabench %s: cannot run %s: %s\n", cmd, gnuplot, strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    struct stat st;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(tmp, &st) != 0 || st.st_size == 0) {
        unlink(tmp);
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL,
                            "gnuplot failed on %s (%s %d); its messages are above", script,
                            WIFEXITED(status) ? "exit" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
    char why[1024];
    int rc = mlab_atomic_commit(tmp, out, why, sizeof why);
    if (rc)
        return mlab_cli_err(cmd, rc, "%s", why);
    printf("%s\n", out);
    return MLAB_EXIT_OK;
}
