/* UI widgets without a real terminal: clipping by display width (case 7), the
 * one-line editor (case 9), wrapping, tables with CJK cells, the heatmap. ncurses
 * draws into an off-screen terminal (newterm on /dev/null) and the cells are read
 * back. */
#include "check.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>
#include <wchar.h>

#include "ui/crt.h"
#include "ui/doc.h"
#include "ui/draw.h"
#include "ui/editkeys.h"
#include "ui/heatmap.h"
#include "ui/lineedit.h"
#include "ui/glyphs.h"
#include "ui/uitext.h"

static SCREEN *scr;
static FILE *devnull_out, *devnull_in;

static int setup(void **state)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    setenv("TERM", "xterm-256color", 1);
    devnull_out = fopen("/dev/null", "w");
    devnull_in = fopen("/dev/null", "r");
    scr = newterm("xterm-256color", devnull_out, devnull_in);
    return scr ? 0 : -1;
}

static int teardown(void **state)
{
    endwin();
    delscreen(scr);
    fclose(devnull_out);
    fclose(devnull_in);
    return 0;
}

/* The text of row y of w as UTF-8 (wide characters once, their second cell skipped). */
static void row_text(WINDOW *w, int y, char *out, size_t size)
{
    wchar_t wbuf[512];
    int n = mvwinnwstr(w, y, 0, wbuf, 511);
    if (n < 0)
        n = 0;
    wbuf[n] = 0;
    wcstombs(out, wbuf, size);
}

static void test_clip_case7(void **state)
{
    WINDOW *w = newwin(2, 12, 0, 0);
    int cols = 0;
    size_t n = ui_text_clip("注意力机制ab", strlen("注意力机制ab"), 9, &cols);
    assert_int_equal(n, 12);   /* 注意力机: four characters of three bytes */
    assert_int_equal(cols, 8);
    assert_int_equal(ui_put_pad(w, 0, 0, "注意力机制ab", 9, 0), 9);
    mvwaddstr(w, 0, 9, "|");
    char got[256];
    row_text(w, 0, got, sizeof got);
    assert_string_equal(got, "注意力机 |  ");
    /* nothing wrapped to the next line */
    row_text(w, 1, got, sizeof got);
    assert_string_equal(got, "            ");
    /* the bar really is in column 9 */
    cchar_t cc;
    mvwin_wch(w, 0, 9, &cc);
    wchar_t wch[CCHARW_MAX + 1];
    attr_t a;
    short p;
    getcchar(&cc, wch, &a, &p, NULL);
    assert_int_equal(wch[0], L'|');
    delwin(w);
}

/* The code points held by the cell at (y, x), NUL-terminated. */
static void cell_chars(WINDOW *w, int y, int x, wchar_t out[CCHARW_MAX + 1])
{
    cchar_t cc;
    attr_t a;
    short p;
    mvwin_wch(w, y, x, &cc);
    getcchar(&cc, out, &a, &p, NULL);
}

/* A grapheme cluster goes to the terminal whole or as "�" padded to its width, never
 * its first code point alone (👩🏿‍🔧 used to be drawn as 👩). Off screen no terminal
 * was measured, so an emoji sequence whose code points' wcwidths exceed its width
 * gets the placeholder; clusters whose widths add up are drawn whole. */
