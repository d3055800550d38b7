/* case_write.h: writing case files (schema "mlabench-case",
 * data/README.md). The case is validated first (an invalid one is refused,
 * MLAB_EXIT_BADINPUT); the file is written to "<path>.tmp.<pid>", flushed,
 * fsync'd and renamed over path (atomic.h), so a crash never leaves half a
 * file. Returns an MLAB_EXIT_* code and, on failure, a one-line reason
 * naming the file and the dataset (reason.h). */
#ifndef MLAB_CASE_WRITE_H
#define MLAB_CASE_WRITE_H

#include <stddef.h>

#include "../reference/case.h" /* mlab_case */

int mlab_h5_write_case(const char *path, const mlab_case *c, char *why, size_t whylen);

#endif
