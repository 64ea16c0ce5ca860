/* Scaled dot-product attention (Vaswani et al. 2017, eq. 1). */
#include "engine/attention.h"
#include "engine/kernels.h"
#include "engine/vexp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

at_attn_config at_attn_config_init(size_t n_q, size_t n_k, size_t d_k, size_t d_v)
{
    at_attn_config c = {.n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v};
    c.scale = d_k > 0 ? 1.0f / sqrtf((float)d_k) : 1.0f;
    return c;
}

int at_mask_visible(const at_mask *m, size_t n_k, size_t i, size_t j)
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

/* out_i = Σ_j w_ij V_j over the keys with w_ij > 0 only, for rows [i0, i1) (used
 * when V holds a non-finite value, which sgemm would spread as 0·NaN = NaN). */
static void weighted_sum_rows(const at_attn_config *c, size_t i0, size_t i1,
                              const float *weights, const float *V, float *out, size_t ld_v,
                              size_t ld_out)
{
    for (size_t i = i0; i < i1; i++) {
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

int at_attention_check(const at_attn_config *c, at_error *err)
{
    if (c->n_q == 0 || c->n_k == 0)
        return at_error_set(err, AT_EINVAL, "attention: no tokens (n_q = %zu, n_k = %zu)",
                            c->n_q, c->n_k);
    if (c->d_k == 0 || c->d_v == 0)
        return at_error_set(err, AT_EINVAL, "attention: d_k and d_v must be > 0 (d_k = %zu, d_v = %zu)",
                            c->d_k, c->d_v);
    if (!isfinite(c->scale))
        return at_error_set(err, AT_EINVAL, "attention: the scale must be a finite number");
    return AT_OK;
}

/* Query row i: its mask, the traces, its softmax. w_i holds the scores times
 * `applied` (1 or the scale): the sgemm folds the scale in unless raw scores are
 * traced. Returns 1 if the row is fully masked, -1 (with *bad_key set) if a score
 * that no mask hides is NaN (a NaN, or ∞·0, in Q or K): such a row has no meaning
 * and must not be shown as masked. */
static int attend_row(const at_attn_config *c, size_t i, float *w_i, float applied,
                      unsigned char *visible, const at_attn_trace *t, size_t *bad_key)
{
    const size_t n_k = c->n_k;
    if (visible)
        for (size_t j = 0; j < n_k; j++)
            visible[j] = (unsigned char)at_mask_visible(&c->mask, n_k, i, j);
    for (size_t j = 0; j < n_k; j++)
        if ((!visible || visible[j]) && isnan(w_i[j])) {
            *bad_key = j;
            return -1;
        }
    if (t && t->scores)
        for (size_t j = 0; j < n_k; j++)
            t->scores[i * n_k + j] = !visible || visible[j] ? w_i[j] : -INFINITY;
    if (applied != c->scale)
        at_vscale(w_i, n_k, c->scale);
    if (t && t->scaled)
        for (size_t j = 0; j < n_k; j++)
            t->scaled[i * n_k + j] = !visible || visible[j] ? w_i[j] : -INFINITY;
    return at_softmax_row(w_i, visible, n_k);
}

/* Query rows per block: a block's scores (rows × n_k floats, about 4 MiB) stay in
 * cache from QKᵀ through the softmax to weights×V. */
static size_t block_rows(size_t n_q, size_t n_k)
{
    size_t rows = ((size_t)1 << 20) / n_k;
    rows = rows < 16 ? 16 : rows;
    return rows < n_q ? rows : n_q;
}

int at_attention_run(const at_attn_config *c, const float *Q, const float *K, const float *V,
                     float *weights, float *out, unsigned char *fully_masked,
                     const at_attn_trace *trace, int threads, at_error *err)
{
    if (!c || !Q || !K || !V || !weights || !out)
        return at_error_set(err, AT_EINVAL, "attention: a required matrix is missing");
    int rc = at_attention_check(c, err);
    if (rc)
        return rc;
    const size_t ld_q = c->ld_q ? c->ld_q : c->d_k, ld_k = c->ld_k ? c->ld_k : c->d_k;
    const size_t ld_v = c->ld_v ? c->ld_v : c->d_v, ld_out = c->ld_out ? c->ld_out : c->d_v;
    const size_t n_q = c->n_q, n_k = c->n_k;
    unsigned char row_visible[256], *visible = NULL;
    if (has_mask(&c->mask)) {
        visible = n_k <= sizeof row_visible ? row_visible : malloc(n_k);
        if (!visible)
            return at_error_set(err, AT_ENOMEM, "attention: out of memory");
    }
    const int v_finite = at_vall_finite(V, n_k, c->d_v, ld_v);
    const float alpha = trace && trace->scores ? 1.0f : c->scale;
    const size_t rows = block_rows(n_q, n_k);
    for (size_t i0 = 0; i0 < n_q; i0 += rows) {
        const size_t i1 = i0 + rows < n_q ? i0 + rows : n_q;
        /* Under a causal mask, keys after the block's last query are never seen. */
        const size_t n_cols = c->mask.causal && i1 < n_k ? i1 : n_k;
        float *w_block = weights + i0 * n_k;
        /* scores = Q Kᵀ · alpha  [rows × n_cols]; the rest of each row is masked */
        at_matmul_ex(i1 - i0, n_cols, c->d_k, alpha, Q + i0 * ld_q, ld_q, K, ld_k, 1, w_block,
                     n_k, 0, threads);
        for (size_t i = i0; i < i1; i++) {
            size_t bad_key = 0;
            int empty = attend_row(c, i, weights + i * n_k, alpha, visible, trace, &bad_key);
            if (empty < 0) {
                rc = at_error_set(err, AT_EINVAL,
                                  "attention: the score of query %zu against key %zu is not a "
                                  "number (a NaN or an infinity in Q or K that no mask hides)",
                                  i + 1, bad_key + 1);
                goto out;
            }
            if (fully_masked)
                fully_masked[i] = (unsigned char)empty;
        }
        /* out = weights V  [rows × d_v] */
        if (v_finite)
            at_matmul_ex(i1 - i0, c->d_v, n_cols, 1.0f, w_block, n_k, V, ld_v, 0,
                         out + i0 * ld_out, ld_out, 0, threads);
        else
            weighted_sum_rows(c, i0, i1, weights, V, out, ld_v, ld_out);
    }
out:
    if (visible && visible != row_visible)
        free(visible);
    return rc;
}

int at_attention_forward(const at_attn_config *c, const float *Q, const float *K,
                         const float *V, float *weights, float *out,
                         unsigned char *fully_masked, const at_attn_trace *trace,
                         at_error *err)
{
    if (!weights && !(trace && (trace->scores || trace->scaled)))
        return at_attention_online(c, Q, K, V, out, fully_masked, 0, err);
    return at_attention_run(c, Q, K, V, weights, out, fully_masked, trace, 0, err);
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
