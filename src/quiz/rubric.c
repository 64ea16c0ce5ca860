/* The rubric matcher: which concepts a text answer states, clause by clause, and which
 * it states wrongly (the rules are at qz_concept in quiz/quiz.h). */
#define _POSIX_C_SOURCE 200809L
#include "quiz/rubric.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistr.h>

#include "quiz/internal.h"
#include "quiz/phrase.h"

/* How strongly the clause states the concept: 2 by `together`, 1 by a phrase. */
static int concept_strength(const qz_concept *k, const qz_clause *c)
{
    if (qz_all_groups_in(c, k->together, k->n_together))
        return 2;
    char *head = qz_concept_head(k->concept);
    int hit = head && qz_phrase_in(c, head);
    free(head);
    if (hit)
        return 1;
    for (size_t i = 0; i < k->n_synonyms; i++)
        if (k->synonyms[i] && qz_phrase_in(c, k->synonyms[i]))
            return 1;
    return 0;
}

/* How strongly the clause states a contradiction; phrases are looked for in
 * `blanked`, the clause with the concept's own synonyms blanked out. */
static int contra_strength(const qz_contradiction *x, const qz_clause *c, const qz_clause *blanked)
{
    if (qz_all_groups_in(c, x->together, x->n_together))
        return 2;
    for (size_t i = 0; i < x->n_phrases; i++)
        if (x->phrases[i] && qz_phrase_in(blanked, x->phrases[i]))
            return 1;
    return 0;
}

/* ---- longer phrases of other concepts: "one step at a time" states the RNN concept,
 * though it holds "one step", a phrase of the self-attention concept. */

/* One alternative of a phrase or group of the rubric, folded; positive: it states
 * its concept (concept text, synonym, `together`), 0: only in a contradiction. */
typedef struct alt {
    qz_phrase p;
    char *text;
    size_t owner;
    int positive;
} alt;

typedef struct alts {
    alt *v;
    size_t n, cap;
    int failed;
} alts;

static void alts_add(alts *a, const char *group, size_t owner, int positive)
{
    char *copy = group ? strdup(group) : NULL;
    a->failed |= group && !copy;
    for (char *save = NULL, *t = copy ? strtok_r(copy, "|", &save) : NULL; t;
         t = strtok_r(NULL, "|", &save)) {
        if (a->n == a->cap) {
            size_t cap = a->cap ? 2 * a->cap : 64;
            alt *v = realloc(a->v, cap * sizeof *v);
            if (!v) {
                a->failed = 1;
                break;
            }
            a->v = v;
            a->cap = cap;
        }
        alt *x = &a->v[a->n];
        x->text = strdup(t);
        x->owner = owner;
        x->positive = positive;
        if (!x->text || qz_phrase_make(&x->p, t) || !*x->p.nospace) {
            qz_phrase_free(&x->p);
            free(x->text);
            continue;
        }
        a->n++;
    }
    free(copy);
}

static void alts_of_concept(alts *a, const qz_concept *k, size_t owner)
{
    char *head = qz_concept_head(k->concept);
    a->failed |= k->concept && !head;
    alts_add(a, head, owner, 1);
    free(head);
    for (size_t i = 0; i < k->n_synonyms; i++)
        alts_add(a, k->synonyms[i], owner, 1);
    for (size_t i = 0; i < k->n_together; i++)
        alts_add(a, k->together[i], owner, 1);
    for (size_t x = 0; x < k->n_contradicts; x++) {
        const qz_contradiction *w = &k->contradicts[x];
        for (size_t i = 0; i < w->n_phrases; i++)
            alts_add(a, w->phrases[i], owner, 0);
        for (size_t i = 0; i < w->n_together; i++)
            alts_add(a, w->together[i], owner, 0);
    }
}

/* Does phrase p hold the shorter phrase q (at word boundaries)? */
static int holds(const qz_phrase *p, const qz_phrase *q)
{
    if (strlen(p->nospace) <= strlen(q->nospace))
        return 0;
    return (*q->spaced && qz_find_word((char *)p->spaced, q->spaced)) ||
           (q->wide && strstr(p->nospace, q->nospace));
}

/* Is p one of concept a's own words (then it never hides them)? */
static int concept_has(const alts *a, size_t concept, const qz_phrase *p)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i].owner == concept && !strcmp(a->v[i].p.nospace, p->nospace))
            return 1;
    return 0;
}

