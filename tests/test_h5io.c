/* test_h5io.c: case files written by mlab_h5_write_case read back bit for
 * bit by mlab_h5_read_case, the writer's refusals and atomicity, and
 *
 * Pins:
 *   - round trip keeps every byte and parameter: varying q rows per item
 *     (1..2), an empty kv sequence (kv_indptr 0,7,7,...), ref_out present and
 *     absent, e4m3fn and e4m3fnuz, tie "up" and "even", a uint64 seed >= 2^63;
 *   - a case with no kv rows at all (zero-size datasets) round-trips;
 *   - kv_len / q_seq_len come back as the uniform length, or -1 when varying;
 *   - overwriting an existing file replaces it; no "<path>.tmp.<pid>" is left
 *     after success or failure;
 *   - the writer refuses a case with a NaN (exit 3, names /kv_bf16) and a
 *     missing folder (exit 4); the reader says exit 4 for a missing file;
 *   - SHA-256 of "", "abc", the 56-byte two-block message, 10^6 x 'a'.
 * Exit 0 when all pass, 1 otherwise.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/exitcodes.h" /* MLAB_EXIT_* */
#include "harness/case_read.h"  /* mlab_h5_read_case */
#include "harness/case_write.h" /* mlab_h5_write_case */

#include "mlab_check.h" // CHECK, failed

static char dir[256];

static void path_in_dir(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

/* A hand-built case: batch 4, q rows {1,2,2,1}, kv rows {7,0,13,13}. */
static int make_case(mlab_case *c, const int32_t *qo, const int32_t *kv, int batch,
                     mlab_fp8_fmt fp8, mlab_fp4_tie tie, int with_ref)
{
    memset(c, 0, sizeof *c);
    if (mlab_case_alloc(c, batch, qo[batch], kv[batch]) != 0)
        return -1;
    memcpy(c->qo_indptr, qo, (size_t)(batch + 1) * sizeof *qo);
    memcpy(c->kv_indptr, kv, (size_t)(batch + 1) * sizeof *kv);
    snprintf(c->name, sizeof c->name, "hand_b%d", batch);
    snprintf(c->producer, sizeof c->producer, "test_h5io");
    snprintf(c->commit, sizeof c->commit, "feedbeef");
    c->q_seq_len = -1;
    c->kv_len = -1;
    c->sm_scale = 1.0f / 24.0f;
    c->seed = 0x8000000000000001ull;
    c->input_scale = 1.0f;
    c->fp8_fmt = fp8;
    c->fp4_tie = tie;
    c->kv_fp8_scale = 3.5f / 448.0f;
    size_t nq = (size_t)c->total_q * MLAB_HEADS * MLAB_DQK, nkv = (size_t)c->total_kv;
    for (size_t i = 0; i < nq; i++) /* finite bf16: exponent field < 0xFF */
        c->q[i] = (uint16_t)((i * 40503u) & 0xBFFFu);
    for (size_t i = 0; i < nkv * MLAB_DQK; i++) {
        c->kv_bf16[i] = (uint16_t)((i * 7919u + 3u) & 0xBFFFu);
        uint8_t b = (uint8_t)(i * 13u);
        c->kv_fp8[i] = fp8 == MLAB_FP8_E4M3FN ? (uint8_t)(b & 0xBE) : (uint8_t)(b & 0x7F);
    }
    for (size_t i = 0; i < nkv * MLAB_FP4_ROW; i++)
        c->kv_fp4[i] = (uint8_t)(i * 31u + 1u);
    for (size_t i = 0; i < nkv * MLAB_MX_NBLK; i++)
        c->kv_e8m0[i] = (uint8_t)(i % 255u); /* 0..254: 255 is NaN */
    if (with_ref) {
        size_t nout = (size_t)c->total_q * MLAB_HEADS * MLAB_DV;
        c->ref_out = malloc(nout * sizeof(uint16_t) + 1);
        if (!c->ref_out) {
            mlab_case_free(c);
            return -1;
        }
        for (size_t i = 0; i < nout; i++)
            c->ref_out[i] = (uint16_t)((i * 257u) & 0xBFFFu);
    }
    return 0;
}

static int same_case(const mlab_case *a, const mlab_case *b)
{
    size_t nq = (size_t)a->total_q, nkv = (size_t)a->total_kv;
    int ok = 1;
#define SAME(cond, what)                         \
    if (!(cond)) {                               \
        printf("  differs: %s\n", what);         \
        ok = 0;                                  \
    }
    SAME(strcmp(a->name, b->name) == 0, "name");
    SAME(strcmp(a->producer, b->producer) == 0, "producer");
    SAME(strcmp(a->commit, b->commit) == 0, "commit");
    SAME(a->batch == b->batch && a->total_q == b->total_q && a->total_kv == b->total_kv, "sizes");
    if (!ok)
        return 0;
    SAME(memcmp(&a->sm_scale, &b->sm_scale, sizeof(float)) == 0, "sm_scale");
    SAME(memcmp(&a->input_scale, &b->input_scale, sizeof(float)) == 0, "input_scale");
    SAME(memcmp(&a->kv_fp8_scale, &b->kv_fp8_scale, sizeof(float)) == 0, "kv_fp8_scale");
    SAME(a->seed == b->seed, "seed");
    SAME(a->fp8_fmt == b->fp8_fmt, "fp8_fmt");
    SAME(a->fp4_tie == b->fp4_tie, "fp4_tie");
    SAME(!memcmp(a->qo_indptr, b->qo_indptr, ((size_t)a->batch + 1) * 4), "qo_indptr");
    SAME(!memcmp(a->kv_indptr, b->kv_indptr, ((size_t)a->batch + 1) * 4), "kv_indptr");
    SAME(!memcmp(a->q, b->q, nq * MLAB_HEADS * MLAB_DQK * 2), "q");
    SAME(!memcmp(a->kv_bf16, b->kv_bf16, nkv * MLAB_DQK * 2), "kv_bf16");
    SAME(!memcmp(a->kv_fp8, b->kv_fp8, nkv * MLAB_DQK), "kv_fp8");
    SAME(!memcmp(a->kv_fp4, b->kv_fp4, nkv * MLAB_FP4_ROW), "kv_mxfp4");
    SAME(!memcmp(a->kv_e8m0, b->kv_e8m0, nkv * MLAB_MX_NBLK), "kv_mxfp4_scale");
    SAME(!a->ref_out == !b->ref_out, "ref_out presence");
    if (a->ref_out && b->ref_out)
        SAME(!memcmp(a->ref_out, b->ref_out, nq * MLAB_HEADS * MLAB_DV * 2), "ref_out");
#undef SAME
    return ok;
}

/* Any "*.tmp.*" left in the test folder? */
static int tmp_left(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return 0;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".tmp."))
            n++;
    closedir(d);
    return n;
}

