/* peer.c: peers run by mlabench (peer.h), one Python child per (peer, case)
 * speaking harness/peers/peer_server.py's line protocol over two pipes. */
#include "peer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h> /* PR_SET_PDEATHSIG */
#endif
#include <time.h>
#include <unistd.h>

#include "../variants/gpu_api.h" /* mlab_flush_bytes, mlab_flush_seconds */
#include "../reference/metrics.h"  /* mlab_err_judge, mlab_tol_find */
#include "../reference/numerics.h" /* mlab_bf16_to_f32 */
#include "exitcodes.h"
#include "case_write.h" /* mlab_h5_write_case */

#ifndef MLAB_PEERS_DIR
#define MLAB_PEERS_DIR "harness/peers"
#endif

/* Seconds a reply may take: the greeting (imports), load (a peer may build
 * its module: FlashInfer JIT-compiles on first use), the first run (Triton
 * compiles), the rest. A peer past its limit is killed and reported. */
enum { T_HELLO = 300, T_LOAD = 1200, T_RUN = 600, T_CALL = 120 };

/* $MLAB_PEER_TIMEOUT (seconds) lowers every limit, the greeting's (a
 * submission's import) too. */
static int limit_s(int t)
{
    const char *e = getenv("MLAB_PEER_TIMEOUT");
    int v = e ? atoi(e) : 0;
    return v > 0 && v < t ? v : t;
}

/* ---- parsing --------------------------------------------------------------- */

typedef struct {
    const char *tok;
    mlab_kv_fmt kv;
    int ref;
} fmt_choice;

static const fmt_choice fmts[] = {
    {"fp8", MLAB_KV_FP8, MLAB_PEER_REF_FP8},
    {"fp8kv", MLAB_KV_FP8, MLAB_PEER_REF_FP8KV},
    {"bf16", MLAB_KV_BF16, MLAB_PEER_REF_BF16},
    {"mxfp4", MLAB_KV_MXFP4, MLAB_PEER_REF_MXFP4},
};

/* the library peers: row name, family, format, reference */
static const struct {
    const char *name, *family;
    mlab_kv_fmt kv;
    int ref;
} known[] = {
    {"torch_bf16", "torch", MLAB_KV_BF16, MLAB_PEER_REF_BF16},
    {"flashinfer_bf16", "flashinfer", MLAB_KV_BF16, MLAB_PEER_REF_BF16},
    {"flashinfer_fp8", "flashinfer", MLAB_KV_FP8, MLAB_PEER_REF_FP8KV},
    {"flashmla_bf16", "flashmla", MLAB_KV_BF16, MLAB_PEER_REF_BF16},
    {"flashmla_fp8", "flashmla", MLAB_KV_FP8, MLAB_PEER_REF_FP8},
    {"aiter_bf16", "aiter", MLAB_KV_BF16, MLAB_PEER_REF_BF16},
    {"aiter_fp8", "aiter", MLAB_KV_FP8, MLAB_PEER_REF_FP8},
};
#define NKNOWN (sizeof known / sizeof known[0])

static int add_peer(mlab_peer **list, int *n, const char *name, const char *spec, mlab_kv_fmt kv,
                    int ref)
{
    mlab_peer *p = realloc(*list, (size_t)(*n + 1) * sizeof *p);
    if (!p)
        return -1;
    *list = p;
    memset(&p[*n], 0, sizeof p[*n]);
    snprintf(p[*n].name, sizeof p[*n].name, "%s", name);
    snprintf(p[*n].spec, sizeof p[*n].spec, "%s", spec);
    p[*n].kv = kv;
    p[*n].ref = ref;
    (*n)++;
    return 0;
}

