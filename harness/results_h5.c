/* results_h5.c: results files, schema "mlabench-results" version 2, reads
 * version 1 too (fields added by version 2 read as zero / "", and a row's
 * kind follows from its variant_id) (results_h5.h; the layout is documented in data/README.md).
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
 * Reading checks every dataset's storage before allocating for it
 * (mlab_h5_storage_check: a file declaring 2^61 samples is refused) and
 * parses the file first in a contained child (mlab_guard_read).
 * A process killed mid-write (SIGKILL, power) leaves its temporary behind
 * but never touches path; the next write to the same path removes
 * temporaries whose pid is no longer alive (mlab_atomic_begin). The test
 * hook MLAB_RESULTS_TEST_KILL=1 makes the writer SIGKILL itself after /rows
 * is written, before the flush: the child kills its parent, the mlabench
 * process, and itself (tests/test_results_atomic.py).
 */
#include "results_h5.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "atomic.h"    /* mlab_atomic_write, mlab_input_check */
#include "exitcodes.h" /* MLAB_EXIT_* */
#include "guard.h"     /* mlab_guard_read, mlab_h5_silence */

static int fail(char *why, size_t whylen, int code, const char *path, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (why && whylen) { /* one line, whatever strings the file holds */
        char m[2048], p[1024];
        snprintf(why, whylen, "%s: %s", mlab_escape(path, p, sizeof p, 0),
                 mlab_escape(msg, m, sizeof m, 1));
    }
    return code;
}

/* ---- HDF5 types from the field tables ------------------------------------ */

static hid_t str_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, size);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    return t;
}

static hid_t mem_scalar(char kind)
{
    switch (kind) {
    case 'i': return H5T_NATIVE_INT;
    case 'z': return sizeof(size_t) == sizeof(unsigned long long) ? H5T_NATIVE_ULLONG
                                                                  : H5T_NATIVE_ULONG;
    default: return H5T_NATIVE_DOUBLE;
    }
}

static hid_t file_scalar(char kind, size_t *size)
{
    switch (kind) {
    case 'i': *size = 4; return H5T_STD_I32LE;
    case 'z': *size = 8; return H5T_STD_U64LE;
    default: *size = 8; return H5T_IEEE_F64LE;
    }
}

/* The memory compound (record = the C struct, size stride) and the packed
 * little-endian file compound for n fields. Returns 0 or -1. */
static int compound_types(const mlab_field *f, size_t n, size_t stride, hid_t *mem, hid_t *file)
{
    size_t fsize = 0;
    for (size_t i = 0; i < n; i++) {
        size_t s = f[i].size;
        if (f[i].kind != 's')
            file_scalar(f[i].kind, &s);
        fsize += s;
    }
    *mem = H5Tcreate(H5T_COMPOUND, stride);
    *file = H5Tcreate(H5T_COMPOUND, fsize);
    if (*mem < 0 || *file < 0)
        return -1;
    size_t off = 0;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (f[i].kind == 's') {
            hid_t t = str_type(f[i].size);
            bad |= H5Tinsert(*mem, f[i].name, f[i].offset, t) < 0;
            bad |= H5Tinsert(*file, f[i].name, off, t) < 0;
            H5Tclose(t);
            off += f[i].size;
        } else {
            size_t s;
            hid_t ft = file_scalar(f[i].kind, &s);
            bad |= H5Tinsert(*mem, f[i].name, f[i].offset, mem_scalar(f[i].kind)) < 0;
            bad |= H5Tinsert(*file, f[i].name, off, ft) < 0;
            off += s;
        }
    }
    return bad ? -1 : 0;
}

