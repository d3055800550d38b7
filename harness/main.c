/* main.c: the mlabench program: one binary, subcommands (commands.h). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "build_info.h"
#include "commands.h"
#include "exitcodes.h"
#include "guard.h" /* mlab_h5_silence */

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} cmds[] = {
    {"gen", mlab_cmd_gen, "write case files: the competition suite or a custom case"},
    {"check", mlab_cmd_check, "validate case files, say what is wrong (exit 3)"},
    {"run", mlab_cmd_run, "reference + GPU variants on cases: errors, times, results file"},
    {"export", mlab_cmd_export, "results file -> CSV or JSON"},
    {"compare", mlab_cmd_compare, "OLD NEW results: per-pair verdicts, exit 6 on regression"},
    {"plot", mlab_cmd_plot, "results file(s) -> gnuplot figures"},
    {"report", mlab_cmd_report, "results file -> Markdown report"},
    {"history", mlab_cmd_history, "results of several runs -> medians relative to the first"},
    {"merge", mlab_cmd_merge, "results files of one sweep -> one results file"},
    {"tolerances", mlab_cmd_tolerances, "print the tolerance table (Markdown)"},
    {"import", mlab_cmd_import, "own q/kv bf16 + indptrs -> a full case file (fp8, MXFP4, ref)"},
};

static void usage(FILE *f)
{
    fprintf(f, "mlabench %s (%s%s, gpu backend %s): MLA decode attention research harness\n\n",
            MLAB_VERSION, MLAB_GIT_COMMIT, MLAB_GIT_DIRTY ? "-dirty" : "", MLAB_GPU_BACKEND);
    fprintf(f, "usage: mlabench <command> [options]   (mlabench <command> --help)\n\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].what);
    fprintf(f, "\nexit codes: 0 ok, 1 internal error, 2 usage, 3 bad input, 4 I/O error,\n"
               "  5 accuracy failure, 6 regression found (compare), 7 different GPUs (compare),\n"
               "  8 nothing paired (compare), 9 different inputs (compare), 10 merge refused,\n"
               "  77 no usable GPU, or no variant asked for can run here\n");
}

int main(int argc, char **argv)
{
    mlab_h5_silence(); /* libhdf5 prints nothing: every error is one line of ours */
    /* past a file size limit (ulimit -f) a write fails with EFBIG, reported
     * as a full disk is (exit 4, the temporary removed), not a kill */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return MLAB_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return MLAB_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("mlabench %s %s%s\n", MLAB_VERSION, MLAB_GIT_COMMIT, MLAB_GIT_DIRTY ? "-dirty" : "");
        return MLAB_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "mlabench: unknown command '%s' (mlabench --help lists them)\n", argv[1]);
    return MLAB_EXIT_USAGE;
}
