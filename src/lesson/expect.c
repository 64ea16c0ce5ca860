/* `expect` assertions against what the engine computed. */
#define _GNU_SOURCE
#include "lesson/lesson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A 0-based index from a 1-based number or a token name; -1 if neither resolves. */
static long resolve(const unsigned *pos, const char *name, const char *const *labels, size_t n)
{
    if (pos)
        return *pos >= 1 && *pos <= n ? (long)*pos - 1 : -1;
    return name ? at_token_index(labels, n, name) : -1;
}

/* The keys a name stands for: one token (text or 1-based position), or a run of
 * consecutive tokens that spell it ("小明" over the tokens 小 and 明). Returns the
 * first index and sets *len, or -1. */
static long key_span(const char *const *labels, size_t n, const char *name, size_t *len)
{
    long k = at_token_index(labels, n, name);
    *len = 1;
    if (k >= 0 || !labels || !name)
        return k;
    size_t want = strlen(name);
    for (size_t i = 0; i < n; i++) {
        size_t used = 0, j = i;
        while (j < n && used < want && labels[j] &&
               !strncmp(name + used, labels[j], strlen(labels[j])) && *labels[j]) {
            used += strlen(labels[j]);
            j++;
        }
        if (used == want && j > i + 1) {
            *len = j - i;
            return (long)i;
        }
    }
    return -1;
}

static int check_number(double got, const at_expect_value *v, const char *what, char *msg,
                        size_t cap)
{
    double tol = v->tolerance ? *v->tolerance : 0.005;
    if (v->value && !(fabs(got - *v->value) <= tol)) {
        snprintf(msg, cap, "%s = %.4g (computed), expected %g ± %g", what, got, *v->value, tol);
        return 1;
    }
    if (v->at_least && !(got >= *v->at_least)) {
        snprintf(msg, cap, "%s = %.4g (computed), expected at least %g", what, got, *v->at_least);
        return 1;
    }
    if (v->at_most && !(got <= *v->at_most)) {
        snprintf(msg, cap, "%s = %.4g (computed), expected at most %g", what, got, *v->at_most);
        return 1;
    }
    if (!v->value && !v->at_least && !v->at_most) {
        snprintf(msg, cap, "%s = %.4g (computed); give `value`, `at_least` or `at_most` to check it",
                 what, got);
        return -1;
    }
    snprintf(msg, cap, "%s = %.4g", what, got);
    return 0;
}

static long query_row(const unsigned *row, const char *from, const char *from_default,
                      const at_compute_result *r, char *msg, size_t cap)
{
    if (!row && !from)
        from = from_default;
    if (!row && !from && r->n_q == 1)
        return 0;                     /* one query row: no need to name it */
    if (!row && !from) {
        snprintf(msg, cap, "it needs `row` (the query row, from 1) or `from` (the query token) "
                 "to say which of the %zu query rows it is about", r->n_q);
        return -1;
    }
    long i = resolve(row, from, r->tokens, r->n_q);
    if (i < 0 && row)
        snprintf(msg, cap, "the query row %u is not one of the %zu rows", *row, r->n_q);
    else if (i < 0)
        snprintf(msg, cap, "the query '%s' is not one of the %zu rows", from, r->n_q);
    return i;
}

int at_expect_check(const at_expect *e, const at_compute_result *r, const char *from_default,
                    char *msg, size_t cap)
{
    const char *const *keys = r->key_tokens;
    if (e->top) {
        long i = query_row(e->row, e->from, from_default, r, msg, cap);
        size_t len;
        long want = key_span(keys, r->n_k, e->top, &len);
        if (i < 0)
            return -1;
        if (want < 0) {
            snprintf(msg, cap, "'%s' is not one of the keys", e->top);
            return -1;
        }
        const float *w = r->weights + (size_t)i * r->n_k;
        size_t best = 0;
        for (size_t j = 1; j < r->n_k; j++)
            if (w[j] > w[best])
                best = j;
        char name[64];
        if (keys)
            snprintf(name, sizeof name, "'%s'", keys[best]);
        else
            snprintf(name, sizeof name, "key %zu", best + 1);
        int holds = best >= (size_t)want && best < (size_t)want + len;
        double got = 0;
        for (size_t j = 0; j < len; j++)
            got = w[want + j] > got ? w[want + j] : got;
        if (holds)
            snprintf(msg, cap, "the largest weight of query %ld goes to %s (%.4g)", i + 1, name,
                     w[best]);
        else
            snprintf(msg, cap, "the largest weight of query %ld goes to %s (%.4g), not to '%s' "
                     "(%.4g)", i + 1, name, w[best], e->top, got);
        return holds ? 0 : 1;
    }
    const at_expect_value *v = e->weight ? e->weight : e->output;
    if (!v) {
        snprintf(msg, cap, "an expect entry needs `top`, `weight` or `output`");
        return -1;
    }
    long i = query_row(v->row, v->from, from_default, r, msg, cap);
    if (i < 0)
        return -1;
    char what[96];
    if (e->weight) {
        size_t len = 1;
        long j = v->col ? resolve(v->col, NULL, keys, r->n_k)
                        : key_span(keys, r->n_k, v->to, &len);
        if (j < 0) {
            snprintf(msg, cap, "the key (`col` or `to`) is missing or not one of the %zu keys",
                     r->n_k);
            return -1;
        }
        double sum = 0;                   /* a word over several tokens: their sum */
        for (size_t k = 0; k < len; k++)
            sum += r->weights[(size_t)i * r->n_k + j + k];
        if (len > 1)
            snprintf(what, sizeof what, "weight (row %ld, keys %ld–%ld '%s')", i + 1, j + 1,
                     j + (long)len, v->to);
        else
            snprintf(what, sizeof what, "weight (row %ld, key %ld)", i + 1, j + 1);
        return check_number(sum, v, what, msg, cap);
    }
    if (!r->out) {
        snprintf(msg, cap, "`output` needs `q`, `k`, `v` (given scores, there is no output)");
        return -1;
    }
    if (!v->col || *v->col < 1 || *v->col > r->d_v) {
        snprintf(msg, cap, "`output` needs `col` from 1 to d_v = %zu", r->d_v);
        return -1;
    }
    snprintf(what, sizeof what, "output (row %ld, column %u)", i + 1, *v->col);
    return check_number(r->out[(size_t)i * r->d_v + *v->col - 1], v, what, msg, cap);
}

