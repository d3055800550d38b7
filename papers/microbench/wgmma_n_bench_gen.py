# wgmma_n_bench_gen.py: writes the CUDA source of the wgmma microbenchmark (one kernel per
# shape: the inline PTX of an m64nN accumulator lists N / 2 registers) to the path given,
# or to stdout. On an H100/H200:
#   python3 papers/microbench/wgmma_n_bench_gen.py /tmp/wgmma_n_bench.cu &&
#   nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o /tmp/wgmma_n_bench /tmp/wgmma_n_bench.cu && /tmp/wgmma_n_bench
# Measured on the H200: papers/reports/h200-2026-12-01zk/README.md
Ns=[16,32,64,128,256]
out=[]
out.append(r'''// wgmma_n_bench: the rate of Hopper's warpgroup MMA against its N (the
// shape question of mlabench's native fp8 path: at 16 heads, N = 16 if the
// heads are N; N = 64..256 if kv rows or dims are N and the heads are padded
// to M = 64), e4m3 (m64nNk32) and f16 (m64nNk16), both operands from shared
// memory (no-swizzle K-major), one or two warpgroups an SM, against mma.sync
// f16 m16n8k16 (the fp8 core's product after its e4m3 -> f16 unpack; Hopper
// runs mma.sync e4m3 as such unpacks and f16 products). Prints dense
// multiply-adds a clock and SM. Written by papers/microbench/wgmma_n_bench_gen.py
// (its header says how to build and run it): one wgmma instruction per N (the
// accumulator is N / 2 registers a thread). Measured on the H200:
// papers/reports/h200-2026-12-01zk/README.md
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define CH 16      // wgmmas a group (one accumulator: the tensor pipe chains them)
#define ITERS 256  // groups a warpgroup

__device__ __forceinline__ uint64_t desc(const void *p, uint32_t lbo = 128, uint32_t sbo = 256)
{
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
    return (uint64_t)((a & 0x3FFFF) >> 4) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) | ((uint64_t)((sbo >> 4) & 0x3FFF) << 32);
}
/* a kernel's end: its results kept alive (never stored in practice), its cycles by thread 0 */
__device__ __forceinline__ void keep(float s, unsigned long long cycles, unsigned long long *cyc, float *sink)
{
    if (s == 123.f) sink[threadIdx.x] = s;
    if (threadIdx.x == 0) cyc[blockIdx.x] = cycles;
}
''')
for kind in ['e4m3','f16']:
    for N in Ns:
        R=N//2
        regs=','.join('%%%d'%i for i in range(R))
        outs=', '.join('"+f"(d[%d])'%i for i in range(R))
        if kind=='e4m3':
            ins='wgmma.mma_async.sync.aligned.m64n%dk32.f32.e4m3.e4m3 {%s}, %%%d, %%%d, 1, 1, 1;\\n'%(N,regs,R,R+1)
        else:
            ins='wgmma.mma_async.sync.aligned.m64n%dk16.f32.f16.f16 {%s}, %%%d, %%%d, 1, 1, 1, 0, 0;\\n'%(N,regs,R,R+1)
        out.append('__device__ __forceinline__ void mma_%s_%d(float (&d)[%d], uint64_t a, uint64_t b)\n{\n    asm volatile("%s"\n        : %s\n        : "l"(a), "l"(b));\n}\n'%(kind,N,R,ins,outs))
        out.append('''__global__ void __launch_bounds__(128) k_%s_%d(unsigned long long *cyc, float *sink)
{
    __shared__ __align__(128) uint8_t sm[2048 + 256 * 32];
    for (int i = threadIdx.x; i < (int)sizeof(sm) / 4; i += 128) ((uint32_t *)sm)[i] = 0x3a2b1c0du * (i + 1) & 0x3f3f3f3fu;
    asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");
    __syncthreads();
    float d[%d];
    for (int i = 0; i < %d; i++) d[i] = 0.f;
    const uint64_t a = desc(sm), b = desc(sm + 2048);
    asm volatile("wgmma.fence.sync.aligned;\\n" ::: "memory");
    const unsigned long long t0 = clock64();
    for (int it = 0; it < ITERS; it++) {
#pragma unroll
        for (int c = 0; c < CH; c++) mma_%s_%d(d, a, b);
        asm volatile("wgmma.commit_group.sync.aligned;\\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\\n" ::: "memory");
    const unsigned long long t1 = clock64();
    float s = 0.f;
    for (int i = 0; i < %d; i++) s += d[i];
    keep(s, t1 - t0, cyc, sink);
}
'''%(kind,N,R,R,kind,N,R))
out.append(r'''
// mma.sync baselines: 4 warps a block, CH independent accumulators a warp
__global__ void __launch_bounds__(128) k_sync_f16(unsigned long long *cyc, float *sink)
{
    float d[CH][4] = {};
    uint32_t a0 = threadIdx.x, a1 = 1, a2 = 2, a3 = 3, b0 = 4, b1 = 5;
    const unsigned long long t0 = clock64();
    for (int it = 0; it < ITERS * 4; it++)
#pragma unroll
        for (int c = 0; c < CH; c++) {
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        }
    __syncthreads();
    const unsigned long long t1 = clock64();
    float s = 0.f;
    for (int c = 0; c < CH; c++) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    keep(s, t1 - t0, cyc, sink);
}

// fp8_wgmma's shapes (variants/mla_wgmma.h): m64n16k32 with A (kv rows x dims) in its
// layout (LBO 1040, SBO 128) or compact (LBO 128, SBO 256), or A from registers; a tile's
// 18 Q.K products issued and drained (wait 0) each tile, or pipelined (wait 1)
template <int MODE> /* 0: v8 layout pipelined, 1: v8 layout drained per 18, 2: compact drained, 3: registers drained */
__global__ void __launch_bounds__(128) k_v8(unsigned long long *cyc, float *sink)
{
    __shared__ __align__(128) uint8_t sm[4096 + 1024];
    for (int i = threadIdx.x; i < (int)sizeof(sm) / 4; i += 128) ((uint32_t *)sm)[i] = 0x3a2b1c0du * (i + 1) & 0x3f3f3f3fu;
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    float d[8] = {};
    const uint64_t a = MODE <= 1 ? desc(sm, 1040, 128) : desc(sm), b = desc(sm + 4096);
    const uint32_t r0 = threadIdx.x * 0x01010101u & 0x3f3f3f3fu, r1 = r0 ^ 0x01010101u, r2 = r0 ^ 0x02020202u, r3 = r0 ^ 0x03030303u;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    const unsigned long long t0 = clock64();
    for (int it = 0; it < ITERS; it++) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int c = 0; c < 18; c++) {
            if (MODE == 3)
                asm volatile("wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, 1, 1, 1;\n"
                             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                             : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "l"(b));
            else
                mma_e4m3_16(d, a, b);
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        if (MODE == 0) asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
        else asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    const unsigned long long t1 = clock64();
    float s = 0.f;
    for (int i = 0; i < 8; i++) s += d[i];
    keep(s, t1 - t0, cyc, sink);
}

// fp8_wgmma's Q.K in place (variants/mla_wgmma.h's block: 384 threads, one block an SM,
// the tile in its layout (A: LBO 1040, SBO 128), Q as its B (LBO 256, SBO 128)): consumer
// warpgroup 0 times 18 m64n16k32 products a tile, drained, while (MODE bits) 1: the
// producer warpgroup streams 36 KB tiles from global memory into two other stages by
// cp.async; 2: consumer 1 runs the same Q.K on another stage; 4: consumer 1 stores bytes,
// fences the async proxy and meets a named barrier, as its softmax does; 8: consumer 1
// loads V^T fragments by ldmatrix.trans, as its P.V does (a P.V's products on consumer 1
// beside consumer 0's Q.K would be a divergent path, where ptxas serializes every wgmma)
#define IP_TILE (36 * 1040)
template <int MODE>
__global__ void __launch_bounds__(384, 1) k_inplace(unsigned long long *cyc, float *sink, const uint4 *src, size_t n16)
{
    extern __shared__ __align__(1024) uint8_t ip[];
    uint8_t *sq = ip, *st = ip + 16 * 576; /* Q (B), then 3 stages */
    const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
    for (int i = threadIdx.x; i < (16 * 576 + 3 * IP_TILE) / 4; i += 384) ((uint32_t *)ip)[i] = 0x3a2b1c0du * (i + 1) & 0x3f3f3f3fu;
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    if (wg == 2) { /* the producer */
        if (MODE & 1) {
            size_t g = (size_t)blockIdx.x * (IP_TILE / 16) * 64;
            for (int it = 0; it < ITERS; it++) {
                uint8_t *dst = st + (1 + (it & 1)) * IP_TILE;
                for (int q = t; q < 64 * 36; q += 128) {
                    const uint32_t d = (uint32_t)__cvta_generic_to_shared(dst + (q % 36) * 1040 + 16 * (q / 36));
                    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src + (g + q) % n16) : "memory");
                }
                g += 64 * 36;
                asm volatile("cp.async.commit_group;\ncp.async.wait_group 1;\n" ::: "memory");
            }
            asm volatile("cp.async.wait_group 0;\n" ::: "memory");
        }
        return;
    }
    if (wg == 1 && !(MODE & 14)) return;
    if (wg == 1 && (MODE & 12)) { /* consumer 1 without products: its softmax's traffic (4) or P.V's V^T loads (8) */
        uint32_t acc = 0;
        const int w = t / 32, l = t % 32;
        for (int it = 0; it < 64 * ITERS; it++) {
            if (MODE & 4) { /* P bytes stored, made visible to the async proxy, a named barrier */
                st[2 * IP_TILE + 64 * (t % 16) + (it & 63)] = (uint8_t)it;
                asm volatile("fence.proxy.async.shared::cta;\nbar.sync 1, 128;\n" ::: "memory");
            } else {
                uint32_t f0, f1, f2, f3;
                const uint32_t ad = (uint32_t)__cvta_generic_to_shared(st + 2 * IP_TILE + ((4 * (it & 7) + w) * 1040 + 16 * (32 * ((it >> 3) & 1) + l)));
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n" : "=r"(f0), "=r"(f1), "=r"(f2), "=r"(f3) : "r"(ad));
                acc += f0 ^ f1 ^ f2 ^ f3;
            }
        }
        if (acc == 123u) sink[threadIdx.x] = (float)acc;
        return;
    }
    float d[8] = {};
    const uint8_t *tile = st + (wg == 0 ? 0 : 2 * IP_TILE);
    const uint64_t a = desc(tile, 1040, 128), b = desc(sq, 256, 128);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    const unsigned long long t0 = clock64();
    for (int it = 0; it < ITERS; it++) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int c = 0; c < 18; c++) mma_e4m3_16(d, a + ((2 * c * 1040) >> 4), b + ((2 * c * 256) >> 4));
        asm volatile("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    }
    const unsigned long long t1 = clock64();
    float s = 0.f;
    for (int i = 0; i < 8; i++) s += d[i];
    keep(s, t1 - t0, cyc, sink);
}

typedef void (*kfn)(unsigned long long *, float *);
static double rate(kfn k, int per_sm, double macs_per_block, int sms, unsigned long long *cyc, float *sink)
{
    const int nb = sms * per_sm;
    k<<<nb, 128>>>(cyc, sink); /* warm */
    k<<<nb, 128>>>(cyc, sink);
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed: %s\n", cudaGetErrorString(cudaGetLastError())); return 0; }
    static unsigned long long h[4096];
    cudaMemcpy(h, cyc, nb * sizeof(*h), cudaMemcpyDeviceToHost);
    double mx = 0; /* the slowest block: blocks of an SM overlap */
    for (int i = 0; i < nb; i++) mx = h[i] > mx ? h[i] : mx;
    return macs_per_block * per_sm / mx;
}
int main()
{
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    unsigned long long *cyc; float *sink;
    cudaMalloc(&cyc, 4096 * sizeof(*cyc)); cudaMalloc(&sink, 4096 * sizeof(float));
    printf("dense multiply-adds a clock and SM (one warpgroup a block; blocks an SM: 1 | 2)\n");
    printf("%-28s %10s %10s\n", "instruction", "1", "2");
''')
for kind,K in [('e4m3',32),('f16',16)]:
    for N in Ns:
        out.append('    { const double m = 64.0 * %d * %d * CH * ITERS; printf("%%-28s %%10.0f %%10.0f\\n", "wgmma m64n%dk%d %s", rate(k_%s_%d, 1, m, sms, cyc, sink), rate(k_%s_%d, 2, m, sms, cyc, sink)); }\n'%(N,K,N,K,kind,kind,N,kind,N))
