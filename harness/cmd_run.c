/* cmd_run.c: `mlabench run`: the main job.
 *
 * For each case: the CPU reference for every KV format (OpenBLAS), the error
 * each format costs against bf16 truth; then, with a GPU, every selected
 * variant: validated against the reference on the same quantized inputs with
 * NaN poison past each sequence end and in the output, and only then timed
 * (cold, with device events). Everything lands in one results file.
 */
#include <getopt.h>
#include <limits.h> /* PATH_MAX */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* _exit */
#include <time.h>

#include "../reference/mla_ref.h"
#include "../reference/metrics.h"
#include "../variants/gpu_api.h"
#include "../variants/mla_params.h" /* MLA_MAX_SPLITS */
#include "../variants/variants.h"
#include "args.h"
#include "atomic.h" /* mlab_output_file_check */
#include "commands.h"
#include "env.h"
#include "exitcodes.h"
#include "gen.h"
#include "case_read.h"   /* mlab_h5_read_case */
#include "case_schema.h" /* MLAB_CASE_FORMAT, MLAB_CASE_VERSION */
#include "peer.h"
#include "progress.h"
#include "results.h"
#include "results_cli.h"   /* mlab_env_build_differs, mlab_put_field_change */
#include "results_read.h"  /* mlab_results_read (--resume) */
#include "results_write.h" /* mlab_results_write */
#include "sweep.h"
#include "tensor_hash.h" /* mlab_tensor_hash_case */
#include <sys/stat.h>
#include "run_rows.h" /* the halves, run_opts */
#include "sampler.h"

static void run_usage(FILE *f)
{
    int n;
    const mlab_variant *v = mlab_variant_table(&n);
    fprintf(f,
            "usage: mlabench run [CASE.h5 ...] [--default] [case options] [options]\n"
            "  Cases: the files given, then the cases the case options ask for (below;\n"
            "  generated in memory, deterministically, named and filled as `mlabench gen`\n"
            "  would write them: `run --suite`, `run --batch 4,32 --kv-len 1024,8192`).\n"
            "  With no case (or --default): the embedded default case (4 x 1024, seed 4217).\n"
            "  Without a GPU (or with --cpu-only) only the CPU half runs.\n"
            "options:\n"
            "  -o, --output RESULTS.h5\n"
            "                      write the results file (atomically; not onto a case file given,\n"
            "                      a folder or -); without it nothing is saved\n"
            "  --label L           name the run (e.g. rocm-6.4): recorded as env label,\n"
            "                      shown by compare, export and history (< 64 chars)\n"
            "  --device N          GPU N among the visible ones (default 0; CUDA_VISIBLE_DEVICES /\n"
            "                      HIP_VISIBLE_DEVICES, applied by the runtime, choose which are visible)\n"
            "  --slice K/N         run only slice K (0-based) of N: the cases split into N slices\n"
            "                      of about equal estimated cost (for several GPUs or Slurm tasks)\n"
            "  --slice-costs PREV.h5\n"
            "                      cut the slices by the seconds an earlier run (PREV.h5, e.g. the\n"
            "                      merged file of the last sweep) spent on each case, by case name (a\n"
            "                      case file by its file name less .h5); a case it lacks, by its size\n"
            "  --list              print the cases (of the slice) and their sizes; run nothing\n"
            "  --variants a,b,..   GPU variants to run (default: all)\n"
            "  --cpu-only          skip the GPU even if there is one\n"
            "  --require-gpu       exit 77 when there is no usable GPU\n"
            "  --truth dgemm       bf16 truth in fp64 (default sgemm, fp32)\n"
            "  --splits N          KV splits, 1..64 (default: the documented rule)\n"
            "  --no-time           validate only\n"
            "  --max-time S        sampling time limit per variant (default 2 s)\n"
            "  --min-samples N     (default 10)   --max-samples N (default 1000)\n"
            "  --rse X             stop when stderr/median < X (default 0.005)\n"
            "  --quiet             no progress lines\n"
            "  --peers LIST        also run peers, validated and timed the same way (README, Peers):\n"
            "                      torch, flashinfer, flashmla, aiter, submission:FILE.py[@fp8|fp8kv|bf16|mxfp4]\n"
            "  --peers-only        the peers without mlabench's own variants\n"
            "  --peer-python PATH  the Python that runs peers (default $MLAB_PEER_PYTHON or python3)\n"
            "  --resume PART.h5    continue the run PART.h5 holds (one stopped by a signal, or\n"
            "                      one to add cases to): the cases it finished are kept, not run\n"
            "                      again (matched by name and tensor hashes), a case it stopped in\n"
            "                      runs again whole (kept as it was, and said, if this run lacks\n"
            "                      it), the others run; PART.h5 must come from this\n"
            "                      build on this kind of GPU and software (exit 10 naming the field\n"
            "                      that differs); -o may name PART.h5 itself\n"
            "Options take their value as --opt VALUE or --opt=VALUE.\n");
    mlab_sweep_usage(f);
    fprintf(f, "variants:\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-14s [%s] %s\n", v[i].name, mlab_kv_fmt_name(v[i].kv), v[i].idea);
    fprintf(f, "exit: 0 ok, 2 usage, 3 bad input, 4 I/O, 5 a variant or peer failed validation, 77 no GPU "
               "with --require-gpu, or none of the variants asked for can run here, 130 / 143 / 129 stopped "
               "by SIGINT / SIGTERM / SIGHUP (the rows measured before it written, the file saying where it "
               "stopped; a second signal ends it at once), 11 a GPU wait passed MLAB_HANG_S (default 60 s: a "
               "kernel that never ends; the rows measured before it written, the run stopped there)\n");
}

