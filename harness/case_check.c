/* case_check.c: one dataset of a case file checked against the schema
 * before it is read, then read as raw bits (case_check.h): type class,
 * size, sign, byte order, rank, dims, filters, dataset attributes and
 * storage; the read, and the guard child's probe of chunked data. */
#include "case_check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h" /* MLAB_EXIT_* */
#include "guard.h"     /* mlab_h5_storage_check */
#include "h5util.h"    /* mlab_h5_attr_get, mlab_h5_dataset_open, mlab_h5_type_desc */

/* The dataset's "dtype" attribute, if present, must name `want`. */
static int check_dtype_attr(const mlab_why *w, hid_t ds, const char *obj, const char *want)
{
    char got[64];
    int rc = mlab_h5_attr_get(w, ds, obj, "dtype", MLAB_ATTR_STR, got, sizeof got, 0);
    if (rc == MLAB_H5_ABSENT)
        return MLAB_EXIT_OK;
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (strcmp(got, want) != 0) {
        char label[96];
        snprintf(label, sizeof label, "%s: attribute dtype", obj);
        return mlab_fail(w, MLAB_EXIT_BADINPUT, label, "= \"%s\", expected \"%s\"", got, want);
    }
    return MLAB_EXIT_OK;
}

/* Refuse compression filters this HDF5 library cannot decode, by name. */
static int check_filters(const mlab_why *w, hid_t ds, const char *obj)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, obj,
                         "unreadable creation properties (corrupt file?)");
    int n = H5Pget_nfilters(dcpl), rc = MLAB_EXIT_OK;
    for (int i = 0; i < n && rc == MLAB_EXIT_OK; i++) {
        unsigned flags, cfg;
        size_t nelem = 0;
        char fname[64] = "";
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nelem, NULL, sizeof fname,
                                         fname, &cfg);
        if (id < 0 || H5Zfilter_avail(id) <= 0)
            rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj,
                           "compressed with filter %d (%s), which this HDF5 library lacks: "
                           "rewrite it without compression", (int)id, fname[0] ? fname : "unnamed");
    }
    H5Pclose(dcpl);
    return rc;
}

/* The stored type: class, size, sign, byte order, precision. On success
 * *memtype is what to read it with: a same-size native integer (HDF5 then
 * only swaps bytes, bits are kept), the file's own opaque type (a plain copy
 * of bytes) or native float. */
static int check_type(const mlab_why *w, const mlab_ds_spec *s, const char *obj, hid_t t,
                      hid_t *memtype)
{
    char td[48];
    H5T_class_t cls = H5Tget_class(t);
    size_t size = H5Tget_size(t);
    const char *want = mlab_ds_kind_name(s);
    int ok_class, rc = MLAB_EXIT_BADINPUT;
    mlab_h5_type_desc(t, td, sizeof td);
    if (s->kind == MLAB_DS_UINT)
        ok_class = cls == H5T_INTEGER || cls == H5T_OPAQUE;
    else if (s->kind == MLAB_DS_INT)
        ok_class = cls == H5T_INTEGER;
    else
        ok_class = cls == H5T_FLOAT;
    if (!ok_class && s->kind == MLAB_DS_UINT)
        return mlab_fail(w, rc, obj, "stored as %s, expected %s or a %d-byte opaque (ml_dtypes) "
                         "type: store the raw bits (x.view(np.%s))", td, want, s->elem, want);
    if (!ok_class)
        return mlab_fail(w, rc, obj, "stored as %s, expected %s", td, want);
    if (size != (size_t)s->elem)
        return mlab_fail(w, rc, obj, "stored as %s (%zu bytes), expected %s (%d bytes)", td, size,
                         want, s->elem);
    if (cls == H5T_INTEGER) {
        int is_signed = H5Tget_sign(t) != H5T_SGN_NONE;
        /* a signed uint dataset: HDF5 would clamp negatives */
        if (is_signed != (s->kind == MLAB_DS_INT) && s->kind == MLAB_DS_UINT)
            return mlab_fail(w, rc, obj, "stored as %s, expected %s (store the raw bits: "
                             "x.view(np.%s))", td, want, want);
        if (is_signed != (s->kind == MLAB_DS_INT))
            return mlab_fail(w, rc, obj, "stored as %s, expected %s", td, want);
        H5T_order_t ord = H5Tget_order(t);
        if (ord != H5T_ORDER_LE && ord != H5T_ORDER_BE)
            return mlab_fail(w, rc, obj, "integer byte order is neither little- nor big-endian");
        if (H5Tget_precision(t) != 8 * size || H5Tget_offset(t) != 0)
            return mlab_fail(w, rc, obj, "integer with %zu bits of precision at offset %d, "
                             "expected %zu at 0", H5Tget_precision(t), H5Tget_offset(t),
                             8 * size);
        if (s->kind == MLAB_DS_INT)
            *memtype = H5Tcopy(H5T_NATIVE_INT32);
        else
            *memtype = H5Tcopy(s->elem == 2 ? H5T_NATIVE_UINT16 : H5T_NATIVE_UINT8);
    } else if (cls == H5T_OPAQUE) {
        *memtype = H5Tcopy(t);
    } else {
        *memtype = H5Tcopy(H5T_NATIVE_FLOAT);
    }
    if (*memtype < 0)
        return mlab_fail(w, MLAB_EXIT_INTERNAL, obj, "cannot make a memory type");
    return MLAB_EXIT_OK;
}

