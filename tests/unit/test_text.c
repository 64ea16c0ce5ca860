/* Display width, clipping, grapheme navigation and sanitising (engine/text.h).
 * Inputs live in malloc'ed buffers of exactly their length (reads past the end
 * fail under ASan). */
#include "check.h"
#include "engine/text.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unigbrk.h>

#define WORKER "\xF0\x9F\x91\xA9\xF0\x9F\x8F\xBF\xE2\x80\x8D\xF0\x9F\x94\xA7" /* 👩🏿‍🔧, 15 bytes */
#define WARNING "\xE2\x9A\xA0\xEF\xB8\x8F"                                    /* ⚠️, 6 bytes */

static char *exact(const char *s, size_t n)
{
    char *b = malloc(n ? n : 1);
    assert_non_null(b);
    memcpy(b, s, n);
    return b;
}

static size_t width_of(const char *s, size_t n)
{
    char *b = exact(s, n);
    size_t w = at_text_width(b, n);
    free(b);
    return w;
}

static int gwidth_of(const char *s)
{
    size_t n = strlen(s);
    char *b = exact(s, n);
    int w = at_grapheme_width(b, n);
    free(b);
    return w;
}

static void test_widths_per_grapheme(void **state)
{
    static const struct { const char *s; size_t cols; } cases[] = {
        {"", 0},
        {"abc", 3},
        {"注意力机制ab", 12},
        {"┌─┐", 3},                          /* ambiguous width: narrow */
        {"a\xC2\xB7" "b", 3},                /* U+00B7 middle dot: narrow */
        {"，。", 4},                          /* full-width punctuation */
        {WORKER, 2},                         /* not 6 */
        {"e\xCC\x81", 1},                    /* e + combining acute */
        {WARNING, 2},                        /* U+26A0 + VS16: emoji presentation */
        {"\xE2\x9A\xA0", 1},                 /* U+26A0 alone: text presentation */
        {"🇨🇳🇺🇸", 4},                        /* two flags */
        {"👍🏽", 2},                           /* not 4 */
        {"1\xEF\xB8\x8F\xE2\x83\xA3", 2},    /* keycap 1️⃣ */
        {"a\tb\x7f", 2},                     /* control characters: 0 */
        {"\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8", 2}, /* Hangul jamo L V T: one syllable */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t w = width_of(cases[i].s, strlen(cases[i].s));
        if (w != cases[i].cols)
            fail_msg("width of \"%s\" = %zu, expected %zu", cases[i].s, w, cases[i].cols);
    }
}

static void test_grapheme_width_first_cluster_only(void **state)
{
    assert_int_equal(gwidth_of(WORKER), 2);
    assert_int_equal(gwidth_of("e\xCC\x81"), 1);
    assert_int_equal(gwidth_of(WARNING), 2);
    assert_int_equal(gwidth_of("🇨🇳"), 2);
    assert_int_equal(gwidth_of("注"), 2);
    assert_int_equal(gwidth_of("─"), 1);
    assert_int_equal(gwidth_of("\xE2\x9A\xA0x\xEF\xB8\x8F"), 1);   /* VS16 of a later cluster */
    assert_int_equal(gwidth_of("a" WORKER), 1);
    assert_int_equal(gwidth_of(""), 0);
    assert_int_equal(at_grapheme_width(NULL, 0), 0);
}

static void test_width_independent_of_locale(void **state)
{
    const char *saved = setlocale(LC_ALL, NULL);
    char *restore = saved ? strdup(saved) : NULL;
    setenv("LANG", "zh_CN.UTF-8", 1);
    const char *locales[] = {"zh_CN.UTF-8", "", "C", "C.UTF-8"};
    for (size_t i = 0; i < sizeof locales / sizeof locales[0]; i++) {
        setlocale(LC_ALL, locales[i]);
        assert_int_equal(width_of("┌─┐", 9), 3);
        assert_int_equal(width_of("注意", 6), 4);
    }
    if (restore)
        setlocale(LC_ALL, restore);
    free(restore);
}

static void test_invalid_utf8_counts_as_replacement(void **state)
{
    /* Case 4's bytes: 我 (2 columns) then one U+FFFD for the truncated E6 B3. */
    assert_int_equal(width_of("\xE6\x88\x91\xE6\xB3", 5), 3);
    assert_int_equal(width_of("a\x80\x80" "b", 4), 4);
    char *b = exact("\xE6\x88\x91\xE6\xB3", 5);
    assert_int_equal(at_text_next_grapheme(b, 5, 0), 3);
    assert_int_equal(at_text_next_grapheme(b, 5, 3), 5);
    assert_int_equal(at_text_prev_grapheme(b, 5, 5), 3);
    free(b);
}

