/* Grading of numeric kinds against the engine: every accepted form, the tolerance,
 * every diagnosed mistake with the real values of self-test Q3, and case 11. */
#define _GNU_SOURCE
#include "check.h"
#include "engine/attention.h"
#include "quiz/quiz.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Self-test Q3: 伞's scaled scores to 今天 下雨 我 没 带 伞; asked: 下雨 and 没. */
static const char *const q3_tokens[] = {"今天", "下雨", "我", "没", "带", "伞"};
static const double q3_scores[] = {0.1, 0.3, 0.2, 0.5, 0.1, 1.2};
static const size_t q3_ask[] = {1, 3};

static qz_question q3(void)
{
    qz_question q = qz_question_init(QZ_SOFTMAX);
    q.id = "q3";
    q.tokens = q3_tokens;
    q.n_tokens = 6;
    q.scores = q3_scores;
    q.ask = q3_ask;
    q.n_ask = 2;
    q.decimals = 2;
    return q;
}

static qz_result grade(const qz_question *q, const char *answer, qz_lang lang)
{
    qz_result r;
    at_error err;
    int rc = qz_grade(q, answer, lang, &r, &err);
    if (rc) {
        print_error("grading '%s': %s\n", answer, err.msg);
        fail();
    }
    return r;
}

/* Grade and check verdict and mistake; the feedback must contain `needle`. */
static void expect(const qz_question *q, const char *answer, qz_verdict v, qz_mistake m,
                   const char *needle)
{
    qz_result r = grade(q, answer, QZ_EN);
    if (r.verdict != v || r.mistake != m || (needle && !strstr(r.feedback, needle))) {
        print_error("'%s': verdict %s mistake %d (want %s, %d; feedback must hold '%s')\n%s\n",
                    answer, qz_verdict_name(r.verdict), r.mistake, qz_verdict_name(v), m,
                    needle ? needle : "", r.feedback);
        qz_result_free(&r);
        fail();
    }
    qz_result_free(&r);
}

static void test_q3_expected_from_engine(void **state)
{
    qz_question q = q3();
    qz_result r = grade(&q, "0.14 0.17", QZ_EN);
    assert_int_equal(r.verdict, QZ_CORRECT);
    assert_true(r.score == 1.0);
    assert_int_equal(r.n_expected, 2);
    /* exp(0.3) / Σ exp = 1.34986 / 9.75040, exp(0.5) / Σ exp = 1.64872 / 9.75040 */
    assert_true(fabs(r.expected_values[0] - 0.1384) < 5e-5);
    assert_true(fabs(r.expected_values[1] - 0.1691) < 5e-5);
    assert_string_equal(r.expected, "0.14 0.17");
    qz_result_free(&r);
}

static void test_q3_every_form_is_correct(void **state)
{
    qz_question q = q3();
    const char *forms[] = {"0.14 0.17", "0.14, 0.17", "0.14;0.17", "下雨=0.14 没=0.17",
                           "下雨: 0.14, 没: 0.17", "没: 0.17, 下雨: 0.14", "14% 17%", ".14 .17",
                           "0,14 0,17", "1.384e-1 1.691e-1", "1.38×10⁻¹ 1.69×10⁻¹",
                           "e^0.3/9.75 ≈ 0.14, e^0.5/9.75 ≈ 0.17", "0.138 0.169",
                           "0.1384 0.1691", "13.84% 16.91%", "下雨＝0.14，没＝0.17",
                           "零点一四，零点一七", "zero point one four, zero point one seven",
                           "point one four and point one seven",
                           "rains oh point one four, didn't oh point one seven",
                           "e^0.3/sum = 1.35/9.75 ≈ 0.14, e^0.5/sum = 1.65/9.75 ≈ 0.17",
                           "e^0.3/total ≈ 0.14, e^0.5/total ≈ 0.17"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        expect(&q, forms[i], QZ_CORRECT, QZ_M_NONE, "✓");
    /* left as a division: the estimate to two decimals is not worked out, and nothing
     * before a second try gives the values away */
    const char *ratios[] = {"1.35/9.75 1.65/9.75", "exp(0.3)/9.75 exp(0.5)/9.75",
                            "e^0.3/9.75 e^0.5/9.75"};
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++)
        expect(&q, ratios[i], QZ_PARTIAL, QZ_M_NONE, "left as arithmetic");
    expect(&q, "1.35/9.75 1.35/9.75", QZ_PARTIAL, QZ_M_WRONG_TOKEN, NULL);   /* one right, no swap */
    expect(&q, "0.14 0.14", QZ_PARTIAL, QZ_M_WRONG_TOKEN, "not of 没");
}

/* The values an answer opens with, alone in their sentence, are its answer; a remark
 * after them, with numbers or token names of its own, is not read as values (the kind:
 * a true remark with numbers after the answer). Not when the remark gives a token asked
 * another weight, takes the values back, or when the values are not alone. */
/* What a remark beside right values says of the row, against the engine's weights
 * (伞 0.3405 > 没 0.1691 > 下雨 0.1384 > 我 0.1250 > 今天 = 带 0.1133): the two asked said
 * to be the largest, a value given to the largest, a rank, a weight of a token not
 * asked (also when it equals that token's score, when the words call it a weight). */
