/* mla_kernel.h: the split-KV decode kernel every variant instantiates, its
 * LSE combine, and the small kernels around them (Q amax, MXFP4 dequant).
 *
 * One block = one query row (16 heads) x one split of its visible kv rows
 * (causal rule folded in: query i of n over L rows sees L-n+i+1 rows).
 * 8 warps (NVIDIA) or 8 waves (AMD); tiles of BN = 64 kv rows (32 for bf16
 * and MXFP4 on MI300X's 64 KB: mla_cfg) stream through shared memory in an
 * NSTAGE-deep pipeline (cp.async; on NVIDIA sm_90+ bf16's and mxfp4_e4m3's
 * raw rows by bulk copies on an mbarrier a stage, mla_cfg::BULK, and the
 * a8w8 tiles by tensor copies into 64-byte swizzled panels, mla_cfg::TMAP).
 * Per tile:
 *   1. S = Q K^T: warp w computes kv columns 16(w%4)..+15 over one half of
 *      the 576 dims (w/4) on the matrix units (the NVIDIA a8w8 core: 32
 *      columns over a quarter of the dims, its Q slice in registers,
 *      mla_cfg::QREG); the partial S, scaled and masked past the sequence
 *      end, go to sS.
 *   2. online softmax, 16 (NV) or 32 (AMD) threads per head row: running max
 *      m, sum l, rescale factor alpha; P to sP (bf16, or fp8-rounded f16).
 *   3. O = alpha O + P V: warp w owns output columns 64w..64w+63.
 * A block writes bf16 output directly when splits == 1, else its normalized
 * partial O in f16 with a multiplier a head ("split partials" below) and its
 * log2-sum-exp2 for mla_combine.
 * Template knobs: KVF (kv format), FAST (exp2 + fast reciprocal instead of
 * expf + IEEE division), XCD (a query row's blocks on one XCD, xcd_map.h).
 */
#ifndef MLAB_MLA_KERNEL_H
#define MLAB_MLA_KERNEL_H

#include "mla_mma.h"
#include "mla_params.h"
#include "mlab_div.h"
#include "smem_lanes.h" // mlab_dq_item, mlab_e4_item: the MXFP4 tile passes' items
#include "xcd_map.h" // mlab_xcd_work: fp8_xcd's block placement
#include "mfma_scale_lanes.h" // mlab_mx8_scale_byte: mxfp4_mfma_scale's Q quantization
#include "arch/nv_cluster.h" // cluster_merge: a row's split blocks merged through distributed shared memory
#include "arch/nv_bulk.h" // BULK tile loads: one bulk copy a row, counted on an mbarrier
#include "arch/nv_tma.h" // TMAP tile loads: 9 tensor copies a tile into 64-byte swizzled panels

/* template arguments: the three case formats, and KV_MX8, MXFP4 read from
 * memory but converted tile by tile to e4m3 codes (block scales folded in)
 * for the fp8 core (variants/mxfp4_e4m3.hip), and KV_MXS, MXFP4 fed as
 * stored to gfx950's scaled MFMA (variants/mxfp4_mfma_scale.hip) */
enum { KV_BF16 = MLAB_KV_BF16, KV_FP8 = MLAB_KV_FP8, KV_MXFP4 = MLAB_KV_MXFP4, KV_MX8 = 3, KV_MXS = 4 };
/* KVF | MLA_KV_SMALL: on AMD, the same format in the configuration that fits
 * 64 KB of LDS (MI300X/MI325X), mla_cfg; the launcher picks it from the
 * device's LDS (launch_common.h, launch_fit). On NVIDIA, bf16 in 32-row
 * tiles (variants/bf16_t32.hip). */
enum { MLA_KV_SMALL = 8 };

/* -DMLAB_TRACE (NVIDIA, diagnostics): every kernel of the sequence records
 * %globaltimer (ns) at its phases into a buffer the runner passes in the
 * trace field and prints after the cold samples (layout: MLAB_TR_* below). */
#define MLAB_TR_DECODE 1024                        /* amax block b: [2b], [2b + 1] */
#define MLAB_TR_COMBINE (MLAB_TR_DECODE + 8 * 65536) /* decode block b: 8 words */
#define MLAB_TR_QPATH (MLAB_TR_COMBINE + 4 * 65536)  /* combine block b: 4 words */
#define MLAB_TR_WGPROF (MLAB_TR_QPATH + 2 * 65536)   /* a8w8 decode block b: grid wait done, amax known */
#define MLAB_TR_WGPROD (MLAB_TR_WGPROF + 8 * 65536)  /* -DMLAB_WG_PROF: fp8_wgmma block b's phase cycles */
#define MLAB_TR_ISSUE (MLAB_TR_WGPROD + 8 * 65536)   /* -DMLAB_WG_PROF: mxfp4_wgmma block b's producer cycles */
#define MLAB_TR_COMBIN (MLAB_TR_ISSUE + 2 * 65536)   /* wgmma decode block b: [2b] its unit known (the producer's tok_kv in;
                                                        its first copy next), [2b + 1] its first tile landed (tensor copies) */
#define MLAB_TR_WORDS (MLAB_TR_COMBIN + 2 * 65536)   /* combine block b: [2b] its lse back, [2b + 1] its weights stored */
#if defined(MLAB_TRACE) && defined(MLAB_NV)
MLAB_DEV unsigned long long mlab_gtime(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
/* the time once v is in a register (the asm reads it: it waits for v's load) */
MLAB_DEV unsigned long long mlab_gtime_after(int v)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : "r"(v));
    return t;
}
#define MLAB_TR(...) __VA_ARGS__
/* a decode block's record: start, amax wait done, first tile ready, loop end, end, SM, tiles */
MLAB_DEV void trace_decode(const mla_params &p, unsigned long long tr0, unsigned long long tr1,
                           unsigned long long tr2, unsigned long long tr3, int tiles,
                           unsigned long long tr4 = 0, unsigned lead = 0)
{
    if (threadIdx.x != lead || !p.trace) return; /* lead: the recording thread (0; bf16_wgmma's pairs: 128) */
    unsigned long long *tb = p.trace + MLAB_TR_DECODE + 8 * blockIdx.x;
    unsigned sm;
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    tb[0] = tr0; tb[1] = tr1; tb[2] = tr2; tb[3] = tr3; tb[4] = mlab_gtime();
    tb[5] = sm; tb[6] = tiles; tb[7] = tr4 ? tr4 : 1; /* 1: recorded, no drain time */
}
#else
#define MLAB_TR(...)
#endif

#define MLA_BN 64
#define MLA_NW 8
#define MLA_NT (MLA_NW * MLAB_WARP)
#define MLA_LOG2E 1.4426950408889634f

/* bytes per shared row of Q and KV tiles: +16 so ldmatrix rows hit distinct banks */
template <int KVF> struct mla_cfg {
    static_assert((KVF & ~(7 | MLA_KV_SMALL)) == 0, "mla_cfg: KV formats are 0..7, bit 3 is MLA_KV_SMALL");
    static constexpr int FMT = KVF & 7;                      /* the format (KV_*) */
    static constexpr bool SMALL = (KVF & MLA_KV_SMALL) != 0; /* the 64 KB configuration */
    static constexpr bool MX = FMT == KV_MXFP4 || FMT == KV_MX8 || FMT == KV_MXS; /* reads E2M1 + E8M0 */
    static constexpr bool MXS = FMT == KV_MXS;  /* no compute tile: the staged rows are the operands */
    static constexpr bool TILE = MX && !MXS;    /* staged rows converted into a compute tile */
    static constexpr bool F8T = FMT == KV_FP8 || FMT == KV_MX8;    /* compute tile of e4m3 codes */
    static constexpr int LDQ = FMT == KV_FP8 || FMT == KV_MXS ? MLA_D + 16 : 2 * MLA_D + 16; /* fp8 codes; bf16; f16 (MX8) */
    static constexpr int LDK = F8T ? MLA_D + 16 : 2 * MLA_D + 16;           /* compute tile */
#ifdef MLAB_NV
    /* H100/H200: 227 KB of shared memory a block */
    static constexpr int NSTAGE = FMT == KV_MXFP4 ? 3 : 2;
    static constexpr int MINB = F8T || SMALL ? 2 : 1; /* resident blocks an SM (MX8: 104.5 KB) */
    /* SMALL on NVIDIA: bf16 in 32-row tiles (variants/bf16_t32.hip), twice
     * the blocks for calls of a few tiles a row */
    static_assert(!SMALL || FMT == KV_BF16, "mla_cfg: NVIDIA's 32-row tiles are bf16's");
#else
    /* MI355X: 160 KB of LDS a CU; global -> LDS copies are synchronous here,
     * so one stage for bf16 (102 KB), two for fp8 (94 KB) and the MXFP4 raw
     * rows (141 KB). The 64 KB configuration (SMALL: MI300X/MI325X, or any
     * device reporting less than the large one needs): one stage everywhere, 64-row tiles for fp8 (57 KB) and 32-row
     * tiles for bf16 (61 KB), MXFP4 (60 KB: its bf16 tile dequantized
     * straight from global memory, no raw stage) and MX8 (53 KB); at 32 rows
     * only 4 of the 8 waves have Q.K work (2 column groups x 2 dim halves:
     * 4 halves' S would not fit). */
    static constexpr int NSTAGE = FMT == KV_BF16 || SMALL ? 1 : 2;
    static constexpr int MINB = 1;
#endif
#if defined(MLAB_AMD)
    static constexpr int BN = SMALL && FMT != KV_FP8 ? 32 : 64; /* kv rows a tile */
    static constexpr bool DIRECT = SMALL && FMT == KV_MXFP4;    /* tile dequantized from global, no raw stage */
#else
    static constexpr int BN = SMALL ? 32 : MLA_BN;
    static constexpr bool DIRECT = false;
#endif
    static constexpr int NCG = BN / 16, NCG_LOG = BN == 64 ? 2 : BN == 32 ? 1 : 0; /* Q.K column groups */
    static_assert(BN == 64 || BN == 32, "mla_cfg: tiles of 32 or 64 rows");
    static constexpr int RAW_ROW = MX ? MLA_FP4_ROW : LDK;  /* a staged row */
    static constexpr int ROW_BYTES = FMT == KV_BF16 ? 2 * MLA_D : FMT == KV_FP8 ? MLA_D : MLA_FP4_ROW;
#if defined(MLAB_QREG)
    /* Q.K work split: QK_DS dim slices x (8 / QK_DS) column groups of warps;
     * the NVIDIA fp8 path keeps its Q slice (576 / 4 dims) in registers */
    static constexpr bool QREG = FMT == KV_FP8;
#else
    static constexpr bool QREG = false;
#endif
    static constexpr int QK_DS = QREG ? 4 : 2;
    static constexpr int LDS = BN + MLAB_S_PAD; /* floats (the vendor's padding: mla_mma.h) */
    static constexpr int LDP = MXS ? 4 * (BN + 4) : 2 * (BN + 8); /* bytes: P as fp32 (MXS), else 16 bits */
    /* TMAP (NVIDIA sm_90+, the a8w8 family in 64-row tiles; -DMLAB_NO_TMAP or
     * -DMLAB_NO_BULK builds without): a stage is 9 panels of 64 rows x 64
     * bytes in the 64-byte swizzle (arch/nv_tma.h, mlab_sw64), landed by 9
     * tensor copies a tile from one thread (load_stage_tmap) instead of padded
     * rows by a bulk copy each; 1024-aligned */
    static constexpr bool TMAP = MLAB_HAVE_TMAP && FMT == KV_FP8 && !SMALL && BN == 64;
    static constexpr int STAGE = TMAP ? BN * ROW_BYTES : BN * RAW_ROW; /* bytes a stage */
    static constexpr int OFF_Q = 0;
    static constexpr int OFF_STAGE = TMAP ? (OFF_Q + 16 * LDQ + 1023) / 1024 * 1024 : OFF_Q + 16 * LDQ;
    static constexpr int OFF_TILE = OFF_STAGE + (DIRECT ? 0 : NSTAGE * STAGE); /* mxfp4 only */
    static constexpr int OFF_S = OFF_TILE + (TILE ? BN * LDK : 0);
    static constexpr int OFF_P = OFF_S + QK_DS * 16 * LDS * 4; /* one S a dim slice */
    static constexpr int OFF_ROW = OFF_P + 16 * LDP;
    static constexpr int OFF_SC = OFF_ROW + 4 * 16 * 4;  /* mxfp4: E8M0 bytes of 2 tiles */
    static constexpr int OFF_QS = OFF_SC + (MX ? 2 * BN * MLA_NBLK : 0); /* MXS: Q's E8M0 scales [16][18] */
    static constexpr int OFF_LUT = OFF_QS + (MXS ? 16 * MLA_NBLK : 0); /* MX8: e4m3 magnitudes by E8M0 [256][8] */
    /* BULK (NVIDIA sm_90+, bf16 and a8w8 in 64-row tiles; -DMLAB_NO_BULK
     * builds without): each stage's rows land by bulk copies counted on the
     * stage's mbarrier (arch/nv_bulk.h) instead of 16-byte cp.async by every
     * thread. H200 (papers/perf-notes.md v12): the a8w8 family -0.5..-1.5%
     * geomean (long calls -1..-2%), bf16 -0.1..-0.3%, no call slower; v13:
     * mxfp4_e4m3's raw rows, one copy a tile, long calls -2..-2.8% (short
     * +0.5..2%), but mxfp4's exact path +1..2.5% everywhere: not there */
#if MLAB_HAVE_BULK && !defined(MLAB_NO_BULK)
    static constexpr bool BULK = (FMT == KV_BF16 || FMT == KV_FP8 || FMT == KV_MX8) && !SMALL;
#else
    static constexpr bool BULK = false;
#endif
    static constexpr int OFF_BAR = (OFF_LUT + (FMT == KV_MX8 ? 256 * 8 : 0) + 7) / 8 * 8; /* BULK: NSTAGE mbarriers */
    static constexpr int SMEM = BULK ? OFF_BAR + 8 * NSTAGE : OFF_LUT + (FMT == KV_MX8 ? 256 * 8 : 0);
    /* the loop waits for a BULK stage before it issues the next: one stage would wait for itself */
    static_assert(!BULK || NSTAGE > 1, "mla_cfg: bulk loads need two stages or more");
#if defined(MLAB_AMD)
    static_assert(!SMALL || SMEM <= 65536, "mla_cfg: the MI300X configuration is over 64 KB of LDS");
#endif
};

/* N consecutive floats from shared memory in one access (N = 2 or 4, aligned) */
template <int N> MLAB_DEV void lds_vec(float (&v)[N], const float *r)
{
    if (N == 1) {
        v[0] = *r;
    } else if (N == 4) {
        const float4 a = *(const float4 *)r;
        v[0] = a.x; v[1] = a.y; v[N > 2 ? 2 : 0] = a.z; v[N > 3 ? 3 : 0] = a.w;
    } else {
        const float2 a = *(const float2 *)r;
        v[0] = a.x; v[N > 1 ? 1 : 0] = a.y;
    }
}

MLAB_DEV float mla_exp(float x, bool fast) { return fast ? mlab_exp2_fast(x) : expf(x); }

/* The a8w8 Q scale exactly as the task computes it in bf16 arithmetic. */
MLAB_DEV float q_scale_from_amax(float amax, float fmax)
{
    float a = mlab_bf16_bits_to_f32(mlab_f32_to_bf16_bits(fmaxf(amax, 1e-12f)));
    return mlab_bf16_bits_to_f32(mlab_f32_to_bf16_bits(mlab_div_rn(a, fmax)));
}

