/* mla_wgmma.h: the fp8 split-KV decode on Hopper's warpgroup MMA (wgmma),
 * for variants/fp8_wgmma.hip. Same ABI (mla_params), same split rule, same
 * outputs (bf16, or f16 partials in kv_scale units + log2-sum-exp2 for
 * mla_combine) and the same arithmetic as the fp8 variant: Q quantized per
 * tensor in the call, e4m3 Q.K, P rounded to e4m3 for P.V, fp32 accumulation.
 *
 * One block = one warpgroup (4 warps) = one query row x one split; tiles of
 * 64 kv rows stream through shared memory in a WG_NSTAGE-deep cp.async
 * pipeline, stored in the no-swizzle K-major layout wgmma reads (16-byte
 * chunk c of row r at c * 1024 + r * 16). Per tile:
 *   1. S^T[64 rows x 16 heads] = K . Q^T: 18 wgmma m64n16k32 e4m3, both
 *      operands from shared memory (the fp8 Q quantized once a block, in the
 *      same layout). Kv rows are the M dimension, so the 16 heads waste
 *      nothing; a thread holds 8 scores: rows 16w+g (+8), heads 2t, 2t+1
 *      (+8), g = lane / 4, t = lane % 4.
 *   2. online softmax per head: the max over the warp by 3 shuffles, over
 *      the 4 warps through shared memory; P rounded to e4m3 and stored as
 *      the B operand of step 3 (P^T, K-major), in the kv-row order of step 3.
 *   3. O^T[512 dims x 16 heads] += V^T . P^T: 16 wgmma m64n16k32 e4m3 with
 *      V^T from registers: one ldmatrix.trans + 4 byte permutes a step
 *      (arch/nv_wgmma.h, wg_vt_frag), no transpose pass, no conversion. The
 *      accumulator is 64 floats a thread: 8 m-tiles x (2 dims x 4 heads).
 * The row sums stay per thread until the end; the rescale factor of a head
 * is known to every thread that holds it, so no shared-memory round trip.
 * Every vendor instruction is in arch/nv_wgmma.h.
 */
#ifndef MLAB_MLA_WGMMA_H
#define MLAB_MLA_WGMMA_H

#include "arch/nv_wgmma.h"
#include "mla_kernel.h"

#define WG_NT 128          /* one warpgroup */
/* a tile's 16-byte chunk c of kv row r sits at c * WG_LDC + 16 r: chunk
 * columns 1040 bytes apart, not 1024, so the 8 consecutive chunks of one row
 * that a quarter-warp's cp.async writes land in 8 different bank groups,
 * while each core matrix (8 rows of one chunk) stays 128 contiguous bytes */
#define WG_LDC (16 * MLA_BN + 16)
#define WG_TILE ((MLA_D / 16) * WG_LDC) /* bytes of one fp8 tile in shared memory */
#ifndef WG_NSTAGE
#define WG_NSTAGE 2
#endif
#ifndef WG_MINB
#define WG_MINB 2          /* two blocks an SM: one's softmax overlaps the other's products */
#endif
struct wg_cfg {
    static constexpr int OFF_Q = 0;                          /* fp8 Q: 36 chunks x 16 heads x 16 */
    static constexpr int OFF_STAGE = OFF_Q + MLA_H * MLA_D;  /* WG_NSTAGE tiles */
    static constexpr int OFF_P = OFF_STAGE + WG_NSTAGE * WG_TILE; /* P^T: 4 chunks x 16 heads x 16 */
    static constexpr int OFF_RED = OFF_P + MLA_H * MLA_BN;   /* floats: 64 max + 64 sums + 32 */
    static constexpr int SMEM = OFF_RED + 160 * 4;
};

/* -DMLAB_WG_PROF (diagnostics): thread 0 of a few blocks sums clock64()
 * cycles per phase (wait for the tile, Q.K, softmax, P.V) and prints them */
#ifdef MLAB_WG_PROF
#define WG_PROF(...) __VA_ARGS__
#else
#define WG_PROF(...)
#endif

