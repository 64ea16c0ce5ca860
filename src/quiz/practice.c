/* Generated practice exercises. See quiz/practice.h. */
#include "quiz/practice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/attention.h"

static const char *const words_en[8] = {"the", "cat", "sat", "on", "a", "mat", "rain", "umbrella"};
static const char *const words_zh[8] = {"今天", "下雨", "我", "没", "带", "伞", "猫", "书"};
static const char *const kind_names[QZ_P_KINDS] = {"softmax", "attention", "causal", "heads"};

/* splitmix64: a small, well-known generator; enough for exercises. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static unsigned pick(uint64_t *s, unsigned n)
{
    return (unsigned)(next(s) % n);
}

const char *qz_practice_kind_name(qz_practice_kind k)
{
    return (unsigned)k < QZ_P_KINDS ? kind_names[k] : "?";
}

int qz_practice_kind_parse(const char *name)
{
    for (int i = 0; name && i < QZ_P_KINDS; i++)
        if (!strcmp(name, kind_names[i]))
            return i;
    return -1;
}

qz_practice_kind qz_practice_kind_at(uint64_t seed, unsigned i)
{
    return (qz_practice_kind)((seed + i) % QZ_P_KINDS);
}

/* n distinct words into e->tokens. */
static void pick_tokens(qz_exercise *e, uint64_t *s, unsigned n, qz_lang lang)
{
    const char *const *bank = lang == QZ_ZH ? words_zh : words_en;
    unsigned used = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned w;
        do
            w = pick(s, 8);
        while (used & (1u << w));
        used |= 1u << w;
        e->tokens[i] = bank[w];
    }
}

static void make_softmax(qz_exercise *e, uint64_t *s, qz_lang lang, FILE *p)
{
    unsigned n = 3 + pick(s, 4), n_ask = 1 + pick(s, 2);
    pick_tokens(e, s, n, lang);
    for (unsigned i = 0; i < n; i++)
        e->scores[i] = ((double)pick(s, 31) - 10.0) / 10.0;   /* -1.0 … 2.0 */
    e->ask[0] = pick(s, n);
    do
        e->ask[1] = pick(s, n);
    while (e->ask[1] == e->ask[0]);
    qz_question *q = &e->q;
    *q = qz_question_init(QZ_SOFTMAX);
    q->tokens = e->tokens;
    q->n_tokens = n;
    q->scores = e->scores;
    q->ask = e->ask;
    q->n_ask = n_ask;
    q->decimals = 2;
    fprintf(p, qz_tr(lang, "Softmax by hand. One query's scaled scores (QKᵀ/√d_k) are\n "));
    for (unsigned i = 0; i < n; i++)
        fprintf(p, " %s %.1f%s", e->tokens[i], e->scores[i], i + 1 < n ? "," : "\n");
    if (n_ask == 1)
        fprintf(p, qz_tr(lang, "Give the softmax weight of %s, to 2 decimals.\n"), e->tokens[e->ask[0]]);
    else
        fprintf(p, qz_tr(lang, "Give the softmax weights of %s and %s, to 2 decimals, in that order.\n"),
                e->tokens[e->ask[0]], e->tokens[e->ask[1]]);
}

static void print_matrix(FILE *p, const char *name, const double *m, size_t rows, size_t cols)
{
    fprintf(p, "  %s = [", name);
    for (size_t i = 0; i < rows; i++) {
        fprintf(p, "%s[", i ? ", " : "");
        for (size_t j = 0; j < cols; j++)
            fprintf(p, "%s%g", j ? ", " : "", m[i * cols + j]);
        fprintf(p, "]");
    }
    fprintf(p, "]\n");
}

