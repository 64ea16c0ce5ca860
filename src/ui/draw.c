/* Clipped drawing of UTF-8 text by display width. */
#include "ui/draw.h"

#include <string.h>
#include <wchar.h>

#include "ui/crt.h"
#include "ui/glyphs.h"
#include "ui/uitext.h"

/* Blank cells after a glyph narrower than its cluster. */
static void put_blanks(WINDOW *w, int n)
{
    for (int c = 0; c < n; c++)
        waddch(w, ' ');
}

/* "�" padded to gw cells: a cluster that cannot be drawn whole in gw cells. */
static void put_placeholder(WINDOW *w, int gw)
{
    waddnwstr(w, L"\xFFFD", 1);
    put_blanks(w, gw - 1);
}

/* Draw one grapheme cluster of display width gw (ui_text_gwidth's: the terminal's when
 * it can be drawn whole) so that ncurses advances exactly gw cells and the terminal
 * receives the whole cluster or none of it. Whole: glyph by glyph (ui/glyphs.h), each
 * glyph's code points filled into one cell directly (setcchar keeps only non-spacing
 * characters after the first, which would cut an emoji ZWJ or modifier sequence to its
 * first code point; ncurses counts the cell as wide as its first code point). Else a
 * base character with only variation selectors after it is drawn without them, padded,
 * and anything else as "�" padded to gw. */
static void put_cluster(WINDOW *w, const char *s, size_t n, int gw)
{
    ui_glyphs g;
    if (ui_glyphs_plan(s, n, gw, crt_term_widths(), &g) && g.cols == gw) {
        for (int i = 0; i < g.n; i++) {
            cchar_t cc;
            wchar_t one[2] = {g.wc[g.start[i]], L'\0'};
            if (setcchar(&cc, one, 0, 0, NULL) == ERR) {
                put_placeholder(w, gw);   /* nothing of it drawn yet: i == 0 */
                return;
            }
            for (int k = 1; k < CCHARW_MAX; k++)
                cc.chars[k] = g.start[i] + k < g.start[i + 1] ? g.wc[g.start[i] + k] : L'\0';
            wadd_wch(w, &cc);
        }
        return;
    }
    wchar_t wc[CCHARW_MAX];
    mbstate_t st = {0};
    int k = 0;
    for (size_t i = 0; i < n && k < CCHARW_MAX; k++) {
        size_t r = mbrtowc(&wc[k], s + i, n - i, &st);
        if (r == (size_t)-1 || r == (size_t)-2 || r == 0)
            break;
        i += r;
        if (k > 0 && wc[k] != 0xFE0E && wc[k] != 0xFE0F) {
            k = 0;   /* more than selectors after the base */
            break;
        }
    }
    int first = k > 0 ? wcwidth(wc[0]) : 0;
    if (first > 0 && first <= gw) {
        waddnwstr(w, wc, 1);
        put_blanks(w, gw - first);
        return;
    }
    put_placeholder(w, gw);
}

int ui_put(WINDOW *w, int y, int x, const char *s, size_t len, int max_cols, attr_t a)
{
    if (max_cols <= 0 || !s)
        return 0;
    int maxy, maxx;
    getmaxyx(w, maxy, maxx);
    if (y < 0 || y >= maxy || x < 0 || x >= maxx)
        return 0;
    if (max_cols > maxx - x)
        max_cols = maxx - x;
    attr_t old_a;
    short old_p;
    wattr_get(w, &old_a, &old_p, NULL);
    wattrset(w, a);
    /* blank the span first: a character drawn over half of a wide one drawn earlier in
     * the frame (an overlay, a message over the screen) leaves the other half in ncurses'
     * buffer and a stray or shifted glyph on the terminal; whline clears such halves */
    int span = 0;
    for (size_t i = 0; i < len && s[i] != '\n' && s[i] != '\0';) {
        size_t j = ui_text_next(s, len, i);
        int gw = ui_text_gwidth(s + i, j - i);
        if (span + gw > max_cols)
            break;
        span += gw;
        i = j;
    }
    if (span > 0)
        mvwhline(w, y, x, ' ', span);
    wmove(w, y, x);
    int col = 0;
    for (size_t i = 0; i < len && s[i] != '\n' && s[i] != '\0';) {
        size_t j = ui_text_next(s, len, i);
        int gw = ui_text_gwidth(s + i, j - i);
        if (col + gw > max_cols)
            break;
        put_cluster(w, s + i, j - i, gw);
        col += gw;
        i = j;
    }
    wattr_set(w, old_a, old_p, NULL);
    return col;
}

int ui_puts(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a)
{
    return s ? ui_put(w, y, x, s, strlen(s), max_cols, a) : 0;
}

void ui_fill(WINDOW *w, int y, int x, int n, attr_t a)
{
    int maxy, maxx;
    getmaxyx(w, maxy, maxx);
    if (y < 0 || y >= maxy || x < 0 || x >= maxx || n <= 0)
        return;
    if (n > maxx - x)
        n = maxx - x;
    attr_t old_a;
    short old_p;
    wattr_get(w, &old_a, &old_p, NULL);
    wattrset(w, a);
    mvwhline(w, y, x, ' ', n);
    wattr_set(w, old_a, old_p, NULL);
}

int ui_put_pad(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a)
{
    int c = ui_puts(w, y, x, s, max_cols, a);
    ui_fill(w, y, x + c, max_cols - c, a);
    return max_cols;
}

int ui_put_right(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a)
{
    int cols;
    size_t n = ui_text_clip(s, strlen(s), max_cols, &cols);
    return ui_put(w, y, x + max_cols - cols, s, n, cols, a);
}

int ui_put_center(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a)
{
    int cols;
    size_t n = ui_text_clip(s, strlen(s), max_cols, &cols);
    return ui_put(w, y, x + (max_cols - cols) / 2, s, n, cols, a);
}

int ui_put_items(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a)
{
    const char *sep = " · ";
    size_t n = strlen(s), keep = 0;
    if (max_cols <= 0)
        return 0;
    if (ui_text_width(s, n) <= max_cols)
        return ui_put(w, y, x, s, n, max_cols, a);
    for (const char *p = strstr(s, sep); p; p = strstr(p + strlen(sep), sep)) {
        if (ui_text_width(s, (size_t)(p - s)) > max_cols)
            break;
        keep = (size_t)(p - s);
    }
    if (keep > 0)
        return ui_put(w, y, x, s, keep, max_cols, a);
    /* one long item: up to its last space that leaves room for "…" */
    for (size_t i = 0; i < n && s[i]; i++)
        if (s[i] == ' ' && ui_text_width(s, i) <= max_cols - 1)
            keep = i;
    if (keep == 0)
        return ui_put(w, y, x, s, n, max_cols, a);
    int c = ui_put(w, y, x, s, keep, max_cols - 1, a);
    return c + ui_put(w, y, x + c, "…", strlen("…"), 1, a);
}
