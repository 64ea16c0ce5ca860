/* Attention engine: softmax edge cases, masks, against a naive triple loop. */
#include "check.h"
#include "engine/attention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_sgemm_4x4(void **state)
{
    float A[16], C[16];
    for (int i = 0; i < 16; i++)
        A[i] = (float)i;
    at_matmul(4, 4, 4, A, A, 0, C, 0);
    const float want[16] = {56, 62, 68, 74, 152, 174, 196, 218, 248, 286, 324, 362, 344, 398, 452, 506};
    check_tensor(C, want, 16, 0.0f, "A·A");
}

static void test_softmax_huge_scores(void **state)
{
    float x[4] = {7999.99f, 8000.0f, 2.0f, 1.0f};
    assert_int_equal(at_softmax_row(x, NULL, 4), 0);
    /* float cannot hold 7999.99 (it is 7999.9902), so allow 1e-3 here; the f64 path is exact. */
    const float want[4] = {0.4975f, 0.5025f, 0.0f, 0.0f};
    check_tensor(x, want, 4, 1e-3f, "softmax huge (float)");
    double xd[4] = {7999.99, 8000.0, 2.0, 1.0};
    assert_int_equal(at_softmax_row_f64(xd, NULL, 4), 0);
    assert_true(fabs(xd[0] - 0.4975) < 5e-5 && fabs(xd[1] - 0.5025) < 5e-5);
    assert_true(xd[2] < 1e-9 && xd[3] < 1e-9);
}

static void test_softmax_negative(void **state)
{
    float x[2] = {-1000.0f, -1001.0f};
    assert_int_equal(at_softmax_row(x, NULL, 2), 0);
    const float want[2] = {0.7310586f, 0.2689414f};
    check_tensor(x, want, 2, 1e-6f, "softmax [-1000,-1001]");
}

static void test_softmax_fully_masked(void **state)
{
    float x[3] = {NAN, INFINITY, 1.0f};
    const unsigned char vis[3] = {0, 0, 0};
    assert_int_equal(at_softmax_row(x, vis, 3), 1);
    const float want[3] = {0, 0, 0};
    check_tensor(x, want, 3, 0.0f, "fully masked row");
}

