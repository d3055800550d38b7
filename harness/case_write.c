/* case_write.c: writing a case file (schema "mlabench-case" v1,
 * data/README.md; case_write.h).
 *
 * Refuses an invalid case (never writes what the reader would refuse),
 * then writes "<path>.tmp.<pid>" in a child process with 1.8-compatible
 * object headers (h5py and h5dump of HDF5 1.10 read it), contiguous and
 * uncompressed (random bits do not compress), H5Fflush, close, then fsync,
 * rename over path and fsync of the folder (mlab_atomic_write, atomic.h).
 * Strings are variable-length ASCII (h5py reads them as str). */
#include "case_write.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hdf5.h>

#include "atomic.h"      /* mlab_atomic_write */
#include "case_schema.h" /* mlab_case_datasets, MLAB_CASE_FORMAT, ... */
#include "exitcodes.h"   /* MLAB_EXIT_* */
#include "h5util.h"      /* mlab_h5_attr_put, mlab_h5_attr_put_str */

/* The file being written; the first failure's reason is kept (sticky). */
typedef struct {
    hid_t f;
    int failed;
    const mlab_why *w;
} writer;

static void wr_fail(writer *o, const char *obj, const char *what)
{
    if (!o->failed)
        mlab_fail(o->w, MLAB_EXIT_IO, obj, "%s", what);
    o->failed = 1;
}

static void wr_attr(writer *o, hid_t loc, const char *obj, const char *name, hid_t ftype,
                    hid_t mtype, const void *v)
{
    if (o->failed || mlab_h5_attr_put(loc, name, ftype, mtype, v) == 0)
        return;
    char what[96];
    snprintf(what, sizeof what, "cannot write attribute %s", name);
    wr_fail(o, obj, what);
}

static void wr_str(writer *o, hid_t loc, const char *obj, const char *name, const char *v)
{
    if (o->failed || mlab_h5_attr_put_str(loc, name, v, H5T_CSET_ASCII) == 0)
        return;
    char what[96];
    snprintf(what, sizeof what, "cannot write attribute %s", name);
    wr_fail(o, obj, what);
}

static void wr_int(writer *o, const char *name, long long v)
{
    int32_t v32 = (int32_t)v;
    wr_attr(o, o->f, NULL, name, H5T_STD_I32LE, H5T_NATIVE_INT32, &v32);
}

