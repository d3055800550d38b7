/* cmd_case.c: `mlabench gen` and `mlabench check` (case files). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "args.h"
#include "atomic.h" /* mlab_output_check */
#include "build_info.h"
#include "commands.h"
#include "exitcodes.h"
#include "gen.h"
#include "guard.h" /* mlab_escape */
#include "gpu.h" /* mlab_now_s */
#include "h5io.h"

static void gen_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench gen --suite -o DIR            the competition's 8 cases, DIR/<name>.h5\n"
            "       mlabench gen [case options] -o FILE.h5  one custom case\n"
            "case options:\n"
            "  --batch B           batch items (default 1)\n"
            "  --kv-len L          kv rows per item (default 1024)\n"
            "  --kv-lens L1,L2,..  one length per item (variable lengths; 0 = empty)\n"
            "  --q-seq-len N       query rows per item, 1..4 (default 1; causal, bottom-right)\n"
            "  --seed S            (default 1)\n"
            "  --input-scale X     1.0 (default) or 0.02 (the task before 2026-03-17)\n"
            "  --tie up|even       E2M1 tie rule (default up: the competition's aiter)\n"
            "  --fp8 e4m3fn|e4m3fnuz  fp8 flavour of the stored KV (default e4m3fn)\n"
            "  --name NAME         case name (default derived from the parameters)\n"
            "Same options, same bytes: values come from Philox4x32-10 + Box-Muller.\n");
}

static int write_case(const mlab_gen_spec *s, const char *path, char *why, size_t whylen)
{
    mlab_case c;
    double t0 = mlab_now_s();
    int rc = mlab_output_check(path, NULL, 0, why, whylen);
    if (rc)
        return rc;
    rc = mlab_gen_case(s, &c, why, whylen);
    if (rc)
        return rc;
    snprintf(c.producer, sizeof c.producer, "mlabench %s gen", MLAB_VERSION);
    snprintf(c.commit, sizeof c.commit, "%s", MLAB_GIT_COMMIT);
    double t1 = mlab_now_s();
    rc = mlab_h5_write_case(path, &c, why, whylen);
    double t2 = mlab_now_s();
    if (!rc) {
        struct stat st;
        double mb = stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0.0;
        fprintf(stderr, "  %-28s batch %4d  kv rows %9d  %9.1f MB  gen %.2f s  write %.2f s\n",
                c.name, c.batch, c.total_kv, mb, t1 - t0, t2 - t1);
    }
    mlab_case_free(&c);
    return rc;
}

