/* results_cli.c: the helpers the results subcommands share (results_cli.h). */
#include "results_cli.h"

#include "atomic.h" /* mlab_output_check, mlab_atomic_begin/commit */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"       /* mlab_arg_once, mlab_arg_getopt_error */
#include "exitcodes.h"  /* MLAB_EXIT_* */
#include "results_read.h" /* mlab_results_read */

int mlab_cli_err(const char *cmd, int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mlabench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

/* The options taken (mlab_arg_once): one flag an entry of the table being
 * parsed, allocated for it at its first option (a fixed 64 let a 65th
 * entry through unchecked), freed by the reset. */
static unsigned char *cli_seen;
static size_t cli_nseen;
static const struct option *cli_table;

void mlab_cli_getopt_reset(void)
{
    optind = 0; /* glibc: 0 re-initializes the scan completely */
    opterr = 0;
    free(cli_seen);
    cli_seen = NULL;
    cli_nseen = 0;
    cli_table = NULL;
}

int mlab_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
                    const struct option *longopts)
{
    char spec[64];
    snprintf(spec, sizeof spec, ":%s", shortopts); /* ':' reports a missing value apart */
    int c = getopt_long(argc, argv, spec, longopts, NULL);
    if (mlab_arg_getopt_error(cmd, c, argv)) /* '?' or ':': one line naming the option */
        return '?';
    if (c != -1 && longopts != cli_table) { /* the table's first option: its flags */
        size_t n = 0;
        while (longopts[n].name)
            n++;
        free(cli_seen);
        cli_table = NULL;
        cli_nseen = 0;
        if (!(cli_seen = calloc(n + 1, 1))) {
            mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
            return '?';
        }
        cli_table = longopts;
        cli_nseen = n + 1;
    }
    if (c != -1 && mlab_arg_once(cmd, longopts, c, cli_seen, cli_nseen))
        return '?';
    return c;
}

int mlab_cli_load(const char *cmd, const char *path, mlab_results *r)
{
    char why[1024];
    int rc = mlab_results_read(path, r, why, sizeof why);
    if (rc != MLAB_EXIT_OK)
        mlab_cli_err(cmd, rc, "%s", why);
    else
        mlab_results_fill_read_limits(r); /* peers' rows in files written before they carried it */
    return rc;
}

int mlab_cli_out_check(const char *cmd, const char *out, const char *const *in, int n)
{
    char why[1024];
    int rc = out && *out ? mlab_output_check(out, in, n, why, sizeof why) : MLAB_EXIT_OK;
    return rc ? mlab_cli_err(cmd, rc, "%s", why) : MLAB_EXIT_OK;
}

int mlab_out_open(const char *cmd, mlab_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return MLAB_EXIT_OK;
    }
    if (!*path)
        return mlab_cli_err(cmd, MLAB_EXIT_USAGE, "an empty output file name");
    int rc = mlab_cli_out_check(cmd, path, NULL, 0);
    if (rc)
        return rc;
    o->path = path;
    if (mlab_atomic_begin(path, o->tmp, sizeof o->tmp) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: path too long", path);
    o->f = fopen(o->tmp, "w");
    if (!o->f)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot create %s: %s", path, o->tmp,
                            strerror(errno));
    return MLAB_EXIT_OK;
}

int mlab_out_close(const char *cmd, mlab_outfile *o, int ok)
{
    /* a failed write (full disk, file size limit, /dev/full) is the stream's
     * error whatever ok says: its reason is the system's (the flush's, else
     * the errno the failed write left) */
    FILE *f = o->path ? o->f : stdout;
    const int prior = errno;
    int e = fflush(f) != 0 ? errno : 0;
    if (!e && ferror(f))
        e = prior ? prior : EIO;
    if (o->path && fclose(f) != 0 && !e)
        e = errno ? errno : EIO;
    if (e) {
        if (o->path)
            unlink(o->tmp);
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot write: %s", o->path ? o->path : "stdout",
                            strerror(e));
    }
    if (!o->path)
        return MLAB_EXIT_OK;
    if (!ok) {
        unlink(o->tmp);
        return MLAB_EXIT_OK;
    }
    char why[1024];
    int rc = mlab_atomic_commit(o->tmp, o->path, why, sizeof why);
    return rc ? mlab_cli_err(cmd, rc, "%s", why) : MLAB_EXIT_OK;
}

