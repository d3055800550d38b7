/* results_read.h: reading results files (schema "mlabench-results",
 * versions 1 and 2, data/README.md). An untrusted file is probed, parsed
 * first in a forked child (guard.h), and every dataset's storage checked
 * before anything is allocated for it. Returns an MLAB_EXIT_* code and a
 * one-line reason (reason.h); on failure r holds nothing. */
#ifndef MLAB_RESULTS_READ_H
#define MLAB_RESULTS_READ_H

#include <stddef.h>

#include "results.h" /* mlab_results */

int mlab_results_read(const char *path, mlab_results *r, char *why, size_t whylen);

#endif
