/* cmd_import.c: `mlabench import`: a case file of one's own tensors.
 *
 * The input holds /q, /kv_bf16, /qo_indptr and /kv_indptr (bf16 as uint16
 * views or ml_dtypes bfloat16, as a PyTorch user writes them with h5py,
 * data/README.md "Your own tensors"), read with every check of the case
 * reader (mlab_h5_read_inputs). The fp8 tensor and its per-tensor scale and
 * the MXFP4 tensor and its E8M0 scales are derived with mlabench's own
 * quantizers (the same calls as gen.c), the reference output with the CPU
 * reference (fp64 GEMMs over bf16, rounded to bf16), and the whole case is
 * written by the case writer (atomic). */
#include <getopt.h>
#include <limits.h> /* PATH_MAX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"      /* mlab_arg_getopt_error, mlab_arg_name */
#include "atomic.h"    /* mlab_output_file_check */
#include "build_info.h"
#include "commands.h"
#include "exitcodes.h"
#include "gen.h"       /* mlab_gen_name, mlab_case_name_finish */
#include "case_read.h"  /* mlab_h5_read_inputs */
#include "case_write.h" /* mlab_h5_write_case */
#include "progress.h"
#include "sampler.h"   /* mlab_now_s */
#include "../reference/mla_ref.h"

static void import_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench import IN.h5 -o OUT.h5 [--fp8 e4m3fn|e4m3fnuz] [--tie up|even]\n"
            "                       [--no-ref] [--name NAME]\n"
            "  IN.h5 holds /q [total_q,16,576], /kv_bf16 [total_kv,1,576] (bf16: uint16 views\n"
            "  or ml_dtypes bfloat16), /qo_indptr and /kv_indptr (int32, batch + 1); other\n"
            "  attributes and datasets are optional and checked when present. import derives\n"
            "  /kv_fp8 + /kv_fp8_scale and /kv_mxfp4 + /kv_mxfp4_scale with mlabench's\n"
            "  quantizers and /ref_out with the CPU reference (fp64, bf16 KV; --no-ref skips it),\n"
            "  and writes a complete case file (data/README.md, \"Your own tensors\").\n"
            "  -o, --output OUT.h5\n"
            "                 the case file written (atomically; required; not IN.h5, a folder or -)\n"
            "  --fp8, --tie   the fp8 flavour and the MXFP4 tie rule (default: the input's\n"
            "                 attributes fp8_format / mxfp4_tie, else e4m3fn and up)\n"
            "  --name NAME    the case name; default: gen's rule (b<batch>_kv<L>_s<seed>...)\n"
            "                 when IN.h5 states a seed and every item has as many query rows,\n"
            "                 else IN.h5's name attribute or its stem, plus _even / _fnuz\n"
            "Options take their value as --opt VALUE or --opt=VALUE.\n"
            "exit: 0 ok, 2 usage (-o onto the input or onto a folder too), 3 bad input,\n"
            "      4 cannot read or write\n");
}

typedef struct {
    mlab_progress *p;
} ref_progress_ctx;

static void ref_progress(void *ctx, int done, int total)
{
    ref_progress_ctx *r = ctx;
    mlab_progress_update(r->p, "mlabench import: reference %d/%d items", done, total);
}

/* The case name: --name, else gen's rule when the file states a seed and
 * q_seq_len is uniform, else the file's name (or stem) plus the suffixes of
 * the rule for the parameters that change the derived bytes. */
static int case_name(const mlab_case *c, const char *given, int seed_stated, char *out,
                     size_t outlen, char *why, size_t whylen)
{
    if (given) { /* 1..63 characters, no control character or '/': the parser's mlab_arg_name */
        snprintf(out, outlen, "%s", given);
        return 0;
    }
    if (seed_stated && c->q_seq_len >= 1) {
        mlab_gen_spec s;
        int rc = -1, *lens = malloc((size_t)c->batch * sizeof *lens);
        if (!lens) {
            snprintf(why, whylen, "out of memory");
            return -1;
        }
        mlab_gen_spec_init(&s);
        s.batch = c->batch;
        s.q_seq_len = c->q_seq_len;
        for (int b = 0; b < c->batch; b++)
            lens[b] = c->kv_indptr[b + 1] - c->kv_indptr[b];
        s.kv_len = lens[0];
        s.kv_lens = lens;
        s.seed = c->seed;
        s.input_scale = c->input_scale;
        s.fp4_tie = c->fp4_tie;
        s.fp8_fmt = c->fp8_fmt;
        rc = mlab_gen_name(&s, out, outlen, why, whylen);
        free(lens);
        return rc;
    }
    return mlab_case_name_finish(c->name, c->fp4_tie, c->fp8_fmt, "", out, outlen, why, whylen);
}