/* Case 7, clipping part: "注意力机制ab" in 9 columns → "注意力机" (12 bytes, 8 columns). */
static void test_clip_never_half_a_glyph(void **state)
{
    const char *s = "注意力机制ab";
    size_t n = strlen(s), cols = 99;
    char *b = exact(s, n);
    assert_int_equal(at_text_clip(b, n, 9, &cols), 12);
    assert_int_equal(cols, 8);
    assert_memory_equal(b, "注意力机", 12);
    assert_int_equal(at_text_clip(b, n, 10, &cols), 15);
    assert_int_equal(cols, 10);
    assert_int_equal(at_text_clip(b, n, 11, &cols), 16);
    assert_int_equal(cols, 11);
    assert_int_equal(at_text_clip(b, n, 12, &cols), n);
    assert_int_equal(cols, 12);
    assert_int_equal(at_text_clip(b, n, 1000, &cols), n);
    assert_int_equal(at_text_clip(b, n, 1, &cols), 0);
    assert_int_equal(cols, 0);
    assert_int_equal(at_text_clip(b, n, 0, NULL), 0);
    free(b);

    const char *e = "ab" WORKER "e\xCC\x81";
    n = strlen(e);
    b = exact(e, n);
    assert_int_equal(at_text_clip(b, n, 3, &cols), 2);
    assert_int_equal(cols, 2);
    assert_int_equal(at_text_clip(b, n, 4, &cols), 17);
    assert_int_equal(cols, 4);
    assert_int_equal(at_text_clip(b, n, 5, &cols), n);   /* e + U+0301 stay together */
    assert_int_equal(cols, 5);
    free(b);
}

static void test_next_prev_boundaries(void **state)
{
    /* a | 👩🏿‍🔧 | é | 🇨🇳 | 🇺🇸 | ! */
    const char *s = "a" WORKER "e\xCC\x81" "🇨🇳🇺🇸!";
    const size_t want[] = {0, 1, 16, 19, 27, 35, 36};
    const size_t nb = sizeof want / sizeof want[0], n = strlen(s);
    assert_int_equal(n, 36);
    char *b = exact(s, n);
    size_t pos = 0;
    for (size_t i = 1; i < nb; i++) {
        pos = at_text_next_grapheme(b, n, pos);
        assert_int_equal(pos, want[i]);
    }
    assert_int_equal(at_text_next_grapheme(b, n, n), n);
    for (size_t i = nb - 1; i > 0; i--) {
        pos = at_text_prev_grapheme(b, n, pos);
        assert_int_equal(pos, want[i - 1]);
    }
    assert_int_equal(at_text_prev_grapheme(b, n, 0), 0);
    assert_int_equal(at_text_prev_grapheme(b, n, 5), 1);     /* from inside the emoji */
    assert_int_equal(at_text_prev_grapheme(b, n, 1000), 35); /* past the end = from len */
    free(b);
}

/* Boundaries are computed in windows: clusters that straddle a window edge, and a
 * cluster longer than a window, must come out as from the whole string. */
static void test_long_text_and_long_cluster(void **state)
{
    for (size_t k = 230; k < 270; k++) {
        size_t n = k + 15 + 16;
        char *b = malloc(n);
        assert_non_null(b);
        memset(b, 'x', k);
        memcpy(b + k, WORKER "🇨🇳🇺🇸", 31);
        assert_int_equal(at_text_width(b, n), k + 6);
        assert_int_equal(at_text_next_grapheme(b, n, k), k + 15);
        assert_int_equal(at_text_next_grapheme(b, n, k + 15), k + 23);
        size_t cols;
        assert_int_equal(at_text_clip(b, n, k + 1, &cols), k);
        assert_int_equal(at_text_clip(b, n, k + 5, &cols), k + 23);
        free(b);
    }
    /* "a" + 300 combining acute accents + "b": one cluster of 601 bytes, then "b". */
    size_t n = 1 + 600 + 1;
    char *b = malloc(n);
    assert_non_null(b);
    b[0] = 'a';
    for (size_t i = 0; i < 300; i++)
        memcpy(b + 1 + 2 * i, "\xCC\x81", 2);
    b[n - 1] = 'b';
    assert_int_equal(at_text_next_grapheme(b, n, 0), 601);
    assert_int_equal(at_text_width(b, n), 2);
    assert_int_equal(at_text_clip(b, n, 1, NULL), 601);
    assert_int_equal(at_text_prev_grapheme(b, n, n), 601);
    assert_int_equal(at_grapheme_width(b, n), 1);
    free(b);
}

