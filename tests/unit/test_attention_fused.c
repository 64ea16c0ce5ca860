/* The fused small-n kernel (all heads in one pass, the softmax down the keys for 8
 * queries at once) against the per-head two-pass kernel: the same output and weights
 * within 1e-5 and the same fully-masked rows, over shapes that cross its blocks (8
 * queries, 8/4/1 keys, 32/8/1 columns), every mask, the edge cases (rows with no
 * visible key, +inf and -inf scores, non-finite values in masked keys and values, NaN
 * scores named by query and key, an infinite value reaching the rows that weight it),
 * and the whole layer (at_mha_forward), which takes it at these sizes. */
#include "check.h"
#include "engine/attention.h"
#include "engine/kernels.h"
#include "engine/vexp.h"

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

static void skip_without_avx2(void)
{
    if (!at_vhave_avx2()) {
        print_message("# skipped: this CPU has no AVX2 + FMA, the fused kernel is never used\n");
        skip();
    }
}

/* got and want agree: the same non-finite entries (NaN where NaN, the same infinity),
 * the finite ones within tol. */
static void check_same(const float *got, const float *want, size_t n, float tol, const char *what)
{
    float *g = malloc(n * sizeof *g), *w = malloc(n * sizeof *w);
    assert_non_null(g);
    assert_non_null(w);
    for (size_t i = 0; i < n; i++) {
        if (isfinite(got[i]) != isfinite(want[i]) || isnan(got[i]) != isnan(want[i]) ||
            (isinf(got[i]) && got[i] != want[i])) {
            print_error("%s: [%zu] is %g, want %g\n", what, i, (double)got[i], (double)want[i]);
            fail();
        }
        g[i] = isfinite(got[i]) ? got[i] : 0.0f;
        w[i] = isfinite(want[i]) ? want[i] : 0.0f;
    }
    check_tensor(g, w, n, tol, what);
    free(g), free(w);
}

/* One multi-head problem, already projected. */
typedef struct problem {
    size_t heads, d_model, n_q, n_k;
    const float *q, *k, *v;
    float scale;
    const at_mask *mask;
} problem;

/* Runs the two-pass path and the fused kernel chosen by `lanes` (at_mha_attend_ex's
 * fused argument: 2, 8 or 16; with or without weights); the same status, error message,
 * outputs, weights and fully-masked rows. Returns the status. */
static int compare_lanes(const problem *p, int with_weights, int lanes, const char *what)
{
    const size_t n_out = p->n_q * p->d_model, n_w = p->heads * p->n_q * p->n_k;
    float *out[2], *w[2];
    unsigned char *fm[2];
    at_error err[2];
    int rc[2];
    for (int f = 0; f < 2; f++) {
        at_workspace ws = {0};
        out[f] = malloc(n_out * sizeof(float));
        w[f] = with_weights ? malloc(n_w * sizeof(float)) : NULL;
        fm[f] = malloc(p->n_q);
        assert_non_null(out[f]);
        memset(fm[f], 7 + f, p->n_q);   /* every row must be written */
        at_error_clear(&err[f]);
        rc[f] = at_mha_attend_ex(p->heads, p->d_model, p->n_q, p->q, p->n_k, p->k, p->v, p->scale,
                                 p->mask, out[f], w[f], fm[f], NULL, &ws, f ? lanes : 0, &err[f]);
        at_workspace_free(&ws);
    }
    if (rc[0] != rc[1] || strcmp(err[0].msg, err[1].msg)) {
        print_error("%s: two-pass %d \"%s\", fused (%d lanes) %d \"%s\"\n", what, rc[0],
                    err[0].msg, lanes, rc[1], err[1].msg);
        fail();
    }
    if (rc[0] == AT_OK) {
        char name[160];
        snprintf(name, sizeof name, "%s, %d lanes: out", what, lanes);
        check_same(out[1], out[0], n_out, 1e-5f, name);
        if (with_weights) {
            snprintf(name, sizeof name, "%s, %d lanes: weights", what, lanes);
            check_same(w[1], w[0], n_w, 1e-5f, name);
        }
        assert_memory_equal(fm[1], fm[0], p->n_q);
    }
    for (int f = 0; f < 2; f++)
        free(out[f]), free(w[f]), free(fm[f]);
    return rc[0];
}

/* compare_lanes with every kernel: the AVX2 one (2), 8 lanes and 16 (where the CPU has
 * AVX-512: the 8-lane one with 16-column output sums and the 16-lane one; else the
 * AVX2 one again); the same status from all. */
