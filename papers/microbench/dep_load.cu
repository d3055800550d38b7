// dep_load.cu: how long a programmatic dependent's first load takes after
// its grid wait. mlabench's combine (the decode's programmatic dependent)
// passes griddepcontrol.wait, then waits 0.8-1.2 us for its first loads
// (the splits' log-sum-exps) on the H200 (perf-notes v34's trace), where an
// L2 hit is a few hundred ns; neither asking for the lines before the wait
// nor loading them first moved it. Here a first kernel (64 blocks of 256
// threads, as the decode of 4 x 1024) writes 64 x 16 KB (the partials)
// and ends; a second (64 blocks of 128 threads, as the combine), launched
// as its programmatic dependent or plainly after it, has thread 0 of each
// block load one line and record %globaltimer before the load and once the
// value is back:
//   written   a line the first kernel wrote (the combine's case)
//   cold      a line nothing touched since the 1 GiB memset that precedes
//             every sample (DRAM)
//   warm      a line the first kernel read (in L2, not written)
// each after the wait (pdl) or at the start (plain), timed cold as mlabench
// times a call (median of 31 samples of the blocks' median).
// Prints CSV: launch, line, load us (medians).
// A second table (v35) has the reader shaped as the combine: after the wait
// every thread loads K 8-byte values of the written buffer (a warp's 256
// bytes contiguous, as the combine's partials), then thread 0 loads one line
// of it (the combine's log-sum-exps) and records when that line is back and
// when its own K values are (sums of them), for K = 0, 2, 16 (the combine's
// splits at 64 x 1024 and 4 x 1024), with the line loaded after the K loads
// or before them; 64 blocks (4 x 1024's combine) or 1024 (64 x 1024's).
// CSV: blocks, K, order, lse_us, all_us.
// A third table (v35, after the real combine's first loads measured 0.6-0.9
// us after its wait): the same reader (64 blocks, K = 16, the line after the
// K loads) behind a first kernel that, as the decode, streams R bytes (a
// block its share, 16-byte loads, summed) before writing its partials.
// CSV: stream_mb, lse_us, all_us.
// A fourth table (prepared at v35, run at v36: papers/reports/h200-2026-12-04c):
// the first kernel shaped as a wgmma decode: B blocks of 384 threads, 144 KB
// of shared memory, thread 0 streaming its share by cp.async.bulk (the copy
// engine, the async proxy) through two 72 KB stages with full / empty
// mbarriers, 8 warps reading each stage; it triggers its dependents after the
// stream, as the decodes do, then writes its partials. CSV: decode_blocks,
// stream_mb, lse_us, all_us. On the H200 the line is back 0.128 us after the
// wait for 64 or 128 such blocks and 2 or 19 MB: the real combine's 0.6 us is
// not the decode's shape.
// Build and run on an NVIDIA GPU of sm_90 or later:
//   nvcc -O3 -arch=sm_90a -o dep_load papers/microbench/dep_load.cu
//   ./dep_load
// Measured on the H200: papers/perf-notes.md v34 (the first table), v35 (the
// second and third).
#include "mb_util.h" // CK, gtime, med

__device__ __forceinline__ void trigger() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
__device__ __forceinline__ void dep_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// the first kernel: each block writes its 16 KB and reads one line of warm
__global__ void writer(uint4 *part, const uint4 *warm, unsigned long long *sink)
{
    trigger();
    uint4 *d = part + (size_t)blockIdx.x * 1024;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) d[i] = make_uint4(i, blockIdx.x, 1u, 2u);
    if (threadIdx.x == 0) {
        const uint4 w = warm[(size_t)blockIdx.x * 1024 + 7]; // the line the reader loads
        if (w.x == 0xdeadbeefu) *sink = w.y; // keeps the load
    }
}

