/* results_write.c: writing a results file, schema "mlabench-results"
 * version 2 (results_write.h; the layout is documented in data/README.md).
 *
 *   /                 attributes: format, format_version, every mlab_env field
 *                     (strings as variable-length UTF-8, ints int32, doubles f64)
 *   /rows             compound [nrows], one record per (case, variant): every
 *                     scalar of mlab_row (mlab_row_fields, the same names and
 *                     order as the CSV export), fixed-length strings
 *   /samples_us       float64 [total samples]: every raw sample, row after row
 *   /samples_offset   int64 [nrows + 1]: row i's samples are
 *                     samples_us[samples_offset[i] : samples_offset[i + 1]]
 *   /inputs           compound [ninputs]: path, sha256, schema,
 *                     schema_version, case_name of each input file, and
 *                     (v2) the SHA-256 of each of its tensors
 * The flat /samples_us + /samples_offset layout is one slice per row in h5py
 * and numpy, with no group of thousands of small datasets.
 *
 * Writing is atomic (mlab_atomic_write, atomic.h): "<path>.tmp.<pid>" in the
 * same folder written by a child process, H5Fflush, close, fsync, rename
 * over path, fsync of the folder; on failure the temporary is removed.
 * A process killed mid-write (SIGKILL, power) leaves its temporary behind
 * but never touches path; the next write to the same path removes
 * temporaries whose pid is no longer alive (mlab_atomic_begin). The test
 * hook MLAB_RESULTS_TEST_KILL=1 makes the writer SIGKILL itself after /rows
 * is written, before the flush: the child kills its parent, the mlabench
 * process, and itself (tests/test_results_atomic.py).
 */
#include "results_write.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <hdf5.h>

#include "atomic.h"         /* mlab_atomic_write */
#include "exitcodes.h"      /* MLAB_EXIT_* */
#include "h5util.h"         /* mlab_h5_attr_put, mlab_h5_attr_put_str */
#include "reason.h"         /* mlab_why, mlab_fail */
#include "results_schema.h" /* mlab_results_types, mlab_input_fields, ... */

static int put_str(hid_t loc, const char *name, const char *s)
{
    return mlab_h5_attr_put_str(loc, name, s, H5T_CSET_UTF8);
}

/* Datasets of at least this many bytes are stored compressed (chunks of
 * up to 1 MiB, shuffle + deflate 6) where the library has deflate: the
 * samples and the rows shrink ~3x (a suite's file ~200 -> ~65 KB), and
 * every HDF5 reader (mlabench, h5py, h5dump) reads them as they are. By
 * bytes, not elements: a run of a few cases has under 64 rows of ~830
 * bytes each, which a count of 64 elements left uncompressed (43 of a
 * 71 KB file, v60's sweep files; h5repack -f GZIP=9 halved them). */
#define MLAB_RESULTS_DEFLATE_MIN_BYTES 4096

/* the dataset creation properties of n elements of ftype: chunked and
 * compressed (see above), or H5P_DEFAULT (contiguous); -1 on failure */
static hid_t dset_dcpl(hid_t ftype, size_t n)
{
    size_t esize = H5Tget_size(ftype), cap = esize ? ((size_t)1 << 20) / esize : n;
    if (n * esize < MLAB_RESULTS_DEFLATE_MIN_BYTES || H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0 ||
        H5Zfilter_avail(H5Z_FILTER_SHUFFLE) <= 0)
        return H5P_DEFAULT;
    hsize_t chunk[1] = {n < cap ? n : cap > 0 ? cap : 1};
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0 || H5Pset_chunk(dcpl, 1, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, 6) < 0) {
        if (dcpl >= 0)
            H5Pclose(dcpl);
        return -1;
    }
    return dcpl;
}