template <int KVF>
MLAB_DEV void load_stage(const mla_params &p, uint8_t *dst, int first, int r0, int rend)
{
    typedef mla_cfg<KVF> C;
    const uint8_t *base = C::FMT == KV_BF16 ? (const uint8_t *)p.kv_bf16 : C::FMT == KV_FP8 ? p.kv_fp8 : p.kv_fp4;
    static_assert(C::FMT != KV_MX8 || C::ROW_BYTES == MLA_FP4_ROW, "MX8 stages raw E2M1 rows");
#ifdef MLAB_LDS_DMA
    /* gfx950: global_load_lds_dwordx4, straight into the padded rows
     * (arch/amd_lds.h; rows past rend zeroed there, never read) */
    mlab_lds_dma_rows<C::BN, C::RAW_ROW, C::ROW_BYTES, MLA_NT>(dst, base + (size_t)first * C::ROW_BYTES, r0, rend);
#else
    constexpr int CH = C::ROW_BYTES / 16;         /* 16-byte chunks a row */
    if (!C::MX) {
        /* bf16 and fp8 keep the rolled loop: the unrolled copy below measured
         * 1-4% slower for fp8 at 256 x 8192 (two blocks an SM at the register
         * limit) and up to 1.3% slower for bf16 on short calls, faster nowhere
         * (papers/perf-notes.md v9); the MXFP4 rows (18 chunks) gain 1-4% */
        for (int c = threadIdx.x; c < C::BN * CH; c += MLA_NT) {
            int r = c / CH, k = c % CH, row = r0 + r;
            int ok = row < rend;
            const uint8_t *src = base + ((size_t)(first + (ok ? row : 0)) * C::ROW_BYTES) + 16 * k;
            mlab_cp16(dst + r * C::RAW_ROW + 16 * k, src, ok);
        }
        return;
    }
    /* A tile's rows are contiguous in global memory: its 16-byte chunk c is
     * at +16 c there and at +16 c + pad * (c / CH) in shared memory (rows
     * padded to RAW_ROW). Thread t copies chunks t, t + NT, ...: a warp
     * reads 512 contiguous bytes, and the loop is unrolled with one base
     * pointer, so a tile costs a few instructions a chunk (the row index,
     * its mask, the two addresses) instead of a divided loop counter. */
    constexpr int N = C::BN * CH, PAD = C::RAW_ROW - C::ROW_BYTES;
    const uint8_t *tb = base + ((size_t)first + r0) * C::ROW_BYTES + 16 * threadIdx.x; /* r0 < rend: a row of the item */
    const int nok = rend - r0;                    /* rows of the tile in the sequence */
#pragma unroll
    for (int j = 0; j < (N + MLA_NT - 1) / MLA_NT; j++) {
        const int c = threadIdx.x + j * MLA_NT, r = c / CH;
        if (N % MLA_NT == 0 || c < N)
            mlab_cp16(dst + 16 * c + PAD * r, r < nok ? tb + 16 * j * MLA_NT : tb - 16 * threadIdx.x, r < nok);
    }
#endif
}

#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
/* BULK (mla_cfg::BULK): the same stage, one bulk copy a row (rows r0 ..
 * rend-1 of the tile; r0 < rend) counted on the stage's mbarrier bar
 * (arch/nv_bulk.h): lane l < 8 of warp w copies row w + 8 l (a bulk copy
 * takes warp-uniform operands, so the compiler issues the lanes' copies one
 * after another), or thread 0 the whole tile where the stage's rows are not
 * padded (MX8's raw rows), thread 0 arms
 * the barrier with the tile's bytes; rows of the tile past rend are zeroed
 * with plain stores by the warp that owns them (P.V multiplies them by
 * P = 0, and a stage's first use holds whatever shared memory held). Run by
 * every thread of the block. */
template <int KVF>
MLAB_DEV void load_stage_bulk(const mla_params &p, uint8_t *dst, uint64_t *bar, int first, int r0, int rend)
{
    typedef mla_cfg<KVF> C;
    static_assert(C::ROW_BYTES % 16 == 0 && C::RAW_ROW % 16 == 0, "load_stage_bulk: 16-byte rows");
    const uint8_t *base = C::FMT == KV_BF16 ? (const uint8_t *)p.kv_bf16 : C::FMT == KV_FP8 ? p.kv_fp8 : p.kv_fp4;
    const int lane = threadIdx.x % MLAB_WARP, warp = threadIdx.x / MLAB_WARP, nok = min(C::BN, rend - r0);
    if (C::RAW_ROW != C::ROW_BYTES) {
        /* padded rows: lane l < BN / 8 of warp w copies row w + 8 l, the 8 rows' addresses computed by
         * those lanes at once (the copies still issue one a lane: the compiler loops over the active
         * lanes). One lane a warp copying its 8 rows in turn ran ~170 single-lane instructions a warp
         * and tile, ~24% of the fp8 decode's issued instructions (ncu: 25.9 of 32 lanes active on
         * average); this way ~90. H200 (papers/perf-notes.md v13): a8w8 long calls -2..-3.8% */
        constexpr int PER = C::BN / MLA_NW;
        static_assert(PER <= MLAB_WARP, "load_stage_bulk: a tile's rows a warp fit its lanes");
        if (lane < PER) {
            mlab_bulk_fence(); /* the block's earlier reads (and zeroing) of this stage before the copies */
            if (warp == 0 && lane == 0) mlab_bulk_expect(bar, (uint32_t)(nok * C::ROW_BYTES));
            const int r = warp + MLA_NW * lane;
            if (r < nok)
                mlab_bulk_copy(dst + r * C::RAW_ROW, base + (size_t)(first + r0 + r) * C::ROW_BYTES, C::ROW_BYTES,
                               bar, p.kv_ef);
        }
    } else if (lane == 0) { /* unpadded stage (MX8's raw rows): the tile in one copy */
        mlab_bulk_fence();
        if (warp == 0) {
            mlab_bulk_expect(bar, (uint32_t)(nok * C::ROW_BYTES));
            mlab_bulk_copy(dst, base + (size_t)(first + r0) * C::ROW_BYTES, (uint32_t)(nok * C::ROW_BYTES), bar,
                           p.kv_ef);
        }
    }
    constexpr int CH = C::ROW_BYTES / 16;
    for (int r = nok + warp; r < C::BN; r += MLA_NW)
        for (int k = lane; k < CH; k += MLAB_WARP) *(uint4 *)(dst + r * C::RAW_ROW + 16 * k) = make_uint4(0u, 0u, 0u, 0u);
}
#endif

#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
/* TMAP (mla_cfg::TMAP): the same stage as 9 swizzled panels (arch/nv_tma.h):
 * a whole tile (rows r0 .. r0 + 63 all before rend) by thread 0's 9 tensor
 * copies of map (p.kv_tmap), every other thread arriving on bar (it counts
 * the block's threads); a row's last, partial tile (or every tile where map
 * is NULL: no map could be encoded) by
 * 16-byte cp.async of every thread into the same layout, zero-filled past
 * rend (never read there), each thread's copies arriving on bar when landed.
 * Run by every thread of the block. */
template <int KVF>
MLAB_DEV void load_stage_tmap(const mla_params &p, const void *map, uint8_t *dst, uint64_t *bar, int first, int r0, int rend)
{
    typedef mla_cfg<KVF> C;
    static_assert(!C::TMAP || (C::ROW_BYTES == 9 * 64 && C::BN == 64), "load_stage_tmap: 64 fp8 rows of 576 bytes");
    if (map && rend - r0 >= C::BN) {
        static_assert(!C::TMAP || C::STAGE == 9 * MLAB_SW64_PANEL, "load_stage_tmap: a stage is 9 panels");
        if (threadIdx.x == 0)
            mlab_tma_tile_sw64(dst, map, first + r0, bar, 0, p.kv_ef); /* after the block's reads of this stage */
        else
            mlab_bar_arrive(bar);
        return;
    }
    constexpr int CH = C::ROW_BYTES / 16; /* 36 chunks a row, 9 a thread */
    const int nok = rend - r0;
    for (int c = threadIdx.x; c < C::BN * CH; c += MLA_NT) {
        const int r = c / CH, q = c % CH, ok = r < nok;
        mlab_cp16(dst + mlab_sw64(r, q), p.kv_fp8 + (size_t)(first + (ok ? r0 + r : r0)) * C::ROW_BYTES + 16 * q, ok);
    }
    mlab_cp_arrive(bar);
}
#endif

/* Four E2M1 values (the low 16 bits of w, low nibble first) -> four bf16
 * (two words), unscaled, exact. Magnitudes index 8-entry byte tables with
 * byte permutes: high bytes {00,3F,3F,3F,40,40,40,40}, low bytes
 * {00,00,80,C0,00,40,80,C0} for {0,.5,1,1.5,2,3,4,6}; signs from bit 3. */
MLAB_DEV void e2m1x4_to_bf16(uint32_t w, uint32_t &w01, uint32_t &w23)
{
    uint32_t sel = w & 0x7777u;
    uint32_t hi = mlab_prmt(0x3F3F3F00u, 0x40404040u, sel);
    uint32_t lo = mlab_prmt(0xC0800000u, 0xC0804000u, sel);
    uint32_t t = w & 0x8888u;
    w01 = mlab_prmt(lo, hi, 0x5140) | (((t << 12) | (t << 24)) & 0x80008000u);
    w23 = mlab_prmt(lo, hi, 0x7362) | (((t << 4) | (t << 16)) & 0x80008000u);
}

/* 32 values of one (row, block): 16 packed bytes and the E8M0 byte -> 16 words
 * of bf16 pairs, exact. Scales 2..252 keep every product a normal bf16, so one
 * bf16x2 multiply by 2^(e-127) is exact; the rest (and NaN, e = 255) take the
 * fp32 path. */
MLAB_DEV void dequant_block(uint4 pk, uint32_t e, uint32_t o[16])
{
    uint32_t w[4] = {pk.x, pk.y, pk.z, pk.w};
#ifdef MLAB_NV
    if (e >= 2 && e <= 252) {
        __nv_bfloat162 sc = __halves2bfloat162(__ushort_as_bfloat16((unsigned short)(e << 7)),
                                               __ushort_as_bfloat16((unsigned short)(e << 7)));
#pragma unroll
        for (int i = 0; i < 8; i++) {
            uint32_t a, b;
            e2m1x4_to_bf16(w[i >> 1] >> (16 * (i & 1)), a, b);
            __nv_bfloat162 x = __hmul2(*(__nv_bfloat162 *)&a, sc), y = __hmul2(*(__nv_bfloat162 *)&b, sc);
            o[2 * i] = *(uint32_t *)&x;
            o[2 * i + 1] = *(uint32_t *)&y;
        }
        return;
    }
#endif
    float sc = e == 255 ? __uint_as_float(0x7fc00000u) : e ? __uint_as_float(e << 23) : __uint_as_float(0x00400000u);
#pragma unroll
    for (int i = 0; i < 8; i++) {
        uint32_t a, b;
        e2m1x4_to_bf16(w[i >> 1] >> (16 * (i & 1)), a, b);
        uint32_t v[2] = {a, b};
#pragma unroll
        for (int k = 0; k < 2; k++) {
            float lo = mlab_bf16_bits_to_f32((uint16_t)v[k]) * sc;
            float hi = mlab_bf16_bits_to_f32((uint16_t)(v[k] >> 16)) * sc;
            o[2 * i + k] = (uint32_t)mlab_f32_to_bf16_bits(lo) | ((uint32_t)mlab_f32_to_bf16_bits(hi) << 16);
        }
    }
}

/* MXFP4 staged rows -> bf16 compute tile (exact). Rows past the end -> 0.
 * sc: the tile's E8M0 bytes, [64 rows][18], prefetched into shared memory.
 * Item c = (row, block) as mlab_dq_item (smem_lanes.h) hands them out: a
 * thread keeps one row and steps through blocks, and its quarter warp's raw
 * loads and 64-byte stores are conflict-free (by consecutive blocks of a
 * row, before v23: 4-way conflicted stores; H200: mxfp4 -6..-15%) */
