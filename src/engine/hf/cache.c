/* The key/value cache of a causal model (see hf.h: at_hf_attend_cached). */
#include "engine/hf/hf_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct at_hf_cache {
    size_t cap;         /* tokens the cache holds at most (the model's max_tokens) */
    size_t n;           /* tokens of the last run (ids) */
    size_t n_layers;
    int32_t *ids;       /* [cap] their ids */
    size_t *valid;      /* [n_layers] tokens from the first whose rows of layer l are
                           computed for ids: keys, values, attention rows and the
                           residual stream after the block (X[l + 1]) */
    float **K, **V;     /* [n_layers] → [cap × d] keys and values of layer l */
    float **X;          /* [n_layers + 1] → [cap × d] the residual stream entering layer
                           l (X[0]: the embeddings) */
    float *mem;
};

int at_hf_cache_new(const at_hf_model *m, at_hf_cache **out, at_error *err)
{
    *out = NULL;
    const size_t L = m->cfg.n_layers, d = m->cfg.d_model, cap = m->max_tokens;
    const int causal = m->cfg.family == AT_HF_GPT2;
    at_hf_cache *c = calloc(1, sizeof *c);
    if (c) {
        c->cap = cap;
        c->n_layers = L;
        c->ids = malloc((cap ? cap : 1) * sizeof *c->ids);
        c->valid = calloc(L ? L : 1, sizeof *c->valid);
        c->K = calloc(3 * L + 1, sizeof *c->K);
        c->mem = causal ? malloc((3 * L + 1) * cap * d * sizeof *c->mem) : NULL;
    }
    if (!c || !c->ids || !c->valid || !c->K || (causal && !c->mem)) {
        at_hf_cache_free(c);
        return at_error_set(err, AT_ENOMEM, "out of memory for the key/value cache");
    }
    c->V = c->K + L;
    c->X = c->V + L;
    for (size_t i = 0; c->mem && i < 3 * L + 1; i++)
        c->K[i] = c->mem + i * cap * d;
    *out = c;
    return AT_OK;
}

void at_hf_cache_free(at_hf_cache *c)
{
    if (!c)
        return;
    free(c->ids);
    free(c->valid);
    free(c->K);
    free(c->mem);
    free(c);
}

/* Rows 0 … p − 1 of layer l, every head, from prev (of prev->n tokens) into run (of
 * run->n): their keys are 0 … i, the rest masked. */
static void copy_rows(const at_model_run *prev, at_model_run *run, size_t l, size_t p)
{
    const size_t n = run->n, o = prev->n;
    for (size_t h = 0; h < run->n_heads[l]; h++)
        for (size_t i = 0; i < p; i++) {
            size_t dst = (h * n + i) * n, src = (h * o + i) * o;
            memcpy(run->weights[l] + dst, prev->weights[l] + src, (i + 1) * sizeof(float));
            memcpy(run->scores[l] + dst, prev->scores[l] + src, (i + 1) * sizeof(float));
            memcpy(run->scaled[l] + dst, prev->scaled[l] + src, (i + 1) * sizeof(float));
            for (size_t j = i + 1; j < n; j++)
                run->scores[l][dst + j] = run->scaled[l][dst + j] = -INFINITY;
        }
}

/* Layer l of the cache's sentence (c->ids, c->n tokens) brought up to date: the rows
 * from c->valid[l] on computed, from the residual stream the layer below left in X[l]
 * (layer l − 1 must be up to date). */
static int update_layer(const at_hf_model *m, at_hf_cache *c, size_t l, at_model_run *run,
                        at_error *err)
{
    const size_t d = m->cfg.d_model, a = c->valid[l], n = c->n;
    if (a >= n)
        return AT_OK;
    if (l == 0)
        hf_gpt2_embed(m, c->ids, a, n, c->X[0] + a * d);
    /* the block turns X[l] into X[l + 1], row by row: copy, then update in place */
    float *x = c->X[l + 1] + a * d;
    memcpy(x, c->X[l] + a * d, (n - a) * d * sizeof *x);
    int rc = hf_gpt2_block(m, l, a, n, x, c->K[l], c->V[l], run, err);
    if (rc == AT_OK)
        c->valid[l] = n;
    return rc;
}

int at_hf_attend_cached(const at_hf_model *m, at_hf_cache *c, const at_hf_tokens *t,
                        const at_model_run *prev, size_t layers, at_model_run *run,
                        at_hf_cache_use *use, at_error *err)
{
    const size_t L = m->cfg.n_layers;
    if (use)
        *use = (at_hf_cache_use){L, 0};
    if (!c || m->cfg.family != AT_HF_GPT2)   /* BERT: every row depends on every token */
        return at_hf_attend(m, t, run, err);
    memset(run, 0, sizeof *run);
    if (!t || t->n == 0)
        return at_error_set(err, AT_EINVAL, "the sentence has no tokens");
    if (t->n > c->cap)
        return at_error_set(err, AT_ERANGE, "the sentence has %zu tokens; this model takes at "
                            "most %zu", t->n, c->cap);
    if (layers == 0 || layers > L)
        layers = L;
    /* the tokens both runs start with, when prev is the run the cache holds */
    size_t p = 0;
    if (prev && prev->n == c->n && prev->n_layers == L)
        while (p < c->n && p < t->n && c->ids[p] == t->ids[p])
            p++;
    int rc = hf_run_alloc(m, t->n, run, err);
    if (rc)
        return rc;
    size_t reused = t->n;
    for (size_t l = 0; l < L; l++) {   /* rows after the first change are stale */
        if (c->valid[l] > p)
            c->valid[l] = p;
        if (c->valid[l])
            copy_rows(prev, run, l, c->valid[l]);
        if (l < layers && c->valid[l] < reused)
            reused = c->valid[l];
    }
    memcpy(c->ids, t->ids, t->n * sizeof *c->ids);
    c->n = t->n;
    for (size_t l = 0; l < layers && !rc; l++)
        rc = update_layer(m, c, l, run, err);
    if (rc) {
        memset(c->valid, 0, L * sizeof *c->valid);
        c->n = 0;
        at_model_run_free(run);
        return rc;
    }
    if (use)
        *use = (at_hf_cache_use){layers, reused};
    return AT_OK;
}
