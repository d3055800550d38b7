/* mlab_check.h: the C tests' one way to check. check(ok, "behaviour") and
 * CHECK(cond, fmt, ...) count every check and every failure and print the
 * behaviour (or the formatted message, with file:line) that failed; a test
 * ends with `return failed ? 1 : 0`. */
#ifndef MLAB_CHECK_H
#define MLAB_CHECK_H

#include <stdio.h> // printf

static int failed, checked;

static inline void check(int ok, const char *behaviour)
{
    checked++;
    if (!ok) {
        failed++;
        printf("FAIL: %s\n", behaviour);
    }
}

#define CHECK(cond, ...)                                    \
    do {                                                    \
        checked++;                                          \
        if (!(cond)) {                                      \
            failed++;                                       \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);     \
            printf(__VA_ARGS__);                            \
            printf("\n");                                   \
        }                                                   \
    } while (0)

#endif