/* What a clause is judged with: the rubric, and which phrase hides which concept. */
typedef struct shadow {
    const char *text;         /* borrowed from the alts */
    size_t hides;             /* the concept not to be read inside it */
} shadow;

typedef struct judge_ctx {
    const qz_concept *rubric;
    size_t n_rubric;
    alts words;
    shadow *shadows;
    size_t n_shadows;
} judge_ctx;

/* A phrase that states one concept and holds a shorter phrase of another concept
 * (not one of that concept's own words) hides the shorter one. */
static int ctx_init(judge_ctx *x, const qz_concept *rubric, size_t n_rubric)
{
    memset(x, 0, sizeof *x);
    x->rubric = rubric;
    x->n_rubric = n_rubric;
    for (size_t i = 0; i < n_rubric; i++)
        alts_of_concept(&x->words, &rubric[i], i);
    const alts *a = &x->words;
    size_t cap = 0;
    for (size_t i = 0; !a->failed && i < a->n; i++) {
        for (size_t j = 0; a->v[i].positive && j < a->n; j++) {
            const alt *p = &a->v[i], *q = &a->v[j];
            if (!q->positive || q->owner == p->owner || !holds(&p->p, &q->p) ||
                concept_has(a, q->owner, &p->p))
                continue;
            if (x->n_shadows == cap) {
                cap = cap ? 2 * cap : 16;
                shadow *v = realloc(x->shadows, cap * sizeof *v);
                if (!v)
                    return -1;
                x->shadows = v;
            }
            x->shadows[x->n_shadows++] = (shadow){p->text, q->owner};
        }
    }
    return a->failed ? -1 : 0;
}

static void ctx_free(judge_ctx *x)
{
    for (size_t i = 0; i < x->words.n; i++) {
        qz_phrase_free(&x->words.v[i].p);
        free(x->words.v[i].text);
    }
    free(x->words.v);
    free(x->shadows);
}

/* Judge one concept in one clause: updates j (contradiction wins for good). */
static int judge_concept(const qz_concept *k, const qz_clause *c, qz_judgement *j)
{
    int sc = concept_strength(k, c), sx = 0;
    const qz_contradiction *worst = NULL;
    if (k->n_contradicts) {
        qz_clause b = {strdup(c->hay), strdup(c->hay_ns)};
        if (!b.hay || !b.hay_ns) {
            free(b.hay);
            free(b.hay_ns);
            return -1;
        }
        for (size_t i = 0; i < k->n_synonyms; i++)
            if (k->synonyms[i])
                qz_blank_out(&b, k->synonyms[i]);
        for (size_t i = 0; i < k->n_contradicts; i++) {
            int s = contra_strength(&k->contradicts[i], c, &b);
            if (s > sx) {
                sx = s;
                worst = &k->contradicts[i];
            }
        }
        free(b.hay);
        free(b.hay_ns);
    }
    if (sx > sc && !j->wrong) {
        j->wrong = worst;
        j->found = 0;
    } else if (sc > sx && !j->wrong) {
        j->found = 1;
    }
    return 0;
}

/* Length of the separator at s (sentence punctuation, a comma or a contrast
 * word), 0 if none. at_start: s begins a word. */
static size_t separator(const char *s, int at_start)
{
    static const char *const marks[] = {"，", "。", "；", "！", "？", "而", "但"};
    static const char *const words[] = {"while", "whereas", "but", "unlike", "however"};
    /* Not a colon: "RNN: N steps" states one thing, its label then what it says. */
    if (strchr(",;!?", *s) || (*s == '.' && !(s[1] >= '0' && s[1] <= '9')))
        return 1;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (!strncmp(s, marks[i], strlen(marks[i])))
            return strlen(marks[i]);
    for (size_t i = 0; at_start && i < sizeof words / sizeof words[0]; i++) {
        size_t l = strlen(words[i]);
        if (!strncasecmp(s, words[i], l) && !isalnum((unsigned char)s[l]))
            return l;
    }
    return 0;
}

/* Does the phrase (or one alternative of a group "a | b") hold a negation? Then it is
 * read as a whole ("don't need a decoder") and its negation denies nothing else. */
