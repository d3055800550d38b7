/* results_tidy.c: the tidy table of results files (results_tidy.h): one
 * line per (run, case, variant) with the run's columns, derived ones and
 * every /rows field; export writes it, plot and history draw from it. */
#include "results_tidy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../reference/case.h"    /* MLAB_DQK, MLAB_HEADS */
#include "../reference/metrics.h" /* mlab_tol_find */
#include "../variants/variants.h" /* mlab_variant_find: a variant's parent */


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
    size_t at; /* the first row's place over all runs (while ordering) */
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int by_name_at(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->at > y->at) - (x->at < y->at);
}

/* Distinct names over all runs (cases or variants), ordered by key: each
 * name's key is its first row's (runs in order, rows in file order). The
 * rows sorted by name, each name's first kept: n log n (a scan of the names
 * kept so far for every row was quadratic in the cases). */
static keyed *ordered(const mlab_run_file *runs, int n, int variants, int *count)
{
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += runs[k].r.nrows;
    keyed *l = calloc(total + 1, sizeof *l);
    if (!l)
        return NULL;
    size_t t = 0;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++, t++) {
            const mlab_row *w = &runs[k].r.rows[i];
            l[t] = (keyed){variants ? w->variant : w->case_name, variants ? variant_rank(w) : case_bytes(w), 0, t};
        }
    qsort(l, total, sizeof *l, by_name_at);
    int m = 0;
    for (size_t j = 0; j < total; j++)
        if (m == 0 || strcmp(l[m - 1].name, l[j].name) != 0)
            l[m++] = l[j];
    qsort(l, (size_t)m, sizeof *l, by_key); /* names are distinct: one order, whatever came before */
    for (int j = 0; j < m; j++)
        l[j].rank = j;
    *count = m;
    return l;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->name, ((const keyed *)b)->name);
}

/* A copy of the m distinct names l (ordered by key, each with its rank),
 * sorted by name for rank_of's bisection; NULL out of memory. */
static keyed *by_name_copy(const keyed *l, int m)
{
    keyed *c = malloc(((size_t)m + 1) * sizeof *c);
    if (!c)
        return NULL;
    memcpy(c, l, (size_t)m * sizeof *c);
    qsort(c, (size_t)m, sizeof *c, by_name);
    return c;
}

/* The rank of name among the m names of byname (by_name_copy's), -1 if absent:
 * a bisection (a scan of the names for every row was quadratic in the cases) */
static int rank_of(const keyed *byname, int m, const char *name)
{
    keyed want = {name, 0, 0, 0};
    const keyed *hit = bsearch(&want, byname, (size_t)m, sizeof *byname, by_name);
    return hit ? hit->rank : -1;
}

int mlab_ordered_names(const mlab_results *r, int variants, mlab_strlist *out)
{
    mlab_run_file one = {"", *r}; /* a shallow view: read only */
    int m = 0;
    keyed *l = ordered(&one, 1, variants, &m);
    if (!l)
        return -1;
    int rc = 0;
    if (out->n == 0) { /* the names are distinct: appended, not each searched for (quadratic) */
        char **g = realloc(out->s, ((size_t)m + 1) * sizeof *g);
        if (!g)
            rc = -1;
        else
            out->s = g;
        for (int j = 0; j < m && rc == 0; j++) {
            if (!(g[out->n] = strdup(l[j].name)))
                rc = -1;
            else
                out->n++;
        }
    } else {
        for (int j = 0; j < m && rc == 0; j++)
            rc = mlab_strlist_add(out, l[j].name) < 0 ? -1 : 0;
    }
    free(l);
    return rc;
}

/* a run's rows by (case, variant, place in the file) */
static int by_pair_place(const void *a, const void *b)
{
    const mlab_row *x = *(const mlab_row *const *)a, *y = *(const mlab_row *const *)b;
    int d = mlab_row_key_cv(x, y->case_name, y->variant);
    return d ? d : (x > y) - (x < y); /* one rows array: its order is the file's */
}

