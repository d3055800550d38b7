/* cmd_compare.c: `mlabench compare OLD NEW` (commands.h).
 *
 * Pairs the rows of two results files by (case, variant). Per GPU or peer
 * pair: medians with IQRs, change, a Mann-Whitney U p-value and a verdict
 * (stats.h), accuracy drift, and whether both ran on the same input tensors
 * (the per-tensor SHA-256 of /inputs). CPU reference rows are listed apart,
 * accuracy only. Then a geometric-mean row, the rows of one file only, the
 * environment differences, a closing list of regressions and improvements
 * naming each row, and the exit code. --format text|md|csv|json.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h" /* mlab_arg_double */
#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_out_*, mlab_put_*, mlab_field_differs */
#include "stats.h"       /* mlab_compare_timing, mlab_accuracy_drift, mlab_geomean */

#define CROSS_MACHINE_THRESHOLD 0.05

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench compare OLD NEW [--alpha 0.05] [--threshold 0.02] [--drift 1.5]\n"
            "                        [--force] [--format text|md|csv|json] [-o FILE]\n"
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
            "    inputs-differ   the two rows ran on different tensors (the SHA-256 of\n"
            "             q, kv_bf16, kv_fp8 + scale, kv_fp4, kv_e8m0 or an indptr differ):\n"
            "             the times say nothing about the kernels\n"
            "  CPU reference rows (kind \"cpu\", timed once on the host) are listed apart,\n"
            "  accuracy only. Then a geometric-mean row over the GPU pairs timed in both,\n"
            "  the rows found in only one file, the environment fields that differ, and\n"
            "  the closing lists \"regressions:\" and \"improvements:\" naming each row.\n"
            "  Runs on different devices or hosts get a hint to use the cross-machine\n"
            "  threshold (--threshold %.2f).\n"
            "  --alpha A      significance level of the U test (default 0.05)\n"
            "  --threshold T  smallest relative change of the median that counts (0.02)\n"
            "  --drift F      accuracy growth factor that counts as drift (1.5)\n"
            "  --force        compare files from different GPU models anyway\n"
            "  --format F     text (default, aligned columns), md (Markdown tables), csv\n"
            "                 (one line per pair), json (everything, one object)\n"
            "  -o FILE        write there (atomically) instead of stdout\n"
            "exit codes: 0 no regression (every pair same, faster or unclear),\n"
            "  6 a pair is slower or has an accuracy regression,\n"
            "  7 refused: different GPU models (gpu_name) without --force,\n"
            "  8 nothing pairs: no (case, variant) of OLD is in NEW,\n"
            "  9 paired rows ran on different inputs (wins over 6),\n"
            "  2 usage, 3 not a results file, 4 cannot read a file\n",
            CROSS_MACHINE_THRESHOLD);
}

typedef struct {
    const mlab_row *o, *n;
    int cpu;             /* a CPU reference row: accuracy only */
    int timed;           /* timed on both sides (GPU/peer) */
    mlab_timing_cmp tc;
    int drift;
    char drift_why[256];
    int inputs;          /* 1 same, 0 not checked, -1 different */
    char inputs_why[128];
    const char *verdict; /* what the row says, one word */
    char old_s[64], new_s[64], change_s[32], p_s[40];
} pair;

