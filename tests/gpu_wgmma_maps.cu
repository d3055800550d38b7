/* gpu_wgmma_maps.cu: the operand and accumulator maps of the wgmma kernel
 * (variants/arch/nv_wgmma.h, variants/mla_wgmma.h) checked on the GPU against
 * the CPU, one product at a time, so a wrong map is named, not just seen as a
 * failed decode:
 *   qk: S^T[64 x 16] = K[64 x 576] . Q^T, both from shared memory in the
 *       kernel's layouts (tile chunk c of row r at wg_off(r, c): the 64-byte
 *       swizzled panels and their descriptors, wg_k_desc, in WG_TMAP builds,
 *       else c * WG_LDC + 16 r; Q chunk at c * 256 + 16 h, descriptors
 *       wg_q8_desc / wg_q8_step), read back
 *       through the accumulator map;
 *   pv: O^T[512 x 16] = V^T . P^T, V^T from registers (wg_vt_frag), P^T in
 *       shared memory in the slot order wg_vslot gives;
 *   bf16 (bf16_wgmma, mla_wgmma.h B16): the same two products by the
 *       kernel's own wg_scores<true> and wg_pv16, the tile in the 128-byte
 *       swizzled panels (mlab_sw128: K read K-major, V^T read as a
 *       transposed operand through the same panels), Q in bf16 in 16-row
 *       panels of the same swizzle (mlab_sw128_q, wg_q16_desc), P^T in bf16.
 * Random e4m3 codes (no NaN) and bf16 values of a few bits; their products
 * are exact in fp32, so only the order of the fp32 sums (and Hopper's fp8
 * accumulation inside an instruction) differs: tolerance 1e-3 of the
 * largest |value|.
 * Exit 0 pass, 1 mismatch, 77 no sm_90a GPU (skipped). */
#include <cuda_fp8.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variants/mla_wgmma.h" /* WG_LDC, the tile layout; arch/nv_wgmma.h */

#define D 576
#define DV 512
#define BN 64

__global__ void k_qk(const uint8_t *k, const uint8_t *q, float *s)
{
#if MLAB_HAVE_WGMMA
    __shared__ __align__(1024) uint8_t sk[WG_TILE];
    __shared__ __align__(128) uint8_t sq[16 * D];
    for (int i = threadIdx.x; i < BN * D / 16; i += 128) {
        const int r = i / (D / 16), c = i % (D / 16);
        *(uint4 *)(sk + wg_off(r, c)) = *(const uint4 *)(k + r * D + 16 * c);
    }
    for (int i = threadIdx.x; i < 16 * D / 16; i += 128) {
        const int h = i / (D / 16), c = i % (D / 16);
        *(uint4 *)(sq + c * 256 + 16 * h) = *(const uint4 *)(q + h * D + 16 * c);
    }
    wg_fence_smem();
    __syncthreads();
    float d[8];
    for (int e = 0; e < 8; e++) d[e] = 0.f;
    const uint64_t dq = wg_q8_desc(sq);
    wg_fence(); /* A from shared memory (wg_e4m3_ss_n16), the k steps' descriptors as the kernel's */
    for (int s32 = 0; s32 < D / 32; s32++)
        wg_e4m3_ss_n16(d, wg_k_desc(sk, s32), wg_q8_step(dq, s32), s32 > 0);
    wg_commit();
    wg_wait<0>();
    float d2[8]; /* as the kernel does it (wg_scores) */
    wg_scores(d2, sk, dq);
    const int w = threadIdx.x / 32, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    for (int e = 0; e < 8; e++) {
        const int row = 16 * w + g + 8 * ((e >> 1) & 1), head = 8 * (e >> 2) + 2 * t + (e & 1);
        s[row * 16 + head] = d[e];
        s[BN * 16 + row * 16 + head] = d2[e];
    }
#endif
}

__global__ void k_pv(const uint8_t *v, const uint8_t *pt, float *o)
{
#if MLAB_HAVE_WGMMA
    __shared__ __align__(1024) uint8_t sv[WG_TILE];
    __shared__ __align__(128) uint8_t sp[16 * BN];
    for (int i = threadIdx.x; i < BN * D / 16; i += 128) {
        const int r = i / (D / 16), c = i % (D / 16);
        *(uint4 *)(sv + wg_off(r, c)) = *(const uint4 *)(v + r * D + 16 * c);
    }
    for (int i = threadIdx.x; i < 16 * BN; i += 128) { /* P^T[h][kv row r] at its slot */
        const int h = i / BN, r = i % BN, slot = (r & 32) + wg_vslot(r & 31);
        sp[(slot >> 4) * 256 + 16 * h + (slot & 15)] = pt[h * BN + r];
    }
    wg_fence_smem();
    __syncthreads();
    const int w = threadIdx.x / 32, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    float acc[DV / 64][8];
    for (int m = 0; m < DV / 64; m++)
        for (int e = 0; e < 8; e++) acc[m][e] = 0.f;
    const uint64_t dp = wg_desc(sp, 256, 128);
    wg_fence();
    for (int m = 0; m < DV / 64; m++)
        for (int ks = 0; ks < BN / 32; ks++) {
            uint32_t a[4];
            wg_vt_frag(a, sv + wg_off(32 * ks + lane, 4 * m + w));
            wg_e4m3_rs_n16(acc[m], a, wg_desc_add(dp, 2 * ks * 256), 1);
        }
    wg_commit();
    wg_wait<0>();
    for (int m = 0; m < DV / 64; m++)
        for (int e = 0; e < 8; e++) {
            const int dim = 64 * m + 16 * w + 2 * g + ((e >> 1) & 1), head = 8 * (e >> 2) + 2 * t + (e & 1);
            o[head * DV + dim] = acc[m][e];
        }
#endif
}