static int parse_submission(const char *item, mlab_peer **list, int *n, char *why, size_t whylen)
{
    char path[512];
    const char *file = item + strlen("submission:");
    const char *at = strrchr(file, '@');
    if (at && strchr(at, '/'))
        at = NULL; /* an '@' of the path (a/b@c/x.py), not a format */
    const fmt_choice *f = &fmts[0];
    size_t len = at ? (size_t)(at - file) : strlen(file);
    if (at) {
        f = NULL;
        for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++)
            if (!strcmp(at + 1, fmts[k].tok))
                f = &fmts[k];
        if (!f) {
            snprintf(why, whylen, "--peers: '%s': format '%s' is not fp8, fp8kv, bf16 or mxfp4",
                     item, at + 1);
            return MLAB_EXIT_USAGE;
        }
    }
    if (len == 0 || len >= sizeof path) {
        snprintf(why, whylen, "--peers: '%s': no file name (submission:FILE.py[@FORMAT])", item);
        return MLAB_EXIT_USAGE;
    }
    memcpy(path, file, len);
    path[len] = 0;
    if (access(path, R_OK)) {
        snprintf(why, whylen, "--peers: %s: cannot read the submission (%s)", path, strerror(errno));
        return MLAB_EXIT_IO;
    }
    /* row name: sub:<file stem>, cut to the field */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[32], spec[600];
    size_t stem = strlen(base);
    if (stem > 4 && !strncmp(base + stem - 4, ".txt", 4))
        stem -= 4;
    if (stem > 3 && !strncmp(base + stem - 3, ".py", 3))
        stem -= 3;
    snprintf(name, sizeof name, "sub:%.*s", (int)stem, base);
    snprintf(spec, sizeof spec, "sub:%s", path);
    if (add_peer(list, n, name, spec, f->kv, f->ref))
        return MLAB_EXIT_INTERNAL;
    return 0;
}

