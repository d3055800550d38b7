// first_tile.cu: how soon a short call's first tile can be in shared memory.
// A short decode call (4 x 1024: 64 blocks, one 36 KB (fp8) or 72 KB (bf16)
// tile each) has its first tile landed ~3.3-4.1 us after its first block
// starts (papers/perf-notes.md v25-v26), while the read-limit kernel reads
// the whole call's bytes in ~2.2 us after the empty kernel's cold cost. This
// times, cold (a 1 GiB memset evicts L2 before every sample, as mlabench's
// cold samples), B blocks each bringing C bytes of one contiguous range into
// shared memory, by %globaltimer in every block:
//   bulk: thread 0 issues the range as P pieces of cp.async.bulk (the copy
//         engine of the wgmma decodes' tensor copies), one mbarrier a piece;
//         recorded: the block's start, the first piece landed, the last
//   ldg:  256 threads load the range by 16-byte loads, all in flight, and
//         store it to shared memory; recorded: start, every thread's loads back
//   read: the read-limit kernel's shape (every SM, grid-strided 16-byte
//         loads, no shared memory) over the same B x C bytes; start, end
//   tma_g, tma_p: the decodes' tensor copies: a block's 64 rows of C / 64
//         bytes (576: fp8, 1152: bf16) as 9 boxes of 64 rows x C / 576
//         bytes in the 64- or 128-byte swizzle, one mbarrier a box; the
//         tensor map in global memory (tma_g, as the runner passes it:
//         mla_params.kv_tmap, fetched cold after the flush) or a
//         __grid_constant__ kernel parameter (tma_p)
// Prints, per kind and shape, medians over 9 samples of: the first block's
// start to each block's first / last bytes (median and max over blocks; the
// dec_* kinds: the tile landed / the Q row's loads back), and the event-timed
// sample. Build and run on an NVIDIA GPU of sm_90 or later:
//   nvcc -O3 -arch=sm_90a -o first_tile papers/microbench/first_tile.cu && ./first_tile
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda.h>
#include <cuda_runtime.h>

#include "mb_util.h" // CK, gtime, sa, med

// rec[b * 4 + 0..2]: start, first bytes, last bytes (ns)
__global__ void __launch_bounds__(256) bulk_kernel(const char *src, int chunk, int pieces, unsigned long long *rec)
{
    extern __shared__ __align__(128) char smem[];
    uint64_t *bar = (uint64_t *)smem;
    char *buf = smem + 128;
    const unsigned long long t0 = gtime();
    if (threadIdx.x == 0) {
        for (int i = 0; i < pieces; i++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(bar + i)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        const int piece = chunk / pieces;
        const char *g = src + (size_t)blockIdx.x * chunk;
        for (int i = 0; i < pieces; i++) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(bar + i)), "r"(piece) : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                         ::"r"(sa(buf + i * piece)), "l"(g + i * piece), "r"(piece), "r"(sa(bar + i)) : "memory");
        }
        unsigned long long t1 = 0;
        for (int i = 0; i < pieces; i++) {
            asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n@!p bra W_%=;\n}\n"
                         ::"r"(sa(bar + i)) : "memory");
            if (i == 0) t1 = gtime();
        }
        const unsigned long long t2 = gtime();
        rec[blockIdx.x * 4 + 0] = t0;
        rec[blockIdx.x * 4 + 1] = t1;
        rec[blockIdx.x * 4 + 2] = t2;
    }
}

