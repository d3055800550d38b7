/* results.c: one run's results in memory (results.h).
 *
 *   mlab_results_init/free      an empty set; free releases every row's samples
 *   mlab_results_add_row/input  append deep copies (samples copied)
 *   mlab_results_drop_case      remove a case's rows and input
 *   mlab_row_summarize          median, q1, q3 (numpy's linear interpolation),
 *                               min, mean, sample stdev of the raw samples
 *   mlab_row_slow_share         the share of its sampling power/thermal-limited
 *   mlab_row_slowed             what its printed line says of that and its clock
 *   mlab_env_fields/row_fields  the field tables that results_write.c, the CSV
 *                               export, compare and report all walk
 */
#include "results.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h" /* mlab_quantile_sorted, mlab_sort_doubles */

void mlab_results_init(mlab_results *r)
{
    memset(r, 0, sizeof *r);
    r->env.idle_busy_pct = -1; /* not read: also what a file without the attribute reads */
}

void mlab_env_note_busy(mlab_env *env, int pct)
{
    if (pct > env->idle_busy_pct)
        env->idle_busy_pct = pct;
}

void mlab_results_free(mlab_results *r)
{
    for (size_t i = 0; i < r->nrows; i++)
        free(r->rows[i].samples_us);
    free(r->rows);
    free(r->inputs);
    mlab_results_init(r);
}

const mlab_input_file *mlab_results_find_input(const mlab_results *r, const char *case_name)
{
    for (size_t i = 0; i < r->ninputs; i++)
        if (strcmp(r->inputs[i].case_name, case_name) == 0)
            return &r->inputs[i];
    return NULL;
}

size_t mlab_stopped_names(char *buf, const char **names, size_t max)
{
    size_t n = 0;
    if (!*buf)
        return 0;
    for (char *s = buf;;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = 0;
        size_t i = 0; /* a name twice (an edited or merged file) counts once */
        while (i < n && strcmp(names[i], s) != 0)
            i++;
        if (i == n && n < max)
            names[n++] = s;
        if (!nl)
            return n;
        s = nl + 1;
    }
}

size_t mlab_results_drop_case(mlab_results *r, const char *case_name)
{
    size_t w = 0, dropped = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        if (strcmp(r->rows[i].case_name, case_name) == 0) {
            free(r->rows[i].samples_us);
            dropped++;
        } else {
            r->rows[w++] = r->rows[i];
        }
    }
    r->nrows = w;
    w = 0;
    for (size_t i = 0; i < r->ninputs; i++)
        if (strcmp(r->inputs[i].case_name, case_name) != 0)
            r->inputs[w++] = r->inputs[i];
    r->ninputs = w;
    return dropped;
}

/* Room for one more of an array of n elements of size bytes, *cap of them
 * allocated (below n, as a reader that set the array leaves it: exactly n).
 * It doubles when full: grown by one a call, every call copied it (under
 * ASan's realloc always): results_tool's 4,000 cases took 131 s in CI's
 * sanitizers' build, quadratic. The array (p itself while it has room), or
 * NULL out of memory (p left as it was). */
static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n + 1 <= (*cap >= n ? *cap : n))
        return p;
    const size_t want = n < 8 ? 16 : 2 * n;
    void *q = realloc(p, want * size);
    if (q)
        *cap = want;
    return q;
}

int mlab_results_add_row(mlab_results *r, const mlab_row *row)
{
    mlab_row *rows = grow(r->rows, &r->cap_rows, r->nrows, sizeof *rows);
    if (!rows)
        return -1;
    r->rows = rows;
    mlab_row *dst = &r->rows[r->nrows];
    *dst = *row;
    dst->samples_us = NULL;
    if (row->nsamples > 0) {
        dst->samples_us = malloc(row->nsamples * sizeof(double));
        if (!dst->samples_us)
            return -1;
        memcpy(dst->samples_us, row->samples_us, row->nsamples * sizeof(double));
    } else {
        dst->nsamples = 0;
    }
    r->nrows++;
    return 0;
}

