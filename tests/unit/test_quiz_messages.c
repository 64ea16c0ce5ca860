/* The messages' one translation mechanism (quiz/lang.h, quiz/catalogue.h): the .mo
 * reader on catalogues written here byte by byte (both byte orders, contexts, plural
 * forms under a three-form rule) and on broken ones; the Plural-Forms evaluator; the
 * shipped Chinese catalogue as the build compiled it; and the grader answering in
 * Chinese for a Chinese answer and in English for an English one, in the same process,
 * whatever the locale variables say. */
#define _GNU_SOURCE
#include "check.h"
#include "quiz/catalogue.h"
#include "quiz/quiz.h"

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct mo_entry {
    const char *id, *str;
    size_t id_len, str_len;   /* without the final NUL; NULs inside count */
} mo_entry;

#define E(id, str) {id, str, sizeof id - 1, sizeof str - 1}

static void put32(unsigned char *p, uint32_t v, int swap)
{
    if (swap)
        v = __builtin_bswap32(v);
    memcpy(p, &v, 4);
}

/* A .mo of the entries (in the given order) in path; the byte order swapped when swap. */
static void write_mo(const char *path, const mo_entry *e, size_t n, int swap)
{
    size_t size = 28 + 16 * n;
    for (size_t i = 0; i < n; i++)
        size += e[i].id_len + 1 + e[i].str_len + 1;
    unsigned char *b = calloc(1, size);
    assert_non_null(b);
    put32(b, 0x950412deu, swap);
    put32(b + 8, (uint32_t)n, swap);
    put32(b + 12, 28, swap);
    put32(b + 16, (uint32_t)(28 + 8 * n), swap);
    size_t at = 28 + 16 * n;
    for (size_t i = 0; i < n; i++) {
        put32(b + 28 + 8 * i, (uint32_t)e[i].id_len, swap);
        put32(b + 28 + 8 * i + 4, (uint32_t)at, swap);
        memcpy(b + at, e[i].id, e[i].id_len);
        at += e[i].id_len + 1;
        put32(b + 28 + 8 * n + 8 * i, (uint32_t)e[i].str_len, swap);
        put32(b + 28 + 8 * n + 8 * i + 4, (uint32_t)at, swap);
        memcpy(b + at, e[i].str, e[i].str_len);
        at += e[i].str_len + 1;
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, size, f), size);
    fclose(f);
    free(b);
}

static char *temp_path(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/at-mo-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    return path;
}

/* Three plural forms (as Polish or Russian have), a context, entries out of order. */
static const mo_entry sample[] = {
    E("Not right.\n", "Niet goed.\n"),
    E("", "Content-Type: text/plain; charset=UTF-8\n"
          "Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"),
    E("verdict\004wrong", "fout"),
    E("%zu number\0%zu numbers", "%zu getal\0%zu getallen (2-4)\0%zu getallen"),
    E("Correct.\n", "Goed.\n"),
    E("untranslated", ""),
};

static void check_sample(const char *path)
{
    qz_catalogue *c;
    at_error err;
    assert_int_equal(qz_catalogue_open(path, &c, &err), AT_OK);
    assert_int_equal(qz_catalogue_count(c), 4);
    assert_string_equal(qz_catalogue_get(c, NULL, "Correct.\n", NULL, 0), "Goed.\n");
    assert_string_equal(qz_catalogue_get(c, NULL, "Not right.\n", NULL, 0), "Niet goed.\n");
    assert_null(qz_catalogue_get(c, NULL, "Correct.", NULL, 0));        /* whole msgids only */
    assert_null(qz_catalogue_get(c, NULL, "untranslated", NULL, 0));    /* empty: none */
    assert_null(qz_catalogue_get(c, NULL, "wrong", NULL, 0));           /* context needed */
    assert_string_equal(qz_catalogue_get(c, "verdict", "wrong", NULL, 0), "fout");
    assert_null(qz_catalogue_get(c, "verdic", "wrong", NULL, 0));
    assert_null(qz_catalogue_get(c, "verdict", "wron", NULL, 0));
    const char *pl = "%zu numbers";
    assert_string_equal(qz_catalogue_get(c, NULL, "%zu number", pl, 1), "%zu getal");
    assert_string_equal(qz_catalogue_get(c, NULL, "%zu number", pl, 3), "%zu getallen (2-4)");
    assert_string_equal(qz_catalogue_get(c, NULL, "%zu number", pl, 5), "%zu getallen");
    assert_string_equal(qz_catalogue_get(c, NULL, "%zu number", pl, 12), "%zu getallen");
    assert_string_equal(qz_catalogue_get(c, NULL, "%zu number", pl, 22), "%zu getallen (2-4)");
    assert_null(qz_catalogue_get(NULL, NULL, "Correct.\n", NULL, 0));
    qz_catalogue_free(c);
}

