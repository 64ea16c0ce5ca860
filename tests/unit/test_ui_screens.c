/* The screen manager and the lab without a real terminal: ncurses draws into an
 * off-screen terminal (newterm on /dev/null) that the tests resize, and the screen is
 * read back cell by cell. Case 8 (resize storm), case 9 (typing by grapheme), the
 * causal mask, the help overlay. Runs under AddressSanitizer too. */
#include "check.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "ui/crt.h"
#include "ui/lab.h"
#include "ui/screen.h"
#include "ui/tutor.h"

static FILE *out, *in;
static ui_tutor tutor;
static char state_dir[512];

static int setup(void **st)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    const char *tmp = getenv("TMPDIR");
    snprintf(state_dir, sizeof state_dir, "%s/attn-ui-test-XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
    if (!mkdtemp(state_dir))
        return -1;
    setenv("XDG_STATE_HOME", state_dir, 1);
    setenv("LINES", "24", 1);
    setenv("COLUMNS", "80", 1);
    unsetenv("NO_COLOR");
    out = fopen("/dev/null", "w");
    in = fopen("/dev/null", "r");
    /* no model file: the seeded demo weights; no lessons needed by the lab */
    if (ui_tutor_open(&tutor, "en", NULL, NULL, 0, NULL) < 0)
        return -1;
    return crt_init_on("xterm-256color", out, in);
}

static int teardown(void **st)
{
    crt_done();
    ui_tutor_close(&tutor);
    fclose(out);
    fclose(in);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", state_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Everything on the screen, rows joined with '\n'. */
static void screen_text(char *buf, size_t size)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    size_t pos = 0;
    buf[0] = '\0';
    for (int y = 0; y < rows && pos + 4 < size; y++) {
        wchar_t w[1024];
        int n = mvwinnwstr(stdscr, y, 0, w, cols < 1023 ? cols : 1023);
        w[n > 0 ? n : 0] = 0;
        size_t k = wcstombs(buf + pos, w, size - pos - 2);
        if (k == (size_t)-1)
            k = 0;
        pos += k;
        buf[pos++] = '\n';
        buf[pos] = '\0';
    }
}

static void resize(ui_app *app, int rows, int cols)
{
    resizeterm(rows, cols);
    ui_app_feed(app, (ui_key){1, KEY_RESIZE});
    ui_app_draw(app);
}

/* A lab on sentence in app (screens keep a pointer to their app: it must stay put). */
static void open_lab(ui_app *app, const char *sentence)
{
    *app = (ui_app){0};
    app->ctx = &tutor;
    ui_screen *s = ui_lab_new(app, sentence, NULL);
    assert_non_null(s);
    assert_int_equal(ui_app_push(app, s), 0);
    resize(app, 24, 80);
}

static void test_resize_storm_case8(void **st)
{
    static char text[65536];
    ui_app app;
    open_lab(&app, "小明今天没来学校");
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "8 tokens"));
    resize(&app, 5, 20);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "too small"));
    assert_non_null(strstr(text, "40×12"));
    resize(&app, 1, 1);
    /* keys while too small change nothing and crash nothing */
    assert_int_equal(ui_app_feed(&app, (ui_key){0, 'j'}), 1);
    resize(&app, 2, 3);
    resize(&app, 24, 80);
    screen_text(text, sizeof text);
    assert_null(strstr(text, "too small"));
    assert_non_null(strstr(text, "8 tokens"));
    assert_non_null(strstr(text, "学"));
    resize(&app, 12, 40);
    screen_text(text, sizeof text);
    assert_null(strstr(text, "too small"));
    resize(&app, 11, 39);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "too small"));
    resize(&app, 30, 100);
    ui_app_free(&app);
}

static void test_typing_case9(void **st)
{
    static char text[65536];
    ui_app app;
    open_lab(&app, NULL);   /* the example sentence, the heatmap focused */
    ui_app_feed(&app, (ui_key){0, 'i'});
    ui_app_feed(&app, (ui_key){0, 21});   /* Ctrl-U */
    ui_app_feed(&app, (ui_key){0, L'ä'});
    ui_app_feed(&app, (ui_key){0, L'注'});
    ui_app_draw(&app);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "Sentence: ä注 "));
    ui_app_feed(&app, (ui_key){1, KEY_BACKSPACE});
    ui_app_draw(&app);
    /* the cursor sits after ä: column of the input start + 1 (read before the
     * screen is read back, which moves it) */
    int y, x;
    getyx(stdscr, y, x);
    assert_int_equal(y, 1);
    assert_int_equal(x, 1 + (int)strlen("Sentence: ") + 1);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "Sentence: ä "));
    assert_non_null(strstr(text, "1 token "));
    ui_app_free(&app);
}

/* After a resize storm while editing, the sentence start shows again when it fits;
 * when not editing a long sentence shows its start and "…". */
static void test_sentence_scroll_after_resize(void **st)
{
    static char text[65536];
    ui_app app;
    const char *en = "The animal didn't cross the road because it was too tired.";
    open_lab(&app, en);
    ui_app_feed(&app, (ui_key){0, 'i'});
    resize(&app, 5, 20);
    resize(&app, 1, 1);
    resize(&app, 12, 40);   /* drawn small while editing: the end of the line shows */
    resize(&app, 24, 80);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "Sentence: The animal didn't cross"));
    ui_app_feed(&app, (ui_key){0, '\r'});   /* leave the sentence */
    resize(&app, 12, 42);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "Sentence: The animal"));
    assert_non_null(strstr(text, "…"));
    resize(&app, 24, 80);
    ui_app_free(&app);
}

static void test_causal_mask(void **st)
{
    static char text[65536];
    ui_app app;
    open_lab(&app, "I am here");
    ui_app_feed(&app, (ui_key){0, 'm'});
    ui_app_draw(&app);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "causal mask"));
    /* the first row: 1.00 then two masked cells */
    char *row = strstr(text, "\n I ");
    assert_non_null(row);
    char *eol = strchr(row + 1, '\n');
    *eol = '\0';
    char *pane = strstr(row, "key");   /* the detail pane's header shares the line */
    if (pane)
        *pane = '\0';
    assert_non_null(strstr(row, "1.00"));
    int dots = 0;
    for (char *p = row; (p = strstr(p, "·")); p += strlen("·"))
        dots++;
    assert_int_equal(dots, 2);
    ui_app_free(&app);
}

static void test_help_overlay(void **st)
{
    static char text[65536];
    ui_app app;
    open_lab(&app, "I am here");
    ui_app_feed(&app, (ui_key){0, '?'});
    ui_app_draw(&app);
    screen_text(text, sizeof text);
    assert_non_null(strstr(text, "causal mask on/off"));
    resize(&app, 12, 40);   /* still drawn, scrolled, no overflow */
    ui_app_feed(&app, (ui_key){1, KEY_NPAGE});
    ui_app_draw(&app);
    ui_app_feed(&app, (ui_key){0, 'x'});
    ui_app_draw(&app);
    screen_text(text, sizeof text);
    assert_null(strstr(text, "causal mask on/off"));
    resize(&app, 24, 80);
    ui_app_free(&app);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resize_storm_case8),
        cmocka_unit_test(test_typing_case9),
        cmocka_unit_test(test_sentence_scroll_after_resize),
        cmocka_unit_test(test_causal_mask),
        cmocka_unit_test(test_help_overlay),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
