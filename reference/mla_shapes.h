/* mla_shapes.h: the problem's fixed shapes and the KV formats, defined once
 * for the reference, the harness and the kernels (plain C, no other
 * includes, so device code can include it too). DeepSeek R1's absorbed
 * decode (papers/spec.md): 16 query heads over one latent KV head of 576
 * dims (512 latent + 64 rope); K = all 576 dims, V = the first 512. */
#ifndef MLAB_MLA_SHAPES_H
#define MLAB_MLA_SHAPES_H

#define MLAB_HEADS 16
#define MLAB_DQK 576   /* 512 latent + 64 rope */
#define MLAB_DV 512
#define MLAB_MX_BLOCK 32                        /* MXFP4 elements sharing an E8M0 scale */
#define MLAB_MX_NBLK (MLAB_DQK / MLAB_MX_BLOCK) /* 18 */
#define MLAB_FP4_ROW (MLAB_DQK / 2)             /* 288 bytes of E2M1 pairs a row */

/* The KV formats a reference or a variant reads. */
typedef enum { MLAB_KV_BF16 = 0, MLAB_KV_FP8 = 1, MLAB_KV_MXFP4 = 2 } mlab_kv_fmt;

/* A KV row's bytes in a format (MXFP4: its E2M1 pairs and its scales): a
 * call's fewest bytes (harness/run_rows.c) and the split rule's tiles
 * (variants/splits.h) */
static inline int mlab_kv_row_bytes(mlab_kv_fmt f)
{
    return f == MLAB_KV_BF16 ? 2 * MLAB_DQK : f == MLAB_KV_FP8 ? MLAB_DQK : MLAB_FP4_ROW + MLAB_MX_NBLK;
}

#endif