static void blank_negated(qz_clause *c, const char *group)
{
    char *copy = group ? strdup(group) : NULL;
    for (char *save = NULL, *alt = copy ? strtok_r(copy, "|", &save) : NULL; alt;
         alt = strtok_r(NULL, "|", &save)) {
        qz_phrase p;
        if (!qz_phrase_make(&p, alt) &&
            (qz_neg_cue_en(p.spaced) != SIZE_MAX || qz_neg_cue_zh(p.nospace) != SIZE_MAX))
            qz_blank_out(c, alt);
        qz_phrase_free(&p);
    }
    free(copy);
}

static void blank_rubric_negations(qz_clause *c, const qz_concept *rubric, size_t n_rubric)
{
    for (size_t i = 0; i < n_rubric; i++) {
        const qz_concept *k = &rubric[i];
        blank_negated(c, k->concept);
        for (size_t s = 0; s < k->n_synonyms; s++)
            blank_negated(c, k->synonyms[s]);
        for (size_t g = 0; g < k->n_together; g++)
            blank_negated(c, k->together[g]);
        for (size_t x = 0; x < k->n_contradicts; x++) {
            const qz_contradiction *w = &k->contradicts[x];
            for (size_t s = 0; s < w->n_phrases; s++)
                blank_negated(c, w->phrases[s]);
            for (size_t g = 0; g < w->n_together; g++)
                blank_negated(c, w->together[g]);
        }
    }
}

/* Non-space bytes of s before offset at. */
static size_t solid_before(const char *s, size_t at)
{
    size_t n = 0;
    for (size_t i = 0; i < at && s[i]; i++)
        n += s[i] != ' ';
    return n;
}

/* Cut s after `solid` non-space bytes (keeping a space for the word boundary). */
static void cut_after_solid(char *s, size_t solid)
{
    size_t i = 0;
    for (size_t n = 0; s[i] && (n < solid || s[i] == ' '); i++)
        n += s[i] != ' ';
    if (s[i]) {
        s[i] = ' ';
        s[i + 1] = '\0';
    }
}

/* A negation denies the rest of its clause ("Q does not come from the decoder",
 * "Q不是来自解码器"): what follows the first negation that is not part of a rubric
 * phrase (e.g. "no decoder") is cut off, so it states nothing, right or wrong. */
static int cut_negated(qz_clause *c, const qz_concept *rubric, size_t n_rubric)
{
    qz_clause b = {strdup(c->hay), strdup(c->hay_ns)};
    int rc = b.hay && b.hay_ns ? 0 : -1;
    if (!rc) {
        blank_rubric_negations(&b, rubric, n_rubric);
        size_t en = qz_neg_cue_en(b.hay), zh = qz_neg_cue_zh(b.hay_ns), solid = SIZE_MAX;
        if (en != SIZE_MAX)
            solid = solid_before(b.hay, en);
        if (zh != SIZE_MAX && solid_before(b.hay_ns, zh) < solid)
            solid = solid_before(b.hay_ns, zh);
        if (solid != SIZE_MAX) {
            cut_after_solid(c->hay, solid);
            cut_after_solid(c->hay_ns, solid);
        }
    }
    free(b.hay);
    free(b.hay_ns);
    return rc;
}

/* Judge concept i in the clause, the longer phrases of other concepts that hide it
 * blanked out first. */
static int judge_clause(const judge_ctx *x, size_t i, const qz_clause *c, qz_judgement *j)
{
    qz_clause m = {strdup(c->hay), strdup(c->hay_ns)};
    int rc = m.hay && m.hay_ns ? 0 : -1;
    for (size_t s = 0; !rc && s < x->n_shadows; s++)
        if (x->shadows[s].hides == i)
            qz_blank_out(&m, x->shadows[s].text);
    if (!rc)
        rc = judge_concept(&x->rubric[i], &m, j);
    free(m.hay);
    free(m.hay_ns);
    return rc;
}

/* Judge every concept in one clause, answer[0, len). */
static int judge_span(const judge_ctx *x, const char *text, size_t len, qz_judgement *out)
{
    char *raw = strndup(text, len);
    qz_clause c = {raw ? qz_fold(raw, 0) : NULL, raw ? qz_fold(raw, 1) : NULL};
    int rc = raw && c.hay && c.hay_ns ? 0 : -1;
    if (!rc)
        rc = cut_negated(&c, x->rubric, x->n_rubric);
    for (size_t i = 0; !rc && i < x->n_rubric; i++)
        rc = judge_clause(x, i, &c, &out[i]);
    free(raw);
    free(c.hay);
    free(c.hay_ns);
    return rc;
}

/* Length of a joining word at s ("and", 以及, 并且, 而且, 和), 0 if none.
 * at_start: s begins a word. */
