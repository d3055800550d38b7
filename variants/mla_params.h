/* mla_params.h: the kernels' ABI. One plain struct, filled and validated by
 * the host (runner.hip), passed by value to every kernel. Shapes in brackets;
 * strides in elements. Scalars are precomputed on the host. */
#ifndef MLAB_MLA_PARAMS_H
#define MLAB_MLA_PARAMS_H

#include <stdint.h>

#include "../reference/mla_shapes.h" /* the shapes, defined once */

/* the kernels' short names for them */
#define MLA_H MLAB_HEADS        /* query heads */
#define MLA_D MLAB_DQK          /* q/k head dim: 512 latent + 64 rope */
#define MLA_DV MLAB_DV          /* v head dim (the first 512 of the same rows) */
#define MLA_FP4_ROW MLAB_FP4_ROW
#define MLA_NBLK MLAB_MX_NBLK   /* MXFP4 blocks of 32 per row */
#define MLA_MAX_SPLITS 64 /* the most KV splits a row (workspace size, combine weights) */
#define MLA_COMBINE_AHEAD 16 /* the smallest combine instance that loads every partial ahead */
#define MLA_COMBINE_AHEAD_MID 32 /* the next (v36), then MLA_MAX_SPLITS */
/* MLAB_COMBINE_AHEAD32 (launch_common.h combine_ahead): calls of 17 to 32
 * splits merged by the instance that loads 32 ahead; 0: by the 64 one, as
 * before v36 */
#ifndef MLAB_COMBINE_AHEAD32
#define MLAB_COMBINE_AHEAD32 1
#endif
#define MLAB_COMBINE_SPREAD_BPS 4 /* a spread combine's blocks an SM at most (splits.h mlab_combine_chunks) */
#define MLA_INLINE_MERGE_MAX 16 /* up to this many splits the row's last block merges them */
#define MLA_QSMALL_ROWS 4 /* up to this many query rows, each a8w8 block may take Q's amax itself */
#define MLA_AMAX_T 256    /* the Q amax pass's threads a block (mla_q_amax) */
#define MLA_AMAX_SM 2     /* its blocks an SM at most (the runner's amax_blocks) */

struct mlab_launch_info; /* gpu_api.h: what a launch sequence reports (mla_params.ran) */

