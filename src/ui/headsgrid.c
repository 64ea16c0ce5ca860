/* Every head of a layer side by side (see headsgrid.h). */
#include "ui/headsgrid.h"

#include <stdio.h>
#include <string.h>

#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/heatmap.h"
#include "ui/i18n.h"
#include "ui/uitext.h"

#define MAX_CELL 5    /* " 0.42" */
#define MAX_LABEL 12  /* row label columns, gap included */
#define MIN_LABEL 5

static int longest_label(const ui_attn *a)
{
    int m = 0;
    for (size_t i = 0; i < a->run.n; i++) {
        int w = ui_text_width(a->labels[i], strlen(a->labels[i]));
        m = w > m ? w : m;
    }
    return m;
}

/* Panels per row and the grid's rows with cells of cw and labels of lw; 0 when one
 * panel is wider than cols or the grid taller than max_rows. */
static int try_plan(const ui_attn *a, int cols, int max_rows, int cw, int lw, ui_heads_grid *g)
{
    int n = (int)a->run.n, H = (int)ui_attn_heads(a);
    int pw = lw + cw * n + 2, ph = n + 3;
    int per_row = cols / pw;
    if (per_row > H)
        per_row = H;
    if (per_row < 1 && cols >= pw - 2)   /* the gap after the last panel may be left out */
        per_row = 1;
    if (per_row < 1)
        return 0;
    int rows = (H + per_row - 1) / per_row * ph - 1;
    if (max_rows >= 0 && rows > max_rows)
        return 0;
    *g = (ui_heads_grid){H, cw, lw, per_row, pw, ph, rows};
    return 1;
}

int ui_heads_grid_plan(const ui_attn *a, int cols, int max_rows, ui_heads_grid *g)
{
    memset(g, 0, sizeof *g);
    if (a->run.n == 0 || ui_attn_heads(a) == 0)
        return 0;
    int want = longest_label(a) + 1;
    want = want > MAX_LABEL ? MAX_LABEL : want < MIN_LABEL ? MIN_LABEL : want;
    for (int cw = MAX_CELL; cw >= 1; cw--)
        for (int lw = want; lw >= MIN_LABEL; lw--)
            if (try_plan(a, cols, max_rows, cw, lw, g))
                return 1;
    return 0;
}

void ui_heads_grid_draw(WINDOW *w, ui_rect r, int row0, const ui_attn *a, int focus,
                        const ui_heads_grid *g)
{
    int n = (int)a->run.n;
    for (int h = 0; h < g->heads; h++) {
        int py = (h / g->per_row) * g->panel_h - row0;   /* the panel's first row, in r */
        if (py < 0 || py + n + 2 > r.h)
            continue;   /* not whole in view */
        ui_heatmap m = {0};
        m.cur_row = focus;
        m.cur_col = -1;
        m.max_cell = g->cell;
        m.label_cols = g->label;
        ui_attn_heatmap(a, h, &m);
        int gx = r.x + (h % g->per_row) * g->panel_w, gy = r.y + py;
        char t[32];
        snprintf(t, sizeof t, _("head %zu"), (size_t)h + 1);
        ui_puts(w, gy, gx, t, g->panel_w - 1, crt_attr(CRT_TITLE));
        ui_heatmap_draw(w, (ui_rect){gy + 1, gx, n + 1, g->label + g->cell * n}, &m);
    }
}
