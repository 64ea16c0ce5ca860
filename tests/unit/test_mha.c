/* Multi-head attention and cross-attention (Vaswani et al. 2017, §3.2.2–3.2.3)
 * against an independent naive implementation in double; masks, traces, the
 * vectorised softmax exp, and BLAS thread settings (case 3). */
#include "check.h"
#include "engine/attention.h"
#include "engine/kernels.h"
#include "engine/vexp.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static float frand(void)
{
    return (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
}

static float *random_matrix(size_t n, float amplitude)
{
    float *m = malloc(n * sizeof *m);
    assert_non_null(m);
    for (size_t i = 0; i < n; i++)
        m[i] = frand() * amplitude;
    return m;
}

/* One multi-head problem: inputs, weights, mask. */
typedef struct problem {
    size_t n_q, n_k, d_model, n_heads;
    float *X_q, *X_kv, *W[4], *b[4];   /* q, k, v, o */
    int causal;
    unsigned char *pad, *allowed;
    float scale;
} problem;

/* Everything the naive reference computes, in double, rounded to float at the end. */
typedef struct reference {
    float *q, *k, *v, *scores, *scaled, *weights, *heads_out, *out;
    unsigned char *fully_masked;
} reference;

static int naive_visible(const problem *p, size_t i, size_t j)
{
    if (p->causal && j > i)
        return 0;
    if (p->pad && p->pad[j])
        return 0;
    if (p->allowed && !p->allowed[i * p->n_k + j])
        return 0;
    return 1;
}

/* y[n × d] = X[n × d] · W[d × d] + b, in double. */
static void naive_linear(size_t n, size_t d, const double *X, const float *W, const float *b,
                         double *y)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < d; c++) {
            double acc = b ? b[c] : 0.0;
            for (size_t r = 0; r < d; r++)
                acc += X[i * d + r] * W[r * d + c];
            y[i * d + c] = acc;
        }
}

static double *to_double(const float *x, size_t n)
{
    double *y = malloc(n * sizeof *y);
    assert_non_null(y);
    for (size_t i = 0; i < n; i++)
        y[i] = x[i];
    return y;
}

static float *to_float(const double *x, size_t n)
{
    float *y = malloc(n * sizeof *y);
    assert_non_null(y);
    for (size_t i = 0; i < n; i++)
        y[i] = (float)x[i];
    return y;
}

/* One head's scores, softmax and weighted sum of values, written into the
 * reference arrays (s, w for this head; heads for all heads). */
static void naive_head(const problem *p, size_t h, const double *q, const double *k,
                       const double *v, double *s, double *sc, double *w, double *heads,
                       unsigned char *fm)
{
    const size_t d = p->d_model, dh = d / p->n_heads, n_k = p->n_k;
    for (size_t i = 0; i < p->n_q; i++) {
        double max = -INFINITY, sum = 0.0;
        int any = 0;
        for (size_t j = 0; j < n_k; j++) {
            double dot = 0.0;
            for (size_t c = 0; c < dh; c++)
                dot += q[i * d + h * dh + c] * k[j * d + h * dh + c];
            int vis = naive_visible(p, i, j);
            s[i * n_k + j] = vis ? dot : -INFINITY;
            sc[i * n_k + j] = vis ? dot * p->scale : -INFINITY;
            if (vis && sc[i * n_k + j] > max)
                max = sc[i * n_k + j];
            any |= vis;
        }
        fm[i] = (unsigned char)!any;
        for (size_t j = 0; j < n_k; j++) {
            w[i * n_k + j] = naive_visible(p, i, j) ? exp(sc[i * n_k + j] - max) : 0.0;
            sum += w[i * n_k + j];
        }
        for (size_t j = 0; j < n_k; j++)
            w[i * n_k + j] = any ? w[i * n_k + j] / sum : 0.0;
        for (size_t c = 0; c < dh; c++) {
            double acc = 0.0;
            for (size_t j = 0; j < n_k; j++)
                if (w[i * n_k + j] != 0.0)
                    acc += w[i * n_k + j] * v[j * d + h * dh + c];
            heads[i * d + h * dh + c] = acc;
        }
    }
}

