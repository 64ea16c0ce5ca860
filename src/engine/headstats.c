/* What a head does, measured on one sentence (see headstats.h). */
#include "engine/headstats.h"

int at_tokens_same_word(const at_tokens *t, const char *s, size_t j)
{
    if (j == 0 || j >= t->n)
        return 0;
    const at_token *a = &t->items[j - 1], *b = &t->items[j];
    if (!a->len || !b->len || b->start != a->start + a->len)
        return 0;
    unsigned char c = (unsigned char)s[b->start];
    return !(c == ' ' || c == '\t' || c == '\n' || c == '\r');
}

int at_head_measure_of(const at_model_run *r, const at_tokens *t, const char *s, size_t l,
                       size_t h, at_head_measure m, double *out)
{
    const size_t n = r->n;
    if (l >= r->n_layers || h >= r->n_heads[l] || n < 2 || t->n != n)
        return -1;
    const float *w = r->weights[l] + h * n * n;
    double sum = 0;
    size_t rows = 0;
    for (size_t i = 1; i < n && m != AT_HEAD_SAME_WORD; i++, rows++)
        sum += w[i * n + (m == AT_HEAD_PREVIOUS ? i - 1 : 0)];
    if (m == AT_HEAD_SAME_WORD) {
        for (size_t a = 0; a < n;) {   /* words [a, b) of several pieces */
            size_t b = a + 1;
            while (b < n && at_tokens_same_word(t, s, b))
                b++;
            for (size_t i = a; b - a > 1 && i < b; i++, rows++)
                for (size_t j = a; j < b; j++)
                    sum += j != i ? w[i * n + j] : 0.0;
            a = b;
        }
    }
    if (!rows)
        return -1;
    *out = sum / (double)rows;
    return 0;
}

size_t at_head_best(const at_model_run *r, const at_tokens *t, const char *s,
                    at_head_measure m, size_t *l, size_t *h, double *out)
{
    size_t count = 0;
    double best = -1;
    for (size_t a = 0; a < r->n_layers; a++)
        for (size_t b = 0; b < r->n_heads[a]; b++) {
            double v;
            if (at_head_measure_of(r, t, s, a, b, m, &v))
                return 0;
            count++;
            if (v > best) {
                best = v;
                *l = a;
                *h = b;
                *out = v;
            }
        }
    return count;
}
