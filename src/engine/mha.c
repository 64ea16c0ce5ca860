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

/* total = a·b + c in size_t; returns 0 on overflow. */
static int size_muladd(size_t a, size_t b, size_t c, size_t *total)
{
    size_t ab, bytes;
    return !__builtin_mul_overflow(a, b, &ab) && !__builtin_add_overflow(ab, c, total) &&
           !__builtin_mul_overflow(*total, sizeof(float), &bytes);
}

/* Scratch floats of the attention core: one head's weights [n_q × n_k]. */
static int attend_scratch(size_t n_q, size_t n_k, size_t *need)
{
    return size_muladd(n_q, n_k, 0, need);
}

/* The per-head loop, with the scratch already reserved (see at_mha_attend). */
static int attend_heads(size_t h_n, size_t d, size_t n_q, const float *q, size_t n_k,
                        const float *k, const float *v, float scale, const at_mask *mask,
                        float *heads, float *weights, unsigned char *fully_masked,
                        const at_mha_trace *trace, float *scratch, at_error *err)
{
    const size_t d_head = d / h_n;
    for (size_t h = 0; h < h_n; h++) {
        at_attn_config c = at_attn_config_init(n_q, n_k, d_head, d_head);
        c.scale = scale;
        if (mask)
            c.mask = *mask;
        c.ld_q = c.ld_k = c.ld_v = c.ld_out = d;
        float *w_h = weights ? weights + h * n_q * n_k : scratch;
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
    return AT_OK;
}

static int check_heads(size_t n_heads, size_t d_model, size_t n_q, size_t n_k, at_error *err)
{
    if (n_heads == 0 || d_model == 0 || d_model % n_heads)
        return at_error_set(err, AT_EINVAL,
                            "multi-head attention: %zu heads do not divide d_model = %zu",
                            n_heads, d_model);
    if (n_q == 0 || n_k == 0)
        return at_error_set(err, AT_EINVAL, "multi-head attention: no tokens");
    return AT_OK;
}

int at_mha_attend(size_t n_heads, size_t d_model, size_t n_q, const float *q, size_t n_k,
                  const float *k, const float *v, float scale, const at_mask *mask, float *out,
                  float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                  at_workspace *ws, at_error *err)
{
    if (!q || !k || !v || !out || !ws)
        return at_error_set(err, AT_EINVAL, "multi-head attention: a required argument is missing");
    int rc = check_heads(n_heads, d_model, n_q, n_k, err);
    if (rc)
        return rc;
    size_t need;
    if (!attend_scratch(n_q, n_k, &need))
        return at_error_set(err, AT_ERANGE, "multi-head attention: %zu × %zu tokens is too large",
                            n_q, n_k);
    float *scratch = at_workspace_reserve(ws, need);
    if (!scratch)
        return at_error_set(err, AT_ENOMEM, "multi-head attention: out of memory");
    return attend_heads(n_heads, d_model, n_q, q, n_k, k, v, scale, mask, out, weights,
                        fully_masked, trace, scratch, err);
}

int at_mha_forward(const at_mha_weights *w, size_t n_q, const float *X_q, size_t n_k,
                   const float *X_kv, float scale, const at_mask *mask, float *out,
                   float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                   at_workspace *ws, at_error *err)
{
    if (!w || !X_q || !X_kv || !out || !ws)
        return at_error_set(err, AT_EINVAL, "multi-head attention: a required argument is missing");
    int rc = check_heads(w->n_heads, w->d_model, n_q, n_k, err);
    if (rc)
        return rc;
    const size_t d = w->d_model;

    /* One scratch block: q [n_q × d], k, v [n_k × d], concatenated heads [n_q × d],
     * then the attention core's scratch. */
    size_t core, need;
    if (!attend_scratch(n_q, n_k, &core) || !size_muladd(2 * d, n_q + n_k, core, &need) ||
        n_q + n_k < n_q || 2 * d < d)
        return at_error_set(err, AT_ERANGE, "multi-head attention: %zu × %zu tokens is too large",
                            n_q, n_k);
    float *buf = at_workspace_reserve(ws, need);
    if (!buf)
        return at_error_set(err, AT_ENOMEM, "multi-head attention: out of memory");
    float *q = trace && trace->q ? trace->q : buf;
    float *k = trace && trace->k ? trace->k : buf + n_q * d;
    float *v = trace && trace->v ? trace->v : buf + n_q * d + n_k * d;
    float *heads = trace && trace->heads_out ? trace->heads_out : buf + n_q * d + 2 * n_k * d;
    float *scratch = buf + 2 * n_q * d + 2 * n_k * d;

    linear(n_q, d, X_q, w->W_q, w->b_q, q);
    linear(n_k, d, X_kv, w->W_k, w->b_k, k);
    linear(n_k, d, X_kv, w->W_v, w->b_v, v);
    rc = attend_heads(w->n_heads, d, n_q, q, n_k, k, v, scale, mask, heads, weights,
                      fully_masked, trace, scratch, err);
    if (rc)
        return rc;
    linear(n_q, d, heads, w->W_o, w->b_o, out);
    return AT_OK;
}