static reference naive_mha(const problem *p)
{
    const size_t n_q = p->n_q, n_k = p->n_k, d = p->d_model, H = p->n_heads;
    double *xq = to_double(p->X_q, n_q * d), *xkv = to_double(p->X_kv, n_k * d);
    double *q = malloc(n_q * d * sizeof *q), *k = malloc(n_k * d * sizeof *k);
    double *v = malloc(n_k * d * sizeof *v), *heads = malloc(n_q * d * sizeof *heads);
    double *out = malloc(n_q * d * sizeof *out);
    double *s = malloc(H * n_q * n_k * sizeof *s), *sc = malloc(H * n_q * n_k * sizeof *sc);
    double *w = malloc(H * n_q * n_k * sizeof *w);
    reference r = {0};
    r.fully_masked = malloc(n_q);
    assert_true(q && k && v && heads && out && s && sc && w && r.fully_masked);
    naive_linear(n_q, d, xq, p->W[0], p->b[0], q);
    naive_linear(n_k, d, xkv, p->W[1], p->b[1], k);
    naive_linear(n_k, d, xkv, p->W[2], p->b[2], v);
    for (size_t h = 0; h < H; h++)
        naive_head(p, h, q, k, v, s + h * n_q * n_k, sc + h * n_q * n_k, w + h * n_q * n_k,
                   heads, r.fully_masked);
    naive_linear(n_q, d, heads, p->W[3], p->b[3], out);
    r.q = to_float(q, n_q * d), r.k = to_float(k, n_k * d), r.v = to_float(v, n_k * d);
    r.scores = to_float(s, H * n_q * n_k), r.scaled = to_float(sc, H * n_q * n_k);
    r.weights = to_float(w, H * n_q * n_k);
    r.heads_out = to_float(heads, n_q * d), r.out = to_float(out, n_q * d);
    free(xq), free(xkv), free(q), free(k), free(v), free(heads), free(out);
    free(s), free(sc), free(w);
    return r;
}

static void reference_free(reference *r)
{
    free(r->q), free(r->k), free(r->v), free(r->scores), free(r->scaled);
    free(r->weights), free(r->heads_out), free(r->out), free(r->fully_masked);
}

static problem problem_random(size_t n_q, size_t n_k, size_t d_model, size_t n_heads,
                              int biases)
{
    problem p = {.n_q = n_q, .n_k = n_k, .d_model = d_model, .n_heads = n_heads};
    p.X_q = random_matrix(n_q * d_model, 1.0f);
    p.X_kv = random_matrix(n_k * d_model, 1.0f);
    float amp = 1.0f / sqrtf((float)d_model);
    for (int i = 0; i < 4; i++) {
        p.W[i] = random_matrix(d_model * d_model, amp * 1.7f);
        p.b[i] = biases ? random_matrix(d_model, 0.5f) : NULL;
    }
    p.scale = 1.0f / sqrtf((float)(d_model / n_heads));
    return p;
}

static void problem_free(problem *p)
{
    free(p->X_q), free(p->X_kv), free(p->pad), free(p->allowed);
    for (int i = 0; i < 4; i++)
        free(p->W[i]), free(p->b[i]);
}

static at_mha_weights weights_of(const problem *p)
{
    return (at_mha_weights){.d_model = p->d_model, .n_heads = p->n_heads,
                            .W_q = p->W[0], .W_k = p->W[1], .W_v = p->W[2], .W_o = p->W[3],
                            .b_q = p->b[0], .b_k = p->b[1], .b_v = p->b[2], .b_o = p->b[3]};
}

/* Runs the engine with every trace buffer and checks all of it against the naive
 * reference: output within 1e-5, intermediates, weights, fully-masked flags. */