int mlab_results_add_input(mlab_results *r, const mlab_input_file *in)
{
    mlab_input_file *inputs = grow(r->inputs, &r->cap_inputs, r->ninputs, sizeof *inputs);
    if (!inputs)
        return -1;
    r->inputs = inputs;
    r->inputs[r->ninputs++] = *in;
    return 0;
}

double mlab_row_slow_share(const mlab_row *row)
{
    if (!(row->slow_span_us > 0))
        return -1;
    return row->slow_us < row->slow_span_us ? row->slow_us / row->slow_span_us : 1;
}

const char *mlab_row_slowed(const mlab_row *r)
{
    static char buf[64];
    double share = mlab_row_slow_share(r);
    if (share >= 0.01)
        snprintf(buf, sizeof buf, "%s power/thermal-limited %.0f%% of the row",
                 r->throttled > 0 ? " THROTTLED," : "", 100 * share);
    else
        snprintf(buf, sizeof buf, "%s", r->throttled > 0 ? " THROTTLED" : "");
    return buf;
}

void mlab_row_summarize(mlab_row *row)
{
    size_t n = row->nsamples;
    row->median_us = row->q1_us = row->q3_us = 0;
    row->min_us = row->mean_us = row->stdev_us = 0;
    if (n == 0 || !row->samples_us)
        return;
    double *s = malloc(n * sizeof *s);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += row->samples_us[i];
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (row->samples_us[i] - mean) * (row->samples_us[i] - mean);
    row->mean_us = mean;
    row->stdev_us = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    if (!s) { /* out of memory: the mean is still right; quartiles left 0 */
        row->min_us = row->samples_us[0];
        for (size_t i = 1; i < n; i++)
            if (row->samples_us[i] < row->min_us)
                row->min_us = row->samples_us[i];
        return;
    }
    memcpy(s, row->samples_us, n * sizeof *s);
    mlab_sort_doubles(s, n);
    row->min_us = s[0];
    row->q1_us = mlab_quantile_sorted(s, n, 0.25);
    row->median_us = mlab_quantile_sorted(s, n, 0.5);
    row->q3_us = mlab_quantile_sorted(s, n, 0.75);
    free(s);
}

void mlab_row_for_case(mlab_row *r, const mlab_case *c)
{
    memset(r, 0, sizeof *r);
    snprintf(r->case_name, sizeof r->case_name, "%s", c->name);
    r->batch = c->batch;
    r->q_seq_len = c->q_seq_len;
    r->kv_len = c->kv_len;
    r->total_q = c->total_q;
    r->total_kv = c->total_kv;
    r->valid = -1;
    snprintf(r->stop_reason, sizeof r->stop_reason, "not_timed");
}

static const mlab_row *row_at(const void *base, size_t size, size_t i)
{
    return *(const mlab_row *const *)((const char *)base + i * size);
}

size_t mlab_rows_lower(const void *base, size_t n, size_t size, mlab_row_key key, const char *a,
                       const char *b)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key(row_at(base, size, mid), a, b) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t mlab_rows_find(const void *base, size_t n, size_t size, mlab_row_key key, const char *a,
                      const char *b)
{
    size_t i = mlab_rows_lower(base, n, size, key, a, b);
    return i < n && key(row_at(base, size, i), a, b) == 0 ? i : n;
}

int mlab_row_key_cv(const mlab_row *w, const char *case_name, const char *variant)
{
    int d = strcmp(w->case_name, case_name);
    return d ? d : strcmp(w->variant, variant);
}

int mlab_row_key_ckv(const mlab_row *w, const char *case_name, const char *kv_format)
{
    int d = strcmp(w->case_name, case_name);
    return d ? d : strcmp(w->kv_format, kv_format);
}

/* (case, KV format), then the place in the rows (one array: pointers compare) */
static int by_case_kv(const void *pa, const void *pb)
{
    const mlab_row *x = *(const mlab_row *const *)pa, *y = *(const mlab_row *const *)pb;
    int d = mlab_row_key_ckv(x, y->case_name, y->kv_format);
    return d ? d : (x > y) - (x < y);
}

