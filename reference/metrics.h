/* metrics.h: the error metrics and the tolerance table, in one place.
 *
 * An output is compared with a reference of the same shape, element by
 * element (both given as fp32; a bf16 output is widened exactly first).
 * Metrics (papers/spec.md, "how the competition checked ... not enough"):
 *   max_abs, max_rel      the largest |o - r| and |o - r| / |r| (r != 0), with
 *                         the flat index where each occurs
 *   rel_rms               ||o - r||_2 / ||r||_2
 *   cos_diff              1 - 2<o,r> / (|o|^2 + |r|^2), which equals
 *                         |o - r|^2 / (|o|^2 + |r|^2): at most rel_rms^2, and
 *                         ~rel_rms^2 / 2 when the two norms agree
 *   mismatches            count of |o - r| > atol + rtol |r|
 *   nonfinite_disagree    positions where exactly one side is NaN/Inf, or both
 *                         are Inf of different sign (NaN positions must agree)
 *   comp_pass             the competition's rule, for comparison only:
 *                         allclose at rtol = atol = 0.1, or <= 5% not close
 */
#ifndef MLAB_METRICS_H
#define MLAB_METRICS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t n;
    double max_abs;  size_t max_abs_idx;
    double max_rel;  size_t max_rel_idx;
    double rel_rms;
    double cos_diff;
    double rtol, atol;       /* the tolerance the mismatches were counted at */
    size_t mismatches;
    size_t nonfinite_disagree;
    size_t first_nonfinite_idx; /* valid when nonfinite_disagree > 0 */
    double comp_mismatch_frac;  /* fraction not close at 0.1/0.1 */
    int comp_pass;
} mlab_err;

/* out and ref have n fp32 values. rtol/atol set the mismatch count. */
void mlab_err_compute(const float *out, const float *ref, size_t n,
                      double rtol, double atol, mlab_err *e);

/* ---- tolerance table ------------------------------------------------------
 * One row per comparison mlabench judges. A check passes when
 *   nonfinite_disagree == 0, mismatches == 0 at (rtol, atol),
 *   rel_rms <= max_rel_rms and cos_diff <= max_cos_diff.
 * Units: the output is bf16, whose half-ulp is 2^-9 relative (rtol 2^-8 is
 * one bf16 ulp); outputs are ~|v| / sqrt(L) in size, hence an atol floor.
 * The README and the tests print this table; nothing else holds a number. */
typedef struct {
    const char *name;     /* the comparison, e.g. "kernel:bf16" */
    double rtol, atol, max_rel_rms;
    double max_cos_diff;       /* ~max_rel_rms^2 / 2: the field's familiar number */
    double max_mismatch_frac;  /* outliers allowed (fp8 P rounding), else 0 */
    double max_abs_atols;      /* cap on any outlier, in units of atol; 0 = none allowed */
    const char *reason;
} mlab_tol;

/* Look a row up by name; NULL when unknown. */
const mlab_tol *mlab_tol_find(const char *name);
/* The whole table, n rows. */
const mlab_tol *mlab_tol_table(size_t *n);
/* 1 when e passes tol. */
int mlab_tol_pass(const mlab_err *e, const mlab_tol *tol);
/* Root mean square of the finite values of x. */
double mlab_rms(const float *x, size_t n);
/* Compute e at tol->rtol and an absolute atol = tol->atol * rms(ref) (the
 * table's atol is relative to the output's size), then judge: returns 1 pass. */
int mlab_err_judge(const float *out, const float *ref, size_t n, const mlab_tol *tol, mlab_err *e);

#endif
