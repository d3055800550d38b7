/* h5io.c: case files in HDF5 (schema "mlabench-case" v1, data/README.md).
 *
 * Contents:
 *   1. The schema as one table: each dataset's stored type, rank and dims.
 *   2. Errors: every failure is one line, "<path>: /<dataset>: <what>", made
 *      by rd_fail(); HDF5's own error stack is silenced while we work (and the
 *      caller's handler restored after), so nothing else is printed.
 *   3. Attribute readers that accept what h5py and the C API both write:
 *      fixed or variable-length strings (ASCII or UTF-8), any integer width,
 *      scalar or one-element dataspaces.
 *   4. mlab_h5_read_case: opens with plain open(2) first (so a missing file is
 *      an I/O error with strerror, exit 4), then checks the root attributes
 *      (format name, format_version: newer -> "upgrade" hint), then every
 *      dataset's type class, size, sign, byte order, rank, dims and filters
 *      BEFORE reading a byte (HDF5 converts values, not bits, so a float32 /q
 *      would otherwise be silently rounded into uint16), then reads raw bits
 *      with a same-size unsigned memory type (big-endian files are byte-swapped
 *      exactly) or the file's own opaque type (h5py's ml_dtypes arrays), and
 *      finally runs mlab_case_validate and names the dataset it complains of.
 *      Untrusted files (data/README.md, "Reading files you did not write"):
 *      only regular files are opened (mlab_input_check); soft and external
 *      links, external storage, virtual datasets and sizes the file's
 *      storage cannot hold are refused before anything is allocated
 *      (mlab_h5_storage_check); and the whole parse runs first in a forked
 *      child (read_case with validate_only, under mlab_guard_read), so a
 *      libhdf5 crash or hang on a corrupt file is exit 3, not a dead
 *      mlabench.
 *      mlab_h5_read_inputs is the same reader in "inputs" mode (import):
 *      root attributes optional, derived datasets checked when present but
 *      not required and not read.
 *   5. mlab_h5_write_case: refuses an invalid case, writes "<path>.tmp.<pid>"
 *      with 1.8-compatible object headers (h5py and h5dump of HDF5 1.10 read
 *      it), contiguous and uncompressed (random bits do not compress),
 *      H5Fflush, close in a child process, then fsync, rename over path,
 *      fsync the folder (mlab_atomic_write, atomic.h).
 */
#include "h5io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "atomic.h"    /* mlab_atomic_write, mlab_input_check */
#include "exitcodes.h" /* MLAB_EXIT_* */
#include "guard.h"     /* mlab_guard_read, mlab_h5_storage_check */

/* ---- 1. the schema ------------------------------------------------------ */

typedef enum { K_UINT, K_INT, K_FLOAT } ds_kind; /* stored as uintN, int32, float32 */

/* Symbolic dims, resolved per file. */
enum { D_TOTAL_Q = -1, D_TOTAL_KV = -2, D_BATCH1 = -3 };

enum {
    DS_Q, DS_KV_BF16, DS_KV_FP8, DS_KV_FP8_SCALE, DS_KV_MXFP4, DS_KV_MXFP4_SCALE,
    DS_QO_INDPTR, DS_KV_INDPTR, DS_REF_OUT, DS_COUNT
};

typedef struct {
    const char *name;  /* dataset under the root, without '/' */
    ds_kind kind;
    int elem;          /* bytes per element */
    int rank;
    long dims[3];      /* a number or a D_* symbol */
    const char *dtype; /* the "dtype" attribute (NULL: the fp8 format's name) */
} ds_spec;

static const ds_spec ds_table[DS_COUNT] = {
    [DS_Q] = {"q", K_UINT, 2, 3, {D_TOTAL_Q, MLAB_HEADS, MLAB_DQK}, "bfloat16"},
    [DS_KV_BF16] = {"kv_bf16", K_UINT, 2, 3, {D_TOTAL_KV, 1, MLAB_DQK}, "bfloat16"},
    [DS_KV_FP8] = {"kv_fp8", K_UINT, 1, 3, {D_TOTAL_KV, 1, MLAB_DQK}, NULL},
    [DS_KV_FP8_SCALE] = {"kv_fp8_scale", K_FLOAT, 4, 1, {1}, "float32"},
    [DS_KV_MXFP4] = {"kv_mxfp4", K_UINT, 1, 3, {D_TOTAL_KV, 1, MLAB_FP4_ROW}, "float4_e2m1fn_x2"},
    [DS_KV_MXFP4_SCALE] = {"kv_mxfp4_scale", K_UINT, 1, 2, {D_TOTAL_KV, MLAB_MX_NBLK}, "float8_e8m0fnu"},
    [DS_QO_INDPTR] = {"qo_indptr", K_INT, 4, 1, {D_BATCH1}, "int32"},
    [DS_KV_INDPTR] = {"kv_indptr", K_INT, 4, 1, {D_BATCH1}, "int32"},
    [DS_REF_OUT] = {"ref_out", K_UINT, 2, 3, {D_TOTAL_Q, MLAB_HEADS, MLAB_DV}, "bfloat16"},
};

#define MLAB_NIBBLE_ORDER "low_nibble_first_even_index"

/* The structural constants a file states (optional on read, must match). */
static const struct { const char *name; long value; } fixed_attrs[] = {
    {"num_heads", MLAB_HEADS}, {"num_kv_heads", 1},     {"qk_head_dim", MLAB_DQK},
    {"v_head_dim", MLAB_DV},   {"kv_lora_rank", MLAB_DV}, {"qk_rope_head_dim", MLAB_DQK - MLAB_DV},
};

static const char *fp8_format_name(mlab_fp8_fmt f)
{
    return f == MLAB_FP8_E4M3FNUZ ? "float8_e4m3fnuz" : "float8_e4m3fn";
}

static const char *kind_name(const ds_spec *s)
{
    if (s->kind == K_INT)
        return "int32";
    if (s->kind == K_FLOAT)
        return "float32";
    return s->elem == 2 ? "uint16" : "uint8";
}

/* The length every item has, or -1 when they differ. */
static int uniform_len(const int32_t *indptr, int batch)
{
    int n = indptr[1] - indptr[0];
    for (int b = 1; b < batch; b++)
        if (indptr[b + 1] - indptr[b] != n)
            return -1;
    return n;
}

/* ---- 2. errors ---------------------------------------------------------- */

typedef struct {
    const char *path;
    char *why;
    size_t whylen;
} rd_ctx;

/* Write "<path>: <obj>: <message>" (obj may be NULL) and return code. */
static int rd_fail(const rd_ctx *x, int code, const char *obj, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->why && x->whylen) { /* one line, whatever strings the file holds */
        char m[2048], p[1024];
        mlab_escape(msg, m, sizeof m, 1);
        mlab_escape(x->path, p, sizeof p, 0);
        if (obj && strncmp(m, "= ", 2) == 0) /* "attribute batch = 0: ..." */
            snprintf(x->why, x->whylen, "%s: %s %s", p, obj, m);
        else if (obj)
            snprintf(x->why, x->whylen, "%s: %s: %s", p, obj, m);
        else
            snprintf(x->why, x->whylen, "%s: %s", p, m);
    }
    return code;
}

