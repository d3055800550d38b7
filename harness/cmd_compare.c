/* cmd_compare.c: `mlabench compare OLD NEW` (commands.h): per (case,
 * variant) medians with IQRs, change, a Mann-Whitney U p-value, a verdict
 * (stats.h), accuracy drift, a geometric-mean row, environment differences.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h" /* mlab_arg_double */
#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_put_*, mlab_field_differs */
#include "stats.h"       /* mlab_compare_timing, mlab_accuracy_drift, mlab_geomean */

static void compare_usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench compare OLD NEW [--alpha 0.05] [--threshold 0.02] [--drift 1.5]\n"
            "                        [--force]\n"
            "  Pairs the rows of two results files by (case, variant) and prints per pair\n"
            "  the old and new median with [q1, q3] in us, the change of the median, the\n"
            "  two-sided Mann-Whitney U p-value (only when both sides have >= 9 samples)\n"
            "  and a verdict:\n"
            "    same     p >= alpha (noise explains it) or |change| < threshold\n"
            "    faster / slower   p < alpha AND |change| >= threshold AND the median\n"
            "             and the ranks move the same way AND the medians are not both\n"
            "             inside each other's IQR\n"
            "    unclear  fewer than 9 samples a side, not timed, or one of the last\n"
            "             two conditions fails (re-run with more samples)\n"
            "    accuracy-regression   validation went from pass to fail, NaN/Inf\n"
            "             positions started to disagree, or kernel rel_rms or max_abs grew\n"
            "             by more than --drift times AND above a tenth of its tolerance\n"
            "  CPU reference rows (cpu_ref_*, timed once on the host) and rows timed on\n"
            "  neither side get no timing verdict (\"-\"), only the accuracy check.\n"
            "  Then a geometric-mean row over the pairs timed in both, the rows found in\n"
            "  only one file, and the environment fields that differ.\n"
            "  --alpha A      significance level of the U test (default 0.05)\n"
            "  --threshold T  smallest relative change of the median that counts (0.02)\n"
            "  --drift F      accuracy growth factor that counts as drift (1.5)\n"
            "  --force        compare files from different GPU models anyway\n"
            "exit codes: 0 no regression (every pair same, faster or unclear),\n"
            "  6 a pair is slower or has an accuracy regression,\n"
            "  7 refused: different GPU models (gpu_name) without --force,\n"
            "  2 usage, 3 not a results file, 4 cannot read a file\n");
}

static const mlab_row *find_row(const mlab_results *r, const char *case_name, const char *variant,
                                const char *used)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (!used[i] && strcmp(r->rows[i].case_name, case_name) == 0 &&
            strcmp(r->rows[i].variant, variant) == 0)
            return &r->rows[i];
    return NULL;
}

static void print_env_value(const mlab_env *e, const mlab_field *fl)
{
    const char *p = (const char *)e + fl->offset;
    if (fl->kind == 's')
        printf("%s", p[0] ? p : "(empty)");
    else if (fl->kind == 'i')
        printf("%d", *(const int *)p);
    else
        mlab_put_num(stdout, *(const double *)p, "%.6g", MLAB_FMT_TEXT);
}

/* "12.3 [12.1, 12.6]" or "not timed" */
static void fmt_median(char *buf, size_t size, const mlab_row *r)
{
    if (r->nsamples == 0 || !(r->median_us > 0))
        snprintf(buf, size, "not timed");
    else
        snprintf(buf, size, "%.4g [%.4g, %.4g]", r->median_us, r->q1_us, r->q3_us);
}

