/* cmd_merge.c: `mlabench merge A.h5 B.h5 ... -o ALL.h5` (commands.h): the
 * results files of one sweep (slices run on several GPUs or hosts) joined
 * into one, so that compare, plot and report see the whole sweep.
 *
 * One sweep means one build on one kind of GPU and software: the fields in
 * must_match[] agree in every file, and no (case, variant) is in two files;
 * otherwise merge refuses (exit 10) naming the file and the field. Each row
 * keeps where it ran: gpu_uuid, host and device_index, filled from its file's
 * environment when empty (version-1 files, or writers that left them). The
 * merged environment is the first file's, with the fields that differ
 * between files (a device's uuid and index, the host) emptied (-1 for the
 * index), the latest utc_time, and merge's own command line. Written
 * atomically (mlab_results_write).
 */
#include <limits.h> /* PATH_MAX */
#include <string.h>

#include "atomic.h" /* mlab_output_file_check */
#include "commands.h"
#include "env.h" /* mlab_env_fill_host */
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_runs_load, mlab_field_* */
#include "results_write.h" /* mlab_results_write */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench merge A.h5 B.h5 ... -o ALL.h5\n"
            "  Joins the results files of one sweep (slices of the cases run on several\n"
            "  GPUs or hosts) into one results file, written atomically. Every file must\n"
            "  come from one build on one kind of GPU and software: these environment\n"
            "  fields must be equal in all files:\n"
            "    mlabench_version git_commit git_dirty compiler compile_flags gpu_backend\n"
            "    gpu_compiler gpu_compile_flags kernel_knobs gpu_name runtime_version\n"
            "    driver_version\n"
            "  and no (case, variant) may be in two files. Each row keeps its device and\n"
            "  host (gpu_uuid, host, device_index; taken from its file's environment when\n"
            "  the row has none). The merged environment is the first file's, with\n"
            "  gpu_uuid, gpu_index and host emptied (-1) when the files differ there, the\n"
            "  latest utc_time, a label only when all files share it, the first stopped\n"
            "  run's note (run, exit 130/143) when a file has one, every file's case it\n"
            "  stopped in (stopped_case: run --resume ALL.h5 runs each again), and this\n"
            "  command line.\n"
            "  -o, --output ALL.h5   the merged file (required)\n"
            "exit codes: 0 ok, 2 usage, 3 not a results file, 4 cannot read or write,\n"
            "  10 refused: the files are not one sweep (the field is named)\n");
}

/* Refuse files of different sweeps and rows found twice (exit 10), and more
 * cases stopped in than stopped_case holds (exit 2); else 0. */
static int check_one_sweep(const char *cmd, const mlab_run_file *runs, int n)
{
    for (int k = 1; k < n; k++) {
        const mlab_field *fl = mlab_env_build_differs(&runs[0].r.env, &runs[k].r.env);
        if (!fl)
            continue;
        /* the first file's value -> this one's (of a long field of words, the words that differ) */
        fprintf(stderr, "mlabench %s: %s: %s differs from %s's: ", cmd, runs[k].path, fl->name, runs[0].path);
        mlab_put_field_change(stderr, &runs[0].r.env, &runs[k].r.env, fl);
        fprintf(stderr, ": not one sweep (exit 10)\n");
        return MLAB_EXIT_MISMATCH;
    }
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < runs[k].r.nrows; i++) {
            const mlab_row *w = &runs[k].r.rows[i];
            for (int j = 0; j <= k; j++)
                for (size_t l = 0; l < (j == k ? i : runs[j].r.nrows); l++) {
                    const mlab_row *x = &runs[j].r.rows[l];
                    if (strcmp(w->case_name, x->case_name) == 0 &&
                        strcmp(w->variant, x->variant) == 0)
                        return mlab_cli_err(cmd, MLAB_EXIT_MISMATCH,
                                            "%s: row %s/%s is also in %s: not one sweep "
                                            "(exit 10)",
                                            runs[k].path, w->case_name, w->variant, runs[j].path);
                }
        }
    /* the cases the files stopped in, one a line: they must fit one field */
    size_t len = 0;
    for (int k = 0; k < n; k++)
        if (runs[k].r.env.stopped_case[0])
            len += strlen(runs[k].r.env.stopped_case) + 1;
    if (len > sizeof runs[0].r.env.stopped_case)
        return mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                            "the cases the files stopped in take %zu bytes, at most %zu: resume the "
                            "stopped files first (run --resume F.h5 -o F.h5), then merge (exit 2)",
                            len - 1, sizeof runs[0].r.env.stopped_case - 1);
    return MLAB_EXIT_OK;
}