MLAB_DEV void dequant_tile(const uint8_t *sc, const uint8_t *raw, uint8_t *tile, int r0, int rend)
{
    typedef mla_cfg<KV_MXFP4> C;
    static_assert(C::BN == 64 && MLA_NBLK % 2 == 0 && C::LDK / 16 % 8 == 1,
                  "mlab_dq_item: 64 rows, blocks in pairs; 8 consecutive tile rows in 8 bank slots");
    for (int c = threadIdx.x; c < C::BN * MLA_NBLK; c += MLA_NT) {
        int r, b;
        mlab_dq_item(c, &r, &b);
        const int row = r0 + r;
        uint4 *d = (uint4 *)(tile + r * C::LDK + 64 * b);
        if (row >= rend) {
#pragma unroll
            for (int i = 0; i < 4; i++) d[i] = make_uint4(0, 0, 0, 0);
            continue;
        }
        uint32_t o[16];
        dequant_block(*(const uint4 *)(raw + r * MLA_FP4_ROW + 16 * b), sc[r * MLA_NBLK + b], o);
#pragma unroll
        for (int i = 0; i < 4; i++)
            d[i] = make_uint4(o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
    }
}

#ifdef MLAB_ONE_LAUNCH /* the one-launch experiment (perf-notes v7): off by default */
/* max |x| over n8 groups of 8 bf16 values, groups first, first + step, ...:
 * all of a thread's loads issued before any is used (UNR at a time). */
MLAB_DEV float q_amax_range(const uint16_t *q, size_t n8, size_t first, size_t step)
{
    constexpr int UNR = 8;
    float a = 0.f;
    for (size_t c = first; c < n8; c += UNR * step) {
        uint4 v[UNR];
#pragma unroll
        for (int u = 0; u < UNR; u++)
            v[u] = c + u * step < n8 ? ((const uint4 *)q)[c + u * step] : make_uint4(0, 0, 0, 0);
#pragma unroll
        for (int u = 0; u < UNR; u++) {
            uint32_t w[4] = {v[u].x, v[u].y, v[u].z, v[u].w};
#pragma unroll
            for (int i = 0; i < 4; i++) {
                a = fmaxf(a, fabsf(mlab_bf16_bits_to_f32((uint16_t)w[i])));
                a = fmaxf(a, fabsf(mlab_bf16_bits_to_f32((uint16_t)(w[i] >> 16))));
            }
        }
    }
    return a;
}
#endif

/* MXFP4 staged rows -> e4m3 compute tile (the fp8 core's operand), the block
 * scale folded into each code: E2M1 magnitude m times 2^(e - 127) is an e4m3
 * value exactly while e - 127 is in [-8, 6] (normal or subnormal e4m3); the
 * runner sends calls with any scale outside to the exact bf16 path
 * (mla_params.mx_e4m3_ok). Per (row, block of 32): the 8 codes of the block's
 * magnitudes from a table by its E8M0 byte, then 4 nibbles -> 4 codes by one
 * byte permute of them and one of the sign bits. Rows past the end -> 0.
 *
 * The e4m3 codes of the 8 E2M1 magnitudes {0, .5, 1, 1.5, 2, 3, 4, 6} times
 * the E8M0 scale 2^(e - 127) (e = 0: 2^-127 as the spec's "scale 0"), as the
 * two words a byte permute indexes: lo = codes of {0, .5, 1, 1.5}, hi = codes
 * of {2, 3, 4, 6} (saturating RNE; exact where the call's scales allow the
 * fast path, mx_e4m3_ok). */
MLAB_DEV uint2 e4m3_magnitudes(uint32_t e)
{
    const float s = e ? __uint_as_float(e << 23) : __uint_as_float(0x00400000u);
    return make_uint2((uint32_t)mlab_f32_to_fp8(0.5f * s) << 8 | (uint32_t)mlab_f32_to_fp8(s) << 16 |
                          (uint32_t)mlab_f32_to_fp8(1.5f * s) << 24,
                      (uint32_t)mlab_f32_to_fp8(2.f * s) | (uint32_t)mlab_f32_to_fp8(3.f * s) << 8 |
                          (uint32_t)mlab_f32_to_fp8(4.f * s) << 16 | (uint32_t)mlab_f32_to_fp8(6.f * s) << 24);
}

/* One (row, block of 32) of E2M1 values at src (16 bytes, low nibble first) ->
 * 32 e4m3 codes at d0, d1, the block's magnitude codes t (e4m3_magnitudes of
 * its E8M0 byte) picked by one byte permute a word and the signs merged by
 * another. Shared by e4m3_tile and mxfp4_wgmma's producer (mla_wgmma.h,
 * which passes words it already holds in registers). */
MLAB_DEV void e4m3_block(const uint2 t, const uint8_t *src, uint4 *d0, uint4 *d1)
{
    const uint32_t lo = t.x, hi = t.y;
    const uint4 pk = *(const uint4 *)src;
    const uint32_t w[4] = {pk.x, pk.y, pk.z, pk.w};
    uint32_t o[8];
#pragma unroll
    for (int k = 0; k < 4; k++) { /* 8 nibbles (low first) -> 8 codes */
        /* magnitudes: the permute reads the low 4 selector nibbles */
        const uint32_t sel = w[k] & 0x77777777u;
        /* signs: nibble j's bit 3 to bit 7 of byte j; after the shift
         * byte i of ev holds nibble 2i's sign at bit 7, byte i of w
         * nibble 2i+1's (their other bits are masked off below) */
        const uint32_t ev = w[k] << 4;
        o[2 * k] = mlab_prmt(lo, hi, sel) | (mlab_prmt(ev, w[k], 0x5140u) & 0x80808080u);
        o[2 * k + 1] = mlab_prmt(lo, hi, sel >> 16) | (mlab_prmt(ev, w[k], 0x7362u) & 0x80808080u);
    }
    *d0 = make_uint4(o[0], o[1], o[2], o[3]);
    *d1 = make_uint4(o[4], o[5], o[6], o[7]);
}

/* One staged MXFP4 tile -> e4m3 codes with each block's scale folded in.
 * lut: e4m3_magnitudes of every E8M0 byte, built once a block (256 x 8
 * bytes of shared memory), so a (row, block) costs one table read, not 7
 * conversions. */
MLAB_DEV void e4m3_tile(const uint8_t *sc, const uint8_t *raw, uint8_t *tile, int r0, int rend, const uint2 *lut)
{
    typedef mla_cfg<KV_MX8> C;
    /* item c = (row, block) as mlab_e4_item hands them out (smem_lanes.h):
     * conflict-free stores, 2-way raw loads (v23: -3..-4% on long calls) */
    static_assert(C::BN == 64 && C::LDK / 16 % 2 == 1, "mlab_e4_item: 64 rows; 8 consecutive tile rows in 8 bank slots");
    for (int c = threadIdx.x; c < C::BN * MLA_NBLK; c += MLA_NT) {
        int r, b;
        mlab_e4_item(c, &r, &b);
        uint4 *d = (uint4 *)(tile + r * C::LDK + 32 * b);
        if (r0 + r >= rend) {
            d[0] = d[1] = make_uint4(0, 0, 0, 0);
            continue;
        }
        e4m3_block(lut[sc[r * MLA_NBLK + b]], raw + r * MLA_FP4_ROW + 16 * b, d, d + 1);
    }
}

#ifdef MLAB_ONE_LAUNCH
/* ---- the one-launch merge (-DMLAB_ONE_LAUNCH) -------------------------------
 * out[tok, h, :] = sum_s 2^(lse_s - max) O_s / sum_s 2^(lse_s - max) (zeros if
 * no split saw a row), by the row's last decode block:
 *   merge_weights: one warp turns a (tok, head)'s split log-sum-exps into
 *                  weights w[0 .. splits-1] and their sum w[MLA_MAX_SPLITS]
 *   merge_row:     the whole row, loads of 4 groups x 4 splits in flight
 * Partials are read with cache-global loads (L2, never a stale L1 line). The
 * negative control fault 2 leaves the last split out. */
/* a merged 4-column group: its weighted sums over the weights' total den,
 * as 4 bf16 outputs (zeros where no split saw a row) */
template <bool FAST> MLAB_DEV uint2 merged_bf16x4(const float (&r)[4], float den)
{
    uint32_t b[2] = {0, 0};
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const float x = den > 0.f ? (FAST ? r[k] * mlab_rcp_fast(den) : mlab_div_rn(r[k], den)) : 0.f;
        b[k >> 1] |= (uint32_t)mlab_f32_to_bf16_bits(x) << (16 * (k & 1));
    }
    return make_uint2(b[0], b[1]);
}
template <bool FAST>
MLAB_DEV void merge_weights(const mla_params &p, int tok, int h, float *w, int lane)
{
    const int S = p.splits - (p.fault == 2 ? 1 : 0);
    const float *lse = p.part_lse + (size_t)tok * p.splits * MLA_H + h;
    const float *mul = p.part_mul + (size_t)tok * p.splits * MLA_H + h;
    float mx = -INFINITY;
    for (int s = lane; s < S; s += MLAB_WARP) mx = fmaxf(mx, mlab_ldcg(lse + (size_t)s * MLA_H));
    for (int m = MLAB_WARP / 2; m; m >>= 1) mx = fmaxf(mx, mlab_shfl_xor(mx, m));
    float den = 0.f;
    for (int s = lane; s < S; s += MLAB_WARP) {
        const float l = mlab_ldcg(lse + (size_t)s * MLA_H);
        const float ws = mx == -INFINITY || l == -INFINITY ? 0.f : FAST ? mlab_exp2_fast(l - mx) : exp2f(l - mx);
        w[s] = ws != 0.f ? ws * mlab_ldcg(mul + (size_t)s * MLA_H) : 0.f; /* the partial's own scale */
        den += ws;
    }
    for (int m = MLAB_WARP / 2; m; m >>= 1) den += mlab_shfl_xor(den, m);
    if (lane == 0) w[MLA_MAX_SPLITS] = den;
}
#endif

#ifdef MLAB_ONE_LAUNCH
/* The whole row, by one block of MLA_NT threads (the inline merge). sw:
 * shared scratch of MLA_H x (MLA_MAX_SPLITS + 1) floats. A thread owns G
 * groups of 4 columns; it issues the loads of GH groups x 4 splits at once
 * (no store in between), so a row of S splits costs (G / GH) x ceil(S / 4)
 * L2 round trips, not G x S (the first version, one group at a time, was
 * 5-10 us slower than mla_combine on the H200). */
template <bool FAST>
MLAB_DEV void merge_row(const mla_params &p, int tok, float *sw)
{
    const int tid = threadIdx.x, lane = tid % MLAB_WARP, warp = tid / MLAB_WARP;
    for (int h = warp; h < MLA_H; h += MLA_NW)
        merge_weights<FAST>(p, tok, h, sw + h * (MLA_MAX_SPLITS + 1), lane);
    __syncthreads();
    constexpr int NG = MLA_DV / 4, G = MLA_H * NG / MLA_NT, GH = G < 4 ? G : 4, SB = 4;
    const int S = p.splits - (p.fault == 2 ? 1 : 0);
    const size_t stride = (size_t)MLA_H * NG; /* groups from one split to the next */
    const size_t row0 = (size_t)tok * p.splits * MLA_H * NG;
#pragma unroll 1
    for (int g0 = 0; g0 < G; g0 += GH) {
        float r[GH][4];
#pragma unroll
        for (int j = 0; j < GH; j++)
#pragma unroll
            for (int k = 0; k < 4; k++) r[j][k] = 0.f;
#pragma unroll 1
        for (int s0 = 0; s0 < S; s0 += SB) {
            float v[GH][SB][4];
#pragma unroll
            for (int j = 0; j < GH; j++)
#pragma unroll
                for (int k = 0; k < SB; k++) {
                    const size_t at = row0 + (size_t)(s0 + k) * stride + tid + (size_t)(g0 + j) * MLA_NT;
                    if (s0 + k >= S) {
                        v[j][k][0] = v[j][k][1] = v[j][k][2] = v[j][k][3] = 0.f;
                    } else {
                        const uint2 b = mlab_ldcg((const uint2 *)p.part_o + at);
                        v[j][k][0] = mlab_f16_bits_to_f32((uint16_t)b.x);
                        v[j][k][1] = mlab_f16_bits_to_f32((uint16_t)(b.x >> 16));
                        v[j][k][2] = mlab_f16_bits_to_f32((uint16_t)b.y);
                        v[j][k][3] = mlab_f16_bits_to_f32((uint16_t)(b.y >> 16));
                    }
                }
#pragma unroll
            for (int j = 0; j < GH; j++) {
                const float *w = sw + ((tid + (g0 + j) * MLA_NT) / NG) * (MLA_MAX_SPLITS + 1);
#pragma unroll
                for (int k = 0; k < SB; k++) {
                    const float ws = s0 + k < S ? w[s0 + k] : 0.f;
#pragma unroll
                    for (int e = 0; e < 4; e++) r[j][e] += ws != 0.f ? ws * v[j][k][e] : 0.f;
                }
            }
        }
#pragma unroll
        for (int j = 0; j < GH; j++) {
            const int gi = tid + (g0 + j) * MLA_NT, h = gi / NG, c4 = gi % NG;
            *(uint2 *)(p.out + ((size_t)tok * MLA_H + h) * MLA_DV + 4 * c4) =
                merged_bf16x4<FAST>(r[j], sw[h * (MLA_MAX_SPLITS + 1) + MLA_MAX_SPLITS]);
        }
    }
}
#endif

#ifdef MLAB_ONE_LAUNCH
/* The barrier merge (MLAB_MERGE=barrier, p.merge_inline == 2): the row's S
 * split blocks, all resident at once (the launch is cooperative: the driver
 * refuses a grid that does not fit), meet at a barrier in global memory once
 * each has stored its partial, then block `split` merges heads split,
 * split + S, ... (1 head a block at 16 splits, 8 at 2), so the merge is
 * spread over the row's SMs, not one block's work (merge_row) nor a second
 * launch (mla_combine).
 * Memory order (the pattern of CUDA's cooperative-groups grid barrier): the
 * block barrier orders every thread's partial stores before thread 0's
 * device-scope fence, which is cumulative over them (release), then thread
 * 0 adds one arrival to the row's word and polls it with acquire loads until
 * all S arrivals are there: each peer's stores were released before its
 * arrival, so they come before what our acquire read, hence before the
 * block barrier that follows and every thread's loads after it
 * (cache-global: L2, never a stale L1 line).
 * Reset: the word's high half counts departures (a block departs once its
 * poll has seen all S arrivals); the last to depart zeroes the word, which
 * no block of the row reads again, and the next call is stream-ordered
 * after this kernel. */
template <bool FAST>
MLAB_DEV void merge_barrier(const mla_params &p, int tok, int split, float *sw)
{
    const int tid = threadIdx.x, lane = tid % MLAB_WARP, warp = tid / MLAB_WARP, S = p.splits;
    /* trace (-DMLAB_TRACE): arrived, past the barrier, merged ("TC ... 3") */
    MLAB_TR(unsigned long long *tc = p.trace ? p.trace + MLAB_TR_COMBINE + 4 * blockIdx.x : nullptr;)
    __syncthreads();
    if (tid == 0) {
        MLAB_TR(if (tc) tc[0] = mlab_gtime();)
        unsigned *c = (unsigned *)p.row_count + tok;
        __threadfence();
        atomicAdd(c, 1u);
        while ((mlab_ld_acquire(c) & 0xffffu) < (unsigned)S) mlab_backoff();
        if ((atomicAdd(c, 0x10000u) >> 16) == (unsigned)S - 1) atomicExch(c, 0u);
        MLAB_TR(if (tc) tc[1] = mlab_gtime();)
    }
    __syncthreads();
    /* S is 2, 4, 8 or 16 (the runner's condition): the block's 16 / S heads x
     * 128 4-column groups x S splits are 2048 loads, 8 a thread: a thread
     * takes 8 / S items of all S splits, or at 16 splits half of one item's
     * (lanes l and l ^ 16 the two halves, summed by a shuffle) */
    constexpr int NG = MLA_DV / 4, SLOTS = 8; /* 4-column groups a head; a thread's loads */
    static_assert(MLA_H * NG <= SLOTS * MLA_NT, "merge_barrier: at most 8 loads a thread");
    const int nh = MLA_H / S, SP = S < SLOTS ? S : SLOTS, half = S > SLOTS ? (lane >> 4) & 1 : 0;
    const int items = nh * NG, it0 = S <= SLOTS ? tid : lane < 32 ? warp * 16 + (lane & 15) : items;
    const int SE = S - (p.fault == 2 ? 1 : 0); /* the negative control leaves the last split out */
    const size_t stride = (size_t)MLA_H * NG;  /* groups from one split to the next */
    const size_t row0 = (size_t)tok * S * MLA_H * NG;
    /* every slot's load first (item it0 + j x MLA_NT, split s), then the
     * weights (a warp a head), so the two L2 round trips overlap */
    uint2 v[SLOTS];
    {
        int j = 0, s = half * SLOTS;
#pragma unroll
        for (int k = 0; k < SLOTS; k++) {
            const int it = it0 + j * MLA_NT, h = split + (it / NG) * S;
            v[k] = it < items && s < SE
                       ? mlab_ldcg((const uint2 *)p.part_o + row0 + (size_t)s * stride + (size_t)h * NG + it % NG)
                       : make_uint2(0u, 0u);
            if (++s == half * SLOTS + SP) { s = half * SLOTS; j++; }
        }
    }
    if (warp < nh) merge_weights<FAST>(p, tok, split + warp * S, sw + warp * (MLA_MAX_SPLITS + 1), lane);
    __syncthreads();
    float r[4] = {0.f, 0.f, 0.f, 0.f};
    int j = 0, s = half * SLOTS;
#pragma unroll
    for (int k = 0; k < SLOTS; k++) {
        const int it = it0 + j * MLA_NT, hl = it / NG;
        const float *w = sw + hl * (MLA_MAX_SPLITS + 1);
        const float ws = it < items && s < SE ? w[s] : 0.f;
        if (ws != 0.f) {
            r[0] += ws * mlab_f16_bits_to_f32((uint16_t)v[k].x);
            r[1] += ws * mlab_f16_bits_to_f32((uint16_t)(v[k].x >> 16));
            r[2] += ws * mlab_f16_bits_to_f32((uint16_t)v[k].y);
            r[3] += ws * mlab_f16_bits_to_f32((uint16_t)(v[k].y >> 16));
        }
        if (s == half * SLOTS + SP - 1) { /* the item's last split here: out, normalized */
            if (S > SLOTS)
#pragma unroll
                for (int e = 0; e < 4; e++) r[e] += mlab_shfl_xor(r[e], 16);
            if (it < items && half == 0)
                *(uint2 *)(p.out + ((size_t)tok * MLA_H + split + hl * S) * MLA_DV + 4 * (it % NG)) =
                    merged_bf16x4<FAST>(r, w[MLA_MAX_SPLITS]);
#pragma unroll
            for (int e = 0; e < 4; e++) r[e] = 0.f;
            s = half * SLOTS;
            j++;
        } else {
            s++;
        }
    }
    MLAB_TR(if (tid == 0 && tc) { tc[2] = mlab_gtime(); tc[3] = 3; })
}
#endif