static void test_clusters_whole(void **state)
{
    WINDOW *w = newwin(1, 20, 0, 0);
    wchar_t c[CCHARW_MAX + 1];
    struct {
        const char *s;
        int cols;
        const wchar_t *first;
    } cases[] = {
        {"\xF0\x9F\x91\xA9\xF0\x9F\x8F\xBF\xE2\x80\x8D\xF0\x9F\x94\xA7" "b", 3, L"\xFFFD"},
        {"\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"
         "\xE2\x80\x8D\xF0\x9F\x91\xA6" "b", 3, L"\xFFFD"},
        {"e\xCC\x81" "b", 2, L"e\x0301"},
        {"\xF0\x9F\x91\xA9\xE2\x80\x8D" "b", 3, L"\x1F469"},   /* ZWJ still to come */
        {"\xE4\xB8\xAD" "b", 3, L"\x4E2D"},
        {"\xF0\x9F\x87\xA8\xF0\x9F\x87\xB3" "b", 3, L"\x1F1E8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        werase(w);
        assert_int_equal(ui_puts(w, 0, 0, cases[i].s, 20, 0), cases[i].cols);
        cell_chars(w, 0, 0, c);
        assert_true(wcscmp(c, cases[i].first) == 0);
        cell_chars(w, 0, cases[i].cols - 1, c);
        assert_true(c[0] == L'b' && c[1] == 0);
        if (cases[i].cols == 3 && cases[i].first[0] == 0xFFFD) {
            cell_chars(w, 0, 1, c);
            assert_true(c[0] == L' ');
        }
    }
    delwin(w);
}

/* Emoji sequences cut into the glyphs a terminal draws, for three terminals: tmux 3.3
 * as measured (joins after a ZWJ, not a skin-tone modifier; ❤️ and 1️⃣ in 1 column), one
 * that joins both and widens VS16 (❤️ and 1️⃣ in 2, which ncurses cannot count), and an
 * unmeasured one (only what adds up to libunistring's width). */
static void test_glyph_plans(void **state)
{
    const ui_term_widths tmux33 = {.zwj = 2, .modifier = 4, .vs16 = 1, .keycap = 1, .flag = 2};
    const ui_term_widths joining = {.zwj = 2, .modifier = 2, .vs16 = 2, .keycap = 2, .flag = 2};
    const ui_term_widths unmeasured = {0};
    struct {
        const char *s;
        int gw;         /* libunistring's width (ui_text_gwidth unmeasured) */
        int tmux, join, none;   /* columns drawn whole, or 0: placeholder */
        int tmux_glyphs;
    } cases[] = {
        {"\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD", 2, 4, 2, 0, 2},               /* 👍🏽 */
        {"\xF0\x9F\x91\xA9\xF0\x9F\x8F\xBF\xE2\x80\x8D\xF0\x9F\x94\xA7", 2, 4, 2, 0, 2}, /* 👩🏿‍🔧 */
        {"\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x94\xA7", 2, 2, 2, 0, 1},   /* 👩‍🔧 */
        {"\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"
         "\xE2\x80\x8D\xF0\x9F\x91\xA6", 2, 0, 0, 0, 0},   /* the family: 7 code points */
        {"1\xEF\xB8\x8F\xE2\x83\xA3", 2, 1, 0, 0, 1},                        /* 1️⃣ */
        {"\xE2\x9D\xA4\xEF\xB8\x8F", 2, 1, 0, 0, 1},                         /* ❤️ */
        {"\xF0\x9F\x87\xA8\xF0\x9F\x87\xB3", 2, 2, 2, 2, 2},               /* 🇨🇳 */
        {"e\xCC\x81", 1, 1, 1, 1, 1},                                           /* é */
        {"a\xF0\x9F\x8F\xBD", 1, 0, 0, 0, 0},          /* a modifier after no emoji */
        {"\xF0\x9F\x91\xA9\xE2\x80\x8D", 2, 2, 2, 2, 1},   /* 👩 + ZWJ still to come */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].s;
        size_t n = strlen(s);
        ui_glyphs g;
        int got = ui_glyphs_plan(s, n, cases[i].gw, &tmux33, &g) ? g.cols : 0;
        assert_int_equal(got, cases[i].tmux);
        if (got) {
            assert_int_equal(g.n, cases[i].tmux_glyphs);
            assert_int_equal(g.start[g.n], g.n_wc);
        }
        got = ui_glyphs_plan(s, n, cases[i].gw, &joining, &g) ? g.cols : 0;
        assert_int_equal(got, cases[i].join);
        got = ui_glyphs_plan(s, n, cases[i].gw, &unmeasured, &g) ? g.cols : 0;
        assert_int_equal(got, cases[i].none);
    }
    /* 👍🏽 in tmux: 👍 then 🏽, each a 2-column cell */
    ui_glyphs g;
    assert_true(ui_glyphs_plan("\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD", 8, 2, &tmux33, &g));
    assert_true(g.wc[g.start[0]] == 0x1F44D && g.wc[g.start[1]] == 0x1F3FD);
}

/* Text drawn over half of a wide character drawn before it in the same frame (an
 * overlay) takes the whole wide character away: no half left in the window, so nothing
 * stray or shifted reaches the terminal. */
static void test_over_wide_halves(void **state)
{
    WINDOW *w = newwin(1, 12, 0, 0);
    char got[256];
    ui_puts(w, 0, 0, "ab生病cd", 12, 0);
    ui_puts(w, 0, 2, "y", 1, 0);   /* over the left half of 生 */
    ui_puts(w, 0, 5, "z", 1, 0);   /* over the right half of 病 */
    row_text(w, 0, got, sizeof got);
    assert_string_equal(got, "aby  zcd    ");
    ui_puts(w, 0, 0, "生病", 12, 0);
    ui_puts(w, 0, 1, "中", 2, 0);   /* over the right half of 生 and the left of 病 */
    row_text(w, 0, got, sizeof got);
    assert_string_equal(got, " 中  zcd    ");
    delwin(w);
}

