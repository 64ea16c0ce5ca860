/* The numeric answer parser: every form students write, and what it rejects. */
#include "check.h"
#include "engine/attention.h"
#include "quiz/answer.h"

#include <math.h>
#include <string.h>

/* Self-test Q3's tokens, and the glosses its English prompt gives two of them. */
static const char *const q3_tokens[] = {"今天", "下雨", "我", "没", "带", "伞"};
static const qz_gloss q3_glosses[] = {{1, "rains | it rains | rain"}, {3, "didn't | did not"}};

/* Parse `text` expecting `want` values and compare with v[0..n). */
static void expect_values(const char *text, size_t want, const double *v, size_t n)
{
    qz_numbers nums;
    at_error err;
    int rc = qz_parse_numbers(text, want, QZ_EN, &nums, &err);
    if (rc) {
        print_error("'%s': %s\n", text, err.msg);
        fail();
    }
    if (nums.n != n) {
        print_error("'%s': %zu values, want %zu\n", text, nums.n, n);
        fail();
    }
    for (size_t i = 0; i < n; i++)
        if (fabs(nums.v[i].x - v[i]) > 1e-12) {
            print_error("'%s' value %zu: %.17g, want %.17g\n", text, i, nums.v[i].x, v[i]);
            fail();
        }
}

static void expect_malformed(const char *text, size_t want, const char *msg_part)
{
    qz_numbers nums;
    at_error err;
    int rc = qz_parse_numbers(text, want, QZ_EN, &nums, &err);
    if (rc != AT_EINVAL) {
        print_error("'%s' was accepted (%zu values), want an error\n", text, nums.n);
        fail();
    }
    if (msg_part && !strstr(err.msg, msg_part)) {
        print_error("'%s': message '%s' lacks '%s'\n", text, err.msg, msg_part);
        fail();
    }
}

static void test_plain_forms(void **state)
{
    const double q3[2] = {0.14, 0.17};
    expect_values("0.14 0.17", 2, q3, 2);
    expect_values("0.14, 0.17", 2, q3, 2);
    expect_values("0.14;0.17", 2, q3, 2);
    expect_values("  0.14\t0.17\n", 2, q3, 2);
    expect_values(".14 .17", 2, q3, 2);
    expect_values("0.14，0.17", 2, q3, 2);     /* full-width comma */
    expect_values("0.14、0.17", 2, q3, 2);
}

static void test_percent(void **state)
{
    const double q3[2] = {0.14, 0.17};
    expect_values("14% 17%", 2, q3, 2);
    expect_values("14％ 17％", 2, q3, 2);
    qz_numbers nums;
    assert_int_equal(qz_parse_numbers("13.84% 0.1691", 2, QZ_EN, &nums, NULL), AT_OK);
    assert_true(nums.v[0].percent && !nums.v[1].percent);
    assert_int_equal(nums.v[0].decimals, 4);   /* 13.84% = 0.1384 */
    assert_true(fabs(nums.v[0].x - 0.1384) < 1e-15);
}

static void test_labels_any_order(void **state)
{
    qz_numbers nums;
    const char *forms[] = {"下雨=0.14 没=0.17", "下雨: 0.14, 没: 0.17", "没: 0.17, 下雨: 0.14",
                           "下雨＝0.14，没＝0.17", "下雨 0.14 没 0.17", "没=17% 下雨=14%"};
    qz_read_opts o = {.want = 2, .tokens = q3_tokens, .n_tokens = 6};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        assert_int_equal(qz_read_numbers(forms[i], &o, QZ_ZH, &nums, NULL), AT_OK);
        assert_int_equal(nums.n, 2);
        assert_int_equal(nums.labelled, 2);
        size_t rain = strcmp(nums.v[0].label, "下雨") == 0 ? 0 : 1;
        assert_string_equal(nums.v[rain].label, "下雨");
        assert_int_equal(nums.v[rain].token, 1);
        assert_string_equal(nums.v[1 - rain].label, "没");
        assert_int_equal(nums.v[1 - rain].token, 3);
        assert_true(fabs(nums.v[rain].x - 0.14) < 1e-12 && fabs(nums.v[1 - rain].x - 0.17) < 1e-12);
    }
    /* without tokens, words are no labels: the values in order */
    assert_int_equal(qz_parse_numbers("rain = 0.14, didn't=0.17", 2, QZ_EN, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 2);
    assert_int_equal(nums.labelled, 0);
}

