/* results_h5.h: results files (schema "mlabench-results", data/README.md).
 * Written atomically: temporary file in the same folder, H5Fflush, fsync,
 * rename. Each returns an MLAB_EXIT_* code and a one-line reason. */
#ifndef MLAB_RESULTS_H5_H
#define MLAB_RESULTS_H5_H

#include <stddef.h>

#include "results.h" /* mlab_results */

int mlab_results_write(const char *path, const mlab_results *r, char *why, size_t whylen);
int mlab_results_read(const char *path, mlab_results *r, char *why, size_t whylen);

/* Atomic replacement of any output file (results, CSV, reports, plots):
 * begin removes temporaries of path that dead writers left
 * ("<path>.tmp.<pid>", the pid no longer running) and names this process's
 * temporary in tmp (-1 when tmplen is too small); write it, close it, then
 * commit fsyncs it, renames it over path and fsyncs the folder, removing the
 * temporary on failure (MLAB_EXIT_IO with "<path>: <what>"). */
int mlab_atomic_begin(const char *path, char *tmp, size_t tmplen);
int mlab_atomic_commit(const char *tmp, const char *path, char *why, size_t whylen);

#endif