// the second: thread 0 loads one 16-byte line of src (block b's) and records
// the times before the load and once its value is back
__global__ void reader(const uint4 *src, int wait, unsigned long long *dt)
{
    if (wait) dep_wait();
    if (threadIdx.x != 0) return;
    const unsigned long long t0 = gtime();
    uint4 v; // one 16-byte load that L1 does not keep (ld.global.cg: L2)
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(src + (size_t)blockIdx.x * 1024 + 7));
    // a branch on the value before the second %globaltimer read: it issues
    // once the value is back (no line here holds that pattern)
    if (v.x == 0xdeadbeefu && v.y == 0xdeadbeefu && v.z == 0xdeadbeefu && v.w == 0xdeadbeefu) __trap();
    const unsigned long long t1 = gtime();
    dt[blockIdx.x] = t1 - t0;
}

// the combine-shaped reader: K loads a thread (uint2, warp-contiguous), the
// lse-like line by thread 0 after them (first = 0) or before them (1)
template <int K>
__global__ void reader_k(const uint2 *part, const float *lse, int first, unsigned long long *dt, float *sink)
{
    dep_wait();
    const unsigned long long t0 = gtime();
    const int b = blockIdx.x, t = threadIdx.x;
    float l = 0.f;
    if (t == 0 && first) l = __ldcg(lse + (size_t)b * 16);
    uint2 v[K > 0 ? K : 1];
#pragma unroll
    for (int k = 0; k < K; k++) v[k] = part[((size_t)b * K + k) * 128 + t];
    if (t == 0 && !first) l = __ldcg(lse + (size_t)b * 16);
    if (t == 0) {
        // the time once l is in a register (the asm reads it), then once every v is
        unsigned long long t1, t2;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1) : "f"(l));
        unsigned acc = 0;
#pragma unroll
        for (int k = 0; k < K; k++) acc += v[k].x ^ v[k].y;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t2) : "r"(acc));
        dt[2 * b] = t1 - t0;
        dt[2 * b + 1] = t2 - t0;
        if (acc == 0xdeadbeefu) *sink = l;
    } else {
        unsigned acc = 0;
#pragma unroll
        for (int k = 0; k < K; k++) acc += v[k].x ^ v[k].y;
        if (acc == 0xdeadbeefu) *sink = l;
    }
}
// the writer of the combine-shaped table: n blocks each write their partials
// (K x 128 uint2) and lse line, as the decode's epilogues
__global__ void writer_k(uint2 *part, float *lse, int K)
{
    trigger();
    const int b = blockIdx.x;
    for (int i = threadIdx.x; i < K * 128; i += blockDim.x) part[(size_t)b * K * 128 + i] = make_uint2(i, b);
    if (threadIdx.x < 16) lse[(size_t)b * 16 + threadIdx.x] = 1.f + threadIdx.x;
}
// the streaming writer: each block reads its share of src (per uint4s), then
// writes its partials and lse line as writer_k does
__global__ void writer_s(uint2 *part, float *lse, int K, const uint4 *src, size_t per, unsigned long long *sink)
{
    trigger();
    const int b = blockIdx.x;
    unsigned acc = 0;
    for (size_t i = threadIdx.x; i < per; i += blockDim.x) {
        const uint4 v = src[(size_t)b * per + i];
        acc += v.x ^ v.w;
    }
    if (acc == 0xdeadbeefu) *sink = acc;
    for (int i = threadIdx.x; i < K * 128; i += blockDim.x) part[(size_t)b * K * 128 + i] = make_uint2(i, b);
    if (threadIdx.x < 16) lse[(size_t)b * 16 + threadIdx.x] = 1.f + threadIdx.x;
}