/* One case of the run: a file, or a generated case (sweep index, or the
 * embedded default when gen_index is -1 and path NULL). */
typedef struct {
    const char *path;
    size_t gen_index;
    int is_default;
    double cost;
} run_item;

enum { OPT_DEFAULT = 2000, OPT_CPU_ONLY, OPT_REQUIRE_GPU, OPT_NO_TIME, OPT_QUIET, OPT_TRUTH,
       OPT_SPLITS, OPT_MAX_TIME, OPT_RSE, OPT_MIN_SAMPLES, OPT_MAX_SAMPLES, OPT_VARIANTS,
       OPT_DEVICE, OPT_SLICE, OPT_LIST, OPT_LABEL, OPT_PEERS, OPT_PEERS_ONLY, OPT_PEER_PYTHON,
       OPT_RESUME, OPT_SLICE_COSTS };

/* The words of numbers right after a list-valued case option's value
 * (--batch 4 32: "32"), which run takes for case files: when one cannot be
 * opened, its line says how a list is written, as gen's does at once. Each
 * such option is given once (mlab_arg_once): four at most. */
#define LIST_WORDS_MAX 16
typedef struct {
    const char *word[4 * LIST_WORDS_MAX]; /* the words' strings: getopt moves argv's slots, not them */
    int opt[4 * LIST_WORDS_MAX];          /* each word's option, in hint[] */
    int nw, nopt;
    char hint[4][160];                    /* "a list is one word: --batch 4,32" */
} list_words;

/* After getopt_long returned list-valued option c with value v: argv[optind..]
 * are still in their given order (getopt permutes only the words it has
 * passed), so the words of numbers there followed v. The hint repeats them
 * as one word (--batch 4 32 64: --batch 4,32,64), or the option's example. */
static void list_words_note(list_words *lw, const struct option *longopts, int c, const char *v,
                            int argc, char **argv)
{
    if (lw->nopt >= 4 || optind >= argc || !mlab_sweep_numbers_word(argv[optind]))
        return;
    const char *name = "";
    for (const struct option *l = longopts; l->name; l++)
        if (l->val == c)
            name = l->name;
    char *h = lw->hint[lw->nopt];
    const size_t size = sizeof lw->hint[0];
    int len = snprintf(h, size, "a list is one word: --%s %s", name, v);
    for (int i = optind; i < argc && mlab_sweep_numbers_word(argv[i]) && lw->nw < 4 * LIST_WORDS_MAX; i++) {
        lw->word[lw->nw] = argv[i];
        lw->opt[lw->nw++] = lw->nopt;
        if (len >= 0 && (size_t)len < size)
            len += snprintf(h + len, size - (size_t)len, ",%s", argv[i]);
    }
    if (len < 0 || (size_t)len >= size)
        snprintf(h, size, "a list is one word: %s", mlab_sweep_list_example(c));
    lw->nopt++;
}

/* The hint for case file path when list_words_note saw it after a list, else NULL */
static const char *list_words_hint(const list_words *lw, const char *path)
{
    for (int i = 0; i < lw->nw; i++)
        if (lw->word[i] == path)
            return lw->hint[lw->opt[i]];
    return NULL;
}

/* Parse run's options (getopt_long: --opt VALUE or --opt=VALUE, files
 * anywhere). 0, 1 for --help (printed), -1 after a one-line message. */