/* The input-file record has no field table elsewhere: it is this file's. */
static const mlab_field input_fields[] = {
    {"path", 's', offsetof(mlab_input_file, path), sizeof(((mlab_input_file *)0)->path)},
    {"sha256", 's', offsetof(mlab_input_file, sha256), sizeof(((mlab_input_file *)0)->sha256)},
    {"schema", 's', offsetof(mlab_input_file, schema), sizeof(((mlab_input_file *)0)->schema)},
    {"schema_version", 'i', offsetof(mlab_input_file, schema_version), sizeof(int)},
    {"case_name", 's', offsetof(mlab_input_file, case_name),
     sizeof(((mlab_input_file *)0)->case_name)},
#define TENSOR_HASH(m) {#m, 's', offsetof(mlab_input_file, m), sizeof(((mlab_input_file *)0)->m)}
    TENSOR_HASH(q_sha256), TENSOR_HASH(kv_bf16_sha256), TENSOR_HASH(kv_fp8_sha256),
    TENSOR_HASH(kv_fp4_sha256), TENSOR_HASH(kv_e8m0_sha256), TENSOR_HASH(qo_indptr_sha256),
    TENSOR_HASH(kv_indptr_sha256),
#undef TENSOR_HASH
};

/* Fields that version 2 added: a version-1 file lacks them, and they read
 * as zero / "" (row kind then follows from variant_id, see read_body). */
static int v2_only(const char *name)
{
    static const char *v2[] = {"kind", "read_limit_us", "read_limit_ratio", "grid", "block",
                               "smem_bytes", "blocks_per_sm", "peer_version", "device_index",
                               "gpu_uuid", "host", "sm_clock_mhz", "temp_c", "throttled"};
    for (size_t i = 0; i < sizeof v2 / sizeof v2[0]; i++)
        if (strcmp(name, v2[i]) == 0)
            return 1;
    size_t n = strlen(name);
    return n > 7 && strcmp(name + n - 7, "_sha256") == 0; /* the per-tensor hashes */
}
#define N_INPUT_FIELDS (sizeof input_fields / sizeof input_fields[0])

/* The per-tensor input hashes came after the first version-2 files (those
 * of 2026-12-01 02:25-03:00 lack them): missing, they read "" in any version,
 * and compare reports such inputs as unchecked. */
static int optional_field(const char *name)
{
    size_t n = strlen(name);
    return n > 7 && strcmp(name + n - 7, "_sha256") == 0;
}

/* Zero every string field's bytes after its NUL (and force the NUL), so the
 * file holds no stale memory and equal results give equal records. */
static void clean_strings(void *rec, const mlab_field *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (f[i].kind == 's') {
            char *s = (char *)rec + f[i].offset;
            s[f[i].size - 1] = 0;
            size_t l = strlen(s);
            memset(s + l, 0, f[i].size - l);
        }
}

/* ---- writing -------------------------------------------------------------- */

static int attr_write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *buf)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = (sp < 0 || a < 0 || H5Awrite(a, mtype, buf) < 0) ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

static int attr_write_str(hid_t loc, const char *name, const char *s)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    int rc = attr_write(loc, name, t, t, &s);
    H5Tclose(t);
    return rc;
}

static int attr_write_int(hid_t loc, const char *name, int v)
{
    return attr_write(loc, name, H5T_STD_I32LE, H5T_NATIVE_INT, &v);
}