static void wr_dataset(writer *o, int i, long total_q, long total_kv, long batch,
                       mlab_fp8_fmt fp8, const char *how, const void *data)
{
    const mlab_ds_spec *s = &mlab_case_datasets[i];
    char obj[40];
    hsize_t d[3];
    hid_t ft, mt, sp = -1, ds = -1;
    if (o->failed)
        return;
    snprintf(obj, sizeof obj, "/%s", s->name);
    for (int k = 0; k < s->rank; k++)
        d[k] = (hsize_t)mlab_case_dim(s->dims[k], total_q, total_kv, batch);
    if (s->kind == MLAB_DS_INT) {
        ft = H5T_STD_I32LE;
        mt = H5T_NATIVE_INT32;
    } else if (s->kind == MLAB_DS_FLOAT) {
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
        ds = H5Dcreate2(o->f, s->name, ft, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (sp < 0 || ds < 0) {
        wr_fail(o, obj, "cannot create the dataset");
        goto close;
    }
    if (H5Dwrite(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
        wr_fail(o, obj, "write failed (disk full?)");
        goto close;
    }
    wr_str(o, ds, obj, "dtype", s->dtype ? s->dtype : mlab_case_fp8_name(fp8));
    if (i == MLAB_DS_KV_MXFP4)
        wr_str(o, ds, obj, "nibble_order", MLAB_NIBBLE_ORDER);
    if (i == MLAB_DS_KV_MXFP4_SCALE) {
        int32_t bs = MLAB_MX_BLOCK;
        wr_attr(o, ds, obj, "block_size", H5T_STD_I32LE, H5T_NATIVE_INT32, &bs);
    }
    if (i == MLAB_DS_REF_OUT)
        wr_str(o, ds, obj, "how", how);
close:
    if (ds >= 0 && H5Dclose(ds) < 0)
        wr_fail(o, obj, "cannot close the dataset");
    if (sp >= 0)
        H5Sclose(sp);
}

/* In mlab_atomic_write's child: the whole file at tmp. Returns
 * MLAB_EXIT_OK or the first failure. */
static int write_file(const mlab_why *w, const char *tmp, void *arg)
{
    const mlab_case *c = arg;
    writer o = {-1, 0, w};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* 1.8-compatible object headers: readable by HDF5 1.8 and later */
    if (fapl < 0 || H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_V18) < 0) {
        wr_fail(&o, NULL, "cannot set up HDF5 file properties");
        goto close_fapl;
    }
    o.f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (o.f < 0) {
        mlab_fail(w, MLAB_EXIT_IO, NULL, "cannot create the temporary file %s", tmp);
        o.failed = 1;
        goto close_fapl;
    }

    wr_str(&o, o.f, NULL, "format", MLAB_CASE_FORMAT);
    wr_int(&o, "format_version", MLAB_CASE_VERSION);
    wr_str(&o, o.f, NULL, "name", c->name);
    wr_int(&o, "batch", c->batch);
    wr_int(&o, "q_seq_len", mlab_case_uniform_len(c->qo_indptr, c->batch));
    wr_int(&o, "kv_len", mlab_case_uniform_len(c->kv_indptr, c->batch));
    for (size_t k = 0; k < mlab_case_nconsts; k++)
        wr_int(&o, mlab_case_consts[k].name, mlab_case_consts[k].value);
    wr_attr(&o, o.f, NULL, "sm_scale", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, &c->sm_scale);
    wr_attr(&o, o.f, NULL, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &c->seed);
    wr_attr(&o, o.f, NULL, "input_scale", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, &c->input_scale);
    wr_str(&o, o.f, NULL, "mxfp4_tie", mlab_fp4_tie_name(c->fp4_tie));
    wr_str(&o, o.f, NULL, "fp8_format", mlab_case_fp8_name(c->fp8_fmt));
    wr_str(&o, o.f, NULL, "producer", c->producer[0] ? c->producer : "unknown");
    wr_str(&o, o.f, NULL, "commit", c->commit[0] ? c->commit : "unknown");

    char how[256];
    snprintf(how, sizeof how, "stored by %s; the in-memory case does not record how",
             c->producer[0] ? c->producer : "an unknown producer");
    const void *data[MLAB_DS_COUNT] = {
        [MLAB_DS_Q] = c->q, [MLAB_DS_KV_BF16] = c->kv_bf16, [MLAB_DS_KV_FP8] = c->kv_fp8,
        [MLAB_DS_KV_FP8_SCALE] = &c->kv_fp8_scale, [MLAB_DS_KV_MXFP4] = c->kv_fp4,
        [MLAB_DS_KV_MXFP4_SCALE] = c->kv_e8m0, [MLAB_DS_QO_INDPTR] = c->qo_indptr,
        [MLAB_DS_KV_INDPTR] = c->kv_indptr, [MLAB_DS_REF_OUT] = c->ref_out,
    };
    for (int i = 0; i < MLAB_DS_COUNT; i++)
        if (data[i])
            wr_dataset(&o, i, c->total_q, c->total_kv, c->batch, c->fp8_fmt, how, data[i]);

    if (!o.failed && H5Fflush(o.f, H5F_SCOPE_GLOBAL) < 0)
        wr_fail(&o, NULL, "H5Fflush failed (disk full?)");
    if (H5Fclose(o.f) < 0)
        wr_fail(&o, NULL, "closing the file failed (disk full?)");
close_fapl:
    if (fapl >= 0)
        H5Pclose(fapl);
    return o.failed ? MLAB_EXIT_IO : MLAB_EXIT_OK;
}


int mlab_h5_write_case(const char *path, const mlab_case *c, char *why, size_t whylen)
{
    mlab_why w = {path, why, whylen};
    char reason[384], objbuf[64];

    if (why && whylen)
        why[0] = '\0';
    /* never write what the reader would refuse */
    if (mlab_case_validate(c, reason, sizeof reason) != 0) {
        const char *r = reason, *obj = mlab_case_validate_object(&r, objbuf, sizeof objbuf);
        return mlab_fail(&w, MLAB_EXIT_BADINPUT, obj, "not written: %s", r);
    }
    int uq = mlab_case_uniform_len(c->qo_indptr, c->batch);
    int ukv = mlab_case_uniform_len(c->kv_indptr, c->batch);
    if ((c->q_seq_len != -1 && c->q_seq_len != uq) || (c->kv_len != -1 && c->kv_len != ukv))
        return mlab_fail(&w, MLAB_EXIT_BADINPUT, NULL,
                         "not written: q_seq_len %d / kv_len %d disagree with the indptrs",
                         c->q_seq_len, c->kv_len);
    if ((unsigned)c->fp8_fmt > MLAB_FP8_E4M3FNUZ || (unsigned)c->fp4_tie > MLAB_TIE_EVEN)
        return mlab_fail(&w, MLAB_EXIT_INTERNAL, NULL, "not written: bad fp8 format or tie rule");
    /* temporary, child process, fsync, rename: atomic.h */
    return mlab_atomic_write(path, write_file, (void *)c, why, whylen);
}
