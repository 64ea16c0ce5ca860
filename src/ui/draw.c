/* Clipped drawing of UTF-8 text by display width. */
#include "ui/draw.h"

#include <string.h>
#include <wchar.h>

#include "engine/visible.h"
#include "ui/crt.h"
#include "ui/termprobe.h"
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

/* Decode s[0..n) into at most cap code points; the count, or -1 for invalid UTF-8, a
 * code point the one filter refuses (engine/visible.h: controls, bidi overrides) or
 * more than cap code points. *sum gets the wcwidth sum. */
static int decode_cluster(const char *s, size_t n, wchar_t *wc, int cap, int *sum)
{
    mbstate_t st = {0};
    int k = 0;
    *sum = 0;
    for (size_t i = 0; i < n; k++) {
        if (k == cap)
            return -1;
        size_t r = mbrtowc(&wc[k], s + i, n - i, &st);
        if (r == (size_t)-1 || r == (size_t)-2 || r == 0)
            return -1;
        int cw = wcwidth(wc[k]);
        if (cw < 0 || at_visible_unsafe((uint32_t)wc[k]))   /* the one filter */
            return -1;
        *sum += cw;
        i += r;
    }
    return k;
}

/* May a cluster whose code points' wcwidths add up to more than its width be sent
 * whole? Only when every spacing code point after the first is an emoji modifier or
 * follows a ZWJ, and the terminal was seen to join those (crt_joins). */
static int terminal_joins(const wchar_t *wc, int k)
{
    int need = 0;
    for (int i = 1; i < k; i++) {
        if (wcwidth(wc[i]) == 0)
            continue;
        if (wc[i] >= 0x1F3FB && wc[i] <= 0x1F3FF)
            need |= UI_JOINS_MODIFIER;
        else if (wc[i - 1] == 0x200D)
            need |= UI_JOINS_ZWJ;
        else
            return 0;
    }
    return (crt_joins() & need) == need;
}

/* Draw one grapheme cluster of display width gw (libunistring's) so that ncurses
 * advances exactly gw cells and the terminal receives the whole cluster or none of it.
 * One cell holds up to CCHARW_MAX code points, filled here: setcchar keeps only
 * non-spacing characters after the first, which would cut an emoji ZWJ or modifier
 * sequence to its first code point. ncurses counts the cell as wide as its first code
 * point. A flag (two regional indicators of 1 column) goes one code point per cell.
 * A cluster longer than a cell, or one the terminal would draw wider than gw, is
 * drawn as "�" padded to gw; a base character with only variation selectors after
 * it is drawn without them, padded. */
static void put_cluster(WINDOW *w, const char *s, size_t n, int gw)
{
    wchar_t wc[CCHARW_MAX];
    int sum;
    int k = decode_cluster(s, n, wc, CCHARW_MAX, &sum);
    /* a ZWJ at the end (a sequence being typed) is invisible, and a terminal that
     * joins would glue the next character drawn, anywhere, to this cell */
    while (k > 1 && wc[k - 1] == 0x200D)
        k--;
    int first = k > 0 ? wcwidth(wc[0]) : 0;
    if (first <= 0 || first > gw) {
        put_placeholder(w, gw);
        return;
    }
    if (first == gw && (sum == gw || terminal_joins(wc, k))) {
        cchar_t cc;
        wchar_t one[2] = {wc[0], L'\0'};
        if (setcchar(&cc, one, 0, 0, NULL) == ERR) {
            put_placeholder(w, gw);
            return;
        }
        for (int i = 1; i < CCHARW_MAX; i++)
            cc.chars[i] = i < k ? wc[i] : L'\0';
        wadd_wch(w, &cc);
        return;
    }
    if (sum == gw) {
        waddnwstr(w, wc, k);
        return;
    }
    int only_selectors = 1;
    for (int i = 1; i < k; i++)
        if (wc[i] != 0xFE0E && wc[i] != 0xFE0F)
            only_selectors = 0;
    if (only_selectors) {
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
