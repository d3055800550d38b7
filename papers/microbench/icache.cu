// icache.cu: what a kernel's first pass through its own code costs when the
// code is cold. mlabench times every call cold (a 1 GiB memset before it
// evicts L2); a kernel's instructions live in memory like its data, so a
// call's first pass through straight-line code may wait for instruction
// fetches that a second pass does not. perf-notes v34 left ~1 us of the
// combine (from its grid wait to its weights) unexplained by its loads;
// v19 saw fp8_wgmma +4..+46% slower with its consumer code copied twice.
// Here a kernel of 132 blocks of 128 threads runs a straight-line body of
// N independent FMAs (4 chains, 16 bytes of SASS each: N / 64 KB of code)
// twice in a loop; thread 0 of each block records %globaltimer and clock64
// at the start and after each pass. Pass 0 minus pass 1 is what fetching
// the body's instructions cost the first time. Each size is timed
//   flush     after a 1 GiB memset (as mlabench times a call)
//   noflush   launched again straight after the same kernel
// (median over blocks, then over 31 samples).
// Prints CSV: code_kb, timing, pass0_us, pass1_us, extra_us, extra_ns_per_kb.
// Build and run on an NVIDIA GPU of sm_90 or later:
//   nvcc -O3 -arch=sm_90a -o icache papers/microbench/icache.cu
//   ./icache
// Measured on the H200: papers/perf-notes.md v35.
#include "mb_util.h" // CK, gtime, med

template <int N> __global__ void __launch_bounds__(128) body(float c, float d, float *sink, unsigned long long *t)
{
    float a0 = threadIdx.x, a1 = 1.f, a2 = 2.f, a3 = 3.f;
    const unsigned long long g0 = gtime();
    unsigned long long g1 = 0, g2 = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {
#pragma unroll
        for (int i = 0; i < N / 4; i++) // volatile: each one FFMA, in this order
            asm volatile("fma.rn.f32 %0, %0, %4, %5;\n\tfma.rn.f32 %1, %1, %4, %5;\n\t"
                         "fma.rn.f32 %2, %2, %4, %5;\n\tfma.rn.f32 %3, %3, %4, %5;"
                         : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3) : "f"(c), "f"(d));
        const unsigned long long g = gtime();
        if (pass == 0) g1 = g; else g2 = g;
    }
    if (a0 + a1 + a2 + a3 == 12345.f) *sink = a0; // keeps the chains
    if (threadIdx.x == 0) {
        t[3 * blockIdx.x] = g0;
        t[3 * blockIdx.x + 1] = g1;
        t[3 * blockIdx.x + 2] = g2;
    }
}

template <int N> static void run(void *flush, size_t flush_bytes, float *sink, unsigned long long *t, cudaStream_t s)
{
    const int B = 132;
    for (int fl = 1; fl >= 0; fl--) {
        std::vector<double> p0s, p1s;
        for (int r = 0; r < 33; r++) {
            if (fl) CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s));
            else body<N><<<B, 128, 0, s>>>(1.0001f, 1e-7f, sink, t); // the same code just ran
            body<N><<<B, 128, 0, s>>>(1.0001f, 1e-7f, sink, t);
            CK(cudaStreamSynchronize(s));
            std::vector<unsigned long long> h(3 * B);
            CK(cudaMemcpy(h.data(), t, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
            if (r < 2) continue; // warm-up
            std::vector<double> p0(B), p1(B);
            for (int b = 0; b < B; b++) {
                p0[b] = (h[3 * b + 1] - h[3 * b]) / 1000.0;
                p1[b] = (h[3 * b + 2] - h[3 * b + 1]) / 1000.0;
            }
            p0s.push_back(med(p0));
            p1s.push_back(med(p1));
        }
        const double a = med(p0s), b = med(p1s), kb = N * 16 / 1024.0;
        printf("%.0f,%s,%.3f,%.3f,%.3f,%.1f\n", kb, fl ? "flush" : "noflush", a, b, a - b, (a - b) * 1000.0 / kb);
    }
}

int main()
{
    const size_t flush_bytes = 1ull << 30;
    void *flush;
    float *sink;
    unsigned long long *t;
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMalloc(&sink, sizeof *sink));
    CK(cudaMalloc(&t, 3 * 132 * sizeof *t));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    printf("code_kb,timing,pass0_us,pass1_us,extra_us,extra_ns_per_kb\n");
    run<64>(flush, flush_bytes, sink, t, s);
    run<256>(flush, flush_bytes, sink, t, s);
    run<1024>(flush, flush_bytes, sink, t, s);
    run<4096>(flush, flush_bytes, sink, t, s);
    run<8192>(flush, flush_bytes, sink, t, s);
    return 0;
}
