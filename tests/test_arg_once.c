/* test_arg_once.c: an option with a value given twice is refused whatever
 * its place in the option table (harness/args.c mlab_arg_once,
 * harness/results_cli.c mlab_cli_getopt).
 *
 * results_cli.c kept 64 flags for the results commands' tables and
 * mlab_arg_once stopped its walk at the flags' count: an option past the
 * 64th entry, given twice, went through unchecked (the last value won,
 * silently). Pins: through mlab_cli_getopt, a table of 70 options whose
 * 67th is given twice is refused ('?', "--o66 given twice" on stderr) and
 * one given once is not; the first table's flags do not carry over to the
 * next command's (after the reset); mlab_arg_once with fewer flags than
 * the table has entries refuses every option (MLAB_EXIT_INTERNAL, "internal
 * error"), a repeat included, instead of letting it through; with enough
 * flags it returns MLAB_EXIT_USAGE for a repeat and 0 for an option without
 * a value given twice. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/args.h"
#include "harness/exitcodes.h"
#include "harness/results_cli.h"
#include "mlab_check.h"

#define NOPT 70
enum { OPT0 = 3000 };

static char names[NOPT][8];
static struct option table[NOPT + 2];

/* stderr of the calls between begin and end, in buf */
static FILE *err_file;
static int err_saved = -1;

static void err_begin(void)
{
    fflush(stderr);
    err_file = tmpfile();
    err_saved = dup(2);
    if (err_file && err_saved >= 0)
        dup2(fileno(err_file), 2);
}

static void err_end(char *buf, size_t n)
{
    fflush(stderr);
    buf[0] = 0;
    if (err_saved >= 0) {
        dup2(err_saved, 2);
        close(err_saved);
        err_saved = -1;
    }
    if (err_file) {
        rewind(err_file);
        size_t k = fread(buf, 1, n - 1, err_file);
        buf[k] = 0;
        fclose(err_file);
        err_file = NULL;
    }
}

/* Parse argv (NULL-terminated) with mlab_cli_getopt over table; the number
 * of '?' answers, the options taken in took (their count in *ntook). */
static int parse(char **argv, int *took, int *ntook, char *err, size_t errn)
{
    int argc = 0, bad = 0, c;
    while (argv[argc])
        argc++;
    *ntook = 0;
    err_begin();
    mlab_cli_getopt_reset();
    while ((c = mlab_cli_getopt("test", argc, argv, "h", table)) != -1) {
        if (c == '?')
            bad++;
        else
            took[(*ntook)++] = c;
    }
    err_end(err, errn);
    return bad;
}

int main(void)
{
    for (int i = 0; i < NOPT; i++) {
        snprintf(names[i], sizeof names[i], "o%d", i);
        table[i] = (struct option){names[i], required_argument, NULL, OPT0 + i};
    }
    table[NOPT] = (struct option){"help", no_argument, NULL, 'h'};
    table[NOPT + 1] = (struct option){NULL, 0, NULL, 0};

    char err[1024];
    int took[16], ntook;
    char *twice[] = {"test", "--o66", "a", "--o66=b", NULL};
    int bad = parse(twice, took, &ntook, err, sizeof err);
    CHECK(bad == 1 && ntook == 1 && took[0] == OPT0 + 66 && strstr(err, "--o66 given twice"),
          "--o66 (entry 67 of 71) given twice: refused once, taken once (refused %d, taken %d); stderr: %s",
          bad, ntook, err);
    char *once[] = {"test", "--o1", "a", "--o66", "b", "--o69", "c", "--help", "--help", NULL};
    bad = parse(once, took, &ntook, err, sizeof err);
    CHECK(bad == 0 && ntook == 5 && !err[0], "options given once (and --help twice): all taken (refused %d, "
          "taken %d); stderr: %s", bad, ntook, err);
    /* the second parse's flags start clear: --o66 was taken by the first */
    char *again[] = {"test", "--o66", "x", NULL};
    bad = parse(again, took, &ntook, err, sizeof err);
    CHECK(bad == 0 && ntook == 1, "after the reset, --o66 is taken again (refused %d); stderr: %s", bad, err);

    /* mlab_arg_once itself: fewer flags than entries is the caller's bug, refused loudly */
    unsigned char seen[NOPT + 2];
    memset(seen, 0, sizeof seen);
    err_begin();
    int r1 = mlab_arg_once("test", table, OPT0 + 66, seen, 64);
    int r2 = mlab_arg_once("test", table, OPT0 + 66, seen, 64);
    int r3 = mlab_arg_once("test", table, OPT0 + 1, seen, 64);
    err_end(err, sizeof err);
    CHECK(r1 == MLAB_EXIT_INTERNAL && r2 == MLAB_EXIT_INTERNAL && r3 == MLAB_EXIT_INTERNAL &&
              strstr(err, "internal error") && strstr(err, "71 entries, 64 flags"),
          "64 flags for a table of 71: every option refused as an internal error (%d %d %d); stderr: %s", r1, r2,
          r3, err);
    memset(seen, 0, sizeof seen);
    err_begin();
    r1 = mlab_arg_once("test", table, OPT0 + 66, seen, sizeof seen);
    r2 = mlab_arg_once("test", table, OPT0 + 66, seen, sizeof seen);
    r3 = mlab_arg_once("test", table, 'h', seen, sizeof seen) + mlab_arg_once("test", table, 'h', seen, sizeof seen);
    int r4 = mlab_arg_once("test", table, OPT0 + 69, seen, NOPT + 1); /* the table's entries, no flag for NULL */
    err_end(err, sizeof err);
    CHECK(r1 == 0 && r2 == MLAB_EXIT_USAGE && r3 == 0 && r4 == 0 && strstr(err, "--o66 given twice: give it once"),
          "enough flags: a repeat is 2, --help twice 0, the last entry taken (%d %d %d %d); stderr: %s", r1, r2,
          r3, r4, err);

    printf("test_arg_once: %d checks, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
