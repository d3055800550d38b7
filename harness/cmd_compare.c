/* cmd_compare.c: `mlabench compare OLD NEW` (commands.h).
 *
 * Pairs the rows of two results files by (case, variant). Per GPU or peer
 * pair: medians with IQRs, change, a Mann-Whitney U p-value and a verdict
 * (stats.h), accuracy drift, and whether both ran on the same input tensors
 * (the per-tensor SHA-256 of /inputs). CPU reference rows are listed apart,
 * accuracy only. Then a geometric-mean row, the rows of one file only, the
 * environment differences, a closing list of regressions and improvements
 * naming each row, and the exit code. --format text|md|csv|json.
 * --per-read-limit judges times in units of each file's own read limit.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "args.h" /* mlab_arg_double */
#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_out_*, mlab_put_*, mlab_field_differs */
#include "compare_out.h" /* mlab_cmp_pair, mlab_cmp_report, mlab_compare_write */
#include "stats.h"       /* mlab_compare_timing, mlab_accuracy_drift, mlab_geomean */


static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench compare OLD NEW [--alpha 0.05] [--threshold 0.02] [--drift 1.5]\n"
            "                        [--force] [--per-read-limit] [--format text|md|csv|json]\n"
            "                        [-o FILE]\n"
            "  Pairs the rows of two results files by (case, variant) and prints per pair\n"
            "  the old and new median with [q1, q3] in us, the change of the median, the\n"
            "  two-sided Mann-Whitney U p-value (only when both sides have >= 9 samples)\n"
            "  and a verdict:\n"
            "    same     p >= alpha (noise explains it) or |change| < threshold\n"
            "    faster / slower   p < alpha AND |change| >= threshold AND the median\n"
            "             and the ranks move the same way AND the medians are not both\n"
            "             inside each other's IQR\n"
            "    unclear  fewer than 9 samples a side, not timed, no read limit (with\n"
            "             --per-read-limit), or one of the last two conditions fails\n"
            "             (re-run with more samples)\n"
            "    accuracy-regression   validation went from pass to fail, NaN/Inf\n"
            "             positions started to disagree, or kernel rel_rms or max_abs grew\n"
            "             by more than --drift times AND above a tenth of its tolerance\n"
            "    inputs-differ   the two rows ran on different tensors (the SHA-256 of\n"
            "             q, kv_bf16, kv_fp8 + scale, kv_fp4, kv_e8m0 or an indptr differ):\n"
            "             the times say nothing about the kernels\n"
            "  CPU reference rows (kind \"cpu\", timed once on the host) are listed apart,\n"
            "  accuracy only. Then a geometric-mean row over the GPU pairs timed in both,\n"
            "  the rows found in only one file, the environment fields that differ (of a\n"
            "  long field of words, kernel_knobs or the compile flags, the words that\n"
            "  differ), and the closing lists \"regressions:\" and \"improvements:\".\n"
            "  Under a pair that ran differently a line says how (\"ran:\"): the split\n"
            "  count, merge path, L2 policy, blocks an SM, shared memory, registers, or\n"
            "  the SM clock where the two readings (one after each row's samples) are\n"
            "  more than %d%% apart, or the share of the row's sampling NVML counted\n"
            "  power- or thermal-limited where the two are more than %d points apart\n"
            "  (files from 2026-12-05 on); a faster or slower verdict whose share (where\n"
            "  both rows have one; else clock) moved with it is marked in the closing\n"
            "  lists and counted in the summary (re-measure: a power or thermal\n"
            "  slowdown, not the code; a memory-bound row may not follow its clock at\n"
            "  all). Not in the exit code.\n"
            "  Peers' pairs (kind \"peer\": external implementations) are judged the same\n"
            "  way but listed apart (\"peers that changed\"), outside the exit code and\n"
            "  the geometric mean: their host-bound times are not our kernels'.\n"
            "  Runs on different devices or hosts get a hint to use the cross-machine\n"
            "  threshold (--threshold %.2f).\n"
            "  --alpha A      significance level of the U test (default 0.05)\n"
            "  --threshold T  smallest relative change of the median that counts (0.02)\n"
            "  --drift F      accuracy growth factor that counts as drift (1.5)\n"
            "  --force        compare files from different GPU models anyway\n"
            "  --per-read-limit  divide each row's samples by its own file's read limit\n"
            "                 of the row's case and KV format (measured in the same run)\n"
            "                 before everything: times in \"x read limit\", which cancels\n"
            "                 most bandwidth differences between machines. A GPU or peer\n"
            "                 pair without a read limit on either side (older files,\n"
            "                 --no-time runs) is unclear (\"no read limit\"), never\n"
            "                 compared in us; the summary counts them\n"
            "  --format F     text (default, aligned columns), md (Markdown tables), csv\n"
            "                 (one line per pair), json (everything, one object)\n"
            "  -o, --output FILE  write there (atomically) instead of stdout (- is stdout)\n"
            "exit codes: 0 no regression (every pair same, faster or unclear; so also\n"
            "  when --per-read-limit finds no read limit),\n"
            "  6 a pair is slower or has an accuracy regression,\n"
            "  7 refused: different GPU models (gpu_name) without --force,\n"
            "  8 nothing pairs: no (case, variant) of OLD is in NEW,\n"
            "  9 paired rows ran on different inputs (wins over 6),\n"
            "  2 usage, 3 not a results file, 4 cannot read a file\n",
            MLAB_CMP_CLOCK_PCT, MLAB_CMP_SLOW_PTS, MLAB_CROSS_MACHINE_THRESHOLD);
}