/* Split partials: a split block stores its normalized O / l of each head as
 * f16 (half the bytes of fp32) divided by a multiplier part_mul of that
 * (row, split, head), which the merge multiplies back into the split's weight:
 *   - fp8 KV: O / l in units of kv_scale is a convex combination of e4m3
 *     codes (|x| <= 448, well inside f16), multiplier kv_scale. H200: fp8
 *     4x8192 (64 splits) 38.4 -> 31.6 us, 32x8192 -2 us (perf-notes v6).
 *   - bf16 and MXFP4 KV (no bounded code range): the multiplier is 2^k with
 *     k from the head's largest |O / l| over the block (lanes, then warps),
 *     so that value lands in [2^14, 2^15) and every value above 2^-14 of
 *     the head's largest keeps f16's 11 significant bits (relative error
 *     <= 2^-12, against the bf16 output's 2^-9). k is clamped to [-100,
 *     100]: a head whose |O / l| is below 2^-86 keeps fewer bits, one above
 *     2^115 (bf16 data beyond ~4e34) overflows to inf, which validation
 *     reports. */
MLAB_DEV int part_exp(unsigned maxbits)
{
    const int e = (int)((maxbits >> 23) & 255u) - 127 - 14; /* floor(log2 max) - 14 */
    return maxbits == 0u ? 0 : e < -100 ? -100 : e > 100 ? 100 : e;
}
MLAB_DEV float pow2f_exact(int k) { return __uint_as_float((unsigned)(127 + k) << 23); } /* |k| <= 126 */
/* The output column of accumulator element e0 of warp warp's q-th 16-column
 * group (the P.V layouts of mla_mma.h / amd_mfma.h): the epilogue's and the
 * cluster merge's stores */
template <bool F8T> MLAB_DEV int acc_out_col(int warp, int q, int e0)
{
    return MLA_DV / MLA_NW * warp + 16 * q + (F8T ? pv_fp8_col(e0) : pv_bf16_col(e0));
}
/* head h's largest |O / l| from the warps' maxima wmax[head][warp] */
MLAB_DEV float head_max(const float *wmax, int h)
{
    float x = 0.f;
#pragma unroll
    for (int w = 0; w < MLA_NW; w++) x = fmaxf(x, wmax[h * MLA_NW + w]);
    return x;
}
/* The a8w8 Q of query row tok, quantized per tensor as the task does it
 * (papers/spec.md), in two steps. q_fp8_load issues this thread's Q loads
 * (the caller does it first, before its KV prologue: they are in flight
 * while it issues that, and while it waits for the amax). q_fp8_row takes the
 * amax from the pass's per-block maxima, every thread loading its share at
 * once (one L2 latency), or, in one-launch builds with a small Q
 * (amax_blocks == 0), from all of Q read by this block (at most
 * MLA_QSMALL_ROWS rows); then each value x / qs rounded to bf16, then to
 * e4m3 (q_fp8_codes8: every block of the row quantizes the whole row, so the
 * per-value cost is paid before the first tile, splits times over).
 * store(h, k, codes) receives the 8 codes of dims 8k .. 8k+7 of head h.
 * Run by threads 0 .. NT-1; sync() is their barrier (the block's, or a named
 * one). red: NT / MLAB_WARP floats of shared memory. Returns qs. */
/* Eight bf16 values of Q (a uint4) -> their eight a8w8 codes: x / qs
 * correctly rounded (mlab_div_rcp's correction step, rqs = RN(1 / qs); a zero
 * quotient may come out +0 for -0: zero either way), clamped to +-fmax before
 * the bf16 rounding (the same as after it: fmax is a bf16 value and rounding
 * is monotone; NaN gives -fmax, as before), then bf16, then e4m3, four at a
 * time (mlab_f32x4_to_fp8x4_bf16). tests/gpu_q_quant.cu checks it against
 * reference/numerics.c on every bf16 value within the amax (|x| <= amax, the
 * decode's domain; beyond it x / qs can overflow and the correction gives
 * NaN). */
MLAB_DEV uint2 q_fp8_codes8(uint4 v, float qs, float rqs, float fmax)
{
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
    float y[8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const float x = mlab_bf16_bits_to_f32((uint16_t)(w[i >> 1] >> (16 * (i & 1))));
        const float q0 = x * rqs;
        y[i] = fminf(fmaxf(fmaf(fmaf(-q0, qs, x), rqs, q0), -fmax), fmax);
    }
    return make_uint2(mlab_f32x4_to_fp8x4_bf16(y[0], y[1], y[2], y[3]),
                      mlab_f32x4_to_fp8x4_bf16(y[4], y[5], y[6], y[7]));
}
template <int NT> struct q_fp8_regs {
    static constexpr int QCH = MLA_H * MLA_D / 8, QN = (QCH + NT - 1) / NT;
    uint4 v[QN];
};
/* t: this thread among the NT that share the row (default: the block's first NT) */
template <int NT> MLAB_DEV void q_fp8_load(const mla_params &p, int tok, q_fp8_regs<NT> &q, unsigned t = threadIdx.x)
{
    const uint16_t *qg = p.q + (size_t)tok * MLA_H * MLA_D;
#pragma unroll
    for (int j = 0; j < q_fp8_regs<NT>::QN; j++) {
        const int c = t + j * NT;
        if (c < q_fp8_regs<NT>::QCH) q.v[j] = *(const uint4 *)(qg + 8 * c);
    }
}
/* the codes of this thread's chunks with the call's scale qs, each to
 * store(head, chunk of 8, codes): q_fp8_row's last step, and a persistent
 * decode's later rows (mla_wgmma.h wg_q_next), whose scale is known */
template <int NT, typename Store>
MLAB_DEV void q_fp8_store(const mla_params &p, const q_fp8_regs<NT> &q, float qs, Store store, int t)
{
    const float rqs = mlab_rcp_rn(qs), fmax = p.fp8_max;
#pragma unroll
    for (int j = 0; j < q_fp8_regs<NT>::QN; j++) {
        const int c = t + j * NT;
        if (c >= q_fp8_regs<NT>::QCH) break;
        store(c / (MLA_D / 8), c % (MLA_D / 8), q_fp8_codes8(q.v[j], qs, rqs, fmax));
    }
}
template <int NT, typename Store, typename Sync>
MLAB_DEV float q_fp8_row(const mla_params &p, const q_fp8_regs<NT> &q, float *red, Store store, Sync sync)
{
    const int tid = threadIdx.x, warp = tid / MLAB_WARP;
    float a = 0.f;
#ifdef MLAB_ONE_LAUNCH
    if (p.amax_blocks == 0) {
        a = q_amax_range(p.q, (size_t)p.total_q * MLA_H * MLA_D / 8, tid, NT);
    } else
#endif
    {
        mlab_grid_dep_wait(); /* the amax pass has finished (launched as its dependent) */
        MLAB_TR(if (tid == 0 && p.trace) p.trace[MLAB_TR_QPATH + 2 * blockIdx.x] = mlab_gtime();)
        for (int i = tid; i < p.amax_blocks; i += NT)
            a = fmaxf(a, p.q_amax_part[i]);
    }
    for (int m = MLAB_WARP / 2; m; m >>= 1)
        a = fmaxf(a, mlab_shfl_xor(a, m));
    if (tid % MLAB_WARP == 0) red[warp] = a;
    sync();
    MLAB_TR(if (tid == 0 && p.trace) p.trace[MLAB_TR_QPATH + 2 * blockIdx.x + 1] = mlab_gtime();)
    float amax = 0.f;
#pragma unroll
    for (int w = 0; w < NT / MLAB_WARP; w++) amax = fmaxf(amax, red[w]);
    const float qs = q_scale_from_amax(amax, p.fp8_max);
    q_fp8_store<NT>(p, q, qs, store, tid);
    return qs;
}

/* The _qrow variants' Q (fp8_wgmma_qrow, mxfp4_wgmma_qrow): the task's rule
 * (q_scale_from_amax) applied to each (row, head) of 576 values instead of
 * the whole tensor, so the block needs no amax pass, no grid dependency and
 * no load of the pass's maxima: its own row's Q is all it reads. Each warp of
 * the NT threads owns whole heads (q_heads_geo: warp w heads w HPW ..
 * w HPW + HPW - 1, its lane l their chunks l + WARP j, a warp's loads
 * contiguous), so a head's amax is one warp's reduction and its scale that
 * warp's: no shared-memory atomics, no barrier between the amax and the
 * codes (v31; until then a block-strided layout, each head's amax by
 * shared-memory atomics and a barrier, each chunk's scale divided out again).
 * The CPU reference's q_fp8 = 2 (reference/mla_ref.c) quantizes the same way. */
template <int NT> struct q_heads_geo {
    static constexpr int NW = NT / MLAB_WARP, HPW = MLA_H / NW, HC = MLA_D / 8, CPW = HPW * HC; /* chunks a warp */
    static_assert(NT % MLAB_WARP == 0 && MLA_H % NW == 0, "whole heads a warp");
    static_assert(q_fp8_regs<NT>::QN * MLAB_WARP >= CPW, "a lane's chunks fit its registers");
    static_assert(MLAB_WARP <= HC, "a warp's step of chunks spans at most two heads");
    /* step j of a warp (its chunks WARP j .. WARP j + WARP - 1): its first
     * head and its last (the same where it holds one), constants once
     * unrolled; a lane's chunk k is the last head's if k >= hi_head(j) HC */
    static constexpr __host__ __device__ int lo(int j) { return MLAB_WARP * j / HC; }
    static constexpr __host__ __device__ int hi_head(int j)
    {
        return (MLAB_WARP * j + MLAB_WARP - 1) / HC < HPW ? (MLAB_WARP * j + MLAB_WARP - 1) / HC : HPW - 1;
    }
};
/* this thread's (t among NT) Q chunks of row tok in that layout (q_fp8_load's, per warp) */
template <int NT> MLAB_DEV void q_fp8_load_heads(const mla_params &p, int tok, q_fp8_regs<NT> &q, unsigned t)
{
    typedef q_heads_geo<NT> G;
    const uint16_t *qg = p.q + ((size_t)tok * MLA_H + (t / MLAB_WARP) * G::HPW) * MLA_D;
    const unsigned lane = t % MLAB_WARP;
#pragma unroll
    for (int j = 0; j < q_fp8_regs<NT>::QN; j++) {
        const unsigned k = lane + MLAB_WARP * j;
        if (k < G::CPW) q.v[j] = *(const uint4 *)(qg + 8 * k);
    }
}
/* the row's codes, each head by its scale, to store(head, chunk of 8, codes);
 * lane hh of each warp leaves its head hh's scale in qsh[16] (visible to
 * others after the caller's next barrier). q: q_fp8_load_heads's */
template <int NT, typename Store>
MLAB_DEV void q_fp8_heads(const mla_params &p, const q_fp8_regs<NT> &q, float *qsh, Store store, unsigned t)
{
    typedef q_heads_geo<NT> G;
    constexpr int HPW = G::HPW, HC = G::HC;
    const unsigned w = t / MLAB_WARP, lane = t % MLAB_WARP;
    float am[HPW];
#pragma unroll
    for (int hh = 0; hh < HPW; hh++) am[hh] = 0.f;
#pragma unroll
    for (int j = 0; j < q_fp8_regs<NT>::QN; j++) {
        const unsigned k = lane + MLAB_WARP * j;
        if (k < G::CPW) {
            const uint32_t v[4] = {q.v[j].x, q.v[j].y, q.v[j].z, q.v[j].w};
            float a = 0.f;
#pragma unroll
            for (int i = 0; i < 8; i++)
                a = fmaxf(a, fabsf(mlab_bf16_bits_to_f32((uint16_t)(v[i >> 1] >> (16 * (i & 1))))));
            /* the step's heads known once unrolled (a head index from k would put am in local memory) */
            const int h0 = G::lo(j), h1 = G::hi_head(j);
            const bool second = k >= (unsigned)(h1 * HC);
            am[h0] = fmaxf(am[h0], second ? 0.f : a);
            am[h1] = fmaxf(am[h1], second ? a : 0.f);
        }
    }
    /* -DMLAB_TRACE: the block's first row (thread 0; a persistent block's
     * next rows are consumer 1's): its Q loads back and their amax taken,
     * then its warp's heads' amax known (the TQ line's two values: no grid wait) */
    MLAB_TR(if (threadIdx.x == 0 && p.trace) p.trace[MLAB_TR_QPATH + 2 * blockIdx.x] = mlab_gtime_after(__float_as_int(am[0]) ^ __float_as_int(am[HPW - 1]));)
    const float fmax = p.fp8_max;
    float qs[HPW], rqs[HPW];
#pragma unroll
    for (int hh = 0; hh < HPW; hh++) {
        for (int m = MLAB_WARP / 2; m; m >>= 1) am[hh] = fmaxf(am[hh], mlab_shfl_xor(am[hh], m));
        qs[hh] = q_scale_from_amax(am[hh], fmax);
        rqs[hh] = mlab_rcp_rn(qs[hh]);
    }
    MLAB_TR(if (threadIdx.x == 0 && p.trace) p.trace[MLAB_TR_QPATH + 2 * blockIdx.x + 1] = mlab_gtime_after(__float_as_int(rqs[0]));)
#pragma unroll
    for (int j = 0; j < q_fp8_regs<NT>::QN; j++) {
        const unsigned k = lane + MLAB_WARP * j;
        if (k < G::CPW) {
            const int h0 = G::lo(j), h1 = G::hi_head(j);
            const bool second = k >= (unsigned)(h1 * HC);
            store(w * HPW + (second ? h1 : h0), k - (second ? h1 : h0) * HC,
                  q_fp8_codes8(q.v[j], second ? qs[h1] : qs[h0], second ? rqs[h1] : rqs[h0], fmax));
        }
    }
#pragma unroll
    for (int hh = 0; hh < HPW; hh++)
        if (lane == (unsigned)hh) qsh[w * HPW + hh] = qs[hh];
}

#if MLAB_HAVE_CLUSTER && defined(__CUDA_ARCH__)
/* the columns of O a thread holds come in runs of O_RUN consecutive ones
 * (mla_mma.h run_elem): f(h, col, v) for each run, v its values (v.x, v.y
 * for runs of 2), in fp32 as accumulated (the cluster merges' O) */
template <bool F8T> constexpr int O_RUN = F8T ? MLAB_RUN_FP8 : MLAB_RUN_BF16;
template <bool F8T, int OT, typename F> MLAB_DEV void for_each_o_run(const acc16 (&o)[OT], int warp, F f)
{
    constexpr int RUN = O_RUN<F8T>;
    static_assert(RUN == 4 || RUN == 2, "for_each_o_run: runs of 2 or 4 columns");
#pragma unroll
    for (int q = 0; q < OT; q++)
#pragma unroll
        for (int r = 0; r < MLAB_ACC_N / RUN; r++) {
            const int e0 = run_elem(F8T, r, 0);
            f(acc_row(e0), acc_out_col<F8T>(warp, q, e0),
              make_float4(o[q].c[e0], o[q].c[run_elem(F8T, r, 1 % RUN)], o[q].c[run_elem(F8T, r, 2 % RUN)],
                          o[q].c[run_elem(F8T, r, 3 % RUN)]));
        }
}

