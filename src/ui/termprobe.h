/* How the terminal draws emoji sequences, measured once before the screen starts.
 * Terminals differ: one that knows grapheme clusters draws 👩🏿‍🔧 in 2 columns, as
 * libunistring measures it; others draw each emoji of the sequence (tmux 3.3 joins
 * the emoji after a ZWJ but not a skin-tone modifier: 👍🏽 takes 4 columns there).
 * The drawing code sends such a cluster whole only where the terminal was seen to
 * draw it in its measured width, and a placeholder elsewhere. */
#ifndef AT_UI_TERMPROBE_H
#define AT_UI_TERMPROBE_H

#include <stddef.h>

enum {
    UI_JOINS_ZWJ = 1,        /* 👩‍🔧 (U+1F469 U+200D U+1F527) in 2 columns */
    UI_JOINS_MODIFIER = 2,   /* 👍🏽 (U+1F44D U+1F3FD) in 2 columns */
};

/* Draw the two test sequences at the start of the cursor's line of the terminal on
 * the file descriptors in/out, ask for the cursor position after each (CSI 6 n),
 * erase the line and restore the terminal modes. Keys typed meanwhile are not lost:
 * up to cap of their bytes go to typed[0 .. *n_typed), in order, for the caller to
 * give back to ncurses. Returns the UI_JOINS_* flags; 0 when in or out is not a
 * terminal or no answer came within 300 ms. Nothing is allocated. */
int ui_probe_joins(int in, int out, char *typed, size_t cap, size_t *n_typed);

#endif