static void check_problem(const problem *p, at_workspace *ws)
{
    const size_t n_q = p->n_q, n_k = p->n_k, d = p->d_model, H = p->n_heads;
    at_mha_weights w = weights_of(p);
    at_mask mask = {.causal = p->causal, .key_padding = p->pad, .allowed = p->allowed};
    float *out = malloc(n_q * d * sizeof *out), *wt = malloc(H * n_q * n_k * sizeof *wt);
    unsigned char *fm = malloc(n_q);
    at_mha_trace t = {
        .q = malloc(n_q * d * sizeof(float)), .k = malloc(n_k * d * sizeof(float)),
        .v = malloc(n_k * d * sizeof(float)), .scores = malloc(H * n_q * n_k * sizeof(float)),
        .scaled = malloc(H * n_q * n_k * sizeof(float)),
        .heads_out = malloc(n_q * d * sizeof(float)),
    };
    at_error err;
    at_error_clear(&err);
    assert_int_equal(at_mha_forward(&w, n_q, p->X_q, n_k, p->X_kv, p->scale, &mask, out, wt,
                                    fm, &t, ws, &err), AT_OK);
    reference r = naive_mha(p);
    check_tensor(out, r.out, n_q * d, 1e-5f, "mha output");
    check_tensor(wt, r.weights, H * n_q * n_k, 1e-6f, "mha weights");
    check_tensor(t.q, r.q, n_q * d, 1e-5f, "trace q");
    check_tensor(t.k, r.k, n_k * d, 1e-5f, "trace k");
    check_tensor(t.v, r.v, n_k * d, 1e-5f, "trace v");
    check_tensor(t.heads_out, r.heads_out, n_q * d, 1e-5f, "trace heads_out");
    /* check_tensor treats inf - inf as NaN; compare the masked entries exactly. */
    for (size_t i = 0; i < H * n_q * n_k; i++) {
        assert_int_equal(t.scores[i] == -INFINITY, r.scores[i] == -INFINITY);
        assert_int_equal(t.scaled[i] == -INFINITY, r.scaled[i] == -INFINITY);
        if (r.scores[i] == -INFINITY)
            t.scores[i] = r.scores[i] = t.scaled[i] = r.scaled[i] = 0.0f;
    }
    check_tensor(t.scores, r.scores, H * n_q * n_k, 1e-5f, "trace scores");
    check_tensor(t.scaled, r.scaled, H * n_q * n_k, 1e-5f, "trace scaled");
    assert_memory_equal(fm, r.fully_masked, n_q);
    /* The attention core alone, on the projections, gives the concatenated heads. */
    memset(fm, 0xff, n_q);
    assert_int_equal(at_mha_attend(H, d, n_q, t.q, n_k, t.k, t.v, p->scale, &mask, out, wt, fm,
                                   NULL, ws, &err), AT_OK);
    check_tensor(out, r.heads_out, n_q * d, 1e-5f, "at_mha_attend output");
    check_tensor(wt, r.weights, H * n_q * n_k, 1e-6f, "at_mha_attend weights");
    assert_memory_equal(fm, r.fully_masked, n_q);
    reference_free(&r);
    free(out), free(wt), free(fm);
    free(t.q), free(t.k), free(t.v), free(t.scores), free(t.scaled), free(t.heads_out);
}

static void test_random_shapes_vs_naive(void **state)
{
    srand(2017);
    at_workspace ws = {0};
    for (int trial = 0; trial < 60; trial++) {
        size_t H = 1 + (size_t)rand() % 4, dh = 1 + (size_t)rand() % 24;
        size_t n_q = 1 + (size_t)rand() % 17;
        size_t n_k = trial % 3 == 0 ? 1 + (size_t)rand() % 17 : n_q;
        problem p = problem_random(n_q, n_k, H * dh, H, rand() % 2);
        if (n_k == n_q) {
            memcpy(p.X_kv, p.X_q, n_q * p.d_model * sizeof(float));   /* self-attention */
            p.causal = rand() % 2;
        }
        if (rand() % 2) {
            p.pad = calloc(n_k, 1);
            for (size_t j = 0; j < n_k; j++)
                p.pad[j] = rand() % 4 == 0;
        }
        check_problem(&p, &ws);
        problem_free(&p);
    }
    at_workspace_free(&ws);
}

