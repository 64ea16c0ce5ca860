/* GPT-2 (Radford et al. 2019, §2.3; the block of Radford et al. 2018 with layer norm
 * moved to each sub-block's input and a final layer norm added), in the tensor layout
 * the transformers library writes (GPT2Model, or GPT2LMHeadModel with "transformer."). */
#include "engine/hf/hf_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layer l's tensor "h.<l>.<what>" (GPT-2's names). */
static int get_l(at_hf_model *m, size_t l, const char *what, size_t rows, size_t cols,
                 const float **out, at_error *err)
{
    return hf_layer_tensor(m, "h.", l, what, rows, cols, out, err);
}

int hf_gpt2_bind(at_hf_model *m, at_error *err)
{
    const at_hf_config *c = &m->cfg;
    const size_t d = c->d_model, f = c->d_ff;
    int rc;
    if ((rc = hf_tensor(m, "wte.weight", c->vocab_size, d, &m->wte, err)) ||
        (rc = hf_tensor(m, "wpe.weight", c->n_positions, d, &m->wpe, err)))
        return rc;
    for (size_t l = 0; l < c->n_layers; l++) {
        hf_layer *L = &m->layers[l];
        if ((rc = get_l(m, l, "ln_1.weight", d, 0, &L->ln1_g, err)) ||
            (rc = get_l(m, l, "ln_1.bias", d, 0, &L->ln1_b, err)) ||
            (rc = get_l(m, l, "attn.c_attn.weight", d, 3 * d, &L->w_qkv, err)) ||
            (rc = get_l(m, l, "attn.c_attn.bias", 3 * d, 0, &L->b_qkv, err)) ||
            (rc = get_l(m, l, "attn.c_proj.weight", d, d, &L->w_o, err)) ||
            (rc = get_l(m, l, "attn.c_proj.bias", d, 0, &L->b_o, err)) ||
            (rc = get_l(m, l, "ln_2.weight", d, 0, &L->ln2_g, err)) ||
            (rc = get_l(m, l, "ln_2.bias", d, 0, &L->ln2_b, err)) ||
            (rc = get_l(m, l, "mlp.c_fc.weight", d, f, &L->w_fc, err)) ||
            (rc = get_l(m, l, "mlp.c_fc.bias", f, 0, &L->b_fc, err)) ||
            (rc = get_l(m, l, "mlp.c_proj.weight", f, d, &L->w_out, err)) ||
            (rc = get_l(m, l, "mlp.c_proj.bias", d, 0, &L->b_out, err)))
            return rc;
    }
    return AT_OK;
}

void hf_gpt2_embed(const at_hf_model *m, const int32_t *ids, size_t a, size_t n, float *x)
{
    const size_t d = m->cfg.d_model;
    for (size_t i = a; i < n; i++) {
        const float *e = m->wte + (size_t)ids[i] * d, *w = m->wpe + i * d;
        float *x_i = x + (i - a) * d;
        for (size_t j = 0; j < d; j++)
            x_i[j] = e[j] + w[j];
    }
}

/* Put the rows of a block [H × r × n] (queries a … a + r − 1) into run's layer l. */
static void scatter(float *dst, const float *src, size_t H, size_t r, size_t n, size_t a)
{
    for (size_t h = 0; h < H; h++)
        memcpy(dst + (h * n + a) * n, src + h * r * n, r * n * sizeof *dst);
}

int hf_gpt2_block(const at_hf_model *m, size_t l, size_t a, size_t n, float *x, float *K,
                  float *V, at_model_run *run, at_error *err)
{
    const at_hf_config *c = &m->cfg;
    const hf_layer *L = &m->layers[l];
    const size_t d = c->d_model, f = c->d_ff, H = c->n_heads, dh = d / H, r = n - a;
    if (a >= n)
        return AT_OK;
    /* ln, q, heads, proj [r × d]; qkv [r × 3d]; mid [r × f]; w, s, sc [H × r × n] */
    size_t floats = r * (7 * d + f) + 3 * H * r * n;
    float *mem = malloc(floats * sizeof *mem);
    unsigned char *allowed = malloc(r * n);
    at_workspace ws = {0};
    int rc = AT_OK;
    if (!mem || !allowed) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory for %zu tokens", n);
        goto out;
    }
    float *ln = mem, *q = ln + r * d, *heads = q + r * d, *proj = heads + r * d,
          *qkv = proj + r * d, *mid = qkv + 3 * r * d, *w = mid + r * f, *sc = w + H * r * n,
          *scd = sc + H * r * n;
    for (size_t i = 0; i < r; i++)         /* query a + i sees keys 0 … a + i */
        for (size_t j = 0; j < n; j++)
            allowed[i * n + j] = j <= a + i;
    /* x += c_proj(attention(c_attn(ln_1(x)))); this block's keys and values join those
     * of the tokens before them in K, V */
    hf_layernorm(r, d, x, L->ln1_g, L->ln1_b, c->ln_eps, ln);
    hf_linear(r, d, 3 * d, ln, L->w_qkv, 0, L->b_qkv, qkv);
    for (size_t i = 0; i < r; i++) {
        const float *qkv_i = qkv + i * 3 * d;
        memcpy(q + i * d, qkv_i, d * sizeof(float));
        memcpy(K + (a + i) * d, qkv_i + d, d * sizeof(float));
        memcpy(V + (a + i) * d, qkv_i + 2 * d, d * sizeof(float));
    }
    float scale = c->scale_attn ? 1.0f / sqrtf((float)dh) : 1.0f;
    if (c->scale_by_layer)
        scale /= (float)(l + 1);
    at_mask mask = {.allowed = allowed};
    at_mha_trace tr = {.scores = sc, .scaled = scd};
    rc = at_mha_attend(H, d, r, q, n, K, V, scale, &mask, heads, w, NULL, &tr, &ws, err);
    if (rc)
        goto out;
    scatter(run->weights[l], w, H, r, n, a);
    scatter(run->scores[l], sc, H, r, n, a);
    scatter(run->scaled[l], scd, H, r, n, a);
    if (l + 1 == c->n_layers)
        goto out;   /* nothing after the last attention changes a weight */
    hf_linear(r, d, d, heads, L->w_o, 0, L->b_o, proj);
    for (size_t i = 0; i < r * d; i++)
        x[i] += proj[i];
    /* x += mlp(ln_2(x)) */
    hf_layernorm(r, d, x, L->ln2_g, L->ln2_b, c->ln_eps, ln);
    hf_linear(r, d, f, ln, L->w_fc, 0, L->b_fc, mid);
    hf_activate(c->act, r * f, mid);
    hf_linear(r, f, d, mid, L->w_out, 0, L->b_out, proj);
    for (size_t i = 0; i < r * d; i++)
        x[i] += proj[i];
out:
    at_workspace_free(&ws);
    free(allowed);
    free(mem);
    return rc;
}

int hf_gpt2_forward(const at_hf_model *m, const int32_t *ids, size_t n, at_model_run *run,
                    at_error *err)
{
    const size_t d = m->cfg.d_model;
    /* x: the residual stream; K, V: the keys and values of one layer at a time */
    float *x = malloc(3 * n * d * sizeof *x);
    if (!x)
        return at_error_set(err, AT_ENOMEM, "out of memory for %zu tokens", n);
    float *K = x + n * d, *V = K + n * d;
    hf_gpt2_embed(m, ids, 0, n, x);
    int rc = AT_OK;
    for (size_t l = 0; l < m->cfg.n_layers && !rc; l++)
        rc = hf_gpt2_block(m, l, 0, n, x, K, V, run, err);
    free(x);
    return rc;
}
