/* Text rubrics with structure: concepts stated by several words in one clause
 * (`together`) and wrong statements (`contradicts`), on the shipped self-test in
 * both languages and on small rubrics written here. */
#include "check.h"
#include "quiz/bind.h"
#include "quiz/rubric.h"

#include <string.h>

static at_lesson *load(const char *lang)
{
    char path[64];
    snprintf(path, sizeof path, "lessons/%s/10-self-test.yaml", lang);
    at_lesson *l = NULL;
    at_diag_list d = {0};
    if (at_lesson_load(path, &l, &d)) {
        at_diag_print(&d, stderr);
        fail();
    }
    at_diag_list_free(&d);
    return l;
}

/* Grade answer to question qid of the self-test in lang; r is filled in. */
static qz_verdict grade(const char *lang, const char *qid, const char *answer, qz_result *r)
{
    at_lesson *l = load(lang);
    const at_question *q = at_lesson_find_question(l, qid, NULL);
    assert_non_null(q);
    qz_bound b;
    at_error err;
    if (qz_bind_question(q, &b, &err)) {
        print_error("%s: %s\n", qid, err.msg);
        fail();
    }
    assert_int_equal(qz_grade(&b.q, answer, !strcmp(lang, "zh") ? QZ_ZH : QZ_EN, r, &err), AT_OK);
    qz_bound_free(&b);
    at_lesson_free(l);
    return r->verdict;
}

static void expect(const char *lang, const char *qid, const char *answer, qz_verdict v,
                   const char *feedback_part)
{
    qz_result r;
    qz_verdict got = grade(lang, qid, answer, &r);
    if (got != v || (feedback_part && !strstr(r.feedback, feedback_part))) {
        print_error("%s %s: \"%s\"\nverdict %s, expected %s; feedback:\n%s\n", lang, qid, answer,
                    qz_verdict_name(got), qz_verdict_name(v), r.feedback);
        qz_result_free(&r);
        fail();
    }
    qz_result_free(&r);
}

/* Every text question's own reference answer is graded correct. */
static void test_references_correct(void **state)
{
    (void)state;
    static const char *const langs[] = {"en", "zh"}, *const ids[] = {"q1", "q2b", "q4", "q5"};
    for (size_t i = 0; i < 2; i++) {
        at_lesson *l = load(langs[i]);
        for (size_t k = 0; k < 4; k++) {
            const at_question *q = at_lesson_find_question(l, ids[k], NULL);
            assert_non_null(q);
            assert_non_null(q->reference);
            expect(langs[i], ids[k], q->reference, QZ_CORRECT, NULL);
        }
        at_lesson_free(l);
    }
}

static void test_q4_swapped_roles_wrong(void **state)
{
    (void)state;
    expect("en", "q4", "Q comes from the encoder, K and V come from the decoder. It aligns the words.",
           QZ_WRONG, "you wrote that Q comes from the encoder: in cross-attention the queries come "
                     "from the decoder");
    expect("en", "q4", "Q comes from the encoder, K and V come from the decoder.", QZ_WRONG,
           "you wrote that K and V come from the decoder");
    expect("zh", "q4", "Q 来自编码器，K 和 V 来自解码器，用来对齐源语言和目标语言。", QZ_WRONG,
           "你写的是 Q 来自编码器：交叉注意力的 query 来自解码器");
    expect("zh", "q4", "Q 来自编码器，K 和 V 来自解码器。", QZ_WRONG, "你写的是 K 和 V 来自解码器");
    /* One role swapped is not a full answer either. */
    expect("en", "q4", "The queries come from the decoder; the keys and values come from the decoder "
                       "too. It aligns the translation.", QZ_PARTIAL, "K and V come from the decoder");
}