static void test_widths(void **state)
{
    assert_int_equal(ui_text_width("ab", 2), 2);
    assert_int_equal(ui_text_width("注意", strlen("注意")), 4);
    assert_int_equal(ui_text_width("e\xcc\x81", 3), 1);   /* e + combining acute */
    assert_int_equal(ui_text_width("┌─┐", strlen("┌─┐")), 3);
    /* a truncated sequence counts one column and is its own cluster */
    assert_int_equal(ui_text_width("\xe6\xb3", 2), 1);
    assert_int_equal(ui_text_next("e\xcc\x81x", 4, 0), 3);
}

static void test_lineedit_case9(void **state)
{
    ui_lineedit e;
    ui_lineedit_set(&e, "");
    assert_int_equal(ui_lineedit_insert(&e, L'ä'), 1);
    assert_int_equal(ui_lineedit_insert(&e, L'注'), 1);
    assert_string_equal(e.buf, "ä注");
    assert_int_equal(ui_lineedit_cursor_col(&e), 3);
    assert_int_equal(ui_lineedit_backspace(&e), 1);
    assert_string_equal(e.buf, "ä");
    assert_int_equal(e.len, 2);
    assert_int_equal(ui_lineedit_cursor_col(&e), 1);
}

static void test_lineedit_clusters(void **state)
{
    ui_lineedit e;
    ui_lineedit_set(&e, "ae\xcc\x81z");   /* a, e + U+0301, z */
    assert_int_equal(ui_lineedit_left(&e), 1);
    assert_int_equal(ui_lineedit_left(&e), 1);   /* over the whole é cluster */
    assert_int_equal(e.cur, 1);
    assert_int_equal(ui_lineedit_delete(&e), 1);
    assert_string_equal(e.buf, "az");
    ui_lineedit_set(&e, "bad\xff");   /* invalid byte → U+FFFD */
    assert_string_equal(e.buf, "bad\xef\xbf\xbd");
    assert_int_equal(ui_lineedit_insert(&e, 0x07), 0);   /* control characters refused */
    ui_lineedit_set(&e, "one two");
    assert_int_equal(ui_lineedit_kill_word(&e), 1);
    assert_string_equal(e.buf, "one ");
}

/* The editing keys every field shares (answers, predictions, the lab's sentence). */
static void test_edit_keys(void **state)
{
    (void)state;
    ui_lineedit e;
    ui_lineedit_set(&e, "");
    const char *typed = "q k 注";
    wchar_t w[8];
    size_t n = mbstowcs(w, typed, 8);
    assert_int_equal(n, 5);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ui_edit_key(&e, (ui_key){0, (wint_t)w[i]}), UI_EDIT_CHANGED);
    assert_string_equal(e.buf, "q k 注");
    assert_int_equal(ui_edit_key(&e, (ui_key){0, 23}), UI_EDIT_CHANGED);   /* ^W */
    assert_string_equal(e.buf, "q k ");
    assert_int_equal(ui_edit_key(&e, (ui_key){0, 1}), UI_EDIT_KEPT);       /* ^A */
    assert_int_equal(e.cur, 0);
    assert_int_equal(ui_edit_key(&e, (ui_key){1, KEY_DC}), UI_EDIT_CHANGED);
    assert_string_equal(e.buf, " k ");
    assert_int_equal(ui_edit_key(&e, (ui_key){0, 5}), UI_EDIT_KEPT);       /* ^E */
    assert_int_equal(e.cur, e.len);
    assert_int_equal(ui_edit_key(&e, (ui_key){0, 127}), UI_EDIT_CHANGED);  /* DEL */
    assert_string_equal(e.buf, " k");
    assert_int_equal(ui_edit_key(&e, (ui_key){0, 7}), UI_EDIT_KEPT);       /* BEL: not typed */
    assert_string_equal(e.buf, " k");
    assert_int_equal(ui_edit_key(&e, (ui_key){1, KEY_F(1)}), UI_EDIT_UNKNOWN);
    assert_int_equal(ui_edit_key(&e, (ui_key){0, 21}), UI_EDIT_CHANGED);   /* ^U */
    assert_string_equal(e.buf, "");
    assert_int_equal(ui_edit_key(&e, (ui_key){0, 21}), UI_EDIT_KEPT);      /* nothing left */
}