__global__ void __launch_bounds__(256) ldg_kernel(const char *src, int chunk, unsigned long long *rec)
{
    extern __shared__ __align__(128) char smem[];
    __shared__ unsigned long long tmin, tmax;
    const unsigned long long t0 = gtime();
    if (threadIdx.x == 0) { tmin = ~0ull; tmax = 0; }
    __syncthreads();
    const uint4 *g = (const uint4 *)(src + (size_t)blockIdx.x * chunk);
    const int n = chunk / 16, per = (n + 255) / 256;
    constexpr int MAXU = 18; // 72 KB / 256 threads / 16 bytes
    uint4 v[MAXU];
#pragma unroll
    for (int u = 0; u < MAXU; u++)
        if (u < per && threadIdx.x + u * 256 < n) v[u] = g[threadIdx.x + u * 256];
#pragma unroll
    for (int u = 0; u < MAXU; u++)
        if (u < per && threadIdx.x + u * 256 < n) ((uint4 *)smem)[threadIdx.x + u * 256] = v[u];
    const unsigned long long t = gtime();
    atomicMin(&tmin, t);
    atomicMax(&tmax, t);
    __syncthreads();
    if (threadIdx.x == 0) {
        rec[blockIdx.x * 4 + 0] = t0;
        rec[blockIdx.x * 4 + 1] = tmin;
        rec[blockIdx.x * 4 + 2] = tmax;
    }
}

__global__ void __launch_bounds__(512) read_kernel(const uint4 *src, size_t n16, uint32_t *sink, unsigned long long *rec)
{
    const unsigned long long t0 = gtime();
    uint32_t acc = 0;
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += step) {
        const uint4 v = src[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) sink[0] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned long long t = gtime();
        rec[blockIdx.x * 4 + 0] = t0;
        rec[blockIdx.x * 4 + 1] = t;
        rec[blockIdx.x * 4 + 2] = t;
    }
}

// rec as bulk_kernel's; map: the global copy (gmap) or the parameter (pmap)
__global__ void __launch_bounds__(128) tma_kernel(const CUtensorMap *gmap, const __grid_constant__ CUtensorMap pmap,
                                                  int use_param, int box, unsigned long long *rec)
{
    extern __shared__ __align__(1024) char smem_raw[];
    char *buf = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    __shared__ uint64_t bar[9];
    const unsigned long long t0 = gtime();
    if (threadIdx.x == 0) {
        const void *map = use_param ? (const void *)&pmap : (const void *)gmap;
        asm volatile("prefetch.tensormap [%0];" ::"l"((unsigned long long)map) : "memory");
        for (int i = 0; i < 9; i++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(bar + i)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        const int bytes = 64 * box;
        for (int i = 0; i < 9; i++) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(bar + i)), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         ::"r"(sa(buf + i * bytes)), "l"((unsigned long long)map), "r"(i * box), "r"((int)blockIdx.x * 64),
                         "r"(sa(bar + i)) : "memory");
        }
        unsigned long long t1 = 0;
        for (int i = 0; i < 9; i++) {
            asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n@!p bra W_%=;\n}\n"
                         ::"r"(sa(bar + i)) : "memory");
            if (i == 0) t1 = gtime();
        }
        rec[blockIdx.x * 4 + 0] = t0;
        rec[blockIdx.x * 4 + 1] = t1;
        rec[blockIdx.x * 4 + 2] = gtime();
    }
}

