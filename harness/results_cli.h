/* results_cli.h: what the subcommands that read results files share
 * (cmd_export.c, cmd_compare.c, cmd_plot.c, cmd_report.c, cmd_history.c,
 * cmd_merge.c): option parsing, loading, atomic output files, the walk over
 * the field tables, number and string formatting for text, CSV, JSON and
 * Markdown, and small string lists. The tidy table is results_tidy.h, the
 * gnuplot runner results_gnuplot.h. Only the commands print; these helpers
 * print the one-line errors on the commands' behalf ("mlabench CMD: ...").
 */
#ifndef MLAB_RESULTS_CLI_H
#define MLAB_RESULTS_CLI_H

#include <getopt.h> /* struct option, optarg, optind */
#include <stddef.h>
#include <stdio.h>

#include "results.h" /* mlab_results, mlab_row, mlab_field */

/* Print "mlabench CMD: <message>" on stderr; returns code. */
int mlab_cli_err(const char *cmd, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* getopt_long with mlabench's messages: "--opt value" and "--opt=value"
 * both work, options and files may come in any order. Returns the option's
 * value, -1 at the end (files are then argv[optind..argc-1]), or '?' after
 * printing "unknown option 'X'", "X needs a value" or "--X given twice" (an
 * option with a value, given again: mlab_arg_once, one flag an entry of
 * longopts however long it is). Call mlab_cli_getopt_reset() before the
 * first call of a command. */
void mlab_cli_getopt_reset(void);
int mlab_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
                    const struct option *longopts);

/* Read a results file; on failure print its one-line reason, return its code. */
int mlab_cli_load(const char *cmd, const char *path, mlab_results *r);

/* An output file: stdout when path is NULL or "-", else a temporary that
 * mlab_out_close renames into place (with ok == 0 it is thrown away). */
typedef struct {
    FILE *f;
    const char *path;
    char tmp[4200];
} mlab_outfile;
int mlab_out_open(const char *cmd, mlab_outfile *o, const char *path);
/* -o must not be one of the n inputs, nor an existing non-regular file
 * (atomic.h, mlab_output_check); prints the reason. mlab_out_open checks the
 * second part itself. */
int mlab_cli_out_check(const char *cmd, const char *out, const char *const *in, int n);
int mlab_out_close(const char *cmd, mlab_outfile *o, int ok);

/* The file name without folder and without .h5/.hdf5; the folder ("." if none). */
void mlab_path_stem(const char *path, char *stem, size_t size);
void mlab_path_dir(const char *path, char *dir, size_t size);

/* Row kinds (schema v2: "gpu", "peer", "cpu"). A row is timed when it is a
 * GPU or peer row with samples; CPU reference rows are timed once on the
 * host, for information, and never compared for speed or drawn. */
int mlab_row_is_cpu(const mlab_row *w);
int mlab_row_timed(const mlab_row *w);

/* Output styles of a value */
typedef enum { MLAB_FMT_TEXT, MLAB_FMT_CSV, MLAB_FMT_JSON, MLAB_FMT_MD, MLAB_FMT_GPCSV } mlab_fmt;
/* MLAB_FMT_GPCSV: the CSV the gnuplot scripts read: nothing quoted, a '"'
 * inside a value written as '\'' and a ',' as ';' (gnuplot drops a line with
 * doubled quotes and cuts a quoted value at its comma). plot and history
 * write their data so; export writes RFC 4180. */
/* "text", "md", "csv", "json" -> style; -1 if none of them */
int mlab_fmt_parse(const char *s);

/* A number as fmt (e.g. "%.9g"); nan / inf / -inf spelled one way (JSON: null). */
void mlab_put_num(FILE *f, double v, const char *fmt, mlab_fmt style);
/* A string: CSV quoted when needed (RFC 4180), JSON escaped and quoted,
 * Markdown with '|' escaped and newlines flattened, text as is. */
void mlab_put_str(FILE *f, const char *s, mlab_fmt style);
/* One field of a record (an mlab_env or mlab_row) by its table entry. */
void mlab_put_field(FILE *f, const void *rec, const mlab_field *fl, mlab_fmt style);
/* 1 when a field differs between two records (NaN equals NaN) */
int mlab_field_differs(const void *a, const void *b, const mlab_field *fl);
/* A field's change from record a to record b, as text: "A -> B" ("(empty)"
 * for an empty string); of a long string of words (the build's
 * kernel_knobs, its compile flags: one or two words differ between two
 * builds of an A/B) only the words one side has and the other lacks, and
 * how many the two share ("wg_mx_kb=3 -> wg_mx_kb=2 (32 words the same)") */
void mlab_put_field_change(FILE *f, const void *a, const void *b, const mlab_field *fl);
/* The field named name, or NULL */
const mlab_field *mlab_field_find(const mlab_field *fl, size_t n, const char *name);
/* The first of the environment fields that make two results files one
 * build on one kind of GPU and software (mlabench_version, git_commit,
 * git_dirty, compiler, compile_flags, gpu_backend, gpu_compiler,
 * gpu_compile_flags, kernel_knobs, gpu_name, runtime_version,
 * driver_version) that differs between a and b, or NULL: merge joins only
 * such files, run --resume continues only such a run */
const mlab_field *mlab_env_build_differs(const mlab_env *a, const mlab_env *b);

typedef struct {
    const char *path;
    mlab_results r;
} mlab_run_file;

/* Load paths[0..n) into runs (allocated; free with mlab_runs_free). */
int mlab_runs_load(const char *cmd, const char *const *paths, int n, mlab_run_file **runs);
void mlab_runs_free(mlab_run_file *runs, int n);

/* A growing list of distinct strings */
typedef struct mlab_strlist {
    char **s;
    int n;
} mlab_strlist;
int mlab_strlist_add(mlab_strlist *l, const char *s); /* index; -1 out of memory */
int mlab_strlist_find(const mlab_strlist *l, const char *s); /* index or -1 */
int mlab_strlist_split(mlab_strlist *l, const char *csv); /* "a,b" added; -1 out of memory */
void mlab_strlist_free(mlab_strlist *l);

#endif