/* Rank and dims against the schema, symbolic dims resolved to total_q,
 * total_kv and batch + 1. A resolved value < 0 (MLAB_DIM_TOTAL_Q,
 * MLAB_DIM_TOTAL_KV) accepts any size: /q and /kv_bf16 define total_q and total_kv. */
static int check_dims(const mlab_why *w, int i, const char *obj, hid_t sp, long total_q,
                      long total_kv, long batch, hsize_t dims[3])
{
    const mlab_ds_spec *s = &mlab_case_datasets[i];
    int rc = MLAB_EXIT_BADINPUT;
    int rank = H5Sget_simple_extent_ndims(sp);
    hsize_t d[H5S_MAX_RANK];
    if (rank < 0 || H5Sget_simple_extent_type(sp) == H5S_NULL)
        return mlab_fail(w, rc, obj, "has no dataspace (H5S_NULL)");
    H5Sget_simple_extent_dims(sp, d, NULL);
    if (i == MLAB_DS_KV_FP8_SCALE && rank == 0) { /* a scalar is as good as [1] */
        rank = 1;
        d[0] = 1;
    }

    char want_dims[64], got_dims[96];
    long want[3];
    int pos = 0;
    for (int k = 0; k < s->rank; k++) {
        want[k] = mlab_case_dim(s->dims[k], total_q, total_kv, batch);
        if (want[k] < 0)
            pos += snprintf(want_dims + pos, sizeof want_dims - (size_t)pos, "%s%s", k ? "," : "[",
                            want[k] == MLAB_DIM_TOTAL_Q ? "total_q" : "total_kv");
        else
            pos += snprintf(want_dims + pos, sizeof want_dims - (size_t)pos, "%s%ld", k ? "," : "[",
                            want[k]);
    }
    snprintf(want_dims + pos, sizeof want_dims - (size_t)pos, "]");
    pos = 0;
    got_dims[0] = '\0';
    for (int k = 0; k < rank && pos < (int)sizeof got_dims - 24; k++)
        pos += snprintf(got_dims + pos, sizeof got_dims - (size_t)pos, "%s%llu", k ? "," : "[",
                        (unsigned long long)d[k]);
    snprintf(got_dims + pos, sizeof got_dims - (size_t)pos, rank ? "]" : "scalar");

    if (rank != s->rank)
        return mlab_fail(w, rc, obj, "rank %d %s, expected rank %d %s", rank, got_dims, s->rank,
                         want_dims);
    for (int k = 0; k < s->rank; k++) {
        if (want[k] < 0 && d[k] > (hsize_t)(INT_MAX / MLAB_HEADS))
            return mlab_fail(w, rc, obj, "dims %s: %llu rows is too many", got_dims,
                             (unsigned long long)d[k]);
        if (want[k] >= 0 && d[k] != (hsize_t)want[k]) {
            const char *from = s->dims[k] == MLAB_DIM_TOTAL_Q    ? " (total_q from /q)"
                               : s->dims[k] == MLAB_DIM_TOTAL_KV ? " (total_kv from /kv_bf16)"
                               : s->dims[k] == MLAB_DIM_BATCH1   ? " (attribute batch + 1)"
                                                               : "";
            return mlab_fail(w, rc, obj, "dims %s, expected %s%s", got_dims, want_dims, from);
        }
    }
    for (int k = 0; k < rank; k++)
        dims[k] = d[k];
    return MLAB_EXIT_OK;
}

/* The optional dataset attributes (dtype, nibble_order, block_size) must
 * agree with the schema when present. */
static int check_ds_attrs(const mlab_why *w, int i, const char *obj, hid_t ds, mlab_fp8_fmt fp8)
{
    const mlab_ds_spec *s = &mlab_case_datasets[i];
    int rc = check_dtype_attr(w, ds, obj, s->dtype ? s->dtype : mlab_case_fp8_name(fp8));
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (i == MLAB_DS_KV_MXFP4) {
        char order[64];
        rc = mlab_h5_attr_get(w, ds, obj, "nibble_order", MLAB_ATTR_STR, order, sizeof order, 0);
        if (rc == MLAB_EXIT_OK && strcmp(order, MLAB_NIBBLE_ORDER) != 0)
            return mlab_fail(w, MLAB_EXIT_BADINPUT, "/kv_mxfp4: attribute nibble_order",
                             "= \"%s\", expected \"%s\"", order, MLAB_NIBBLE_ORDER);
    }
    if (i == MLAB_DS_KV_MXFP4_SCALE) {
        long long bs;
        rc = mlab_h5_attr_get(w, ds, obj, "block_size", MLAB_ATTR_INT, &bs, 0, 0);
        if (rc == MLAB_EXIT_OK && bs != MLAB_MX_BLOCK)
            return mlab_fail(w, MLAB_EXIT_BADINPUT, "/kv_mxfp4_scale: attribute block_size",
                             "= %lld, expected %d", bs, MLAB_MX_BLOCK);
    }
    return rc == MLAB_H5_ABSENT ? MLAB_EXIT_OK : rc;
}

