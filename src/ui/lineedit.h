/* A one-line UTF-8 editor, independent of the terminal: the buffer is edited by
 * grapheme cluster (Backspace after "ä注" leaves "ä") and the cursor is placed by
 * display width. The screen feeds it characters from get_wch. */
#ifndef AT_UI_LINEEDIT_H
#define AT_UI_LINEEDIT_H

#include <stddef.h>
#include <wchar.h>

#define UI_LINE_MAX 8192   /* bytes of UTF-8, the terminating NUL included: room for a
                              sentence of more tokens than the model reads (256) */

typedef struct ui_lineedit {
    char buf[UI_LINE_MAX];  /* always valid UTF-8, NUL-terminated */
    size_t len;             /* bytes in buf */
    size_t cur;             /* cursor, a byte offset on a cluster boundary */
    int scroll;             /* first visible column when the line is wider than the field */
    int cut;                /* 1 when ui_lineedit_set had to drop the end of its text */
} ui_lineedit;

/* Replace the contents (invalid UTF-8 becomes U+FFFD); cursor at the end. Text past
 * UI_LINE_MAX - 1 bytes is dropped (at a character boundary) and e->cut set. */
void ui_lineedit_set(ui_lineedit *e, const char *s);

/* Insert one character at the cursor. Returns 1 if the text changed, 0 if it was
 * refused (a control character or a bidi override, which engine/visible.h would not
 * print, or the line is full). */
int ui_lineedit_insert(ui_lineedit *e, wchar_t c);

/* Delete the cluster before / at the cursor. Return 1 if the text changed. */
int ui_lineedit_backspace(ui_lineedit *e);
int ui_lineedit_delete(ui_lineedit *e);

/* Delete the word before the cursor (Ctrl-W); the whole line (Ctrl-U). */
int ui_lineedit_kill_word(ui_lineedit *e);
int ui_lineedit_clear(ui_lineedit *e);

/* Move by one cluster, to the start, to the end. Return 1 if the cursor moved. */
int ui_lineedit_left(ui_lineedit *e);
int ui_lineedit_right(ui_lineedit *e);
int ui_lineedit_home(ui_lineedit *e);
int ui_lineedit_end(ui_lineedit *e);

/* Display column of the cursor from the start of the text. */
int ui_lineedit_cursor_col(const ui_lineedit *e);

/* Adjust e->scroll so that the cursor is visible in a field of `cols` columns;
 * returns the cursor's column within the field. */
int ui_lineedit_fit(ui_lineedit *e, int cols);

#endif
