/* Lesson questions (loaded by src/lesson) bound to the grader, and the ids of the
 * command line. */
#include "check.h"
#include "quiz/bind.h"

#include <math.h>
#include <string.h>

static const char lesson_yaml[] =
    "id: bind-test\n"
    "lang: en\n"
    "title: Binding\n"
    "steps:\n"
    "  - question:\n"
    "      id: s1\n"
    "      kind: softmax\n"
    "      prompt: Weights of b and the third token.\n"
    "      tokens: [a, b, c]\n"
    "      scores: [1, 1, 0]\n"
    "      ask: [b, '3']\n"
    "      decimals: 3\n"
    "  - question:\n"
    "      id: a1\n"
    "      kind: attention\n"
    "      prompt: Row 3 of a causal attention.\n"
    "      q: [[1, 0], [0, 1], [1, 1]]\n"
    "      k: [[1, 0], [0, 1], [1, 1]]\n"
    "      v: [[1, 2], [3, 4], [5, 6]]\n"
    "      mask: [[1, 0, 0], [1, 1, 0], [1, 0, 1]]\n"
    "      ask: weights\n"
    "      row: 3\n"
    "  - question:\n"
    "      id: n1\n"
    "      kind: numeric\n"
    "      prompt: How many?\n"
    "      value: 1050624\n"
    "      relative: 0.001\n"
    "  - question:\n"
    "      id: c1\n"
    "      kind: choice\n"
    "      prompt: Where does Q come from?\n"
    "      options:\n"
    "        - {text: the encoder, correct: false, feedback: That is K and V.}\n"
    "        - {text: the decoder, correct: true, feedback: Yes.}\n"
    "  - question:\n"
    "      id: t1\n"
    "      kind: text\n"
    "      prompt: Why √d_k?\n"
    "      rubric:\n"
    "        - {concept: variance grows, synonyms: [variance, 方差]}\n"
    "        - {concept: softmax saturates, synonyms: [saturate, 饱和]}\n"
    "      min_concepts: 1\n"
    "      reference: The variance of q·k grows with d_k.\n"
    "  - question:\n"
    "      id: f1\n"
    "      kind: formula\n"
    "      prompt: The formula?\n"
    "      canonical: softmax(Q K^T / sqrt(d_k)) V\n"
    "      follow_up: t1\n";

static at_lesson *load_lesson(void)
{
    return check_lesson("bind-test.yaml", lesson_yaml);
}

static qz_verdict grade(const at_lesson *l, const char *qid, const char *answer, qz_result *r)
{
    return check_grade(l, 0, qid, answer, QZ_EN, r);
}

