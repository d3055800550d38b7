/* mlab_hip.h: the portability header. Variants are written in HIP; on AMD
 * this includes hip_runtime.h, on NVIDIA it maps the few HIP names we use
 * onto CUDA (Debian's HIP 5.2 headers for the NVIDIA platform do not compile
 * against CUDA 13, so we do not use them). Vendor-specific instructions sit
 * behind the small inline helpers at the end (mlab_rcp_fast, mlab_exp2_fast,
 * shuffles, async copies); the matrix-unit helpers are in mla_mma.h.
 */
#ifndef MLAB_HIP_H
#define MLAB_HIP_H

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__) && !defined(__CUDACC__)
#define MLAB_AMD 1
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#define MLAB_WARP 64
/* MLAB_AMD_LDS64: the target has 64 KB of LDS a CU (gfx940/941/942: MI300X,
 * MI325X), not gfx950's 160 KB: only the 64 KB configurations are built
 * (mla_cfg, KVF | MLA_KV_SMALL; launch_common.h, launch_fit).
 * The device pass knows its arch; the host pass (the launcher's shared-memory
 * size) learns the build's arch from CMake (-DMLAB_AMD_LDS64_BUILD=0|1), and
 * the device pass checks that the two agree. */
#if defined(__HIP_DEVICE_COMPILE__)
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define MLAB_AMD_LDS64 1
#else
#define MLAB_AMD_LDS64 0
#endif
#if defined(MLAB_AMD_LDS64_BUILD) && MLAB_AMD_LDS64_BUILD != MLAB_AMD_LDS64
#error "mlab_hip.h: MLAB_AMD_LDS64_BUILD (the host's tile configuration) disagrees with this device arch"
#endif
#elif defined(MLAB_AMD_LDS64_BUILD)
#define MLAB_AMD_LDS64 MLAB_AMD_LDS64_BUILD
#else
#define MLAB_AMD_LDS64 0
#endif
/* MLAB_AMD_GFX950: the target is gfx950 (MI355X), whose scaled MFMA the
 * variant mxfp4_mfma_scale needs; the host pass learns it from CMake
 * (-DMLAB_AMD_GFX950_BUILD=0|1), and the device pass checks they agree. */
#if defined(__HIP_DEVICE_COMPILE__)
#if defined(__gfx950__)
#define MLAB_AMD_GFX950 1
#else
#define MLAB_AMD_GFX950 0
#endif
#if defined(MLAB_AMD_GFX950_BUILD) && MLAB_AMD_GFX950_BUILD != MLAB_AMD_GFX950
#error "mlab_hip.h: MLAB_AMD_GFX950_BUILD (the host's variant table) disagrees with this device arch"
#endif
#elif defined(MLAB_AMD_GFX950_BUILD)
#define MLAB_AMD_GFX950 MLAB_AMD_GFX950_BUILD
#else
#define MLAB_AMD_GFX950 0
#endif
#else
#define MLAB_NV 1
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#define MLAB_WARP 32
/* ---- HIP names used by mlabench, mapped onto CUDA ---- */
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphExec_t hipGraphExec_t;
typedef cudaDeviceProp hipDeviceProp_t;
#define hipSuccess cudaSuccess
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipGetErrorString cudaGetErrorString
#define hipGetLastError cudaGetLastError
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDevice cudaGetDevice
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipSetDevice cudaSetDevice
#define hipDriverGetVersion cudaDriverGetVersion
#define hipRuntimeGetVersion cudaRuntimeGetVersion
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipStreamCreate cudaStreamCreate
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamBeginCapture cudaStreamBeginCapture
#define hipStreamEndCapture cudaStreamEndCapture
#define hipStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#define hipGraphInstantiate(e, g, a, b, c) cudaGraphInstantiate(e, g, 0)
#define hipGraphLaunch cudaGraphLaunch
#define hipGraphExecDestroy cudaGraphExecDestroy
#define hipGraphDestroy cudaGraphDestroy
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventQuery cudaEventQuery
#define hipErrorNotReady cudaErrorNotReady
#define hipEventElapsedTime cudaEventElapsedTime
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipFuncGetAttributes cudaFuncGetAttributes
#define hipFuncAttributes cudaFuncAttributes
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeClockRate cudaDevAttrClockRate
#define hipDeviceAttributeMemoryClockRate cudaDevAttrMemoryClockRate
#define hipDeviceAttributeMemoryBusWidth cudaDevAttrGlobalMemoryBusWidth
#define hipDeviceAttributeL2CacheSize cudaDevAttrL2CacheSize
#define hipDeviceAttributeMaxSharedMemoryPerMultiprocessor cudaDevAttrMaxSharedMemoryPerMultiprocessor
typedef __nv_bfloat16 hip_bfloat16_t;
#endif

