/* results_write.h: writing results files (schema "mlabench-results" v2,
 * data/README.md). Written atomically (atomic.h): a temporary file in the
 * same folder, written by a child process, H5Fflush, fsync, rename.
 * Returns an MLAB_EXIT_* code and a one-line reason (reason.h). */
#ifndef MLAB_RESULTS_WRITE_H
#define MLAB_RESULTS_WRITE_H

#include <stddef.h>

#include "results.h" /* mlab_results */

int mlab_results_write(const char *path, const mlab_results *r, char *why, size_t whylen);

#endif
