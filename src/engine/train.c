/* Training the mini-model: the backward pass of the whole model (one sentence at a
 * time), AdamW and the training loop. Single thread; every random choice comes from
 * the corpus seed, so the weights come out the same bit for bit. */
#include "engine/train.h"
#include "engine/model_ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Gradients of the activations of one sentence (cap tokens). */
struct at_grad_acts {
    size_t cap;
    float *dx, *dx2, *dln;              /* [n × d] */
    float *dq, *dk, *dv, *dheads;       /* [n × d] */
    float *dff_act, *dff_pre;           /* [n × f_max] */
    float *dweights;                    /* [H_max × n × n] gradient on attention weights */
    float *scratch;                     /* [2 × n × n] */
    float *logits, *probs, *dlogits;    /* [V] */
    float *dh;                          /* [d] */
    float *mem;
};

int at_grad_acts_alloc(const at_model_config *cfg, size_t cap, at_grad_acts **out, at_error *err)
{
    const size_t d = cfg->d_model, V = cfg->vocab_size ? cfg->vocab_size : 1;
    size_t f = 1;
    for (size_t l = 0; l < cfg->n_layers; l++)
        if (cfg->d_ff[l] > f)
            f = cfg->d_ff[l];
    size_t H = 1;
    for (size_t l = 0; l < cfg->n_layers; l++)
        if (cfg->n_heads[l] > H)
            H = cfg->n_heads[l];
    size_t len = 7 * cap * d + 2 * cap * f + (2 + H) * cap * cap + 3 * V + d;
    at_grad_acts *g = calloc(1, sizeof *g);
    float *mem = calloc(len, sizeof *mem);
    if (!g || !mem) {
        free(g);
        free(mem);
        return at_error_set(err, AT_ENOMEM, "trainer: out of memory");
    }
    g->cap = cap;
    g->mem = mem;
    float *p = mem;
    float **nd[] = {&g->dx, &g->dx2, &g->dln, &g->dq, &g->dk, &g->dv, &g->dheads};
    for (size_t i = 0; i < 7; i++, p += cap * d)
        *nd[i] = p;
    g->dff_act = p, p += cap * f;
    g->dff_pre = p, p += cap * f;
    g->scratch = p, p += 2 * cap * cap;
    g->dweights = p, p += H * cap * cap;
    g->logits = p, p += V;
    g->probs = p, p += V;
    g->dlogits = p, p += V;
    g->dh = p;
    *out = g;
    return AT_OK;
}

void at_grad_acts_free(at_grad_acts *g)
{
    if (g)
        free(g->mem);
    free(g);
}

/* Backward through layer l: on entry g->dx = ∂loss/∂(layer output); on exit
 * g->dx = ∂loss/∂(layer input). Parameter gradients add into G. */
static void layer_backward(const at_model *m, size_t l, const at_model_acts *a, at_grad_acts *g,
                           const at_layer_params *G, int with_dweights)
{
    const size_t n = a->n, d = m->cfg.d_model, H = m->cfg.n_heads[l], f = m->cfg.d_ff[l];
    const at_layer_params *P = &m->p.layer[l];
    const at_layer_acts *L = &a->layer[l];
    memcpy(g->dx2, g->dx, n * d * sizeof(float));          /* ∂x_mid, residual path */
    if (f) {
        memset(g->dff_act, 0, n * f * sizeof(float));
        memset(g->dff_pre, 0, n * f * sizeof(float));
        memset(g->dln, 0, n * d * sizeof(float));
        at_linear_backward(n, f, d, L->ff_act, P->W_2, g->dx, g->dff_act, G->W_2, G->b_2);
        at_gelu_backward(n * f, L->ff_pre, g->dff_act, g->dff_pre);
        at_linear_backward(n, d, f, L->ln2, P->W_1, g->dff_pre, g->dln, G->W_1, G->b_1);
        at_layernorm_backward(n, d, L->x_mid, P->ln2_g, L->ln2_mean, L->ln2_rstd, g->dln,
                              g->dx2, G->ln2_g, G->ln2_b);
    }
    memcpy(g->dx, g->dx2, n * d * sizeof(float));          /* ∂x_in, residual path */
    memset(g->dheads, 0, n * d * sizeof(float));
    memset(g->dq, 0, n * d * sizeof(float));
    memset(g->dk, 0, n * d * sizeof(float));
    memset(g->dv, 0, n * d * sizeof(float));
    memset(g->dln, 0, n * d * sizeof(float));
    at_linear_backward(n, d, d, L->heads, P->W_o, g->dx2, g->dheads, G->W_o, G->b_o);
    at_attention_backward(n, d, H, 1.0f / sqrtf((float)(d / H)), L->q, L->k, L->v, L->weights,
                          g->dheads, with_dweights ? g->dweights : NULL, g->dq, g->dk, g->dv,
                          g->scratch);
    at_linear_backward(n, d, d, L->ln1, P->W_q, g->dq, g->dln, G->W_q, G->b_q);
    at_linear_backward(n, d, d, L->ln1, P->W_k, g->dk, g->dln, G->W_k, G->b_k);
    at_linear_backward(n, d, d, L->ln1, P->W_v, g->dv, g->dln, G->W_v, G->b_v);
    at_layernorm_backward(n, d, L->x_in, P->ln1_g, L->ln1_mean, L->ln1_rstd, g->dln, g->dx,
                          G->ln1_g, G->ln1_b);
}