int mlab_cmd_gen(int argc, char **argv)
{
    mlab_gen_spec s;
    mlab_gen_spec_init(&s);
    int suite = 0, *lens = NULL, nlens = 0, rc = MLAB_EXIT_USAGE;
    const char *out = NULL, *v;
    double x;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            gen_usage(stdout);
            free(lens);
            return MLAB_EXIT_OK;
        } else if (!strcmp(a, "--suite")) {
            suite = 1;
        } else if (!(v = mlab_arg_value("gen", argc, argv, &i))) {
            goto done;
        } else if (!strcmp(a, "-o")) {
            out = v;
        } else if (!strcmp(a, "--batch")) {
            if (mlab_arg_int("gen", a, v, 1, 1 << 20, &s.batch)) goto done;
        } else if (!strcmp(a, "--kv-len")) {
            if (mlab_arg_int("gen", a, v, 0, 1 << 30, &s.kv_len)) goto done;
        } else if (!strcmp(a, "--kv-lens")) {
            free(lens);
            lens = NULL;
            if (mlab_arg_int_list("gen", a, v, 0, 1 << 30, &lens, &nlens)) goto done;
        } else if (!strcmp(a, "--q-seq-len")) {
            if (mlab_arg_int("gen", a, v, 1, 4, &s.q_seq_len)) goto done;
        } else if (!strcmp(a, "--seed")) {
            if (mlab_arg_u64("gen", a, v, &s.seed)) goto done;
        } else if (!strcmp(a, "--input-scale")) {
            if (mlab_arg_double("gen", a, v, &x)) goto done;
            float xf = (float)x;
            if (!(xf > 0) || !isfinite(xf)) {
                fprintf(stderr, "mlabench gen: --input-scale: '%s' must be a positive, finite fp32 value\n", v);
                goto done;
            }
            s.input_scale = (float)x;
        } else if (!strcmp(a, "--tie")) {
            if (mlab_fp4_tie_parse(v, &s.fp4_tie)) {
                fprintf(stderr, "mlabench gen: --tie: '%s' is not up or even\n", v);
                goto done;
            }
        } else if (!strcmp(a, "--fp8")) {
            if (!strcmp(v, "e4m3fn")) s.fp8_fmt = MLAB_FP8_E4M3FN;
            else if (!strcmp(v, "e4m3fnuz")) s.fp8_fmt = MLAB_FP8_E4M3FNUZ;
            else {
                fprintf(stderr, "mlabench gen: --fp8: '%s' is not e4m3fn or e4m3fnuz\n", v);
                goto done;
            }
        } else if (!strcmp(a, "--name")) {
            snprintf(s.name, sizeof s.name, "%s", v);
        } else {
            fprintf(stderr, "mlabench gen: unknown option '%s' (see --help)\n", a);
            goto done;
        }
    }
    if (!out) {
        fprintf(stderr, "mlabench gen: -o is required (see --help)\n");
        goto done;
    }
    if (lens) {
        s.batch = nlens;
        s.kv_lens = lens;
    }
    char why[512] = "";
    double t0 = mlab_now_s();
    if (suite) {
        struct stat st;
        if (mkdir(out, 0777) && (stat(out, &st) || !S_ISDIR(st.st_mode))) {
            fprintf(stderr, "mlabench gen: %s: cannot create the folder\n", out);
            rc = MLAB_EXIT_IO;
            goto done;
        }
        fprintf(stderr, "mlabench gen: the competition suite (%d cases) into %s/\n", MLAB_SUITE_N, out);
        for (int k = 0; k < MLAB_SUITE_N; k++) {
            mlab_gen_spec ss;
            mlab_suite_spec(k, &ss);
            ss.input_scale = s.input_scale;
            ss.fp4_tie = s.fp4_tie;
            ss.fp8_fmt = s.fp8_fmt;
            char name[64], path[1024];
            snprintf(name, sizeof name, "b%d_kv%d_q1_s%llu%s", ss.batch, ss.kv_len,
                     (unsigned long long)ss.seed, ss.input_scale != 1.0f ? "_x0.02" : "");
            snprintf(path, sizeof path, "%s/%s.h5", out, name);
            fprintf(stderr, "[%d/%d]", k + 1, MLAB_SUITE_N);
            rc = write_case(&ss, path, why, sizeof why);
            if (rc)
                break;
        }
    } else {
        rc = write_case(&s, out, why, sizeof why);
    }
    if (rc)
        fprintf(stderr, "mlabench gen: %s\n", why);
    else
        fprintf(stderr, "mlabench gen: done in %.1f s\n", mlab_now_s() - t0);
done:
    free(lens);
    return rc;
}

/* ---- check ------------------------------------------------------------------ */

static void check_usage(FILE *f)
{
    fprintf(f, "usage: mlabench check [--requant] FILE.h5 [FILE.h5 ...]\n"
               "  Reads each case file with every check of the reader (types, sizes, dims,\n"
               "  indptrs, NaN) and prints one line per file. --requant also recomputes the\n"
               "  fp8 and MXFP4 tensors from /kv_bf16 with mlabench's quantizers and counts\n"
               "  the bytes that differ (recorded files must give 0).\n"
               "  exit: 0 all good, 3 bad content, 4 cannot read, 5 requant mismatch\n");
}

static size_t count_diff(const uint8_t *a, const uint8_t *b, size_t n, size_t *first)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i] && k++ == 0)
            *first = i;
    return k;
}

