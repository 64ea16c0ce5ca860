/* The help overlay. */
#include "ui/help.h"

#include <string.h>

#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/i18n.h"
#include "ui/uitext.h"

static const ui_help_item common[] = {
    {N_("?  F1"), N_("this help (↑ ↓ scroll it, any other key closes it)")},
    {N_("q  Esc"), N_("back; from the home screen: save and quit")},
    {N_("Ctrl-L"), N_("repaint the screen")},
    {NULL, NULL},
};

static int keys_width(const ui_help_item *v)
{
    int m = 0;
    for (int i = 0; v && v[i].keys; i++) {
        const char *k = _(v[i].keys);
        int w = ui_text_width(k, strlen(k));
        if (w > m)
            m = w;
    }
    return m;
}

/* Lines the item's description takes when wrapped to `cols`. */
static int item_lines(const ui_help_item *it, int cols)
{
    ui_lines l = {0};
    const char *what = _(it->what);
    int n = ui_wrap(what, strlen(what), cols, &l) == 0 ? (int)l.n : 1;
    ui_lines_free(&l);
    return n > 0 ? n : 1;
}

/* Draw one item from virtual row *row; rows before y_top are skipped (scrolled). */
static void draw_item(WINDOW *w, int *row, int y_top, int x, int kw, int cols, int y_end,
                      const ui_help_item *it)
{
    ui_lines l = {0};
    const char *what = _(it->what);
    if (*row >= y_top && *row < y_end)
        ui_puts(w, *row, x, _(it->keys), kw, crt_attr(CRT_TITLE));
    if (ui_wrap(what, strlen(what), cols, &l) < 0) {
        (*row)++;
        return;
    }
    for (size_t i = 0; i < l.n; i++, (*row)++)
        if (*row >= y_top && *row < y_end)
            ui_put(w, *row, x + kw + 1, what + l.v[i].start, l.v[i].len, cols,
                   crt_attr(CRT_NORMAL));
    ui_lines_free(&l);
}

void ui_help_draw(WINDOW *w, ui_rect r, const ui_help_item *items, int *scroll)
{
    int kw = keys_width(items);
    int kc = keys_width(common);
    if (kc > kw)
        kw = kc;
    int bw = r.w - 2 > 78 ? 78 : r.w - 2;
    int inner = bw - 4;
    if (kw > inner / 2)
        kw = inner / 2;
    int cols = inner - kw - 1;
    int body = 1;   /* the gap between the screen's keys and the shared ones */
    for (int pass = 0; pass < 2; pass++)
        for (const ui_help_item *v = pass ? common : items; v && v->keys; v++)
            body += item_lines(v, cols);
    int bh = body + 2;
    if (bh > r.h)
        bh = r.h;
    int by = r.y + (r.h - bh) / 2, bx = r.x + (r.w - bw) / 2;
    attr_t a = crt_attr(CRT_NORMAL);
    for (int y = by; y < by + bh; y++)
        ui_fill(w, y, bx, bw, a);
    wattrset(w, crt_attr(CRT_BORDER));
    mvwhline(w, by, bx + 1, ACS_HLINE, bw - 2);
    mvwhline(w, by + bh - 1, bx + 1, ACS_HLINE, bw - 2);
    mvwvline(w, by + 1, bx, ACS_VLINE, bh - 2);
    mvwvline(w, by + 1, bx + bw - 1, ACS_VLINE, bh - 2);
    mvwaddch(w, by, bx, ACS_ULCORNER);
    mvwaddch(w, by, bx + bw - 1, ACS_URCORNER);
    mvwaddch(w, by + bh - 1, bx, ACS_LLCORNER);
    mvwaddch(w, by + bh - 1, bx + bw - 1, ACS_LRCORNER);
    wattrset(w, A_NORMAL);
    ui_put_center(w, by, bx + 1, _(" Keys "), bw - 2, crt_attr(CRT_TITLE));
    int y_top = by + 1, y_end = by + bh - 1;
    int max_scroll = body - (y_end - y_top);
    if (*scroll > max_scroll)
        *scroll = max_scroll;
    if (*scroll < 0)
        *scroll = 0;
    int row = y_top - *scroll;
    for (int pass = 0; pass < 2; pass++) {
        const ui_help_item *v = pass == 0 ? items : common;
        for (; v && v->keys && row < y_end; v++)
            draw_item(w, &row, y_top, bx + 2, kw, cols, y_end, v);
        if (pass == 0 && items && items->keys)
            row++;
    }
    if (max_scroll > 0)
        ui_put_center(w, by + bh - 1, bx + 1, *scroll < max_scroll ? _(" ↓ j ") : _(" ↑ k "),
                      bw - 2, crt_attr(CRT_WARN));
}