__device__ __forceinline__ void bar_init(uint64_t *b) { asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(b)) : "memory"); }
__device__ __forceinline__ void bar_wait(uint64_t *b, uint32_t par)
{
    asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W_%=;\n}\n" ::"r"(sa(b)),
                 "r"(par) : "memory");
}
// the decode-shaped writer: thread 0 streams nch chunks of 72 KB (two bulk
// copies each) of its share through two stages; warps 4-11 read each stage;
// then every thread writes its share of the partials and lse line
__global__ void __launch_bounds__(384) writer_d(uint2 *part, float *lse, int K, const char *src, size_t nch)
{
    extern __shared__ __align__(128) char smem[];
    constexpr int CH = 72 << 10;
    uint64_t *full = (uint64_t *)smem, *empty = full + 2;
    char *ring = smem + 128;
    const int b = blockIdx.x, t = threadIdx.x;
    if (t == 0) {
        for (int i = 0; i < 2; i++) { bar_init(full + i); bar_init(empty + i); }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (t == 0) {
        for (size_t k = 0; k < nch; k++) {
            const int st = (int)(k & 1);
            if (k >= 2) bar_wait(empty + st, (uint32_t)((k / 2 - 1) & 1));
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(full + st)), "r"(CH) : "memory");
            for (int off = 0; off < CH; off += CH / 2)
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                                 sa(ring + (size_t)st * CH + off)),
                             "l"(src + ((size_t)b * nch + k) * CH + off), "r"(CH / 2), "r"(sa(full + st))
                             : "memory");
        }
    } else if (t >= 128) {
        unsigned acc = 0;
        for (size_t k = 0; k < nch; k++) {
            const int st = (int)(k & 1);
            bar_wait(full + st, (uint32_t)((k / 2) & 1));
            const uint4 v = *(const uint4 *)(ring + (size_t)st * CH + 16 * (t - 128));
            acc ^= v.x ^ v.w;
            asm volatile("bar.sync 1, 256;" ::: "memory"); // the 8 warps past their reads of the stage
            if (t == 128) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(empty + st)) : "memory");
        }
        if (acc == 0xdeadbeefu) part[0] = make_uint2(acc, 0);
    }
    trigger();
    for (int i = t; i < K * 128; i += blockDim.x) part[(size_t)b * K * 128 + i] = make_uint2(i, b);
    if (t < 16) lse[(size_t)b * 16 + t] = 1.f + t;
}

// kernel launched on s as the programmatic dependent of the kernel before it
// (pdl) or plainly
template <typename... A>
static void launch_dep(void (*kernel)(A...), int blocks, int pdl, cudaStream_t s, A... args)
{
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(128);
    cfg.stream = s;
    cfg.attrs = &attr;
    cfg.numAttrs = pdl ? 1 : 0;
    CK(cudaLaunchKernelEx(&cfg, kernel, args...));
}

// the combine-shaped reader of nb blocks behind write() (the first kernel,
// after the flush): its line's and its loads' times, each the median over
// 31 cold samples of the blocks' median
template <int K, typename W>
static void run_k(W write, int nb, int first, void *flush, size_t flush_bytes, const uint2 *part, const float *lse,
                  unsigned long long *dt, float *sink, cudaStream_t s, double *lse_us, double *all_us)
{
    std::vector<double> ml, ma;
    for (int r = 0; r < 33; r++) {
        CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s));
        write();
        launch_dep(reader_k<K>, nb, 1, s, part, lse, first, dt, sink);
        CK(cudaStreamSynchronize(s));
        std::vector<unsigned long long> h(2 * nb);
        CK(cudaMemcpy(h.data(), dt, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
        if (r < 2) continue; // warm-up
        std::vector<double> l(nb), a(nb);
        for (int b = 0; b < nb; b++) l[b] = h[2 * b] / 1000.0, a[b] = h[2 * b + 1] / 1000.0;
        ml.push_back(med(l));
        ma.push_back(med(a));
    }
    *lse_us = med(ml);
    *all_us = med(ma);
}

template <int K>
static void table_k(void *flush, size_t flush_bytes, uint2 *part, float *lse, unsigned long long *dt, float *sink,
                    cudaStream_t s)
{
    for (int nb : {64, 1024})
        for (int first = 0; first < 2; first++) {
            double l, a;
            run_k<K>([&] { writer_k<<<nb, 256, 0, s>>>(part, lse, K); }, nb, first, flush, flush_bytes, part, lse, dt,
                     sink, s, &l, &a);
            printf("%d,%d,%s,%.3f,%.3f\n", nb, K, first ? "lse_first" : "lse_last", l, a);
        }
}

