/* compare_out.h: what `mlabench compare` judged, and its writers in four
 * formats (text, md, csv, json) (compare_out.c; cmd_compare.c judges). */
#ifndef MLAB_COMPARE_OUT_H
#define MLAB_COMPARE_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"     /* mlab_row, mlab_results */
#include "results_cli.h" /* mlab_fmt */
#include "stats.h"       /* mlab_timing_cmp, mlab_cmp_opts */

#define MLAB_CROSS_MACHINE_THRESHOLD 0.05 /* compare's threshold across machines */

/* One (case, variant) found in both files */
typedef struct {
    const mlab_row *o, *n;
    int cpu;             /* a CPU reference row: accuracy only */
    int peer;            /* an external implementation's row (kind "peer"): judged and listed,
                            never in the exit code or the geometric mean (not our kernels) */
    int timed;           /* timed on both sides (GPU/peer) and, with --per-read-limit, both
                            sides have a read limit */
    double lim[2];       /* what OLD's and NEW's times are divided by: 1 (us), or with
                            --per-read-limit the row's read limit in us (0: none) */
    mlab_timing_cmp tc;
    int drift;
    char drift_why[256];
    int inputs;          /* 1 same, 0 not checked, -1 different */
    char inputs_why[128];
    char ran_why[320];   /* "" or how the two rows ran differently (the share power- or
                            thermal-limited, the SM clock, splits, merge,
                            blocks an SM, shared memory): a change of speed may be that, not the
                            kernel */
    const char *verdict; /* what the row says, one word */
    char old_s[64], new_s[64], change_s[32], p_s[40];
} mlab_cmp_pair;

/* The two rows' SM clocks (each read right after its row's samples) differ
 * by more than MLAB_CMP_CLOCK_PCT % of the higher: a power or thermal
 * slowdown on one side, so a change of speed there may be the clock's, not
 * the code's. 0 where either row has no clock (CPU rows, runs without a GPU
 * reading, files before the field). */
#define MLAB_CMP_CLOCK_PCT 5
static inline int mlab_cmp_clock_moved(const mlab_row *o, const mlab_row *n)
{
    int a = o->sm_clock_mhz, b = n->sm_clock_mhz, hi = a > b ? a : b;
    return a > 0 && b > 0 && 100.0 * (a > b ? a - b : b - a) > MLAB_CMP_CLOCK_PCT * (double)hi;
}

/* Two rows' shares of their sampling power- or thermal-limited
 * (mlab_row_slow_share) more than MLAB_CMP_SLOW_PTS points apart: a better
 * witness than their clocks (one reading each); compare says so and judges
 * a verdict's direction by them where both rows have them. */
#define MLAB_CMP_SLOW_PTS 10
static inline int mlab_cmp_slow_moved(const mlab_row *o, const mlab_row *n)
{
    double a = mlab_row_slow_share(o), b = mlab_row_slow_share(n);
    return a >= 0 && b >= 0 && 100 * (a > b ? a - b : b - a) > MLAB_CMP_SLOW_PTS;
}

/* Everything compare prints */
typedef struct {
    const char *paths[2];
    const mlab_results *r[2];
    const mlab_cmp_opts *opt;
    int per_read_limit;  /* --per-read-limit: times in units of each row's read limit */
    mlab_cmp_pair *p;
    size_t np;
    size_t counts[4], ncpu, nacc, ninputs_differ, ninputs_unchecked, nratio;
    size_t peer_counts[4], npeer, npeer_acc; /* the peers' pairs, apart */
    size_t nno_limit;    /* GPU/peer pairs unclear for want of a read limit (--per-read-limit) */
    double geo_old, geo_new, geo_change;
    int forced, hint, rc;
    double read_bw_change; /* NEW's read limit kernel's bandwidth over OLD's, - 1 (0: not measured) */
} mlab_cmp_report;

/* r's median, q1 and q3 divided by lim (1 for us, a read limit in us) into
 * v; returns 1, or 0 with v NaN where r is not timed or lim is not > 0: a
 * pair's printed times in their unit (the text columns, the csv, md and
 * json tables). */
int mlab_cmp_quartiles(const mlab_row *r, double lim, double v[3]);

/* Write R in style (text, md, csv or json); used_o / used_n mark the rows
 * of OLD / NEW that paired (the others are listed as found in one file). */
void mlab_compare_write(FILE *f, mlab_fmt style, const mlab_cmp_report *R, const char *used_o,
                        const char *used_n);

#endif
