/* The corpus's other sentences: random sequences for the previous-token head, and
 * the probes (ordinary sentences written in models/corpus.yaml, never trained on).
 *
 * A random sequence mixes words of the training sentences with strings no training
 * sentence has (Latin letters, Han characters, digits, punctuation): half of the
 * held-out ones' tokens are such strings, so the head is measured on words it never
 * saw. A third of them are Chinese typed without spaces (one character per token). */
#include "engine/train_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistr.h>

static const char *const PUNCT[] = {",", ".", "?", "!", "，", "。", "？", "、", "3", "42",
                                    "2024", "(", ")", ":", ";", "\"", "-"};

/* A random token into buf: a trained word (known), else a string of letters, a Han
 * character or a punctuation mark or number. */
static void random_token(const at_corpus *c, size_t n_known, uint64_t *rng, int han_only,
                         char *buf, size_t cap)
{
    float r = at_rng_uniform(rng);
    if (r < 0.5f && n_known) {
        for (int tries = 0; tries < 64; tries++) {
            const at_example *e = &c->ex[at_rng_next(rng) % n_known];
            const at_token *t = &e->toks.items[at_rng_next(rng) % e->toks.n];
            size_t n_cp = u8_mbsnlen((const uint8_t *)t->text, strlen(t->text));
            if (!han_only || (n_cp == 1 && (unsigned char)t->text[0] >= 0xE3)) {
                snprintf(buf, cap, "%s", t->text);
                return;
            }
        }
    }
    if (han_only || r < 0.65f) {   /* a CJK unified ideograph, U+4E00..U+9FA5 */
        ucs4_t cp = 0x4E00 + (ucs4_t)(at_rng_next(rng) % (0x9FA5 - 0x4E00 + 1));
        int len = u8_uctomb((uint8_t *)buf, cp, (int)cap - 1);
        buf[len > 0 ? len : 0] = '\0';
    } else if (r < 0.93f) {
        size_t len = 1 + (size_t)(at_rng_next(rng) % 9);
        for (size_t i = 0; i < len && i + 1 < cap; i++)
            buf[i] = (char)('a' + at_rng_next(rng) % 26);
        buf[len < cap ? len : cap - 1] = '\0';
        if (at_rng_uniform(rng) < 0.25f)
            buf[0] = (char)(buf[0] - 'a' + 'A');
    } else {
        snprintf(buf, cap, "%s", PUNCT[at_rng_next(rng) % (sizeof PUNCT / sizeof PUNCT[0])]);
    }
}

/* One random sequence of about len tokens. */
static char *random_text(const at_corpus *c, size_t n_known, uint64_t *rng, size_t len,
                         int han)
{
    size_t cap = len * 16 + 1, used = 0;
    char *out = malloc(cap), tok[64];
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t i = 0; i < len; i++) {
        random_token(c, n_known, rng, han, tok, sizeof tok);
        size_t k = strlen(tok);
        if (used + k + 2 > cap)
            break;
        if (i && !han)
            out[used++] = ' ';
        memcpy(out + used, tok, k + 1);
        used += k;
    }
    return out;
}

int at_gen_noise(const struct yaml_corpus *y, at_corpus *c, at_error *err)
{
    const struct yaml_noise *z = y->noise;
    if (!z || (!z->train && !z->held_out))
        return AT_OK;
    if (z->min_tokens < 2 || z->max_tokens < z->min_tokens)
        return at_error_set(err, AT_EINVAL, "corpus: noise: min_tokens (at least 2) and "
                            "max_tokens (at least min_tokens)");
    /* the known words: those of the training split's sentences, generated above */
    size_t n_known = 0;
    for (size_t i = 0; i < c->n; i++)
        n_known += c->ex[i].split == AT_SPLIT_TRAIN;
    at_example *known = malloc((n_known ? n_known : 1) * sizeof *known);
    if (!known)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    for (size_t i = 0, k = 0; i < c->n; i++)
        if (c->ex[i].split == AT_SPLIT_TRAIN)
            known[k++] = c->ex[i];   /* a shallow copy: c->ex moves as it grows */
    at_corpus pool = {.ex = known, .n = n_known};
    int rc = AT_OK;
    for (int held = 0; held < 2 && !rc; held++) {
        uint64_t rng = y->seed ^ (held ? 0xD1CEull : 0x0DDBA11ull);
        for (unsigned i = 0; i < (held ? z->held_out : z->train) && !rc; i++) {
            size_t len = z->min_tokens + (size_t)(at_rng_next(&rng) %
                                                  (z->max_tokens - z->min_tokens + 1));
            int han = at_rng_uniform(&rng) < 1.0f / 3.0f;
            char *text = random_text(&pool, n_known, &rng, len, han);
            at_example *e;
            rc = text ? at_corpus_push(c, text, &e, err)
                      : at_error_set(err, AT_ENOMEM, "corpus: out of memory");
            if (!rc) {
                e->kind = AT_EX_NOISE;
                e->split = held ? AT_SPLIT_HELD_OUT : AT_SPLIT_TRAIN;
                e->zh = han;
            }
        }
    }
    free(known);
    return rc;
}

/* The first run of whole tokens that spells word (小红 is 小 + 红 typed without
 * spaces), compared as written: span [t0, t1). 0 when there is none. */
static int find_span(const at_example *e, const char *word, size_t span[2])
{
    size_t len = strlen(word);
    for (size_t i = 0; i < e->toks.n; i++) {
        size_t k = i, used = 0;
        while (k < e->toks.n && used < len) {
            const char *tx = e->toks.items[k].text;
            size_t tl = strlen(tx);
            if (tl > len - used || strncmp(word + used, tx, tl))
                break;
            used += tl;
            k++;
        }
        if (used == len) {
            span[0] = i;
            span[1] = k;
            return 1;
        }
    }
    return 0;
}

int at_gen_probes(const struct yaml_corpus *y, at_corpus *c, at_error *err)
{
    for (unsigned i = 0; i < y->probes_count; i++) {
        const struct yaml_probe *p = &y->probes[i];
        char *text = strdup(p->text);
        at_example *e;
        int rc = text ? at_corpus_push(c, text, &e, err)
                      : at_error_set(err, AT_ENOMEM, "corpus: out of memory");
        if (rc)
            return rc;
        e->kind = AT_EX_PROBE;
        e->split = AT_SPLIT_HELD_OUT;
        e->zh = !strcmp(p->lang, "zh");
        if (!p->pronoun)
            continue;
        size_t ps[2];
        if (!p->antecedent || !p->other || !find_span(e, p->pronoun, ps) ||
            !find_span(e, p->antecedent, e->span[0]) || !find_span(e, p->other, e->span[1]))
            return at_error_set(err, AT_EINVAL, "corpus: probe \"%s\": a probe with a pronoun "
                                "names its antecedent and the other noun, all in the text",
                                p->text);
        e->pronoun = ps[0];
        e->answer = 0;
    }
    return AT_OK;
}
