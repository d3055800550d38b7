/* run_rows.h: the rows of `mlabench run` for one case (run_rows.c): the CPU
 * half (every format's reference and its error against bf16 truth), the GPU
 * half (the read limits, then every selected variant validated and timed)
 * and the peers. cmd_run.c parses the options and walks the cases. */
#ifndef MLAB_RUN_ROWS_H
#define MLAB_RUN_ROWS_H

#include <signal.h> /* sig_atomic_t */
#include <stddef.h>
#include <stdint.h>

#include "../reference/case.h"     /* mlab_case */
#include "../variants/gpu_api.h"   /* mlab_gpu, mlab_gpu_info */
#include "../variants/variants.h"  /* MLAB_V_COUNT */
#include "peer.h"                  /* mlab_peer */
#include "progress.h"              /* mlab_progress */
#include "results.h"               /* mlab_results, mlab_env */
#include "sampler.h"               /* mlab_timing_opts */

typedef struct {
    int cpu_only, require_gpu, truth_dgemm, splits, no_time, quiet;
    int want[MLAB_V_COUNT];
    mlab_timing_opts timing;
    const char *out;
    int device;                 /* --device N: index among the visible devices */
    const mlab_env *env;        /* for each row's host and GPU identity */
    int gpu_open;
    const char *label;          /* --label: env.label */
    mlab_peer *peers;           /* --peers (harness/peer.h) */
    int npeers, peers_only;
    const char *peer_python;
    const char *resume;         /* --resume PART.h5 */
    const char *slice_costs;    /* --slice-costs PREV.h5: slices cut by its cases' times */
    int parse_rc;               /* an option's own exit code (else 2 on a bad option) */
} run_opts;

/* The CPU references computed per case (refs[] of the halves). */
#define MLAB_RUN_NREFS 10

/* Progress lines of the run ("\r" on a terminal, plain lines in a log). */
extern mlab_progress mlab_run_progress;

/* The device fields of the environment, from the GPU side's report. */
void mlab_run_env_from_gpu(mlab_env *e, const mlab_gpu_info *gi);
/* Median of the selected kernel's cold samples under the run's timing options. */
int mlab_run_gpu_cold_median(mlab_gpu *g, const mlab_timing_opts *t, double *us, char *why, size_t n);
/* The halves print the run's table on stdout, row by row as rows complete
 * (the run's output); a failure is returned as an MLAB_EXIT_* code with its
 * one-line reason in why, for cmd_run.c to print (README.md, "Errors"). */
/* The CPU half: every reference (refs[MLAB_RUN_NREFS], allocated, kept for the
 * halves after it); errors against bf16 truth. */
int mlab_run_cpu_half(mlab_case *c, const run_opts *o, mlab_results *res, float **refs,
                      char *why, size_t whylen);
/* The GPU half: read limits, then each selected variant validated, then timed. */
int mlab_run_gpu_half(mlab_gpu *g, mlab_case *c, const run_opts *o, mlab_results *res, float **refs,
                      double copy_bw, int *failed, char *why, size_t whylen);
/* A run stopped by SIGINT, SIGTERM or SIGHUP (mlab_run_catch_stops, from
 * the case loop on): the signal's number, else 0. The halves finish the row
 * they are sampling and start no other (the GPU half checks between
 * variants; the peers' handler, peer.c, takes the running peer's processes
 * down and hands the signal on); cmd_run.c then writes the rows measured so
 * far, says where it stopped (env.stopped) and exits 128 + the signal. A
 * second signal ends the process at once (the default action). */
extern volatile sig_atomic_t mlab_run_stop_sig;
void mlab_run_catch_stops(void);
/* "SIGTERM", "SIGINT", "SIGHUP" or "signal N" */
const char *mlab_run_stop_name(int sig);

/* The peers on this case (path NULL: a case made in memory); g, the run's
 * GPU or NULL, gives their rows its clocks and power/thermal-limited time. */
int mlab_run_peers_half(mlab_gpu *g, mlab_case *c, const char *path, const run_opts *o, const mlab_env *env,
                        mlab_results *res, float **refs, int *failed, char *why, size_t whylen);

#endif
