/* Text answers read as statements: direction, polarity, clauses, misconceptions,
 * salads and reviews, on the shipped self-test in both languages and on small rubrics
 * written here; the older rubric form still reads. */
#include "check.h"
#include "quiz/bind.h"
#include "quiz/rubric.h"
#include "quiz/statement.h"

#include <stdio.h>

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
    check_grade(l, 1, qid, answer, !strcmp(lang, "zh") ? QZ_ZH : QZ_EN, r);
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

/* The lesson's misconceptions (47 false claims, their subjects self-attention, RNN,
 * softmax, …) are read apart: their words change nothing in how q1's key ideas are read.
 * Read in the same pass, these right answers lose their ideas to those subjects. */
static void test_lesson_claims_read_apart(void **state)
{
    (void)state;
    expect("en", "q1", "With an RNN, how far apart two words are in the sentence = how many steps "
                       "the info must travel; with self-attention it doesn't matter where they are, "
                       "it's always one direct hop.", QZ_CORRECT, NULL);
    expect("zh", "q1", "RNN的依赖距离≈两位置间隔（最坏为序列长度N），Self-Attention 的依赖距离恒为1，"
                       "与位置远近无关。", QZ_CORRECT, NULL);
    expect("zh", "q1", "对RNN来说句首和句尾隔着整整N-1步；自注意力里句首句尾跟相邻词一样近，直接一跳。",
           QZ_CORRECT, NULL);
    /* and a false claim of the lesson beside them is named */
    expect("en", "q1", "With an RNN, how far apart two words are = how many steps the info must "
                       "travel; with self-attention it is always one direct hop. BERT is "
                       "decoder-only.", QZ_WRONG, "BERT is an encoder only");
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
    /* K and V from the decoder too: all from one side, the layer's purpose gone with it,
     * wrong, the wrong role named. */
    expect("en", "q4", "The queries come from the decoder; the keys and values come from the decoder "
                       "too. It aligns the translation.", QZ_WRONG, "K and V come from the decoder");
}

static void test_q4_natural_phrasings_right(void **state)
{
    (void)state;
    expect("en", "q4", "The queries are the decoder's hidden states; keys and values are the encoder "
                       "outputs. This aligns the translation with the source sentence.", QZ_CORRECT, NULL);
    expect("zh", "q4", "Q 来自解码器，K 和 V 来自编码器的输出，作用是把译文和源句对齐。", QZ_CORRECT, NULL);
    expect("en", "q4", "The decoder provides the queries, the encoder provides the keys and values; "
                       "used to align the translation with the source.", QZ_CORRECT, NULL);
    /* "used for translation" names what the model is for, not what the layer does: the
     * sources are right and the purpose is missing (both teachers' marking policies) */
    expect("en", "q4", "The decoder provides the queries, the encoder provides the keys and values; "
                       "used for translation.", QZ_PARTIAL, NULL);
    expect("zh", "q4", "查询来自解码器，而键和值来自编码器，用于翻译时对齐。", QZ_CORRECT, NULL);
    /* A Chinese answer may use the English words, and the other way round. */
    expect("zh", "q4", "Q from the decoder, K and V from the encoder, for alignment.", QZ_CORRECT, NULL);
}

/* q5: a decoder is wrong, and it cancels a right idea found elsewhere; negated forms
 * are right. */
static void test_q5_decoder_is_not_encoder_only(void **state)
{
    (void)state;
    /* part (1) wrong beside part (2) right: partly right, the wrong part named */
    expect("en", "q5", "Use a decoder, and read the label from the CLS token.", QZ_PARTIAL,
           "you wrote that a decoder is needed");
    expect("en", "q5", "You need a decoder.", QZ_WRONG, "you wrote that a decoder is needed");
    expect("zh", "q5", "需要解码器，用 [CLS] 读出。", QZ_PARTIAL, "你写的是需要解码器");
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
    /* the consequence stated wrongly beside the rest: partly right, the wrong part named */
    expect("en", "q2b", "The variance grows with d_k, so softmax saturates and the gradients explode.",
           QZ_WRONG, "they do not explode");
    expect("en", "q2b", "Without it the gradients explode.", QZ_WRONG, "they do not explode");
    expect("zh", "q2b", "方差随维度增大，softmax 饱和，梯度消失。", QZ_CORRECT, NULL);
}

/* A misconception takes the key ideas it states wrongly (`replaces`): one part wrong
 * beside parts right, or a false claim beside a right answer, is partly right; roles
 * reversed, the direction turned round, all of Q, K and V from one side are wrong. */
