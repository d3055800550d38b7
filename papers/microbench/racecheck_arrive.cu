// racecheck_arrive.cu: does compute-sanitizer's racecheck see a named
// barrier's bar.arrive as ordering the arriving threads' shared-memory reads
// before the syncing threads' later writes? The wgmma decodes hand a stage
// back so: the consumers read it (ldmatrix), then bar.arrive on the stage's
// "empty" barrier; the producer bar.syncs there, then refills the stage.
// PTX: when a barrier completes, the prior memory accesses of every
// participating thread (arrive included) are performed relative to all of
// them, so the refill cannot overtake the reads. racecheck reported that
// pair as an error where the refill is by cp.async (a unit's last, partial
// tile; a TMA refill it does not see): a race of the kernel, or a gap in
// the checker?
//
// Five kernels of two warps, each on one 32-float shared array; warp 1 (the
// consumer) reads it, warp 0 (the producer) then overwrites it:
//   arrive      consumer: read, bar.arrive 1, 64;   producer: bar.sync 1, 64, store
//   sync        both bar.sync 1, 64                 (the form racecheck should accept)
//   none        no barrier between read and store   (a real race: the control)
//   arrive_cp   as arrive, the overwrite by cp.async (+ wait): the decodes' case
//   sync_cp     as sync, the overwrite by cp.async
// Run:  nvcc -O3 -arch=sm_90a -o racecheck_arrive papers/microbench/racecheck_arrive.cu
//       compute-sanitizer --tool racecheck ./racecheck_arrive
// Expected if racecheck models bar.arrive: hazards in `none` only; if not,
// also in `arrive` and `arrive_cp`, never in `sync` or `sync_cp`.
//
// Then the other direction, the refill's landing: warp 0 writes the array,
// warp 1 waits on an mbarrier (try_wait.parity) and reads it, as the
// decodes' consumers wait for a partial tile the producer copied by cp.async
// (each producer thread waits for its own copies, then arrives):
//   mbar_st     plain stores, every lane then mbarrier.arrive (count 32)
//   mbar_cp     cp.async + cp.async.wait_all, every lane then arrives
//   mbar_one    cp.async by every lane, only lane 0 arrives (count 1) after
//               its own wait: the other lanes' copies unordered (a real
//               race: the control of this half)
// Expected if racecheck models mbarriers: hazards in mbar_one only.
//
// Last, the persistent fp8_wgmma's unit boundary: after its arrival the
// consumer syncs on other named barriers (the unit's merge with the other
// consumer) before the producer's sync on the stage's barrier (the producer
// held back by __nanosleep so that it comes last):
//   arrive_more  warp 1: read, bar.arrive 1, 64, then bar.sync 2, 64 with
//                warp 2; warp 0: sleep, bar.sync 1, 64, store. Ordered by
//                PTX: any hazard here is the checker's.
//   arrive_next  as arrive_more, then the unit end's other two steps: warp 1
//                syncs alone (bar.sync 3, 32: its warpgroup's barrier) and
//                arrives on a fourth barrier that warp 2 syncs on (bar.arrive
//                4, 64: the next unit's Q handed to the other consumer), all
//                before the producer's bar.sync 1, 64
//   persistent   the persistent fp8 wgmma block in small (three warps:
//                producer, consumer 0, consumer 1; four stages of 512 bytes, a
//                16-byte copy a producer lane (v69's call 10 ran it with 32
//                floats a stage, 8 copies, before persistent<W> took both),
//                an mbarrier each for the refills, an empty named barrier
//                each, ids 5..8 computed at run time, 64 threads: the
//                producer and the stage's consumer; tile g in stage g % 4 is
//                consumer g % 2's): two units of four tiles, each unit's
//                code its own copy (the kernel's first call and its loop),
//                the refills by cp.async from tile 4 on after the stage's
//                empty barrier, and between the units the kernel's unit end
//                (both consumers' merge barrier twice, consumer 1's own
//                barrier and its arrival on the next unit's Q barrier, which
//                consumer 0 syncs). Ordered by PTX: a hazard here is the
//                checker's, the decodes' open finding reproduced
//   persistent4  (persistent<4>) the same at the kernel's scale: four warps a role (256-thread
//                empty and merge barriers, 128-thread mbarrier landings),
//                each stage 2 KB written by 128 producer threads' 16-byte
//                copies, every eighth a zero fill (src-size 0), then the
//                proxy fence the decodes issue for wgmma, and read by the
//                consumer's warps by ldmatrix.x4 (the decodes' V^T loads)
// Measured on an H100 (CUDA 13.0, compute-sanitizer 2025.3.1): perf-notes v69.
#include <cstdio>
#include <cstdint>

