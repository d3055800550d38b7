/* atomic.c: atomic replacement of output files, and what may be an output
 * or an input (atomic.h). One implementation for case, results, CSV,
 * report and plot files. */
#include "atomic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h> /* PATH_MAX */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "exitcodes.h" /* MLAB_EXIT_* */
#include "guard.h"     /* mlab_guard_run, mlab_h5_capture_errno */
#include "reason.h"    /* mlab_why, mlab_fail */

/* Split path into its folder ("." when none) and base name. */
static void split_path(const char *path, char *dir, size_t dirlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dirlen, ".");
        *base = path;
    } else if (slash == path) {
        snprintf(dir, dirlen, "/");
        *base = slash + 1;
    } else {
        snprintf(dir, dirlen, "%.*s", (int)(slash - path), path);
        *base = slash + 1;
    }
}

/* Remove "<base>.tmp.<pid>" files in dir whose pid no longer runs: what a
 * killed writer left. A pid alive (or not ours to signal) is left alone. */
static void remove_stale_temporaries(const char *path)
{
    char dir[4096];
    const char *base;
    split_path(path, dir, sizeof dir, &base);
    size_t blen = strlen(base);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        if (strncmp(name, base, blen) != 0 || strncmp(name + blen, ".tmp.", 5) != 0)
            continue;
        const char *digits = name + blen + 5;
        if (!*digits || strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 9)
            continue;
        pid_t pid = (pid_t)atol(digits);
        if (pid <= 0 || pid == getpid())
            continue;
        if (kill(pid, 0) == -1 && errno == ESRCH) {
            char full[8192];
            snprintf(full, sizeof full, "%s/%s", dir, name);
            unlink(full);
        }
    }
    closedir(d);
}

int mlab_atomic_begin(const char *path, char *tmp, size_t tmplen)
{
    remove_stale_temporaries(path);
    int n = snprintf(tmp, tmplen, "%s.tmp.%ld", path, (long)getpid());
    return n < 0 || (size_t)n >= tmplen ? -1 : 0;
}

int mlab_atomic_commit(const char *tmp, const char *path, char *why, size_t whylen)
{
    mlab_why w = {path, why, whylen};
    int fd = open(tmp, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        unlink(tmp);
        return mlab_fail(&w, MLAB_EXIT_IO, NULL, "cannot fsync %s: %s", tmp, strerror(err));
    }
    close(fd);
    if (rename(tmp, path) != 0) {
        int err = errno;
        unlink(tmp);
        return mlab_fail(&w, MLAB_EXIT_IO, NULL, "cannot rename %s over it: %s", tmp,
                         strerror(err));
    }
    /* the rename itself is durable once the folder is synced (best effort:
     * some file systems refuse fsync on a folder) */
    char dir[4096];
    const char *base;
    split_path(path, dir, sizeof dir, &base);
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return MLAB_EXIT_OK;
}

typedef struct {
    mlab_write_fn write;
    const char *path, *tmp;
    void *arg;
} write_job;

/* In the child: the write, with the system's reason of a failed call. */
static int run_write(void *a, char *why, size_t whylen)
{
    const write_job *j = a;
    mlab_why w = {j->path, why, whylen};
    mlab_h5_capture_errno();
    int rc = j->write(&w, j->tmp, j->arg);
    int e = mlab_h5_write_errno();
    if (rc != MLAB_EXIT_OK && e && why && !strstr(why, strerror(e))) {
        size_t n = strlen(why);
        snprintf(why + n, whylen - n, ": %s", strerror(e));
    }
    return rc;
}

