/* Display width and grapheme clusters of UTF-8 text, on libunistring.
 *
 * Source: Unicode UAX #29 (grapheme clusters), UAX #11 (East Asian width, via
 * uc_width), UTS #51 (emoji presentation), UAX #14 (line breaking).
 *
 * Units: every offset and length is in bytes of UTF-8; every width is in
 * terminal columns. A grapheme cluster is a user-perceived character (Unicode
 * UAX #29, extended rules, as computed by libunistring's u8_grapheme_breaks):
 * "e" + U+0301, 👩🏿‍🔧 (four code points joined by U+200D) and a flag 🇨🇳 (two
 * regional indicators) are one cluster each. Nothing here ever splits one.
 *
 * Width of a cluster (at_grapheme_width), the same under every locale:
 *   - the width of its first code point by uc_width(c, "UTF-8"), so East Asian
 *     wide characters (汉字, ，。) are 2 and East-Asian-ambiguous ones (box
 *     drawing ┌─┐, ·, …) are 1, as terminals draw them;
 *   - 2 for emoji drawn as emoji: a code point with Emoji_Presentation, an emoji
 *     followed by U+FE0F (⚠️, 1️⃣), an emoji modifier base with a skin tone, a pair
 *     of regional indicators (a flag);
 *   - 0 for control characters (C0, C1, DEL) and for a cluster that starts with a
 *     combining mark; 1 for each invalid byte sequence (drawn as U+FFFD).
 * Summing uc_width over code points instead would give 👩🏿‍🔧 six columns and 👍🏽
 * four, where terminals draw two.
 *
 * Invalid UTF-8 is accepted by every function here: each maximal invalid
 * subsequence counts as one U+FFFD (width 1). Nothing is read
 * outside s[0 .. len). s may be NULL only when len is 0. No function keeps state
 * or does I/O; none depends on the locale. */
#ifndef AT_TEXT_H
#define AT_TEXT_H

#include <stddef.h>
#include "engine/error.h"

/* Columns of one grapheme cluster s[0 .. len) (see the rules above). If s holds
 * more than one cluster, only the first counts. len = 0 gives 0. */
int at_grapheme_width(const char *s, size_t len);

/* Columns of s[0 .. len): the sum of at_grapheme_width over its clusters. */
size_t at_text_width(const char *s, size_t len);

/* Clip to a number of columns without cutting a cluster (never half a wide glyph):
 * returns the byte length of the longest prefix of whole clusters whose width is
 * at most max_cols; *cols_out (if not NULL) receives that prefix's width, which
 * may be less than max_cols (e.g. "注意力机制ab" at 9 columns → the 12 bytes of
 * "注意力机", 8 columns; the caller pads the ninth). Zero-width clusters that
 * follow the last fitting one are included. */
size_t at_text_clip(const char *s, size_t len, size_t max_cols, size_t *cols_out);

/* Byte offset of the first grapheme boundary after pos (len if none; len when
 * pos >= len). pos must be a boundary: 0, len or a value these functions
 * returned; from inside a cluster the result counts a cluster as starting at pos.
 * Cost: a few hundred bytes of look-ahead at most, unless the cluster is longer. */
size_t at_text_next_grapheme(const char *s, size_t len, size_t pos);

/* Byte offset of the last grapheme boundary before pos (0 if none; pos > len is
 * taken as len). Works for any pos, also inside a cluster or a code point.
 * Cost: proportional to pos (boundaries need context from the start of s). */
size_t at_text_prev_grapheme(const char *s, size_t len, size_t pos);

/* A copy of s[0 .. len) in which each maximal invalid UTF-8 subsequence is
 * replaced by U+FFFD (EF BF BD); valid text is copied unchanged (NUL bytes too).
 * The copy is NUL-terminated; *len_out (if not NULL) receives its length without
 * the terminator. Caller frees with free(). Returns NULL when out of memory or
 * when s is NULL with len > 0. */
char *at_text_sanitize(const char *s, size_t len, size_t *len_out);

/* One line of wrapped text: the byte span s[start .. start + len) and its width
 * in columns. The span excludes the white space and the newline at the break. */
typedef struct at_line {
    size_t start, len;
    size_t cols;
} at_line;

/* Wrap s[0 .. len) into lines of at most width columns, for drawing paragraphs.
 * Lines break where Unicode line breaking (UAX #14, u8_possible_linebreaks)
 * allows, so a line never starts with "，" or "。" and Chinese may break between
 * characters; widths are per grapheme cluster (rules above). A word wider than
 * the line is cut between clusters; a single cluster wider than width (a wide
 * character at width 1) gets a line of its own, so cols can exceed width only
 * then. Newlines (LF, CR LF, CR, U+2028…) end a line; "a\n\nb" gives "a", "",
 * "b"; a final newline opens no empty line; "" gives no lines. Spaces and tabs
 * at a break are dropped; a tab counts 0 columns (expand tabs first).
 *   *lines_out  receives [*n_out] lines (NULL when 0), caller frees with free()
 * Errors: AT_EINVAL (width 0, NULL output pointers, s NULL with len > 0),
 * AT_ENOMEM; on error *lines_out is NULL and *n_out 0. */
int at_text_wrap(const char *s, size_t len, size_t width, at_line **lines_out,
                 size_t *n_out, at_error *err);

#endif
