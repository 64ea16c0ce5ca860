/* Multi-head attention and cross-attention (Vaswani et al. 2017, §3.2.2–3.2.3). */
#include "engine/attention.h"

#include <string.h>

/* y = X·W + b: X [n × d], W [d × d], b [d] or NULL, y [n × d]. */
static void linear(size_t n, size_t d, const float *X, const float *W, const float *b, float *y)
{
    at_matmul(n, d, d, X, W, 0, y, 0);
    if (b)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d; j++)
                y[i * d + j] += b[j];
}

/* Floats of scratch for q, k, v, the concatenated heads and one head's weights:
 * 2·n_q·d + 2·n_k·d + n_q·n_k. Returns 0 if that overflows size_t. */
static int scratch_floats(size_t n_q, size_t n_k, size_t d, size_t *need)
{
    size_t tokens, proj, w, total, bytes;
    if (__builtin_add_overflow(n_q, n_k, &tokens) || __builtin_mul_overflow(tokens, d, &proj) ||
        __builtin_mul_overflow(proj, (size_t)2, &proj) || __builtin_mul_overflow(n_q, n_k, &w) ||
        __builtin_add_overflow(proj, w, &total) ||
        __builtin_mul_overflow(total, sizeof(float), &bytes))
        return 0;
    *need = total;
    return 1;
}

int at_mha_forward(const at_mha_weights *w, size_t n_q, const float *X_q, size_t n_k,
                   const float *X_kv, float scale, const at_mask *mask, float *out,
                   float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                   at_workspace *ws, at_error *err)
{
    if (!w || !X_q || !X_kv || !out || !ws)
        return at_error_set(err, AT_EINVAL, "multi-head attention: a required argument is missing");
    if (w->n_heads == 0 || w->d_model == 0 || w->d_model % w->n_heads)
        return at_error_set(err, AT_EINVAL,
                            "multi-head attention: %zu heads do not divide d_model = %zu",
                            w->n_heads, w->d_model);
    if (n_q == 0 || n_k == 0)
        return at_error_set(err, AT_EINVAL, "multi-head attention: no tokens");
    const size_t d = w->d_model, h_n = w->n_heads, d_head = d / h_n;

    /* One scratch block: q, k, v, concatenated heads, one head's weights. */
    size_t need;
    if (!scratch_floats(n_q, n_k, d, &need))
        return at_error_set(err, AT_ERANGE, "multi-head attention: %zu × %zu tokens is too large",
                            n_q, n_k);
    float *buf = at_workspace_reserve(ws, need);
    if (!buf)
        return at_error_set(err, AT_ENOMEM, "multi-head attention: out of memory");
    float *q = trace && trace->q ? trace->q : buf;
    float *k = trace && trace->k ? trace->k : buf + n_q * d;
    float *v = trace && trace->v ? trace->v : buf + n_q * d + n_k * d;
    float *heads = trace && trace->heads_out ? trace->heads_out : buf + n_q * d + 2 * n_k * d;
    float *w_scratch = buf + 2 * n_q * d + 2 * n_k * d;

    linear(n_q, d, X_q, w->W_q, w->b_q, q);
    linear(n_k, d, X_kv, w->W_k, w->b_k, k);
    linear(n_k, d, X_kv, w->W_v, w->b_v, v);

    for (size_t h = 0; h < h_n; h++) {
        at_attn_config c = at_attn_config_init(n_q, n_k, d_head, d_head);
        c.scale = scale;
        if (mask)
            c.mask = *mask;
        c.ld_q = c.ld_k = c.ld_v = c.ld_out = d;
        float *w_h = weights ? weights + h * n_q * n_k : w_scratch;
        at_attn_trace t = {0};
        if (trace) {
            t.scores = trace->scores ? trace->scores + h * n_q * n_k : NULL;
            t.scaled = trace->scaled ? trace->scaled + h * n_q * n_k : NULL;
        }
        int rc = at_attention_forward(&c, q + h * d_head, k + h * d_head, v + h * d_head, w_h,
                                      heads + h * d_head, h == 0 ? fully_masked : NULL, &t, err);
        if (rc)
            return rc;
    }
    linear(n_q, d, heads, w->W_o, w->b_o, out);
    return AT_OK;
}
