/* reason.h: the one-line reason a harness module hands back with its exit
 * code (README.md, "Errors").
 *
 * Modules do not print. A function returns an MLAB_EXIT_* code
 * (exitcodes.h) and, on failure, writes one line into the caller's
 * `char *why, size_t whylen` buffer; the command (cmd_*.c, main.c) prints
 * it. mlab_fail is the one formatter of that line:
 *   "<path>: <what>"                 obj NULL
 *   "<path>: <obj>: <what>"          e.g. "c.h5: /q: stored as float32, ..."
 *   "<path>: <obj> = <value>: ..."   when what starts with "= "
 *                                    ("c.h5: attribute batch = 0: must be ...")
 * The path's control characters and every byte of what from 0x80 on are
 * escaped (mlab_escape), so the strings of a hostile file never reach the
 * terminal raw and the reason stays one line. */
#ifndef MLAB_REASON_H
#define MLAB_REASON_H

#include <stddef.h>

/* Where a failure's reason goes: the file it names and the caller's buffer
 * (why may be NULL: the code alone is returned). */
typedef struct {
    const char *path;
    char *why;
    size_t whylen;
} mlab_why;

/* Write the reason (format above) into w->why and return code. */
int mlab_fail(const mlab_why *w, int code, const char *obj, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Text from a file (or a path) made safe for a one-line message: control
 * characters become \n, \t, \r or \xNN; with all_bytes, bytes from 0x80 on
 * become \xNN too (a mutated string is seldom valid UTF-8, and U+0085 or
 * U+2028 would break a line). Writes at most len bytes, NUL included;
 * returns buf. */
const char *mlab_escape(const char *s, char *buf, size_t len, int all_bytes);

/* A name's first byte that cannot be in a case name or a label (a control
 * character, and with no_slash '/': names become file names), or NULL: the
 * one rule of gen's and import's --name, run's --label and a case file's
 * name attribute. */
const char *mlab_name_bad_char(const char *s, int no_slash);

#endif