static int attr_write_double(hid_t loc, const char *name, double v)
{
    return attr_write(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

/* A rank-1 dataset of n elements; buf may be NULL when n is 0. */
static int dset_write(hid_t f, const char *name, hid_t ftype, hid_t mtype, size_t n,
                      const void *buf, const char *description)
{
    hsize_t dims[1] = {n};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t d = sp < 0 ? -1 : H5Dcreate2(f, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 ? -1 : 0;
    if (rc == 0 && n > 0 && H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = -1;
    if (rc == 0 && description && attr_write_str(d, "description", description) < 0)
        rc = -1;
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

static int write_env(hid_t f, const mlab_env *env)
{
    size_t n;
    const mlab_field *fl = mlab_env_fields(&n);
    if (attr_write_str(f, "format", MLAB_RESULTS_FORMAT) < 0 ||
        attr_write_int(f, "format_version", MLAB_RESULTS_VERSION) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)env + fl[i].offset;
        int rc;
        if (fl[i].kind == 's') {
            char buf[1024];
            snprintf(buf, sizeof buf, "%.*s", (int)fl[i].size, p);
            rc = attr_write_str(f, fl[i].name, buf);
        } else if (fl[i].kind == 'i') {
            rc = attr_write_int(f, fl[i].name, *(const int *)p);
        } else {
            rc = attr_write_double(f, fl[i].name, *(const double *)p);
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
    size_t nrf;
    const mlab_field *rf = mlab_row_fields(&nrf);
    hid_t mem = -1, file = -1;
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
        clean_strings(&rows[i], rf, nrf);
        total += r->rows[i].samples_us ? r->rows[i].nsamples : 0;
        offset[i + 1] = (int64_t)total;
        rows[i].nsamples = (size_t)(offset[i + 1] - offset[i]);
    }
    if (compound_types(rf, nrf, sizeof(mlab_row), &mem, &file) < 0 ||
        dset_write(f, "rows", file, mem, r->nrows, rows,
                   "one record per (case, variant); fields and units in data/README.md "
                   "(times in microseconds, bytes, GB/s = 1e9 B/s)") < 0) {
        failed = "/rows";
        goto out;
    }
    H5Tclose(mem);
    H5Tclose(file);
    mem = file = -1;

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
        clean_strings(&ins[i], input_fields, N_INPUT_FIELDS);
    }
    if (compound_types(input_fields, N_INPUT_FIELDS, sizeof(mlab_input_file), &mem, &file) < 0 ||
        dset_write(f, "inputs", file, mem, r->ninputs, ins,
                   "the cases this run read, with the SHA-256 of each tensor (data/README.md)") < 0)
        failed = "/inputs";

out:
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    free(rows);
    free(ins);
    free(samples);
    free(offset);
    return failed;
}

typedef struct {
    const char *path;
    const mlab_results *r;
} write_args;

/* In the writer's child (mlab_atomic_write): the whole file at tmp. */
static int write_tmp(const char *tmp, void *arg, char *why, size_t whylen)
{
    const write_args *a = arg;
    hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return fail(why, whylen, MLAB_EXIT_IO, a->path, "HDF5 cannot create %s", tmp);
    const char *failed = write_body(f, a->r);
    if (!failed && H5Fflush(f, H5F_SCOPE_GLOBAL) < 0)
        failed = "flush";
    if (H5Fclose(f) < 0 && !failed)
        failed = "close";
    if (failed)
        return fail(why, whylen, MLAB_EXIT_IO, a->path, "cannot write %s (HDF5 error)", failed);
    return MLAB_EXIT_OK;
}

int mlab_results_write(const char *path, const mlab_results *r, char *why, size_t whylen)
{
    write_args a = {path, r};
    return mlab_atomic_write(path, write_tmp, &a, why, whylen);
}

/* ---- reading -------------------------------------------------------------- */

/* Read a scalar string attribute (variable- or fixed-length) into dst.
 * 1 found, 0 absent, -1 not a string. */
static int attr_read_str(hid_t loc, const char *name, char *dst, size_t size)
{
    if (H5Aexists(loc, name) <= 0)
        return 0;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    int rc = -1;
    if (t >= 0 && H5Tget_class(t) == H5T_STRING) {
        if (H5Tis_variable_str(t) > 0) {
            hid_t m = H5Tcopy(H5T_C_S1);
            H5Tset_size(m, H5T_VARIABLE);
            H5Tset_cset(m, H5Tget_cset(t));
            char *s = NULL;
            if (H5Aread(a, m, &s) >= 0) {
                snprintf(dst, size, "%s", s ? s : "");
                rc = 1;
            }
            if (s)
                H5free_memory(s);
            H5Tclose(m);
        } else {
            size_t n = H5Tget_size(t); /* ours are short: past 64 KB, refused */
            char *buf = n > 65536 ? NULL : calloc(n + 1, 1);
            hid_t m = str_type(n + 1);
            if (buf && H5Aread(a, m, buf) >= 0) {
                snprintf(dst, size, "%s", buf);
                rc = 1;
            }
            H5Tclose(m);
            free(buf);
        }
    }
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

/* Numeric scalar attribute: 1 found, 0 absent, -1 not a number. */
static int attr_read_num(hid_t loc, const char *name, hid_t mtype, void *dst)
{
    if (H5Aexists(loc, name) <= 0)
        return 0;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    int rc = -1;
    if (t >= 0) {
        H5T_class_t c = H5Tget_class(t);
        if ((c == H5T_INTEGER || c == H5T_FLOAT) && H5Aread(a, mtype, dst) >= 0)
            rc = 1;
        H5Tclose(t);
    }
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

/* Open a rank-1 dataset, check its class and its storage (guard.h), return
 * its length. -2: absent, -3: wrong class or rank, -4: storage refused
 * (reason in bad), -1: cannot be opened. */
static hid_t dset_open(hid_t f, const char *name, H5T_class_t want, hsize_t *len, char *bad,
                       size_t badlen)
{
    H5L_info_t li;
    if (H5Lexists(f, name, H5P_DEFAULT) <= 0)
        return -2;
    if (H5Lget_info(f, name, &li, H5P_DEFAULT) < 0)
        return -1;
    if (li.type != H5L_TYPE_HARD) {
        snprintf(bad, badlen, "is a %s link: not accepted",
                 li.type == H5L_TYPE_SOFT ? "soft" : "external");
        return -4;
    }
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t t = H5Dget_type(d), sp = H5Dget_space(d);
    int ok = t >= 0 && sp >= 0 && H5Tget_class(t) == want && H5Sget_simple_extent_ndims(sp) == 1;
    if (ok)
        H5Sget_simple_extent_dims(sp, len, NULL);
    size_t elem = t >= 0 ? H5Tget_size(t) : 0;
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
    if (!ok) {
        H5Dclose(d);
        return -3;
    }
    if (mlab_h5_storage_check(d, elem, bad, badlen) != 0) {
        H5Dclose(d);
        return -4;
    }
    return d;
}

/* Copy into have[] the fields of the table that d's compound type holds
 * (*nhave of them). A field it lacks is named in the return value unless
 * the file is version 1 and the field came with version 2. */
static const char *present_fields(hid_t d, int version, const mlab_field *f, size_t n,
                                  mlab_field *have, size_t *nhave)
{
    hid_t t = H5Dget_type(d);
    const char *miss = NULL;
    *nhave = 0;
    for (size_t i = 0; i < n && !miss; i++) {
        if (H5Tget_member_index(t, f[i].name) >= 0)
            have[(*nhave)++] = f[i];
        else if (!(version < 2 && v2_only(f[i].name)) && !optional_field(f[i].name))
            miss = f[i].name;
    }
    H5Tclose(t);
    return miss;
}

static int read_compound(const char *path, hid_t f, int version, const char *name,
                         const mlab_field *all, size_t nall, size_t stride, void **out,
                         size_t *count, char *why, size_t whylen)
{
    mlab_field fl[128];
    size_t nf = 0;
    if (nall > sizeof fl / sizeof fl[0])
        return fail(why, whylen, MLAB_EXIT_INTERNAL, path, "/%s: too many fields", name);
    hsize_t len = 0;
    char bad[256] = "";
    hid_t d = dset_open(f, name, H5T_COMPOUND, &len, bad, sizeof bad);
    if (d == -2)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path, "no /%s dataset", name);
    if (d == -4)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path, "/%s %s", name, bad);
    if (d < 0)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                    "/%s is not a rank-1 compound dataset", name);
    const char *miss = present_fields(d, version, all, nall, fl, &nf);
    if (miss) {
        H5Dclose(d);
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path, "/%s has no field '%s'", name, miss);
    }
    char *buf = len > SIZE_MAX / stride ? NULL : calloc(len ? len : 1, stride);
    hid_t mem = -1, file = -1;
    int rc = MLAB_EXIT_OK;
    if (!buf)
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                  "/%s: %llu records cannot be allocated", name, (unsigned long long)len);
    else if (compound_types(fl, nf, stride, &mem, &file) < 0)
        rc = fail(why, whylen, MLAB_EXIT_INTERNAL, path, "/%s: cannot build its type", name);
    else if (len > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                  "/%s: cannot read (a field of an unexpected type?)", name);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    H5Dclose(d);
    if (rc != MLAB_EXIT_OK) {
        free(buf);
        return rc;
    }
    for (hsize_t i = 0; i < len; i++)
        clean_strings(buf + i * stride, fl, nf);
    *out = buf;
    *count = (size_t)len;
    return MLAB_EXIT_OK;
}

static int read_samples(const char *path, hid_t f, mlab_results *r, char *why, size_t whylen)
{
    hsize_t nsamp = 0, noff = 0;
    double *s = NULL;
    int64_t *off = NULL;
    int rc = MLAB_EXIT_OK;
    char bad[256] = "", badoff[256] = "";
    hid_t ds = dset_open(f, "samples_us", H5T_FLOAT, &nsamp, bad, sizeof bad);
    hid_t dof = dset_open(f, "samples_offset", H5T_INTEGER, &noff, badoff, sizeof badoff);
    if (ds == -4 || dof == -4) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path, "/%s %s",
                  ds == -4 ? "samples_us" : "samples_offset", ds == -4 ? bad : badoff);
        goto out;
    }
    if (ds < 0 || dof < 0) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path, "%s",
                  ds == -2 ? "no /samples_us dataset" : ds < 0 ? "/samples_us is not rank-1 float"
                  : dof == -2 ? "no /samples_offset dataset"
                              : "/samples_offset is not rank-1 integer");
        goto out;
    }
    if (noff != r->nrows + 1) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                  "/samples_offset has %llu entries, /rows has %zu rows (want rows + 1)",
                  (unsigned long long)noff, r->nrows);
        goto out;
    }
    /* sizes from the file: every product checked (the storage check above
     * already bounds them by the file's size) */
    if (nsamp > SIZE_MAX / sizeof *s || noff > SIZE_MAX / sizeof *off) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path, "/samples_us: %llu samples is too many",
                  (unsigned long long)nsamp);
        goto out;
    }
    s = malloc((nsamp ? nsamp : 1) * sizeof *s);
    off = malloc(noff * sizeof *off);
    if (!s || !off) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                  "/samples_us: %llu samples cannot be allocated", (unsigned long long)nsamp);
        goto out;
    }
    if ((nsamp > 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, s) < 0) ||
        H5Dread(dof, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, off) < 0) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path, "cannot read /samples_us or /samples_offset");
        goto out;
    }
    if (off[0] != 0 || off[noff - 1] != (int64_t)nsamp) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                  "/samples_offset runs %lld..%lld, want 0..%llu (the length of /samples_us)",
                  (long long)off[0], (long long)off[noff - 1], (unsigned long long)nsamp);
        goto out;
    }
    for (size_t i = 0; i < r->nrows; i++) {
        mlab_row *row = &r->rows[i];
        if (off[i + 1] < off[i]) {
            rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                      "/samples_offset[%zu] = %lld < [%zu] = %lld: decreases", i + 1,
                      (long long)off[i + 1], i, (long long)off[i]);
            goto out;
        }
        size_t n = (size_t)(off[i + 1] - off[i]);
        if (n != row->nsamples) {
            rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                      "row %zu (%s/%s): nsamples %zu but /samples_offset gives %zu", i,
                      row->case_name, row->variant, row->nsamples, n);
            goto out;
        }
        if (n) {
            row->samples_us = malloc(n * sizeof(double));
            if (!row->samples_us) {
                rc = fail(why, whylen, MLAB_EXIT_INTERNAL, path, "out of memory");
                goto out;
            }
            memcpy(row->samples_us, s + off[i], n * sizeof(double));
        }
    }
