/* A lesson's own `misconceptions`: false claims of the field beside the answer to any of
 * its text questions (and to the words beside a formula), read apart from the question's
 * key ideas, replaced by a question's own of the same name, and linted. */
#include "check.h"
#include "quiz/bind.h"

#include <string.h>

static const char lesson_yaml[] =
    "id: wide\n"
    "lang: en\n"
    "title: Lesson-wide\n"
    "misconceptions:\n"
    "  - name: softmax-scale-invariant\n"
    "    feedback: softmax changes when the scores are scaled\n"
    "    subject: [softmax, weights]\n"
    "    claims:\n"
    "      - phrases: [scale-invariant, unchanged by scaling]\n"
    "  - name: bert-decoder\n"
    "    feedback: BERT is an encoder only\n"
    "    subject: [bert]\n"
    "    claims:\n"
    "      - phrases: [decoder-only, causal mask]\n"
    "  - name: rnn-parallel\n"
    "    feedback: an RNN cannot run its time steps in parallel\n"
    "    subject: [rnn]\n"
    "    claims:\n"
    "      - phrases: [in parallel]\n"
    "steps:\n"
    "  - question:\n"
    "      id: t1\n"
    "      kind: text\n"
    "      prompt: Why divide by the square root of d_k?\n"
    "      rubric:\n"
    "        - concept: the variance grows with d_k\n"
    "          subject: [variance]\n"
    "          claims:\n"
    "            - direction: up\n"
    "        - concept: softmax saturates\n"
    "          subject_implied: true\n"
    "          claims:\n"
    "            - phrases: [saturates]\n"
    "      reference: The variance grows with d_k and softmax saturates.\n"
    "  - question:\n"
    "      id: t2\n"
    "      kind: text\n"
    "      prompt: What differs between an RNN and self-attention?\n"
    "      rubric:\n"
    "        - concept: attention connects any two positions in one step\n"
    "          subject_implied: true\n"
    "          claims:\n"
    "            - phrases: [one step]\n"
    "      misconceptions:\n"
    "        - name: rnn-parallel\n"
    "          off_point: true\n"
    "          feedback: speed is not the difference asked\n"
    "          subject: [rnn]\n"
    "          claims:\n"
    "            - phrases: [in parallel]\n"
    "      reference: Any two positions meet in one step.\n"
    "  - question:\n"
    "      id: s1\n"
    "      kind: softmax\n"
    "      prompt: Weights of b and c.\n"
    "      tokens: [a, b, c]\n"
    "      scores: [1, 1, 0]\n"
    "      ask: [b, c]\n"
    "  - question:\n"
    "      id: f1\n"
    "      kind: formula\n"
    "      prompt: The formula?\n"
    "      canonical: softmax(Q K^T / sqrt(d_k)) V\n"
    "      follow_up: t1\n";

static at_lesson *load(const char *yaml, at_diag_list *d)
{
    at_lesson *l = NULL;
    at_lesson_load_data("wide.yaml", yaml, strlen(yaml), &l, d);
    return l;
}

static qz_verdict grade(const at_lesson *l, const char *qid, const char *answer, qz_result *r)
{
    const at_question *q = at_lesson_find_question(l, qid, NULL);
    assert_non_null(q);
    qz_bound b;
    at_error err;
    assert_int_equal(qz_bind_lesson_question(l, q, &b, &err), AT_OK);
    assert_int_equal(qz_grade(&b.q, answer, QZ_EN, r, &err), AT_OK);
    qz_bound_free(&b);
    return r->verdict;
}

/* A right answer with a false claim of the lesson beside it is partly right, the claim
 * named; the same answer without it is right; the claim alone is wrong. */
