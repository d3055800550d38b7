/* case_check.h: one dataset of a case file, checked before a byte of it is
 * read (case_read.c's step per dataset).
 *
 * HDF5 converts values, not bits: a float32 /q would be silently rounded
 * into uint16. So every dataset's link, type class, size, sign, byte order,
 * rank, dims, filters, dataset attributes and storage are checked against
 * the schema (case_schema.h) first; then it is read as raw bits with a
 * same-size unsigned memory type (big-endian files are byte-swapped
 * exactly) or the file's own opaque type (h5py's ml_dtypes arrays). */
#ifndef MLAB_CASE_CHECK_H
#define MLAB_CASE_CHECK_H

#include <hdf5.h> /* hid_t, hsize_t */

#include "case_schema.h" /* MLAB_DS_*, mlab_fp8_fmt */
#include "reason.h"      /* mlab_why */

/* An open dataset that passed its checks, and how to read it. */
typedef struct {
    hid_t ds;
    hid_t memtype; /* native uint/int/float, or a copy of the opaque type */
    int present;
    hsize_t dims[3];
} mlab_case_ds;

/* Open dataset i (MLAB_DS_*) of file f and check everything but its
 * values. total_q and total_kv may be MLAB_DIM_TOTAL_Q / _KV: any size
 * (/q and /kv_bf16 define them). An absent optional dataset leaves
 * o->present = 0. Returns MLAB_EXIT_OK or MLAB_EXIT_BADINPUT with the
 * reason; on failure nothing stays open. */
int mlab_case_ds_open(const mlab_why *w, hid_t f, int i, long total_q, long total_kv, long batch,
                      mlab_fp8_fmt fp8, int required, mlab_case_ds *o);

/* Read all of it into buf (sized by the caller from o->dims). */
int mlab_case_ds_read(const mlab_why *w, int i, const mlab_case_ds *o, void *buf);

/* In the guard's child: read a chunked or compact dataset through libhdf5
 * (its chunk index and filters are where a corrupt file bites), a slab of
 * rows at a time into a scratch buffer, and keep nothing. */
int mlab_case_ds_probe(const mlab_why *w, int i, const mlab_case_ds *o);

/* Close what mlab_case_ds_open left open (idempotent). */
void mlab_case_ds_close(mlab_case_ds *o);

#endif
