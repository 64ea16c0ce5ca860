/* Expected answers of computed questions (softmax, attention, numeric). */
#define _GNU_SOURCE
#include "lesson/lesson.h"
#include "engine/attention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int softmax_expected(const at_question *q, at_question_calc *c, at_error *err)
{
    size_t n = q->tokens_count;
    if (n == 0 || q->scores_count != n)
        return at_error_set(err, AT_EINVAL, "`scores` has %u numbers for %u `tokens`: a softmax "
                            "question needs one score per token", q->scores_count, q->tokens_count);
    if (q->ask_count == 0)
        return at_error_set(err, AT_EINVAL, "a softmax question needs `ask`: which tokens' weights");
    c->all_weights = malloc(n * sizeof *c->all_weights);
    c->exps = malloc(n * sizeof *c->exps);
    c->expected = malloc(q->ask_count * sizeof *c->expected);
    c->ask_index = malloc(q->ask_count * sizeof *c->ask_index);
    if (!c->all_weights || !c->exps || !c->expected || !c->ask_index)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    double max = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (at_parse_cell(q->scores[i], &c->all_weights[i]) || !isfinite(c->all_weights[i]))
            return at_error_set(err, AT_EINVAL, "`scores` entry %zu ('%s') is not a finite number",
                                i + 1, q->scores[i]);
        if (c->all_weights[i] > max)
            max = c->all_weights[i];
    }
    /* exp(score) as a student writes it; shifted by the max only where it would overflow. */
    double shift = fabs(max) > 80.0 ? max : 0.0;
    c->exp_sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        c->exps[i] = exp(c->all_weights[i] - shift);
        c->exp_sum += c->exps[i];
    }
    at_softmax_row_f64(c->all_weights, NULL, n);
    for (size_t i = 0; i < q->ask_count; i++) {
        long k = at_token_index((const char *const *)q->tokens, n, q->ask[i]);
        if (k < 0)
            return at_error_set(err, AT_EINVAL, "`ask` names '%s', which is not one of the tokens "
                                "(name a token by its text or its 1-based position)", q->ask[i]);
        c->ask_index[i] = (size_t)k;
        c->expected[i] = c->all_weights[k];
    }
    c->n = q->ask_count;
    return AT_OK;
}

static int attention_expected(const at_question *q, at_question_calc *c, at_error *err)
{
    at_compute block = {
        .tokens = q->tokens, .tokens_count = q->tokens_count,
        .q = q->q, .k = q->k, .v = q->v,
        .mask = q->mask, .mask_rows = q->mask_rows, .scale = q->scale,
    };
    if (q->ask_count != 1 || (strcmp(q->ask[0], "weights") && strcmp(q->ask[0], "output")))
        return at_error_set(err, AT_EINVAL, "`ask` of an attention question is weights or output");
    int rc = at_compute_run(&block, &c->attn, err);
    if (rc)
        return rc;
    const at_compute_result *r = &c->attn;
    if (!q->row || *q->row < 1 || *q->row > r->n_q)
        return at_error_set(err, AT_EINVAL, "`row` must be a query row from 1 to %zu", r->n_q);
    size_t i = *q->row - 1;
    int weights = !strcmp(q->ask[0], "weights");
    c->n = weights ? r->n_k : r->d_v;
    c->expected = malloc(c->n * sizeof *c->expected);
    if (!c->expected)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (size_t j = 0; j < c->n; j++)
        c->expected[j] = weights ? r->weights[i * r->n_k + j] : r->out[i * r->d_v + j];
    return AT_OK;
}

int at_question_compute(const at_question *q, at_question_calc *c, at_error *err)
{
    int rc = AT_OK;
    memset(c, 0, sizeof *c);
    at_error_clear(err);
    c->decimals = q->decimals ? (int)*q->decimals : 2;
    if (c->decimals > 9)
        return at_error_set(err, AT_EINVAL, "`decimals` is at most 9");
    c->tolerance = pow(10.0, -c->decimals);   /* one unit, as the grader (quiz/expected.c) */
    switch (q->kind) {
    case AT_Q_SOFTMAX:
        rc = softmax_expected(q, c, err);
        break;
    case AT_Q_ATTENTION:
        rc = attention_expected(q, c, err);
        break;
    case AT_Q_NUMERIC:
        if (!q->value)
            return at_error_set(err, AT_EINVAL, "a numeric question needs `value`");
        if (!(c->expected = malloc(sizeof *c->expected)))
            return at_error_set(err, AT_ENOMEM, "out of memory");
        c->expected[0] = *q->value;
        c->n = 1;
        if (q->relative)
            c->tolerance = fabs(*q->relative * *q->value);
        break;
    default:
        break;
    }
    if (!rc && q->tolerance)
        c->tolerance = *q->tolerance;
    for (unsigned g = 0; !rc && g < q->glosses_count; g++)
        if (at_token_index((const char *const *)q->tokens, q->tokens_count, q->glosses[g].token) < 0)
            rc = at_error_set(err, AT_EINVAL, "`glosses` names '%s', which is not one of the tokens "
                              "(name a token by its text or its 1-based position)", q->glosses[g].token);
    if (rc)
        at_question_calc_free(c);
    return rc;
}

void at_question_calc_free(at_question_calc *c)
{
    if (!c)
        return;
    free(c->expected);
    free(c->ask_index);
    free(c->all_weights);
    free(c->exps);
    at_compute_result_free(&c->attn);
    memset(c, 0, sizeof *c);
}
