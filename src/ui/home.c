/* The home screen: a list of what the student can open. */
#include "ui/home.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/i18n.h"
#include "ui/lab.h"
#include "ui/tutor.h"

typedef enum item_kind { ITEM_CONTINUE, ITEM_LESSON, ITEM_LAB, ITEM_QUIZ } item_kind;

typedef struct home_item {
    item_kind kind;
    int lesson;          /* index for ITEM_LESSON */
    char label[256];
    char mark[64];       /* progress mark */
} home_item;

typedef struct ui_home {
    ui_screen base;
    home_item items[64];
    int n, sel, top;
} ui_home;

static const ui_help_item home_help[] = {
    {N_("↑ ↓  j k"), N_("choose")},
    {N_("Enter  → l"), N_("open")},
    {N_("c"), N_("continue where you left off")},
    {N_("L"), N_("open the attention lab")},
    {N_("t"), N_("open the self-test")},
    {NULL, NULL},
};

static void build(ui_home *h)
{
    h->n = 0;
    home_item *it = &h->items[h->n++];
    *it = (home_item){.kind = ITEM_LAB};
    snprintf(it->label, sizeof it->label, "%s", _("Attention lab: type a sentence, see its attention"));
    it = &h->items[h->n++];
    *it = (home_item){.kind = ITEM_QUIZ};
    snprintf(it->label, sizeof it->label, "%s", _("Self-test: questions Q1–Q5"));
    if (h->sel >= h->n)
        h->sel = h->n - 1;
}

static const char *home_title(ui_screen *s)
{
    return _("Home");
}

static const char *home_status(ui_screen *s)
{
    return _("↑↓: choose · Enter: open · q: save and quit");
}

static void home_draw(ui_screen *s, WINDOW *w, ui_rect r)
{
    ui_home *h = (ui_home *)s;
    ui_puts(w, r.y + 1, r.x + 2, _("Self-attention, step by step"), r.w - 4, crt_attr(CRT_TITLE));
    int y0 = r.y + 3, rows = r.h - 4;
    if (rows < 1)
        return;
    if (h->sel < h->top)
        h->top = h->sel;
    if (h->sel >= h->top + rows)
        h->top = h->sel - rows + 1;
    for (int i = 0; i < rows && h->top + i < h->n; i++) {
        const home_item *it = &h->items[h->top + i];
        int sel = h->top + i == h->sel;
        attr_t a = sel ? crt_attr(CRT_SELECTED) : crt_attr(CRT_NORMAL);
        ui_fill(w, y0 + i, r.x + 2, r.w - 4, a);
        int mw = it->mark[0] ? 12 : 0;
        ui_puts(w, y0 + i, r.x + 3, it->mark, mw, sel ? a : crt_attr(CRT_OK));
        ui_puts(w, y0 + i, r.x + 3 + mw, it->label, r.w - 6 - mw, a);
    }
}

static int open_item(ui_home *h)
{
    const home_item *it = &h->items[h->sel];
    ui_screen *s = NULL;
    switch (it->kind) {
    case ITEM_LAB: s = ui_lab_new(h->base.app, NULL, NULL); break;
    default: break;
    }
    if (s)
        ui_app_push(h->base.app, s);
    return UI_HANDLED | UI_REDRAW;
}

static int home_key(ui_screen *s, ui_key k)
{
    ui_home *h = (ui_home *)s;
    if (UI_IS_FN(k, KEY_UP) || UI_IS_CHAR(k, 'k')) {
        if (h->sel > 0)
            h->sel--;
    } else if (UI_IS_FN(k, KEY_DOWN) || UI_IS_CHAR(k, 'j')) {
        if (h->sel + 1 < h->n)
            h->sel++;
    } else if (UI_IS_FN(k, KEY_HOME) || UI_IS_CHAR(k, 'g')) {
        h->sel = 0;
    } else if (UI_IS_FN(k, KEY_END) || UI_IS_CHAR(k, 'G')) {
        h->sel = h->n - 1;
    } else if (UI_IS_CHAR(k, '\r') || UI_IS_CHAR(k, '\n') || UI_IS_FN(k, KEY_ENTER) ||
               UI_IS_FN(k, KEY_RIGHT) || UI_IS_CHAR(k, 'l')) {
        return open_item(h);
    } else if (UI_IS_CHAR(k, 'L')) {
        ui_screen *lab = ui_lab_new(s->app, NULL, NULL);
        if (lab)
            ui_app_push(s->app, lab);
    } else if (UI_IS_CHAR(k, 'q') || UI_IS_CHAR(k, 27)) {
        return UI_QUIT;
    } else {
        return UI_IGNORED;
    }
    return UI_HANDLED | UI_REDRAW;
}

static void home_resume(ui_screen *s)
{
    build((ui_home *)s);
}

static void home_free(ui_screen *s)
{
    free(s);
}

static const ui_screen_ops home_ops = {
    .draw = home_draw,
    .key = home_key,
    .title = home_title,
    .status = home_status,
    .resume = home_resume,
    .free = home_free,
    .help = home_help,
};

ui_screen *ui_home_new(ui_app *app)
{
    ui_home *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->base.ops = &home_ops;
    h->base.app = app;
    build(h);
    return &h->base;
}
