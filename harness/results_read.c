/* results_read.c: reading a results file, schema "mlabench-results"
 * version 2, and version 1 too (fields added by version 2 read as zero /
 * "", and a row's kind follows from its variant_id) (results_read.h; the
 * layout is in results_write.c and data/README.md).
 *
 * Reading first probes the file (mlab_h5_probe: a regular file with the
 * HDF5 signature), then parses it in a contained child (mlab_guard_read),
 * then for real: the root attributes (format and version first), /rows,
 * /samples_us and /samples_offset (every offset checked against the rows
 * and the samples), /inputs. Each dataset's storage is checked before
 * anything is allocated for it (mlab_h5_storage_check: a file declaring
 * 2^61 samples is refused). */
#include "results_read.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "exitcodes.h"      /* MLAB_EXIT_* */
#include "guard.h"          /* mlab_guard_read, mlab_h5_silence, mlab_h5_storage_check */
#include "h5util.h"         /* mlab_h5_attr_get, mlab_h5_dataset_open, mlab_h5_probe, ... */
#include "reason.h"         /* mlab_why, mlab_fail */
#include "results_schema.h" /* mlab_results_types, mlab_input_fields, ... */

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

/* Fields that came after the first version-2 files: the per-tensor input
 * hashes (files of 2026-12-01 02:25-03:00 lack them; compare reports such
 * inputs as unchecked), a row's merge path (merge, after 2026-12-01 17:30),
 * its main kernel's footprint (regs, local_bytes, after 2026-12-04 23:00)
 * its KV copies' L2 policy (l2_policy, after 2026-12-05 16:00) and the
 * time NVML counted it power- or thermal-limited (slow_us, slow_span_us,
 * after 2026-12-05 18:00) and, in the environment, where a run stopped by a
 * signal stopped (stopped, after 2026-12-05 21:00) and the case it stopped
 * in (stopped_case, after 2026-12-06 00:00), and a row's decode unit (unit,
 * after 2026-12-06 23:00), and an input's time (wall_s, after 2026-12-07).
 * Missing, they read "" or 0 in any version; the environment's
 * idle_busy_pct (after 2026-12-07) reads -1 (mlab_results_init). */
static int optional_field(const char *name)
{
    size_t n = strlen(name);
    return (n > 7 && strcmp(name + n - 7, "_sha256") == 0) || strcmp(name, "merge") == 0 ||
           strcmp(name, "regs") == 0 || strcmp(name, "local_bytes") == 0 || strcmp(name, "l2_policy") == 0 ||
           strcmp(name, "slow_us") == 0 || strcmp(name, "slow_span_us") == 0 || strcmp(name, "stopped") == 0 ||
           strcmp(name, "stopped_case") == 0 || strcmp(name, "unit") == 0 || strcmp(name, "wall_s") == 0 ||
           strcmp(name, "idle_busy_pct") == 0;
}

/* Open the rank-1 dataset name, of type class want, with its storage
 * checked (guard.h); *len gets its length. */
static int dset_open(const mlab_why *w, hid_t f, const char *name, H5T_class_t want,
                     const char *want_name, hid_t *d, hsize_t *len)
{
    char obj[64], bad[256];
    snprintf(obj, sizeof obj, "/%s", name);
    int rc = mlab_h5_dataset_open(w, f, name, 1, d);
    if (rc != MLAB_EXIT_OK)
        return rc;
    hid_t t = H5Dget_type(*d), sp = H5Dget_space(*d);
    int ok = t >= 0 && sp >= 0 && H5Tget_class(t) == want && H5Sget_simple_extent_ndims(sp) == 1;
    if (ok)
        H5Sget_simple_extent_dims(sp, len, NULL);
    size_t elem = t >= 0 ? H5Tget_size(t) : 0;
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
    if (!ok)
        rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "is not a rank-1 %s dataset", want_name);
    else if (mlab_h5_storage_check(*d, elem, bad, sizeof bad) != 0)
        rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "%s", bad);
    if (rc != MLAB_EXIT_OK) {
        H5Dclose(*d);
        *d = -1;
    }
    return rc;
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

static int read_compound(const mlab_why *w, hid_t f, int version, const char *name,
                         const mlab_field *all, size_t nall, size_t stride, void **out,
                         size_t *count)
{
    mlab_field fl[128];
    size_t nf = 0;
    char obj[64];
    snprintf(obj, sizeof obj, "/%s", name);
    if (nall > sizeof fl / sizeof fl[0])
        return mlab_fail(w, MLAB_EXIT_INTERNAL, obj, "too many fields");
    hsize_t len = 0;
    hid_t d = -1;
    int rc = dset_open(w, f, name, H5T_COMPOUND, "compound", &d, &len);
    if (rc != MLAB_EXIT_OK)
        return rc;
    const char *miss = present_fields(d, version, all, nall, fl, &nf);
    if (miss) {
        H5Dclose(d);
        return mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "has no field '%s'", miss);
    }
    char *buf = len > SIZE_MAX / stride ? NULL : calloc(len ? len : 1, stride);
    hid_t mem = -1, file = -1;
    if (!buf)
        rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "%llu records cannot be allocated",
                       (unsigned long long)len);
    else if (mlab_results_types(fl, nf, stride, &mem, &file) < 0)
        rc = mlab_fail(w, MLAB_EXIT_INTERNAL, obj, "cannot build its type");
    else if (len > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "cannot read (a field of an unexpected type?)");
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
        mlab_results_clean_strings(buf + i * stride, fl, nf);
    *out = buf;
    *count = (size_t)len;
    return MLAB_EXIT_OK;
}

