/* metrics.c: error metrics and the tolerance table (metrics.h). */
#include "metrics.h"

#include <math.h>
#include <string.h>

static int nonfinite(double x) { return !isfinite(x); }

/* 1 when o and r disagree about being NaN/Inf (both NaN, or the same Inf, agree). */
static int nonfinite_disagrees(double o, double r)
{
    if (!nonfinite(o) && !nonfinite(r))
        return 0;
    if (isnan(o) && isnan(r))
        return 0;
    if (isinf(o) && isinf(r) && signbit(o) == signbit(r))
        return 0;
    return 1;
}

void mlab_err_compute(const float *out, const float *ref, size_t n, double rtol, double atol,
                      mlab_err *e)
{
    memset(e, 0, sizeof *e);
    e->n = n;
    e->rtol = rtol;
    e->atol = atol;
    double d2 = 0, r2 = 0, o2 = 0, orr = 0;
    size_t comp_bad = 0;
    for (size_t i = 0; i < n; i++) {
        double o = out[i], r = ref[i];
        if (nonfinite(o) || nonfinite(r)) {
            if (nonfinite_disagrees(o, r)) {
                if (e->nonfinite_disagree++ == 0)
                    e->first_nonfinite_idx = i;
                e->mismatches++;
                comp_bad++;
            }
            continue;
        }
        double d = fabs(o - r);
        if (d > e->max_abs) {
            e->max_abs = d;
            e->max_abs_idx = i;
        }
        if (r != 0.0 && d / fabs(r) > e->max_rel) {
            e->max_rel = d / fabs(r);
            e->max_rel_idx = i;
        }
        if (d > atol + rtol * fabs(r))
            e->mismatches++;
        if (d > 0.1 + 0.1 * fabs(r))
            comp_bad++;
        d2 += d * d;
        r2 += r * r;
        o2 += o * o;
        orr += o * r;
    }
    e->rel_rms = r2 > 0 ? sqrt(d2 / r2) : (d2 > 0 ? INFINITY : 0.0);
    e->cos_diff = (o2 + r2) > 0 ? 1.0 - 2.0 * orr / (o2 + r2) : 0.0;
    e->comp_mismatch_frac = n ? (double)comp_bad / (double)n : 0.0;
    e->comp_pass = comp_bad == 0 || e->comp_mismatch_frac <= 0.05;
}

/* The tolerance table. atol is in units of the reference's RMS (outputs
 * scale with the inputs: ~0.05 for N(0,1) inputs, ~1e-3 at input scale 0.02),
 * mlab_err_judge turns it into an absolute number. rtol counts bf16 ulps
 * (2^-8 relative) or fp8 e4m3 ulps (2^-3 relative). */
