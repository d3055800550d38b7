/* mlab_hd.h: MLAB_HD, for the few helpers that host code (the C tests) and
 * the kernels share: __host__ __device__ under nvcc/hipcc, static inline in C. */
#ifndef MLAB_HD_H
#define MLAB_HD_H

#if defined(__HIPCC__) || defined(__CUDACC__)
#define MLAB_HD __host__ __device__ inline
#else
#define MLAB_HD static inline
#endif

#endif