int mlab_atomic_write(const char *path, mlab_write_fn write, void *arg, char *why, size_t whylen)
{
    mlab_why w = {path, why, whylen};
    char tmp[4200], msg[1024];
    if (mlab_atomic_begin(path, tmp, sizeof tmp) != 0)
        return mlab_fail(&w, MLAB_EXIT_IO, NULL, "path too long");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return mlab_fail(&w, MLAB_EXIT_IO, NULL, "cannot create %s: %s", tmp, strerror(errno));
    close(fd);

    write_job job = {write, path, tmp, arg};
    int rc = MLAB_EXIT_IO;
    mlab_h5_silence();
    int g = mlab_guard_run(run_write, &job, 0, 0, &rc, msg, sizeof msg);
    if (g == MLAB_GUARD_DONE && rc == MLAB_EXIT_OK)
        return mlab_atomic_commit(tmp, path, why, whylen);
    unlink(tmp);
    if (g == MLAB_GUARD_DONE) {
        if (why && whylen)
            snprintf(why, whylen, "%s", msg);
        return rc;
    }
    if (g == MLAB_GUARD_SIGNAL && rc > 0)
        return mlab_fail(&w, MLAB_EXIT_IO, NULL, "the writing process died (signal %d, %s)",
                         rc, strsignal(rc));
    if (g == MLAB_GUARD_SIGNAL)
        return mlab_fail(&w, MLAB_EXIT_IO, NULL,
                         "the writing process failed (exit status %d)", -rc);
    return mlab_fail(&w, MLAB_EXIT_IO, NULL, "%s", msg);
}

static const char *file_kind(mode_t m)
{
    return S_ISLNK(m) ? "a symbolic link" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a folder"
                      : "not a regular file";
}

int mlab_output_check(const char *out, const char *const *inputs, int ninputs, char *why,
                      size_t whylen)
{
    mlab_why w = {out, why, whylen};
    struct stat so, si;
    if (strcmp(out, "-") == 0)
        return MLAB_EXIT_OK; /* standard output, where a command takes it */
    if (lstat(out, &so) != 0)
        return MLAB_EXIT_OK; /* a new file (or an unreachable folder: the write says why) */
    if (!S_ISREG(so.st_mode))
        return mlab_fail(&w, MLAB_EXIT_USAGE, NULL,
                         "is %s, not a regular file: refusing to replace it (-o takes a file path)",
                         file_kind(so.st_mode));
    for (int i = 0; i < ninputs; i++)
        if (inputs[i] && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev &&
            si.st_ino == so.st_ino)
            return mlab_fail(&w, MLAB_EXIT_USAGE, NULL,
                             "is also an input (%s): refusing to overwrite it", inputs[i]);
    return MLAB_EXIT_OK;
}

int mlab_output_file_check(const char *out, const char *const *inputs, int ninputs, char *why,
                           size_t whylen)
{
    if (!*out) {
        snprintf(why, whylen, "an empty output file name");
        return MLAB_EXIT_USAGE;
    }
    if (strcmp(out, "-") == 0) {
        snprintf(why, whylen, "-o -: this command writes an HDF5 file, not standard output "
                              "(./- names a file called -)");
        return MLAB_EXIT_USAGE;
    }
    if (strlen(out) >= PATH_MAX) {
        snprintf(why, whylen, "%.60s...: the output path is %zu bytes, PATH_MAX (%d) or more", out,
                 strlen(out), PATH_MAX);
        return MLAB_EXIT_USAGE;
    }
    return mlab_output_check(out, inputs, ninputs, why, whylen);
}

int mlab_input_check(const char *path, char *why, size_t whylen)
{
    mlab_why w = {path, why, whylen};
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return mlab_fail(&w, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(errno));
    struct stat st;
    int rc = MLAB_EXIT_OK;
    if (fstat(fd, &st) != 0)
        rc = mlab_fail(&w, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(errno));
    else if (S_ISDIR(st.st_mode))
        rc = mlab_fail(&w, MLAB_EXIT_IO, NULL, "cannot open: %s", strerror(EISDIR));
    else if (!S_ISREG(st.st_mode))
        rc = mlab_fail(&w, MLAB_EXIT_BADINPUT, NULL, "not a regular file (%s)",
                       file_kind(st.st_mode));
    close(fd);
    return rc;
}