static int merge_into(mlab_results *m, const mlab_run_file *runs, int n, int argc, char **argv)
{
    m->env = runs[0].r.env;
    for (int k = 1; k < n; k++) {
        const mlab_env *e = &runs[k].r.env;
        if (strcmp(e->gpu_uuid, m->env.gpu_uuid) != 0)
            m->env.gpu_uuid[0] = 0;
        if (strcmp(e->host, m->env.host) != 0)
            m->env.host[0] = 0;
        if (strcmp(e->label, m->env.label) != 0)
            m->env.label[0] = 0;
        if (e->gpu_index != m->env.gpu_index)
            m->env.gpu_index = -1;
        mlab_env_note_busy(&m->env, e->idle_busy_pct); /* another process on any slice's GPU */
        if (strcmp(e->utc_time, m->env.utc_time) > 0)
            snprintf(m->env.utc_time, sizeof m->env.utc_time, "%s", e->utc_time);
        if (!m->env.stopped[0] && e->stopped[0]) /* a slice stopped early: the whole is partial */
            snprintf(m->env.stopped, sizeof m->env.stopped, "%s", e->stopped);
        if (e->stopped_case[0]) { /* its partial case: every slice's (fits: check_one_sweep) */
            size_t l = strlen(m->env.stopped_case);
            snprintf(m->env.stopped_case + l, sizeof m->env.stopped_case - l, "%s%s", l ? "\n" : "",
                     e->stopped_case);
        }
    }
    mlab_env here;
    memset(&here, 0, sizeof here);
    mlab_env_fill_host(&here, argc, argv);
    snprintf(m->env.command_line, sizeof m->env.command_line, "%s", here.command_line);

    for (int k = 0; k < n; k++) {
        const mlab_results *r = &runs[k].r;
        for (size_t i = 0; i < r->nrows; i++) {
            mlab_row w = r->rows[i];
            if (!w.gpu_uuid[0] && !mlab_row_is_cpu(&w)) { /* a CPU row ran on no GPU: device_index -1 */
                snprintf(w.gpu_uuid, sizeof w.gpu_uuid, "%s", r->env.gpu_uuid);
                w.device_index = r->env.gpu_index;
            }
            if (!w.host[0])
                snprintf(w.host, sizeof w.host, "%s", r->env.host);
            if (mlab_results_add_row(m, &w))
                return -1;
        }
        for (size_t i = 0; i < r->ninputs; i++) {
            const mlab_input_file *in = &r->inputs[i];
            int dup = 0;
            for (size_t j = 0; j < m->ninputs && !dup; j++)
                dup = strcmp(m->inputs[j].case_name, in->case_name) == 0 &&
                      strcmp(m->inputs[j].sha256, in->sha256) == 0;
            if (!dup && mlab_results_add_input(m, in))
                return -1;
        }
    }
    return 0;
}

int mlab_cmd_merge(int argc, char **argv)
{
    const char *cmd = "merge", *out = NULL;
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'}, {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0}};
    int c;
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return MLAB_EXIT_OK;
        case 'o': out = optarg; break;
        default: usage(stderr); return MLAB_EXIT_USAGE;
        }
    }
    int n = argc - optind;
    if (!out || n < 1) {
        usage(stderr);
        return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "%s",
                            !out ? "-o ALL.h5 is required" : "no results files to merge");
    }
    mlab_run_file *runs; /* -o never replaces an input, nor anything but a regular file (atomic.h) */
    char why[PATH_MAX + 512];
    int rc = mlab_output_file_check(out, (const char *const *)argv + optind, n, why, sizeof why);
    if (rc)
        return mlab_cli_err(cmd, rc, "%s", why);
    if (!rc)
        rc = mlab_runs_load(cmd, (const char *const *)argv + optind, n, &runs);
    if (rc)
        return rc;
    mlab_results m;
    mlab_results_init(&m);
    if ((rc = check_one_sweep(cmd, runs, n)))
        goto done;
    if (merge_into(&m, runs, n, argc, argv)) {
        rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        goto done;
    }
    rc = mlab_results_write(out, &m, why, sizeof why);
    if (rc)
        mlab_cli_err(cmd, rc, "%s", why);
    else
        printf("%s: %zu rows from %d files\n", out, m.nrows, n);
done:
    mlab_results_free(&m);
    mlab_runs_free(runs, n);
    return rc;
}