static void test_comma_decimals(void **state)
{
    const double q3[2] = {0.14, 0.17};
    expect_values("0,14 0,17", 2, q3, 2);
    const double two[2] = {1, 2};
    expect_values("1,2", 2, two, 2);            /* two values asked: a list */
    const double one[1] = {1.2};
    expect_values("1,2", 1, one, 1);            /* one value asked: a decimal comma */
    expect_malformed("0,14, 0,17", 2, "ambiguous");
    expect_malformed("0,14,0,17", 2, "ambiguous");
    qz_numbers nums;
    assert_int_equal(qz_parse_numbers("0,14 0,17", 2, QZ_EN, &nums, NULL), AT_OK);
    assert_true(nums.comma_decimal);
}

static void test_scientific_and_arithmetic(void **state)
{
    const double sci[2] = {0.1384, 0.1691};
    expect_values("1.384e-1 1.691E-1", 2, sci, 2);
    const double div[2] = {1.35 / 9.75, 1.65 / 9.75};
    expect_values("1.35/9.75 1.65/9.75", 2, div, 2);
    expect_values("1.35 / 9.75, 1.65 / 9.75", 2, div, 2);
    const double ex[2] = {exp(0.3) / 9.75, exp(0.5) / 9.75};
    expect_values("exp(0.3)/9.75 exp(0.5)/9.75", 2, ex, 2);
    expect_values("e^0.3/9.75 e^0.5/9.75", 2, ex, 2);
    expect_values("e^(0.3)/9.75; e**0.5/9.75", 2, ex, 2);
    const double misc[4] = {sqrt(2) / 2, 0.5, -4, 1.5 * 2 + 1};
    expect_values("√2/2 2^-1 -2^2 (1.5×2+1)", 4, misc, 4);
    qz_numbers nums;
    assert_int_equal(qz_parse_numbers("1.35/9.75 0.17", 2, QZ_EN, &nums, NULL), AT_OK);
    assert_true(nums.v[0].computed && !nums.v[1].computed);
    assert_int_equal(nums.v[0].decimals, -1);
    assert_int_equal(nums.v[1].decimals, 2);
    double x;
    assert_int_equal(qz_eval("exp(0.3)/9.75", QZ_EN, &x, NULL), AT_OK);
    assert_true(fabs(x - exp(0.3) / 9.75) < 1e-15);
}

static void test_signs(void **state)
{
    const double two[2] = {0.14, -0.17};
    expect_values("0.14 -0.17", 2, two, 2);     /* a sign glued to a number starts a value */
    const double diff[1] = {0.14 - 0.17};
    expect_values("0.14 - 0.17", 1, diff, 1);
    expect_values("0.14-0.17", 1, diff, 1);
    qz_numbers nums;
    const char *zeros[] = {"0", "0.0", "-0", "−0"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(qz_parse_numbers(zeros[i], 1, QZ_EN, &nums, NULL), AT_OK);
        assert_true(nums.v[0].x == 0 && !signbit(nums.v[0].x));
    }
}

