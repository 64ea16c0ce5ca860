/* Tokenizer: English, Chinese with and without spaces, mixed, emoji, combining
 * marks, box drawing, invalid UTF-8, limits. Every input is copied into a malloc'ed
 * buffer of exactly its length, so a read past the end fails under ASan. */
#include "check.h"
#include "engine/text.h"
#include "engine/tokenizer.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

typedef struct want_token {
    const char *text;
    size_t start;
    int width;
} want_token;

/* Tokenize the n bytes of lit from an exact-size heap copy. */
static int tokenize_exact(const char *lit, size_t n, at_tokens *out, at_error *err)
{
    char *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    memcpy(buf, lit, n);
    int rc = at_tokenize(buf, n, out, err);
    for (size_t i = 0; rc == AT_OK && i < out->n; i++) {   /* spans point into buf */
        const at_token *t = &out->items[i];
        assert_true(t->start + t->len <= n);
        assert_int_equal(strlen(t->text), t->len);
        assert_memory_equal(t->text, buf + t->start, t->len);
        if (i > 0)
            assert_true(t->start >= out->items[i - 1].start + out->items[i - 1].len);
    }
    free(buf);
    return rc;
}

static void expect_tokens(const char *s, const want_token *want, size_t n_want)
{
    at_tokens t;
    at_error err;
    at_error_clear(&err);
    assert_int_equal(tokenize_exact(s, strlen(s), &t, &err), AT_OK);
    if (t.n != n_want) {
        for (size_t i = 0; i < t.n; i++)
            print_message("  token %zu: \"%s\" @%zu\n", i, t.items[i].text, t.items[i].start);
        fail_msg("\"%s\": %zu tokens, expected %zu", s, t.n, n_want);
    }
    for (size_t i = 0; i < n_want; i++) {
        assert_string_equal(t.items[i].text, want[i].text);
        assert_int_equal(t.items[i].start, want[i].start);
        assert_int_equal(t.items[i].len, strlen(want[i].text));
        assert_int_equal(t.items[i].width, want[i].width);
    }
    at_tokens_free(&t);
}

#define EXPECT(s, ...)                                                  \
    do {                                                                \
        const want_token w_[] = {__VA_ARGS__};                          \
        expect_tokens(s, w_, sizeof w_ / sizeof w_[0]);                 \
    } while (0)

static void test_english_sentence(void **state)
{
    EXPECT("The animal didn't cross the road because it was too tired.",
           {"The", 0, 3}, {"animal", 4, 6}, {"didn't", 11, 6}, {"cross", 18, 5},
           {"the", 24, 3}, {"road", 28, 4}, {"because", 33, 7}, {"it", 41, 2},
           {"was", 44, 3}, {"too", 48, 3}, {"tired", 52, 5}, {".", 57, 1});
}

static void test_punctuation_and_contractions(void **state)
{
    EXPECT("Hello, world!", {"Hello", 0, 5}, {",", 5, 1}, {"world", 7, 5}, {"!", 12, 1});
    EXPECT("didn\xE2\x80\x99t go", {"didn\xE2\x80\x99t", 0, 6}, {"go", 9, 2});
    EXPECT("pi is 3.14...", {"pi", 0, 2}, {"is", 3, 2}, {"3.14", 6, 4}, {".", 10, 1},
           {".", 11, 1}, {".", 12, 1});
    EXPECT("(U.S.A.)", {"(", 0, 1}, {"U.S.A", 1, 5}, {".", 6, 1}, {")", 7, 1});
}

static void test_han_unspaced_one_per_character(void **state)
{
    EXPECT("小明今天没来学校", {"小", 0, 2}, {"明", 3, 2}, {"今", 6, 2}, {"天", 9, 2},
           {"没", 12, 2}, {"来", 15, 2}, {"学", 18, 2}, {"校", 21, 2});
    EXPECT("今天下雨", {"今", 0, 2}, {"天", 3, 2}, {"下", 6, 2}, {"雨", 9, 2});
}

