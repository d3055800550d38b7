// mx_direct_read.cu: can the MXFP4 producers read their raw bytes straight
// from global memory at the read limit (perf-notes v45, WG_MX_DIRECT; v46:
// +24..+29% slower, removed, its code at 0583cb8)? The decode's producers
// (two warpgroups, 256 threads, one block an SM) take a 64-row tile each in
// turn; thread t of a warpgroup loads row r and the 16-byte blocks h, h +
// 2, .., h + 16 of it (9 loads, mlab_mx_prod_item's map: a warp's lanes 32
// rows, the two warps of a row's h = 0 and 1 each reading half of every
// 32-byte sector) and the row's 9 E8M0 bytes. Here
// only those loads (no conversion, no stores: the loads' own ceiling), over
// a cache of R rows (288 + 18 bytes each; 256 x 8192's 2.1 M rows by
// default), each block its contiguous share of tiles, timed cold (a 1 GiB
// memset before every sample; events; median of 7):
//   mx      the producers' map, loads kept in L1 (ld.global.nc), PF own
//           tiles asked for in L2 ahead by cp.async.bulk.prefetch.L2 (0: none)
//   mx_na   the same with L1::no_allocate (every sector from L2 twice)
//   stream  the same bytes, the same threads and blocks, each warp's loads
//           512 contiguous bytes (the read kernel's pattern at this occupancy)
// The loads and prefetches are the vendor layer's (variants/arch/nv_bulk.h),
// the instructions WG_MX_DIRECT's decode issued.
// Prints CSV: kind, prefetch tiles, MB read, median us, GB/s, % of stream.
// Build and run on an NVIDIA GPU of sm_90 or later:
//   nvcc -O3 -arch=sm_90a -o mx_direct_read papers/microbench/mx_direct_read.cu
//   ./mx_direct_read [rows]
#include "mb_util.h" // CK, med
// the loads and the L2 prefetch exactly as WG_MX_DIRECT's decode issued them (the vendor layer)
#define MLAB_CLUSTER_BUILD 1
#include "../../variants/arch/nv_bulk.h" // mlab_ld_nc16, mlab_ld_nc8, mlab_bulk_prefetch_l2

constexpr int BN = 64, ROW = 288, NBLK = 18, TILE = BN * ROW;

#ifdef __CUDA_ARCH__ // (the vendor layer defines them for the device pass only)
template <bool NA> __device__ __forceinline__ uint4 ld16(const uint8_t *p) { return mlab_ld_nc16<NA>(p); }
template <bool NA> __device__ __forceinline__ uint32_t ld1(const uint8_t *p) { return mlab_ld_nc8<NA>(p); }
__device__ __forceinline__ void pf_l2(const void *p, uint32_t bytes) { mlab_bulk_prefetch_l2(p, bytes); }
#else
template <bool NA> __device__ uint4 ld16(const uint8_t *);
template <bool NA> __device__ uint32_t ld1(const uint8_t *);
__device__ void pf_l2(const void *, uint32_t);
#endif

// the block's tiles [t0, t1); warpgroup q takes t0 + q, t0 + q + 2, ..
template <bool NA>
__global__ void __launch_bounds__(256, 1)
    mx_kernel(const uint8_t *fp4, const uint8_t *sc, int ntiles, int pf, uint32_t *sink)
{
    const int per = (ntiles + gridDim.x - 1) / gridDim.x, t0 = blockIdx.x * per, t1 = min(ntiles, t0 + per);
    const int q = threadIdx.x / 128, t = threadIdx.x & 127;
    const int r = (t % 64 & ~12) | ((t % 64 & 4) << 1) | ((t % 64 & 8) >> 1); // rows swapped in bits 2, 3
    const int h = (t / 64) ^ ((r >> 3) & 1);
    uint32_t acc = 0;
    if (t == 0)
        for (int j = 0; j < pf; j++) {
            const int li = t0 + q + 2 * j;
            if (li < t1) {
                pf_l2(fp4 + (size_t)li * TILE, TILE);
                pf_l2(sc + (size_t)li * BN * NBLK, BN * NBLK);
            }
        }
    for (int li = t0 + q; li < t1; li += 2) {
        if (t == 0 && pf > 0 && li + 2 * pf < t1) {
            pf_l2(fp4 + (size_t)(li + 2 * pf) * TILE, TILE);
            pf_l2(sc + (size_t)(li + 2 * pf) * BN * NBLK, BN * NBLK);
        }
        const uint8_t *rw = fp4 + ((size_t)li * BN + r) * ROW + 16 * h, *s = sc + ((size_t)li * BN + r) * NBLK + h;
        uint4 v[9];
        uint32_t b[9];
#pragma unroll
        for (int k = 0; k < 9; k++) {
            v[k] = ld16<NA>(rw + 32 * k);
            b[k] = ld1<NA>(s + 2 * k);
        }
#pragma unroll
        for (int k = 0; k < 9; k++) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w ^ b[k];
    }
    if (acc == 0x9e3779b9u) sink[0] = acc;
}