static void round_trip(const char *label, const int32_t *qo, const int32_t *kv, int batch,
                       mlab_fp8_fmt fp8, mlab_fp4_tie tie, int with_ref, int want_q, int want_kv)
{
    mlab_case c, r;
    char path[512], why[512];
    printf("round trip keeps every bit: %s\n", label);
    path_in_dir(path, sizeof path, "rt.h5");
    if (make_case(&c, qo, kv, batch, fp8, tie, with_ref) != 0) {
        CHECK(0, "out of memory");
        return;
    }
    int rc = mlab_h5_write_case(path, &c, why, sizeof why);
    CHECK(rc == MLAB_EXIT_OK, "write: rc %d: %s", rc, why);
    CHECK(tmp_left() == 0, "a temporary file was left behind");
    rc = mlab_h5_read_case(path, &r, why, sizeof why);
    CHECK(rc == MLAB_EXIT_OK, "read: rc %d: %s", rc, why);
    if (rc == MLAB_EXIT_OK) {
        CHECK(same_case(&c, &r), "read back differs");
        CHECK(r.q_seq_len == want_q, "q_seq_len %d, want %d", r.q_seq_len, want_q);
        CHECK(r.kv_len == want_kv, "kv_len %d, want %d", r.kv_len, want_kv);
        mlab_case_free(&r);
    }
    mlab_case_free(&c);
    unlink(path);
}

