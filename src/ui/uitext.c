/* Display columns, clipping and wrapping for the screens: widths and clusters from
 * engine/text.h, line breaking from libunistring. */
#include "ui/uitext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unilbrk.h>
#include <unistr.h>

#include "engine/text.h"
#include "ui/crt.h"
#include "ui/glyphs.h"

size_t ui_text_next(const char *s, size_t len, size_t i)
{
    return at_text_next_grapheme(s, len, i);
}

size_t ui_text_prev(const char *s, size_t len, size_t i)
{
    return at_text_prev_grapheme(s, len, i);
}

int ui_text_gwidth(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    int w = at_grapheme_width(s, n);
    /* control characters and a cluster that starts with a combining mark are drawn as
     * U+FFFD in a cell of their own */
    if (w <= 0)
        w = 1;
    ucs4_t c;
    if (n == 1 || (size_t)u8_mbtouc(&c, (const uint8_t *)s, n) == n)
        return w;   /* one code point */
    ui_glyphs g;   /* an emoji sequence: the columns this terminal draws it in */
    return ui_glyphs_plan(s, n, w, crt_term_widths(), &g) ? g.cols : w;
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
    /* never break inside a number or what follows its digits and dots ("0.xx"): the
     * line breaker allows it next to CJK text */
    char *o = calloc(len, 1);
    if (!o) {
        free(p);
        return -1;
    }
    for (size_t i = 1; i < len; i++) {
        unsigned char a = (unsigned char)s[i - 1], b = (unsigned char)s[i];
        int a_num = (a >= '0' && a <= '9') || a == '.';
        int b_word = (b >= '0' && b <= '9') || b == '.' || (b >= 'a' && b <= 'z') ||
                     (b >= 'A' && b <= 'Z');
        if ((a_num && b_word) || a == '/')   /* nor after a slash: "1/√4" stays whole */
            o[i] = UC_BREAK_PROHIBITED;
    }
    u8_width_linebreaks((const uint8_t *)s, len, width, 0, 0, o, "UTF-8", p);
    free(o);
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