int mlab_cmd_compare(int argc, char **argv)
{
    const char *cmd = "compare", *paths[2] = {NULL, NULL};
    int force = 0, npaths = 0;
    mlab_cmp_opts opt;
    mlab_cmp_opts_default(&opt);
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},         {"force", no_argument, NULL, 'f'},
        {"alpha", required_argument, NULL, 'a'},  {"threshold", required_argument, NULL, 't'},
        {"drift", required_argument, NULL, 'd'},  {NULL, 0, NULL, 0}};
    int c;
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "h", longs)) != -1) {
        double x = 0;
        if (c == 'a' || c == 't' || c == 'd') {
            char opt_name[16];
            snprintf(opt_name, sizeof opt_name, "--%s", c == 'a' ? "alpha" : c == 't' ? "threshold" : "drift");
            if (mlab_arg_double(cmd, opt_name, optarg, &x))
                return MLAB_EXIT_USAGE;
        }
        switch (c) {
        case 'h': compare_usage(stdout); return MLAB_EXIT_OK;
        case 'f': force = 1; break;
        case 'a':
            if (!(x > 0 && x < 1))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--alpha: %g is not in (0, 1)", x);
            opt.alpha = x;
            break;
        case 't':
            if (!(x >= 0 && x < 10))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--threshold: %g is not in [0, 10)", x);
            opt.threshold = x;
            break;
        case 'd':
            if (!(x >= 1))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--drift: %g is not >= 1", x);
            opt.drift_factor = x;
            break;
        default: compare_usage(stderr); return MLAB_EXIT_USAGE;
        }
    }
    for (; optind < argc; optind++) {
        if (npaths == 2)
            return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "two results files, OLD and NEW ('%s' is a third)",
                                argv[optind]);
        paths[npaths++] = argv[optind];
    }
    if (npaths != 2) {
        compare_usage(stderr);
        return MLAB_EXIT_USAGE;
    }

    mlab_results o, n;
    int rc = mlab_cli_load(cmd, paths[0], &o);
    if (rc)
        return rc;
    rc = mlab_cli_load(cmd, paths[1], &n);
    if (rc) {
        mlab_results_free(&o);
        return rc;
    }
    char *used = calloc(n.nrows + 1, 1), *oused = calloc(o.nrows + 1, 1);
    double *ratios = malloc((o.nrows + 1) * sizeof *ratios);
    double *olds = malloc((o.nrows + 1) * sizeof *olds);
    double *news = malloc((o.nrows + 1) * sizeof *news);
    if (!used || !oused || !ratios || !olds || !news) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        goto out;
    }

    if (strcmp(o.env.gpu_name, n.env.gpu_name) != 0) {
        if (!force) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_DIFFERENT,
                     "different GPU models: '%s' (%s) vs '%s' (%s): times are not comparable "
                     "(--force compares anyway)",
                     o.env.gpu_name, paths[0], n.env.gpu_name, paths[1]);
            goto out;
        }
        printf("warning: different GPU models ('%s' vs '%s'), compared because of --force\n",
               o.env.gpu_name, n.env.gpu_name);
    }

    printf("OLD %s: %s, %s, commit %.12s%s, %s\n", paths[0],
           o.env.gpu_name[0] ? o.env.gpu_name : "no GPU", o.env.runtime_version,
           o.env.git_commit, o.env.git_dirty ? "-dirty" : "", o.env.utc_time);
    printf("NEW %s: %s, %s, commit %.12s%s, %s\n", paths[1],
           n.env.gpu_name[0] ? n.env.gpu_name : "no GPU", n.env.runtime_version,
           n.env.git_commit, n.env.git_dirty ? "-dirty" : "", n.env.utc_time);
    size_t nef, ndiff = 0;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t k = 0; k < nef; k++)
        if (mlab_field_differs(&o.env, &n.env, &ef[k])) {
            if (ndiff++ == 0)
                printf("environment differences (OLD -> NEW):\n");
            printf("  %s: ", ef[k].name);
            print_env_value(&o.env, &ef[k]);
            printf(" -> ");
            print_env_value(&n.env, &ef[k]);
            printf("\n");
        }
    if (ndiff == 0)
        printf("environment: no differences\n");
    printf("test: two-sided Mann-Whitney U, alpha %g, threshold %.3g%%, >= %d samples a side\n\n",
           opt.alpha, 100 * opt.threshold, MLAB_MWU_MIN_SAMPLES);

    /* column widths */
    int wc = 4, wv = 7;
    for (size_t i = 0; i < o.nrows; i++) {
        int lc = (int)strlen(o.rows[i].case_name), lv = (int)strlen(o.rows[i].variant);
        wc = lc > wc ? lc : wc;
        wv = lv > wv ? lv : wv;
    }
    printf("%-*s  %-*s  %-26s  %-26s  %8s  %-23s  %s\n", wc, "case", wv, "variant",
           "old median [q1, q3] us", "new median [q1, q3] us", "change", "p-value", "verdict");

    size_t npairs = 0, nratio = 0, counts[4] = {0, 0, 0, 0}, nacc = 0, nonly_old = 0;
    size_t nuntimed = 0; /* pairs timed on neither side (CPU reference rows) */
    for (size_t i = 0; i < o.nrows; i++) {
        const mlab_row *ro = &o.rows[i];
        const mlab_row *rn = find_row(&n, ro->case_name, ro->variant, used);
        if (!rn) {
            nonly_old++;
            continue;
        }
        used[rn - n.rows] = 1;
        oused[i] = 1;
        npairs++;
        mlab_timing_cmp tc;
        if (mlab_compare_timing(ro, rn, &opt, &tc)) {
            rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
            goto out;
        }
        int untimed = !mlab_row_timed(ro) && !mlab_row_timed(rn);
        if (untimed)
            nuntimed++;
        else
            counts[tc.verdict]++;
        char why[256], mo[64], mn[64], ch[32], pv[40];
        int drift = mlab_accuracy_drift(ro, rn, &opt, why, sizeof why);
        nacc += drift;
        fmt_median(mo, sizeof mo, ro);
        fmt_median(mn, sizeof mn, rn);
        if (isfinite(tc.change) && !untimed) {
            snprintf(ch, sizeof ch, "%+.2f%%", 100 * tc.change);
            ratios[nratio] = rn->median_us / ro->median_us;
            olds[nratio] = ro->median_us;
            news[nratio] = rn->median_us;
            nratio++;
        } else {
            snprintf(ch, sizeof ch, "n/a");
        }
        if (tc.tested)
            snprintf(pv, sizeof pv, "%.3g", tc.mw.p);
        else
            snprintf(pv, sizeof pv, "n/a (%s)", tc.why);
        printf("%-*s  %-*s  %-26s  %-26s  %8s  %-23s  ", wc, ro->case_name, wv, ro->variant, mo, mn,
               ch, pv);
        if (drift)
            printf("accuracy-regression (timing: %s)\n    accuracy: %s\n",
                   mlab_verdict_name(tc.verdict), why);
        else if (untimed)
            printf("-\n");
        else if (tc.tested)
            printf("%s (%s)\n", mlab_verdict_name(tc.verdict), tc.why);
        else
            printf("%s\n", mlab_verdict_name(tc.verdict));
    }
    if (nratio > 0) {
        double g = mlab_geomean(ratios, nratio);
        char go[64], gn[64], ch[32];
        snprintf(go, sizeof go, "%.4g", mlab_geomean(olds, nratio));
        snprintf(gn, sizeof gn, "%.4g", mlab_geomean(news, nratio));
        snprintf(ch, sizeof ch, "%+.2f%%", 100 * (g - 1));
        printf("%-*s  %-*s  %-26s  %-26s  %8s  (geometric mean of new/old medians, %zu pairs)\n",
               wc, "geomean", wv, "", go, gn, ch, nratio);
    }
    if (nonly_old) {
        printf("\nonly in OLD (%zu):", nonly_old);
        for (size_t i = 0; i < o.nrows; i++)
            if (!oused[i])
                printf(" %s/%s", o.rows[i].case_name, o.rows[i].variant);
        printf("\n");
    }
    size_t nonly_new = 0;
    for (size_t i = 0; i < n.nrows; i++)
        nonly_new += !used[i];
    if (nonly_new) {
        printf("%sonly in NEW (%zu):", nonly_old ? "" : "\n", nonly_new);
        for (size_t i = 0; i < n.nrows; i++)
            if (!used[i])
                printf(" %s/%s", n.rows[i].case_name, n.rows[i].variant);
        printf("\n");
    }
    int regression = counts[MLAB_SLOWER] > 0 || nacc > 0;
    printf("\nsummary: %zu pairs: %zu same, %zu faster, %zu slower, %zu unclear",
           npairs, counts[MLAB_SAME], counts[MLAB_FASTER], counts[MLAB_SLOWER],
           counts[MLAB_UNCLEAR]);
    if (nuntimed)
        printf(", %zu not compared (CPU reference or not timed)", nuntimed);
    printf("; %zu accuracy regressions -> %s (exit %d)\n", nacc,
           regression ? "REGRESSION" : "no regression",
           regression ? MLAB_EXIT_REGRESSION : MLAB_EXIT_OK);
    rc = regression ? MLAB_EXIT_REGRESSION : MLAB_EXIT_OK;
out:
    free(used);
    free(oused);
    free(ratios);
    free(olds);
    free(news);
    mlab_results_free(&o);
    mlab_results_free(&n);
    return rc;
}