static void test_overwrite_and_refusals(void)
{
    static const int32_t qo[] = {0, 1, 2}, kv[] = {0, 3, 9};
    mlab_case a, b, r;
    char path[512], why[512];
    path_in_dir(path, sizeof path, "ow.h5");

    printf("overwriting an existing file replaces it\n");
    if (make_case(&a, qo, kv, 2, MLAB_FP8_E4M3FN, MLAB_TIE_UP, 0) != 0 ||
        make_case(&b, qo, kv, 2, MLAB_FP8_E4M3FN, MLAB_TIE_EVEN, 1) != 0) {
        CHECK(0, "out of memory");
        return;
    }
    b.kv_bf16[5] ^= 1;
    CHECK(mlab_h5_write_case(path, &a, why, sizeof why) == MLAB_EXIT_OK, "%s", why);
    CHECK(mlab_h5_write_case(path, &b, why, sizeof why) == MLAB_EXIT_OK, "%s", why);
    if (mlab_h5_read_case(path, &r, why, sizeof why) == MLAB_EXIT_OK) {
        CHECK(same_case(&b, &r), "second write not what is read");
        mlab_case_free(&r);
    } else {
        CHECK(0, "read: %s", why);
    }
    unlink(path);

    printf("the writer refuses a case with a NaN in kv_bf16 (exit 3, names /kv_bf16, no file)\n");
    b.kv_bf16[700] = 0x7FC0;
    int rc = mlab_h5_write_case(path, &b, why, sizeof why);
    CHECK(rc == MLAB_EXIT_BADINPUT, "rc %d", rc);
    CHECK(strstr(why, "/kv_bf16") && strstr(why, path), "message: %s", why);
    CHECK(access(path, F_OK) != 0 && tmp_left() == 0, "a file was left behind");

    printf("the writer reports a missing folder as an I/O error (exit 4)\n");
    char bad[600];
    snprintf(bad, sizeof bad, "%s/no/such/folder/x.h5", dir);
    rc = mlab_h5_write_case(bad, &a, why, sizeof why);
    CHECK(rc == MLAB_EXIT_IO && strstr(why, "No such file"), "rc %d: %s", rc, why);

    printf("the reader reports a missing file as an I/O error (exit 4) naming it\n");
    rc = mlab_h5_read_case(bad, &r, why, sizeof why);
    CHECK(rc == MLAB_EXIT_IO && strstr(why, bad) == why, "rc %d: %s", rc, why);
    CHECK(r.q == NULL && r.kv_bf16 == NULL, "failed read left pointers set");

    mlab_case_free(&a);
    mlab_case_free(&b);
}

int main(void)
{
    const char *tmpdir = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/mlab_test_h5io_XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    static const int32_t qo4[] = {0, 1, 3, 5, 6}, kv4[] = {0, 7, 7, 20, 33};
    static const int32_t qo_u[] = {0, 2, 4}, kv_u[] = {0, 40, 80};
    static const int32_t qo_1[] = {0, 1, 2, 3}, kv_0[] = {0, 0, 0, 0};
    round_trip("varying q rows, an empty kv sequence, ref_out, e4m3fn, tie up", qo4, kv4, 4,
               MLAB_FP8_E4M3FN, MLAB_TIE_UP, 1, -1, -1);
    round_trip("the same without ref_out, e4m3fnuz, tie even", qo4, kv4, 4, MLAB_FP8_E4M3FNUZ,
               MLAB_TIE_EVEN, 0, -1, -1);
    round_trip("uniform lengths come back as q_seq_len 2, kv_len 40", qo_u, kv_u, 2,
               MLAB_FP8_E4M3FN, MLAB_TIE_UP, 1, 2, 40);
    round_trip("no kv rows at all (zero-size datasets)", qo_1, kv_0, 3, MLAB_FP8_E4M3FN,
               MLAB_TIE_UP, 1, 1, 0);
    test_overwrite_and_refusals();
    rmdir(dir);
    printf("%s: %d failure(s)\n", failed ? "FAILED" : "ok", failed);
    return failed ? 1 : 0;
}
