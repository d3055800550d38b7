/* results_tidy.h: the tidy (long-format) table of one or more results
 * files: one line per (run, case, variant), the run-level columns repeated
 * on each line. export writes it (CSV, JSON); plot and history give it to
 * the gnuplot scripts (results_tidy.c). */
#ifndef MLAB_RESULTS_TIDY_H
#define MLAB_RESULTS_TIDY_H

#include <stdio.h>

#include "results.h"     /* mlab_row, mlab_env, mlab_results */
#include "results_cli.h" /* mlab_run_file, mlab_fmt, mlab_strlist */

/* The floor of a row in us: its measured read limit when there is one, else
 * its fewest bytes at the run's copy bandwidth; 0 when neither is known.
 * *kind (may be NULL) says which: "read_limit", "copy_bw" or "". */
double mlab_row_floor_us(const mlab_row *w, const mlab_env *e, const char **kind);
/* The parent variant's name (variants/variants.c), "" for roots, peers, CPU rows */
const char *mlab_row_parent(const mlab_row *w);

/* The distinct case names of r ordered by their bf16 bytes (variants == 0),
 * or its variants (1: GPU variants by id, then peers, then CPU rows) into
 * out. Returns 0, -1 out of memory. */
int mlab_ordered_names(const mlab_results *r, int variants, mlab_strlist *out);

/* Write the tidy table of n runs as CSV (header line first) or JSON (an
 * object with "columns" and "rows", one object per line of the CSV, same
 * keys). Columns: run_index, file, label, date, gpu, runtime, driver,
 * commit, dirty, backend, copy_bw_gbs, read_bw_gbs (the run's); case_index
 * (cases of all runs ordered by their bf16 bytes), variant_index (GPU
 * variants by id, then peers, then CPU rows), parent, timed, floor_us,
 * floor_gbps, floor_kind, ratio_to_floor, ratio_to_parent, rel_to_first
 * (median / the same row's median in the first run that has it),
 * tol_max_rel_rms (derived), case_wall_s (the row's case's /inputs
 * wall_s, NaN where 0); then every /rows field. Lines come run after
 * run in file order, or with series_order by (case_index, variant_index,
 * run_index), so that one (case, variant) over the runs is one block of
 * consecutive lines (gnuplot draws a line through consecutive points only).
 * Returns 0, -1 on a write error or out of memory. */
int mlab_tidy_write(FILE *f, const mlab_run_file *runs, int n, mlab_fmt style, int series_order);

#endif
