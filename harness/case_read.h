/* case_read.h: reading case files (schema "mlabench-case", data/README.md).
 *
 * Reading checks every dataset's type class, size, rank and dims before it
 * reads a byte (HDF5 would silently convert values, not bits), accepts the
 * opaque types h5py writes for ml_dtypes arrays, then validates indptrs and
 * values with mlab_case_validate. An untrusted file is parsed first in a
 * forked child (guard.h), so a libhdf5 crash or hang on it is exit 3.
 * Each function returns an MLAB_EXIT_* code (exitcodes.h) and, on failure,
 * a one-line message naming the file and the dataset (reason.h), e.g.
 *   "cases/x.h5: /kv_indptr: kv_indptr[3] = 10 < kv_indptr[2] = 12: decreases"
 */
#ifndef MLAB_CASE_READ_H
#define MLAB_CASE_READ_H

#include <stddef.h>

#include "../reference/case.h" /* mlab_case */

int mlab_h5_read_case(const char *path, mlab_case *c, char *why, size_t whylen);

/* The name a case file carries when it sets none: its file name less .h5,
 * control characters as '_' (run --slice-costs names a file's case by it
 * without reading the file). */
void mlab_case_default_name(const char *path, char *name, size_t len);

/* The inputs of `mlabench import`: a file that may hold only /q, /kv_bf16,
 * /qo_indptr and /kv_indptr (as a PyTorch user writes it with h5py), with
 * every check of mlab_h5_read_case on what is there. The root attributes
 * become optional (batch from /qo_indptr, sm_scale 1/sqrt(576), e4m3fn, tie
 * up, name from the file's stem; a stated one is checked as usual). The
 * derived datasets (/kv_fp8, /kv_fp8_scale, /kv_mxfp4, /kv_mxfp4_scale,
 * /ref_out) are checked when present but never read: their buffers come
 * back zeroed, kv_fp8_scale 1 and ref_out NULL, for the caller to derive.
 * *seed_stated says whether the file has an attribute seed (c->seed). */
int mlab_h5_read_inputs(const char *path, mlab_case *c, int *seed_stated, char *why,
                        size_t whylen);

#endif
