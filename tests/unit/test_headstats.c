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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_measures)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
