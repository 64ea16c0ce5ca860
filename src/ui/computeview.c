/* Compute steps as tables (see computeview.h). */
#include "ui/computeview.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/i18n.h"
#include "ui/uitext.h"

#define CELL 32          /* bytes of one formatted cell */
#define MAX_ROWS 64      /* rows shown of a matrix; the rest are named in a note */
#define INDENT 2

static void fmt_num(float v, char *b, size_t n)
{
    if (isnan(v))
        snprintf(b, n, "NaN");
    else if (isinf(v))
        snprintf(b, n, "%s", v < 0 ? "−∞" : "∞");
    else
        snprintf(b, n, "%.4g", (double)v);
}

/* One cell of a matrix: "masked" for a masked score, weights with 4 decimals. */
static void fmt_cell(float v, int masked_words, int weights, char *b, size_t n)
{
    if (masked_words && isinf(v) && v < 0)
        snprintf(b, n, "%s", _("masked"));
    else if (weights && isfinite(v))
        snprintf(b, n, "%.4f", (double)v);
    else
        fmt_num(v, b, n);
}

/* How a matrix is labelled and its numbers written. */
typedef struct mat_style {
    const char *const *rlab, *const *clab;   /* row / column labels, or NULL for 1, 2, … */
    int masked_words;    /* -inf reads "masked" */
    int weights;         /* 4 decimals */
} mat_style;

/* The text of cell (r, c) of the table: row 0 holds the column labels, column 0 the
 * row labels; m is [rows × cols]. */
static void fmt_table_cell(const float *m, size_t cols, const mat_style *st, size_t r, size_t c,
                           char *b)
{
    if (r == 0 && c == 0)
        b[0] = '\0';
    else if (r == 0 && st->clab)
        snprintf(b, CELL, "%s", st->clab[c - 1]);
    else if (r == 0)
        snprintf(b, CELL, "%zu", c);
    else if (c == 0 && st->rlab)
        snprintf(b, CELL, "%s", st->rlab[r - 1]);
    else if (c == 0)
        snprintf(b, CELL, "%zu", r);
    else
        fmt_cell(m[(r - 1) * cols + c - 1], st->masked_words, st->weights, b, CELL);
}

/* How many matrix columns (after the label column) fit whole in avail columns of
 * screen, leaving room for a "…" column when some are left out; at least 1. cw holds
 * the widest cell of each table column [cols + 1]. */
static size_t columns_that_fit(const int *cw, size_t cols, int avail)
{
    int total = 1 + cw[0] + 3;
    for (size_t c = 1; c <= cols; c++)
        total += cw[c] + 3;
    if (total <= avail)
        return cols;
    total = 1 + cw[0] + 3 + 4;   /* label column and "…" */
    size_t k = 0;
    while (k < cols && total + cw[k + 1] + 3 <= avail)
        total += cw[++k] + 3;
    return k ? k : 1;
}

/* A matrix [rows × cols] (row-major) as a table with row labels down the side and
 * column labels across the top (a single query is one row, as `show` prints it). */
static void matrix_table(ui_doc *d, const char *title, const float *m, size_t rows, size_t cols,
                         const mat_style *st)
{
    if (rows == 0 || cols == 0 || !m)
        return;
    ui_doc_line_add(d, title, CRT_TITLE, 0);
    size_t shown_rows = rows > MAX_ROWS ? MAX_ROWS : rows, nc = cols + 1;
    char *cells = calloc((shown_rows + 1) * nc, CELL);
    int *cw = calloc(nc, sizeof *cw);
    const char **ptrs = calloc((shown_rows + 1) * (nc + 1), sizeof *ptrs);
    const char ***rowp = calloc(shown_rows + 1, sizeof *rowp);
    if (!cells || !cw || !ptrs || !rowp) {
        d->failed = 1;
        goto out;
    }
    for (size_t r = 0; r <= shown_rows; r++)
        for (size_t c = 0; c < nc; c++) {
            char *cell = cells + (r * nc + c) * CELL;
            fmt_table_cell(m, cols, st, r, c, cell);
            int w = ui_text_width(cell, strlen(cell));
            cw[c] = w > cw[c] ? w : cw[c];
        }
    size_t k = columns_that_fit(cw, cols, d->width - INDENT);
    size_t tc = k + 1 + (k < cols);   /* table columns: labels, k numbers, maybe "…" */
    for (size_t r = 0; r <= shown_rows; r++) {
        rowp[r] = &ptrs[r * (nc + 1)];
        for (size_t c = 0; c <= k; c++)
            rowp[r][c] = cells + (r * nc + c) * CELL;
        if (k < cols)
            rowp[r][k + 1] = "…";
    }
    ui_doc_table(d, rowp[0], tc, (const char *const *const *)&rowp[1], shown_rows, INDENT);
    char note[256];
    if (k + 1 == cols) {
        snprintf(note, sizeof note, _("Column %zu of %zu is left out (the window is too narrow)."),
                 cols, cols);
        ui_doc_text(d, note, CRT_DIM, INDENT);
    } else if (k < cols) {
        snprintf(note, sizeof note, _("Columns %zu–%zu of %zu are left out (the window is too narrow)."),
                 k + 1, cols, cols);
        ui_doc_text(d, note, CRT_DIM, INDENT);
    }
    if (shown_rows < rows) {
        snprintf(note, sizeof note, _("Rows %zu–%zu of %zu are left out."), shown_rows + 1, rows,
                 rows);
        ui_doc_text(d, note, CRT_DIM, INDENT);
    }
    ui_doc_blank(d);
out:
    free(cells);
    free(cw);
    free(ptrs);
    free(rowp);
}

