/* A lesson's own `misconceptions`: false claims of the field beside the answer to any of
 * its text questions (and to the words beside a formula or values), counted as a
 * question's own of the same name, and linted. (That they are read apart from the key
 * ideas is tested on the self-test's own rubric: test_quiz_rubric.c.) */
#include "check.h"

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
    "      - phrases: [in parallel, all at once]\n"
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

/* The lesson, loaded once for the group. */
static int setup(void **state)
{
    *state = check_lesson("wide.yaml", lesson_yaml);
    return 0;
}

static int teardown(void **state)
{
    at_lesson_free(*state);
    return 0;
}

/* The verdict of answer to qid, bound with the lesson; the feedback must hold needle
 * (NULL: anything) and the mistake be m. */
static void expect(void **state, const char *qid, const char *answer, qz_verdict v, qz_mistake m,
                   const char *needle)
{
    qz_result r;
    qz_verdict got = check_grade(*state, 1, qid, answer, QZ_EN, &r);
    if (got != v || r.mistake != m || (needle && !strstr(r.feedback, needle)))
        fail_msg("%s '%s': %s, mistake %s (want %s, %s, '%s')\n%s", qid, answer,
                 qz_verdict_name(got), qz_mistake_name(r.mistake), qz_verdict_name(v),
                 qz_mistake_name(m), needle ? needle : "", r.feedback);
    qz_result_free(&r);
}

/* A right answer with a false claim of the lesson beside it is wrong, the claim named;
 * the same answer without it is right; denied, the claim is true; alone, wrong. */
static void test_false_claim_beside(void **state)
{
    expect(state, "t1", "The variance grows with d_k, so softmax saturates.", QZ_CORRECT, QZ_M_NONE,
           NULL);
    expect(state, "t1", "The variance grows with d_k, so softmax saturates. By the way, BERT is "
                        "decoder-only.", QZ_WRONG, QZ_M_FALSE_CLAIM, "BERT is an encoder only");
    expect(state, "t1", "The variance grows with d_k, so softmax saturates; softmax is not "
                        "scale-invariant.", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(state, "t1", "BERT is decoder-only.", QZ_WRONG, QZ_M_FALSE_CLAIM, NULL);
}

/* A question's misconception of the same name is its own wording: off the point there
 * (a right answer that also says it stays right), a false claim elsewhere. The lesson's
 * phrasings the question's wording lacks ("all at once") count as the question's: alone,
 * off the point, the answer is wrong, named with the question's feedback. */
static void test_question_wording_wins(void **state)
{
    expect(state, "t2", "An RNN runs all at once.", QZ_WRONG, QZ_M_NONE,
           "speed is not the difference asked");
    expect(state, "t2", "Attention links any two positions in one step; an RNN runs all at once.",
           QZ_CORRECT, QZ_M_NONE, NULL);
    expect(state, "t2", "Attention links any two positions in one step; an RNN runs in parallel "
                        "too.", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(state, "t1", "The variance grows with d_k, so softmax saturates; an RNN runs in parallel "
                        "too.", QZ_WRONG, QZ_M_FALSE_CLAIM, "an RNN cannot run its time steps");
}

/* Beside a formula: a right formula with a false claim is wrong, the claim named. */
static void test_beside_formula(void **state)
{
    expect(state, "f1", "softmax(QK^T/sqrt(d_k))V, and softmax is scale-invariant", QZ_WRONG,
           QZ_M_MISCONCEPTION, "softmax changes when the scores are scaled");
    expect(state, "f1", "softmax(QK^T/sqrt(d_k))V", QZ_CORRECT, QZ_M_NONE, NULL);
}

/* Right values with a false claim of the lesson in the words beside them: wrong, the
 * claim named; a true remark beside them leaves them right. (b and c: e/(2e+1) =
 * 0.42 and 1/(2e+1) = 0.16, as the engine computes them.) */
static void test_beside_values(void **state)
{
    expect(state, "s1", "0.42 0.16", QZ_CORRECT, QZ_M_NONE, NULL);
    expect(state, "s1", "0.42 0.16; softmax is scale-invariant anyway", QZ_WRONG, QZ_M_FALSE_CLAIM,
           "softmax changes when the scores are scaled");
    expect(state, "s1", "0.42 0.16; softmax is not scale-invariant", QZ_CORRECT, QZ_M_NONE, NULL);
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
    at_lesson *l = NULL;
    at_diag_list d = {0};
    at_lesson_load_data("bad.yaml", bad, strlen(bad), &l, &d);
    assert_true(check_has_diag(&d, AT_DIAG_ERROR, "replaces no key idea"));
    assert_true(check_has_diag(&d, AT_DIAG_ERROR, "misconception name 'x' is used twice in this lesson"));
    assert_true(check_has_diag(&d, AT_DIAG_ERROR, "this claim says nothing"));
    at_lesson_free(l);
    at_diag_list_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_false_claim_beside),
        cmocka_unit_test(test_question_wording_wins),
        cmocka_unit_test(test_beside_formula),
        cmocka_unit_test(test_beside_values),
        cmocka_unit_test(test_lint),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
