/* test_results_h5.c: results files in C (harness/results_read.c,
 * results_write.c, env.c).
 *
 * Pins: every field of the environment, the inputs and the rows (with a
 * row that has no samples) survives a write and a read; the reader refuses
 * a newer format_version with a clear message and exit 3, a root attribute
 * of the wrong type (naming it), a case file, a non-HDF5 file (3) and a
 * missing file (4); a write leaves no temporary
 * behind, removes a stale temporary of a dead writer and keeps one of a
 * live process; a write into a missing folder fails with 4 and leaves
 * nothing; mlab_env_fill_host fills the host fields and quotes and cuts the
 * command line safely.
 */
#include <dirent.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/env.h"
#include "harness/exitcodes.h"
#include "harness/results.h"
#include "harness/results_read.h"  /* mlab_results_read */
#include "harness/results_write.h" /* mlab_results_write */

#include "mlab_check.h" // CHECK, failed

static char dir[256];

static void sample_results(mlab_results *r)
{
    mlab_results_init(r);
    char *argv[] = {"mlabench", "run", "--cases", "a b.h5", "it's"};
    mlab_env_fill_host(&r->env, 5, argv);
    snprintf(r->env.gpu_name, sizeof r->env.gpu_name, "NVIDIA H200");
    snprintf(r->env.runtime_version, sizeof r->env.runtime_version, "CUDA 12.8");
    r->env.gpu_cu_count = 132;
    r->env.gpu_l2_bytes = 62914560;
    r->env.copy_bw_gbs = 4271.5;

    mlab_input_file in;
    memset(&in, 0, sizeof in);
    snprintf(in.path, sizeof in.path, "cases/b4.h5");
    memset(in.sha256, 'a', 64);
    snprintf(in.schema, sizeof in.schema, "mlabench-case");
    in.schema_version = 1;
    snprintf(in.case_name, sizeof in.case_name, "b4_kv1024_s4217");
    mlab_results_add_input(r, &in);

    double s[] = {10.5, 11.25, 10.0, 12.0, 1e-3};
    mlab_row row;
    memset(&row, 0x5a, sizeof row); /* garbage after the strings must not matter */
    snprintf(row.case_name, sizeof row.case_name, "b4_kv1024_s4217");
    snprintf(row.variant, sizeof row.variant, "fp8");
    snprintf(row.kv_format, sizeof row.kv_format, "fp8");
    snprintf(row.kernel_tol, sizeof row.kernel_tol, "kernel:fp8");
    snprintf(row.stop_reason, sizeof row.stop_reason, "rse");
    snprintf(row.kind, sizeof row.kind, "gpu");
    snprintf(row.peer_version, sizeof row.peer_version, "%s", "");
    snprintf(row.merge, sizeof row.merge, "combine16");
    snprintf(row.l2_policy, sizeof row.l2_policy, "evict_first");
    snprintf(row.unit, sizeof row.unit, "item");
    row.slow_us = 2.5e5; /* a quarter of the row power-limited */
    row.slow_span_us = 1e6;
    snprintf(row.gpu_uuid, sizeof row.gpu_uuid, "GPU-0000");
    snprintf(row.host, sizeof row.host, "h200-a");
    row.batch = 4;
    row.valid = -1;
    row.kernel_err.n = 32768;
    row.kernel_err.max_abs_idx = (size_t)1 << 40;
    row.kernel_err.rel_rms = 1.0 / 3;
    row.total_err.comp_pass = 0;
    row.samples_us = s;
    row.nsamples = 5;
    mlab_row_summarize(&row);
    mlab_results_add_row(r, &row);

    snprintf(row.variant, sizeof row.variant, "cpu_ref_fp32");
    snprintf(row.stop_reason, sizeof row.stop_reason, "not_timed");
    row.samples_us = NULL;
    row.nsamples = 0;
    mlab_row_summarize(&row);
    mlab_results_add_row(r, &row);
}

static int field_equal(const void *a, const void *b, const mlab_field *f)
{
    const char *p = (const char *)a + f->offset, *q = (const char *)b + f->offset;
    if (f->kind == 's')
        return strcmp(p, q) == 0;
    return memcmp(p, q, f->size) == 0;
}

