// flush_probe.cu: does mlabench's cold flush evict what the previous sample
// read? Before each cold sample the runner overwrites a buffer of max(4 x L2,
// 512 MB) by hipMemsetAsync (variants/runner.hip, mlab_gpu_cold), and every
// timing in papers/ is "cold" on that ground. first_tile.cu's Q rows, read
// in an earlier sample and 1 GiB of memset since, came back 0.26 us after
// their block started (papers/perf-notes.md v30): sooner than a DRAM round
// trip. This measures it directly, per flush kind and buffer size S:
//   1. a reader kernel reads buffer A (S bytes: a small call's inputs, as
//      the previous sample would have read them);
//   2. the flush: "memset" (the runner's: cudaMemsetAsync of max(4 x L2,
//      512 MB)), "store" (a kernel storing the same bytes with plain 16-byte
//      stores), "load" (a kernel reading a buffer of that size), or "none";
//   3. the probe, event-timed: one block an SM reads 1/grid of A (16-byte
//      loads, all in flight), recording %globaltimer around its first load
//      and after its last; then the same probe over a fresh range F (S bytes
//      written once at the start, never read since: the DRAM reference).
// Prints, per flush kind and S, medians over 9 samples: the first load's
// latency (median over blocks, us), the probe's span (first block start to
// last block end, us) and its event-timed sample (us), for A and for F. If
// A matches F after a flush, the flush evicted A; if A is faster, some of A
// stayed in L2 and mlabench's "cold" is warm for inputs that small.
// Measured (H200, perf-notes v31, papers/reports/h200-2026-12-03n): after
// the memset, stores or loads A re-reads as F (2 MB: first load 0.70 against
// 0.74 us, span 3.30 against 3.68; 8 and 64 MB within 0.3%); unflushed, from
// L2 (first load 0.45 us, 2 MB span 1.28): the cold flush is cold. Build
// and run on an NVIDIA GPU:
//   nvcc -O3 -arch=sm_90a -o flush_probe papers/microbench/flush_probe.cu && ./flush_probe
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#include "mb_util.h" // CK, gtime, med

__global__ void __launch_bounds__(512) read_all(const uint4 *src, size_t n16, uint32_t *sink)
{
    uint32_t acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = src[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) sink[0] = acc;
}

__global__ void __launch_bounds__(512) store_all(uint4 *dst, size_t n16, uint32_t v)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = make_uint4(v, v, v, v);
}

// rec[b * 3 + 0..2]: block start, its thread 0's first load back, the block's loads all back (ns)
__global__ void __launch_bounds__(256) probe(const uint4 *src, size_t n16, uint32_t *sink, unsigned long long *rec)
{
    __shared__ unsigned long long last;
    const unsigned long long t0 = gtime();
    if (threadIdx.x == 0) last = 0;
    __syncthreads();
    const size_t per = (n16 + gridDim.x - 1) / gridDim.x, lo = (size_t)blockIdx.x * per,
                 hi = lo + per < n16 ? lo + per : n16;
    uint32_t acc = 0;
    unsigned long long t1 = 0;
    if (threadIdx.x == 0 && lo < hi) { // the first load alone: its latency
        const uint4 v = src[lo];
        acc = v.x ^ v.y ^ v.z ^ v.w;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1) : "r"(acc));
    }
    for (size_t i = lo + threadIdx.x; i < hi; i += blockDim.x) {
        const uint4 v = src[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    unsigned long long t2;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t2) : "r"(acc));
    atomicMax(&last, t2);
    if (acc == 0x9e3779b9u) sink[0] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        rec[blockIdx.x * 3 + 0] = t0;
        rec[blockIdx.x * 3 + 1] = t1;
        rec[blockIdx.x * 3 + 2] = last;
    }
}

