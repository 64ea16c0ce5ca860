/* The screen stack and the event loop. */
#include "ui/screen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/attention.h"
#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/help.h"
#include "ui/i18n.h"
#include "ui/uitext.h"

int ui_app_push(ui_app *app, ui_screen *s)
{
    if (app->depth >= UI_STACK_MAX) {
        s->ops->free(s);
        ui_app_message(app, CRT_WRONG, "%s", _("Too many screens open: close one with q."));
        return -1;
    }
    s->app = app;
    app->stack[app->depth++] = s;
    return 0;
}

void ui_app_message(ui_app *app, int role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(app->message, sizeof app->message, fmt, ap);
    va_end(ap);
    app->message_role = role;
}

void ui_app_cursor(ui_app *app, int y, int x)
{
    app->cursor_y = y;
    app->cursor_x = x;
}

static void draw_too_small(int rows, int cols)
{
    char lines[3][128];
    snprintf(lines[0], sizeof lines[0], "%s", _("Terminal too small"));
    snprintf(lines[1], sizeof lines[1], _("now %d×%d"), cols, rows);
    snprintf(lines[2], sizeof lines[2], _("needs %d×%d"), UI_MIN_COLS, UI_MIN_ROWS);
    int y = rows / 2 - 1;
    if (y < 0)
        y = 0;
    for (int i = 0; i < 3 && y + i < rows; i++)
        ui_put_center(stdscr, y + i, 0, lines[i], cols, crt_attr(i == 0 ? CRT_WRONG : CRT_NORMAL));
}

static void draw_bars(ui_app *app, ui_screen *s, int rows, int cols)
{
    char left[256];
    const char *title = s->ops->title ? s->ops->title(s) : "";
    snprintf(left, sizeof left, " attn-tutor · %s", title);
    size_t n = strlen(left);
    if (ui_text_width(left, n) > cols) {   /* a title too long ends in "…" */
        int c = 0;
        size_t k = ui_text_clip(left, n, cols - 1, &c);
        snprintf(left + k, sizeof left - k, "%s", "…");
    }
    ui_put_pad(stdscr, 0, 0, left, cols, crt_attr(CRT_TITLE) | A_REVERSE);

    attr_t bar = crt_attr(CRT_STATUS);
    ui_fill(stdscr, rows - 1, 0, cols, bar);
    const char *help = _("? help");
    int hw = ui_text_width(help, strlen(help)) + 1;
    if (app->message[0])
        return;   /* drawn over the screen by draw_message */
    if (s->ops->status)
        ui_put_items(stdscr, rows - 1, 1, s->ops->status(s), cols - hw - 2, bar);
    ui_put_right(stdscr, rows - 1, 0, help, cols - 1, crt_attr(CRT_STATUS_KEY));
}

/* The one-off message: on the status bar beside "? help" when it fits, else wrapped
 * (at its own '\n' first) over as many lines above the bar as it needs, so a file
 * name in it shows whole. */
static void draw_message(ui_app *app, int rows, int cols)
{
    const char *m = app->message, *help = _("? help");
    attr_t a = crt_attr((crt_role)app->message_role) | A_BOLD;
    char one[sizeof app->message];   /* on one line, a '\n' in it reads as a space */
    snprintf(one, sizeof one, "%s", m);
    for (char *p = one; (p = strchr(p, '\n'));)
        *p = ' ';
    int mw = ui_text_width(one, strlen(one)), hw = ui_text_width(help, strlen(help)) + 1;
    if (mw <= cols - hw - 2) {
        ui_puts(stdscr, rows - 1, 1, one, cols - hw - 2, a);
        ui_put_right(stdscr, rows - 1, 0, help, cols - 1, crt_attr(CRT_STATUS_KEY));
        return;
    }
    ui_lines lines = {0};
    if (ui_wrap(m, strlen(m), cols - 2, &lines) < 0 || lines.n == 0) {
        ui_puts(stdscr, rows - 1, 1, m, cols - 2, a);
        ui_lines_free(&lines);
        return;
    }
    int n = (int)lines.n < rows - 2 ? (int)lines.n : rows - 2;
    for (int i = 0; i < n; i++) {
        int y = rows - n + i;
        ui_fill(stdscr, y, 0, cols, crt_attr(CRT_STATUS));
        ui_put(stdscr, y, 1, m + lines.v[lines.n - (size_t)n + (size_t)i].start,
               lines.v[lines.n - (size_t)n + (size_t)i].len, cols - 2, a);
    }
    ui_lines_free(&lines);
}