static void test_catalogue_reads_mo(void **state)
{
    (void)state;
    char *path = temp_path();
    write_mo(path, sample, sizeof sample / sizeof sample[0], 0);
    check_sample(path);
    write_mo(path, sample, sizeof sample / sizeof sample[0], 1);   /* big-endian file */
    check_sample(path);
    unlink(path);
}

/* A broken catalogue is refused whole, with a message saying what is wrong. */
static void expect_refused(const char *path, const char *needle)
{
    qz_catalogue *c = (qz_catalogue *)1;
    at_error err = {0};
    int rc = qz_catalogue_open(path, &c, &err);
    if (rc == AT_OK || c || !strstr(err.msg, needle)) {
        print_error("%s: rc %d, message '%s' (want '%s')\n", path, rc, err.msg, needle);
        fail();
    }
}

static void test_catalogue_refuses_broken(void **state)
{
    (void)state;
    char *path = temp_path();
    size_t n = sizeof sample / sizeof sample[0];
    write_mo(path, sample, n, 0);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);

    fseek(f, 0, SEEK_SET);
    fputc(0x00, f);                          /* magic */
    fflush(f);
    expect_refused(path, "bad magic number");
    fseek(f, 0, SEEK_SET);
    fputc(0xde, f);
    fflush(f);

    fseek(f, size - 1, SEEK_SET);            /* the last string loses its NUL */
    fputc('x', f);
    fflush(f);
    expect_refused(path, "does not end in NUL");
    fseek(f, size - 1, SEEK_SET);
    fputc(0, f);
    fflush(f);

    fseek(f, 28 + 4, SEEK_SET);              /* first msgid's offset past the end */
    unsigned char far[4] = {0xff, 0xff, 0xff, 0x00};
    fwrite(far, 1, 4, f);
    fflush(f);
    expect_refused(path, "lies outside the file");
    fclose(f);

    assert_int_equal(truncate(path, 20), 0);
    expect_refused(path, "shorter than its header");

    mo_entry latin[] = {E("", "Content-Type: text/plain; charset=ISO-8859-1\n"), E("a", "b")};
    write_mo(path, latin, 2, 0);
    expect_refused(path, "charset is ISO-8859-1, not UTF-8");
    mo_entry plural[] = {E("", "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=n +;\n")};
    write_mo(path, plural, 1, 0);
    expect_refused(path, "cannot be read");
    mo_entry twice[] = {E("a", "b"), E("a", "c")};
    write_mo(path, twice, 2, 0);
    expect_refused(path, "there twice");
    unlink(path);
    expect_refused(path, "cannot open");
    expect_refused("/tmp", "is a folder");
}