static void test_sanitize(void **state)
{
    size_t n = 99;
    char *b = exact("\xE6\x88\x91\xE6\xB3", 5);
    char *c = at_text_sanitize(b, 5, &n);
    assert_non_null(c);
    assert_int_equal(n, 6);
    assert_string_equal(c, "我\xEF\xBF\xBD");
    free(c), free(b);

    b = exact("a\x80" "b\xC0\x80" "c\0d", 8);
    c = at_text_sanitize(b, 8, &n);
    assert_int_equal(n, 14);   /* 80 → FFFD; C0 80 (overlong) → two FFFD; NUL kept */
    assert_memory_equal(c, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD" "c\0d", 15);
    free(c), free(b);

    const char *ok = "ok 注意力 " WORKER;
    b = exact(ok, strlen(ok));
    c = at_text_sanitize(b, strlen(ok), &n);
    assert_int_equal(n, strlen(ok));
    assert_string_equal(c, ok);
    free(c), free(b);

    c = at_text_sanitize(NULL, 0, &n);
    assert_non_null(c);
    assert_int_equal(n, 0);
    assert_string_equal(c, "");
    free(c);
    assert_null(at_text_sanitize(NULL, 1, &n));
}

/* Wrap s (exact-size copy) at width and compare each line's text and columns. */
static void expect_wrap(const char *s, size_t width, const char *const *want, size_t n_want)
{
    size_t n = strlen(s), n_lines = 99;
    char *b = exact(s, n);
    at_line *lines = (at_line *)1;
    at_error err;
    at_error_clear(&err);
    assert_int_equal(at_text_wrap(b, n, width, &lines, &n_lines, &err), AT_OK);
    if (n_lines != n_want) {
        for (size_t i = 0; i < n_lines; i++)
            print_message("  line %zu: \"%.*s\"\n", i, (int)lines[i].len, b + lines[i].start);
        fail_msg("\"%s\" at %zu columns: %zu lines, expected %zu", s, width, n_lines, n_want);
    }
    for (size_t i = 0; i < n_want; i++) {
        assert_int_equal(lines[i].len, strlen(want[i]));
        assert_memory_equal(b + lines[i].start, want[i], lines[i].len);
        assert_int_equal(lines[i].cols, width_of(want[i], strlen(want[i])));
        assert_true(lines[i].cols <= width);
    }
    free(lines);
    free(b);
}

#define WRAP(s, width, ...)                                              \
    do {                                                                 \
        const char *const w_[] = {__VA_ARGS__};                          \
        expect_wrap(s, width, w_, sizeof w_ / sizeof w_[0]);             \
    } while (0)

static void test_wrap(void **state)
{
    WRAP("The animal didn't cross the road", 10, "The animal", "didn't", "cross the", "road");
    /* "，" never starts a line: 雨 moves down with it. */
    WRAP("今天下雨，我没带伞。", 8, "今天下", "雨，我没", "带伞。");
    WRAP("abcdefghij", 4, "abcd", "efgh", "ij");
    WRAP(WORKER WORKER WORKER, 4, WORKER WORKER, WORKER);
    WRAP("a\n\nb", 10, "a", "", "b");
    WRAP("a\r\nb c\n", 10, "a", "b c");
    WRAP("word   ", 4, "word");
    WRAP("注意力机制ab", 9, "注意力机", "制ab");
}

static void test_wrap_edges(void **state)
{
    at_line *lines = NULL;
    size_t n = 99;
    at_error err;
    at_error_clear(&err);
    assert_int_equal(at_text_wrap("", 0, 10, &lines, &n, &err), AT_OK);
    assert_int_equal(n, 0);
    assert_null(lines);
    assert_int_equal(at_text_wrap("ab", 2, 0, &lines, &n, &err), AT_EINVAL);
    assert_int_equal(err.code, AT_EINVAL);
    assert_int_equal(at_text_wrap(NULL, 2, 5, &lines, &n, NULL), AT_EINVAL);
    /* A wide character alone on a line narrower than itself. */
    assert_int_equal(at_text_wrap("注意", 6, 1, &lines, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(lines[0].start, 0);
    assert_int_equal(lines[0].cols, 2);
    assert_int_equal(lines[1].start, 3);
    free(lines);
}

/* Random bytes (mostly invalid UTF-8): clusters cover the text exactly, widths add
 * up, clipping and sanitising stay in bounds. Any read past the end fails under ASan. */
static void test_random_bytes_properties(void **state)
{
    srand(1706);
    for (int round = 0; round < 300; round++) {
        size_t n = (size_t)rand() % 600;
        char *s = malloc(n ? n : 1);
        assert_non_null(s);
        for (size_t i = 0; i < n; i++)   /* lead bytes, continuation bytes, ASCII */
            s[i] = (char)(rand() % 3 == 0 ? 0x80 + rand() % 64 : rand() % 3 ? 0xC0 + rand() % 64 : rand() % 128);
        size_t sum = 0;
        for (size_t pos = 0, next; pos < n; pos = next) {
            next = at_text_next_grapheme(s, n, pos);
            assert_true(next > pos && next <= n);
            assert_int_equal(at_text_prev_grapheme(s, n, next), pos);
            sum += (size_t)at_grapheme_width(s + pos, next - pos);
        }
        assert_int_equal(sum, at_text_width(s, n));
        size_t cols, max = (size_t)rand() % 100;
        size_t cut = at_text_clip(s, n, max, &cols);
        assert_true(cut <= n && cols <= max);
        assert_int_equal(cols, at_text_width(s, cut));
        size_t m;
        char *c = at_text_sanitize(s, n, &m);
        assert_non_null(c);
        assert_true(m <= 3 * n);
        assert_int_equal(c[m], '\0');
        free(c);
        at_line *lines;
        size_t n_lines;
        assert_int_equal(at_text_wrap(s, n, 1 + (size_t)rand() % 20, &lines, &n_lines, NULL), AT_OK);
        for (size_t i = 0; i < n_lines; i++)
            assert_true(lines[i].start + lines[i].len <= n);
        free(lines);
        free(s);
    }
}

/* Walking cluster by cluster (at_text_next_grapheme, with its shortcut for ASCII and
 * CJK ideographs) finds exactly the breaks UAX #29 gives for the whole string, also
 * where a plain character meets one that joins it (combining marks, ZWJ, variation
 * selectors, CR LF, Prepend, SpacingMark, Hangul jamo, regional indicators). */
static void test_next_matches_uax29_on_mixed_text(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "a", "Z", " ", ".", "\r", "\n", "\t", "\xE4\xB8\xAD" /* 中 */, "\xE6\x96\x87" /* 文 */,
        "\xE4\xB8\x80" /* 一 */, "\xE9\xBF\xBF" /* U+9FFF */, "\xE4\xB7\x80" /* ䷀ U+4DC0 */,
        "\xCC\x81" /* U+0301 combining acute */, "\xE2\x80\x8D" /* ZWJ */,
        "\xEF\xB8\x8F" /* VS16 */, "\xF0\x9F\x91\xA9" /* 👩 */, "\xF0\x9F\x8F\xBF" /* 🏿 */,
        "\xF0\x9F\x87\xA8" /* RI C */, "\xF0\x9F\x87\xB3" /* RI N */,
        "\xED\x95\x9C" /* 한 */, "\xE1\x84\x80" /* ᄀ L */, "\xE1\x85\xA1" /* ᅡ V */,
        "\xE3\x80\x81" /* 、 */, "\xE3\x80\xAA" /* U+302A, Extend */,
        "\xD8\x80" /* U+0600, Prepend */, "\xE0\xA4\x83" /* U+0903, SpacingMark */,
        "\xE0\xA4\x95" /* क */, "\xEF\xBE\x9E" /* U+FF9E, Extend */, "\xE2\x9A\xA0" /* ⚠ */,
    };
    const size_t n_pieces = sizeof pieces / sizeof pieces[0];
    unsigned seed = 12345;
    for (int round = 0; round < 3000; round++) {
        char buf[512];
        size_t len = 0, count = 1 + (size_t)(round % 60);
        for (size_t i = 0; i < count; i++) {
            seed = seed * 1103515245u + 12345u;
            /* mostly plain characters, as text is */
            size_t k = (seed >> 16) % 4 ? (seed >> 8) % 11 : (seed >> 8) % n_pieces;
            size_t m = strlen(pieces[k]);
            memcpy(buf + len, pieces[k], m);
            len += m;
        }
        char *b = exact(buf, len);
        char *brk = malloc(len);
        assert_non_null(brk);
        u8_grapheme_breaks((const uint8_t *)b, len, brk);
        size_t pos = 0;
        while (pos < len) {
            size_t want = pos + 1;
            while (want < len && !brk[want])
                want++;
            size_t got = at_text_next_grapheme(b, len, pos);
            if (got != want)
                fail_msg("round %d: cluster at byte %zu ends at %zu, UAX #29 says %zu", round,
                         pos, got, want);
            pos = want;
        }
        free(brk);
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths_per_grapheme),
        cmocka_unit_test(test_grapheme_width_first_cluster_only),
        cmocka_unit_test(test_width_independent_of_locale),
        cmocka_unit_test(test_invalid_utf8_counts_as_replacement),
        cmocka_unit_test(test_clip_never_half_a_glyph),
        cmocka_unit_test(test_next_prev_boundaries),
        cmocka_unit_test(test_long_text_and_long_cluster),
        cmocka_unit_test(test_sanitize),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_wrap_edges),
        cmocka_unit_test(test_random_bytes_properties),
        cmocka_unit_test(test_next_matches_uax29_on_mixed_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