size_t mlab_results_fill_read_limits(mlab_results *r)
{
    /* the rows with a read limit by (case, KV format, file order): a row's
     * is found by bisection, the first in the file of its case and format
     * (a scan of every row for each was quadratic: a report of 40,000 rows
     * without read limits spent 2.4 s here); out of memory, the scan */
    const mlab_row **has = malloc((r->nrows + 1) * sizeof *has);
    size_t nhas = 0, filled = 0;
    for (size_t i = 0; has && i < r->nrows; i++)
        if (r->rows[i].read_limit_us > 0)
            has[nhas++] = &r->rows[i];
    if (has)
        qsort(has, nhas, sizeof *has, by_case_kv);
    for (size_t i = 0; i < r->nrows; i++) {
        mlab_row *w = &r->rows[i];
        if (w->read_limit_us > 0 || strcmp(w->kind, "cpu") == 0)
            continue;
        const mlab_row *v = NULL;
        if (has) {
            size_t at = mlab_rows_find(has, nhas, sizeof *has, mlab_row_key_ckv, w->case_name, w->kv_format);
            v = at < nhas ? has[at] : NULL;
        } else {
            for (size_t j = 0; j < r->nrows && !v; j++)
                if (r->rows[j].read_limit_us > 0 && strcmp(r->rows[j].case_name, w->case_name) == 0 &&
                    strcmp(r->rows[j].kv_format, w->kv_format) == 0)
                    v = &r->rows[j];
        }
        if (v) {
            w->read_limit_us = v->read_limit_us;
            w->read_limit_ratio = w->median_us > 0 ? w->median_us / w->read_limit_us : 0;
            filled++;
        }
    }
    free(has);
    return filled;
}

/* ---- field tables ------------------------------------------------------- */

#define FLD(T, m, k) {#m, k, offsetof(T, m), sizeof(((T *)0)->m)}
#define ERRF(which, m, k)                                                    \
    {#which "_" #m, k, offsetof(mlab_row, which##_err) + offsetof(mlab_err, m), \
     sizeof(((mlab_err *)0)->m)}
#define ERRFIELDS(which)                                                     \
    ERRF(which, n, 'z'), ERRF(which, max_abs, 'd'), ERRF(which, max_abs_idx, 'z'), \
    ERRF(which, max_rel, 'd'), ERRF(which, max_rel_idx, 'z'), ERRF(which, rel_rms, 'd'), \
    ERRF(which, cos_diff, 'd'), ERRF(which, rtol, 'd'), ERRF(which, atol, 'd'), \
    ERRF(which, mismatches, 'z'), ERRF(which, nonfinite_disagree, 'z'),    \
    ERRF(which, first_nonfinite_idx, 'z'), ERRF(which, comp_mismatch_frac, 'd'), \
    ERRF(which, comp_pass, 'i')

static const mlab_field env_fields[] = {
    FLD(mlab_env, mlabench_version, 's'), FLD(mlab_env, git_commit, 's'),
    FLD(mlab_env, git_dirty, 'i'),        FLD(mlab_env, compiler, 's'),
    FLD(mlab_env, compile_flags, 's'),    FLD(mlab_env, gpu_backend, 's'),
    FLD(mlab_env, gpu_compiler, 's'),     FLD(mlab_env, gpu_name, 's'),
    FLD(mlab_env, gpu_arch, 's'),         FLD(mlab_env, gpu_uuid, 's'),
    FLD(mlab_env, gpu_cu_count, 'i'),     FLD(mlab_env, gpu_clock_mhz, 'i'),
    FLD(mlab_env, gpu_mem_clock_mhz, 'i'), FLD(mlab_env, gpu_l2_bytes, 'd'),
    FLD(mlab_env, driver_version, 's'),   FLD(mlab_env, runtime_version, 's'),
    FLD(mlab_env, copy_bw_gbs, 'd'),      FLD(mlab_env, host, 's'),
    FLD(mlab_env, cpu, 's'),              FLD(mlab_env, utc_time, 's'),
    FLD(mlab_env, command_line, 's'),
    FLD(mlab_env, read_bw_gbs, 'd'),      FLD(mlab_env, empty_kernel_us, 'd'),
    FLD(mlab_env, gpu_index, 'i'),        FLD(mlab_env, gpu_compile_flags, 's'),
    FLD(mlab_env, kernel_knobs, 's'),     FLD(mlab_env, label, 's'),
    FLD(mlab_env, empty_pair_us, 'd'),    FLD(mlab_env, stopped, 's'),
    FLD(mlab_env, stopped_case, 's'),     FLD(mlab_env, gpu_mem_bus_bits, 'i'),
    FLD(mlab_env, idle_busy_pct, 'i'),
};

