// f2fp_bench.cu: throughput of the e4m3 -> f16 pair conversion the fp8 core uses
// (cvt.rn.f16x2.e4m3x2, SASS F2FP.F16.E4M3.UNPACK_B) against an integer spelling
// and a LOP3 baseline: independent chains, every SM full; prints instructions a
// clock and SM. Build and run on an NVIDIA GPU of sm_89 or later:
//   nvcc -O3 -arch=sm_90a -o f2fp_bench papers/microbench/f2fp_bench.cu && ./f2fp_bench
// Measured on the H200: papers/reports/h200-2026-12-01ze/README.md
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CH 8
#define ITERS 4096

__device__ __forceinline__ uint32_t cvt_lo(uint32_t x) {
  uint32_t r;
  asm volatile("{ .reg .b16 l, h; mov.b32 {l, h}, %1; cvt.rn.f16x2.e4m3x2 %0, l; }" : "=r"(r) : "r"(x));
  return r;
}
// integer: the two bytes b0, b2 of x -> f16 bits (b & 0x80) << 8 | (b & 0x7f) << 7 (value * 2^-8)
__device__ __forceinline__ uint32_t int_lo(uint32_t x) {
  uint32_t t = x & 0x00ff00ffu;
  uint32_t m = x & 0x00800080u;
  return (t + m) << 7;
}
__device__ __forceinline__ uint32_t lop(uint32_t x, uint32_t k) {
  uint32_t r;
  asm volatile("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(x), "r"(k), "r"(x >> 0));
  return r;
}

template <int MODE>
__global__ void bench(uint32_t *out, uint32_t seed, long long *cyc) {
  uint32_t x[CH];
#pragma unroll
  for (int i = 0; i < CH; i++) x[i] = seed * (threadIdx.x + 7 * i + 1) + blockIdx.x;
  long long c0 = clock64();
  for (int it = 0; it < ITERS; it++) {
#pragma unroll
    for (int i = 0; i < CH; i++) {
      if (MODE == 0) x[i] = cvt_lo(x[i]);                 // 1 F2FP per pair
      if (MODE == 1) x[i] = int_lo(x[i]) ^ (x[i] >> 8);   // integer pair (3-4 ops) + feedback
      if (MODE == 2) x[i] = lop(x[i], seed);              // 1 LOP3
      if (MODE == 3) { uint32_t a = cvt_lo(x[i]); x[i] = int_lo(a); } // mixed chain
    }
  }
  long long c1 = clock64();
  uint32_t acc = 0;
#pragma unroll
  for (int i = 0; i < CH; i++) acc ^= x[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  if (threadIdx.x == 0 && blockIdx.x == 0) *cyc = c1 - c0;
}

template <int MODE>
static void run(const char *name, int sms, uint32_t *out, long long *cyc) {
  int blocks = sms * 8, threads = 256;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  bench<MODE><<<blocks, threads>>>(out, 3, cyc);
  cudaEventRecord(a);
  bench<MODE><<<blocks, threads>>>(out, 5, cyc);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b);
  long long c; cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost);
  double ops = (double)blocks * threads * ITERS * CH;
  int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
  double per_clk_sm = ops / (ms * 1e-3) / sms / (clk * 1e3);
  printf("%-28s %8.3f ms  %7.2f per clock per SM (at the %d MHz max clock)  block0 cycles %lld -> %.2f per clock per SM from clock64 (8 blocks)\n",
         name, ms, per_clk_sm, clk / 1000, c, (double)8 * threads * ITERS * CH / c);
}

int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  uint32_t *out; long long *cyc;
  cudaMalloc(&out, sms * 8 * 256 * 4); cudaMalloc(&cyc, 8);
  run<2>("LOP3 (reference, 64/clk?)", sms, out, cyc);
  run<0>("F2FP e4m3x2 -> f16x2", sms, out, cyc);
  run<1>("integer pair (and,and,add,shl,shr,xor)", sms, out, cyc);
  run<3>("F2FP + integer pair", sms, out, cyc);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
