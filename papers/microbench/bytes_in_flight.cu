// bytes_in_flight.cu: how many bytes in flight an SM needs to stream at the
// read limit (Little's law, measured). Two readers of one buffer, each timed
// cold (a 1 GiB memset evicts L2 before every sample; events; median of 7):
//   ldg:  mlabench's read-limit kernel (variants/runner.hip): grid-strided
//         16-byte loads, U in flight a thread, T threads, B blocks an SM:
//         B * T * U * 16 bytes in flight an SM
//   bulk: one block an SM streaming one contiguous range (as a decode block
//         streams its split's tiles) through a ring of S stages of C bytes
//         filled by cp.async.bulk, the copy engine of the wgmma decodes'
//         tensor copies; one warp releases each stage as soon as it lands:
//         S * C bytes in flight an SM
// Prints CSV: kind, C or T, S or U, blocks an SM, KB in flight an SM, MB read,
// median us, GB/s. Build and run on an NVIDIA GPU of sm_90 or later:
//   nvcc -O3 -arch=sm_90a -o bytes_in_flight papers/microbench/bytes_in_flight.cu
//   ./bytes_in_flight 150; ./bytes_in_flight 600      (MB read)
// Measured on the H200: papers/reports/h200-2026-12-02j/README.md
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#include "mb_util.h" // CK, gtime, sa, med

template <int U>
__global__ void __launch_bounds__(512) ldg_kernel(const uint4 *src, size_t n16, uint32_t *sink)
{
    uint32_t acc = 0;
    const size_t step = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (U - 1) * step < n16; i += U * step) {
        uint4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = src[i + u * step];
#pragma unroll
        for (int u = 0; u < U; u++) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < n16; i += step) { uint4 v = src[i]; acc ^= v.x ^ v.y ^ v.z ^ v.w; }
    if (acc == 0x9e3779b9u) sink[0] = acc;
}

__device__ __forceinline__ void bar_init(uint64_t *b) { asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(b)) : "memory"); }
__device__ __forceinline__ void bar_wait(uint64_t *b, uint32_t par)
{
    asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W_%=;\n}\n" ::"r"(sa(b)), "r"(par) : "memory");
}
__device__ __forceinline__ void bar_arrive(uint64_t *b) { asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(b)) : "memory"); }

// chunk bytes (multiple of 16, <= 64 KB a copy: split into copies of <= 32 KB)
__global__ void __launch_bounds__(64) bulk_kernel(const char *src, size_t nchunks, int chunk, int stages, uint32_t *sink)
{
    extern __shared__ __align__(128) char smem[];
    uint64_t *full = (uint64_t *)smem, *empty = full + 8;
    char *ring = smem + 128;
    const size_t c0 = nchunks * blockIdx.x / gridDim.x, c1 = nchunks * (blockIdx.x + 1) / gridDim.x;
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; s++) { bar_init(full + s); bar_init(empty + s); }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) { // producer
        for (size_t i = c0; i < c1; i++) {
            const size_t k = i - c0;
            const int s = (int)(k % stages);
            if (k >= (size_t)stages) bar_wait(empty + s, (uint32_t)((k / stages - 1) & 1));
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(full + s)), "r"(chunk) : "memory");
            for (int off = 0; off < chunk; off += 32768) {
                const int n = chunk - off < 32768 ? chunk - off : 32768;
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                                 sa(ring + (size_t)s * chunk + off)),
                             "l"(src + i * chunk + off), "r"(n), "r"(sa(full + s))
                             : "memory");
            }
        }
    } else if (threadIdx.x >= 32) { // consumer warp
        const int lane = threadIdx.x - 32;
        uint32_t acc = 0;
        for (size_t i = c0; i < c1; i++) {
            const size_t k = i - c0;
            const int s = (int)(k % stages);
            bar_wait(full + s, (uint32_t)((k / stages) & 1));
            const uint4 v = *(const uint4 *)(ring + (size_t)s * chunk + 16 * lane);
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
            __syncwarp();
            if (lane == 0) bar_arrive(empty + s);
        }
        if (acc == 0x9e3779b9u) sink[0] = acc;
    }
}


int main(int argc, char **argv)
{
    const size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 150;
    const size_t bytes = mb << 20;
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    char *buf, *flush; uint32_t *sink;
    const size_t fb = (size_t)1 << 30;
    CK(cudaMalloc(&buf, bytes + (1 << 20))); CK(cudaMalloc(&flush, fb)); CK(cudaMalloc(&sink, 64));
    CK(cudaMemset(buf, 0x5a, bytes + (1 << 20)));
    CK(cudaFuncSetAttribute(bulk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    auto timeit = [&](auto launch) {
        launch(); CK(cudaDeviceSynchronize());
        std::vector<float> t;
        for (int k = 0; k < 7; k++) {
            CK(cudaMemsetAsync(flush, k, fb));
            CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms * 1000.f);
        }
        CK(cudaGetLastError());
        return med(t);
    };
    printf("kind,c_or_t,s_or_u,blocks_per_sm,inflight_kb,mb,us,gbs\n");
    const size_t n16 = bytes / 16;
    for (int B : {1, 2, 4})
        for (int T : {256, 512})
            for (int U : {1, 2, 4, 8}) {
                if (B * T > 2048) continue;
                float us = timeit([&] {
                    const int g = sms * B;
                    if (U == 1) ldg_kernel<1><<<g, T>>>((const uint4 *)buf, n16, sink);
                    if (U == 2) ldg_kernel<2><<<g, T>>>((const uint4 *)buf, n16, sink);
                    if (U == 4) ldg_kernel<4><<<g, T>>>((const uint4 *)buf, n16, sink);
                    if (U == 8) ldg_kernel<8><<<g, T>>>((const uint4 *)buf, n16, sink);
                });
                printf("ldg,%d,%d,%d,%.1f,%zu,%.2f,%.0f\n", T, U, B, B * T * U * 16 / 1024.0, mb, us, bytes / (us * 1e-6) / 1e9);
            }
    for (int C : {9216, 18432, 36864, 73728})
        for (int S = 1; S <= 8; S++) {
            if ((size_t)C * S + 128 > 227 * 1024) continue;
            const size_t nch = bytes / C;
            float us = timeit([&] { bulk_kernel<<<sms, 64, C * S + 128>>>(buf, nch, C, S, sink); });
            printf("bulk,%d,%d,1,%.1f,%zu,%.2f,%.0f\n", C, S, C * S / 1024.0, mb, us, nch * (double)C / (us * 1e-6) / 1e9);
        }
    return 0;
}