int mlab_case_ds_open(const mlab_why *w, hid_t f, int i, long total_q, long total_kv, long batch,
                      mlab_fp8_fmt fp8, int required, mlab_case_ds *o)
{
    const mlab_ds_spec *s = &mlab_case_datasets[i];
    char obj[40];
    hid_t t = -1, sp = -1;
    snprintf(obj, sizeof obj, "/%s", s->name);
    o->ds = o->memtype = -1;
    o->present = 0;

    int rc = mlab_h5_dataset_open(w, f, s->name, required, &o->ds);
    if (rc != MLAB_EXIT_OK)
        return rc == MLAB_H5_ABSENT ? MLAB_EXIT_OK : rc;
    rc = MLAB_EXIT_BADINPUT;
    if ((t = H5Dget_type(o->ds)) < 0 || (sp = H5Dget_space(o->ds)) < 0) {
        mlab_fail(w, rc, obj, "cannot be opened (corrupt file?)");
        goto fail;
    }
    if ((rc = check_type(w, s, obj, t, &o->memtype)) != MLAB_EXIT_OK ||
        (rc = check_dims(w, i, obj, sp, total_q, total_kv, batch, o->dims)) != MLAB_EXIT_OK ||
        (rc = check_filters(w, o->ds, obj)) != MLAB_EXIT_OK ||
        (rc = check_ds_attrs(w, i, obj, o->ds, fp8)) != MLAB_EXIT_OK)
        goto fail;
    char bad[256];
    if (mlab_h5_storage_check(o->ds, (size_t)s->elem, bad, sizeof bad) != 0) {
        rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "%s", bad);
        goto fail;
    }
    H5Sclose(sp);
    H5Tclose(t);
    o->present = 1;
    return MLAB_EXIT_OK;
fail:
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    mlab_case_ds_close(o);
    return rc;
}

void mlab_case_ds_close(mlab_case_ds *o)
{
    if (o->memtype >= 0)
        H5Tclose(o->memtype);
    if (o->ds >= 0)
        H5Dclose(o->ds);
    o->ds = o->memtype = -1;
}

int mlab_case_ds_read(const mlab_why *w, int i, const mlab_case_ds *o, void *buf)
{
    char obj[40];
    snprintf(obj, sizeof obj, "/%s", mlab_case_datasets[i].name);
    if (H5Dread(o->ds, o->memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "read failed: truncated or corrupt data");
    return MLAB_EXIT_OK;
}

/* Contiguous data needs no probe: mlab_h5_storage_check has placed it
 * inside the file, and reading it is a plain read of those bytes. */
int mlab_case_ds_probe(const mlab_why *w, int i, const mlab_case_ds *o)
{
    const mlab_ds_spec *s = &mlab_case_datasets[i];
    char obj[40];
    int rc = MLAB_EXIT_OK;
    snprintf(obj, sizeof obj, "/%s", s->name);
    hid_t dcpl = H5Dget_create_plist(o->ds);
    H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (layout == H5D_CONTIGUOUS)
        return MLAB_EXIT_OK;
    size_t row = (size_t)s->elem;
    for (int k = 1; k < s->rank; k++)
        row *= (size_t)o->dims[k];
    hsize_t rows = s->rank ? o->dims[0] : 1, step = (16u << 20) / (row ? row : 1);
    if (step == 0)
        step = 1;
    void *buf = malloc((size_t)(step < rows ? step : rows) * row + 1);
    hid_t fsp = H5Dget_space(o->ds);
    if (!buf || fsp < 0) {
        rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "cannot allocate a read buffer");
        goto out;
    }
    for (hsize_t r0 = 0; r0 < rows && rc == MLAB_EXIT_OK; r0 += step) {
        hsize_t start[3] = {r0, 0, 0}, count[3] = {rows - r0 < step ? rows - r0 : step, 1, 1};
        for (int k = 1; k < s->rank; k++)
            count[k] = o->dims[k];
        hid_t msp = -1;
        if (s->rank > 0) {
            msp = H5Screate_simple(s->rank, count, NULL);
            if (msp < 0 || H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
                rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "cannot select rows (corrupt file?)");
        }
        if (rc == MLAB_EXIT_OK &&
            H5Dread(o->ds, o->memtype, s->rank ? msp : H5S_ALL, s->rank ? fsp : H5S_ALL,
                    H5P_DEFAULT, buf) < 0)
            rc = mlab_fail(w, MLAB_EXIT_BADINPUT, obj, "read failed: truncated or corrupt data");
        if (msp >= 0)
            H5Sclose(msp);
    }
out:
    if (fsp >= 0)
        H5Sclose(fsp);
    free(buf);
    return rc;
}