static void test_han_spaced_words(void **state)
{
    EXPECT("今天 下雨 我 没 带 伞", {"今天", 0, 4}, {"下雨", 7, 4}, {"我", 14, 2},
           {"没", 18, 2}, {"带", 22, 2}, {"伞", 26, 2});
    /* U+3000 ideographic space separates words too. */
    EXPECT("今天\xE3\x80\x80下雨", {"今天", 0, 4}, {"下雨", 9, 4});
    /* Punctuation ends a Han word; full-width marks are tokens of width 2. */
    EXPECT("今天 下雨，我 没 带 伞。", {"今天", 0, 4}, {"下雨", 7, 4}, {"，", 13, 2},
           {"我", 16, 2}, {"没", 20, 2}, {"带", 24, 2}, {"伞", 28, 2}, {"。", 31, 2});
    /* A newline between Han lines is not a word separator. */
    EXPECT("今天\n下雨", {"今", 0, 2}, {"天", 3, 2}, {"下", 7, 2}, {"雨", 10, 2});
}

static void test_fullwidth_punctuation(void **state)
{
    EXPECT("下雨，没带伞。", {"下", 0, 2}, {"雨", 3, 2}, {"，", 6, 2}, {"没", 9, 2},
           {"带", 12, 2}, {"伞", 15, 2}, {"。", 18, 2});
}

static void test_mixed_scripts(void **state)
{
    EXPECT("我love你", {"我", 0, 2}, {"love", 3, 4}, {"你", 7, 2});
    EXPECT("I love 北京", {"I", 0, 1}, {"love", 2, 4}, {"北", 7, 2}, {"京", 10, 2});
    EXPECT("我有3个apple", {"我", 0, 2}, {"有", 3, 2}, {"3", 6, 1}, {"个", 7, 2},
           {"apple", 10, 5});
}

/* Case 5: one glyph, many code points. */
static void test_grapheme_clusters_not_split(void **state)
{
    const char *worker = "\xF0\x9F\x91\xA9\xF0\x9F\x8F\xBF\xE2\x80\x8D\xF0\x9F\x94\xA7"; /* 👩🏿‍🔧 */
    EXPECT(worker, {worker, 0, 2});
    EXPECT("e\xCC\x81", {"e\xCC\x81", 0, 1});
    EXPECT("cafe\xCC\x81 ok", {"cafe\xCC\x81", 0, 4}, {"ok", 7, 2});
    EXPECT("\xE2\x9A\xA0\xEF\xB8\x8F", {"\xE2\x9A\xA0\xEF\xB8\x8F", 0, 2});   /* ⚠️ */
    EXPECT("\xE2\x9A\xA0\xEF\xB8\x8F\xE2\x9A\xA0\xEF\xB8\x8F",
           {"\xE2\x9A\xA0\xEF\xB8\x8F", 0, 2}, {"\xE2\x9A\xA0\xEF\xB8\x8F", 6, 2});
    EXPECT("🇨🇳🇺🇸", {"🇨🇳", 0, 2}, {"🇺🇸", 8, 2});
    EXPECT("I am 👩🏿‍🔧!", {"I", 0, 1}, {"am", 2, 2}, {worker, 5, 2}, {"!", 20, 1});
}

/* Case 6: box drawing is three narrow characters, whatever the locale says. */
static void test_box_drawing(void **state)
{
    const char *saved = setlocale(LC_ALL, NULL);
    char *restore = saved ? strdup(saved) : NULL;
    const char *locales[] = {"C", "C.UTF-8", "zh_CN.UTF-8", ""};
    setenv("LANG", "zh_CN.UTF-8", 1);
    for (size_t i = 0; i < sizeof locales / sizeof locales[0]; i++) {
        setlocale(LC_ALL, locales[i]);   /* zh_CN may be missing: then it stays as it was */
        EXPECT("┌─┐", {"┌", 0, 1}, {"─", 3, 1}, {"┐", 6, 1});
    }
    if (restore)
        setlocale(LC_ALL, restore);
    free(restore);
}