// the same bytes and threads, each warp's loads contiguous
__global__ void __launch_bounds__(256, 1)
    stream_kernel(const uint8_t *fp4, const uint8_t *sc, int ntiles, uint32_t *sink)
{
    const int per = (ntiles + gridDim.x - 1) / gridDim.x, t0 = blockIdx.x * per, t1 = min(ntiles, t0 + per);
    const int q = threadIdx.x / 128, t = threadIdx.x & 127;
    uint32_t acc = 0;
    for (int li = t0 + q; li < t1; li += 2) {
        const uint4 *rw = (const uint4 *)(fp4 + (size_t)li * TILE);
        uint4 v[9];
#pragma unroll
        for (int k = 0; k < 9; k++) v[k] = rw[k * 128 + t]; // 64 x 288 bytes = 9 x 128 x 16
        const uint32_t b = t < BN * NBLK / 16 ? ((const uint4 *)(sc + (size_t)li * BN * NBLK))[t].x : 0u;
#pragma unroll
        for (int k = 0; k < 9; k++) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
        acc ^= b;
    }
    if (acc == 0x9e3779b9u) sink[0] = acc;
}

int main(int argc, char **argv)
{
    const long rows = argc > 1 ? atol(argv[1]) : 256L * 8192;
    const int ntiles = (int)(rows / BN);
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    uint8_t *fp4, *sc, *flush;
    uint32_t *sink;
    const size_t fbytes = (size_t)ntiles * TILE, sbytes = (size_t)ntiles * BN * NBLK + 256, flush_bytes = 1ull << 30;
    CK(cudaMalloc(&fp4, fbytes));
    CK(cudaMalloc(&sc, sbytes));
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(fp4, 0x35, fbytes));
    CK(cudaMemset(sc, 0x7f, sbytes));
    // one block an SM, as the decode (its ~215 KB of shared memory): asked for here too
    const int smem = 200 * 1024;
    CK(cudaFuncSetAttribute(mx_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(mx_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    const double mb = (fbytes + (double)ntiles * BN * NBLK) / 1e6;
    auto time = [&](auto launch) {
        std::vector<float> us;
        for (int i = 0; i < 8; i++) {
            CK(cudaMemset(flush, i, flush_bytes));
            CK(cudaEventRecord(a));
            launch();
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            CK(cudaGetLastError());
            float ms;
            CK(cudaEventElapsedTime(&ms, a, b));
            if (i > 0) us.push_back(ms * 1000.f); // the first: warm-up
        }
        return med(us);
    };
    printf("kind,prefetch_tiles,mb,median_us,gbs,pct_of_stream\n");
    const float st = time([&] { stream_kernel<<<sms, 256, smem>>>(fp4, sc, ntiles, sink); });
    printf("stream,0,%.1f,%.1f,%.0f,100.0\n", mb, st, mb * 1e3 / st);
    for (int pf : {0, 1, 2, 4}) {
        const float u = time([&] { mx_kernel<false><<<sms, 256, smem>>>(fp4, sc, ntiles, pf, sink); });
        printf("mx,%d,%.1f,%.1f,%.0f,%.1f\n", pf, mb, u, mb * 1e3 / u, 100.0 * st / u);
        const float v = time([&] { mx_kernel<true><<<sms, 256, smem>>>(fp4, sc, ntiles, pf, sink); });
        printf("mx_na,%d,%.1f,%.1f,%.0f,%.1f\n", pf, mb, v, mb * 1e3 / v, 100.0 * st / v);
    }
    return 0;
}