/* The line `show` starts with: sizes, heads and the scale used. With several heads the
 * scale follows each head's own width, which is named: "d_k = 4 (2 per head)". */
static void header_line(ui_doc *d, const at_compute_result *cr)
{
    char b[512];
    size_t per_head = cr->heads ? cr->d_k / cr->heads : cr->d_k;
    const char *why = fabsf(cr->scale * sqrtf((float)per_head) - 1.0f) < 1e-6f ? _(" (1/√dₖ)")
                      : cr->scale == 1.0f                                  ? _(" (no scaling)")
                                                                           : "";
    char nq[64], nk[64], nh[64], dk[64];
    snprintf(nq, sizeof nq, _n("%zu query", "%zu queries", cr->n_q), cr->n_q);
    snprintf(nk, sizeof nk, _n("%zu key", "%zu keys", cr->n_k), cr->n_k);
    snprintf(nh, sizeof nh, _n("%zu head", "%zu heads", cr->heads), cr->heads);
    if (cr->heads > 1)
        snprintf(dk, sizeof dk, _("%zu (%zu per head)"), cr->d_k, per_head);
    else
        snprintf(dk, sizeof dk, "%zu", cr->d_k);
    snprintf(b, sizeof b, _("n_q = %s, n_k = %s, d_k = %s, d_v = %zu, %s, scale = %.6g%s"), nq, nk,
             dk, cr->d_v, nh, (double)cr->scale, why);
    ui_doc_text(d, b, CRT_DIM, 0);
    ui_doc_blank(d);
}

