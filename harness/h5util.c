/* h5util.c: HDF5 plumbing shared by the case and results files (h5util.h):
 * the quiet error stack, type descriptions, the HDF5 signature probe, the
 * typed attribute reader and writer, and opening an untrusted dataset. */
#include "h5util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"    /* mlab_input_check */
#include "exitcodes.h" /* MLAB_EXIT_* */

void mlab_h5_quiet_begin(mlab_h5_quiet *q)
{
    q->func = NULL;
    q->data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void mlab_h5_quiet_end(const mlab_h5_quiet *q)
{
    H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

void mlab_h5_type_desc(hid_t t, char *buf, size_t len)
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

/* Open with open(2) first: a missing or unreadable file is an I/O error
 * with the system's reason, not "not an HDF5 file". Then look for the HDF5
 * signature, so a file that has it but will not open is "truncated or
 * corrupt" (the reader's message), one without it "not an HDF5 file". */
int mlab_h5_probe(const mlab_why *w)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    int rc = mlab_input_check(w->path, w->why, w->whylen); /* a FIFO would block open(2) */
    if (rc != MLAB_EXIT_OK)
        return rc;
    int fd = open(w->path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return mlab_fail(w, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(errno));
    struct stat st;
    rc = MLAB_EXIT_BADINPUT;
    if (fstat(fd, &st) != 0) {
        rc = mlab_fail(w, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(errno));
        goto close_fd;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = mlab_fail(w, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(EISDIR));
        goto close_fd;
    }
    if (st.st_size == 0) {
        mlab_fail(w, rc, NULL, "not an HDF5 file (empty)");
        goto close_fd;
    }
    for (off_t off = 0; off + 8 <= st.st_size; off = off ? 2 * off : 512) {
        unsigned char b[8];
        ssize_t n = pread(fd, b, sizeof b, off);
        if (n < 0) {
            rc = mlab_fail(w, MLAB_EXIT_IO, NULL, "cannot read: %s", strerror(errno));
            goto close_fd;
        }
        if (n == (ssize_t)sizeof b && memcmp(b, sig, sizeof sig) == 0) {
            rc = MLAB_EXIT_OK;
            goto close_fd;
        }
    }
    mlab_fail(w, rc, NULL, "not an HDF5 file");
close_fd:
    close(fd);
    return rc;
}

hid_t mlab_h5_open_read(const char *path)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#if H5_VERSION_GE(1, 10, 7)
    if (fapl >= 0)
        H5Pset_file_locking(fapl, 0, 1);
#endif
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl >= 0 ? fapl : H5P_DEFAULT);
    if (fapl >= 0)
        H5Pclose(fapl);
    return f;
}

/* ---- the attribute reader ------------------------------------------------ */

/* How messages name attribute name of obj: "attribute batch" (the root),
 * "/kv_fp8: attribute dtype". */
static void attr_label(const char *obj, const char *name, char *buf, size_t len)
{
    if (obj)
        snprintf(buf, len, "%s: attribute %s", obj, name);
    else
        snprintf(buf, len, "attribute %s", name);
}

