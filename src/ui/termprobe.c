/* Measuring how the terminal draws emoji sequences (cursor position reports). */
#include "ui/termprobe.h"

#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int write_all(int fd, const char *s)
{
    for (size_t n = strlen(s); n > 0;) {
        ssize_t r = write(fd, s, n);
        if (r <= 0)
            return -1;
        s += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Length of a cursor position report "ESC [ row ; col R" at s[0..n), 0 if none there;
 * *col gets the column (1-based). */
static size_t report_at(const char *s, size_t n, int *col)
{
    size_t i = 2;
    int c = 0, semi = 0;
    if (n < 6 || s[0] != '\033' || s[1] != '[')
        return 0;
    for (; i < n; i++) {
        if (s[i] == ';' && !semi)
            semi = 1, c = 0;
        else if (s[i] >= '0' && s[i] <= '9')
            c = c * 10 + (s[i] - '0');
        else
            break;
    }
    if (i == n || s[i] != 'R' || !semi || c <= 0)
        return 0;
    *col = c;
    return i + 1;
}

/* 1 if s[0..n) can still grow into a report: ESC, ESC [, then digits with at most one
 * ';' among them. */
static int report_prefix(const char *s, size_t n)
{
    if (n == 0 || s[0] != '\033' || (n > 1 && s[1] != '['))
        return 0;
    for (size_t i = 2, semi = 0; i < n; i++) {
        if (s[i] == ';' && !semi)
            semi = 1;
        else if (s[i] < '0' || s[i] > '9')
            return 0;
    }
    return 1;
}

int ui_probe_start(ui_probe *p, int in, int out)
{
    memset(p, 0, sizeof *p);
    p->in = in;
    if (!isatty(in) || !isatty(out))
        return -1;
    /* each sequence from column 1 and a report after it, then the line erased */
    static const char probe[] =
        "\r\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x94\xA7\033[6n"   /* 👩‍🔧 */
        "\r\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD\033[6n"                /* 👍🏽 */
        "\r\xE2\x9D\xA4\xEF\xB8\x8F\033[6n"                          /* ❤️ */
        "\r1\xEF\xB8\x8F\xE2\x83\xA3\033[6n"                         /* 1️⃣ */
        "\r\xF0\x9F\x87\xA8\xF0\x9F\x87\xB3\033[6n"                /* 🇨🇳 */
        "\r\033[K";
    if (write_all(out, probe) != 0)
        return -1;
    p->waiting = 1;
    p->deadline = now_s() + UI_PROBE_WAIT_MS / 1000.0;
    return 0;
}

/* Moves buf[0 .. k) to typed (as far as it holds) and keeps the rest. */
static void give_back(ui_probe *p, size_t k, char *typed, size_t cap, size_t *n_typed)
{
    for (size_t i = 0; i < k && *n_typed < cap; i++)
        typed[(*n_typed)++] = p->buf[i];
    memmove(p->buf, p->buf + k, p->n - k);
    p->n -= k;
}

int ui_probe_poll(ui_probe *p, int wait_ms, char *typed, size_t cap, size_t *n_typed)
{
    *n_typed = 0;
    if (!p->waiting)
        return 1;
    double left = p->deadline - now_s();
    int ms = left <= 0 ? 0 : (int)(left * 1000.0) + 1;
    struct pollfd pfd = {.fd = p->in, .events = POLLIN};
    ssize_t r = 0;
    if (poll(&pfd, 1, wait_ms < ms ? wait_ms : ms) > 0) {
        r = read(p->in, p->buf + p->n, sizeof p->buf - p->n);
        if (r > 0)
            p->n += (size_t)r;
        else
            r = -1;   /* the terminal went away: no answer will come */
    }
    /* take the answers out, wherever they are among the keys */
    for (size_t s = 0; s < p->n;) {
        int col = 0;
        size_t len = report_at(p->buf + s, p->n - s, &col);
        if (!len) {
            s++;
            continue;
        }
        if (p->got < UI_PROBE_N)
            p->cols[p->got++] = col;
        memmove(p->buf + s, p->buf + s + len, p->n - s - len);
        p->n -= len;
    }
    if (p->got == UI_PROBE_N || r < 0 || now_s() >= p->deadline || p->n == sizeof p->buf)
        p->waiting = 0;
    /* every byte before a possible start of an answer is a key typed meanwhile */
    size_t keep = p->n;
    for (size_t s = 0; p->waiting && s < p->n; s++)
        if (report_prefix(p->buf + s, p->n - s)) {
            keep = s;
            break;
        }
    give_back(p, p->waiting ? keep : p->n, typed, cap, n_typed);
    return !p->waiting;
}

void ui_probe_widths(const ui_probe *p, ui_term_widths *w)
{
    *w = (ui_term_widths){0};
    if (p->got < UI_PROBE_N)
        return;
    *w = (ui_term_widths){p->cols[0] - 1, p->cols[1] - 1, p->cols[2] - 1, p->cols[3] - 1,
                          p->cols[4] - 1};
}