static void test_malformed(void **state)
{
    at_error err;
    qz_numbers nums;
    assert_int_equal(qz_parse_numbers("0.14abc", 1, QZ_EN, &nums, &err), AT_EINVAL);
    assert_int_equal(err.offset, 4);             /* where "abc" starts */
    assert_non_null(strstr(err.msg, "'abc'"));
    /* A character cut by the end of the answer (found by fuzzing): the offset
     * points at its first byte, not -1. */
    assert_int_equal(qz_parse_numbers("e^0.5/9.7\xf4" "5", 2, QZ_EN, &nums, &err), AT_EINVAL);
    assert_int_equal(err.offset, 9);
    expect_malformed("", 2, "no number");
    expect_malformed("   ", 2, "no number");
    expect_malformed("(1.35/9.75", 1, "')'");
    expect_malformed("1.35/9.75)", 1, "')'");
    expect_malformed("1/0", 1, "division by zero");
    expect_malformed("1/(0.5-0.5)", 1, "division by zero");
    expect_malformed("exp(0.3", 1, "')'");
    expect_malformed("exp(1000)", 1, "too large");
    expect_malformed("1e400", 1, "too large");
    char many[4 * (QZ_MAX_VALUES + 1) + 1] = "";
    for (int i = 0; i <= QZ_MAX_VALUES; i++)
        strcat(many, "0.1 ");
    expect_malformed(many, 0, "too many");
    /* A truncated UTF-8 sequence inside a label is an error, not a read past the end. */
    expect_malformed("\xe4\xb8", 1, NULL);
    /* What a wrong decoding leaves glued to digits (Ã, ¼, the replacement character):
     * the values lost digits, they are not 0.1 and 0.1 */
    expect_malformed("0.1Ã 0.1¼", 2, "'Ã'");
    expect_malformed("0.14½ 0.17", 2, "'½'");
    expect_malformed("0.1\xef\xbf\xbd 0.17", 2, NULL);
    expect_malformed("0.14é 0.17", 2, "'é'");
}

static void test_chinese_messages(void **state)
{
    at_error err;
    qz_numbers nums;
    assert_int_equal(qz_parse_numbers("0,14, 0,17", 2, QZ_ZH, &nums, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "逗号"));
}

/* Case 11: expected 0.155, the forms around it. */
static void test_case11_forms(void **state)
{
    const double v[1] = {0.155};
    expect_values("0.155", 1, v, 1);
    expect_values("0,155", 1, v, 1);      /* never 0 or 155 */
    expect_values("15.5%", 1, v, 1);
    expect_malformed("0.155abc", 1, "'abc'");
    expect_malformed("0,16,", 1, "ambiguous");
    /* a dash to words after the value is no minus; a minus before a value still is */
    expect_values("0.155 - the third weight", 1, v, 1);
    expect_values("0.2 - 0.045", 1, v, 1);
}

/* "1/(2e+1)": e as Euler's number or 2×10¹? Never silently 1/20. Against the engine's
 * third weight of softmax [1, 1, 0] (case 11: 1/(2e+1)). */
static void test_euler_or_exponent(void **state)
{
    (void)state;
    double w[3] = {1, 1, 0}, x = 0;
    assert_int_equal(at_softmax_row_f64(w, NULL, 3), AT_OK);
    assert_int_equal(qz_eval("1/(2*e+1)", QZ_EN, &x, NULL), AT_OK);
    assert_true(fabs(x - w[2]) < 1e-9);
    assert_int_equal(qz_eval("1/(1+2e)", QZ_EN, &x, NULL), AT_OK);
    assert_true(fabs(x - w[2]) < 1e-9);
    assert_int_equal(qz_eval("1/(2·e+1)", QZ_EN, &x, NULL), AT_OK);
    assert_true(fabs(x - w[2]) < 1e-9);
    expect_malformed("1/(2e+1)", 1, "write 2*e+1 for 2·e+1, or 2E+1 for 20");
    expect_malformed("2e+1/9.75", 1, "ambiguous");
    assert_int_equal(qz_eval("1/(2E+1)", QZ_EN, &x, NULL), AT_OK);   /* E: scientific */
    assert_true(fabs(x - 1.0 / 20) < 1e-12);
    const double sci[1] = {0.1384}, two[2] = {0.001, 0.002};
    expect_values("1.384e-1", 1, sci, 1);
    expect_values("1e-3 2e-3", 2, two, 2);   /* alone, still scientific */
}

/* Full-width digits and "and" / 和 / 与 between values. */
static void test_student_forms(void **state)
{
    (void)state;
    const double v[2] = {0.14, 0.17};
    expect_values("０.１４ ０.１７", 2, v, 2);
    expect_values("０．１４，０．１７", 2, v, 2);
    expect_values("0.14 and 0.17", 2, v, 2);
    expect_values("0.14和0.17", 2, v, 2);
    expect_values("0.14 与 0.17", 2, v, 2);
    expect_values("0.14、0.17", 2, v, 2);
}

/* Random answers built from the pieces students type (and broken UTF-8): the parser
 * answers AT_OK or AT_EINVAL with a message, never anything else (run under ASan too). */
