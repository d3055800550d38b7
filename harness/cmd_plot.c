/* cmd_plot.c: `mlabench plot RESULTS` (commands.h): a thin driver. It writes
 * the tidy table of `mlabench export` beside the figures and runs each
 * gnuplot script of plots/ on it (gnuplot -c KIND.gp DATA.csv OUT FMT), the
 * command a user can type by hand. The figures' content lives in the
 * scripts. */
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "exitcodes.h"
#include "results_cli.h" /* mlab_cli_*, mlab_tidy_write, mlab_gnuplot_* */
#include "results_gnuplot.h" /* mlab_gnuplot_* */
#include "results_tidy.h"    /* mlab_tidy_write */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mlabench plot RESULTS [--out DIR] [--format png|svg|both] [--if-available]\n"
            "                     [--keep-data]\n"
            "  Draws with gnuplot (found on PATH) and the scripts in $MLAB_PLOTS_DIR\n"
            "  (default %s), into DIR (default: RESULTS's folder):\n"
            "    STEM.latency.FMT    cold median per case (ordered by bytes) and variant,\n"
            "                        q1..q3 bars, each row's floor as a dash, log y\n"
            "    STEM.bandwidth.FMT  fewest bytes / median per case and variant, floors\n"
            "    STEM.error.FMT      two panels: kernel rel_rms against its tolerance;\n"
            "                        total rel_rms against bf16 truth (CPU rows too)\n"
            "  STEM is RESULTS's name without .h5; one colour per variant name in every\n"
            "  figure. The data is `mlabench export RESULTS` written to DIR/STEM.csv,\n"
            "  removed afterwards unless --keep-data; then by hand:\n"
            "    gnuplot -c plots/latency.gp DIR/STEM.csv\n"
            "  Over several runs: mlabench history (plot's old --history option is refused,\n"
            "  saying so).\n"
            "  --if-available  without gnuplot, say \"gnuplot not found: plots skipped\", exit 0\n"
            "exit codes: 0 ok, 2 usage, 3 not a results file, 4 cannot read/write, or\n"
            "  gnuplot not found (without --if-available), 1 gnuplot failed\n",
            mlab_plots_dir());
}

int mlab_cmd_plot(int argc, char **argv)
{
    const char *cmd = "plot", *out_dir = NULL, *format = "png";
    int if_available = 0, keep = 0, c;
    static const struct option longs[] = {
        {"help", no_argument, NULL, 'h'},         {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'F'}, {"if-available", no_argument, NULL, 'A'},
        {"keep-data", no_argument, NULL, 'k'},    {"history", no_argument, NULL, 'H'},
        {NULL, 0, NULL, 0}};
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt(cmd, argc, argv, "ho:", longs)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return MLAB_EXIT_OK;
        case 'o': out_dir = optarg; break;
        case 'F':
            format = optarg;
            if (strcmp(format, "png") && strcmp(format, "svg") && strcmp(format, "both"))
                return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "--format: '%s' is not png, svg or both",
                                    format);
            break;
        case 'A': if_available = 1; break;
        case 'k': keep = 1; break;
        case 'H':
            return mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                                "--history is now its own command: mlabench history R1.h5 R2.h5 ...");
        default: usage(stderr); return MLAB_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        usage(stderr);
        return argc - optind > 1 ? mlab_cli_err(cmd, MLAB_EXIT_USAGE,
                                                "one RESULTS file (several runs: mlabench history)")
                                 : MLAB_EXIT_USAGE;
    }
    const char *in = argv[optind];
    mlab_run_file *run; /* read first: a bad file is exit 3 with gnuplot or without */
    int rc = mlab_runs_load(cmd, &in, 1, &run);
    if (rc)
        return rc;
    const mlab_results *r = &run[0].r;
    char gnuplot[4096], dir[4096], stem[1024], data[8192] = "";
    mlab_gnuplot_find(gnuplot, sizeof gnuplot);
    if (!gnuplot[0]) {
        if (if_available)
            printf("gnuplot not found: plots skipped\n");
        else
            rc = mlab_cli_err(cmd, MLAB_EXIT_IO,
                              "gnuplot not found on PATH (install gnuplot-nox; --if-available skips plots)");
        goto done;
    }
    if (!out_dir)
        mlab_path_dir(in, dir, sizeof dir);
    else
        snprintf(dir, sizeof dir, "%s", out_dir);
    mlab_path_stem(in, stem, sizeof stem);
    if ((rc = mlab_make_dir(cmd, dir)))
        goto done;
    int ntimed = 0, nerr = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        ntimed += mlab_row_timed(&r->rows[i]);
        nerr += r->rows[i].kernel_err.n > 0 || r->rows[i].total_err.n > 0;
    }
    if (r->nrows == 0)
        printf("%s: no rows: nothing to plot\n", in);
    else if (ntimed == 0)
        printf("%s: no GPU-timed rows: latency and bandwidth skipped\n", in);
    if (r->nrows > 0 && nerr == 0)
        printf("%s: no error metrics: error figure skipped\n", in);
    snprintf(data, sizeof data, "%s/%s.csv", dir, stem);
    mlab_outfile o;
    if ((rc = mlab_out_open(cmd, &o, data))) {
        data[0] = 0;
        goto done;
    }
    int bad = mlab_tidy_write(o.f, run, 1, MLAB_FMT_GPCSV, 0) != 0;
    if ((rc = mlab_out_close(cmd, &o, !bad)) || bad) {
        rc = rc ? rc : mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
        data[0] = 0;
        goto done;
    }
    static const char *fmts[2] = {"png", "svg"};
    int f0 = strcmp(format, "svg") == 0, f1 = strcmp(format, "png") != 0;
    static const char *kinds[3] = {"latency", "bandwidth", "error"};
    for (int fi = f0; fi <= f1 && rc == MLAB_EXIT_OK; fi++)
        for (int k = 0; k < 3 && rc == MLAB_EXIT_OK; k++) {
            if ((k < 2 && ntimed == 0) || (k == 2 && nerr == 0))
                continue;
            char fig[8192];
            snprintf(fig, sizeof fig, "%s/%s.%s.%s", dir, stem, kinds[k], fmts[fi]);
            rc = mlab_gnuplot_run(cmd, gnuplot, kinds[k], data, fig, fmts[fi], NULL);
        }
done:
    if (data[0] && !keep)
        unlink(data);
    mlab_runs_free(run, 1);
    return rc;
}