/* Cross-attention: queries from a decoder sequence of 3 tokens, keys and values
 * from an encoder sequence of 7 (and the reverse, n_q > n_k). */
static void test_cross_attention(void **state)
{
    srand(3);
    at_workspace ws = {0};
    const size_t shapes[][2] = {{3, 7}, {9, 2}, {1, 12}, {12, 1}};
    for (size_t s = 0; s < 4; s++) {
        problem p = problem_random(shapes[s][0], shapes[s][1], 24, 4, 1);
        check_problem(&p, &ws);
        /* The same with the last encoder token padded. */
        p.pad = calloc(p.n_k, 1);
        p.pad[p.n_k - 1] = p.n_k > 1;
        check_problem(&p, &ws);
        problem_free(&p);
    }
    at_workspace_free(&ws);
}

static void test_heads_must_divide_d_model(void **state)
{
    problem p = problem_random(2, 2, 10, 4, 0);
    at_mha_weights w = weights_of(&p);
    float out[20];
    at_workspace ws = {0};
    at_error err;
    at_error_clear(&err);
    assert_int_equal(at_mha_forward(&w, 2, p.X_q, 2, p.X_kv, 1.0f, NULL, out, NULL, NULL, NULL,
                                    &ws, &err), AT_EINVAL);
    assert_int_equal(err.code, AT_EINVAL);
    assert_non_null(strstr(err.msg, "d_model"));
    w.n_heads = 0;
    assert_int_equal(at_mha_forward(&w, 2, p.X_q, 2, p.X_kv, 1.0f, NULL, out, NULL, NULL, NULL,
                                    &ws, &err), AT_EINVAL);
    w.n_heads = 5;   /* 5 divides 10 */
    assert_int_equal(at_mha_forward(&w, 2, p.X_q, 2, p.X_kv, 1.0f, NULL, out, NULL, NULL, NULL,
                                    &ws, &err), AT_OK);
    w.n_heads = 2;
    assert_int_equal(at_mha_forward(&w, 0, p.X_q, 2, p.X_kv, 1.0f, NULL, out, NULL, NULL, NULL,
                                    &ws, &err), AT_EINVAL);
    at_workspace_free(&ws);
    problem_free(&p);
}

/* An arbitrary boolean mask (1 = may attend), with one row that sees nothing:
 * its weights are 0, it is flagged, and its output is just the W_o bias. */
static void test_allowed_mask(void **state)
{
    srand(11);
    at_workspace ws = {0};
    for (int trial = 0; trial < 10; trial++) {
        size_t n_q = 2 + (size_t)rand() % 8, n_k = 2 + (size_t)rand() % 8;
        problem p = problem_random(n_q, n_k, 16, 2, 1);
        p.allowed = malloc(n_q * n_k);
        for (size_t i = 0; i < n_q * n_k; i++)
            p.allowed[i] = rand() % 3 != 0;
        memset(p.allowed + n_k, 0, n_k);   /* row 1 fully masked */
        p.causal = trial % 2;
        check_problem(&p, &ws);

        float out[16 * 9];
        unsigned char fm[9];
        at_mha_weights w = weights_of(&p);
        at_mask mask = {.causal = p.causal, .allowed = p.allowed};
        assert_int_equal(at_mha_forward(&w, n_q, p.X_q, n_k, p.X_kv, p.scale, &mask, out, NULL,
                                        fm, NULL, &ws, NULL), AT_OK);
        assert_int_equal(fm[1], 1);
        check_tensor(out + 16, p.b[3], 16, 1e-6f, "fully masked row = b_o");
        problem_free(&p);
    }
    at_workspace_free(&ws);
}

