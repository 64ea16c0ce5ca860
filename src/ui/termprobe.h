/* How the terminal draws emoji sequences, measured while the tutor starts.
 * Terminals differ: one that knows grapheme clusters draws 👩🏿‍🔧 in 2 columns, as
 * libunistring measures it; others draw each emoji of the sequence (tmux 3.3 joins
 * the emoji after a ZWJ but not a skin-tone modifier: 👍🏽 takes 4 columns there, and
 * draws ❤️ and 1️⃣ in 1 column where newer terminals take 2). The drawing code
 * (ui/glyphs.h) sends a cluster whole in the columns this terminal was seen to give it,
 * and a placeholder where it cannot tell.
 *
 * The probe draws five test sequences, each from the start of the line and followed
 * by a request for the cursor position (CSI 6 n), and erases them; the terminal's
 * answers come back on its input, among the keys. The probe does not wait for them:
 * the first frame is drawn at once (with placeholders), and the answers are read by
 * ui_probe_poll as they come. */
#ifndef AT_UI_TERMPROBE_H
#define AT_UI_TERMPROBE_H

#include <stddef.h>

/* The columns the terminal advanced for each test sequence; 0 = not measured. */
typedef struct ui_term_widths {
    int zwj;        /* 👩‍🔧 U+1F469 U+200D U+1F527: 2 when it joins after a ZWJ, 4 if not */
    int modifier;   /* 👍🏽 U+1F44D U+1F3FD: 2 when it joins a skin-tone modifier, 4 if not */
    int vs16;       /* ❤️ U+2764 U+FE0F: 2 when VS16 widens a narrow emoji, 1 if not */
    int keycap;     /* 1️⃣ U+0031 U+FE0F U+20E3: 2 or 1 */
    int flag;       /* 🇨🇳 U+1F1E8 U+1F1F3 (a pair of regional indicators): 2 */
} ui_term_widths;

#define UI_PROBE_N 5   /* test sequences, in the order of ui_term_widths */

/* How long the answers are waited for (ms after ui_probe_start). Keys typed meanwhile
 * go on at once; only bytes that may begin an answer (ESC [ digits ;) wait. */
#define UI_PROBE_WAIT_MS 1000

/* A probe in flight. */
typedef struct ui_probe {
    int in;             /* the terminal's input */
    int waiting;        /* 1 until every answer came or the time is up */
    int got;            /* answers read */
    int cols[UI_PROBE_N];   /* their columns (1-based) */
    double deadline;    /* CLOCK_MONOTONIC seconds */
    char buf[64];       /* bytes read that may still be the start of an answer */
    size_t n;
} ui_probe;

/* Write the probe on out: each test sequence from the start of the cursor's line and
 * CSI 6 n after it (👩‍🔧, 👍🏽, ❤️, 1️⃣, 🇨🇳), then erase the line. Nothing is read and nothing waits. Returns 0, or -1
 * (p not waiting) when in or out is not a terminal or the write failed. The caller
 * keeps in in non-canonical mode without echo (as curses' cbreak and noecho do), so
 * the answers are neither held back nor echoed. */
int ui_probe_start(ui_probe *p, int in, int out);

/* Read what has come on p->in, waiting up to wait_ms for it (0: only what is there;
 * never past the deadline). Answers are taken; every other byte (keys typed meanwhile)
 * goes to typed[0 .. *n_typed), in order, up to cap, for the caller to give back to
 * curses, except a tail that may still become an answer while the probe waits.
 * Returns 1 once the probe is over (every answer read, or the time is up: then that
 * tail goes to typed as well), else 0. */
int ui_probe_poll(ui_probe *p, int wait_ms, char *typed, size_t cap, size_t *n_typed);

/* The widths the answers show: each sequence's column after it, less 1; all 0 before
 * every answer came. */
void ui_probe_widths(const ui_probe *p, ui_term_widths *w);

#endif
