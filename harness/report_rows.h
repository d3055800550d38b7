/* report_rows.h: a results file's rows indexed once for the lookups
 * `mlabench report` makes about every row and headline cell (report_rows.c):
 * a row by case and variant, a variant's first row, the rows of a case, the
 * best peer of a row's case and KV format. Each was a scan of all rows,
 * which made the report quadratic in its rows. Each list holds the rows
 * sorted by its key, then in file order, so that the first row of a key is
 * the one a scan in file order finds first. */
#ifndef MLAB_REPORT_ROWS_H
#define MLAB_REPORT_ROWS_H

#include <stddef.h>

#include "results.h" /* mlab_results, mlab_row */

typedef struct {
    const mlab_results *r;
    const mlab_row **by_cv;   /* by (case, variant) */
    const mlab_row **by_case; /* by case */
    const mlab_row **by_var;  /* by variant */
    const mlab_row **peers;   /* a best peer per (case, KV format): the timed peer rows' fastest */
    size_t n, npeers;
} mlab_report_rows;

/* Index r's rows (r outlives x); 0, or -1 out of memory (x then empty). */
int mlab_report_rows_init(mlab_report_rows *x, const mlab_results *r);
void mlab_report_rows_free(mlab_report_rows *x);
/* The first row of (case c, variant v) in file order, or NULL */
const mlab_row *mlab_report_row(const mlab_report_rows *x, const char *c, const char *v);
/* The first row of variant v in file order, or NULL */
const mlab_row *mlab_report_variant_first(const mlab_report_rows *x, const char *v);
/* The rows of case c in file order: *rows, their count returned (0: none) */
size_t mlab_report_case_rows(const mlab_report_rows *x, const char *c, const mlab_row *const **rows);
/* The best (smallest) median of a timed peer row of w's case and KV format
 * (the first such in file order), or NULL */
const mlab_row *mlab_report_best_peer(const mlab_report_rows *x, const mlab_row *w);

#endif
