/* results_gnuplot.h: running the gnuplot scripts of plots/ for plot and
 * history (results_gnuplot.c). */
#ifndef MLAB_RESULTS_GNUPLOT_H
#define MLAB_RESULTS_GNUPLOT_H

#include <stddef.h>

/* gnuplot on PATH into out, or "" */
void mlab_gnuplot_find(char *out, size_t size);
/* The scripts' folder: $MLAB_PLOTS_DIR, else the one compiled in. */
const char *mlab_plots_dir(void);
/* Run `gnuplot -c DIR/KIND.gp DATA TMP FMT [FILTER]` and rename TMP over
 * out (atomic). Arguments travel in argv, never through gnuplot's parser.
 * Prints out on success; returns an MLAB_EXIT_* code (1 when gnuplot fails,
 * its messages above). */
int mlab_gnuplot_run(const char *cmd, const char *gnuplot, const char *kind, const char *data,
                     const char *out, const char *fmt, const char *filter);
/* Make the folder when it is not there; MLAB_EXIT_IO with a message on failure. */
int mlab_make_dir(const char *cmd, const char *dir);

#endif