static void test_false_claim_beside(void **state)
{
    (void)state;
    at_diag_list d = {0};
    at_lesson *l = load(lesson_yaml, &d);
    assert_non_null(l);
    assert_int_equal(d.errors, 0);
    qz_result r;
    assert_int_equal(grade(l, "t1", "The variance grows with d_k, so softmax saturates.", &r), QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(grade(l, "t1", "The variance grows with d_k, so softmax saturates. By the way, "
                                    "BERT is decoder-only.", &r), QZ_PARTIAL);
    assert_int_equal(r.mistake, QZ_M_FALSE_CLAIM);
    assert_non_null(strstr(r.feedback, "BERT is an encoder only"));
    qz_result_free(&r);
    /* denied, it is true: nothing wrong stated */
    assert_int_equal(grade(l, "t1", "The variance grows with d_k, so softmax saturates; softmax is "
                                    "not scale-invariant.", &r), QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(grade(l, "t1", "BERT is decoder-only.", &r), QZ_WRONG);
    assert_int_equal(r.mistake, QZ_M_FALSE_CLAIM);
    qz_result_free(&r);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* The lesson's subjects do not take the question's claims: "softmax" is a subject of a
 * lesson misconception, yet "softmax saturates" still states the key idea said of no
 * subject of the question's own. */
static void test_read_apart(void **state)
{
    (void)state;
    at_diag_list d = {0};
    at_lesson *l = load(lesson_yaml, &d);
    qz_result r;
    assert_int_equal(grade(l, "t1", "Softmax saturates because the variance grows with d_k.", &r),
                     QZ_CORRECT);
    qz_result_free(&r);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* A question's misconception of the same name is its own wording: off the point there
 * (a right answer that also says it stays right), a false claim elsewhere. */
static void test_question_wording_wins(void **state)
{
    (void)state;
    at_diag_list d = {0};
    at_lesson *l = load(lesson_yaml, &d);
    qz_result r;
    assert_int_equal(grade(l, "t2", "Attention links any two positions in one step; an RNN runs in "
                                    "parallel too.", &r), QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(grade(l, "t1", "The variance grows with d_k, so softmax saturates; an RNN runs "
                                    "in parallel too.", &r), QZ_PARTIAL);
    qz_result_free(&r);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* Beside a formula: a right formula with a false claim is partly right; one slip with a
 * false claim (which may be the slip in words) stays partly right. */
static void test_beside_formula(void **state)
{
    (void)state;
    at_diag_list d = {0};
    at_lesson *l = load(lesson_yaml, &d);
    qz_result r;
    assert_int_equal(grade(l, "f1", "softmax(QK^T/sqrt(d_k))V, and softmax is scale-invariant", &r),
                     QZ_PARTIAL);
    assert_non_null(strstr(r.feedback, "softmax changes when the scores are scaled"));
    qz_result_free(&r);
    assert_int_equal(grade(l, "f1", "softmax(QK^T/sqrt(d_k))V", &r), QZ_CORRECT);
    qz_result_free(&r);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* Right values with a false claim of the lesson in the words beside them: partly right,
 * the claim named; a true remark beside them leaves them right. */
static void test_beside_values(void **state)
{
    (void)state;
    at_diag_list d = {0};
    at_lesson *l = load(lesson_yaml, &d);
    qz_result r;
    assert_int_equal(grade(l, "s1", "0.42 0.16", &r), QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(grade(l, "s1", "0.42 0.16; softmax is scale-invariant anyway", &r), QZ_PARTIAL);
    assert_non_null(strstr(r.feedback, "softmax changes when the scores are scaled"));
    qz_result_free(&r);
    assert_int_equal(grade(l, "s1", "0.42 0.16; softmax is not scale-invariant", &r), QZ_CORRECT);
    qz_result_free(&r);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

static int has_error(const at_diag_list *d, const char *text)
{
    for (size_t i = 0; i < d->count; i++)
        if (d->items[i].level == AT_DIAG_ERROR && strstr(d->items[i].msg, text))
            return 1;
    return 0;
}

/* A lesson misconception with `replaces`, or a name used twice, is an error at its line. */
static void test_lint(void **state)
{
    (void)state;
    static const char bad[] =
        "id: bad\nlang: en\ntitle: Bad\n"
        "misconceptions:\n"
        "  - {name: x, feedback: f, subject: [a], claims: [{phrases: [b]}], replaces: [1]}\n"
        "  - {name: x, feedback: f, subject: [a], claims: [{phrases: [c]}]}\n"
        "  - {name: y, feedback: f, subject: [a], claims: [{}]}\n"
        "steps:\n  - text: hello\n";
    at_diag_list d = {0};
    at_lesson *l = load(bad, &d);
    assert_true(has_error(&d, "replaces no key idea"));
    assert_true(has_error(&d, "misconception name 'x' is used twice in this lesson"));
    assert_true(has_error(&d, "this claim says nothing"));
    at_lesson_free(l);
    at_diag_list_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_false_claim_beside),
        cmocka_unit_test(test_read_apart),
        cmocka_unit_test(test_question_wording_wins),
        cmocka_unit_test(test_beside_formula),
        cmocka_unit_test(test_beside_values),
        cmocka_unit_test(test_lint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
