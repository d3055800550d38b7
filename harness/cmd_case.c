/* cmd_case.c: `mlabench gen` and `mlabench check` (case files). */
#include <errno.h>
#include <getopt.h>
#include <limits.h> /* PATH_MAX */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strcasecmp */
#include <sys/stat.h>
#include <time.h>

#include "args.h"
#include "atomic.h" /* mlab_output_file_check */
#include "build_info.h"
#include "commands.h"
#include "exitcodes.h"
#include "gen.h"
#include "sampler.h" /* mlab_now_s */
#include "case_read.h"  /* mlab_h5_read_case */
#include "case_write.h" /* mlab_h5_write_case */
#include "reason.h"     /* mlab_escape */
#include "progress.h"
#include "sweep.h"

/* Measured rate of gen + write on a 2-core machine (the whole suite, 6.7 GB,
 * in ~4 min): the up-front estimate; later estimates use the rate seen. */
#define GEN_BYTES_PER_S 28e6

static void gen_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench gen --suite -o DIR            the competition's 8 cases, DIR/<name>.h5\n"
            "       mlabench gen [case options] -o FILE.h5  one custom case\n"
            "       mlabench gen [case options with lists] -o DIR   a sweep, DIR/<name>.h5\n"
            "  -o, --output FILE.h5|DIR\n"
            "                      one case: the file written (atomically; not an existing folder,\n"
            "                      link or -); the suite or a sweep: the folder (created if missing;\n"
            "                      not a name ending in .h5), one file DIR/<name>.h5 a case.\n"
            "                      Required but with --dry-run\n"
            "  --dry-run           print the cases (names, sizes) and the estimate; write nothing\n"
            "  --quiet             no progress lines\n");
    mlab_sweep_usage(f);
    fprintf(f, "Same options, same bytes: values come from Philox4x32-10 + Box-Muller.\n"
               "`mlabench run` takes the same case options and generates the cases in memory.\n"
               "Options take their value as --opt VALUE or --opt=VALUE.\n"
               "exit: 0 ok, 2 usage (contradicting options too), 4 cannot write\n");
}

typedef struct {
    mlab_progress *p;
    const char *name;
    int k, n;
} gen_progress_ctx;

static void gen_progress(void *ctx, const char *step, double frac)
{
    gen_progress_ctx *g = ctx;
    mlab_progress_update(g->p, "  [%d/%d] %s: generating (%s) %3.0f%%", g->k, g->n, g->name, step,
                         100 * frac);
}

static int write_case(mlab_gen_spec *s, const char *path, mlab_progress *p, int k, int n,
                      int quiet, char *why, size_t whylen)
{
    mlab_case c;
    char name[64];
    if (mlab_gen_name(s, name, sizeof name, why, whylen))
        return MLAB_EXIT_USAGE;
    gen_progress_ctx ctx = {p, name, k, n};
    if (!quiet) {
        s->progress = gen_progress;
        s->progress_ctx = &ctx;
    }
    double t0 = mlab_now_s();
    int rc = mlab_output_file_check(path, NULL, 0, why, whylen);
    if (rc)
        return rc;
    rc = mlab_gen_case(s, &c, why, whylen);
    if (rc)
        return rc;
    snprintf(c.producer, sizeof c.producer, "mlabench %s gen", MLAB_VERSION);
    snprintf(c.commit, sizeof c.commit, "%s", MLAB_GIT_COMMIT);
    double t1 = mlab_now_s();
    if (!quiet)
        mlab_progress_update(p, "  [%d/%d] %s: writing %.1f MB", k, n, name, mlab_gen_file_bytes(s) / 1e6);
    rc = mlab_h5_write_case(path, &c, why, whylen);
    double t2 = mlab_now_s();
    if (!rc) {
        struct stat st;
        double mb = stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0.0;
        mlab_progress_line(p, "  [%d/%d] %-28s batch %4d  kv rows %9d  %9.1f MB  gen %.2f s  write %.2f s",
                           k, n, c.name, c.batch, c.total_kv, mb, t1 - t0, t2 - t1);
    }
    mlab_case_free(&c);
    return rc;
}

