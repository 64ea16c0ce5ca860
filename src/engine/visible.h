/* What may reach a terminal: the one filter for text that came from outside (lessons,
 * answers, arguments, file names) before it is printed or drawn. The tutor's screens
 * (ui/draw.c), every command's output (cli/output.c) and the JSON writers use it.
 *
 * A terminal must not receive, raw:
 *   - C0 controls U+0000–U+001F (ESC starts escape sequences: OSC 52 writes the
 *     clipboard, OSC 0 sets the window title, CSI 2J clears the screen; BEL rings),
 *     except the newline and the tab where a layout needs them;
 *   - DEL U+007F and the C1 controls U+0080–U+009F (U+009B is a one-character CSI
 *     to many terminals; so is the raw byte 0x9B, which is invalid UTF-8);
 *   - the bidirectional controls that reorder a line: U+202A–U+202E (LRE, RLE, PDF,
 *     LRO, RLO) and U+2066–U+2069 (LRI, RLI, FSI, PDI) — "Trojan Source" text that
 *     reads differently from what it is (Boucher and Anderson, 2021);
 *   - invalid UTF-8.
 * Each such code point, and each maximal invalid subpart of UTF-8 (see
 * at_visible_decode), becomes the visible placeholder U+FFFD "�" (one column), as the
 * lab has always drawn them; an escape sequence is thereby shown, not obeyed: ESC ] 0 ;
 * x BEL prints "�]0;x�". Everything else is copied unchanged. No function here keeps
 * global state, does I/O or depends on the locale. */
#ifndef AT_VISIBLE_H
#define AT_VISIBLE_H

#include <stddef.h>
#include <stdint.h>

/* The placeholder, as UTF-8. */
#define AT_VISIBLE_PLACEHOLDER "\xEF\xBF\xBD"

/* 1 when the code point c must not reach a terminal raw (the list above, the newline
 * and the tab included: the caller decides where a layout keeps them), else 0. */
int at_visible_unsafe(uint32_t c);

/* The next unit of s[0 .. len) (len ≥ 1): > 0, a character of that many bytes, its code
 * point in *c; < 0, an invalid sequence of -r bytes (one "�"): the maximal subpart of
 * Unicode 15 §3.9 (a start that cannot go on: E0 80 is two, ED A0 80 three); 0, s ends
 * inside a sequence that is valid so far. The same units however s is split. */
int at_visible_decode(const char *s, size_t len, uint32_t *c);

/* A filter over a stream of bytes that may arrive in pieces (a UTF-8 sequence split
 * between two writes is judged whole). keep_layout: the newline and the tab are
 * copied; otherwise they become the placeholder too. */
typedef struct at_visible {
    unsigned char pend[4];   /* the start of a sequence the last piece cut short */
    size_t n_pend;
    int keep_layout;
} at_visible;

void at_visible_init(at_visible *v, int keep_layout);

/* The filtered form of s[0 .. len) into out, which must hold AT_VISIBLE_OUT_MAX(len)
 * bytes; returns the bytes written (not NUL-terminated). A sequence that s cuts short
 * is kept for the next call. */
#define AT_VISIBLE_OUT_MAX(len) (3 * ((len) + 4))
size_t at_visible_feed(at_visible *v, const char *s, size_t len, char *out);

/* The end of the stream: a sequence still cut short becomes the placeholder (at most
 * 3 bytes into out); returns the bytes written. */
size_t at_visible_end(at_visible *v, char *out);

/* The filtered form of s[0 .. len) as a new NUL-terminated string (caller frees);
 * *len_out (may be NULL) its length. NULL when out of memory or s is NULL with len > 0. */
char *at_visible_copy(const char *s, size_t len, int keep_layout, size_t *len_out);

/* Display columns of s as the filter prints it (each placeholder one column; see
 * at_text_width), for padding columns of text that came from outside. */
size_t at_visible_width(const char *s, size_t len);

#endif
