/* results_h5.h: results files (schema "mlabench-results", data/README.md).
 * Written atomically: temporary file in the same folder, H5Fflush, fsync,
 * rename. Each returns an MLAB_EXIT_* code and a one-line reason. */
#ifndef MLAB_RESULTS_H5_H
#define MLAB_RESULTS_H5_H

#include <stddef.h>

#include "atomic.h"  /* mlab_atomic_begin/commit, kept here for the results commands */
#include "results.h" /* mlab_results */

int mlab_results_write(const char *path, const mlab_results *r, char *why, size_t whylen);
int mlab_results_read(const char *path, mlab_results *r, char *why, size_t whylen);

#endif
