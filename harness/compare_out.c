/* compare_out.c: the writers of `mlabench compare` (compare_out.h): aligned
 * text, Markdown tables, one CSV line per pair, one JSON object. */
#include "compare_out.h"

#include <math.h>
#include <string.h>

#include "exitcodes.h" /* MLAB_EXIT_* */

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

/* The column heads of a table: times in us, or in x read limit for the GPU
 * table of --per-read-limit (CPU rows stay host time in us). */
static void heads(const mlab_cmp_report *R, int cpu, const char **head)
{
    int rl = R->per_read_limit && !cpu;
    const char *h[NCOL] = {"case", "variant",
                           rl ? "old median [q1, q3] x read limit" : "old median [q1, q3] us",
                           rl ? "new median [q1, q3] x read limit" : "new median [q1, q3] us",
                           "change", "p-value", "verdict"};
    memcpy(head, h, sizeof h);
}

static void widths(const mlab_cmp_report *R, int cpu, int *w)
{
    const char *head[NCOL];
    heads(R, cpu, head);
    for (int k = 0; k < NCOL; k++)
        w[k] = (int)strlen(head[k]);
    for (size_t i = 0; i < R->np; i++) {
        const mlab_cmp_pair *p = &R->p[i];
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

static void write_table(FILE *f, mlab_fmt style, const mlab_cmp_report *R, int cpu)
{
    int w[NCOL];
    widths(R, cpu, w);
    const char *head[NCOL];
    heads(R, cpu, head);
    put_row(f, style, w, head, NCOL);
    if (style == MLAB_FMT_MD)
        fprintf(f, "| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
    for (size_t i = 0; i < R->np; i++) {
        const mlab_cmp_pair *p = &R->p[i];
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
        if (style == MLAB_FMT_TEXT && p->ran_why[0])
            fprintf(f, "    ran: %s\n", p->ran_why);
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

static void list_only(FILE *f, mlab_fmt style, const mlab_cmp_report *R, int side, const char *used)
{
    const mlab_results *r = R->r[side];
    size_t n = 0;
    for (size_t i = 0; i < r->nrows; i++)
        n += !used[i];
    if (r->env.stopped[0]) /* the rows the other side has and this one lacks: where it stopped */
        fprintf(f, "%s%s's run was stopped early (%s): it holds only the rows measured before the "
                   "signal\n", style == MLAB_FMT_MD ? "\n" : "", side ? "NEW" : "OLD", r->env.stopped);
    if (!n)
        return;
    fprintf(f, "%sonly in %s (%zu):", style == MLAB_FMT_MD ? "\n" : "", side ? "NEW" : "OLD", n);
    for (size_t i = 0; i < r->nrows; i++)
        if (!used[i])
            fprintf(f, " %s/%s", r->rows[i].case_name, r->rows[i].variant);
    fputc('\n', f);
}

/* a pair of the regressions list (slower, drifted, other inputs) or the
 * improvements' (faster, neither of the others); a peer's only in the
 * peers' lists (inputs that differ are the files', listed with ours) */
static int is_regression(const mlab_cmp_pair *p)
{
    return p->drift || p->inputs < 0 || (p->timed && p->tc.verdict == MLAB_SLOWER);
}
static int is_improvement(const mlab_cmp_pair *p)
{
    return p->timed && p->tc.verdict == MLAB_FASTER && !p->drift && p->inputs >= 0;
}

/* After a timing verdict of the closing lists: where the pair's share of
 * time power- or thermal-limited (where both rows have it; else their SM
 * clocks) moved the same way as its time (slower on the more limited or
 * lower clock, faster on the less), that may be the whole change. */
static const char *clock_note(const mlab_cmp_pair *p)
{
    int lower;
    if (!p->timed)
        return "";
    if (mlab_row_slow_share(p->o) >= 0 && mlab_row_slow_share(p->n) >= 0) {
        if (!mlab_cmp_slow_moved(p->o, p->n))
            return "";
        lower = mlab_row_slow_share(p->n) > mlab_row_slow_share(p->o);
    } else if (mlab_cmp_clock_moved(p->o, p->n))
        lower = p->n->sm_clock_mhz < p->o->sm_clock_mhz;
    else
        return "";
    if ((p->tc.verdict == MLAB_SLOWER && lower) || (p->tc.verdict == MLAB_FASTER && !lower))
        return " on a clock that moved with it: re-measure before believing it";
    return "";
}

static void closing_lists(FILE *f, mlab_fmt style, const mlab_cmp_report *R)
{
    const char *bullet = style == MLAB_FMT_MD ? "- " : "  ";
    size_t nreg = 0, nimp = 0, npeer = 0;
    for (size_t i = 0; i < R->np; i++) {
        const mlab_cmp_pair *p = &R->p[i];
        nreg += is_regression(p) && (!p->peer || p->inputs < 0);
        nimp += is_improvement(p) && !p->peer;
        npeer += p->peer && (is_regression(p) || is_improvement(p));
    }
    fprintf(f, "\nregressions:%s\n", nreg ? "" : " none");
    for (size_t i = 0; i < R->np; i++) {
        const mlab_cmp_pair *p = &R->p[i];
        if (p->peer && p->inputs >= 0)
            continue;
        if (p->inputs < 0)
            fprintf(f, "%s%s/%s: inputs differ (%s)\n", bullet, p->o->case_name, p->o->variant,
                    p->inputs_why);
        if (p->timed && p->tc.verdict == MLAB_SLOWER && p->inputs >= 0)
            fprintf(f, "%s%s/%s: slower %s (p %.3g)%s\n", bullet, p->o->case_name, p->o->variant,
                    p->change_s, p->tc.mw.p, clock_note(p));
        if (p->drift)
            fprintf(f, "%s%s/%s: accuracy: %s\n", bullet, p->o->case_name, p->o->variant,
                    p->drift_why);
    }
    fprintf(f, "improvements:%s\n", nimp ? "" : " none");
    for (size_t i = 0; i < R->np; i++) {
        const mlab_cmp_pair *p = &R->p[i];
        if (is_improvement(p) && !p->peer)
            fprintf(f, "%s%s/%s: faster %s (p %.3g)%s\n", bullet, p->o->case_name, p->o->variant,
                    p->change_s, p->tc.mw.p, clock_note(p));
    }
    if (!npeer)
        return;
    fprintf(f, "peers that changed (external implementations: not in the exit code or the geometric mean):\n");
    for (size_t i = 0; i < R->np; i++) {
        const mlab_cmp_pair *p = &R->p[i];
        if (!p->peer || !(is_regression(p) || is_improvement(p)) || p->inputs < 0)
            continue;
        if (p->timed && p->tc.verdict != MLAB_SAME && p->tc.verdict != MLAB_UNCLEAR)
            fprintf(f, "%s%s/%s: %s %s (p %.3g)%s\n", bullet, p->o->case_name, p->o->variant,
                    p->tc.verdict == MLAB_SLOWER ? "slower" : "faster", p->change_s, p->tc.mw.p,
                    clock_note(p));
        if (p->drift)
            fprintf(f, "%s%s/%s: accuracy: %s\n", bullet, p->o->case_name, p->o->variant, p->drift_why);
    }
}

static void write_text(FILE *f, mlab_fmt style, const mlab_cmp_report *R, const char *used_o,
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
            mlab_put_field_change(f, &R->r[0]->env, &R->r[1]->env, &ef[k]);
            fputc('\n', f);
        }
    if (ndiff == 0)
        fprintf(f, "environment: no differences\n");
    fprintf(f, "%stest: two-sided Mann-Whitney U, alpha %g, threshold %.3g%%, >= %d samples a side\n",
            md ? "\n" : "", R->opt->alpha, 100 * R->opt->threshold, MLAB_MWU_MIN_SAMPLES);
    if (R->per_read_limit)
        fprintf(f, "%sunit: x read limit (--per-read-limit: each row's samples divided by its own "
                   "file's read limit of the row's case and KV format)\n", md ? "\n" : "");
    fputc('\n', f);
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
    size_t ngpu = R->np - R->ncpu - R->npeer;
    fprintf(f, "\nsummary: %zu pairs: %zu same, %zu faster, %zu slower, %zu unclear", ngpu,
            R->counts[MLAB_SAME], R->counts[MLAB_FASTER], R->counts[MLAB_SLOWER],
            R->counts[MLAB_UNCLEAR]);
    if (R->per_read_limit)
        fprintf(f, " (%zu without a read limit, not compared)", R->nno_limit);
    if (R->npeer)
        fprintf(f, ", %zu peer pairs apart (%zu faster, %zu slower, %zu accuracy)", R->npeer,
                R->peer_counts[MLAB_FASTER], R->peer_counts[MLAB_SLOWER], R->npeer_acc);
    if (R->ncpu)
        fprintf(f, ", %zu CPU rows (accuracy only)", R->ncpu);
    size_t nclock = 0;
    for (size_t i = 0; i < R->np; i++)
        nclock += !R->p[i].peer && !R->p[i].cpu && *clock_note(&R->p[i]);
    if (nclock)
        fprintf(f, ", %zu verdicts on a clock that moved with them", nclock);
    fprintf(f, "; %zu accuracy regressions; %zu with different inputs -> %s (exit %d)\n", R->nacc,
            R->ninputs_differ,
            R->rc == MLAB_EXIT_NOPAIRS    ? "NOTHING COMPARED"
            : R->rc == MLAB_EXIT_INPUTS   ? "DIFFERENT INPUTS"
            : R->rc == MLAB_EXIT_REGRESSION ? "REGRESSION"
                                          : "no regression",
            R->rc);
    if (R->hint)
        fprintf(f, "hint: the runs are on different devices or hosts: use the cross-machine "
                   "threshold (--threshold %.2f)\n", MLAB_CROSS_MACHINE_THRESHOLD);
    if (!R->per_read_limit && fabs(R->read_bw_change) > R->opt->threshold / 2)
        fprintf(f, "hint: the runs' read limit kernels read %+.1f%% apart: the machine moved as well as the "
                   "kernels; --per-read-limit compares each row against its own run's limit\n",
                100 * R->read_bw_change);
}

/* ---- CSV and JSON ------------------------------------------------------------ */

/* The unit in the names of the time columns and keys: old_median_us, or
 * old_median_x_read_limit with --per-read-limit */
static const char *unit_key(const mlab_cmp_report *R)
{
    return R->per_read_limit ? "x_read_limit" : "us";
}

static const char *const quartile[3] = {"median", "q1", "q3"};

/* Side s of pair p: median, q1, q3 in the pair's unit into v; NaN where the
 * row is not timed or has no read limit. */
int mlab_cmp_quartiles(const mlab_row *r, double lim, double v[3])
{
    const int t = r->nsamples > 0 && r->median_us > 0 && lim > 0;
    v[0] = t ? r->median_us / lim : NAN;
    v[1] = t ? r->q1_us / lim : NAN;
    v[2] = t ? r->q3_us / lim : NAN;
    return t;
}

static void side_times(const mlab_cmp_pair *p, int s, double v[3])
{
    mlab_cmp_quartiles(s ? p->n : p->o, p->lim[s], v);
}

static void write_csv(FILE *f, const mlab_cmp_report *R)
{
    const char *u = unit_key(R);
    fputs("case_name,variant,kind", f);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++)
            fprintf(f, ",%s_%s_%s", s ? "new" : "old", quartile[k], u);
    fprintf(f, ",change,p_value,verdict,timing_verdict,accuracy,inputs%s\n",
            R->per_read_limit ? ",old_read_limit_us,new_read_limit_us" : "");
    for (size_t i = 0; i < R->np; i++) {
        const mlab_cmp_pair *p = &R->p[i];
        mlab_put_str(f, p->o->case_name, MLAB_FMT_CSV);
        fputc(',', f);
        mlab_put_str(f, p->o->variant, MLAB_FMT_CSV);
        fprintf(f, ",%s", p->o->kind);
        for (int s = 0; s < 2; s++) {
            double v[3];
            side_times(p, s, v);
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
        if (R->per_read_limit)
            for (int s = 0; s < 2; s++) { /* empty: no read limit */
                fputc(',', f);
                if (p->lim[s] > 0)
                    fprintf(f, "%.9g", p->lim[s]);
            }
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

static void write_json(FILE *f, const mlab_cmp_report *R, const char *used_o, const char *used_n)
{
    fprintf(f, "{\n  \"format\": \"mlabench-compare\",\n");
    if (R->per_read_limit) /* without the option the times are in us (files before it) */
        fprintf(f, "  \"unit\": \"x read limit\",\n");
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
        const mlab_cmp_pair *p = &R->p[i];
        fprintf(f, "%s\n    {\"case_name\": ", i ? "," : "");
        mlab_put_str(f, p->o->case_name, MLAB_FMT_JSON);
        fprintf(f, ", \"variant\": ");
        mlab_put_str(f, p->o->variant, MLAB_FMT_JSON);
        fprintf(f, ", \"kind\": \"%s\", ", p->o->kind);
        const char *side[2] = {"old", "new"}, *u = unit_key(R);
        for (int s = 0; s < 2; s++) {
            double v[3];
            side_times(p, s, v);
            char key[48];
            for (int k = 0; k < 3; k++) {
                snprintf(key, sizeof key, "%s_%s_%s", side[s], quartile[k], u);
                json_num(f, key, v[k], 1);
            }
            if (R->per_read_limit) {
                snprintf(key, sizeof key, "%s_read_limit_us", side[s]);
                json_num(f, key, p->lim[s] > 0 ? p->lim[s] : NAN, 1);
            }
        }
        json_num(f, "change", p->timed ? p->tc.change : NAN, 1);
        json_num(f, "p_value", p->timed && p->tc.tested ? p->tc.mw.p : NAN, 0);
        fprintf(f, ", \"verdict\": \"%s\", \"accuracy\": ", p->verdict);
        mlab_put_str(f, p->drift ? p->drift_why : "ok", MLAB_FMT_JSON);
        fprintf(f, ", \"inputs\": ");
        mlab_put_str(f, p->inputs > 0 ? "same" : p->inputs == 0 ? "unchecked" : p->inputs_why,
                     MLAB_FMT_JSON);
        fprintf(f, ", \"ran\": ");
        mlab_put_str(f, p->ran_why[0] ? p->ran_why : "same", MLAB_FMT_JSON);
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
        fprintf(f, "],\n  \"stopped_%s\": ", s ? "new" : "old"); /* "" when that run ended */
        mlab_put_str(f, R->r[s]->env.stopped, MLAB_FMT_JSON);
        fprintf(f, ",\n");
    }
    static const char *const lists[4] = {"regressions", "improvements", "peer_regressions", "peer_improvements"};
    for (int list = 0; list < 4; list++) {
        fprintf(f, "  \"%s\": [", lists[list]);
        int first = 1;
        for (size_t i = 0; i < R->np; i++) {
            const mlab_cmp_pair *p = &R->p[i];
            const int ours = !p->peer || (list == 0 && p->inputs < 0); /* other inputs: the files' */
            int in = (list & 1 ? is_improvement(p) : is_regression(p)) && (list < 2 ? ours : p->peer && p->inputs >= 0);
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
               "\"different_inputs\": %zu, \"peer_pairs\": %zu, \"peer_slower\": %zu, ",
            R->np - R->ncpu - R->npeer, R->counts[MLAB_SAME], R->counts[MLAB_FASTER], R->counts[MLAB_SLOWER],
            R->counts[MLAB_UNCLEAR], R->ncpu, R->nacc, R->ninputs_differ, R->npeer, R->peer_counts[MLAB_SLOWER]);
    if (R->per_read_limit)
        fprintf(f, "\"no_read_limit\": %zu, ", R->nno_limit);
    json_num(f, "geomean_change", R->nratio ? R->geo_change : NAN, 0);
    fprintf(f, ", \"cross_machine_hint\": %s},\n  \"exit\": %d\n}\n", R->hint ? "true" : "false",
            R->rc);
}

void mlab_compare_write(FILE *f, mlab_fmt style, const mlab_cmp_report *R, const char *used_o,
                        const char *used_n)
{
    if (style == MLAB_FMT_CSV)
        write_csv(f, R);
    else if (style == MLAB_FMT_JSON)
        write_json(f, R, used_o, used_n);
    else
        write_text(f, style, R, used_o, used_n);
}
