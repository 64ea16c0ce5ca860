/* What a head does (engine/headstats.h): previous token, first token, same word. */
#include "check.h"
#include "engine/headstats.h"

#include <math.h>
#include <string.h>

static void test_measures(void **state)
{
    const char *s = "ab cd";
    at_token items[3] = {{0, 2, 2, "ab"}, {2, 2, 2, " c"}, {4, 1, 1, "d"}};
    at_tokens t = {items, 3};
    /* head 1: each row on the token before (row 1 on itself); head 2: all on token 1;
     * head 3: "c" and "d" (one word) on each other */
    float w[3 * 9] = {1, 0, 0, 1, 0, 0, 0, 1, 0,
                      1, 0, 0, 1, 0, 0, 1, 0, 0,
                      1, 0, 0, 0, .2f, .8f, 0, .6f, .4f};
    float *layers[1] = {w};
    size_t heads[1] = {3};
    at_model_run r = {.n = 3, .n_layers = 1, .n_heads = heads, .weights = layers};
    assert_int_equal(at_tokens_same_word(&t, s, 1), 0);   /* a space before " c" */
    assert_int_equal(at_tokens_same_word(&t, s, 2), 1);   /* "d" touches " c" */
    double v;
    assert_int_equal(at_head_measure_of(&r, &t, s, 0, 0, AT_HEAD_PREVIOUS, &v), 0);
    assert_true(fabs(v - 1.0) < 1e-6);
    assert_int_equal(at_head_measure_of(&r, &t, s, 0, 1, AT_HEAD_FIRST, &v), 0);
    assert_true(fabs(v - 1.0) < 1e-6);
    assert_int_equal(at_head_measure_of(&r, &t, s, 0, 0, AT_HEAD_FIRST, &v), 0);
    assert_true(fabs(v - 0.5) < 1e-6);                     /* rows 2, 3: 1 and 0 */
    assert_int_equal(at_head_measure_of(&r, &t, s, 0, 2, AT_HEAD_SAME_WORD, &v), 0);
    assert_true(fabs(v - 0.7) < 1e-6);                     /* (0.8 + 0.6) / 2 */
    size_t l, h;
    assert_int_equal(at_head_best(&r, &t, s, AT_HEAD_SAME_WORD, &l, &h, &v), 3);
    assert_int_equal(l, 0);
    assert_int_equal(h, 2);
    assert_int_equal(at_head_best(&r, &t, s, AT_HEAD_PREVIOUS, &l, &h, &v), 3);
    assert_int_equal(h, 0);
    /* no word of several pieces: nothing to measure */
    at_tokens two = {items, 2};
    at_model_run r2 = r;
    r2.n = 2;
    float w2[4] = {1, 0, .5f, .5f};
    float *l2[1] = {w2};
    size_t h2[1] = {1};
    r2.weights = l2;
    r2.n_heads = h2;
    assert_int_equal(at_head_measure_of(&r2, &two, s, 0, 0, AT_HEAD_SAME_WORD, &v), -1);
    assert_int_equal(at_head_best(&r2, &two, s, AT_HEAD_SAME_WORD, &l, &h, &v), 0);
}

/* The chance level: a head spreading evenly over the keys it sees. Causal rows see 1, 2,
 * 3 keys: on the previous token that is (1/2 + 1/3) / 2; on the first, the same. */
static void test_even_spread(void **state)
{
    (void)state;
    const char *s = "ab cd";
    at_token items[3] = {{0, 2, 2, "ab"}, {2, 2, 2, " c"}, {4, 1, 1, "d"}};
    at_tokens t = {items, 3};
    float w[9] = {1, 0, 0, .9f, .1f, 0, .1f, .8f, .1f};
    float *layers[1] = {w};
    size_t heads[1] = {1};
    at_model_run r = {.n = 3, .n_layers = 1, .n_heads = heads, .weights = layers};
    double v, even;
    assert_int_equal(at_head_measure_of(&r, &t, s, 0, 0, AT_HEAD_PREVIOUS, &v), 0);
    assert_true(fabs(v - (0.9 + 0.8) / 2) < 1e-6);
    assert_int_equal(at_head_measure_even(&r, &t, s, 0, 0, AT_HEAD_PREVIOUS, &even), 0);
    assert_true(fabs(even - (1.0 / 2 + 1.0 / 3) / 2) < 1e-9);
    assert_int_equal(at_head_measure_even(&r, &t, s, 0, 0, AT_HEAD_FIRST, &even), 0);
    assert_true(fabs(even - (1.0 / 2 + 1.0 / 3) / 2) < 1e-9);
    /* "c" + "d" is one word: row 2 sees 3 keys, row 1 sees 2 */
    assert_int_equal(at_head_measure_even(&r, &t, s, 0, 0, AT_HEAD_SAME_WORD, &even), 0);
    assert_true(fabs(even - (0.0 + 1.0 / 3) / 2) < 1e-9);
}

/* Where words are not spaced, each CJK character (and its punctuation) is a word of its
 * own; the byte pieces of one character (GPT-2's byte-level BPE) are one word; a word of
 * Latin letters inside Chinese keeps its pieces together. */
static void test_cjk_words(void **state)
{
    (void)state;
    const char *s = "小明没来，love你";   /* 小 明 没 来 ， lo ve 你 */
    at_token items[8] = {{0, 3, 2, "小"}, {3, 3, 2, "明"}, {6, 3, 2, "没"}, {9, 3, 2, "来"},
                         {12, 3, 2, "，"}, {15, 2, 2, "lo"}, {17, 2, 2, "ve"}, {19, 3, 2, "你"}};
    at_tokens t = {items, 8};
    for (size_t j = 1; j < 8; j++)
        assert_int_equal(at_tokens_same_word(&t, s, j), j == 6);   /* only "lo" + "ve" */
    /* 明 cut into a byte and two (as byte-level BPE may cut it): one word */
    at_token bytes[3] = {{0, 3, 2, "小"}, {3, 1, 1, "?"}, {4, 2, 1, "?"}};
    at_tokens tb = {bytes, 3};
    assert_int_equal(at_tokens_same_word(&tb, s, 1), 0);
    assert_int_equal(at_tokens_same_word(&tb, s, 2), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_measures),
                                       cmocka_unit_test(test_even_spread),
                                       cmocka_unit_test(test_cjk_words)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
