/* peer.h: peers, external MLA decode implementations (FlashInfer, FlashMLA, aiter, a
 * plain PyTorch baseline, competition submissions), validated and timed by
 * mlabench beside its own variants.
 *
 * Each (peer, case) runs in its own Python child process,
 * harness/peers/peer_server.py, spoken to over pipes with a line protocol
 * (described at the top of that file). The child reads the case file and
 * builds the peer's inputs; everything else happens here: the output is
 * judged against mlabench's CPU reference of the peer's format with the
 * tolerance table (reference/metrics.c), and a peer that passes is timed by
 * mlab_sample (sampler.h) through callbacks that forward warm / cold / graph
 * requests, with the same timing options and flush size as the GPU variants.
 * Rows: kind "peer", variant = the peer's name, peer_version its packages.
 */
#ifndef MLAB_PEER_H
#define MLAB_PEER_H

#include <stddef.h>

#include "../reference/case.h" /* mlab_case, mlab_kv_fmt */
#include "results.h"           /* mlab_results */
#include "sampler.h"           /* mlab_timing_opts */

/* One peer to run: a row name and what to spawn. */
typedef struct {
    char name[32];     /* row variant: "torch_bf16", "flashinfer_fp8", "sub:<stem>" */
    char spec[600];    /* peer_server.py's PEER argument */
    mlab_kv_fmt kv;    /* the KV format it reads */
    int ref;           /* which reference judges it: MLAB_PEER_REF_* */
} mlab_peer;

/* The references a peer can be judged against (cmd_run.c computes them). */
enum {
    MLAB_PEER_REF_BF16 = 0,   /* bf16 Q and KV, P rounded to bf16 (kernel:bf16) */
    MLAB_PEER_REF_FP8 = 1,    /* a8w8: Q fp8 per tensor, fp8 KV, P rounded to fp8 (kernel:fp8) */
    MLAB_PEER_REF_FP8KV = 2,  /* bf16 Q, fp8 KV, P exact (kernel:fp8) */
    MLAB_PEER_REF_MXFP4 = 3,  /* bf16 Q, MXFP4 KV (kernel:mxfp4) */
    MLAB_PEER_NREF = 4
};

typedef struct {
    const float *ref[MLAB_PEER_NREF]; /* [total_q, 16, 512] each */
    const float *truth;               /* bf16 truth, for total_err */
    double bytes[3];                  /* fewest bytes a call moves, by mlab_kv_fmt */
    double flops;
} mlab_peer_refs;

typedef struct {
    const char *python;  /* interpreter; NULL: $MLAB_PEER_PYTHON, else "python3" */
    const char *device;  /* "cuda" or "cpu" (tests: host clocks, no graphs) */
    double l2_bytes;     /* the GPU's L2 (the flush size follows from it) */
    double copy_bw_gbs;  /* for % of copy bandwidth; 0 if unknown */
    const mlab_timing_opts *timing;
    int no_time;
    /* the GPU the peers run on, as the run sees it (run_rows.c; NULL where
     * it has none: CPU peers, a build without a GPU back end): each timed
     * peer row gets its power/thermal-limited time around the sampling (the
     * sampler's slow_ns) and its clocks after it, as a variant's row does */
    void *gctx;
    int (*slow_ns)(void *gctx, unsigned long long *ns);
    void (*clocks)(void *gctx, mlab_row *row);
} mlab_peer_opts;

/* Parse --peers: a comma list of torch, flashinfer (= flashinfer_bf16 and
 * flashinfer_fp8), flashmla (= flashmla_bf16 and flashmla_fp8), aiter (=
 * aiter_bf16 and aiter_fp8), one of those row names, or
 * submission:FILE.py[@FORMAT] with FORMAT fp8 (the default: a8w8,
 * as the competition's reference), fp8kv, bf16 or mxfp4. Returns 0 or
 * MLAB_EXIT_USAGE (why says the bad item); *list is allocated. */
int mlab_peers_parse(const char *arg, mlab_peer **list, int *n, char *why, size_t whylen);


/* Run every peer on one case: validate, then time, and append a row each
 * (none for a peer that is skipped: not installed, or not for this case or
 * device; a line on stdout says why). case_path is a readable case file
 * holding c, or NULL: c is written to a temporary file for the peers.
 * *failed is set when a peer failed validation or errored (its table line
 * on stdout says how). Returns 0, or an MLAB_EXIT_* code for mlabench's
 * own failures (cannot start a process, write the case, out of memory)
 * with the one-line reason in why. */
int mlab_peers_run(const mlab_peer *peers, int npeers, const mlab_peer_opts *po,
                   const char *case_path, const mlab_case *c, const mlab_peer_refs *refs,
                   mlab_results *res, int *failed, char *why, size_t whylen);

#endif
