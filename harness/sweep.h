/* sweep.h: the cases a command line asks for, generated rather than read:
 * the competition suite, one custom case, or a sweep (every combination of
 * lists of batches, kv lengths and q_seq_lens). `gen` writes them to files,
 * `run` generates them in memory; both parse the same options here, so both
 * name cases by the one rule (mlab_gen_name) and refuse the same
 * contradictions. Also the slicing of a list of cases over N workers
 * (GPUs, Slurm array tasks), balanced by estimated cost. */
#ifndef MLAB_SWEEP_H
#define MLAB_SWEEP_H

#include <getopt.h> /* struct option */
#include <stddef.h>
#include <stdio.h>  /* FILE */

#include "gen.h" /* mlab_gen_spec */

typedef struct {
    int suite;                /* --suite: the competition's 8 cases */
    int *batch, nbatch;       /* --batch B[,B..] */
    int *kv_len, nkv_len;     /* --kv-len L[,L..] (uniform lengths) */
    int *kv_lens, nkv_lens;   /* --kv-lens L1,L2,..: one case, one length per item */
    int *qlen, nqlen;         /* --q-seq-len N[,N..] */
    uint64_t seed;            /* --seed S (default 1) */
    float input_scale;        /* --input-scale X (default 1) */
    mlab_fp4_tie tie;         /* --tie up|even */
    mlab_fp8_fmt fp8;         /* --fp8 e4m3fn|e4m3fnuz */
    char name[64];            /* --name NAME: one case only */
    int given;                /* 1 when any option above was given */
    int seed_given;
} mlab_sweep;

/* getopt_long codes of the case options (MLAB_SWEEP_OPTIONS lists them for
 * a command's option table). */
enum {
    MLAB_OPT_SUITE = 1000, MLAB_OPT_BATCH, MLAB_OPT_KV_LEN, MLAB_OPT_KV_LENS, MLAB_OPT_Q_SEQ_LEN,
    MLAB_OPT_SEED, MLAB_OPT_INPUT_SCALE, MLAB_OPT_TIE, MLAB_OPT_FP8, MLAB_OPT_NAME
};
#define MLAB_SWEEP_OPTIONS                                                                     \
    {"suite", no_argument, NULL, MLAB_OPT_SUITE}, {"batch", required_argument, NULL, MLAB_OPT_BATCH}, \
    {"kv-len", required_argument, NULL, MLAB_OPT_KV_LEN},                                      \
    {"kv-lens", required_argument, NULL, MLAB_OPT_KV_LENS},                                    \
    {"q-seq-len", required_argument, NULL, MLAB_OPT_Q_SEQ_LEN},                                \
    {"seed", required_argument, NULL, MLAB_OPT_SEED},                                          \
    {"input-scale", required_argument, NULL, MLAB_OPT_INPUT_SCALE},                            \
    {"tie", required_argument, NULL, MLAB_OPT_TIE}, {"fp8", required_argument, NULL, MLAB_OPT_FP8}, \
    {"name", required_argument, NULL, MLAB_OPT_NAME}

/* The case options' help lines (lists: whether batch/kv-len/q-seq-len take lists). */
void mlab_sweep_usage(FILE *f);
/* For a case option that takes a list (option code c), how a list is
 * written, " (a list: --batch 4,32)", for the messages of a list given as
 * two options or with another separator; "" for the other options. */
const char *mlab_sweep_list_hint(int c);
/* The list of that hint alone, "--batch 4,32"; "" for the other options. */
const char *mlab_sweep_list_example(int c);
/* 1 when word a reads as a list's items after a space (--batch 4 32,64):
 * a digit, then digits and commas; gen refuses it and run's case file of
 * that name says how a list is written. */
int mlab_sweep_numbers_word(const char *a);

void mlab_sweep_init(mlab_sweep *w);
void mlab_sweep_free(mlab_sweep *w);
/* Take option code (an MLAB_OPT_*) with value v. 0, or -1 after printing
 * "mlabench <cmd>: --opt: why" (a command-line helper: it prints for the
 * command named cmd, like args.h). */
int mlab_sweep_option(mlab_sweep *w, const char *cmd, int code, const char *v);
/* After parsing: refuse contradictions (--suite with shape options, --kv-len
 * with --kv-lens, a --batch that is not the --kv-lens count, --name for more
 * than one case) and every case whose name or size is impossible. 0, or
 * MLAB_EXIT_USAGE with the one-line reason in why. */
int mlab_sweep_check(const mlab_sweep *w, char *why, size_t whylen);
/* Number of cases: 8 for the suite, the product of the list lengths for a
 * sweep, 1 for a custom case; 0 when no case option was given. */
size_t mlab_sweep_count(const mlab_sweep *w);
/* Case i (0-based, in the documented order: batch outermost, then kv
 * length, then q_seq_len). */
void mlab_sweep_spec(const mlab_sweep *w, size_t i, mlab_gen_spec *s);

/* Slice k of n over items with cost[i]: longest cost first, each to the
 * slice with the least total so far (ties: lower slice), so the slices'
 * totals are close. pick[j] gets the indices of slice k in their original
 * order; returns their count, (size_t)-1 when out of memory. Deterministic. */
size_t mlab_slice_pick(const double *cost, size_t nitems, int k, int n, size_t *pick);
/* Parse "K/N" (0 <= K < N <= 4096). 0, or -1 after printing
 * "mlabench <cmd>: --slice: ..." (a command-line helper, like args.h). */
int mlab_slice_parse(const char *cmd, const char *v, int *k, int *n);

/* Estimated cost of one case, in bytes of file (the slicing weight): its
 * file bytes plus 1 GB standing for the work every case costs whatever its
 * size (up to --max-time of sampling per variant, set-up, the copy
 * bandwidth): a guess, which run --slice-costs replaces by an earlier
 * run's measured seconds a case (mlab_slice_costs). */
double mlab_case_cost(double file_bytes);

/* run --slice-costs PREV.h5: cost[i] (mlab_case_cost's estimate on entry)
 * becomes the seconds PREV.h5's run spent on the case named names[i] (its
 * /inputs wall_s, by case name); a case PREV.h5 lacks or has no time for
 * keeps its estimate in seconds: the estimate times PREV's seconds an
 * estimated byte over the cases both have (none: every cost is left as the
 * estimate). Every slice process reads the same file, so each cuts the
 * same slices. *matched gets the number found. 0, or an MLAB_EXIT_* code
 * with a one-line reason in why: the file cannot be read as results (the
 * reader's code), or none of its cases has a time (written before
 * 2026-12-07: exit 3). */
int mlab_slice_costs(const char *path, const char *const *names, double *cost, size_t n, size_t *matched,
                     char *why, size_t whylen);

#endif