/* bf16: tile (72 KB) + Q (18 KB) + P^T (2 KB) in dynamic shared memory */
#define B16_SMEM (9 * MLAB_SW128_PANEL + 16 * D * 2 + 16 * BN * 2)
__global__ void k_b16(const uint16_t *kv, const uint16_t *q, const uint16_t *pt, float *s, float *o)
{
#if MLAB_HAVE_WGMMA
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *stile = sm, *sq = sm + 9 * MLAB_SW128_PANEL, *sp = sq + 16 * D * 2;
    for (int i = threadIdx.x; i < BN * D / 8; i += 128) {
        const int r = i / (D / 8), c = i % (D / 8);
        *(uint4 *)(stile + mlab_sw128(r, c)) = *(const uint4 *)(kv + r * D + 8 * c);
    }
    for (int i = threadIdx.x; i < 16 * D / 8; i += 128) {
        const int h = i / (D / 8), c = i % (D / 8);
        *(uint4 *)(sq + mlab_sw128_q(h, c)) = *(const uint4 *)(q + h * D + 8 * c);
    }
    for (int i = threadIdx.x; i < 16 * BN; i += 128) { /* P^T[h][kv row r]: 8 rows to a 16-byte chunk */
        const int h = i / BN, r = i % BN;
        ((uint16_t *)sp)[(r >> 3) * 128 + 8 * h + (r & 7)] = pt[h * BN + r];
    }
    wg_fence_smem();
    __syncthreads();
    const int w = threadIdx.x / 32, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    float d[8];
    wg_scores<true>(d, stile, wg_q16_desc(sq));
    for (int e = 0; e < 8; e++)
        s[(16 * w + g + 8 * ((e >> 1) & 1)) * 16 + 8 * (e >> 2) + 2 * t + (e & 1)] = d[e];
    wg_state st;
    for (int m = 0; m < DV / 64; m++)
        for (int e = 0; e < 8; e++) st.o[m][e] = 0.f;
    wg_pv16(st, stile, wg_desc(sp, 256, 128));
    for (int m = 0; m < DV / 64; m++)
        for (int e = 0; e < 8; e++) /* accumulator rows: dims in order */
            o[(8 * (e >> 2) + 2 * t + (e & 1)) * DV + 64 * m + 16 * w + g + 8 * ((e >> 1) & 1)] = st.o[m][e];
#endif
}

/* a bf16 of a few significant bits in [-2, 2] (nonneg: [0, 1]) */
static uint16_t rnd_bf16(unsigned *st, int nonneg, float *val)
{
    *st = *st * 1664525u + 1013904223u;
    const int k = (int)(*st >> 20) % 65 - 32; /* -32 .. 32 */
    float x = nonneg ? (float)(k < 0 ? -k : k) / 32.f : (float)k / 16.f;
    *val = x;
    unsigned u;
    memcpy(&u, &x, 4);
    return (uint16_t)(u >> 16); /* exact: at most 6 significant bits */
}

static float dec(uint8_t c)
{
    __half_raw h = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E4M3);
    return __half2float(__half(h));
}
static uint8_t rnd_code(unsigned *st, int nonneg)
{
    for (;;) {
        *st = *st * 1664525u + 1013904223u;
        uint8_t c = (uint8_t)(*st >> 24);
        if (nonneg) c &= 0x7f;
        if ((c & 0x7f) != 0x7f && (c & 0x78) <= 0x48) return c; /* no NaN; |x| <= 2^2 */
    }
}
/* the products in double: S^T[r][h] = K[r] . Q[h], O[h][d] = sum_r P^T[h][r] K[r][d] (V: K's first DV dims) */
static void reference(const float *k, const float *q, const float *pt, double *ws, double *wo)
{
    for (int r = 0; r < BN; r++)
        for (int h = 0; h < 16; h++) {
            double a = 0;
            for (int d = 0; d < D; d++) a += (double)k[r * D + d] * q[h * D + d];
            ws[r * 16 + h] = a;
        }
    for (int h = 0; h < 16; h++)
        for (int d = 0; d < DV; d++) {
            double a = 0;
            for (int r = 0; r < BN; r++) a += (double)pt[h * BN + r] * k[r * D + d];
            wo[h * DV + d] = a;
        }
}
static int compare(const char *what, const float *got, const double *want, int n, int ld, const char *rname,
                   const char *cname)
{
    double mx = 0;
    for (int i = 0; i < n; i++) mx = fmax(mx, fabs(want[i]));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= 1e-3 * mx)) {
            if (bad < 5)
                printf("%s: %s %d %s %d: got %.6g, want %.6g\n", what, rname, i / ld, cname, i % ld, got[i],
                       want[i]);
            bad++;
        }
    printf("%s: %d of %d elements off (max |value| %.4g)\n", what, bad, n, mx);
    return bad != 0;
}