/* Same tensors? 1 same, -1 different (the names in why), 0 cannot say
 * (a version-1 file, or a case without a recorded input). */
static int same_inputs(const mlab_input_file *a, const mlab_input_file *b, char *why, size_t n)
{
    why[0] = 0;
    if (!a || !b)
        return 0;
    static const struct {
        const char *name;
        size_t off;
    } t[] = {
        {"q", offsetof(mlab_input_file, q_sha256)},
        {"kv_bf16", offsetof(mlab_input_file, kv_bf16_sha256)},
        {"kv_fp8", offsetof(mlab_input_file, kv_fp8_sha256)},
        {"kv_fp4", offsetof(mlab_input_file, kv_fp4_sha256)},
        {"kv_e8m0", offsetof(mlab_input_file, kv_e8m0_sha256)},
        {"qo_indptr", offsetof(mlab_input_file, qo_indptr_sha256)},
        {"kv_indptr", offsetof(mlab_input_file, kv_indptr_sha256)},
    };
    int known = 1, differ = 0;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const char *x = (const char *)a + t[i].off, *y = (const char *)b + t[i].off;
        if (!x[0] || !y[0]) {
            known = 0;
            break;
        }
        if (strcmp(x, y) != 0) {
            size_t l = strlen(why);
            snprintf(why + l, n - l, "%s%s", differ++ ? "," : "", t[i].name);
        }
    }
    if (known)
        return differ ? -1 : 1;
    /* version 1: whole-file hashes; equal files are equal inputs */
    return a->sha256[0] && strcmp(a->sha256, "-") && strcmp(a->sha256, b->sha256) == 0;
}

