/* Expected values of numeric questions, computed by the engine at grading time,
 * and the tolerance of each. */
#include "quiz/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/attention.h"

static int softmax_ctx(qz_numctx *c, const qz_question *q, at_error *err)
{
    if (!q->n_tokens || !q->scores || !q->n_ask || !q->ask)
        return at_error_set(err, AT_EINVAL, "question %s: a softmax question needs scores and "
                            "the tokens asked", q->id ? q->id : "?");
    c->row_n = q->n_tokens;
    c->n = q->n_ask;
    c->row_s = malloc(c->row_n * sizeof *c->row_s);
    c->row_w = malloc(c->row_n * sizeof *c->row_w);
    if (!c->row_s || !c->row_w)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    memcpy(c->row_s, q->scores, c->row_n * sizeof *c->row_s);
    memcpy(c->row_w, q->scores, c->row_n * sizeof *c->row_w);
    at_softmax_row_f64(c->row_w, NULL, c->row_n);
    return AT_OK;
}

static float *to_float(const double *x, size_t n)
{
    float *f = malloc((n ? n : 1) * sizeof *f);
    for (size_t i = 0; f && i < n; i++)
        f[i] = (float)x[i];
    return f;
}

/* Run the engine on the question's q/k/v with the given scale (<= 0: 1/√d_k). */
int qz_attention_run(const qz_question *q, double scale, float *w, float *out, float *raw,
                     float *scaled, at_error *err)
{
    float *Q = to_float(q->q, q->n_q * q->d_k), *K = to_float(q->k, q->n_k * q->d_k);
    float *V = to_float(q->v, q->n_k * q->d_v);
    int rc = AT_ENOMEM;
    if (!Q || !K || !V) {
        at_error_set(err, rc, "out of memory");
        goto out;
    }
    at_attn_config cfg = at_attn_config_init(q->n_q, q->n_k, q->d_k, q->d_v);
    if (scale > 0)
        cfg.scale = (float)scale;
    cfg.mask.causal = q->causal;
    cfg.mask.allowed = q->allowed;
    at_attn_trace tr = {.scores = raw, .scaled = scaled};
    rc = at_attention_forward(&cfg, Q, K, V, w, out, NULL, &tr, err);
out:
    free(Q);
    free(K);
    free(V);
    return rc;
}

static int attention_ctx(qz_numctx *c, const qz_question *q, at_error *err)
{
    if (!q->q || !q->k || !q->v || !q->n_q || !q->n_k || !q->d_k || !q->d_v || q->row >= q->n_q)
        return at_error_set(err, AT_EINVAL, "question %s: an attention question needs q, k, v "
                            "and a row between 1 and the number of queries", q->id ? q->id : "?");
    size_t nw = q->n_q * q->n_k;
    c->att_w = malloc(nw * sizeof *c->att_w);
    c->att_scaled = malloc(nw * sizeof *c->att_scaled);
    c->att_raw = malloc(nw * sizeof *c->att_raw);
    c->att_out = malloc(q->n_q * q->d_v * sizeof *c->att_out);
    c->row_n = q->n_k;
    c->row_s = malloc(c->row_n * sizeof *c->row_s);
    c->row_w = malloc(c->row_n * sizeof *c->row_w);
    if (!c->att_w || !c->att_scaled || !c->att_raw || !c->att_out || !c->row_s || !c->row_w)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc = qz_attention_run(q, q->scale, c->att_w, c->att_out, c->att_raw, c->att_scaled, err);
    if (rc)
        return rc;
    for (size_t j = 0; j < q->n_k; j++) {
        c->row_s[j] = c->att_scaled[q->row * q->n_k + j];
        c->row_w[j] = c->att_w[q->row * q->n_k + j];
    }
    c->n = q->ask_output ? q->d_v : q->n_k;
    return AT_OK;
}