static void test_wrap_mixed(void **state)
{
    const char *s = "注意力让每个词看向别的词，attention weights sum to one.";
    ui_lines l = {0};
    assert_int_equal(ui_wrap(s, strlen(s), 12, &l), 0);
    assert_true(l.n >= 5);
    for (size_t i = 0; i < l.n; i++) {
        assert_true(ui_text_width(s + l.v[i].start, l.v[i].len) <= 12);
        /* a line never starts with the full-width comma */
        assert_false(strncmp(s + l.v[i].start, "，", strlen("，")) == 0);
    }
    ui_lines_free(&l);
    /* hard newlines and a word longer than the width */
    const char *t = "a\n\nsupercalifragilistic";
    assert_int_equal(ui_wrap(t, strlen(t), 10, &l), 0);
    assert_int_equal(l.n, 4);
    assert_int_equal(l.v[1].len, 0);
    assert_int_equal(l.v[2].len, 10);
    ui_lines_free(&l);
}

static void test_table_cjk_borders(void **state)
{
    ui_doc d = {0};
    ui_doc_reset(&d, 60);
    const char *header[] = {"词", "weight"};
    const char *r1[] = {"下雨", "0.14"};
    const char *r2[] = {"没", "0.17"};
    const char *const *rows[] = {r1, r2};
    ui_doc_table(&d, header, 2, rows, 2, 0);
    assert_int_equal(d.n, 6);
    int w0 = ui_text_width(d.v[0].text, strlen(d.v[0].text));
    for (size_t i = 0; i < d.n; i++)
        assert_int_equal(ui_text_width(d.v[i].text, strlen(d.v[i].text)), w0);
    assert_string_equal(d.v[3].text, "│ 下雨 │ 0.14   │");
    ui_doc_free(&d);
}

static void test_heatmap_masked(void **state)
{
    WINDOW *w = newwin(6, 40, 0, 0);
    const char *labels[] = {"I", "am", "注意"};
    float weights[9] = {0, 0, 0, 0, 1, 0, 0, 0.5f, 0.5f};
    float scores[9] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY, 0, -INFINITY, -INFINITY, 0, 0};
    unsigned char fully[3] = {1, 0, 0};
    ui_heatmap h = {3, 3, weights, scores, fully, labels, labels, -1, -1, 0, 0, 0, NULL, 0, 0};
    ui_heatmap_draw(w, (ui_rect){0, 0, 6, 40}, &h);
    char got[256];
    row_text(w, 1, got, sizeof got);
    assert_non_null(strstr(got, "fully masked"));
    assert_null(strstr(got, "nan"));
    row_text(w, 2, got, sizeof got);
    assert_non_null(strstr(got, "1.00"));
    assert_non_null(strstr(got, "·"));
    row_text(w, 3, got, sizeof got);
    assert_non_null(strstr(got, "0.50"));
    delwin(w);
}

/* A dimmed row (a row training never reached) is drawn grey: its label and its cells
 * carry the dim role, the other rows their heat roles. */
static void test_heatmap_dim_rows(void **state)
{
    WINDOW *w = newwin(4, 40, 0, 0);
    const char *labels[] = {"it", "was"};
    float weights[4] = {0.0f, 1.0f, 0.0f, 1.0f};
    unsigned char dim[2] = {0, 1};
    ui_heatmap h = {2, 2, weights, NULL, NULL, labels, labels, -1, -1, 0, 0, 0, dim, 0, 0};
    ui_heatmap_draw(w, (ui_rect){0, 0, 4, 40}, &h);
    char got[256];
    row_text(w, 2, got, sizeof got);
    assert_non_null(strstr(got, "1.00"));   /* the numbers stay */
    int x = (int)(strstr(got, "1.00") - got);
    attr_t dim_attr = crt_attr(CRT_DIM) & A_ATTRIBUTES;
    assert_int_equal(mvwinch(w, 2, 0) & A_ATTRIBUTES & dim_attr, dim_attr);   /* label */
    assert_int_equal(mvwinch(w, 2, x) & A_ATTRIBUTES & dim_attr, dim_attr);   /* cell */
    assert_int_equal(mvwinch(w, 1, x) & A_ATTRIBUTES, crt_attr(crt_heat_role(1.0f)) & A_ATTRIBUTES);
    delwin(w);
}

/* Column labels never run together: each is cut to its cell with a gap before it, and
 * sits right-aligned over its column's numbers. */
