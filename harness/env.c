/* env.c: the host and program fields of a results file's environment
 * (env.h). The build facts come from build_info.h, which CMake generates
 * from harness/build_info.h.in at configure time (compilers, flags), and the
 * git_info.h it includes, rewritten at each build (git commit and dirty flag:
 * harness/cmake/git_info.cmake); the GPU back end from the MLAB_GPU_BACKEND
 * definition.
 * The device fields are mlab_gpu_open's. */
#include "env.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h> /* gethostname */

#include "build_info.h" /* MLAB_VERSION, MLAB_GIT_COMMIT, MLAB_GIT_DIRTY, MLAB_C_* */

#ifndef MLAB_GPU_BACKEND
#define MLAB_GPU_BACKEND "none"
#endif

/* Copy src into dst[size], truncated, NUL-terminated, control characters
 * (newlines, tabs) replaced by spaces so each field stays one line. */
static void put(char *dst, size_t size, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < size; i++)
        dst[i] = (unsigned char)src[i] < 0x20 ? ' ' : src[i];
    dst[i] = 0;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\t'))
        s[--n] = 0;
    size_t k = strspn(s, " \t");
    memmove(s, s + k, strlen(s + k) + 1);
}

/* The first "model name" of /proc/cpuinfo (x86; "Model" or "Hardware" on
 * some ARM kernels), "unknown" when there is none. */
static void cpu_model(char *dst, size_t size)
{
    static const char *keys[] = {"model name", "Model", "Hardware"};
    char line[512];
    put(dst, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = 0;
        trim(line);
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (strcmp(line, keys[k]) == 0) {
                char *v = colon + 1;
                trim(v);
                put(dst, size, v);
                fclose(f);
                return;
            }
    }
    fclose(f);
}

/* argv joined by spaces; a word with a space or a quote is single-quoted as
 * a shell would need it. Cut at a word boundary with " ..." when too long. */
static void join_argv(char *dst, size_t size, int argc, char **argv)
{
    size_t len = 0;
    dst[0] = 0;
    for (int i = 0; i < argc; i++) {
        char word[1024];
        const char *a = argv[i] ? argv[i] : "";
        if (a[0] == 0 || strpbrk(a, " \t'\"$`\\")) {
            size_t w = 0;
            word[w++] = '\'';
            for (const char *p = a; *p && w + 6 < sizeof word; p++) {
                if (*p == '\'') { /* ' -> '\'' */
                    memcpy(word + w, "'\\''", 4);
                    w += 4;
                } else {
                    word[w++] = *p;
                }
            }
            word[w++] = '\'';
            word[w] = 0;
        } else {
            put(word, sizeof word, a);
        }
        size_t need = strlen(word) + (i > 0);
        if (len + need + 1 > size) {
            const char *more = " ...";
            if (len + strlen(more) + 1 > size) /* room for the marker */
                len = size - strlen(more) - 1;
            memcpy(dst + len, more, strlen(more) + 1);
            return;
        }
        if (i > 0)
            dst[len++] = ' ';
        memcpy(dst + len, word, strlen(word) + 1);
        len += strlen(word);
    }
    put(dst, size, dst); /* control characters out */
}

void mlab_env_fill_host(mlab_env *env, int argc, char **argv)
{
    put(env->mlabench_version, sizeof env->mlabench_version, MLAB_VERSION);
    put(env->git_commit, sizeof env->git_commit, MLAB_GIT_COMMIT);
    env->git_dirty = MLAB_GIT_DIRTY;
    put(env->compiler, sizeof env->compiler, MLAB_C_COMPILER);
    put(env->compile_flags, sizeof env->compile_flags, MLAB_C_FLAGS);
    trim(env->compile_flags);
    put(env->gpu_backend, sizeof env->gpu_backend, MLAB_GPU_BACKEND);
    put(env->gpu_compiler, sizeof env->gpu_compiler, MLAB_GPU_COMPILER);
    put(env->gpu_compile_flags, sizeof env->gpu_compile_flags, MLAB_GPU_FLAGS);
    trim(env->gpu_compile_flags);
    trim(env->gpu_compiler);

    char host[256];
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "unknown");
    host[sizeof host - 1] = 0;
    put(env->host, sizeof env->host, host);
    cpu_model(env->cpu, sizeof env->cpu);

    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(env->utc_time, sizeof env->utc_time, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        put(env->utc_time, sizeof env->utc_time, "unknown");

    join_argv(env->command_line, sizeof env->command_line, argc, argv);
}
