/* case_schema.c: the case file's schema table and the names it goes by
 * (case_schema.h). */
#include "case_schema.h"

#include <stdio.h>
#include <string.h>

const mlab_ds_spec mlab_case_datasets[MLAB_DS_COUNT] = {
    [MLAB_DS_Q] = {"q", MLAB_DS_UINT, 2, 3, {MLAB_DIM_TOTAL_Q, MLAB_HEADS, MLAB_DQK}, "bfloat16"},
    [MLAB_DS_KV_BF16] = {"kv_bf16", MLAB_DS_UINT, 2, 3, {MLAB_DIM_TOTAL_KV, 1, MLAB_DQK},
                         "bfloat16"},
    [MLAB_DS_KV_FP8] = {"kv_fp8", MLAB_DS_UINT, 1, 3, {MLAB_DIM_TOTAL_KV, 1, MLAB_DQK}, NULL},
    [MLAB_DS_KV_FP8_SCALE] = {"kv_fp8_scale", MLAB_DS_FLOAT, 4, 1, {1}, "float32"},
    [MLAB_DS_KV_MXFP4] = {"kv_mxfp4", MLAB_DS_UINT, 1, 3, {MLAB_DIM_TOTAL_KV, 1, MLAB_FP4_ROW},
                          "float4_e2m1fn_x2"},
    [MLAB_DS_KV_MXFP4_SCALE] = {"kv_mxfp4_scale", MLAB_DS_UINT, 1, 2,
                                {MLAB_DIM_TOTAL_KV, MLAB_MX_NBLK}, "float8_e8m0fnu"},
    [MLAB_DS_QO_INDPTR] = {"qo_indptr", MLAB_DS_INT, 4, 1, {MLAB_DIM_BATCH1}, "int32"},
    [MLAB_DS_KV_INDPTR] = {"kv_indptr", MLAB_DS_INT, 4, 1, {MLAB_DIM_BATCH1}, "int32"},
    [MLAB_DS_REF_OUT] = {"ref_out", MLAB_DS_UINT, 2, 3, {MLAB_DIM_TOTAL_Q, MLAB_HEADS, MLAB_DV},
                         "bfloat16"},
};

const mlab_case_const mlab_case_consts[] = {
    {"num_heads", MLAB_HEADS}, {"num_kv_heads", 1},     {"qk_head_dim", MLAB_DQK},
    {"v_head_dim", MLAB_DV},   {"kv_lora_rank", MLAB_DV}, {"qk_rope_head_dim", MLAB_DQK - MLAB_DV},
};
const size_t mlab_case_nconsts = sizeof mlab_case_consts / sizeof mlab_case_consts[0];

const char *mlab_case_fp8_name(mlab_fp8_fmt f)
{
    return f == MLAB_FP8_E4M3FNUZ ? "float8_e4m3fnuz" : "float8_e4m3fn";
}

const char *mlab_ds_kind_name(const mlab_ds_spec *s)
{
    if (s->kind == MLAB_DS_INT)
        return "int32";
    if (s->kind == MLAB_DS_FLOAT)
        return "float32";
    return s->elem == 2 ? "uint16" : "uint8";
}

long mlab_case_dim(long dim, long total_q, long total_kv, long batch)
{
    return dim == MLAB_DIM_TOTAL_Q ? total_q : dim == MLAB_DIM_TOTAL_KV ? total_kv
         : dim == MLAB_DIM_BATCH1  ? batch + 1 : dim;
}

int mlab_case_uniform_len(const int32_t *indptr, int batch)
{
    int n = indptr[1] - indptr[0];
    for (int b = 1; b < batch; b++)
        if (indptr[b + 1] - indptr[b] != n)
            return -1;
    return n;
}

const char *mlab_case_validate_object(const char **reason_p, char *buf, size_t len)
{
    const char *reason = *reason_p;
    size_t n = strspn(reason, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (reason[n] == ':' && reason[n + 1] == ' ')
        *reason_p = reason + n + 2;
    for (int i = 0; i < MLAB_DS_COUNT; i++)
        if (strlen(mlab_case_datasets[i].name) == n &&
            strncmp(reason, mlab_case_datasets[i].name, n) == 0) {
            snprintf(buf, len, "/%s", mlab_case_datasets[i].name);
            return buf;
        }
    if (n > 0 && n < 32) {
        snprintf(buf, len, "attribute %.*s", (int)n, reason);
        return buf;
    }
    return NULL;
}