void mlab_path_stem(const char *path, char *stem, size_t size)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(stem, size, "%s", b);
    size_t n = strlen(stem);
    if (n > 3 && strcmp(stem + n - 3, ".h5") == 0)
        stem[n - 3] = 0;
    else if (n > 5 && strcmp(stem + n - 5, ".hdf5") == 0)
        stem[n - 5] = 0;
}

void mlab_path_dir(const char *path, char *dir, size_t size)
{
    const char *b = strrchr(path, '/');
    if (!b)
        snprintf(dir, size, ".");
    else if (b == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(b - path), path);
}

int mlab_row_is_cpu(const mlab_row *w)
{
    return strcmp(w->kind, "cpu") == 0;
}

int mlab_row_timed(const mlab_row *w)
{
    return !mlab_row_is_cpu(w) && w->nsamples > 0 && w->samples_us && w->median_us > 0;
}

int mlab_fmt_parse(const char *s)
{
    static const char *names[] = {"text", "csv", "json", "md"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

void mlab_put_num(FILE *f, double v, const char *fmt, mlab_fmt style)
{
    if (style == MLAB_FMT_JSON && !isfinite(v))
        fputs("null", f);
    else if (isnan(v))
        fputs(style == MLAB_FMT_MD ? "-" : "nan", f);
    else if (isinf(v))
        fputs(v > 0 ? "inf" : "-inf", f);
    else
        fprintf(f, fmt, v);
}

void mlab_put_str(FILE *f, const char *s, mlab_fmt style)
{
    switch (style) {
    case MLAB_FMT_GPCSV: /* no quoting at all: gnuplot cuts a quoted value at a comma */
        for (; *s; s++)
            fputc(*s == '"' ? '\'' : *s == ',' ? ';' : (*s == '\n' || *s == '\r') ? ' ' : *s, f);
        return;
    case MLAB_FMT_CSV:
        if (!strpbrk(s, ",\"\n\r")) {
            fputs(s, f);
            return;
        }
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
        return;
    case MLAB_FMT_JSON:
        fputc('"', f);
        for (; *s; s++) {
            unsigned char c = (unsigned char)*s;
            if (c == '"' || c == '\\')
                fprintf(f, "\\%c", c);
            else if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                fputc(c, f);
        }
        fputc('"', f);
        return;
    case MLAB_FMT_MD:
        for (; *s; s++) {
            if (*s == '|')
                fputs("\\|", f);
            else if (*s == '\n' || *s == '\r')
                fputc(' ', f);
            else
                fputc(*s, f);
        }
        return;
    default: /* a line a field: a value of several lines (stopped_case's names) on one */
        for (; *s; s++)
            if (*s == '\n')
                fputs(", ", f);
            else if (*s != '\r')
                fputc(*s, f);
    }
}

void mlab_put_field(FILE *f, const void *rec, const mlab_field *fl, mlab_fmt style)
{
    const char *p = (const char *)rec + fl->offset;
    switch (fl->kind) {
    case 's': mlab_put_str(f, p, style); break;
    case 'i': fprintf(f, "%d", *(const int *)p); break;
    case 'z': fprintf(f, "%zu", *(const size_t *)p); break;
    default: mlab_put_num(f, *(const double *)p, "%.9g", style); break;
    }
}

int mlab_field_differs(const void *a, const void *b, const mlab_field *fl)
{
    const char *p = (const char *)a + fl->offset, *q = (const char *)b + fl->offset;
    switch (fl->kind) {
    case 's': return strcmp(p, q) != 0;
    case 'i': return *(const int *)p != *(const int *)q;
    case 'z': return *(const size_t *)p != *(const size_t *)q;
    default: {
        double x = *(const double *)p, y = *(const double *)q;
        return !(x == y || (isnan(x) && isnan(y)));
    }
    }
}

/* The first space-separated word at or after p; its length in *n (0: none left) */
static const char *next_word(const char *p, size_t *n)
{
    p += strspn(p, " ");
    *n = strcspn(p, " ");
    return p;
}

/* Whether word w (n characters) is one of s's words */
static int has_word(const char *s, const char *w, size_t n)
{
    size_t m;
    for (const char *p = next_word(s, &m); m; p = next_word(p + m, &m))
        if (m == n && !strncmp(p, w, n))
            return 1;
    return 0;
}

/* a's words that b lacks, in a's order, space-separated ("(none)" if none);
 * returns how many of a's words b has too */
static int words_only(FILE *f, const char *a, const char *b)
{
    int same = 0, first = 1;
    size_t m;
    for (const char *p = next_word(a, &m); m; p = next_word(p + m, &m)) {
        if (has_word(b, p, m)) {
            same++;
        } else {
            fprintf(f, "%s%.*s", first ? "" : " ", (int)m, p);
            first = 0;
        }
    }
    if (first)
        fputs("(none)", f);
    return same;
}

static void put_value(FILE *f, const void *rec, const mlab_field *fl)
{
    const char *p = (const char *)rec + fl->offset;
    if (fl->kind == 's' && !p[0])
        fputs("(empty)", f);
    else
        mlab_put_field(f, rec, fl, MLAB_FMT_TEXT);
}

void mlab_put_field_change(FILE *f, const void *ra, const void *rb, const mlab_field *fl)
{
    const char *a = (const char *)ra + fl->offset, *b = (const char *)rb + fl->offset;
    if (fl->kind == 's' && strchr(a, ' ') && strchr(b, ' ') && (strlen(a) > 60 || strlen(b) > 60)) {
        const int same = words_only(f, a, b);
        fputs(" -> ", f);
        words_only(f, b, a);
        fprintf(f, " (%d word%s the same)", same, same == 1 ? "" : "s");
        return;
    }
    put_value(f, ra, fl);
    fputs(" -> ", f);
    put_value(f, rb, fl);
}

const mlab_field *mlab_field_find(const mlab_field *fl, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(fl[i].name, name) == 0)
            return &fl[i];
    return NULL;
}

const mlab_field *mlab_env_build_differs(const mlab_env *a, const mlab_env *b)
{
    static const char *const must_match[] = {
        "mlabench_version", "git_commit",      "git_dirty",         "compiler",     "compile_flags",
        "gpu_backend",      "gpu_compiler",    "gpu_compile_flags", "kernel_knobs", "gpu_name",
        "runtime_version",  "driver_version",
    };
    size_t nef;
    const mlab_field *ef = mlab_env_fields(&nef);
    for (size_t m = 0; m < sizeof must_match / sizeof must_match[0]; m++) {
        const mlab_field *fl = mlab_field_find(ef, nef, must_match[m]);
        if (fl && mlab_field_differs(a, b, fl))
            return fl;
    }
    return NULL;
}

int mlab_strlist_find(const mlab_strlist *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->s[i], s) == 0)
            return i;
    return -1;
}

