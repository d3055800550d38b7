/* sweep.c: the case options of gen and run, and slicing (sweep.h). */
#include "sweep.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"         /* mlab_arg_* */
#include "exitcodes.h"    /* MLAB_EXIT_USAGE */
#include "results.h"      /* mlab_results_find_input (--slice-costs) */
#include "results_read.h" /* mlab_results_read */

void mlab_sweep_usage(FILE *f)
{
    fprintf(f,
            "case options (gen and run; lists make a sweep of every combination):\n"
            "  --suite             the competition's 8 cases (batch, kv_len, seed fixed)\n"
            "  --batch B[,B..]     batch items, default 1 (a list: --batch 4,32)\n"
            "  --kv-len L[,L..]    kv rows per item (default 1024)\n"
            "  --kv-lens L1,L2,..  one case, one length per item (variable; 0 = empty)\n"
            "  --q-seq-len N[,N..] query rows per item, 1..4 (default 1; causal, bottom-right)\n"
            "  --seed S            (default 1)\n"
            "  --input-scale X     any positive value: 1.0 (default), 0.02 (the task before 2026-03-17)\n"
            "  --tie up|even       E2M1 tie rule (default up: the competition's aiter)\n"
            "  --fp8 e4m3fn|e4m3fnuz  fp8 flavour of the stored KV (default e4m3fn)\n"
            "  --name NAME         name of a single case (default: the naming rule,\n"
            "                      b<B>_kv<L>_s<S>[_x<scale>][_even][_fnuz][_q<n>])\n");
}

void mlab_sweep_init(mlab_sweep *w)
{
    memset(w, 0, sizeof *w);
    w->seed = 1;
    w->input_scale = 1.0f;
    w->tie = MLAB_TIE_UP;
    w->fp8 = MLAB_FP8_E4M3FN;
}

void mlab_sweep_free(mlab_sweep *w)
{
    free(w->batch);
    free(w->kv_len);
    free(w->kv_lens);
    free(w->qlen);
    mlab_sweep_init(w);
}

#define LIST_EX_BATCH "--batch 4,32"
#define LIST_EX_KV_LEN "--kv-len 1024,8192"
#define LIST_EX_KV_LENS "--kv-lens 1024,0,512"
#define LIST_EX_Q_SEQ_LEN "--q-seq-len 1,2"

const char *mlab_sweep_list_hint(int c)
{
    switch (c) {
    case MLAB_OPT_BATCH: return " (a list: " LIST_EX_BATCH ")";
    case MLAB_OPT_KV_LEN: return " (a list: " LIST_EX_KV_LEN ")";
    case MLAB_OPT_KV_LENS: return " (a list: " LIST_EX_KV_LENS ")";
    case MLAB_OPT_Q_SEQ_LEN: return " (a list: " LIST_EX_Q_SEQ_LEN ")";
    }
    return "";
}

const char *mlab_sweep_list_example(int c)
{
    switch (c) {
    case MLAB_OPT_BATCH: return LIST_EX_BATCH;
    case MLAB_OPT_KV_LEN: return LIST_EX_KV_LEN;
    case MLAB_OPT_KV_LENS: return LIST_EX_KV_LENS;
    case MLAB_OPT_Q_SEQ_LEN: return LIST_EX_Q_SEQ_LEN;
    }
    return "";
}

int mlab_sweep_numbers_word(const char *a)
{
    return a[0] >= '0' && a[0] <= '9' && strspn(a, "0123456789,") == strlen(a);
}

static int list(const char *cmd, int code, const char *opt, const char *v, long lo, long hi, int **out, int *n)
{
    free(*out);
    *out = NULL;
    *n = 0;
    return mlab_arg_int_list(cmd, opt, v, lo, hi, mlab_sweep_list_hint(code), out, n);
}

