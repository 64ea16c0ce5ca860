/* The O(n)-memory attention kernel (online softmax over tiles of keys, used when the
 * weights are not asked for) against the two-pass kernel: the same output within 1e-5
 * and the same fully-masked rows, over shapes that cross its tiles (64 query rows, 256
 * keys), every mask, the edge cases (rows with no visible key, +inf and -inf scores,
 * non-finite values in masked keys and values, NaN scores), multi-head attention, and
 * no n × n scratch. */
#include "check.h"
#include "engine/attention.h"
#include "engine/kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float *random_matrix(size_t n, float amplitude)
{
    float *m = malloc(n * sizeof *m);
    assert_non_null(m);
    for (size_t i = 0; i < n; i++)
        m[i] = ((float)rand() / (float)RAND_MAX * 2.0f - 1.0f) * amplitude;
    return m;
}

/* Runs both kernels on c; compares outputs (within tol) and fully-masked flags. */
static void compare(const at_attn_config *c, const float *Q, const float *K, const float *V,
                    float tol, const char *what)
{
    const size_t n_out = c->n_q * (c->ld_out ? c->ld_out : c->d_v);
    float *w = malloc(c->n_q * c->n_k * sizeof *w);
    float *out2 = calloc(n_out, sizeof *out2), *out1 = calloc(n_out, sizeof *out1);
    unsigned char *fm2 = malloc(c->n_q), *fm1 = malloc(c->n_q);
    at_error err;
    assert_non_null(w);
    assert_int_equal(at_attention_forward(c, Q, K, V, w, out2, fm2, NULL, &err), AT_OK);
    memset(fm1, 7, c->n_q);
    int rc = at_attention_forward(c, Q, K, V, NULL, out1, fm1, NULL, &err);
    if (rc)
        print_error("%s: %s\n", what, err.msg);
    assert_int_equal(rc, AT_OK);
    check_tensor(out1, out2, n_out, tol, what);
    assert_memory_equal(fm1, fm2, c->n_q);
    free(w), free(out1), free(out2), free(fm1), free(fm2);
}

static void test_shapes_and_masks(void **state)
{
    srand(7);
    const size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
        {1, 1, 4, 4}, {3, 700, 16, 8}, {64, 256, 32, 32}, {65, 257, 8, 16},
        {150, 1000, 64, 64}, {300, 300, 24, 40}, {129, 513, 5, 3},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const size_t n_q = shapes[s][0], n_k = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
        float *Q = random_matrix(n_q * d_k, 3), *K = random_matrix(n_k * d_k, 3);
        float *V = random_matrix(n_k * d_v, 1);
        unsigned char *pad = malloc(n_k), *allowed = malloc(n_q * n_k);
        for (size_t j = 0; j < n_k; j++)
            pad[j] = rand() % 5 == 0;
        for (size_t i = 0; i < n_q * n_k; i++)
            allowed[i] = rand() % 3 != 0;
        for (size_t i = 0; i < n_q && n_k > 2; i += 7)   /* some rows see nothing */
            memset(allowed + i * n_k, 0, n_k);
        for (int m = 0; m < 5; m++) {
            at_attn_config c = at_attn_config_init(n_q, n_k, d_k, d_v);
            c.mask.causal = m == 1 || m == 4;
            c.mask.key_padding = m == 2 || m == 4 ? pad : NULL;
            c.mask.allowed = m == 3 || m == 4 ? allowed : NULL;
            char what[96];
            snprintf(what, sizeof what, "%zu×%zu, d_k %zu, d_v %zu, mask %d", n_q, n_k, d_k, d_v, m);
            compare(&c, Q, K, V, 1e-5f, what);
            c.scale = 1.0f;   /* unscaled: larger scores, the running maximum moves more */
            compare(&c, Q, K, V, 1e-5f, what);
        }
        free(Q), free(K), free(V), free(pad), free(allowed);
    }
}

/* Column slices of wider matrices (a head of multi-head attention). */
static void test_strides(void **state)
{
    srand(3);
    const size_t n = 600, d = 96, d_head = 32;
    float *Q = random_matrix(n * d, 2), *K = random_matrix(n * d, 2), *V = random_matrix(n * d, 1);
    at_attn_config c = at_attn_config_init(n, n, d_head, d_head);
    c.ld_q = c.ld_k = c.ld_v = c.ld_out = d;
    compare(&c, Q + d_head, K + d_head, V + d_head, 1e-5f, "head 2 of 3, strided");
    free(Q), free(K), free(V);
}