/* the instructions the kernels below share (shared-memory addresses as PTX takes them) */
__device__ __forceinline__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void named_sync(int id, int n) { asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void named_arrive(int id, int n)
{
    asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}
/* 16 bytes by cp.async, n of them from src (0: a zero fill) */
__device__ __forceinline__ void cp16(void *dst, const float *src, int n = 16)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem(dst)), "l"(src), "r"(n));
}
__device__ __forceinline__ void cp_wait_all(void) { asm volatile("cp.async.wait_all;\n" ::: "memory"); }
/* nbar mbarriers of count arrivals a phase (one thread) */
__device__ __forceinline__ void mbar_init(uint64_t *bar, int nbar, int count)
{
    for (int i = 0; i < nbar; i++)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem(bar + i)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t *bar, int parity)
{
    asm volatile("{\n.reg .pred p;\nW:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra W;\n}\n" ::"r"(smem(bar)), "r"(parity)
                 : "memory");
}

enum { ARRIVE, SYNC, NONE, ARRIVE_CP, SYNC_CP };

template <int MODE> __global__ void handoff(const float *src, float *out)
{
    __shared__ __align__(16) float s[32];
    const int w = threadIdx.x / 32, l = threadIdx.x % 32;
    if (w == 0) s[l] = src[l];
    __syncthreads();
    if (w == 1) { /* the consumer: read the stage, then hand it back */
        out[l] = s[l];
        if (MODE == ARRIVE || MODE == ARRIVE_CP) asm volatile("bar.arrive 1, 64;\n" ::: "memory");
        if (MODE == SYNC || MODE == SYNC_CP) asm volatile("bar.sync 1, 64;\n" ::: "memory");
    } else { /* the producer: wait for the hand-back, then refill */
        if (MODE != NONE) asm volatile("bar.sync 1, 64;\n" ::: "memory");
        if (MODE == ARRIVE_CP || MODE == SYNC_CP) {
            if (l < 8) cp16(s + 4 * l, src + 32 + 4 * l);
            cp_wait_all();
        } else {
            s[l] = src[32 + l];
        }
    }
    __syncthreads();
    if (w == 0) out[32 + l] = s[l];
}

/* three warps: 0 the producer, 1 the stage's consumer, 2 the other consumer */
template <bool NEXT> __global__ void arrive_more(const float *src, float *out)
{
    __shared__ __align__(16) float s[32];
    const int w = threadIdx.x / 32, l = threadIdx.x % 32;
    if (w == 0) s[l] = src[l];
    __syncthreads();
    if (w == 1) {
        out[l] = s[l];
        asm volatile("bar.arrive 1, 64;\n" ::: "memory");
        asm volatile("bar.sync 2, 64;\n" ::: "memory");
        if (NEXT) {
            asm volatile("bar.sync 3, 32;\n" ::: "memory");
            asm volatile("bar.arrive 4, 64;\n" ::: "memory");
        }
    } else if (w == 2) {
        asm volatile("bar.sync 2, 64;\n" ::: "memory");
        if (NEXT) asm volatile("bar.sync 4, 64;\n" ::: "memory");
    } else {
        __nanosleep(200000);
        asm volatile("bar.sync 1, 64;\n" ::: "memory");
        s[l] = src[32 + l];
    }
    __syncthreads();
    if (w == 0) out[32 + l] = s[l];
}

/* the persistent decode's unit protocol, W warps a role: warps 0 .. W-1 the
 * producer, the next W consumer 0, the last W consumer 1; stage g % 4 (W x
 * 512 bytes, 16 a producer thread) holds tile g, consumer g % 2's; the
 * barriers' counts scale with W. W = 4 (persistent4) as the kernel: every
 * eighth copy a zero fill, the proxy fence after the copies, the reads by
 * ldmatrix.x4.trans; W = 1 (persistent) plain loads. out[threadIdx.x]
 * sums what a consumer thread read */
template <int W> __global__ void persistent(const float *src, float *out)
{
    constexpr int R = 32 * W; /* a role's threads */
    __shared__ __align__(128) uint8_t st[4][512 * W];
    __shared__ __align__(8) uint64_t full[4];
    const int role = threadIdx.x / R, t = threadIdx.x % R, warp = t / 32, l = t % 32;
    if (threadIdx.x == 0) mbar_init(full, 4, R);
    __syncthreads();
    if (role == 0) {
        auto load = [&](int g) {
            if (g >= 4) named_sync(5 + g % 4, 2 * R); /* the stage's consumer has read it */
            cp16(&st[g % 4][16 * t], src + 128 * W * g + 4 * t, W == 4 && t % 8 == 7 ? 0 : 16); /* W = 4: zero fills */
            cp_wait_all();
            if (W == 4) asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* as the decodes, for wgmma */
            mbar_arrive(full + g % 4);
        };
#pragma unroll 1
        for (int g = 0; g < 4; g++) load(g); /* the first unit */
#pragma unroll 1
        for (int g = 4; g < 8; g++) load(g); /* the next unit: another copy of the code */
    } else {
        const int c = role - 1;
        float acc = 0.f;
        auto consume = [&](int g0) {
#pragma unroll 1
            for (int i = (c - g0) & 1; i < 4; i += 2) {
                const int g = g0 + i;
                mbar_wait(full + g % 4, (g / 4) & 1);
                if constexpr (W == 4) { /* the decodes' V^T loads */
                    uint32_t x[4];
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                                 : "r"(smem(&st[g % 4][512 * warp + 16 * l])));
                    acc += __uint_as_float(x[0] & 0x7fffff) + __uint_as_float(x[3] & 0x7fffff);
                } else {
                    acc += ((const float *)st[g % 4])[t];
                }
                named_arrive(5 + g % 4, 2 * R); /* the stage back to the producer */
            }
            named_sync(12, 2 * R); /* the unit's merge, both consumers */
            named_sync(12, 2 * R);
            if (c == 1) {
                named_sync(10, R);        /* consumer 1's own barrier */
                named_arrive(15, 2 * R);  /* the next unit's Q, to consumer 0 */
            }
        };
        consume(0);
        if (c == 0) named_sync(15, 2 * R);
        consume(4);
        out[threadIdx.x] = acc;
    }
}