static void test_plural_rules(void **state)
{
    (void)state;
    static const struct {
        const char *expr;
        unsigned long n, form;
    } ok[] = {
        {"0", 5, 0},
        {"n != 1", 1, 0}, {"n != 1", 0, 1}, {"n != 1", 2, 1},
        {"n>1", 1, 0}, {"n>1", 2, 1},
        {"n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 21, 0},
        {"n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 11, 2},
        {"n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 14, 2},
        {"n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 24, 1},
        {"(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);", 105, 3},
        {"(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);", 111, 4},
        {"(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);", 100, 5},
        {"!(n == 1)", 1, 0}, {"n * 2 - 1 + n / 2", 4, 9}, {"n <= 2 || n >= 7", 7, 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        unsigned long form = 99;
        if (qz_plural_eval(ok[i].expr, ok[i].n, &form) != AT_OK || form != ok[i].form) {
            print_error("'%s' for n = %lu: %lu (want %lu)\n", ok[i].expr, ok[i].n, form, ok[i].form);
            fail();
        }
    }
    static const char *const bad[] = {"", "n +", "(n", "n)", "x", "n ? 1", "n / 0", "n & 1", "n = 1",
                                      "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((n"
                                      "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned long form;
        if (qz_plural_eval(bad[i], 3, &form) != AT_EINVAL) {
            print_error("'%s' was read\n", bad[i]);
            fail();
        }
    }
}

/* The catalogue the build compiled from po/zh_CN.po, found beside the test program. */
static void test_shipped_catalogue(void **state)
{
    (void)state;
    char why[600];
    const char *path = qz_lang_catalogue_path(QZ_ZH, why, sizeof why);
    if (!path) {
        print_error("no Chinese catalogue: %s\n", why);
        fail();
    }
    assert_non_null(strstr(path, "zh_CN/LC_MESSAGES/attn-tutor.mo"));
    assert_null(qz_lang_catalogue_path(QZ_EN, why, sizeof why));   /* English: the msgids */
    assert_string_equal(qz_tr(QZ_ZH, "score"), "分数");
    assert_string_equal(qz_tr(QZ_EN, "score"), "score");
    assert_string_equal(qz_ntr(QZ_EN, "softmax of %zu score%s\n\n", "softmax of %zu scores%s\n\n", 1),
                        "softmax of %zu score%s\n\n");
    assert_string_equal(qz_ntr(QZ_EN, "softmax of %zu score%s\n\n", "softmax of %zu scores%s\n\n", 2),
                        "softmax of %zu scores%s\n\n");
    assert_string_equal(qz_ntr(QZ_ZH, "softmax of %zu score%s\n\n", "softmax of %zu scores%s\n\n", 2),
                        "%zu 个分数的 softmax%s\n\n");
    /* a message the catalogue does not have comes back as it is, in any language */
    assert_string_equal(qz_tr(QZ_ZH, "no such message, anywhere"), "no such message, anywhere");
    assert_string_equal(qz_tr((qz_lang)7, "score"), "score");
}

/* Self-test Q3: 伞's scaled scores to 今天 下雨 我 没 带 伞; asked: 下雨 and 没. */
static const char *const q3_tokens[] = {"今天", "下雨", "我", "没", "带", "伞"};
static const double q3_scores[] = {0.1, 0.3, 0.2, 0.5, 0.1, 1.2};
static const size_t q3_ask[] = {1, 3};

static char *feedback(const char *answer, qz_lang lang)
{
    qz_question q = qz_question_init(QZ_SOFTMAX);
    q.id = "q3";
    q.tokens = q3_tokens;
    q.n_tokens = 6;
    q.scores = q3_scores;
    q.ask = q3_ask;
    q.n_ask = 2;
    q.decimals = 2;
    qz_result r;
    at_error err;
    if (qz_grade(&q, answer, lang, &r, &err)) {
        print_error("grading '%s': %s\n", answer, err.msg);
        fail();
    }
    char *fb = strdup(r.feedback);
    qz_result_free(&r);
    assert_non_null(fb);
    return fb;
}

static void expect_feedback(const char *answer, qz_lang lang, const char *want, const char *not_want)
{
    char *fb = feedback(answer, lang);
    if (!strstr(fb, want) || strstr(fb, not_want)) {
        print_error("'%s' (%s): the feedback must hold '%s' and not '%s':\n%s\n", answer,
                    lang == QZ_ZH ? "zh" : "en", want, not_want, fb);
        free(fb);
        fail();
    }
    free(fb);
}

/* One process, answers in both languages one after the other: each gets its feedback in
 * its own language, whatever LANGUAGE / LC_ALL say, and whether or not the locale they
 * name exists (here only C.UTF-8 may). The grader's verdict, its diagnosis and the
 * answer parser's error all come from the catalogue. */
static void test_grader_answers_in_the_answers_language(void **state)
{
    (void)state;
    static const char *const env[][2] = {{"zh_CN:zh", "zh_CN.UTF-8"}, {"en", "C"}, {"fr", "C.UTF-8"}};
    for (size_t e = 0; e < sizeof env / sizeof env[0]; e++) {
        setenv("LANGUAGE", env[e][0], 1);
        setenv("LC_ALL", env[e][1], 1);
        setlocale(LC_ALL, "");
        for (int round = 0; round < 2; round++) {
            expect_feedback("0.5 0.6", QZ_EN, "Not right.\n", "不");
            expect_feedback("0.5 0.6", QZ_ZH, "不正确。\n", "Not right");
            expect_feedback("0.1 0.2", QZ_ZH, "下雨：请保留 2 位小数，而不是 1 位。", "decimals");
            expect_feedback("0.1 0.2", QZ_EN, "下雨: give 2 decimals, not 1.", "位");
            expect_feedback("0.14abc 0.2", QZ_ZH, "数字后面紧跟着字母或数字", "glued");
            expect_feedback("0.14abc 0.2", QZ_EN, "letters or digits glued to a number", "数字");
        }
    }
    unsetenv("LANGUAGE");
    setenv("LC_ALL", "C.UTF-8", 1);
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue_reads_mo),
        cmocka_unit_test(test_catalogue_refuses_broken),
        cmocka_unit_test(test_plural_rules),
        cmocka_unit_test(test_shipped_catalogue),
        cmocka_unit_test(test_grader_answers_in_the_answers_language),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