static void test_heatmap_column_labels(void **state)
{
    const char *labels[] = {"The", "animal", "didn't", "cross", "the", "road",
                            "because", "it", "was", "too", "tired", "."};
    float weights[12 * 12];
    for (int i = 0; i < 12 * 12; i++)
        weights[i] = 1.0f / 12;
    WINDOW *w = newwin(14, 42, 0, 0);
    ui_heatmap h = {12, 12, weights, NULL, NULL, labels, labels, -1, -1, 0, 0, 0, NULL, 0, 0};
    assert_false(ui_heatmap_shows_numbers(&h, 42));
    ui_heatmap_draw(w, (ui_rect){0, 0, 14, 42}, &h);
    char got[512];
    row_text(w, 0, got, sizeof got);
    for (char *p = got; p[0] && p[1]; p++)   /* no two label characters touch */
        assert_false(p[0] != ' ' && p[1] != ' ');
    delwin(w);

    const char *three[] = {"I", "am", "here"};
    float wt[9] = {0.25f, 0.5f, 0.25f, 0.2f, 0.6f, 0.2f, 0.1f, 0.1f, 0.8f};
    w = newwin(5, 40, 0, 0);
    ui_heatmap g = {3, 3, wt, NULL, NULL, three, three, -1, -1, 0, 0, 0, NULL, 0, 0};
    assert_true(ui_heatmap_shows_numbers(&g, 40));
    ui_heatmap_draw(w, (ui_rect){0, 0, 5, 40}, &g);
    char head[256], row[256];
    row_text(w, 0, head, sizeof head);
    row_text(w, 1, row, sizeof row);
    char *am = strstr(head, "am"), *half = strstr(row, "0.50");
    assert_non_null(am);
    assert_non_null(half);
    /* both end in the same display column */
    assert_int_equal(ui_text_width(head, (size_t)(am - head)) + 2,
                     ui_text_width(row, (size_t)(half - row)) + 4);
    delwin(w);
}

/* A soft line break joins with a space, except between CJK characters and after or
 * before CJK punctuation, in flowing feedback and in lesson paragraphs alike. */
static void test_cjk_joins(void **state)
{
    (void)state;
    static const struct { const char *src, *want; } cases[] = {
        {"分数过大时，\nsoftmax 会饱和", "分数过大时，softmax 会饱和"},
        {"softmax 会饱和\n，梯度消失", "softmax 会饱和，梯度消失"},
        {"注意力\n机制", "注意力机制"},
        {"the scores\ngrow", "the scores grow"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int text = 0; text < 2; text++) {
            ui_doc d = {0};
            ui_doc_reset(&d, 200);
            if (text)
                ui_doc_text(&d, cases[k].src, CRT_NORMAL, 0);
            else
                ui_doc_flow(&d, cases[k].src, CRT_NORMAL, 0);
            assert_true(d.n >= 1 && d.v[0].text);
            if (strcmp(d.v[0].text, cases[k].want))
                fail_msg("%s: \"%s\" gives \"%s\", not \"%s\"", text ? "text" : "flow",
                         cases[k].src, d.v[0].text, cases[k].want);
            ui_doc_free(&d);
        }
    }
}

/* Grader feedback flows: a source line break mid-sentence is a space, even on an
 * indented option line; the next option keeps its own line. */
static void test_feedback_flows(void **state)
{
    ui_doc d = {0};
    ui_doc_reset(&d, 200);
    ui_doc_flow(&d, "Not right.\n  a) It can. \xe2\x80\x94 wrong: Plain self-attention has no window; "
                    "every token sees every\nother. (Windowed variants exist.)\n\n  c) The number.",
                CRT_NORMAL, 0);
    int joined = 0, c_alone = 0;
    for (size_t i = 0; i < d.n; i++) {
        if (d.v[i].text && strstr(d.v[i].text, "sees every other. (Windowed"))
            joined = 1;
        if (d.v[i].text && !strncmp(d.v[i].text, "  c) The number.", 16))
            c_alone = 1;
    }
    assert_true(joined);
    assert_true(c_alone);
    ui_doc_free(&d);
}

/* Feedback keeps the grader's lines: a heading ending in ':' and each ✗ item stay
 * lines of their own, a numbered step too long for the width wraps under its own text
 * (a hanging indent) and the next step starts a line; a lesson text wrapped by hand
 * still flows. */