static int read_samples(const mlab_why *w, hid_t f, mlab_results *r)
{
    hsize_t nsamp = 0, noff = 0;
    double *s = NULL;
    int64_t *off = NULL;
    hid_t ds = -1, dof = -1;
    int rc = dset_open(w, f, "samples_us", H5T_FLOAT, "float", &ds, &nsamp);
    if (rc == MLAB_EXIT_OK)
        rc = dset_open(w, f, "samples_offset", H5T_INTEGER, "integer", &dof, &noff);
    if (rc != MLAB_EXIT_OK)
        goto out;
    rc = MLAB_EXIT_BADINPUT;
    if (noff != r->nrows + 1) {
        mlab_fail(w, rc, "/samples_offset", "has %llu entries, /rows has %zu rows (want rows + 1)",
                  (unsigned long long)noff, r->nrows);
        goto out;
    }
    /* sizes from the file: every product checked (the storage check above
     * already bounds them by the file's size) */
    if (nsamp > SIZE_MAX / sizeof *s || noff > SIZE_MAX / sizeof *off) {
        mlab_fail(w, rc, "/samples_us", "%llu samples is too many", (unsigned long long)nsamp);
        goto out;
    }
    s = malloc((nsamp ? nsamp : 1) * sizeof *s);
    off = malloc(noff * sizeof *off);
    if (!s || !off) {
        mlab_fail(w, rc, "/samples_us", "%llu samples cannot be allocated",
                  (unsigned long long)nsamp);
        goto out;
    }
    if ((nsamp > 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, s) < 0) ||
        H5Dread(dof, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, off) < 0) {
        mlab_fail(w, rc, NULL, "cannot read /samples_us or /samples_offset");
        goto out;
    }
    if (off[0] != 0 || off[noff - 1] != (int64_t)nsamp) {
        mlab_fail(w, rc, "/samples_offset", "runs %lld..%lld, want 0..%llu (the length of "
                  "/samples_us)", (long long)off[0], (long long)off[noff - 1],
                  (unsigned long long)nsamp);
        goto out;
    }
    for (size_t i = 0; i < r->nrows; i++) {
        mlab_row *row = &r->rows[i];
        if (off[i + 1] < off[i]) {
            mlab_fail(w, rc, NULL, "/samples_offset[%zu] = %lld < [%zu] = %lld: decreases",
                      i + 1, (long long)off[i + 1], i, (long long)off[i]);
            goto out;
        }
        size_t n = (size_t)(off[i + 1] - off[i]);
        if (n != row->nsamples) {
            mlab_fail(w, rc, NULL, "row %zu (%s/%s): nsamples %zu but /samples_offset gives %zu",
                      i, row->case_name, row->variant, row->nsamples, n);
            goto out;
        }
        if (n) {
            row->samples_us = malloc(n * sizeof(double));
            if (!row->samples_us) {
                rc = mlab_fail(w, MLAB_EXIT_INTERNAL, NULL, "out of memory");
                goto out;
            }
            memcpy(row->samples_us, s + off[i], n * sizeof(double));
        }
    }
    rc = MLAB_EXIT_OK;
out:
    if (ds >= 0)
        H5Dclose(ds);
    if (dof >= 0)
        H5Dclose(dof);
    free(s);
    free(off);
    return rc;
}

/* The format name and version, first: a newer file must say "use a newer
 * mlabench", not complain about fields it may have changed. */
static int check_format(const mlab_why *w, hid_t f, int *version)
{
    char format[64] = "";
    long v = 0;
    int rc = mlab_h5_attr_get(w, f, NULL, "format", MLAB_ATTR_STR, format, sizeof format, 0);
    if (rc == MLAB_H5_ABSENT)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, NULL,
                         "no 'format' attribute: not an mlabench results file");
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (strcmp(format, MLAB_RESULTS_FORMAT) != 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, NULL, "format is '%s', not '%s'%s", format,
                         MLAB_RESULTS_FORMAT, strcmp(format, "mlabench-case") == 0
                             ? " (a case file: give it to mlabench run)" : "");
    rc = mlab_h5_attr_int(w, f, NULL, "format_version", INT_MIN, INT_MAX, 1, &v);
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (v > MLAB_RESULTS_VERSION)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, NULL,
                         "%s version %ld is newer than this mlabench reads (%d): use a newer "
                         "mlabench", MLAB_RESULTS_FORMAT, v, MLAB_RESULTS_VERSION);
    if (v < 1)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, NULL, "format_version %ld is not valid", v);
    *version = (int)v;
    return MLAB_EXIT_OK;
}