/* A rank-1 dataset of n elements; buf may be NULL when n is 0. */
static int dset_write(hid_t f, const char *name, hid_t ftype, hid_t mtype, size_t n,
                      const void *buf, const char *description)
{
    hsize_t dims[1] = {n};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = sp < 0 ? -1 : dset_dcpl(ftype, n);
    hid_t d = dcpl < 0 ? -1 : H5Dcreate2(f, name, ftype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl > 0) /* a list of its own (H5P_DEFAULT is 0) */
        H5Pclose(dcpl);
    int rc = d < 0 ? -1 : 0;
    if (rc == 0 && n > 0 && H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = -1;
    if (rc == 0 && description && put_str(d, "description", description) < 0)
        rc = -1;
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

/* A compound dataset of n records from a field table (results_schema.h). */
static int records_write(hid_t f, const char *name, const mlab_field *fl, size_t nf,
                         size_t stride, size_t n, const void *records, const char *description)
{
    hid_t mem = -1, file = -1;
    int rc = mlab_results_types(fl, nf, stride, &mem, &file);
    if (rc == 0)
        rc = dset_write(f, name, file, mem, n, records, description);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    return rc;
}

static int write_env(hid_t f, const mlab_env *env)
{
    size_t n;
    const mlab_field *fl = mlab_env_fields(&n);
    int version = MLAB_RESULTS_VERSION;
    if (put_str(f, "format", MLAB_RESULTS_FORMAT) < 0 ||
        mlab_h5_attr_put(f, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT, &version) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)env + fl[i].offset;
        int rc;
        if (fl[i].kind == 's') {
            char buf[1024];
            snprintf(buf, sizeof buf, "%.*s", (int)fl[i].size, p);
            rc = put_str(f, fl[i].name, buf);
        } else if (fl[i].kind == 'i') {
            rc = mlab_h5_attr_put(f, fl[i].name, H5T_STD_I32LE, H5T_NATIVE_INT, p);
        } else {
            rc = mlab_h5_attr_put(f, fl[i].name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, p);
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* The body of a write into the open file f; returns the dataset that failed
 * or NULL. */
static const char *write_body(hid_t f, const mlab_results *r)
{
    size_t nrf, nif;
    const mlab_field *rf = mlab_row_fields(&nrf), *inf = mlab_input_fields(&nif);
    const char *failed = NULL;
    mlab_row *rows = NULL;
    mlab_input_file *ins = NULL;
    double *samples = NULL;
    int64_t *offset = NULL;

    if (write_env(f, &r->env) < 0) {
        failed = "root attributes";
        goto out;
    }

    /* /rows */
    rows = calloc(r->nrows ? r->nrows : 1, sizeof *rows);
    offset = malloc((r->nrows + 1) * sizeof *offset);
    if (!rows || !offset) {
        failed = "/rows (out of memory)";
        goto out;
    }
    size_t total = 0;
    offset[0] = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        rows[i] = r->rows[i];
        rows[i].samples_us = NULL;
        mlab_results_clean_strings(&rows[i], rf, nrf);
        total += r->rows[i].samples_us ? r->rows[i].nsamples : 0;
        offset[i + 1] = (int64_t)total;
        rows[i].nsamples = (size_t)(offset[i + 1] - offset[i]);
    }
    if (records_write(f, "rows", rf, nrf, sizeof(mlab_row), r->nrows, rows,
                      "one record per (case, variant); fields and units in data/README.md "
                      "(times in microseconds, bytes, GB/s = 1e9 B/s)") < 0) {
        failed = "/rows";
        goto out;
    }

    if (getenv("MLAB_RESULTS_TEST_KILL") && strcmp(getenv("MLAB_RESULTS_TEST_KILL"), "1") == 0) {
        /* test hook: mlabench killed mid-write (see the opening comment); this
         * runs in mlab_atomic_write's child, which dies with its parent */
        kill(getppid(), SIGKILL);
        raise(SIGKILL);
    }

    /* /samples_us, /samples_offset */
    samples = malloc((total ? total : 1) * sizeof *samples);
    if (!samples) {
        failed = "/samples_us (out of memory)";
        goto out;
    }
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].samples_us && r->rows[i].nsamples)
            memcpy(samples + offset[i], r->rows[i].samples_us,
                   r->rows[i].nsamples * sizeof *samples);
    if (dset_write(f, "samples_us", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, total, samples,
                   "every raw cold sample in microseconds; row i's are "
                   "samples_us[samples_offset[i]:samples_offset[i+1]]") < 0) {
        failed = "/samples_us";
        goto out;
    }
    if (dset_write(f, "samples_offset", H5T_STD_I64LE, H5T_NATIVE_INT64, r->nrows + 1, offset,
                   "nrows + 1 offsets into /samples_us, starting at 0") < 0) {
        failed = "/samples_offset";
        goto out;
    }

    /* /inputs */
    ins = calloc(r->ninputs ? r->ninputs : 1, sizeof *ins);
    if (!ins) {
        failed = "/inputs (out of memory)";
        goto out;
    }
    for (size_t i = 0; i < r->ninputs; i++) {
        ins[i] = r->inputs[i];
        mlab_results_clean_strings(&ins[i], inf, nif);
    }
    if (records_write(f, "inputs", inf, nif, sizeof(mlab_input_file), r->ninputs, ins,
                      "the cases this run read, with the SHA-256 of each tensor "
                      "(data/README.md)") < 0)
        failed = "/inputs";

out:
    free(rows);
    free(ins);
    free(samples);
    free(offset);
    return failed;
}

/* In the writer's child (mlab_atomic_write): the whole file at tmp. */
static int write_file(const mlab_why *w, const char *tmp, void *arg)
{
    hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return mlab_fail(w, MLAB_EXIT_IO, NULL, "HDF5 cannot create %s", tmp);
    const char *failed = write_body(f, arg);
    if (!failed && H5Fflush(f, H5F_SCOPE_GLOBAL) < 0)
        failed = "flush";
    if (H5Fclose(f) < 0 && !failed)
        failed = "close";
    if (failed)
        return mlab_fail(w, MLAB_EXIT_IO, NULL, "cannot write %s (HDF5 error)", failed);
    return MLAB_EXIT_OK;
}

int mlab_results_write(const char *path, const mlab_results *r, char *why, size_t whylen)
{
    return mlab_atomic_write(path, write_file, (void *)r, why, whylen);
}