int main()
{
    int sms = 0, l2 = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    const size_t flush_bytes = std::max((size_t)4 * (size_t)l2, (size_t)512 << 20); // mlab_flush_bytes
    const size_t max_s = 64ull << 20, reps = 9;
    char *flush, *a, *fresh;
    uint32_t *sink;
    unsigned long long *rec;
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMalloc(&a, max_s));
    const size_t nfresh = 4 * 3 * reps; // a fresh range for every sample of every flush kind and size
    CK(cudaMalloc(&fresh, max_s * nfresh));
    CK(cudaMemset(flush, 0, flush_bytes));
    CK(cudaMemset(a, 1, max_s));
    CK(cudaMemset(fresh, 2, max_s * nfresh));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMalloc(&rec, (size_t)sms * 3 * 8));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<unsigned long long> r((size_t)sms * 3);
    // nothing of the set-up left in L2 (both ways, whichever works)
    store_all<<<sms * 2, 512>>>((uint4 *)flush, flush_bytes / 16, 7u);
    read_all<<<sms * 2, 512>>>((const uint4 *)flush, flush_bytes / 16, sink);
    CK(cudaDeviceSynchronize());
    // one probe: first-load latency (median over blocks), span, event sample (us)
    auto run_probe = [&](const char *src, size_t bytes, double out[3]) {
        CK(cudaEventRecord(e0));
        probe<<<sms, 256>>>((const uint4 *)src, bytes / 16, sink, rec);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        CK(cudaMemcpy(r.data(), rec, r.size() * 8, cudaMemcpyDeviceToHost));
        unsigned long long s0 = ~0ull, s1 = 0;
        std::vector<double> lat;
        for (int b = 0; b < sms; b++) {
            s0 = std::min(s0, r[b * 3]);
            s1 = std::max(s1, r[b * 3 + 2]);
            if (r[b * 3 + 1]) lat.push_back((r[b * 3 + 1] - r[b * 3]) * 1e-3);
        }
        out[0] = lat.empty() ? 0 : med(lat);
        out[1] = (s1 - s0) * 1e-3;
        out[2] = ms * 1e3;
    };
    static const char *kinds[4] = {"memset", "store", "load", "none"};
    const size_t sizes[3] = {2ull << 20, 8ull << 20, 64ull << 20};
    printf("flush,bytes_MB,A_first_load_us,A_span_us,A_event_us,fresh_first_load_us,fresh_span_us,fresh_event_us\n");
    for (int k = 0; k < 4; k++)
        for (int si = 0; si < 3; si++) {
            const size_t s = sizes[si];
            std::vector<double> v[6];
            for (size_t rep = 0; rep < reps; rep++) {
                read_all<<<sms * 2, 512>>>((const uint4 *)a, s / 16, sink); // the previous sample's reads
                if (k == 0) CK(cudaMemsetAsync(flush, (int)(rep & 0xff), flush_bytes));
                if (k == 1) store_all<<<sms * 2, 512>>>((uint4 *)flush, flush_bytes / 16, (uint32_t)rep);
                if (k == 2) read_all<<<sms * 2, 512>>>((const uint4 *)flush, flush_bytes / 16, sink);
                double pa[3], pf[3];
                run_probe(a, s, pa);
                // the fresh range: its own flush first, so both probes follow the same flush
                if (k == 0) CK(cudaMemsetAsync(flush, (int)(rep & 0xff), flush_bytes));
                if (k == 1) store_all<<<sms * 2, 512>>>((uint4 *)flush, flush_bytes / 16, (uint32_t)rep);
                if (k == 2) read_all<<<sms * 2, 512>>>((const uint4 *)flush, flush_bytes / 16, sink);
                run_probe(fresh + ((size_t)(k * 3 + si) * reps + rep) * max_s, s, pf);
                for (int j = 0; j < 3; j++) {
                    v[j].push_back(pa[j]);
                    v[3 + j].push_back(pf[j]);
                }
            }
            printf("%s,%zu,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n", kinds[k], s >> 20, med(v[0]), med(v[1]), med(v[2]),
                   med(v[3]), med(v[4]), med(v[5]));
        }
    return 0;
}