static void test_feedback_lines(void **state)
{
    ui_doc d = {0};
    ui_doc_reset(&d, 40);
    ui_doc_flow(&d, "Key ideas found (0 of 2, 2 needed):\nMissing:\n  \xe2\x9c\x97 in an RNN the "
                    "distance grows with the gap, step by step\n  \xe2\x9c\x97 any two positions"
                    "\n  \xe6\xb2\xa1: 0.208  \xe2\x9c\x97  (engine: 0.1691)\n  #1: 0.5  \xe2\x9c\x97"
                    "\nIt looks like the exp"
                    "\n\nThe steps:\n  1. exp of each score: exp(0.1) = 1.1052, exp(0.3) = 1.3499"
                    "\n  2. their sum: 9.7504\nsoftmax in\nthree moves.",
                CRT_NORMAL, 2);
    const char *want[][2] = {
        {"Key ideas found (0 of 2, 2 needed):", "2"},
        {"Missing:", "2"},
        {"  \xe2\x9c\x97 in an RNN the distance grows with", "2"},
        {"the gap, step by step", "6"},
        {"  \xe2\x9c\x97 any two positions", "2"},
        {"  \xe6\xb2\xa1: 0.208  \xe2\x9c\x97  (engine: 0.1691)", "2"},
        {"  #1: 0.5  \xe2\x9c\x97", "2"},   /* a line ending in its mark is one item */
        {"It looks like the exp", "2"},
        {"", "0"},
        {"The steps:", "2"},
        {"  1. exp of each score: exp(0.1) =", "2"},
        {"1.1052, exp(0.3) = 1.3499", "7"},
        {"  2. their sum: 9.7504", "2"},
        {"softmax in three moves.", "2"},
    };
    assert_int_equal(d.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < d.n; i++) {
        assert_string_equal(d.v[i].text, want[i][0]);
        assert_int_equal(d.v[i].indent, atoi(want[i][1]));
    }
    /* no break after a slash: "1/√4" stays on one line */
    ui_doc_reset(&d, 24);
    ui_doc_flow(&d, "  1. the scores times 1/â" "4 = 0.5000", CRT_NORMAL, 0);
    assert_int_equal(d.n, 2);
    assert_string_equal(d.v[0].text, "  1. the scores times");
    assert_string_equal(d.v[1].text, "1/â" "4 = 0.5000");
    ui_doc_free(&d);
}

/* No line break inside "0.xx" next to Chinese text. */
static void test_wrap_keeps_numbers(void **state)
{
    const char *s = "（保留两位小数，按“下雨 没”的顺序作答，例如 0.xx 0.xx）。";
    for (int width = 6; width <= 60; width++) {
        ui_lines lines = {0};
        assert_int_equal(ui_wrap(s, strlen(s), width, &lines), 0);
        for (size_t i = 0; i + 1 < lines.n; i++) {
            const char *end = s + lines.v[i].start + lines.v[i].len;
            while (end > s + lines.v[i].start && end[-1] == ' ')
                end--;
            assert_false(end > s && (end[-1] == '.' || (end[-1] >= '0' && end[-1] <= '9')) &&
                         (s[lines.v[i + 1].start] == 'x' || s[lines.v[i + 1].start] == '.'));
        }
        ui_lines_free(&lines);
    }
}

static void test_heatmap_format(void **state)
{
    char b[32];
    ui_heatmap_format(0.4231f, 4, b);
    assert_string_equal(b, "0.42");
    ui_heatmap_format(0.4231f, 3, b);
    assert_string_equal(b, ".42");
    ui_heatmap_format(0.999f, 3, b);
    assert_string_equal(b, "1.0");
    ui_heatmap_format(0.05f, 5, b);
    assert_string_equal(b, " 0.05");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clip_case7),
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_clusters_whole),
        cmocka_unit_test(test_glyph_plans),
        cmocka_unit_test(test_over_wide_halves),
        cmocka_unit_test(test_lineedit_case9),
        cmocka_unit_test(test_lineedit_clusters),
        cmocka_unit_test(test_edit_keys),
        cmocka_unit_test(test_cjk_joins),
        cmocka_unit_test(test_wrap_mixed),
        cmocka_unit_test(test_table_cjk_borders),
        cmocka_unit_test(test_heatmap_masked),
        cmocka_unit_test(test_heatmap_dim_rows),
        cmocka_unit_test(test_heatmap_column_labels),
        cmocka_unit_test(test_feedback_flows),
        cmocka_unit_test(test_feedback_lines),
        cmocka_unit_test(test_wrap_keeps_numbers),
        cmocka_unit_test(test_heatmap_format),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