static void embed_backward(const at_model_config *c, const at_token_feat *feats, size_t n,
                           const float *dx0, const at_model_params *G)
{
    const size_t d = c->d_model;
    for (size_t i = 0; i < n; i++) {
        const float *dx_i = dx0 + i * d;
        if (feats[i].id >= 0) {
            float *e = G->tok_emb + (size_t)feats[i].id * d;
            for (size_t j = 0; j < d; j++)
                e[j] += dx_i[j];
        }
        float inv = 1.0f / (float)feats[i].n_grams;
        for (size_t k = 0; k < feats[i].n_grams; k++) {
            float *e = G->ngram_emb + (size_t)feats[i].grams[k] * d;
            for (size_t j = 0; j < d; j++)
                e[j] += inv * dx_i[j];
        }
    }
}

/* The supervised-attention loss; its gradient on the weights adds into g->dweights. */
static float attn_target_grad(const at_model *m, const at_attn_target *t, size_t n,
                              size_t pronoun, const at_model_acts *a, at_grad_acts *g, float scale)
{
    const float *row = a->layer[t->layer].weights + (t->head * n + pronoun) * n;
    float mass = 0.0f;
    for (size_t j = t->begin; j < t->end; j++)
        mass += row[j];
    if (mass < 1e-30f)
        mass = 1e-30f;
    float *drow = g->dweights + (t->head * n + pronoun) * n;
    for (size_t j = t->begin; j < t->end; j++)
        drow[j] += -t->lambda / mass * scale;
    return -t->lambda * logf(mass);
}

/* The previous-token loss (at_prev_target); its gradient adds into g->dweights. */
static float prev_target_grad(const at_prev_target *t, size_t n, const at_model_acts *a,
                              at_grad_acts *g, float scale)
{
    const float *w = a->layer[t->layer].weights + t->head * n * n;
    float *dw = g->dweights + t->head * n * n, loss = 0.0f, k = t->lambda / (float)n;
    for (size_t i = 0; i < n; i++) {
        size_t j = i ? i - 1 : 0;
        float p = w[i * n + j] > 1e-30f ? w[i * n + j] : 1e-30f;
        loss -= k * logf(p);
        dw[i * n + j] += -k / p * scale;
    }
    return loss;
}

