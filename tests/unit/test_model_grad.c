/* Finite-difference gradient checks of every operation of the mini-model and of the
 * whole model on a tiny configuration, in float: central differences with step 1e-2,
 * relative error |analytic − numeric| / max(|analytic|, |numeric|, 1e-2) ≤ 1e-2 per
 * entry (the floor: float rounding of the loss makes numeric gradients noisy by
 * about 1e-5), and the norm-wise relative error ‖a − n‖ / (‖a‖ + ‖n‖) ≤ 1e-3. */
#include "check.h"
#include "engine/model_ops.h"
#include "engine/train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-2f
#define TOL 1e-2

static uint64_t rng = 42;

static void fill(float *x, size_t n, float sd)
{
    for (size_t i = 0; i < n; i++)
        x[i] = sd * at_rng_normal(&rng);
}

static double dot(const float *a, const float *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += (double)a[i] * b[i];
    return s;
}

/* Compare an analytic gradient with central differences of loss() over x. */
static void check_grad(const char *name, float *x, size_t n, const float *analytic,
                       double (*loss)(void *), void *ctx)
{
    double worst = 0.0, diff2 = 0.0, a2 = 0.0, n2 = 0.0;
    size_t worst_i = 0;
    for (size_t i = 0; i < n; i++) {
        float keep = x[i];
        x[i] = keep + EPS;
        double lp = loss(ctx);
        x[i] = keep - EPS;
        double lm = loss(ctx);
        x[i] = keep;
        double num = (lp - lm) / (2.0 * EPS), a = analytic[i];
        double e = fabs(num - a) / fmax(fmax(fabs(num), fabs(a)), 1e-2);
        diff2 += (num - a) * (num - a);
        a2 += a * a;
        n2 += num * num;
        if (e > worst || isnan(a)) {
            worst = isnan(a) ? INFINITY : e;
            worst_i = i;
        }
    }
    double normwise = sqrt(diff2) / (sqrt(a2) + sqrt(n2) + 1e-30);
    printf("# %-28s %4zu entries, worst relative error %.2e (entry %zu), norm-wise %.2e\n",
           name, n, worst, worst_i, normwise);
    if (!(worst <= TOL) || !(normwise <= 1e-3))
        fail_msg("%s: gradient differs from finite differences (%.3g at %zu)", name, worst,
                 worst_i);
}

/* ---- layer norm ---- */
typedef struct { size_t n, d; float *x, *g, *b, *R, *out, *mean, *rstd; } ln_ctx;

static double ln_loss(void *p)
{
    ln_ctx *c = p;
    at_layernorm_forward(c->n, c->d, c->x, c->g, c->b, c->out, c->mean, c->rstd);
    return dot(c->out, c->R, c->n * c->d);
}

static void test_layernorm(void **state)
{
    float x[18], g[6], b[6], R[18], out[18], mean[3], rstd[3];
    float dx[18] = {0}, dg[6] = {0}, db[6] = {0};
    fill(x, 18, 1.0f);
    fill(g, 6, 1.0f);
    fill(b, 6, 1.0f);
    fill(R, 18, 1.0f);
    ln_ctx c = {3, 6, x, g, b, R, out, mean, rstd};
    ln_loss(&c);
    at_layernorm_backward(3, 6, x, g, mean, rstd, R, dx, dg, db);
    check_grad("layernorm dx", x, 18, dx, ln_loss, &c);
    check_grad("layernorm dgain", g, 6, dg, ln_loss, &c);
    check_grad("layernorm dbias", b, 6, db, ln_loss, &c);
}

/* ---- linear ---- */
typedef struct { float *x, *W, *b, *R, *out; } lin_ctx;

static double lin_loss(void *p)
{
    lin_ctx *c = p;
    at_linear_forward(3, 4, 5, c->x, c->W, c->b, c->out);
    return dot(c->out, c->R, 15);
}

static void test_linear(void **state)
{
    float x[12], W[20], b[5], R[15], out[15], dx[12] = {0}, dW[20] = {0}, db[5] = {0};
    fill(x, 12, 1.0f);
    fill(W, 20, 1.0f);
    fill(b, 5, 1.0f);
    fill(R, 15, 1.0f);
    lin_ctx c = {x, W, b, R, out};
    at_linear_backward(3, 4, 5, x, W, R, dx, dW, db);
    check_grad("linear dx", x, 12, dx, lin_loss, &c);
    check_grad("linear dW", W, 20, dW, lin_loss, &c);
    check_grad("linear db", b, 5, db, lin_loss, &c);
}

