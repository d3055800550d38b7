/* variants.h: the table of GPU variants, stable names and ids (plain C, so
 * the harness can list and name variants in builds without a GPU).
 * Ids never change meaning; a retired variant keeps its id unused. */
#ifndef MLAB_VARIANTS_H
#define MLAB_VARIANTS_H

#include "../reference/case.h" /* mlab_kv_fmt */

#include "variant_list.h" /* MLAB_VARIANT_LIST */

typedef enum {
#define MLAB_V_ENUM(id, name, ...) MLAB_V_##name = id,
    MLAB_VARIANT_LIST(MLAB_V_ENUM)
#undef MLAB_V_ENUM
#define MLAB_V_ONE(...) +1
    MLAB_V_COUNT = 0 MLAB_VARIANT_LIST(MLAB_V_ONE)
#undef MLAB_V_ONE
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

#ifdef __cplusplus
extern "C" { /* defined in variants.c (C); the runner (C++) reads it too */
#endif
const mlab_variant *mlab_variant_table(int *n);
const mlab_variant *mlab_variant_find(const char *name); /* NULL if unknown */
const mlab_variant *mlab_variant_by_id(int id);          /* NULL if unknown */
#ifdef __cplusplus
}
#endif

#endif