/* ---- the cluster merge (-DMLAB_ONE_LAUNCH, NVIDIA sm_90+: arch/nv_cluster.h) -
 * A query row's split blocks are one thread-block cluster (rank = split;
 * launch_common.h launches the grid so); at the end of its tiles each block
 * leaves its unnormalized O (fp32, [16][MLA_DV + 4]) in its own shared
 * memory, its running max m and sum l in sM / sL, and the blocks merge the
 * row through distributed shared memory: block r of S writes the r-th S-th
 * of the row's 16 x 512 outputs, as
 *   out = sum_s w_s O_s / sum_s w_s l_s,   w_s = e^(m_s - max_s m_s)
 * (2^ for FAST, whose m is in log2 units). No partials in global memory, no
 * combine launch. Memory order: nv_cluster.h (two cluster barriers).
 * Measured on the H200 (papers/perf-notes.md v9): not faster than the
 * combine kernel where it fits in one wave, and up to 1.9x slower where a
 * call's clusters do not (the GPU places a cluster only where all its
 * blocks fit in one GPC at once), so MLAB_MERGE=cluster asks for it. */
template <typename C, bool FAST>
MLAB_DEV void cluster_merge(const mla_params &p, int tok, const acc16 (&o)[MLA_DV / MLA_NW / 16], uint8_t *smem,
                            const float *sM, const float *sL, float *sW)
{
    constexpr bool F8T = C::F8T;
    constexpr int LDO = MLA_DV + 4;
    static_assert(C::DIRECT || C::NSTAGE * C::STAGE >= 16 * LDO * 4,
                  "cluster_merge: O must fit in the stage buffers");
    static_assert(MLA_NT == MLA_H * MLAB_CLUSTER_MAX, "cluster_merge: one thread a (head, split)");
    float *sO = (float *)(smem + C::OFF_STAGE); /* the stages are free: every copy has landed */
    const int tid = threadIdx.x, warp = tid / MLAB_WARP, S = p.splits;
    MLAB_TR(unsigned long long *tc = p.trace ? p.trace + MLAB_TR_COMBINE + 4 * blockIdx.x : nullptr;)
    for_each_o_run<F8T>(o, warp, [&](int h, int col, float4 v) {
        float *d = sO + h * LDO + col;
        if (O_RUN<F8T> == 4)
            *(float4 *)d = v;
        else
            *(float2 *)d = make_float2(v.x, v.y);
    });
    mlab_cluster_sync(); /* every block's O, m, l written (release) and visible (acquire) */
    MLAB_TR(if (tid == 0 && tc) tc[0] = mlab_gtime();)
    /* the weights w_s / sum_s w_s l_s: thread (h, s) = (tid / 16, tid % 16)
     * reads split s's m and l of head h (one remote round trip for all),
     * the 16 lanes of a head reduce by shuffles; the negative control
     * (fault 2) leaves the last split out */
    {
        const int h = tid / MLAB_CLUSTER_MAX, s = tid % MLAB_CLUSTER_MAX;
        const int SU = S - (p.fault == 2 ? 1 : 0);
        float m = -INFINITY, l = 0.f;
        if (s < SU) {
            m = mlab_cluster_ld_f32(mlab_cluster_map(sM + h, s));
            l = mlab_cluster_ld_f32(mlab_cluster_map(sL + h, s));
        }
        float M = m;
        for (int k = MLAB_CLUSTER_MAX / 2; k; k >>= 1) M = fmaxf(M, mlab_shfl_xor(M, k));
        const float w = M == -INFINITY || m == -INFINITY ? 0.f : mla_exp(m - M, FAST);
        float L = w * l;
        for (int k = MLAB_CLUSTER_MAX / 2; k; k >>= 1) L += mlab_shfl_xor(L, k);
        const float rL = L > 0.f ? (FAST ? mlab_rcp_fast(L) : mlab_rcp_rn(L)) : 0.f;
        const float vs = C::FMT == KV_FP8 ? p.kv_scale : 1.f; /* fp8: O is in units of kv_scale */
        if (s < S) sW[s * MLA_H + h] = w * rL * vs;
    }
    __syncthreads();
    MLAB_TR(if (tid == 0 && tc) tc[1] = mlab_gtime();)
    /* block r: a contiguous run of the row's 4-column groups (adjacent
     * threads, adjacent 16 bytes: no bank conflicts in the peers' memory) */
    constexpr int NG = MLA_H * MLA_DV / 4;
    const int rank = (int)mlab_cluster_rank(), g1 = (rank + 1) * NG / S;
    for (int g = rank * NG / S + tid; g < g1; g += MLA_NT) {
        const int h = g / (MLA_DV / 4), c = 4 * (g % (MLA_DV / 4));
        float4 v[MLAB_CLUSTER_MAX];
#pragma unroll
        for (int s = 0; s < MLAB_CLUSTER_MAX; s++) /* all loads first: one DSMEM latency */
            if (s < S) v[s] = mlab_cluster_ld_f32x4(mlab_cluster_map(sO + h * LDO + c, s));
        float r[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
        for (int s = 0; s < MLAB_CLUSTER_MAX; s++)
            if (s < S) {
                const float w = sW[s * MLA_H + h];
                r[0] += w * v[s].x; r[1] += w * v[s].y; r[2] += w * v[s].z; r[3] += w * v[s].w;
            }
        uint32_t b[2] = {0, 0};
#pragma unroll
        for (int k = 0; k < 4; k++) b[k >> 1] |= (uint32_t)mlab_f32_to_bf16_bits(r[k]) << (16 * (k & 1));
        *(uint2 *)(p.out + ((size_t)tok * MLA_H + h) * MLA_DV + c) = make_uint2(b[0], b[1]);
    }
    MLAB_TR(if (tid == 0 && tc) { tc[2] = mlab_gtime(); tc[3] = 2; })
    mlab_cluster_sync(); /* no block leaves while a peer may still read its shared memory */
}

/* ---- the push merge (MLAB_MERGE=push: -DMLAB_ONE_LAUNCH, NVIDIA sm_90+) ---
 * cluster_merge's data flow turned round (an experiment, perf-notes v21):
 * once every block of the row's cluster has ended its tiles (a cluster
 * barrier: their stage buffers are free), each block sends its unnormalized
 * O of head h, and that head's m and l, into the stage buffers of block
 * h % S, the head's owner, by st.async stores whose bytes complete on the
 * owner's mbarrier (initialized at the kernel's start with the bytes it
 * will receive: every sender's O, m and l of its 16 / S heads); the owner
 * waits on it, merges its heads as cluster_merge does and writes them. No
 * remote loads; a second cluster barrier before leaving (each block arrives
 * once it has all its bytes, so no block leaves with a store to a peer in
 * flight). S divides 16 (runner.hip). Measured on the H200 (perf-notes v21,
 * papers/reports/h200-2026-12-02q): correct (validated at 2, 4, 8, 16
 * splits; its negative control caught), 0.0-0.4 us faster than the pull
 * merge but still 1.1-1.7 us slower than the combine kernel at 4 x 1024: what
 * a cluster costs is not its merge's loads. */
#define MLAB_PUSH_SLICE (MLA_DV + 4) /* floats a (sender, head) slice: O, then m, l and 2 unused */
#define MLAB_PUSH_BYTES (MLA_H * (MLA_DV + 2) * 4) /* what an owner receives: S x 16 / S slices */
template <typename C, bool FAST>
MLAB_DEV void cluster_push(const mla_params &p, int tok, const acc16 (&o)[MLA_DV / MLA_NW / 16], uint8_t *smem,
                           const float *sM, const float *sL, uint64_t *bar)
{
    constexpr bool F8T = C::F8T;
    static_assert(C::DIRECT || C::NSTAGE * C::STAGE >= MLA_H * MLAB_PUSH_SLICE * 4,
                  "cluster_push: the slices must fit in the stage buffers");
    float *recv = (float *)(smem + C::OFF_STAGE);
    const int tid = threadIdx.x, warp = tid / MLAB_WARP, S = p.splits, NOWN = MLA_H / S;
    const unsigned rank = mlab_cluster_rank();
    mlab_cluster_arrive(); /* this block's tiles are done: its stage buffers may be written */
    mlab_cluster_wait();   /* and every peer's */
    for_each_o_run<F8T>(o, warp, [&](int h, int col, float4 v) {
        const int owner = h % S;
        const uint32_t a = mlab_cluster_map(recv + ((int)rank * NOWN + h / S) * MLAB_PUSH_SLICE + col, owner);
        const uint32_t b = mlab_cluster_map(bar, owner);
        if (O_RUN<F8T> == 4)
            mlab_cluster_st_async_f32x4(a, v, b);
        else
            mlab_cluster_st_async_f32x2(a, v.x, v.y, b);
    });
    if (tid < MLA_H) {
        const int h = tid, owner = h % S;
        mlab_cluster_st_async_f32x2(
            mlab_cluster_map(recv + ((int)rank * NOWN + h / S) * MLAB_PUSH_SLICE + MLA_DV, owner), sM[h], sL[h],
            mlab_cluster_map(bar, owner));
    }
    mlab_bulk_wait(bar, 0); /* this block's heads: every sender's slices have landed */
    /* out = sum_s w_s O_s / sum_s w_s l_s, w_s = e^(m_s - max m) (2^ for FAST);
     * the negative control (fault 2) leaves the last split out */
    const float vs = C::FMT == KV_FP8 ? p.kv_scale : 1.f; /* fp8: O is in units of kv_scale */
    const int SU = S - (p.fault == 2 ? 1 : 0);
    for (int g = tid; g < NOWN * (MLA_DV / 4); g += MLA_NT) {
        const int j = g / (MLA_DV / 4), c = 4 * (g % (MLA_DV / 4)), h = (int)rank + j * S;
        float M = -INFINITY;
        for (int s = 0; s < SU; s++) M = fmaxf(M, recv[(s * NOWN + j) * MLAB_PUSH_SLICE + MLA_DV]);
        float L = 0.f, acc[4] = {0.f, 0.f, 0.f, 0.f};
        for (int s = 0; s < SU; s++) {
            const float *sl = recv + (s * NOWN + j) * MLAB_PUSH_SLICE;
            const float m = sl[MLA_DV], w = M == -INFINITY || m == -INFINITY ? 0.f : mla_exp(m - M, FAST);
            L += w * sl[MLA_DV + 1];
            const float4 v = *(const float4 *)(sl + c);
            acc[0] += w * v.x; acc[1] += w * v.y; acc[2] += w * v.z; acc[3] += w * v.w;
        }
        const float rL = (L > 0.f ? (FAST ? mlab_rcp_fast(L) : mlab_rcp_rn(L)) : 0.f) * vs;
        uint32_t bits[2] = {0, 0};
#pragma unroll
        for (int k = 0; k < 4; k++) bits[k >> 1] |= (uint32_t)mlab_f32_to_bf16_bits(acc[k] * rL) << (16 * (k & 1));
        *(uint2 *)(p.out + ((size_t)tok * MLA_H + h) * MLA_DV + c) = make_uint2(bits[0], bits[1]);
    }
    mlab_cluster_arrive(); /* this block has all its bytes */
    mlab_cluster_wait();   /* and every peer: no store to a peer is still in flight */
}
#endif

/* ---- Q into shared memory (mla_decode), every format but a8w8 -------------
 * (a8w8: q_fp8_load / q_fp8_row). bf16 rows by cp.async (in the first load
 * group); f16 for the fp8 core (MX8); MXFP8 codes and scales (MXS, into sqs). */
template <int KVF>
MLAB_DEV void decode_q_smem(const mla_params &p, int tok, uint8_t *sQ, uint8_t *sqs)
{
    typedef mla_cfg<KVF> C;
    const int tid = threadIdx.x;
    (void)sqs;
    if (C::FMT == KV_MX8) {
        /* Q as f16 for the fp8 core (f16 of a bf16 value is exact in
         * [2^-14, 65504]; |q| < 2^-14 loses low bits: far below what Q.K
         * resolves), each 16-dim group in the k-slot order of qk_f16q_fp8k */
        const uint4 *qg = (const uint4 *)(p.q + (size_t)tok * MLA_H * MLA_D);
        for (int c = tid; c < MLA_H * MLA_D / 8; c += MLA_NT) {
            const int h = c / (MLA_D / 8), d0 = 8 * (c % (MLA_D / 8));
            const uint4 v = qg[c];
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
            uint16_t *row = (uint16_t *)(sQ + h * C::LDQ) + (d0 & ~15);
#pragma unroll
            for (int i = 0; i < 8; i++) {
                const uint16_t b = (uint16_t)(w[i >> 1] >> (16 * (i & 1)));
                row[mlab_qk_perm16((d0 & 15) + i)] = mlab_f32_to_f16_bits(mlab_bf16_bits_to_f32(b));
            }
        }
    } else if (C::MXS) {
        /* Q as MXFP8 (OCP e4m3 codes, an E8M0 scale a head row and block of
         * 32 dims: mfma_scale_lanes.h, mlab_mx8_scale_byte), for the scaled
         * MFMA's A; one thread a (head, block) */
        for (int c = tid; c < MLA_H * MLA_NBLK; c += MLA_NT) {
            const int h = c / MLA_NBLK, b = c % MLA_NBLK;
            const uint4 *src = (const uint4 *)(p.q + ((size_t)tok * MLA_H + h) * MLA_D + 32 * b);
            float x[32], amax = 0.f;
#pragma unroll
            for (int k = 0; k < 4; k++) {
                const uint4 v = src[k];
                const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
                for (int i = 0; i < 8; i++) {
                    x[8 * k + i] = mlab_bf16_bits_to_f32((uint16_t)(w[i >> 1] >> (16 * (i & 1))));
                    amax = fmaxf(amax, fabsf(x[8 * k + i]));
                }
            }
            const int e = mlab_mx8_scale_byte(amax);
            const float inv = mlab_mx8_inv_scale(e);
            uint32_t o[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll
            for (int i = 0; i < 32; i++)
                o[i >> 2] |= (uint32_t)mlab_f32_to_fp8(x[i] * inv) << (8 * (i & 3)); /* saturating RNE */
            uint4 *dq = (uint4 *)(sQ + h * C::LDQ + 32 * b);
            dq[0] = make_uint4(o[0], o[1], o[2], o[3]);
            dq[1] = make_uint4(o[4], o[5], o[6], o[7]);
            sqs[c] = (uint8_t)e;
        }
    } else if (C::FMT != KV_FP8) {
        const uint8_t *qg = (const uint8_t *)(p.q + (size_t)tok * MLA_H * MLA_D);
        for (int c = tid; c < MLA_H * (2 * MLA_D / 16); c += MLA_NT) {
            int h = c / (2 * MLA_D / 16), k = c % (2 * MLA_D / 16);
            mlab_cp16(sQ + h * C::LDQ + 16 * k, qg + h * 2 * MLA_D + 16 * k, 1);
        }
    }
}

/* ---- MXFP4's tile pass (mla_decode, phase 0; C::TILE) ---------------------
 * The staged rows (E2M1 pairs) and the tile's E8M0 bytes sc -> the compute
 * tile: e4m3 codes with the scale folded in (MX8, e4m3_tile) or bf16
 * (dequant_tile). Returns the compute tile. */
template <int KVF>
MLAB_DEV uint8_t *tile_convert(const uint8_t *sc, const uint8_t *raw, uint8_t *smem, int r0, int rend)
{
    typedef mla_cfg<KVF> C;
    if (C::FMT == KV_MX8)
        e4m3_tile(sc, raw, smem + C::OFF_TILE, r0, rend, (const uint2 *)(smem + C::OFF_LUT));
    else
        dequant_tile(sc, raw, smem + C::OFF_TILE, r0, rend);
    return smem + C::OFF_TILE;
}

/* ---- a tile's scores (mla_decode, phase 1) ---------------------------------
 * S = Q K^T, each warp's share into sS as partial sums over a slice of the
 * dims (the softmax adds the slices): warp w takes kv columns 16 (w % 4) ..
 * +15 of dims half w / 4, or (QREG: NVIDIA fp8, this warp's Q slice in
 * registers, qf) kv columns 32 (w % 2) .. +31 of dims quarter w / 2, or (MXS:
 * gfx950's scaled MFMA with Q's scales sQS and the tile's, tile_sc) MX
 * blocks 9 (w / 4) .. +8; 32-row tiles give 4 of the 8 warps work. */
template <int KVF, int QSTEP>
MLAB_DEV void tile_scores(const uint32_t (&qf)[QSTEP][4], const uint8_t *sQ, const uint8_t *sQS, const uint8_t *tile,
                          const uint8_t *tile_sc, float *sS)
{
    typedef mla_cfg<KVF> C;
    constexpr bool F8T = C::F8T;
    const int warp = threadIdx.x / MLAB_WARP;
    (void)qf; (void)sQS; (void)tile_sc;
#ifdef MLAB_QREG
    if (C::QREG) {
        const int cg = warp & 1, ds = warp >> 1;
        acc16 s[2];
#pragma unroll
        for (int n = 0; n < 2; n++)
#pragma unroll
            for (int e = 0; e < MLAB_ACC_N; e++) s[n].c[e] = 0.f;
#if MLAB_HAVE_BULK
        if (C::TMAP) /* swizzled panels: slice ds is chunk ds of every panel */
            qk_fp8_qreg_sw<QSTEP>(s, qf, tile, 32 * cg, ds);
        else
#endif
            qk_fp8_qreg<QSTEP>(s, qf, tile + 32 * cg * C::LDK + ds * (MLA_D / C::QK_DS), C::LDK);
        float *sh = sS + ds * 16 * C::LDS + 32 * cg;
#pragma unroll
        for (int n = 0; n < 2; n++)
#pragma unroll
            for (int e = 0; e < MLAB_ACC_N; e += 2)
                *(float2 *)(sh + acc_row(e) * C::LDS + 16 * n + acc_col(e)) = make_float2(s[n].c[e], s[n].c[e + 1]);
    } else
#endif
#ifdef MLAB_MFMA_SCALE
    if (C::MXS) { /* gfx950 scaled MFMA: dims half w / 4 = MX blocks 9 (w / 4) .. +8 */
        const int cg = warp & 3, half = warp >> 2;
        acc16 s;
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++) s.c[e] = 0.f;
        const uint8_t *sks = tile_sc + 16 * cg * MLA_NBLK;
#pragma unroll
        for (int c = 0; c < 3; c++)
            qk_mxs(s, sQ, C::LDQ, sQS, tile + 16 * cg * C::RAW_ROW, C::RAW_ROW, sks,
                   9 * half + 4 * c, c < 2 ? 4 : 1);
        float *sh = sS + half * 16 * C::LDS;
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++)
            sh[acc_row(e) * C::LDS + 16 * cg + acc_col(e)] = s.c[e];
    } else
#endif
    if (C::NCG * C::QK_DS == MLA_NW || warp < C::NCG * C::QK_DS) { /* 32-row tiles: 4 waves */
        const int cg = warp & (C::NCG - 1), half = warp >> C::NCG_LOG;
        constexpr int KB = F8T ? MLA_D / 2 : MLA_D; /* bytes of half a row */
        acc16 s;
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++) s.c[e] = 0.f;
        const uint8_t *kt = tile + 16 * cg * C::LDK + half * KB;
#ifndef MLAB_QREG /* fp8 on NVIDIA always takes the register path above */
        if (C::FMT == KV_FP8)
            qk_fp8<KB>(s, sQ + half * KB, C::LDQ, kt, C::LDK);
        else
#endif
        if (C::FMT == KV_MX8)
            qk_f16q_fp8k<KB>(s, sQ + 2 * half * KB, C::LDQ, kt, C::LDK);
        else
            qk_bf16<KB>(s, (const uint16_t *)(sQ + half * KB), C::LDQ, (const uint16_t *)kt, C::LDK);
        float *sh = sS + half * 16 * C::LDS;
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++)
            sh[acc_row(e) * C::LDS + 16 * cg + acc_col(e)] = s.c[e];
    }
}