int at_example_loss_grad(const at_model *m, const at_token_feat *feats, size_t n,
                         size_t pronoun, const long *S, size_t n_S,
                         const at_attn_target *target, const at_prev_target *prev,
                         float scale, at_model_acts *a, at_grad_acts *g, float *grad,
                         float *loss, at_error *err)
{
    const size_t d = m->cfg.d_model, V = m->cfg.vocab_size;
    int predict = pronoun != AT_NO_INDEX;
    if (n > g->cap || (predict && (pronoun >= n || n_S == 0)))
        return at_error_set(err, AT_EINVAL, "trainer: bad example (n = %zu, pronoun %zu)", n,
                            pronoun);
    int rc = at_model_forward(m, feats, n, NULL, a, err);
    if (rc)
        return rc;
    at_model_params G;
    at_model_layout(&m->cfg, grad, &G, NULL, NULL);
    *loss = 0.0f;
    memset(g->dx, 0, n * d * sizeof(float));
    if (predict) {
        /* Tied output: logits = tok_emb · lnf[pronoun]. */
        const float *h = a->lnf + pronoun * d;
        at_gemm(0, 1, 1, V, d, h, d, m->p.tok_emb, d, 0.0f, g->logits, V);
        *loss = at_set_xent_forward(V, g->logits, S, n_S, g->probs);
        memset(g->dlogits, 0, V * sizeof(float));
        at_set_xent_backward(V, g->probs, S, n_S, scale, g->dlogits);
        at_gemm(0, 0, 1, d, V, g->dlogits, V, m->p.tok_emb, d, 0.0f, g->dh, d);
        at_gemm(1, 0, V, d, 1, g->dlogits, V, h, d, 1.0f, G.tok_emb, d);
        /* Final layer norm: only the pronoun's row has a gradient. */
        memset(g->dln, 0, n * d * sizeof(float));
        memcpy(g->dln + pronoun * d, g->dh, d * sizeof(float));
        at_layernorm_backward(n, d, a->x_out, m->p.lnf_g, a->lnf_mean, a->lnf_rstd, g->dln,
                              g->dx, G.lnf_g, G.lnf_b);
    }
    int flowing = predict;   /* does a gradient reach this layer's output? */
    for (size_t l = m->cfg.n_layers; l-- > 0;) {
        int t_here = predict && target && target->layer == l;
        int p_here = prev && prev->layer == l;
        if (t_here || p_here) {
            memset(g->dweights, 0, m->cfg.n_heads[l] * n * n * sizeof(float));
            if (t_here)
                *loss += attn_target_grad(m, target, n, pronoun, a, g, scale);
            if (p_here)
                *loss += prev_target_grad(prev, n, a, g, scale);
        }
        if (!flowing && !t_here && !p_here)
            continue;
        layer_backward(m, l, a, g, &G.layer[l], t_here || p_here);
        flowing = 1;
    }
    if (flowing)
        embed_backward(&m->cfg, feats, n, g->dx, &G);
    return AT_OK;
}

at_train_opts at_train_defaults(void)
{
    return (at_train_opts){.steps = 3000, .batch = 32, .lr = 3e-3f, .warmup = 50,
                           .weight_decay = 0.01f, .beta1 = 0.9f, .beta2 = 0.98f, .eps = 1e-8f,
                           .word_dropout = 0.1f, .attn_lambda = 0.3f, .prev_lambda = 0.3f,
                           .noise_share = 0.25f, .log_every = 100};
}

/* AdamW (Loshchilov & Hutter 2019); decay only on weight matrices. */
static void adamw_step(at_model *m, const float *grad, float *mom, float *vel, size_t t,
                       float lr, const at_train_opts *o, const unsigned char *decay)
{
    float c1 = 1.0f - powf(o->beta1, (float)t), c2 = 1.0f - powf(o->beta2, (float)t);
    for (size_t i = 0; i < m->n_flat; i++) {
        mom[i] = o->beta1 * mom[i] + (1.0f - o->beta1) * grad[i];
        vel[i] = o->beta2 * vel[i] + (1.0f - o->beta2) * grad[i] * grad[i];
        float upd = (mom[i] / c1) / (sqrtf(vel[i] / c2) + o->eps);
        m->flat[i] -= lr * (upd + (decay[i] ? o->weight_decay * m->flat[i] : 0.0f));
    }
}

static float lr_at(const at_train_opts *o, size_t step)
{
    if ((float)step < o->warmup)
        return o->lr * (float)(step + 1) / o->warmup;
    float p = ((float)step - o->warmup) / ((float)o->steps - o->warmup);
    return o->lr * (0.1f + 0.9f * 0.5f * (1.0f + cosf(3.14159265f * p)));
}

/* Training examples of each training frame; the last pool: the random sequences. */
typedef struct frame_pool {
    size_t *idx, n;
} frame_pool;

static int build_pools(const at_corpus *c, frame_pool *pools, size_t *n_pools,
                       frame_pool *noise, at_error *err)
{
    *n_pools = 0;
    for (size_t f = 0; f <= c->n_frames; f++) {
        frame_pool *p = f < c->n_frames ? &pools[*n_pools] : noise;
        p->n = 0;
        p->idx = malloc((c->n ? c->n : 1) * sizeof *p->idx);
        if (!p->idx)
            return at_error_set(err, AT_ENOMEM, "trainer: out of memory");
        for (size_t i = 0; i < c->n; i++) {
            const at_example *e = &c->ex[i];
            if (e->split == AT_SPLIT_TRAIN &&
                (f < c->n_frames ? e->kind == AT_EX_PRONOUN && e->frame == f
                                 : e->kind == AT_EX_NOISE))
                p->idx[p->n++] = i;
        }
        if (f < c->n_frames && p->n)
            (*n_pools)++;
        else if (f < c->n_frames)
            free(p->idx);
    }
    return *n_pools ? AT_OK : at_error_set(err, AT_EINVAL, "trainer: no training sentences");
}