static void test_random_answers_never_crash(void **state)
{
    static const char *const pieces[] = {"0", "1", "4", ".", ",", ";", " ", "%", "％", "e", "E", "^",
                                         "(", ")", "/", "*", "-", "+", "exp", "sqrt", "√", "下雨", "=",
                                         ":", "，", "abc", "\xe4\xb8", "\xff", "1e999", "0,1", "−", "**"};
    unsigned long long x = 88172645463325252ULL;
    for (int i = 0; i < 20000; i++) {
        char buf[256];
        check_random_join(buf, sizeof buf, pieces, sizeof pieces / sizeof pieces[0], 12, &x);
        qz_numbers nums;
        at_error err;
        int rc = qz_parse_numbers(buf, (size_t)(x % 4), QZ_EN, &nums, &err);
        if (rc != AT_OK && !(rc == AT_EINVAL && err.msg[0])) {
            print_error("'%s': rc %d\n", buf, rc);
            fail();
        }
        for (size_t k = 0; rc == AT_OK && k < nums.n; k++)
            assert_true(isfinite(nums.v[k].x));
    }
}

/* Read `text` with o: n values v[i], each labelled with token tok[i] (-1: none). */
static void expect_read_with(const qz_read_opts *o, const char *text, qz_lang lang, size_t n,
                             const double *v, const long *tok)
{
    qz_numbers nums;
    at_error err;
    if (qz_read_numbers(text, o, lang, &nums, &err)) {
        print_error("'%s': %s\n", text, err.msg);
        fail();
    }
    if (nums.n != n) {
        print_error("'%s': %zu values, want %zu\n", text, nums.n, n);
        fail();
    }
    for (size_t i = 0; i < n; i++)
        if (fabs(nums.v[i].x - v[i]) > 1e-12 || nums.v[i].token != tok[i]) {
            print_error("'%s' value %zu: %.17g labelled %ld, want %.17g labelled %ld\n", text, i,
                        nums.v[i].x, nums.v[i].token, v[i], tok[i]);
            fail();
        }
}

/* Read `text` as an answer to Q3 (its tokens and glosses). */
static void expect_read(const char *text, qz_lang lang, size_t n, const double *v, const long *tok)
{
    qz_read_opts o = {.want = 2, .tokens = q3_tokens, .n_tokens = 6, .glosses = q3_glosses,
                      .n_glosses = 2};
    expect_read_with(&o, text, lang, n, v, tok);
}

static const double two[2] = {0.14, 0.17};
static const long none[2] = {-1, -1}, rain_not[2] = {1, 3}, not_rain[2] = {3, 1};

/* Filler words, approximation signs and the sentence's punctuation around two values. */
static void test_filler_and_punctuation(void **state)
{
    const char *en[] = {"0.14 0.17.", "about .14 and .17", "0.14 and 0.17 respectively",
                        "approximately 0.14, roughly 0.17!", "~0.14 ~0.17", "≈0.14 and ≈0.17",
                        "The weights are about 0.14 and 0.17.", "[0.14, 0.17]", "(0.14, 0.17)",
                        "I get 0.14 and 0.17", "0.14 0.17 ≒", "\"0.14\", \"0.17\""};
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++)
        expect_read(en[i], QZ_EN, 2, two, none);
    const char *zh[] = {"0.14 0.17。", "大约是0.14和0.17", "约0.14；约0.17", "0.14左右，0.17左右",
                        "分别是 0.14 及 0.17", "大概0.14、0.17！", "我觉得是0.14和0.17", "答：0.14，0.17",
                        "0.14与0.17"};
    for (size_t i = 0; i < sizeof zh / sizeof zh[0]; i++)
        expect_read(zh[i], QZ_ZH, 2, two, none);
}

/* Labels before or after their values, by name or by the prompt's gloss, paired one by
 * one or "respectively". */