out:
    if (ds >= 0)
        H5Dclose(ds);
    if (dof >= 0)
        H5Dclose(dof);
    free(s);
    free(off);
    return rc;
}

static int read_body(const char *path, hid_t f, mlab_results *r, char *why, size_t whylen)
{
    char format[64] = "";
    int version = 0;
    int got = attr_read_str(f, "format", format, sizeof format);
    if (got <= 0)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                    "no 'format' attribute: not an mlabench results file");
    if (strcmp(format, MLAB_RESULTS_FORMAT) != 0)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path, "format is '%s', not '%s'%s", format,
                    MLAB_RESULTS_FORMAT,
                    strcmp(format, "mlabench-case") == 0 ? " (a case file: give it to mlabench run)"
                                                         : "");
    if (attr_read_num(f, "format_version", H5T_NATIVE_INT, &version) <= 0)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path, "no integer 'format_version' attribute");
    if (version > MLAB_RESULTS_VERSION)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                    "%s version %d is newer than this mlabench reads (%d): use a newer mlabench",
                    MLAB_RESULTS_FORMAT, version, MLAB_RESULTS_VERSION);
    if (version < 1)
        return fail(why, whylen, MLAB_EXIT_BADINPUT, path, "format_version %d is not valid",
                    version);

    /* environment: every field of a v1 file; one missing (a file written by
     * hand, e.g. from h5py) is left empty rather than refused */
    size_t nef;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t i = 0; i < nef; i++) {
        char *p = (char *)&r->env + ef[i].offset;
        int rc = ef[i].kind == 's' ? attr_read_str(f, ef[i].name, p, ef[i].size)
               : ef[i].kind == 'i' ? attr_read_num(f, ef[i].name, H5T_NATIVE_INT, p)
                                   : attr_read_num(f, ef[i].name, H5T_NATIVE_DOUBLE, p);
        if (rc < 0)
            return fail(why, whylen, MLAB_EXIT_BADINPUT, path,
                        "root attribute '%s' has the wrong type (want %s)", ef[i].name,
                        ef[i].kind == 's' ? "string" : "number");
    }

    size_t nrf;
    const mlab_field *rf = mlab_row_fields(&nrf);
    void *buf = NULL;
    size_t n = 0;
    int rc = read_compound(path, f, version, "rows", rf, nrf, sizeof(mlab_row), &buf, &n, why,
                           whylen);
    if (rc != MLAB_EXIT_OK)
        return rc;
    r->rows = buf;
    r->nrows = n;
    for (size_t i = 0; i < n; i++) {
        mlab_row *w = &r->rows[i];
        w->samples_us = NULL; /* not a file field; calloc left it NULL */
        if (!w->kind[0]) /* version 1: CPU reference rows had negative ids */
            snprintf(w->kind, sizeof w->kind, "%s", w->variant_id < 0 ? "cpu" : "gpu");
    }
    rc = read_samples(path, f, r, why, whylen);
    if (rc != MLAB_EXIT_OK)
        return rc;

    buf = NULL;
    rc = read_compound(path, f, version, "inputs", input_fields, N_INPUT_FIELDS,
                       sizeof(mlab_input_file), &buf, &n, why, whylen);
    if (rc != MLAB_EXIT_OK)
        return rc;
    r->inputs = buf;
    r->ninputs = n;
    return MLAB_EXIT_OK;
}