int mlab_cmd_gen(int argc, char **argv)
{
    static const struct option longopts[] = {
        MLAB_SWEEP_OPTIONS,
        {"dry-run", no_argument, NULL, 'n'},
        {"quiet", no_argument, NULL, 'q'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    unsigned char seen[sizeof longopts / sizeof longopts[0]] = {0};
    mlab_sweep w;
    mlab_sweep_init(&w);
    int rc = MLAB_EXIT_USAGE, dry = 0, quiet = 0, c;
    const char *out = NULL;
    char why[PATH_MAX + 512] = "";
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        const int orc = mlab_arg_once_hint("gen", longopts, c, seen, sizeof seen, mlab_sweep_list_hint(c));
        if (orc) {
            rc = orc;
            goto done;
        }
        switch (c) {
        case 'o': out = optarg; break;
        case 'n': dry = 1; break;
        case 'q': quiet = 1; break;
        case 'h':
            gen_usage(stdout);
            rc = MLAB_EXIT_OK;
            goto done;
        default:
            if (mlab_arg_getopt_error("gen", c, argv))
                goto done;
            if (mlab_sweep_option(&w, "gen", c, optarg))
                goto done;
        }
    }
    if (optind < argc) { /* numbers: a list's next values after a space (--batch 4 32, 4 32,64) */
        const char *a = argv[optind];
        fprintf(stderr, "mlabench gen: unexpected argument '%s' (%s; see --help)\n", a,
                mlab_sweep_numbers_word(a) ? "a list is one word: --batch 4,32" : "the output goes after -o");
        goto done;
    }
    w.given = 1; /* no case option: one default custom case */
    char swhy[512];
    if (mlab_sweep_check(&w, swhy, sizeof swhy)) {
        fprintf(stderr, "mlabench gen: %s\n", swhy);
        goto done;
    }
    size_t n = mlab_sweep_count(&w);
    int folder = w.suite || n > 1;
    if (!out && !dry) {
        fprintf(stderr, "mlabench gen: -o is required (see --help)\n");
        goto done;
    }
    if (folder && out && strlen(out) >= 3 && strcasecmp(out + strlen(out) - 3, ".h5") == 0) {
        /* a file's name: a folder "x.h5" of cases is what nobody meant */
        fprintf(stderr, "mlabench gen: -o %s: %zu cases go to a folder, and this names a file: name a folder (-o cases)\n",
                out, n);
        goto done;
    }
    /* the plan: sizes, the largest case in memory, a time estimate */
    double total = 0, peak = 0;
    for (size_t i = 0; i < n; i++) {
        mlab_gen_spec s;
        mlab_sweep_spec(&w, i, &s);
        double b = mlab_gen_file_bytes(&s);
        total += b;
        peak = b > peak ? b : peak;
        if (dry) {
            char name[64];
            mlab_gen_name(&s, name, sizeof name, why, sizeof why);
            printf("%s%s%s.h5  %.1f MB\n", folder && out ? out : "", folder && out ? "/" : "", name, b / 1e6);
        }
    }
    char eta[32];
    mlab_duration_str(total / GEN_BYTES_PER_S, eta, sizeof eta);
    /* the estimate where the wait is worth announcing (a second or two of
     * work stays quiet, so a failure there is still one line) */
    if (dry || total >= 25e6) /* ~1 s of generation on 2 cores */
        fprintf(dry ? stdout : stderr,
            "mlabench gen: %zu case%s, %.2f GB on disk, %.2f GB of memory (the largest case), "
            "about %s (at %.0f MB/s, 2 cores; more cores are faster)\n",
            n, n == 1 ? "" : "s", total / 1e9, peak / 1e9, eta, GEN_BYTES_PER_S / 1e6);
    if (dry) {
        rc = MLAB_EXIT_OK;
        goto done;
    }
    if (folder) {
        struct stat st;
        if (!*out || strcmp(out, "-") == 0 || strlen(out) + 80 >= PATH_MAX) {
            fprintf(stderr, "mlabench gen: -o '%.60s': %s\n", out,
                    *out && strcmp(out, "-") ? "the folder's path is too long for its files' paths"
                                             : "several cases go to a folder: name it");
            goto done;
        }
        if (mkdir(out, 0777)) {
            const int e = errno;
            if (stat(out, &st) || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "mlabench gen: %s: cannot create the folder: %s\n", out,
                        strerror(e == EEXIST ? ENOTDIR : e));
                rc = MLAB_EXIT_IO;
                goto done;
            }
        }
    }
    mlab_progress p;
    mlab_progress_init(&p);
    double t0 = mlab_now_s(), done_bytes = 0;
    rc = MLAB_EXIT_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        mlab_gen_spec s;
        char name[64], path[PATH_MAX];
        mlab_sweep_spec(&w, i, &s);
        if (folder) {
            mlab_gen_name(&s, name, sizeof name, why, sizeof why);
            snprintf(path, sizeof path, "%s/%s.h5", out, name); /* fits: checked above */
        } else if (snprintf(path, sizeof path, "%s", out) >= (int)sizeof path) {
            snprintf(why, sizeof why, "%.60s...: the output path is PATH_MAX (%d) bytes or more", out,
                     PATH_MAX);
            rc = MLAB_EXIT_USAGE;
            break;
        }
        rc = write_case(&s, path, &p, (int)i + 1, (int)n, quiet, why, sizeof why);
        done_bytes += mlab_gen_file_bytes(&s);
        if (!rc && i + 1 < n && done_bytes > 0) {
            double el = mlab_now_s() - t0;
            mlab_duration_str(el * (total - done_bytes) / done_bytes, eta, sizeof eta);
            if (el > 5)
                mlab_progress_line(&p, "  %.0f%% of the bytes in %.0f s, about %s left",
                                   100 * done_bytes / total, el, eta);
        }
    }
    if (rc)
        fprintf(stderr, "mlabench gen: %s\n", why);
    else
        fprintf(stderr, "mlabench gen: done in %.1f s\n", mlab_now_s() - t0);
done:
    mlab_sweep_free(&w);
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
    static const struct option longopts[] = {
        {"requant", no_argument, NULL, 'r'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int do_requant = 0, worst = MLAB_EXIT_OK, opt;
    optind = 0;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            check_usage(stdout);
            return MLAB_EXIT_OK;
        } else if (opt == 'r') {
            do_requant = 1;
        } else {
            mlab_arg_getopt_error("check", opt, argv);
            return MLAB_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        check_usage(stderr);
        return MLAB_EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++) {
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
