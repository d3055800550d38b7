/* cmd_export.c: `mlabench export RESULTS ...` -> the tidy table (CSV or
 * JSON, results_cli.h's mlab_tidy_write), or one file's raw samples. */
#include <string.h>

#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_out_*, mlab_put_* */
#include "results_tidy.h" /* mlab_tidy_write */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench export RESULTS [RESULTS2 ...] [-o FILE] [--format csv|json]\n"
            "                       [--order file|series]\n"
            "       mlabench export RESULTS --samples [-o FILE.csv]\n"
            "  Writes results files as one tidy (long-format) table: one line per (run,\n"
            "  case, variant), to stdout without -o (with -o through a temporary renamed\n"
            "  into place). Columns: the run's own (run_index, file, label, date, gpu,\n"
            "  runtime, driver, commit, dirty, backend, copy_bw_gbs, read_bw_gbs), then\n"
            "  derived ones (case_index: cases ordered by bytes; variant_index; parent;\n"
            "  timed; floor_us, floor_gbps, floor_kind: the row's read limit when\n"
            "  measured, else its bytes at copy bandwidth; ratio_to_floor;\n"
            "  ratio_to_parent; rel_to_first: median / the same row's in the first run;\n"
            "  tol_max_rel_rms; case_wall_s: the seconds the run spent on the row's case),\n"
            "  then every field of /rows in file order (data/README.md).\n"
            "  The plots (plots/*.gp) read this CSV. Numbers as %%.9g.\n"
            "  --order series lines by (case_index, variant_index, run_index): each row's\n"
            "                 history in consecutive lines (plots/history.gp wants it);\n"
            "                 default file: run after run, rows in file order\n"
            "  --format json  the same table as {\"columns\": [...], \"rows\": [{...}, ...]}\n"
            "  --samples      the raw samples of one file instead, long format:\n"
            "                 case_name,variant,sample_index,us\n"
            "  -o, --output FILE  write there (atomically) instead of stdout (- is stdout)\n"
            "exit codes: 0 ok, 2 usage, 3 not a results file, 4 cannot read or write\n");
}

static void write_samples_csv(FILE *f, const mlab_results *r)
{
    fprintf(f, "case_name,variant,sample_index,us\n");
    for (size_t i = 0; i < r->nrows; i++) {
        const mlab_row *row = &r->rows[i];
        for (size_t k = 0; k < row->nsamples && row->samples_us; k++) {
            mlab_put_str(f, row->case_name, MLAB_FMT_CSV);
            fputc(',', f);
            mlab_put_str(f, row->variant, MLAB_FMT_CSV);
            fprintf(f, ",%zu,", k);
            mlab_put_num(f, row->samples_us[k], "%.9g", MLAB_FMT_CSV);
            fputc('\n', f);
        }
    }
}

int mlab_cmd_export(int argc, char **argv)
{
    const char *cmd = "export", *out = NULL;
    int samples = 0, style = MLAB_FMT_CSV, series = 0, c;
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},          {"output", required_argument, NULL, 'o'},
        {"samples", no_argument, NULL, 's'},       {"format", required_argument, NULL, 'F'},
        {"order", required_argument, NULL, 'O'},   {NULL, 0, NULL, 0}};
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return MLAB_EXIT_OK;
        case 'o': out = optarg; break;
        case 's': samples = 1; break;
        case 'O':
            if (strcmp(optarg, "file") && strcmp(optarg, "series"))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--order: '%s' is not file or series",
                                    optarg);
            series = strcmp(optarg, "series") == 0;
            break;
        case 'F':
            style = mlab_fmt_parse(optarg);
            if (style != MLAB_FMT_CSV && style != MLAB_FMT_JSON)
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--format: '%s' is not csv or json",
                                    optarg);
            break;
        default: usage(stderr); return MLAB_EXIT_USAGE;
        }
    }
    int n = argc - optind;
    if (n < 1) {
        usage(stderr);
        return MLAB_EXIT_USAGE;
    }
    if (samples && (n > 1 || style != MLAB_FMT_CSV))
        return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--samples: one results file, CSV only");
    mlab_run_file *runs;
    int rc = mlab_cli_out_check(cmd, out, (const char *const *)argv + optind, n);
    if (!rc)
        rc = mlab_runs_load(cmd, (const char *const *)argv + optind, n, &runs);
    if (rc)
        return rc;
    mlab_outfile o;
    rc = mlab_out_open(cmd, &o, out);
    if (rc == MLAB_EXIT_OK) {
        int bad = 0;
        if (samples)
            write_samples_csv(o.f, &runs[0].r);
        else
            bad = mlab_tidy_write(o.f, runs, n, (mlab_fmt)style, series) != 0;
        rc = mlab_out_close(cmd, &o, !bad);
        if (bad && !rc)
            rc = mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
    }
    mlab_runs_free(runs, n);
    return rc;
}