static void roundtrip(void)
{
    mlab_results r, back;
    char path[512], why[1024];
    sample_results(&r);
    snprintf(path, sizeof path, "%s/r.h5", dir);
    int rc = mlab_results_write(path, &r, why, sizeof why);
    CHECK(rc == 0, "write: %s", why);
    rc = mlab_results_read(path, &back, why, sizeof why);
    CHECK(rc == 0, "read: %s", why);
    if (rc)
        return;
    size_t n;
    const mlab_field *f = mlab_env_fields(&n);
    for (size_t k = 0; k < n; k++)
        CHECK(field_equal(&r.env, &back.env, &f[k]), "env field %s differs", f[k].name);
    CHECK(back.ninputs == 1 && strcmp(back.inputs[0].sha256, r.inputs[0].sha256) == 0 &&
              back.inputs[0].schema_version == 1 &&
              strcmp(back.inputs[0].case_name, "b4_kv1024_s4217") == 0,
          "inputs differ");
    CHECK(back.nrows == 2, "%zu rows back, want 2", back.nrows);
    f = mlab_row_fields(&n);
    for (size_t i = 0; i < back.nrows && i < 2; i++)
        for (size_t k = 0; k < n; k++)
            CHECK(field_equal(&r.rows[i], &back.rows[i], &f[k]), "row %zu field %s differs", i,
                  f[k].name);
    CHECK(back.rows[0].nsamples == 5 && back.rows[0].samples_us &&
              memcmp(back.rows[0].samples_us, r.rows[0].samples_us, 5 * sizeof(double)) == 0,
          "samples differ");
    CHECK(back.rows[1].nsamples == 0 && back.rows[1].samples_us == NULL, "row 1 has samples");
    CHECK(strstr(back.env.command_line, "'a b.h5'") && strstr(back.env.command_line, "'it'\\''s'"),
          "command line not quoted: %s", back.env.command_line);
    mlab_results_free(&back);
    mlab_results_free(&r);
}

/* Overwrite the root's format_version (or format) in place. */
static void patch_attr(const char *path, const char *name, int version, const char *format)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Adelete(f, name);
    hid_t sp = H5Screate(H5S_SCALAR);
    if (format) {
        hid_t t = H5Tcopy(H5T_C_S1);
        H5Tset_size(t, strlen(format) + 1);
        hid_t a = H5Acreate2(f, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, t, format);
        H5Aclose(a);
        H5Tclose(t);
    } else {
        hid_t a = H5Acreate2(f, name, H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT, &version);
        H5Aclose(a);
    }
    H5Sclose(sp);
    H5Fclose(f);
}

static void refusals(void)
{
    mlab_results r, back;
    char path[512], why[1024];
    sample_results(&r);
    snprintf(path, sizeof path, "%s/v3.h5", dir);
    mlab_results_write(path, &r, why, sizeof why);
    patch_attr(path, "format_version", MLAB_RESULTS_VERSION + 1, NULL);
    int rc = mlab_results_read(path, &back, why, sizeof why);
    CHECK(rc == MLAB_EXIT_BADINPUT && strstr(why, "newer") && strstr(why, path),
          "newer version: rc %d: %s", rc, why);
    CHECK(back.nrows == 0 && back.rows == NULL, "a refused read must leave nothing");

    snprintf(path, sizeof path, "%s/case.h5", dir);
    mlab_results_write(path, &r, why, sizeof why);
    patch_attr(path, "format", 0, "mlabench-case"); /* fixed-length string this time */
    rc = mlab_results_read(path, &back, why, sizeof why);
    CHECK(rc == MLAB_EXIT_BADINPUT && strstr(why, "a case file"), "case file: rc %d: %s", rc, why);

    /* refuses a root attribute of the wrong type, naming it (the shared
     * attribute reader, h5util.h) */
    snprintf(path, sizeof path, "%s/wrongtype.h5", dir);
    mlab_results_write(path, &r, why, sizeof why);
    patch_attr(path, "gpu_name", 7, NULL); /* an int32 where a string belongs */
    rc = mlab_results_read(path, &back, why, sizeof why);
    CHECK(rc == MLAB_EXIT_BADINPUT && strstr(why, path) && strstr(why, "attribute gpu_name") &&
              strstr(why, "expected a string"),
          "gpu_name as int32: rc %d: %s", rc, why);

    snprintf(path, sizeof path, "%s/text.h5", dir);
    FILE *f = fopen(path, "w");
    fputs("not hdf5\n", f);
    fclose(f);
    rc = mlab_results_read(path, &back, why, sizeof why);
    CHECK(rc == MLAB_EXIT_BADINPUT && strstr(why, "not an HDF5 file"), "text: rc %d: %s", rc, why);

    snprintf(path, sizeof path, "%s/missing.h5", dir);
    rc = mlab_results_read(path, &back, why, sizeof why);
    CHECK(rc == MLAB_EXIT_IO && strstr(why, "missing.h5"), "missing: rc %d: %s", rc, why);

    snprintf(path, sizeof path, "%s/no/such/folder/r.h5", dir);
    rc = mlab_results_write(path, &r, why, sizeof why);
    CHECK(rc == MLAB_EXIT_IO, "write into a missing folder: rc %d: %s", rc, why);
    mlab_results_free(&r);
}