/* ---- GELU ---- */
typedef struct { float *x, *R, *out; } gelu_ctx;

static double gelu_loss(void *p)
{
    gelu_ctx *c = p;
    at_gelu_forward(16, c->x, c->out);
    return dot(c->out, c->R, 16);
}

static void test_gelu(void **state)
{
    float x[16], R[16], out[16], dx[16] = {0};
    fill(x, 16, 2.0f);
    fill(R, 16, 1.0f);
    gelu_ctx c = {x, R, out};
    at_gelu_backward(16, x, R, dx);
    check_grad("gelu dx", x, 16, dx, gelu_loss, &c);
}

/* ---- attention (the engine's forward, per head as column slices) ---- */
enum { AN = 5, AD = 6, AH = 2 };
typedef struct { float *q, *k, *v, *R, *R2; int causal; } att_ctx;

static double att_loss(void *p)
{
    att_ctx *c = p;
    float w[AH * AN * AN], out[AN * AD];
    for (size_t h = 0; h < AH; h++) {
        at_attn_config cfg = at_attn_config_init(AN, AN, AD / AH, AD / AH);
        cfg.ld_q = cfg.ld_k = cfg.ld_v = cfg.ld_out = AD;
        cfg.mask.causal = c->causal;
        assert_int_equal(at_attention_forward(&cfg, c->q + h * (AD / AH), c->k + h * (AD / AH),
                                              c->v + h * (AD / AH), w + h * AN * AN,
                                              out + h * (AD / AH), NULL, NULL, NULL), AT_OK);
    }
    return dot(out, c->R, AN * AD) + dot(w, c->R2, AH * AN * AN);
}

static void attention_case(int causal)
{
    float q[AN * AD], k[AN * AD], v[AN * AD], R[AN * AD], R2[AH * AN * AN];
    float dq[AN * AD] = {0}, dk[AN * AD] = {0}, dv[AN * AD] = {0}, scratch[2 * AN * AN];
    fill(q, AN * AD, 1.0f);
    fill(k, AN * AD, 1.0f);
    fill(v, AN * AD, 1.0f);
    fill(R, AN * AD, 1.0f);
    fill(R2, AH * AN * AN, 1.0f);
    att_ctx c = {q, k, v, R, R2, causal};
    /* The forward's weights, for the backward. */
    float w[AH * AN * AN], out[AN * AD];
    for (size_t h = 0; h < AH; h++) {
        at_attn_config cfg = at_attn_config_init(AN, AN, AD / AH, AD / AH);
        cfg.ld_q = cfg.ld_k = cfg.ld_v = cfg.ld_out = AD;
        cfg.mask.causal = causal;
        at_attention_forward(&cfg, q + h * (AD / AH), k + h * (AD / AH), v + h * (AD / AH),
                             w + h * AN * AN, out + h * (AD / AH), NULL, NULL, NULL);
    }
    at_attention_backward(AN, AD, AH, 1.0f / sqrtf(AD / AH), q, k, v, w, R, R2, dq, dk, dv,
                          scratch);
    check_grad(causal ? "attention dq (causal)" : "attention dq", q, AN * AD, dq, att_loss, &c);
    check_grad(causal ? "attention dk (causal)" : "attention dk", k, AN * AD, dk, att_loss, &c);
    check_grad(causal ? "attention dv (causal)" : "attention dv", v, AN * AD, dv, att_loss, &c);
}

static void test_attention(void **state)
{
    attention_case(0);
    attention_case(1);
}

/* ---- the antecedent loss over a set of tokens ---- */
typedef struct { float *logits, *probs; } xent_ctx;
static const long XS[2] = {1, 4};

static double xent_loss(void *p)
{
    xent_ctx *c = p;
    return at_set_xent_forward(7, c->logits, XS, 2, c->probs);
}

static void test_set_xent(void **state)
{
    float logits[7], probs[7], dl[7] = {0};
    fill(logits, 7, 2.0f);
    xent_ctx c = {logits, probs};
    xent_loss(&c);
    at_set_xent_backward(7, probs, XS, 2, 1.0f, dl);
    check_grad("set cross-entropy dlogits", logits, 7, dl, xent_loss, &c);
}