#include <stdint.h>

#include "fp8_sw.h" // mlab_fp8_sw_encode, mlab_fp8_sw_to_f16 (the AMD path)

#define MLAB_DEV static __device__ __forceinline__

/* ---- a warp's threads ordered: the shared-memory accesses before it
 * performed for the warp's others after it (NVIDIA: __syncwarp, which
 * independent thread scheduling needs where one lane writes what the
 * others read; AMD: a wave executes in lockstep, a code-motion barrier) */
MLAB_DEV void mlab_syncwarp(void)
{
#ifdef MLAB_NV
    __syncwarp();
#else
    __builtin_amdgcn_wave_barrier();
#endif
}

/* ---- shuffles ---- */
MLAB_DEV float mlab_shfl_xor(float v, int mask)
{
#ifdef MLAB_NV
    return __shfl_xor_sync(0xffffffffu, v, mask);
#else
    return __shfl_xor(v, mask);
#endif
}

/* true in every lane of the warp (wave) if it is true in any */
MLAB_DEV bool mlab_any(bool v)
{
#ifdef MLAB_NV
    return __any_sync(0xffffffffu, v);
#else
    return __any(v);
#endif
}

/* ---- special functions ---- */
/* 1/x: v_rcp_f32 on AMD, rcp.approx.ftz on NVIDIA (~1 ulp). */
MLAB_DEV float mlab_rcp_fast(float x)
{
#ifdef MLAB_NV
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return __builtin_amdgcn_rcpf(x);
#endif
}
/* 2^x: v_exp_f32 on AMD, ex2.approx.ftz on NVIDIA (2 ulp, exact 0 for -inf). */
MLAB_DEV float mlab_exp2_fast(float x)
{
#ifdef MLAB_NV
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#elif __has_builtin(__builtin_amdgcn_exp2f)
    return __builtin_amdgcn_exp2f(x); /* v_exp_f32 (clang 17+) */
#else
    return exp2f(x); /* clang 15 (Debian's hipcc 5.2): no builtin for v_exp_f32 */
#endif
}
/* IEEE round-to-nearest division (the base variants; immune to fast-math). */
MLAB_DEV float mlab_div_rn(float a, float b)
{
#ifdef MLAB_NV
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

/* IEEE round-to-nearest reciprocal (for mlab_div_rcp, mlab_div.h). */
MLAB_DEV float mlab_rcp_rn(float x)
{
#ifdef MLAB_NV
    return __frcp_rn(x);
#else
    return 1.0f / x;
#endif
}

/* ---- bf16 bits <-> float ---- */
MLAB_DEV float mlab_bf16_bits_to_f32(uint16_t b) { return __uint_as_float((uint32_t)b << 16); }
/* round-to-nearest-even, NaN kept quiet */
MLAB_DEV uint16_t mlab_f32_to_bf16_bits(float f)
{
    uint32_t u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* ---- f16 bits <-> float (round to nearest even) ---- */
MLAB_DEV uint16_t mlab_f32_to_f16_bits(float f)
{
#ifdef MLAB_NV
    return __half_as_ushort(__float2half_rn(f));
#else
    _Float16 h = (_Float16)f;
    return *(uint16_t *)&h;
#endif
}
/* Two floats -> bf16x2 / f16x2 (a low), round to nearest even: one packed
 * conversion on NVIDIA (cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32; a NaN becomes
 * the canonical NaN, where mlab_f32_to_bf16_bits keeps its sign and payload) */
MLAB_DEV uint32_t mlab_f32x2_to_bf16x2(float a, float b)
{
#ifdef MLAB_NV
    const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
    return *(const uint32_t *)&h;
#else
    return (uint32_t)mlab_f32_to_bf16_bits(a) | (uint32_t)mlab_f32_to_bf16_bits(b) << 16;
#endif
}
MLAB_DEV uint32_t mlab_f32x2_to_f16x2(float a, float b)
{
#ifdef MLAB_NV
    const __half2 h = __floats2half2_rn(a, b);
    return *(const uint32_t *)&h;
#else
    return (uint32_t)mlab_f32_to_f16_bits(a) | (uint32_t)mlab_f32_to_f16_bits(b) << 16;
#endif
}
MLAB_DEV float mlab_f16_bits_to_f32(uint16_t b)
{
#ifdef MLAB_NV
    return __half2float(__ushort_as_half(b));
#else
    return (float)*(_Float16 *)&b;
#endif
}

/* ---- fp8 e4m3 (OCP fn on NVIDIA/gfx950, fnuz on gfx940/941/942) ---- */
#if defined(MLAB_AMD) && (defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__))
#define MLAB_FP8_FNUZ 1 /* bias 8, max 240, NaN 0x80, no -0 */
#else
#define MLAB_FP8_FNUZ 0 /* OCP e4m3fn: bias 7, max 448, NaN S.1111.111 */
#endif
/* The fp8 flavour each AMD architecture's MFMA and cvt instructions read,
 * asserted where the kernels are compiled (AMD's CDNA3 and CDNA4 ISA guides):
 * e4m3 FNUZ on gfx940/941/942 (MI300X/MI325X), OCP e4m3fn on gfx950 (MI355X).
 * A gfx9 target with fp8 conversions that is not in this table stops the
 * build until someone looks its flavour up. Second source: the compiler's own
 * feature table, where gfx950's OCP-only scaled conversions exist exactly on
 * the OCP target (clang 22+ answers __has_builtin per target feature). */
#if defined(MLAB_AMD) && defined(__HIP_DEVICE_COMPILE__) && defined(__GFX9__)
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
static_assert(MLAB_FP8_FNUZ == 1, "mlab_hip.h: gfx940/941/942 read fp8 as e4m3fnuz");
#elif defined(__gfx950__)
static_assert(MLAB_FP8_FNUZ == 0, "mlab_hip.h: gfx950 reads fp8 as OCP e4m3fn");
#elif __has_builtin(__builtin_amdgcn_cvt_pk_f32_fp8)
#error "mlab_hip.h: this gfx9 target has fp8 conversions of a flavour not in the table (fnuz or OCP?)"
#endif
#if __has_builtin(__builtin_amdgcn_cvt_pk_f32_fp8) && (defined(__gfx950__) || __clang_major__ >= 22)
static_assert(MLAB_FP8_FNUZ == !__has_builtin(__builtin_amdgcn_cvt_scalef32_pk_f32_fp8),
              "mlab_hip.h: fp8 flavour disagrees with the compiler's target features (OCP scaled cvt)");
#endif
#endif

/* Round-to-nearest-even, saturating to +-max; NaN -> NaN code. */
MLAB_DEV uint8_t mlab_f32_to_fp8(float x)
{
#ifdef MLAB_NV
    return (uint8_t)__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
#else
    return mlab_fp8_sw_encode<MLAB_FP8_FNUZ>(x);
#endif
}

/* Two floats -> two fp8 codes (a in the low byte), each as mlab_f32_to_fp8:
 * one pair conversion on NVIDIA (cvt.rn.satfinite.e4m3x2.f32) */
MLAB_DEV uint16_t mlab_f32x2_to_fp8x2(float a, float b)
{
#ifdef MLAB_NV
    return (uint16_t)__nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, __NV_E4M3);
#else
    return (uint16_t)(mlab_f32_to_fp8(a) | (uint32_t)mlab_f32_to_fp8(b) << 8);
#endif
}

/* Four floats -> four fp8 codes (low byte first), each rounded to bf16 (RNE)
 * and then to fp8 (RNE, saturating): the a8w8 Q quantization's two roundings
 * (mla_kernel.h q_fp8_codes8); inputs within +-fp8 max. NVIDIA: a packed
 * bf16 rounding and a pair conversion a pair (cvt.rn.bf16x2.f32,
 * cvt.rn.satfinite.e4m3x2.f32) where a value at a time took ~8 instructions */
MLAB_DEV uint32_t mlab_f32x4_to_fp8x4_bf16(float a, float b, float c, float d)
{
#ifdef MLAB_NV
    const float2 lo = __bfloat1622float2(__floats2bfloat162_rn(a, b)),
                 hi = __bfloat1622float2(__floats2bfloat162_rn(c, d));
#else
    auto r = [](float x) { return mlab_bf16_bits_to_f32(mlab_f32_to_bf16_bits(x)); };
    const float2 lo = make_float2(r(a), r(b)), hi = make_float2(r(c), r(d));
#endif
    return (uint32_t)mlab_f32x2_to_fp8x2(lo.x, lo.y) | (uint32_t)mlab_f32x2_to_fp8x2(hi.x, hi.y) << 16;
}

/* Two fp8 codes (low byte first) -> f16x2 as 32 bits, exact. */
MLAB_DEV uint32_t mlab_fp8x2_to_f16x2(uint16_t two)
{
#ifdef MLAB_NV
    __half2_raw h = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)two, __NV_E4M3);
    return (uint32_t)h.x | ((uint32_t)h.y << 16);