/* ---- a tile's online softmax (mla_decode, phase 2) -------------------------
 * S (the dim slices' partial sums in sS, scaled by sscale; columns at or past
 * rend masked) -> P in sP for P.V, the rows' running max sM and sum sL, and
 * the factor alpha (sA) by which P.V rescales O. TPR threads a head row, CPR
 * columns each. */
template <int KVF, bool FAST>
MLAB_DEV void tile_softmax(const float *sS, uint16_t *sP, float *sM, float *sL, float *sA, int t, int rend,
                           float sscale)
{
    typedef mla_cfg<KVF> C;
    constexpr bool PFP8 = C::FMT == KV_FP8, F8T = C::F8T;
    constexpr int TPR = MLA_NT / 16, CPR = C::BN / TPR;
    const int srow = threadIdx.x / TPR, spart = threadIdx.x % TPR;
    float x[C::BN / (MLA_NT / 16)];
    float mx = -INFINITY;
#pragma unroll
    for (int j = 0; j < CPR; j++) x[j] = 0.f;
#pragma unroll
    for (int d = 0; d < C::QK_DS; d++) { /* sum the dim slices' partial S */
        const float *r = sS + (16 * d + srow) * C::LDS + spart * CPR;
        float v[CPR];
        lds_vec(v, r);
#pragma unroll
        for (int j = 0; j < CPR; j++) x[j] += v[j];
    }
#pragma unroll
    for (int j = 0; j < CPR; j++) {
        const int col = spart * CPR + j;
        x[j] = t * C::BN + col < rend ? x[j] * sscale : -INFINITY;
        mx = fmaxf(mx, x[j]);
    }
    for (int m = TPR / 2; m; m >>= 1)
        mx = fmaxf(mx, mlab_shfl_xor(mx, m));
    const float mold = sM[srow], mnew = fmaxf(mold, mx);
    const bool none = mnew == -INFINITY;
    const float alpha = none ? 1.f : mla_exp(mold - mnew, FAST);
    float sum = 0.f, pj[CPR];
#pragma unroll
    for (int j = 0; j < CPR; j++) {
        pj[j] = none ? 0.f : mla_exp(x[j] - mnew, FAST);
        sum += pj[j];
    }
    /* P for P.V: fp32 (MXS: pv_mxs folds V's scales in before it
     * rounds); a8w8: rounded to e4m3, then exact f16; the fp8 core's
     * P.V takes f16 P; else bf16. Two at a time (one packed conversion
     * and one 32-bit store) where a thread has an even count */
#pragma unroll
    for (int j = 0; j < CPR; j += (CPR % 2 == 0 && !C::MXS ? 2 : 1)) {
        uint16_t *dp = sP + srow * (C::LDP / 2) + spart * CPR + j;
        if (C::MXS) {
            ((float *)sP)[srow * (C::LDP / 4) + spart * CPR + j] = pj[j];
        } else if (CPR % 2 == 0) {
            const float a = pj[j], b = pj[CPR % 2 == 0 ? j + 1 : j];
            *(uint32_t *)dp = PFP8  ? mlab_fp8x2_to_f16x2(mlab_f32x2_to_fp8x2(a, b))
                              : F8T ? mlab_f32x2_to_f16x2(a, b)
                                    : mlab_f32x2_to_bf16x2(a, b);
        } else {
            *dp = PFP8  ? (uint16_t)mlab_fp8x2_to_f16x2(mlab_f32_to_fp8(pj[j]))
                  : F8T ? mlab_f32_to_f16_bits(pj[j])
                        : mlab_f32_to_bf16_bits(pj[j]);
        }
    }
    for (int m = TPR / 2; m; m >>= 1)
        sum += mlab_shfl_xor(sum, m);
    /* every lane of the row has read sM[srow] (mold) before its first lane
     * overwrites it: the shuffles do not order memory (racecheck, v69) */
    mlab_syncwarp();
    if (spart == 0) {
        sM[srow] = mnew;
        sL[srow] = sL[srow] * alpha + sum;
        sA[srow] = alpha;
    }
}

/* ---- a tile's P.V (mla_decode, phase 3) ------------------------------------
 * O = alpha O + P V over this warp's MLA_DV / MLA_NW output columns: O
 * rescaled only where a row's max moved (sA != 1: most tiles, none did),
 * then the products (mla_mma.h / arch/amd_mfma.h; MXS: the gfx950 scaled
 * MFMA with the tile's E8M0 scales, tile_sc). */
template <int KVF, int OT>
MLAB_DEV void tile_pv(acc16 (&o)[OT], const float *sA, const uint16_t *sP, const uint8_t *tile, const uint8_t *tile_sc)
{
    typedef mla_cfg<KVF> C;
    constexpr bool F8T = C::F8T;
    constexpr int OCOLS = MLA_DV / MLA_NW;
    const int warp = threadIdx.x / MLAB_WARP;
    (void)tile_sc;
    {   /* rescale O only when a row's max moved (most tiles, none did) */
        float al[MLAB_ACC_N];
        bool moved = false;
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++) {
            al[e] = sA[acc_row(e)];
            moved |= al[e] != 1.f;
        }
        if (mlab_any(moved))
#pragma unroll
            for (int q = 0; q < OT; q++)
#pragma unroll
                for (int e = 0; e < MLAB_ACC_N; e++) o[q].c[e] *= al[e];
    }
#ifdef MLAB_MFMA_SCALE
    if (C::MXS)
        pv_mxs<OT>(o, (const float *)sP, C::LDP / 4, tile, C::RAW_ROW, tile_sc,
                   OCOLS * warp);
    else
#endif
    if (F8T)
#if MLAB_HAVE_BULK && defined(MLAB_NV)
        if (C::TMAP) /* swizzled panels: this warp's 64 columns are panel warp */
            pv_fp8_sw<OT>(o, sP, C::LDP, tile + MLAB_SW64_PANEL * warp);
        else
#endif
            pv_fp8<OT, C::BN>(o, sP, C::LDP, tile + OCOLS * warp, C::LDK);
    else
        pv_bf16<OT, C::BN>(o, sP, C::LDP, (const uint16_t *)(tile + 2 * OCOLS * warp), C::LDK);
}

/* ---- the epilogue (mla_decode): a block's O / l out ------------------------
 * The call's bf16 output (one split) or the split's f16 partial with its
 * multiplier and log-sum-exp. Returns, in -DMLAB_TRACE builds, when thread 0
 * had its last P.V result (0 otherwise). */
template <int KVF, bool FAST, int OT>
MLAB_DEV unsigned long long decode_epilogue(const mla_params &p, int tok, int split, int S, acc16 (&o)[OT],
                                            uint8_t *smem, const float *sM, const float *sL, float *sS)
{ /* S: the row's splits (p.splits, or its plan's: mla_params.row_splits); partials at row stride p.splits */
    typedef mla_cfg<KVF> C;
    constexpr bool F8T = C::F8T;
    const int tid = threadIdx.x, warp = tid / MLAB_WARP;
    /* fp8 partials stay in units of kv_scale (their multiplier) */
    const float vscale = C::FMT == KV_FP8 && S == 1 ? p.kv_scale : 1.f;
    float rl[MLAB_ACC_N], lv[MLAB_ACC_N]; /* each element's row's l, and 1 / l: fast, or IEEE for mlab_div_rcp */
#pragma unroll
    for (int e = 0; e < MLAB_ACC_N; e++) {
        lv[e] = sL[acc_row(e)];
        rl[e] = lv[e] > 0.f ? (FAST ? mlab_rcp_fast(lv[e]) : mlab_rcp_rn(lv[e])) : 0.f;
    }
    /* split partials of bf16 and MXFP4: each head's largest |O / l| over the
     * block, by row through the lanes that share it, then over the warps
     * through wmax[head][warp] (in sS: its last reader, the softmax, is
     * behind the last P.V's barrier) */
    float pdiv[MLAB_ACC_N]; /* 1 / the multiplier of each element's head */
    float *wmax = sS;
#pragma unroll
    for (int e = 0; e < MLAB_ACC_N; e++) pdiv[e] = 1.f;
    if (C::FMT != KV_FP8 && S > 1) {
        float m[MLAB_ACC_N], mr[MLAB_ACC_N];
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++) {
            m[e] = 0.f;
#pragma unroll
            for (int q = 0; q < OT; q++) m[e] = fmaxf(m[e], fabsf(o[q].c[e]));
            m[e] *= rl[e];
        }
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++) { /* this lane's elements of the same row */
            mr[e] = 0.f;
#pragma unroll
            for (int f = 0; f < MLAB_ACC_N; f++) mr[e] = acc_row(f) == acc_row(e) ? fmaxf(mr[e], m[f]) : mr[e];
        }
#pragma unroll
        for (int k = 1; k <= MLAB_ACC_ROW_LANES; k <<= 1)
#pragma unroll
            for (int e = 0; e < MLAB_ACC_N; e++) mr[e] = fmaxf(mr[e], mlab_shfl_xor(mr[e], k));
        if ((lane_id() & MLAB_ACC_ROW_LANES) == 0)
