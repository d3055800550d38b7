/* results_schema.h: the results file's HDF5 types ("mlabench-results",
 * data/README.md), shared by its writer (results_write.c) and its reader
 * (results_read.c). Records are compound types built from the field tables
 * (results.h: mlab_env_fields, mlab_row_fields; mlab_input_fields here), so
 * the file, the CSV export and the C structs cannot drift apart. */
#ifndef MLAB_RESULTS_SCHEMA_H
#define MLAB_RESULTS_SCHEMA_H

#include <stddef.h>

#include <hdf5.h> /* hid_t */

#include "results.h" /* mlab_field, mlab_input_file */

/* The fields of an /inputs record (mlab_input_file). */
const mlab_field *mlab_input_fields(size_t *n);

/* The memory compound (record = the C struct, size stride) and the packed
 * little-endian file compound of n fields: strings fixed-length and
 * NUL-terminated, ints int32, sizes uint64, doubles float64. Returns 0, or
 * -1 (the caller closes whichever of *mem and *file is >= 0). */
int mlab_results_types(const mlab_field *f, size_t n, size_t stride, hid_t *mem, hid_t *file);

/* Zero every string field's bytes after its NUL (and force the NUL), so the
 * file holds no stale memory and equal results give equal records. */
void mlab_results_clean_strings(void *rec, const mlab_field *f, size_t n);

#endif
