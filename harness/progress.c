/* progress.c: terminal-or-log progress lines (progress.h). */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h> /* getenv, strtod */
#include <unistd.h> /* isatty */

#include "sampler.h" /* mlab_now_s */

void mlab_progress_init(mlab_progress *p)
{
    const char *e = getenv("MLAB_PROGRESS_LOG_S");
    char *end = NULL;
    double v = e ? strtod(e, &end) : 0;
    p->log_s = e && end != e && !*end && v >= 0 ? v : MLAB_PROGRESS_LOG_S;
    p->tty = isatty(fileno(stderr));
    p->open = 0;
    p->t_last = mlab_now_s();
}

void mlab_progress_update(mlab_progress *p, const char *fmt, ...)
{
    va_list ap;
    double now = mlab_now_s();
    if (!p->tty && now - p->t_last < p->log_s)
        return;
    va_start(ap, fmt);
    if (p->tty)
        fputc('\r', stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (p->tty) {
        fputs("\033[K", stderr);
        p->open = 1;
    } else {
        fputc('\n', stderr);
        p->t_last = now;
    }
    fflush(stderr);
}

void mlab_progress_line(mlab_progress *p, const char *fmt, ...)
{
    va_list ap;
    if (p->open)
        fputs("\r\033[K", stderr);
    p->open = 0;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    p->t_last = mlab_now_s();
}

void mlab_duration_str(double s, char *out, unsigned long n)
{
    if (s < 60)
        snprintf(out, n, "%.0f s", s < 1 ? 1 : s);
    else if (s < 3600)
        snprintf(out, n, "%d min %02d s", (int)(s / 60), (int)s % 60);
    else
        snprintf(out, n, "%.1f h", s / 3600);
}