#pragma unroll
            for (int e = 0; e < MLAB_ACC_N; e++) wmax[acc_row(e) * MLA_NW + warp] = mr[e];
        __syncthreads();
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++)
            pdiv[e] = pow2f_exact(-part_exp(__float_as_uint(head_max(wmax, acc_row(e)))));
    }
    /* trace: thread 0 past its last P.V product's result (the MMAs drained) */
    unsigned long long drained = 0;
    MLAB_TR(if (tid == 0) {
        asm volatile("" ::"f"(o[OT - 1].c[MLAB_ACC_N - 1]));
        drained = mlab_gtime();
    })
    /* the outputs, O / l (split partials: times 1 / their multiplier, pdiv;
     * 1 otherwise), rounded in pairs (bf16 for the call's output, f16 for
     * split partials), staged in shared memory a run of consecutive columns
     * at a time (mla_mma.h: run_elem; the stages are free after the loop),
     * then written out 16 bytes a thread: a block's 16 x 512 outputs are
     * contiguous in both kinds, so a warp writes 512 contiguous bytes (from
     * the accumulators directly a warp's store touched 8 rows x 16 or 32
     * bytes). The two kinds in their own loops (on the H200 the epilogue with
     * the kind chosen per element and the address rebuilt per store ran ~870
     * instructions). Staging rows padded to spread a warp's stores over the
     * banks: runs of 4 (8 bytes a lane) 32 bytes apart, of 2 16. */
    constexpr int RUN = F8T ? MLAB_RUN_FP8 : MLAB_RUN_BF16;
    constexpr int SROW = MLA_DV + (RUN == 4 ? 16 : 8); /* 16-bit elements */
    static_assert(C::OFF_S - C::OFF_STAGE >= MLA_H * SROW * 2, "mla_decode: the output staging overruns the stages");
    uint16_t *const stg = (uint16_t *)(smem + C::OFF_STAGE);
    auto stage_all = [&](auto pack) {
#pragma unroll
        for (int q = 0; q < OT; q++)
#pragma unroll
            for (int r = 0; r < MLAB_ACC_N / RUN; r++) {
                const int e0 = run_elem(F8T, r, 0);
                uint16_t *d16 = stg + acc_row(e0) * SROW + acc_out_col<F8T>(warp, q, e0);
                float v[RUN > 1 ? RUN : 2] = {}; /* RUN 1: the pair's high half unused */
#pragma unroll
                for (int k = 0; k < RUN; k++) {
                    const int e = run_elem(F8T, r, k);
                    const float x = o[q].c[e] * vscale;
                    /* l = 0 (no rows): rl = 0 gives 0 either way */
                    v[k] = (FAST ? x * rl[e] : mlab_div_rcp(x, lv[e], rl[e])) * pdiv[e]; /* = x / l */
                }
                if (RUN == 4) *(uint2 *)d16 = make_uint2(pack(v[0], v[1]), pack(v[RUN > 2 ? 2 : 0], v[RUN > 3 ? 3 : 0]));
                else if (RUN == 2) *(uint32_t *)d16 = pack(v[0], v[1]);
                else *d16 = (uint16_t)pack(v[0], v[1]);
            }
    };
    if (S == 1)
        stage_all([](float a, float b) { return mlab_f32x2_to_bf16x2(a, b); });
    else
        stage_all([](float a, float b) { return mlab_f32x2_to_f16x2(a, b); });
    __syncthreads();
    {
        uint16_t *const base = S == 1 ? p.out + (size_t)tok * MLA_H * MLA_DV
                                             : p.part_o + ((size_t)tok * p.splits + split) * MLA_H * MLA_DV;
#pragma unroll
        for (int c = tid; c < MLA_H * MLA_DV / 8; c += MLA_NT) {
            const int h = c / (MLA_DV / 8), k = c % (MLA_DV / 8);
            *(uint4 *)(base + h * MLA_DV + 8 * k) = *(const uint4 *)(stg + h * SROW + 8 * k);
        }
    }
    if (S > 1 && tid < 16) {
        const float l = sL[tid], m = sM[tid];
        float lse = -INFINITY;
        if (l > 0.f)
            lse = FAST ? m + log2f(l) : (m + logf(l)) * MLA_LOG2E;
        p.part_lse[((size_t)tok * p.splits + split) * MLA_H + tid] = lse;
        p.part_mul[((size_t)tok * p.splits + split) * MLA_H + tid] =
            C::FMT == KV_FP8 ? p.kv_scale : pow2f_exact(part_exp(__float_as_uint(head_max(wmax, tid))));
    }
    return drained;
}

#ifdef MLAB_ONE_LAUNCH
/* One launch (-DMLAB_ONE_LAUNCH, MLAB_MERGE=inline): after its partial is
 * out (decode_epilogue), the row's last split block to finish merges it. */
template <bool FAST>
MLAB_DEV void merge_if_last(const mla_params &p, int tok, int split, float *sS, float *sX)
{
    const int tid = threadIdx.x;
    if (p.splits > 1 && p.merge_inline == 2) {
        merge_barrier<FAST>(p, tok, split, sS);
    } else if (p.splits > 1 && p.merge_inline) {
        /* One launch: the row's last split block to finish merges it.
         * Memory order (the "threadfence reduction" pattern): every thread's
         * partial stores are made visible device-wide by its __threadfence()
         * before the block's one atomicAdd on the row's counter (release). The
         * block whose atomicAdd returns splits - 1 arrived last: every other
         * block's fence and stores came before its atomic, hence before ours;
         * our own __threadfence() after the atomic (acquire) orders our loads
         * after it, and the loads go to L2 (cache-global), where the stores
         * are. The counter is reset by the merger, so the next call (ordered
         * by the stream) starts from 0. */
        __threadfence();
        __syncthreads();
        int *last = (int *)(sX + 4);
        if (tid == 0) *last = atomicAdd(p.row_count + tok, 1) == p.splits - 1;
        __syncthreads();
        if (*last) {
            __threadfence();
            merge_row<FAST>(p, tok, sS);
            if (tid == 0) p.row_count[tok] = 0;
        }
    }
}
#endif

/* ---- the decode ------------------------------------------------------------
 * One block a (query row, split): the split's tiles of the row's kv range,
 * flash-decoding style, then its O / l out. In order:
 *   Q              q_fp8_load + q_fp8_row (a8w8: quantized per tensor) or
 *                  decode_q_smem (bf16 by cp.async, f16, MXFP8)
 *   prologue       the first NSTAGE - 1 tiles' loads (load_stage, or
 *                  load_stage_bulk: BULK, or load_stage_tmap: TMAP)
 *   per tile       wait, refill the freed stage (LATE, mxfp4 on NVIDIA:
 *                  after 1), then
 *                  0 tile_convert (MXFP4's staged rows -> compute tile)
 *                  1 tile_scores  (S = Q K^T, partial over dim slices)
 *                  2 tile_softmax (online softmax -> P, m, l, alpha)
 *                  3 tile_pv      (O = alpha O + P V)
 *                  with a block barrier after 0, 1 and 2
 *   merge          cluster_merge (MLAB_MERGE=cluster builds), else
 *                  decode_epilogue (the output, or the split's partial for
 *                  mla_combine) and merge_if_last (MLAB_MERGE=inline builds)
 * Vendor instructions stay in the helpers (mla_mma.h, arch/). */
template <int KVF, bool FAST, bool XCD>
__global__ void __launch_bounds__(MLA_NT, mla_cfg<KVF>::MINB) mla_decode(const mla_params p)
{
    typedef mla_cfg<KVF> C;
    constexpr bool QFP8 = C::FMT == KV_FP8, MX = C::MX;
    extern __shared__ __align__(1024) uint8_t smem[]; /* TMAP: swizzled panels 512-aligned */
    uint8_t *sQ = smem + C::OFF_Q;
    float *sS = (float *)(smem + C::OFF_S);
    uint16_t *sP = (uint16_t *)(smem + C::OFF_P);
    float *sM = (float *)(smem + C::OFF_ROW), *sL = sM + 16, *sA = sM + 32, *sX = sM + 48;
    const int tid = threadIdx.x, warp = tid / MLAB_WARP;
    MLAB_TR(unsigned long long tr0 = mlab_gtime(), tr1 = 0, tr2 = 0, tr3 = 0, tr4 = 0;)

    int work = blockIdx.x;
    if (XCD && p.xcd_count > 1 && !p.blk_work) { /* the row's splits on one XCD; padding blocks return */
        work = mlab_xcd_work(work, p.total_q, p.splits, p.xcd_count);
        if (work < 0) return;
    }
    /* the block's (row, split) and the row's splits: uniform (work / splits), or
     * a ragged batch's plan (mla_params.blk_work, row_splits: splits.h; fp8_xcd's
     * placed by XCD already, with padding blocks that return) */
    int tok = work / p.splits, split = work % p.splits, S = p.splits;
    if (p.blk_work) {
        const int2 w = ((const int2 *)p.blk_work)[work];
        if (XCD && w.x < 0) return; /* (only fp8_xcd's table has padding) */
        tok = w.x;
        split = w.y;
        S = p.row_splits[tok];
    }
#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
    /* TMAP: the map's first use waits for its descriptor (global memory): fetched now, beside tok_kv's load */
    if (C::TMAP && tid == 0 && p.kv_tmap) mlab_tma_prefetch(p.kv_tmap);
#endif
    /* the row's first buffer row and visible rows (mla_params.h, tok_kv): in
     * flight while the Q loads below are issued, used after them */
    const int2 kvr = ((const int2 *)p.tok_kv)[tok];
    q_fp8_regs<MLA_NT> qreg; /* the a8w8 Q: its loads next (q_fp8_row quantizes it) */
    if (QFP8) q_fp8_load<MLA_NT>(p, tok, qreg);

    /* Q into shared memory: bf16 by cp.async (first in the first group); the
     * a8w8 variants quantize it (loaded above) to fp8 below, after the KV
     * prologue is issued, so the quantization overlaps the first tiles' loads */
    float qk_scale = p.sm_scale;
    decode_q_smem<KVF>(p, tok, sQ, smem + C::OFF_QS);
    const int vis = kvr.y, first = kvr.x;
    const int ntiles = (vis + C::BN - 1) / C::BN;
    const int per = (ntiles + S - 1) / S;
    const int t0 = min(split * per, ntiles), t1 = min(t0 + per, ntiles);
    /* rows past rend are masked; the negative control (fault 1) lets one
     * poisoned row in, which validation must catch */
    const int rend = vis + (p.fault == 1 && vis > 0 ? 1 : 0);
    if (tid < 16) {
        sM[tid] = -INFINITY;
        sL[tid] = 0.f;
    }
#if MLAB_HAVE_CLUSTER && defined(__CUDA_ARCH__)
    /* the push merge: this block's mbarrier (in sX, which only the inline
     * merge uses), expecting what its peers will send; ordered before their
     * sends by cluster_push's first cluster barrier */
    static_assert((C::OFF_ROW + 48 * 4) % 8 == 0, "mla_decode: the push merge's mbarrier must be 8-byte aligned");
    if (p.merge_cluster == 2 && tid == 0) {
        mlab_bulk_bar_init((uint64_t *)sX);
        mlab_bulk_expect((uint64_t *)sX, MLAB_PUSH_BYTES);
        mlab_bulk_init_fence();
    }
#endif
    if (C::FMT == KV_MX8) /* e4m3_tile's table (read after the first tile's barrier) */
        for (int e = tid; e < 256; e += MLA_NT) ((uint2 *)(smem + C::OFF_LUT))[e] = e4m3_magnitudes((uint32_t)e);

    /* BULK: a stage's tile lands on its mbarrier (use k of stage s: parity k & 1) */
    uint64_t *sBar = (uint64_t *)(smem + C::OFF_BAR);
    (void)sBar;
#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
    if (C::BULK) {
        if (tid == 0) {
            for (int s = 0; s < C::NSTAGE; s++) {
                if (C::TMAP) mlab_bar_init_n(sBar + s, MLA_NT); /* every thread arrives (load_stage_tmap) */
                else mlab_bulk_bar_init(sBar + s);
            }
            mlab_bulk_init_fence();
        }
        __syncthreads();
    }
#endif
    /* one stage's load: cp.async by every thread, or (BULK) one bulk copy a row */
    auto load = [&](int stage, int tt) {
#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
        if (C::TMAP) {
            /* (blocks of one tile loading it by cp.async instead: 4 x 1024 +1..5%, perf-notes v14) */
            load_stage_tmap<KVF>(p, p.kv_tmap, smem + C::OFF_STAGE + stage * C::STAGE, sBar + stage, first,
                                 tt * C::BN, rend);
            return;
        }
        if (C::BULK) {
            load_stage_bulk<KVF>(p, smem + C::OFF_STAGE + stage * C::STAGE, sBar + stage, first,
                                 tt * C::BN, rend);
            return;
        }
#endif
        load_stage<KVF>(p, smem + C::OFF_STAGE + stage * C::STAGE, first, tt * C::BN, rend);
    };
    /* prologue: Q (bf16) rides in the first group */
#pragma unroll
    for (int s = 0; s < C::NSTAGE - 1; s++) {
        if (t0 + s < t1) load(s, t0 + s);
        mlab_cp_commit();
    }

    if (QFP8) {
        const float qs = q_fp8_row<MLA_NT>(p, qreg, sX + 8, [&](int h, int k, uint2 codes) {
            *(uint2 *)(sQ + h * C::LDQ + 8 * k) = codes;
        }, [] { __syncthreads(); });
        MLAB_TR(tr1 = mlab_gtime();)
        qk_scale = p.sm_scale * qs * p.kv_scale;
    }
    const float sscale = FAST ? qk_scale * MLA_LOG2E : qk_scale;
    /* NVIDIA fp8 (QREG): this warp's Q slice (dims 144 (w / 2) on) in registers */
    constexpr int QSTEP = MLA_D / C::QK_DS / 16;
    uint32_t qf[QSTEP][4];
#ifdef MLAB_QREG
    if (C::QREG) {
        __syncthreads();
        uint32_t qc[QSTEP][2];
#if MLAB_HAVE_BULK
        if (C::TMAP) /* dims 64 st + 16 (w / 2) .. + 15 at step st (qk_fp8_qreg_sw) */
            qreg_fp8_load<QSTEP, 64>(qc, sQ + 16 * (warp >> 1), C::LDQ);
        else
#endif
            qreg_fp8_load<QSTEP>(qc, sQ + (warp >> 1) * (MLA_D / C::QK_DS), C::LDQ);
        qreg_fp8_unpack<QSTEP>(qf, qc);
    }
#endif

    constexpr int OCOLS = MLA_DV / MLA_NW, OT = OCOLS / 16; /* output columns a warp */
    acc16 o[OT];
#pragma unroll
    for (int t = 0; t < OT; t++)
#pragma unroll
        for (int e = 0; e < MLAB_ACC_N; e++) o[t].c[e] = 0.f;

    /* mxfp4: a tile's E8M0 bytes are contiguous ((first + r0) * 18 on): each
     * thread fetches its bytes of the next tile into registers during this
     * tile and parks them in shared memory after it, hiding the latency */
    constexpr int SCN = (C::BN * MLA_NBLK + MLA_NT - 1) / MLA_NT;
    uint8_t *sSc = smem + C::OFF_SC;
    uint32_t scn[SCN];
    auto fetch_scales = [&](int tt) {
#pragma unroll
        for (int k = 0; k < SCN; k++) {
            const int c = tid + k * MLA_NT, row = tt * C::BN + c / MLA_NBLK;
            scn[k] = c < C::BN * MLA_NBLK && tt < t1 && row < rend
                         ? p.kv_e8m0[(size_t)(first + tt * C::BN) * MLA_NBLK + c] : 0u;
        }
    };
    auto park_scales = [&](int buf) {
#pragma unroll
        for (int k = 0; k < SCN; k++) {
            const int c = tid + k * MLA_NT;
            if (c < C::BN * MLA_NBLK) sSc[buf * C::BN * MLA_NBLK + c] = (uint8_t)scn[k];
        }
    };
    if (MX && t0 < t1) {
        fetch_scales(t0);
        park_scales(0);
    }


    for (int t = t0; t < t1; t++) {
        const int i = t - t0;
#if MLAB_HAVE_BULK && defined(__CUDA_ARCH__)
        if (C::BULK) {
            if (i == 0) mlab_cp_wait<0>(); /* bf16's Q (cp.async) */
            mlab_bulk_wait(sBar + i % C::NSTAGE, (uint32_t)((i / C::NSTAGE) & 1));
        } else
#endif
        mlab_cp_wait<(C::NSTAGE > 1 ? C::NSTAGE - 2 : 0)>();
        __syncthreads();
        MLAB_TR(if (i == 0) tr2 = mlab_gtime();)
        /* refill the stage freed by the previous tile: at the top, or (LATE:
         * mxfp4's exact path on NVIDIA, three stages) after this tile's Q.K,
         * so its tile pass and Q.K start first. H200 (papers/perf-notes.md
         * v12): late, mxfp4 -1..-3% on every call of 8+ tiles a row; every
         * other format 0..+7% slower (two stages: the load has less time) */
        auto refill = [&] {
            int nt = t + C::NSTAGE - 1;
            if (nt < t1) load((i + C::NSTAGE - 1) % C::NSTAGE, nt);
            mlab_cp_commit();
        };
#ifdef MLAB_NV
        constexpr bool LATE = C::FMT == KV_MXFP4 && C::NSTAGE > 2;
#else
        constexpr bool LATE = false; /* AMD's copies into LDS are synchronous: the Q.K would wait for them */
#endif
        if (!C::DIRECT && !LATE) {
            refill();
            if (C::NSTAGE == 1) { /* the tile just loaded is this one */
                mlab_cp_wait<0>();
                __syncthreads();
            }
        }
        uint8_t *tile = C::DIRECT ? (uint8_t *)p.kv_fp4 + (size_t)(first + t * C::BN) * MLA_FP4_ROW /* global rows */
                                  : smem + C::OFF_STAGE + (i % C::NSTAGE) * C::STAGE;
        if (C::MXS) /* the staged rows are the operands; the scales as mxfp4's */
            fetch_scales(t + 1);
        if (C::TILE) { /* 0. MXFP4's staged rows into the compute tile */
            fetch_scales(t + 1);
            tile = tile_convert<KVF>(sSc + (i & 1) * C::BN * MLA_NBLK, tile, smem, t * C::BN, rend);
            __syncthreads();
        }
        /* 1. S = Q K^T (this warp's share, partial over dims) */
        tile_scores<KVF, QSTEP>(qf, sQ, smem + C::OFF_QS, tile, sSc + (i & 1) * C::BN * MLA_NBLK, sS);
        if (LATE) refill();
        __syncthreads();
        /* 2. online softmax */
        tile_softmax<KVF, FAST>(sS, sP, sM, sL, sA, t, rend, sscale);
        __syncthreads();
        /* 3. O = alpha O + P V */
        tile_pv<KVF, OT>(o, sA, sP, tile, sSc + (i & 1) * C::BN * MLA_NBLK);
        if (MX)
            park_scales((i + 1) & 1);
    }
    mlab_cp_wait<0>();
    __syncthreads();
    MLAB_TR(tr3 = mlab_gtime();)
    mlab_grid_dep_trigger(); /* the combine may start launching */
#if MLAB_HAVE_CLUSTER && defined(__CUDA_ARCH__)
    if (p.merge_cluster) { /* the row's split blocks are a cluster: merge through their shared memory */
        if (p.merge_cluster == 2)
            cluster_push<C, FAST>(p, tok, o, smem, sM, sL, (uint64_t *)sX);
        else
            cluster_merge<C, FAST>(p, tok, o, smem, sM, sL, sS);
        MLAB_TR(trace_decode(p, tr0, tr1, tr2, tr3, t1 - t0);)
        return;
    }
#endif

    /* epilogue */
    MLAB_TR(tr4 =) decode_epilogue<KVF, FAST, OT>(p, tok, split, S, o, smem, sM, sL, sS);
#ifdef MLAB_ONE_LAUNCH
    merge_if_last<FAST>(p, tok, split, sS, sX);
#endif
    MLAB_TR(trace_decode(p, tr0, tr1, tr2, tr3, t1 - t0, tr4);)
}