/* A padded key holding NaN and inf in the input must not reach any output. */
static void test_masked_key_nan_does_not_leak(void **state)
{
    srand(5);
    problem p = problem_random(4, 5, 8, 2, 1);
    p.X_kv[2 * 8 + 3] = NAN;
    p.X_kv[2 * 8 + 5] = INFINITY;
    p.pad = calloc(5, 1);
    p.pad[2] = 1;
    float out[32], wt[2 * 4 * 5];
    at_workspace ws = {0};
    at_mha_weights w = weights_of(&p);
    at_mask mask = {.key_padding = p.pad};
    assert_int_equal(at_mha_forward(&w, 4, p.X_q, 5, p.X_kv, p.scale, &mask, out, wt, NULL, NULL,
                                    &ws, NULL), AT_OK);
    for (size_t i = 0; i < 32; i++)
        assert_true(isfinite(out[i]));
    /* Same as the reference run with the key zeroed (masked, so its values do not matter). */
    memset(p.X_kv + 2 * 8, 0, 8 * sizeof(float));
    reference r = naive_mha(&p);
    check_tensor(out, r.out, 32, 1e-5f, "output with a NaN padded key");
    check_tensor(wt, r.weights, 40, 1e-6f, "weights with a NaN padded key");
    reference_free(&r);
    at_workspace_free(&ws);
    problem_free(&p);
}

/* Repeated calls reuse the workspace: no reallocation once it is large enough. */
static void test_workspace_reused(void **state)
{
    srand(8);
    problem big = problem_random(16, 16, 32, 4, 0), small = problem_random(4, 6, 32, 4, 0);
    at_workspace ws = {0};
    float out[16 * 32];
    at_mha_weights w = weights_of(&big);
    assert_int_equal(at_mha_forward(&w, 16, big.X_q, 16, big.X_kv, big.scale, NULL, out, NULL,
                                    NULL, NULL, &ws, NULL), AT_OK);
    const float *data = ws.data;
    size_t cap = ws.cap;
    for (int rep = 0; rep < 3; rep++) {
        check_problem(&small, &ws);
        check_problem(&big, &ws);
    }
    assert_ptr_equal(ws.data, data);
    assert_int_equal(ws.cap, cap);
    at_workspace_free(&ws);
    problem_free(&big), problem_free(&small);
}

/* The vectorised exp of the softmax stays within 1e-6 relative of expf, on
 * rows of every length around the vector widths and over the whole range. */
static void test_softmax_matches_expf(void **state)
{
    srand(99);
    float x[67], ref[67];
    double worst = 0.0;
    for (int trial = 0; trial < 400; trial++) {
        size_t n = 1 + (size_t)trial % 67;
        float spread = trial % 4 == 0 ? 100.0f : trial % 4 == 1 ? 10.0f : 1.0f;
        for (size_t j = 0; j < n; j++)
            x[j] = frand() * spread;
        float max = -INFINITY;
        for (size_t j = 0; j < n; j++)
            max = x[j] > max ? x[j] : max;
        double sum = 0.0;
        for (size_t j = 0; j < n; j++)
            sum += ref[j] = expf(x[j] - max);
        for (size_t j = 0; j < n; j++)
            ref[j] = (float)(ref[j] / sum);
        assert_int_equal(at_softmax_row(x, NULL, n), 0);
        for (size_t j = 0; j < n; j++) {
            if (ref[j] < 1e-30f) {   /* deep underflow: absolute, not relative */
                assert_true(x[j] < 1e-30f);
                continue;
            }
            double rel = fabs((double)x[j] - ref[j]) / ref[j];
            worst = rel > worst ? rel : worst;
        }
    }
    print_message("# softmax vs expf: worst relative difference %.3g\n", worst);
    assert_true(worst <= 1e-6);
}

/* The SSE2 kernels (taken on CPUs without AVX2) agree with expf as well, and
 * with the AVX2 ones where this CPU has them. */