// dec_*: the same tensor copies from a block of the wgmma decodes' shape (384
// threads, 220 KB of dynamic shared memory): thread 0 initializes the
// mbarrier, a block barrier, then thread 256 (the producer) issues the 9
// boxes of its tile (the map a __grid_constant__ parameter); threads 0..255
// (the consumers) load a bf16 Q row of 18 KB (16 blocks a row, 16-byte loads,
// 4.5 a thread, into registers as q_fp8_load) before the block barrier
// (qmode 1: WG_Q_EARLY), after the tile is issued (2: the decodes before
// it), or not at all (0). rec: start, the tile landed (thread 256), the
// last consumer's Q loads back (0 without). Caveat (run 1, perf-notes v30):
// the Q rows (like every kind's source ranges) repeat every 4 samples, and
// their loads came back 0.26 us after the first block start, sooner than a
// DRAM round trip. v30 suspected the memset had not evicted them from L2;
// flush_probe.cu (v31, papers/reports/h200-2026-12-03n) showed it does
// evict a sample's reads, so what made these Q loads that fast is not known
__global__ void __launch_bounds__(384, 1) dec_kernel(const __grid_constant__ CUtensorMap pmap, const char *q, int qmode,
                                                     int box, unsigned long long *rec)
{
    extern __shared__ __align__(1024) char smem_raw[];
    char *buf = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    __shared__ uint64_t bar;
    __shared__ unsigned long long qback;
    __shared__ volatile int issued;
    const unsigned long long t0 = gtime();
    const int t = threadIdx.x;
    const uint4 *qg = (const uint4 *)(q + (size_t)(blockIdx.x / 16) * 16 * 576 * 2);
    uint4 v[5];
    auto qload = [&] {
#pragma unroll
        for (int j = 0; j < 5; j++) v[j] = t + j * 256 < 1152 ? qg[t + j * 256] : make_uint4(0, 0, 0, 0);
    };
    if (t == 0) {
        qback = 0;
        issued = 0;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    if (qmode == 1 && t < 256) qload();
    __syncthreads();
    if (t == 256) {
        const int bytes = 64 * box;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)), "r"(9 * bytes) : "memory");
        for (int i = 0; i < 9; i++)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         ::"r"(sa(buf + i * bytes)), "l"((unsigned long long)&pmap), "r"(i * box), "r"((int)blockIdx.x * 64),
                         "r"(sa(&bar)) : "memory");
        issued = 1;
        asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n@!p bra W_%=;\n}\n"
                     ::"r"(sa(&bar)) : "memory");
        rec[blockIdx.x * 4 + 1] = gtime();
    }
    if (qmode && t < 256) {
        if (qmode == 2) {
            while (!issued) {}
            qload();
        }
        uint32_t x = 0;
#pragma unroll
        for (int j = 0; j < 5; j++) x ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
        unsigned long long tq;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(tq) : "r"(x));
        atomicMax(&qback, tq);
    }
    __syncthreads();
    if (t == 0) {
        rec[blockIdx.x * 4 + 0] = t0;
        rec[blockIdx.x * 4 + 2] = qback;
    }
}

