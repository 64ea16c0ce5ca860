/* BERT (Devlin et al. 2019, §3; the Transformer encoder of Vaswani et al. 2017 with
 * learned positions, token type embeddings and exact GELU), in the tensor layout the
 * transformers library writes (BertModel, or BertFor… with "bert."). */
#include "engine/hf/hf_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layer l's tensor "encoder.layer.<l>.<what>" (BERT's names). */
static int get_l(at_hf_model *m, size_t l, const char *what, size_t rows, size_t cols,
                 const float **out, at_error *err)
{
    return hf_layer_tensor(m, "encoder.layer.", l, what, rows, cols, out, err);
}

int hf_bert_bind(at_hf_model *m, at_error *err)
{
    const at_hf_config *c = &m->cfg;
    const size_t d = c->d_model, f = c->d_ff;
    int rc;
    if ((rc = hf_tensor(m, "embeddings.word_embeddings.weight", c->vocab_size, d, &m->wte,
                        err)) ||
        (rc = hf_tensor(m, "embeddings.position_embeddings.weight", c->n_positions, d, &m->wpe,
                        err)) ||
        (rc = hf_tensor(m, "embeddings.token_type_embeddings.weight", c->type_vocab_size, d,
                        &m->wtt, err)) ||
        (rc = hf_tensor(m, "embeddings.LayerNorm.weight", d, 0, &m->ln_emb_g, err)) ||
        (rc = hf_tensor(m, "embeddings.LayerNorm.bias", d, 0, &m->ln_emb_b, err)))
        return rc;
    for (size_t l = 0; l < c->n_layers; l++) {
        hf_layer *L = &m->layers[l];
        if ((rc = get_l(m, l, "attention.self.query.weight", d, d, &L->w_q, err)) ||
            (rc = get_l(m, l, "attention.self.query.bias", d, 0, &L->b_q, err)) ||
            (rc = get_l(m, l, "attention.self.key.weight", d, d, &L->w_k, err)) ||
            (rc = get_l(m, l, "attention.self.key.bias", d, 0, &L->b_k, err)) ||
            (rc = get_l(m, l, "attention.self.value.weight", d, d, &L->w_v, err)) ||
            (rc = get_l(m, l, "attention.self.value.bias", d, 0, &L->b_v, err)) ||
            (rc = get_l(m, l, "attention.output.dense.weight", d, d, &L->w_o, err)) ||
            (rc = get_l(m, l, "attention.output.dense.bias", d, 0, &L->b_o, err)) ||
            (rc = get_l(m, l, "attention.output.LayerNorm.weight", d, 0, &L->ln1_g, err)) ||
            (rc = get_l(m, l, "attention.output.LayerNorm.bias", d, 0, &L->ln1_b, err)) ||
            (rc = get_l(m, l, "intermediate.dense.weight", f, d, &L->w_fc, err)) ||
            (rc = get_l(m, l, "intermediate.dense.bias", f, 0, &L->b_fc, err)) ||
            (rc = get_l(m, l, "output.dense.weight", d, f, &L->w_out, err)) ||
            (rc = get_l(m, l, "output.dense.bias", d, 0, &L->b_out, err)) ||
            (rc = get_l(m, l, "output.LayerNorm.weight", d, 0, &L->ln2_g, err)) ||
            (rc = get_l(m, l, "output.LayerNorm.bias", d, 0, &L->ln2_b, err)))
            return rc;
    }
    return AT_OK;
}

int hf_bert_forward(const at_hf_model *m, const int32_t *ids, size_t n, at_model_run *run,
                    at_error *err)
{
    const at_hf_config *c = &m->cfg;
    const size_t d = c->d_model, f = c->d_ff, H = c->n_heads, dh = d / H;
    /* x, q, k, v, heads, proj [n × d]; mid [n × f] */
    float *mem = malloc(n * (6 * d + f) * sizeof *mem);
    if (!mem)
        return at_error_set(err, AT_ENOMEM, "out of memory for %zu tokens", n);
    float *x = mem, *q = x + n * d, *k = q + n * d, *v = k + n * d, *heads = v + n * d,
          *proj = heads + n * d, *mid = proj + n * d;
    at_workspace ws = {0};
    int rc = AT_OK;
    /* x = LN(word[id_i] + position[i] + token_type[0]) */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++)
            proj[i * d + j] = m->wte[(size_t)ids[i] * d + j] + m->wpe[i * d + j] + m->wtt[j];
    hf_layernorm(n, d, proj, m->ln_emb_g, m->ln_emb_b, c->ln_eps, x);
    for (size_t l = 0; l < c->n_layers; l++) {
        const hf_layer *L = &m->layers[l];
        /* x = LN(x + dense(attention(query(x), key(x), value(x)))) */
        hf_linear(n, d, d, x, L->w_q, 1, L->b_q, q);
        hf_linear(n, d, d, x, L->w_k, 1, L->b_k, k);
        hf_linear(n, d, d, x, L->w_v, 1, L->b_v, v);
        at_mask none = {0};
        at_mha_trace tr = {.scores = run->scores[l], .scaled = run->scaled[l]};
        rc = at_mha_attend(H, d, n, q, n, k, v, 1.0f / sqrtf((float)dh), &none, heads,
                           run->weights[l], l == 0 ? run->fully_masked : NULL, &tr, &ws, err);
        if (rc)
            break;
        if (l + 1 == c->n_layers)
            break;   /* nothing after the last attention changes a weight */
        hf_linear(n, d, d, heads, L->w_o, 1, L->b_o, proj);
        for (size_t i = 0; i < n * d; i++)
            proj[i] += x[i];
        hf_layernorm(n, d, proj, L->ln1_g, L->ln1_b, c->ln_eps, x);
        /* x = LN(x + output(act(intermediate(x)))) */
        hf_linear(n, d, f, x, L->w_fc, 1, L->b_fc, mid);
        hf_activate(c->act, n * f, mid);
        hf_linear(n, f, d, mid, L->w_out, 1, L->b_out, proj);
        for (size_t i = 0; i < n * d; i++)
            proj[i] += x[i];
        hf_layernorm(n, d, proj, L->ln2_g, L->ln2_b, c->ln_eps, x);
    }
    at_workspace_free(&ws);
    free(mem);
    return rc;
}
