/* case_read.c: reading a case file (schema "mlabench-case" v1,
 * data/README.md; case_read.h).
 *
 * The order of the work: mlab_h5_probe (a regular file with the HDF5
 * signature; a missing one is an I/O error with the system's reason), then
 * the whole parse once in a forked child (read_case with validate_only,
 * under mlab_guard_read), so a libhdf5 crash or hang on a corrupt file is
 * exit 3, not a dead mlabench; then the real read: the root attributes
 * (format name and version first: a newer file says "upgrade", not
 * something about dims it may have changed), every dataset checked before
 * a byte is read (case_check.c), the raw bits, and finally
 * mlab_case_validate, whose complaint names the dataset of the file.
 * mlab_h5_read_inputs is the same reader in "inputs" mode (import): root
 * attributes optional, derived datasets checked when present but neither
 * required nor read. */
#include "case_read.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "case_check.h" /* mlab_case_ds_open/read/probe/close */
#include "exitcodes.h"  /* MLAB_EXIT_* */
#include "guard.h"      /* mlab_guard_read, mlab_h5_silence */
#include "h5util.h"     /* mlab_h5_attr_get, mlab_h5_probe, mlab_h5_quiet_begin/end */
#include "reason.h"     /* mlab_fail, mlab_name_bad_char */

void mlab_case_default_name(const char *path, char *name, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".h5") == 0)
        n -= 3;
    if (n >= len)
        n = len - 1;
    memcpy(name, base, n);
    name[n] = '\0';
    for (char *q = name; (q = (char *)mlab_name_bad_char(q, 0)) != NULL;)
        *q = '_'; /* a file name's control characters (a case name holds none) */
}

/* The format name and version, first: a newer file must say "upgrade",
 * not complain about dims it may have changed. */
static int check_format(const mlab_why *w, hid_t f)
{
    char s[64];
    long version;
    int rc = mlab_h5_attr_get(w, f, NULL, "format", MLAB_ATTR_STR, s, sizeof s, 0);
    if (rc == MLAB_H5_ABSENT)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute format",
                         "missing: not a mlabench case file");
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (strcmp(s, MLAB_CASE_FORMAT) != 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute format",
                         "= \"%s\": not a mlabench case file (expected \"%s\")", s,
                         MLAB_CASE_FORMAT);
    rc = mlab_h5_attr_int(w, f, NULL, "format_version", LONG_MIN, LONG_MAX, 1, &version);
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (version > MLAB_CASE_VERSION)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute format_version",
                         "written by a newer mlabench (format_version %ld > %d): upgrade", version,
                         MLAB_CASE_VERSION);
    if (version < 1)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute format_version",
                         "= %ld: invalid (this mlabench reads version %d)", version,
                         MLAB_CASE_VERSION);
    return MLAB_EXIT_OK;
}

/* Inputs without an attribute batch: /qo_indptr's length minus one. Only
 * its link and dataspace are looked at here; mlab_case_ds_open checks it fully
 * (type, dims against this batch, storage) before anything is read. */
static int batch_from_indptr(const mlab_why *w, hid_t f, long *batch)
{
    const char *obj = "/qo_indptr";
    hid_t ds = -1, sp = -1;
    int rc = mlab_h5_dataset_open(w, f, "qo_indptr", 0, &ds);
    if (rc == MLAB_H5_ABSENT)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "missing (and no attribute batch)");
    if (rc != MLAB_EXIT_OK)
        return rc;
    rc = MLAB_EXIT_BADINPUT;
    if ((sp = H5Dget_space(ds)) < 0) {
        mlab_fail(w, rc, obj, "cannot be opened (corrupt file?)");
        goto out;
    }
    hsize_t d[H5S_MAX_RANK];
    int rank = H5Sget_simple_extent_ndims(sp);
    if (rank != 1 || H5Sget_simple_extent_dims(sp, d, NULL) != 1) {
        mlab_fail(w, rc, obj, "rank %d, expected rank 1 [batch + 1]", rank);
        goto out;
    }
    if (d[0] < 2 || d[0] > (hsize_t)INT_MAX) {
        mlab_fail(w, rc, obj, "dims [%llu]: expected [batch + 1] with batch 1 .. %d",
                  (unsigned long long)d[0], INT_MAX - 1);
        goto out;
    }
    *batch = (long)d[0] - 1;
    rc = MLAB_EXIT_OK;
out:
    if (sp >= 0)
        H5Sclose(sp);
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

/* A string attribute of the root. */
static int get_str(const mlab_why *w, hid_t f, const char *name, char *out, size_t len,
                   int required)
{
    return mlab_h5_attr_get(w, f, NULL, name, MLAB_ATTR_STR, out, len, required);
}