int mlab_peers_parse(const char *arg, mlab_peer **list, int *n, char *why, size_t whylen)
{
    char *buf = strdup(arg), *save = NULL;
    int rc = 0;
    *list = NULL;
    *n = 0;
    if (!buf)
        return MLAB_EXIT_INTERNAL;
    for (char *t = strtok_r(buf, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
        int hit = 0;
        if (!strncmp(t, "submission:", 11)) {
            rc = parse_submission(t, list, n, why, whylen);
            continue;
        }
        for (size_t k = 0; k < NKNOWN && !rc; k++)
            if (!strcmp(t, known[k].family) || !strcmp(t, known[k].name)) {
                hit = 1;
                if (add_peer(list, n, known[k].name, known[k].name, known[k].kv, known[k].ref))
                    rc = MLAB_EXIT_INTERNAL;
            }
        if (!hit && !rc) {
            snprintf(why, whylen, "--peers: unknown peer '%s' (torch, flashinfer, flashmla, aiter, their "
                     "row names, or submission:FILE.py[@FORMAT])", t);
            rc = MLAB_EXIT_USAGE;
        }
    }
    free(buf);
    if (!rc && *n == 0) {
        snprintf(why, whylen, "--peers: empty list");
        rc = MLAB_EXIT_USAGE;
    }
    /* one row a (case, peer): two peers of one row name (a peer twice, two
     * files of one stem, one file in two formats) would leave rows nobody
     * can tell apart, which merge refuses and compare pairs by position */
    for (int i = 0; i < *n && !rc; i++)
        for (int j = 0; j < i && !rc; j++)
            if (!strcmp((*list)[i].name, (*list)[j].name)) {
                snprintf(why, whylen, "--peers: two peers would both be row %s (%s and %s): each once%s",
                         (*list)[i].name, (*list)[j].spec, (*list)[i].spec,
                         strncmp((*list)[i].name, "sub:", 4) ? "" : " (copy one file under another name)");
                rc = MLAB_EXIT_USAGE;
            }
    if (rc) {
        free(*list);
        *list = NULL;
        *n = 0;
    }
    return rc;
}


/* ---- the child process --------------------------------------------------------- */

/* the running peer's process group, for the signal handler (mlab_peers_run):
 * mlabench stopped by SIGTERM, SIGINT or SIGHUP takes it down first, then
 * hands the signal to the handler mlab_peers_run found (a caller's, as `run`'s
 * that keeps the rows measured: run_rows.h), or dies of it where there was
 * none */
static volatile sig_atomic_t peer_group;
static const int peer_stops[3] = {SIGTERM, SIGINT, SIGHUP};
static struct sigaction peer_prev[3]; /* the handlers before mlab_peers_run's */
static volatile sig_atomic_t peer_stop_seen; /* handed on: no other peer starts */

static void on_stop_signal(int sig)
{
    if (peer_group > 0)
        kill(-(pid_t)peer_group, SIGKILL);
    for (int k = 0; k < 3; k++)
        if (peer_stops[k] == sig && !(peer_prev[k].sa_flags & SA_SIGINFO)) {
            void (*h)(int) = peer_prev[k].sa_handler;
            if (h == SIG_IGN)
                return;
            if (h != SIG_DFL) {
                peer_stop_seen = 1;
                h(sig);
                return;
            }
        }
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct {
    pid_t pid, pgid;       /* the server, and its process group (its own) */
    int to, from;          /* our ends of its stdin and stdout */
    char buf[4096];
    size_t len;            /* bytes buffered in buf */
    const char *name;      /* for messages */
    double flush_bytes;
    char line[4096];       /* the last reply */
} child;

static int child_start(child *ch, const char *python, const char *server, const char *spec,
                       const char *device, char *why, size_t whylen)
{
    int in[2], out[2];
    if (pipe(in))
        goto fail;
    if (pipe(out)) {
        close(in[0]);
        close(in[1]);
        goto fail;
    }
    fflush(stdout);
    fflush(stderr);
    const pid_t parent = getpid();
    (void)parent;
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        goto fail;
    }
    if (pid == 0) {
        /* its own process group, so that what it starts (a submission's
         * children, a forked copy) ends with it (child_stop kills the
         * group); and killed if we die first (SIGTERM to mlabench) */
        setpgid(0, 0);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
#endif
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execlp(python, python, server, spec, "--device", device, (char *)NULL);
        fprintf(stderr, "mlabench: cannot run %s: %s\n", python, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* as the child does: whichever runs first */
    peer_group = pid;
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    ch->pid = pid;
    ch->pgid = pid;
    ch->to = in[1];
    ch->from = out[0];
    ch->len = 0;
    return 0;
fail:
    snprintf(why, whylen, "cannot start a peer process: %s", strerror(errno));
    return MLAB_EXIT_INTERNAL;
}

/* Wait up to secs for the child to exit; kill it past that. */
static void child_stop(child *ch, int secs)
{
    if (ch->pid > 0 && ch->to >= 0) {
        ssize_t w = write(ch->to, "quit\n", 5);
        (void)w;
        close(ch->to);
        ch->to = -1;
    }
    if (ch->to >= 0)
        close(ch->to);
    ch->to = -1;
    for (int i = 0; ch->pid > 0 && i < secs * 20; i++) {
        if (waitpid(ch->pid, NULL, WNOHANG) == ch->pid) {
            ch->pid = 0;
            break;
        }
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
    }
    if (ch->pid > 0) {
        kill(ch->pid, SIGKILL);
        waitpid(ch->pid, NULL, 0);
    }
    /* what it left in its group (a submission's children, forked copies) */
    if (ch->pgid > 0)
        kill(-ch->pgid, SIGKILL);
    ch->pid = 0;
    ch->pgid = 0;
    peer_group = 0;
    if (ch->from >= 0)
        close(ch->from);
    ch->from = -1;
}

/* Read one reply line into ch->line within secs. 0, or -1 with why. */
static int child_read(child *ch, int secs, char *why, size_t whylen)
{
    double deadline = mlab_now_s() + secs;
    for (;;) {
        char *nl = memchr(ch->buf, '\n', ch->len);
        if (nl) {
            size_t k = (size_t)(nl - ch->buf);
            memcpy(ch->line, ch->buf, k);
            ch->line[k] = 0;
            memmove(ch->buf, nl + 1, ch->len - k - 1);
            ch->len -= k + 1;
            return 0;
        }
        if (ch->len == sizeof ch->buf) {
            snprintf(why, whylen, "%s: a reply longer than %zu bytes", ch->name, sizeof ch->buf);
            return -1;
        }
        double left = deadline - mlab_now_s();
        if (left <= 0) {
            snprintf(why, whylen, "%s: no reply within %d s (killed)", ch->name, secs);
            return -1;
        }
        struct pollfd p = {ch->from, POLLIN, 0};
        /* a slice at a time: a server that died while a copy of it (a
         * forked submission) holds the pipe open sends no EOF */
        int r = poll(&p, 1, left > 0.2 ? 200 : (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            int st = 0;
            if (waitpid(ch->pid, &st, WNOHANG) == ch->pid) {
                ch->pid = 0;
                if (WIFSIGNALED(st))
                    snprintf(why, whylen, "%s: the peer process died (signal %d)", ch->name, WTERMSIG(st));
                else
                    snprintf(why, whylen, "%s: the peer process exited (status %d) without a reply", ch->name,
                             WIFEXITED(st) ? WEXITSTATUS(st) : -1);
                return -1;
            }
            continue;
        }
        if (r < 0)
            continue;
        ssize_t got = read(ch->from, ch->buf + ch->len, sizeof ch->buf - ch->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            int st = 0;
            waitpid(ch->pid, &st, 0);
            ch->pid = 0;
            if (WIFSIGNALED(st))
                snprintf(why, whylen, "%s: the peer process died (signal %d)", ch->name,
                         WTERMSIG(st));
            else
                snprintf(why, whylen, "%s: the peer process exited (status %d) without a reply",
                         ch->name, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
            return -1;
        }
        ch->len += (size_t)got;
    }
}

/* Send one request and read its reply. Returns 0 with the reply in ch->line
 * (which may say "err ..." or "skip ..."), or -1 (no reply) with why. */
static int child_ask(child *ch, const char *req, int secs, char *why, size_t whylen)
{
    size_t n = strlen(req);
    for (size_t off = 0; off < n;) {
        ssize_t w = write(ch->to, req + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(why, whylen, "%s: the peer process is gone (%s)", ch->name, strerror(errno));
            return -1;
        }
        off += (size_t)w;
    }
    return child_read(ch, limit_s(secs), why, whylen);
}

/* A reply "ok [number]": 0 and *v; else -1 with the peer's reason in why. */
static int reply_ok(const child *ch, double *v, char *why, size_t whylen)
{
    const char *l = ch->line;
    if (!strncmp(l, "ok", 2) && (l[2] == 0 || l[2] == ' ')) {
        if (v) {
            char *end = NULL;
            *v = strtod(l + 2, &end);
            if (end == l + 2) {
                snprintf(why, whylen, "%s: reply '%s' carries no number", ch->name, l);
                return -1;
            }
        }
        return 0;
    }
    if (!strncmp(l, "err ", 4))
        snprintf(why, whylen, "%s", l + 4);
    else
        snprintf(why, whylen, "%s: unexpected reply '%.200s'", ch->name, l);
    return -1;
}

/* ---- the sampler's callbacks ----------------------------------------------------- */

static int cb_warm(void *ctx, char *why, size_t whylen)
{
    child *ch = ctx;
    if (child_ask(ch, "warm\n", T_CALL, why, whylen) || reply_ok(ch, NULL, why, whylen))
        return MLAB_EXIT_ACCURACY;
    return 0;
}

static int cb_cold(void *ctx, double *us, char *why, size_t whylen)
{
    child *ch = ctx;
    char req[64];
    snprintf(req, sizeof req, "cold %.0f\n", ch->flush_bytes);
    if (child_ask(ch, req, T_CALL, why, whylen) || reply_ok(ch, us, why, whylen))
        return MLAB_EXIT_ACCURACY;
    return 0;
}

static int cb_graph(void *ctx, int iters, double *us, char *why, size_t whylen)
{
    child *ch = ctx;
    char req[64];
    snprintf(req, sizeof req, "graph %d\n", iters);
    if (child_ask(ch, req, T_RUN, why, whylen))
        return MLAB_EXIT_ACCURACY;
    if (!strncmp(ch->line, "none", 4)) { /* not capturable: no graph figure */
        *us = 0;
        return 0;
    }
    return reply_ok(ch, us, why, whylen) ? MLAB_EXIT_ACCURACY : 0;
}

/* ---- one peer on one case ----------------------------------------------------------- */

static const char *tol_name(int ref)
{
    return ref == MLAB_PEER_REF_BF16 ? "kernel:bf16"
         : ref == MLAB_PEER_REF_MXFP4 ? "kernel:mxfp4"
                                      : "kernel:fp8";
}

static const char *total_tol(mlab_kv_fmt f)
{
    return f == MLAB_KV_BF16 ? "total:bf16" : f == MLAB_KV_FP8 ? "total:fp8" : "total:mxfp4";
}

static void row_init(mlab_row *r, const mlab_case *c, const mlab_peer *p, int idx)
{
    mlab_row_for_case(r, c);
    snprintf(r->kind, sizeof r->kind, "peer");
    snprintf(r->variant, sizeof r->variant, "%s", p->name);
    r->variant_id = -100 - idx; /* peers: -100, -101, ... in --peers order */
    snprintf(r->kv_format, sizeof r->kv_format, "%s", mlab_kv_fmt_name(p->kv));
    snprintf(r->kernel_tol, sizeof r->kernel_tol, "%s", tol_name(p->ref));
}

/* Returns 0 (the row, if any, is appended; *failed set on failure) or an
 * MLAB_EXIT_* code of mlabench's own with its reason in err. why is the
 * peer's own trouble, which goes into its table line. */
static int run_one(const mlab_peer *p, int idx, const mlab_peer_opts *po, const char *server,
                   const char *case_path, const mlab_case *c, const mlab_peer_refs *refs,
                   mlab_results *res, int *failed, char *err, size_t errlen)
{
    const size_t nout = (size_t)c->total_q * MLAB_HEADS * MLAB_DV;
    char why[1024] = "", req[1200], outpath[512];
    child ch = {.pid = 0, .to = -1, .from = -1, .name = p->name};
    ch.flush_bytes = mlab_flush_bytes(po->l2_bytes);
    uint16_t *bits = NULL;
    float *outf = NULL;
    int rc = 0, erred = 0;
    mlab_row row;
    row_init(&row, c, p, idx);
    const char *tmpdir = getenv("TMPDIR");
    snprintf(outpath, sizeof outpath, "%s/mlab_peer_%ld_%d.bin", tmpdir && *tmpdir ? tmpdir : "/tmp",
             (long)getpid(), idx);

    const char *python = po->python ? po->python : getenv("MLAB_PEER_PYTHON");
    if (!python || !*python)
        python = "python3";
    rc = child_start(&ch, python, server, p->spec, po->device, err, errlen);
    if (rc)
        return rc;
    /* greeting, then the case */
    if (child_read(&ch, limit_s(T_HELLO), why, sizeof why))
        goto peer_error;
    if (!strncmp(ch.line, "skip ", 5))
        goto skipped;
    if (reply_ok(&ch, NULL, why, sizeof why))
        goto peer_error;
    snprintf(row.peer_version, sizeof row.peer_version, "%.56s%s", ch.line + 3,
             strcmp(po->device, "cpu") ? "" : " (cpu)");
    snprintf(req, sizeof req, "load %s\n", case_path);
    if (child_ask(&ch, req, T_LOAD, why, sizeof why))
        goto peer_error;
    if (!strncmp(ch.line, "skip ", 5))
        goto skipped;
    if (reply_ok(&ch, NULL, why, sizeof why))
        goto peer_error;

    /* one call, validated */
    double nonfinite = 0;
    snprintf(req, sizeof req, "run %s\n", outpath);
    if (child_ask(&ch, req, T_RUN, why, sizeof why) || reply_ok(&ch, &nonfinite, why, sizeof why))
        goto peer_error;
    bits = malloc((nout + 1) * sizeof *bits);
    outf = malloc((nout + 1) * sizeof *outf);
    if (!bits || !outf) {
        snprintf(err, errlen, "%s: out of memory", p->name);
        rc = MLAB_EXIT_INTERNAL;
        goto done;
    }
    FILE *f = fopen(outpath, "rb");
    size_t got = f ? fread(bits, sizeof *bits, nout + 1, f) : 0;
    if (f)
        fclose(f);
    remove(outpath);
    if (got != nout) {
        snprintf(why, sizeof why, "%s: output file holds %zu values, want %zu", p->name, got, nout);
        goto peer_error;
    }
    for (size_t k = 0; k < nout; k++)
        outf[k] = mlab_bf16_to_f32(bits[k]); /* the file is little-endian; so are our hosts */
    const mlab_tol *tol = mlab_tol_find(tol_name(p->ref));
    row.valid = mlab_err_judge(outf, refs->ref[p->ref], nout, tol, &row.kernel_err);
    mlab_err_judge(outf, refs->truth, nout, mlab_tol_find(total_tol(p->kv)), &row.total_err);
    row.bytes = refs->bytes[p->kv];
    row.flops = refs->flops;
    if (!row.valid) {
        *failed = 1;
        printf("  %-16s  FAIL  rel_rms %.3e (max %.1e), %zu mismatches at rtol %.3g atol %.3g, "
               "%.0f non-finite\n", p->name, row.kernel_err.rel_rms, tol->max_rel_rms,
               row.kernel_err.mismatches, tol->rtol, row.kernel_err.atol, nonfinite);
    } else if (!po->no_time) {
        mlab_sampler s = {&ch, cb_warm, cb_cold, cb_graph,
                          mlab_flush_seconds(ch.flush_bytes), po->slow_ns, po->gctx};
        /* then its inputs, as the file holds them: a peer that changed them
         * in place was timed on other data (a submission may) */
        int src = mlab_sample(&s, po->timing, &row, why, sizeof why);
        if (po->clocks)
            po->clocks(po->gctx, &row);
        if (src ||
            child_ask(&ch, "check\n", limit_s(T_RUN), why, sizeof why) || reply_ok(&ch, NULL, why, sizeof why)) {
            free(row.samples_us);
            row.samples_us = NULL;
            row.nsamples = 0;
            goto peer_error;
        }
        mlab_row_summarize(&row);
        row.gbps = row.bytes / (row.median_us * 1e3);
        row.pct_copy_bw = po->copy_bw_gbs > 0 ? 100.0 * row.gbps / po->copy_bw_gbs : 0;
        row.tflops = row.flops / (row.median_us * 1e6);
        printf("  %-16s %5s %10.2f %9.2f %8.0f %6.1f%% %10.3e %10.3e %zu (%s)%s%s\n", p->name, "ok",
               row.median_us, row.q3_us - row.q1_us, row.gbps, row.pct_copy_bw,
               row.kernel_err.rel_rms, row.total_err.rel_rms, row.nsamples, row.stop_reason,
               row.graph_us > 0 ? "" : ", no graph", mlab_row_slowed(&row));
    } else {
        printf("  %-16s %5s %10s %9s %8s %7s %10.3e %10.3e\n", p->name, "ok", "-", "-", "-", "-",
               row.kernel_err.rel_rms, row.total_err.rel_rms);
    }
    goto add_row;

peer_error:
    /* the peer could not run, or broke: reported, recorded as failed; taken
     * down by the run's own stop (on_stop_signal): said, no row, no failure */
    erred = 1;
    if (peer_stop_seen) {
        printf("  %-16s stopped (the run was stopped by a signal): no row\n", p->name);
        free(row.samples_us);
        goto done;
    }
    *failed = 1;
    row.valid = 0;
    snprintf(row.stop_reason, sizeof row.stop_reason, "peer_error");
    printf("  %-16s ERROR %s\n", p->name, why);
add_row:
    if (mlab_results_add_row(res, &row)) {
        snprintf(err, errlen, "%s: out of memory", p->name);
        rc = MLAB_EXIT_INTERNAL;
    }
    free(row.samples_us);
    goto done;
skipped:
    printf("  %-16s skipped: %s\n", p->name, ch.line + 5);
done:
    fflush(stdout);
    child_stop(&ch, erred ? 2 : 10);
    remove(outpath);
    free(bits);
    free(outf);
    return rc;
}

int mlab_peers_run(const mlab_peer *peers, int npeers, const mlab_peer_opts *po,
                   const char *case_path, const mlab_case *c, const mlab_peer_refs *refs,
                   mlab_results *res, int *failed, char *why, size_t whylen)
{
    char server[1024], tmp[512] = "";
    if (!case_path) { /* a case made in memory: the peers read it from a temporary file */
        const char *td = getenv("TMPDIR");
        snprintf(tmp, sizeof tmp, "%s/mlab_peer_case_%ld.h5", td && *td ? td : "/tmp",
                 (long)getpid());
        int wrc = mlab_h5_write_case(tmp, c, why, whylen);
        if (wrc)
            return wrc;
        case_path = tmp;
    }
    const char *dir = getenv("MLAB_PEERS_DIR");
    snprintf(server, sizeof server, "%s/peer_server.py", dir && *dir ? dir : MLAB_PEERS_DIR);
    /* a peer process that dies must not kill us on the next write */
    struct sigaction ign = {0}, old, stop = {0};
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    /* stopped while a peer runs: its process group goes first */
    peer_stop_seen = 0;
    stop.sa_handler = on_stop_signal;
    stop.sa_flags = SA_RESTART;
    for (int k = 0; k < 3; k++)
        sigaction(peer_stops[k], &stop, &peer_prev[k]);
    printf("peers (own processes; validated like the variants, then timed by the same sampler; "
           "flush %.0f MB, device %s):\n", mlab_flush_bytes(po->l2_bytes) / (1 << 20),
           po->device);
    printf("  %-16s %5s %10s %9s %8s %7s %10s %10s %s\n", "peer", "valid", "median_us", "iqr_us",
           "GB/s", "%copy", "kern_rms", "total_rms", "samples");
    int rc = 0;
    for (int i = 0; i < npeers && !rc && !peer_stop_seen; i++)
        rc = run_one(&peers[i], i, po, server, case_path, c, refs, res, failed, why, whylen);
    sigaction(SIGPIPE, &old, NULL);
    for (int k = 0; k < 3; k++)
        sigaction(peer_stops[k], &peer_prev[k], NULL);
    if (*tmp)
        remove(tmp);
    return rc;
}
