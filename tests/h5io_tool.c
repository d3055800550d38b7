/* h5io_tool.c: a small driver of harness/case_read.c and case_write.c for the Python tests.
 *
 *   h5io_tool write-sample PATH [--fnuz] [--tie even] [--no-ref]
 *       writes the sample case below with mlab_h5_write_case
 *   h5io_tool read PATH
 *       reads PATH with mlab_h5_read_case and prints a digest: one "key value"
 *       line per parameter, the indptrs in full, and per tensor the FNV-1a
 *       64-bit hash of its raw bytes (little-endian), so a test can compare
 *       every bit without dumping the tensors
 * The exit code is the function's MLAB_EXIT_* code; on failure the one-line
 * reason goes to stderr as "h5io_tool: <why>".
 *
 * The sample case (mirrored by tests/test_h5py.py, keep them in step):
 *   batch 3, qo_indptr {0,1,3,4}, kv_indptr {0,5,5,12} (item 1 has no kv
 *   rows), so q_seq_len = kv_len = -1; name "sample", seed
 *   0xFEDCBA9876543210, sm_scale 1/24, input_scale 0.02, kv_fp8_scale 0.0123,
 *   producer "h5io_tool write-sample", commit "0123abcd".
 *   Element i of a tensor with salt s comes from
 *     h(s, i) = ((i + s * 0x9E3779B9) mod 2^32) * 2654435761 mod 2^32
 *   bf16 (q s=1, kv_bf16 s=2, ref_out s=3): v = h >> 16, and v &= 0xBFFF
 *     when v's exponent is all ones (so every value is finite);
 *   kv_fp8 (s=4): b = h >> 24; the format's NaN code is replaced
 *     (fn: b ^= 1 when b & 0x7F == 0x7F; fnuz: 0x80 -> 0x00);
 *   kv_mxfp4 (s=5): b = h >> 24; kv_mxfp4_scale (s=6): b = h >> 24, 255 -> 254.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/exitcodes.h" /* MLAB_EXIT_* */
#include "harness/case_read.h"  /* mlab_h5_read_case */
#include "harness/case_write.h" /* mlab_h5_write_case */

static uint32_t sample_hash(uint32_t salt, uint64_t i)
{
    uint32_t k = (uint32_t)(i + (uint64_t)salt * 0x9E3779B9u);
    return k * 2654435761u;
}

static void fill_bf16(uint16_t *x, size_t n, uint32_t salt)
{
    for (size_t i = 0; i < n; i++) {
        uint16_t v = (uint16_t)(sample_hash(salt, i) >> 16);
        if ((v & 0x7F80u) == 0x7F80u)
            v &= 0xBFFFu;
        x[i] = v;
    }
}

static int write_sample(const char *path, int fnuz, mlab_fp4_tie tie, int with_ref)
{
    static const int32_t qo[] = {0, 1, 3, 4}, kv[] = {0, 5, 5, 12};
    mlab_case c;
    memset(&c, 0, sizeof c);
    if (mlab_case_alloc(&c, 3, 4, 12) != 0) {
        fprintf(stderr, "h5io_tool: out of memory\n");
        return MLAB_EXIT_INTERNAL;
    }
    snprintf(c.name, sizeof c.name, "sample");
    snprintf(c.producer, sizeof c.producer, "h5io_tool write-sample");
    snprintf(c.commit, sizeof c.commit, "0123abcd");
    c.q_seq_len = -1;
    c.kv_len = -1;
    c.sm_scale = 1.0f / 24.0f;
    c.seed = 0xFEDCBA9876543210ull;
    c.input_scale = 0.02f;
    c.fp8_fmt = fnuz ? MLAB_FP8_E4M3FNUZ : MLAB_FP8_E4M3FN;
    c.fp4_tie = tie;
    c.kv_fp8_scale = 0.0123f;
    memcpy(c.qo_indptr, qo, sizeof qo);
    memcpy(c.kv_indptr, kv, sizeof kv);
    size_t nq = (size_t)c.total_q * MLAB_HEADS * MLAB_DQK, nkv = (size_t)c.total_kv * MLAB_DQK;
    fill_bf16(c.q, nq, 1);
    fill_bf16(c.kv_bf16, nkv, 2);
    for (size_t i = 0; i < nkv; i++) {
        uint8_t b = (uint8_t)(sample_hash(4, i) >> 24);
        if (!fnuz && (b & 0x7F) == 0x7F)
            b ^= 1;
        if (fnuz && b == 0x80)
            b = 0;
        c.kv_fp8[i] = b;
    }
    for (size_t i = 0; i < (size_t)c.total_kv * MLAB_FP4_ROW; i++)
        c.kv_fp4[i] = (uint8_t)(sample_hash(5, i) >> 24);
    for (size_t i = 0; i < (size_t)c.total_kv * MLAB_MX_NBLK; i++) {
        uint8_t b = (uint8_t)(sample_hash(6, i) >> 24);
        c.kv_e8m0[i] = b == 255 ? 254 : b;
    }
    int rc = MLAB_EXIT_OK;
    if (with_ref) {
        size_t nout = (size_t)c.total_q * MLAB_HEADS * MLAB_DV;
        c.ref_out = malloc(nout * sizeof(uint16_t));
        if (!c.ref_out) {
            fprintf(stderr, "h5io_tool: out of memory\n");
            rc = MLAB_EXIT_INTERNAL;
            goto free_case;
        }
        fill_bf16(c.ref_out, nout, 3);
    }
    char why[512];
    rc = mlab_h5_write_case(path, &c, why, sizeof why);
    if (rc != MLAB_EXIT_OK)
        fprintf(stderr, "h5io_tool: %s\n", why);
free_case:
    mlab_case_free(&c);
    return rc;
}

