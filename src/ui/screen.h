/* Screens and the one event loop (htop's ScreenManager, tmux's window_mode shape).
 *
 * A screen embeds ui_screen as its first member and supplies ui_screen_ops. The loop
 * draws when dirty, reads one key with get_wch, gives it to the screen on top of the
 * stack, and acts on the flags the handler returns. The title line, status bar,
 * "terminal too small" message and help overlay are drawn by the loop. */
#ifndef AT_UI_SCREEN_H
#define AT_UI_SCREEN_H

#include <curses.h>
#include <wchar.h>

#define UI_MIN_COLS 40
#define UI_MIN_ROWS 12

/* One key press: a character (fn = 0, ch = the code point) or a function key
 * (fn = 1, ch = KEY_LEFT, KEY_RESIZE …). */
typedef struct ui_key {
    int fn;
    wint_t ch;
} ui_key;

#define UI_IS_CHAR(k, c) (!(k).fn && (k).ch == (wint_t)(c))
#define UI_IS_FN(k, c) ((k).fn && (k).ch == (wint_t)(c))

/* What a key handler returns (or-ed flags). */
enum {
    UI_IGNORED = 0,
    UI_HANDLED = 1 << 0,
    UI_REDRAW = 1 << 1,   /* redraw the screen */
    UI_BACK = 1 << 2,     /* close this screen (from the last one: quit) */
    UI_QUIT = 1 << 3,     /* leave the tutor */
};

/* The area a screen draws in (between the title line and the status bar). */
typedef struct ui_rect {
    int y, x, h, w;
} ui_rect;

/* A line of the help overlay: the keys and what they do (gettext msgids). */
typedef struct ui_help_item {
    const char *keys, *what;
} ui_help_item;

typedef struct ui_screen ui_screen;
typedef struct ui_app ui_app;

typedef struct ui_screen_ops {
    /* Draw into r of stdscr (already cleared). */
    void (*draw)(ui_screen *s, WINDOW *w, ui_rect r);
    /* Handle a key; returns UI_* flags. */
    int (*key)(ui_screen *s, ui_key k);
    /* Optional: the terminal changed size (r is the new area). */
    void (*resize)(ui_screen *s, ui_rect r);
    /* Optional: 1 while a text field has the focus (then '?' and 'q' are typed). */
    int (*typing)(ui_screen *s);
    /* Optional: the title, shown in the title line (translated). */
    const char *(*title)(ui_screen *s);
    /* Optional: a short status line of the most useful keys (translated). */
    const char *(*status)(ui_screen *s);
    /* Optional: called when the screen comes back on top (e.g. to reload progress). */
    void (*resume)(ui_screen *s);
    /* Free the screen. */
    void (*free)(ui_screen *s);
    /* Help overlay lines, terminated by {NULL, NULL}. */
    const ui_help_item *help;
} ui_screen_ops;

struct ui_screen {
    const ui_screen_ops *ops;
    ui_app *app;
};

#define UI_STACK_MAX 8

/* The screen stack and the state every screen shares (model, lessons, progress). */
struct ui_app {
    ui_screen *stack[UI_STACK_MAX];
    int depth;
    int help_open;
    int help_scroll;          /* first line of the help overlay */
    int cursor_y, cursor_x;   /* the text cursor a screen asks for in draw; -1 = none */
    char message[256];        /* a one-off line in the status bar (e.g. "saved to …") */
    int message_role;
    void *ctx;                /* the tutor's shared state (tutor.h) */
};

/* Put s on top of the stack (it gets s->app = app). Returns 0, or -1 when the stack is
 * full (then s is freed). */
int ui_app_push(ui_app *app, ui_screen *s);

/* Show msg once in the status bar (cleared on the next key). */
void ui_app_message(ui_app *app, int role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Ask for the text cursor at (y, x) of stdscr after this draw. */
void ui_app_cursor(ui_app *app, int y, int x);

/* Draw everything once (used by the loop, tests and the latency benchmark). */
void ui_app_draw(ui_app *app);

/* Hand one key to the app as the loop does; returns 1 while the app keeps running. */
int ui_app_feed(ui_app *app, ui_key k);

/* Run until the last screen closes or a screen quits; frees every screen. */
void ui_app_run(ui_app *app);

/* Free every screen left on the stack. */
void ui_app_free(ui_app *app);

#endif