/* Append ", " (after the first item) and one formatted item to why (len bytes). */
static void ran_add(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void ran_add(char *why, size_t len, const char *fmt, ...)
{
    size_t k = strlen(why);
    if (k && k + 2 < len) {
        memcpy(why + k, ", ", 3);
        k += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    if (k + 1 < len)
        vsnprintf(why + k, len - k, fmt, ap);
    va_end(ap);
}

/* How two rows of one (case, variant) ran differently, for the reader of a
 * change: the SM clock where it moved past MLAB_CMP_CLOCK_PCT (GPU and peer
 * rows); for GPU rows also the split count, the merge path and the KV
 * copies' L2 policy (where both files record them), the main kernel's
 * blocks an SM and shared memory; "" if alike (CPU rows record none of it). */
static void ran_differently(const mlab_row *o, const mlab_row *n, char *why, size_t len)
{
    why[0] = 0;
    if (mlab_cmp_slow_moved(o, n))
        ran_add(why, len, "power/thermal-limited %.0f%% -> %.0f%% of the row", 100 * mlab_row_slow_share(o),
                100 * mlab_row_slow_share(n));
    if (mlab_cmp_clock_moved(o, n))
        ran_add(why, len, "clock %d -> %d MHz%s", o->sm_clock_mhz, n->sm_clock_mhz,
                o->throttled > 0 && n->throttled > 0 ? " (NVML flagged both)"
                : o->throttled > 0                   ? " (NVML flagged OLD)"
                : n->throttled > 0                   ? " (NVML flagged NEW)"
                                                     : "");
    if (strcmp(o->kind, "gpu") || strcmp(n->kind, "gpu"))
        return;
    if (o->splits != n->splits)
        ran_add(why, len, "splits %d -> %d", o->splits, n->splits);
    if (o->merge[0] && n->merge[0] && strcmp(o->merge, n->merge))
        ran_add(why, len, "merge %s -> %s", o->merge, n->merge);
    if (o->unit[0] && n->unit[0] && strcmp(o->unit, n->unit))
        ran_add(why, len, "unit %s -> %s", o->unit, n->unit);
    if (o->l2_policy[0] && n->l2_policy[0] && strcmp(o->l2_policy, n->l2_policy))
        ran_add(why, len, "L2 policy %s -> %s", o->l2_policy, n->l2_policy);
    if (o->blocks_per_sm && n->blocks_per_sm && o->blocks_per_sm != n->blocks_per_sm)
        ran_add(why, len, "blocks an SM %d -> %d", o->blocks_per_sm, n->blocks_per_sm);
    if (o->smem_bytes && n->smem_bytes && o->smem_bytes != n->smem_bytes)
        ran_add(why, len, "shared memory %d -> %d bytes", o->smem_bytes, n->smem_bytes);
    /* the main kernel's footprint (regs > 0: both files have it): a compiler
     * or driver that allocates differently, or spills, shows here */
    if (o->regs > 0 && n->regs > 0) {
        if (o->regs != n->regs)
            ran_add(why, len, "registers %d -> %d", o->regs, n->regs);
        if (o->local_bytes != n->local_bytes)
            ran_add(why, len, "local bytes %d -> %d", o->local_bytes, n->local_bytes);
    }
}

/* The median [q1, q3] of r in its pair's unit: divided by lim (1 for us, 0
 * for a row without the read limit --per-read-limit asks for). */
static void fmt_median(char *buf, size_t size, const mlab_row *r, double lim)
{
    double v[3];
    if (mlab_cmp_quartiles(r, lim, v))
        snprintf(buf, size, "%.4g [%.4g, %.4g]", v[0], v[1], v[2]);
    else
        snprintf(buf, size, r->nsamples == 0 || !(r->median_us > 0) ? "not timed" : "no read limit");
}

/* A row's read limit in us, 0 when it has none (older files, CPU rows,
 * --no-time runs). */
static double read_limit(const mlab_row *r)
{
    return r->read_limit_us > 0 && isfinite(r->read_limit_us) ? r->read_limit_us : 0;
}

/* r with its samples and quartiles divided by lim into out; the samples in
 * a new array (out->samples_us, the caller frees it). Returns 0, -1 out of
 * memory. */
static int divided(const mlab_row *r, double lim, mlab_row *out)
{
    *out = *r;
    out->samples_us = NULL;
    if (r->samples_us && r->nsamples) {
        if (!(out->samples_us = malloc(r->nsamples * sizeof *out->samples_us)))
            return -1;
        for (size_t k = 0; k < r->nsamples; k++)
            out->samples_us[k] = r->samples_us[k] / lim;
    }
    out->median_us /= lim; /* as its samples, also where it was not timed (0 stays 0) */
    out->q1_us /= lim;
    out->q3_us /= lim;
    return 0;
}

/* The timing verdict of pair p in its unit (p->lim). Per read limit, the U
 * test runs on the divided samples: the two sides are divided by different
 * limits, so the ranks of the raw samples would answer another question.
 * Returns 0, -1 out of memory. */
static int judge_timing(mlab_cmp_pair *p, const mlab_cmp_opts *opt, int per_read_limit)
{
    if (!per_read_limit)
        return mlab_compare_timing(p->o, p->n, opt, &p->tc);
    if (!(p->lim[0] > 0 && p->lim[1] > 0)) {
        memset(&p->tc, 0, sizeof p->tc);
        p->tc.change = NAN;
        p->tc.verdict = MLAB_UNCLEAR;
        p->tc.why = "no read limit";
        return 0;
    }
    mlab_row o, n;
    n.samples_us = NULL; /* freed below even when o's copy failed */
    int rc = divided(p->o, p->lim[0], &o) || divided(p->n, p->lim[1], &n) ||
             mlab_compare_timing(&o, &n, opt, &p->tc);
    free(o.samples_us);
    free(n.samples_us);
    return rc ? -1 : 0;
}


/* ---- the command --------------------------------------------------------------- */

static int parse(int argc, char **argv, mlab_cmp_opts *opt, int *force, int *per_read_limit,
                 int *style, const char **out, const char *paths[2])
{
    const char *cmd = "compare";
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},         {"force", no_argument, NULL, 'f'},
        {"alpha", required_argument, NULL, 'a'},  {"threshold", required_argument, NULL, 't'},
        {"drift", required_argument, NULL, 'd'},  {"format", required_argument, NULL, 'F'},
        {"output", required_argument, NULL, 'o'}, {"per-read-limit", no_argument, NULL, 'L'},
        {NULL, 0, NULL, 0}};
    int c;
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        double x = 0;
        if (c == 'a' || c == 't' || c == 'd') {
            const char *name = c == 'a' ? "--alpha" : c == 't' ? "--threshold" : "--drift";
            if (mlab_arg_double(cmd, name, optarg, &x))
                return MLAB_EXIT_USAGE;
        }
        switch (c) {
        case 'h': usage(stdout); return -1;
        case 'f': *force = 1; break;
        case 'L': *per_read_limit = 1; break;
        case 'o': *out = optarg; break;
        case 'F':
            if ((*style = mlab_fmt_parse(optarg)) < 0)
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                                    "--format: '%s' is not text, md, csv or json", optarg);
            break;
        case 'a':
            if (!(x > 0 && x < 1))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--alpha: %g is not in (0, 1)", x);
            opt->alpha = x;
            break;
        case 't':
            if (!(x >= 0 && x < 10))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--threshold: %g is not in [0, 10)", x);
            opt->threshold = x;
            break;
        case 'd':
            if (!(x >= 1))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--drift: %g is not >= 1", x);
            opt->drift_factor = x;
            break;
        default: usage(stderr); return MLAB_EXIT_USAGE;
        }
    }
    if (argc - optind != 2) {
        usage(stderr);
        return argc - optind > 2 ? mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                                                "two results files, OLD and NEW ('%s' is a third)",
                                                argv[optind + 2])
                                 : MLAB_EXIT_USAGE;
    }
    paths[0] = argv[optind];
    paths[1] = argv[optind + 1];
    return MLAB_EXIT_OK;
}