/* The root attributes into c (data/README.md says which are required);
 * *q_seq_len and *kv_len get the stated lengths, or -1. */
static int read_params(const mlab_why *w, hid_t f, mlab_case *c, long *q_seq_len, long *kv_len,
                       int inputs, int *seed_stated)
{
    char s[64];
    long batch = 0, v = 0;
    double dv = 0;
    int rc = mlab_h5_attr_int(w, f, NULL, "batch", 1, INT_MAX - 1, !inputs, &batch);
    if (rc == MLAB_H5_ABSENT) /* inputs: no attribute batch, /qo_indptr says it */
        rc = batch_from_indptr(w, f, &batch);
    if (rc != MLAB_EXIT_OK)
        return rc;
    c->batch = (int)batch;
    *q_seq_len = *kv_len = -1;
    if ((rc = mlab_h5_attr_int(w, f, NULL, "q_seq_len", -1, INT_MAX, 0, q_seq_len)) > 0 ||
        (rc = mlab_h5_attr_int(w, f, NULL, "kv_len", -1, INT_MAX, 0, kv_len)) > 0)
        return rc;
    for (size_t k = 0; k < mlab_case_nconsts; k++) {
        rc = mlab_h5_attr_int(w, f, NULL, mlab_case_consts[k].name, LONG_MIN, LONG_MAX, 0, &v);
        if (rc > 0)
            return rc;
        if (rc == MLAB_EXIT_OK && v != mlab_case_consts[k].value) {
            char label[64];
            snprintf(label, sizeof label, "attribute %s", mlab_case_consts[k].name);
            return mlab_fail(w, MLAB_EXIT_BADINPUT, label, "= %ld: mlabench handles %ld only", v,
                             mlab_case_consts[k].value);
        }
    }

    dv = 1.0 / sqrt((double)MLAB_DQK); /* inputs: the model's 1/sqrt(576) when not stated */
    if ((rc = mlab_h5_attr_get(w, f, NULL, "sm_scale", MLAB_ATTR_DOUBLE, &dv, 0, !inputs)) > 0)
        return rc;
    c->sm_scale = (float)dv;
    c->input_scale = 1.0f;
    if ((rc = mlab_h5_attr_get(w, f, NULL, "input_scale", MLAB_ATTR_DOUBLE, &dv, 0, 0)) > 0)
        return rc;
    if (rc == MLAB_EXIT_OK)
        c->input_scale = (float)dv;
    if (!(c->input_scale > 0.0f) || !isfinite(c->input_scale))
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute input_scale",
                         "= %g: must be positive and finite", (double)c->input_scale);
    if ((rc = mlab_h5_attr_get(w, f, NULL, "seed", MLAB_ATTR_UINT64, &c->seed, 0, 0)) > 0)
        return rc;
    *seed_stated = rc == MLAB_EXIT_OK;

    snprintf(s, sizeof s, "float8_e4m3fn"); /* inputs: the defaults when not stated */
    if ((rc = get_str(w, f, "fp8_format", s, sizeof s, !inputs)) > 0)
        return rc;
    if (strcmp(s, "float8_e4m3fn") == 0)
        c->fp8_fmt = MLAB_FP8_E4M3FN;
    else if (strcmp(s, "float8_e4m3fnuz") == 0)
        c->fp8_fmt = MLAB_FP8_E4M3FNUZ;
    else
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute fp8_format",
                         "= \"%s\": expected \"float8_e4m3fn\" or \"float8_e4m3fnuz\"", s);
    snprintf(s, sizeof s, "up");
    if ((rc = get_str(w, f, "mxfp4_tie", s, sizeof s, !inputs)) > 0)
        return rc;
    if (mlab_fp4_tie_parse(s, &c->fp4_tie) != 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute mxfp4_tie",
                         "= \"%s\": expected \"up\" or \"even\"", s);

    mlab_case_default_name(w->path, c->name, sizeof c->name);
    strcpy(c->producer, "unknown");
    strcpy(c->commit, "unknown");
    if ((rc = get_str(w, f, "name", c->name, sizeof c->name, 0)) > 0 ||
        (rc = get_str(w, f, "producer", c->producer, sizeof c->producer, 0)) > 0 ||
        (rc = get_str(w, f, "commit", c->commit, sizeof c->commit, 0)) > 0)
        return rc;
    /* the name is printed by every table and names results rows and figure
     * files: no control character, no '/' (as gen's and import's --name) */
    if (mlab_name_bad_char(c->name, 1))
        return mlab_fail(w, MLAB_EXIT_BADINPUT, "attribute name",
                         "= \"%s\": a case name holds no control character and no '/'", c->name);
    return MLAB_EXIT_OK;
}