static void make_attention(qz_exercise *e, uint64_t *s, qz_lang lang, FILE *p)
{
    qz_question *q = &e->q;
    *q = qz_question_init(QZ_ATTENTION);
    q->n_q = q->n_k = 3;
    q->d_k = q->d_v = 2;
    for (unsigned i = 0; i < 6; i++) {
        e->mq[i] = (double)pick(s, 4) - 1;   /* -1 … 2 */
        e->mk[i] = (double)pick(s, 4) - 1;
        e->mv[i] = (double)pick(s, 5);       /* 0 … 4 */
    }
    q->q = e->mq;
    q->k = e->mk;
    q->v = e->mv;
    q->row = pick(s, 3);
    q->ask_output = (int)pick(s, 2);
    q->decimals = 2;
    fprintf(p, qz_tr(lang, "One row of scaled dot-product attention (d_k = 2, so divide by √2).\n"));
    print_matrix(p, "Q", e->mq, 3, 2);
    print_matrix(p, "K", e->mk, 3, 2);
    print_matrix(p, "V", e->mv, 3, 2);
    if (q->ask_output)
        fprintf(p, qz_tr(lang, "Give the output of query %zu (the 2 numbers of softmax(q·Kᵀ/√2)·V), to 2 decimals.\n"),
                q->row + 1);
    else
        fprintf(p, qz_tr(lang, "Give the 3 attention weights of query %zu, to 2 decimals.\n"), q->row + 1);
}

static int make_causal(qz_exercise *e, uint64_t *s, qz_lang lang, FILE *p, FILE *x, at_error *err)
{
    size_t n = 4 + pick(s, 3), i = pick(s, (unsigned)n - 1);
    pick_tokens(e, s, (unsigned)n, lang);
    /* The engine decides which weights a causal mask zeroes: any q and k will do. */
    float Q[6], K[6], V[6], w[36], out[6];
    for (size_t j = 0; j < n; j++) {
        Q[j] = K[j] = (float)pick(s, 3);
        V[j] = 1;
    }
    at_attn_config cfg = at_attn_config_init(n, n, 1, 1);
    cfg.mask.causal = 1;
    int rc = at_attention_forward(&cfg, Q, K, V, w, out, NULL, NULL, err);
    if (rc)
        return rc;
    qz_question *q = &e->q;
    *q = qz_question_init(QZ_NUMERIC);
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (w[i * n + j] == 0.0f)
            e->values[m++] = (double)(j + 1);
    q->values = e->values;
    q->n_values = m;
    q->unordered = 1;
    q->tolerance = 0;
    fprintf(p, qz_tr(lang, "Causal (decoder) self-attention over %zu tokens:"), n);
    for (size_t j = 0; j < n; j++)
        fprintf(p, " %zu:%s", j + 1, e->tokens[j]);
    fprintf(p, qz_tr(lang, "\nWhich key positions get weight 0 for the query at position %zu (%s)? "
                           "Give the positions, in any order.\n"),
            i + 1, e->tokens[i]);
    fprintf(x, qz_tr(lang, "A causal mask lets position %zu see positions 1 … %zu only; the keys after it "
                           "(%zu … %zu) are masked before the softmax, so their weights are exactly 0.\n"),
            i + 1, i + 1, i + 2, n);
    return AT_OK;
}

