/* results_schema.c: the results file's compound types from the field
 * tables, and the /inputs record's table (results_schema.h). */
#include "results_schema.h"

#include <string.h>

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

int mlab_results_types(const mlab_field *f, size_t n, size_t stride, hid_t *mem, hid_t *file)
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
    {"wall_s", 'd', offsetof(mlab_input_file, wall_s), sizeof(double)}, /* optional: results_read.c */
};

const mlab_field *mlab_input_fields(size_t *n)
{
    *n = sizeof input_fields / sizeof input_fields[0];
    return input_fields;
}

void mlab_results_clean_strings(void *rec, const mlab_field *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (f[i].kind == 's') {
            char *s = (char *)rec + f[i].offset;
            s[f[i].size - 1] = 0;
            size_t l = strlen(s);
            memset(s + l, 0, f[i].size - l);
        }
}
