/* atomic.h: every file mlabench writes (cases, results, CSV, reports,
 * plots) replaces its destination atomically, and no output may land on an
 * input or on something that is not a regular file.
 *
 * The destination is written as "<path>.tmp.<pid>" in the same folder, then
 * fsync'd, renamed over path and the folder fsync'd; on failure the
 * temporary is removed. A process killed mid-write leaves its temporary
 * behind but never touches path; the next write to the same path removes
 * temporaries whose pid no longer runs (mlab_atomic_begin).
 * Each function returns an MLAB_EXIT_* code (exitcodes.h) and a one-line
 * reason "<path>: <what>". */
#ifndef MLAB_ATOMIC_H
#define MLAB_ATOMIC_H

#include <stddef.h>

#include "reason.h" /* mlab_why */

/* Remove the stale temporaries of path that dead writers left and name
 * this process's temporary in tmp. Returns 0, or -1 when tmplen is too
 * small. */
int mlab_atomic_begin(const char *path, char *tmp, size_t tmplen);

/* fsync tmp (after releasing any space reserved past its end), rename it
 * over path, fsync the folder. On failure removes tmp: MLAB_EXIT_IO. */
int mlab_atomic_commit(const char *tmp, const char *path, char *why, size_t whylen);

/* The whole protocol for a writer that goes through libhdf5: begin, create
 * the temporary with open(2) (so an unwritable folder is refused with the
 * system's reason), run write(tmp, arg) in a forked child process, then
 * commit. The child's failure (or its death) removes the temporary and
 * returns its code; when libhdf5 failed on a system call (disk full, file
 * size limit, quota), the system's reason is added to the message. A child
 * keeps a library that failed to flush a file from crashing this process
 * at exit (libhdf5 1.10 does, closing the file again at shutdown).
 * write gets w, whose path is the destination (the file its messages name),
 * and returns an MLAB_EXIT_* code with its reason in w (reason.h). */
typedef int (*mlab_write_fn)(const mlab_why *w, const char *tmp, void *arg);
int mlab_atomic_write(const char *path, mlab_write_fn write, void *arg, char *why, size_t whylen);

/* Before any work: an output path must not be one of the inputs (same
 * device and inode) and, when it exists, must be a regular file, not a
 * symlink, FIFO, device node or folder (it would be replaced by a regular
 * file, or written through). inputs may hold NULLs. Returns MLAB_EXIT_OK or
 * MLAB_EXIT_USAGE with "<out>: <why>". */
int mlab_output_check(const char *out, const char *const *inputs, int ninputs, char *why,
                      size_t whylen);

/* mlab_output_check for a command that writes a file and never standard
 * output (run, gen, import, merge: HDF5): also refuses an empty name, "-"
 * (which would be a file named -, not stdout: ./- names that file) and a
 * path of PATH_MAX bytes or more (a buffer would cut it, naming another
 * file). MLAB_EXIT_USAGE with the reason. */
int mlab_output_file_check(const char *out, const char *const *inputs, int ninputs, char *why,
                           size_t whylen);

/* An input must be a regular file (or a symlink to one): a FIFO would block
 * the reader forever, a device node would be read without end. Opens with
 * O_NONBLOCK, so it never blocks. Returns MLAB_EXIT_OK, MLAB_EXIT_IO with
 * the system's reason (missing, unreadable, a folder) or MLAB_EXIT_BADINPUT
 * ("<path>: not a regular file (a FIFO)"). */
int mlab_input_check(const char *path, char *why, size_t whylen);

#endif
