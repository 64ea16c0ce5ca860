/* The corpus's pronoun sentences: every frame of models/corpus.yaml expanded over
 * pairs of nouns from its lists and over the pronouns of its form.
 *
 * A pronoun refers to a noun when the noun's list has a class the pronoun lists in
 * `refers` (she: girl; they: people, animals, things…). For each pair of nouns and
 * each pronoun:
 *   - it fits exactly one noun: that noun is the antecedent, decided by agreement
 *     (the frame's {adj}, if it has one, is drawn from that noun's side or from the
 *     neutral adjectives, so the sentence reads true);
 *   - it fits both: the adjective decides (adj_a: the {a} noun; adj_b: the {b} noun);
 *   - it fits neither: no sentence.
 * Chinese is generated twice, as written (a word is a token: 小明) and without the
 * spaces (a character is a token: 小 明), half of it with a final 。. A noun pair is
 * held out as a whole (the same nouns never trained together in that frame); a pair
 * with a list's held-out word goes to the held-out words; a held-out frame keeps
 * only pairs of trained words. Sentences of one pair and spelling with different
 * answers are twins: the k-th with the first answer and the k-th with the second. */
#include "engine/train_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct noun {
    const char *word;           /* as the list writes it: "the boy", "小明" */
    const char *cls;            /* its list's class */
    int held_out;               /* from the list's held_out_words */
} noun;

enum { S_A, S_B, S_ADJ, S_P, S_BE, N_SLOTS };
static const char *const SLOT[N_SLOTS] = {"{a}", "{b}", "{adj}", "{p}", "{be}"};

static const struct yaml_list *find_list(const struct yaml_corpus *y, const char *name)
{
    for (unsigned i = 0; i < y->lists_count; i++)
        if (!strcmp(y->lists[i].name, name))
            return &y->lists[i];
    return NULL;
}

/* The nouns of the named lists, trained words then held-out ones; *n their count.
 * NULL when out of memory. */
static noun *collect(const struct yaml_corpus *y, char **names, unsigned n_names, size_t *n)
{
    size_t total = 0;
    for (unsigned i = 0; i < n_names; i++) {
        const struct yaml_list *l = find_list(y, names[i]);
        total += l->words_count + l->held_out_words_count;
    }
    noun *out = calloc(total ? total : 1, sizeof *out);
    *n = 0;
    for (unsigned i = 0; out && i < n_names; i++) {
        const struct yaml_list *l = find_list(y, names[i]);
        for (unsigned k = 0; k < l->words_count + l->held_out_words_count; k++) {
            int held = k >= l->words_count;
            out[(*n)++] = (noun){held ? l->held_out_words[k - l->words_count] : l->words[k],
                                 l->cls, held};
        }
    }
    return out;
}

static int fits(const struct yaml_pronoun *p, const char *cls)
{
    for (unsigned i = 0; i < p->refers_count; i++)
        if (!strcmp(p->refers[i], cls))
            return 1;
    return 0;
}

/* A copy of s without ASCII spaces (Chinese written without word breaks). */
static char *joined(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; out && *s; s++)
        if (*s != ' ')
            *o++ = *s;
    if (out)
        *o = '\0';
    return out;
}

/* The template filled; bspan: byte spans of what each slot became, for {a} and {b}
 * only their last word (the antecedent: "boy" of "the boy"). A sentence that starts
 * with a lower-case Latin letter gets a capital. */
static char *fill(const char *tpl, const char *const slot[N_SLOTS], size_t bspan[N_SLOTS][2])
{
    size_t cap = strlen(tpl) + 1;
    for (int s = 0; s < N_SLOTS; s++)
        cap += 2 * strlen(slot[s]);   /* a slot may appear twice */
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    memset(bspan, 0, N_SLOTS * sizeof bspan[0]);
    for (const char *t = tpl; *t;) {
        int k = -1;
        for (int s = 0; s < N_SLOTS && k < 0; s++)
            if (!strncmp(t, SLOT[s], strlen(SLOT[s])))
                k = s;
        if (k < 0) {
            *o++ = *t++;
            continue;
        }
        const char *v = slot[k], *last = strrchr(v, ' ');
        size_t at = (size_t)(o - out);
        size_t skip = (k == S_A || k == S_B) && last ? (size_t)(last + 1 - v) : 0;
        if (bspan[k][1] == 0) {
            bspan[k][0] = at + skip;
            bspan[k][1] = at + strlen(v);
        }
        o = stpcpy(o, v);
        t += strlen(SLOT[k]);
    }
    *o = '\0';
    if (out[0] >= 'a' && out[0] <= 'z')
        out[0] = (char)(out[0] - 'a' + 'A');
    return out;
}

