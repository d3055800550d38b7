/* launchers.h: what each variant file exports to the runner. */
#ifndef MLAB_LAUNCHERS_H
#define MLAB_LAUNCHERS_H

#include "mla_params.h"
#include "mlab_hip.h"
#include "splits.h" /* mlab_split_dram, MLAB_SPLIT_DRAM_*_WGMMA */

typedef struct mlab_variant_impl {
    int id;                                  /* mlab_variant_id (variants.h) */
    int q_fp8;                               /* Q to fp8 in the call: 1 by the amax pass (per tensor),
                                                2 in the decode itself (per (row, head): _qrow) */
    int (*blocks_per_sm)(void);              /* occupancy of its main kernel */
    int smem_bytes;                          /* dynamic shared memory of its main kernel */
    hipError_t (*launch)(const mla_params *p, hipStream_t s, uint16_t *scratch_bf16);
    int pre_launches;                        /* kernels before the decode sequence (0 for most) */
    int block_threads;                       /* threads a block of its main kernel; 0 = MLA_NT */
    const char *unavailable;                 /* NULL: this build runs it; else why not (a variant
                                                whose idea exists on one vendor or architecture
                                                only, e.g. "needs NVIDIA sm_90a (wgmma)") */
    int (*smem_used)(void);                  /* the main kernel's shared memory on this device
                                                (AMD: the configuration launch_fit picks); NULL:
                                                smem_bytes, which is then the least it needs */
    int combine_only;                        /* 1: its decode only writes partials for the combine
                                                kernel; 0: it is mla_decode, which can also merge a
                                                row's splits itself (p->merge_inline, merge_cluster) */
    /* NULL, or the implementation that runs a call of total_q query rows
     * whose longest sequence is max_vis rows on a GPU of sms SMs: a variant
     * may pick another configuration by the call's size (bf16: 32-row tiles
     * on long calls); the runner then uses that entry for everything (split
     * rule, launch, launch info), the results row keeps this variant's name */
    const struct mlab_variant_impl *(*pick)(int total_q, int max_vis, int sms);
    int xcd_placed;                          /* 1: its blocks are placed by XCD (xcd_map.h): its grid
                                                is padded to whole XCD groups and a row's split
                                                blocks are not consecutive (no cluster merge) */
    int (*exact_fallback)(const mla_params *p); /* with exact_impl: 1 where the case (p: the
                                                loaded case's parameters) is beyond the variant's
                                                fast path; the runner then runs exact_impl for
                                                everything (split rule, launch, launch info) and
                                                the results row says the exact path ran */
    const struct mlab_variant_impl *exact_impl; /* NULL, or that exact path (mxfp4's) */
    int persistent;                          /* 1: its decode loops over units, so the runner caps
                                                its grid at SMs x blocks an SM (mla_params.grid_max;
                                                MLAB_PERSIST=off: a block a unit) */
    int head_pairs;                          /* 1: its decode can take a unit's heads in two blocks of
                                                8 (mla_params.head_pairs), which the runner asks for
                                                where the units fill at most half the SMs; only
                                                with combine_only (the combine merges its splits) */
    mlab_split_dram dram;                    /* its decode's DRAM share for the split rule (splits.h:
                                                the % of the SMs whose streaming saturates the DRAM, ...);
                                                zero (most variants, left out of their initializers): none */
    int mtp;                                 /* 1: its decode can take both query rows of an item of two
                                                in one block, each KV tile read once for both
                                                (mla_params.mtp: a call whose every item has two,
                                                no ragged plan, head pairs or one-launch merge;
                                                MLAB_MTP=off: a block a row); 0 (most, left out) */
} mlab_variant_impl;

/* The decode's grid for a call (xcd_map.h, mlab_decode_grid: the plan's
 * blocks, the placed grid or rows x splits), capped at a persistent decode's
 * mla_params.grid_max: what launch_sequence launches and the results row
 * records */
#include "xcd_map.h"
/* the rows a call's units are of: its query rows, or (mla_params.mtp) its
 * items, two query rows each */
static inline int mlab_unit_rows(const mla_params *p) { return p->mtp ? p->total_q / 2 : p->total_q; }
static inline int mlab_call_grid(const mla_params *p, int placed)
{
    const int g = mlab_decode_grid(p->blk_work ? p->plan_blocks : 0, mlab_unit_rows(p), p->splits, p->xcd_count, placed) *
                  (p->head_pairs ? 2 : 1);
    return p->grid_max > 0 && g > p->grid_max ? p->grid_max : g;
}
/* every block of the call's decode takes one unit (not placed): the grid
 * cap of a persistent decode (grid_max) is not reached, so its unit loop
 * never runs (fp8_wgmma then launches its one-wave kernel; fp8_wgmma_qrow's
 * measured no faster, perf-notes v33) */
static inline int mlab_call_one_wave(const mla_params *p)
{
    return p->grid_max <= 0 ||
           mlab_decode_grid(p->blk_work ? p->plan_blocks : 0, p->total_q, p->splits, p->xcd_count, 0) <= p->grid_max;
}

/* Kernels one call of the decode sequence launches (launch_common.h keeps it
 * in step with launch_decode). */
int mlab_decode_launches(int q_fp8, const mla_params *p);

#include "variant_list.h"
#define MLAB_V_DECL(id, name, ...) extern const mlab_variant_impl mlab_impl_##name;
MLAB_VARIANT_LIST(MLAB_V_DECL)
#undef MLAB_V_DECL

/* Shared launch plumbing (variants/launch_common.h). */
#endif