/* A string attribute a (type t) into s[outlen]. */
static int read_str(const mlab_why *w, const char *label, hid_t a, hid_t t, char *s,
                    size_t outlen)
{
    int rc = MLAB_EXIT_BADINPUT;
    htri_t var = H5Tis_variable_str(t);
    hid_t mt = H5Tcopy(H5T_C_S1);
    char *tmp = NULL;
    if (var < 0 || mt < 0 || H5Tset_cset(mt, H5Tget_cset(t)) < 0) {
        mlab_fail(w, rc, label, "unreadable string type");
        goto out;
    }
    if (var) {
        char *v = NULL;
        if (H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Aread(a, mt, &v) < 0 || !v) {
            mlab_fail(w, rc, label, "cannot read the string (corrupt file?)");
            goto out;
        }
        size_t n = strlen(v);
        if (n < outlen)
            memcpy(s, v, n + 1);
        H5free_memory(v);
        if (n >= outlen) {
            mlab_fail(w, rc, label, "%zu characters, at most %zu allowed", n, outlen - 1);
            goto out;
        }
        rc = MLAB_EXIT_OK;
        goto out;
    }
    size_t n = H5Tget_size(t); /* fixed length: NUL or space padded */
    if (n == 0 || n > 65536) { /* ours are short: this is corrupt or hostile */
        mlab_fail(w, rc, label, "a string of %zu bytes (corrupt file?)", n);
        goto out;
    }
    tmp = malloc(n + 1);
    if (!tmp) {
        rc = mlab_fail(w, MLAB_EXIT_INTERNAL, label, "out of memory");
        goto out;
    }
    if (H5Tset_size(mt, n + 1) < 0 || H5Tset_strpad(mt, H5T_STR_NULLTERM) < 0 ||
        H5Aread(a, mt, tmp) < 0) {
        mlab_fail(w, rc, label, "cannot read the string (corrupt file?)");
        goto out;
    }
    tmp[n] = '\0';
    size_t len = strlen(tmp);
    while (len > 0 && tmp[len - 1] == ' ' && H5Tget_strpad(t) == H5T_STR_SPACEPAD)
        tmp[--len] = '\0';
    if (len >= outlen) {
        mlab_fail(w, rc, label, "%zu characters, at most %zu allowed", len, outlen - 1);
        goto out;
    }
    memcpy(s, tmp, len + 1);
    rc = MLAB_EXIT_OK;
out:
    free(tmp);
    if (mt >= 0)
        H5Tclose(mt);
    return rc;
}

/* An integer attribute a into a long long (INT) or a uint64_t (UINT64). */
static int read_int(const mlab_why *w, const char *label, hid_t a, hid_t t, int u64, void *out)
{
    if (u64 && H5Tget_sign(t) == H5T_SGN_NONE) {
        if (H5Aread(a, H5T_NATIVE_UINT64, out) < 0)
            return mlab_fail(w, MLAB_EXIT_BADINPUT, label, "cannot be read (corrupt file?)");
        return MLAB_EXIT_OK;
    }
    long long v;
    if (H5Aread(a, H5T_NATIVE_LLONG, &v) < 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, label, "cannot be read (corrupt file?)");
    if (!u64) {
        *(long long *)out = v;
        return MLAB_EXIT_OK;
    }
    if (v < 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, label, "= %lld: must not be negative", v);
    *(uint64_t *)out = (uint64_t)v;
    return MLAB_EXIT_OK;
}

int mlab_h5_attr_get(const mlab_why *w, hid_t loc, const char *obj, const char *name,
                     mlab_attr_kind kind, void *out, size_t outlen, int required)
{
    char label[96], td[48];
    int rc = MLAB_EXIT_BADINPUT;
    hid_t a = -1, t = -1, sp = -1;
    attr_label(obj, name, label, sizeof label);

    htri_t ex = H5Aexists(loc, name);
    if (ex < 0)
        return mlab_fail(w, MLAB_EXIT_BADINPUT, label, "cannot be looked up (corrupt file?)");
    if (ex == 0)
        return required ? mlab_fail(w, MLAB_EXIT_BADINPUT, label, "missing") : MLAB_H5_ABSENT;
    a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0 || (t = H5Aget_type(a)) < 0 || (sp = H5Aget_space(a)) < 0) {
        mlab_fail(w, rc, label, "cannot be opened (corrupt file?)");
        goto close_all;
    }
    if (H5Sget_simple_extent_npoints(sp) != 1) {
        mlab_fail(w, rc, label, "holds %lld values, expected one",
                  (long long)H5Sget_simple_extent_npoints(sp));
        goto close_all;
    }
    H5T_class_t cls = H5Tget_class(t);
    mlab_h5_type_desc(t, td, sizeof td);
    if (kind == MLAB_ATTR_STR) {
        if (cls != H5T_STRING)
            mlab_fail(w, rc, label, "is %s, expected a string", td);
        else
            rc = read_str(w, label, a, t, out, outlen);
    } else if (kind == MLAB_ATTR_INT || kind == MLAB_ATTR_UINT64) {
        if (cls != H5T_INTEGER)
            mlab_fail(w, rc, label, "is %s, expected an integer", td);
        else
            rc = read_int(w, label, a, t, kind == MLAB_ATTR_UINT64, out);
    } else { /* DOUBLE: any float or integer, converted by value */
        if (cls != H5T_FLOAT && cls != H5T_INTEGER)
            mlab_fail(w, rc, label, "is %s, expected a number", td);
        else if (H5Aread(a, H5T_NATIVE_DOUBLE, out) < 0)
            mlab_fail(w, rc, label, "cannot be read (corrupt file?)");
        else
            rc = MLAB_EXIT_OK;
    }