#elif (defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__)) && \
    __has_builtin(__builtin_amdgcn_cvt_pk_f32_fp8)
    /* v_cvt_pk_f32_fp8 (both codes, in this arch's flavour: asserted above),
     * then v_cvt_pkrtz_f16_f32: exact, every e4m3 value is a normal f16 */
    typedef __attribute__((ext_vector_type(2))) float f2;
    f2 f = __builtin_amdgcn_cvt_pk_f32_fp8((int)two, false);
    return __builtin_bit_cast(uint32_t, __builtin_amdgcn_cvt_pkrtz(f[0], f[1]));
#else
    return (uint32_t)mlab_fp8_sw_to_f16<MLAB_FP8_FNUZ>((uint8_t)two) |
           ((uint32_t)mlab_fp8_sw_to_f16<MLAB_FP8_FNUZ>((uint8_t)(two >> 8)) << 16);
#endif
}

/* Four fp8 codes (low byte first) -> two f16x2, exact: lo of codes 0-1, hi
 * of codes 2-3. NVIDIA sm_89+: one conversion a pair, the second reading the
 * word's high half directly (F2FP ... R.H1), where the 16-bit casts of
 * mlab_fp8x2_to_f16x2 cost a shift each (SHF, an ALU instruction) */
MLAB_DEV void mlab_fp8x4_to_f16x2x2(uint32_t four, uint32_t &lo, uint32_t &hi)
{
#if defined(MLAB_NV) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    asm("{\n\t.reg .b16 l, h;\n\tmov.b32 {l, h}, %2;\n\t"
        "cvt.rn.f16x2.e4m3x2 %0, l;\n\tcvt.rn.f16x2.e4m3x2 %1, h;\n\t}"
        : "=r"(lo), "=r"(hi) : "r"(four));