static void test_q3_remarks_on_the_row(void **state)
{
    qz_question q = q3();
    const char *right[] = {
        "0.14 0.17; 没 is the second largest",
        "0.14 0.17，没是第二大的",
        "0.14 0.17 — 没 is the second largest, right after 伞.",
        "0.14 0.17. The largest weight goes to 伞 (about 0.34), then 没.",
        "0.14 0.17 (没 ranks 2nd, 下雨 ranks 3rd)",
        "0.14 0.17，“伞”排名第一，“没”排名第二，“下雨”排名第三",
        "approx 0.14, 0.17. softmax is shift invariant so you can subtract 0.1 from everything first",
        "先除以最大值得到 0.41、0.50，错了，应该除以总和：0.14、0.17",
        "伞 gets exp(1.2)=3.32, so 0.14 and 0.17",
    };
    for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
        expect(&q, right[i], QZ_CORRECT, QZ_M_NONE, "✓");
    expect(&q, "0.14 0.17, these are the two highest weights in the row", QZ_WRONG, QZ_M_FALSE_CLAIM,
           "not the largest of the row: 伞");
    expect(&q, "0.14 0.17，这两个是最大的", QZ_WRONG, QZ_M_FALSE_CLAIM, "not the largest of the row");
    expect(&q, "0.14 0.17; the largest one is close to 1", QZ_WRONG, QZ_M_FALSE_CLAIM,
           "the largest weight is not about 1");
    expect(&q, "0.14 0.17; 下雨 is the second largest", QZ_WRONG, QZ_M_FALSE_CLAIM, "number 3");
    expect(&q, "0.14 0.17; 没 ranks first", QZ_WRONG, QZ_M_FALSE_CLAIM, "is not number 1");
    expect(&q, "0.14 0.17. 伞 gets 0.5", QZ_WRONG, QZ_M_FALSE_CLAIM, "a weight of a token not asked");
    expect(&q, "0.14 0.17; the weight for 我 is 0.20", QZ_WRONG, QZ_M_FALSE_CLAIM,
           "a weight of a token not asked");
}

static void test_q3_answer_then_remark(void **state)
{
    qz_question q = q3();
    const char *right[] = {
        "0.14 0.17 -- you can subtract the max (1.2) first for stability.",
        "Ans: 0.14, 0.17. The ratio 没/下雨 = e^{0.2} ≈ 1.22 whatever the other scores are.",
        "答：0.14 0.17。没/下雨 的比值 = e^0.2 ≈ 1.22，和其他词无关。",
        "0.14 0.17；先减去最大值 1.2 再算 exp 结果一样，数值更稳",
        "0.14、0.17；今天和带分数一样，所以权重也一样。",
        "about 0.14 and 0.17. Sum of the exps is 9.75, and the six weights add up to 1.",
        /* a concluding word after the answer with no values of its own keeps the answer */
        "e^0.3≈1.35, e^0.5≈1.65, Σ≈9.75 -> 0.14, 0.17. So 没 weighs a bit more than 下雨.",
    };
    for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
        expect(&q, right[i], QZ_CORRECT, QZ_M_NONE, "✓");
    /* a later weight for a token asked decides (not the opening, in the other order);
     * values taken back are not the answer */
    expect(&q, "0.17 0.14. 下雨 0.14, 没 0.17", QZ_CORRECT, QZ_M_NONE, "✓");
    expect(&q, "0.14 0.17. 下雨 0.17, 没 0.14", QZ_WRONG, QZ_M_SWAPPED, NULL);
    qz_result r = grade(&q, "0.14 0.17. No wait, 0.21 0.26", QZ_EN);
    assert_int_not_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
    /* three values, the asked ones first and a third that is another token's weight in the
     * row's order (带 0.11): the row's weights, read as teachers read them; a wrong third
     * value leaves three values that say nothing of which is which */
    expect(&q, "0.14 0.17 0.11", QZ_CORRECT, QZ_M_WHOLE_ROW, "weights of the row");
    expect(&q, "0.14 0.17 0.34", QZ_CORRECT, QZ_M_WHOLE_ROW, "weights of the row");
    expect(&q, "0.14 0.17 0.5", QZ_MALFORMED, QZ_M_NONE, "the answer has 3");
    expect(&q, "0.17 0.14 0.34", QZ_MALFORMED, QZ_M_NONE, "the answer has 3");
}

