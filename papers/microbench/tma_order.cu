// tma_order.cu: does the order in which a tensor copy walks a KV tile cost
// read rate? The wgmma decodes (and the a8w8 mma.sync core) load a 64-row
// tile as 9 boxes of 64 rows x P bytes ("panels": P = 64 for fp8 rows of 576
// bytes, 128 for bf16 rows of 1152), so DRAM sees each row's bytes in 9 pieces
// far apart in time, and each box spans the whole tile. A 4-D view of the same
// cache (bytes of a panel, 8 rows, 9 panels, 8 row groups) lands the same
// swizzled atoms (8 rows x P bytes) with a different stride between row groups
// (9 P x 8 instead of 8 P) in ONE copy that walks 8 rows (9 or 4.5 KB,
// contiguous in global memory) at a time. One block an SM streams its
// contiguous range of tiles through a ring of S stages, as a decode block
// streams its split (bytes_in_flight.cu's bulk reader, whose one 1-D copy a
// stage is the third form here: the same bytes, no swizzle, the order of
// memory). Each sample cold (a 1 GiB memset evicts L2 first), events, median
// of 9. CSV: kind (box9_<L2 promotion> / box9_noswizzle / box3d / box4d /
// bulk / cpasync / bulk_row), row bytes, stages, MB, us, GB/s;
// then a check that both maps land a tile where the address functions say
// (the 4-D form's: row group g = r / 8 outermost, its 9 panels of 8 rows).
//   nvcc -O3 -arch=sm_90a -o tma_order papers/microbench/tma_order.cu
//   ./tma_order 600; ./tma_order 150          (MB read)
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(uint64_t *b) { asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(b)) : "memory"); }
__device__ __forceinline__ void bar_wait(uint64_t *b, uint32_t par)
{
    asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W_%=;\n}\n" ::"r"(sa(b)), "r"(par) : "memory");
}
__device__ __forceinline__ void bar_arrive(uint64_t *b) { asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(b)) : "memory"); }

// the consumer warp: wait for each stage, touch it, release it
__device__ void consume(const char *ring, uint64_t *full, uint64_t *empty, int tile, int t0, int t1, int stages,
                        int lane, uint32_t *sink)
{
    uint32_t acc = 0;
    for (int i = t0; i < t1; i++) {
        const int k = i - t0, s = k % stages;
        bar_wait(full + s, (uint32_t)((k / stages) & 1));
        const uint4 v = *(const uint4 *)(ring + (size_t)s * tile + 16 * lane);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
        __syncwarp();
        if (lane == 0) bar_arrive(empty + s);
    }
    if (acc == 0x9e3779b9u) sink[0] = acc;
}

// one thread: tile i (64 rows of rowb bytes) into dst, counted on bar (its bytes expected by the caller).
// KIND 0: 9 2-D boxes of (P bytes, 64 rows) a tile; 1: one 4-D box; 2: 1-D bulk copies (<= 36 KB pieces);
// 3: one 3-D box (P bytes, 64 rows, 9 panels): the 9 boxes' layout in one copy; 4: a 1-D bulk copy a row
template <int KIND>
__device__ void issue_tile(const CUtensorMap &map, const char *src, char *dst, int i, int rowb, uint64_t *bar)
{
    const int tile = 64 * rowb, P = rowb / 9;
    if (KIND == 0) {
        for (int q = 0; q < 9; q++)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(sa(dst + q * 64 * P)),
                         "l"((unsigned long long)&map), "r"(q * P), "r"(64 * i), "r"(sa(bar))
                         : "memory");
    } else if (KIND == 1) {
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(sa(dst)),
                     "l"((unsigned long long)&map), "r"(0), "r"(64 * i), "r"(0), "r"(0), "r"(sa(bar))
                     : "memory");
    } else if (KIND == 3) {
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(sa(dst)),
                     "l"((unsigned long long)&map), "r"(0), "r"(64 * i), "r"(0), "r"(sa(bar))
                     : "memory");
    } else if (KIND == 4) {
        for (int r = 0; r < 64; r++)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                             sa(dst + r * rowb)), "l"(src + (size_t)i * tile + (size_t)r * rowb), "r"(rowb), "r"(sa(bar))
                         : "memory");
    } else {
        for (int off = 0; off < tile; off += 36864) {
            const int n = tile - off < 36864 ? tile - off : 36864;
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                             sa(dst + off)), "l"(src + (size_t)i * tile + off), "r"(n), "r"(sa(bar))
                         : "memory");
        }
    }
}

