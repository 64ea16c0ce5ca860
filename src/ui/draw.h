/* Drawing text into ncurses windows, clipped by display columns before it is drawn
 * (addnwstr counts characters, not columns). A grapheme cluster that does not fit is
 * never drawn in part: the remaining column is left blank. Invalid UTF-8 and control
 * characters are drawn as U+FFFD. */
#ifndef AT_UI_DRAW_H
#define AT_UI_DRAW_H

#include <curses.h>
#include <stddef.h>

/* Draw s[0..len) at (y, x) within max_cols columns, stopping at a newline.
 * Returns the columns drawn (≤ max_cols). */
int ui_put(WINDOW *w, int y, int x, const char *s, size_t len, int max_cols, attr_t a);

/* The same for a NUL-terminated string, then blanks up to exactly max_cols columns
 * (a clipped wide character at the edge leaves one blank: case 7). */
int ui_put_pad(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a);

/* A NUL-terminated string, clipped, not padded. */
int ui_puts(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a);

/* Blanks in n cells from (y, x). */
void ui_fill(WINDOW *w, int y, int x, int n, attr_t a);

/* Right-aligned within max_cols columns ending at x + max_cols. */
int ui_put_right(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a);

/* Centred within max_cols columns. */
int ui_put_center(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a);

/* A line of " · "-separated items in max_cols columns without cutting a word: the
 * items that do not fit are dropped whole; a first item too long alone is cut after
 * its last whole word, with "…". Returns the columns drawn. */
int ui_put_items(WINDOW *w, int y, int x, const char *s, int max_cols, attr_t a);

#endif
