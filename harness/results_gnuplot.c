/* results_gnuplot.c: running the scripts of plots/ (results_gnuplot.h). */
#include "results_gnuplot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcodes.h"   /* MLAB_EXIT_* */
#include "results_cli.h" /* mlab_cli_err */
#include "atomic.h"        /* mlab_atomic_begin/commit */

#ifndef MLAB_PLOTS_DIR
#define MLAB_PLOTS_DIR "plots"
#endif

void mlab_gnuplot_find(char *out, size_t size)
{
    out[0] = 0;
    const char *path = getenv("PATH");
    if (!path)
        return;
    char *dup = strdup(path), *save = NULL;
    if (!dup)
        return;
    for (char *d = strtok_r(dup, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char cand[4096];
        snprintf(cand, sizeof cand, "%s/gnuplot", *d ? d : ".");
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
            snprintf(out, size, "%s", cand);
            break;
        }
    }
    free(dup);
}

const char *mlab_plots_dir(void)
{
    const char *d = getenv("MLAB_PLOTS_DIR");
    return d && *d ? d : MLAB_PLOTS_DIR;
}

int mlab_make_dir(const char *cmd, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (mkdir(dir, 0777) != 0)
            return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: cannot create the folder: %s", dir,
                                strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: not a folder", dir);
    }
    return MLAB_EXIT_OK;
}

int mlab_gnuplot_run(const char *cmd, const char *gnuplot, const char *kind, const char *data,
                     const char *out, const char *fmt, const char *filter)
{
    char script[4096], tmp[4200];
    snprintf(script, sizeof script, "%s/%s.gp", mlab_plots_dir(), kind);
    if (access(script, R_OK) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO,
                            "%s: cannot read the gnuplot script (set MLAB_PLOTS_DIR)", script);
    int orc = mlab_cli_out_check(cmd, out, NULL, 0);
    if (orc)
        return orc;
    if (mlab_atomic_begin(out, tmp, sizeof tmp) != 0)
        return mlab_cli_err(cmd, MLAB_EXIT_IO, "%s: path too long", out);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL, "fork: %s", strerror(errno));
    if (pid == 0) {
        char *args[] = {"gnuplot", "-c", script, (char *)data, tmp, (char *)fmt,
                        (char *)(filter ? filter : ""), NULL};
        if (!filter || !*filter)
            args[6] = NULL;
        execv(gnuplot, args);
        fprintf(stderr, "mlabench %s: cannot run %s: %s\n", cmd, gnuplot, strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    struct stat st;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(tmp, &st) != 0 || st.st_size == 0) {
        unlink(tmp);
        return mlab_cli_err(cmd, MLAB_EXIT_INTERNAL,
                            "gnuplot failed on %s (%s %d); its messages are above", script,
                            WIFEXITED(status) ? "exit" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
    char why[1024];
    int rc = mlab_atomic_commit(tmp, out, why, sizeof why);
    if (rc)
        return mlab_cli_err(cmd, rc, "%s", why);
    printf("%s\n", out);
    return MLAB_EXIT_OK;
}