// one block an SM: thread 0 issues the tiles of its range (issue_tile<KIND>), warp 1 consumes them
template <int KIND>
__global__ void __launch_bounds__(64) tile_kernel(const __grid_constant__ CUtensorMap map, const char *src, int ntiles,
                                                  int rowb, int stages, uint32_t *sink)
{
    extern __shared__ __align__(1024) char smem_raw[];
    char *smem = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    uint64_t *full = (uint64_t *)smem, *empty = full + 8;
    char *ring = smem + 1024;
    const int tile = 64 * rowb;
    const int t0 = (int)((long long)ntiles * blockIdx.x / gridDim.x), t1 = (int)((long long)ntiles * (blockIdx.x + 1) / gridDim.x);
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; s++) { bar_init(full + s); bar_init(empty + s); }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((unsigned long long)&map) : "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) { // producer
        for (int i = t0; i < t1; i++) {
            const int k = i - t0, s = k % stages;
            if (k >= stages) bar_wait(empty + s, (uint32_t)((k / stages - 1) & 1));
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(full + s)), "r"(tile) : "memory");
            issue_tile<KIND>(map, src, ring + (size_t)s * tile, i, rowb, full + s);
        }
    } else if (threadIdx.x >= 32) {
        consume(ring, full, empty, tile, t0, t1, stages, threadIdx.x - 32, sink);
    }
}

// one tile (tile i) landed by map (KIND 0: 9 boxes, 1: the 4-D box) into shared memory, dumped as it lies
template <int KIND>
__global__ void dump_kernel(const __grid_constant__ CUtensorMap map, unsigned char *out, int i, int rowb)
{
    extern __shared__ __align__(1024) char smem_raw[];
    char *smem = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    uint64_t *full = (uint64_t *)smem;
    char *dst = smem + 1024;
    const int tile = 64 * rowb;
    if (threadIdx.x == 0) {
        bar_init(full);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(full)), "r"(tile) : "memory");
        issue_tile<KIND>(map, nullptr, dst, i, rowb, full);
    }
    __syncthreads();
    bar_wait(full, 0);
    for (int b = threadIdx.x; b < tile; b += blockDim.x) out[b] = (unsigned char)dst[b];
}