int mlab_strlist_add(mlab_strlist *l, const char *s)
{
    int i = mlab_strlist_find(l, s);
    if (i >= 0)
        return i;
    char **g = realloc(l->s, (size_t)(l->n + 1) * sizeof *g);
    if (!g)
        return -1;
    l->s = g;
    if (!(g[l->n] = strdup(s)))
        return -1;
    return l->n++;
}

int mlab_strlist_split(mlab_strlist *l, const char *csv)
{
    char *dup = strdup(csv), *save = NULL;
    if (!dup)
        return -1;
    int rc = 0;
    for (char *t = strtok_r(dup, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save))
        rc = mlab_strlist_add(l, t) < 0 ? -1 : 0;
    free(dup);
    return rc;
}

void mlab_strlist_free(mlab_strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->s[i]);
    free(l->s);
    l->s = NULL;
    l->n = 0;
}

int mlab_runs_load(const char *cmd, const char *const *paths, int n, mlab_run_file **runs)
{
    *runs = calloc((size_t)n + 1, sizeof **runs);
    if (!*runs)
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "out of memory");
    for (int k = 0; k < n; k++) {
        (*runs)[k].path = paths[k];
        int rc = mlab_cli_load(cmd, paths[k], &(*runs)[k].r);
        if (rc) {
            mlab_runs_free(*runs, k);
            *runs = NULL;
            return rc;
        }
    }
    return MLAB_EXIT_OK;
}

void mlab_runs_free(mlab_run_file *runs, int n)
{
    for (int k = 0; runs && k < n; k++)
        mlab_results_free(&runs[k].r);
    free(runs);
}
