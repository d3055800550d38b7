/* args.c: strict command-line value parsing (args.h). */
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h" /* MLAB_EXIT_USAGE, MLAB_EXIT_INTERNAL */
#include "reason.h"    /* mlab_escape, mlab_name_bad_char */

/* s as a decimal long: 0, or -1 when it is none (or past long) */
static int parse_long(const char *s, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return errno || end == s || *end ? -1 : 0;
}

int mlab_arg_int(const char *cmd, const char *opt, const char *s, long lo, long hi, int *out)
{
    long v;
    if (parse_long(s, &v) || v < lo || v > hi) {
        fprintf(stderr, "mlabench %s: %s: '%s' is not an integer in %ld..%ld\n", cmd, opt, s, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int mlab_arg_u64(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || !isdigit((unsigned char)s[0])) {
        fprintf(stderr, "mlabench %s: %s: '%s' is not a non-negative integer\n", cmd, opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

int mlab_arg_double(const char *cmd, const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end) {
        fprintf(stderr, "mlabench %s: %s: '%s' is not a number\n", cmd, opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

int mlab_arg_int_list(const char *cmd, const char *opt, const char *s, long lo, long hi, const char *hint,
                      int **out, int *n)
{
    int cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    int *v = malloc((size_t)cap * sizeof *v);
    char *dup = strdup(s);
    if (!v || !dup) {
        free(v);
        free(dup);
        fprintf(stderr, "mlabench %s: out of memory\n", cmd);
        return -1;
    }
    int k = 0;
    for (char *tok = dup, *next; tok; tok = next) { /* empty fields are errors */
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        long x;
        const int number = parse_long(tok, &x) == 0;
        if (!number || x < lo || x > hi) { /* no integer at all ("4 32", "4;32"): the list's form is the slip */
            fprintf(stderr, "mlabench %s: %s: '%s' is not an integer in %ld..%ld%s\n", cmd, opt, tok, lo, hi,
                    !number && hint ? hint : "");
            free(v);
            free(dup);
            return -1;
        }
        v[k] = (int)x;
        k++;
    }
    free(dup);
    if (k == 0) {
        fprintf(stderr, "mlabench %s: %s: empty list\n", cmd, opt);
        free(v);
        return -1;
    }
    *out = v;
    *n = k;
    return 0;
}

const char *mlab_arg_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "mlabench %s: %s needs a value\n", cmd, argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int mlab_arg_name(const char *cmd, const char *opt, const char *s, size_t max, int no_slash)
{
    if (*s && strlen(s) <= max && !mlab_name_bad_char(s, no_slash))
        return 0;
    char esc[256];
    fprintf(stderr, "mlabench %s: %s: '%s' must be 1..%zu characters, no control characters%s\n", cmd, opt,
            mlab_escape(s, esc, sizeof esc, 0), max, no_slash ? ", no '/'" : "");
    return -1;
}

int mlab_arg_once(const char *cmd, const struct option *longopts, int c, unsigned char *seen, size_t nseen)
{
    return mlab_arg_once_hint(cmd, longopts, c, seen, nseen, NULL);
}

int mlab_arg_once_hint(const char *cmd, const struct option *longopts, int c, unsigned char *seen, size_t nseen,
                       const char *hint)
{
    size_t n = 0;
    while (longopts[n].name)
        n++;
    if (n > nseen) { /* the caller's bug: its last options would never be checked */
        fprintf(stderr, "mlabench %s: internal error: an option table of %zu entries, %zu flags for them\n",
                cmd, n, nseen);
        return MLAB_EXIT_INTERNAL;
    }
    for (size_t i = 0; i < n; i++) {
        if (longopts[i].flag || longopts[i].val != c)
            continue;
        if (longopts[i].has_arg == no_argument)
            return 0;
        if (seen[i]) {
            /* -o is every command's one short option with a value */
            fprintf(stderr, "mlabench %s: %s--%s given twice: give it once%s\n", cmd, c == 'o' ? "-o / " : "",
                    longopts[i].name, hint ? hint : "");
            return MLAB_EXIT_USAGE;
        }
        seen[i] = 1;
        return 0;
    }
    return 0;
}

int mlab_arg_getopt_error(const char *cmd, int c, char **argv)
{
    const char *word = optind > 0 ? argv[optind - 1] : "?";
    /* inside a cluster of short options ("-xyz") getopt has not moved past
     * the word yet: the word is argv[optind] (argv ends with NULL) */
    const char *next = optind > 0 ? argv[optind] : NULL;
    if (optopt > 0 && optopt < 256 && !(word[0] == '-' && word[1] != '-' && strchr(word + 1, optopt)) &&
        next && next[0] == '-' && next[1] && next[1] != '-' && strchr(next + 1, optopt))
        word = next;
    if (c == ':') {
        fprintf(stderr, "mlabench %s: %s needs a value\n", cmd, word);
        return 1;
    }
    if (c != '?')
        return 0;
    if (optopt > 0 && optopt < 256 && word[0] == '-' && word[1] != '-')
        fprintf(stderr, "mlabench %s: unknown option '-%c' (see --help)\n", cmd, optopt);
    else if (word[0] == '-' && word[1] == '-' && strchr(word, '=') && optopt)
        fprintf(stderr, "mlabench %s: option '%.*s' takes no value\n", cmd,
                (int)(strchr(word, '=') - word), word);
    else
        fprintf(stderr, "mlabench %s: unknown option '%s' (see --help)\n", cmd, word);
    return 1;
}