typedef struct train_state {
    float *grad, *mom, *vel;
    unsigned char *decay;
    at_token_feat *feats;
    frame_pool *pools, noise;
    size_t n_pools;
    at_model_acts acts;
    at_grad_acts *g;
} train_state;

static int train_setup(at_model *m, const at_corpus *c, train_state *s, at_error *err)
{
    memset(s, 0, sizeof *s);
    s->grad = calloc(m->n_flat, sizeof(float));
    s->mom = calloc(m->n_flat, sizeof(float));
    s->vel = calloc(m->n_flat, sizeof(float));
    s->decay = calloc(m->n_flat, 1);
    s->feats = calloc(c->max_tokens, sizeof *s->feats);
    s->pools = calloc(c->n_frames, sizeof *s->pools);
    if (!s->grad || !s->mom || !s->vel || !s->decay || !s->feats || !s->pools)
        return at_error_set(err, AT_ENOMEM, "trainer: out of memory");
    at_param_desc table[AT_MODEL_MAX_PARAMS];
    size_t n_table;
    at_model_layout(&m->cfg, NULL, NULL, table, &n_table);
    for (size_t t = 0; t < n_table; t++)
        if (table[t].kind == AT_P_WEIGHT)
            memset(s->decay + table[t].offset, 1, table[t].rows * table[t].cols);
    int rc = build_pools(c, s->pools, &s->n_pools, &s->noise, err);
    if (!rc)
        rc = at_model_acts_alloc(&m->cfg, c->max_tokens, 0, &s->acts, err);
    if (!rc)
        rc = at_grad_acts_alloc(&m->cfg, c->max_tokens, &s->g, err);
    return rc;
}

static void train_teardown(train_state *s)
{
    for (size_t i = 0; s->pools && i < s->n_pools; i++)
        free(s->pools[i].idx);
    free(s->pools);
    free(s->noise.idx);
    free(s->grad);
    free(s->mom);
    free(s->vel);
    free(s->decay);
    free(s->feats);
    at_model_acts_free(&s->acts);
    at_grad_acts_free(s->g);
}

/* One example's loss and gradient, its word ids hidden at random (word dropout). */
static int train_example(at_model *m, const at_example *e, const at_train_opts *o,
                         train_state *s, uint64_t *rng, float *loss, at_error *err)
{
    memcpy(s->feats, e->feats, e->toks.n * sizeof *s->feats);
    for (size_t i = 0; i < e->toks.n; i++)
        if (at_rng_uniform(rng) < o->word_dropout)
            s->feats[i].id = -1;
    long S[AT_MAX_SPAN];
    size_t n_S = 0, pronoun = e->kind == AT_EX_PRONOUN ? e->pronoun : AT_NO_INDEX;
    if (pronoun != AT_NO_INDEX)
        n_S = at_example_ids(e, e->answer, S);
    at_attn_target t = {m->cfg.n_layers - 1, 0, e->span[e->answer][0], e->span[e->answer][1],
                        o->attn_lambda};
    at_prev_target p = {0, 0, o->prev_lambda};
    return at_example_loss_grad(m, s->feats, e->toks.n, pronoun, S, n_S,
                                o->attn_lambda > 0 ? &t : NULL, o->prev_lambda > 0 ? &p : NULL,
                                1.0f / (float)o->batch, &s->acts, s->g, s->grad, loss, err);
}

int at_train(at_model *m, const at_corpus *c, const at_train_opts *o, at_error *err)
{
    train_state s;
    uint64_t rng = o->seed ^ 0x5EEDull;
    int rc = train_setup(m, c, &s, err);
    size_t n_noise = s.noise.n ? (size_t)(o->noise_share * (float)o->batch + 0.5f) : 0;
    for (size_t step = 0; !rc && step < o->steps; step++) {
        memset(s.grad, 0, m->n_flat * sizeof(float));
        float loss_sum = 0.0f;
        for (size_t b = 0; !rc && b < o->batch; b++) {
            const frame_pool *p = b < n_noise ? &s.noise : &s.pools[at_rng_next(&rng) % s.n_pools];
            const at_example *e = &c->ex[p->idx[at_rng_next(&rng) % p->n]];
            float loss;
            rc = train_example(m, e, o, &s, &rng, &loss, err);
            loss_sum += loss;
        }
        if (rc)
            break;
        adamw_step(m, s.grad, s.mom, s.vel, step + 1, lr_at(o, step), o, s.decay);
        if (o->on_log && (step % o->log_every == 0 || step + 1 == o->steps))
            o->on_log(o->ctx, step + 1, loss_sum / (float)o->batch);
    }
    train_teardown(&s);
    return rc;
}