static void test_q4_natural_phrasings_right(void **state)
{
    (void)state;
    expect("en", "q4", "The queries are the decoder's hidden states; keys and values are the encoder "
                       "outputs. This aligns the translation with the source sentence.", QZ_CORRECT, NULL);
    expect("zh", "q4", "Q 来自解码器，K 和 V 来自编码器的输出，作用是把译文和源句对齐。", QZ_CORRECT, NULL);
    expect("en", "q4", "The decoder provides the queries, the encoder provides the keys and values; "
                       "used for translation.", QZ_CORRECT, NULL);
    expect("zh", "q4", "查询来自解码器，而键和值来自编码器，用于翻译时对齐。", QZ_CORRECT, NULL);
    /* A Chinese answer may use the English words, and the other way round. */
    expect("zh", "q4", "Q from the decoder, K and V from the encoder, for alignment.", QZ_CORRECT, NULL);
}

/* q5: a decoder is wrong, and it cancels a right idea found elsewhere; negated forms
 * are right. */
static void test_q5_decoder_is_not_encoder_only(void **state)
{
    (void)state;
    expect("en", "q5", "Use a decoder, and read the label from the CLS token.", QZ_WRONG,
           "you wrote that a decoder is needed");
    expect("en", "q5", "You need a decoder.", QZ_WRONG, "you wrote that a decoder is needed");
    expect("zh", "q5", "需要解码器，用 [CLS] 读出。", QZ_WRONG, "你写的是需要解码器");
    expect("en", "q5", "Encoder only: we don't need a decoder. Read the label from the CLS token.",
           QZ_CORRECT, NULL);
    expect("zh", "q5", "不需要解码器，没有必要用解码器，用 [CLS] 读出。", QZ_CORRECT, NULL);
    /* The question repeated as a question states nothing. */
    expect("en", "q5", "Is the encoder enough or do we need a decoder? The encoder alone is enough, "
                       "read out by pooling.", QZ_CORRECT, NULL);
}

static void test_q1_swapped_wrong(void **state)
{
    (void)state;
    expect("en", "q1", "In self-attention information goes step by step, while an RNN connects any "
                       "two positions in one step.", QZ_WRONG, "that is the RNN");
    expect("zh", "q1", "自注意力要逐步传递，而 RNN 任意两个位置一步到位。", QZ_WRONG, "逐步传递的是 RNN");
    expect("en", "q1", "An RNN needs N steps to link words N apart, while self-attention links them in "
                       "one step.", QZ_CORRECT, NULL);
    expect("zh", "q1", "RNN 要一步一步传递，自注意力任意两个位置直接相连。", QZ_CORRECT, NULL);
    /* "one step at a time" is the RNN, not "one step apart". */
    expect("en", "q1", "An RNN passes information one step at a time.", QZ_PARTIAL, NULL);
}

static void test_q2b_exploding_gradients_wrong(void **state)
{
    (void)state;
    expect("en", "q2b", "The variance grows with d_k, so softmax saturates and the gradients explode.",
           QZ_PARTIAL, "they do not explode");
    expect("zh", "q2b", "方差随维度增大，softmax 饱和，梯度消失。", QZ_CORRECT, NULL);
}

static const char *const role_q = "Q | query | 查询", *const role_kv = "K | V | keys | values | 值";
static const char *const dec = "decoder | 解码器", *const enc = "encoder | 编码器";

/* The rules on a small rubric: clauses, the question-mark clause, ties, inner phrases. */
/* A concept (or a contradiction) inside a negated clause is not stated. */
static void test_negation(void **state)
{
    (void)state;
    expect("en", "q4", "Q does not come from the decoder; K and V do not come from the encoder; it "
           "does not align target words with source words.", QZ_WRONG, "None of the key ideas");
    expect("zh", "q4", "Q不是来自解码器，K和V不是来自编码器，它不让解码器关注源句子。", QZ_WRONG, NULL);
    expect("en", "q1", "In an RNN the distance does not grow with the gap; in self-attention two "
           "positions are not one step apart.", QZ_WRONG, NULL);
    expect("en", "q1", "An RNN never goes step by step; self-attention doesn't connect positions "
           "directly.", QZ_WRONG, NULL);
    /* "not X but Y": X denied, Y stated */
    expect("en", "q4", "Q comes not from the encoder but from the decoder; K and V come from the "
           "encoder output; it aligns target words with source words.", QZ_CORRECT, NULL);
    expect("zh", "q4", "Q不是来自编码器，而是来自解码器；K和V来自编码器，它让目标词和源句对齐。",
           QZ_CORRECT, NULL);
    /* a denied contradiction is no contradiction */
    expect("en", "q4", "Q comes from the decoder and not from the encoder; K and V come from the "
           "encoder; it aligns target words with source words.", QZ_CORRECT, NULL);
    /* a negated wrong statement is right */
    expect("en", "q5", "You don't need a decoder; read out the [CLS] token.", QZ_CORRECT, NULL);
    expect("zh", "q5", "没有必要用解码器，用 [CLS] 的向量接线性层。", QZ_CORRECT, NULL);
}