/* Pair the rows and judge each pair; fills R (p, counts, geomean, rc). */
static int judge(mlab_cmp_report *R, char *used_o, char *used_n)
{
    const mlab_results *o = R->r[0], *n = R->r[1];
    double *ratios = malloc((o->nrows + 1) * 3 * sizeof *ratios);
    R->p = calloc(o->nrows + 1, sizeof *R->p);
    if (!ratios || !R->p) {
        free(ratios);
        return -1;
    }
    double *olds = ratios + o->nrows + 1, *news = olds + o->nrows + 1;
    for (size_t i = 0; i < o->nrows; i++) {
        const mlab_row *ro = &o->rows[i], *rn = NULL;
        for (size_t j = 0; j < n->nrows && !rn; j++)
            if (!used_n[j] && strcmp(n->rows[j].case_name, ro->case_name) == 0 &&
                strcmp(n->rows[j].variant, ro->variant) == 0) {
                rn = &n->rows[j];
                used_n[j] = 1;
            }
        if (!rn)
            continue;
        used_o[i] = 1;
        mlab_cmp_pair *p = &R->p[R->np++];
        p->o = ro;
        p->n = rn;
        p->cpu = mlab_row_is_cpu(ro) || mlab_row_is_cpu(rn);
        p->peer = !p->cpu && (!strcmp(ro->kind, "peer") || !strcmp(rn->kind, "peer"));
        p->lim[0] = R->per_read_limit ? read_limit(ro) : 1;
        p->lim[1] = R->per_read_limit ? read_limit(rn) : 1;
        int no_limit = !p->cpu && !(p->lim[0] > 0 && p->lim[1] > 0);
        p->timed = !p->cpu && !no_limit && mlab_row_timed(ro) && mlab_row_timed(rn);
        if (judge_timing(p, R->opt, R->per_read_limit)) {
            free(ratios);
            return -1;
        }
        p->drift = mlab_accuracy_drift(ro, rn, R->opt, p->drift_why, sizeof p->drift_why);
        p->inputs = same_inputs(mlab_results_find_input(o, ro->case_name),
                                mlab_results_find_input(n, rn->case_name), p->inputs_why, sizeof p->inputs_why);
        ran_differently(ro, rn, p->ran_why, sizeof p->ran_why);
        R->ncpu += p->cpu;
        R->nno_limit += no_limit;
        R->nacc += p->drift && !p->peer;
        R->npeer += p->peer;
        R->npeer_acc += p->drift && p->peer;
        R->ninputs_differ += p->inputs < 0;
        R->ninputs_unchecked += p->inputs == 0;
        fmt_median(p->old_s, sizeof p->old_s, ro, p->cpu ? 1 : p->lim[0]);
        fmt_median(p->new_s, sizeof p->new_s, rn, p->cpu ? 1 : p->lim[1]);
        snprintf(p->change_s, sizeof p->change_s, "n/a");
        snprintf(p->p_s, sizeof p->p_s, "-");
        if (p->cpu) {
            p->verdict = p->drift ? "accuracy-regression" : "accuracy ok";
        } else {
            if (p->timed && isfinite(p->tc.change))
                snprintf(p->change_s, sizeof p->change_s, "%+.2f%%", 100 * p->tc.change);
            if (p->timed && isfinite(p->tc.change) && !p->peer) { /* the geomean: our kernels */
                olds[R->nratio] = ro->median_us / p->lim[0];
                news[R->nratio] = rn->median_us / p->lim[1];
                ratios[R->nratio] = news[R->nratio] / olds[R->nratio];
                R->nratio++;
            }
            if (p->tc.tested)
                snprintf(p->p_s, sizeof p->p_s, "%.3g", p->tc.mw.p);
            else
                snprintf(p->p_s, sizeof p->p_s, "n/a (%s)", p->tc.why);
            if (p->peer)
                R->peer_counts[p->tc.verdict]++;
            else
                R->counts[p->tc.verdict]++;
            p->verdict = p->inputs < 0 ? "inputs-differ"
                         : p->drift    ? "accuracy-regression"
                                       : mlab_verdict_name(p->tc.verdict);
        }
    }
    if (R->nratio) {
        R->geo_change = mlab_geomean(ratios, R->nratio) - 1;
        R->geo_old = mlab_geomean(olds, R->nratio);
        R->geo_new = mlab_geomean(news, R->nratio);
    }
    free(ratios);
    R->rc = R->np == 0                 ? MLAB_EXIT_NOPAIRS
            : R->ninputs_differ        ? MLAB_EXIT_INPUTS
            : R->counts[MLAB_SLOWER] || R->nacc ? MLAB_EXIT_REGRESSION
                                       : MLAB_EXIT_OK;
    return 0;
}