static void make_heads(qz_exercise *e, uint64_t *s, qz_lang lang, FILE *p, FILE *x)
{
    static const size_t d_models[] = {64, 128, 256, 512, 768};
    static const size_t heads[] = {2, 4, 8};
    size_t d = d_models[pick(s, 5)], h = heads[pick(s, 3)];
    int bias = (int)pick(s, 2);
    /* The shapes of at_mha_weights: W_q, W_k, W_v, W_o [d_model × d_model], biases [d_model]. */
    double per_matrix = (double)d * (double)d, total = 4 * per_matrix + (bias ? 4.0 * (double)d : 0);
    e->values[0] = total;
    qz_question *q = &e->q;
    *q = qz_question_init(QZ_NUMERIC);
    q->values = e->values;
    q->n_values = 1;
    q->tolerance = 0;
    /* The usual slips, computed from the same numbers: W_O left out, the biases left out
     * or counted when there are none, one head's share, the heads multiplying it. */
    double b4 = bias ? 4.0 * (double)d : 0, b3 = bias ? 3.0 * (double)d : 0;
    qz_slip *sl = e->slips;
    size_t n = 0;
    sl[n++] = (qz_slip){3 * per_matrix + b3,
        qz_tr(lang, "You counted W_Q, W_K and W_V but left out W_O: the output projection that "
                    "mixes the heads is a d_model × d_model matrix too.")};
    sl[n++] = bias ? (qz_slip){4 * per_matrix,
        qz_tr(lang, "You left out the biases: each of the four matrices has one of d_model values.")}
                   : (qz_slip){4 * per_matrix + 4.0 * (double)d,
        qz_tr(lang, "You added biases, but this layer has none: count the four matrices only.")};
    sl[n++] = (qz_slip){4 * (double)d * (double)(d / h) + (bias ? 4.0 * (double)(d / h) : 0),
        qz_tr(lang, "That is one head's share: all the heads together fill the d_model columns of "
                    "each matrix.")};
    sl[n++] = (qz_slip){(4 * per_matrix + b4) * (double)h,
        qz_tr(lang, "The heads do not multiply the parameters: they split the columns of the same "
                    "d_model × d_model matrices.")};
    q->slips = e->slips;
    q->n_slips = n;
    fprintf(p, qz_tr(lang, "Multi-head attention with d_model = %zu and h = %zu heads, %s.\n"
                           "How many parameters do W_Q, W_K, W_V, W_O%s hold together?\n"),
            d, h, bias ? qz_tr(lang, "with biases") : qz_tr(lang, "without biases"),
            bias ? qz_tr(lang, " and their biases") : "");
    fprintf(x, qz_tr(lang, "Each of W_Q, W_K, W_V, W_O is d_model × d_model = %zu × %zu = %.0f; the %zu heads "
                           "split their columns (d_head = %zu) and add no parameters. 4 × %.0f = %.0f"),
            d, d, per_matrix, h, d / h, per_matrix, 4 * per_matrix);
    if (bias)
        fprintf(x, qz_tr(lang, ", plus 4 biases of %zu = %zu: %.0f"),
                d, 4 * d, total);
    fprintf(x, qz_tr(lang, ".\n"));
}

int qz_practice_make(qz_practice_kind kind, uint64_t seed, qz_lang lang, qz_exercise *e,
                     at_error *err)
{
    memset(e, 0, sizeof *e);
    if ((unsigned)kind >= QZ_P_KINDS)
        return at_error_set(err, AT_EINVAL, "unknown kind of exercise");
    e->kind = kind;
    e->seed = seed;
    uint64_t s = seed * 4 + (uint64_t)kind;
    size_t plen = 0, xlen = 0;
    FILE *p = open_memstream(&e->prompt, &plen), *x = open_memstream(&e->explanation, &xlen);
    int rc = AT_OK;
    if (!p || !x) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    switch (kind) {
    case QZ_P_SOFTMAX: make_softmax(e, &s, lang, p); break;
    case QZ_P_ATTENTION: make_attention(e, &s, lang, p); break;
    case QZ_P_CAUSAL: rc = make_causal(e, &s, lang, p, x, err); break;
    default: make_heads(e, &s, lang, p, x); break;
    }
out:
    if (p)
        fclose(p);
    if (x)
        fclose(x);
    if (!rc) {
        e->q.id = kind_names[kind];
        e->q.explanation = e->explanation && *e->explanation ? e->explanation : NULL;
    } else {
        qz_exercise_free(e);
    }
    return rc;
}

void qz_exercise_free(qz_exercise *e)
{
    free(e->prompt);
    free(e->explanation);
    memset(e, 0, sizeof *e);
}