/* Case 4: "我" then two of the three bytes of "注". */
static void test_truncated_utf8(void **state)
{
    at_tokens t = {(at_token *)1, 99};
    at_error err;
    at_error_clear(&err);
    assert_int_equal(tokenize_exact("\xE6\x88\x91\xE6\xB3", 5, &t, &err), AT_EUTF8);
    assert_int_equal(err.code, AT_EUTF8);
    assert_int_equal(err.offset, 3);
    assert_non_null(strstr(err.msg, "byte offset 3"));
    assert_non_null(strstr(err.msg, "E6 B3"));
    assert_null(t.items);
    assert_int_equal(t.n, 0);
}

static void test_invalid_utf8_offsets(void **state)
{
    static const struct { const char *bytes; size_t n; long offset; } cases[] = {
        {"a\x80" "b", 3, 1},                /* lone continuation byte */
        {"ab\xC0\x80", 4, 2},               /* overlong NUL */
        {"\xED\xA0\x80", 3, 0},             /* UTF-16 surrogate */
        {"ok \xF4\x90\x80\x80", 7, 3},      /* above U+10FFFF */
        {"x\xFF", 2, 1},
        {"\xF0\x9F\x91", 3, 0},             /* truncated emoji */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        at_tokens t;
        at_error err;
        at_error_clear(&err);
        assert_int_equal(tokenize_exact(cases[i].bytes, cases[i].n, &t, &err), AT_EUTF8);
        assert_int_equal(err.offset, cases[i].offset);
        assert_int_equal(t.n, 0);
    }
}

static void test_empty_and_blank(void **state)
{
    at_tokens t;
    at_error err;
    at_error_clear(&err);
    assert_int_equal(tokenize_exact("", 0, &t, &err), AT_OK);
    assert_int_equal(t.n, 0);
    assert_null(t.items);
    at_tokens_free(&t);
    assert_int_equal(at_tokenize(NULL, 0, &t, &err), AT_OK);
    assert_int_equal(t.n, 0);
    assert_int_equal(tokenize_exact(" \t\n\xE3\x80\x80 ", 7, &t, &err), AT_OK);
    assert_int_equal(t.n, 0);
    /* A byte-order mark or zero-width space alone is no token. */
    EXPECT("\xEF\xBB\xBFhello \xE2\x80\x8B", {"hello", 3, 5});
}

static void test_invisible_format_characters(void **state)
{
    /* U+200B separates words; a soft hyphen inside a word stays, at its end it goes. */
    EXPECT("a\xE2\x80\x8B" "b", {"a", 0, 1}, {"b", 4, 1});
    EXPECT("co\xC2\xAD" "operate", {"co\xC2\xAD" "operate", 0, 9});
    EXPECT("co\xC2\xAD go", {"co", 0, 2}, {"go", 5, 2});
    EXPECT("\xE2\x80\x8E" "hi\xE2\x80\x8F", {"hi", 3, 2});   /* LRM hi RLM */
    /* A variation selector after a space belongs to the space. */
    EXPECT("a \xEF\xB8\x8F" "b", {"a", 0, 1}, {"b", 5, 1});
}

static void test_length_limit(void **state)
{
    size_t n = AT_TOKENIZE_MAX_BYTES;
    char *s = malloc(n + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n + 1; i++)
        s[i] = i % 2 ? ' ' : 'a';
    at_tokens t;
    at_error err;
    at_error_clear(&err);
    assert_int_equal(at_tokenize(s, n, &t, &err), AT_OK);   /* exactly the limit */
    assert_int_equal(t.n, n / 2);
    assert_int_equal(t.items[t.n - 1].start, n - 2);
    at_tokens_free(&t);
    assert_int_equal(at_tokenize(s, n + 1, &t, &err), AT_ERANGE);
    assert_int_equal(err.code, AT_ERANGE);
    assert_non_null(strstr(err.msg, "65536"));
    assert_int_equal(t.n, 0);
    free(s);
}