#if MLAB_HAVE_WGMMA
/* one tile of fp8 rows r0 .. r0+63 (zeros past rend) into the wgmma layout:
 * consecutive threads take consecutive 16-byte chunks of the tile's rows,
 * which are contiguous in global memory (512 bytes a warp instruction) */
MLAB_DEV void wg_load_tile(const mla_params &p, uint8_t *dst, int first, int r0, int rend)
{
    constexpr int CH = MLA_D / 16;
    const uint8_t *base = p.kv_fp8 + (size_t)(first + r0) * MLA_D;
#pragma unroll 6
    for (int q = threadIdx.x; q < MLA_BN * CH; q += WG_NT) {
        const int r = q / CH, c = q % CH;
        const int ok = r0 + r < rend;
        mlab_cp16(dst + c * WG_LDC + 16 * r, ok ? base + 16 * q : p.kv_fp8, ok);
    }
}
#endif

template <bool FAST>
__global__ void __launch_bounds__(WG_NT, WG_MINB) mla_decode_wg(const mla_params p)
{
#if MLAB_HAVE_WGMMA
    typedef wg_cfg C;
    extern __shared__ __align__(128) uint8_t smem[];
    uint8_t *sQ = smem + C::OFF_Q, *sP = smem + C::OFF_P;
    float *sMax = (float *)(smem + C::OFF_RED); /* [head][warp] */
    float *sSum = sMax + 64, *sX = sMax + 128;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid & 31, g = lane >> 2, t4 = lane & 3;
    WG_PROF(long long pc[6] = {0, 0, 0, 0, 0, 0}, pt = clock64(), pt0 = pt;
            auto lap = [&](int k) { long long n = clock64(); pc[k] += n - pt; pt = n; };)

    const int work = blockIdx.x;
    const int tok = work / p.splits, split = work % p.splits;
    const int item = p.tok_item[tok], nq = p.tok_nq[tok], pos = p.tok_pos[tok];
    const int L = p.kv_indptr[item + 1] - p.kv_indptr[item];
    const int vis = max(0, L - nq + pos + 1), first = p.kv_first[item];
    const int ntiles = (vis + MLA_BN - 1) / MLA_BN;
    const int per = (ntiles + p.splits - 1) / p.splits;
    const int t0 = min(split * per, ntiles), t1 = min(t0 + per, ntiles);
    const int rend = vis + (p.fault == 1 && vis > 0 ? 1 : 0); /* negative control: one row too many */

    /* prologue: the first tiles' loads in flight, then Q (loads before the
     * amax wait), quantized into the K-major layout of the B operand */
#pragma unroll
    for (int s = 0; s < WG_NSTAGE - 1; s++) {
        if (t0 + s < t1) wg_load_tile(p, smem + C::OFF_STAGE + s * WG_TILE, first, (t0 + s) * MLA_BN, rend);
        mlab_cp_commit();
    }
    const float qs = q_fp8_row<WG_NT>(p, tok, sX, [&](int h, int k, uint2 codes) {
        *(uint2 *)(sQ + (k >> 1) * (16 * MLA_H) + 16 * h + 8 * (k & 1)) = codes;
    });
    const float qk_scale = p.sm_scale * qs * p.kv_scale;
    const float sscale = FAST ? qk_scale * MLA_LOG2E : qk_scale;

    /* this thread's heads: hd(j, e) = 8 j + 2 t + e, element index 2 j + e */
    float mrun[4], lrun[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
        mrun[i] = -INFINITY;
        lrun[i] = 0.f;
    }
    float o[MLA_DV / 64][8]; /* O^T m-tile mt: dims 64 mt + 16 w + (2g, 2g+1) x this thread's heads */
#pragma unroll
    for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
        for (int e = 0; e < 8; e++) o[mt][e] = 0.f;

    WG_PROF(lap(5);)
    const uint64_t dq = wg_desc(sQ, 16 * MLA_H, 128);
    const uint64_t dp = wg_desc(sP, 16 * MLA_H, 128);
    for (int t = t0; t < t1; t++) {
        const int i = t - t0;
        mlab_cp_wait<WG_NSTAGE - 2>();
        wg_fence_smem();
        __syncthreads();
        {
            const int nt = t + WG_NSTAGE - 1;
            if (nt < t1)
                wg_load_tile(p, smem + C::OFF_STAGE + ((i + WG_NSTAGE - 1) % WG_NSTAGE) * WG_TILE, first,
                             nt * MLA_BN, rend);
            mlab_cp_commit();
        }
        const uint8_t *tile = smem + C::OFF_STAGE + (i % WG_NSTAGE) * WG_TILE;
        WG_PROF(lap(0);)
        /* 1. S^T = K . Q^T */
        float s[8];
        {
            const uint64_t dk = wg_desc(tile, WG_LDC, 128);
#pragma unroll
            for (int e = 0; e < 8; e++) s[e] = 0.f;
#pragma unroll
            for (int e = 0; e < 8; e++) wg_fence_acc(s[e]);
            wg_fence();
#pragma unroll
            for (int k = 0; k < MLA_D / 32; k++)
                wg_e4m3_ss_n16(s, wg_desc_add(dk, 2 * k * WG_LDC), wg_desc_add(dq, 2 * k * 16 * MLA_H), k > 0);
            wg_commit();
            wg_wait<0>();
#pragma unroll
            for (int e = 0; e < 8; e++) wg_fence_acc(s[e]);
        }
        WG_PROF(lap(1);)
        /* 2. online softmax: element 4j + 2h + e is (row 16w + g + 8h, head 8j + 2t + e) */
        float tmax[4];
#pragma unroll
        for (int j = 0; j < 2; j++)
#pragma unroll
            for (int e = 0; e < 2; e++) {
                float m = -INFINITY;
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int row = t * MLA_BN + 16 * warp + g + 8 * h;
                    float &x = s[4 * j + 2 * h + e];
                    x = row < rend ? x * sscale : -INFINITY;
                    m = fmaxf(m, x);
                }
                m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 4));
                m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 8));
                m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 16));
                tmax[2 * j + e] = m;
            }
        if (g == 0)