static int compare(const problem *p, int with_weights, const char *what)
{
    int rc = compare_lanes(p, with_weights, 2, what);
    assert_int_equal(compare_lanes(p, with_weights, 8, what), rc);
    assert_int_equal(compare_lanes(p, with_weights, 16, what), rc);
    return rc;
}

static void test_shapes_and_masks(void **state)
{
    skip_without_avx2();
    srand(5);
    const size_t shapes[][4] = {   /* heads, d_model, n_q, n_k */
        {1, 4, 1, 1}, {8, 512, 8, 8}, {2, 24, 5, 13}, {4, 64, 17, 33}, {8, 512, 64, 64},
        {2, 80, 3, 256}, {3, 30, 100, 7}, {1, 256, 9, 200}, {8, 512, 16, 16}, {6, 96, 23, 12},
        {2, 128, 40, 600}, {4, 160, 37, 21}, {2, 96, 11, 70}, {1, 40, 6, 5},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const size_t H = shapes[s][0], D = shapes[s][1], n_q = shapes[s][2], n_k = shapes[s][3];
        /* scores as large as test_attention_online's (d_k ≤ 64, amplitude 3): both
         * kernels then stay within a few 1e-6 of the exact result */
        const float amp = D / H > 64 ? 1.5f : 3.0f;
        float *q = random_matrix(n_q * D, amp), *k = random_matrix(n_k * D, amp);
        float *v = random_matrix(n_k * D, 1);
        unsigned char *pad = malloc(n_k), *allowed = malloc(n_q * n_k);
        for (size_t j = 0; j < n_k; j++)
            pad[j] = rand() % 5 == 0;
        for (size_t i = 0; i < n_q * n_k; i++)
            allowed[i] = rand() % 3 != 0;
        for (size_t i = 0; i < n_q && n_k > 2; i += 7)   /* some rows see nothing */
            memset(allowed + i * n_k, 0, n_k);
        for (int m = 0; m < 5; m++) {
            at_mask mask = {.causal = m == 1 || m == 4,
                            .key_padding = m == 2 || m == 4 ? pad : NULL,
                            .allowed = m == 3 || m == 4 ? allowed : NULL};
            problem p = {H, D, n_q, n_k, q, k, v, 1.0f / sqrtf((float)(D / H)), &mask};
            char what[96];
            snprintf(what, sizeof what, "%zu heads, d_model %zu, %zu×%zu, mask %d", H, D, n_q,
                     n_k, m);
            assert_int_equal(compare(&p, 1, what), AT_OK);
            assert_int_equal(compare(&p, 0, what), AT_OK);
            p.scale = 1.0f;   /* unscaled: larger scores */
            assert_int_equal(compare(&p, 1, what), AT_OK);
            p.mask = NULL;
            assert_int_equal(compare(&p, 1, what), AT_OK);
        }
        free(q), free(k), free(v), free(pad), free(allowed);
    }
}

/* Scores that are +inf (shared equally), -inf (a row with nothing to attend to, in
 * head 0: flagged, zeros), or far above the rest; in both the full and the last,
 * partial block of queries. */
static void test_special_scores(void **state)
{
    skip_without_avx2();
    srand(9);
    enum { H = 2, D = 8, N = 20 };
    float *q = random_matrix(N * D, 1), *k = random_matrix(N * D, 1), *v = random_matrix(N * D, 1);
    for (size_t j = 0; j < N; j++) {
        k[j * D + 0] = j == 3 || j == 17 ? 1.0f : -1.0f;
        k[j * D + 1] = 1.0f;
    }
    for (size_t i = 1; i < N; i += 16) {   /* queries 1 and 17: ±inf against every key */
        q[i * D + 0] = INFINITY;
        q[i * D + 1] = q[i * D + 2] = q[i * D + 3] = 0.0f;
    }
    for (size_t i = 3; i < N; i += 16) {   /* queries 3 and 19: -inf against every key */
        q[i * D + 1] = -INFINITY;
        q[i * D + 0] = q[i * D + 2] = q[i * D + 3] = 0.0f;
    }
    for (size_t t = 0; t < 4; t++)         /* query 5 of head 1: one key far above */
        k[11 * D + 4 + t] = 500.0f * (q[5 * D + 4 + t] > 0 ? 1.0f : -1.0f);
    problem p = {H, D, N, N, q, k, v, 0.5f, NULL};
    assert_int_equal(compare(&p, 1, "±inf scores, a far maximum"), AT_OK);
    float out[N * D], w[H * N * N];
    unsigned char fm[N];
    at_workspace ws = {0};
    assert_int_equal(at_mha_attend_ex(H, D, N, q, N, k, v, 0.5f, NULL, out, w, fm, NULL, &ws, 1,
                                      NULL), AT_OK);
    for (size_t i = 1; i < N; i += 16)
        for (size_t j = 0; j < N; j++)
            assert_true(w[i * N + j] == (j == 3 || j == 17 ? 0.5f : 0.0f));
    for (size_t i = 0; i < N; i++)
        assert_int_equal(fm[i], i == 3 || i == 19);
    for (size_t t = 0; t < 4; t++)
        assert_true(out[3 * D + t] == 0.0f && out[19 * D + t] == 0.0f);
    assert_true(fabsf(w[(N + 5) * N + 11] - 1.0f) < 1e-6f);
    at_workspace_free(&ws);
    free(q), free(k), free(v);
}

