/* h5util.h: the HDF5 plumbing that the case files (case_read.c,
 * case_write.c) and the results files (results_read.c, results_write.c)
 * share: a quiet error stack, type descriptions for messages, the check
 * that a path is an HDF5 file at all, one typed attribute reader, one
 * attribute writer, and the opening of a dataset an untrusted file names.
 * Failures come back as an MLAB_EXIT_* code with the reason in the caller's
 * mlab_why (reason.h); nothing here prints. */
#ifndef MLAB_H5UTIL_H
#define MLAB_H5UTIL_H

#include <stddef.h>

#include <hdf5.h> /* hid_t, H5E_auto2_t, H5T_cset_t */

#include "reason.h" /* mlab_why */

/* What a reader returns for an object that is absent and not required
 * (every error is > 0: "rc > 0" means "give up"). */
#define MLAB_H5_ABSENT (-1)

/* HDF5 prints its error stack by default; we report our own one line.
 * begin saves the caller's handler and silences it, end restores it. */
typedef struct {
    H5E_auto2_t func;
    void *data;
} mlab_h5_quiet;
void mlab_h5_quiet_begin(mlab_h5_quiet *q);
void mlab_h5_quiet_end(const mlab_h5_quiet *q);

/* "uint32", "int16 big-endian", "float64", "opaque (2 bytes)", ... */
void mlab_h5_type_desc(hid_t t, char *buf, size_t len);

/* Before libhdf5 sees w->path: a regular file (mlab_input_check) that
 * open(2) can open (else MLAB_EXIT_IO with the system's reason) and holds
 * the HDF5 signature where the format puts it (offset 0, 512, 1024, ...;
 * else MLAB_EXIT_BADINPUT "not an HDF5 file"). */
int mlab_h5_probe(const mlab_why *w);

/* Open path read-only, without a file lock (readers need none, and NFS may
 * have none; HDF5 1.10.7 and later). Returns the file, or -1. */
hid_t mlab_h5_open_read(const char *path);

/* One typed attribute reader, accepting what h5py and the C API both
 * write: fixed or variable-length strings (ASCII or UTF-8; a string longer
 * than outlen - 1 is refused), any integer width, scalar or one-element
 * dataspaces. out is char[outlen] (STR), long long (INT), uint64_t (UINT64:
 * an unsigned or a non-negative signed integer) or double (DOUBLE: any
 * integer or float, converted by value). obj names loc in messages
 * ("/kv_fp8"), NULL for the root: "attribute <name>" or
 * "<obj>: attribute <name>". Returns MLAB_EXIT_OK, MLAB_H5_ABSENT when it
 * is absent and not required, or an MLAB_EXIT_* error with the reason. */
typedef enum { MLAB_ATTR_STR, MLAB_ATTR_INT, MLAB_ATTR_UINT64, MLAB_ATTR_DOUBLE } mlab_attr_kind;
int mlab_h5_attr_get(const mlab_why *w, hid_t loc, const char *obj, const char *name,
                     mlab_attr_kind kind, void *out, size_t outlen, int required);

/* An integer attribute of loc within [lo, hi] (mlab_h5_attr_get, INT). */
int mlab_h5_attr_int(const mlab_why *w, hid_t loc, const char *obj, const char *name, long lo,
                     long hi, int required, long *out);

/* Write a scalar attribute: stored as ftype, v in memory as mtype. The
 * string form stores a variable-length string (h5py reads it as str) in
 * character set cset (H5T_CSET_ASCII or H5T_CSET_UTF8). Return 0 or -1
 * (the caller names what failed). */
int mlab_h5_attr_put(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *v);
int mlab_h5_attr_put_str(hid_t loc, const char *name, const char *s, H5T_cset_t cset);

/* Open dataset name of loc, which an untrusted file may make anything: it
 * must be a hard link (a soft or external link would take the data from
 * elsewhere) to a dataset. Messages name it "/<name>". Returns
 * MLAB_EXIT_OK with *ds open, MLAB_H5_ABSENT when it is absent and not
 * required, or MLAB_EXIT_BADINPUT with the reason (*ds then -1). */
int mlab_h5_dataset_open(const mlab_why *w, hid_t loc, const char *name, int required, hid_t *ds);

#endif