#else
    lo = mlab_fp8x2_to_f16x2((uint16_t)four);
    hi = mlab_fp8x2_to_f16x2((uint16_t)(four >> 16));
#endif
}

/* ---- loads that skip the SM's L1 (data another block just wrote; the
 * writer fenced, the reader fences after its atomic): ld.global.cg on
 * NVIDIA; on AMD the agent-scope acquire fence already invalidated L1 ---- */
template <typename T> MLAB_DEV T mlab_ldcg(const T *p) /* float, float4, uint2 */
{
#ifdef MLAB_NV
    return __ldcg(p);
#else
    return *p;
#endif
}

/* ---- a spin on a global counter other blocks increment (the barrier
 * merge, mla_kernel.h merge_barrier): a load with acquire semantics at
 * device scope (what it reads orders every later load of this thread after
 * the stores that were released before the increments it sees), and a
 * short back-off between polls ---- */
MLAB_DEV unsigned mlab_ld_acquire(const unsigned *p)
{
#if defined(MLAB_NV) && defined(__CUDA_ARCH__)
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
    return v;
#else
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}
MLAB_DEV void mlab_backoff(void)
{
#if defined(MLAB_NV) && defined(__CUDA_ARCH__)
    __nanosleep(32); /* a spin measured the same (perf-notes v25) */
#elif defined(__HIP_DEVICE_COMPILE__)
    __builtin_amdgcn_s_sleep(1);
#endif
}

