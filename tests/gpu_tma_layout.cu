/* gpu_tma_layout.cu: the a8w8 decode's stage loader (variants/mla_kernel.h
 * load_stage_tmap) lands a tile of fp8 KV rows in the layout the products
 * read (variants/arch/nv_tma.h mlab_sw64: 64-byte swizzled panels), by each
 * of its paths: a whole tile by tensor copies (the driver's 64-byte swizzle
 * must be the one mlab_sw64 spells), a row's last, partial tile by cp.async
 * (zeros past the sequence end, nothing read there), and a whole tile by
 * cp.async where no tensor map exists. Every byte of the stage is checked
 * against the pattern of its (row, column). A wrong layout here is named
 * here, not only seen as a failed decode.
 * Exit 0 pass, 1 mismatch, 77 no NVIDIA GPU of sm_90 or later (skipped). */
#include <stdio.h>
#include <string.h>

#include "variants/mla_kernel.h"

#if MLAB_HAVE_BULK
typedef mla_cfg<KV_FP8> C;
static_assert(C::TMAP, "gpu_tma_layout: an sm_90 build with the tensor-copy stages");

__global__ void __launch_bounds__(MLA_NT) k_stage(const mla_params p, int first, int r0, int rend, uint8_t *out)
{
#ifdef __CUDA_ARCH__ /* the device helpers exist in the device pass only */
    extern __shared__ __align__(1024) uint8_t smem[];
    uint64_t *bar = (uint64_t *)(smem + C::STAGE);
    for (int i = threadIdx.x; i < C::STAGE / 16; i += MLA_NT) ((uint4 *)smem)[i] = make_uint4(~0u, ~0u, ~0u, ~0u);
    if (threadIdx.x == 0) {
        mlab_bar_init_n(bar, MLA_NT);
        mlab_bulk_init_fence();
    }
    __syncthreads();
    load_stage_tmap<KV_FP8>(p, p.kv_tmap, smem, bar, first, r0, rend);
    mlab_cp_commit();
    mlab_bulk_wait(bar, 0);
    for (int i = threadIdx.x; i < C::STAGE; i += MLA_NT) out[i] = smem[i];
#endif
}

static uint8_t pattern(int row, int col) { return (uint8_t)(row * 131 + col * 7 + (col >> 6) * 29 + 1); }
#endif

int main(void)
{
    int ndev = 0, cc = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("skipped: no NVIDIA GPU\n");
        return 77;
    }
    cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, 0);
#if !MLAB_HAVE_BULK
    printf("skipped: a build without sm_90 tensor copies\n");
    return 77;
#else
    if (cc < 9) {
        printf("skipped: compute capability %d < 9\n", cc);
        return 77;
    }
    enum { ROWS = 200 };
    static uint8_t kv[ROWS * MLA_D], got[C::STAGE];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < MLA_D; c++) kv[r * MLA_D + c] = pattern(r, c);
    uint8_t *dkv, *dout;
    void *dmap;
    cudaMalloc(&dkv, sizeof kv);
    cudaMalloc(&dout, C::STAGE);
    cudaMalloc(&dmap, sizeof(CUtensorMap));
    cudaMemcpy(dkv, kv, sizeof kv, cudaMemcpyHostToDevice);
    CUtensorMap tm;
    if (mlab_tmap_rows(&tm, dkv, ROWS, MLA_D) != 0) {
        printf("FAIL: the driver could not encode the tensor map\n");
        return 1;
    }
    cudaMemcpy(dmap, &tm, sizeof tm, cudaMemcpyHostToDevice);
    cudaFuncSetAttribute(k_stage, cudaFuncAttributeMaxDynamicSharedMemorySize, C::STAGE + 16);
    struct { const char *what; int map, first, r0, rend; } cases[] = {
        {"whole tile, tensor copies", 1, 3, 64, 197},
        {"whole tile ending at the buffer's last row, tensor copies", 1, 100, 36, 100},
        {"partial tile (22 rows), cp.async", 1, 3, 128, 150},
        {"partial tile (1 row), cp.async", 1, 0, 192, 193},
        {"whole tile, no map: cp.async", 0, 5, 64, 195},
    };
    long bad_all = 0;
    for (auto &k : cases) {
        mla_params p;
        memset(&p, 0, sizeof p);
        p.kv_fp8 = dkv;
        p.kv_tmap = k.map ? dmap : NULL;
        cudaMemset(dout, 0xee, C::STAGE);
        k_stage<<<1, MLA_NT, C::STAGE + 16>>>(p, k.first, k.r0, k.rend, dout);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("FAIL %s: %s\n", k.what, cudaGetErrorString(e));
            return 1;
        }
        cudaMemcpy(got, dout, C::STAGE, cudaMemcpyDeviceToHost);
        const int nok = k.rend - k.r0 < C::BN ? k.rend - k.r0 : C::BN;
        long bad = 0;
        for (int r = 0; r < C::BN; r++)
            for (int c = 0; c < MLA_D; c++) {
                const uint8_t want = r < nok ? pattern(k.first + k.r0 + r, c) : 0;
                const uint8_t g = got[mlab_sw64(r, c / 16) + c % 16];
                if (g != want && bad++ < 4)
                    printf("  %s: row %d col %d at byte %d: %02x, want %02x\n", k.what, r, c,
                           mlab_sw64(r, c / 16) + c % 16, g, want);
            }
        printf("%s %s (%d rows)\n", bad ? "FAIL" : "ok  ", k.what, nok);
        bad_all += bad;
    }
    return bad_all ? 1 : 0;
#endif
}
