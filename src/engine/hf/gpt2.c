/* GPT-2 (Radford et al. 2019, §2.3; the block of Radford et al. 2018 with layer norm
 * moved to each sub-block's input and a final layer norm added), in the tensor layout
 * the transformers library writes (GPT2Model, or GPT2LMHeadModel with "transformer."). */
#include "engine/hf/hf_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int get(at_hf_model *m, const char *name, size_t rows, size_t cols, const float **out,
               at_error *err)
{
    size_t shape[2] = {rows, cols};
    return at_hf_weights_get(&m->w, name, cols ? 2 : 1, shape, out, err);
}

/* Layer l's tensor "h.<l>.<what>". */
static int get_l(at_hf_model *m, size_t l, const char *what, size_t rows, size_t cols,
                 const float **out, at_error *err)
{
    char name[128];
    snprintf(name, sizeof name, "h.%zu.%s", l, what);
    return get(m, name, rows, cols, out, err);
}

int hf_gpt2_bind(at_hf_model *m, at_error *err)
{
    const at_hf_config *c = &m->cfg;
    const size_t d = c->d_model, f = c->d_ff;
    int rc;
    if ((rc = get(m, "wte.weight", c->vocab_size, d, &m->wte, err)) ||
        (rc = get(m, "wpe.weight", c->n_positions, d, &m->wpe, err)))
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

/* Activations of one forward pass, carved from one block. */
typedef struct gpt2_acts {
    float *x;           /* [n × d] the residual stream */
    float *a;           /* [n × d] a layer norm's output */
    float *qkv;         /* [n × 3d] */
    float *q, *k, *v;   /* [n × d] each */
    float *heads;       /* [n × d] concatenated head outputs */
    float *proj;        /* [n × d] a sub-block's output */
    float *mid;         /* [n × f] the MLP's hidden layer */
    float *mem;
} gpt2_acts;

static int acts_alloc(size_t n, size_t d, size_t f, gpt2_acts *A)
{
    size_t total = n * (10 * d + f);
    float *p = A->mem = malloc(total * sizeof *p);
    if (!p)
        return -1;
    A->x = p, p += n * d;
    A->a = p, p += n * d;
    A->qkv = p, p += 3 * n * d;
    A->q = p, p += n * d;
    A->k = p, p += n * d;
    A->v = p, p += n * d;
    A->heads = p, p += n * d;
    A->proj = p, p += n * d;
    A->mid = p;
    return 0;
}

/* x_i = wte[id_i] + wpe[i] */
static void embed(const at_hf_model *m, const int32_t *ids, size_t n, float *x)
{
    const size_t d = m->cfg.d_model;
    for (size_t i = 0; i < n; i++) {
        const float *e = m->wte + (size_t)ids[i] * d, *p = m->wpe + i * d;
        for (size_t j = 0; j < d; j++)
            x[i * d + j] = e[j] + p[j];
    }
}

int hf_gpt2_forward(const at_hf_model *m, const int32_t *ids, size_t n, at_model_run *run,
                    at_error *err)
{
    const at_hf_config *c = &m->cfg;
    const size_t d = c->d_model, f = c->d_ff, H = c->n_heads, dh = d / H;
    gpt2_acts A = {0};
    at_workspace ws = {0};
    int rc = AT_OK;
    if (acts_alloc(n, d, f, &A))
        return at_error_set(err, AT_ENOMEM, "out of memory for %zu tokens", n);
    embed(m, ids, n, A.x);
    for (size_t l = 0; l < c->n_layers; l++) {
        const hf_layer *L = &m->layers[l];
        /* x += c_proj(attention(c_attn(ln_1(x)))) */
        hf_layernorm(n, d, A.x, L->ln1_g, L->ln1_b, c->ln_eps, A.a);
        hf_linear(n, d, 3 * d, A.a, L->w_qkv, 0, L->b_qkv, A.qkv);
        for (size_t i = 0; i < n; i++) {
            memcpy(A.q + i * d, A.qkv + i * 3 * d, d * sizeof(float));
            memcpy(A.k + i * d, A.qkv + i * 3 * d + d, d * sizeof(float));
            memcpy(A.v + i * d, A.qkv + i * 3 * d + 2 * d, d * sizeof(float));
        }
        float scale = c->scale_attn ? 1.0f / sqrtf((float)dh) : 1.0f;
        if (c->scale_by_layer)
            scale /= (float)(l + 1);
        at_mask mask = {.causal = 1};
        at_mha_trace tr = {.scores = run->scores[l], .scaled = run->scaled[l]};
        rc = at_mha_attend(H, d, n, A.q, n, A.k, A.v, scale, &mask, A.heads, run->weights[l],
                           l == 0 ? run->fully_masked : NULL, &tr, &ws, err);
        if (rc)
            break;
        hf_linear(n, d, d, A.heads, L->w_o, 0, L->b_o, A.proj);
        for (size_t i = 0; i < n * d; i++)
            A.x[i] += A.proj[i];
        if (l + 1 == c->n_layers)
            break;   /* nothing after the last attention changes a weight */
        /* x += mlp(ln_2(x)) */
        hf_layernorm(n, d, A.x, L->ln2_g, L->ln2_b, c->ln_eps, A.a);
        hf_linear(n, d, f, A.a, L->w_fc, 0, L->b_fc, A.mid);
        hf_activate(c->act, n * f, A.mid);
        hf_linear(n, f, d, A.mid, L->w_out, 0, L->b_out, A.proj);
        for (size_t i = 0; i < n * d; i++)
            A.x[i] += A.proj[i];
    }
    at_workspace_free(&ws);
    free(A.mem);
    return rc;
}
