/* The key/value cache of a causal model (see hf.h: at_hf_attend_cached). */
#include "engine/hf/hf_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct at_hf_cache {
    size_t cap;         /* tokens the cache holds at most (the model's max_tokens) */
    size_t n;           /* tokens whose keys and values are in K, V (the last run's) */
    int32_t *ids;       /* [cap] their ids */
    float **K, **V;     /* [n_layers] → [cap × d] */
    float *mem;
};

int at_hf_cache_new(const at_hf_model *m, at_hf_cache **out, at_error *err)
{
    *out = NULL;
    const size_t L = m->cfg.n_layers, d = m->cfg.d_model, cap = m->max_tokens;
    at_hf_cache *c = calloc(1, sizeof *c);
    if (c) {
        c->cap = cap;
        c->ids = malloc((cap ? cap : 1) * sizeof *c->ids);
        c->K = calloc(2 * L, sizeof *c->K);
        c->mem = m->cfg.family == AT_HF_GPT2 ? malloc(2 * L * cap * d * sizeof *c->mem) : NULL;
    }
    if (!c || !c->ids || !c->K || (m->cfg.family == AT_HF_GPT2 && !c->mem)) {
        at_hf_cache_free(c);
        return at_error_set(err, AT_ENOMEM, "out of memory for the key/value cache");
    }
    c->V = c->K + L;
    for (size_t i = 0; c->mem && i < 2 * L; i++)
        c->K[i] = c->mem + i * cap * d;
    *out = c;
    return AT_OK;
}

void at_hf_cache_free(at_hf_cache *c)
{
    if (!c)
        return;
    free(c->ids);
    free(c->K);
    free(c->mem);
    free(c);
}

/* Rows 0 … p − 1 of every layer and head from prev (of prev->n tokens) into run (of
 * run->n): their keys are 0 … i, the rest masked. */
static void copy_rows(const at_model_run *prev, at_model_run *run, size_t p)
{
    const size_t n = run->n, o = prev->n;
    for (size_t l = 0; l < run->n_layers; l++)
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

int at_hf_attend_cached(const at_hf_model *m, at_hf_cache *c, const at_hf_tokens *t,
                        const at_model_run *prev, at_model_run *run, size_t *reused,
                        at_error *err)
{
    if (reused)
        *reused = 0;
    if (!c || m->cfg.family != AT_HF_GPT2)   /* BERT: every row depends on every token */
        return at_hf_attend(m, t, run, err);
    memset(run, 0, sizeof *run);
    if (!t || t->n == 0)
        return at_error_set(err, AT_EINVAL, "the sentence has no tokens");
    if (t->n > c->cap)
        return at_error_set(err, AT_ERANGE, "the sentence has %zu tokens; this model takes at "
                            "most %zu", t->n, c->cap);
    /* the tokens both runs start with, when prev is the run the cache holds */
    size_t p = 0;
    if (prev && prev->n == c->n && prev->n_layers == m->cfg.n_layers)
        while (p < c->n && p < t->n && c->ids[p] == t->ids[p])
            p++;
    if (p == t->n && p > 0)
        p--;   /* the same tokens: the last row again (cheap, and the run is whole) */
    int rc = hf_run_alloc(m, t->n, run, err);
    if (rc)
        return rc;
    if (p)
        copy_rows(prev, run, p);
    c->n = 0;   /* K, V are being rewritten from p on */
    rc = hf_gpt2_forward_from(m, t->ids, t->n, p, c->K, c->V, run, err);
    if (rc) {
        at_model_run_free(run);
        return rc;
    }
    memcpy(c->ids, t->ids, t->n * sizeof *c->ids);
    c->n = t->n;
    if (reused)
        *reused = p;
    return AT_OK;
}