static void test_sse2_kernels(void **state)
{
    srand(4);
    float x[37], y[37];
    for (int trial = 0; trial < 200; trial++) {
        size_t n = 1 + (size_t)trial % 37;
        for (size_t j = 0; j < n; j++)
            x[j] = y[j] = frand() * (trial % 2 ? 30.0f : 3.0f);
        if (trial % 5 == 0)
            x[n / 2] = y[n / 2] = NAN;   /* ignored by the maximum */
        float max = at_vmax_sse2(x, n), want = -INFINITY;
        for (size_t j = 0; j < n; j++)
            want = x[j] > want ? x[j] : want;
        assert_true(max == want);
        if (at_vhave_avx2())
            assert_true(at_vmax_avx2(x, n) == max);
        double sum = at_vexp_shift_sse2(x, n, max), want_sum = 0.0;
        for (size_t j = 0; j < n; j++) {
            if (isnan(y[j])) {
                assert_true(isnan(x[j]));
                continue;
            }
            float e = expf(y[j] - max);
            want_sum += e;
            assert_true(fabsf(x[j] - e) <= 1e-6f * e);
        }
        assert_true(trial % 5 == 0 ? isnan(sum) : fabs(sum - want_sum) <= 1e-6 * want_sum);
    }
}

/* Short unmasked rows (one vector, done in registers) with NaN and ±inf scores
 * take the general path and come out as it says. */
static void test_softmax_short_rows_special_values(void **state)
{
    const float e1 = expf(-1.0f) / (1.0f + expf(-1.0f));
    float a[3] = {1.0f, NAN, 2.0f};
    assert_int_equal(at_softmax_row(a, NULL, 3), 0);
    const float want_a[3] = {e1, 0.0f, 1.0f - e1};
    check_tensor(a, want_a, 3, 1e-7f, "NaN score gets weight 0");
    float b[8] = {INFINITY, 1, INFINITY, 0, 0, 0, 0, 0};
    assert_int_equal(at_softmax_row(b, NULL, 8), 0);
    const float want_b[8] = {0.5f, 0, 0.5f, 0, 0, 0, 0, 0};
    check_tensor(b, want_b, 8, 0.0f, "+inf scores share the weight");
    float c[2] = {-INFINITY, -INFINITY};
    assert_int_equal(at_softmax_row(c, NULL, 2), 1);
    assert_true(c[0] == 0.0f && c[1] == 0.0f);
    float d[2] = {-INFINITY, 0.0f};
    assert_int_equal(at_softmax_row(d, NULL, 2), 0);
    assert_true(d[0] == 0.0f && d[1] == 1.0f);
    float e[1] = {-1000.0f};
    assert_int_equal(at_softmax_row(e, NULL, 1), 0);
    assert_true(e[0] == 1.0f);
}

/* Masking, -inf and NaN handling keep working on rows long enough for the vector path. */
static void test_softmax_masked_long_row(void **state)
{
    float x[40];
    unsigned char vis[40];
    for (size_t j = 0; j < 40; j++) {
        x[j] = (float)j / 8.0f;
        vis[j] = j % 3 != 0;
    }
    x[3] = NAN, x[6] = INFINITY, x[9] = -INFINITY;   /* all masked */
    x[10] = -INFINITY;                                /* visible, weight 0 */
    assert_int_equal(at_softmax_row(x, vis, 40), 0);
    double sum = 0.0;
    for (size_t j = 0; j < 40; j++) {
        assert_true(isfinite(x[j]));
        if (!vis[j] || j == 10)
            assert_true(x[j] == 0.0f);
        else
            assert_true(x[j] > 0.0f);
        sum += x[j];
    }
    assert_true(fabs(sum - 1.0) < 1e-6);
    assert_true(x[38] > x[37] && fabsf(x[38] / x[37] - expf(0.125f)) < 1e-6f);
}

/* Long rows: the engine works on blocks of query rows (here 128 rows of 8192
 * keys); under a causal mask it skips the keys after each block's last query. */
static void test_blocked_rows(void **state)
{
    srand(77);
    at_workspace ws = {0};
    for (int causal = 0; causal < 2; causal++) {
        problem p = problem_random(300, 8192, 4, 1, 1);
        p.causal = causal;
        p.pad = calloc(8192, 1);
        p.pad[1] = p.pad[200] = 1;
        check_problem(&p, &ws);
        problem_free(&p);
    }
    at_workspace_free(&ws);
}

/* Heads shared by two worker threads: the attention core gives the same result,
 * bit for bit, as one thread; the whole layer agrees to rounding (OpenBLAS splits
 * the projections between its threads) and is right against the reference. */