int mlab_sweep_option(mlab_sweep *w, const char *cmd, int code, const char *v)
{
    double x;
    w->given = 1;
    switch (code) {
    case MLAB_OPT_SUITE:
        w->suite = 1;
        return 0;
    case MLAB_OPT_BATCH:
        return list(cmd, code, "--batch", v, 1, 1 << 20, &w->batch, &w->nbatch);
    case MLAB_OPT_KV_LEN:
        return list(cmd, code, "--kv-len", v, 0, 1 << 30, &w->kv_len, &w->nkv_len);
    case MLAB_OPT_KV_LENS:
        return list(cmd, code, "--kv-lens", v, 0, 1 << 30, &w->kv_lens, &w->nkv_lens);
    case MLAB_OPT_Q_SEQ_LEN:
        return list(cmd, code, "--q-seq-len", v, 1, 4, &w->qlen, &w->nqlen);
    case MLAB_OPT_SEED:
        w->seed_given = 1;
        return mlab_arg_u64(cmd, "--seed", v, &w->seed);
    case MLAB_OPT_INPUT_SCALE:
        if (mlab_arg_double(cmd, "--input-scale", v, &x))
            return -1;
        if (!((float)x > 0) || !isfinite((float)x)) {
            fprintf(stderr, "mlabench %s: --input-scale: '%s' must be a positive, finite fp32 value\n", cmd, v);
            return -1;
        }
        w->input_scale = (float)x;
        return 0;
    case MLAB_OPT_TIE:
        if (mlab_fp4_tie_parse(v, &w->tie)) {
            fprintf(stderr, "mlabench %s: --tie: '%s' is not up or even\n", cmd, v);
            return -1;
        }
        return 0;
    case MLAB_OPT_FP8:
        if (!strcmp(v, "e4m3fn"))
            w->fp8 = MLAB_FP8_E4M3FN;
        else if (!strcmp(v, "e4m3fnuz"))
            w->fp8 = MLAB_FP8_E4M3FNUZ;
        else {
            fprintf(stderr, "mlabench %s: --fp8: '%s' is not e4m3fn or e4m3fnuz\n", cmd, v);
            return -1;
        }
        return 0;
    case MLAB_OPT_NAME:
        if (mlab_arg_name(cmd, "--name", v, 63, 1))
            return -1;
        snprintf(w->name, sizeof w->name, "%s", v);
        return 0;
    }
    fprintf(stderr, "mlabench %s: internal error: case option %d\n", cmd, code);
    return -1;
}

static int dim(int n) { return n ? n : 1; }

size_t mlab_sweep_count(const mlab_sweep *w)
{
    if (!w->given)
        return 0;
    if (w->suite)
        return MLAB_SUITE_N;
    if (w->kv_lens)
        return (size_t)dim(w->nqlen);
    return (size_t)dim(w->nbatch) * (size_t)dim(w->nkv_len) * (size_t)dim(w->nqlen);
}

void mlab_sweep_spec(const mlab_sweep *w, size_t i, mlab_gen_spec *s)
{
    if (w->suite) {
        mlab_suite_spec((int)i, s);
    } else {
        mlab_gen_spec_init(s);
        size_t nq = (size_t)dim(w->nqlen), nk = (size_t)dim(w->nkv_len);
        if (w->qlen)
            s->q_seq_len = w->qlen[i % nq];
        if (w->kv_lens) {
            s->batch = w->nkv_lens;
            s->kv_lens = w->kv_lens;
        } else {
            if (w->kv_len)
                s->kv_len = w->kv_len[(i / nq) % nk];
            if (w->batch)
                s->batch = w->batch[i / (nq * nk)];
        }
        s->seed = w->seed;
        snprintf(s->name, sizeof s->name, "%s", w->name);
    }
    s->input_scale = w->input_scale;
    s->fp4_tie = w->tie;
    s->fp8_fmt = w->fp8;
}

/* Write the reason of a refused command line into why; MLAB_EXIT_USAGE. */
static int refuse(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
    return MLAB_EXIT_USAGE;
}

int mlab_sweep_check(const mlab_sweep *w, char *why, size_t whylen)
{
    if (w->suite && (w->batch || w->kv_len || w->kv_lens || w->qlen || w->seed_given || w->name[0])) {
        const char *o = w->batch ? "--batch" : w->kv_len ? "--kv-len" : w->kv_lens ? "--kv-lens"
                      : w->qlen ? "--q-seq-len" : w->seed_given ? "--seed" : "--name";
        return refuse(why, whylen, "--suite fixes batch, kv length, q_seq_len, seed and names: "
                      "drop %s (or drop --suite for a sweep)", o);
    }
    if (w->kv_lens && w->kv_len) {
        return refuse(why, whylen, "--kv-len and --kv-lens contradict each other: give one");
    }
    if (w->kv_lens && w->batch && (w->nbatch != 1 || w->batch[0] != w->nkv_lens)) {
        return refuse(why, whylen, "--batch %d but --kv-lens lists %d lengths: drop --batch "
                      "(the list gives the batch)", w->batch[0], w->nkv_lens);
    }
    size_t n = mlab_sweep_count(w);
    if (w->name[0] && n > 1) {
        return refuse(why, whylen, "--name names one case, the options give %zu", n);
    }
    for (size_t i = 0; i < n; i++) {
        mlab_gen_spec s;
        char name[64], err[256];
        mlab_sweep_spec(w, i, &s);
        if (mlab_gen_name(&s, name, sizeof name, err, sizeof err))
            return refuse(why, whylen, "%s", err);
        double kv = mlab_gen_file_bytes(&s) / (MLAB_DQK * 2 + MLAB_DQK + MLAB_FP4_ROW + MLAB_MX_NBLK);
        if (kv > 2147483647.0)
            return refuse(why, whylen, "case %s: about %.0f kv rows, more than int32 indptrs hold",
                          name, kv);
        for (size_t j = 0; j < i; j++) { /* a list with a repeated value: the same case twice */
            mlab_gen_spec t;
            char other[64];
            mlab_sweep_spec(w, j, &t);
            if (!mlab_gen_name(&t, other, sizeof other, err, sizeof err) && !strcmp(other, name))
                return refuse(why, whylen, "case %s is asked for twice (a repeated list value)",
                              name);
        }
    }
    return 0;
}

