/* cmd_export.c: `mlabench export RESULTS` -> CSV (commands.h). One header
 * line, then one line per (case, variant) with every field of /rows in file
 * order; --samples writes the raw samples in long format instead. */
#include <string.h>

#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_out_*, mlab_put_* */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench export RESULTS [-o FILE.csv] [--samples]\n"
            "  Writes a results file as CSV (to stdout without -o; with -o through a\n"
            "  temporary renamed into place). One header line, then one line per\n"
            "  (case, variant) with every field of the file's /rows in its order\n"
            "  (data/README.md): identity, samples and stop reason, median/q1/q3/min/\n"
            "  mean/stdev in us, bytes, flops, GB/s, %% of copy bandwidth, TFLOP/s,\n"
            "  then kernel_* and total_* error metrics. Numbers as %%.9g.\n"
            "  --samples  the raw samples instead, long format:\n"
            "             case_name,variant,sample_index,us\n"
            "exit codes: 0 ok, 2 usage, 3 not a results file, 4 cannot read or write\n");
}

static void write_rows_csv(FILE *f, const mlab_results *r)
{
    size_t nf;
    const mlab_field *fl = mlab_row_fields(&nf);
    for (size_t k = 0; k < nf; k++)
        fprintf(f, "%s%s", k ? "," : "", fl[k].name);
    fputc('\n', f);
    for (size_t i = 0; i < r->nrows; i++) {
        for (size_t k = 0; k < nf; k++) {
            if (k)
                fputc(',', f);
            mlab_put_field(f, &r->rows[i], &fl[k], MLAB_FMT_CSV);
        }
        fputc('\n', f);
    }
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
    int samples = 0, c;
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'}, {"output", required_argument, NULL, 'o'},
        {"samples", no_argument, NULL, 's'}, {NULL, 0, NULL, 0}};
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return MLAB_EXIT_OK;
        case 'o': out = optarg; break;
        case 's': samples = 1; break;
        default: return MLAB_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        usage(stderr);
        return argc - optind > 1 ? mlab_cli_err(cmd, MLAB_EXIT_USAGE, "one results file at a time")
                                 : MLAB_EXIT_USAGE;
    }
    mlab_results r;
    int rc = mlab_cli_load(cmd, argv[optind], &r);
    if (rc)
        return rc;
    mlab_outfile o;
    rc = mlab_out_open(cmd, &o, out);
    if (rc == MLAB_EXIT_OK) {
        if (samples)
            write_samples_csv(o.f, &r);
        else
            write_rows_csv(o.f, &r);
        rc = mlab_out_close(cmd, &o, 1);
    }
    mlab_results_free(&r);
    return rc;
}