static uint64_t fnv1a64(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void print_indptr(const char *name, const int32_t *p, int batch)
{
    printf("%s ", name);
    for (int b = 0; b <= batch; b++)
        printf("%s%d", b ? "," : "", p[b]);
    printf("\n");
}

static int read_digest(const char *path)
{
    mlab_case c;
    char why[512];
    int rc = mlab_h5_read_case(path, &c, why, sizeof why);
    if (rc != MLAB_EXIT_OK) {
        fprintf(stderr, "h5io_tool: %s\n", why);
        return rc;
    }
    size_t nq = (size_t)c.total_q, nkv = (size_t)c.total_kv;
    printf("name %s\nbatch %d\nq_seq_len %d\nkv_len %d\ntotal_q %d\ntotal_kv %d\n", c.name,
           c.batch, c.q_seq_len, c.kv_len, c.total_q, c.total_kv);
    printf("sm_scale 0x%08x\ninput_scale 0x%08x\nkv_fp8_scale 0x%08x\n", f32_bits(c.sm_scale),
           f32_bits(c.input_scale), f32_bits(c.kv_fp8_scale));
    printf("seed %llu\n", (unsigned long long)c.seed);
    printf("fp8_format %s\nmxfp4_tie %s\n",
           c.fp8_fmt == MLAB_FP8_E4M3FNUZ ? "float8_e4m3fnuz" : "float8_e4m3fn",
           mlab_fp4_tie_name(c.fp4_tie));
    printf("producer %s\ncommit %s\n", c.producer, c.commit);
    print_indptr("qo_indptr", c.qo_indptr, c.batch);
    print_indptr("kv_indptr", c.kv_indptr, c.batch);
    printf("q %016llx\n", (unsigned long long)fnv1a64(c.q, nq * MLAB_HEADS * MLAB_DQK * 2));
    printf("kv_bf16 %016llx\n", (unsigned long long)fnv1a64(c.kv_bf16, nkv * MLAB_DQK * 2));
    printf("kv_fp8 %016llx\n", (unsigned long long)fnv1a64(c.kv_fp8, nkv * MLAB_DQK));
    printf("kv_mxfp4 %016llx\n", (unsigned long long)fnv1a64(c.kv_fp4, nkv * MLAB_FP4_ROW));
    printf("kv_mxfp4_scale %016llx\n", (unsigned long long)fnv1a64(c.kv_e8m0, nkv * MLAB_MX_NBLK));
    if (c.ref_out)
        printf("ref_out %016llx\n",
               (unsigned long long)fnv1a64(c.ref_out, nq * MLAB_HEADS * MLAB_DV * 2));
    else
        printf("ref_out none\n");
    mlab_case_free(&c);
    return MLAB_EXIT_OK;
}

static int usage(void)
{
    fprintf(stderr, "usage: h5io_tool write-sample PATH [--fnuz] [--tie up|even] [--no-ref]\n"
                    "       h5io_tool read PATH\n");
    return MLAB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    if (strcmp(argv[1], "write-sample") == 0) {
        int fnuz = 0, with_ref = 1;
        mlab_fp4_tie tie = MLAB_TIE_UP;
        for (int i = 3; i < argc; i++) {
            if (strcmp(argv[i], "--fnuz") == 0)
                fnuz = 1;
            else if (strcmp(argv[i], "--no-ref") == 0)
                with_ref = 0;
            else if (strcmp(argv[i], "--tie") == 0 && i + 1 < argc)
                tie = strcmp(argv[++i], "even") == 0 ? MLAB_TIE_EVEN : MLAB_TIE_UP;
            else
                return usage();
        }
        return write_sample(argv[2], fnuz, tie, with_ref);
    }
    if (strcmp(argv[1], "read") == 0 && argc == 3)
        return read_digest(argv[2]);
    return usage();
}
