/* The numeric answer parser: every form students write, and what it rejects. */
#include "check.h"
#include "engine/attention.h"
#include "quiz/answer.h"

#include <math.h>
#include <string.h>

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
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        assert_int_equal(qz_parse_numbers(forms[i], 2, QZ_ZH, &nums, NULL), AT_OK);
        assert_int_equal(nums.n, 2);
        assert_int_equal(nums.labelled, 2);
        size_t rain = strcmp(nums.v[0].label, "下雨") == 0 ? 0 : 1;
        assert_string_equal(nums.v[rain].label, "下雨");
        assert_string_equal(nums.v[1 - rain].label, "没");
        assert_true(fabs(nums.v[rain].x - 0.14) < 1e-12 && fabs(nums.v[1 - rain].x - 0.17) < 1e-12);
    }
    assert_int_equal(qz_parse_numbers("rain = 0.14, didn't=0.17", 2, QZ_EN, &nums, NULL), AT_OK);
    assert_string_equal(nums.v[0].label, "rain");
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
    expect_malformed("0.14 abc", 2, "'abc'");
    expect_malformed("", 2, "no number");
    expect_malformed("   ", 2, "no number");
    expect_malformed("(1.35/9.75", 1, "')'");
    expect_malformed("1.35/9.75)", 1, "')'");
    expect_malformed("1/0", 1, "division by zero");
    expect_malformed("1/(0.5-0.5)", 1, "division by zero");
    expect_malformed("exp 0.3", 1, "parentheses");
    expect_malformed("0.14 #", 2, "'#'");
    expect_malformed("=0.14", 1, "token before");
    expect_malformed("exp(1000)", 1, "too large");
    expect_malformed("1e400", 1, "too large");
    expect_malformed("0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
                     0, "too many");
    /* A truncated UTF-8 sequence inside a label is an error, not a read past the end. */
    expect_malformed("\xe4\xb8", 1, NULL);
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
        char buf[256] = "";
        size_t len = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int n = (int)(x % 12);
        for (int k = 0; k < n; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const char *p = pieces[x % (sizeof pieces / sizeof pieces[0])];
            size_t l = strlen(p);
            if (len + l < sizeof buf) {
                memcpy(buf + len, p, l + 1);
                len += l;
            }
        }
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
