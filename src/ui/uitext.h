/* Text measuring for the screens: grapheme clusters, display columns, clipping and
 * wrapping of UTF-8 text (libunistring: u8_grapheme_next, uc_width,
 * u8_width_linebreaks). Widths are those a terminal draws: a grapheme cluster is one
 * unit, never split; East-Asian wide characters take 2 columns. */
#ifndef AT_UI_UITEXT_H
#define AT_UI_UITEXT_H

#include <stddef.h>

/* Byte offset of the grapheme cluster after the one starting at i in s[0..len);
 * len when i is at or past the end. Invalid bytes count as one cluster each. */
size_t ui_text_next(const char *s, size_t len, size_t i);

/* Byte offset of the grapheme cluster before offset i (0 at the start). */
size_t ui_text_prev(const char *s, size_t len, size_t i);

/* Display columns of the one grapheme cluster s[0..n): 0, 1 or 2.
 * Invalid UTF-8 and control characters count 1 (they are drawn as U+FFFD). */
int ui_text_gwidth(const char *s, size_t n);

/* Display columns of s[0..len). */
int ui_text_width(const char *s, size_t len);

/* How many bytes of s[0..len) fit in max_cols columns, whole clusters only;
 * *cols (may be NULL) receives their width (≤ max_cols; one less than max_cols
 * when a wide character would have been cut in half). */
size_t ui_text_clip(const char *s, size_t len, int max_cols, int *cols);

/* Column of byte offset i in s (the width of s[0..i)). */
int ui_text_col(const char *s, size_t i);

/* One line of wrapped text: bytes [start, start+len) of the source. */
typedef struct ui_span {
    size_t start, len;
} ui_span;

typedef struct ui_lines {
    ui_span *v;
    size_t n, cap;
} ui_lines;

/* Wrap s[0..len) into lines of at most width columns (width ≥ 1), breaking where
 * u8_width_linebreaks allows; '\n' ends a line; a word longer than the width is cut
 * between grapheme clusters. Appends to *out (grown with realloc; free with
 * ui_lines_free). Returns 0, or -1 when out of memory. */
int ui_wrap(const char *s, size_t len, int width, ui_lines *out);

void ui_lines_free(ui_lines *l);

#endif