/* HDF5 prints its error stack by default; we report our own one line. */
typedef struct {
    H5E_auto2_t func;
    void *data;
} h5_quiet;

static void h5_quiet_begin(h5_quiet *q)
{
    q->func = NULL;
    q->data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void h5_quiet_end(const h5_quiet *q)
{
    H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

/* "uint32", "float64", "opaque (2 bytes)", ... for messages. */
static void type_desc(hid_t t, char *buf, size_t len)
{
    H5T_class_t cls = H5Tget_class(t);
    size_t size = H5Tget_size(t);
    switch (cls) {
    case H5T_INTEGER:
        snprintf(buf, len, "%sint%zu%s", H5Tget_sign(t) == H5T_SGN_NONE ? "u" : "", size * 8,
                 H5Tget_order(t) == H5T_ORDER_BE ? " big-endian" : "");
        return;
    case H5T_FLOAT: snprintf(buf, len, "float%zu", size * 8); return;
    case H5T_OPAQUE: snprintf(buf, len, "opaque (%zu bytes)", size); return;
    case H5T_STRING: snprintf(buf, len, "string"); return;
    case H5T_BITFIELD: snprintf(buf, len, "bitfield (%zu bytes)", size); return;
    case H5T_COMPOUND: snprintf(buf, len, "compound"); return;
    case H5T_ENUM: snprintf(buf, len, "enum"); return;
    case H5T_ARRAY: snprintf(buf, len, "array"); return;
    case H5T_VLEN: snprintf(buf, len, "variable-length sequence"); return;
    case H5T_REFERENCE: snprintf(buf, len, "reference"); return;
    default: snprintf(buf, len, "an unknown type class"); return;
    }
}

/* ---- 3. attributes ------------------------------------------------------ */

typedef enum { A_STR, A_INT, A_UINT64, A_FLOAT } attr_kind;

/* Read attribute `name` of `loc` into out (A_STR: char[outlen]; A_INT: long
 * long; A_UINT64: uint64_t; A_FLOAT: double). Returns MLAB_EXIT_OK (0), -1
 * when it is absent and not required, or an MLAB_EXIT_* error (> 0) with a
 * message, so "rc > 0" means "give up".
 * `obj` names loc in messages ("/kv_fp8"), NULL for the root. */
static int get_attr(const rd_ctx *x, hid_t loc, const char *obj, const char *name,
                    attr_kind kind, void *out, size_t outlen, int required)
{
    char label[96], td[48];
    int rc = MLAB_EXIT_BADINPUT;
    hid_t a = -1, t = -1, sp = -1, mt = -1;
    if (obj)
        snprintf(label, sizeof label, "%s: attribute %s", obj, name);
    else
        snprintf(label, sizeof label, "attribute %s", name);

    htri_t ex = H5Aexists(loc, name);
    if (ex < 0)
        return rd_fail(x, MLAB_EXIT_BADINPUT, label, "cannot be looked up (corrupt file?)");
    if (ex == 0) {
        if (!required)
            return -1;
        return rd_fail(x, MLAB_EXIT_BADINPUT, label, "missing");
    }
    a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0 || (t = H5Aget_type(a)) < 0 || (sp = H5Aget_space(a)) < 0) {
        rd_fail(x, rc, label, "cannot be opened (corrupt file?)");
        goto close_all;
    }
    if (H5Sget_simple_extent_npoints(sp) != 1) {
        rd_fail(x, rc, label, "holds %lld values, expected one",
                (long long)H5Sget_simple_extent_npoints(sp));
        goto close_all;
    }
    H5T_class_t cls = H5Tget_class(t);
    type_desc(t, td, sizeof td);

    if (kind == A_STR) {
        char *s = out;
        if (cls != H5T_STRING) {
            rd_fail(x, rc, label, "is %s, expected a string", td);
            goto close_all;
        }
        htri_t var = H5Tis_variable_str(t);
        mt = H5Tcopy(H5T_C_S1);
        if (var < 0 || mt < 0 || H5Tset_cset(mt, H5Tget_cset(t)) < 0) {
            rd_fail(x, rc, label, "unreadable string type");
            goto close_all;
        }
        if (var) {
            char *v = NULL;
            if (H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Aread(a, mt, &v) < 0 || !v) {
                rd_fail(x, rc, label, "cannot read the string (corrupt file?)");
                goto close_all;
            }
            size_t n = strlen(v);
            if (n < outlen)
                memcpy(s, v, n + 1);
            H5free_memory(v);
            if (n >= outlen) {
                rd_fail(x, rc, label, "%zu characters, at most %zu allowed", n, outlen - 1);
                goto close_all;
            }
        } else {
            size_t n = H5Tget_size(t); /* fixed length: NUL or space padded */
            if (n == 0 || n > 65536) { /* ours are short: this is corrupt or hostile */
                rd_fail(x, rc, label, "a string of %zu bytes (corrupt file?)", n);
                goto close_all;
            }
            char *tmp = malloc(n + 1);
            if (!tmp) {
                rc = rd_fail(x, MLAB_EXIT_INTERNAL, label, "out of memory");
                goto close_all;
            }
            if (H5Tset_size(mt, n + 1) < 0 || H5Tset_strpad(mt, H5T_STR_NULLTERM) < 0 ||
                H5Aread(a, mt, tmp) < 0) {
                free(tmp);
                rd_fail(x, rc, label, "cannot read the string (corrupt file?)");
                goto close_all;
            }
            tmp[n] = '\0';
            size_t len = strlen(tmp);
            while (len > 0 && tmp[len - 1] == ' ' && H5Tget_strpad(t) == H5T_STR_SPACEPAD)
                tmp[--len] = '\0';
            if (len >= outlen) {
                free(tmp);
                rd_fail(x, rc, label, "%zu characters, at most %zu allowed", len, outlen - 1);
                goto close_all;
            }
            memcpy(s, tmp, len + 1);
            free(tmp);
        }
    } else if (kind == A_INT || kind == A_UINT64) {
        if (cls != H5T_INTEGER) {
            rd_fail(x, rc, label, "is %s, expected an integer", td);
            goto close_all;
        }
        if (kind == A_UINT64 && H5Tget_sign(t) == H5T_SGN_NONE) {
            if (H5Aread(a, H5T_NATIVE_UINT64, out) < 0) {
                rd_fail(x, rc, label, "cannot be read (corrupt file?)");
                goto close_all;
            }
        } else {
            long long v;
            if (H5Aread(a, H5T_NATIVE_LLONG, &v) < 0) {
                rd_fail(x, rc, label, "cannot be read (corrupt file?)");
                goto close_all;
            }
            if (kind == A_UINT64) {
                if (v < 0) {
                    rd_fail(x, rc, label, "= %lld: must not be negative", v);
                    goto close_all;
                }
                *(uint64_t *)out = (uint64_t)v;
            } else {
                *(long long *)out = v;
            }
        }
    } else { /* A_FLOAT: any float or integer, converted by value */
        if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
            rd_fail(x, rc, label, "is %s, expected a number", td);
            goto close_all;
        }
        if (H5Aread(a, H5T_NATIVE_DOUBLE, out) < 0) {
            rd_fail(x, rc, label, "cannot be read (corrupt file?)");
            goto close_all;
        }
    }
    rc = MLAB_EXIT_OK;
close_all:
    if (mt >= 0)
        H5Tclose(mt);
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

/* A required or optional int attribute within [lo, hi]. */
static int get_int_attr(const rd_ctx *x, hid_t loc, const char *name, long lo, long hi,
                        int required, long *out)
{
    long long v = 0;
    int rc = get_attr(x, loc, NULL, name, A_INT, &v, 0, required);
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (v < lo || v > hi) {
        char label[64];
        snprintf(label, sizeof label, "attribute %s", name);
        return rd_fail(x, MLAB_EXIT_BADINPUT, label, "= %lld: must be in %ld..%ld", v, lo, hi);
    }
    *out = (long)v;
    return MLAB_EXIT_OK;
}

/* ---- 4. reading --------------------------------------------------------- */

/* An open dataset that passed its checks, and how to read it. */
typedef struct {
    hid_t ds;
    hid_t memtype;     /* native uint/int/float, or a copy of the opaque type */
    int present;
    hsize_t dims[3];
} ds_open;

/* The dataset's "dtype" attribute, if present, must name `want`. */
static int check_dtype_attr(const rd_ctx *x, hid_t ds, const char *obj, const char *want)
{
    char got[64];
    int rc = get_attr(x, ds, obj, "dtype", A_STR, got, sizeof got, 0);
    if (rc == -1)
        return MLAB_EXIT_OK;
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (strcmp(got, want) != 0) {
        char label[96];
        snprintf(label, sizeof label, "%s: attribute dtype", obj);
        return rd_fail(x, MLAB_EXIT_BADINPUT, label, "= \"%s\", expected \"%s\"", got, want);
    }
    return MLAB_EXIT_OK;
}

/* Refuse compression filters this HDF5 library cannot decode, by name. */
static int check_filters(const rd_ctx *x, hid_t ds, const char *obj)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0)
        return rd_fail(x, MLAB_EXIT_BADINPUT, obj, "unreadable creation properties (corrupt file?)");
    int n = H5Pget_nfilters(dcpl), rc = MLAB_EXIT_OK;
    for (int i = 0; i < n && rc == MLAB_EXIT_OK; i++) {
        unsigned flags, cfg;
        size_t nelem = 0;
        char fname[64] = "";
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nelem, NULL, sizeof fname,
                                         fname, &cfg);
        if (id < 0 || H5Zfilter_avail(id) <= 0)
            rc = rd_fail(x, MLAB_EXIT_BADINPUT, obj,
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
static int check_type(const rd_ctx *x, const ds_spec *s, const char *obj, hid_t t, hid_t *memtype)
{
    char td[48];
    H5T_class_t cls = H5Tget_class(t);
    size_t size = H5Tget_size(t);
    const char *want = kind_name(s);
    int ok_class, rc = MLAB_EXIT_BADINPUT;
    type_desc(t, td, sizeof td);
    if (s->kind == K_UINT)
        ok_class = cls == H5T_INTEGER || cls == H5T_OPAQUE;
    else if (s->kind == K_INT)
        ok_class = cls == H5T_INTEGER;
    else
        ok_class = cls == H5T_FLOAT;
    if (!ok_class && s->kind == K_UINT)
        return rd_fail(x, rc, obj, "stored as %s, expected %s or a %d-byte opaque (ml_dtypes) "
                       "type: store the raw bits (x.view(np.%s))", td, want, s->elem, want);
    if (!ok_class)
        return rd_fail(x, rc, obj, "stored as %s, expected %s", td, want);
    if (size != (size_t)s->elem)
        return rd_fail(x, rc, obj, "stored as %s (%zu bytes), expected %s (%d bytes)", td, size,
                       want, s->elem);
    if (cls == H5T_INTEGER) {
        int is_signed = H5Tget_sign(t) != H5T_SGN_NONE;
        if (is_signed != (s->kind == K_INT) && s->kind == K_UINT) /* HDF5 would clamp negatives */
            return rd_fail(x, rc, obj, "stored as %s, expected %s (store the raw bits: "
                           "x.view(np.%s))", td, want, want);
        if (is_signed != (s->kind == K_INT))
            return rd_fail(x, rc, obj, "stored as %s, expected %s", td, want);
        H5T_order_t ord = H5Tget_order(t);
        if (ord != H5T_ORDER_LE && ord != H5T_ORDER_BE)
            return rd_fail(x, rc, obj, "integer byte order is neither little- nor big-endian");
        if (H5Tget_precision(t) != 8 * size || H5Tget_offset(t) != 0)
            return rd_fail(x, rc, obj, "integer with %zu bits of precision at offset %d, "
                           "expected %zu at 0", H5Tget_precision(t), H5Tget_offset(t), 8 * size);
        if (s->kind == K_INT)
            *memtype = H5Tcopy(H5T_NATIVE_INT32);
        else
            *memtype = H5Tcopy(s->elem == 2 ? H5T_NATIVE_UINT16 : H5T_NATIVE_UINT8);
    } else if (cls == H5T_OPAQUE) {
        *memtype = H5Tcopy(t);
    } else {
        *memtype = H5Tcopy(H5T_NATIVE_FLOAT);
    }
    if (*memtype < 0)
        return rd_fail(x, MLAB_EXIT_INTERNAL, obj, "cannot make a memory type");
    return MLAB_EXIT_OK;
}

/* Rank and dims against the schema, symbolic dims resolved to total_q,
 * total_kv and batch + 1. A resolved value < 0 (D_TOTAL_Q, D_TOTAL_KV)
 * accepts any size: /q and /kv_bf16 define total_q and total_kv. */
static int check_dims(const rd_ctx *x, int i, const char *obj, hid_t sp, long total_q,
                      long total_kv, long batch, hsize_t dims[3])
{
    const ds_spec *s = &ds_table[i];
    int rc = MLAB_EXIT_BADINPUT;
    int rank = H5Sget_simple_extent_ndims(sp);
    hsize_t d[H5S_MAX_RANK];
    if (rank < 0 || H5Sget_simple_extent_type(sp) == H5S_NULL)
        return rd_fail(x, rc, obj, "has no dataspace (H5S_NULL)");
    H5Sget_simple_extent_dims(sp, d, NULL);
    if (i == DS_KV_FP8_SCALE && rank == 0) { /* a scalar is as good as [1] */
        rank = 1;
        d[0] = 1;
    }

    char want_dims[64], got_dims[96];
    long w[3];
    int pos = 0;
    for (int k = 0; k < s->rank; k++) {
        long v = s->dims[k];
        w[k] = v == D_TOTAL_Q ? total_q : v == D_TOTAL_KV ? total_kv : v == D_BATCH1 ? batch + 1 : v;
        if (w[k] < 0)
            pos += snprintf(want_dims + pos, sizeof want_dims - (size_t)pos, "%s%s", k ? "," : "[",
                            w[k] == D_TOTAL_Q ? "total_q" : "total_kv");
        else
            pos += snprintf(want_dims + pos, sizeof want_dims - (size_t)pos, "%s%ld", k ? "," : "[",
                            w[k]);
    }
    snprintf(want_dims + pos, sizeof want_dims - (size_t)pos, "]");
    pos = 0;
    got_dims[0] = '\0';
    for (int k = 0; k < rank && pos < (int)sizeof got_dims - 24; k++)
        pos += snprintf(got_dims + pos, sizeof got_dims - (size_t)pos, "%s%llu", k ? "," : "[",
                        (unsigned long long)d[k]);
    snprintf(got_dims + pos, sizeof got_dims - (size_t)pos, rank ? "]" : "scalar");

    if (rank != s->rank)
        return rd_fail(x, rc, obj, "rank %d %s, expected rank %d %s", rank, got_dims, s->rank,
                       want_dims);
    for (int k = 0; k < s->rank; k++) {
        if (w[k] < 0 && d[k] > (hsize_t)(INT_MAX / MLAB_HEADS))
            return rd_fail(x, rc, obj, "dims %s: %llu rows is too many", got_dims,
                           (unsigned long long)d[k]);
        if (w[k] >= 0 && d[k] != (hsize_t)w[k]) {
            const char *from = s->dims[k] == D_TOTAL_Q    ? " (total_q from /q)"
                               : s->dims[k] == D_TOTAL_KV ? " (total_kv from /kv_bf16)"
                               : s->dims[k] == D_BATCH1   ? " (attribute batch + 1)"
                                                          : "";
            return rd_fail(x, rc, obj, "dims %s, expected %s%s", got_dims, want_dims, from);
        }
    }
    for (int k = 0; k < rank; k++)
        dims[k] = d[k];
    return MLAB_EXIT_OK;
}

/* The optional dataset attributes (dtype, nibble_order, block_size) must
 * agree with the schema when present. */
static int check_ds_attrs(const rd_ctx *x, int i, const char *obj, hid_t ds, mlab_fp8_fmt fp8)
{
    const ds_spec *s = &ds_table[i];
    int rc = check_dtype_attr(x, ds, obj, s->dtype ? s->dtype : fp8_format_name(fp8));
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (i == DS_KV_MXFP4) {
        char order[64];
        rc = get_attr(x, ds, obj, "nibble_order", A_STR, order, sizeof order, 0);
        if (rc == MLAB_EXIT_OK && strcmp(order, MLAB_NIBBLE_ORDER) != 0)
            return rd_fail(x, MLAB_EXIT_BADINPUT, "/kv_mxfp4: attribute nibble_order",
                           "= \"%s\", expected \"%s\"", order, MLAB_NIBBLE_ORDER);
    }
    if (i == DS_KV_MXFP4_SCALE) {
        long long bs;
        rc = get_attr(x, ds, obj, "block_size", A_INT, &bs, 0, 0);
        if (rc == MLAB_EXIT_OK && bs != MLAB_MX_BLOCK)
            return rd_fail(x, MLAB_EXIT_BADINPUT, "/kv_mxfp4_scale: attribute block_size",
                           "= %lld, expected %d", bs, MLAB_MX_BLOCK);
    }
    return rc == -1 ? MLAB_EXIT_OK : rc;
}

/* Open dataset i and check everything but its values: presence, type, dims,
 * filters and dataset attributes. An absent optional dataset leaves
 * o->present = 0. */
static int open_checked(const rd_ctx *x, hid_t f, int i, long total_q, long total_kv, long batch,
                        mlab_fp8_fmt fp8, int required, ds_open *o)
{
    const ds_spec *s = &ds_table[i];
    char obj[40];
    hid_t t = -1, sp = -1;
    int rc = MLAB_EXIT_BADINPUT;
    snprintf(obj, sizeof obj, "/%s", s->name);
    o->ds = o->memtype = -1;
    o->present = 0;

    htri_t ex = H5Lexists(f, s->name, H5P_DEFAULT);
    if (ex <= 0) {
        if (!required && ex == 0)
            return MLAB_EXIT_OK;
        return rd_fail(x, rc, obj, ex == 0 ? "missing" : "cannot be looked up (corrupt file?)");
    }
    H5L_info_t li; /* a soft or external link would take the data from elsewhere */
    if (H5Lget_info(f, s->name, &li, H5P_DEFAULT) < 0)
        return rd_fail(x, rc, obj, "cannot be looked up (corrupt file?)");
    if (li.type != H5L_TYPE_HARD)
        return rd_fail(x, rc, obj, "is a %s link: not accepted (the file must hold its own data)",
                       li.type == H5L_TYPE_SOFT ? "soft" : li.type == H5L_TYPE_EXTERNAL
                                                               ? "external" : "user-defined");
    hid_t any = H5Oopen(f, s->name, H5P_DEFAULT); /* H5Iget_type: same API in 1.10 .. 2.0 */
    if (any < 0)
        return rd_fail(x, rc, obj, "cannot be opened (corrupt file?)");
    H5I_type_t kind = H5Iget_type(any);
    H5Oclose(any);
    if (kind != H5I_DATASET)
        return rd_fail(x, rc, obj, "is not a dataset");
    o->ds = H5Dopen2(f, s->name, H5P_DEFAULT);
    if (o->ds < 0 || (t = H5Dget_type(o->ds)) < 0 || (sp = H5Dget_space(o->ds)) < 0) {
        rd_fail(x, rc, obj, "cannot be opened (corrupt file?)");
        goto fail;
    }
    if ((rc = check_type(x, s, obj, t, &o->memtype)) != MLAB_EXIT_OK ||
        (rc = check_dims(x, i, obj, sp, total_q, total_kv, batch, o->dims)) != MLAB_EXIT_OK ||
        (rc = check_filters(x, o->ds, obj)) != MLAB_EXIT_OK ||
        (rc = check_ds_attrs(x, i, obj, o->ds, fp8)) != MLAB_EXIT_OK)
        goto fail;
    char bad[256];
    if (mlab_h5_storage_check(o->ds, (size_t)s->elem, bad, sizeof bad) != 0) {
        rc = rd_fail(x, MLAB_EXIT_BADINPUT, obj, "%s", bad);
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
    if (o->memtype >= 0)
        H5Tclose(o->memtype);
    if (o->ds >= 0)
        H5Dclose(o->ds);
    o->ds = o->memtype = -1;
    return rc;
}

static int read_checked(const rd_ctx *x, int i, const ds_open *o, void *buf)
{
    char obj[40];
    snprintf(obj, sizeof obj, "/%s", ds_table[i].name);
    if (H5Dread(o->ds, o->memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        return rd_fail(x, MLAB_EXIT_BADINPUT, obj, "read failed: truncated or corrupt data");
    return MLAB_EXIT_OK;
}

/* mlab_case_validate names a tensor or a parameter first ("kv_indptr[3] =
 * ...", "q: non-finite ..."); say which object of the file that is. The
 * reason's own "name: " prefix is then dropped (*reason moves past it). */
static const char *validate_object(const char **reason_p, char *buf, size_t len)
{
    const char *reason = *reason_p;
    size_t n = strspn(reason, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (reason[n] == ':' && reason[n + 1] == ' ')
        *reason_p = reason + n + 2;
    for (int i = 0; i < DS_COUNT; i++)
        if (strlen(ds_table[i].name) == n && strncmp(reason, ds_table[i].name, n) == 0) {
            snprintf(buf, len, "/%s", ds_table[i].name);
            return buf;
        }
    if (n > 0 && n < 32) {
        snprintf(buf, len, "attribute %.*s", (int)n, reason);
        return buf;
    }
    return NULL;
}

/* Open with open(2) first: a missing or unreadable file is an I/O error
 * with the system's reason, not "not an HDF5 file". Then look for the HDF5
 * signature where the format puts it (offset 0, 512, 1024, 2048, ...), so a
 * file that has it but will not open is "truncated or corrupt". */
static int probe_file(const rd_ctx *x)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    int rc = mlab_input_check(x->path, x->why, x->whylen); /* a FIFO would block open(2) */
    if (rc != MLAB_EXIT_OK)
        return rc;
    int fd = open(x->path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return rd_fail(x, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(errno));
    struct stat st;
    rc = MLAB_EXIT_BADINPUT;
    if (fstat(fd, &st) != 0) {
        rc = rd_fail(x, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(errno));
        goto close_fd;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = rd_fail(x, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(EISDIR));
        goto close_fd;
    }
    if (st.st_size == 0) {
        rd_fail(x, rc, NULL, "not an HDF5 file (empty)");
        goto close_fd;
    }
    for (off_t off = 0; off + 8 <= st.st_size; off = off ? 2 * off : 512) {
        unsigned char b[8];
        ssize_t n = pread(fd, b, sizeof b, off);
        if (n < 0) {
            rc = rd_fail(x, MLAB_EXIT_IO, NULL, "cannot read: %s", strerror(errno));
            goto close_fd;
        }
        if (n == (ssize_t)sizeof b && memcmp(b, sig, sizeof sig) == 0) {
            rc = MLAB_EXIT_OK;
            goto close_fd;
        }
    }
    rd_fail(x, rc, NULL, "not an HDF5 file");
close_fd:
    close(fd);
    return rc;
}

static void default_name(const char *path, char *name, size_t len)
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
}

/* The format name and version, first: a newer file must say "upgrade",
 * not complain about dims it may have changed. */
static int check_format(const rd_ctx *x, hid_t f)
{
    char s[64];
    long version;
    int rc = get_attr(x, f, NULL, "format", A_STR, s, sizeof s, 0);
    if (rc == -1)
        return rd_fail(x, MLAB_EXIT_BADINPUT, "attribute format", "missing: not a mlabench case file");
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (strcmp(s, MLAB_CASE_FORMAT) != 0)
        return rd_fail(x, MLAB_EXIT_BADINPUT, "attribute format",
                       "= \"%s\": not a mlabench case file (expected \"%s\")", s, MLAB_CASE_FORMAT);
    rc = get_int_attr(x, f, "format_version", LONG_MIN, LONG_MAX, 1, &version);
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (version > MLAB_CASE_VERSION)
        return rd_fail(x, MLAB_EXIT_BADINPUT, "attribute format_version",
                       "written by a newer mlabench (format_version %ld > %d): upgrade", version,
                       MLAB_CASE_VERSION);
    if (version < 1)
        return rd_fail(x, MLAB_EXIT_BADINPUT, "attribute format_version",
                       "= %ld: invalid (this mlabench reads version %d)", version, MLAB_CASE_VERSION);
    return MLAB_EXIT_OK;
}

/* Inputs without an attribute batch: /qo_indptr's length minus one. Only
 * its link and dataspace are looked at here; open_checked checks it fully
 * (type, dims against this batch, storage) before anything is read. */
static int batch_from_indptr(const rd_ctx *x, hid_t f, long *batch)
{
    const char *obj = "/qo_indptr";
    int rc = MLAB_EXIT_BADINPUT;
    htri_t ex = H5Lexists(f, "qo_indptr", H5P_DEFAULT);
    if (ex <= 0)
        return rd_fail(x, rc, obj, ex == 0 ? "missing (and no attribute batch)"
                                           : "cannot be looked up (corrupt file?)");
    H5L_info_t li;
    if (H5Lget_info(f, "qo_indptr", &li, H5P_DEFAULT) < 0 || li.type != H5L_TYPE_HARD)
        return rd_fail(x, rc, obj, "is a link or unreadable: not accepted");
    hid_t ds = H5Dopen2(f, "qo_indptr", H5P_DEFAULT), sp = -1;
    if (ds < 0 || (sp = H5Dget_space(ds)) < 0) {
        rd_fail(x, rc, obj, "is not a dataset, or cannot be opened (corrupt file?)");
        goto out;
    }
    hsize_t d[H5S_MAX_RANK];
    int rank = H5Sget_simple_extent_ndims(sp);
    if (rank != 1 || H5Sget_simple_extent_dims(sp, d, NULL) != 1) {
        rd_fail(x, rc, obj, "rank %d, expected rank 1 [batch + 1]", rank);
        goto out;
    }
    if (d[0] < 2 || d[0] > (hsize_t)INT_MAX) {
        rd_fail(x, rc, obj, "dims [%llu]: expected [batch + 1] with batch 1 .. %d",
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

/* The root attributes into c (data/README.md says which are required);
 * *q_seq_len and *kv_len get the stated lengths, or -1. */
static int read_params(const rd_ctx *x, hid_t f, mlab_case *c, long *q_seq_len, long *kv_len,
                       int inputs, int *seed_stated)
{
    char s[64];
    long batch = 0, v = 0;
    double dv = 0;
    int rc = get_int_attr(x, f, "batch", 1, INT_MAX - 1, !inputs, &batch);
    if (rc == -1) /* inputs: no attribute batch, /qo_indptr says it */
        rc = batch_from_indptr(x, f, &batch);
    if (rc != MLAB_EXIT_OK)
        return rc;
    c->batch = (int)batch;
    *q_seq_len = *kv_len = -1;
    if ((rc = get_int_attr(x, f, "q_seq_len", -1, INT_MAX, 0, q_seq_len)) > 0 ||
        (rc = get_int_attr(x, f, "kv_len", -1, INT_MAX, 0, kv_len)) > 0)
        return rc;
    for (size_t k = 0; k < sizeof fixed_attrs / sizeof fixed_attrs[0]; k++) {
        rc = get_int_attr(x, f, fixed_attrs[k].name, LONG_MIN, LONG_MAX, 0, &v);
        if (rc > 0)
            return rc;
        if (rc == MLAB_EXIT_OK && v != fixed_attrs[k].value) {
            char label[64];
            snprintf(label, sizeof label, "attribute %s", fixed_attrs[k].name);
            return rd_fail(x, MLAB_EXIT_BADINPUT, label, "= %ld: mlabench handles %ld only", v,
                           fixed_attrs[k].value);
        }
    }

    dv = 1.0 / sqrt((double)MLAB_DQK); /* inputs: the model's 1/sqrt(576) when not stated */
    if ((rc = get_attr(x, f, NULL, "sm_scale", A_FLOAT, &dv, 0, !inputs)) > 0)
        return rc;
    c->sm_scale = (float)dv;
    c->input_scale = 1.0f;
    if ((rc = get_attr(x, f, NULL, "input_scale", A_FLOAT, &dv, 0, 0)) > 0)
        return rc;
    if (rc == MLAB_EXIT_OK)
        c->input_scale = (float)dv;
    if (!(c->input_scale > 0.0f) || !isfinite(c->input_scale))
        return rd_fail(x, MLAB_EXIT_BADINPUT, "attribute input_scale",
                       "= %g: must be positive and finite", (double)c->input_scale);
    if ((rc = get_attr(x, f, NULL, "seed", A_UINT64, &c->seed, 0, 0)) > 0)
        return rc;
    *seed_stated = rc == MLAB_EXIT_OK;

    snprintf(s, sizeof s, "float8_e4m3fn"); /* inputs: the defaults when not stated */
    if ((rc = get_attr(x, f, NULL, "fp8_format", A_STR, s, sizeof s, !inputs)) > 0)
        return rc;
    if (strcmp(s, "float8_e4m3fn") == 0)
        c->fp8_fmt = MLAB_FP8_E4M3FN;
    else if (strcmp(s, "float8_e4m3fnuz") == 0)
        c->fp8_fmt = MLAB_FP8_E4M3FNUZ;
    else
        return rd_fail(x, MLAB_EXIT_BADINPUT, "attribute fp8_format",
                       "= \"%s\": expected \"float8_e4m3fn\" or \"float8_e4m3fnuz\"", s);
    snprintf(s, sizeof s, "up");
    if ((rc = get_attr(x, f, NULL, "mxfp4_tie", A_STR, s, sizeof s, !inputs)) > 0)
        return rc;
    if (mlab_fp4_tie_parse(s, &c->fp4_tie) != 0)
        return rd_fail(x, MLAB_EXIT_BADINPUT, "attribute mxfp4_tie",
                       "= \"%s\": expected \"up\" or \"even\"", s);

    default_name(x->path, c->name, sizeof c->name);
    strcpy(c->producer, "unknown");
    strcpy(c->commit, "unknown");
    if ((rc = get_attr(x, f, NULL, "name", A_STR, c->name, sizeof c->name, 0)) > 0 ||
        (rc = get_attr(x, f, NULL, "producer", A_STR, c->producer, sizeof c->producer, 0)) > 0 ||
        (rc = get_attr(x, f, NULL, "commit", A_STR, c->commit, sizeof c->commit, 0)) > 0)
        return rc;
    return MLAB_EXIT_OK;
}

/* In the guard's child: read a chunked or compact dataset through libhdf5
 * (its chunk index and filters are where a corrupt file bites), a slab of
 * rows at a time into a scratch buffer. Contiguous data needs no probe:
 * mlab_h5_storage_check has placed it inside the file, and reading it is a
 * plain read of those bytes. */
static int probe_data(const rd_ctx *x, int i, const ds_open *o)
{
    const ds_spec *s = &ds_table[i];
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
        rc = rd_fail(x, MLAB_EXIT_BADINPUT, obj, "cannot allocate a read buffer");
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
                rc = rd_fail(x, MLAB_EXIT_BADINPUT, obj, "cannot select rows (corrupt file?)");
        }
        if (rc == MLAB_EXIT_OK &&
            H5Dread(o->ds, o->memtype, s->rank ? msp : H5S_ALL, s->rank ? fsp : H5S_ALL,
                    H5P_DEFAULT, buf) < 0)
            rc = rd_fail(x, MLAB_EXIT_BADINPUT, obj, "read failed: truncated or corrupt data");
        if (msp >= 0)
            H5Sclose(msp);
    }
out:
    if (fsp >= 0)
        H5Sclose(fsp);
    free(buf);
    return rc;
}

/* The reader. validate_only (in the guard's child): every check and every
 * libhdf5 call of a real read but the data of contiguous datasets, and
 * nothing is kept. */
static int is_derived(int i)
{
    return i == DS_KV_FP8 || i == DS_KV_FP8_SCALE || i == DS_KV_MXFP4 || i == DS_KV_MXFP4_SCALE ||
           i == DS_REF_OUT;
}

static int read_case(const char *path, mlab_case *c, char *why, size_t whylen, int validate_only,
                     int inputs, int *seed_stated)
{
    rd_ctx x = {path, why, whylen};
    ds_open o[DS_COUNT];
    h5_quiet quiet;
    hid_t fapl = -1, f = -1;
    int rc;

    memset(c, 0, sizeof *c);
    for (int i = 0; i < DS_COUNT; i++)
        o[i].ds = o[i].memtype = -1;
    if (why && whylen)
        why[0] = '\0';

    h5_quiet_begin(&quiet);
    rc = MLAB_EXIT_BADINPUT;
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0) {
        rc = rd_fail(&x, MLAB_EXIT_INTERNAL, NULL, "cannot create HDF5 properties");
        goto quiet_end;
    }
#if H5_VERSION_GE(1, 10, 7)
    H5Pset_file_locking(fapl, 0, 1); /* readers need no lock; NFS may have none */
#endif
    f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (f < 0) {
        rd_fail(&x, rc, NULL, "truncated or corrupt HDF5 file");
        goto close_fapl;
    }

    long q_seq_len, kv_len;
    /* inputs: a file without the attribute format is taken as a bare one */
    if ((!inputs || H5Aexists(f, "format") != 0) && (rc = check_format(&x, f)) != MLAB_EXIT_OK)
        goto close_file;
    if ((rc = read_params(&x, f, c, &q_seq_len, &kv_len, inputs, seed_stated)) != MLAB_EXIT_OK)
        goto close_file;
    long batch = c->batch;

    /* every dataset's type and shape, before any data is read; /q and
     * /kv_bf16 define total_q and total_kv (passed as the D_* symbols) */
    rc = open_checked(&x, f, DS_Q, D_TOTAL_Q, D_TOTAL_KV, batch, c->fp8_fmt, 1, &o[DS_Q]);
    if (rc != MLAB_EXIT_OK)
        goto close_datasets;
    rc = open_checked(&x, f, DS_KV_BF16, D_TOTAL_Q, D_TOTAL_KV, batch, c->fp8_fmt, 1,
                      &o[DS_KV_BF16]);
    if (rc != MLAB_EXIT_OK)
        goto close_datasets;
    long total_q = (long)o[DS_Q].dims[0], total_kv = (long)o[DS_KV_BF16].dims[0];
    for (int i = 0; i < DS_COUNT; i++) {
        if (i == DS_Q || i == DS_KV_BF16)
            continue;
        rc = open_checked(&x, f, i, total_q, total_kv, batch, c->fp8_fmt,
                          i != DS_REF_OUT && !inputs, &o[i]);
        if (rc != MLAB_EXIT_OK)
            goto close_datasets;
    }

    if (validate_only) {
        for (int i = 0; i < DS_COUNT && rc == MLAB_EXIT_OK; i++)
            if (o[i].present)
                rc = probe_data(&x, i, &o[i]);
        goto close_datasets;
    }

    /* the data, as raw bits; the sizes were checked against the file's
     * storage, so a failure here is a file larger than this machine holds */
    if (mlab_case_alloc(c, (int)batch, (int)total_q, (int)total_kv) != 0) {
        rc = rd_fail(&x, MLAB_EXIT_BADINPUT, NULL, "%ld q rows and %ld kv rows cannot be "
                     "allocated (out of memory)", total_q, total_kv);
        goto close_datasets;
    }
    if (o[DS_REF_OUT].present && !inputs) {
        c->ref_out = malloc(((size_t)total_q * MLAB_HEADS * MLAB_DV + 1) * sizeof(uint16_t));
        if (!c->ref_out) {
            rc = rd_fail(&x, MLAB_EXIT_BADINPUT, NULL, "/ref_out cannot be allocated (out of memory)");
            goto free_case;
        }
    }
    void *buf[DS_COUNT] = {
        [DS_Q] = c->q, [DS_KV_BF16] = c->kv_bf16, [DS_KV_FP8] = c->kv_fp8,
        [DS_KV_FP8_SCALE] = &c->kv_fp8_scale, [DS_KV_MXFP4] = c->kv_fp4,
        [DS_KV_MXFP4_SCALE] = c->kv_e8m0, [DS_QO_INDPTR] = c->qo_indptr,
        [DS_KV_INDPTR] = c->kv_indptr, [DS_REF_OUT] = c->ref_out,
    };
    if (inputs) { /* derived tensors are not read: zeros (valid codes), scale 1 */
        memset(c->kv_fp8, 0, (size_t)total_kv * MLAB_DQK);
        memset(c->kv_fp4, 0, (size_t)total_kv * MLAB_FP4_ROW);
        memset(c->kv_e8m0, 0, (size_t)total_kv * MLAB_MX_NBLK);
        c->kv_fp8_scale = 1.0f;
    }
    for (int i = 0; i < DS_COUNT; i++) {
        if (!o[i].present || (inputs && is_derived(i)))
            continue;
        rc = read_checked(&x, i, &o[i], buf[i]);
        if (rc != MLAB_EXIT_OK)
            goto free_case;
    }

    /* values: indptrs, finiteness, scales (case.c), then the stated lengths */
    char reason[384], objbuf[64];
    if (mlab_case_validate(c, reason, sizeof reason) != 0) {
        const char *r = reason, *obj = validate_object(&r, objbuf, sizeof objbuf);
        rc = rd_fail(&x, MLAB_EXIT_BADINPUT, obj, "%s", r);
        goto free_case;
    }
    c->q_seq_len = uniform_len(c->qo_indptr, c->batch);
    c->kv_len = uniform_len(c->kv_indptr, c->batch);
    if (q_seq_len != -1 && q_seq_len != c->q_seq_len) {
        rc = rd_fail(&x, MLAB_EXIT_BADINPUT, "attribute q_seq_len",
                     "= %ld, but /qo_indptr gives %s", q_seq_len,
                     c->q_seq_len < 0 ? "varying lengths (write -1)" : "another length");
        goto free_case;
    }
    if (kv_len != -1 && kv_len != c->kv_len) {
        rc = rd_fail(&x, MLAB_EXIT_BADINPUT, "attribute kv_len", "= %ld, but /kv_indptr gives %s",
                     kv_len, c->kv_len < 0 ? "varying lengths (write -1)" : "another length");
        goto free_case;
    }
    rc = MLAB_EXIT_OK;
    goto close_datasets;

free_case:
    mlab_case_free(c);
close_datasets:
    for (int i = 0; i < DS_COUNT; i++) {
        if (o[i].memtype >= 0)
            H5Tclose(o[i].memtype);
        if (o[i].ds >= 0)
            H5Dclose(o[i].ds);
    }
close_file:
    H5Fclose(f);
close_fapl:
    H5Pclose(fapl);
quiet_end:
    h5_quiet_end(&quiet);
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
    rd_ctx x = {path, why, whylen};
    memset(c, 0, sizeof *c);
    if (why && whylen)
        why[0] = '\0';
    int rc = probe_file(&x);
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

/* ---- 5. writing --------------------------------------------------------- */

typedef struct {
    hid_t f;
    int failed;        /* sticky: the first failure's message is kept */
    const rd_ctx *x;
} wr_ctx;

static void wr_fail(wr_ctx *w, const char *obj, const char *what)
{
    if (!w->failed)
        rd_fail(w->x, MLAB_EXIT_IO, obj, "%s", what);
    w->failed = 1;
}

static void wr_attr(wr_ctx *w, hid_t loc, const char *obj, const char *name, hid_t ftype,
                    hid_t mtype, const void *v)
{
    if (w->failed)
        return;
    hid_t sp = H5Screate(H5S_SCALAR), a = -1;
    if (sp >= 0)
        a = H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (sp < 0 || a < 0 || H5Awrite(a, mtype, v) < 0) {
        char what[96];
        snprintf(what, sizeof what, "cannot write attribute %s", name);
        wr_fail(w, obj, what);
    }
    if (a >= 0 && H5Aclose(a) < 0)
        wr_fail(w, obj, "cannot close an attribute");
    if (sp >= 0)
        H5Sclose(sp);
}

/* Variable-length ASCII: h5py reads it as str (fixed-length would be bytes). */
static void wr_str(wr_ctx *w, hid_t loc, const char *obj, const char *name, const char *v)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0 || H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_ASCII) < 0) {
        wr_fail(w, obj, "cannot make a string type");
    } else {
        wr_attr(w, loc, obj, name, t, t, &v);
    }
    if (t >= 0)
        H5Tclose(t);
}

static void wr_int(wr_ctx *w, const char *name, long long v)
{
    int32_t v32 = (int32_t)v;
    wr_attr(w, w->f, NULL, name, H5T_STD_I32LE, H5T_NATIVE_INT32, &v32);
}

static void wr_dataset(wr_ctx *w, int i, long total_q, long total_kv, long batch,
                       mlab_fp8_fmt fp8, const char *how, const void *data)
{
    const ds_spec *s = &ds_table[i];
    char obj[40];
    hsize_t d[3];
    hid_t ft, mt, sp = -1, ds = -1;
    if (w->failed)
        return;
    snprintf(obj, sizeof obj, "/%s", s->name);
    for (int k = 0; k < s->rank; k++) {
        long v = s->dims[k];
        d[k] = (hsize_t)(v == D_TOTAL_Q ? total_q : v == D_TOTAL_KV ? total_kv
                         : v == D_BATCH1 ? batch + 1 : v);
    }
    if (s->kind == K_INT) {
        ft = H5T_STD_I32LE;
        mt = H5T_NATIVE_INT32;
    } else if (s->kind == K_FLOAT) {
        ft = H5T_IEEE_F32LE;
        mt = H5T_NATIVE_FLOAT;
    } else if (s->elem == 2) {
        ft = H5T_STD_U16LE;
        mt = H5T_NATIVE_UINT16;
    } else {
        ft = H5T_STD_U8LE;
        mt = H5T_NATIVE_UINT8;
    }
    /* default creation properties: contiguous, no filters */
    sp = H5Screate_simple(s->rank, d, NULL);
    if (sp >= 0)
        ds = H5Dcreate2(w->f, s->name, ft, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (sp < 0 || ds < 0) {
        wr_fail(w, obj, "cannot create the dataset");
        goto close;
    }
    if (H5Dwrite(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
        wr_fail(w, obj, "write failed (disk full?)");
        goto close;
    }
    wr_str(w, ds, obj, "dtype", s->dtype ? s->dtype : fp8_format_name(fp8));
    if (i == DS_KV_MXFP4)
        wr_str(w, ds, obj, "nibble_order", MLAB_NIBBLE_ORDER);
    if (i == DS_KV_MXFP4_SCALE) {
        int32_t bs = MLAB_MX_BLOCK;
        wr_attr(w, ds, obj, "block_size", H5T_STD_I32LE, H5T_NATIVE_INT32, &bs);
    }
    if (i == DS_REF_OUT)
        wr_str(w, ds, obj, "how", how);
close:
    if (ds >= 0 && H5Dclose(ds) < 0)
        wr_fail(w, obj, "cannot close the dataset");
    if (sp >= 0)
        H5Sclose(sp);
}

/* Write the whole file at tmp; returns MLAB_EXIT_OK or the first failure. */
static int write_file(const rd_ctx *x, const char *tmp, const mlab_case *c)
{
    wr_ctx w = {-1, 0, x};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* 1.8-compatible object headers: readable by HDF5 1.8 and later */
    if (fapl < 0 || H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_V18) < 0) {
        wr_fail(&w, NULL, "cannot set up HDF5 file properties");
        goto close_fapl;
    }
    w.f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (w.f < 0) {
        rd_fail(x, MLAB_EXIT_IO, NULL, "cannot create the temporary file %s", tmp);
        w.failed = 1;
        goto close_fapl;
    }

    wr_str(&w, w.f, NULL, "format", MLAB_CASE_FORMAT);
    wr_int(&w, "format_version", MLAB_CASE_VERSION);
    wr_str(&w, w.f, NULL, "name", c->name);
    wr_int(&w, "batch", c->batch);
    wr_int(&w, "q_seq_len", uniform_len(c->qo_indptr, c->batch));
    wr_int(&w, "kv_len", uniform_len(c->kv_indptr, c->batch));
    for (size_t k = 0; k < sizeof fixed_attrs / sizeof fixed_attrs[0]; k++)
        wr_int(&w, fixed_attrs[k].name, fixed_attrs[k].value);
    wr_attr(&w, w.f, NULL, "sm_scale", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, &c->sm_scale);
    wr_attr(&w, w.f, NULL, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &c->seed);
    wr_attr(&w, w.f, NULL, "input_scale", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, &c->input_scale);
    wr_str(&w, w.f, NULL, "mxfp4_tie", mlab_fp4_tie_name(c->fp4_tie));
    wr_str(&w, w.f, NULL, "fp8_format", fp8_format_name(c->fp8_fmt));
    wr_str(&w, w.f, NULL, "producer", c->producer[0] ? c->producer : "unknown");
    wr_str(&w, w.f, NULL, "commit", c->commit[0] ? c->commit : "unknown");

    char how[256];
    snprintf(how, sizeof how, "stored by %s; the in-memory case does not record how",
             c->producer[0] ? c->producer : "an unknown producer");
    const void *data[DS_COUNT] = {
        [DS_Q] = c->q, [DS_KV_BF16] = c->kv_bf16, [DS_KV_FP8] = c->kv_fp8,
        [DS_KV_FP8_SCALE] = &c->kv_fp8_scale, [DS_KV_MXFP4] = c->kv_fp4,
        [DS_KV_MXFP4_SCALE] = c->kv_e8m0, [DS_QO_INDPTR] = c->qo_indptr,
        [DS_KV_INDPTR] = c->kv_indptr, [DS_REF_OUT] = c->ref_out,
    };
    for (int i = 0; i < DS_COUNT; i++)
        if (data[i])
            wr_dataset(&w, i, c->total_q, c->total_kv, c->batch, c->fp8_fmt, how, data[i]);

    if (!w.failed && H5Fflush(w.f, H5F_SCOPE_GLOBAL) < 0)
        wr_fail(&w, NULL, "H5Fflush failed (disk full?)");
    if (H5Fclose(w.f) < 0)
        wr_fail(&w, NULL, "closing the file failed (disk full?)");
close_fapl:
    if (fapl >= 0)
        H5Pclose(fapl);
    return w.failed ? MLAB_EXIT_IO : MLAB_EXIT_OK;
}

typedef struct {
    const char *path;
    const mlab_case *c;
} write_args;

/* In mlab_atomic_write's child: the whole file at tmp. */
static int write_tmp(const char *tmp, void *arg, char *why, size_t whylen)
{
    const write_args *a = arg;
    rd_ctx x = {a->path, why, whylen};
    return write_file(&x, tmp, a->c);
}

int mlab_h5_write_case(const char *path, const mlab_case *c, char *why, size_t whylen)
{
    rd_ctx x = {path, why, whylen};
    char reason[384], objbuf[64];

    if (why && whylen)
        why[0] = '\0';
    /* never write what the reader would refuse */
    if (mlab_case_validate(c, reason, sizeof reason) != 0) {
        const char *r = reason, *obj = validate_object(&r, objbuf, sizeof objbuf);
        return rd_fail(&x, MLAB_EXIT_BADINPUT, obj, "not written: %s", r);
    }
    int uq = uniform_len(c->qo_indptr, c->batch), ukv = uniform_len(c->kv_indptr, c->batch);
    if ((c->q_seq_len != -1 && c->q_seq_len != uq) || (c->kv_len != -1 && c->kv_len != ukv))
        return rd_fail(&x, MLAB_EXIT_BADINPUT, NULL,
                       "not written: q_seq_len %d / kv_len %d disagree with the indptrs",
                       c->q_seq_len, c->kv_len);
    if ((unsigned)c->fp8_fmt > MLAB_FP8_E4M3FNUZ || (unsigned)c->fp4_tie > MLAB_TIE_EVEN)
        return rd_fail(&x, MLAB_EXIT_INTERNAL, NULL, "not written: bad fp8 format or tie rule");
    /* temporary, child process, fsync, rename: atomic.h */
    write_args a = {path, c};
    return mlab_atomic_write(path, write_tmp, &a, why, whylen);
}
