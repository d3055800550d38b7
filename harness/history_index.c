/* history_index.c: the index of history's timed rows (history_index.h):
 * keys and variants numbered by sorting the rows once, each pair's rows by
 * bisection, each variant's rows by a counting sort. */
#include "history_index.h"

#include <stdlib.h>
#include <string.h>

/* rows compared by their key "case/variant" as one string (strcmp's order) */
static int cmp_key(const mlab_row *a, const mlab_row *b)
{
    const char *part[2][3] = {{a->case_name, "/", a->variant}, {b->case_name, "/", b->variant}};
    const char *c[2] = {a->case_name, b->case_name};
    int p[2] = {0, 0};
    for (;;) {
        for (int k = 0; k < 2; k++)
            while (!*c[k] && p[k] < 2)
                c[k] = part[k][++p[k]];
        const unsigned char x = (unsigned char)*c[0], y = (unsigned char)*c[1];
        if (x != y || !x)
            return (x > y) - (x < y);
        c[0]++;
        c[1]++;
    }
}

static int cmp_var(const mlab_row *a, const mlab_row *b)
{
    return strcmp(a->variant, b->variant);
}

static int by_at(const mlab_hist_row *x, const mlab_hist_row *y)
{
    return (x->at > y->at) - (x->at < y->at);
}

static int by_key_at(const void *a, const void *b)
{
    const mlab_hist_row *x = a, *y = b;
    int d = cmp_key(x->w, y->w);
    return d ? d : by_at(x, y);
}

static int by_var_at(const void *a, const void *b)
{
    const mlab_hist_row *x = a, *y = b;
    int d = cmp_var(x->w, y->w);
    return d ? d : by_at(x, y);
}

static int by_pair_at(const void *a, const void *b)
{
    const mlab_hist_row *x = a, *y = b;
    int d = mlab_row_key_cv(x->w, y->w->case_name, y->w->variant);
    return d ? d : by_at(x, y);
}

static int by_size(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Number the groups of equal rows (cmp) in order of their first row, as a
 * list to which each row added its name numbered them: id[at] of every row,
 * (*first)[g] group g's first row; the count, or -1 out of memory. sorted:
 * the rows sorted by (cmp, at). */
static int number_groups(const mlab_hist_row *sorted, size_t n, int (*cmp)(const mlab_row *, const mlab_row *),
                         int *id, size_t **first)
{
    size_t ng = 0, *f = malloc((n + 1) * sizeof *f);
    if (!f)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || cmp(sorted[i - 1].w, sorted[i].w))
            f[ng++] = sorted[i].at;
    qsort(f, ng, sizeof *f, by_size);
    size_t g = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || cmp(sorted[i - 1].w, sorted[i].w))
            g = (size_t)((const size_t *)bsearch(&sorted[i].at, f, ng, sizeof *f, by_size) - f);
        id[sorted[i].at] = (int)g;
    }
    *first = f;
    return (int)ng;
}

void mlab_hist_index_free(mlab_hist_index *x)
{
    free(x->rows);
    free(x->by_pair);
    free(x->key);
    free(x->key_row);
    free(x->var);
    free(x->var_row);
    free(x->by_var);
    free(x->var_start);
    free(x->first_us);
    free(x->ratio);
    free(x->seen);
    memset(x, 0, sizeof *x);
}

/* 0, or -1 out of memory */
int mlab_hist_index_build(mlab_hist_index *x, const mlab_run_file *runs, int n)
{
    size_t m = 0;
    memset(x, 0, sizeof *x);
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++)
            m += mlab_row_timed(&runs[k].r.rows[i]) != 0;
    mlab_hist_row *tmp = malloc((m + 1) * sizeof *tmp);
    x->rows = malloc((m + 1) * sizeof *x->rows);
    x->by_pair = malloc((m + 1) * sizeof *x->by_pair);
    x->key = malloc((m + 1) * sizeof *x->key);
    x->var = malloc((m + 1) * sizeof *x->var);
    x->by_var = malloc((m + 1) * sizeof *x->by_var);
    x->first_us = malloc((m + 1) * sizeof *x->first_us);
    x->ratio = malloc((m + 1) * sizeof *x->ratio);
    if (!tmp || !x->rows || !x->by_pair || !x->key || !x->var || !x->by_var || !x->first_us || !x->ratio)
        goto oom;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++)
            if (mlab_row_timed(&runs[k].r.rows[i]))
                x->rows[x->n] = (mlab_hist_row){&runs[k].r.rows[i], x->n, k}, x->n++;
    memcpy(tmp, x->rows, m * sizeof *tmp);
    qsort(tmp, m, sizeof *tmp, by_key_at);
    if ((x->nkeys = number_groups(tmp, m, cmp_key, x->key, &x->key_row)) < 0)
        goto oom;
    memcpy(tmp, x->rows, m * sizeof *tmp);
    qsort(tmp, m, sizeof *tmp, by_var_at);
    if ((x->nvars = number_groups(tmp, m, cmp_var, x->var, &x->var_row)) < 0)
        goto oom;
    memcpy(x->by_pair, x->rows, m * sizeof *tmp);
    qsort(x->by_pair, m, sizeof *tmp, by_pair_at);
    for (size_t i = 0, f = 0; i < m; i++) {
        const mlab_row *w = x->by_pair[i].w;
        if (mlab_row_key_cv(x->by_pair[f].w, w->case_name, w->variant))
            f = i;
        x->first_us[x->by_pair[i].at] = x->by_pair[f].w->median_us;
    }
    /* the rows of each variant in place order (a counting sort) */
    if (!(x->var_start = calloc((size_t)x->nvars + 2, sizeof *x->var_start)) ||
        !(x->seen = calloc((size_t)x->nkeys + 1, sizeof *x->seen)))
        goto oom;
    for (size_t i = 0; i < m; i++)
        x->var_start[x->var[i] + 2]++;
    for (int v = 0; v < x->nvars; v++)
        x->var_start[v + 2] += x->var_start[v + 1];
    for (size_t i = 0; i < m; i++)
        x->by_var[x->var_start[x->var[i] + 1]++] = i;
    free(tmp);
    return 0;
oom:
    free(tmp);
    mlab_hist_index_free(x);
    return -1;
}

/* The first row of (case_name, variant) in by_pair (its first run's first),
 * x->n if none: the lower bound of the pair. */
size_t mlab_hist_pair_first(const mlab_hist_index *x, const char *case_name, const char *variant)
{
    /* by_pair's elements begin with their row's pointer */
    return mlab_rows_find(x->by_pair, x->n, sizeof *x->by_pair, mlab_row_key_cv, case_name, variant);
}

int mlab_hist_format_lines(mlab_hist_index *x, const char *fmt, int f)
{
    int nl = 0;
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(x->rows[i].w->kv_format, fmt) == 0 && x->seen[x->key[i]] != f + 1) {
            x->seen[x->key[i]] = f + 1;
            nl++;
        }
    return nl;
}