/* A NaN or inf in a masked key or value reaches nothing; one in a visible value reaches
 * the rows that weight it; a NaN score that no mask hides is the same error, naming
 * the same query and key, in head 0 or a later head, in the first block or a later one. */
static void test_non_finite_inputs(void **state)
{
    skip_without_avx2();
    srand(13);
    enum { H = 2, D = 16, N = 40 };   /* 16-lane blocks: a pair (queries 1–32), a tail */
    float *q = random_matrix(N * D, 1), *k = random_matrix(N * D, 1), *v = random_matrix(N * D, 1);
    unsigned char pad[N] = {0}, allowed[N * N];
    pad[5] = 1;
    k[5 * D + 2] = NAN;
    v[5 * D + 3] = INFINITY;
    v[5 * D + 12] = NAN;
    at_mask mask = {.key_padding = pad};
    problem p = {H, D, N, N, q, k, v, 0.25f, &mask};
    assert_int_equal(compare(&p, 1, "NaN key, inf and NaN value, all masked"), AT_OK);
    mask.causal = 1;
    assert_int_equal(compare(&p, 1, "the same, causal"), AT_OK);
    pad[5] = 0;   /* now visible: queries 6… see key 6 under the causal mask */
    assert_int_equal(compare(&p, 1, "NaN score, causal"), AT_EINVAL);
    at_error err;
    at_workspace ws = {0};
    float out[N * D];
    assert_int_equal(at_mha_attend_ex(H, D, N, q, N, k, v, 0.25f, &mask, out, NULL, NULL, NULL,
                                      &ws, 1, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "query 6 against key 6"));
    k[5 * D + 2] = 0.5f;
    k[20 * D + 9] = NAN;   /* head 1 only; only query 13 may see key 21 */
    memset(allowed, 1, sizeof allowed);
    for (size_t i = 0; i < N; i++)
        allowed[i * N + 20] = i == 12;
    mask = (at_mask){.allowed = allowed};
    assert_int_equal(compare(&p, 1, "NaN score in head 1, a later block"), AT_EINVAL);
    assert_int_equal(at_mha_attend_ex(H, D, N, q, N, k, v, 0.25f, &mask, out, NULL, NULL, NULL,
                                      &ws, 1, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "query 13 against key 21"));
    for (size_t i = 0; i < N; i++)   /* now queries 20 (second block) and 36 (tail) */
        allowed[i * N + 20] = i == 19 || i == 35;
    assert_int_equal(compare(&p, 1, "NaN score in the second block of a pair"), AT_EINVAL);
    assert_int_equal(at_mha_attend_ex(H, D, N, q, N, k, v, 0.25f, &mask, out, NULL, NULL, NULL,
                                      &ws, 1, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "query 20 against key 21"));
    k[20 * D + 9] = 0.5f;
    mask = (at_mask){.causal = 1};   /* key 6's inf and NaN values reach queries 6… only */
    assert_int_equal(compare(&p, 1, "visible non-finite values, causal"), AT_OK);
    assert_int_equal(at_mha_attend_ex(H, D, N, q, N, k, v, 0.25f, &mask, out, NULL, NULL, NULL,
                                      &ws, 1, &err), AT_OK);
    assert_true(isfinite(out[4 * D + 3]) && isinf(out[5 * D + 3]) && isnan(out[5 * D + 12]));
    at_workspace_free(&ws);
    free(q), free(k), free(v);
}

/* Past 1024 keys without weights the fused kernel goes in tiles of 512 keys for 64
 * queries at a time with the online softmax: the same output as the two-pass kernel
 * (then the O(n) one) for every mask, with a row's maximum only in the last tile, rows
 * with nothing visible, and scores that send it back to whole rows (+inf shared
 * equally, a NaN named by query and key). */
