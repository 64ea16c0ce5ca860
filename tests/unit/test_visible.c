/* The one filter for text that reaches a terminal (engine/visible.h): which code points
 * it refuses, what it prints instead, the same result however the bytes are split
 * between writes, the widths it prints, the JSON writers built on it (cli/output.h)
 * and the tutor's drawing (ui/draw.c), which uses the same rule. */
#include "check.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cli/output.h"
#include "engine/visible.h"
#include "ui/draw.h"

#define PH "\xEF\xBF\xBD"   /* U+FFFD */

static void test_unsafe(void **state)
{
    const uint32_t refused[] = {0x00, 0x07, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85,
                                0x9B, 0x9F, 0x202A, 0x202C, 0x202E, 0x2066, 0x2069};
    const uint32_t kept[] = {0x20, 0x7E, 0xA0, 0xFF, 0x200B, 0x200D, 0x2029, 0x202F,
                             0x2065, 0x206A, 0x4E2D, 0xFFFD, 0x1F44D};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (!at_visible_unsafe(refused[i]))
            fail_msg("U+%04X should be refused", (unsigned)refused[i]);
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (at_visible_unsafe(kept[i]))
            fail_msg("U+%04X should be kept", (unsigned)kept[i]);
}

static const struct {
    const char *in;
    size_t len;   /* 0: strlen */
    int layout;
    const char *out;
} cases[] = {
    /* OSC 0 (window title), OSC 52 (clipboard), CSI 2J: shown, not obeyed */
    {"a\x1b]0;pwned\x07" "b", 0, 1, "a" PH "]0;pwned" PH "b"},
    {"\x1b]52;c;cHduZWQ=\x07", 0, 1, PH "]52;c;cHduZWQ=" PH},
    {"\x1b[2J", 0, 1, PH "[2J"},
    /* U+009B as UTF-8, a raw 0x9B (invalid UTF-8), DEL, NEL */
    {"x\xC2\x9B" "2J", 0, 1, "x" PH "2J"},
    {"x\x9B" "2J", 0, 1, "x" PH "2J"},
    {"\x7f\xC2\x85", 0, 1, PH PH},
    /* bidi overrides and isolates */
    {"\xE2\x80\xAE" "exe.txt\xE2\x80\xAC", 0, 1, PH "exe.txt" PH},
    {"\xE2\x81\xA6" "x\xE2\x81\xA9", 0, 1, PH "x" PH},
    /* the newline and the tab: kept for a layout, refused otherwise; CR always */
    {"a\nb\tc\rd", 0, 1, "a\nb\tc" PH "d"},
    {"a\nb\tc", 0, 0, "a" PH "b" PH "c"},
    /* a NUL inside the text */
    {"a\0b", 3, 1, "a" PH "b"},
    /* invalid UTF-8: one placeholder per maximal invalid subsequence */
    {"\xE0\x80", 0, 1, PH PH},
    {"\xE6\xB3", 0, 1, PH},
    {"\xF0\x9F\x91", 0, 1, PH},
    {"\xFF\xFE", 0, 1, PH PH},
    {"\xED\xA0\x80", 0, 1, PH PH PH},   /* a surrogate */
    /* everything else unchanged: CJK, emoji sequences, combining marks, U+FFFD itself */
    {"注意力 👍🏽 👩🏿‍🔧 e\xCC\x81 " PH, 0, 1, "注意力 👍🏽 👩🏿‍🔧 e\xCC\x81 " PH},
    {"", 0, 1, ""},
};

static void test_copy(void **state)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in), n;
        char *got = at_visible_copy(cases[i].in, len, cases[i].layout, &n);
        assert_non_null(got);
        if (strcmp(got, cases[i].out))
            fail_msg("case %zu: got '%s', expected '%s'", i, got, cases[i].out);
        assert_int_equal(n, strlen(cases[i].out));
        free(got);
    }
}

/* Fed in pieces (every split into two, and byte by byte), the same as whole. */
static void test_pieces(void **state)
{
    char out[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);
        for (size_t cut = 0; cut <= len + 1; cut++) {   /* cut = len + 1: byte by byte */
            at_visible v;
            at_visible_init(&v, cases[i].layout);
            size_t o = 0;
            if (cut <= len) {
                o += at_visible_feed(&v, cases[i].in, cut, out + o);
                o += at_visible_feed(&v, cases[i].in + cut, len - cut, out + o);
            } else {
                for (size_t k = 0; k < len; k++)
                    o += at_visible_feed(&v, cases[i].in + k, 1, out + o);
            }
            o += at_visible_end(&v, out + o);
            out[o] = '\0';
            if (strcmp(out, cases[i].out))
                fail_msg("case %zu cut at %zu: got '%s', expected '%s'", i, cut, out,
                         cases[i].out);
        }
    }
}

/* Widths as printed: each placeholder one column. */
static void test_width(void **state)
{
    assert_int_equal(at_visible_width("a\x1b" "b", 3), 3);
    assert_int_equal(at_visible_width("注\xE2\x80\xAE", strlen("注\xE2\x80\xAE")), 3);
    assert_int_equal(at_visible_width("x\x9B", 2), 2);
    assert_int_equal(at_visible_width("👍🏽", strlen("👍🏽")), 2);
}

static char *capture(void (*fn)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    fn(f, s);
    fclose(f);
    return buf;
}

/* JSON: the refused code points as JSON escapes, invalid UTF-8 as \ufffd. */
static void test_json(void **state)
{
    char *s = capture(cli_json_string, "a\x1b]0;x\x07\"\\\n\xC2\x9B\xE2\x80\xAE\x7f\x9B" "b");
    assert_string_equal(s, "\"a\\u001b]0;x\\u0007\\\"\\\\\\u000a\\u009b\\u202e\\u007f\\ufffdb\"");
    free(s);
    s = capture(cli_json_string, "注意 👍🏽");
    assert_string_equal(s, "\"注意 👍🏽\"");
    free(s);
    /* cJSON's text: its own escapes stay, what it leaves raw is escaped */
    s = capture(cli_print_json, "{\"a\":\"x\\u001b\xC2\x9B\xE2\x81\xA6\x7f\x9B\",\"b\":[1,2]}");
    assert_string_equal(s, "{\"a\":\"x\\u001b\\u009b\\u2066\\u007f\\ufffd\",\"b\":[1,2]}\n");
    free(s);
}

/* The tutor's screens draw the same placeholders (ui/draw.c uses the one rule). */
static void test_drawn(void **state)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    assert_non_null(scr);
    WINDOW *w = newwin(1, 30, 0, 0);
    const char *s = "a\x1b]0;x\x07\xC2\x9B\xE2\x80\xAE" "b\x9B" "c";
    int cols = ui_puts(w, 0, 0, s, 30, 0);
    wchar_t got[64];
    int n = mvwinnwstr(w, 0, 0, got, 63);
    assert_true(n > 0);
    got[cols] = 0;
    assert_int_equal(cols, 12);
    assert_true(wcscmp(got, L"a\xFFFD]0;x\xFFFD\xFFFD\xFFFD" L"b\xFFFD" L"c") == 0);
    delwin(w);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unsafe),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_drawn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