static void test_part_wrong_beside_parts_right(void **state)
{
    (void)state;
    expect("en", "q4", "Q comes from the decoder, K and V from the encoder; its purpose is to stop "
           "the decoder from seeing future tokens.", QZ_WRONG, "causal mask");
    expect("en", "q4", "Q comes from the decoder and K and V from the encoder's word embeddings; it "
           "aligns target and source.", QZ_WRONG, "not the source's word embeddings");
    expect("en", "q4", "Q comes from the encoder and K and V from the decoder; it aligns source "
           "and target.", QZ_WRONG, NULL);
    expect("en", "q4", "Q, K and V all come from the encoder; it lets the decoder look at the "
           "source.", QZ_WRONG, NULL);
    expect("en", "q5", "(1) You need a decoder to output the label. (2) From the [CLS] token's "
           "final hidden state.", QZ_PARTIAL, NULL);
    expect("zh", "q5", "（1）Encoder 足够。（2）从最后一层的注意力权重矩阵读出。", QZ_WRONG, NULL);
    expect("en", "q5", "(1) You need a decoder. (2) From the attention weight matrix.", QZ_WRONG, NULL);
    expect("en", "q1", "In an RNN the path grows with the distance, in self-attention it is one "
           "step, so self-attention needs no positional encoding.", QZ_WRONG, NULL);
    expect("en", "q1", "In self-attention the distance grows with the gap; in an RNN any two "
           "positions are one step apart.", QZ_WRONG, NULL);
    expect("en", "q2b", "It keeps the variance of the scores near 1 so softmax does not saturate; "
           "it also prevents overfitting.", QZ_WRONG, "overfitting");
    expect("en", "q2b", "It makes the variance larger so softmax saturates.", QZ_WRONG, NULL);
}

