/* args.h: strict parsing of command-line values. Each returns 0 on success,
 * or prints "mlabench <cmd>: <opt>: <why>" and returns -1. */
#ifndef MLAB_ARGS_H
#define MLAB_ARGS_H

#include <stddef.h> /* size_t */
#include <stdint.h>

int mlab_arg_int(const char *cmd, const char *opt, const char *s, long lo, long hi, int *out);
int mlab_arg_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
int mlab_arg_double(const char *cmd, const char *opt, const char *s, double *out);
/* Comma-separated ints each in [lo, hi]; *out malloc'd, *n its count. An
 * item that is no integer at all ("4 32", "4;32") gets hint after the
 * message (NULL: none; e.g. " (a list: --batch 4,32)"). */
int mlab_arg_int_list(const char *cmd, const char *opt, const char *s, long lo, long hi, const char *hint,
                      int **out, int *n);
/* A name given by the user that tables print and files keep (--name,
 * --label): 1..max bytes, no control characters (a newline or an escape
 * sequence would reach every terminal printing it), and no '/' where
 * no_slash (a case name becomes a file name). */
int mlab_arg_name(const char *cmd, const char *opt, const char *s, size_t max, int no_slash);
/* After getopt_long returned c: an option that takes a value, given a second
 * time, is refused ("--opt given twice: give it once"; MLAB_EXIT_USAGE):
 * the last would win silently (-o twice: one file written, the other not; a
 * sweep script's own --slice or -o replaced by the user's). seen: the
 * caller's flags, nseen of them, one per entry of longopts (its NULL entry
 * may have one or not), zeroed before parsing: a table with more entries
 * than flags is refused on every call, whatever c is ("internal error",
 * MLAB_EXIT_INTERNAL), never a repeat let through unchecked. 0, or the exit
 * code after one printed line. */
struct option;
int mlab_arg_once(const char *cmd, const struct option *longopts, int c, unsigned char *seen, size_t nseen);
/* mlab_arg_once with hint after the "given twice" message (NULL or "": none;
 * the case options that take a list: " (a list: --batch 4,32)") */
int mlab_arg_once_hint(const char *cmd, const struct option *longopts, int c, unsigned char *seen, size_t nseen,
                       const char *hint);
/* The value after option argv[*i]; advances *i. NULL (with a message) if missing. */
const char *mlab_arg_value(const char *cmd, int argc, char **argv, int *i);

/* After getopt_long (optstring starting with ':', opterr = 0) returned c:
 * when c is '?' (unknown option, or a value given to an option that takes
 * none) or ':' (a value missing), print one line naming the option and
 * return 1; else return 0. */
int mlab_arg_getopt_error(const char *cmd, int c, char **argv);

#endif