out.append('''    { const double m = 4.0 * 16 * 8 * 16 * CH * ITERS * 4; printf("%-28s %10.0f %10.0f\\n", "mma.sync m16n8k16 f16", rate(k_sync_f16, 1, m, sms, cyc, sink), rate(k_sync_f16, 2, m, sms, cyc, sink)); }
    printf("a tile's 18 Q.K products of fp8_wgmma (m64n16k32), cycles a tile (1 | 2 blocks an SM):\\n");
    const char *nm[4] = {"its layout, pipelined", "its layout, drained", "compact, drained", "A in registers, drained"};
    kfn kv[4] = {k_v8<0>, k_v8<1>, k_v8<2>, k_v8<3>};
    for (int m = 0; m < 4; m++) {
        const double mac = 64.0 * 16 * 32 * 18 * ITERS;
        const double r1 = rate(kv[m], 1, mac, sms, cyc, sink), r2 = rate(kv[m], 2, mac, sms, cyc, sink);
        printf("%-28s %10.0f %10.0f\\n", nm[m], 64.0 * 16 * 32 * 18 / r1, 2 * 64.0 * 16 * 32 * 18 / r2);
    }
    printf("fp8_wgmma's Q.K in place (one block of 384 threads an SM), consumer 0's cycles a tile:\\n");
    {
        const size_t n16 = (size_t)64 << 20; /* 1 GiB to stream from */
        uint4 *src = nullptr;
        cudaMalloc(&src, n16 * 16);
        cudaMemset(src, 0x11, n16 * 16);
        const int smem = 16 * 576 + 3 * IP_TILE;
        typedef void (*ipfn)(unsigned long long *, float *, const uint4 *, size_t);
        const ipfn ks[6] = {k_inplace<0>, k_inplace<1>, k_inplace<2>, k_inplace<3>, k_inplace<4>, k_inplace<8>};
        const char *nm2[6] = {"alone", "+ producer copies", "+ a second Q.K", "+ copies + second Q.K",
                              "+ proxy fences and barriers", "+ V^T ldmatrix.trans"};
        for (int m = 0; m < 6; m++) {
            cudaFuncSetAttribute(ks[m], cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
            ks[m]<<<sms, 384, smem>>>(cyc, sink, src, n16);
            ks[m]<<<sms, 384, smem>>>(cyc, sink, src, n16);
            if (cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed: %s\\n", cudaGetErrorString(cudaGetLastError())); break; }
            static unsigned long long h[4096];
            cudaMemcpy(h, cyc, sms * sizeof(*h), cudaMemcpyDeviceToHost);
            double mx = 0;
            for (int i = 0; i < sms; i++) mx = h[i] > mx ? h[i] : mx;
            printf("%-28s %10.0f\\n", nm2[m], mx / ITERS);
        }
        cudaFree(src);
    }
    return 0;
}
''')
import sys
(open(sys.argv[1], 'w') if len(sys.argv) > 1 else sys.stdout).write(''.join(out))