/* The mask the lesson gives (causal, or rows of 1 and 0), as the engine applied it. */
static void mask_table(ui_doc *d, const at_compute *c, const at_compute_result *cr,
                       const mat_style *st)
{
    int given = c && ((c->mask && !strcmp(c->mask, "causal")) || c->mask_rows.rows_count > 0);
    if (!given || !cr->allowed)
        return;
    size_t n = cr->n_q * cr->n_k;
    float *m = malloc(n * sizeof *m);
    if (!m) {
        d->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        m[i] = cr->allowed[i] ? 1.0f : 0.0f;
    matrix_table(d, _("Mask (1 = may attend, 0 = masked)"), m, cr->n_q, cr->n_k, st);
    free(m);
}

/* What `show` prints under the matrices: the variance of the raw scores (and of the
 * scaled ones beside it, when the block scales) and the largest weight of each row (the
 * first head's, as `show` has it). A masked block has no variance line: its scores are
 * not what it is about. */
static void summary_lines(ui_doc *d, const at_compute_result *cr)
{
    char b[256];
    if (cr->raw && cr->n_q * cr->n_k > 1 && !cr->masked) {
        snprintf(b, sizeof b, _("Variance of the raw scores q·k: %.4g"), cr->raw_variance);
        ui_doc_text(d, b, CRT_NORMAL, 0);
        if (cr->scale != 1.0f) {
            snprintf(b, sizeof b, _("Variance of the scaled scores: %.4g"), cr->scaled_variance);
            ui_doc_text(d, b, CRT_NORMAL, 0);
        }
    }
    if (cr->n_k < 2)
        return;
    const char *head = _("Largest weight in each row:");
    size_t cap = strlen(head) + cr->n_q * 8 + 1, o = strlen(head);
    char *s = malloc(cap);
    if (!s) {
        d->failed = 1;
        return;
    }
    memcpy(s, head, o + 1);
    for (size_t i = 0; i < cr->n_q; i++) {
        float best = 0;
        for (size_t j = 0; j < cr->n_k; j++)
            best = cr->weights[i * cr->n_k + j] > best ? cr->weights[i * cr->n_k + j] : best;
        o += (size_t)snprintf(s + o, cap - o, " %.4f", (double)best);
    }
    ui_doc_text(d, s, CRT_NORMAL, 0);
    free(s);
}

void ui_compute_layout_results(ui_doc *d, const at_compute *c, const at_compute_result *cr)
{
    char title[256];
    const char *const *kl = cr->key_tokens ? cr->key_tokens : cr->tokens;
    mat_style vec = {cr->tokens, NULL, 0, 0}, weights = {cr->tokens, kl, 0, 1};
    int random = c && c->random;
    if (random) {   /* the figures the demo is about, before any matrix */
        summary_lines(d, cr);
        ui_doc_blank(d);
    }
    for (size_t h = 0; h < cr->heads; h++) {
        char head[32] = "";
        if (cr->heads > 1)
            snprintf(head, sizeof head, _(" · head %zu"), h + 1);
        snprintf(title, sizeof title, _("Weights = softmax of each row%s"), head);
        matrix_table(d, title, cr->weights + h * cr->n_q * cr->n_k, cr->n_q, cr->n_k, &weights);
    }
    for (size_t i = 0; i < cr->n_q; i++)
        if (cr->fully_masked && cr->fully_masked[i]) {
            snprintf(title, sizeof title, _("Row %zu is fully masked: it sees no key, its weights and output are 0."), i + 1);
            ui_doc_text(d, title, CRT_WARN, 2);
            if (i + 1 == cr->n_q || !cr->fully_masked[i + 1])
                ui_doc_blank(d);
        }
    if (!cr->scores_only && cr->out)
        matrix_table(d, _("Output = weights · V"), cr->out, cr->n_q, cr->d_v, &vec);
    if (!random)
        summary_lines(d, cr);
    ui_doc_blank(d);
}

void ui_compute_layout_inputs(ui_doc *d, const at_compute *c, const at_compute_result *cr)
{
    char title[256];
    const char *const *kl = cr->key_tokens ? cr->key_tokens : cr->tokens;
    mat_style vec = {cr->tokens, NULL, 0, 0}, kvec = {kl, NULL, 0, 0};
    mat_style scores = {cr->tokens, kl, 1, 0}, mask = {cr->tokens, kl, 0, 0};
    if (!cr->scores_only) {
        matrix_table(d, _("Q (queries)"), cr->q, cr->n_q, cr->d_k, &vec);
        matrix_table(d, _("K (keys)"), cr->k, cr->n_k, cr->d_k, &kvec);
        matrix_table(d, _("V (values)"), cr->v, cr->n_k, cr->d_v, &kvec);
    }
    mask_table(d, c, cr, &mask);
    for (size_t h = 0; h < cr->heads; h++) {
        size_t off = h * cr->n_q * cr->n_k;
        char head[32] = "";
        if (cr->heads > 1)
            snprintf(head, sizeof head, _(" · head %zu"), h + 1);
        if (!cr->scores_only) {
            snprintf(title, sizeof title, _("Scores QKᵀ%s"), head);
            matrix_table(d, title, cr->raw + off, cr->n_q, cr->n_k, &scores);
            snprintf(title, sizeof title, _("Scaled scores × %.4g%s"), (double)cr->scale, head);
        } else {
            snprintf(title, sizeof title, _("Scores (already scaled)%s"), head);
        }
        matrix_table(d, title, cr->scaled + off, cr->n_q, cr->n_k, &scores);
    }
}

void ui_compute_layout_header(ui_doc *d, const at_compute_result *cr)
{
    if (!cr->scores_only)
        header_line(d, cr);
}

void ui_compute_layout(ui_doc *d, const at_compute *c, const at_compute_result *cr)
{
    ui_compute_layout_header(d, cr);
    ui_compute_layout_results(d, c, cr);
    ui_doc_line_add(d, _("How the engine got there:"), CRT_DIM, 0);
    ui_doc_blank(d);
    ui_compute_layout_inputs(d, c, cr);
}