#pragma unroll
            for (int k = 0; k < 4; k++) sMax[4 * (8 * (k >> 1) + 2 * t4 + (k & 1)) + warp] = tmax[k];
        __syncthreads();
        float alpha[4];
        bool moved = false;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const float4 w4 = *(const float4 *)(sMax + 4 * (8 * (k >> 1) + 2 * t4 + (k & 1)));
            const float mnew = fmaxf(mrun[k], fmaxf(fmaxf(w4.x, w4.y), fmaxf(w4.z, w4.w)));
            const bool none = mnew == -INFINITY;
            alpha[k] = none ? 1.f : mla_exp(mrun[k] - mnew, FAST);
            moved |= alpha[k] != 1.f;
            mrun[k] = mnew;
            float sum = 0.f;
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const float pj = none ? 0.f : mla_exp(s[4 * (k >> 1) + 2 * h + (k & 1)] - mnew, FAST);
                const uint8_t code = mlab_f32_to_fp8(pj); /* P.V takes P rounded; l sums it unrounded, as the task does */
                sum += pj;
                const int r = 16 * warp + g + 8 * h, hd = 8 * (k >> 1) + 2 * t4 + (k & 1);
                const int slot = (r & 32) + wg_vslot(r & 31);
                sP[(slot >> 4) * (16 * MLA_H) + 16 * hd + (slot & 15)] = code;
            }
            lrun[k] = lrun[k] * alpha[k] + sum;
        }
        if (__any_sync(0xffffffffu, moved))
#pragma unroll
            for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
                for (int e = 0; e < 8; e++) o[mt][e] *= alpha[2 * (e >> 2) + (e & 1)];
        wg_fence_smem();
        __syncthreads();
        WG_PROF(lap(2);)
        /* 3. O^T += V^T . P^T; warp w: chunk 4 mt + w of the 512 dims */