static void test_tiles(void **state)
{
    skip_without_avx2();
    srand(23);
    enum { H = 2, D = 128, NQ = 150, NK = 1300 };
    float *q = random_matrix(NQ * D, 2), *k = random_matrix(NK * D, 2);
    float *v = random_matrix(NK * D, 1);
    unsigned char *pad = malloc(NK), *allowed = malloc(NQ * NK);
    for (size_t j = 0; j < NK; j++)
        pad[j] = rand() % 7 == 0;
    for (size_t i = 0; i < NQ * NK; i++)
        allowed[i] = rand() % 4 != 0;
    for (size_t i = 5; i < NQ; i += 40)   /* rows with nothing visible, in several blocks */
        memset(allowed + i * NK, 0, NK);
    for (size_t t = 0; t < 64; t++)       /* query 4, head 0: one key far above, last tile */
        k[1290 * D + t] = 40.0f * (q[3 * D + t] > 0 ? 1.0f : -1.0f);
    for (int m = 0; m < 5; m++) {
        at_mask mask = {.causal = m == 1 || m == 4,
                        .key_padding = m == 2 || m == 4 ? pad : NULL,
                        .allowed = m == 3 || m == 4 ? allowed : NULL};
        problem p = {H, D, NQ, NK, q, k, v, 0.125f, &mask};
        char what[64];
        snprintf(what, sizeof what, "tiles, mask %d", m);
        assert_int_equal(compare(&p, 0, what), AT_OK);
    }
    problem p = {H, D, NQ, NK, q, k, v, 0.125f, NULL};
    q[70 * D + 64] = INFINITY;   /* query 71, head 1: +inf against some keys */
    for (size_t t = 65; t < 128; t++)
        q[70 * D + t] = 0.0f;
    assert_int_equal(compare(&p, 0, "tiles, +inf scores"), AT_OK);
    q[70 * D + 64] = 0.5f;
    k[700 * D + 3] = NAN;        /* key 701 seen by query 100 only */
    for (size_t i = 0; i < NQ; i++)
        allowed[i * NK + 700] = i == 99;
    at_mask mask = {.allowed = allowed};
    p.mask = &mask;
    assert_int_equal(compare(&p, 0, "tiles, a NaN score"), AT_EINVAL);
    float *out = malloc(NQ * D * sizeof *out);
    at_workspace ws = {0};
    at_error err;
    assert_int_equal(at_mha_attend_ex(H, D, NQ, q, NK, k, v, 0.125f, &mask, out, NULL, NULL, NULL,
                                      &ws, 1, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "query 100 against key 701"));
    at_workspace_free(&ws);
    free(q), free(k), free(v), free(pad), free(allowed), free(out);
}

/* The whole layer takes the fused kernel at these sizes: its concatenated heads match
 * the two-pass kernel's on the same projections. */
static void test_layer(void **state)
{
    skip_without_avx2();
    srand(17);
    enum { H = 4, D = 64, N = 12 };
    float *X = random_matrix(N * D, 1), *W = random_matrix(4 * D * D, 0.3f);
    at_mha_weights mw = {.d_model = D, .n_heads = H, .W_q = W, .W_k = W + D * D,
                         .W_v = W + 2 * D * D, .W_o = W + 3 * D * D};
    float q[N * D], k[N * D], v[N * D], heads[N * D], out[N * D], want[N * D];
    float w[H * N * N], w_want[H * N * N];
    at_mha_trace tr = {.q = q, .k = k, .v = v, .heads_out = heads};
    at_mask mask = {.causal = 1};
    at_workspace ws = {0};
    assert_int_equal(at_mha_forward(&mw, N, X, N, X, 0.25f, &mask, out, w, NULL, &tr, &ws, NULL),
                     AT_OK);
    assert_int_equal(at_mha_attend_ex(H, D, N, q, N, k, v, 0.25f, &mask, want, w_want, NULL, NULL,
                                      &ws, 0, NULL), AT_OK);
    check_tensor(heads, want, N * D, 1e-5f, "layer heads");
    check_tensor(w, w_want, H * N * N, 1e-5f, "layer weights");
    at_workspace_free(&ws);
    free(X), free(W);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_and_masks),
        cmocka_unit_test(test_special_scores),
        cmocka_unit_test(test_non_finite_inputs),
        cmocka_unit_test(test_tiles),
        cmocka_unit_test(test_layer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
