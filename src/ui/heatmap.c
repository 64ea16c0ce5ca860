/* The attention heatmap widget. */
#include "ui/heatmap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/i18n.h"
#include "ui/uitext.h"

void ui_heatmap_format(float x, int cols, char *buf)
{
    char tmp[32];
    if (!isfinite(x))
        snprintf(tmp, sizeof tmp, "·");
    else if (cols >= 4)
        snprintf(tmp, sizeof tmp, "%.2f", (double)x);
    else if (x >= 0.995f)
        snprintf(tmp, sizeof tmp, "1.0");
    else
        snprintf(tmp, sizeof tmp, ".%02d", (int)lrintf(x * 100));
    int w = (int)strlen(tmp);
    if (!isfinite(x))
        w = 1;
    int pad = cols - w > 0 ? cols - w : 0;
    if (pad > 16)
        pad = 16;
    memset(buf, ' ', (size_t)pad);
    memcpy(buf + pad, tmp, strlen(tmp) + 1);
}

static int label_width(const char *const *labels, size_t n)
{
    int m = 0;
    for (size_t i = 0; i < n; i++) {
        int w = ui_text_width(labels[i], strlen(labels[i]));
        if (w > m)
            m = w;
    }
    return m;
}

static int row_label_cols(const ui_heatmap *h, int cols)
{
    if (h->label_cols > 1)
        return h->label_cols;
    int lw = label_width(h->q_labels, h->n_q);
    int cap = cols / 4 < 12 ? cols / 4 : 12;
    if (lw > cap)
        lw = cap;
    if (lw < 2)
        lw = 2;
    return lw + 1;
}

int ui_heatmap_cell_width(const ui_heatmap *h, int cols)
{
    int avail = cols - row_label_cols(h, cols);
    int maxc = h->max_cell > 0 ? h->max_cell : 6;
    int cw = h->n_k ? avail / (int)h->n_k : maxc;
    if (cw > maxc)
        cw = maxc;
    if (cw < 2)
        cw = maxc < 2 ? 1 : 2;
    return cw;
}

int ui_heatmap_width(const ui_heatmap *h, int cols)
{
    int w = row_label_cols(h, cols) + ui_heatmap_cell_width(h, cols) * (int)h->n_k;
    return w < cols ? w : cols;
}

int ui_heatmap_shows_numbers(const ui_heatmap *h, int cols)
{
    return ui_heatmap_cell_width(h, cols) >= 4;
}

static void keep_in_view(int *first, int cur, int visible, int n)
{
    if (visible < 1)
        visible = 1;
    if (cur >= 0 && cur < *first)
        *first = cur;
    if (cur >= 0 && cur >= *first + visible)
        *first = cur - visible + 1;
    if (*first > n - visible)
        *first = n - visible;
    if (*first < 0)
        *first = 0;
}

static int is_masked(const ui_heatmap *h, size_t i, size_t j)
{
    return h->scores && isinf(h->scores[i * h->n_k + j]) && h->scores[i * h->n_k + j] < 0;
}

static void draw_cell(WINDOW *w, int y, int x, int cw, const ui_heatmap *h, size_t i,
                      size_t j, int selected)
{
    float v = h->weights[i * h->n_k + j];
    char num[64];
    int colour = crt_palette_in_use() != CRT_PALETTE_NONE;
    if (h->hidden) {   /* nothing of the weight: the cursor cell marked with "?" */
        attr_t a = selected ? crt_attr(CRT_SELECTED) : crt_attr(CRT_DIM);
        ui_fill(w, y, x, cw, a);
        ui_puts(w, y, x + cw - 1, selected ? "?" : "·", 1, a);
        return;
    }
    if (is_masked(h, i, j)) {
        attr_t a = selected ? crt_attr(CRT_SELECTED) : crt_attr(CRT_DIM);
        ui_fill(w, y, x, cw, a);
        ui_puts(w, y, x + cw / 2, "·", 1, a);
        return;
    }
    int dim = h->dim_rows && h->dim_rows[i] && !selected;
    if (dim && (colour || cw >= 4)) {   /* grey, no heat: the number, else a shade */
        attr_t a = crt_attr(CRT_DIM);
        ui_fill(w, y, x, cw, a);
        if (cw >= 4) {
            ui_heatmap_format(v, cw - 1, num);
            ui_puts(w, y, x + 1, num, cw - 1, a);
        } else {
            ui_puts(w, y, x + cw - 1, crt_shade(v), 1, a);
        }
        return;
    }
    if (colour) {
        attr_t a = selected ? crt_attr(CRT_SELECTED) : crt_attr(crt_heat_role(v));
        ui_fill(w, y, x, cw, a);
        if (cw >= 4) {
            ui_heatmap_format(v, cw - 1, num);
            ui_puts(w, y, x + 1, num, cw - 1, a);
        }
        return;
    }
    attr_t a = selected ? A_REVERSE : dim ? crt_attr(CRT_DIM) : crt_attr(crt_heat_role(v));
    const char *shade = crt_shade(v);
    int numw = cw >= 4 ? cw - 1 : 0;
    for (int c = 0; c < cw - numw; c++)
        ui_puts(w, y, x + c, shade, 1, a);
    if (numw) {
        ui_heatmap_format(v, numw, num);
        ui_puts(w, y, x + cw - numw, num, numw, a);
    }
}