/* What one sentence is made of. */
typedef struct sentence {
    size_t frame;
    const struct yaml_frame *f;
    const char *slot[N_SLOTS];
    int answer, decided, split, stop, spaced;
} sentence;

/* The tokens that lie inside the byte span [b0, b1): *t0, *t1. 0 when none. */
static int token_span(const at_tokens *t, const size_t b[2], size_t *t0, size_t *t1)
{
    int seen = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->items[i].start >= b[0] && t->items[i].start + t->items[i].len <= b[1]) {
            if (!seen++)
                *t0 = i;
            *t1 = i + 1;
        }
    return seen > 0;
}

static int add_sentence(at_corpus *c, const sentence *s, at_error *err)
{
    const struct yaml_frame *f = s->f;
    char *tpl = malloc(strlen(f->text) + sizeof " 。"), *slot[N_SLOTS] = {0};
    int rc = AT_OK;
    if (!tpl)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    strcpy(tpl, f->text);
    if (s->stop)
        strcat(tpl, " 。");
    int ok = 1;
    for (int k = 0; k < N_SLOTS; k++)
        ok &= (slot[k] = s->spaced ? strdup(s->slot[k]) : joined(s->slot[k])) != NULL;
    char *jt = s->spaced ? NULL : joined(tpl);
    size_t bspan[N_SLOTS][2];
    char *text = ok && (s->spaced || jt) ? fill(s->spaced ? tpl : jt, (const char *const *)slot,
                                                bspan) : NULL;
    if (text && !s->spaced)   /* the antecedent is the last word as the list wrote it */
        for (int k = S_A; k <= S_B; k++) {
            const char *last = strrchr(s->slot[k], ' ');
            if (last)
                bspan[k][0] = bspan[k][1] - strlen(last + 1);
        }
    free(jt);
    free(tpl);
    for (int k = 0; k < N_SLOTS; k++)
        free(slot[k]);
    if (!text)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    at_example *e;
    if ((rc = at_corpus_push(c, text, &e, err)))
        return rc;
    size_t p0 = 0, p1, adj = 0;
    ok = token_span(&e->toks, bspan[S_A], &e->span[0][0], &e->span[0][1]) &&
             token_span(&e->toks, bspan[S_B], &e->span[1][0], &e->span[1][1]) &&
             token_span(&e->toks, bspan[S_P], &p0, &p1) && e->toks.items[p0].start == bspan[S_P][0];
    if (s->slot[S_ADJ][0])
        adj = token_span(&e->toks, bspan[S_ADJ], &e->span[2][0], &e->span[2][1]);
    if (!ok || (s->slot[S_ADJ][0] && !adj) || e->span[0][1] - e->span[0][0] > AT_MAX_SPAN ||
        e->span[1][1] - e->span[1][0] > AT_MAX_SPAN)
        return at_error_set(err, AT_EINVAL, "corpus: frame '%s': in \"%s\" a noun, the pronoun "
                            "or the adjective is not made of whole tokens", f->id, e->text);
    e->kind = AT_EX_PRONOUN;
    e->pronoun = p0;
    e->answer = s->answer;
    e->decided = s->decided;
    e->frame = s->frame;
    e->split = s->split;
    e->zh = !strcmp(f->lang, "zh");
    return AT_OK;
}

/* Twins among the sentences [g0, g1) of one noun pair and spelling. */
static void pair_twins(at_corpus *c, size_t g0, size_t g1)
{
    size_t next[2] = {g0, g0};
    for (;;) {
        for (int a = 0; a < 2; a++)
            while (next[a] < g1 && c->ex[next[a]].answer != a)
                next[a]++;
        if (next[0] >= g1 || next[1] >= g1)
            return;
        c->ex[next[0]].twin = next[1];
        c->ex[next[1]].twin = next[0];
        next[0]++;
        next[1]++;
    }
}