/* out[tok, h, :] = sum_s 2^(lse_s - max) O_s / sum_s 2^(lse_s - max); zeros if no rows.
 * One block a (token, head) of MLA_DV / 4 threads, or, spread
 * (mla_params.combine_chunks = C > 1), C blocks of MLA_DV / 4 / C threads,
 * the chunk-th taking the chunk-th C-th of the columns: the first warp turns
 * the splits' log-sum-exps into weights in shared memory, then each thread
 * owns 4 output columns and issues its splits' loads back to back
 * (independent, unrolled), so the block waits about one memory latency,
 * not one per split (0f09366's). AHEAD > 0 (at most AHEAD splits, a grid of one wave:
 * launch_common.h, combine_ahead): every split's partial is loaded before
 * the weights are known, so the lse and partial round trips to L2 overlap
 * (v7 measured -1 us at 4 x 1024; as the only combine, 16 or 8 splits
 * ahead, its registers cost a second wave on calls of many rows: 2-18%
 * slower there, papers/perf-notes.md v7). */
template <bool FAST, int AHEAD>
MLAB_DEV void combine_one(const mla_params &p, int tok, int h, int chunk = 0, unsigned long long *tw = nullptr)
{
    MLAB_TR(unsigned long long *te = tw && p.trace ? p.trace + MLAB_TR_COMBIN + 2 * blockIdx.x : nullptr;)
    __shared__ float w[MLA_MAX_SPLITS + 1];
    const int tid = threadIdx.x, col4 = chunk * blockDim.x + tid; /* the thread's 4-column group */
    const float *lse = p.part_lse + (size_t)tok * p.splits * MLA_H + h;
    const float *mul = p.part_mul + (size_t)tok * p.splits * MLA_H + h;
    const int SR = p.row_splits ? p.row_splits[tok] : p.splits; /* the row's splits (a ragged plan's, or all) */
    if (SR <= 1) return; /* a row not split: its decode block wrote the output */
    const int S = SR - (p.fault == 2 ? 1 : 0); /* the negative control leaves the last split out */
    const size_t first = ((size_t)tok * p.splits * MLA_H + h) * MLA_DV / 4 + col4; /* in 4-column groups */
    const size_t stride = (size_t)MLA_H * MLA_DV / 4; /* groups from one split to the next */
    uint2 pre[AHEAD > 0 ? AHEAD : 1];
#pragma unroll
    for (int s = 0; s < AHEAD; s++) /* S <= AHEAD (launch_sequence) */
        pre[s] = s < S ? ((const uint2 *)p.part_o)[first + s * stride] : make_uint2(0u, 0u);
    if (tid < MLAB_WARP) { /* a lane's splits' lse and multipliers loaded at once (one L2 trip) */
        constexpr int PER = (MLA_MAX_SPLITS + MLAB_WARP - 1) / MLAB_WARP;
        float ls[PER], ms[PER];
#pragma unroll
        for (int k = 0; k < PER; k++) {
            const int s = tid + k * MLAB_WARP;
            ls[k] = s < S ? lse[(size_t)s * MLA_H] : -INFINITY;
            ms[k] = s < S ? mul[(size_t)s * MLA_H] : 0.f;
        }
        float mx = -INFINITY;
#pragma unroll
        for (int k = 0; k < PER; k++) mx = fmaxf(mx, ls[k]);
        for (int m = MLAB_WARP / 2; m; m >>= 1) mx = fmaxf(mx, mlab_shfl_xor(mx, m));
        MLAB_TR(if (te) te[0] = mlab_gtime_after(__float_as_int(mx));) /* -DMLAB_TRACE: the lse back */
        float den = 0.f;
#pragma unroll
        for (int k = 0; k < PER; k++) {
            const int s = tid + k * MLAB_WARP;
            const float l = ls[k];
            const float ws = mx == -INFINITY || l == -INFINITY ? 0.f : FAST ? mlab_exp2_fast(l - mx) : exp2f(l - mx);
            if (s < S) w[s] = ws != 0.f ? ws * ms[k] : 0.f; /* the partial's own scale */
            den += ws;
        }
        for (int m = MLAB_WARP / 2; m; m >>= 1) den += mlab_shfl_xor(den, m);
        if (tid == 0) w[MLA_MAX_SPLITS] = den;
        MLAB_TR(if (te) te[1] = mlab_gtime_after(__float_as_int(den));) /* -DMLAB_TRACE: the weights stored */
    }
    __syncthreads();
    MLAB_TR(if (tw) *tw = mlab_gtime();) /* -DMLAB_TRACE: the weights known */
    const float den = w[MLA_MAX_SPLITS];
    float r[4] = {0.f, 0.f, 0.f, 0.f};
    auto add = [&](float ws, uint2 b) {
        const float v[4] = {mlab_f16_bits_to_f32((uint16_t)b.x), mlab_f16_bits_to_f32((uint16_t)(b.x >> 16)),
                            mlab_f16_bits_to_f32((uint16_t)b.y), mlab_f16_bits_to_f32((uint16_t)(b.y >> 16))};
#pragma unroll
        for (int k = 0; k < 4; k++) r[k] += ws * v[k];
    };
    if (AHEAD > 0) {
#pragma unroll
        for (int s = 0; s < AHEAD; s++) {
            const float ws = s < S ? w[s] : 0.f;
            if (ws != 0.f) add(ws, pre[s]); /* splits with no rows add nothing */
        }
    } else {
#pragma unroll 8
        for (int s = 0; s < S; s++) {
            const float ws = w[s];
            if (ws != 0.f) add(ws, ((const uint2 *)p.part_o)[first + s * stride]); /* splits with no rows add nothing */
        }
    }
    float v[4];
#pragma unroll
    for (int k = 0; k < 4; k++) v[k] = den > 0.f ? (FAST ? r[k] * mlab_rcp_fast(den) : mlab_div_rn(r[k], den)) : 0.f;
    *(uint2 *)(p.out + ((size_t)tok * MLA_H + h) * MLA_DV + 4 * col4) =
        make_uint2(mlab_f32x2_to_bf16x2(v[0], v[1]), mlab_f32x2_to_bf16x2(v[2], v[3]));
}

/* the parameters combine_one reads, held before the grid wait (mlab_hold):
 * their constant-cache lines come in while the decode still runs. Before
 * v35 most were first read after the wait, and warp 0's log-sum-exps came
 * back 0.6-1.0 us after it (as long with no partial loads beside them,
 * MLAB_COMBINE=plain), where such a load alone takes 0.1-0.3 us
 * (papers/microbench/dep_load.cu). Held: 0.6-0.9 us; the split calls
 * up to -2% (32 x 1024 -0.6..-2.3%, perf-notes v35).
 * -DMLAB_COMB_PARAMS_EARLY=0: as before (the A/B's base) */
#ifndef MLAB_COMB_PARAMS_EARLY
#define MLAB_COMB_PARAMS_EARLY 1
#endif
MLAB_DEV void combine_params_in(const mla_params &p)
{
#if MLAB_COMB_PARAMS_EARLY
    mlab_hold((unsigned long long)(uintptr_t)p.part_lse ^ (uintptr_t)p.part_mul ^ (uintptr_t)p.part_o ^
              (uintptr_t)p.out ^ (uintptr_t)p.row_splits ^ (unsigned)p.splits ^ (unsigned)p.fault ^
              (unsigned)p.combine_chunks ^ (unsigned)p.total_q ^ (unsigned)p.xcd_count
              MLAB_TR(^(uintptr_t)p.trace));
#else
    (void)p;
#endif
}

template <bool FAST, int AHEAD>
__global__ void __launch_bounds__(MLA_DV / 4) mla_combine(const mla_params p)
{
    MLAB_TR(unsigned long long tr0 = mlab_gtime();)
    combine_params_in(p);
    mlab_grid_dep_wait(); /* the decode grid has finished (launched as its dependent) */
    MLAB_TR(unsigned long long tr1 = mlab_gtime();)
    const int C = p.combine_chunks > 1 ? p.combine_chunks : 1, pair = blockIdx.x / C; /* (row, head) */
#if defined(MLAB_TRACE) && defined(MLAB_TRACE_CTRL)
    /* -DMLAB_TRACE_CTRL (a probe, trace builds only; perf-notes v57): warp 0
     * (the lse warp) first loads one line the decode read but did not write,
     * its (row, head)'s Q, and "past its wait" becomes the time it is back;
     * the lse loads are issued after it. Which of the two first loads is
     * slow says whether the ~0.6 us to the lse is any first load's of the
     * block or the decode's freshly written lines'. */
    if (threadIdx.x < MLAB_WARP) {
        const int v = ((const volatile int *)p.q)[(size_t)pair * MLA_D / 2 + threadIdx.x];
        tr1 = mlab_gtime_after(v);
        asm volatile("" ::: "memory");
    }
#endif
    unsigned long long tw = 1; /* -DMLAB_TRACE: thread 0's time once the weights are known (1: a row not split) */
    combine_one<FAST, AHEAD>(p, pair / MLA_H, pair % MLA_H, blockIdx.x % C, threadIdx.x == 0 ? &tw : nullptr);
    MLAB_TR(if (threadIdx.x == 0 && p.trace) {
        unsigned long long *tb = p.trace + MLAB_TR_COMBINE + 4 * blockIdx.x;
        tb[0] = tr0; tb[1] = tr1; tb[2] = mlab_gtime(); tb[3] = tw;
    })
}

/* fp8_xcd's combine: a row's 16 head blocks on the XCD that ran its splits
 * (xcd_map.h; launched with mlab_xcd_grid(total_q, MLA_H, xcd_count) blocks) */
template <bool FAST, int AHEAD>
__global__ void __launch_bounds__(MLA_DV / 4) mla_combine_xcd(const mla_params p)
{
    combine_params_in(p);
    mlab_grid_dep_wait(); /* the decode grid has finished (launched as its dependent) */
    const int work = mlab_xcd_work(blockIdx.x, p.total_q, MLA_H, p.xcd_count);
    if (work < 0) return; /* padding */
    combine_one<FAST, AHEAD>(p, work / MLA_H, work % MLA_H);
}

/* Per-block max |q| over the bf16 Q tensor (the a8w8 per-tensor amax). */
static __global__ void __launch_bounds__(MLA_AMAX_T) mla_q_amax(const mla_params p)
{
    __shared__ float red[MLA_AMAX_T / MLAB_WARP];
    MLAB_TR(unsigned long long tr0 = mlab_gtime();)
    mlab_grid_dep_trigger(); /* the decode blocks may launch now and wait for us */
    const size_t n8 = (size_t)p.total_q * MLA_H * MLA_D / 8;
    float a = 0.f;
    for (size_t c = (size_t)blockIdx.x * MLA_AMAX_T + threadIdx.x; c < n8; c += (size_t)gridDim.x * MLA_AMAX_T) {
        uint4 v = ((const uint4 *)p.q)[c];
        uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int i = 0; i < 4; i++) {
            a = fmaxf(a, fabsf(mlab_bf16_bits_to_f32((uint16_t)w[i])));
            a = fmaxf(a, fabsf(mlab_bf16_bits_to_f32((uint16_t)(w[i] >> 16))));
        }
    }
    for (int m = MLAB_WARP / 2; m; m >>= 1) a = fmaxf(a, mlab_shfl_xor(a, m));
    if ((threadIdx.x % MLAB_WARP) == 0) red[threadIdx.x / MLAB_WARP] = a;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int i = 1; i < MLA_AMAX_T / MLAB_WARP; i++) a = fmaxf(a, red[i]);
        p.q_amax_part[blockIdx.x] = a;
        MLAB_TR(if (p.trace) {
            unsigned long long *tb = p.trace + 2 * blockIdx.x;
            tb[0] = tr0; tb[1] = mlab_gtime();
        })
    }
}

/* The unfused control: the whole MXFP4 cache -> a bf16 buffer (p.kv_bf16),
 * NaN scales giving NaN rows, as the reference's dequantize-then-attend does. */
static __global__ void __launch_bounds__(256) mla_dequant_mxfp4(const mla_params p, uint16_t *dst)
{
    const size_t nblk = (size_t)p.kv_rows * MLA_NBLK;
    for (size_t c = (size_t)blockIdx.x * 256 + threadIdx.x; c < nblk; c += (size_t)gridDim.x * 256) {
        size_t r = c / MLA_NBLK, b = c % MLA_NBLK;
        uint32_t o[16];
        dequant_block(*(const uint4 *)(p.kv_fp4 + r * MLA_FP4_ROW + 16 * b), p.kv_e8m0[c], o);
        uint4 *d = (uint4 *)(dst + r * MLA_D + 32 * b);
#pragma unroll
        for (int i = 0; i < 4; i++) d[i] = make_uint4(o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
    }
}

#endif