/* ref_out: the CPU reference over bf16 q and kv in fp64, rounded to bf16. */
static int derive_ref(mlab_case *c, mlab_progress *p)
{
    size_t n = (size_t)c->total_q * MLAB_HEADS * MLAB_DV;
    float *out = malloc((n + 1) * sizeof *out);
    c->ref_out = malloc((n + 1) * sizeof *c->ref_out);
    if (!out || !c->ref_out) {
        free(out);
        return -1;
    }
    ref_progress_ctx ctx = {p};
    mlab_ref_opts o = {MLAB_KV_BF16, MLAB_REF_DGEMM, 0, 0, ref_progress, &ctx, 0};
    if (mlab_ref_compute(c, &o, out)) {
        free(out);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        c->ref_out[i] = mlab_bf16_from_f32(out[i]);
    free(out);
    return 0;
}

int mlab_cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"fp8", required_argument, NULL, 'f'}, {"tie", required_argument, NULL, 't'},
        {"no-ref", no_argument, NULL, 'r'},    {"name", required_argument, NULL, 'n'},
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    unsigned char seen[sizeof longopts / sizeof longopts[0]] = {0};
    const char *out = NULL, *given_name = NULL, *fp8 = NULL, *tie = NULL;
    int no_ref = 0, opt, rc = MLAB_EXIT_USAGE, seed_stated = 0, have_case = 0;
    char why[PATH_MAX + 512] = "";
    mlab_case c;
    optind = 0;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        if ((rc = mlab_arg_once("import", longopts, opt, seen, sizeof seen)))
            return rc;
        switch (opt) {
        case 'o': out = optarg; break;
        case 'f': fp8 = optarg; break;
        case 't': tie = optarg; break;
        case 'r': no_ref = 1; break;
        case 'n':
            if (mlab_arg_name("import", "--name", optarg, 63, 1))
                return MLAB_EXIT_USAGE;
            given_name = optarg;
            break;
        case 'h': import_usage(stdout); return MLAB_EXIT_OK;
        default:
            mlab_arg_getopt_error("import", opt, argv);
            return MLAB_EXIT_USAGE;
        }
    }
    mlab_fp8_fmt fmt = MLAB_FP8_E4M3FN;
    mlab_fp4_tie tr = MLAB_TIE_UP;
    if (fp8 && strcmp(fp8, "e4m3fn") && strcmp(fp8, "e4m3fnuz")) {
        fprintf(stderr, "mlabench import: --fp8: '%s' is not e4m3fn or e4m3fnuz\n", fp8);
        return MLAB_EXIT_USAGE;
    }
    if (fp8)
        fmt = strcmp(fp8, "e4m3fnuz") ? MLAB_FP8_E4M3FN : MLAB_FP8_E4M3FNUZ;
    if (tie && mlab_fp4_tie_parse(tie, &tr)) {
        fprintf(stderr, "mlabench import: --tie: '%s' is not up or even\n", tie);
        return MLAB_EXIT_USAGE;
    }
    if (optind + 1 != argc || !out) {
        if (optind + 1 < argc)
            fprintf(stderr, "mlabench import: one input file, got %d (see --help)\n", argc - optind);
        else
            fprintf(stderr, "mlabench import: %s is required (see --help)\n",
                    optind == argc ? "an input file IN.h5" : "-o OUT.h5");
        return MLAB_EXIT_USAGE;
    }
    const char *in = argv[optind];
    const char *inputs[1] = {in};
    if ((rc = mlab_output_file_check(out, inputs, 1, why, sizeof why)) != MLAB_EXIT_OK)
        goto fail;

    double t0 = mlab_now_s();
    if ((rc = mlab_h5_read_inputs(in, &c, &seed_stated, why, sizeof why)) != MLAB_EXIT_OK)
        goto fail;
    have_case = 1;
    if (fp8)
        c.fp8_fmt = fmt;
    if (tie)
        c.fp4_tie = tr;
    char name[64];
    if (case_name(&c, given_name, seed_stated, name, sizeof name, why, sizeof why)) {
        rc = MLAB_EXIT_USAGE;
        goto fail;
    }
    snprintf(c.name, sizeof c.name, "%s", name);

    /* the derived tensors: mlabench's own quantizers, as gen does */
    size_t nkv = (size_t)c.total_kv;
    c.kv_fp8_scale = mlab_fp8_quantize_tensor(c.kv_bf16, nkv * MLAB_DQK, c.fp8_fmt, c.kv_fp8);
#pragma omp parallel for schedule(static)
    for (long long r = 0; r < (long long)nkv; r++)
        mlab_mxfp4_quantize_row(c.kv_bf16 + (size_t)r * MLAB_DQK, MLAB_DQK, c.fp4_tie,
                                c.kv_fp4 + (size_t)r * MLAB_FP4_ROW,
                                c.kv_e8m0 + (size_t)r * MLAB_MX_NBLK);
    double t1 = mlab_now_s();
    mlab_progress p;
    mlab_progress_init(&p);
    if (!no_ref && derive_ref(&c, &p)) {
        snprintf(why, sizeof why, "%s: out of memory for the reference (--no-ref skips it)", in);
        rc = MLAB_EXIT_INTERNAL;
        goto fail;
    }
    double t2 = mlab_now_s();
    snprintf(c.producer, sizeof c.producer, "mlabench %s import%s", MLAB_VERSION,
             no_ref ? "" : " (ref_out: CPU reference, fp64 over bf16 q and kv, rounded to bf16)");
    snprintf(c.commit, sizeof c.commit, "%s", MLAB_GIT_COMMIT);
    if ((rc = mlab_h5_write_case(out, &c, why, sizeof why)) != MLAB_EXIT_OK)
        goto fail;
    mlab_progress_line(&p, "mlabench import: %s -> %s: %s, batch %d, q rows %d, kv rows %d, fp8 %s "
                       "scale %.6g, mxfp4 tie %s, %s; quantize %.2f s, reference %.2f s, "
                       "write %.2f s",
                       in, out, c.name, c.batch, c.total_q, c.total_kv,
                       c.fp8_fmt == MLAB_FP8_E4M3FNUZ ? "e4m3fnuz" : "e4m3fn",
                       (double)c.kv_fp8_scale, mlab_fp4_tie_name(c.fp4_tie),
                       no_ref ? "no ref_out" : "with ref_out", t1 - t0, t2 - t1, mlab_now_s() - t2);
    mlab_case_free(&c);
    return MLAB_EXIT_OK;
fail:
    fprintf(stderr, "mlabench import: %s\n", why);
    if (have_case)
        mlab_case_free(&c);
    return rc;
}