static int run_parse(int argc, char **argv, run_opts *o, mlab_sweep *w, int *use_default,
                     int *slice_k, int *slice_n, int *list_only, list_words *lw)
{
    static const struct option longopts[] = {
        MLAB_SWEEP_OPTIONS,
        {"default", no_argument, NULL, OPT_DEFAULT}, {"cpu-only", no_argument, NULL, OPT_CPU_ONLY},
        {"require-gpu", no_argument, NULL, OPT_REQUIRE_GPU}, {"no-time", no_argument, NULL, OPT_NO_TIME},
        {"quiet", no_argument, NULL, OPT_QUIET}, {"truth", required_argument, NULL, OPT_TRUTH},
        {"splits", required_argument, NULL, OPT_SPLITS}, {"max-time", required_argument, NULL, OPT_MAX_TIME},
        {"rse", required_argument, NULL, OPT_RSE}, {"min-samples", required_argument, NULL, OPT_MIN_SAMPLES},
        {"max-samples", required_argument, NULL, OPT_MAX_SAMPLES},
        {"variants", required_argument, NULL, OPT_VARIANTS}, {"device", required_argument, NULL, OPT_DEVICE},
        {"slice", required_argument, NULL, OPT_SLICE}, {"list", no_argument, NULL, OPT_LIST},
        {"slice-costs", required_argument, NULL, OPT_SLICE_COSTS},
        {"label", required_argument, NULL, OPT_LABEL},
        {"peers", required_argument, NULL, OPT_PEERS}, {"peers-only", no_argument, NULL, OPT_PEERS_ONLY},
        {"peer-python", required_argument, NULL, OPT_PEER_PYTHON},
        {"resume", required_argument, NULL, OPT_RESUME},
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    int c, iv;
    double dv;
    unsigned char seen[sizeof longopts / sizeof longopts[0]] = {0};
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        const char *v = optarg;
        if ((o->parse_rc = mlab_arg_once_hint("run", longopts, c, seen, sizeof seen, mlab_sweep_list_hint(c))))
            return -1;
        switch (c) {
        case 'h': run_usage(stdout); return 1;
        case 'o': o->out = v; break;
        case OPT_DEFAULT: *use_default = 1; break;
        case OPT_CPU_ONLY: o->cpu_only = 1; break;
        case OPT_REQUIRE_GPU: o->require_gpu = 1; break;
        case OPT_NO_TIME: o->no_time = 1; break;
        case OPT_QUIET: o->quiet = 1; break;
        case OPT_LIST: *list_only = 1; break;
        case OPT_TRUTH:
            if (!strcmp(v, "dgemm")) o->truth_dgemm = 1;
            else if (strcmp(v, "sgemm")) {
                fprintf(stderr, "mlabench run: --truth: '%s' is not sgemm or dgemm\n", v);
                return -1;
            }
            break;
        case OPT_SPLITS:
            if (mlab_arg_int("run", "--splits", v, 1, MLA_MAX_SPLITS, &o->splits)) return -1;
            break;
        case OPT_PEERS_ONLY: o->peers_only = 1; break;
        case OPT_PEER_PYTHON: o->peer_python = v; break;
        case OPT_RESUME: o->resume = v; break;
        case OPT_SLICE_COSTS: o->slice_costs = v; break;
        case OPT_PEERS: {
            char pwhy[768];
            free(o->peers);
            o->peers = NULL;
            if ((o->parse_rc = mlab_peers_parse(v, &o->peers, &o->npeers, pwhy, sizeof pwhy))) {
                fprintf(stderr, "mlabench run: %s\n", pwhy); /* e.g. 4: the submission file cannot be read */
                return -1;
            }
            break;
        }
        case OPT_LABEL:
            if (mlab_arg_name("run", "--label", v, sizeof(((mlab_env *)0)->label) - 1, 0))
                return -1;
            o->label = v;
            break;
        case OPT_DEVICE:
            if (mlab_arg_int("run", "--device", v, 0, 1023, &o->device)) return -1;
            break;
        case OPT_SLICE:
            if (mlab_slice_parse("run", v, slice_k, slice_n)) return -1;
            break;
        case OPT_MAX_TIME:
        case OPT_RSE:
            if (mlab_arg_double("run", c == OPT_RSE ? "--rse" : "--max-time", v, &dv)) return -1;
            if (!(dv > 0)) {
                fprintf(stderr, "mlabench run: %s: '%s' must be positive\n", c == OPT_RSE ? "--rse" : "--max-time", v);
                return -1;
            }
            if (c == OPT_RSE) o->timing.target_rse = dv;
            else o->timing.max_time_s = dv;
            break;
        case OPT_MIN_SAMPLES:
        case OPT_MAX_SAMPLES:
            if (mlab_arg_int("run", c == OPT_MIN_SAMPLES ? "--min-samples" : "--max-samples", v, 1, 1000000, &iv))
                return -1;
            if (c == OPT_MIN_SAMPLES) o->timing.min_samples = (size_t)iv;
            else o->timing.max_samples = (size_t)iv;
            break;
        case OPT_VARIANTS: {
            memset(o->want, 0, sizeof o->want);
            char buf[512];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL;
            for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                const mlab_variant *mv = mlab_variant_find(t);
                if (!mv) {
                    fprintf(stderr, "mlabench run: --variants: unknown variant '%s' (see --help)\n", t);
                    return -1;
                }
                o->want[mv->id] = 1;
            }
            break;
        }
        default:
            if (mlab_arg_getopt_error("run", c, argv) || mlab_sweep_option(w, "run", c, v))
                return -1;
            if (mlab_sweep_list_hint(c)[0])
                list_words_note(lw, longopts, c, v, argc, argv);
        }
    }
    char swhy[512];
    if (mlab_sweep_check(w, swhy, sizeof swhy)) {
        fprintf(stderr, "mlabench run: %s\n", swhy);
        return -1;
    }
    return 0;
}

/* The cases --resume's file stopped in, each run again whole (or kept as
 * it was, said, where this run lacks it): stopped_case's distinct lines, at
 * most one empty, the others of a character and a newline at least, so at
 * most half its bytes and one. */
#define RESUME_CUT_MAX (sizeof ((mlab_env *)0)->stopped_case / 2 + 1)
typedef struct {
    char buf[sizeof ((mlab_env *)0)->stopped_case];
    const char *name[RESUME_CUT_MAX];
    unsigned char ran[RESUME_CUT_MAX];
    size_t n;
} resume_cut;

/* --resume's kept inputs by case name, with what this run has done with
 * each: named (kept, its rows not run again), or cut (a case the file
 * stopped in: dropped and run again whole). By name, not by index into the
 * results' inputs, which move down when a case is dropped. A case whose
 * input is in the results but not KEPT_UNNAMED here is one this run has
 * named before: a case twice. */
enum { KEPT_UNNAMED, KEPT_NAMED, KEPT_CUT };
typedef struct {
    char (*name)[sizeof ((mlab_input_file *)0)->case_name];
    unsigned char *state;
    size_t n;
} resume_kept;

/* The kept input named name's index, or kept->n. */
static size_t kept_find(const resume_kept *kept, const char *name)
{
    size_t k = 0;
    while (k < kept->n && strcmp(kept->name[k], name) != 0)
        k++;
    return k;
}

/* MLAB_IDLE_CHECK_S: the neighbour check's window in seconds (0.5 unset,
 * 0 skips it) into *win; -1 after a one-line message when it is not a
 * number from 0 to 10 (exit 2, as the other knobs' bad values) */