/* Open and read path into r (mlab_results_read without the guard). */
static int read_file(const char *path, mlab_results *r, char *why, size_t whylen)
{
    mlab_results_init(r);
    int rc;
    hid_t f = -1;
    if (H5Fis_hdf5(path) <= 0) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path, "not an HDF5 file");
        goto out;
    }
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        rc = fail(why, whylen, MLAB_EXIT_BADINPUT, path, "truncated or corrupt HDF5 file");
        goto out;
    }
    rc = read_body(path, f, r, why, whylen);
out:
    if (f >= 0)
        H5Fclose(f);
    if (rc != MLAB_EXIT_OK)
        mlab_results_free(r);
    return rc;
}

/* In the guard's child: the whole read, thrown away. */
static int read_in_child(void *arg, char *why, size_t whylen)
{
    mlab_results r;
    int rc = read_file(arg, &r, why, whylen);
    if (rc == MLAB_EXIT_OK)
        mlab_results_free(&r);
    return rc;
}

int mlab_results_read(const char *path, mlab_results *r, char *why, size_t whylen)
{
    mlab_results_init(r);
    int rc = mlab_input_check(path, why, whylen);
    if (rc != MLAB_EXIT_OK)
        return rc;
    mlab_h5_silence();
    /* libhdf5 parses the file first in a child (guard.h): a crash or a hang
     * there is a corrupt file, not a dead mlabench */
    rc = mlab_guard_read(path, read_in_child, (void *)path, why, whylen);
    if (rc != MLAB_EXIT_OK)
        return rc;
    return read_file(path, r, why, whylen);
}
