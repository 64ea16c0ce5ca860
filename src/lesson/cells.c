/* Numbers and token names as written in lesson files. */
#define _GNU_SOURCE
#include "lesson/lesson.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* strtod in the "C" locale whatever the caller's LC_NUMERIC. */
static double c_strtod(const char *s, char **end)
{
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (!c)
        return strtod(s, end);
    double v = strtod_l(s, end, c);
    freelocale(c);
    return v;
}

/* s with every Unicode minus (U+2212, as typeset text writes it) as '-', in buf;
 * NULL when it does not fit. */
static const char *ascii_minus(const char *s, char *buf, size_t cap)
{
    size_t o = 0;
    for (const char *p = s; *p; o++) {
        if (o + 1 >= cap)
            return NULL;
        if (!strncmp(p, "\u2212", 3)) {
            buf[o] = '-';
            p += 3;
        } else {
            buf[o] = *p++;
        }
    }
    buf[o] = '\0';
    return buf;
}

int at_parse_cell(const char *s, double *out)
{
    static const char *nans[] = {".nan", ".NaN", ".NAN"};
    static const char *infs[] = {".inf", ".Inf", ".INF"};
    char buf[128];
    if (s && strstr(s, "\u2212"))
        s = ascii_minus(s, buf, sizeof buf);   /* −0.5 */
    if (!s || !*s)
        return -1;
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(s, nans[i])) {
            *out = NAN;
            return 0;
        }
    const char *t = s + (*s == '+' || *s == '-');
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(t, infs[i])) {
            *out = *s == '-' ? -INFINITY : INFINITY;
            return 0;
        }
    /* strtod would also take "nan", "inf", hex and "1e400"; a lesson writes decimals. */
    for (const char *p = t; *p; p++)
        if (!strchr("0123456789.eE+-", *p))
            return -1;
    char *end;
    errno = 0;
    double v = c_strtod(s, &end);
    if (*end || end == s || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

long at_token_index(const char *const *tokens, size_t n, const char *name)
{
    if (!name)
        return -1;
    for (size_t i = 0; tokens && i < n; i++)
        if (tokens[i] && !strcmp(tokens[i], name))
            return (long)i;
    char *end;
    errno = 0;
    long pos = strtol(name, &end, 10);
    if (*name >= '0' && *name <= '9' && !*end && errno == 0 && pos >= 1 && (size_t)pos <= n)
        return pos - 1;
    return -1;
}