static void test_q3_tolerance(void **state)
{
    qz_question q = q3();
    /* One unit of the second decimal around 0.13844 (0.12844 … 0.14844) and 0.16909
     * (0.15909 … 0.17909): 0.13 and 0.16 (cut off) are right, 0.15 and 0.18 are not. */
    expect(&q, "0.15 0.17", QZ_PARTIAL, QZ_M_NONE, "✗");
    expect(&q, "0.14 0.18", QZ_PARTIAL, QZ_M_NONE, "✗");
    expect(&q, "0.138 0.17", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.1285 0.17", QZ_CORRECT, QZ_M_NONE, NULL);   /* 0.13844 − 0.1285 = 0.0099 */
    expect(&q, "0.1283 0.17", QZ_PARTIAL, QZ_M_WRONG_TOKEN, "weight of 我");   /* 0.1253 */
    expect(&q, "0.1484 0.17", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.1486 0.17", QZ_PARTIAL, QZ_M_NONE, NULL);
    expect(&q, "0.14 0.1592", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.14 0.1590", QZ_PARTIAL, QZ_M_NONE, NULL);
    qz_question t = q3();
    t.decimals = 4;
    t.tolerance = 0.0001;   /* the question's own tolerance wins */
    /* right at fewer decimals than asked: partly right, the decimals named */
    expect(&t, "0.14 0.17", QZ_PARTIAL, QZ_M_ROUNDING, "下雨: give 4 decimals, not 2");
    expect(&t, "0.13 0.17", QZ_WRONG, QZ_M_ROUNDING, "looks cut off");
    expect(&t, "0.1384 0.1690", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&t, "0.1386 0.1691", QZ_PARTIAL, QZ_M_NONE, NULL);
}

static void test_q3_forgot_exp(void **state)
{
    qz_question q = q3();
    /* Raw scores normalised: 0.3 / 2.4 = 0.125, 0.5 / 2.4 = 0.2083. */
    expect(&q, "0.125 0.208", QZ_WRONG, QZ_M_NO_EXP, "2.4000");
    expect(&q, "0.3/2.4 0.5/2.4", QZ_WRONG, QZ_M_NO_EXP, "0.2083");
}

static void test_q3_forgot_to_normalise(void **state)
{
    qz_question q = q3();
    expect(&q, "1.35 1.65", QZ_WRONG, QZ_M_NO_NORMALISE, "9.7504");
    expect(&q, "exp(0.3) exp(0.5)", QZ_WRONG, QZ_M_NO_NORMALISE, "1.3499");
}

static void test_q3_swapped(void **state)
{
    qz_question q = q3();
    /* Right numbers under the wrong tokens answer the question wrongly. */
    expect(&q, "0.17 0.14", QZ_WRONG, QZ_M_SWAPPED, "下雨, then 没");
    expect(&q, "下雨=0.17 没=0.14", QZ_WRONG, QZ_M_SWAPPED, "swapped");
    expect(&q, "没: 0.14, 下雨: 0.17", QZ_WRONG, QZ_M_SWAPPED, "swapped");
    expect(&q, "下雨约0.17，没约0.14", QZ_WRONG, QZ_M_SWAPPED, "swapped");
    qz_result r = grade(&q, "0.17 0.14", QZ_EN);
    assert_true(r.score == 0.0);
    qz_result_free(&r);
    /* the order said reversed after the values: they trade places */
    expect(&q, "0.14 0.17 in reverse order", QZ_WRONG, QZ_M_SWAPPED, NULL);
    expect(&q, "0.14 0.17. Actually the other order.", QZ_WRONG, QZ_M_SWAPPED, NULL);
    expect(&q, "0.14 0.17。其实顺序是反的。", QZ_WRONG, QZ_M_SWAPPED, NULL);
    expect(&q, "0.17 0.14 in reverse order", QZ_CORRECT, QZ_M_NONE, NULL);
}

static void test_q3_off_by_one_token(void **state)
{
    qz_question q = q3();
    /* 我 = 1.2214 / 9.7504 = 0.1253, 带 = 今天 = 0.1133 */
    expect(&q, "0.125 0.113", QZ_WRONG, QZ_M_WRONG_TOKEN, "weight of 我");
    /* 0.13 is 我's weight rounded, and 下雨's cut off: within one unit of 下雨 */
    expect(&q, "0.13 0.11", QZ_PARTIAL, QZ_M_WRONG_TOKEN, "0.11 is the weight of");
    expect(&q, "我=0.13 带=0.11", QZ_WRONG, QZ_M_WRONG_TOKEN, "我 is not asked: the question asks for 下雨 and 没");
}

static void test_q3_whole_row(void **state)
{
    qz_question q = q3();
    /* every weight right, in the sentence's order: the asked ones are at their places */
    expect(&q, "0.11 0.14 0.13 0.17 0.11 0.34", QZ_CORRECT, QZ_M_WHOLE_ROW, "whole row (6 weights");
    /* one of the row wrong (带 0.21): no whole row, only a wrong count */
    expect(&q, "0.11 0.14 0.13 0.17 0.21 0.34", QZ_MALFORMED, QZ_M_NONE, "asks for 2 numbers");
    /* A wrong whole row is only a wrong count. */
    expect(&q, "0.1 0.1 0.1 0.1 0.1 0.5", QZ_MALFORMED, QZ_M_NONE, "asks for 2 numbers");
}

static void test_q3_percent_without_sign(void **state)
{
    qz_question q = q3();
    expect(&q, "13.84 16.91", QZ_PARTIAL, QZ_M_PERCENT_NO_SIGN, "without the % sign");
    expect(&q, "14 17", QZ_PARTIAL, QZ_M_PERCENT_NO_SIGN, "14% 17%");
}

static void test_q3_left_out_own_token(void **state)
{
    qz_question q = q3();
    /* 伞's exp 3.3201 left out: 1.3499 / 6.4303 = 0.2099, 1.6487 / 6.4303 = 0.2564 */
    expect(&q, "0.21 0.26", QZ_WRONG, QZ_M_LEFT_OUT_TOKEN, "exp of 伞 left out");
}

/* A sigmoid of each score instead of the softmax of the row (1/(1+e^-0.3) = 0.5744,
 * 1/(1+e^-0.5) = 0.6225): read, wrong, and named, in both languages. */
static void test_q3_sigmoid(void **state)
{
    qz_question q = q3();
    expect(&q, "0.57 0.62", QZ_WRONG, QZ_M_SIGMOID, "sigmoids of each score on its own");
    expect(&q, "softmax of 0.3 is about 0.57 and of 0.5 about 0.62", QZ_WRONG, QZ_M_SIGMOID,
           "下雨 0.5744, 没 0.6225");
    expect(&q, "0.3 → 0.57, 0.5 → 0.62", QZ_WRONG, QZ_M_SIGMOID, "divided by the sum");
    expect(&q, "σ(0.3)≈0.57，σ(0.5)≈0.62", QZ_WRONG, QZ_M_SIGMOID, NULL);
    expect(&q, "1/(1+e^-0.3) ≈ 0.574 and 1/(1+e^-0.5) ≈ 0.622", QZ_WRONG, QZ_M_SIGMOID, NULL);
    qz_result r = grade(&q, "0.3 的 softmax 大约 0.57，0.5 的大约 0.62", QZ_ZH);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_int_equal(r.mistake, QZ_M_SIGMOID);
    assert_non_null(strstr(r.feedback, "单独取 sigmoid"));
    assert_non_null(strstr(r.feedback, "下雨 0.5744，没 0.6225"));
    assert_true(r.score == 0.0);
    qz_result_free(&r);
    /* the scores as labels, right values: right */
    expect(&q, "softmax of 0.3 is about 0.14 and of 0.5 about 0.17", QZ_CORRECT, QZ_M_NONE, NULL);
}

static void test_q3_rounding(void **state)
{
    qz_question q = q3();
    /* cut off instead of rounded: within one unit, right; the feedback says so */
    expect(&q, "0.14 0.16", QZ_CORRECT, QZ_M_NONE, "没: 0.16 looks cut off after 2 decimals");
    expect(&q, "0.13 0.16", QZ_CORRECT, QZ_M_NONE, "下雨: 0.13 looks cut off");
    expect(&q, "0.13，0.16（直接截断）", QZ_CORRECT, QZ_M_NONE, "looks cut off");
    expect(&q, "0.1 0.2", QZ_PARTIAL, QZ_M_ROUNDING, "give 2 decimals, not 1");
    /* 0.16 for 下雨 is near 没's weight, but one value cannot be swapped: partly right */
    expect(&q, "下雨 0.16，没 0.17", QZ_PARTIAL, QZ_M_NONE, "✗");
}

static void test_q3_malformed_is_not_an_attempt(void **state)
{
    qz_question q = q3();
    expect(&q, "0.14abc 0.17", QZ_MALFORMED, QZ_M_NONE, "'abc'");
    /* one value: read as the first asked, the other not answered */
    expect(&q, "0.14", QZ_PARTIAL, QZ_M_NONE, "没 has no value");
    expect(&q, "约 0.34", QZ_WRONG, QZ_M_WRONG_TOKEN, "0.34 is the weight of 伞");
    expect(&q, "0.14 0.17 0.2", QZ_MALFORMED, QZ_M_NONE, "the answer has 3");
    expect(&q, "0,14, 0,17", QZ_MALFORMED, QZ_M_NONE, "ambiguous");
    /* one labelled value: the other is not answered (partly right when this one is) */
    expect(&q, "下雨=0.14", QZ_PARTIAL, QZ_M_NONE, "没 has no value");
    expect(&q, "没 ≈ 0.17", QZ_PARTIAL, QZ_M_NONE, "下雨 has no value");
    expect(&q, "下雨约 0.14，没的算不出来了", QZ_PARTIAL, QZ_M_NONE, "没 has no value");
    expect(&q, "下雨=0.2", QZ_WRONG, QZ_M_NONE, "没 has no value");
    /* a token labelled twice ends on its last value: 下雨 = 0.17, 没 none */
    expect(&q, "下雨=0.14 下雨=0.17", QZ_WRONG, QZ_M_WRONG_TOKEN, "0.17 is the weight of 没");
    /* a slot no label names takes the unlabelled value; a word that is no token is
     * no label */
    expect(&q, "下雨=0.14 0.17", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "雨=0.14 没=0.17", QZ_CORRECT, QZ_M_NONE, NULL);
    /* more values than asked, none labelled: which is which cannot be told */
    expect(&q, "0.11 0.14 0.17", QZ_MALFORMED, QZ_M_NONE, "does not say which is which");
    qz_result r = grade(&q, "0.14 0.17 0.2", QZ_EN);
    assert_true(r.score == 0.0);
    assert_int_equal(qz_verdict_exit_status(r.verdict), 2);
    qz_result_free(&r);
}

/* The longest answer graded is QZ_ANSWER_MAX bytes; one more is malformed, with its
 * length and the limit named, and no value given away. */
static void test_answer_too_long(void **state)
{
    (void)state;
    qz_question q = q3();
    char *a = malloc(QZ_ANSWER_MAX + 2);
    assert_non_null(a);
    memset(a, ' ', QZ_ANSWER_MAX + 1);
    memcpy(a, "0.14 0.17", 9);
    a[QZ_ANSWER_MAX] = '\0';
    expect(&q, a, QZ_CORRECT, QZ_M_NONE, NULL);
    a[QZ_ANSWER_MAX] = ' ';
    a[QZ_ANSWER_MAX + 1] = '\0';
    expect(&q, a, QZ_MALFORMED, QZ_M_NONE, "4096 bytes, where at most 4095 are read");
    qz_result r = grade(&q, a, QZ_ZH);
    assert_int_equal(r.verdict, QZ_MALFORMED);
    assert_null(strstr(r.feedback, "0.14"));
    assert_null(strstr(r.feedback, "0.17"));
    qz_result_free(&r);
    free(a);
}

static void test_q3_feedback_walks_the_steps(void **state)
{
    qz_question q = q3();
    qz_result r = grade(&q, "0.2 0.3", QZ_EN);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_non_null(strstr(r.feedback, "exp(0.3) = 1.3499"));
    assert_non_null(strstr(r.feedback, "their sum: 9.7504"));
    assert_non_null(strstr(r.feedback, "下雨 1.3499 / 9.7504 = 0.1384 ≈ 0.14"));
    assert_non_null(strstr(r.feedback, "没 1.6487 / 9.7504 = 0.1691 ≈ 0.17"));
    qz_result_free(&r);
    r = grade(&q, "0.2 0.3", QZ_ZH);
    assert_non_null(strstr(r.feedback, "求和：9.7504"));
    qz_result_free(&r);
}

/* Case 11: softmax of [1, 1, 0], third weight 1/(2e+1) = 0.1553624, tolerance ±0.005. */
static void test_case11_decimal_comma_and_percent(void **state)
{
    static const char *const tokens[] = {"a", "b", "c"};
    static const double scores[] = {1, 1, 0};
    static const size_t ask[] = {2};
    qz_question q = qz_question_init(QZ_SOFTMAX);
    q.tokens = tokens;
    q.n_tokens = 3;
    q.scores = scores;
    q.ask = ask;
    q.n_ask = 1;
    q.tolerance = 0.005;
    qz_result r = grade(&q, "0.155", QZ_EN);
    assert_int_equal(r.verdict, QZ_CORRECT);
    assert_true(fabs(r.expected_values[0] - 1 / (2 * M_E + 1)) < 1e-12);
    assert_true(fabs(r.expected_values[0] - 0.1553624) < 1e-7);
    qz_result_free(&r);
    expect(&q, "0,155", QZ_CORRECT, QZ_M_NONE, "a dot is safer");
    expect(&q, "15.5%", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.155abc", QZ_MALFORMED, QZ_M_NONE, NULL);
    expect(&q, "0,16,", QZ_MALFORMED, QZ_M_NONE, NULL);
    expect(&q, "155", QZ_WRONG, QZ_M_NONE, NULL);   /* never read as 155 = right */
}

static void test_numeric_tolerances(void **state)
{
    static const double zero[] = {0.0};
    qz_question q = qz_question_init(QZ_NUMERIC);
    q.values = zero;
    q.n_values = 1;
    q.relative = 0.01;   /* relative to 0 is 0: falls back to an absolute tolerance */
    const char *zeros[] = {"0", "0.0", "-0", "0.000000001"};
    for (size_t i = 0; i < 4; i++)
        expect(&q, zeros[i], QZ_CORRECT, QZ_M_NONE, NULL);
    qz_result r = grade(&q, "0.5", QZ_EN);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_null(strstr(r.feedback, "nan"));
    qz_result_free(&r);
    static const double hundred[] = {100.0};
    q.values = hundred;
    expect(&q, "100.9", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "101.5", QZ_WRONG, QZ_M_NONE, NULL);
    q.relative = -1;
    q.decimals = 0;   /* one unit: 99 … 101 */
    expect(&q, "100.4", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "101", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "101.2", QZ_WRONG, QZ_M_NONE, NULL);
    q.tolerance = 0.5;   /* the question's own tolerance is kept */
    expect(&q, "100.5", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "100.6", QZ_WRONG, QZ_M_NONE, NULL);
}

static void test_numeric_unordered(void **state)
{
    static const double keys[] = {3, 4};
    qz_question q = qz_question_init(QZ_NUMERIC);
    q.values = keys;
    q.n_values = 2;
    q.unordered = 1;
    q.tolerance = 0;
    expect(&q, "4 3", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "3 3", QZ_PARTIAL, QZ_M_NONE, NULL);
}

/* Attention row: q = k = [[1,0],[0,1],[1,1]], v = [[1,2],[3,4],[5,6]], d_k = 2, row 3.
 * Raw scores 1 1 2; scaled by 1/√2: 0.7071 0.7071 1.4142 → weights 0.2483 0.2483 0.5035. */
static const double att_q[] = {1, 0, 0, 1, 1, 1};
static const double att_v[] = {1, 2, 3, 4, 5, 6};

static qz_question attention(int output)
{
    qz_question q = qz_question_init(QZ_ATTENTION);
    q.q = att_q;
    q.k = att_q;
    q.v = att_v;
    q.n_q = q.n_k = 3;
    q.d_k = q.d_v = 2;
    q.row = 2;
    q.ask_output = output;
    return q;
}

static void test_attention_weights(void **state)
{
    qz_question q = attention(0);
    qz_result r = grade(&q, "0.25 0.25 0.50", QZ_EN);
    assert_int_equal(r.verdict, QZ_CORRECT);
    float Q[6], V[6], w[9], out[6];
    for (int i = 0; i < 6; i++) {
        Q[i] = (float)att_q[i];
        V[i] = (float)att_v[i];
    }
    at_attn_config cfg = at_attn_config_init(3, 3, 2, 2);
    assert_int_equal(at_attention_forward(&cfg, Q, Q, V, w, out, NULL, NULL, NULL), AT_OK);
    for (int j = 0; j < 3; j++)
        assert_true(fabs(r.expected_values[j] - w[6 + j]) < 1e-6);
    assert_true(fabs(r.expected_values[2] - 0.5035) < 5e-5);
    qz_result_free(&r);
    /* Without √d_k: softmax(1, 1, 2) = 0.2119 0.2119 0.5761. */
    expect(&q, "0.21 0.21 0.58", QZ_WRONG, QZ_M_NO_SCALE, "√d_k = √2 = 1.4142");
    /* √d_k twice (divided by d_k = 2): softmax(0.5, 0.5, 1) = 0.2741 0.2741 0.4519. */
    expect(&q, "0.27 0.27 0.45", QZ_WRONG, QZ_M_DOUBLE_SCALE, "twice");
    /* Row 1 instead of row 3: softmax(0.7071, 0, 0.7071) = 0.4011 0.1978 0.4011. */
    expect(&q, "0.40 0.20 0.40", QZ_WRONG, QZ_M_WRONG_ROW, "row 1");
    expect(&q, "0.1 0.1 0.1", QZ_WRONG, QZ_M_NONE, "1/√d_k = 1/√2 = 0.7071");
}

static void test_attention_output(void **state)
{
    qz_question q = attention(1);
    /* 0.2483·[1,2] + 0.2483·[3,4] + 0.5035·[5,6] = [3.5105, 4.5105] */
    expect(&q, "3.51 4.51", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.25 0.25 0.50", QZ_PARTIAL, QZ_M_WEIGHTS_NOT_OUTPUT, "the output");
    expect(&q, "3.5 4.5", QZ_PARTIAL, QZ_M_ROUNDING, "give 2 decimals, not 1");
    expect(&q, "3.4 4.5", QZ_WRONG, QZ_M_NONE, NULL);
    expect(&q, "x", QZ_MALFORMED, QZ_M_NONE, NULL);
}

static void test_attention_causal(void **state)
{
    qz_question q = attention(0);
    q.causal = 1;
    q.row = 0;   /* the first query sees only itself */
    expect(&q, "1 0 0", QZ_CORRECT, QZ_M_NONE, NULL);
    qz_result r = grade(&q, "0.33 0.33 0.33", QZ_EN);
    assert_non_null(strstr(r.feedback, "masked (causal"));
    qz_result_free(&r);
}

static void test_bad_question(void **state)
{
    static const size_t bad_ask[] = {9};
    qz_question q = q3();
    q.ask = bad_ask;
    q.n_ask = 1;
    qz_result r;
    at_error err;
    assert_int_equal(qz_grade(&q, "0.1", QZ_EN, &r, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "asked token 10 of 6"));
}

/* Random answers to Q3 and to an attention row: always graded (a verdict, feedback,
 * a score in [0, 1]), never an error or a crash. */
static void test_random_answers_are_graded(void **state)
{
    static const char *const pieces[] = {"0.14", "0.17", " ", ",", "下雨", "没", "我", "=", ":", "%",
                                         "1.35/9.75", "e^0.5", "-", "0", "abc", "0,1", "13.84", "\xe6\xb2"};
    unsigned long long x = 1234567ULL;
    qz_question q = q3(), a = attention(1);
    for (int i = 0; i < 5000; i++) {
        char buf[200];
        check_random_join(buf, sizeof buf, pieces, sizeof pieces / sizeof pieces[0], 8, &x);
        qz_result r;
        at_error err;
        assert_int_equal(qz_grade(i % 2 ? &a : &q, buf, QZ_ZH, &r, &err), AT_OK);
        assert_true(r.verdict <= QZ_MALFORMED && r.feedback && r.score >= 0 && r.score <= 1);
        qz_result_free(&r);
    }
}

/* Q3 with the glosses its English prompt gives. */
static const qz_gloss q3_glosses[] = {{1, "rains | it rains"}, {3, "didn't | did not"}};

static qz_question q3_glossed(void)
{
    qz_question q = q3();
    q.glosses = q3_glosses;
    q.n_glosses = 2;
    return q;
}

/* Every kind of form a student writes, in both languages: right. */
static void test_q3_free_sentences(void **state)
{
    qz_question q = q3_glossed();
    const char *forms[] = {
        "0.14 0.17.", "about .14 and .17", "0.14 and 0.17 respectively", "≈0.14 and ≈0.17",
        "~0.14 / ~0.17", "about 0.14 / 0.17 (伞 itself gets ~0.34)", "rains: 0.14, didn't: 0.17",
        "0.14 for rains and 0.17 for didn't", "the weight for 'rains' is about 0.14 and for 'didn’t' about 0.17",
        "e^0.3/9.75 ≈ 0.14, e^0.5/9.75 ≈ 0.17", "1.384E−1 1.691E−1", "1.384×10⁻¹ 1.691×10⁻¹",
        "exp: 1.11, 1.35, 1.22, 1.65, 1.11, 3.32; sum ≈ 9.75; 1.35/9.75 ≈ 0.14 and 1.65/9.75 ≈ 0.17",
        "e^0.3 = 1.35, e^0.5 = 1.65, sum = 9.75 → 0.14, 0.17", "sum 9.75 so 0.14 and 0.17",
        "下雨约0.14，没约0.17", "下雨的权重是0.14，没的权重是0.17", "大约是0.14和0.17", "下雨和没分别是0.14和0.17",
        "0.14（下雨），0.17（没）", "我觉得下雨是0.14，没是0.17",
        "exp 依次是 1.105、1.350、1.221、1.649、1.105、3.320，和是 9.75，所以下雨 0.14，没 0.17",
        "e^0.3≈1.35，e^0.5≈1.65，分母≈9.8，得 0.138、0.168，即 0.14、0.17", "~0.14 / ~0.17",
        "$\\frac{e^{0.3}}{9.75} \\approx 0.14$, $\\frac{e^{0.5}}{9.75} \\approx 0.17$", "13.8%、16.9%",
        "0.14 and 0.17 (伞 gets the most, about 0.34)", "权重：下雨 0.14，没 0.17，伞最大约 0.34",
        "P(下雨)=0.14, P(没)=0.17", "rains → 0.14, didn't → 0.17", "Σexp = 9.75, so rains = 1.35/9.75 = 0.14 "
        "and didn't = 1.65/9.75 = 0.17", "先算 exp：1.11、1.35、1.22、1.65、1.11、3.32，求和 9.75，再除：下雨 0.14，没 0.17",
        "0.14 0.17 (to two decimals)", "{\"下雨\": 0.14, \"没\": 0.17}", "0.1384 / 0.1691",
        /* the values first, a particle or an about-word, then a remark with its own numbers */
        "0.14 0.17 吧，e^1.2≈3.32 是大头", "0.14 0.17 左右，伞自己约 0.34",
        /* working before a last colon, the values after it */
        "sum 9.75: 0.14 0.17", "using 9.75 as the sum: 0.14 0.17", "粗算，分母取 10：0.14 0.17",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        expect(&q, forms[i], QZ_CORRECT, QZ_M_NONE, "✓");
}

/* What a free sentence says wrongly is wrong, and why; what cannot be told apart is
 * unreadable (and not counted). */
static void test_q3_free_sentences_wrong(void **state)
{
    qz_question q = q3_glossed();
    expect(&q, "didn't 0.14 rains 0.17", QZ_WRONG, QZ_M_SWAPPED, "swapped");
    expect(&q, "rains ≈ 0.14, didn't - ran out of time", QZ_PARTIAL, QZ_M_NONE, "没 has no value");
    expect(&q, "0.14 and 0.17 - no wait, 没 is first so 0.17 and 0.14", QZ_WRONG, QZ_M_SWAPPED, "swapped");
    expect(&q, "0.17 0.14，不对，应该是 0.14 0.17", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.41 and 0.50 (divided by e^1.2)", QZ_WRONG, QZ_M_NONE, NULL);
    /* e^x ≈ 1 + x: both off, but in the proportion of the exps: the method is right, the
     * exps rough (partly right, as most teachers mark it); off in different directions is
     * no softmax */
    expect(&q, "using e^x ≈ 1+x: 1.3/8.4 ≈ 0.15 and 1.5/8.4 ≈ 0.18", QZ_PARTIAL, QZ_M_ROUGH, "proportion");
    expect(&q, "用 e^x≈1+x 近似：0.15，0.18", QZ_PARTIAL, QZ_M_ROUGH, NULL);
    expect(&q, "0.15 0.19", QZ_PARTIAL, QZ_M_ROUGH, NULL);
    expect(&q, "0.12 0.19", QZ_WRONG, QZ_M_NONE, NULL);
    expect(&q, "0.10 0.12", QZ_WRONG, QZ_M_NONE, NULL);
    expect(&q, "忘了 exp：0.3/2.4≈0.13，0.5/2.4≈0.21", QZ_WRONG, QZ_M_NO_EXP, "exp was skipped");
    expect(&q, "not sure, maybe about 0.2 each", QZ_WRONG, QZ_M_NONE, NULL);
    expect(&q, "都是0.2", QZ_WRONG, QZ_M_NONE, NULL);
    expect(&q, "0.14 or 0.17 or 0.34, one of them is 下雨", QZ_MALFORMED, QZ_M_NONE, "alternatives");
    /* one value hedged, each choice a whole answer: the right one among them earns part of
     * the marks; none right is wrong */
    expect(&q, "0.14或0.15，0.17", QZ_PARTIAL, QZ_M_NONE, "alternatives");
    expect(&q, "rains 0.14, didn't 0.17 or maybe 0.21, not sure", QZ_PARTIAL, QZ_M_NONE, "alternatives");
    expect(&q, "either 0.21 0.29 or 0.25 0.30", QZ_WRONG, QZ_M_NONE, "none of them is right");
    /* "or maybe", "or possibly": one "or" in two words */
    expect(&q, "0.14 0.17, or maybe 0.13 0.21", QZ_PARTIAL, QZ_M_NONE, "alternatives");
    expect(&q, "0.21 0.26, or possibly 0.13 0.21", QZ_WRONG, QZ_M_NONE, "none of them is right");
    /* a turn that values follow is a correction: the values after it answer */
    expect(&q, "0.14 0.17. No, the opposite: 0.17 0.14", QZ_WRONG, QZ_M_SWAPPED, "swapped");
    expect(&q, "0.17 0.14. No, the opposite: 0.14 0.17", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.11 0.14 0.13 0.17", QZ_MALFORMED, QZ_M_NONE, "which is which");
    /* a remark on the row beside right values, checked against the engine's weights */
    expect(&q, "0.14 0.17, so 伞 mostly attends to 没 rather than itself", QZ_WRONG, QZ_M_FALSE_CLAIM,
           "does not get the largest weight");
    expect(&q, "0.14 0.17，所以“没”是伞最关注的词", QZ_WRONG, QZ_M_FALSE_CLAIM, "does not get the largest");
    expect(&q, "0.14 0.17; 伞 attends mostly to itself", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.14 0.17，而且伞对自己的权重超过一半", QZ_WRONG, QZ_M_FALSE_CLAIM,
           "does not get more than half");
    expect(&q, "0.14 0.17; 伞 keeps less than half of the weight for itself", QZ_CORRECT, QZ_M_NONE,
           NULL);
    /* "most of its attention to X": X gets the most; "most of the weight" is the largest
     * share, not more than half */
    expect(&q, "0.14 0.17 - so 伞 gives most of its attention to 没", QZ_WRONG, QZ_M_FALSE_CLAIM,
           "does not get the largest weight");
    expect(&q, "0.14 0.17; 伞 keeps most of the weight on itself (about 0.34)", QZ_CORRECT, QZ_M_NONE,
           NULL);
    /* a value and the same value rounded in brackets after it are one value */
    expect(&q, "0.138 (0.14), 0.169 (0.17)", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "下雨 0.1385（0.14），没 0.1691（0.17）", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "0.14 (0.13) 0.17", QZ_MALFORMED, QZ_M_NONE, "which is which");
    /* values in brackets are a list; the values after a last colon answer */
    expect(&q, "rains 13.8%, didn't 16.9% (0.14 0.17)", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "伞 has the largest score, so it takes ~1 and the rest ~0: 0.00 0.00", QZ_WRONG,
           QZ_M_NONE, NULL);
    /* saying one does not know is a try, and a wrong one; other text cannot be read */
    const char *giving_up[] = {"不会", "不会算", "I don't know", "no idea", "不知道"};
    for (size_t i = 0; i < sizeof giving_up / sizeof giving_up[0]; i++)
        expect(&q, giving_up[i], QZ_WRONG, QZ_M_NONE, "no number");
    expect(&q, "banana", QZ_MALFORMED, QZ_M_NONE, "no number");
}

/* The values the answer ends on: a turn at the end makes the two trade places, a
 * labelled correction replaces its token's value, values taken back and replaced by
 * others that cannot be matched are unreadable, and digits that did not come through
 * are unreadable. */
static void test_q3_ends_on(void **state)
{
    qz_question q = q3_glossed();
    expect(&q, "下雨 0.17，没 0.14。不对，反过来。", QZ_CORRECT, QZ_M_NONE, "✓");
    expect(&q, "下雨 0.14，没 0.17。不对，反过来。", QZ_WRONG, QZ_M_SWAPPED, "swapped");
    expect(&q, "rains 0.14, didn't 0.17, no wait it's the other way round", QZ_WRONG, QZ_M_SWAPPED,
           "swapped");
    expect(&q, "下雨≈0.14，没≈0.17。不对不对，下雨应该是 0.12。", QZ_PARTIAL, QZ_M_NONE, NULL);
    expect(&q, "0.14, 0.17 — hmm no, I should divide by the max: 0.41 and 0.50", QZ_WRONG, QZ_M_NONE,
           NULL);
    expect(&q, "0.14 and 0.17... actually I think I should not include 伞 in the sum: 0.21 and 0.26",
           QZ_MALFORMED, QZ_M_NONE, "takes its values back");
    expect(&q, "rains 0.1… didn't 0.…7", QZ_MALFORMED, QZ_M_NONE, "cannot be read");
    expect(&q, "下雨 0.1▯ 没 0.▯▯", QZ_MALFORMED, QZ_M_NONE, "cannot be read");
    expect(&q, "0.14, 0.17...", QZ_CORRECT, QZ_M_NONE, "✓");
}

/* Where a worked answer ends: after an arrow or a rounding ("to two decimals",
 * 保留两位是), before a remark in brackets that holds numbers of its own, after a
 * correction in numbers ("that's not softmax", 这是错的); 0。17 is 0.17. */
static void test_q3_worked_answers_end_on(void **state)
{
    qz_question q = q3_glossed();
    const char *right[] = {
        "e^0.3≈1.35，e^0.5≈1.65，分母≈1.11+1.35+1.22+1.65+1.11+3.32=9.76 → 0.14 / 0.17",
        "分母 = Σexp ≈ 9.75；下雨 ≈ 0.1384，没 ≈ 0.1691 → 0.14 / 0.17",
        "0.138和0.169，保留两位是0.14、0.17", "0.1384 and 0.1691, rounded: 0.14, 0.17",
        "1.35/9.76 = 0.1383 and 1.65/9.76 = 0.1691, to 2 decimals: 0.14 and 0.17",
        "算出来0.1384、0.1691，四舍五入后0.14、0.17",
        "0.14, 0.17 (rough: e^1.2≈3.3, so the sum is ≈9.7)",
        "下雨：0.14；没：0.17（用 e^x ≈ 1 + x + x²/2 估的）",
        "First I normalised without exp and got 0.13 and 0.21, but that's not softmax. With exp: 0.14 and 0.17.",
        "先除以最大值得到 0.41、0.50，错了，应该除以总和：0.14、0.17",
        "第一次漏了伞，得 0.21 和 0.26，这是错的。把伞加进分母后：0.14 和 0.17",
        "指数和大约9.75，下雨0.14，没0。17", "0。14 和 0。17",
    };
    for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
        expect(&q, right[i], QZ_CORRECT, QZ_M_NONE, "✓");
    expect(&q, "With exp I got 0.14 and 0.17, but I think that's wrong; without exp: 0.13 and 0.21.", QZ_WRONG,
           QZ_M_NO_EXP, "exp was skipped");
    expect(&q, "下雨0。14，没0。21", QZ_PARTIAL, QZ_M_NONE, "✗");
    /* 0.14。0.17: the first number already has its decimals, 。 ends it */
    expect(&q, "0.14。0.17", QZ_CORRECT, QZ_M_NONE, "✓");
}

/* Before a second try nothing gives the answer away: the feedback up to reveal_at holds
 * no expected value, no sum of the exps, and no engine value; after it, all of them. */
static void test_q3_first_try_gives_nothing_away(void **state)
{
    qz_question q = q3_glossed();
    const char *answers[] = {"0.125 0.208", "1.35 1.65", "0.17 0.14", "0.21 0.26", "0.2 0.3", "0.1 0.2",
                             "13.84 16.91", "不会", "I don't know", "0.13 0.11", "下雨=0.5", "banana",
                             "0.1 0.2 0.3", "0.11 0.13 0.34"};
    const char *leaks[] = {"0.14", "0.17", "0.1384", "0.1691", "9.75", "engine", "引擎"};
    for (int lang = 0; lang < 2; lang++)
        for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
            qz_result r = grade(&q, answers[i], (qz_lang)lang);
            char *head = strndup(r.feedback, r.reveal_at);
            for (size_t k = 0; k < sizeof leaks / sizeof leaks[0]; k++)
                if (strstr(head, leaks[k]) && !strstr(answers[i], leaks[k])) {
                    print_error("'%s' gives away '%s' before a try:\n%s\n", answers[i], leaks[k], head);
                    fail();
                }
            if (r.verdict == QZ_WRONG || r.verdict == QZ_PARTIAL)
                assert_non_null(strstr(r.feedback + r.reveal_at, "0.1384"));
            free(head);
            qz_result_free(&r);
        }
}

/* Whole numbers are printed as such, and a numeric question without a tolerance is
 * graded within one unit of the second decimal (as `show` prints ± 0.01). */
static void test_numeric_whole_and_default_tolerance(void **state)
{
    static const double pairs[] = {21};
    qz_question q = qz_question_init(QZ_NUMERIC);
    q.values = pairs;
    q.n_values = 1;
    expect(&q, "21 pairs", QZ_CORRECT, QZ_M_NONE, "21  ✓  (engine: 21)");
    expect(&q, "21 对", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "21.009", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "21.02", QZ_WRONG, QZ_M_NONE, NULL);
    qz_result r = grade(&q, "20", QZ_EN);
    assert_null(strstr(r.feedback, "21.0"));
    assert_non_null(strstr(r.feedback, "The right answer (engine): 21\n"));
    assert_string_equal(r.expected, "21");
    qz_result_free(&r);
    static const double mib[] = {1048576};
    q.values = mib;
    q.tolerance = 0;
    q.decimals = 0;
    expect(&q, "1,048,576", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "4 × 512² = 1,048,576 weights", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "1 048 576", QZ_CORRECT, QZ_M_NONE, NULL);   /* one whole number asked */
    expect(&q, "1048576 (4 matrices of 512x512)", QZ_CORRECT, QZ_M_NONE, NULL);
    q.values = pairs;
    expect(&q, "21 of 36", QZ_CORRECT, QZ_M_NONE, NULL);   /* a count of a total */
    expect(&q, "21 out of 36 pairs", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "共 21 对", QZ_CORRECT, QZ_M_NONE, NULL);
    static const double mebi[] = {64};
    q.values = mebi;
    expect(&q, "64MB左右", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(&q, "4096² × 4 B = 64 MiB", QZ_CORRECT, QZ_M_NONE, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_q3_expected_from_engine),
        cmocka_unit_test(test_q3_every_form_is_correct),
        cmocka_unit_test(test_q3_tolerance),
        cmocka_unit_test(test_q3_forgot_exp),
        cmocka_unit_test(test_q3_forgot_to_normalise),
        cmocka_unit_test(test_q3_swapped),
        cmocka_unit_test(test_q3_answer_then_remark),
        cmocka_unit_test(test_q3_remarks_on_the_row),
        cmocka_unit_test(test_q3_off_by_one_token),
        cmocka_unit_test(test_q3_whole_row),
        cmocka_unit_test(test_q3_percent_without_sign),
        cmocka_unit_test(test_q3_left_out_own_token),
        cmocka_unit_test(test_q3_sigmoid),
        cmocka_unit_test(test_q3_rounding),
        cmocka_unit_test(test_q3_malformed_is_not_an_attempt),
        cmocka_unit_test(test_answer_too_long),
        cmocka_unit_test(test_q3_feedback_walks_the_steps),
        cmocka_unit_test(test_case11_decimal_comma_and_percent),
        cmocka_unit_test(test_numeric_tolerances),
        cmocka_unit_test(test_numeric_unordered),
        cmocka_unit_test(test_attention_weights),
        cmocka_unit_test(test_attention_output),
        cmocka_unit_test(test_attention_causal),
        cmocka_unit_test(test_bad_question),
        cmocka_unit_test(test_random_answers_are_graded),
        cmocka_unit_test(test_q3_free_sentences),
        cmocka_unit_test(test_q3_free_sentences_wrong),
        cmocka_unit_test(test_q3_ends_on),
        cmocka_unit_test(test_q3_worked_answers_end_on),
        cmocka_unit_test(test_q3_first_try_gives_nothing_away),
        cmocka_unit_test(test_numeric_whole_and_default_tolerance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