static double default_tolerance(const qz_question *q, int decimals, double want)
{
    /* Not given: one unit of the last decimal asked, around the exact value. 0.1384 at
     * 2 decimals is right from 0.1284 to 0.1484: rounded (0.14) or cut off (0.13), as
     * teachers accept a hand calculation; not 0.12 or 0.15. */
    double abs_tol = q->tolerance >= 0 ? q->tolerance
                   : decimals >= 0 ? pow(10.0, -decimals) : 1e-9 * fmax(1.0, fabs(want));
    if (q->relative >= 0) {
        /* Relative tolerance falls back to the absolute one near 0 (never 0 · ∞). */
        double floor_tol = q->tolerance >= 0 || decimals >= 0 ? abs_tol : 1e-9;
        return fmax(q->relative * fabs(want), floor_tol);
    }
    return abs_tol;
}

int qz_numctx_build(qz_numctx *c, const qz_question *q, qz_lang lang, at_error *err)
{
    memset(c, 0, sizeof *c);
    c->q = q;
    c->lang = lang;
    c->decimals = q->decimals;
    int rc = AT_OK;
    if (q->kind == QZ_SOFTMAX) {
        rc = softmax_ctx(c, q, err);
    } else if (q->kind == QZ_ATTENTION) {
        rc = attention_ctx(c, q, err);
    } else {
        if (!q->n_values || !q->values)
            return at_error_set(err, AT_EINVAL, "question %s: a numeric question needs a value",
                                q->id ? q->id : "?");
        c->n = q->n_values;
    }
    if (rc)
        return rc;
    /* No tolerance given: one unit in the second decimal, as the lesson format and
     * `show` say ("decimals (default 2)"), for every kind. */
    if (c->decimals < 0 && q->tolerance < 0 && q->relative < 0)
        c->decimals = 2;
    c->want = malloc(c->n * sizeof *c->want);
    c->tol = malloc(c->n * sizeof *c->tol);
    c->names = calloc(c->n, sizeof *c->names);
    if (c->row_n)
        c->slot_of = malloc(c->row_n * sizeof *c->slot_of);
    if (!c->want || !c->tol || !c->names || (c->row_n && !c->slot_of))
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (size_t j = 0; j < c->row_n; j++)
        c->slot_of[j] = (size_t)-1;
    for (size_t j = 0; j < c->n; j++) {
        if (q->kind == QZ_SOFTMAX) {
            if (q->ask[j] >= q->n_tokens)
                return at_error_set(err, AT_EINVAL, "question %s: asked token %zu of %zu",
                                    q->id ? q->id : "?", q->ask[j] + 1, q->n_tokens);
            c->want[j] = c->row_w[q->ask[j]];
            c->names[j] = q->tokens ? q->tokens[q->ask[j]] : NULL;
            c->slot_of[q->ask[j]] = j;
        } else if (q->kind == QZ_ATTENTION) {
            c->want[j] = q->ask_output ? c->att_out[q->row * q->d_v + j] : c->row_w[j];
            if (!q->ask_output) {
                c->names[j] = q->tokens && q->n_tokens == q->n_k ? q->tokens[j] : NULL;
                c->slot_of[j] = j;
            }
        } else {
            c->want[j] = q->values[j];
        }
        c->tol[j] = default_tolerance(q, c->decimals, c->want[j]);
    }
    return AT_OK;
}

void qz_numctx_free(qz_numctx *c)
{
    free(c->want);
    free(c->tol);
    free(c->names);
    free(c->row_s);
    free(c->row_w);
    free(c->slot_of);
    free(c->att_w);
    free(c->att_out);
    free(c->att_scaled);
    free(c->att_raw);
    memset(c, 0, sizeof *c);
}

int qz_within(const qz_numctx *c, size_t j, double x)
{
    return fabs(x - c->want[j]) <= c->tol[j] * (1 + 1e-9) + 1e-12;
}

void qz_put_num(FILE *f, double x, int decimals)
{
    if (x == 0)
        x = 0;   /* never print -0 */
    if (decimals >= 0)
        fprintf(f, "%.*f", decimals, x);
    else if (decimals == QZ_NUM_SHORT)
        fprintf(f, "%.6g", x);
    else if (x == floor(x) && fabs(x) < 1e15)
        fprintf(f, "%.0f", x);
    else if (fabs(x) >= 1e-4 && fabs(x) < 1e6)
        fprintf(f, "%.4f", x);
    else
        fprintf(f, "%.4g", x);
}