int mlab_cmd_compare(int argc, char **argv)
{
    const char *cmd = "compare", *paths[2] = {NULL, NULL}, *out = NULL;
    int force = 0, per_read_limit = 0, style = MLAB_FMT_TEXT;
    mlab_cmp_opts opt;
    mlab_cmp_opts_default(&opt);
    int rc = parse(argc, argv, &opt, &force, &per_read_limit, &style, &out, paths);
    if (rc)
        return rc < 0 ? MLAB_EXIT_OK : rc;
    if ((rc = mlab_cli_out_check(cmd, out, paths, 2))) /* -o never replaces an input (atomic.h) */
        return rc;

    mlab_results o, n;
    if ((rc = mlab_cli_load(cmd, paths[0], &o)))
        return rc;
    if ((rc = mlab_cli_load(cmd, paths[1], &n))) {
        mlab_results_free(&o);
        return rc;
    }
    mlab_cmp_report R = {.paths = {paths[0], paths[1]}, .r = {&o, &n}, .opt = &opt,
                         .per_read_limit = per_read_limit};
    char *used_o = calloc(o.nrows + 1, 1), *used_n = calloc(n.nrows + 1, 1);
    mlab_outfile of = {0};
    if (!used_o || !used_n || judge(&R, used_o, used_n)) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        goto out;
    }
    if (strcmp(o.env.gpu_name, n.env.gpu_name) != 0) {
        if (!force) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_DIFFERENT,
                              "different GPU models: '%s' (%s) vs '%s' (%s): times are not "
                              "comparable (--force compares anyway)",
                              o.env.gpu_name, paths[0], n.env.gpu_name, paths[1]);
            goto out;
        }
        R.forced = 1;
    }
    int other_device = R.forced || strcmp(o.env.gpu_uuid, n.env.gpu_uuid) != 0 ||
                       strcmp(o.env.host, n.env.host) != 0;
    R.hint = other_device && opt.threshold < MLAB_CROSS_MACHINE_THRESHOLD && R.np > R.ncpu;
    {   /* the two runs' own read bandwidth: a machine that reads faster makes every call faster */
        const double b0 = R.r[0]->env.read_bw_gbs, b1 = R.r[1]->env.read_bw_gbs;
        R.read_bw_change = b0 > 0 && b1 > 0 ? b1 / b0 - 1 : 0;
    }
    if ((rc = mlab_out_open(cmd, &of, out)))
        goto out;
    mlab_compare_write(of.f, (mlab_fmt)style, &R, used_o, used_n);
    rc = mlab_out_close(cmd, &of, 1);
    for (int k = 0; k < 2 && rc == MLAB_EXIT_OK; k++)
        if (R.r[k]->env.idle_busy_pct > 0) /* a neighbour on the GPU (results.h) */
            mlab_cli_err(cmd, 0, "%s: another process ran kernels on its GPU during the run (NVML: up to %d%% "
                                 "busy while the run was idle): its times may be slowed",
                         paths[k], R.r[k]->env.idle_busy_pct);
    if (rc == MLAB_EXIT_OK && R.nno_limit)
        mlab_cli_err(cmd, 0, "%zu pairs have no read limit in OLD or NEW: unclear, not compared",
                     R.nno_limit);
    if (rc == MLAB_EXIT_OK) {
        rc = R.rc;
        if (rc == MLAB_EXIT_NOPAIRS)
            mlab_cli_err(cmd, rc, "nothing compared: no (case, variant) of %s is in %s (exit 8)",
                         paths[0], paths[1]);
        else if (rc == MLAB_EXIT_INPUTS)
            mlab_cli_err(cmd, rc, "%zu pairs ran on different inputs (exit 9)",
                         R.ninputs_differ);
    }
out:
    free(R.p);
    free(used_o);
    free(used_n);
    mlab_results_free(&o);
    mlab_results_free(&n);
    return rc;
}