static void test_rules(void **state)
{
    (void)state;
    const char *q_dec[] = {role_q, dec}, *q_enc[] = {role_q, enc};
    const char *kv_enc[] = {role_kv, enc}, *kv_dec[] = {role_kv, dec};
    qz_contradiction x1 = {NULL, 0, q_enc, 2, "Q is not from the encoder"};
    qz_contradiction x2 = {NULL, 0, kv_dec, 2, "K, V are not from the decoder"};
    qz_concept rubric[2] = {
        {"Q from the decoder", NULL, 0, q_dec, 2, &x1, 1},
        {"K, V from the encoder", NULL, 0, kv_enc, 2, &x2, 1},
    };
    qz_judgement j[2];
    size_t n = 9;
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q, decoder. K, V, encoder", j, &n, NULL), AT_OK);
    /* Commas end clauses: "Q, decoder" puts Q and decoder in two clauses. */
    assert_int_equal(n, 0);
    assert_null(j[0].wrong);
    /* A colon does not: "Q: decoder" is a label and what it says. */
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q: decoder. K and V: encoder", j, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q: encoder. K and V: decoder", j, &n, NULL), AT_OK);
    assert_int_equal(n, 0);
    assert_ptr_equal(j[0].wrong, &x1);
    assert_ptr_equal(j[1].wrong, &x2);
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q is the decoder state; V is the encoder output",
                                     j, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(j[0].found, 1);
    assert_int_equal(j[1].found, 1);
    /* Both roles and both sources in one clause: a tie, so neither found nor wrong. */
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q and V from the decoder or the encoder", j, &n,
                                     NULL), AT_OK);
    assert_int_equal(n, 0);
    assert_null(j[0].wrong);
    assert_null(j[1].wrong);
    /* "and" ends a clause after a role paired with its source, not inside "K and V". */
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q from the decoder and K and V from the encoder",
                                     j, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q from the encoder and K and V from the decoder",
                                     j, &n, NULL), AT_OK);
    assert_int_equal(n, 0);
    assert_ptr_equal(j[0].wrong, &x1);
    assert_ptr_equal(j[1].wrong, &x2);
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q 来自解码器和 K 和 V 来自编码器", j, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    /* "Q and K from the encoder": Q alone pairs nothing, so Q is from the encoder too. */
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q and K from the encoder", j, &n, NULL), AT_OK);
    assert_ptr_equal(j[0].wrong, &x1);
    assert_int_equal(j[1].found, 1);
    /* A contradiction in one clause wins over the concept found in another. */
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q from the decoder. Also Q from the encoder", j, &n,
                                     NULL), AT_OK);
    assert_int_equal(n, 0);
    assert_ptr_equal(j[0].wrong, &x1);
    /* A repeated question says nothing. */
    assert_int_equal(qz_rubric_judge(rubric, 2, "Does Q come from the encoder? Q is the decoder's",
                                     j, &n, NULL), AT_OK);
    assert_int_equal(n, 1);
    assert_null(j[0].wrong);
    /* Contrast words end a clause. */
    assert_int_equal(qz_rubric_judge(rubric, 2, "Q from the decoder whereas V from the encoder",
                                     j, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(qz_rubric_judge(rubric, 2, "查询来自解码器而值来自编码器", j, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(qz_rubric_judge(rubric, 2, "\xff", j, &n, NULL), AT_EUTF8);
}

/* The textbook cross-attention answer; every role swapped stays wrong. */
static void test_q4_and_joins_two_statements(void **state)
{
    (void)state;
    expect("en", "q4", "Q from the decoder and K and V from the encoder", QZ_PARTIAL,
           "Missing:\n  ✗ it aligns target words with the relevant source words");
    expect("en", "q4", "Q from the decoder and K and V from the encoder, so the translation is "
                       "aligned with the source.", QZ_CORRECT, NULL);
    expect("en", "q4", "Q from the encoder and K and V from the decoder", QZ_WRONG,
           "you wrote that K and V come from the decoder");
    expect("en", "q4", "Q comes from the encoder, K and V from the decoder", QZ_WRONG,
           "you wrote that Q comes from the encoder");
    expect("en", "q4", "Q comes from the encoder and K and V from the decoder", QZ_WRONG,
           "you wrote that Q comes from the encoder");
    expect("zh", "q4", "Q 来自解码器并且 K 和 V 来自编码器，用于对齐。", QZ_CORRECT, NULL);
    /* a negated first half denies only itself */
    expect("en", "q4", "Q does not come from the encoder and K and V come from the decoder", QZ_WRONG,
           "you wrote that K and V come from the decoder");
}

/* q1: a colon introduces what a label says; wordings close to the idea's own. */
static void test_q1_phrasings(void **state)
{
    (void)state;
    expect("en", "q1", "RNN: the path between two words is N steps long. Self-attention: one step.",
           QZ_CORRECT, NULL);
    expect("zh", "q1", "RNN 中距离随间隔增长，自注意力中任意两个位置只隔一步。", QZ_CORRECT, NULL);
    expect("zh", "q1", "RNN 的依赖距离随间隔增长；自注意力中任意两个位置直接相连。", QZ_CORRECT, NULL);
    /* the idea's own words, without its aside in parentheses */
    expect("zh", "q1", "RNN 中依赖距离随位置间隔增长；自注意力中任意两个位置直接相连。", QZ_CORRECT, NULL);
    /* swapped stays wrong */
    expect("en", "q1", "RNN: one step. Self-attention: N steps.", QZ_WRONG, "that is the RNN");
    expect("zh", "q1", "自注意力中距离随间隔增长，RNN 中任意两个位置只隔一步。", QZ_WRONG, "逐步传递的是");
    /* "one step at a time" holds "one step" but is the RNN's */
    expect("en", "q1", "Self-attention goes one step at a time.", QZ_WRONG, "that is the RNN");
    expect("en", "q1", "An RNN goes one step at a time; self-attention: one step.", QZ_CORRECT, NULL);
}

/* A contradicting phrase inside one of the concept's synonyms does not count. */
static void test_phrase_inside_synonym(void **state)
{
    (void)state;
    const char *syn[] = {"不需要解码器", "don't need a decoder"};
    const char *bad[] = {"需要解码器", "need a decoder"};
    qz_contradiction x = {bad, 2, NULL, 0, "a decoder is not needed"};
    qz_concept c = {"encoder only", syn, 2, NULL, 0, &x, 1};
    qz_judgement j;
    size_t n;
    assert_int_equal(qz_rubric_judge(&c, 1, "不需要解码器", &j, &n, NULL), AT_OK);
    assert_int_equal(j.found, 1);
    assert_int_equal(qz_rubric_judge(&c, 1, "We don't need a decoder.", &j, &n, NULL), AT_OK);
    assert_int_equal(j.found, 1);
    assert_int_equal(qz_rubric_judge(&c, 1, "需要解码器", &j, &n, NULL), AT_OK);
    assert_ptr_equal(j.wrong, &x);
    assert_int_equal(qz_rubric_judge(&c, 1, "We need a decoder", &j, &n, NULL), AT_OK);
    assert_ptr_equal(j.wrong, &x);
    assert_int_equal(j.found, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_references_correct),
        cmocka_unit_test(test_q4_swapped_roles_wrong),
        cmocka_unit_test(test_q4_natural_phrasings_right),
        cmocka_unit_test(test_q5_decoder_is_not_encoder_only),
        cmocka_unit_test(test_q1_swapped_wrong),
        cmocka_unit_test(test_q2b_exploding_gradients_wrong),
        cmocka_unit_test(test_negation),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_phrase_inside_synonym),
        cmocka_unit_test(test_q4_and_joins_two_statements),
        cmocka_unit_test(test_q1_phrasings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