typedef struct {
    /* inputs */
    const uint16_t *q;        /* [total_q, 16, 576] bf16 */
    const uint16_t *kv_bf16;  /* [kv_rows, 576] bf16 (bf16 variant, or the unfused dequant buffer) */
    const uint8_t *kv_fp8;    /* [kv_rows, 576] fp8 e4m3 codes */
    const uint8_t *kv_fp4;    /* [kv_rows, 288] E2M1 pairs, low nibble = even dim */
    const uint8_t *kv_e8m0;   /* [kv_rows, 18] E8M0 block scales */
    const void *kv_tmap;      /* NVIDIA sm_90 builds: the fp8 KV's tensor map in global memory
                                 (arch/nv_tma.h: boxes of 64 rows x 64 bytes, 64-byte swizzle),
                                 encoded once when the case is loaded; NULL where the driver
                                 cannot encode one (the fp8 decode then loads every tile by
                                 cp.async into the same layout) and on AMD */
    const int32_t *tok_kv;    /* [total_q][2]: query row t sees kv rows tok_kv[2t] ..
                                 tok_kv[2t] + tok_kv[2t+1] - 1 of the KV buffers: its item's
                                 first buffer row (== kv_indptr[item] for a dense cache; the
                                 harness leaves poisoned gaps) and the rows it sees (causal:
                                 L - n + i + 1 for query i of n over L rows). The runner
                                 computes them on the host from qo_indptr and kv_indptr when
                                 the case is loaded, as a serving engine plans a decode step
                                 once for all its layers (FlashMLA's get_mla_metadata,
                                 FlashInfer's plan()): a block starts its KV loads after one
                                 dependent load, not two (item, then its indptrs) */
    const int *blk_work;      /* [plan_blocks][2] a ragged batch's plan (splits.h,
                                 mlab_plan_splits; the runner makes it outside the timed call):
                                 block b runs row blk_work[2b]'s split blk_work[2b+1] (fp8_xcd's
                                 table placed by XCD, mlab_plan_table, with padding entries of
                                 row -1); NULL: uniform, block b runs row b / splits, split
                                 b % splits */
    const int *row_splits;    /* with blk_work: [total_q] each row's splits (splits, the
                                 partials' row stride, is their largest) */
    int plan_blocks;          /* with blk_work: the decode's grid (the rows' splits summed;
                                 fp8_xcd's padded to whole rounds of its XCDs) */
    int mtp;                  /* 1: every item has two query rows (MTP) and a decode that can
                                 (mlab_variant_impl.mtp, bf16_wgmma) takes both in one block,
                                 reading each KV tile once: a block an (item, split), the grid
                                 total_q / 2 x splits (MLAB_MTP); 0: a block a (row, split).
                                 In the 4 bytes of padding before the next pointer: no other
                                 field moves (a larger struct moved the code of a kernel taking
                                 an argument after it, mla_dequant_mxfp4) */
    /* outputs and workspace */
    uint16_t *out;            /* [total_q, 16, 512] bf16 */
    uint16_t *part_o;         /* [total_q, splits, 16, 512] f16 bits: each split's O / l divided
                                 by its part_mul (mla_kernel.h, "split partials") */
    float *part_lse;          /* [total_q, splits, 16] log2-sum-exp2 of each split, -inf if empty */
    unsigned long long *trace; /* [MLAB_TR_WORDS] phase times of -DMLAB_TRACE builds
                                  (mla_kernel.h); NULL otherwise */
    float *q_amax_part;       /* [amax_blocks] per-block max |q| (a8w8 variants) */
    int amax_blocks;          /* blocks of the Q amax pass; 0: every decode block takes
                                 the amax of the whole (small) Q itself, no pass */
    int *row_count;           /* [total_q] split blocks of a row done so far: the last one
                                 merges the row (0 between calls; the merger resets it) */
    int merge_inline;         /* 1: split partials merged by the row's last block (one
                                 launch); 2: by all the row's blocks after a barrier
                                 (MLAB_MERGE=barrier, a cooperative launch); 0: by
                                 mla_combine (a second launch) */
    int mx_e4m3_ok;           /* every E8M0 scale of the case folds into e4m3 exactly
                                 (mxfp4_e4m3 runs its fast path; else the exact one) */
    int fault;                /* negative control (MLAB_FAULT): 1 = read one row past each
                                 sequence end, 2 = merge without the last split, 3 = the
                                 _qrow variants' scores all scaled by head 0's Q scale, 4 =
                                 mxfp4_qrow_lazy's O not rescaled when its max moves, 5 = a
                                 kernel that never ends launched ahead (the runner's
                                 watchdog test, MLAB_FAULT=hang), 6 = the output written
                                 one query row past its buffer (the runner moves out;
                                 compute-sanitizer only, MLAB_FAULT=oob); 0 normally */
    /* sizes */
    int batch, total_q, splits;
    int kv_rows;              /* rows in the KV buffers */
    /* scalars */
    float sm_scale;           /* 1/sqrt(576) */
    float kv_scale;           /* fp8 per-tensor scale (x = code * kv_scale); 1 otherwise */
    float fp8_max;            /* 448 (e4m3fn) or 240 (fnuz) */
    int xcd_count;            /* XCD remap: 8 on MI355X; 0 = no remap */
    int merge_cluster;        /* 1: a row's split blocks are one thread-block cluster and merge
                                 through distributed shared memory (MLAB_MERGE=cluster in
                                 -DMLAB_ONE_LAUNCH builds, NVIDIA sm_90+, up to
                                 MLAB_CLUSTER_MAX splits; mla_kernel.h cluster_merge); no
                                 partials, no combine launch */
    float *part_mul;          /* [total_q, splits, 16] what a split's f16 partial is multiplied by
                                 to give O / l: kv_scale (fp8 KV), else a power of two */
    int combine;              /* the combine kernel (MLAB_COMBINE): 0 the launcher's choice
                                 (mla_combine with every partial loaded ahead of the weights,
                                 16 or 64 splits' worth, where its grid is one wave of it,
                                 else the plain one), 1 plain, 2 ahead */
    struct mlab_launch_info *ran; /* host: where the launch sequence says what it launched
                                 (gpu_api.h: how the call's splits were merged, the decode
                                 kernel's shared memory, registers and local bytes a thread;
                                 launch_common.h, launch_sequence); NULL: nowhere; no kernel
                                 reads it */
    int grid_max;             /* > 0: the decode's grid at most this many blocks, each looping
                                 over the call's (row, split) units (a persistent decode:
                                 mlab_variant_impl.persistent, fp8_wgmma); 0: a block a unit */
    const void *kv_tmap16;    /* NVIDIA sm_90 builds: the bf16 KV's tensor map (boxes of 64 rows
                                 x 128 bytes, 128-byte swizzle: bf16_wgmma's tiles), as kv_tmap */
    int combine_chunks;       /* the plain combine's blocks a (row, head): 1, 2 or 4, each
                                 512 / chunks columns, at most MLAB_COMBINE_SPREAD_BPS an SM
                                 (a call of few rows and many splits: splits.h
                                 mlab_combine_chunks; launch_common.h); 0 reads as 1 */
    int combine_cap;          /* 1: the plain combine's blocks capped a few an SM where the
                                 decode fills the SMs (splits.h mlab_combine_capped,
                                 launch_common.h combine_smem; MLAB_COMBINE_CAP); 0: as many
                                 as fit (a spread combine is capped either way); no kernel
                                 reads it */
    int head_pairs;           /* 1: each (row, split) unit's 16 heads taken by two blocks, 2u and
                                 2u + 1, of 8 heads each (bf16_wgmma where the units fill at most
                                 half the SMs: splits.h mlab_head_pairs, MLAB_PAIRS; the grid is
                                 doubled); 0: a block a unit */
    int kv_ef;                /* 1: the decode's KV copies (bulk and tensor copies, NVIDIA sm_90)
                                 bring their lines into L2 as evict_first (arch/nv_bulk.h
                                 mlab_l2_evict_first): calls of at most MLAB_KV_EF_L2S x the
                                 L2's bytes of KV (splits.h mlab_kv_evict_first,
                                 MLAB_KV_EVICT); 0: plain copies */
} mla_params;

/* -DWG_PERSIST=0: fp8_wgmma's decode a block a unit, as before it looped
 * (variants/mla_wgmma.h; recorded in the results' kernel_knobs) */
#ifndef WG_PERSIST
#define WG_PERSIST 1
#endif

#endif
