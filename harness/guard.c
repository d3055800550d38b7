/* guard.c: libhdf5 in a child process, and its errors kept quiet
 * (guard.h). */
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "exitcodes.h" /* MLAB_EXIT_* */
#include "reason.h"    /* mlab_why, mlab_fail */

void mlab_h5_silence(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ---- errno of a failed write, from libhdf5's error stack ------------------ */

static int captured_errno;

static herr_t find_errno(unsigned n, const H5E_error2_t *e, void *data)
{
    const char *p = e->desc ? strstr(e->desc, "errno = ") : NULL;
    if (p && !captured_errno)
        captured_errno = atoi(p + 8);
    return 0;
}

static herr_t capture_auto(hid_t estack, void *data)
{
    H5Ewalk2(estack, H5E_WALK_DOWNWARD, find_errno, NULL);
    return 0;
}

void mlab_h5_capture_errno(void)
{
    captured_errno = 0;
    H5Eset_auto2(H5E_DEFAULT, capture_auto, NULL);
}

int mlab_h5_write_errno(void)
{
    return captured_errno;
}

/* ---- what a dataset's storage can hold -------------------------------------- */

int mlab_h5_storage_check(hid_t ds, size_t elem, char *msg, size_t msglen)
{
    hid_t sp = -1, dcpl = -1, fid = -1;
    int rc = -1, rank = 0;
    hsize_t dims[H5S_MAX_RANK], chunk[H5S_MAX_RANK], fsize = 0;
    if ((sp = H5Dget_space(ds)) < 0 || (dcpl = H5Dget_create_plist(ds)) < 0 ||
        (fid = H5Iget_file_id(ds)) < 0 || H5Fget_filesize(fid, &fsize) < 0 ||
        (rank = H5Sget_simple_extent_ndims(sp)) < 0 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0) {
        snprintf(msg, msglen, "unreadable dataspace or creation properties (corrupt file?)");
        goto out;
    }
    /* the declared size in bytes, refusing overflow */
    unsigned long long bytes = elem;
    for (int k = 0; k < rank; k++) {
        if (dims[k] && bytes > (1ull << 63) / dims[k]) {
            snprintf(msg, msglen, "declares more than 2^63 bytes");
            goto out;
        }
        bytes *= dims[k];
    }
    if (bytes > (1ull << 63)) {
        snprintf(msg, msglen, "declares more than 2^63 bytes");
        goto out;
    }
    H5D_layout_t layout = H5Pget_layout(dcpl);
    if (layout == H5D_VIRTUAL) {
        snprintf(msg, msglen, "is a virtual dataset (its data lives in other files): not accepted");
        goto out;
    }
    if (H5Pget_external_count(dcpl) != 0) {
        snprintf(msg, msglen, "stores its data in external files: not accepted "
                 "(the file must hold its own data)");
        goto out;
    }
    int nf = H5Pget_nfilters(dcpl);
    for (int i = 0; i < nf; i++) {
        unsigned flags, cfg;
        size_t nelem = 0;
        char fname[64] = "";
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nelem, NULL, sizeof fname,
                                         fname, &cfg);
        if (id != H5Z_FILTER_DEFLATE && id != H5Z_FILTER_SHUFFLE && id != H5Z_FILTER_FLETCHER32) {
            snprintf(msg, msglen, "uses filter %d (%s): only deflate, shuffle and fletcher32 are "
                     "accepted", (int)id, fname[0] ? fname : "unnamed");
            goto out;
        }
    }
    if (bytes == 0) {
        rc = 0;
        goto out;
    }
    unsigned long long stored = H5Dget_storage_size(ds);
    if (stored > fsize) {
        snprintf(msg, msglen, "claims %llu bytes of storage in a file of %llu bytes (corrupt file?)",
                 stored, (unsigned long long)fsize);
        goto out;
    }
    if (layout == H5D_CONTIGUOUS) {
        haddr_t off = H5Dget_offset(ds);
        if (off == HADDR_UNDEF || off > fsize || bytes > fsize - off) {
            snprintf(msg, msglen, "declares %llu bytes of data that the file does not hold "
                     "(never written, or the file is truncated)", bytes);
            goto out;
        }
    }
    if (layout == H5D_CHUNKED) {
        int crank = H5Pget_chunk(dcpl, H5S_MAX_RANK, chunk);
        double want = 1;
        for (int k = 0; k < crank && k < rank; k++)
            want *= chunk[k] ? (double)((dims[k] + chunk[k] - 1) / chunk[k]) : 0;
#if H5_VERSION_GE(1, 10, 5)
        hsize_t have = 0;
        if (crank != rank || H5Dget_num_chunks(ds, sp, &have) < 0) {
            snprintf(msg, msglen, "unreadable chunk index (corrupt file?)");
            goto out;
        }
        if ((double)have < want) {
            snprintf(msg, msglen, "stores %llu of its %.0f chunks: the rest was never written",
                     (unsigned long long)have, want);
            goto out;
        }
#endif
    }
    if (nf == 0 && stored < bytes) {
        snprintf(msg, msglen, "declares %llu bytes but the file stores %llu (never written, or "
                 "the file is truncated)", bytes, stored);
        goto out;
    }
    if (nf > 0 && (double)bytes > 1100.0 * (double)stored) {
        snprintf(msg, msglen, "declares %llu bytes from %llu compressed: more than deflate can "
                 "give (corrupt file?)", bytes, stored);
        goto out;
    }
    rc = 0;
out:
    if (fid >= 0)
        H5Fclose(fid);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

/* ---- the child ------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int env_is(const char *name)
{
    const char *v = getenv(name);
    return v && strcmp(v, "1") == 0;
}

/* In the child: quiet, no core file, dead with its parent; run fn, answer. */
static void child(int fd, pid_t parent, mlab_guard_fn fn, void *arg, int read_only,
                  size_t msglen)
{
    struct rlimit nocore = {0, 0};
    setrlimit(RLIMIT_CORE, &nocore);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        if (!env_is("MLAB_GUARD_STDERR"))
            dup2(null, STDERR_FILENO);
        close(null);
    }
    if (read_only && env_is("MLAB_H5_TEST_CRASH"))
        raise(SIGSEGV);
    if (read_only && env_is("MLAB_H5_TEST_HANG"))
        for (;;)
            pause();

    char *buf = calloc(1, sizeof(int) + msglen);
    if (!buf)
        _exit(126);
    int rc = fn(arg, buf + sizeof(int), msglen);
    memcpy(buf, &rc, sizeof rc);
    size_t n = sizeof(int) + strnlen(buf + sizeof(int), msglen - 1) + 1, off = 0;
    while (off < n) {
        ssize_t w = write(fd, buf + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(125);
        off += (size_t)w;
    }
    _exit(0); /* no atexit handlers: libhdf5's shutdown is not run here */
}

int mlab_guard_run(mlab_guard_fn fn, void *arg, int read_only, double timeout_s, int *rc,
                   char *msg, size_t msglen)
{
    int p[2];
    if (msglen < 2)
        return MLAB_GUARD_FAILED;
    msg[0] = '\0';
    fflush(stdout);
    fflush(stderr);
    if (pipe(p) != 0) {
        snprintf(msg, msglen, "cannot make a pipe: %s", strerror(errno));
        return MLAB_GUARD_FAILED;
    }
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        snprintf(msg, msglen, "cannot fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return MLAB_GUARD_FAILED;
    }
    if (pid == 0) {
        close(p[0]);
        child(p[1], parent, fn, arg, read_only, msglen);
    }
    close(p[1]);

    /* read the answer until EOF or the deadline */
    size_t cap = sizeof(int) + msglen, got = 0;
    char *buf = calloc(1, cap);
    int timed_out = 0;
    double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
    while (buf) {
        int wait_ms = -1;
        if (timeout_s > 0) {
            double left = deadline - now_s();
            if (left <= 0) {
                timed_out = 1;
                break;
            }
            wait_ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
        }
        struct pollfd pf = {p[0], POLLIN, 0};
        int k = poll(&pf, 1, wait_ms);
        if (k < 0 && errno == EINTR)
            continue;
        if (k == 0)
            continue; /* the deadline is checked above */
        if (k < 0)
            break;
        char scratch[256];
        char *dst = got < cap ? buf + got : scratch;
        size_t room = got < cap ? cap - got : sizeof scratch;
        ssize_t n = read(p[0], dst, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (got < cap)
            got += (size_t)n;
    }
    close(p[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int result;
    if (timed_out) {
        result = MLAB_GUARD_TIMEOUT;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && buf && got > sizeof(int)) {
        memcpy(rc, buf, sizeof *rc);
        snprintf(msg, msglen, "%.*s", (int)(got - sizeof(int)), buf + sizeof(int));
        result = MLAB_GUARD_DONE;
    } else if (WIFSIGNALED(status)) {
        *rc = WTERMSIG(status);
        result = MLAB_GUARD_SIGNAL;
    } else if (!buf) {
        snprintf(msg, msglen, "out of memory");
        result = MLAB_GUARD_FAILED;
    } else {
        *rc = -(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
        result = MLAB_GUARD_SIGNAL;
    }
    free(buf);
    return result;
}

double mlab_guard_timeout(const char *path)
{
    const char *v = getenv("MLAB_H5_TIMEOUT");
    if (v && atof(v) > 0)
        return atof(v);
    struct stat st;
    double mb = stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0;
    return 30.0 + mb / 100.0;
}

int mlab_guard_read(const char *path, mlab_guard_fn fn, void *arg, char *why, size_t whylen)
{
    mlab_why w = {path, why, whylen};
    char msg[1024];
    int rc = 0;
    unsigned maj = 0, min = 0, rel = 0;
    double limit = mlab_guard_timeout(path);
    H5get_libversion(&maj, &min, &rel); /* the library running, named in the messages */
    mlab_h5_silence();
    int g = mlab_guard_run(fn, arg, 1, limit, &rc, msg, sizeof msg);
    switch (g) {
    case MLAB_GUARD_DONE:
        if (rc != MLAB_EXIT_OK && why && whylen)
            snprintf(why, whylen, "%s", msg);
        return rc;
    case MLAB_GUARD_SIGNAL: {
        char how[96];
        if (rc > 0)
            snprintf(how, sizeof how, "signal %d, %s", rc, strsignal(rc));
        else /* a sanitizer's handler exits instead of dying of the signal */
            snprintf(how, sizeof how, "exit status %d without an answer", -rc);
        return mlab_fail(&w, MLAB_EXIT_BADINPUT, NULL,
                         "the HDF5 library (%d.%d.%d) crashed reading it (%s): corrupt file", maj,
                         min, rel, how);
    }
    case MLAB_GUARD_TIMEOUT:
        return mlab_fail(&w, MLAB_EXIT_BADINPUT, NULL,
                         "the HDF5 library (%d.%d.%d) did not finish reading it in %.0f s: "
                         "corrupt file (or raise MLAB_H5_TIMEOUT)", maj, min, rel, limit);
    default:
        return mlab_fail(&w, MLAB_EXIT_INTERNAL, NULL, "%s", msg);
    }
}
