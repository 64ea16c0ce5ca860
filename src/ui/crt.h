/* The terminal: set-up and tear-down of ncursesw, and colours as roles.
 * This module holds the UI's only global state (the palette in use).
 * Call sites name a role (CRT_TITLE, CRT_HEAT_3…), never a colour number; one table
 * per palette (256 colours, 8 colours, none) maps roles to attributes. */
#ifndef AT_UI_CRT_H
#define AT_UI_CRT_H

#include <curses.h>

#include "ui/termprobe.h"

typedef enum crt_role {
    CRT_NORMAL,
    CRT_TITLE,       /* screen titles */
    CRT_STATUS,      /* the status bar */
    CRT_STATUS_KEY,  /* a key named in the status bar */
    CRT_SELECTED,    /* the selected row of a list, the heatmap cursor */
    CRT_DIM,         /* secondary text, masked cells */
    CRT_OK,          /* right answer */
    CRT_WRONG,       /* wrong answer, errors */
    CRT_WARN,        /* partly right, hints */
    CRT_INPUT,       /* an input line */
    CRT_BORDER,      /* table and pane borders */
    CRT_CODE,        /* code blocks */
    CRT_FORMULA,     /* formulas */
    CRT_HEAT_0,      /* heatmap ramp, weight ≈ 0 … */
    CRT_HEAT_1, CRT_HEAT_2, CRT_HEAT_3, CRT_HEAT_4, CRT_HEAT_5, CRT_HEAT_6,
    CRT_HEAT_7,      /* … weight ≈ 1 */
    CRT_ROLES
} crt_role;

#define CRT_HEAT_LEVELS 8

typedef enum crt_palette { CRT_PALETTE_NONE, CRT_PALETTE_8, CRT_PALETTE_256 } crt_palette;

/* Why the tutor cannot start in this terminal, or NULL when it can: stdin/stdout not a
 * terminal, TERM unset or "dumb", or a terminal ncurses does not know. The message
 * names the commands that work without a terminal. */
const char *crt_unusable(void);

/* initscr() with cbreak, noecho, keypad, no cursor; picks the palette from the
 * terminal's colours, and none when NO_COLOR is set (any value, https://no-color.org);
 * then sends the probe of how the terminal draws emoji sequences (ui/termprobe.h)
 * without waiting for its answers: the first frame can be drawn at once, with
 * placeholders for such sequences, and crt_probe_finish applies the answers.
 * Returns 0, or -1 when ncurses could not start. */
int crt_init(void);

/* After the first frame: reads the probe's answers (waiting for them up to
 * UI_PROBE_WAIT_MS after crt_init), sets crt_term_widths, and gives keys typed
 * meanwhile back to curses in order. Returns 1 when the widths changed (draw again), 0
 * otherwise and at once when no probe is waiting. */
int crt_probe_finish(void);

/* The same on given streams (newterm), for tests and benchmarks. */
int crt_init_on(const char *term, FILE *out, FILE *in);

/* endwin(); safe to call twice. */
void crt_done(void);

crt_palette crt_palette_in_use(void);

/* How the terminal draws emoji sequences (ui/termprobe.h), from the probe's answers;
 * all 0 before they came, when the terminal gave none, and with crt_init_on. */
const ui_term_widths *crt_term_widths(void);

/* 1 once after each change of the terminal's size since the last call, 0 otherwise;
 * a change undone before the program looked (shrunk and grown back to the same size)
 * counts too. Then what the terminal shows is no longer what ncurses believes it shows
 * (tmux, shrinking a window, keeps the rows around the cursor and drops the others, and
 * fills the grown part with blanks; the same size at the next look tells ncurses
 * nothing), so the next frame must repaint every cell (ui_app_draw: clearok(curscr)).
 * Counted by a SIGWINCH handler put in front of ncurses' own at crt_init_on. */
int crt_take_resized(void);

/* A test hook for driving the tutor in a terminal multiplexer (tests/e2e): when the
 * environment holds ATTN_TUTOR_FRAME_MARKS (any value) at crt_init, each frame is
 * bracketed by two window-title sequences (OSC 2) on the terminal:
 *   "attn-tutor:drawing" before its first byte (crt_frame_begin),
 *   "attn-tutor:frame N keys K size COLSxROWS" after its last (crt_frame_end),
 * N counting frames from 1, K the keys read so far (crt_key_read; resizes are not
 * keys), " probing" after it while the start-up probe's answers are awaited (the mark
 * comes again without it when they change nothing), and "attn-tutor:ended keys K"
 * once the screen is closed (crt_done). A test that
 * reads the title and the screen in one step sees whole frames only, and knows when the
 * keys it sent have all been applied (the first frame with K at least their number).
 * Without the variable, and with crt_init_on, these do nothing. */
void crt_frame_begin(void);
void crt_frame_end(void);

/* Count one key read from the terminal (for the frame marks). */
void crt_key_read(void);

/* After a wait for a key ended without one (get_wch gave ERR in blocking mode): 1 when
 * the terminal is gone for good (its line hung up, or reads keep ending empty), so no
 * key will ever come and the caller should stop rather than wait again. A program that
 * ignores SIGHUP (nohup, some session managers) otherwise went on waiting in a loop
 * that used a whole core. */
int crt_input_closed(void);

/* The attribute (colour pair and A_* flags) of a role in the current palette. */
attr_t crt_attr(crt_role role);

/* The heat role for a weight in [0, 1] (clamped; NaN → CRT_HEAT_0). */
crt_role crt_heat_role(float w);

/* A shade character for a weight, for the palette without colour: " ░▒▓█". */
const char *crt_shade(float w);

#endif
