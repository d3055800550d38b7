/* variants.c: the variant table (see variants.h). Each kernel's file in this
 * folder opens with its idea, parent and measured effect. */
#include "variants.h"

#include <string.h>

static const mlab_variant table[MLAB_V_COUNT] = {
#define MLAB_V_ROW(id, name, kv, q8, p8, parent, tol, idea) {(mlab_variant_id)id, #name, kv, q8, p8, parent, tol, idea},
    MLAB_VARIANT_LIST(MLAB_V_ROW)
#undef MLAB_V_ROW
};

const mlab_variant *mlab_variant_table(int *n)
{
    *n = MLAB_V_COUNT;
    return table;
}

const mlab_variant *mlab_variant_by_id(int id)
{
    for (int i = 0; i < MLAB_V_COUNT; i++)
        if ((int)table[i].id == id)
            return &table[i];
    return NULL;
}

const mlab_variant *mlab_variant_find(const char *name)
{
    for (int i = 0; i < MLAB_V_COUNT; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}