/* ---- slicing ------------------------------------------------------------ */

double mlab_case_cost(double file_bytes) { return file_bytes + 1e9; }

int mlab_slice_costs(const char *path, const char *const *names, double *cost, size_t n, size_t *matched,
                     char *why, size_t whylen)
{
    mlab_results r;
    *matched = 0;
    int rc = mlab_results_read(path, &r, why, whylen);
    if (rc)
        return rc;
    size_t timed = 0;
    for (size_t k = 0; k < r.ninputs; k++)
        timed += r.inputs[k].wall_s > 0;
    if (!timed) {
        snprintf(why, whylen, "%s: /inputs: no case has a time (wall_s: run writes it since 2026-12-07), "
                              "nothing to cut slices by", path);
        mlab_results_free(&r);
        return MLAB_EXIT_BADINPUT;
    }
    double had_s = 0, had_est = 0; /* the cases both have: seconds, estimate */
    for (size_t i = 0; i < n; i++) {
        const mlab_input_file *in = mlab_results_find_input(&r, names[i]);
        if (in && in->wall_s > 0) {
            had_s += in->wall_s;
            had_est += cost[i];
            ++*matched;
        }
    }
    for (size_t i = 0; i < n && *matched; i++) { /* the estimates read above, then replaced */
        const mlab_input_file *in = mlab_results_find_input(&r, names[i]);
        cost[i] = in && in->wall_s > 0 ? in->wall_s : cost[i] * had_s / had_est;
    }
    mlab_results_free(&r);
    return MLAB_EXIT_OK;
}

size_t mlab_slice_pick(const double *cost, size_t nitems, int k, int n, size_t *pick)
{
    size_t *order = malloc((nitems + 1) * sizeof *order);
    int *slice = malloc((nitems + 1) * sizeof *slice);
    double *load = calloc((size_t)n, sizeof *load);
    size_t m = (size_t)-1;
    if (!order || !slice || !load)
        goto out;
    m = 0;
    for (size_t i = 0; i < nitems; i++)
        order[i] = i;
    /* insertion sort by cost descending, ties by index (stable, deterministic) */
    for (size_t i = 1; i < nitems; i++) {
        size_t x = order[i], j = i;
        while (j > 0 && cost[order[j - 1]] < cost[x]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    for (size_t i = 0; i < nitems; i++) {
        int best = 0;
        for (int s = 1; s < n; s++)
            if (load[s] < load[best])
                best = s;
        slice[order[i]] = best;
        load[best] += cost[order[i]];
    }
    for (size_t i = 0; i < nitems; i++)
        if (slice[i] == k)
            pick[m++] = i;
out:
    free(order);
    free(slice);
    free(load);
    return m;
}

int mlab_slice_parse(const char *cmd, const char *v, int *k, int *n)
{
    char kb[32], *slash = strchr(v, '/');
    if (!slash || (size_t)(slash - v) >= sizeof kb) {
        fprintf(stderr, "mlabench %s: --slice: '%s' is not K/N (slice K of N, 0-based)\n", cmd, v);
        return -1;
    }
    memcpy(kb, v, (size_t)(slash - v));
    kb[slash - v] = 0;
    if (mlab_arg_int(cmd, "--slice N", slash + 1, 1, 4096, n) ||
        mlab_arg_int(cmd, "--slice K", kb, 0, 4095, k))
        return -1;
    if (*k >= *n) {
        fprintf(stderr, "mlabench %s: --slice: %d/%d: K must be below N (0-based)\n", cmd, *k, *n);
        return -1;
    }
    return 0;
}
