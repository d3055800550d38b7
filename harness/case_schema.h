/* case_schema.h: the case file's schema ("mlabench-case", data/README.md)
 * as one table that its reader (case_read.c, case_check.c) and its writer
 * (case_write.c) both follow: each dataset's stored type, rank and dims,
 * the structural constants a file states, and the names they go by. */
#ifndef MLAB_CASE_SCHEMA_H
#define MLAB_CASE_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "../reference/case.h" /* mlab_case, mlab_fp8_fmt, MLAB_HEADS, MLAB_DQK, ... */

#define MLAB_CASE_FORMAT "mlabench-case"
#define MLAB_CASE_VERSION 1
#define MLAB_NIBBLE_ORDER "low_nibble_first_even_index"

/* How a dataset is stored: uintN (raw bits), int32 or float32. */
typedef enum { MLAB_DS_UINT, MLAB_DS_INT, MLAB_DS_FLOAT } mlab_ds_kind;

/* Symbolic dims, resolved per file. */
enum { MLAB_DIM_TOTAL_Q = -1, MLAB_DIM_TOTAL_KV = -2, MLAB_DIM_BATCH1 = -3 };

/* The datasets, in the table's order. */
enum {
    MLAB_DS_Q, MLAB_DS_KV_BF16, MLAB_DS_KV_FP8, MLAB_DS_KV_FP8_SCALE, MLAB_DS_KV_MXFP4,
    MLAB_DS_KV_MXFP4_SCALE, MLAB_DS_QO_INDPTR, MLAB_DS_KV_INDPTR, MLAB_DS_REF_OUT, MLAB_DS_COUNT
};

typedef struct {
    const char *name;  /* dataset under the root, without '/' */
    mlab_ds_kind kind;
    int elem;          /* bytes per element */
    int rank;
    long dims[3];      /* a number or an MLAB_DIM_* symbol */
    const char *dtype; /* the "dtype" attribute (NULL: the fp8 format's name) */
} mlab_ds_spec;

extern const mlab_ds_spec mlab_case_datasets[MLAB_DS_COUNT];

/* The structural constants a file states (optional on read, must match). */
typedef struct {
    const char *name;
    long value;
} mlab_case_const;
extern const mlab_case_const mlab_case_consts[];
extern const size_t mlab_case_nconsts;

/* "float8_e4m3fn" or "float8_e4m3fnuz". */
const char *mlab_case_fp8_name(mlab_fp8_fmt f);

/* The stored type's name for messages: "uint16", "uint8", "int32", "float32". */
const char *mlab_ds_kind_name(const mlab_ds_spec *s);

/* A dim of the table with its symbol resolved (total_q, total_kv, batch + 1). */
long mlab_case_dim(long dim, long total_q, long total_kv, long batch);

/* The length every item has, or -1 when they differ. */
int mlab_case_uniform_len(const int32_t *indptr, int batch);

/* mlab_case_validate names a tensor or a parameter first ("kv_indptr[3] =
 * ...", "q: non-finite ..."); the object of the file that is ("/kv_indptr",
 * "attribute batch"), in buf, or NULL. The reason's own "name: " prefix is
 * then dropped (*reason_p moves past it). */
const char *mlab_case_validate_object(const char **reason_p, char *buf, size_t len);

#endif
