/* Every byte a command prints passes the one filter (engine/visible.h): stdout and
 * stderr are replaced by streams that filter what is written to them and hand it to
 * file descriptors 1 and 2. glibc lets a program assign stdout and stderr; a stream of
 * fopencookie has no file descriptor, so a screen command keeps the real stdout for
 * ncurses (whose own drawing filters through ui/draw.c). */
#define _GNU_SOURCE
#include "cli/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/visible.h"

typedef struct guard_t {
    int fd;
    FILE *stream;     /* the filtering stream, now in *slot */
    FILE **slot;      /* &stdout or &stderr */
    FILE *real;       /* what *slot held before */
    at_visible filter;
} guard_t;

static guard_t guards[2];   /* stdout, stderr (the terminal is process-wide state) */

static int write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t size)
{
    guard_t *g = cookie;
    char out[AT_VISIBLE_OUT_MAX(1024)];
    for (size_t done = 0; done < size;) {
        size_t n = size - done < 1024 ? size - done : 1024;
        size_t o = at_visible_feed(&g->filter, buf + done, n, out);
        if (write_all(g->fd, out, o))
            return done ? (ssize_t)done : -1;
        done += n;
    }
    return (ssize_t)size;
}

/* At exit: what the streams hold, then a sequence the output ended in the middle of;
 * the streams are closed (nothing of them is left to a leak checker) and stdout and
 * stderr are the real ones again for anything printed after. */
static void guard_finish(void)
{
    for (int i = 0; i < 2; i++) {
        guard_t *g = &guards[i];
        if (!g->stream)
            continue;
        fflush(g->stream);
        char out[8];
        size_t o = at_visible_end(&g->filter, out);
        if (o)
            (void)write_all(g->fd, out, o);
        *g->slot = g->real;
        fclose(g->stream);
        g->stream = NULL;
    }
}

/* Replace *slot (stdout or stderr) by a filtering stream onto fd; once each. */
static int guard(guard_t *g, FILE **slot, int fd, int mode)
{
    static int at_exit;
    if (g->stream)
        return 0;
    cookie_io_functions_t io = {.write = guard_write};
    g->fd = fd;
    at_visible_init(&g->filter, 1);
    FILE *f = fopencookie(g, "w", io);
    if (!f)
        return -1;
    setvbuf(f, NULL, mode, mode == _IONBF ? 0 : BUFSIZ);
    fflush(*slot);
    g->slot = slot;
    g->real = *slot;
    g->stream = *slot = f;
    if (!at_exit++)
        atexit(guard_finish);
    return 0;
}

int cli_guard_stderr(void)
{
    return guard(&guards[1], &stderr, STDERR_FILENO, _IONBF);
}

int cli_guard_stdout(void)
{
    return guard(&guards[0], &stdout, STDOUT_FILENO, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
}

/* s[0 .. n) of JSON text with each code point the filter refuses as \uXXXX and each
 * invalid sequence as \ufffd; quote: also " and \ (s is a string's content). */
static void json_text(FILE *f, const char *s, size_t n, int quote)
{
    for (size_t i = 0; i < n;) {
        uint32_t c;
        int r = at_visible_decode(s + i, n - i, &c);
        if (r <= 0) {   /* invalid, or cut short by the end */
            fputs("\\ufffd", f);
            i += r < 0 ? (size_t)-r : n - i;
            continue;
        }
        if (quote && (c == '"' || c == '\\'))
            fprintf(f, "\\%c", (int)c);
        else if (at_visible_unsafe(c))
            fprintf(f, "\\u%04x", (unsigned)c);
        else
            fwrite(s + i, 1, (size_t)r, f);
        i += (size_t)r;
    }
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    json_text(f, s ? s : "", s ? strlen(s) : 0, 1);
    fputc('"', f);
}

void cli_print_json(FILE *f, const char *json)
{
    json_text(f, json, strlen(json), 0);
    fputc('\n', f);
}