static void test_worker_threads_same_result(void **state)
{
    srand(21);
    enum { N = 192, D = 256, H = 8 };   /* large enough for worker threads */
    problem p = problem_random(N, N, D, H, 1);
    p.causal = 1;
    p.pad = calloc(N, 1);
    p.pad[5] = p.pad[170] = 1;
    at_mha_weights w = weights_of(&p);
    at_mask mask = {.causal = 1, .key_padding = p.pad};
    float *out[2], *wt[2], *layer[2];
    unsigned char fm[2][N];
    at_workspace ws = {0};
    for (int t = 0; t < 2; t++) {
        at_blas_set_max_threads(t + 1);
        out[t] = malloc(N * D * sizeof(float)), layer[t] = malloc(N * D * sizeof(float));
        wt[t] = malloc(H * N * N * sizeof(float));
        /* the two-pass kernel on both (one thread alone would take the fused one) */
        assert_int_equal(at_mha_attend_ex(H, D, N, p.X_q, N, p.X_kv, p.X_q, p.scale, &mask,
                                          out[t], wt[t], fm[t], NULL, &ws, 0, NULL), AT_OK);
        assert_int_equal(at_mha_forward(&w, N, p.X_q, N, p.X_kv, p.scale, &mask, layer[t], NULL,
                                        NULL, NULL, &ws, NULL), AT_OK);
    }
    at_blas_set_max_threads(0);
    assert_memory_equal(wt[0], wt[1], H * N * N * sizeof(float));
    assert_memory_equal(out[0], out[1], N * D * sizeof(float));
    assert_memory_equal(fm[0], fm[1], N);
    check_tensor(layer[1], layer[0], N * D, 1e-6f, "layer, 2 threads vs 1");
    at_blas_set_max_threads(2);
    check_problem(&p, &ws);   /* every trace, with workers */
    at_blas_set_max_threads(0);
    for (int t = 0; t < 2; t++)
        free(out[t]), free(wt[t]), free(layer[t]);
    at_workspace_free(&ws);
    problem_free(&p);
}

/* Case 3: QKᵀ with 8 tokens and d_k = 64 is bit-identical whatever the BLAS
 * thread setting, over many repetitions (the timing lives in bench/). */
static void test_case_threads_tiny_matrices(void **state)
{
    srand(64);
    float *Q = random_matrix(8 * 64, 1.0f), *K = random_matrix(8 * 64, 1.0f);
    float first[64], direct[64], got[64];
    int threads_before = openblas_get_num_threads();
    openblas_set_num_threads(1);
    at_matmul(8, 8, 64, Q, K, 1, first, 0);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 8, 8, 64, 1.0f, Q, 64, K, 64, 0.0f,
                direct, 8);
    assert_memory_equal(first, direct, sizeof first);
    for (int rep = 0; rep < 2000; rep++) {
        int threads = 1 + rep % 2;
        openblas_set_num_threads(threads);
        if (rep < 2)
            assert_int_equal(openblas_get_num_threads(), threads);
        at_matmul(8, 8, 64, Q, K, 1, got, 0);
        assert_memory_equal(got, first, sizeof got);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 8, 8, 64, 1.0f, Q, 64, K, 64,
                    0.0f, got, 8);
        assert_memory_equal(got, first, sizeof got);
    }
    openblas_set_num_threads(threads_before);
    free(Q), free(K);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_shapes_vs_naive),
        cmocka_unit_test(test_cross_attention),
        cmocka_unit_test(test_heads_must_divide_d_model),
        cmocka_unit_test(test_allowed_mask),
        cmocka_unit_test(test_masked_key_nan_does_not_leak),
        cmocka_unit_test(test_workspace_reused),
        cmocka_unit_test(test_softmax_matches_expf),
        cmocka_unit_test(test_sse2_kernels),
        cmocka_unit_test(test_softmax_short_rows_special_values),
        cmocka_unit_test(test_softmax_masked_long_row),
        cmocka_unit_test(test_blocked_rows),
        cmocka_unit_test(test_worker_threads_same_result),
        cmocka_unit_test(test_case_threads_tiny_matrices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