static int idle_window(double *win)
{
    const char *s = getenv("MLAB_IDLE_CHECK_S");
    char *end = NULL;
    *win = s && *s ? strtod(s, &end) : 0.5;
    if (s && *s && (*end || !(*win >= 0) || *win > 10)) {
        fprintf(stderr, "mlabench run: MLAB_IDLE_CHECK_S='%s' is not seconds from 0 to 10 (exit 2)\n", s);
        return -1;
    }
    return 0;
}

/* A neighbour on the GPU: the GPU left idle win seconds (idle_window) and
 * NVML's utilization in that time read (mlab_gpu_idle_busy);
 * env->idle_busy_pct keeps the highest, and a line on stderr says when
 * another process was seen (when: "at the run's start"). */
static void idle_check(mlab_gpu *g, double win, mlab_env *env, const char *when)
{
    int pct = -1;
    if (!(win > 0) || mlab_gpu_idle_busy(g, win, &pct) != 0)
        return;
    mlab_env_note_busy(env, pct);
    if (pct > 0)
        fprintf(stderr, "mlabench run: another process ran kernels on GPU %d %s (NVML: %d%% busy while this run "
                        "left it idle %.2g s): its times may be slowed (nvidia-smi lists the GPU's processes)\n",
                env->gpu_index, when, pct, win);
}

/* A run item's case name without reading it: a generated case's by the
 * naming rule, a case file's as the reader names a file that sets none. */
static void item_name(const run_item *it, const mlab_sweep *w, char *name, size_t len)
{
    if (it->path) {
        mlab_case_default_name(it->path, name, len);
        return;
    }
    mlab_gen_spec s;
    char why[256];
    if (it->is_default)
        mlab_default_spec(&s);
    else
        mlab_sweep_spec(w, it->gen_index, &s);
    if (mlab_gen_name(&s, name, len, why, sizeof why))
        *name = 0;
}

/* --slice-costs PATH: cost[] (the size estimates) as the seconds PATH's run
 * spent on each case (mlab_slice_costs); says how many it found, on stdout
 * for --list, else stderr. 0, or an exit code after a one-line message. */
static int slice_costs_apply(const char *path, const run_item *items, size_t nitems, const mlab_sweep *w,
                             double *cost, int slice_n, int list_only)
{
    if (slice_n < 2) {
        fprintf(stderr, "mlabench run: --slice-costs %s: without --slice K/N (N > 1) there is nothing to cut\n",
                path);
        return MLAB_EXIT_USAGE;
    }
    char (*name)[64] = calloc(nitems + 1, sizeof *name);
    const char **np = calloc(nitems + 1, sizeof *np);
    char why[PATH_MAX + 512];
    size_t found = 0;
    int rc = !name || !np ? MLAB_EXIT_INTERNAL : MLAB_EXIT_OK;
    for (size_t i = 0; !rc && i < nitems; i++) {
        item_name(&items[i], w, name[i], sizeof name[i]);
        np[i] = name[i];
    }
    if (rc)
        fprintf(stderr, "mlabench run: out of memory\n");
    else if ((rc = mlab_slice_costs(path, np, cost, nitems, &found, why, sizeof why)))
        fprintf(stderr, "mlabench run: --slice-costs: %s\n", why);
    else
        fprintf(list_only ? stdout : stderr,
                "mlabench run: slices cut by the case times of %s: %zu of %zu cases found there%s\n", path, found,
                nitems, found == nitems ? "" : found ? " (the others by size, at its seconds a byte)" :
                                                       " (none: cut by size, as without it)");
    free(name);
    free(np);
    return rc;
}

/* run --resume PATH: PATH's cases (inputs and rows) into res, whose
 * environment is this run's so far; a file of another build or GPU is
 * refused (exit 10, naming the field). cut gets the cases a stopped run was
 * in (its stopped_case, one a line, several in a merged file; a file written
 * before that field has its one only in its stopped note, "SIGTERM in case
 * 3 of 8 (NAME)"), each of which must be one of its inputs (the results
 * reader refuses a stopped_case that names another; the note's is checked
 * here). 0, or an exit code after its one line on stderr. */
