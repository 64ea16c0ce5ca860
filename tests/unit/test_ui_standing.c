/* Where a question stands from its progress record: the best result counts, so a
 * question once answered right stays right after a later wrong try (the home marks
 * and the self-test summary both use ui_question_standing). */
#include "check.h"

#include "ui/question.h"

static void test_never_tried(void **st)
{
    (void)st;
    assert_int_equal(ui_question_standing(NULL), QZ_REC_NONE);
    qz_answer_rec r = {.verdict = QZ_REC_NONE, .attempts = 0};
    assert_int_equal(ui_question_standing(&r), QZ_REC_NONE);
}

static void test_right_then_wrong_stays_right(void **st)
{
    (void)st;
    /* the report: sdp-1 right once, then wrong: best 1, correct 1, last verdict wrong */
    qz_answer_rec r = {.verdict = QZ_REC_WRONG, .score = 0, .best = 1, .attempts = 2, .correct = 1};
    assert_int_equal(ui_question_standing(&r), QZ_REC_CORRECT);
}

static void test_partly_then_wrong_stays_partly(void **st)
{
    (void)st;
    qz_answer_rec r = {.verdict = QZ_REC_WRONG, .score = 0, .best = 0.5, .attempts = 2, .correct = 0};
    assert_int_equal(ui_question_standing(&r), QZ_REC_PARTIAL);
}

static void test_only_wrong(void **st)
{
    (void)st;
    qz_answer_rec r = {.verdict = QZ_REC_WRONG, .score = 0, .best = 0, .attempts = 3, .correct = 0};
    assert_int_equal(ui_question_standing(&r), QZ_REC_WRONG);
}

static void test_own_grade_kept_apart(void **st)
{
    (void)st;
    /* the student's own verdict does not change the automatic standing */
    qz_answer_rec r = {.verdict = QZ_REC_WRONG, .best = 0, .attempts = 1, .self = QZ_REC_CORRECT};
    assert_int_equal(ui_question_standing(&r), QZ_REC_WRONG);
}

static void test_review_is_not_wrong(void **st)
{
    (void)st;
    /* only a review (the grader could not judge): to grade oneself, not wrong */
    qz_answer_rec r = {.verdict = QZ_REC_REVIEW, .attempts = 0};
    assert_int_equal(ui_question_standing(&r), QZ_REC_REVIEW);
    /* then graded by the student: their grade stands */
    r.self = QZ_REC_PARTIAL;
    assert_int_equal(ui_question_standing(&r), QZ_REC_PARTIAL);
    /* a review after a right answer leaves it right */
    qz_answer_rec t = {.verdict = QZ_REC_REVIEW, .best = 1, .attempts = 1, .correct = 1};
    assert_int_equal(ui_question_standing(&t), QZ_REC_CORRECT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_never_tried),
        cmocka_unit_test(test_right_then_wrong_stays_right),
        cmocka_unit_test(test_partly_then_wrong_stays_partly),
        cmocka_unit_test(test_only_wrong),
        cmocka_unit_test(test_own_grade_kept_apart),
        cmocka_unit_test(test_review_is_not_wrong),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