static void test_labels_and_glosses(void **state)
{
    const char *en[] = {"rains: 0.14, didn't: 0.17", "rains = 0.14 and didn't = 0.17",
                        "0.14 for rains and 0.17 for didn't", "0.14 for 下雨, 0.17 for 没",
                        "the weights of rains and didn't are 0.14 and 0.17 respectively",
                        "w(下雨) = 0.14, w(没) = 0.17", "it rains gets about 0.14, did not about 0.17",
                        "RAINS 0.14 DIDN'T 0.17"};
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++)
        expect_read(en[i], QZ_EN, 2, two, rain_not);
    const char *zh[] = {"下雨约0.14，没约0.17", "下雨的权重是0.14，没的权重是0.17",
                        "下雨和没分别是0.14和0.17", "下雨、没分别约为0.14、0.17", "0.14（下雨），0.17（没）",
                        "我觉得下雨是0.14，没是0.17", "下雨 ≈ 0.14；没 ≈ 0.17", "0.14是下雨的，0.17是没的"};
    for (size_t i = 0; i < sizeof zh / sizeof zh[0]; i++)
        expect_read(zh[i], QZ_ZH, 2, two, rain_not);
    const double rev[2] = {0.17, 0.14};
    expect_read("didn't: 0.17, rains: 0.14", QZ_EN, 2, rev, not_rain);
    expect_read("没约0.17，下雨约0.14", QZ_ZH, 2, rev, not_rain);
    /* a label to a token not asked is still that token's */
    const long me[2] = {2, 3};
    expect_read("我=0.14 没=0.17", QZ_ZH, 2, two, me);
    /* 没有 (no) holds 没 but names nothing */
    expect_read("没有把握，大概0.14和0.17", QZ_ZH, 2, two, none);
}

/* A token's score written as what a value is computed from labels the value ("softmax of
 * 0.3 is about 0.14", "0.3 → 0.14", "0.3 的 softmax 约 0.14"); a score two tokens share
 * (0.1) names neither, and "exp of 0.3" is another quantity, no label. */
static void test_scores_as_labels(void **state)
{
    static const double q3_scores[] = {0.1, 0.3, 0.2, 0.5, 0.1, 1.2};
    qz_read_opts o = {.want = 2, .tokens = q3_tokens, .n_tokens = 6, .glosses = q3_glosses,
                      .n_glosses = 2, .scores = q3_scores};
    const char *en[] = {"softmax of 0.3 is about 0.14 and of 0.5 about 0.17", "0.3 → 0.14, 0.5 → 0.17",
                        "the weight for 0.3 is about 0.14, for 0.5 about 0.17", "0.3: 0.14, 0.5: 0.17"};
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++)
        expect_read_with(&o, en[i], QZ_EN, 2, two, rain_not);
    const char *zh[] = {"0.3 的 softmax 约 0.14，0.5 的约 0.17", "0.3 对应 0.14，0.5 对应 0.17"};
    for (size_t i = 0; i < sizeof zh / sizeof zh[0]; i++)
        expect_read_with(&o, zh[i], QZ_ZH, 2, two, rain_not);
    const double sig[2] = {0.57, 0.62};
    expect_read_with(&o, "softmax of 0.3 is about 0.57 and of 0.5 about 0.62", QZ_EN, 2, sig, rain_not);
    expect_read_with(&o, "exp of 0.3 = 1.35, exp of 0.5 = 1.65, so 0.14 and 0.17", QZ_EN, 4,
                     (const double[]){1.35, 1.65, 0.14, 0.17}, (const long[]){-1, -1, -1, -1});
    /* without the question's scores a score is a step: no label */
    expect_read("0.3 → 0.14, 0.5 → 0.17", QZ_EN, 2, two, none);
}

/* Known miss, not yet asserted: a score two tokens share (0.1) before an arrow should be a
 * step ("0.1 → 0.11, 0.3 → 0.14": 0.11 without a label, 0.14 for 下雨); since an arrow also
 * concludes a worked chain ("… = 9.76 → 0.14 / 0.17"), it is read as a third value. */

/* A chain of steps is one value, its result; after a concluding word the values are
 * the answer; a named sum is another quantity. */