#pragma unroll
        for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
            for (int e = 0; e < 8; e++) wg_fence_acc(o[mt][e]);
        {   /* every A fragment first (64 registers), then one fence and the 16
             * products back to back: a fragment written between two wgmmas
             * makes ptxas put a warpgroup.arrive before each (serialized) */
            uint32_t a[MLA_DV / 64][MLA_BN / 32][4];
#pragma unroll
            for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
                for (int ks = 0; ks < MLA_BN / 32; ks++)
                    wg_vt_frag(a[mt][ks], tile + (4 * mt + warp) * WG_LDC + 16 * (32 * ks + lane));
            wg_fence();
#pragma unroll
            for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
                for (int ks = 0; ks < MLA_BN / 32; ks++)
                    wg_e4m3_rs_n16(o[mt], a[mt][ks], wg_desc_add(dp, 2 * ks * 16 * MLA_H), 1);
        }
        wg_commit();
        wg_wait<0>();
#pragma unroll
        for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
            for (int e = 0; e < 8; e++) wg_fence_acc(o[mt][e]);
        WG_PROF(lap(3);)
    }
    mlab_cp_wait<0>();
    mlab_grid_dep_trigger(); /* the combine may start launching */

    /* epilogue: the row sums over the warpgroup, then O / l */
#pragma unroll
    for (int k = 0; k < 4; k++) {
        float l = lrun[k];
        l += __shfl_xor_sync(0xffffffffu, l, 4);
        l += __shfl_xor_sync(0xffffffffu, l, 8);
        l += __shfl_xor_sync(0xffffffffu, l, 16);
        lrun[k] = l;
    }
    if (g == 0)
#pragma unroll
        for (int k = 0; k < 4; k++) sSum[4 * (8 * (k >> 1) + 2 * t4 + (k & 1)) + warp] = lrun[k];
    __syncthreads();
    float lsum[4], rl[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const float4 w4 = *(const float4 *)(sSum + 4 * (8 * (k >> 1) + 2 * t4 + (k & 1)));
        lsum[k] = (w4.x + w4.y) + (w4.z + w4.w);
        rl[k] = lsum[k] > 0.f ? (FAST ? mlab_rcp_fast(lsum[k]) : mlab_rcp_rn(lsum[k])) : 0.f;
    }
    /* f16 partials stay in units of kv_scale (the combine applies it) */
    const float vscale = p.splits == 1 ? p.kv_scale : 1.f;
#pragma unroll
    for (int mt = 0; mt < MLA_DV / 64; mt++)
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int hd = 8 * (k >> 1) + 2 * t4 + (k & 1), col = 64 * mt + 16 * warp + 2 * g;
            uint32_t bits = 0;
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const float x = o[mt][4 * (k >> 1) + 2 * h + (k & 1)] * vscale;
                const float v = FAST ? x * rl[k] : mlab_div_rcp(x, lsum[k], rl[k]); /* = x / l */
                bits |= (uint32_t)(p.splits == 1 ? mlab_f32_to_bf16_bits(v) : mlab_f32_to_f16_bits(v)) << (16 * h);
            }
            uint16_t *d = p.splits == 1
                              ? p.out + ((size_t)tok * MLA_H + hd) * MLA_DV + col
                              : (uint16_t *)p.part_o + (((size_t)tok * p.splits + split) * MLA_H + hd) * MLA_DV + col;
            *(uint32_t *)d = bits;
        }
    if (p.splits > 1 && warp == 0 && g == 0)
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int hd = 8 * (k >> 1) + 2 * t4 + (k & 1);
            float lse = -INFINITY;
            if (lsum[k] > 0.f)
                lse = FAST ? mrun[k] + log2f(lsum[k]) : (mrun[k] + logf(lsum[k])) * MLA_LOG2E;
            p.part_lse[((size_t)tok * p.splits + split) * MLA_H + hd] = lse;
        }
    WG_PROF(lap(4); if (tid == 0 && blockIdx.x % 37 == 0)
        printf("wgprof block %d tiles %d: prologue %lld, wait %lld, qk %lld, softmax %lld, pv %lld, epilogue %lld, "
               "all %lld cycles\n", blockIdx.x, t1 - t0, pc[5], pc[0], pc[1], pc[2], pc[3], pc[4], pt - pt0);)
#endif
}

#endif
