/* progress.h: progress on stderr that reads well on a terminal and in a log.
 * On a terminal: one line rewritten in place ("\r", cleared to its end).
 * Otherwise (a file, a pipe, CI): plain lines, at most one every
 * MLAB_PROGRESS_LOG_S seconds (the environment variable of that name
 * overrides it), so a log gets a few readable lines rather than one line
 * of carriage returns. */
#ifndef MLAB_PROGRESS_H
#define MLAB_PROGRESS_H

#define MLAB_PROGRESS_LOG_S 10.0

typedef struct {
    int tty;        /* stderr is a terminal */
    int open;       /* a rewritable line is on screen */
    double t_last;  /* when the last log line was written */
    double log_s;   /* seconds between log lines */
} mlab_progress;

void mlab_progress_init(mlab_progress *p);
/* An intermediate state (printf format, no newline). */
void mlab_progress_update(mlab_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A line that stays (ends the rewritable one on a terminal). */
void mlab_progress_line(mlab_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "2 min 10 s", "45 s", "1.2 h": a duration for estimates. */
void mlab_duration_str(double s, char *out, unsigned long n);

#endif