void ui_heatmap_draw(WINDOW *w, ui_rect r, ui_heatmap *h)
{
    if (r.h < 3 || r.w < 8 || h->n_q == 0 || h->n_k == 0)
        return;
    int lw = row_label_cols(h, r.w);
    int cw = ui_heatmap_cell_width(h, r.w);
    int vis_cols = (r.w - lw) / cw, vis_rows = r.h - 1;
    keep_in_view(&h->left, h->cur_col, vis_cols, (int)h->n_k);
    keep_in_view(&h->top, h->cur_row, vis_rows, (int)h->n_q);
    /* column labels along the top */
    for (int c = 0; c < vis_cols && h->left + c < (int)h->n_k; c++) {
        int j = h->left + c;
        attr_t a = j == h->cur_col ? crt_attr(CRT_SELECTED) : crt_attr(CRT_TITLE);
        /* over the cell's value (its first column is the gap to the left neighbour),
         * right-aligned like the numbers, cut to the cell: labels never run together;
         * a label whose first character is wider than that (one CJK character over a
         * 2-column cell) takes the whole cell rather than vanish, and one wider than
         * the whole cell (👍🏽 where a terminal draws it in 4 columns) shows as "…" */
        const char *kl = h->k_labels[j];
        int room = cw - 1, fit = 0;
        ui_text_clip(kl, strlen(kl), room, &fit);
        if (fit == 0) {
            room = cw;
            ui_text_clip(kl, strlen(kl), room, &fit);
            if (fit == 0 && *kl)
                kl = "…";
        }
        if (cw >= 2)
            ui_put_right(w, r.y, r.x + lw + c * cw + cw - room, kl, room, a);
    }
    if (h->left > 0)
        ui_puts(w, r.y, r.x + lw - 1, "‹", 1, crt_attr(CRT_DIM));
    if (h->left + vis_cols < (int)h->n_k)
        ui_puts(w, r.y, r.x + lw + vis_cols * cw, "›", 1, crt_attr(CRT_DIM));
    for (int rr = 0; rr < vis_rows && h->top + rr < (int)h->n_q; rr++) {
        size_t i = (size_t)(h->top + rr);
        int y = r.y + 1 + rr;
        attr_t la = (int)i == h->cur_row ? crt_attr(CRT_SELECTED)
                    : h->dim_rows && h->dim_rows[i] ? crt_attr(CRT_DIM) : crt_attr(CRT_TITLE);
        ui_put_pad(w, y, r.x, h->q_labels[i], lw - 1, la);
        if (h->fully_masked && h->fully_masked[i]) {
            ui_puts(w, y, r.x + lw, _("fully masked: no key visible, all weights 0"),
                    r.w - lw, crt_attr(CRT_DIM) | A_BOLD);
            continue;
        }
        for (int c = 0; c < vis_cols && h->left + c < (int)h->n_k; c++) {
            size_t j = (size_t)(h->left + c);
            int sel = (int)i == h->cur_row && (int)j == h->cur_col;
            draw_cell(w, y, r.x + lw + c * cw, cw, h, i, j, sel);
        }
    }
}