static int resume_load(const char *path, mlab_results *res, resume_cut *cut)
{
    char why[PATH_MAX + 768];
    mlab_results part;
    mlab_results_init(&part);
    int rc = mlab_results_read(path, &part, why, sizeof why);
    const mlab_field *fl = rc ? NULL : mlab_env_build_differs(&part.env, &res->env);
    if (rc) {
        fprintf(stderr, "mlabench run: --resume: %s\n", why);
    } else if (fl) {
        fprintf(stderr, "mlabench run: --resume: %s: %s differs from this run's: ", path, fl->name);
        mlab_put_field_change(stderr, &part.env, &res->env, fl);
        fprintf(stderr, ": not this build on this kind of GPU and software (exit 10)\n");
        rc = MLAB_EXIT_MISMATCH;
    } else {
        const char *in = strstr(part.env.stopped, " in case ");
        if (part.env.stopped_case[0])
            snprintf(cut->buf, sizeof cut->buf, "%s", part.env.stopped_case);
        else if (in && strchr(in, '(')) /* before stopped_case: "(NAME)" ends the note */
            snprintf(cut->buf, sizeof cut->buf, "%.*s", (int)strcspn(strchr(in, '(') + 1, ")"),
                     strchr(in, '(') + 1);
        cut->n = mlab_stopped_names(cut->buf, cut->name, RESUME_CUT_MAX);
        const char *bad = NULL;
        if (!part.env.stopped_case[0]) /* the note's "(NAME)", edited (stopped_case's the results reader checked) */
            for (size_t i = 0; i < cut->n && !bad; i++)
                bad = mlab_results_find_input(&part, cut->name[i]) ? NULL : cut->name[i];
        if (bad) {
            fprintf(stderr, "mlabench run: --resume: %s: attribute stopped names case \"%s\", which is not "
                            "in its /inputs (exit 3)\n", path, bad);
            mlab_results_free(&part);
            return MLAB_EXIT_BADINPUT;
        }
        for (size_t k = 0; k < part.ninputs && !rc; k++)
            rc = mlab_results_add_input(res, &part.inputs[k]);
        mlab_env_note_busy(&res->env, part.env.idle_busy_pct); /* the kept rows' neighbour, as merge keeps it */
        for (size_t k = 0; k < part.nrows && !rc; k++)
            rc = mlab_results_add_row(res, &part.rows[k]);
        if (rc) {
            rc = MLAB_EXIT_INTERNAL;
            fprintf(stderr, "mlabench run: --resume: out of memory\n");
        } else {
            const size_t n = res->ninputs - cut->n;
            printf("mlabench run: --resume %s: %zu case%s kept", path, n, n == 1 ? "" : "s");
            for (size_t i = 0; i < cut->n; i++)
                printf("%s%s", i ? ", " : " (it stopped in ", cut->name[i]);
            printf("%s\n", cut->n ? ": run again)" : "");
        }
    }
    mlab_results_free(&part);
    return rc;
}

