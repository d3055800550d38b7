// launch_chain.cu: what a call's chain of kernels costs by itself. mlabench's
// a8w8 call is three launches (the Q amax pass, the decode as its
// programmatic dependent (PDL), the combine as the decode's), bf16's two; the
// read limit it is measured against is one. Here the kernels do nothing but
// hold their SMs for a set time (spinning on %globaltimer), so what is left
// is the chain: each shape timed cold as mlabench times a call (a 1 GiB
// memset before every sample, events around the launches; median of 31):
//   1         one kernel (64 blocks of 256 threads, as the decode of 4 x 1024)
//   2 plain   that kernel, then a second (256 blocks of 32 threads) in order
//   2 pdl     the second as a programmatic dependent: launched at the first's
//             trigger (griddepcontrol.launch_dependents, at its start), it
//             waits (griddepcontrol.wait) for the first to end
//   3 pdl     a short first kernel (18 blocks, as the amax pass) before both,
//             each later one its predecessor's dependent: mlabench's a8w8 call
//   1 coop    the one kernel as a cooperative launch (every block resident at
//             once or the launch fails: the barrier merge's launch, v25)
//   2 pdl coop the short first kernel, then the main one cooperative and its
//             programmatic dependent: the barrier merge's a8w8 call
// and, from %globaltimer inside the kernels (medians over samples): the
// first kernel's start after the events' start cannot be seen, but the
// dependent's release can: the last block of its predecessor ending -> the
// dependent's first block past its wait ("release").
// Prints CSV: shape, hold us (the main kernel's spin), median us, release us.
// Build and run on an NVIDIA GPU of sm_90 or later:
//   nvcc -O3 -arch=sm_90a -o launch_chain papers/microbench/launch_chain.cu
//   ./launch_chain
// Measured on the H200: papers/perf-notes.md v21.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#include "mb_util.h" // CK, gtime, sa, med

__device__ __forceinline__ void trigger() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
__device__ __forceinline__ void dep_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// times[0]: latest end of the kernel before; times[1]: earliest pass of the wait
__global__ void hold_kernel(unsigned long long ns, int wait, unsigned long long *end_max, unsigned long long *wait_min)
{
    trigger();
    if (wait) {
        dep_wait();
        if (threadIdx.x == 0 && wait_min) atomicMin(wait_min, gtime());
    }
    const unsigned long long t0 = gtime();
    while (gtime() - t0 < ns) {}
    __syncthreads();
    if (threadIdx.x == 0 && end_max) atomicMax(end_max, gtime());
}

template <typename... A>
static void launch(bool pdl, int grid, int block, cudaStream_t s, bool coop, A... args)
{
    cudaLaunchAttribute attr[2];
    int n = 0;
    if (pdl) {
        attr[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[n++].val.programmaticStreamSerializationAllowed = 1;
    }
    if (coop) {
        attr[n].id = cudaLaunchAttributeCooperative;
        attr[n++].val.cooperative = 1;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = n;
    CK(cudaLaunchKernelEx(&cfg, hold_kernel, args...));
}

int main()
{
    const size_t flush_bytes = 1ull << 30;
    void *flush;
    CK(cudaMalloc(&flush, flush_bytes));
    unsigned long long *t; // [0] first kernel's end, [1] second's wait, [2] second's end, [3] third's wait
    CK(cudaMalloc(&t, 4 * sizeof *t));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const int reps = 31;
    printf("shape,hold_us,median_us,release_us\n");
    const char *shapes[6] = {"1", "2 plain", "2 pdl", "3 pdl", "1 coop", "2 pdl coop"};
    for (unsigned long long hold : {0ull, 5000ull})
        for (int k = 0; k < 6; k++) {
            const bool coop = k >= 4, amax = k == 3 || k == 5, second = k >= 1 && k <= 3;
            std::vector<float> ms;
            std::vector<double> rel;
            for (int r = 0; r < reps + 2; r++) {
                const unsigned long long init[4] = {0ull, ~0ull, 0ull, ~0ull};
                CK(cudaMemcpyAsync(t, init, sizeof init, cudaMemcpyHostToDevice, s));
                CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s));
                CK(cudaEventRecord(e0, s));
                if (amax) launch(false, 18, 256, s, false, 0ull, 0, (unsigned long long *)nullptr, (unsigned long long *)nullptr);
                launch(amax, 64, 256, s, coop, hold, amax ? 1 : 0, t, (unsigned long long *)nullptr);
                if (second) launch(k >= 2, 256, 32, s, false, 0ull, k >= 2 ? 1 : 0, t + 2, t + 1);
                CK(cudaEventRecord(e1, s));
                CK(cudaStreamSynchronize(s));
                unsigned long long h[4];
                CK(cudaMemcpy(h, t, sizeof h, cudaMemcpyDeviceToHost));
                float m;
                CK(cudaEventElapsedTime(&m, e0, e1));
                if (r < 2) continue; // warm-up
                ms.push_back(m * 1000.f);
                if (k >= 2 && second) rel.push_back((double)((long long)h[1] - (long long)h[0]) / 1000.0);
            }
            std::sort(ms.begin(), ms.end());
            std::sort(rel.begin(), rel.end());
            printf("%s,%.1f,%.2f,", shapes[k], hold / 1000.0, ms[ms.size() / 2]);
            if (rel.empty()) printf("\n");
            else printf("%.2f\n", rel[rel.size() / 2]);
        }
    return 0;
}
