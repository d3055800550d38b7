// mb_util.h: what the microbenchmarks here share (each is one .cu built by a
// plain nvcc command, this header beside it): a CUDA call checked (exit 1 with
// the call and the error), %globaltimer, a shared-memory address, a median.
#ifndef MB_UTIL_H
#define MB_UTIL_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ unsigned long long gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* the upper median (v[n / 2] of the sorted copy) */
template <typename T> static T med(std::vector<T> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

#endif