static const mlab_tol tols[] = {
    {"kernel:bf16", 1.0 / 64, 1.0 / 64, 4e-3, 1e-5, 0, 0,
     "bf16 output (half ulp 2^-9) plus P rounded to bf16 for P.V and fp32 sums in another "
     "order: 4 bf16 ulps relative, 1/64 of rms(ref) absolute; a wrong row or tile is ~100%. "
     "cos diff ~ rel RMS^2 / 2: 1e-5 is rel RMS 4.5e-3 at equal norms (FlashMLA's bf16 test "
     "bound; measured ~2e-6)"},
    {"kernel:fp8", 1.0 / 8, 1.0 / 8, 3e-2, 5e-4, 1e-4, 4,
     "the kernel rounds P to e4m3 against the running (tile) max, the reference against the "
     "global max: single p differ by up to one e4m3 ulp (2^-3 relative), and where one p "
     "dominates an output that is up to ~6% of its v. So: 1 fp8 ulp relative + 1/8 rms(ref), "
     "rel RMS <= 3%, at most 1e-4 of the outputs outside, none off by more than 4 atol (rms/2); "
     "cos diff 5e-4 is rel RMS 3.2e-2 at equal norms (measured on the H200 ~3e-4)"},
    {"kernel:mxfp4", 1.0 / 64, 1.0 / 64, 4e-3, 1e-5, 0, 0,
     "dequantized MXFP4 is exact in bf16, so the bf16 kernel's tolerance applies"},
    {"kernel:mxfp4_mx8", 1.0 / 8, 1.0 / 8, 3e-2, 5e-4, 1e-4, 4,
     "gfx950 scaled MFMA (mxfp4_mfma_scale) against the reference of the same quantization "
     "(cpu_ref_mxfp4_mx8): Q's MXFP8 codes are the reference's exactly, but P' = p 2^(e - 127) "
     "is MX-rounded to e4m3 against the running (tile) max in the kernel and the global max in "
     "the reference: single p' differ by up to one e4m3 ulp (2^-3 relative), as for kernel:fp8, "
     "whose bounds apply: 1 fp8 ulp relative + 1/8 rms(ref), rel RMS <= 3%, at most 1e-4 of the "
     "outputs outside, none off by more than 4 atol; not yet measured on a GPU"},
    {"kernel:mxfp4_a8", 1.0 / 8, 1.0 / 8, 3e-2, 5e-4, 1e-4, 4,
     "Hopper's e4m3 wgmma (mxfp4_wgmma) against the reference of the same quantization "
     "(cpu_ref_mxfp4_a8: MXFP4 KV dequantized exactly, Q quantized per tensor and P rounded to "
     "e4m3 as the fp8 kernels do): the tiles' e4m3 codes are the MXFP4 values exactly, P is "
     "rounded against the running (tile) max in the kernel and the global max in the reference, "
     "as for kernel:fp8, whose bounds apply: 1 fp8 ulp relative + 1/8 rms(ref), rel RMS <= 3%, "
     "at most 1e-4 of the outputs outside, none off by more than 4 atol"},
    {"kernel:fp8_qrow", 1.0 / 8, 1.0 / 8, 3e-2, 5e-4, 1e-4, 4,
     "fp8_wgmma_qrow against the reference of the same quantization (cpu_ref_fp8_qrow: Q "
     "quantized per (row, head) by the task's rule, P rounded to e4m3): Q's codes and scales are "
     "the reference's exactly, P is rounded as for kernel:fp8, whose bounds apply"},
    {"kernel:mxfp4_a8_qrow", 1.0 / 8, 1.0 / 8, 3e-2, 5e-4, 1e-4, 4,
     "mxfp4_wgmma_qrow against the reference of the same quantization (cpu_ref_mxfp4_a8_qrow: "
     "MXFP4 KV dequantized exactly, Q quantized per (row, head), P rounded to e4m3): as "
     "kernel:mxfp4_a8, whose bounds apply"},
    {"ref:sgemm_vs_dgemm", 1e-4, 1e-5, 1e-5, 1e-10, 0, 0,
     "fp32 GEMMs and softmax against fp64: ~1e-6 relative expected, 100x margin "
     "(cos diff: rel RMS 1.4e-5 at equal norms)"},
    {"ref:sgemm_vs_naive", 1e-4, 1e-5, 1e-5, 1e-10, 0, 0,
     "fp32 OpenBLAS reference against a long-double triple loop"},
    {"total:bf16", 1.0 / 64, 1.0 / 64, 4e-3, 1e-5, 0, 0,
     "bf16 KV against bf16 truth: the kernel error itself (same as kernel:bf16)"},
    {"total:fp8", 1.0, 1.0, 0.2, 2e-2, 0, 0,
     "informative only: fp8 Q, KV and P against bf16 truth (quantization, not a kernel bug); "
     "cos diff: rel RMS 0.2 at equal norms (measured ~1e-3)"},
    {"total:mxfp4", 1.0, 1.0, 0.5, 0.125, 0, 0,
     "informative only: MXFP4 KV against bf16 truth; cos diff: rel RMS 0.5 at equal norms"},
};

const mlab_tol *mlab_tol_table(size_t *n)
{
    *n = sizeof tols / sizeof tols[0];
    return tols;
}

const mlab_tol *mlab_tol_find(const char *name)
{
    for (size_t i = 0; i < sizeof tols / sizeof tols[0]; i++)
        if (strcmp(tols[i].name, name) == 0)
            return &tols[i];
    return NULL;
}

double mlab_rms(const float *x, size_t n)
{
    double s = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            s += (double)x[i] * x[i];
            k++;
        }
    return k ? sqrt(s / (double)k) : 0.0;
}

int mlab_err_judge(const float *out, const float *ref, size_t n, const mlab_tol *tol, mlab_err *e)
{
    double atol = tol->atol * mlab_rms(ref, n);
    mlab_err_compute(out, ref, n, tol->rtol, atol, e);
    return mlab_tol_pass(e, tol);
}

int mlab_tol_pass(const mlab_err *e, const mlab_tol *tol)
{
    if (e->nonfinite_disagree || !(e->rel_rms <= tol->max_rel_rms) ||
        !(e->cos_diff <= tol->max_cos_diff))
        return 0;
    if (e->mismatches == 0)
        return 1;
    return (double)e->mismatches <= tol->max_mismatch_frac * (double)e->n &&
           e->max_abs <= tol->max_abs_atols * e->atol;
}
