/* Scaled dot-product attention (Vaswani et al. 2017, eq. 1). */
#include "engine/attention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

at_attn_config at_attn_config_init(size_t n_q, size_t n_k, size_t d_k, size_t d_v)
{
    at_attn_config c = {.n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v};
    c.scale = d_k > 0 ? 1.0f / sqrtf((float)d_k) : 1.0f;
    return c;
}

static int mask_visible(const at_mask *m, size_t n_k, size_t i, size_t j)
{
    if (m->causal && j > i)
        return 0;
    if (m->key_padding && m->key_padding[j])
        return 0;
    if (m->allowed && !m->allowed[i * n_k + j])
        return 0;
    return 1;
}

static int has_mask(const at_mask *m)
{
    return m->causal || m->key_padding || m->allowed;
}

/* out_i = Σ_j w_ij V_j over the keys with w_ij > 0 only (used when V holds a
 * non-finite value, which sgemm would spread as 0·NaN = NaN). */
static void weighted_sum_rows(const at_attn_config *c, const float *weights, const float *V,
                              float *out, size_t ld_v, size_t ld_out)
{
    for (size_t i = 0; i < c->n_q; i++) {
        float *out_i = out + i * ld_out;
        const float *w_i = weights + i * c->n_k;
        memset(out_i, 0, c->d_v * sizeof *out_i);
        for (size_t j = 0; j < c->n_k; j++) {
            if (w_i[j] == 0.0f)
                continue;
            const float *v_j = V + j * ld_v;
            for (size_t d = 0; d < c->d_v; d++)
                out_i[d] += w_i[j] * v_j[d];
        }
    }
}

int at_attention_forward(const at_attn_config *c, const float *Q, const float *K,
                         const float *V, float *weights, float *out,
                         unsigned char *fully_masked, const at_attn_trace *trace,
                         at_error *err)
{
    if (!c || !Q || !K || !V || !weights || !out)
        return at_error_set(err, AT_EINVAL, "attention: a required matrix is missing");
    if (c->n_q == 0 || c->n_k == 0)
        return at_error_set(err, AT_EINVAL, "attention: no tokens (n_q = %zu, n_k = %zu)",
                            c->n_q, c->n_k);
    if (c->d_k == 0 || c->d_v == 0)
        return at_error_set(err, AT_EINVAL, "attention: d_k and d_v must be > 0 (d_k = %zu, d_v = %zu)",
                            c->d_k, c->d_v);
    if (!isfinite(c->scale))
        return at_error_set(err, AT_EINVAL, "attention: the scale must be a finite number");
    size_t ld_q = c->ld_q ? c->ld_q : c->d_k, ld_k = c->ld_k ? c->ld_k : c->d_k;
    size_t ld_v = c->ld_v ? c->ld_v : c->d_v, ld_out = c->ld_out ? c->ld_out : c->d_v;
    const size_t n_q = c->n_q, n_k = c->n_k;

    /* scores = Q Kᵀ  [n_q × n_k] */
    at_matmul_ld(n_q, n_k, c->d_k, Q, ld_q, K, ld_k, 1, weights, n_k, 0);

    int masked = has_mask(&c->mask);
    unsigned char *visible = NULL;
    unsigned char row_visible[256];
    if (masked) {
        visible = n_k <= sizeof row_visible ? row_visible : malloc(n_k);
        if (!visible)
            return at_error_set(err, AT_ENOMEM, "attention: out of memory");
    }
    for (size_t i = 0; i < n_q; i++) {
        float *w_i = weights + i * n_k;
        if (masked)
            for (size_t j = 0; j < n_k; j++)
                visible[j] = (unsigned char)mask_visible(&c->mask, n_k, i, j);
        if (trace && trace->scores)
            for (size_t j = 0; j < n_k; j++)
                trace->scores[i * n_k + j] = !masked || visible[j] ? w_i[j] : -INFINITY;
        if (c->scale != 1.0f)
            for (size_t j = 0; j < n_k; j++)
                w_i[j] *= c->scale;
        if (trace && trace->scaled)
            for (size_t j = 0; j < n_k; j++)
                trace->scaled[i * n_k + j] = !masked || visible[j] ? w_i[j] : -INFINITY;
        int empty = at_softmax_row(w_i, visible, n_k);
        if (fully_masked)
            fully_masked[i] = (unsigned char)empty;
    }
    if (visible && visible != row_visible)
        free(visible);

    /* out = weights V  [n_q × d_v] */
    int v_finite = 1;
    for (size_t j = 0; j < n_k && v_finite; j++)
        for (size_t d = 0; d < c->d_v; d++)
            if (!isfinite(V[j * ld_v + d])) {
                v_finite = 0;
                break;
            }
    if (v_finite)
        at_matmul_ld(n_q, c->d_v, n_k, weights, n_k, V, ld_v, 0, out, ld_out, 0);
    else
        weighted_sum_rows(c, weights, V, out, ld_v, ld_out);
    return AT_OK;
}

float *at_workspace_reserve(at_workspace *ws, size_t n)
{
    if (n <= ws->cap)
        return ws->data;
    float *p = realloc(ws->data, n * sizeof *p);
    if (!p)
        return NULL;
    ws->data = p;
    ws->cap = n;
    return p;
}

void at_workspace_free(at_workspace *ws)
{
    free(ws->data);
    ws->data = NULL;
    ws->cap = 0;
}
