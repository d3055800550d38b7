// load_behind.cu: what one small L2 load costs behind a block's tiles in
// flight. The a8w8 decodes read the Q amax (the amax pass's per-block maxima,
// just written, in L2) once the grid dependency releases them, while their
// first tiles are already streaming in; on the H200 that load took 1.2 us at
// 4 x 1024 (one 36 KB tile a block in flight) and 4.4 us at 256 x 1024 (four,
// on every SM) (papers/perf-notes.md v27). This times it alone: cold (a
// 1 GiB memset evicts L2 before every sample, as mlabench's cold samples), a
// writer kernel puts N floats into a small buffer (the maxima), then B blocks
// each have thread 0 issue K KB of bulk copies (a ring's first fills) at its
// start, and warp 1 wait D ns (the release) and then load the N floats
// (every lane its share at once, as q_fp8_row does) and take their maximum.
// Prints, per shape, medians over 9 samples of the medians over blocks: the
// load's latency (issue to the maximum known), and the copies' landing, both
// in us from each block's start. Build and run on an NVIDIA GPU of sm_90 or
// later:
//   nvcc -O3 -arch=sm_90a -o load_behind papers/microbench/load_behind.cu && ./load_behind
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#include "mb_util.h" // CK, gtime, sa, med

__global__ void writer(float *maxima, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) maxima[i] = (float)(i % 97);
}

// rec[b * 4 + 0..3]: the load's issue, the maximum known, the copies landed (ns from the block's start); sink
__global__ void __launch_bounds__(64) behind(const char *src, int bytes, const float *maxima, int n, long long delay,
                                             long long *rec, float *sink)
{
    extern __shared__ __align__(128) char smem[];
    uint64_t *bar = (uint64_t *)smem;
    char *buf = smem + 128;
    const unsigned long long t0 = gtime();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(bar)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        if (bytes > 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(bar)), "r"(bytes) : "memory");
            const char *g = src + (size_t)blockIdx.x * bytes;
            for (int off = 0; off < bytes; off += 36 * 1024) { /* a 36 KB stage a copy */
                const int c = bytes - off < 36 * 1024 ? bytes - off : 36 * 1024;
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                             ::"r"(sa(buf + off)), "l"(g + off), "r"(c), "r"(sa(bar)) : "memory");
            }
            asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n@!p bra W_%=;\n}\n"
                         ::"r"(sa(bar)) : "memory");
        }
        rec[blockIdx.x * 4 + 2] = (long long)(gtime() - t0);
    } else if (threadIdx.x >= 32) {
        const int lane = threadIdx.x - 32;
        while ((long long)(gtime() - t0) < delay) {
        }
        const unsigned long long t1 = gtime();
        float m = 0.f;
        for (int i = lane; i < n; i += 32) m = fmaxf(m, maxima[i]);
        for (int k = 16; k; k >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, k));
        const unsigned long long t2 = gtime();
        if (lane == 0) {
            rec[blockIdx.x * 4 + 0] = (long long)(t1 - t0);
            rec[blockIdx.x * 4 + 1] = (long long)(t2 - t0);
            if (m == -1.f) sink[0] = m;
        }
    }
}

int main()
{
    const size_t flush_bytes = 1ull << 30, src_bytes = 256ull << 20;
    char *flush, *src;
    float *maxima, *sink;
    long long *rec;
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMalloc(&src, src_bytes));
    CK(cudaMemset(src, 1, src_bytes));
    CK(cudaMalloc(&maxima, 4096 * sizeof(float)));
    CK(cudaMalloc(&sink, sizeof(float)));
    CK(cudaMalloc(&rec, 4096 * 4 * sizeof(long long)));
    CK(cudaFuncSetAttribute(behind, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    struct Shape { int blocks, kb, n; long long delay; };
    const Shape shapes[] = {{64, 0, 18, 1000},   {64, 36, 18, 1000},   {64, 72, 18, 1000},
                            {132, 0, 264, 1500}, {132, 36, 264, 1500}, {132, 144, 264, 1500},
                            {132, 144, 264, 3000}};
    printf("blocks,KB_in_flight,maxima,delay_us,load_us_med,load_us_max,copies_landed_us_med\n");
    for (const Shape &sh : shapes) {
        std::vector<double> lm, lx, cl;
        for (int rep = 0; rep < 9; rep++) {
            CK(cudaMemsetAsync(flush, rep & 0xff, flush_bytes));
            writer<<<1, 256>>>(maxima, sh.n);
            const size_t off = (size_t)(rep % 4) * (64ull << 20); /* a fresh range each sample */
            behind<<<sh.blocks, 64, 128 + sh.kb * 1024>>>(src + off, sh.kb * 1024, maxima, sh.n, sh.delay, rec, sink);
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
            std::vector<long long> r((size_t)sh.blocks * 4);
            CK(cudaMemcpy(r.data(), rec, r.size() * sizeof(long long), cudaMemcpyDeviceToHost));
            std::vector<double> l, c;
            for (int b = 0; b < sh.blocks; b++) {
                l.push_back((r[b * 4 + 1] - r[b * 4 + 0]) * 1e-3);
                c.push_back(r[b * 4 + 2] * 1e-3);
            }
            lm.push_back(med(l));
            lx.push_back(*std::max_element(l.begin(), l.end()));
            cl.push_back(med(c));
        }
        printf("%d,%d,%d,%.1f,%.2f,%.2f,%.2f\n", sh.blocks, sh.kb, sh.n, sh.delay * 1e-3, med(lm), med(lx), med(cl));
    }
    return 0;
}