/* Case 1: [<pad>, I, am], first key padding, causal, Q = K = 0, V = I₃. */
static void test_case_fully_masked_row(void **state)
{
    float Q[6] = {0}, K[6] = {0}, V[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const unsigned char pad[3] = {1, 0, 0};
    at_attn_config c = at_attn_config_init(3, 3, 2, 3);
    c.mask.causal = 1;
    c.mask.key_padding = pad;
    float w[9], out[9];
    unsigned char fm[3];
    assert_int_equal(at_attention_forward(&c, Q, K, V, w, out, fm, NULL, NULL), AT_OK);
    const float want_w[9] = {0, 0, 0, 0, 1, 0, 0, 0.5f, 0.5f};
    check_tensor(w, want_w, 9, 1e-7f, "weights");
    check_tensor(out, want_w, 9, 1e-7f, "output");
    assert_int_equal(fm[0], 1);
    assert_int_equal(fm[1], 0);
    assert_int_equal(fm[2], 0);
}

static void test_masked_nan_key_does_not_leak(void **state)
{
    float Q[4] = {1, 0, 0, 1}, K[4] = {NAN, INFINITY, 0, 1}, V[4] = {NAN, 1e30f, 2, 3};
    const unsigned char pad[2] = {1, 0};
    at_attn_config c = at_attn_config_init(2, 2, 2, 2);
    c.mask.key_padding = pad;
    float w[4], out[4];
    assert_int_equal(at_attention_forward(&c, Q, K, V, w, out, NULL, NULL, NULL), AT_OK);
    const float want[4] = {2, 3, 2, 3};
    check_tensor(out, want, 4, 1e-6f, "output with a NaN masked key");
}

/* A NaN in Q that no mask hides is an error naming where, not a "fully masked" row. */
static void test_unmasked_nan_is_an_error(void **state)
{
    float Q[2] = {NAN, 1}, K[2] = {1, 0}, V[1] = {1}, w[1], out[1];
    unsigned char fm[1] = {7};
    at_error err;
    at_error_clear(&err);
    at_attn_config c = at_attn_config_init(1, 1, 2, 1);
    assert_int_equal(at_attention_forward(&c, Q, K, V, w, out, fm, NULL, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "query 1 against key 1"));
    /* The same NaN behind a padding mask is skipped, as before. */
    float Q2[4] = {1, 0, 0, 1}, K2[4] = {NAN, 1, 1, 0}, V2[2] = {5, 3}, w2[4], out2[2];
    const unsigned char pad[2] = {1, 0};
    c = at_attn_config_init(2, 2, 2, 1);
    c.mask.key_padding = pad;
    assert_int_equal(at_attention_forward(&c, Q2, K2, V2, w2, out2, NULL, NULL, &err), AT_OK);
    const float want[2] = {3, 3};
    check_tensor(out2, want, 2, 1e-6f, "NaN key behind padding");
}

static void test_rejects_zero_dims(void **state)
{
    float x[4] = {0};
    at_error err;
    at_error_clear(&err);
    at_attn_config c = at_attn_config_init(2, 2, 0, 2);
    assert_int_equal(at_attention_forward(&c, x, x, x, x, x, NULL, NULL, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "d_k"));
    c = at_attn_config_init(0, 2, 2, 2);
    assert_int_equal(at_attention_forward(&c, x, x, x, x, x, NULL, NULL, &err), AT_EINVAL);
}

/* Independent reference: naive loops in double. */
static void naive_attention(size_t n_q, size_t n_k, size_t d_k, size_t d_v, const float *Q,
                            const float *K, const float *V, int causal, float *out)
{
    double *s = malloc(n_k * sizeof *s);
    for (size_t i = 0; i < n_q; i++) {
        double max = -INFINITY, sum = 0;
        for (size_t j = 0; j < n_k; j++) {
            double dot = 0;
            for (size_t d = 0; d < d_k; d++)
                dot += (double)Q[i * d_k + d] * K[j * d_k + d];
            s[j] = (causal && j > i) ? -INFINITY : dot / sqrt((double)d_k);
            if (s[j] > max)
                max = s[j];
        }
        for (size_t j = 0; j < n_k; j++)
            sum += (s[j] = exp(s[j] - max));
        for (size_t d = 0; d < d_v; d++) {
            double acc = 0;
            for (size_t j = 0; j < n_k; j++)
                acc += s[j] / sum * V[j * d_v + d];
            out[i * d_v + d] = (float)acc;
        }
    }
    free(s);
}

static void test_random_shapes_vs_naive(void **state)
{
    srand(12345);
    for (int trial = 0; trial < 40; trial++) {
        size_t n_q = 1 + rand() % 20, n_k = 1 + rand() % 20, d_k = 1 + rand() % 70, d_v = 1 + rand() % 30;
        int causal = rand() % 2;
        if (causal)
            n_k = n_q;
        float *Q = malloc(n_q * d_k * sizeof *Q), *K = malloc(n_k * d_k * sizeof *K);
        float *V = malloc(n_k * d_v * sizeof *V), *w = malloc(n_q * n_k * sizeof *w);
        float *out = malloc(n_q * d_v * sizeof *out), *ref = malloc(n_q * d_v * sizeof *ref);
        for (size_t i = 0; i < n_q * d_k; i++) Q[i] = (float)rand() / RAND_MAX * 2 - 1;
        for (size_t i = 0; i < n_k * d_k; i++) K[i] = (float)rand() / RAND_MAX * 2 - 1;
        for (size_t i = 0; i < n_k * d_v; i++) V[i] = (float)rand() / RAND_MAX * 2 - 1;
        at_attn_config c = at_attn_config_init(n_q, n_k, d_k, d_v);
        c.mask.causal = causal;
        assert_int_equal(at_attention_forward(&c, Q, K, V, w, out, NULL, NULL, NULL), AT_OK);
        naive_attention(n_q, n_k, d_k, d_v, Q, K, V, causal, ref);
        check_tensor(out, ref, n_q * d_v, 1e-5f, "attention vs naive");
        free(Q), free(K), free(V), free(w), free(out), free(ref);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgemm_4x4),
        cmocka_unit_test(test_softmax_huge_scores),
        cmocka_unit_test(test_softmax_negative),
        cmocka_unit_test(test_softmax_fully_masked),
        cmocka_unit_test(test_case_fully_masked_row),
        cmocka_unit_test(test_masked_nan_key_does_not_leak),
        cmocka_unit_test(test_rejects_zero_dims),
        cmocka_unit_test(test_unmasked_nan_is_an_error),
        cmocka_unit_test(test_random_shapes_vs_naive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