/* Identity, then timing and napkin math, then the two error structs: the
 * order of the /rows compound and of the CSV columns. */
static const mlab_field row_fields[] = {
    FLD(mlab_row, case_name, 's'),   FLD(mlab_row, batch, 'i'),
    FLD(mlab_row, q_seq_len, 'i'),   FLD(mlab_row, kv_len, 'i'),
    FLD(mlab_row, total_q, 'i'),     FLD(mlab_row, total_kv, 'i'),
    FLD(mlab_row, variant, 's'),     FLD(mlab_row, variant_id, 'i'),
    FLD(mlab_row, kv_format, 's'),   FLD(mlab_row, splits, 'i'),
    FLD(mlab_row, valid, 'i'),       FLD(mlab_row, kernel_tol, 's'),
    FLD(mlab_row, nsamples, 'z'),    FLD(mlab_row, stop_reason, 's'),
    FLD(mlab_row, median_us, 'd'),   FLD(mlab_row, q1_us, 'd'),
    FLD(mlab_row, q3_us, 'd'),       FLD(mlab_row, min_us, 'd'),
    FLD(mlab_row, mean_us, 'd'),     FLD(mlab_row, stdev_us, 'd'),
    FLD(mlab_row, graph_us, 'd'),    FLD(mlab_row, bytes, 'd'),
    FLD(mlab_row, flops, 'd'),       FLD(mlab_row, gbps, 'd'),
    FLD(mlab_row, pct_copy_bw, 'd'), FLD(mlab_row, tflops, 'd'),
    FLD(mlab_row, kind, 's'),        FLD(mlab_row, read_limit_us, 'd'),
    FLD(mlab_row, read_limit_ratio, 'd'),
    FLD(mlab_row, grid, 'i'),        FLD(mlab_row, block, 'i'),
    FLD(mlab_row, smem_bytes, 'i'),  FLD(mlab_row, blocks_per_sm, 'i'),
    FLD(mlab_row, regs, 'i'),        FLD(mlab_row, local_bytes, 'i'),
    FLD(mlab_row, merge, 's'),       FLD(mlab_row, l2_policy, 's'),
    FLD(mlab_row, unit, 's'),
    FLD(mlab_row, peer_version, 's'), FLD(mlab_row, device_index, 'i'),
    FLD(mlab_row, gpu_uuid, 's'),    FLD(mlab_row, host, 's'),
    FLD(mlab_row, sm_clock_mhz, 'i'), FLD(mlab_row, temp_c, 'i'),
    FLD(mlab_row, throttled, 'i'),
    FLD(mlab_row, slow_us, 'd'),     FLD(mlab_row, slow_span_us, 'd'),
    ERRFIELDS(kernel),
    ERRFIELDS(total),
};

const mlab_field *mlab_env_fields(size_t *n)
{
    *n = sizeof env_fields / sizeof env_fields[0];
    return env_fields;
}

const mlab_field *mlab_row_fields(size_t *n)
{
    *n = sizeof row_fields / sizeof row_fields[0];
    return row_fields;
}
