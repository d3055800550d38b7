/* variants.c: the variant table (see variants.h). Each kernel's file in this
 * folder opens with its idea, parent and measured effect. */
#include "variants.h"

#include <string.h>

static const mlab_variant table[MLAB_V_COUNT] = {
    {MLAB_V_BF16, "bf16", MLAB_KV_BF16, 0, 0, "", "kernel:bf16",
     "split-KV flash decoding, bf16 Q and KV on the matrix units, fp32 accumulation, LSE combine"},
    {MLAB_V_FP8, "fp8", MLAB_KV_FP8, 1, 1, "bf16", "kernel:fp8",
     "a8w8: Q quantized per tensor in the call, fp8 KV, fp8 Q.K, P rounded to fp8 for P.V"},
    {MLAB_V_MXFP4, "mxfp4", MLAB_KV_MXFP4, 0, 0, "bf16", "kernel:mxfp4",
     "reads packed E2M1 + E8M0 and dequantizes in shared memory, never writing a bf16 cache"},
    {MLAB_V_MXFP4_UNFUSED, "mxfp4_unfused", MLAB_KV_MXFP4, 0, 0, "bf16", "kernel:mxfp4",
     "control: dequantize the whole cache to a bf16 buffer, then run bf16 (the reference's way)"},
    {MLAB_V_FP8_EXP2RCP, "fp8_exp2rcp", MLAB_KV_FP8, 1, 1, "fp8", "kernel:fp8",
     "fp8 with softmax in exp2 (log2 e folded into the scale) and a fast reciprocal at the end"},
    {MLAB_V_FP8_XCD, "fp8_xcd", MLAB_KV_FP8, 1, 1, "fp8_exp2rcp", "kernel:fp8",
     "fp8_exp2rcp with block ids remapped so neighbours share an XCD (8 on MI355X)"},
};

const mlab_variant *mlab_variant_table(int *n)
{
    *n = MLAB_V_COUNT;
    return table;
}

const mlab_variant *mlab_variant_find(const char *name)
{
    for (int i = 0; i < MLAB_V_COUNT; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}
