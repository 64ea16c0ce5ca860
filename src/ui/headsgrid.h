/* Every head of one layer side by side: a small heatmap per head, as many per row as
 * fit, the widest cells that fit (the weights printed in them from 4 columns, colour
 * or shade only below) and the labels as long as there is room for. The lab's "all
 * heads" view and a lesson's lab step with `head: all` draw it. */
#ifndef AT_UI_HEADSGRID_H
#define AT_UI_HEADSGRID_H

#include <curses.h>
#include "ui/attnview.h"
#include "ui/screen.h"

typedef struct ui_heads_grid {
    int heads;        /* panels (the layer's heads) */
    int cell;         /* columns of a cell (≥ 4: numbers shown) */
    int label;        /* columns of the row labels, gap included */
    int per_row;      /* panels side by side */
    int panel_w;      /* columns of one panel, the gap after it included */
    int panel_h;      /* rows of one panel: its title, the key labels, one row per token, a gap */
    int rows;         /* rows of the whole grid */
} ui_heads_grid;

/* Plan the grid of a's current layer in an area cols × max_rows (max_rows < 0: any
 * height, as in a document that scrolls): the widest cell, then the longest labels,
 * that fit. Returns 1 with g filled, 0 when not even 1-column cells fit (then the
 * caller shows one head). */
int ui_heads_grid_plan(const ui_attn *a, int cols, int max_rows, ui_heads_grid *g);

/* Draw the planned grid; the area r shows rows [row0, row0 + r.h) of the grid (a
 * document scrolled part of it away): a panel is drawn when it is whole in view.
 * focus (a 0-based query token, or -1) is highlighted in every panel. */
void ui_heads_grid_draw(WINDOW *w, ui_rect r, int row0, const ui_attn *a, int focus,
                        const ui_heads_grid *g);

#endif