/* Byte permute: result byte i = byte sel[i] of {a (0-3), b (4-7)}. */
MLAB_DEV uint32_t mlab_prmt(uint32_t a, uint32_t b, uint32_t sel)
{
#ifdef MLAB_NV
    return __byte_perm(a, b, sel);
#else
    uint64_t x = ((uint64_t)b << 32) | a;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        r |= (uint32_t)((x >> (8 * ((sel >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
#endif
}

/* ---- programmatic dependent launch (NVIDIA sm_90+; no-ops elsewhere) ----
 * A kernel launched with mlab_launch_after (launch_common.h) may start while
 * the kernel before it in the stream is still running; it must call
 * mlab_grid_dep_wait() before it reads anything that kernel wrote (the wait
 * returns once that grid has finished and its writes are visible). A kernel
 * calls mlab_grid_dep_trigger() where its dependent may start launching. */
MLAB_DEV void mlab_grid_dep_wait(void)
{
#if defined(MLAB_NV) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
/* x computed at this point of the program: stored to a shared word nothing
 * reads (ptxas drops what an empty asm reads; a store it keeps, and keeps
 * before a later grid wait). A dependent that folds the kernel parameters
 * it reads after its grid wait into x and holds it before the wait has
 * their constant-cache lines in before it (perf-notes v35: the combine's
 * first parameter reads after the wait missed the constant cache); a
 * no-op elsewhere */
MLAB_DEV void mlab_hold(unsigned long long x)
{
#if defined(MLAB_NV) && defined(__CUDA_ARCH__)
    __shared__ unsigned long long held;
    asm volatile("st.shared.u64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&held)), "l"(x) : "memory");
#else
    (void)x;
#endif
}
MLAB_DEV void mlab_grid_dep_trigger(void)
{
#if defined(MLAB_NV) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

#ifdef MLAB_AMD
#include "arch/amd_lds.h" // gfx950: LDS DMA (mlab_lds_dma_rows, mlab_amd_wait_vm0), transposing LDS reads
#endif

/* ---- global -> shared copies of 16 bytes, asynchronous where the GPU can ---- */
/* valid == 0 fills the 16 bytes with zeros (rows past a sequence end). */
MLAB_DEV void mlab_cp16(void *smem, const void *gmem, int valid)
{
#ifdef MLAB_NV
    uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
    int n = valid ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
#else
    uint4 v = valid ? *(const uint4 *)gmem : make_uint4(0, 0, 0, 0);
    *(uint4 *)smem = v;
#endif
}
MLAB_DEV void mlab_cp_commit(void)
{
#ifdef MLAB_NV
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
/* Wait until at most n committed groups are still in flight. */
template <int N> MLAB_DEV void mlab_cp_wait(void)
{
#ifdef MLAB_NV
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#elif defined(MLAB_LDS_DMA)
    /* gfx950: vmcnt counts a wave's loads, not groups, so every N waits for
     * all of them (AMD's pipelines are at most 2 deep: N is 0 there) */
    mlab_amd_wait_vm0();
#endif
}

#endif