// KIND 5 in the table: 128 producer threads (a warpgroup, as the wgmma decodes' producer) copy the tile by
// 16-byte cp.async into the swizzled panels (the decodes' fallback path), consecutive threads taking
// consecutive 16 bytes of global memory; each thread's copies arrive on the stage's barrier (count 128)
__global__ void __launch_bounds__(160) cpasync_kernel(const char *src, int ntiles, int rowb, int stages, uint32_t *sink)
{
    extern __shared__ __align__(1024) char smem_raw[];
    char *smem = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    uint64_t *full = (uint64_t *)smem, *empty = full + 8;
    char *ring = smem + 1024;
    const int tile = 64 * rowb, P = rowb / 9, cpr = rowb / 16; /* 16-byte chunks a row */
    const int t0 = (int)((long long)ntiles * blockIdx.x / gridDim.x), t1 = (int)((long long)ntiles * (blockIdx.x + 1) / gridDim.x);
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 128;" ::"r"(sa(full + s)) : "memory");
            bar_init(empty + s);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x < 128) {
        const int t = threadIdx.x;
        for (int i = t0; i < t1; i++) {
            const int k = i - t0, s = k % stages;
            if (k >= stages) bar_wait(empty + s, (uint32_t)((k / stages - 1) & 1));
            char *dst = ring + (size_t)s * tile;
            const char *g = src + (size_t)i * tile;
            for (int c = t; c < tile / 16; c += 128) {
                const int r = c / cpr, q = c % cpr;
                const int off = P == 64 ? (q >> 2) * 4096 + 64 * r + (((q & 3) ^ ((r >> 1) & 3)) << 4)
                                        : (q >> 3) * 8192 + 128 * r + (((q & 7) ^ (r & 7)) << 4);
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa(dst + off)), "l"(g + 16 * c) : "memory");
            }
            asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(sa(full + s)) : "memory");
        }
        asm volatile("cp.async.wait_all;" ::: "memory");
    } else {
        consume(ring, full, empty, tile, t0, t1, stages, threadIdx.x - 128, sink);
    }
}

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char **argv)
{
    const size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 600;
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult qr;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &qr));
    if (!fn || qr != cudaDriverEntryPointSuccess) { fprintf(stderr, "no cuTensorMapEncodeTiled\n"); return 1; }
    const encode_fn enc = (encode_fn)fn;
    char *buf, *flush; uint32_t *sink;
    const size_t fb = (size_t)1 << 30, bytes = mb << 20;
    CK(cudaMalloc(&buf, bytes + (1 << 20))); CK(cudaMalloc(&flush, fb)); CK(cudaMalloc(&sink, 64));
    CK(cudaMemset(buf, 0x5a, bytes + (1 << 20)));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    auto timeit = [&](auto launch) {
        launch(); CK(cudaDeviceSynchronize());
        std::vector<float> t;
        for (int k = 0; k < 9; k++) {
            CK(cudaMemsetAsync(flush, k, fb));
            CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms * 1000.f);
        }
        CK(cudaGetLastError());
        return median(t);
    };
    printf("kind,row_bytes,stages,mb,us,gbs\n");
    for (int K : {0, 1, 2, 3, 4})
        CK(cudaFuncSetAttribute(K == 0 ? tile_kernel<0> : K == 1 ? tile_kernel<1> : K == 2 ? tile_kernel<2> : K == 3 ? tile_kernel<3> : tile_kernel<4>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    CK(cudaFuncSetAttribute(cpasync_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    const CUtensorMapL2promotion promo[3] = {CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                             CU_TENSOR_MAP_L2_PROMOTION_NONE};
    const char *pname[3] = {"p256", "p128", "pnone"};
    for (int rowb : {576, 1152}) {
        const int P = rowb / 9, tile = 64 * rowb;
        const unsigned long long rows = bytes / rowb / 64 * 64;
        const int ntiles = (int)(rows / 64);
        const double by = (double)ntiles * tile;
        const CUtensorMapSwizzle sw = P == 64 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B;
        auto map2 = [&](CUtensorMap *m, CUtensorMapSwizzle z, CUtensorMapL2promotion pr) {
            const cuuint64_t dim[2] = {(cuuint64_t)rowb, rows}, st[1] = {(cuuint64_t)rowb};
            const cuuint32_t box[2] = {(cuuint32_t)P, 64}, es[2] = {1, 1};
            if (enc(m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, buf, dim, st, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, z, pr,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { fprintf(stderr, "2-d map refused\n"); exit(1); }
        };
        CUtensorMap m2[3], m2n, m3, m4;
        for (int k = 0; k < 3; k++) map2(&m2[k], sw, promo[k]);
        map2(&m2n, CU_TENSOR_MAP_SWIZZLE_NONE, promo[0]);
        { // (P bytes, rows, panels): box (P, 64, 9), the 9 boxes' shared layout in one copy
            const cuuint64_t dim[3] = {(cuuint64_t)P, rows, 9}, st[2] = {(cuuint64_t)rowb, (cuuint64_t)P};
            const cuuint32_t box[3] = {(cuuint32_t)P, 64, 9}, es[3] = {1, 1, 1};
            if (enc(&m3, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, buf, dim, st, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                    promo[0], CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { fprintf(stderr, "3-d map refused\n"); return 1; }
        }
        { // (P bytes, row, panel, row group of 8): rows alias (row y + r + 8 g), box (P, 8, 9, 8)
            const cuuint64_t dim[4] = {(cuuint64_t)P, rows, 9, 8};
            const cuuint64_t st[3] = {(cuuint64_t)rowb, (cuuint64_t)P, (cuuint64_t)(8 * rowb)};
            const cuuint32_t box[4] = {(cuuint32_t)P, 8, 9, 8}, es[4] = {1, 1, 1, 1};
            if (enc(&m4, CU_TENSOR_MAP_DATA_TYPE_UINT8, 4, buf, dim, st, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                    promo[0], CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { fprintf(stderr, "4-d map refused\n"); return 1; }
        }
        for (int S : {2, 4}) {
            if ((size_t)tile * S + 2048 > 227 * 1024) continue;
            const int shm = tile * S + 2048;
            auto row = [&](const char *name, float us) {
                printf("%s,%d,%d,%zu,%.2f,%.0f\n", name, rowb, S, mb, us, by / (us * 1e-6) / 1e9);
            };
            for (int k = 0; k < 3; k++) {
                char nm[32];
                snprintf(nm, sizeof nm, "box9_%s", pname[k]);
                row(nm, timeit([&] { tile_kernel<0><<<sms, 64, shm>>>(m2[k], buf, ntiles, rowb, S, sink); }));
            }
            row("box9_noswizzle", timeit([&] { tile_kernel<0><<<sms, 64, shm>>>(m2n, buf, ntiles, rowb, S, sink); }));
            row("box3d", timeit([&] { tile_kernel<3><<<sms, 64, shm>>>(m3, buf, ntiles, rowb, S, sink); }));
            row("box4d", timeit([&] { tile_kernel<1><<<sms, 64, shm>>>(m4, buf, ntiles, rowb, S, sink); }));
            row("bulk", timeit([&] { tile_kernel<2><<<sms, 64, shm>>>(m2[0], buf, ntiles, rowb, S, sink); }));
            row("cpasync", timeit([&] { cpasync_kernel<<<sms, 160, shm>>>(buf, ntiles, rowb, S, sink); }));
            row("bulk_row", timeit([&] { tile_kernel<4><<<sms, 64, shm>>>(m2[0], buf, ntiles, rowb, S, sink); }));
        }
    }
    // the layouts agree: tile 1 (rows 64..127) landed by both maps into shared memory and dumped;
    // on the host, every 16-byte chunk of every row is where the decode's address functions put it
    {
        const int rowb = 576, P = 64;
        std::vector<unsigned char> h(256 * rowb);
        for (size_t i = 0; i < h.size(); i++) h[i] = (unsigned char)((i * 2654435761u) >> 13);
        CK(cudaMemcpy(buf, h.data(), h.size(), cudaMemcpyHostToDevice));
        CUtensorMap m2, m4;
        const unsigned long long rows = 256;
        const cuuint64_t d2[2] = {(cuuint64_t)rowb, rows}, s2[1] = {(cuuint64_t)rowb};
        const cuuint32_t b2[2] = {(cuuint32_t)P, 64}, e2[2] = {1, 1};
        const cuuint64_t d4[4] = {(cuuint64_t)P, rows, 9, 8}, s4[3] = {(cuuint64_t)rowb, (cuuint64_t)P, (cuuint64_t)(8 * rowb)};
        const cuuint32_t b4[4] = {(cuuint32_t)P, 8, 9, 8}, e4[4] = {1, 1, 1, 1};
        if (enc(&m2, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, buf, d2, s2, b2, e2, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ||
            enc(&m4, CU_TENSOR_MAP_DATA_TYPE_UINT8, 4, buf, d4, s4, b4, e4, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)) {
            fprintf(stderr, "check maps refused\n"); return 1;
        }
        unsigned char *dump; CK(cudaMalloc(&dump, 2 * 64 * rowb));
        dump_kernel<0><<<1, 64, 64 * rowb + 2048>>>(m2, dump, 1, rowb);
        dump_kernel<1><<<1, 64, 64 * rowb + 2048>>>(m4, dump + 64 * rowb, 1, rowb);
        CK(cudaDeviceSynchronize());
        std::vector<unsigned char> d(2 * 64 * rowb);
        CK(cudaMemcpy(d.data(), dump, d.size(), cudaMemcpyDeviceToHost));
        int bad2 = 0, bad4 = 0;
        for (int r = 0; r < 64; r++)
            for (int q = 0; q < 36; q++) { // 16-byte chunk q of row r: panel q / 4, chunk q % 4 swizzled by (r >> 1) & 3
                const int sw = ((q & 3) ^ ((r >> 1) & 3)) << 4;
                const int o2 = (q >> 2) * 64 * P + P * r + sw;                       // the decodes' mlab_sw64
                const int o4 = (r >> 3) * 9 * 8 * P + (q >> 2) * 8 * P + P * (r & 7) + sw; // row groups outermost
                for (int b = 0; b < 16; b++) {
                    const unsigned char want = h[(size_t)(64 + r) * rowb + 16 * q + b];
                    bad2 += d[o2 + b] != want;
                    bad4 += d[64 * rowb + o4 + b] != want;
                }
            }
        printf("layout check (fp8 tile 1): box9 %d bytes off, box4d %d bytes off\n", bad2, bad4);
        if (bad2 || bad4) return 2;
    }
    return 0;
}
