/* gpu_q_quant.cu: the decode's a8w8 Q quantization (variants/mla_kernel.h
 * q_scale_from_amax, q_fp8_codes8) against reference/numerics.c's
 * (mlab_fp8_quantize_tensor: y = clamp(bf16(x / s)), code = fp8_rne(y)) on
 * every bf16 value x with |x| <= amax (the domain the decode sees: amax is
 * the largest |x| of Q), for amax values across the range (1e-12 to 3e38).
 * Exact: the codes must be the reference's bit for bit, but a zero may carry
 * either sign (the two are the same value in every product). Outside that
 * domain x / s can overflow fp32, where the division's correction step gives
 * NaN (and the clamp -fmax): never reached from a real amax, and so not
 * tested. NaN and +-Inf inputs make the whole tensor's amax NaN or Inf.
 * Exit 0 pass, 1 mismatch, 77 no NVIDIA GPU (skipped). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "variants/mla_kernel.h"
extern "C" {
#include "reference/numerics.h"
}

__global__ void k_quant(const uint16_t *x, int n8, float amax, float fmax, float *scale, uint8_t *codes)
{
    const float qs = q_scale_from_amax(amax, fmax), rqs = mlab_rcp_rn(qs);
    if (blockIdx.x == 0 && threadIdx.x == 0) *scale = qs;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n8; i += gridDim.x * blockDim.x)
        ((uint2 *)codes)[i] = q_fp8_codes8(((const uint4 *)x)[i], qs, rqs, fmax);
}

int main(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("skipped: no NVIDIA GPU\n");
        return 77;
    }
    enum { N = 65536 };
    static uint16_t x[N], xd[N];
    static uint8_t got[N], want[N];
    int n = 0;
    for (int b = 0; b < N; b++)
        if (((b >> 7) & 0xff) != 0xff) x[n++] = (uint16_t)b; /* finite */
    while (n % 8) x[n++] = 0;
    const mlab_fp8_fmt fmt = MLAB_FP8_E4M3FN; /* NVIDIA's flavour */
    const float fmax = mlab_fp8_max(fmt);
    const float amaxes[] = {1e-12f, 3e-9f, 0.0137f, 0.5f, 1.f, 3.f, 17.25f, 448.f, 1000.f, 65504.f, 3e9f, 1e30f, 3e38f};
    uint16_t *dx;
    uint8_t *dc;
    float *ds, qs;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dc, sizeof got);
    cudaMalloc(&ds, 4);
    long bad = 0;
    for (float amax : amaxes) {
        const float ab32 = mlab_bf16_to_f32(mlab_bf16_from_f32(amax));
        int m = 0; /* the domain: |x| <= amax */
        for (int i = 0; i < n; i++)
            if (fabsf(mlab_bf16_to_f32(x[i])) <= ab32) xd[m++] = x[i];
        while (m % 8) xd[m++] = 0;
        cudaMemcpy(dx, xd, 2 * (size_t)m, cudaMemcpyHostToDevice);
        k_quant<<<64, 256>>>(dx, m / 8, amax, fmax, ds, dc);
        if (cudaMemcpy(got, dc, m, cudaMemcpyDeviceToHost) != cudaSuccess ||
            cudaMemcpy(&qs, ds, 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
            printf("FAIL: CUDA error %s\n", cudaGetErrorString(cudaGetLastError()));
            return 1;
        }
        /* the reference's scale: the tensor {amax} quantized alone (bf16 amax) */
        const uint16_t ab = mlab_bf16_from_f32(amax);
        uint8_t c1;
        const float s = mlab_fp8_quantize_tensor(&ab, 1, fmt, &c1);
        if (s != qs) {
            printf("FAIL amax %g: scale %g on the GPU, %g in the reference\n", (double)amax, (double)qs, (double)s);
            bad++;
            continue;
        }
        long off = 0;
        for (int i = 0; i < m; i++) {
            const float y0 = mlab_bf16_to_f32(mlab_bf16_from_f32(mlab_bf16_to_f32(xd[i]) / s));
            const float y = y0 > fmax ? fmax : y0 < -fmax ? -fmax : y0;
            want[i] = mlab_fp8_encode(y, fmt);
            const int zero = (want[i] & 0x7f) == 0 && (got[i] & 0x7f) == 0;
            if (got[i] != want[i] && !zero && off++ < 4)
                printf("FAIL amax %g: bf16 0x%04x -> code 0x%02x, reference 0x%02x\n", (double)amax, xd[i],
                       got[i], want[i]);
        }
        printf("amax %-8g scale %-12g %ld of %d codes off\n", (double)amax, (double)s, off, m);
        bad += off;
    }
    printf("%s\n", bad ? "FAIL" : "ok");
    return bad ? 1 : 0;
}