static int count_temporaries(const char *base)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    char pre[256];
    snprintf(pre, sizeof pre, "%s.tmp.", base);
    while ((e = readdir(d)))
        n += strncmp(e->d_name, pre, strlen(pre)) == 0;
    closedir(d);
    return n;
}

static void temporaries(void)
{
    mlab_results r;
    char path[512], stale[600], live[600], why[1024];
    sample_results(&r);
    snprintf(path, sizeof path, "%s/t.h5", dir);

    pid_t child = fork(); /* a pid that is surely dead once reaped */
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    snprintf(stale, sizeof stale, "%s.tmp.%ld", path, (long)child);
    snprintf(live, sizeof live, "%s.tmp.%ld", path, (long)getppid());
    fclose(fopen(stale, "w"));
    fclose(fopen(live, "w"));
    int rc = mlab_results_write(path, &r, why, sizeof why);
    CHECK(rc == 0, "write: %s", why);
    CHECK(access(stale, F_OK) != 0, "the dead writer's temporary %s is still there", stale);
    CHECK(access(live, F_OK) == 0, "a live process's temporary was removed");
    CHECK(count_temporaries("t.h5") == 1, "%d temporaries, want only the live one",
          count_temporaries("t.h5"));
    unlink(live);
    mlab_results_free(&r);
}

static void env_fields(void)
{
    mlab_env e;
    memset(&e, 0, sizeof e);
    char *argv[300];
    char word[] = "abcdefghij";
    argv[0] = "mlabench";
    for (int i = 1; i < 300; i++)
        argv[i] = word;
    mlab_env_fill_host(&e, 300, argv);
    CHECK(e.host[0] && e.cpu[0] && e.mlabench_version[0] && e.git_commit[0],
          "host fields empty");
    CHECK(strlen(e.utc_time) == 20 && e.utc_time[4] == '-' && e.utc_time[10] == 'T' &&
              e.utc_time[19] == 'Z',
          "utc_time '%s' is not ISO 8601 Z", e.utc_time);
    size_t n = strlen(e.command_line);
    CHECK(n < sizeof e.command_line && n > 400 && strcmp(e.command_line + n - 4, " ...") == 0,
          "long command line not cut with ' ...': %zu chars", n);
    CHECK(strcmp(e.gpu_backend, "none") == 0 || strcmp(e.gpu_backend, "cuda") == 0 ||
              strcmp(e.gpu_backend, "hip") == 0,
          "gpu_backend '%s'", e.gpu_backend);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/mlab_test_results_h5.%ld", (long)getpid());
    if (mkdir(dir, 0700) != 0) {
        perror(dir);
        return 1;
    }
    roundtrip();
    refusals();
    temporaries();
    env_fields();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (failed == 0 && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (failed) {
        fprintf(stderr, "%d failure(s); files left in %s\n", failed, dir);
        return 1;
    }
    printf("test_results_h5: ok\n");
    return 0;
}
