/* stats.h: the statistics of results files and of `mlabench compare`.
 *
 * Timing verdicts follow google/benchmark's compare.py: a two-sided
 * Mann-Whitney U test (normal approximation with tie and continuity
 * correction, as scipy.stats.mannwhitneyu(method="asymptotic")) that is only
 * run with >= 9 samples a side, and "significant" is not "faster": the
 * change of the median must also pass a threshold. */
#ifndef MLAB_STATS_H
#define MLAB_STATS_H

#include <stddef.h>

#include "results.h" /* mlab_row */

void mlab_sort_doubles(double *x, size_t n);
/* Quantile p in [0, 1] of n >= 1 sorted values, linear interpolation between
 * closest ranks (numpy.quantile's default): x[floor(h)] + frac(h) * (...),
 * h = p (n - 1). */
double mlab_quantile_sorted(const double *x, size_t n, double p);

typedef struct {
    double u_a;        /* U of sample a: pairs with a > b, ties count 1/2 */
    double u_b;        /* na nb - u_a */
    double z;          /* (max(U) - na nb / 2 - 1/2) / sigma, sigma tie-corrected */
    double p;          /* two-sided p-value, in [0, 1] */
    double ps_b_gt_a;  /* u_b / (na nb): probability that a b exceeds an a */
} mlab_mwu;

/* Returns 0, or -1 when na or nb is 0 or memory runs out. */
int mlab_mann_whitney(const double *a, size_t na, const double *b, size_t nb, mlab_mwu *out);

/* exp(mean(log x)); NaN when n is 0 or some x <= 0 or not finite. */
double mlab_geomean(const double *x, size_t n);

/* ---- compare's verdicts -------------------------------------------------- */

#define MLAB_MWU_MIN_SAMPLES 9 /* compare.py's rule: fewer and U says nothing */

typedef enum { MLAB_SAME, MLAB_FASTER, MLAB_SLOWER, MLAB_UNCLEAR } mlab_verdict;
const char *mlab_verdict_name(mlab_verdict v); /* "same", "faster", ... */

typedef struct {
    double alpha;        /* significance level of the U test (0.05) */
    double threshold;    /* smallest |relative change of the median| that counts (0.02) */
    double drift_factor; /* accuracy: a metric growing more than this is drift (1.5) */
    double drift_floor;  /* ... and only above this fraction of its budget (0.1) */
} mlab_cmp_opts;

void mlab_cmp_opts_default(mlab_cmp_opts *o);

typedef struct {
    double change;     /* new median / old median - 1 */
    int tested;        /* 1 when the U test ran (both sides >= 9 samples) */
    mlab_mwu mw;
    mlab_verdict verdict;
    const char *why;   /* one phrase: "not significant", "below threshold", ... */
} mlab_timing_cmp;

/* The timing verdict of OLD -> NEW, in this order:
 *   either side not timed, or < 9 samples         -> unclear ("need >= 9 samples")
 *   p >= alpha                                     -> same ("not significant")
 *   |change| < threshold                           -> same ("below threshold")
 *   the median moved one way, the ranks the other  -> unclear ("median and ranks disagree")
 *   each median inside the other's IQR             -> unclear ("shift inside both IQRs")
 *   otherwise                                      -> faster / slower
 * The last two keep a shape change of a noisy distribution (significant to
 * U, but no clean shift) from being called a speed change. Returns 0, or -1
 * on out of memory. */
int mlab_compare_timing(const mlab_row *o, const mlab_row *n, const mlab_cmp_opts *opt,
                        mlab_timing_cmp *out);

/* Accuracy drift of OLD -> NEW: 1 with a one-line reason when validation
 * went from pass to fail, positions of NaN/Inf started to disagree, or the
 * kernel rel_rms or max_abs grew by more than drift_factor AND the new value
 * is above drift_floor times its budget (rel_rms: the tolerance row's
 * max_rel_rms; max_abs: the absolute atol the row's mismatches were counted
 * at; 2^-9, half a bf16 ulp, where neither is known): the floor keeps
 * noise-level errors (1e-7 -> 3e-7) from counting. 0 when no drift. */
int mlab_accuracy_drift(const mlab_row *o, const mlab_row *n, const mlab_cmp_opts *opt,
                        char *why, size_t whylen);

#endif