static int requant(const char *path, const mlab_case *c)
{
    size_t nkv = (size_t)c->total_kv, n8 = nkv * MLAB_DQK;
    uint8_t *f8 = malloc(n8 + 1), *f4 = malloc(nkv * MLAB_FP4_ROW + 1),
            *e8 = malloc(nkv * MLAB_MX_NBLK + 1);
    if (!f8 || !f4 || !e8) {
        free(f8);
        free(f4);
        free(e8);
        fprintf(stderr, "mlabench check: out of memory\n");
        return MLAB_EXIT_INTERNAL;
    }
    float s = mlab_fp8_quantize_tensor(c->kv_bf16, n8, c->fp8_fmt, f8);
    for (size_t r = 0; r < nkv; r++)
        mlab_mxfp4_quantize_row(c->kv_bf16 + r * MLAB_DQK, MLAB_DQK, c->fp4_tie,
                                f4 + r * MLAB_FP4_ROW, e8 + r * MLAB_MX_NBLK);
    size_t i8 = 0, i4 = 0, ie = 0;
    size_t d8 = count_diff(f8, c->kv_fp8, n8, &i8);
    size_t d4 = count_diff(f4, c->kv_fp4, nkv * MLAB_FP4_ROW, &i4);
    size_t de = count_diff(e8, c->kv_e8m0, nkv * MLAB_MX_NBLK, &ie);
    int scale_ok = s == c->kv_fp8_scale;
    printf("%s: requant: kv_fp8 %zu/%zu bytes differ, kv_fp8_scale %s (%.9g vs %.9g), "
           "kv_mxfp4 %zu/%zu differ, kv_mxfp4_scale %zu/%zu differ (tie %s)\n",
           path, d8, n8, scale_ok ? "equal" : "DIFFERS", (double)s, (double)c->kv_fp8_scale, d4,
           nkv * MLAB_FP4_ROW, de, nkv * MLAB_MX_NBLK, mlab_fp4_tie_name(c->fp4_tie));
    if (d8)
        printf("  first fp8 difference at flat %zu: ours 0x%02x, file 0x%02x\n", i8, f8[i8], c->kv_fp8[i8]);
    if (d4)
        printf("  first mxfp4 difference at byte %zu: ours 0x%02x, file 0x%02x\n", i4, f4[i4], c->kv_fp4[i4]);
    free(f8);
    free(f4);
    free(e8);
    return (d8 || d4 || de || !scale_ok) ? MLAB_EXIT_ACCURACY : MLAB_EXIT_OK;
}

int mlab_cmd_check(int argc, char **argv)
{
    int do_requant = 0, worst = MLAB_EXIT_OK, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            check_usage(stdout);
            return MLAB_EXIT_OK;
        }
        if (!strcmp(argv[i], "--requant")) {
            do_requant = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "mlabench check: unknown option '%s' (see --help)\n", argv[i]);
            return MLAB_EXIT_USAGE;
        }
        nfiles++;
    }
    if (!nfiles) {
        check_usage(stderr);
        return MLAB_EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            continue;
        mlab_case c;
        char why[768] = "";
        int rc = mlab_h5_read_case(argv[i], &c, why, sizeof why);
        if (rc) {
            fprintf(stderr, "mlabench check: %s\n", why);
            if (worst == MLAB_EXIT_OK || rc < worst)
                worst = rc;
            continue;
        }
        int empty = 0;
        char ename[4 * sizeof c.name + 8], eprod[4 * sizeof c.producer + 8];
        for (int b = 0; b < c.batch; b++)
            empty += c.kv_indptr[b + 1] == c.kv_indptr[b];
        printf("%s: ok: %s, batch %d, q rows %d, kv rows %d (%s), %d empty, fp8 %s scale %.6g, "
               "mxfp4 tie %s, seed %llu, input scale %g, %s, producer '%s'\n",
               argv[i], mlab_escape(c.name, ename, sizeof ename, 0), c.batch, c.total_q, c.total_kv,
               c.kv_len >= 0 ? "uniform" : "variable", empty,
               c.fp8_fmt == MLAB_FP8_E4M3FN ? "e4m3fn" : "e4m3fnuz", (double)c.kv_fp8_scale,
               mlab_fp4_tie_name(c.fp4_tie), (unsigned long long)c.seed, (double)c.input_scale,
               c.ref_out ? "with ref_out" : "no ref_out",
               mlab_escape(c.producer, eprod, sizeof eprod, 0));
        if (do_requant) {
            int r = requant(argv[i], &c);
            if (r && worst == MLAB_EXIT_OK)
                worst = r;
        }
        mlab_case_free(&c);
    }
    return worst;
}