static void test_softmax_ask_by_text_and_position(void **state)
{
    at_lesson *l = load_lesson();
    qz_result r;
    /* softmax(1, 1, 0): b = e/(2e+1) = 0.4223, c = 1/(2e+1) = 0.1554 */
    assert_int_equal(grade(l, "s1", "0.422 0.155", &r), QZ_CORRECT);
    assert_true(fabs(r.expected_values[0] - M_E / (2 * M_E + 1)) < 1e-12);
    assert_true(fabs(r.expected_values[1] - 1 / (2 * M_E + 1)) < 1e-12);
    assert_string_equal(r.expected, "0.422 0.155");
    qz_result_free(&r);
    assert_int_equal(grade(l, "s1", "c=0.155 b=0.422", &r), QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(grade(l, "s1", "0.42 0.16", &r), QZ_PARTIAL);   /* 3 decimals asked */
    assert_int_equal(r.mistake, QZ_M_ROUNDING);
    qz_result_free(&r);
    at_lesson_free(l);
}

static void test_attention_with_mask_rows(void **state)
{
    at_lesson *l = load_lesson();
    qz_result r;
    /* Row 3 sees keys 1 and 3: scores 1/√2 and 2/√2 → 0.3302, 0, 0.6698. */
    assert_int_equal(grade(l, "a1", "0.33 0 0.67", &r), QZ_CORRECT);
    assert_true(r.expected_values[1] == 0.0);
    assert_true(fabs(r.expected_values[0] - 1 / (1 + exp(1 / sqrt(2)))) < 1e-6);
    qz_result_free(&r);
    at_lesson_free(l);
}

static void test_numeric_choice_text(void **state)
{
    at_lesson *l = load_lesson();
    qz_result r;
    assert_int_equal(grade(l, "n1", "1050000", &r), QZ_CORRECT);   /* within 0.1 % */
    qz_result_free(&r);
    assert_int_equal(grade(l, "n1", "1048576", &r), QZ_WRONG);
    qz_result_free(&r);
    assert_int_equal(grade(l, "c1", "b", &r), QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(grade(l, "c1", "the encoder", &r), QZ_WRONG);
    assert_non_null(strstr(r.feedback, "That is K and V."));
    qz_result_free(&r);
    assert_int_equal(grade(l, "t1", "因为方差会变大", &r), QZ_CORRECT);
    qz_result_free(&r);
    at_lesson_free(l);
}

/* A formula question's follow_up is bound from its lesson and grades the words beside
 * the formula; one that names no text question is a lint error. */
static void test_formula_follow_up(void **state)
{
    at_lesson *l = load_lesson();
    const at_question *q = at_lesson_find_question(l, "f1", NULL);
    qz_bound b;
    at_error err;
    assert_int_equal(qz_bind_lesson_question(l, q, &b, &err), AT_OK);
    assert_non_null(b.q.follow_up);
    assert_string_equal(b.q.follow_up->id, "t1");
    qz_result r;
    assert_int_equal(qz_grade(&b.q, "softmax(QKᵀ/√dₖ)V: the variance of the dot products grows with d_k",
                              QZ_EN, &r, &err), AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    assert_non_null(strstr(r.feedback, "as question t1 grades them: Correct"));
    qz_result_free(&r);
    qz_bound_free(&b);
    assert_int_equal(qz_bind_question(q, &b, &err), AT_OK);   /* without the lesson: none */
    assert_null(b.q.follow_up);
    qz_bound_free(&b);
    at_lesson_free(l);

    static const char bad[] = "id: bad\nlang: en\ntitle: Bad\nsteps:\n"
                              "  - question: {id: f1, kind: formula, prompt: p, canonical: Q, follow_up: f2}\n"
                              "  - question: {id: f2, kind: formula, prompt: p, canonical: K}\n";
    at_diag_list d = {0};
    l = NULL;
    at_lesson_load_data("bad.yaml", bad, strlen(bad), &l, &d);
    int named = 0;
    for (size_t i = 0; i < d.count; i++)
        named |= strstr(d.items[i].msg, "`follow_up` 'f2' is not a text question") != NULL;
    assert_true(named);
    at_diag_list_free(&d);
    at_lesson_free(l);
}

static void test_ids(void **state)
{
    char lesson[32], q[32];
    assert_int_equal(qz_split_id("q3", lesson, q, sizeof lesson), 0);
    assert_string_equal(lesson, "self-test");
    assert_string_equal(q, "q3");
    assert_int_equal(qz_split_id("masking:q2", lesson, q, sizeof lesson), 0);
    assert_string_equal(lesson, "masking");
    assert_string_equal(q, "q2");
    assert_int_equal(qz_split_id(":q2", lesson, q, sizeof lesson), -1);
    assert_int_equal(qz_split_id("masking:", lesson, q, sizeof lesson), -1);
    assert_int_equal(qz_split_id("a-lesson-name-longer-than-the-buffer:q1", lesson, q, sizeof lesson), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_softmax_ask_by_text_and_position),
        cmocka_unit_test(test_attention_with_mask_rows),
        cmocka_unit_test(test_numeric_choice_text),
        cmocka_unit_test(test_formula_follow_up),
        cmocka_unit_test(test_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