enum { MBAR_ST, MBAR_CP, MBAR_ONE };

template <int MODE> __global__ void landing(const float *src, float *out)
{
    __shared__ __align__(16) float s[128];
    __shared__ __align__(8) uint64_t bar;
    const int w = threadIdx.x / 32, l = threadIdx.x % 32;
    if (threadIdx.x == 0) mbar_init(&bar, 1, MODE == MBAR_ONE ? 1 : 32);
    __syncthreads();
    if (w == 0) { /* the producer: the tile, then its arrival */
        if (MODE == MBAR_ST) {
            for (int i = l; i < 128; i += 32) s[i] = src[i];
        } else {
            cp16(s + 4 * l, src + 4 * l);
            cp_wait_all();
        }
        if (MODE != MBAR_ONE || l == 0) mbar_arrive(&bar);
    } else { /* the consumer: wait for phase 0, then read */
        mbar_wait(&bar, 0);
        for (int i = l; i < 128; i += 32) out[i] = s[i];
    }
}

int main()
{
    float *src, *out;
    if (cudaMalloc(&src, 64 * sizeof(float)) || cudaMalloc(&out, 64 * sizeof(float))) return 1;
    cudaMemset(src, 0, 64 * sizeof(float));
    const char *name[] = {"arrive", "sync", "none", "arrive_cp", "sync_cp"};
    void (*k[])(const float *, float *) = {handoff<ARRIVE>, handoff<SYNC>, handoff<NONE>, handoff<ARRIVE_CP>,
                                           handoff<SYNC_CP>};
    for (int m = 0; m < 5; m++) {
        k[m]<<<1, 64>>>(src, out);
        cudaError_t e = cudaDeviceSynchronize();
        printf("%s: %s (kernel handoff<%d>)\n", name[m], cudaGetErrorString(e), m);
    }
    const char *lname[] = {"mbar_st", "mbar_cp", "mbar_one"};
    void (*lk[])(const float *, float *) = {landing<MBAR_ST>, landing<MBAR_CP>, landing<MBAR_ONE>};
    float *src2, *out2;
    if (cudaMalloc(&src2, 128 * sizeof(float)) || cudaMalloc(&out2, 128 * sizeof(float))) return 1;
    cudaMemset(src2, 0, 128 * sizeof(float));
    for (int m = 0; m < 3; m++) {
        lk[m]<<<1, 64>>>(src2, out2);
        cudaError_t e = cudaDeviceSynchronize();
        printf("%s: %s (kernel landing<%d>)\n", lname[m], cudaGetErrorString(e), m);
    }
    arrive_more<false><<<1, 96>>>(src, out);
    printf("arrive_more: %s (kernel arrive_more<false>)\n", cudaGetErrorString(cudaDeviceSynchronize()));
    arrive_more<true><<<1, 96>>>(src, out);
    printf("arrive_next: %s (kernel arrive_more<true>)\n", cudaGetErrorString(cudaDeviceSynchronize()));
    float *src3, *out3;
    if (cudaMalloc(&src3, 1024 * sizeof(float)) || cudaMalloc(&out3, 96 * sizeof(float))) return 1;
    cudaMemset(src3, 0, 1024 * sizeof(float));
    persistent<1><<<1, 96>>>(src3, out3);
    printf("persistent: %s (kernel persistent<1>)\n", cudaGetErrorString(cudaDeviceSynchronize()));
    float *src4, *out4;
    if (cudaMalloc(&src4, 4096 * sizeof(float)) || cudaMalloc(&out4, 384 * sizeof(float))) return 1;
    cudaMemset(src4, 0, 4096 * sizeof(float));
    persistent<4><<<1, 384>>>(src4, out4);
    printf("persistent4: %s (kernel persistent<4>)\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
