/* A laid-out document: what the lesson player and quiz screen show, as a list of
 * display lines already wrapped to a width (libunistring line breaking), with tables
 * whose borders stay straight around CJK cells, and reserved blocks a screen draws
 * itself (an embedded heatmap). Scrolls by line. */
#ifndef AT_UI_DOC_H
#define AT_UI_DOC_H

#include <curses.h>
#include <stddef.h>
#include "ui/crt.h"
#include "ui/screen.h"

typedef struct ui_doc_line {
    char *text;       /* owned UTF-8, one display line (NULL for block lines) */
    crt_role role;
    int indent;       /* columns */
    int block;        /* 0, or the id of a reserved block this line belongs to */
    int block_row;    /* which row of the block */
} ui_doc_line;

typedef struct ui_doc {
    ui_doc_line *v;
    size_t n, cap;
    int width;        /* the width the lines were laid out for */
    int failed;       /* an allocation failed: the document is incomplete */
} ui_doc;

/* Start a document laid out for `width` columns (≥ 1). Frees what d held. */
void ui_doc_reset(ui_doc *d, int width);
void ui_doc_free(ui_doc *d);

/* Paragraphs of text (blank lines and '\n' kept), wrapped to width − indent. */
void ui_doc_text(ui_doc *d, const char *text, crt_role role, int indent);

/* Text composed by the grader (feedback), with the line structure it prints: a '\n'
 * is kept after a line that ends a sentence, a heading (". : ! ? )") or a number,
 * before an indented line, a list item ("✓ ", "✗ ", "- ", "1. ", "b) ") or a heading
 * line ending in ':', and around blank lines; any other '\n' (a lesson text wrapped
 * by hand, inside an option's feedback too) is a space, or nothing between CJK
 * characters. Each line is wrapped to width − indent; a list item's wrapped lines
 * hang under its text, past its leading spaces and marker. */
void ui_doc_flow(ui_doc *d, const char *text, crt_role role, int indent);

/* One line, not wrapped (clipped when drawn): code, formulas. */
void ui_doc_line_add(ui_doc *d, const char *text, crt_role role, int indent);

/* An empty line. */
void ui_doc_blank(ui_doc *d);

/* A table: header [n_cols] (may be NULL), rows [n_rows][n_cols] of UTF-8 cells.
 * Column widths fit the widest cell; when the table is wider than the document,
 * the widest columns shrink and their cells wrap. Borders │ ─ ┼ line up because
 * every cell is padded by display width. */
void ui_doc_table(ui_doc *d, const char *const *header, size_t n_cols,
                  const char *const *const *rows, size_t n_rows, int indent);

/* Reserve h lines for block `id` (≥ 1), drawn by the screen (ui_doc_draw reports
 * where). */
void ui_doc_block(ui_doc *d, int id, int h);

/* Called by ui_doc_draw for the visible part of a block: rows [row0, row0 + h) of
 * block id are at screen rows y … y + h − 1. */
typedef void (*ui_doc_block_fn)(void *ctx, WINDOW *w, int id, int row0, ui_rect where);

/* Draw lines top … top + r.h − 1 into r. */
void ui_doc_draw(WINDOW *w, ui_rect r, const ui_doc *d, int top, ui_doc_block_fn fn,
                 void *ctx);

#endif