close_all:
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

int mlab_h5_attr_int(const mlab_why *w, hid_t loc, const char *obj, const char *name, long lo,
                     long hi, int required, long *out)
{
    long long v = 0;
    int rc = mlab_h5_attr_get(w, loc, obj, name, MLAB_ATTR_INT, &v, 0, required);
    if (rc != MLAB_EXIT_OK)
        return rc;
    if (v < lo || v > hi) {
        char label[96];
        attr_label(obj, name, label, sizeof label);
        return mlab_fail(w, MLAB_EXIT_BADINPUT, label, "= %lld: must be in %ld..%ld", v, lo, hi);
    }
    *out = (long)v;
    return MLAB_EXIT_OK;
}

/* ---- the attribute writer ------------------------------------------------ */

int mlab_h5_attr_put(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *v)
{
    hid_t sp = H5Screate(H5S_SCALAR), a = -1;
    int rc = -1;
    if (sp >= 0)
        a = H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0 && H5Awrite(a, mtype, v) >= 0)
        rc = 0;
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

int mlab_h5_attr_put_str(hid_t loc, const char *name, const char *s, H5T_cset_t cset)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    int rc = -1;
    if (t >= 0 && H5Tset_size(t, H5T_VARIABLE) >= 0 && H5Tset_cset(t, cset) >= 0)
        rc = mlab_h5_attr_put(loc, name, t, t, &s);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

/* ---- an untrusted dataset ------------------------------------------------ */

int mlab_h5_dataset_open(const mlab_why *w, hid_t loc, const char *name, int required, hid_t *ds)
{
    char obj[96];
    int rc = MLAB_EXIT_BADINPUT;
    snprintf(obj, sizeof obj, "/%s", name);
    *ds = -1;
    htri_t ex = H5Lexists(loc, name, H5P_DEFAULT);
    if (ex == 0 && !required)
        return MLAB_H5_ABSENT;
    if (ex <= 0)
        return mlab_fail(w, rc, obj, ex == 0 ? "missing" : "cannot be looked up (corrupt file?)");
    H5L_info_t li; /* a soft or external link would take the data from elsewhere */
    if (H5Lget_info(loc, name, &li, H5P_DEFAULT) < 0)
        return mlab_fail(w, rc, obj, "cannot be looked up (corrupt file?)");
    if (li.type != H5L_TYPE_HARD)
        return mlab_fail(w, rc, obj, "is a %s link: not accepted (the file must hold its own data)",
                         li.type == H5L_TYPE_SOFT       ? "soft"
                         : li.type == H5L_TYPE_EXTERNAL ? "external"
                                                        : "user-defined");
    hid_t any = H5Oopen(loc, name, H5P_DEFAULT); /* H5Iget_type: same API in 1.10 .. 2.0 */
    if (any < 0)
        return mlab_fail(w, rc, obj, "cannot be opened (corrupt file?)");
    H5I_type_t kind = H5Iget_type(any);
    H5Oclose(any);
    if (kind != H5I_DATASET)
        return mlab_fail(w, rc, obj, "is not a dataset");
    *ds = H5Dopen2(loc, name, H5P_DEFAULT);
    if (*ds < 0)
        return mlab_fail(w, rc, obj, "cannot be opened (corrupt file?)");
    return MLAB_EXIT_OK;
}
