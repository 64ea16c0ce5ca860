/* What a head does, measured on one sentence (see headstats.h). */
#include "engine/headstats.h"

#include <string.h>
#include <unistr.h>

/* A character that is a word of its own where words are not spaced: CJK ideographs,
 * kana, hangul, and CJK and full-width punctuation. */
static int word_alone(ucs4_t c)
{
    return (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
           (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
           (c >= 0xff00 && c <= 0xffef) || (c >= 0x20000 && c <= 0x3134f);
}

int at_tokens_same_word(const at_tokens *t, const char *s, size_t j)
{
    if (j == 0 || j >= t->n)
        return 0;
    const at_token *a = &t->items[j - 1], *b = &t->items[j];
    if (!a->len || !b->len || b->start != a->start + a->len)
        return 0;
    unsigned char c = (unsigned char)s[b->start];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        return 0;
    if ((c & 0xc0) == 0x80)
        return 1;   /* pieces of one character (byte-level BPE): one word */
    /* between two characters: not one word where either stands alone (小明 is two) */
    const uint8_t *u = (const uint8_t *)s;
    ucs4_t next = 0, prev = 0;
    u8_mbtouc(&next, u + b->start, strnlen(s + b->start, 4));
    const uint8_t *p = u8_prev(&prev, u + b->start, u + a->start);
    return !(p && word_alone(prev)) && !word_alone(next);
}

/* Row i of w (n keys) as a head that spreads its weight evenly over the keys it sees
 * (weight > 0: the masked ones have exactly 0) would put on key j: 1 / visible, or 0. */
static double even_share(const float *w, size_t n, size_t i, size_t j)
{
    size_t visible = 0;
    for (size_t k = 0; k < n; k++)
        visible += w[i * n + k] > 0;
    return visible && w[i * n + j] > 0 ? 1.0 / (double)visible : 0.0;
}

/* The measure, or (even) what a head spreading evenly over the same visible keys gets. */
static int measure(const at_model_run *r, const at_tokens *t, const char *s, size_t l,
                   size_t h, at_head_measure m, int even, double *out)
{
    const size_t n = r->n;
    if (l >= r->n_layers || h >= r->n_heads[l] || n < 2 || t->n != n)
        return -1;
    const float *w = r->weights[l] + h * n * n;
    double sum = 0;
    size_t rows = 0;
    for (size_t i = 1; i < n && m != AT_HEAD_SAME_WORD; i++, rows++) {
        size_t j = m == AT_HEAD_PREVIOUS ? i - 1 : 0;
        sum += even ? even_share(w, n, i, j) : w[i * n + j];
    }
    if (m == AT_HEAD_SAME_WORD) {
        for (size_t a = 0; a < n;) {   /* words [a, b) of several pieces */
            size_t b = a + 1;
            while (b < n && at_tokens_same_word(t, s, b))
                b++;
            for (size_t i = a; b - a > 1 && i < b; i++, rows++)
                for (size_t j = a; j < b; j++)
                    sum += j == i ? 0.0 : even ? even_share(w, n, i, j) : w[i * n + j];
            a = b;
        }
    }
    if (!rows)
        return -1;
    *out = sum / (double)rows;
    return 0;
}

int at_head_measure_of(const at_model_run *r, const at_tokens *t, const char *s, size_t l,
                       size_t h, at_head_measure m, double *out)
{
    return measure(r, t, s, l, h, m, 0, out);
}

int at_head_measure_even(const at_model_run *r, const at_tokens *t, const char *s, size_t l,
                         size_t h, at_head_measure m, double *out)
{
    return measure(r, t, s, l, h, m, 1, out);
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
