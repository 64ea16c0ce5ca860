/* Grapheme clusters, display columns, clipping and wrapping (libunistring). */
#include "ui/uitext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unigbrk.h>
#include <unilbrk.h>
#include <unistr.h>
#include <uniwidth.h>

size_t ui_text_next(const char *s, size_t len, size_t i)
{
    if (i >= len)
        return len;
    const uint8_t *p = (const uint8_t *)s + i, *end = (const uint8_t *)s + len;
    ucs4_t c;
    if (u8_mbtouc(&c, p, end - p) <= 0 || c == 0xFFFD) {
        /* an invalid byte (or a literal U+FFFD): one cluster of its own */
        int n = u8_mbtouc(&c, p, end - p);
        return i + (n > 0 ? (size_t)n : 1);
    }
    const uint8_t *q = u8_grapheme_next(p, end);
    return q ? (size_t)(q - (const uint8_t *)s) : len;
}

size_t ui_text_prev(const char *s, size_t len, size_t i)
{
    if (i == 0)
        return 0;
    if (i > len)
        i = len;
    /* walk forward from the start of the line: clusters are defined left to right */
    size_t at = 0, prev = 0;
    while (at < i) {
        prev = at;
        at = ui_text_next(s, len, at);
    }
    return prev;
}

int ui_text_gwidth(const char *s, size_t n)
{
    ucs4_t c;
    if (n == 0)
        return 0;
    int k = u8_mbtouc(&c, (const uint8_t *)s, n);
    if (k <= 0 || c == 0xFFFD)
        return 1;
    int w = uc_width(c, "UTF-8");
    if (w < 0)
        return 1;
    /* emoji presentation selector or a ZWJ sequence: terminals draw 2 columns */
    for (size_t i = (size_t)k; i + 2 < n + 1; i++)
        if ((uint8_t)s[i] == 0xEF && i + 2 < n && (uint8_t)s[i + 1] == 0xB8 &&
            (uint8_t)s[i + 2] == 0x8F)
            return 2;
    if (w == 0 && n > (size_t)k)
        return 1;   /* a cluster that starts with a combining mark still takes a cell */
    return w;
}

int ui_text_width(const char *s, size_t len)
{
    int w = 0;
    for (size_t i = 0; i < len;) {
        size_t j = ui_text_next(s, len, i);
        w += ui_text_gwidth(s + i, j - i);
        i = j;
    }
    return w;
}

size_t ui_text_clip(const char *s, size_t len, int max_cols, int *cols)
{
    int w = 0;
    size_t i = 0;
    while (i < len && s[i] != '\n') {
        size_t j = ui_text_next(s, len, i);
        int g = ui_text_gwidth(s + i, j - i);
        if (w + g > max_cols)
            break;
        w += g;
        i = j;
    }
    if (cols)
        *cols = w;
    return i;
}

int ui_text_col(const char *s, size_t i)
{
    return ui_text_width(s, i);
}

static int lines_push(ui_lines *out, size_t start, size_t len)
{
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 16;
        ui_span *v = realloc(out->v, cap * sizeof *v);
        if (!v)
            return -1;
        out->v = v;
        out->cap = cap;
    }
    out->v[out->n++] = (ui_span){start, len};
    return 0;
}

/* Push s[a..b) as one or more lines, cutting between clusters when too wide. */
static int push_cut(const char *s, size_t a, size_t b, int width, ui_lines *out)
{
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\n'))
        b--;   /* trailing spaces never start the next line */
    do {
        size_t n = ui_text_clip(s + a, b - a, width, NULL);
        if (n == 0 && a < b)
            n = ui_text_next(s + a, b - a, 0);   /* width 1 and a wide glyph */
        if (lines_push(out, a, n) < 0)
            return -1;
        a += n;
    } while (a < b);
    return 0;
}

int ui_wrap(const char *s, size_t len, int width, ui_lines *out)
{
    if (width < 1)
        width = 1;
    if (len == 0)
        return lines_push(out, 0, 0);
    char *p = malloc(len);
    if (!p)
        return -1;
    u8_width_linebreaks((const uint8_t *)s, len, width, 0, 0, NULL, "UTF-8", p);
    int rc = 0;
    size_t start = 0;
    for (size_t i = 0; i < len && rc == 0; i++) {
        if (p[i] == UC_BREAK_MANDATORY || p[i] == UC_BREAK_CR_BEFORE_LF) {
            rc = push_cut(s, start, i, width, out);   /* s[i] is the newline */
            start = i + (p[i] == UC_BREAK_CR_BEFORE_LF ? 2 : 1);
            if (p[i] == UC_BREAK_CR_BEFORE_LF)
                i++;
        } else if (p[i] == UC_BREAK_POSSIBLE && i > start) {
            rc = push_cut(s, start, i, width, out);
            start = i;
        }
    }
    if (rc == 0 && start < len)
        rc = push_cut(s, start, len, width, out);
    free(p);
    return rc;
}

void ui_lines_free(ui_lines *l)
{
    free(l->v);
    *l = (ui_lines){0};
}