/* ---- predictions: what the engine answers to a step's `predict` */

double at_predict_tolerance(const at_predict *p)
{
    if (p->tolerance)
        return *p->tolerance;
    return p->variance ? 1.0 : 0.05;
}

static int predict_number(const at_predict *p, const at_compute_result *r,
                          const char *from_default, at_predict_answer *out, char *msg,
                          size_t cap)
{
    if (p->variance) {
        if (!r->raw) {
            snprintf(msg, cap, "`variance` needs `q`, `k`, `v` or `random` (given scores, there "
                     "are no raw scores)");
            return -1;
        }
        out->value = p->variance == AT_VARIANCE_RAW ? r->raw_variance : r->scaled_variance;
        return 0;
    }
    const at_expect_value *v = p->weight ? p->weight : p->output;
    if (!v) {
        snprintf(msg, cap, "a number prediction needs `weight`, `output` or `variance`");
        return -1;
    }
    long i = query_row(v->row, v->from, from_default, r, msg, cap);
    if (i < 0)
        return -1;
    out->row = (size_t)i;
    if (p->weight) {
        size_t len = 1;
        long j = v->col ? resolve(v->col, NULL, r->key_tokens, r->n_k)
                        : key_span(r->key_tokens, r->n_k, v->to, &len);
        if (j < 0) {
            snprintf(msg, cap, "the key (`col` or `to`) is missing or not one of the %zu keys",
                     r->n_k);
            return -1;
        }
        out->col = (size_t)j;
        out->value = 0;
        for (size_t k = 0; k < len; k++)
            out->value += r->weights[(size_t)i * r->n_k + (size_t)j + k];
        return 0;
    }
    if (!r->out || !v->col || *v->col < 1 || *v->col > r->d_v) {
        snprintf(msg, cap, r->out ? "`output` needs `col` from 1 to d_v" :
                 "`output` needs `q`, `k`, `v` (given scores, there is no output)");
        return -1;
    }
    out->col = *v->col - 1;
    out->value = r->out[(size_t)i * r->d_v + out->col];
    return 0;
}

int at_predict_answer_of(const at_predict *p, const at_compute_result *r,
                         const char *from_default, at_predict_answer *out, char *msg,
                         size_t cap)
{
    memset(out, 0, sizeof *out);
    out->kind = p->kind;
    snprintf(msg, cap, "ok");
    switch (p->kind) {
    case AT_PREDICT_CHOICE:
        for (unsigned i = 0; i < p->options_count && i < 64; i++)
            out->correct |= p->options[i].correct ? 1ull << i : 0;
        if (!out->correct) {
            snprintf(msg, cap, "no option is marked `correct: true`");
            return -1;
        }
        return 0;
    case AT_PREDICT_NUMBER:
        return predict_number(p, r, from_default, out, msg, cap);
    case AT_PREDICT_TOKEN: {
        long i = query_row(p->row, p->from, from_default, r, msg, cap);
        if (i < 0 || r->n_k == 0)
            return -1;
        const float *w = r->weights + (size_t)i * r->n_k;
        size_t best = 0;
        for (size_t j = 1; j < r->n_k; j++)
            if (w[j] > w[best])
                best = j;
        out->row = (size_t)i;
        out->token = best;
        return 0;
    }
    }
    snprintf(msg, cap, "`kind` is choice, number or token");
    return -1;
}