void ui_app_draw(ui_app *app)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    crt_frame_begin();
    /* after a resize, even one undone before we looked, the terminal holds what it kept
     * of the old screen, not what ncurses believes: every cell is sent again, wide
     * characters included, instead of the cells that changed */
    if (crt_take_resized())
        clearok(curscr, TRUE);
    werase(stdscr);
    app->cursor_y = app->cursor_x = -1;
    if (rows < UI_MIN_ROWS || cols < UI_MIN_COLS) {
        draw_too_small(rows, cols);
    } else if (app->depth > 0) {
        ui_screen *s = app->stack[app->depth - 1];
        draw_bars(app, s, rows, cols);
        ui_rect r = {1, 0, rows - 2, cols};
        s->ops->draw(s, stdscr, r);
        if (app->help_open) {
            ui_help_draw(stdscr, r, s->ops->help, &app->help_scroll);
            app->cursor_y = -1;
        }
        if (app->message[0])
            draw_message(app, rows, cols);
    }
    if (app->cursor_y >= 0 && app->cursor_x >= 0 && app->cursor_x < cols) {
        curs_set(1);
        move(app->cursor_y, app->cursor_x);
    } else {
        curs_set(0);
    }
    wnoutrefresh(stdscr);
    doupdate();
    crt_frame_end();
}

static void pop(ui_app *app)
{
    ui_screen *s = app->stack[--app->depth];
    s->ops->free(s);
    if (app->depth > 0) {
        ui_screen *top = app->stack[app->depth - 1];
        if (top->ops->resume)
            top->ops->resume(top);
    }
}

int ui_app_feed(ui_app *app, ui_key k)
{
    if (app->depth == 0)
        return 0;
    ui_screen *s = app->stack[app->depth - 1];
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    if (UI_IS_FN(k, KEY_RESIZE)) {
        ui_rect r = {1, 0, rows - 2, cols};
        for (int i = 0; i < app->depth; i++)
            if (app->stack[i]->ops->resize && rows >= UI_MIN_ROWS && cols >= UI_MIN_COLS)
                app->stack[i]->ops->resize(app->stack[i], r);
        return 1;
    }
    app->message[0] = '\0';
    if (app->help_open) {   /* ↑ ↓ j k scroll it, any other key closes it */
        if (UI_IS_FN(k, KEY_DOWN) || UI_IS_CHAR(k, 'j') || UI_IS_FN(k, KEY_NPAGE))
            app->help_scroll += UI_IS_FN(k, KEY_NPAGE) ? 5 : 1;
        else if (UI_IS_FN(k, KEY_UP) || UI_IS_CHAR(k, 'k') || UI_IS_FN(k, KEY_PPAGE))
            app->help_scroll -= UI_IS_FN(k, KEY_PPAGE) ? 5 : 1;
        else
            app->help_open = 0;
        return 1;
    }
    int typing = s->ops->typing && s->ops->typing(s);
    if (rows < UI_MIN_ROWS || cols < UI_MIN_COLS) {
        if (UI_IS_CHAR(k, 'q') && !typing)
            return 0;
        return 1;   /* nothing else works until the terminal grows */
    }
    if (!typing && (UI_IS_CHAR(k, '?') || UI_IS_FN(k, KEY_F(1)))) {
        app->help_open = 1;
        app->help_scroll = 0;
        return 1;
    }
    if (UI_IS_CHAR(k, 12)) {   /* Ctrl-L: repaint everything */
        clearok(curscr, TRUE);
        return 1;
    }
    int flags = s->ops->key(s, k);
    if (flags & UI_QUIT)
        return 0;
    if (flags & UI_BACK)
        pop(app);
    return app->depth > 0;
}

void ui_app_run(ui_app *app)
{
    int running = app->depth > 0;
    while (running) {
        ui_app_draw(app);
        if (crt_probe_finish())   /* the terminal's answers, after the first frame */
            continue;             /* it draws emoji sequences whole: draw again */
        /* nothing is computed while the tutor waits for a key: OpenBLAS's workers
         * woken by the last key's products would otherwise spin for some 0.1 s */
        at_blas_rest_workers();
        wint_t ch;
        int r = get_wch(&ch);
        if (r == ERR) {
            if (crt_input_closed())   /* the terminal is gone: no key will come */
                break;
            continue;
        }
        ui_key k = {r == KEY_CODE_YES, ch};
        if (!UI_IS_FN(k, KEY_RESIZE))
            crt_key_read();
        int depth = app->depth;
        running = ui_app_feed(app, k);
        /* keys already waiting (a paste, fast typing) are applied before the next
         * draw, so a screen recomputes and redraws once for all of them; a resize or
         * a change of screen is drawn before the next key */
        nodelay(stdscr, TRUE);
        while (running && !UI_IS_FN(k, KEY_RESIZE) && app->depth == depth &&
               (r = get_wch(&ch)) != ERR) {
            k = (ui_key){r == KEY_CODE_YES, ch};
            if (!UI_IS_FN(k, KEY_RESIZE))
                crt_key_read();
            running = ui_app_feed(app, k);
        }
        nodelay(stdscr, FALSE);
    }
    ui_app_free(app);
}

void ui_app_free(ui_app *app)
{
    while (app->depth > 0) {
        ui_screen *s = app->stack[--app->depth];
        s->ops->free(s);
    }
}