// a map of rows of 9 * box bytes, boxes of 64 rows x box bytes, swizzled as
// the decodes' tiles (the driver's encoder by its entry point: no -lcuda)
static CUtensorMap make_map(void *base, size_t rows, int box)
{
    typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    CUtensorMap m;
    const cuuint64_t dims[2] = {(cuuint64_t)(9 * box), (cuuint64_t)rows}, strides[1] = {(cuuint64_t)(9 * box)};
    const cuuint32_t boxd[2] = {(cuuint32_t)box, 64}, es[2] = {1, 1};
    const CUresult r = q == cudaDriverEntryPointSuccess && fn
                           ? ((encode_fn)fn)(&m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, base, dims, strides, boxd, es,
                                             CU_TENSOR_MAP_INTERLEAVE_NONE,
                                             box == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
                                             CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
                           : CUDA_ERROR_NOT_FOUND;
    if (r != CUDA_SUCCESS) { fprintf(stderr, "cuTensorMapEncodeTiled: %d\n", (int)r); exit(1); }
    return m;
}

int main()
{
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t flush_bytes = 1ull << 30, src_bytes = 256ull << 20;
    char *flush, *src;
    uint32_t *sink;
    unsigned long long *rec;
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMalloc(&src, src_bytes));
    CK(cudaMemset(src, 1, src_bytes));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMalloc(&rec, 4096 * 4 * 8));
    CUtensorMap *gmap;
    CK(cudaMalloc(&gmap, sizeof(CUtensorMap)));
    CK(cudaFuncSetAttribute(bulk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(ldg_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CK(cudaFuncSetAttribute(dec_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
    char *qbuf;
    CK(cudaMalloc(&qbuf, 64ull << 20));
    CK(cudaMemset(qbuf, 1, 64ull << 20));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    struct Shape { int blocks, kb, pieces; };
    const Shape shapes[] = {{64, 36, 9}, {64, 72, 9}, {64, 72, 1 * 3}, {128, 36, 9}, {128, 18, 9}, {132, 72, 9}};
    printf("kind,blocks,KB_a_block,pieces,first_med_us,first_max_us,last_med_us,last_max_us,event_us\n");
    for (const Shape &sh : shapes)
        for (int kind = 0; kind < 8; kind++) {
            const int chunk = sh.kb * 1024;
            if (kind >= 3 && ((sh.kb != 36 && sh.kb != 72) || sh.pieces != 9)) continue; /* tiles of 64 rows of 576 or 1152 bytes */
            if (kind >= 5 && sh.blocks != 64) continue; /* the decode's shape: 4 x 1024's 64 blocks */
            const int box = sh.kb == 72 ? 128 : 64;
            std::vector<double> fmed, fmax, lmed, lmax, ev;
            for (int rep = 0; rep < 9; rep++) {
                CK(cudaMemsetAsync(flush, rep & 0xff, flush_bytes));
                const size_t off = (size_t)(rep % 4) * (64ull << 20); // a fresh range each sample
                CK(cudaEventRecord(e0));
                int grid = sh.blocks;
                if (kind == 0)
                    bulk_kernel<<<sh.blocks, 256, 128 + chunk>>>(src + off, chunk, sh.pieces, rec);
                else if (kind == 1)
                    ldg_kernel<<<sh.blocks, 256, chunk>>>(src + off, chunk, rec);
                else if (kind >= 3) {
                    const size_t rows = (64ull << 20) / (9 * box);
                    const CUtensorMap m = make_map(src + off, rows, box);
                    CK(cudaMemcpy(gmap, &m, sizeof m, cudaMemcpyHostToDevice)); /* before the flush: cold as the runner's */
                    CK(cudaMemsetAsync(flush, rep & 0xff, flush_bytes));
                    CK(cudaEventRecord(e0));
                    if (kind >= 5)
                        dec_kernel<<<sh.blocks, 384, 220 * 1024>>>(m, qbuf + (size_t)(rep % 4) * (8ull << 20), kind - 5, box, rec);
                    else
                        tma_kernel<<<sh.blocks, 128, 9 * 64 * box + 1024>>>(gmap, m, kind == 4, box, rec);
                } else {
                    grid = sms * 2;
                    read_kernel<<<grid, 512>>>((const uint4 *)(src + off), (size_t)sh.blocks * chunk / 16, sink, rec);
                }
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                CK(cudaGetLastError());
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                std::vector<unsigned long long> r((size_t)grid * 4);
                CK(cudaMemcpy(r.data(), rec, r.size() * 8, cudaMemcpyDeviceToHost));
                unsigned long long t0 = ~0ull;
                for (int b = 0; b < grid; b++) t0 = std::min(t0, r[b * 4]);
                std::vector<double> f, l;
                for (int b = 0; b < grid; b++) {
                    f.push_back((r[b * 4 + 1] - t0) * 1e-3);
                    l.push_back(r[b * 4 + 2] ? (r[b * 4 + 2] - t0) * 1e-3 : 0.); /* dec_noq: no Q */
                }
                fmed.push_back(med(f));
                fmax.push_back(*std::max_element(f.begin(), f.end()));
                lmed.push_back(med(l));
                lmax.push_back(*std::max_element(l.begin(), l.end()));
                ev.push_back(ms * 1e3);
            }
            static const char *names[8] = {"bulk", "ldg", "read", "tma_g", "tma_p", "dec_noq", "dec_qfirst", "dec_qafter"};
            printf("%s,%d,%d,%d,%.2f,%.2f,%.2f,%.2f,%.2f\n", names[kind], sh.blocks, sh.kb, kind == 1 || kind == 2 ? 0 : sh.pieces,
                   med(fmed), med(fmax), med(lmed), med(lmax), med(ev));
        }
    return 0;
}