/* Every sentence of one noun pair in one spelling. */
static int add_pair(const struct yaml_corpus *y, at_corpus *c, sentence *s, const noun *A,
                    const noun *B, unsigned char *used, at_error *err)
{
    const struct yaml_frame *f = s->f;
    size_t g0 = c->n;
    s->slot[S_A] = A->word;
    s->slot[S_B] = B->word;
    for (unsigned pi = 0; pi < y->pronouns_count; pi++) {
        const struct yaml_pronoun *P = &y->pronouns[pi];
        if (strcmp(P->lang, f->lang) || strcmp(P->form, f->form))
            continue;
        int S = fits(P, A->cls) | fits(P, B->cls) << 1;
        /* the options: (adjective, answer) */
        const char *adj[64];
        int ans[64];
        size_t n = 0;
        int has_adj = f->adj_a_count + f->adj_b_count + f->adj_count > 0;
        if (S == 3) {
            for (unsigned k = 0; k < f->adj_a_count && n < 64; k++, n++)
                adj[n] = f->adj_a[k], ans[n] = 0;
            for (unsigned k = 0; k < f->adj_b_count && n < 64; k++, n++)
                adj[n] = f->adj_b[k], ans[n] = 1;
        } else if (S && !has_adj) {
            adj[n] = "", ans[n++] = S == 2;
        } else if (S) {
            char **side = S == 1 ? f->adj_a : f->adj_b;
            unsigned n_side = S == 1 ? f->adj_a_count : f->adj_b_count;
            for (unsigned k = 0; k < n_side && n < 64; k++, n++)
                adj[n] = side[k], ans[n] = S == 2;
            for (unsigned k = 0; k < f->adj_count && n < 64; k++, n++)
                adj[n] = f->adj[k], ans[n] = S == 2;
        }
        s->slot[S_P] = P->word;
        s->slot[S_BE] = P->be ? P->be : "was";
        s->decided = S == 3 ? AT_BY_ADJECTIVE : AT_BY_AGREEMENT;
        for (size_t k = 0; k < n; k++) {
            s->slot[S_ADJ] = adj[k];
            s->answer = ans[k];
            int rc = add_sentence(c, s, err);
            if (rc)
                return rc;
            used[pi] |= AT_GEN_USED | (s->split == AT_SPLIT_TRAIN ? AT_GEN_TRAINED : 0);
        }
    }
    pair_twins(c, g0, c->n);
    return AT_OK;
}

static int gen_frame(const struct yaml_corpus *y, at_corpus *c, size_t fi, uint64_t *rng,
                     unsigned char *used, at_error *err)
{
    const struct yaml_frame *f = &y->frames[fi];
    size_t nA, nB, n_pairs = 0;
    noun *A = collect(y, f->a, f->a_count, &nA), *B = collect(y, f->b, f->b_count, &nB);
    size_t *pairs = A && B ? malloc((nA * nB + 1) * sizeof *pairs) : NULL;
    int rc = AT_OK;
    if (!pairs) {
        rc = at_error_set(err, AT_ENOMEM, "corpus: out of memory");
        goto out;
    }
    for (size_t i = 0; i < nA; i++)
        for (size_t j = 0; j < nB; j++)
            if (strcmp(A[i].word, B[j].word) &&
                !(f->held_out_frame && (A[i].held_out || B[j].held_out)))
                pairs[n_pairs++] = i * nB + j;
    /* a seeded shuffle (Fisher–Yates), then the first max_pairs */
    uint64_t order = c->seed ^ (0x9E3779B97F4A7C15ull * (fi + 1));
    for (size_t k = n_pairs; k > 1; k--) {
        size_t r = (size_t)(at_rng_next(&order) % k), t = pairs[k - 1];
        pairs[k - 1] = pairs[r];
        pairs[r] = t;
    }
    if (f->max_pairs && f->max_pairs < n_pairs)
        n_pairs = f->max_pairs;
    int zh = !strcmp(f->lang, "zh");
    for (size_t k = 0; k < n_pairs && !rc; k++) {
        const noun *a = &A[pairs[k] / nB], *b = &B[pairs[k] % nB];
        sentence s = {.frame = fi, .f = f, .slot = {"", "", "", "", ""}};
        s.split = f->held_out_frame ? AT_SPLIT_HELD_OUT_FRAME
                  : a->held_out || b->held_out ? AT_SPLIT_HELD_OUT_WORDS
                  : at_rng_uniform(rng) < y->held_out ? AT_SPLIT_HELD_OUT : AT_SPLIT_TRAIN;
        for (int spaced = 1; spaced >= !zh && !rc; spaced--) {
            s.spaced = spaced;
            s.stop = zh && at_rng_uniform(rng) < 0.5f;
            rc = add_pair(y, c, &s, a, b, used + fi * y->pronouns_count, err);
        }
    }
out:
    free(A);
    free(B);
    free(pairs);
    return rc;
}

int at_gen_frames(const struct yaml_corpus *y, at_corpus *c, unsigned char *used,
                  at_error *err)
{
    uint64_t rng = y->seed;
    for (size_t fi = 0; fi < y->frames_count; fi++) {
        size_t before = c->n;
        int rc = gen_frame(y, c, fi, &rng, used, err);
        if (rc)
            return rc;
        if (c->n == before)
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s' makes no sentence: no "
                                "pronoun of form '%s' fits its nouns", y->frames[fi].id,
                                y->frames[fi].form);
    }
    return AT_OK;
}
