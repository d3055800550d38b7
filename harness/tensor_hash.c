/* tensor_hash.c: per-tensor SHA-256 of a case in memory (tensor_hash.h),
 * with OpenSSL's EVP interface (SHA-NI / AVX2 code paths where the CPU has
 * them). On x86 and ARM little-endian hosts the in-memory bytes are the
 * little-endian bytes the comment in tensor_hash.h promises. */
#include "tensor_hash.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if MLAB_HAVE_OPENSSL
#include <openssl/evp.h>

#define MLAB_NHASH 7

/* hex SHA-256 of p[0..n) followed by tail[0..ntail); 0 or -1 */
static int sha256_hex(const void *p, size_t n, const void *tail, size_t ntail, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 &&
             (n == 0 || EVP_DigestUpdate(ctx, p, n) == 1) &&
             (ntail == 0 || EVP_DigestUpdate(ctx, tail, ntail) == 1) &&
             EVP_DigestFinal_ex(ctx, md, &len) == 1 && len == 32;
    EVP_MD_CTX_free(ctx);
    if (!ok)
        return -1;
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    return 0;
}

int mlab_tensor_hash_case(const mlab_case *c, mlab_input_file *in, char *why, size_t whylen)
{
    const size_t q = (size_t)c->total_q, kv = (size_t)c->total_kv, b1 = (size_t)c->batch + 1;
    const struct {
        const void *p;
        size_t n;
        char *hex;
    } t[MLAB_NHASH] = {
        {c->q, q * MLAB_HEADS * MLAB_DQK * 2, in->q_sha256},
        {c->kv_bf16, kv * MLAB_DQK * 2, in->kv_bf16_sha256},
        {c->kv_fp8, kv * MLAB_DQK, in->kv_fp8_sha256},
        {c->kv_fp4, kv * MLAB_FP4_ROW, in->kv_fp4_sha256},
        {c->kv_e8m0, kv * MLAB_MX_NBLK, in->kv_e8m0_sha256},
        {c->qo_indptr, b1 * sizeof(int32_t), in->qo_indptr_sha256},
        {c->kv_indptr, b1 * sizeof(int32_t), in->kv_indptr_sha256},
    };
    float scale = c->kv_fp8_scale;
    int bad = 0;
    /* largest first: kv_bf16, kv_fp8, kv_fp4 each run on their own thread */
#pragma omp parallel for schedule(dynamic, 1) reduction(| : bad)
    for (int i = 0; i < MLAB_NHASH; i++) {
        int k = i == 0 ? 1 : i == 1 ? 2 : i == 2 ? 3 : i == 3 ? 0 : i;
        const void *p = t[k].n ? t[k].p : "";
        if (t[k].n && !t[k].p)
            bad |= 1;
        else
            bad |= sha256_hex(p, t[k].n, k == 2 ? (const void *)&scale : NULL,
                              k == 2 ? sizeof scale : 0, t[k].hex) != 0;
    }
    if (bad) {
        snprintf(why, whylen, "%s: SHA-256 of its tensors failed (OpenSSL)", c->name);
        return -1;
    }
    char joined[MLAB_NHASH * 65 + 1];
    size_t k = 0;
    for (int i = 0; i < MLAB_NHASH; i++)
        k += (size_t)snprintf(joined + k, sizeof joined - k, "%s\n", t[i].hex);
    if (sha256_hex(joined, k, NULL, 0, in->sha256) != 0) {
        snprintf(why, whylen, "%s: SHA-256 failed (OpenSSL)", c->name);
        return -1;
    }
    return 0;
}
#else
/* Built without libcrypto (CMake warned): no hashes, every field left "";
 * compare then reports the inputs as not checked. */
int mlab_tensor_hash_case(const mlab_case *c, mlab_input_file *in, char *why, size_t whylen)
{
    (void)c;
    (void)why;
    (void)whylen;
    in->sha256[0] = in->q_sha256[0] = in->kv_bf16_sha256[0] = in->kv_fp8_sha256[0] = 0;
    in->kv_fp4_sha256[0] = in->kv_e8m0_sha256[0] = in->qo_indptr_sha256[0] = 0;
    in->kv_indptr_sha256[0] = 0;
    return 0;
}
#endif