int main()
{
    const size_t flush_bytes = 1ull << 30, part_bytes = 64ull << 14;
    void *flush;
    uint4 *part, *cold, *warm;
    unsigned long long *dt, *sink;
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMalloc(&part, part_bytes));
    CK(cudaMalloc(&cold, part_bytes));
    CK(cudaMalloc(&warm, part_bytes));
    CK(cudaMalloc(&dt, 64 * sizeof *dt));
    CK(cudaMalloc(&sink, sizeof *sink));
    CK(cudaMemset(cold, 0, part_bytes));
    CK(cudaMemset(warm, 0, part_bytes));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    printf("launch,line,load_us\n");
    const char *lines[3] = {"written", "cold", "warm"};
    const uint4 *srcs[3] = {part, cold, warm};
    for (int pdl = 1; pdl >= 0; pdl--)
        for (int k = 0; k < 3; k++) {
            std::vector<double> meds;
            for (int r = 0; r < 33; r++) {
                CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s));
                writer<<<64, 256, 0, s>>>(part, warm, sink);
                launch_dep(reader, 64, pdl, s, srcs[k], pdl, dt);
                CK(cudaStreamSynchronize(s));
                unsigned long long h[64];
                CK(cudaMemcpy(h, dt, sizeof h, cudaMemcpyDeviceToHost));
                if (r < 2) continue; // warm-up
                std::vector<double> v(h, h + 64);
                meds.push_back(med(v) / 1000.0);
            }
            printf("%s,%s,%.3f\n", pdl ? "pdl" : "plain", lines[k], med(meds));
        }
    // the combine-shaped reader (v35)
    uint2 *kpart;
    float *klse, *ksink;
    unsigned long long *kdt;
    CK(cudaMalloc(&kpart, 1024ull * 16 * 128 * sizeof(uint2)));
    CK(cudaMalloc(&klse, 1024ull * 16 * sizeof(float)));
    CK(cudaMalloc(&kdt, 2 * 1024 * sizeof(unsigned long long)));
    CK(cudaMalloc(&ksink, sizeof(float)));
    printf("blocks,K,order,lse_us,all_us\n");
    table_k<0>(flush, flush_bytes, kpart, klse, kdt, ksink, s);
    table_k<2>(flush, flush_bytes, kpart, klse, kdt, ksink, s);
    table_k<16>(flush, flush_bytes, kpart, klse, kdt, ksink, s);
    // the reader behind a streaming writer (v35)
    printf("stream_mb,lse_us,all_us\n");
    const size_t smax = 256ull << 20;
    uint4 *ssrc;
    unsigned long long *ssink;
    CK(cudaMalloc(&ssrc, smax));
    CK(cudaMemset(ssrc, 1, smax));
    CK(cudaMalloc(&ssink, sizeof *ssink));
    for (size_t mb : {0, 2, 19, 151}) {
        const size_t per = (mb << 20) / 16 / 64; // uint4s a block
        double l, a;
        run_k<16>([&] { writer_s<<<64, 256, 0, s>>>(kpart, klse, 16, ssrc, per, ssink); }, 64, 0, flush, flush_bytes,
                  kpart, klse, kdt, ksink, s, &l, &a);
        printf("%zu,%.3f,%.3f\n", mb, l, a);
    }
    // the reader behind a decode-shaped writer (prepared at v35)
    const int dsmem = 128 + 2 * (72 << 10);
    CK(cudaFuncSetAttribute(writer_d, cudaFuncAttributeMaxDynamicSharedMemorySize, dsmem));
    printf("decode_blocks,stream_mb,lse_us,all_us\n");
    for (int nb : {64, 128})
        for (size_t mb : {2, 19}) {
            const size_t nch = ((mb << 20) + (size_t)nb * (72 << 10) - 1) / ((size_t)nb * (72 << 10)); // chunks a block
            double l, a;
            run_k<16>([&] { writer_d<<<nb, 384, dsmem, s>>>(kpart, klse, 16, (const char *)ssrc, nch); }, nb, 0, flush,
                      flush_bytes, kpart, klse, kdt, ksink, s, &l, &a);
            printf("%d,%zu,%.3f,%.3f\n", nb, mb, l, a);
        }
    return 0;
}