/* The first row in file order of (case_name, variant) among the m rows of ix
 * (one run's, sorted by by_pair_place), NULL if none: the lower bound of the
 * pair, as a scan of the rows from the top found it (that scan for each row
 * was quadratic in the rows). */
static const mlab_row *find_in(const mlab_row *const *ix, size_t m, const char *case_name,
                               const char *variant)
{
    size_t at = mlab_rows_find(ix, m, sizeof *ix, mlab_row_key_cv, case_name, variant);
    return at < m ? ix[at] : NULL;
}

static const char *const tidy_run_cols[] = {"run_index", "file", "label", "date", "gpu",
                                            "runtime", "driver", "commit", "dirty", "backend",
                                            "copy_bw_gbs", "read_bw_gbs"};
static const char *const tidy_row_cols[] = {"case_index", "variant_index", "parent", "timed",
                                            "floor_us", "floor_gbps", "floor_kind",
                                            "ratio_to_floor", "ratio_to_parent", "rel_to_first",
                                            "tol_max_rel_rms", "case_wall_s"};
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
    keyed *cn = cases ? by_name_copy(cases, nc) : NULL, *vn = vars ? by_name_copy(vars, nv) : NULL;
    size_t total = 0, nl = 0;
    for (int k = 0; k < n; k++)
        total += runs[k].r.nrows;
    /* each run's rows by (case, variant, place) for find_in, run after run */
    const mlab_row **ix = malloc((total + 1) * sizeof *ix);
    size_t *at = malloc(((size_t)n + 1) * sizeof *at);
    line_ref *lines = malloc((total + 1) * sizeof *lines);
    /* each run's case seconds (/inputs wall_s) by case rank: case_wall_s */
    double *wall = calloc((size_t)n * (size_t)nc + 1, sizeof *wall);
    if (!cn || !vn || !ix || !at || !lines || !wall) {
        free(wall);
        free(cases);
        free(vars);
        free(cn);
        free(vn);
        free(ix);
        free(at);
        free(lines);
        return -1;
    }
    at[0] = 0;
    for (int k = 0; k < n; k++) {
        const mlab_results *r = &runs[k].r;
        for (size_t i = 0; i < r->nrows; i++)
            ix[at[k] + i] = &r->rows[i];
        qsort(ix + at[k], r->nrows, sizeof *ix, by_pair_place);
        at[k + 1] = at[k] + r->nrows;
        for (size_t i = 0; i < r->ninputs; i++) {
            const int c = rank_of(cn, nc, r->inputs[i].case_name);
            if (c >= 0)
                wall[(size_t)k * (size_t)nc + (size_t)c] = r->inputs[i].wall_s;
        }
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
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++) {
            const mlab_row *w = &runs[k].r.rows[i];
            lines[nl++] = (line_ref){k, rank_of(cn, nc, w->case_name),
                                     rank_of(vn, nv, w->variant), i};
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
                par = find_in(ix + at[k], r->nrows, w->case_name, pn);
            for (int j = 0; j < n && !first; j++) {
                const mlab_row *x = find_in(ix + at[j], runs[j].r.nrows, w->case_name, w->variant);
                if (x && mlab_row_timed(x))
                    first = x;
            }
            const mlab_tol *tol = mlab_tol_find(w->kernel_tol);
            cell_int(f, style, &col, "case_index", lines[li].c);
            cell_int(f, style, &col, "variant_index", lines[li].v);
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
            const double ws = wall[(size_t)k * (size_t)nc + (size_t)lines[li].c];
            cell_num(f, style, &col, "case_wall_s", ws > 0 ? ws : NAN);
            for (size_t c = 0; c < nrf; c++) {
                cell_sep(f, style, &col, rf[c].name);
                mlab_put_field(f, w, &rf[c], style);
            }
            fputs(json ? "}" : "\n", f);
        }
    }
    if (json)
        fprintf(f, "\n ]}\n");
    free(wall);
    free(lines);
    free(at);
    free(ix);
    free(vn);
    free(cn);
    free(cases);
    free(vars);
    return ferror(f) ? -1 : 0;
}
