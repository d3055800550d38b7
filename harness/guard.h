/* guard.h: keeping libhdf5 from taking mlabench down with it.
 *
 * libhdf5 (1.10.8 is Debian 12's) crashes on about 1.6% and loops forever
 * on about 0.3% of randomly corrupted files, and crashes at exit after a
 * failed flush. mlabench therefore parses an untrusted file, and writes a
 * file, in a forked child process: a signal or a time limit there becomes a
 * one-line error in the parent (data/README.md, "Reading files you did not
 * write").
 */
#ifndef MLAB_GUARD_H
#define MLAB_GUARD_H

#include <stddef.h>

#include <hdf5.h> /* hid_t */

/* Silence libhdf5's own error printing for the whole process (mlabench
 * reports one line of its own). Idempotent; the readers and writers call it. */
void mlab_h5_silence(void);

/* Run fn(arg) in a forked child that reports fn's code and one-line message
 * back. timeout_s <= 0: no limit. Returns:
 *   MLAB_GUARD_DONE     fn returned: *rc and msg hold its code and message;
 *   MLAB_GUARD_SIGNAL   the child died of signal *rc (or exited with status
 *                       -*rc without answering, as sanitizers do);
 *   MLAB_GUARD_TIMEOUT  the child ran past timeout_s and was killed;
 *   MLAB_GUARD_FAILED   fork or pipe failed: msg holds the system's reason.
 * The child's stdout and stderr go to /dev/null (MLAB_GUARD_STDERR=1 keeps
 * stderr, for debugging); it dies with its parent. With MLAB_H5_TEST_CRASH=1
 * or MLAB_H5_TEST_HANG=1 in the environment a reader's child (read_only = 1)
 * crashes (SIGSEGV) or hangs instead of calling fn: the tests' stand-ins for
 * a libhdf5 bug. */
enum { MLAB_GUARD_DONE, MLAB_GUARD_SIGNAL, MLAB_GUARD_TIMEOUT, MLAB_GUARD_FAILED };
typedef int (*mlab_guard_fn)(void *arg, char *why, size_t whylen);
int mlab_guard_run(mlab_guard_fn fn, void *arg, int read_only, double timeout_s, int *rc,
                   char *msg, size_t msglen);

/* A reader's whole contained step: runs fn in the child with the time limit
 * of mlab_guard_timeout(path) and turns a signal or a timeout into
 * MLAB_EXIT_BADINPUT with "<path>: the HDF5 library crashed (signal 11,
 * Segmentation fault) reading it: corrupt file" or "... did not finish
 * reading it in N s: corrupt file". Returns fn's code otherwise. */
int mlab_guard_read(const char *path, mlab_guard_fn fn, void *arg, char *why, size_t whylen);

/* Time limit for parsing path: $MLAB_H5_TIMEOUT seconds when set, else 30 s
 * plus 1 s per 100 MB of the file. */
double mlab_guard_timeout(const char *path);

/* What a reader must know of dataset ds before it allocates for it: its
 * data lies in this file and the file really stores all of it. Refuses
 * (returns -1 with a reason in msg, no path, e.g. "stores its data in
 * external files: not accepted") external raw storage, virtual datasets,
 * filters other than deflate, shuffle and fletcher32, a size in bytes past
 * 2^63, unallocated or missing chunks, contiguous data past the end of the
 * file, uncompressed storage smaller than the declared size, and compressed
 * storage more than 1100 times smaller (deflate's limit is ~1032:1).
 * elem: bytes per element in the file. Returns 0 when it may be read. */
int mlab_h5_storage_check(hid_t ds, size_t elem, char *msg, size_t msglen);

/* In a writer's child: record the errno of the first failed system call
 * libhdf5 reports (its error stack says "errno = 28, error message = ...")
 * instead of printing anything. mlab_h5_write_errno returns it (0: none). */
void mlab_h5_capture_errno(void);
int mlab_h5_write_errno(void);

#endif
