/* The attention heatmap widget: query tokens down the left, key tokens across the
 * top, one cell per weight coloured by the heat ramp (shade characters ░▒▓█ without
 * colour), the weight printed where a cell is wide enough, masked cells as "·", and a
 * fully masked row said in words (never NaN). A cursor cell highlights its row and
 * column labels; the view scrolls to keep the cursor visible. */
#ifndef AT_UI_HEATMAP_H
#define AT_UI_HEATMAP_H

#include <curses.h>
#include <stddef.h>
#include "ui/screen.h"

typedef struct ui_heatmap {
    size_t n_q, n_k;
    const float *weights;              /* [n_q × n_k], row-major */
    const float *scores;               /* optional [n_q × n_k]: -INFINITY marks a masked cell */
    const unsigned char *fully_masked; /* optional [n_q]: 1 = no visible key in that row */
    const char *const *q_labels;       /* [n_q] UTF-8 */
    const char *const *k_labels;       /* [n_k] UTF-8 */
    int cur_row, cur_col;              /* cursor cell, -1 = none */
    int top, left;                     /* first visible row and column (kept in range) */
    int max_cell;                      /* widest cell in columns (0 = 6; 1 = colour only) */
    const unsigned char *dim_rows;     /* optional [n_q]: 1 = a row drawn dimmed (its label
                                          and its cells: numbers and shades, no heat colour) */
    int label_cols;                    /* columns of the row labels, the gap included
                                          (0 = from the labels and the width) */
    int hidden;                        /* 1: the weights are not shown yet (a prediction is
                                          pending): blank cells, the cursor cell marked */
} ui_heatmap;

/* Draw in r (at least 3 rows × 8 columns, else nothing is drawn). */
void ui_heatmap_draw(WINDOW *w, ui_rect r, ui_heatmap *h);

/* The cell width the heatmap would use in an area `cols` wide. */
int ui_heatmap_cell_width(const ui_heatmap *h, int cols);

/* The columns the heatmap takes in an area `cols` wide: its labels and every key's cell
 * (no more than cols). */
int ui_heatmap_width(const ui_heatmap *h, int cols);

/* 1 when cells in an area `cols` wide are wide enough to print the weights (else the
 * heatmap is colour or shade only, and the screen should say where the numbers are). */
int ui_heatmap_shows_numbers(const ui_heatmap *h, int cols);

/* Format weight x in exactly `cols` columns (3 or more), right-aligned: "0.42",
 * ".42", "1.0". Writes a NUL-terminated string into buf (≥ 32 bytes; cols ≤ 16). */
void ui_heatmap_format(float x, int cols, char *buf);

#endif