/* The reader. validate_only (in the guard's child): every check and every
 * libhdf5 call of a real read but the data of contiguous datasets, and
 * nothing is kept. */
static int is_derived(int i)
{
    return i == MLAB_DS_KV_FP8 || i == MLAB_DS_KV_FP8_SCALE || i == MLAB_DS_KV_MXFP4 ||
           i == MLAB_DS_KV_MXFP4_SCALE || i == MLAB_DS_REF_OUT;
}

static int read_case(const char *path, mlab_case *c, char *why, size_t whylen, int validate_only,
                     int inputs, int *seed_stated)
{
    mlab_why w = {path, why, whylen};
    mlab_case_ds o[MLAB_DS_COUNT];
    mlab_h5_quiet quiet;
    hid_t f = -1;
    int rc;

    memset(c, 0, sizeof *c);
    for (int i = 0; i < MLAB_DS_COUNT; i++)
        o[i].ds = o[i].memtype = -1;
    if (why && whylen)
        why[0] = '\0';

    mlab_h5_quiet_begin(&quiet);
    rc = MLAB_EXIT_BADINPUT;
    f = mlab_h5_open_read(path);
    if (f < 0) {
        mlab_fail(&w, rc, NULL, "truncated or corrupt HDF5 file");
        goto quiet_end;
    }

    long q_seq_len, kv_len;
    /* inputs: a file without the attribute format is taken as a bare one */
    if ((!inputs || H5Aexists(f, "format") != 0) && (rc = check_format(&w, f)) != MLAB_EXIT_OK)
        goto close_file;
    if ((rc = read_params(&w, f, c, &q_seq_len, &kv_len, inputs, seed_stated)) != MLAB_EXIT_OK)
        goto close_file;
    long batch = c->batch;

    /* every dataset's type and shape, before any data is read; /q and
     * /kv_bf16 define total_q and total_kv (passed as the MLAB_DIM_* symbols) */
    rc = mlab_case_ds_open(&w, f, MLAB_DS_Q, MLAB_DIM_TOTAL_Q, MLAB_DIM_TOTAL_KV, batch,
                           c->fp8_fmt, 1, &o[MLAB_DS_Q]);
    if (rc != MLAB_EXIT_OK)
        goto close_datasets;
    rc = mlab_case_ds_open(&w, f, MLAB_DS_KV_BF16, MLAB_DIM_TOTAL_Q, MLAB_DIM_TOTAL_KV, batch,
                           c->fp8_fmt, 1, &o[MLAB_DS_KV_BF16]);
    if (rc != MLAB_EXIT_OK)
        goto close_datasets;
    long total_q = (long)o[MLAB_DS_Q].dims[0], total_kv = (long)o[MLAB_DS_KV_BF16].dims[0];
    for (int i = 0; i < MLAB_DS_COUNT; i++) {
        if (i == MLAB_DS_Q || i == MLAB_DS_KV_BF16)
            continue;
        rc = mlab_case_ds_open(&w, f, i, total_q, total_kv, batch, c->fp8_fmt,
                               i != MLAB_DS_REF_OUT && !inputs, &o[i]);
        if (rc != MLAB_EXIT_OK)
            goto close_datasets;
    }

    if (validate_only) {
        for (int i = 0; i < MLAB_DS_COUNT && rc == MLAB_EXIT_OK; i++)
            if (o[i].present)
                rc = mlab_case_ds_probe(&w, i, &o[i]);
        goto close_datasets;
    }

    /* the data, as raw bits; the sizes were checked against the file's
     * storage, so a failure here is a file larger than this machine holds */
    if (mlab_case_alloc(c, (int)batch, (int)total_q, (int)total_kv) != 0) {
        rc = mlab_fail(&w, MLAB_EXIT_BADINPUT, NULL, "%ld q rows and %ld kv rows cannot be "
                       "allocated (out of memory)", total_q, total_kv);
        goto close_datasets;
    }
    if (o[MLAB_DS_REF_OUT].present && !inputs) {
        c->ref_out = malloc(((size_t)total_q * MLAB_HEADS * MLAB_DV + 1) * sizeof(uint16_t));
        if (!c->ref_out) {
            rc = mlab_fail(&w, MLAB_EXIT_BADINPUT, NULL,
                           "/ref_out cannot be allocated (out of memory)");
            goto free_case;
        }
    }
    void *buf[MLAB_DS_COUNT] = {
        [MLAB_DS_Q] = c->q, [MLAB_DS_KV_BF16] = c->kv_bf16, [MLAB_DS_KV_FP8] = c->kv_fp8,
        [MLAB_DS_KV_FP8_SCALE] = &c->kv_fp8_scale, [MLAB_DS_KV_MXFP4] = c->kv_fp4,
        [MLAB_DS_KV_MXFP4_SCALE] = c->kv_e8m0, [MLAB_DS_QO_INDPTR] = c->qo_indptr,
        [MLAB_DS_KV_INDPTR] = c->kv_indptr, [MLAB_DS_REF_OUT] = c->ref_out,
    };
    if (inputs) { /* derived tensors are not read: zeros (valid codes), scale 1 */
        memset(c->kv_fp8, 0, (size_t)total_kv * MLAB_DQK);
        memset(c->kv_fp4, 0, (size_t)total_kv * MLAB_FP4_ROW);
        memset(c->kv_e8m0, 0, (size_t)total_kv * MLAB_MX_NBLK);
        c->kv_fp8_scale = 1.0f;
    }
    for (int i = 0; i < MLAB_DS_COUNT; i++) {
        if (!o[i].present || (inputs && is_derived(i)))
            continue;
        rc = mlab_case_ds_read(&w, i, &o[i], buf[i]);
        if (rc != MLAB_EXIT_OK)
            goto free_case;
    }

    /* values: indptrs, finiteness, scales (case.c), then the stated lengths */
    char reason[384], objbuf[64];
    if (mlab_case_validate(c, reason, sizeof reason) != 0) {
        const char *r = reason, *obj = mlab_case_validate_object(&r, objbuf, sizeof objbuf);
        rc = mlab_fail(&w, MLAB_EXIT_BADINPUT, obj, "%s", r);
        goto free_case;
    }
    c->q_seq_len = mlab_case_uniform_len(c->qo_indptr, c->batch);
    c->kv_len = mlab_case_uniform_len(c->kv_indptr, c->batch);
    if (q_seq_len != -1 && q_seq_len != c->q_seq_len) {
        rc = mlab_fail(&w, MLAB_EXIT_BADINPUT, "attribute q_seq_len",
                       "= %ld, but /qo_indptr gives %s", q_seq_len,
                       c->q_seq_len < 0 ? "varying lengths (write -1)" : "another length");
        goto free_case;
    }
    if (kv_len != -1 && kv_len != c->kv_len) {
        rc = mlab_fail(&w, MLAB_EXIT_BADINPUT, "attribute kv_len", "= %ld, but /kv_indptr gives %s",
                       kv_len, c->kv_len < 0 ? "varying lengths (write -1)" : "another length");
        goto free_case;
    }
    rc = MLAB_EXIT_OK;
    goto close_datasets;

free_case:
    mlab_case_free(c);
close_datasets:
    for (int i = 0; i < MLAB_DS_COUNT; i++)
        mlab_case_ds_close(&o[i]);
close_file:
    H5Fclose(f);
quiet_end:
    mlab_h5_quiet_end(&quiet);
    return rc;
}

