/* How the terminal draws emoji sequences, measured while the tutor starts.
 * Terminals differ: one that knows grapheme clusters draws 👩🏿‍🔧 in 2 columns, as
 * libunistring measures it; others draw each emoji of the sequence (tmux 3.3 joins
 * the emoji after a ZWJ but not a skin-tone modifier: 👍🏽 takes 4 columns there).
 * The drawing code sends such a cluster whole only where the terminal was seen to
 * draw it in its measured width, and a placeholder elsewhere.
 *
 * The probe draws two test sequences, asks for the cursor position after each
 * (CSI 6 n) and erases them; the terminal's answers come back on its input, among
 * the keys. The probe does not wait for them: the first frame is drawn at once (with
 * placeholders), and the answers are read by ui_probe_poll as they come. */
#ifndef AT_UI_TERMPROBE_H
#define AT_UI_TERMPROBE_H

#include <stddef.h>

enum {
    UI_JOINS_ZWJ = 1,        /* 👩‍🔧 (U+1F469 U+200D U+1F527) in 2 columns */
    UI_JOINS_MODIFIER = 2,   /* 👍🏽 (U+1F44D U+1F3FD) in 2 columns */
};

/* How long the answers are waited for (ms after ui_probe_start). Keys typed meanwhile
 * go on at once; only bytes that may begin an answer (ESC [ digits ;) wait. */
#define UI_PROBE_WAIT_MS 1000

/* A probe in flight. */
typedef struct ui_probe {
    int in;             /* the terminal's input */
    int waiting;        /* 1 until both answers came or the time is up */
    int got;            /* answers read */
    int cols[2];        /* their columns (1-based) */
    double deadline;    /* CLOCK_MONOTONIC seconds */
    char buf[64];       /* bytes read that may still be the start of an answer */
    size_t n;
} ui_probe;

/* Write the probe on out: at the start of the cursor's line, 👩‍🔧 and CSI 6 n, 👍🏽 and
 * CSI 6 n, then erase the line. Nothing is read and nothing waits. Returns 0, or -1
 * (p not waiting) when in or out is not a terminal or the write failed. The caller
 * keeps in in non-canonical mode without echo (as curses' cbreak and noecho do), so
 * the answers are neither held back nor echoed. */
int ui_probe_start(ui_probe *p, int in, int out);

/* Read what has come on p->in, waiting up to wait_ms for it (0: only what is there;
 * never past the deadline). Answers are taken; every other byte (keys typed meanwhile)
 * goes to typed[0 .. *n_typed), in order, up to cap, for the caller to give back to
 * curses, except a tail that may still become an answer while the probe waits.
 * Returns 1 once the probe is over (both answers read, or the time is up: then that
 * tail goes to typed as well), else 0. */
int ui_probe_poll(ui_probe *p, int wait_ms, char *typed, size_t cap, size_t *n_typed);

/* The UI_JOINS_* flags the answers show; 0 before both came. */
int ui_probe_flags(const ui_probe *p);

#endif