/* A concept (or a contradiction) inside a negated clause is not stated. */
static void test_negation(void **state)
{
    (void)state;
    expect("en", "q4", "Q does not come from the decoder; K and V do not come from the encoder; it "
           "does not align target words with source words.", QZ_WRONG,
           "you wrote the opposite of: Q comes from the decoder's current state");
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


/* ---- the statement matcher on small rubrics of its own */

static const char *const scores[] = {"scores", "dot products", "分数", "点积"};
static const char *const variance[] = {"variance", "scores", "方差", "分数"};
static const char *const agent[] = {"dividing | divide | make | makes | 除以 | 让 | 使"};
static const char *const probs[] = {"probabilities", "probability", "概率"};
static const char *const softmax_word[] = {"softmax"};
static const qz_claim up_claim[] = {{.direction = QZ_DIR_UP}};
static const qz_claim kept_claims[] = {{.direction = QZ_DIR_SAME}, {.direction = QZ_DIR_DOWN}};
static const qz_claim larger_claim[] = {{.direction = QZ_DIR_UP, .with = agent, .n_with = 1}};
static const qz_claim probs_claim[] = {{.phrases = probs, .n_phrases = 3, .unless = softmax_word,
                                        .n_unless = 1}};
static const qz_concept scale_ideas[] = {
    {.concept = "the scores grow", .statement = {scores, 4, 0, up_claim, 1}},
    {.concept = "the variance is kept near 1", .statement = {variance, 4, 1, kept_claims, 2}},
};
static const qz_misconception scale_miscs[] = {
    {.name = "larger", .feedback = "it makes them smaller", .statement = {variance, 4, 1, larger_claim, 1}},
    {.name = "probabilities", .feedback = "softmax does that", .statement = {NULL, 0, 1, probs_claim, 1}},
};

static const char *const role_q[] = {"Q", "query", "queries", "查询"};
static const char *const role_kv[] = {"K", "V", "keys", "values", "键", "值"};
static const char *const dec[] = {"decoder", "解码器"}, *const enc[] = {"encoder", "编码器"};
static const qz_claim from_dec[] = {{.phrases = dec, .n_phrases = 2}};
static const qz_claim from_enc[] = {{.phrases = enc, .n_phrases = 2}};
static const qz_concept role_ideas[] = {
    {.concept = "Q from the decoder", .required = 1, .statement = {role_q, 4, 0, from_dec, 1}},
    {.concept = "K, V from the encoder", .required = 1, .statement = {role_kv, 6, 0, from_enc, 1}},
};
static const qz_misconception role_miscs[] = {
    {.name = "q-enc", .feedback = "Q is the decoder's", .replaces = 1ul << 0,
     .statement = {role_q, 4, 0, from_enc, 1}},
    {.name = "kv-dec", .feedback = "K, V are the encoder's", .replaces = 1ul << 1,
     .statement = {role_kv, 6, 0, from_dec, 1}},
};

/* What the answer states: "I" key ideas found, "M" misconceptions stated, "D" denied,
 * "S" salad, "R" retracted, "G" gave up, e.g. "I01 M1": idea 0 and 1, misconception 1. */
static void states(const qz_concept *ideas, size_t n_ideas, const qz_misconception *miscs,
                   size_t n_miscs, const char *answer, const char *want)
{
    qz_question q = qz_question_init(QZ_TEXT);
    q.id = "t";
    q.rubric = ideas;
    q.n_rubric = n_ideas;
    q.misconceptions = miscs;
    q.n_misconceptions = n_miscs;
    qz_rubric_c *r;
    qz_reading rd;
    at_error err;
    assert_int_equal(qz_rubric_compile(&q, &r, &err), AT_OK);
    assert_int_equal(qz_rubric_read(r, answer, &rd, &err), AT_OK);
    char got[128] = "", part[32];
    strcat(got, "I");
    for (size_t i = 0; i < n_ideas; i++)
        if (rd.idea[i]) {
            snprintf(part, sizeof part, "%zu", i);
            strcat(got, part);
        }
    strcat(got, " M");
    for (size_t i = 0; i < rd.n_misc; i++)
        if (rd.misc[i]) {
            snprintf(part, sizeof part, "%zu", i);
            strcat(got, part);
        }
    for (size_t i = 0; i < n_ideas; i++)
        if (rd.denied[i]) {
            snprintf(part, sizeof part, " D%zu", i);
            strcat(got, part);
        }
    if (rd.salad)
        strcat(got, " S");
    if (rd.retracted)
        strcat(got, " R");
    if (rd.gave_up)
        strcat(got, " G");
    if (rd.unsure)
        strcat(got, " U");
    if (strcmp(got, want)) {
        print_error("\"%s\": states \"%s\", expected \"%s\"\n", answer, got, want);
        fail();
    }
    qz_reading_free(&rd);
    qz_rubric_c_free(r);
}

static void scale(const char *answer, const char *want)
{
    states(scale_ideas, 2, scale_miscs, 2, answer, want);
}

static void roles(const char *answer, const char *want)
{
    states(role_ideas, 2, role_miscs, 2, answer, want);
}

/* Direction: "kept near 1" is not "made larger"; the grader's own words in both languages. */
static void test_direction(void **state)
{
    (void)state;
    scale("The scores get larger.", "I0 M");
    scale("Large dot products.", "I0 M");
    scale("The variance stays the same.", "I1 M");
    scale("It reduces the scores.", "I1 M");
    scale("Dividing makes the variance larger.", "I M0");
    scale("分数变大。", "I0 M");
    scale("方差保持不变。", "I1 M");
    scale("除以它让方差变大。", "I M0");
    /* a bare word of direction is said of nothing */
    scale("It is larger.", "I M");
}

/* Polarity: a negation denies the phrase after it, in its clause; a denied direction
 * reads as the other one. */
static void test_polarity(void **state)
{
    (void)state;
    scale("The scores do not grow.", "I1 M");
    scale("分数不会变大。", "I1 M");
    scale("It prevents the scores from growing.", "I1 M");
    scale("It does not turn the scores into probabilities.", "I M");
    scale("它不会把分数变成概率。", "I M");
    roles("Q does not come from the decoder.", "I M D0");
    roles("Q不是来自解码器。", "I M D0");
    roles("Q comes from the decoder, not the encoder.", "I0 M");
    roles("Q不是来自编码器，而是来自解码器。", "I0 M");
    roles("Q comes not from the encoder but from the decoder.", "I0 M");
    /* "not only" denies nothing */
    roles("Not only Q comes from the decoder.", "I0 M");
}

/* Clauses and who a claim is said of. */
static void test_clauses(void **state)
{
    (void)state;
    roles("Q comes from the decoder, K and V from the encoder.", "I01 M");
    roles("Q, K and V all come from the encoder.", "I1 M0");
    roles("The decoder provides Q, the encoder provides K and V.", "I01 M");
    roles("Q from the decoder whereas K and V from the encoder.", "I01 M");
    roles("Q 来自解码器，而 K 和 V 来自编码器。", "I01 M");
    roles("Q来自解码器K和V来自编码器", "I01 M");
    roles("解码器提供 Q，编码器提供 K 和 V。", "I01 M");
    roles("Q comes from the encoder, K and V from the decoder.", "I M01");
    /* a sentence without a subject is said of the one before */
    roles("Q is computed there. It comes from the decoder.", "I0 M");
    /* the question repeated states nothing */
    roles("Does Q come from the encoder? Q comes from the decoder.", "I0 M");
    /* a subject only compared with owns nothing */
    scale("Unlike the variance, the scores grow.", "I0 M");
}

/* Who owns a claim: a foil that opens a statement of its own, an object, a destination,
 * a carried subject. */
static void test_owners(void **state)
{
    (void)state;
    /* "unlike" in the middle is passed over; opening a clause, it owns it */
    roles("Q, unlike K and V, comes from the decoder.", "I0 M");
    roles("Q 来自解码器，不像 K 和 V 那样来自编码器。", "I01 M");
    /* a destination is no origin */
    roles("The decoder sends Q into the encoder.", "I0 M");
    /* 把 marks an object: it owns nothing */
    scale("它不会把分数变成概率。", "I M");
    /* a carried subject does not take a sentence about something else */
    roles("Q comes from the decoder. It lets the decoder look at the encoder.", "I0 M");
}

/* A phrase holding a negation denies the claim after it; a prevented danger that is a
 * misconception is still stated. */
static void test_negation_phrases(void **state)
{
    (void)state;
    static const char *const need[] = {"need", "use", "需要", "用"};
    static const char *const no_need[] = {"no need", "没有必要", "没必要"};
    static const char *const use_dec[] = {"use a decoder", "用解码器"};
    static const char *const explode[] = {"explode", "explodes", "爆炸"};
    const qz_claim ok_claims[] = {{.phrases = need, .n_phrases = 4, .polarity = QZ_POL_DENIED},
                                  {.phrases = no_need, .n_phrases = 3}};
    const qz_claim bad_claims[] = {{.phrases = use_dec, .n_phrases = 2}};
    const qz_claim boom[] = {{.phrases = explode, .n_phrases = 3}};
    static const char *const decoder[] = {"decoder", "解码器"};
    static const char *const grads[] = {"gradients", "梯度"};
    const qz_concept ideas[] = {{.concept = "no decoder", .statement = {decoder, 2, 0, ok_claims, 2}}};
    const qz_misconception miscs[] = {
        {.name = "decoder", .feedback = "no", .statement = {decoder, 2, 0, bad_claims, 1}},
        {.name = "explode", .feedback = "they vanish", .statement = {grads, 2, 0, boom, 1}},
    };
    states(ideas, 1, miscs, 2, "没有必要用解码器。", "I0 M");
    states(ideas, 1, miscs, 2, "There is no need to use a decoder.", "I0 M");
    states(ideas, 1, miscs, 2, "You should use a decoder.", "I M0");
    states(ideas, 1, miscs, 2, "It prevents the gradients from exploding.", "I M1");
    states(ideas, 1, miscs, 2, "防止梯度爆炸。", "I M1");
    states(ideas, 1, miscs, 2, "The gradients do not explode.", "I M");
}

/* Misconceptions are their own statements, with `unless`. */
static void test_misconceptions(void **state)
{
    (void)state;
    scale("It turns the scores into probabilities.", "I M1");
    scale("把分数变成概率。", "I M1");
    scale("Softmax turns the scores into probabilities.", "I M");
    /* a misconception and a key idea on one phrase: the misconception */
    scale("It makes the scores larger.", "I M0");
}

/* Salads, taking back, giving up. */
static void test_salad_retract_give_up(void **state)
{
    (void)state;
    scale("variance, scores, probabilities", "I M S");
    roles("Q decoder K V encoder", "I M S");
    roles("Q: decoder. K and V: encoder.", "I01 M");
    roles("Q comes from the decoder and K and V from the encoder. No, the opposite.", "I M R");
    roles("Q 来自解码器，K 和 V 来自编码器。不对，反过来。", "I M R");
    roles("I don't know", "I M G");
    roles("不知道。", "I M G");
    roles("I like attention.", "I M");
}

/* The answer the student ends on: a correction keeps what was right before it and drops
 * what was wrong; after a turn only what follows counts; a turn with nothing after it
 * takes back what was right and leaves what was wrong unsure. */
static void test_ends_on(void **state)
{
    (void)state;
    roles("Q comes from the encoder. No wait, Q comes from the decoder.", "I0 M");
    roles("Q comes from the encoder, no sorry, from the decoder; K and V from the encoder.", "I01 M");
    /* the correction states Q's key idea wrongly: it takes that idea back */
    roles("Q comes from the decoder. Sorry, I mean Q comes from the encoder.", "I M0");
    roles("Q comes from the decoder. Actually no, K and V come from the decoder.", "I0 M1");
    roles("Q 来自编码器。不对，Q 来自解码器。", "I0 M");
    roles("Q comes from the encoder and K and V from the decoder. No wait, the other way round.",
          "I M U");
    roles("Q comes from the encoder. No, the opposite: Q comes from the decoder.", "I0 M");
    roles("Q comes from the decoder. No wait, hmm.", "I M U");
    /* no correction: "no decoder", a first "No," */
    roles("No, Q comes from the decoder.", "I0 M");
    /* a start over ("scratch that", 算了，我收回) takes back everything before it */
    roles("Q comes from the decoder and K and V from the encoder. Scratch that.", "I M R");
    roles("Q comes from the decoder and K and V from the encoder. Scratch that: Q comes from the "
          "decoder.", "I0 M");
    roles("Q 来自解码器，K 和 V 来自编码器。算了，我收回。", "I M R");
    roles("Q 来自解码器。我收回：K 和 V 来自编码器。", "I1 M");
    /* 算了一下 is working, not a start over */
    roles("我算了一下，Q 来自解码器，K 和 V 来自编码器。", "I01 M");
}

/* "respectively" gives the claims after a group to its parts in order; "one …, the other
 * …" gives them to neither; what is looked at is not where the subject comes from. */
static void test_parts_of_a_group(void **state)
{
    (void)state;
    roles("Q and K, V come from the decoder and the encoder respectively.", "I01 M");
    roles("Q and K, V come from the encoder and the decoder respectively.", "I M01");
    roles("Q 和 K、V 分别来自解码器和编码器。", "I01 M");
    roles("Q 和 K、V 分别来自编码器和解码器。", "I M01");
    roles("Q and K, V come from two sides, one the encoder and the other the decoder.", "I M");
    roles("Q 和 K、V 分别来自两边（一个是编码器一个是解码器）。", "I M");
    roles("Q 来自解码器，关注编码器。", "I0 M");
    /* without "respectively" the group keeps what is said of it */
    roles("Q, K and V come from the encoder.", "I1 M0");
}

/* A claim of its own `subject_implied`: "(1) enough" under the part that asks whether the
 * encoder is enough, while "enough" alone says nothing of the encoder. */
static const char *const enc_subj[] = {"encoder", "编码器"};
static const char *const enough[] = {"enough", "够了"};
static const char *const part1[] = {"(1) | 1) | 第一问"};
static const qz_claim enough_claims[] = {
    {.phrases = enough, .n_phrases = 2},
    {.phrases = enough, .n_phrases = 2, .with = part1, .n_with = 1, .subject_implied = 1},
};
static const qz_concept enough_ideas[] = {
    {.concept = "the encoder is enough", .statement = {enc_subj, 2, 0, enough_claims, 2}},
};

static void test_claim_subject_implied(void **state)
{
    (void)state;
    states(enough_ideas, 1, NULL, 0, "The encoder is enough.", "I0 M");
    states(enough_ideas, 1, NULL, 0, "(1) Enough. (2) The [CLS] output.", "I0 M");
    states(enough_ideas, 1, NULL, 0, "（1）够了。（2）取 CLS。", "I0 M");
    states(enough_ideas, 1, NULL, 0, "Enough.", "I M");
    states(enough_ideas, 1, NULL, 0, "(1) Not enough.", "I M D0");
}

/* Kinds a fresh teacher's set showed, on the shipped self-test in both languages. */
static void test_kinds_of_batch_g(void **state)
{
    (void)state;
    /* a start over that lands on an off-point claim */
    expect("en", "q1", "Self-attention: any two tokens are one step apart; RNN: the number of steps "
           "equals their distance. Actually no, scratch that, the real difference is just that "
           "attention is parallel.", QZ_WRONG, NULL);
    expect("zh", "q1", "自注意力中任意两个位置距离为 1，RNN 是 O(n)。更正一下：真正的区别只是自注意力算得更快。",
           QZ_WRONG, NULL);
    /* misconceptions beside right content: partly right, the misconception named */
    expect("en", "q1", "In an RNN the path grows with the distance, in self-attention it is one step, so "
           "self-attention needs no positional encoding at all.", QZ_WRONG, "positional encoding");
    expect("zh", "q1", "自注意力中任意两个位置距离为1，而RNN是O(n)。所以自注意力完全不需要位置编码。",
           QZ_WRONG, "位置编码");
    expect("zh", "q2b", "防止点积过大导致softmax饱和、梯度消失。另外不除的话模型就没法处理长序列。",
           QZ_WRONG, "序列长度");
    expect("en", "q5", "Encoder is enough. The vector is the [CLS] token's embedding at the input layer.",
           QZ_WRONG, "last layer");
    expect("en", "q5", "Encoder alone is enough, and we read out the [CLS] vector. But you must add a "
           "causal mask so the model can't see future tokens.", QZ_WRONG, "causal mask");
    expect("en", "q5", "The encoder is enough: no causal mask is needed since every token may see the "
           "whole review. Read the label from the [CLS] output.", QZ_CORRECT, NULL);
    expect("zh", "q1", "自注意力的依赖距离是平方级的 O(n²)，RNN 是线性的 O(n)。", QZ_WRONG, NULL);
    /* right answers in forms the grader refused */
    expect("en", "q1", "Max path length: RNN $O(n)$ vs self-attention $O(1)$ — any pair of tokens "
           "interacts through a single attention step instead of a chain of n recurrent updates.",
           QZ_CORRECT, NULL);
    expect("en", "q2b", "If q,k have i.i.d. components with mean 0, var 1, then Var(q·k)=d_k. Dividing by "
           "\\sqrt{d_k} gives Var=1, so the softmax input stays in a range where its gradient isn't ~0.",
           QZ_CORRECT, NULL);
    expect("zh", "q4", "Q 来自解码器，K 和 V 来自编码器的输出；作用是让解码器关注愿句中和当前要生成的词相关的部分。",
           QZ_CORRECT, NULL);
    expect("zh", "q5", "（1）够了。（2）把100个token的输出做mean pooling或max pooling，得到一个向量再分类。",
           QZ_CORRECT, NULL);
    expect("zh", "q5", "一个 encoder 足矣。分类向量通常取第一个位置（特殊符号 CLS）的顶层输出。", QZ_CORRECT, NULL);
    /* not-right answers judged too leniently */
    expect("en", "q4", "All three come from the same input, that's why it's called attention.", QZ_WRONG,
           NULL);
    expect("zh", "q5", "用多头自注意力+位置编码+残差+LayerNorm+FFN，然后softmax输出。", QZ_WRONG, NULL);
    expect("en", "q5", "(1) both are needed, encoder for reading the review and decoder for writing the "
           "sentiment word. (2) from the softmax over the vocabulary.", QZ_WRONG, NULL);
    expect("zh", "q4", "Q 和 K、V 分别来自两边（一个是编码器一个是解码器），作用是让目标句关注源句。", QZ_PARTIAL,
           NULL);
}

/* Kinds two blind sets (F and G) showed, on the shipped self-test in both languages. */
static void test_kinds_of_batches_f_g(void **state)
{
    (void)state;
    /* q2b: √dₖ taken for LayerNorm of the output, or for a regulariser */
    expect("en", "q2b", "It's a normalization like LayerNorm, so the attention output has mean 0 and "
           "variance 1.", QZ_WRONG, "not a normalisation like LayerNorm");
    expect("zh", "q2b", "相当于层归一化，把输出变成均值 0、方差 1 的分布。", QZ_WRONG, "不是 LayerNorm");
    expect("en", "q2b", "It works as a regularizer that prevents overfitting, a bit like dropout.", QZ_WRONG,
           "not a regulariser");
    expect("zh", "q2b", "是一种正则化手段，让模型不容易过拟合。", QZ_WRONG, "不是正则化手段");
    expect("en", "q2b", "It is not a regularizer: it keeps the variance of the scores near 1 instead of d_k, "
           "so the softmax doesn't saturate and the gradients don't vanish.", QZ_CORRECT, NULL);
    /* an assumption of mean 0 is no normalisation of the output */
    expect("en", "q2b", "If q and k have mean 0 and variance 1, q·k has variance d_k; dividing brings it "
           "back to 1, otherwise the softmax output is nearly one-hot and the gradients vanish.",
           QZ_CORRECT, NULL);
    /* q2b right in Chinese: English terms (head dim is d_k), input-method slips, the
     * consequence in other words; 别的 (other) is no negation */
    expect("zh", "q2b", "让 logits 的 scale 不随 head dim 变，否则 softmax saturate，gradient vanishing",
           QZ_CORRECT, NULL);
    expect("zh", "q2b", "把点击的大小压下来，不然 softmax 会进入保和区，梯度很小学不动。", QZ_CORRECT, NULL);
    expect("zh", "q2b", "dₖ 越大内积方差越大，除掉 √dₖ 后方差为 1；否则 softmax 几乎只选最大的那个，其余梯度趋于 0。",
           QZ_CORRECT, NULL);
    expect("zh", "q2b", "把分数缩小到方差 1 左右；不然 softmax 只挑最大的一个，别的位置梯度接近于零。", QZ_CORRECT,
           NULL);
    expect("zh", "q2b", "点击太大了，要除一下把它缩小。", QZ_PARTIAL, NULL);
    /* q1: the attention side said as independence from the length; the same for every
     * length is no "the same for both" */
    expect("zh", "q1", "attention 里两个词之间的距离跟句子长短没关系。", QZ_PARTIAL, "自注意力中任意两个位置");
    expect("en", "q1", "In attention the distance between two words does not depend on sentence length.",
           QZ_PARTIAL, "self-attention any two positions");
    expect("en", "q1", "In self-attention the path between two tokens is the same no matter how long the "
           "sequence is.", QZ_PARTIAL, NULL);
    expect("zh", "q1", "自注意力中两个词之间的距离不受句子长度影响。", QZ_PARTIAL, NULL);
    expect("en", "q1", "In an RNN the distance between two words grows with the sentence length; in attention "
           "it doesn't depend on the length at all.", QZ_CORRECT, NULL);
    expect("en", "q1", "In attention the distance between two words grows with the sentence length.", QZ_WRONG,
           NULL);
    /* q4: the purpose said as weighing the source positions and mixing their values; a
     * side with its positions acts or is acted on, it is where nothing comes from */
    expect("en", "q4", "Q comes from the decoder, K and V from the encoder; each decoder position scores all "
           "encoder positions and takes the weighted sum of their values.", QZ_CORRECT, NULL);
    expect("zh", "q4", "Q 是 decoder 的状态，K 和 V 是 encoder 的输出；目标端每个位置对源端所有位置算权重，取 value "
           "的加权平均。", QZ_CORRECT, NULL);
    expect("zh", "q4", "Q 来自解码器，K、V 来自编码器每个位置的输出，作用是让解码器关注源句。", QZ_CORRECT, NULL);
    /* a vague purpose whose only source is the clause that says where K and V come from */
    expect("zh", "q4", "Q 来自解码器，K、V 来自编码器，作用是融合信息。", QZ_PARTIAL, NULL);
    expect("zh", "q4", "解码器出 Q，编码器出 K 和 V，用来做信息融合。", QZ_PARTIAL, NULL);
    expect("en", "q4", "Q from the decoder, K and V from the encoder; the point is to combine information.",
           QZ_PARTIAL, NULL);
    expect("zh", "q4", "Q 来自解码器，K、V 来自编码器，作用是把源句的信息融合进解码器。", QZ_CORRECT, NULL);
    /* q5 answered with an RNN and no attention: a misconception, named */
    expect("en", "q5", "(1) Neither, for classification you'd use an RNN. (2) The last hidden state of the RNN.",
           QZ_WRONG, "an RNN's last hidden state is another model's");
    expect("zh", "q5", "（1）都不用，分类用 RNN 就行（2）RNN 最后一个隐状态。", QZ_WRONG, "另一种模型");
    expect("zh", "q5", "不用注意力，直接用循环神经网络，最后一步的隐状态接分类层。", QZ_WRONG, NULL);
    expect("en", "q5", "Encoder only, no decoder. Where an RNN would use its last hidden state, here we take the "
           "final-layer [CLS] vector.", QZ_CORRECT, NULL);
    expect("zh", "q5", "不用 RNN，编码器就够了，取最后一层 [CLS] 的输出向量。", QZ_CORRECT, NULL);
    /* the [CLS] vector at the input layer is no read-out: part (2) not right, part (1)
     * right, partly right */
    expect("zh", "q5", "（1）只用编码器（2）取 [CLS] 在嵌入层的向量。", QZ_WRONG, NULL);
    expect("en", "q5", "Only the encoder is needed, and we take the [CLS] vector before the first layer.",
           QZ_WRONG, "last layer");
}

/* Answers on the shipped self-test that correct themselves, hedge, restate the question,
 * list terms, or cannot be read. */
static void test_answer_forms(void **state)
{
    (void)state;
    expect("en", "q5", "You need a decoder - hmm, no, you don't: the label is one class, so the encoder "
           "alone suffices, and you take the [CLS] token's final output.", QZ_CORRECT, NULL);
    expect("zh", "q4", "Q 来自 encoder……不对，Q 来自 decoder，K、V 来自 encoder，用来让 decoder 关注源句。",
           QZ_CORRECT, NULL);
    expect("en", "q4", "Q from the decoder, K and V from the encoder, so the decoder can look up the "
           "source. No wait, it's the other way round.", QZ_WRONG, "takes back");
    expect("en", "q2b", "Maybe it keeps the softmax from getting too peaky?", QZ_PARTIAL, NULL);
    expect("en", "q2b", "I think it maybe keeps the numbers from getting too big so softmax doesn't get "
           "too peaky", QZ_CORRECT, NULL);
    expect("zh", "q2b", "好像是为了让 softmax 不要太尖？", QZ_PARTIAL, NULL);
    expect("en", "q1", "The essential difference between them is the dependency distance between the "
           "two positions.", QZ_WRONG, "says the question again");
    expect("zh", "q2b", "归一化 方差 softmax 梯度", QZ_WRONG, "罗列了术语");
    /* terms between commas or 、, three or more: a list; a term said twice is by position */
    expect("en", "q2b", "variance, saturation, gradients", QZ_WRONG, "lists terms");
    expect("zh", "q2b", "方差、飽和、梯度", QZ_WRONG, "罗列了术语");
    expect("zh", "q4", "decoder 出 Q，encoder 出 K、V。", QZ_PARTIAL, NULL);   /* statements */
    expect("en", "q2b", "scale it down, avoid saturation, keep the gradients", QZ_CORRECT, NULL);
    /* 唔 before a Han character is Cantonese's 不, no hesitation; alone it hesitates */
    expect("zh", "q2b", "冇咗佢嘅話 softmax 飽和，梯度消失，唔俾分數隨維度變大。", QZ_CORRECT, NULL);
    expect("zh", "q2b", "唔……", QZ_MALFORMED, "犹豫");
    /* what the student reports and rejects is not read: a key idea there is not credited
     * (the student grades it), a misconception there is not held against the answer, and
     * words of a key idea that name what a rejected claim is about take nothing away */
    expect("en", "q1", "It is false that in an RNN information passes step by step and that in "
           "self-attention any two positions are one step apart.", QZ_REVIEW, NULL);
    expect("zh", "q1", "很多人以为 RNN 要一步步传、自注意力一步到位，但这是误解。", QZ_REVIEW, NULL);
    expect("en", "q4", "Some say Q comes from the decoder and K and V from the encoder so the decoder "
           "can look up the source, but that is wrong.", QZ_REVIEW, NULL);
    expect("en", "q5", "Only the encoder; read the final [CLS] vector into a linear layer. It is not "
           "true that [CLS] only sees itself: it attends to every token.", QZ_CORRECT, NULL);
    expect("en", "q2b", "It keeps the variance near 1; some people think it turns the scores into "
           "probabilities, but that is a myth. Without it softmax saturates and the gradients "
           "vanish.", QZ_CORRECT, NULL);
    /* a lesson's false claim after a sentence its own pass reads as terms is still read */
    expect("zh", "q4", "Q 来自 decoder，K、V 来自 encoder，用于对齐。位置编码没用。", QZ_WRONG,
           "位置编码");
    /* n^2 alone is n², no length n said of attention ("information goes step by step") */
    expect("en", "q1", "n^2 is its compute cost; the path is O(1) for attention; an RNN needs n steps",
           QZ_CORRECT, NULL);
    expect("en", "q4", "Q from the ?coder, K,V from the other ?coder, for looking stuff up",
           QZ_MALFORMED, "cannot be read");
    expect("en", "q1", "attn dist = ~~n~~1 rnn = 1~~n~~", QZ_MALFORMED, "cannot be read");
    /* "~1" is about 1, never a bare 1: weights between 0 and 1 are the probabilities */
    expect("en", "q2b", "It makes sure the attention weights are between 0 and 1.", QZ_WRONG,
           "probabilities");
    expect("en", "q2b", "It keeps the variance of the scores ~1.", QZ_PARTIAL, NULL);
    /* 'probably' is no probability, 'decode' no decoder */
    expect("en", "q2b", "Probably to keep the variance of the dot products around 1, I think? Otherwise the "
           "softmax saturates and the gradients become tiny.", QZ_CORRECT, NULL);
    expect("en", "q5", "I think an encoder-only model suffices since there is nothing to decode, and the "
           "vector would be the final hidden state of the first ([CLS]) token.", QZ_CORRECT, NULL);
    /* a decoder after all, however it is said */
    expect("en", "q5", "Only the encoder is needed, and then the decoder generates the label from the CLS "
           "vector.", QZ_WRONG, NULL);
    expect("en", "q5", "The encoder is enough and the decoder isn't used; then the CLS vector is fed into "
           "a decoder that outputs the label.", QZ_WRONG, NULL);
    /* words the stemmer folds together are kept apart: "positions" is no "positive" (the
     * probabilities claim), "direction" no "direct" */
    expect("en", "q2b", "It keeps the variance of the scores ~1; the mask puts -inf at the masked "
           "positions.", QZ_PARTIAL, NULL);
    expect("en", "q2b", "It makes all the scores positive.", QZ_WRONG, "probabilities");
    /* a value after a sign ends its sentence: "≈1." is no list number "1." */
    expect("en", "q2b", "It brings the variance of the dot products to ≈1. Without the scaling the logits "
           "are huge, softmax saturates and the gradients vanish.", QZ_CORRECT, NULL);
    /* what a query is sent to, or what a thing serves, is not where it comes from */
    expect("en", "q4", "Q is the decoder side, K/V the encoder side: the word being generated asks "
           "questions to the source sentence.", QZ_CORRECT, NULL);
    expect("en", "q4", "Q from the decoder; K and V from the last encoder layer (the same K, V for every "
           "decoder layer). It lets the decoder condition its output on the input.", QZ_CORRECT, NULL);
    /* the roles by asking and answering */
    expect("en", "q4", "The decoder asks, the encoder's outputs answer: that's how each generated word finds "
           "the relevant source words.", QZ_CORRECT, NULL);
    expect("en", "q4", "The encoder asks, the decoder answers.", QZ_WRONG, NULL);
}

/* Normalised before matching: Traditional characters, stems, typos, width, case. */
static void test_normalised(void **state)
{
    (void)state;
    scale("分數變大。", "I0 M");
    scale("The varaince stays the same.", "I1 M");
    scale("ＴＨＥ ＳＣＯＲＥＳ GROW.", "I0 M");
    scale("The scores are growing.", "I0 M");
    roles("Q comes from the decorder.", "I0 M");
    roles("Q 來自解碼器。", "I0 M");
}

/* The older form: synonyms, together, contradicts. */
static void test_older_form(void **state)
{
    (void)state;
    const char *syn[] = {"不需要解码器", "don't need a decoder"};
    const char *bad[] = {"需要解码器", "need a decoder"};
    qz_contradiction x = {bad, 2, NULL, 0, "a decoder is not needed"};
    qz_concept c = {.concept = "encoder only", .synonyms = syn, .n_synonyms = 2, .contradicts = &x,
                    .n_contradicts = 1};
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
    const char *q_dec[] = {"Q | query | 查询", "decoder | 解码器"};
    qz_concept t = {.concept = "Q from the decoder", .together = q_dec, .n_together = 2};
    assert_int_equal(qz_rubric_judge(&t, 1, "Q: decoder.", &j, &n, NULL), AT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(qz_rubric_judge(&t, 1, "\xff", &j, &n, NULL), AT_EUTF8);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_references_correct),
        cmocka_unit_test(test_lesson_claims_read_apart),
        cmocka_unit_test(test_q4_swapped_roles_wrong),
        cmocka_unit_test(test_q4_natural_phrasings_right),
        cmocka_unit_test(test_q5_decoder_is_not_encoder_only),
        cmocka_unit_test(test_q1_swapped_wrong),
        cmocka_unit_test(test_q2b_exploding_gradients_wrong),
        cmocka_unit_test(test_part_wrong_beside_parts_right),
        cmocka_unit_test(test_negation),
        cmocka_unit_test(test_direction),
        cmocka_unit_test(test_polarity),
        cmocka_unit_test(test_clauses),
        cmocka_unit_test(test_owners),
        cmocka_unit_test(test_negation_phrases),
        cmocka_unit_test(test_misconceptions),
        cmocka_unit_test(test_salad_retract_give_up),
        cmocka_unit_test(test_ends_on),
        cmocka_unit_test(test_answer_forms),
        cmocka_unit_test(test_normalised),
        cmocka_unit_test(test_older_form),
        cmocka_unit_test(test_q4_and_joins_two_statements),
        cmocka_unit_test(test_q1_phrasings),
        cmocka_unit_test(test_parts_of_a_group),
        cmocka_unit_test(test_claim_subject_implied),
        cmocka_unit_test(test_kinds_of_batch_g),
        cmocka_unit_test(test_kinds_of_batches_f_g),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
