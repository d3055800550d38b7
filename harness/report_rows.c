/* report_rows.c: the report's row index (report_rows.h): the rows sorted
 * once by (case, variant), by case, by variant, and the timed peers' best
 * per (case, KV format), each lookup a bisection. */
#include "report_rows.h"

#include <stdlib.h>
#include <string.h>

#include "results_cli.h" /* mlab_row_timed */

/* The keys of one string (b unused) */
static int key_case(const mlab_row *x, const char *a, const char *b) { return strcmp(x->case_name, a); }
static int key_var(const mlab_row *x, const char *a, const char *b) { return strcmp(x->variant, a); }
/* qsort orders: the key, then the place in the file (one array: pointers compare) */
#define ROW_ORDER(name, key, fa, fb)                                                  \
    static int name(const void *pa, const void *pb)                                \
    {                                                                              \
        const mlab_row *x = *(const mlab_row *const *)pa, *y = *(const mlab_row *const *)pb; \
        int d = key(x, y->fa, y->fb);                                              \
        return d ? d : (x > y) - (x < y);                                          \
    }
ROW_ORDER(order_cv, mlab_row_key_cv, case_name, variant)
ROW_ORDER(order_case, key_case, case_name, case_name)
ROW_ORDER(order_var, key_var, variant, variant)
ROW_ORDER(order_ckv, mlab_row_key_ckv, case_name, kv_format)

/* The first row (in v's order) of key (a, b), or NULL */
static const mlab_row *first_of(const mlab_row *const *v, size_t n, mlab_row_key key, const char *a, const char *b)
{
    size_t i = mlab_rows_find(v, n, sizeof *v, key, a, b);
    return i < n ? v[i] : NULL;
}

void mlab_report_rows_free(mlab_report_rows *x)
{
    free(x->by_cv);
    free(x->by_case);
    free(x->by_var);
    free(x->peers);
    memset(x, 0, sizeof *x);
}

int mlab_report_rows_init(mlab_report_rows *x, const mlab_results *r)
{
    memset(x, 0, sizeof *x);
    x->r = r;
    x->n = r->nrows;
    const size_t sz = (x->n + 1) * sizeof(const mlab_row *);
    x->by_cv = malloc(sz);
    x->by_case = malloc(sz);
    x->by_var = malloc(sz);
    x->peers = malloc(sz);
    if (!x->by_cv || !x->by_case || !x->by_var || !x->peers) {
        mlab_report_rows_free(x);
        return -1;
    }
    size_t np = 0;
    for (size_t i = 0; i < x->n; i++) {
        const mlab_row *w = &r->rows[i];
        x->by_cv[i] = x->by_case[i] = x->by_var[i] = w;
        if (strcmp(w->kind, "peer") == 0 && mlab_row_timed(w))
            x->peers[np++] = w;
    }
    qsort(x->by_cv, x->n, sizeof *x->by_cv, order_cv);
    qsort(x->by_case, x->n, sizeof *x->by_case, order_case);
    qsort(x->by_var, x->n, sizeof *x->by_var, order_var);
    qsort(x->peers, np, sizeof *x->peers, order_ckv);
    /* one per (case, KV format): the first of the smallest median in file
     * order (a NaN median first stays: nothing compares below it) */
    size_t g = 0;
    for (size_t i = 0; i < np; i++) {
        const mlab_row *p = x->peers[i];
        if (g && mlab_row_key_ckv(x->peers[g - 1], p->case_name, p->kv_format) == 0) {
            if (p->median_us < x->peers[g - 1]->median_us)
                x->peers[g - 1] = p;
        } else {
            x->peers[g++] = p;
        }
    }
    x->npeers = g;
    return 0;
}

const mlab_row *mlab_report_row(const mlab_report_rows *x, const char *c, const char *v)
{
    return first_of(x->by_cv, x->n, mlab_row_key_cv, c, v);
}

const mlab_row *mlab_report_variant_first(const mlab_report_rows *x, const char *v)
{
    return first_of(x->by_var, x->n, key_var, v, NULL);
}

size_t mlab_report_case_rows(const mlab_report_rows *x, const char *c, const mlab_row *const **rows)
{
    const size_t at = mlab_rows_lower(x->by_case, x->n, sizeof *x->by_case, key_case, c, NULL);
    size_t end = at;
    while (end < x->n && key_case(x->by_case[end], c, NULL) == 0)
        end++;
    *rows = x->by_case + at;
    return end - at;
}

const mlab_row *mlab_report_best_peer(const mlab_report_rows *x, const mlab_row *w)
{
    return first_of(x->peers, x->npeers, mlab_row_key_ckv, w->case_name, w->kv_format);
}