static void test_worked_chains(void **state)
{
    const double steps[2] = {0.14, 0.17};
    expect_read("e^0.3/9.75 ≈ 0.14, e^0.5/9.75 ≈ 0.17", QZ_EN, 2, steps, none);
    expect_read("1.35/9.75 = 0.1385 ≈ 0.14, 1.65/9.75 = 0.1692 ≈ 0.17", QZ_EN, 2, steps, none);
    expect_read("1.35/9.75 rounds to 0.14 and 1.65/9.75 rounds to 0.17", QZ_EN, 2, steps, none);
    expect_read("1.35/9.75约等于0.14，1.65/9.75约等于0.17", QZ_ZH, 2, steps, none);
    expect_read("1.35/9.75约0.14，1.65/9.75约0.17", QZ_ZH, 2, steps, none);
    expect_read("$\\frac{e^{0.3}}{9.75} \\approx 0.14$, $\\frac{e^{0.5}}{9.75} \\approx 0.17$", QZ_EN, 2,
                steps, none);
    expect_read("下雨: e^0.3/9.75 ≈ 0.14; 没: e^0.5/9.75 ≈ 0.17", QZ_ZH, 2, steps, rain_not);
    /* "→", 得, "so" link a step to its result, or conclude a list */
    expect_read("1.35/9.75 得 0.14，1.65/9.75 得 0.17", QZ_ZH, 2, steps, none);
    expect_read("1.35/9.75 → 0.14, 1.65/9.75 → 0.17", QZ_EN, 2, steps, none);
    /* working the reader cannot parse: the values after "Result:", or after the last "="
     * of prose working */
    expect_read("Steps: 1) e^x for each, 2) sum = 9.75, 3) divide. Result: 0.14 0.17", QZ_EN, 2,
                steps, none);
    expect_read("步骤：1) 求 e 的幂 2) 求和 9.75 3) 相除。结果：0.14 0.17", QZ_ZH, 2, steps, none);
    expect_read("softmax: exp each / sum(exp) = 1.35/9.75, 1.65/9.75 = 0.14 0.17", QZ_EN, 2, steps,
                none);
    /* more values than asked, as many after the last "≈": those */
    const double uniform[2] = {0.17, 0.17};
    expect_read("1/6 each ≈ 0.17 0.17", QZ_EN, 2, uniform, none);
    qz_numbers n2;
    qz_read_opts o2 = {.want = 2};
    assert_int_equal(qz_read_numbers("0.138 and 0.169 → 0.14, 0.17", &o2, QZ_EN, &n2, NULL), AT_OK);
    assert_true(n2.concluded && n2.n == 4 && n2.conclusion_at == 2);
    /* names with digits are names: "q3:", "k1 =" */
    expect_read("q3: 0.14 0.17", QZ_EN, 2, steps, none);
    const double row[3] = {0.25, 0.25, 0.5};
    expect_values("k1: 0.25, k2: 0.25, k3: 0.5", 3, row, 3);
    expect_values("w_1 = 0.25, w_2 = 0.25, w_3 = 0.5", 3, row, 3);
    qz_numbers nums;
    qz_read_opts o = {.want = 2, .tokens = q3_tokens, .n_tokens = 6};
    /* "the value a label ends on": later steps of 下雨's working inherit its label */
    assert_int_equal(qz_read_numbers("下雨: e^0.3 = 1.35, 1.35/9.75 = 0.14; 没: e^0.5 = 1.65, 1.65/9.75 = 0.17",
                                     &o, QZ_ZH, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 4);
    assert_int_equal(nums.v[0].token, 1);
    assert_int_equal(nums.v[1].inherited, 1);
    assert_true(fabs(nums.v[1].x - 0.14) < 1e-12);
    assert_int_equal(nums.v[2].token, 3);
    assert_int_equal(nums.v[3].inherited, 3);
    assert_true(nums.v[1].steps && fabs(nums.v[0].x - 1.35) < 1e-12);
    /* intermediate values, a named sum, then the labelled results */
    assert_int_equal(qz_read_numbers("exp 依次是 1.105、1.350、1.221、1.649、1.105、3.320，和是 9.75，"
                                     "所以下雨 0.14，没 0.17", &o, QZ_ZH, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 9);
    for (size_t i = 0; i < 7; i++)
        assert_true(nums.v[i].other && nums.v[i].token < 0);
    assert_int_equal(nums.v[7].token, 1);
    assert_int_equal(nums.v[8].token, 3);
    assert_true(nums.concluded && nums.conclusion_at == 7);
    /* unlabelled results after "so" */
    assert_int_equal(qz_read_numbers("exps 1.105 1.350 1.221 1.649 1.105 3.320, sum 9.75, so 0.14 and 0.17",
                                     &o, QZ_EN, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 9);
    assert_true(nums.concluded && nums.conclusion_at == 7);
    assert_true(!nums.v[7].other && !nums.v[8].other && nums.v[6].other);
    assert_int_equal(qz_read_numbers("0.14 0.17 (sum 9.75)", &o, QZ_EN, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 3);
    assert_true(!nums.v[0].other && !nums.v[1].other && nums.v[2].other);
    /* a correction: the values after it */
    assert_int_equal(qz_read_numbers("0.17 0.14, no wait: 0.14 0.17", &o, QZ_EN, &nums, NULL), AT_OK);
    assert_true(nums.concluded && nums.conclusion_at == 2 && nums.n == 4);
    assert_int_equal(qz_read_numbers("0.17 0.14，不对，应该是 0.14 0.17", &o, QZ_ZH, &nums, NULL), AT_OK);
    assert_true(nums.concluded && nums.conclusion_at == 2 && nums.n == 4);
    /* values in brackets with no operator between them are a list, not arithmetic */
    assert_int_equal(qz_read_numbers("(0.14 0.17)", &o, QZ_EN, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 2);
    assert_true(fabs(nums.v[0].x - 0.14) < 1e-9 && fabs(nums.v[1].x - 0.17) < 1e-9);
    /* a slash with spaces between two weights parts them */
    assert_int_equal(qz_read_numbers("0.14 / 0.17", &o, QZ_EN, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 2);
    assert_true(fabs(nums.v[0].x - 0.14) < 1e-9 && fabs(nums.v[1].x - 0.17) < 1e-9);
    /* more values than asked, as many after the last colon and nothing else */
    assert_int_equal(qz_read_numbers("softmax gives it ~1 and the rest ~0: 0.00 0.00", &o, QZ_EN,
                                     &nums, NULL), AT_OK);
    assert_int_equal(qz_answer_count(&nums), 2);
    assert_true(nums.v[nums.n - 1].x == 0 && nums.v[nums.n - 2].x == 0);
    /* working with values before the last colon, ASCII or full-width, and after it as many
     * values as asked and nothing else: those are the answer */
    expect_read("sum 9.75: 0.14 0.17", QZ_EN, 2, two, none);
    expect_read("using 9.75 as the sum: about 0.14 and 0.17.", QZ_EN, 2, two, none);
    const double cut[2] = {0.13, 0.17};
    expect_read("粗算，分母取 10：0.13 0.17", QZ_ZH, 2, cut, none);
    /* …not when a name with digits stands before it ("q3:"), nor when working follows it */
    expect_read("q3: 0.14 0.17", QZ_EN, 2, two, none);
    assert_int_equal(qz_read_numbers("下雨: e^0.3 = 1.35, 1.35/9.75 = 0.14; 没: e^0.5 = 1.65, "
                                     "1.65/9.75 = 0.17", &o, QZ_ZH, &nums, NULL), AT_OK);
    assert_int_equal(nums.n, 4);
}

/* Counts: thousands separators, a unit word after the count, a worked product. */
static void test_counts_and_units(void **state)
{
    const double mib[1] = {1048576};
    expect_values("1,048,576", 1, mib, 1);
    expect_values("1_048_576", 1, mib, 1);
    expect_values("4 × 512² = 1,048,576", 1, mib, 1);
    expect_values("4·512^2 = 1048576 weights", 1, mib, 1);
    const double pairs[1] = {21};
    expect_values("21 pairs", 1, pairs, 1);
    expect_values("21 对", 1, pairs, 1);
    expect_values("21对", 1, pairs, 1);
    expect_values("1 + 2 + 3 + 4 + 5 + 6 = 21 allowed pairs.", 1, pairs, 1);
    expect_values("6·7/2 = 21", 1, pairs, 1);
    qz_numbers nums;
    qz_read_opts whole = {.want = 1, .whole = 1};
    assert_int_equal(qz_read_numbers("21,000", &whole, QZ_EN, &nums, NULL), AT_OK);
    assert_true(nums.n == 1 && nums.v[0].x == 21000);
    /* not whole numbers: one comma is a decimal comma */
    assert_int_equal(qz_parse_numbers("21,000", 1, QZ_EN, &nums, NULL), AT_OK);
    assert_true(nums.n == 1 && fabs(nums.v[0].x - 21) < 1e-12);
    const double mebi[1] = {64};
    expect_values("64 MiB", 1, mebi, 1);
    expect_values("64MiB", 1, mebi, 1);   /* a unit of memory may be glued */
}

/* Every minus sign, superscripts and scientific notation with a Unicode minus. */
static void test_minus_signs_and_exponents(void **state)
{
    const double sci[2] = {0.1384, 0.1691};
    expect_values("1.384E−1 1.691E−1", 2, sci, 2);
    expect_values("1.384e-1 1.691e−1", 2, sci, 2);
    expect_values("1.384×10⁻¹ 1.691×10⁻¹", 2, sci, 2);
    expect_values("1.384 × 10^−1, 1.691 × 10^−1", 2, sci, 2);
    const double neg[2] = {-0.5, -0.25};
    expect_values("−0.5 −0.25", 2, neg, 2);
    expect_values("–0.5 －0.25", 2, neg, 2);
    qz_numbers nums;
    assert_int_equal(qz_parse_numbers("1.384E−1", 1, QZ_EN, &nums, NULL), AT_OK);
    assert_int_equal(nums.v[0].decimals, 4);
}

/* Exponents are clamped before any arithmetic: no overflow on any input (this runs
 * under UBSan in the sanitizer build). */
static void test_huge_exponents(void **state)
{
    qz_numbers nums;
    assert_int_equal(qz_parse_numbers("1e-99999999999999999999 0.17", 2, QZ_EN, &nums, NULL), AT_OK);
    assert_true(nums.n == 2 && nums.v[0].x == 0 && nums.v[0].decimals <= 17);
    assert_int_equal(qz_parse_numbers("1e-9223372036854775808 0.17", 2, QZ_EN, &nums, NULL), AT_OK);
    assert_int_equal(qz_parse_numbers("0.000000000000000000000000000000001e-99999999999", 1, QZ_EN, &nums,
                                      NULL), AT_OK);
    assert_true(nums.v[0].decimals >= 0 && nums.v[0].decimals <= 17);
    expect_malformed("1e99999999999999999999", 1, "too large");
    expect_malformed("1E+9223372036854775807", 1, "too large");
    assert_int_equal(qz_parse_numbers("5e-324 1e-400", 2, QZ_EN, &nums, NULL), AT_OK);
}

/* LaTeX a student pastes. */
static void test_latex(void **state)
{
    const double frac[1] = {1.35 / 9.75};
    expect_values("\\frac{1.35}{9.75}", 1, frac, 1);
    expect_values("$\\dfrac{1.35}{9.75}$", 1, frac, 1);
    const double ex[1] = {exp(0.3) / 9.75};
    expect_values("\\frac{e^{0.3}}{9.75}", 1, ex, 1);
    expect_values("\\exp(0.3) \\div 9.75", 1, ex, 1);
    const double pct[1] = {0.14};
    expect_values("14\\%", 1, pct, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_forms),
        cmocka_unit_test(test_percent),
        cmocka_unit_test(test_labels_any_order),
        cmocka_unit_test(test_comma_decimals),
        cmocka_unit_test(test_scientific_and_arithmetic),
        cmocka_unit_test(test_signs),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_chinese_messages),
        cmocka_unit_test(test_case11_forms),
        cmocka_unit_test(test_euler_or_exponent),
        cmocka_unit_test(test_student_forms),
        cmocka_unit_test(test_random_answers_never_crash),
        cmocka_unit_test(test_filler_and_punctuation),
        cmocka_unit_test(test_labels_and_glosses),
        cmocka_unit_test(test_scores_as_labels),
        cmocka_unit_test(test_worked_chains),
        cmocka_unit_test(test_counts_and_units),
        cmocka_unit_test(test_minus_signs_and_exponents),
        cmocka_unit_test(test_huge_exponents),
        cmocka_unit_test(test_latex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
