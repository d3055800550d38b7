/* commands.h: the subcommands of the mlabench program. main.c parses the
 * first word and calls one of these with the remaining arguments (argv[0] is
 * the subcommand's name). Each returns an MLAB_EXIT_* code (exitcodes.h) and
 * prints its own --help. Errors are one line on stderr: "mlabench <cmd>: ...". */
#ifndef MLAB_COMMANDS_H
#define MLAB_COMMANDS_H

int mlab_cmd_gen(int argc, char **argv);      /* cmd_case.c */
int mlab_cmd_check(int argc, char **argv);    /* cmd_case.c */
int mlab_cmd_run(int argc, char **argv);      /* cmd_run.c */
int mlab_cmd_export(int argc, char **argv);   /* cmd_export.c: results -> CSV */
int mlab_cmd_compare(int argc, char **argv);  /* cmd_compare.c: OLD NEW -> verdicts */
int mlab_cmd_plot(int argc, char **argv);     /* cmd_plot.c: results -> gnuplot figures */
int mlab_cmd_report(int argc, char **argv);   /* cmd_report.c: results -> Markdown */
int mlab_cmd_history(int argc, char **argv);  /* cmd_history.c: runs -> relative history */
int mlab_cmd_merge(int argc, char **argv);    /* cmd_merge.c: one sweep's files -> one */
int mlab_cmd_tolerances(int argc, char **argv); /* cmd_run.c: the tolerance table, Markdown */
int mlab_cmd_import(int argc, char **argv);   /* cmd_import.c: own q/kv -> a full case file */

#endif