/* The environment: every field of a v1 file; one missing (a file written by
 * hand, e.g. from h5py) is left empty rather than refused. */
static int read_env(const mlab_why *w, hid_t f, mlab_env *env)
{
    size_t nef;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t i = 0; i < nef; i++) {
        char *p = (char *)env + ef[i].offset;
        long v = 0;
        int rc;
        if (ef[i].kind == 's') {
            rc = mlab_h5_attr_get(w, f, NULL, ef[i].name, MLAB_ATTR_STR, p, ef[i].size, 0);
        } else if (ef[i].kind == 'i') {
            rc = mlab_h5_attr_int(w, f, NULL, ef[i].name, INT_MIN, INT_MAX, 0, &v);
            if (rc == MLAB_EXIT_OK)
                *(int *)p = (int)v;
        } else {
            rc = mlab_h5_attr_get(w, f, NULL, ef[i].name, MLAB_ATTR_DOUBLE, p, 0, 0);
        }
        if (rc > 0)
            return rc;
    }
    return MLAB_EXIT_OK;
}

/* A stopped run's stopped_case (the case it stopped in; a merged file's,
 * one a line) names cases of its /inputs, as run and merge write it: a file
 * edited so that one does not (or with an empty line) is refused here, so
 * report, compare, export, merge and run --resume all refuse it the same way
 * (exit 3, the attribute and the name), not run --resume alone. */
static int check_stopped_case(const mlab_why *w, const mlab_results *r)
{
    char buf[sizeof r->env.stopped_case];
    const char *name[sizeof r->env.stopped_case / 2 + 1]; /* a line: a character and a newline, or the last */
    snprintf(buf, sizeof buf, "%s", r->env.stopped_case);
    const size_t n = mlab_stopped_names(buf, name, sizeof name / sizeof name[0]);
    for (size_t i = 0; i < n; i++)
        if (!*name[i] || !mlab_results_find_input(r, name[i]))
            return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute stopped_case",
                             "names case \"%s\", which is not in /inputs", name[i]);
    return MLAB_EXIT_OK;
}

static int read_body(const mlab_why *w, hid_t f, mlab_results *r)
{
    int version = 0;
    int rc = check_format(w, f, &version);
    if (rc == MLAB_EXIT_OK)
        rc = read_env(w, f, &r->env);
    if (rc != MLAB_EXIT_OK)
        return rc;

    size_t nrf, nif;
    const mlab_field *rf = mlab_row_fields(&nrf), *inf = mlab_input_fields(&nif);
    void *buf = NULL;
    size_t n = 0;
    rc = read_compound(w, f, version, "rows", rf, nrf, sizeof(mlab_row), &buf, &n);
    if (rc != MLAB_EXIT_OK)
        return rc;
    r->rows = buf;
    r->nrows = n;
    r->cap_rows = n;
    for (size_t i = 0; i < n; i++) {
        mlab_row *row = &r->rows[i];
        row->samples_us = NULL; /* not a file field; calloc left it NULL */
        if (!row->kind[0]) { /* version 1: CPU reference rows had negative ids, and ran on no GPU */
            snprintf(row->kind, sizeof row->kind, "%s", row->variant_id < 0 ? "cpu" : "gpu");
            if (row->variant_id < 0)
                row->device_index = -1;
        }
    }
    rc = read_samples(w, f, r);
    if (rc != MLAB_EXIT_OK)
        return rc;

    buf = NULL;
    rc = read_compound(w, f, version, "inputs", inf, nif, sizeof(mlab_input_file), &buf, &n);
    if (rc != MLAB_EXIT_OK)
        return rc;
    r->inputs = buf;
    r->ninputs = n;
    r->cap_inputs = n;
    return check_stopped_case(w, r);
}

/* Open and read path into r (mlab_results_read without the guard). */
static int read_file(const char *path, mlab_results *r, char *why, size_t whylen)
{
    mlab_why w = {path, why, whylen};
    mlab_h5_quiet quiet;
    mlab_results_init(r);
    mlab_h5_quiet_begin(&quiet);
    int rc = MLAB_EXIT_BADINPUT;
    hid_t f = mlab_h5_open_read(path);
    if (f < 0)
        mlab_fail(&w, rc, NULL, "truncated or corrupt HDF5 file");
    else
        rc = read_body(&w, f, r);
    if (f >= 0)
        H5Fclose(f);
    if (rc != MLAB_EXIT_OK)
        mlab_results_free(r);
    mlab_h5_quiet_end(&quiet);
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
    mlab_why w = {path, why, whylen};
    mlab_results_init(r);
    int rc = mlab_h5_probe(&w);
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