static void test_bad_arguments_and_free(void **state)
{
    at_tokens t;
    at_error err;
    at_error_clear(&err);
    assert_int_equal(at_tokenize("a", 1, NULL, &err), AT_EINVAL);
    assert_int_equal(at_tokenize(NULL, 3, &t, &err), AT_EINVAL);
    assert_int_equal(at_tokenize("a b", 3, &t, NULL), AT_OK);
    assert_int_equal(t.n, 2);
    at_tokens_free(&t);
    assert_int_equal(t.n, 0);
    at_tokens_free(&t);   /* twice is harmless */
    at_tokens_free(NULL);
}

/* Random sentences from a pool of troublesome pieces: every token starts and ends
 * on a grapheme boundary, spans never overlap, widths add up, nothing is lost
 * but separators. */
static void test_random_sentences_properties(void **state)
{
    static const char *const pool[] = {
        "a", "Z", "didn't", " ", "  ", "\t", "\n", "\xE3\x80\x80", ".", "，", "。", "注", "意",
        "\xCC\x81", "\xE2\x80\x8D", "\xEF\xB8\x8F", "\xF0\x9F\x91\xA9", "\xF0\x9F\x8F\xBF",
        "\xF0\x9F\x94\xA7", "\xF0\x9F\x87\xA8", "\xF0\x9F\x87\xB3", "\xE2\x9A\xA0",
        "\xE2\x94\x8C", "\xC2\xAD", "\xE2\x80\x8B", "3.14", "'", "\xE1\x84\x80", "\xE1\x85\xA1",
    };
    const size_t n_pool = sizeof pool / sizeof pool[0];
    srand(2017);
    for (int round = 0; round < 400; round++) {
        char buf[512];
        size_t n = 0;
        for (int k = rand() % 40; k > 0; k--) {
            const char *piece = pool[(size_t)rand() % n_pool];
            memcpy(buf + n, piece, strlen(piece));
            n += strlen(piece);
        }
        char *s = malloc(n ? n : 1);
        assert_non_null(s);
        memcpy(s, buf, n);
        at_tokens t;
        assert_int_equal(at_tokenize(s, n, &t, NULL), AT_OK);
        size_t prev_end = 0, token_cols = 0;
        for (size_t i = 0; i < t.n; i++) {
            const at_token *tk = &t.items[i];
            assert_true(tk->len > 0 && tk->start >= prev_end && tk->start + tk->len <= n);
            /* boundaries: the start is one, and the end is reached cluster by cluster */
            size_t pos = tk->start;
            assert_int_equal(at_text_prev_grapheme(s, n, at_text_next_grapheme(s, n, pos)), pos);
            while (pos < tk->start + tk->len)
                pos = at_text_next_grapheme(s, n, pos);
            assert_int_equal(pos, tk->start + tk->len);
            assert_int_equal((size_t)tk->width, at_text_width(s + tk->start, tk->len));
            token_cols += (size_t)tk->width;
            prev_end = tk->start + tk->len;
        }
        assert_true(token_cols <= at_text_width(s, n));
        at_tokens_free(&t);
        free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_english_sentence),
        cmocka_unit_test(test_punctuation_and_contractions),
        cmocka_unit_test(test_han_unspaced_one_per_character),
        cmocka_unit_test(test_han_spaced_words),
        cmocka_unit_test(test_fullwidth_punctuation),
        cmocka_unit_test(test_mixed_scripts),
        cmocka_unit_test(test_grapheme_clusters_not_split),
        cmocka_unit_test(test_box_drawing),
        cmocka_unit_test(test_truncated_utf8),
        cmocka_unit_test(test_invalid_utf8_offsets),
        cmocka_unit_test(test_empty_and_blank),
        cmocka_unit_test(test_invisible_format_characters),
        cmocka_unit_test(test_length_limit),
        cmocka_unit_test(test_bad_arguments_and_free),
        cmocka_unit_test(test_random_sentences_properties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
