/* history_index.h: the timed rows of `mlabench history`'s runs indexed once
 * for its table and its figures' line counts (history_index.c): each key
 * ("case/variant") and variant numbered in order of first appearance, the
 * rows sorted by (case, variant, run, place in the file) for each key's row
 * in every run, each variant's rows in place order for its geometric means.
 * Each lookup was a scan of a run's rows for every key and run (and for
 * every row and run before it in the geometric means), and each key and
 * variant a scan of those listed, quadratic in the rows. */
#ifndef MLAB_HISTORY_INDEX_H
#define MLAB_HISTORY_INDEX_H

#include <stddef.h>

#include "results.h"     /* mlab_row */
#include "results_cli.h" /* mlab_run_file */

typedef struct {
    const mlab_row *w;
    size_t at; /* place among the timed rows: runs in order, each in file order */
    int run;
} mlab_hist_row;

typedef struct {
    mlab_hist_row *rows;    /* the timed rows, rows[at] */
    mlab_hist_row *by_pair; /* sorted by (case, variant, at): a pair's first is its first run's first */
    size_t n;
    int *key;        /* each row's "case/variant", numbered in order of first appearance */
    size_t *key_row; /* each key's first row */
    int nkeys;
    int *var;        /* each row's variant, so numbered */
    size_t *var_row; /* each variant's first row */
    int nvars;
    size_t *by_var;  /* the rows by (variant number, at); var_start[v].. are variant v's */
    size_t *var_start;
    double *first_us; /* each row's pair's first median: the first run that has it, its first row */
    double *ratio;    /* n: one run's ratios of a variant */
    int *seen;        /* nkeys: mlab_hist_format_lines' marks */
} mlab_hist_index;

/* Index the timed rows of runs[0..n-1]; 0, or -1 out of memory (x then empty). */
int mlab_hist_index_build(mlab_hist_index *x, const mlab_run_file *runs, int n);
void mlab_hist_index_free(mlab_hist_index *x);
/* The first row of (case_name, variant) in by_pair (its first run's first),
 * x->n if none: the lower bound of the pair. */
size_t mlab_hist_pair_first(const mlab_hist_index *x, const char *case_name, const char *variant);
/* The (case, variant) lines of KV format fmt's figure, the f-th format asked
 * (each format once, f from 0): its timed rows' distinct keys over the runs. */
int mlab_hist_format_lines(mlab_hist_index *x, const char *fmt, int f);

#endif