int main(void)
{
    int ndev = 0;
    cudaDeviceProp pr;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0 || cudaGetDeviceProperties(&pr, 0) != cudaSuccess ||
        pr.major != 9) {
        printf("skipped: no sm_90 GPU\n");
        return 77;
    }
#if !defined(MLAB_SM90A)
    printf("skipped: not built for sm_90a\n");
    return 77;
#else
    printf("tile layout: %s\n", WG_TMAP ? "64-byte swizzled panels (WG_TMAP)" : "unswizzled, WG_LDC chunk columns");
    unsigned st = 12345;
    static uint8_t k[BN * D], q[16 * D], pt[16 * BN];
    for (int i = 0; i < BN * D; i++) k[i] = rnd_code(&st, 0);
    for (int i = 0; i < 16 * D; i++) q[i] = rnd_code(&st, 0);
    for (int i = 0; i < 16 * BN; i++) pt[i] = rnd_code(&st, 1) & 0x3f; /* P in [0, 1] */
    uint8_t *dk, *dq, *dpt;
    float *ds, *dout;
    cudaMalloc(&dk, sizeof k); cudaMalloc(&dq, sizeof q); cudaMalloc(&dpt, sizeof pt);
    cudaMalloc(&ds, 2 * 4 * BN * 16); cudaMalloc(&dout, 4 * 16 * DV);
    cudaMemcpy(dk, k, sizeof k, cudaMemcpyHostToDevice);
    cudaMemcpy(dq, q, sizeof q, cudaMemcpyHostToDevice);
    cudaMemcpy(dpt, pt, sizeof pt, cudaMemcpyHostToDevice);
    k_qk<<<1, 128>>>(dk, dq, ds);
    k_pv<<<1, 128>>>(dk, dpt, dout);
    static float s[2 * BN * 16], o[16 * DV];
    if (cudaMemcpy(s, ds, sizeof s, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    static double ws[BN * 16], wo[16 * DV];
    static float fk[BN * D], fq[16 * D], fp[16 * BN]; /* the codes' values; bf16 below reuses them */
    for (int i = 0; i < BN * D; i++) fk[i] = dec(k[i]);
    for (int i = 0; i < 16 * D; i++) fq[i] = dec(q[i]);
    for (int i = 0; i < 16 * BN; i++) fp[i] = dec(pt[i]);
    reference(fk, fq, fp, ws, wo);
    int bad = compare("qk S^T (K from shared memory)", s, ws, BN * 16, 16, "kv row", "head");
    bad |= compare("qk S^T (K from registers)", s + BN * 16, ws, BN * 16, 16, "kv row", "head");
    bad |= compare("pv O", o, wo, 16 * DV, DV, "head", "dim");

    /* bf16 (bf16_wgmma) */
    static uint16_t bk[BN * D], bq[16 * D], bp[16 * BN];
    for (int i = 0; i < BN * D; i++) bk[i] = rnd_bf16(&st, 0, &fk[i]);
    for (int i = 0; i < 16 * D; i++) bq[i] = rnd_bf16(&st, 0, &fq[i]);
    for (int i = 0; i < 16 * BN; i++) bp[i] = rnd_bf16(&st, 1, &fp[i]);
    uint16_t *dbk, *dbq, *dbp;
    cudaMalloc(&dbk, sizeof bk); cudaMalloc(&dbq, sizeof bq); cudaMalloc(&dbp, sizeof bp);
    cudaMemcpy(dbk, bk, sizeof bk, cudaMemcpyHostToDevice);
    cudaMemcpy(dbq, bq, sizeof bq, cudaMemcpyHostToDevice);
    cudaMemcpy(dbp, bp, sizeof bp, cudaMemcpyHostToDevice);
    cudaFuncSetAttribute(k_b16, cudaFuncAttributeMaxDynamicSharedMemorySize, B16_SMEM);
    k_b16<<<1, 128, B16_SMEM>>>(dbk, dbq, dbp, ds, dout);
    if (cudaMemcpy(s, ds, 4 * BN * 16, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("bf16 kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    reference(fk, fq, fp, ws, wo);
    bad |= compare("bf16 qk S^T (K-major, 128-byte swizzle)", s, ws, BN * 16, 16, "kv row", "head");
    bad |= compare("bf16 pv O (V^T transposed, 128-byte swizzle)", o, wo, 16 * DV, DV, "head", "dim");
    return bad;
#endif
}
