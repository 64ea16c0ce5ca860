/* One-line UTF-8 editor: grapheme-wise editing, display-width cursor. */
#include "ui/lineedit.h"

#include <stdint.h>
#include <string.h>
#include <unistr.h>
#include <wctype.h>

#include "engine/visible.h"
#include "ui/uitext.h"

void ui_lineedit_set(ui_lineedit *e, const char *s)
{
    e->len = 0;
    e->scroll = 0;
    e->cut = 0;
    const uint8_t *p = (const uint8_t *)(s ? s : ""), *end = p + strlen((const char *)p);
    while (p < end) {
        ucs4_t c;
        int n = u8_mbtouc(&c, p, end - p);
        uint8_t tmp[6];
        int m = u8_uctomb(tmp, c, sizeof tmp);   /* c is U+FFFD when p was invalid */
        if (m <= 0 || e->len + (size_t)m >= UI_LINE_MAX) {
            e->cut = 1;
            break;
        }
        if (c == '\n' || c == '\t' || c == '\r')
            tmp[0] = ' ', m = 1;
        memcpy(e->buf + e->len, tmp, (size_t)m);
        e->len += (size_t)m;
        p += n > 0 ? n : 1;
    }
    e->buf[e->len] = '\0';
    e->cur = e->len;
}

int ui_lineedit_insert(ui_lineedit *e, wchar_t c)
{
    if (c < 0 || at_visible_unsafe((uint32_t)c) || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
        return 0;   /* what the one filter would not print (engine/visible.h) is not typed */
    uint8_t tmp[6];
    int m = u8_uctomb(tmp, (ucs4_t)c, sizeof tmp);
    if (m <= 0 || e->len + (size_t)m >= UI_LINE_MAX)
        return 0;
    memmove(e->buf + e->cur + m, e->buf + e->cur, e->len - e->cur + 1);
    memcpy(e->buf + e->cur, tmp, (size_t)m);
    e->len += (size_t)m;
    /* A combining mark joins the cluster before it; keep the cursor after the new
     * code point, which is still a cluster boundary. */
    e->cur += (size_t)m;
    return 1;
}

static void cut(ui_lineedit *e, size_t a, size_t b)
{
    memmove(e->buf + a, e->buf + b, e->len - b + 1);
    e->len -= b - a;
    e->cur = a;
}

int ui_lineedit_backspace(ui_lineedit *e)
{
    if (e->cur == 0)
        return 0;
    cut(e, ui_text_prev(e->buf, e->len, e->cur), e->cur);
    return 1;
}

int ui_lineedit_delete(ui_lineedit *e)
{
    if (e->cur >= e->len)
        return 0;
    size_t save = e->cur;
    cut(e, e->cur, ui_text_next(e->buf, e->len, e->cur));
    e->cur = save;
    return 1;
}

int ui_lineedit_kill_word(ui_lineedit *e)
{
    size_t a = e->cur;
    while (a > 0 && e->buf[a - 1] == ' ')
        a--;
    while (a > 0 && e->buf[a - 1] != ' ')
        a = ui_text_prev(e->buf, e->len, a);
    if (a == e->cur)
        return 0;
    cut(e, a, e->cur);
    return 1;
}

int ui_lineedit_clear(ui_lineedit *e)
{
    if (e->len == 0)
        return 0;
    e->len = e->cur = 0;
    e->buf[0] = '\0';
    e->scroll = 0;
    e->cut = 0;
    return 1;
}

int ui_lineedit_left(ui_lineedit *e)
{
    if (e->cur == 0)
        return 0;
    e->cur = ui_text_prev(e->buf, e->len, e->cur);
    return 1;
}

int ui_lineedit_right(ui_lineedit *e)
{
    if (e->cur >= e->len)
        return 0;
    e->cur = ui_text_next(e->buf, e->len, e->cur);
    return 1;
}

int ui_lineedit_home(ui_lineedit *e)
{
    int moved = e->cur != 0;
    e->cur = 0;
    return moved;
}

int ui_lineedit_end(ui_lineedit *e)
{
    int moved = e->cur != e->len;
    e->cur = e->len;
    return moved;
}

int ui_lineedit_cursor_col(const ui_lineedit *e)
{
    return ui_text_width(e->buf, e->cur);
}

int ui_lineedit_fit(ui_lineedit *e, int cols)
{
    if (cols < 2)
        cols = 2;
    int col = ui_lineedit_cursor_col(e);
    if (col < e->scroll)
        e->scroll = col;
    if (col > e->scroll + cols - 2)
        e->scroll = col - (cols - 2);
    /* never scrolled further than the text needs (after the field grew back, the start
     * shows again when it all fits) */
    int total = ui_text_width(e->buf, e->len);
    if (e->scroll > total - (cols - 2))
        e->scroll = total - (cols - 2);
    if (e->scroll < 0)
        e->scroll = 0;
    return col - e->scroll;
}
