/* Numeric slips: a wrong value a question names (a lesson's `slips`, a practice
 * exercise's) is diagnosed by the slip it shows, before the right answer is given away;
 * a value that is no slip gets no such line; a lesson's slips reach the grader through
 * the binding; the practice exercise on multi-head parameters names W_O left out. */
#define _GNU_SOURCE
#include "check.h"
#include "lesson/lesson.h"
#include "quiz/bind.h"
#include "quiz/practice.h"
#include "quiz/quiz.h"

#include <stdlib.h>
#include <string.h>

static qz_result grade(const qz_question *q, const char *answer, qz_lang lang)
{
    qz_result r;
    at_error err;
    if (qz_grade(q, answer, lang, &r, &err)) {
        print_error("grading '%s': %s\n", answer, err.msg);
        fail();
    }
    return r;
}

/* The part of the feedback shown before a retry (before reveal_at). */
static char *before_reveal(const qz_result *r)
{
    return strndup(r->feedback, r->reveal_at);
}

static void test_slip_named_without_the_answer(void **state)
{
    static const double want[] = {21};
    static const qz_slip slips[] = {{36, "You counted all n² pairs."},
                                    {15, "You left out the diagonal.\n"}};
    qz_question q = qz_question_init(QZ_NUMERIC);
    q.values = want;
    q.n_values = 1;
    q.tolerance = 0;
    q.slips = slips;
    q.n_slips = 2;
    qz_result r = grade(&q, "36", QZ_EN);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_int_equal(r.mistake, QZ_M_SLIP);
    assert_string_equal(qz_mistake_name(r.mistake), "slip");
    char *shown = before_reveal(&r);
    assert_non_null(strstr(shown, "You counted all n² pairs.\n"));
    assert_null(strstr(shown, "21"));   /* the right value waits for a retry */
    assert_non_null(strstr(r.feedback + r.reveal_at, "21"));
    free(shown);
    qz_result_free(&r);
    r = grade(&q, "15 pairs", QZ_EN);
    assert_int_equal(r.mistake, QZ_M_SLIP);
    shown = before_reveal(&r);
    assert_non_null(strstr(shown, "You left out the diagonal.\n"));
    assert_null(strstr(shown, "diagonal.\n\n"));   /* the trailing newline is not doubled */
    free(shown);
    qz_result_free(&r);
    r = grade(&q, "20", QZ_EN);   /* no slip */
    assert_int_equal(r.mistake, QZ_M_NONE);
    assert_null(strstr(r.feedback, "counted"));
    qz_result_free(&r);
    r = grade(&q, "21", QZ_EN);
    assert_int_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
}

static const char *slip_lesson =
    "id: s\nlang: zh\ntitle: S\nsteps:\n"
    "  - question:\n"
    "      id: mh\n      kind: numeric\n      prompt: 多少？\n"
    "      value: 1048576\n      tolerance: 0\n"
    "      slips:\n"
    "        - value: 786432\n"
    "          feedback: 你漏了 W_O。\n";

static void test_lesson_slips_bound(void **state)
{
    at_diag_list d = {0};
    at_lesson *l = NULL;
    at_lesson_load_data("s.yaml", slip_lesson, strlen(slip_lesson), &l, &d);
    assert_non_null(l);
    qz_bound b;
    at_error err;
    assert_int_equal(qz_bind_question(l->doc->steps[0].question, &b, &err), AT_OK);
    assert_int_equal(b.q.n_slips, 1);
    qz_result r = grade(&b.q, "786432", QZ_ZH);
    assert_int_equal(r.mistake, QZ_M_SLIP);
    assert_non_null(strstr(r.feedback, "你漏了 W_O。"));
    qz_result_free(&r);
    qz_bound_free(&b);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* Practice seed 1 of `heads`: d_model = 256, 2 heads, no biases; 3 · 256² = 196608 is
 * W_Q, W_K, W_V without W_O. */
static void test_practice_heads_wo(void **state)
{
    qz_exercise e;
    at_error err;
    assert_int_equal(qz_practice_make(QZ_P_HEADS, 1, QZ_EN, &e, &err), AT_OK);
    assert_non_null(strstr(e.prompt, "d_model = 256"));
    qz_result r = grade(&e.q, "196608", QZ_EN);
    assert_int_equal(r.mistake, QZ_M_SLIP);
    char *shown = before_reveal(&r);
    assert_non_null(strstr(shown, "left out W_O"));
    assert_null(strstr(shown, "262144"));
    free(shown);
    qz_result_free(&r);
    r = grade(&e.q, "262144", QZ_EN);
    assert_int_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
    qz_exercise_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slip_named_without_the_answer),
        cmocka_unit_test(test_lesson_slips_bound),
        cmocka_unit_test(test_practice_heads_wo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
