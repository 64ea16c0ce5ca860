/* The help overlay. */
#include "ui/help.h"

#include <string.h>

#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/i18n.h"
#include "ui/uitext.h"

static const ui_help_item common[] = {
    {N_("?  F1"), N_("this help (any key closes it)")},
    {N_("q  Esc"), N_("back; from the home screen: save and quit")},
    {N_("Ctrl-L"), N_("repaint the screen")},
    {NULL, NULL},
};

static int count(const ui_help_item *v)
{
    int n = 0;
    while (v && v[n].keys)
        n++;
    return n;
}

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

void ui_help_draw(WINDOW *w, ui_rect r, const ui_help_item *items)
{
    int n = count(items), nc = count(common);
    int kw = keys_width(items);
    int kc = keys_width(common);
    if (kc > kw)
        kw = kc;
    int bw = r.w - 4 > 76 ? 76 : r.w - 4;
    int bh = n + nc + 4;
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
    int y = by + 1, inner = bw - 4;
    if (kw > inner / 2)
        kw = inner / 2;
    for (int pass = 0; pass < 2; pass++) {
        const ui_help_item *v = pass == 0 ? items : common;
        for (int i = 0; v && v[i].keys && y < by + bh - 1; i++, y++) {
            ui_puts(w, y, bx + 2, _(v[i].keys), kw, crt_attr(CRT_STATUS_KEY) & ~A_COLOR);
            ui_puts(w, y, bx + 3 + kw, _(v[i].what), inner - kw - 1, a);
        }
        if (pass == 0 && n > 0)
            y++;
    }
}