static size_t joiner(const char *s, int at_start)
{
    static const char *const marks[] = {"以及", "并且", "而且", "和"};
    if (at_start && !strncasecmp(s, "and", 3) && !isalnum((unsigned char)s[3]))
        return 3;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (!strncmp(s, marks[i], strlen(marks[i])))
            return strlen(marks[i]);
    return 0;
}

/* Does text[0, len) on its own hold every group of a `together`, of a concept or
 * of a contradiction ("Q from the decoder": Q and decoder)? Sets *pair. */
static int states_pair(const judge_ctx *x, const char *text, size_t len, int *pair)
{
    char *raw = strndup(text, len);
    qz_clause c = {raw ? qz_fold(raw, 0) : NULL, raw ? qz_fold(raw, 1) : NULL};
    int rc = raw && c.hay && c.hay_ns ? 0 : -1;
    *pair = 0;
    for (size_t i = 0; !rc && !*pair && i < x->n_rubric; i++) {
        const qz_concept *k = &x->rubric[i];
        *pair = qz_all_groups_in(&c, k->together, k->n_together);
        for (size_t m = 0; !*pair && m < k->n_contradicts; m++) {
            const qz_contradiction *w = &k->contradicts[m];
            *pair = qz_all_groups_in(&c, w->together, w->n_together);
        }
    }
    free(raw);
    free(c.hay);
    free(c.hay_ns);
    return rc;
}

/* A clause between separators; a joining word ends a clause too when what comes
 * before it already pairs a `together` on its own: "Q from the decoder and K and V
 * from the encoder" is two clauses, "Q from the decoder" and "K and V from the
 * encoder" ("K" alone pairs nothing, so "K and V" stays whole). */
static int judge_joined(const judge_ctx *x, const char *text, size_t len, qz_judgement *out)
{
    const char *start = text, *end = text + len;
    for (const char *s = text; s < end; s++) {
        size_t l = joiner(s, s == text || !isalnum((unsigned char)s[-1]));
        if (!l || s + l > end)
            continue;
        int pair = 0;
        if (s > start && states_pair(x, start, (size_t)(s - start), &pair))
            return -1;
        if (pair) {
            if (judge_span(x, start, (size_t)(s - start), out))
                return -1;
            start = s + l;
        }
        s += l - 1;
    }
    return end > start ? judge_span(x, start, (size_t)(end - start), out) : 0;
}

static int judge_clauses(const judge_ctx *x, const char *answer, qz_judgement *out);

int qz_rubric_judge(const qz_concept *rubric, size_t n_rubric, const char *answer,
                    qz_judgement *out, size_t *n_found, at_error *err)
{
    *n_found = 0;
    memset(out, 0, n_rubric * sizeof *out);
    if (u8_check((const uint8_t *)answer, strlen(answer)))
        return at_error_set(err, AT_EUTF8, "the answer is not valid UTF-8");
    char *read = qz_neg_not_but(answer);   /* "not X but Y" → Y */
    if (!read)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    judge_ctx x;
    int rc = ctx_init(&x, rubric, n_rubric);
    if (!rc)
        rc = judge_clauses(&x, read, out);
    ctx_free(&x);
    free(read);
    if (rc)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n_rubric; i++)
        *n_found += out[i].found != 0;
    return AT_OK;
}

static int judge_clauses(const judge_ctx *x, const char *answer, qz_judgement *out)
{
    const char *start = answer;
    for (const char *s = answer;; s++) {
        size_t sep = *s ? separator(s, s == answer || !isalnum((unsigned char)s[-1])) : 1;
        if (!sep)
            continue;
        int asked = *s == '?' || !strncmp(s, "？", strlen("？"));
        if (s > start && !asked && judge_joined(x, start, (size_t)(s - start), out))
            return -1;
        if (!*s)
            break;
        s += sep - 1;
        start = s + 1;
    }
    return 0;
}

int qz_rubric_match(const qz_concept *rubric, size_t n_rubric, const char *answer,
                    unsigned char *found, size_t *n_found, at_error *err)
{
    qz_judgement *j = calloc(n_rubric ? n_rubric : 1, sizeof *j);
    if (!j)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc = qz_rubric_judge(rubric, n_rubric, answer, j, n_found, err);
    for (size_t i = 0; i < n_rubric; i++)
        found[i] = rc == AT_OK && j[i].found;
    free(j);
    return rc;
}
