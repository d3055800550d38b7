/* variants.h: the table of GPU variants, stable names and ids (plain C, so
 * the harness can list and name variants in builds without a GPU).
 * Ids never change meaning; a retired variant keeps its id unused. */
#ifndef MLAB_VARIANTS_H
#define MLAB_VARIANTS_H

#include "../reference/case.h" /* mlab_kv_fmt */

typedef enum {
    MLAB_V_BF16 = 0,
    MLAB_V_FP8 = 1,
    MLAB_V_MXFP4 = 2,
    MLAB_V_MXFP4_UNFUSED = 3,
    MLAB_V_FP8_EXP2RCP = 4,
    MLAB_V_FP8_XCD = 5,
    MLAB_V_COUNT
} mlab_variant_id;

typedef struct {
    mlab_variant_id id;
    const char *name;      /* stable: results files and plots use it */
    mlab_kv_fmt kv;        /* the KV tensor it reads */
    int q_fp8;             /* quantizes Q to fp8 inside the call (a8w8) */
    int p_fp8;             /* rounds P to fp8 before P.V */
    const char *parent;    /* the variant it builds on, "" for the root */
    const char *tol;       /* its row in the tolerance table (metrics.c) */
    const char *idea;      /* one line */
} mlab_variant;

const mlab_variant *mlab_variant_table(int *n);
const mlab_variant *mlab_variant_find(const char *name); /* NULL if unknown */

#endif
