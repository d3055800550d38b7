/* reason.c: the one-line reason of a failure and the escaping of file text
 * in it (reason.h). */
#include "reason.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int mlab_fail(const mlab_why *w, int code, const char *obj, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!w->why || !w->whylen)
        return code;
    char m[2048], p[1024]; /* one line, whatever strings the file holds */
    mlab_escape(msg, m, sizeof m, 1);
    mlab_escape(w->path, p, sizeof p, 0);
    if (obj && strncmp(m, "= ", 2) == 0)
        snprintf(w->why, w->whylen, "%s: %s %s", p, obj, m);
    else if (obj)
        snprintf(w->why, w->whylen, "%s: %s: %s", p, obj, m);
    else
        snprintf(w->why, w->whylen, "%s: %s", p, m);
    return code;
}

const char *mlab_name_bad_char(const char *s, int no_slash)
{
    for (const char *q = s; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f || (no_slash && *q == '/'))
            return q;
    return NULL;
}

const char *mlab_escape(const char *s, char *buf, size_t len, int all_bytes)
{
    size_t k = 0;
    if (!len)
        return buf;
    for (; *s && k + 5 < len; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\n' || ch == '\t' || ch == '\r') {
            buf[k++] = '\\';
            buf[k++] = ch == '\n' ? 'n' : ch == '\t' ? 't' : 'r';
        } else if (ch < 0x20 || ch == 0x7f || (all_bytes && ch >= 0x80)) {
            k += (size_t)snprintf(buf + k, len - k, "\\x%02x", ch);
        } else {
            buf[k++] = (char)ch;
        }
    }
    buf[k] = '\0';
    return buf;
}