static int validate_in_child(void *arg, char *why, size_t whylen)
{
    mlab_case c;
    int seed_stated;
    return read_case(arg, &c, why, whylen, 1, 0, &seed_stated);
}

static int validate_inputs_in_child(void *arg, char *why, size_t whylen)
{
    mlab_case c;
    int seed_stated;
    return read_case(arg, &c, why, whylen, 1, 1, &seed_stated);
}

static int read_guarded(const char *path, mlab_case *c, char *why, size_t whylen, int inputs,
                        int *seed_stated)
{
    mlab_why w = {path, why, whylen};
    memset(c, 0, sizeof *c);
    if (why && whylen)
        why[0] = '\0';
    int rc = mlab_h5_probe(&w);
    if (rc != MLAB_EXIT_OK)
        return rc;
    /* libhdf5 parses the file first in a child (guard.h): a crash or a hang
     * there is a corrupt file, not a dead mlabench */
    mlab_h5_silence();
    rc = mlab_guard_read(path, inputs ? validate_inputs_in_child : validate_in_child,
                         (void *)path, why, whylen);
    if (rc != MLAB_EXIT_OK)
        return rc;
    return read_case(path, c, why, whylen, 0, inputs, seed_stated);
}

int mlab_h5_read_case(const char *path, mlab_case *c, char *why, size_t whylen)
{
    int seed_stated;
    return read_guarded(path, c, why, whylen, 0, &seed_stated);
}

int mlab_h5_read_inputs(const char *path, mlab_case *c, int *seed_stated, char *why,
                        size_t whylen)
{
    *seed_stated = 0;
    return read_guarded(path, c, why, whylen, 1, seed_stated);
}