static const mlab_input_file *find_input(const mlab_results *r, const char *case_name)
{
    for (size_t i = 0; i < r->ninputs; i++)
        if (strcmp(r->inputs[i].case_name, case_name) == 0)
            return &r->inputs[i];
    return NULL;
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

static void fmt_median(char *buf, size_t size, const mlab_row *r)
{
    if (r->nsamples == 0 || !(r->median_us > 0))
        snprintf(buf, size, "not timed");
    else
        snprintf(buf, size, "%.4g [%.4g, %.4g]", r->median_us, r->q1_us, r->q3_us);
}

static void env_value(FILE *f, const mlab_env *e, const mlab_field *fl)
{
    const char *p = (const char *)e + fl->offset;
    if (fl->kind == 's' && !p[0])
        fputs("(empty)", f);
    else
        mlab_put_field(f, e, fl, MLAB_FMT_TEXT);
}

typedef struct {
    const char *paths[2];
    const mlab_results *r[2];
    const mlab_cmp_opts *opt;
    pair *p;
    size_t np;
    size_t counts[4], ncpu, nacc, ninputs_differ, ninputs_unchecked, nratio;
    double geo_old, geo_new, geo_change;
    int forced, hint, rc;
} report;

/* ---- text and Markdown ------------------------------------------------------ */

static void put_row(FILE *f, mlab_fmt style, const int *w, const char **cells, int ncells)
{
    if (style == MLAB_FMT_MD) {
        fputs("|", f);
        for (int k = 0; k < ncells; k++) {
            fputc(' ', f);
            mlab_put_str(f, cells[k], MLAB_FMT_MD);
            fputs(" |", f);
        }
        fputc('\n', f);
        return;
    }
    for (int k = 0; k < ncells; k++) /* last column unpadded: no trailing blanks */
        if (k + 1 < ncells)
            fprintf(f, "%-*s  ", w[k], cells[k]);
        else
            fputs(cells[k], f);
    fputc('\n', f);
}

#define NCOL 7

static void widths(const report *R, int cpu, int *w)
{
    static const char *head[NCOL] = {"case", "variant", "old median [q1, q3] us",
                                     "new median [q1, q3] us", "change", "p-value", "verdict"};
    for (int k = 0; k < NCOL; k++)
        w[k] = (int)strlen(head[k]);
    for (size_t i = 0; i < R->np; i++) {
        const pair *p = &R->p[i];
        if (p->cpu != cpu)
            continue;
        const char *c[NCOL] = {p->o->case_name, p->o->variant, p->old_s, p->new_s,
                               p->change_s, p->p_s, p->verdict};
        for (int k = 0; k < NCOL; k++)
            w[k] = (int)strlen(c[k]) > w[k] ? (int)strlen(c[k]) : w[k];
    }
    if (!cpu && R->nratio) {
        w[0] = w[0] < 7 ? 7 : w[0];
    }
}

static void write_table(FILE *f, mlab_fmt style, const report *R, int cpu)
{
    int w[NCOL];
    widths(R, cpu, w);
    const char *head[NCOL] = {"case", "variant", "old median [q1, q3] us", "new median [q1, q3] us",
                              "change", "p-value", "verdict"};
    put_row(f, style, w, head, NCOL);
    if (style == MLAB_FMT_MD)
        fprintf(f, "| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
    for (size_t i = 0; i < R->np; i++) {
        const pair *p = &R->p[i];
        if (p->cpu != cpu)
            continue;
        char verdict[320];
        if (p->drift || p->inputs < 0 || !p->timed || !p->tc.tested)
            snprintf(verdict, sizeof verdict, "%s", p->verdict);
        else
            snprintf(verdict, sizeof verdict, "%s (%s)", p->verdict, p->tc.why);
        const char *c[NCOL] = {p->o->case_name, p->o->variant, p->old_s, p->new_s,
                               p->change_s, p->p_s, verdict};
        put_row(f, style, w, c, NCOL);
        if (style == MLAB_FMT_TEXT && p->drift)
            fprintf(f, "    accuracy: %s\n", p->drift_why);
        if (style == MLAB_FMT_TEXT && p->inputs < 0)
            fprintf(f, "    inputs: %s differ\n", p->inputs_why);
    }
    if (!cpu && R->nratio) {
        char go[32], gn[32], ch[32], what[96];
        snprintf(go, sizeof go, "%.4g", R->geo_old);
        snprintf(gn, sizeof gn, "%.4g", R->geo_new);
        snprintf(ch, sizeof ch, "%+.2f%%", 100 * R->geo_change);
        snprintf(what, sizeof what, "(geometric mean of new/old medians, %zu pairs)", R->nratio);
        const char *c[NCOL] = {"geomean", "", go, gn, ch, "", what};
        put_row(f, style, w, c, NCOL);
    }
}

static void list_only(FILE *f, mlab_fmt style, const report *R, int side, const char *used)
{
    const mlab_results *r = R->r[side];
    size_t n = 0;
    for (size_t i = 0; i < r->nrows; i++)
        n += !used[i];
    if (!n)
        return;
    fprintf(f, "%sonly in %s (%zu):", style == MLAB_FMT_MD ? "\n" : "", side ? "NEW" : "OLD", n);
    for (size_t i = 0; i < r->nrows; i++)
        if (!used[i])
            fprintf(f, " %s/%s", r->rows[i].case_name, r->rows[i].variant);
    fputc('\n', f);
}

static void closing_lists(FILE *f, mlab_fmt style, const report *R)
{
    const char *bullet = style == MLAB_FMT_MD ? "- " : "  ";
    size_t nreg = 0, nimp = 0;
    for (size_t i = 0; i < R->np; i++) {
        const pair *p = &R->p[i];
        nreg += p->drift || p->inputs < 0 || (p->timed && p->tc.verdict == MLAB_SLOWER);
        nimp += p->timed && p->tc.verdict == MLAB_FASTER && !p->drift && p->inputs >= 0;
    }
    fprintf(f, "\nregressions:%s\n", nreg ? "" : " none");
    for (size_t i = 0; i < R->np; i++) {
        const pair *p = &R->p[i];
        if (p->inputs < 0)
            fprintf(f, "%s%s/%s: inputs differ (%s)\n", bullet, p->o->case_name, p->o->variant,
                    p->inputs_why);
        if (p->timed && p->tc.verdict == MLAB_SLOWER && p->inputs >= 0)
            fprintf(f, "%s%s/%s: slower %s (p %.3g)\n", bullet, p->o->case_name, p->o->variant,
                    p->change_s, p->tc.mw.p);
        if (p->drift)
            fprintf(f, "%s%s/%s: accuracy: %s\n", bullet, p->o->case_name, p->o->variant,
                    p->drift_why);
    }
    fprintf(f, "improvements:%s\n", nimp ? "" : " none");
    for (size_t i = 0; i < R->np; i++) {
        const pair *p = &R->p[i];
        if (p->timed && p->tc.verdict == MLAB_FASTER && !p->drift && p->inputs >= 0)
            fprintf(f, "%s%s/%s: faster %s (p %.3g)\n", bullet, p->o->case_name, p->o->variant,
                    p->change_s, p->tc.mw.p);
    }
}

static void write_text(FILE *f, mlab_fmt style, const report *R, const char *used_o,
                       const char *used_n)
{
    const int md = style == MLAB_FMT_MD;
    if (md)
        fprintf(f, "# mlabench compare\n\n");
    for (int s = 0; s < 2; s++) {
        const mlab_env *e = &R->r[s]->env;
        fprintf(f, "%s%s %s: %s, %s, commit %.12s%s, %s%s%s%s\n", md ? "- " : "", s ? "NEW" : "OLD",
                R->paths[s], e->gpu_name[0] ? e->gpu_name : "no GPU", e->runtime_version,
                e->git_commit, e->git_dirty ? "-dirty" : "", e->utc_time,
                e->label[0] ? ", label '" : "", e->label, e->label[0] ? "'" : "");
    }
    if (R->forced)
        fprintf(f, "warning: different GPU models ('%s' vs '%s'), compared because of --force\n",
                R->r[0]->env.gpu_name, R->r[1]->env.gpu_name);
    size_t nef, ndiff = 0;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t k = 0; k < nef; k++)
        if (mlab_field_differs(&R->r[0]->env, &R->r[1]->env, &ef[k])) {
            if (ndiff++ == 0)
                fprintf(f, "%senvironment differences (OLD -> NEW):\n", md ? "\n" : "");
            fprintf(f, "%s%s: ", md ? "- " : "  ", ef[k].name);
            env_value(f, &R->r[0]->env, &ef[k]);
            fprintf(f, " -> ");
            env_value(f, &R->r[1]->env, &ef[k]);
            fputc('\n', f);
        }
    if (ndiff == 0)
        fprintf(f, "environment: no differences\n");
    fprintf(f, "%stest: two-sided Mann-Whitney U, alpha %g, threshold %.3g%%, >= %d samples a side\n\n",
            md ? "\n" : "", R->opt->alpha, 100 * R->opt->threshold, MLAB_MWU_MIN_SAMPLES);
    if (R->np - R->ncpu > 0 || R->ncpu == 0)
        write_table(f, style, R, 0);
    if (R->ncpu) {
        fprintf(f, "\nCPU reference rows (host-timed once, for information: accuracy only):\n%s",
                md ? "\n" : "");
        write_table(f, style, R, 1);
    }
    list_only(f, style, R, 0, used_o);
    list_only(f, style, R, 1, used_n);
    if (R->ninputs_unchecked)
        fprintf(f, "\nnote: inputs of %zu pairs not checked (a version-1 results file hashes whole "
                   "files, or no input recorded)\n", R->ninputs_unchecked);
    closing_lists(f, style, R);
    size_t ngpu = R->np - R->ncpu;
    fprintf(f, "\nsummary: %zu pairs: %zu same, %zu faster, %zu slower, %zu unclear", ngpu,
            R->counts[MLAB_SAME], R->counts[MLAB_FASTER], R->counts[MLAB_SLOWER],
            R->counts[MLAB_UNCLEAR]);
    if (R->ncpu)
        fprintf(f, ", %zu CPU rows (accuracy only)", R->ncpu);
    fprintf(f, "; %zu accuracy regressions; %zu with different inputs -> %s (exit %d)\n", R->nacc,
            R->ninputs_differ,
            R->rc == MLAB_EXIT_NOPAIRS    ? "NOTHING COMPARED"
            : R->rc == MLAB_EXIT_INPUTS   ? "DIFFERENT INPUTS"
            : R->rc == MLAB_EXIT_REGRESSION ? "REGRESSION"
                                          : "no regression",
            R->rc);
    if (R->hint)
        fprintf(f, "hint: the runs are on different devices or hosts: use the cross-machine "
                   "threshold (--threshold %.2f)\n", CROSS_MACHINE_THRESHOLD);
}

/* ---- CSV and JSON ------------------------------------------------------------ */

static void write_csv(FILE *f, const report *R)
{
    fprintf(f, "case_name,variant,kind,old_median_us,old_q1_us,old_q3_us,new_median_us,new_q1_us,"
               "new_q3_us,change,p_value,verdict,timing_verdict,accuracy,inputs\n");
    for (size_t i = 0; i < R->np; i++) {
        const pair *p = &R->p[i];
        mlab_put_str(f, p->o->case_name, MLAB_FMT_CSV);
        fputc(',', f);
        mlab_put_str(f, p->o->variant, MLAB_FMT_CSV);
        fprintf(f, ",%s", p->o->kind);
        const mlab_row *rr[2] = {p->o, p->n};
        for (int s = 0; s < 2; s++) {
            int t = rr[s]->nsamples > 0 && rr[s]->median_us > 0;
            double v[3] = {t ? rr[s]->median_us : NAN, t ? rr[s]->q1_us : NAN,
                           t ? rr[s]->q3_us : NAN};
            for (int k = 0; k < 3; k++) {
                fputc(',', f);
                if (!isnan(v[k]))
                    fprintf(f, "%.9g", v[k]);
            }
        }
        fputc(',', f);
        if (p->timed && isfinite(p->tc.change))
            fprintf(f, "%.6g", p->tc.change);
        fputc(',', f);
        if (p->timed && p->tc.tested)
            fprintf(f, "%.6g", p->tc.mw.p);
        fprintf(f, ",%s,%s,", p->verdict, p->timed ? mlab_verdict_name(p->tc.verdict) : "");
        mlab_put_str(f, p->drift ? p->drift_why : "ok", MLAB_FMT_CSV);
        fputc(',', f);
        mlab_put_str(f, p->inputs > 0 ? "same" : p->inputs == 0 ? "unchecked" : p->inputs_why,
                     MLAB_FMT_CSV);
        fputc('\n', f);
    }
}

static void json_num(FILE *f, const char *key, double v, int comma)
{
    fprintf(f, "\"%s\": ", key);
    mlab_put_num(f, v, "%.9g", MLAB_FMT_JSON);
    if (comma)
        fputs(", ", f);
}

static void write_json(FILE *f, const report *R, const char *used_o, const char *used_n)
{
    fprintf(f, "{\n  \"format\": \"mlabench-compare\",\n");
    for (int s = 0; s < 2; s++) {
        const mlab_env *e = &R->r[s]->env;
        fprintf(f, "  \"%s\": {\"path\": ", s ? "new" : "old");
        mlab_put_str(f, R->paths[s], MLAB_FMT_JSON);
        size_t nef;
        const mlab_field *ef = mlab_env_fields(&nef);
        for (size_t k = 0; k < nef; k++) {
            fprintf(f, ", \"%s\": ", ef[k].name);
            mlab_put_field(f, e, &ef[k], MLAB_FMT_JSON);
        }
        fprintf(f, "},\n");
    }
    fprintf(f, "  \"options\": {");
    json_num(f, "alpha", R->opt->alpha, 1);
    json_num(f, "threshold", R->opt->threshold, 1);
    json_num(f, "drift", R->opt->drift_factor, 0);
    fprintf(f, ", \"force\": %s},\n  \"pairs\": [", R->forced ? "true" : "false");
    for (size_t i = 0; i < R->np; i++) {
        const pair *p = &R->p[i];
        fprintf(f, "%s\n    {\"case_name\": ", i ? "," : "");
        mlab_put_str(f, p->o->case_name, MLAB_FMT_JSON);
        fprintf(f, ", \"variant\": ");
        mlab_put_str(f, p->o->variant, MLAB_FMT_JSON);
        fprintf(f, ", \"kind\": \"%s\", ", p->o->kind);
        const mlab_row *rr[2] = {p->o, p->n};
        const char *side[2] = {"old", "new"};
        for (int s = 0; s < 2; s++) {
            int t = rr[s]->nsamples > 0 && rr[s]->median_us > 0;
            char k[32];
            snprintf(k, sizeof k, "%s_median_us", side[s]);
            json_num(f, k, t ? rr[s]->median_us : NAN, 1);
            snprintf(k, sizeof k, "%s_q1_us", side[s]);
            json_num(f, k, t ? rr[s]->q1_us : NAN, 1);
            snprintf(k, sizeof k, "%s_q3_us", side[s]);
            json_num(f, k, t ? rr[s]->q3_us : NAN, 1);
        }
        json_num(f, "change", p->timed ? p->tc.change : NAN, 1);
        json_num(f, "p_value", p->timed && p->tc.tested ? p->tc.mw.p : NAN, 0);
        fprintf(f, ", \"verdict\": \"%s\", \"accuracy\": ", p->verdict);
        mlab_put_str(f, p->drift ? p->drift_why : "ok", MLAB_FMT_JSON);
        fprintf(f, ", \"inputs\": ");
        mlab_put_str(f, p->inputs > 0 ? "same" : p->inputs == 0 ? "unchecked" : p->inputs_why,
                     MLAB_FMT_JSON);
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n");
    const char *used[2] = {used_o, used_n};
    for (int s = 0; s < 2; s++) {
        fprintf(f, "  \"only_in_%s\": [", s ? "new" : "old");
        int first = 1;
        for (size_t i = 0; i < R->r[s]->nrows; i++)
            if (!used[s][i]) {
                char key[128];
                snprintf(key, sizeof key, "%s/%s", R->r[s]->rows[i].case_name,
                         R->r[s]->rows[i].variant);
                fputs(first ? "" : ", ", f);
                mlab_put_str(f, key, MLAB_FMT_JSON);
                first = 0;
            }
        fprintf(f, "],\n");
    }
    for (int list = 0; list < 2; list++) {
        fprintf(f, "  \"%s\": [", list ? "improvements" : "regressions");
        int first = 1;
        for (size_t i = 0; i < R->np; i++) {
            const pair *p = &R->p[i];
            int in = list ? p->timed && p->tc.verdict == MLAB_FASTER && !p->drift && p->inputs >= 0
                          : p->drift || p->inputs < 0 || (p->timed && p->tc.verdict == MLAB_SLOWER);
            if (!in)
                continue;
            char key[128];
            snprintf(key, sizeof key, "%s/%s", p->o->case_name, p->o->variant);
            fputs(first ? "" : ", ", f);
            mlab_put_str(f, key, MLAB_FMT_JSON);
            first = 0;
        }
        fprintf(f, "],\n");
    }
    fprintf(f, "  \"summary\": {\"pairs\": %zu, \"same\": %zu, \"faster\": %zu, \"slower\": %zu, "
               "\"unclear\": %zu, \"cpu_rows\": %zu, \"accuracy_regressions\": %zu, "
               "\"different_inputs\": %zu, ",
            R->np - R->ncpu, R->counts[MLAB_SAME], R->counts[MLAB_FASTER], R->counts[MLAB_SLOWER],
            R->counts[MLAB_UNCLEAR], R->ncpu, R->nacc, R->ninputs_differ);
    json_num(f, "geomean_change", R->nratio ? R->geo_change : NAN, 0);
    fprintf(f, ", \"cross_machine_hint\": %s},\n  \"exit\": %d\n}\n", R->hint ? "true" : "false",
            R->rc);
}

/* ---- the command --------------------------------------------------------------- */

static int parse(int argc, char **argv, mlab_cmp_opts *opt, int *force, int *style,
                 const char **out, const char *paths[2])
{
    const char *cmd = "compare";
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},         {"force", no_argument, NULL, 'f'},
        {"alpha", required_argument, NULL, 'a'},  {"threshold", required_argument, NULL, 't'},
        {"drift", required_argument, NULL, 'd'},  {"format", required_argument, NULL, 'F'},
        {"output", required_argument, NULL, 'o'}, {NULL, 0, NULL, 0}};
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
static int judge(report *R, char *used_o, char *used_n)
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
        pair *p = &R->p[R->np++];
        p->o = ro;
        p->n = rn;
        p->cpu = mlab_row_is_cpu(ro) || mlab_row_is_cpu(rn);
        p->timed = !p->cpu && mlab_row_timed(ro) && mlab_row_timed(rn);
        if (mlab_compare_timing(ro, rn, R->opt, &p->tc)) {
            free(ratios);
            return -1;
        }
        p->drift = mlab_accuracy_drift(ro, rn, R->opt, p->drift_why, sizeof p->drift_why);
        p->inputs = same_inputs(find_input(o, ro->case_name), find_input(n, rn->case_name),
                                p->inputs_why, sizeof p->inputs_why);
        R->ncpu += p->cpu;
        R->nacc += p->drift;
        R->ninputs_differ += p->inputs < 0;
        R->ninputs_unchecked += p->inputs == 0;
        fmt_median(p->old_s, sizeof p->old_s, ro);
        fmt_median(p->new_s, sizeof p->new_s, rn);
        snprintf(p->change_s, sizeof p->change_s, "n/a");
        snprintf(p->p_s, sizeof p->p_s, "-");
        if (p->cpu) {
            p->verdict = p->drift ? "accuracy-regression" : "accuracy ok";
        } else {
            if (p->timed && isfinite(p->tc.change)) {
                snprintf(p->change_s, sizeof p->change_s, "%+.2f%%", 100 * p->tc.change);
                ratios[R->nratio] = rn->median_us / ro->median_us;
                olds[R->nratio] = ro->median_us;
                news[R->nratio++] = rn->median_us;
            }
            if (p->tc.tested)
                snprintf(p->p_s, sizeof p->p_s, "%.3g", p->tc.mw.p);
            else
                snprintf(p->p_s, sizeof p->p_s, "n/a (%s)", p->tc.why);
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
    int force = 0, style = MLAB_FMT_TEXT;
    mlab_cmp_opts opt;
    mlab_cmp_opts_default(&opt);
    int rc = parse(argc, argv, &opt, &force, &style, &out, paths);
    if (rc)
        return rc < 0 ? MLAB_EXIT_OK : rc;

    mlab_results o, n;
    if ((rc = mlab_cli_load(cmd, paths[0], &o)))
        return rc;
    if ((rc = mlab_cli_load(cmd, paths[1], &n))) {
        mlab_results_free(&o);
        return rc;
    }
    report R = {.paths = {paths[0], paths[1]}, .r = {&o, &n}, .opt = &opt};
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
    R.hint = other_device && opt.threshold < CROSS_MACHINE_THRESHOLD && R.np > R.ncpu;
    if ((rc = mlab_out_open(cmd, &of, out)))
        goto out;
    if (style == MLAB_FMT_CSV)
        write_csv(of.f, &R);
    else if (style == MLAB_FMT_JSON)
        write_json(of.f, &R, used_o, used_n);
    else
        write_text(of.f, (mlab_fmt)style, &R, used_o, used_n);
    rc = mlab_out_close(cmd, &of, 1);
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