int mlab_cmd_run(int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    mlab_timing_opts_default(&o.timing);
    for (int i = 0; i < MLAB_V_COUNT; i++)
        o.want[i] = 1;
    mlab_sweep w;
    mlab_sweep_init(&w);
    int use_default = 0, slice_k = 0, slice_n = 1, list_only = 0, rc = MLAB_EXIT_USAGE;
    run_item *items = NULL;
    size_t *pick = NULL, npick = 0, nitems = 0;
    resume_kept kept = {0}; /* --resume: the file's cases and what this run did with each */
    list_words lw = {0};
    int prc = run_parse(argc, argv, &o, &w, &use_default, &slice_k, &slice_n, &list_only, &lw);
    if (prc) {
        rc = prc > 0 ? MLAB_EXIT_OK : o.parse_rc ? o.parse_rc : MLAB_EXIT_USAGE;
        goto done;
    }
    double idle_win = 0.5;
    if (idle_window(&idle_win))
        goto done;
    if (o.peers_only && !o.npeers) {
        fprintf(stderr, "mlabench run: --peers-only needs --peers\n");
        goto done;
    }
    /* the cases: files (the words left after the options), the sweep, the default */
    size_t nfiles = (size_t)(argc - optind), ngen = mlab_sweep_count(&w);
    if (!nfiles && !ngen)
        use_default = 1;
    items = calloc(nfiles + ngen + 2, sizeof *items);
    pick = calloc(nfiles + ngen + 2, sizeof *pick);
    double *cost = calloc(nfiles + ngen + 2, sizeof *cost);
    if (!items || !pick || !cost) {
        free(cost);
        rc = MLAB_EXIT_INTERNAL;
        goto done;
    }
    for (size_t i = 0; i < nfiles; i++) {
        struct stat st, sp;
        /* one file twice: refused before any work (a case in two files: when
         * the second is read, below) */
        for (size_t k = 0; k < i; k++)
            if (stat(argv[optind + (int)i], &st) == 0 && stat(argv[optind + (int)k], &sp) == 0 &&
                st.st_dev == sp.st_dev && st.st_ino == sp.st_ino) {
                fprintf(stderr, "mlabench run: %s: given twice (also as %s): each case once\n",
                        argv[optind + (int)i], argv[optind + (int)k]);
                free(cost);
                goto done;
            }
        items[nitems].path = argv[optind + (int)i];
        items[nitems++].cost = mlab_case_cost(stat(argv[optind + (int)i], &st) ? 0 : (double)st.st_size);
    }
    for (size_t i = 0; i < ngen; i++) {
        mlab_gen_spec s;
        mlab_sweep_spec(&w, i, &s);
        items[nitems].gen_index = i;
        items[nitems++].cost = mlab_case_cost(mlab_gen_file_bytes(&s));
    }
    if (use_default) {
        mlab_gen_spec s;
        mlab_default_spec(&s);
        items[nitems].is_default = 1;
        items[nitems++].cost = mlab_case_cost(mlab_gen_file_bytes(&s));
    }
    for (size_t i = 0; i < nitems; i++)
        cost[i] = items[i].cost;
    if (o.slice_costs && (rc = slice_costs_apply(o.slice_costs, items, nitems, &w, cost, slice_n, list_only))) {
        free(cost);
        goto done;
    }
    npick = mlab_slice_pick(cost, nitems, slice_k, slice_n, pick);
    free(cost);
    if (npick == (size_t)-1) {
        rc = MLAB_EXIT_INTERNAL;
        goto done;
    }
    char owhy[PATH_MAX + 512]; /* -o must not replace an input or a non-regular file (atomic.h) */
    if (o.out && (rc = mlab_output_file_check(o.out, (const char *const *)argv + optind, (int)nfiles, owhy,
                                              sizeof owhy))) {
        fprintf(stderr, "mlabench run: %s\n", owhy);
        goto done;
    }

    mlab_results res;
    mlab_results_init(&res);
    mlab_env_fill_host(&res.env, argc, argv);
    res.env.gpu_index = -1; /* no device used: the CPU half only (--cpu-only, or none found) */
    if (o.label)
        snprintf(res.env.label, sizeof res.env.label, "%s", o.label);
    o.env = &res.env;
    mlab_progress_init(&mlab_run_progress);
    {   /* what is ahead: the cases, their bytes, the largest in memory */
        double total = 0, peak = 0;
        for (size_t j = 0; j < npick; j++) {
            double b = items[pick[j]].cost - mlab_case_cost(0); /* the bytes */
            total += b;
            peak = b > peak ? b : peak;
        }
        FILE *f = list_only ? stdout : stderr;
        /* the estimate where the wait is worth announcing: --list, or
         * 25 MB of inputs and more (a small run that fails still says one line) */
        const int announce = list_only || total >= 25e6;
        if (announce) {
            fprintf(f, "mlabench run: %zu case%s", npick, npick == 1 ? "" : "s");
            if (slice_n > 1)
                fprintf(f, " (slice %d/%d of %zu)", slice_k, slice_n, nitems);
            fprintf(f, ", %.2f GB of inputs, one case in memory at a time (largest %.2f GB, plus "
                       "the references' outputs)\n", total / 1e9, peak / 1e9);
        }
        int nv = 0;
        for (int i = 0; i < MLAB_V_COUNT; i++)
            nv += o.want[i];
        if (announce && !o.cpu_only && !o.no_time && !list_only && npick) {
            char bound[32];
            mlab_duration_str((double)npick * nv * o.timing.max_time_s, bound, sizeof bound);
            fprintf(f, "mlabench run: with a GPU, sampling takes at most %s (%zu case%s x %d variants x "
                       "--max-time %.3g s), plus generation, the CPU references and validation\n",
                    bound, npick, npick == 1 ? "" : "s", nv, o.timing.max_time_s);
        }
        if (list_only) {
            for (size_t j = 0; j < npick; j++) {
                const run_item *it = &items[pick[j]];
                char name[64] = "", why[256];
                mlab_gen_spec s;
                if (it->path) {
                    printf("  %s\n", it->path);
                    continue;
                }
                if (it->is_default)
                    mlab_default_spec(&s);
                else
                    mlab_sweep_spec(&w, it->gen_index, &s);
                mlab_gen_name(&s, name, sizeof name, why, sizeof why);
                printf("  %s (in memory)  %.1f MB\n", name, mlab_gen_file_bytes(&s) / 1e6);
            }
            rc = MLAB_EXIT_OK;
            mlab_results_free(&res);
            goto done;
        }
    }
    if (!o.out)
        fprintf(stderr, "mlabench run: no -o RESULTS.h5: the results are printed, not saved\n");
    mlab_gpu *g = NULL;
    double copy_bw = 0;
    char why[PATH_MAX + 768] = "";
    int failed = 0;
    int hung = 0; /* a GPU wait passed MLAB_HANG_S (runner.hip gpu_wait) */
    if (!o.cpu_only) {
        mlab_gpu_info gi;
        memset(&gi, 0, sizeof gi); /* a back end that finds no device may leave it as it was */
        rc = mlab_gpu_open(&g, o.device, &gi, why, sizeof why);
        if (rc == MLAB_EXIT_OK)
            mlab_run_env_from_gpu(&res.env, &gi);
        else /* the build's knobs still say what its kernels would have been */
            snprintf(res.env.kernel_knobs, sizeof res.env.kernel_knobs, "%s", mlab_gpu_build_knobs());
        if (rc == MLAB_EXIT_NOGPU) {
            g = NULL;
            if (o.require_gpu) {
                printf("no usable GPU (%s): --require-gpu, stopping (exit 77)\n", why);
                goto out_results;
            }
            printf("no usable GPU (%s): running the CPU half only\n", why);
        } else if (rc) {
            fprintf(stderr, "mlabench run: %s\n", why);
            goto out_results;
        } else {
            o.gpu_open = 1;
            rc = mlab_gpu_copy_bandwidth(g, &copy_bw, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            res.env.copy_bw_gbs = copy_bw;
            rc = mlab_gpu_read_bandwidth(g, &res.env.read_bw_gbs, why, sizeof why);
            if (!rc)
                rc = mlab_gpu_select_empty(g, why, sizeof why);
            if (!rc)
                rc = mlab_run_gpu_cold_median(g, &o.timing, &res.env.empty_kernel_us, why, sizeof why);
            if (!rc)
                rc = mlab_gpu_select_empty_pair(g, why, sizeof why);
            if (!rc)
                rc = mlab_run_gpu_cold_median(g, &o.timing, &res.env.empty_pair_us, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            printf("GPU %d: %s (%s, %d CUs/SMs, %s, driver %s); copy bandwidth %.0f GB/s, "
                   "read %.0f GB/s, empty kernel %.2f us cold (%.2f with a second launched as a combine)\n",
                   res.env.gpu_index, res.env.gpu_name, res.env.gpu_arch, res.env.gpu_cu_count,
                   res.env.runtime_version, res.env.driver_version, copy_bw, res.env.read_bw_gbs,
                   res.env.empty_kernel_us, res.env.empty_pair_us);
            idle_check(g, idle_win, &res.env, "at the run's start");
        }
    }
    /* --resume: the run continued takes PART.h5's finished cases (rows and
     * inputs), not the one it stopped in */
    resume_cut cut; /* the cases --resume's file stopped in */
    memset(&cut, 0, sizeof cut);
    if (o.resume) {
        rc = resume_load(o.resume, &res, &cut);
        if (rc)
            goto out_results;
        kept.n = res.ninputs;
        kept.name = calloc(kept.n ? kept.n : 1, sizeof *kept.name);
        kept.state = calloc(kept.n ? kept.n : 1, 1);
        if (!kept.name || !kept.state) {
            fprintf(stderr, "mlabench run: out of memory\n");
            rc = MLAB_EXIT_INTERNAL;
            goto out_results;
        }
        for (size_t k = 0; k < kept.n; k++)
            memcpy(kept.name[k], res.inputs[k].case_name, sizeof kept.name[k]);
    }
    /* SIGINT, SIGTERM, SIGHUP from here on: the rows measured are written,
     * with where the run stopped (run_rows.h) */
    mlab_run_catch_stops();
    const char *hook = getenv("MLAB_RUN_TEST_STOP_AFTER"); /* a test hook: SIGTERM after case N */
    size_t stop_after = hook && *hook ? (size_t)strtoul(hook, NULL, 10) : 0;
    size_t cases_done = 0;
    for (size_t j = 0; j < npick && !mlab_run_stop_sig; j++) {
        const run_item *it = &items[pick[j]];
        const double t_case = mlab_now_s(); /* the input's wall_s: from here to its last row */
        mlab_case c;
        mlab_input_file in;
        memset(&in, 0, sizeof in);
        if (it->path) {
            rc = mlab_h5_read_case(it->path, &c, why, sizeof why);
            if (rc) {
                const char *hint = rc == MLAB_EXIT_IO ? list_words_hint(&lw, it->path) : NULL;
                if (hint) /* --batch 4 32: "32: cannot open: ... (a list is one word: --batch 4,32)" */
                    fprintf(stderr, "mlabench run: %s (%s)\n", why, hint);
                else
                    fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            snprintf(in.path, sizeof in.path, "%s", it->path);
        } else {
            mlab_gen_spec s;
            if (it->is_default)
                mlab_default_spec(&s);
            else
                mlab_sweep_spec(&w, it->gen_index, &s);
            rc = mlab_gen_case(&s, &c, why, sizeof why);
            if (rc) {
                fprintf(stderr, "mlabench run: %s\n", why);
                goto out_results;
            }
            snprintf(in.path, sizeof in.path, "%s", it->is_default ? "(embedded default case)"
                                                                    : "(generated in memory, as mlabench gen)");
        }
        if (mlab_tensor_hash_case(&c, &in, why, sizeof why)) {
            fprintf(stderr, "mlabench run: %s\n", why);
            mlab_case_free(&c);
            rc = MLAB_EXIT_INTERNAL;
            goto out_results;
        }
        /* a case --resume's file stopped in: its rows dropped, run again whole */
        const size_t k = kept_find(&kept, c.name);
        for (size_t i = 0; i < cut.n; i++)
            if (strcmp(c.name, cut.name[i]) == 0 && !cut.ran[i]) {
                mlab_results_drop_case(&res, cut.name[i]);
                if (k < kept.n)
                    kept.state[k] = KEPT_CUT;
                cut.ran[i] = 1;
            }
        /* the case's input already in the results: kept from --resume's
         * file and not named before (the same tensors, not run again), or
         * one this run added (the case twice) */
        const mlab_input_file *had = mlab_results_find_input(&res, c.name);
        if (had && k < kept.n && kept.state[k] == KEPT_UNNAMED) {
            kept.state[k] = KEPT_NAMED;
            if (strcmp(had->sha256, in.sha256) != 0) {
                fprintf(stderr, "mlabench run: --resume: %s: case %s has other tensors than in %s "
                                "(sha256 %.12s against %.12s): not the run it continues (exit 10)\n",
                        in.path, c.name, o.resume, in.sha256, had->sha256);
                mlab_case_free(&c);
                rc = MLAB_EXIT_MISMATCH;
                goto out_results;
            }
            printf("mlabench run: case %s: kept from %s\n", c.name, o.resume);
            mlab_case_free(&c);
            cases_done++;
            continue;
        }
        if (had) { /* a case twice (also a kept one) would give two rows a (case,
                    * variant): compare would pair one of them, merge would refuse the file */
            fprintf(stderr, "mlabench run: %s: case %s is already in this run (%s): each case once%s\n", in.path,
                    c.name, had->path, it->path ? " (two files of one case: mlabench import --name renames one)" : "");
            mlab_case_free(&c);
            rc = MLAB_EXIT_USAGE;
            goto out_results;
        }
        snprintf(in.schema, sizeof in.schema, "%s", MLAB_CASE_FORMAT);
        in.schema_version = MLAB_CASE_VERSION;
        snprintf(in.case_name, sizeof in.case_name, "%s", c.name);
        mlab_results_add_input(&res, &in);
        const size_t in_index = res.ninputs - 1;
        if (npick > 1 && !o.quiet)
            mlab_progress_line(&mlab_run_progress, "mlabench run: case %zu/%zu: %s", j + 1, npick, c.name);

        float *refs[MLAB_RUN_NREFS] = {0};
        rc = mlab_run_cpu_half(&c, &o, &res, refs, why, sizeof why);
        if (!rc && g && !o.peers_only && !mlab_run_stop_sig)
            rc = mlab_run_gpu_half(g, &c, &o, &res, refs, copy_bw, &failed, why, sizeof why);
        if (!rc && mlab_run_stop_sig)
            ; /* stopped: no peer starts */
        else if (!rc && o.npeers && (g || getenv("MLAB_PEER_DEVICE")))
            rc = mlab_run_peers_half(g, &c, it->path, &o, &res.env, &res, refs, &failed, why,
                                     sizeof why);
        else if (!rc && o.npeers)
            printf("peers skipped: no GPU (MLAB_PEER_DEVICE=cuda runs them on a GPU this "
                   "build has no back end for)\n");
        for (size_t r = 0; r < MLAB_RUN_NREFS; r++)
            free(refs[r]);
        mlab_case_free(&c);
        if (rc == MLAB_EXIT_HANG) { /* a kernel that never ends: the rows before it kept, as a stop's */
            fprintf(stderr, "mlabench run: %s\n", why);
            snprintf(res.env.stopped_case, sizeof res.env.stopped_case, "%s", in.case_name);
            snprintf(res.env.stopped, sizeof res.env.stopped, "a hang in case %zu of %zu (%s)", j + 1, npick,
                     in.case_name);
            hung = 1;
            break;
        }
        if (mlab_run_stop_sig) { /* what failed with the stop (a peer taken down) is the stop's */
            snprintf(res.env.stopped_case, sizeof res.env.stopped_case, "%s", in.case_name);
            snprintf(res.env.stopped, sizeof res.env.stopped, "%s in case %zu of %zu (%s)",
                     mlab_run_stop_name(mlab_run_stop_sig), j + 1, npick, in.case_name);
            break;
        }
        if (rc) {
            fprintf(stderr, "mlabench run: %s\n", why);
            goto out_results;
        }
        res.inputs[in_index].wall_s = mlab_now_s() - t_case; /* a whole case's (not a stopped one's) */
        if (++cases_done == stop_after)
            raise(SIGTERM);
    }
    for (size_t i = 0; i < cut.n && !mlab_run_stop_sig; i++)
        if (!cut.ran[i]) /* not among this run's cases */
            fprintf(stderr, "mlabench run: --resume: %s stopped in case %s, which this run does not include: "
                            "its rows are kept as they were (incomplete)\n", o.resume, cut.name[i]);
    if (mlab_run_stop_sig && !res.env.stopped[0]) /* between two cases */
        snprintf(res.env.stopped, sizeof res.env.stopped, "%s after %zu of %zu cases",
                 mlab_run_stop_name(mlab_run_stop_sig), cases_done, npick);
    if (g && !hung && !mlab_run_stop_sig && cases_done)
        idle_check(g, idle_win, &res.env, "at the run's end");
    rc = failed ? MLAB_EXIT_ACCURACY : MLAB_EXIT_OK;
    mlab_results_fill_read_limits(&res); /* the peers' rows: their case's read limit */
    if (o.out) {
        int wrc = mlab_results_write(o.out, &res, why, sizeof why);
        if (wrc) {
            fprintf(stderr, "mlabench run: %s\n", why);
            rc = wrc;
        } else {
            printf("\nresults: %s (%zu rows)\n", o.out, res.nrows);
        }
    }
    if (failed)
        fprintf(stderr, "mlabench run: a variant or peer failed validation%s\n",
                mlab_run_stop_sig || hung ? "" : " (exit 5)");
    /* a stop (a hang, or a signal): the rows measured are written above: said, and its own exit */
    const int stop_rc = hung ? MLAB_EXIT_HANG : mlab_run_stop_sig ? 128 + (int)mlab_run_stop_sig : 0;
    if (stop_rc) {
        fprintf(stderr, "mlabench run: stopped by %s: %s%s (exit %d)\n", res.env.stopped,
                o.out ? "the results file holds the rows measured before it: " : "nothing written (no -o)",
                o.out ? o.out : "", stop_rc);
        if (!rc || rc == MLAB_EXIT_ACCURACY)
            rc = stop_rc;
    }
    if (hung) { /* the device left as it is: no free, no runtime teardown at exit (each would wait on the kernel) */
        fflush(NULL);
        _exit(rc);
    }
out_results:
    if (g)
        mlab_gpu_close(g);
    mlab_results_free(&res);
done:
    free(o.peers);
    free(items);
    free(pick);
    free(kept.name);
    free(kept.state);
    mlab_sweep_free(&w);
    return rc;
}

int mlab_cmd_tolerances(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(argc > 1 && strcmp(argv[1], "--help") ? stderr : stdout,
                "usage: mlabench tolerances   (prints reference/metrics.c's table as Markdown)\n");
        return strcmp(argv[1], "--help") ? MLAB_EXIT_USAGE : MLAB_EXIT_OK;
    }
    size_t n;
    const mlab_tol *t = mlab_tol_table(&n);
    printf("| comparison | rtol | atol (x rms(ref)) | max rel RMS | max cos diff | outliers allowed | reason |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < n; i++) {
        char out[64] = "none";
        if (t[i].max_mismatch_frac > 0)
            snprintf(out, sizeof out, "%.3g of outputs, each < %.3g atol", t[i].max_mismatch_frac,
                     t[i].max_abs_atols);
        printf("| %s | %.4g | %.4g | %.3g | %.3g | %s | %s |\n", t[i].name, t[i].rtol, t[i].atol,
               t[i].max_rel_rms, t[i].max_cos_diff, out, t[i].reason);
    }
    return MLAB_EXIT_OK;
}