/* ---- the whole model ---- */
typedef struct {
    at_model *m;
    at_token_feat feats[5];
    at_model_acts a;
    at_grad_acts *g;
    float *grad;
    at_attn_target target;
    at_prev_target prev;
    size_t pronoun;             /* AT_NO_INDEX: a random sequence (only the prev loss) */
} model_ctx;

static const long MS[2] = {2, 3};

static double model_loss(void *p)
{
    model_ctx *c = p;
    float loss;
    memset(c->grad, 0, c->m->n_flat * sizeof(float));
    assert_int_equal(at_example_loss_grad(c->m, c->feats, 5, c->pronoun, MS, 2, &c->target,
                                          &c->prev, 1.0f, &c->a, c->g, c->grad, &loss, NULL),
                     AT_OK);
    return loss;
}

/* The whole model's gradient against finite differences: prediction at the pronoun,
 * the coreference head's attention loss and the previous-token loss on layer 1 head 1
 * (pronoun = AT_NO_INDEX: a random sequence, only the previous-token loss). Each
 * attention loss, set to zero, changes the gradient: it really reaches the weights. */
static void model_case(size_t ff1, size_t pronoun, const char *name)
{
    at_model_config cfg = {.d_model = 8, .n_layers = 2, .vocab_size = 6, .n_buckets = 16,
                           .ngram_min = 2, .ngram_max = 3};
    cfg.n_heads[0] = 2;
    cfg.d_ff[0] = 16;
    cfg.n_heads[1] = 1;
    cfg.d_ff[1] = ff1;
    model_ctx c = {.target = {.layer = 1, .head = 0, .begin = 0, .end = 2, .lambda = 0.5f},
                   .prev = {.layer = 0, .head = 0, .lambda = 0.7f}, .pronoun = pronoun};
    assert_int_equal(at_model_alloc(&cfg, &c.m, NULL), AT_OK);
    at_model_init_params(c.m, 7, 1.0f);
    fill(c.m->flat, c.m->n_flat, 0.5f);    /* gains and biases away from 1 and 0 too */
    for (size_t i = 0; i < 5; i++) {
        c.feats[i].id = i == 4 ? -1 : (long)(i + 1);   /* the last word is unknown */
        c.feats[i].n_grams = 1 + i % 3;
        for (size_t k = 0; k < c.feats[i].n_grams; k++)
            c.feats[i].grams[k] = (uint32_t)((i * 5 + k * 3) % 16);
    }
    assert_int_equal(at_model_acts_alloc(&cfg, 5, 0, &c.a, NULL), AT_OK);
    assert_int_equal(at_grad_acts_alloc(&cfg, 5, &c.g, NULL), AT_OK);
    c.grad = calloc(c.m->n_flat, sizeof(float));
    float *analytic = calloc(c.m->n_flat, sizeof(float));
    assert_non_null(c.grad);
    assert_non_null(analytic);
    model_loss(&c);
    memcpy(analytic, c.grad, c.m->n_flat * sizeof(float));
    check_grad(name, c.m->flat, c.m->n_flat, analytic, model_loss, &c);
    /* Each attention loss really reaches the weights: without it the gradient differs. */
    for (int which = 0; which < 2; which++) {
        if (which == 0 && pronoun == AT_NO_INDEX)
            continue;   /* no coreference loss on a random sequence */
        float keep = which ? c.prev.lambda : c.target.lambda;
        *(which ? &c.prev.lambda : &c.target.lambda) = 0.0f;
        model_loss(&c);
        double moved = 0.0;
        for (size_t i = 0; i < c.m->n_flat; i++)
            moved += fabs(c.grad[i] - analytic[i]);
        printf("# %s: without the %s loss the gradient moves by %.4f\n", name,
               which ? "previous-token" : "coreference", moved);
        assert_true(moved > 1e-3);
        *(which ? &c.prev.lambda : &c.target.lambda) = keep;
    }
    free(analytic);
    free(c.grad);
    at_grad_acts_free(c.g);
    at_model_acts_free(&c.a);
    at_model_free(c.m);
}

static void test_whole_model(void **state)
{
    model_case(0, 3, "whole model (shipped shape)");
    model_case(8, 3, "whole model (FFN in layer 2)");
    model_case(0, AT_NO_INDEX, "whole model, a random sequence");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layernorm),
        cmocka_unit_test(test_linear),
        cmocka_unit_test(test_gelu),
        cmocka_unit_test(test_attention),
        cmocka_unit_test(test_set_xent),
        cmocka_unit_test(test_whole_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