/* Scores that are ±inf, or huge, or whose maximum comes only in a late tile. */
static void test_special_scores(void **state)
{
    const size_t n_q = 70, n_k = 600, d = 4;
    float *Q = random_matrix(n_q * d, 1), *K = random_matrix(n_k * d, 1), *V = random_matrix(n_k * d, 1);
    /* row 0: one key far above the rest, in the last tile */
    for (size_t t = 0; t < d; t++)
        K[590 * d + t] = 500.0f * (Q[t] > 0 ? 1.0f : -1.0f);
    /* row 1: +inf scores against two keys (in different tiles), finite elsewhere */
    Q[1 * d + 0] = INFINITY, Q[1 * d + 1] = Q[1 * d + 2] = Q[1 * d + 3] = 0.0f;
    for (size_t j = 0; j < n_k; j++)
        K[j * d + 0] = j == 10 || j == 400 ? 1.0f : -1.0f;
    /* (K[j][0] = -1 elsewhere: those scores are -inf, weight 0) */
    at_attn_config c = at_attn_config_init(n_q, n_k, d, d);
    at_error err;
    float *w = malloc(n_q * n_k * sizeof *w), *out = malloc(n_q * d * sizeof *out);
    /* Q[1] · K[j] = inf·K[j][0] + 0·…: 0·finite = 0, so the scores are ±inf exactly */
    assert_int_equal(at_attention_forward(&c, Q, K, V, w, out, NULL, NULL, &err), AT_OK);
    assert_true(fabsf(w[1 * n_k + 10] - 0.5f) < 1e-7f && fabsf(w[1 * n_k + 400] - 0.5f) < 1e-7f);
    compare(&c, Q, K, V, 1e-5f, "±inf scores, a far maximum in the last tile");
    free(Q), free(K), free(V), free(w), free(out);
}

/* A NaN or inf in a masked key or value reaches nothing; one in a visible value
 * reaches the rows that give it weight; a NaN score that no mask hides is the same
 * error (query and key named) as in the two-pass kernel. */
static void test_non_finite_inputs(void **state)
{
    const size_t n = 520, d = 8;
    float *Q = random_matrix(n * d, 1), *K = random_matrix(n * d, 1), *V = random_matrix(n * d, 1);
    unsigned char *pad = calloc(n, 1);
    pad[300] = 1;
    K[300 * d + 2] = NAN;
    V[300 * d + 5] = INFINITY;
    at_attn_config c = at_attn_config_init(n, n, d, d);
    c.mask.key_padding = pad;
    compare(&c, Q, K, V, 1e-5f, "NaN key and inf value, both masked");
    float *out = malloc(n * d * sizeof *out);
    at_error err;
    c.mask.key_padding = NULL;   /* now key 301's NaN is visible to every query */
    assert_int_equal(at_attention_forward(&c, Q, K, V, NULL, out, NULL, NULL, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "query 1 against key 301"));
    K[300 * d + 2] = 0.5f;       /* a visible infinite value: NaN only where it is weighted */
    c.mask.causal = 1;
    compare(&c, Q, K, V, 1e-5f, "an infinite value, causal");
    free(Q), free(K), free(V), free(pad), free(out);
}

/* Multi-head attention without weights: the same output as with them, and no n × n
 * scratch (the workspace stays far below one head's weights). */
static void test_mha_without_weights(void **state)
{
    srand(11);
    const size_t H = 8, d = 256, n = 1100;
    float *q = random_matrix(n * d, 1), *k = random_matrix(n * d, 1), *v = random_matrix(n * d, 1);
    float *out1 = malloc(n * d * sizeof *out1), *out2 = malloc(n * d * sizeof *out2);
    float *w = malloc(H * n * n * sizeof *w);
    const at_mask masks[2] = {{0}, {.causal = 1}};
    for (int m = 0; m < 2; m++) {
        at_workspace ws1 = {0}, ws2 = {0};
        at_error err;
        float scale = 1.0f / sqrtf((float)(d / H));
        assert_int_equal(at_mha_attend(H, d, n, q, n, k, v, scale, &masks[m], out2, w, NULL, NULL,
                                       &ws2, &err), AT_OK);
        assert_int_equal(at_mha_attend(H, d, n, q, n, k, v, scale, &masks[m], out1, NULL, NULL,
                                       NULL, &ws1, &err), AT_OK);
        check_tensor(out1, out2, n * d, 1e-5f, m ? "8 heads, causal" : "8 heads");
        print_message("# workspace without weights: %zu floats (one head's weights: %zu)\n",
                      ws1.cap, n * n);
        /* O(n): nothing, or on one thread the fused kernel's scratch (one head's keys and
         * values, the scores of two blocks or of a tile, the queries of four blocks) */
        assert_true(ws1.cap <= AT_FUSED_PACK(n, d / H));
        assert_true(AT_FUSED_PACK(n, d / H) < n * n / 10);
        at_workspace_free(&ws1);
        at_workspace_free(&ws2);
    }
    free(q), free(k), free(v), free(out1), free(out2), free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_and_masks),
        cmocka_unit_test(test_strides),
        cmocka_unit_test(test_special_scores),
        cmocka_unit_test(test_non_finite_inputs),
        cmocka_unit_test(test_mha_without_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
