/* Text answers: concepts found, stated wrongly and missing, then the reference answer. */
#define _POSIX_C_SOURCE 200809L
#include "quiz/rubric.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unicase.h>
#include <uninorm.h>
#include <unistr.h>

#include "quiz/internal.h"

/* Case-folded NFKC text with ASCII punctuation and spaces folded into single
 * spaces, padded with a space at both ends (for word boundaries). nospace: every
 * space removed instead (Chinese phrasings with or without spaces). malloc'd. */
static char *fold(const char *s, int nospace)
{
    size_t n = 0;
    uint8_t *f = u8_casefold((const uint8_t *)s, strlen(s), NULL, UNINORM_NFKC, NULL, &n);
    if (!f)
        return NULL;
    char *out = malloc(n + 3);
    size_t o = 0;
    if (out) {
        out[o++] = ' ';
        for (size_t i = 0; i < n; i++) {
            unsigned char c = f[i];
            int blank = c < 0x80 && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') && c != '\'' &&
                        c != '%' && c != '+' && c != '=' && c != '<' && c != '>';
            if (!blank)
                out[o++] = (char)c;
            else if (!nospace && out[o - 1] != ' ')
                out[o++] = ' ';
        }
        if (out[o - 1] != ' ')
            out[o++] = ' ';
        out[o] = '\0';
    }
    free(f);
    return out;
}

static int ascii_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
}

/* After a Latin word: the end of the word, or an inflection and then the end
 * ("align" in "aligns", "aligned", "aligning"). */
static int word_ends(const char *p)
{
    static const char *const endings[] = {"", "s", "es", "d", "ed", "ing"};
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        size_t l = strlen(endings[i]);
        if (!strncmp(p, endings[i], l) && !ascii_alnum(p[l]))
            return 1;
    }
    return 0;
}

/* The first occurrence of needle (folded, trimmed) in hay at a word boundary, or
 * NULL. Latin words must not be glued to other Latin letters ("one step" is not in
 * "none steps"). */
static char *find_word(char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (char *p = hay; n && (p = strstr(p, needle)) != NULL; p++) {
        int left_ok = !ascii_alnum(needle[0]) || p == hay || !ascii_alnum(p[-1]);
        int right_ok = !ascii_alnum(needle[n - 1]) || word_ends(p + n);
        if (left_ok && right_ok)
            return p;
    }
    return NULL;
}

static char *trim(char *t)
{
    while (*t == ' ')
        t++;
    size_t n = strlen(t);
    while (n && t[n - 1] == ' ')
        t[--n] = '\0';
    return t;
}

/* A phrase folded both ways (f: spaces kept, g: spaces removed); wide: it has
 * non-Latin text, so it also matches with the spaces left out. */
typedef struct phrase {
    char *f, *g;
    const char *spaced, *nospace;
    int wide;
} phrase;

static int phrase_make(phrase *p, const char *text)
{
    p->f = fold(text, 0);
    p->g = fold(text, 1);
    if (!p->f || !p->g)
        return -1;
    p->spaced = trim(p->f);
    p->nospace = trim(p->g);
    p->wide = 0;
    for (const char *c = p->nospace; *c; c++)
        p->wide |= (unsigned char)*c >= 0x80;
    return 0;
}

static void phrase_free(phrase *p)
{
    free(p->f);
    free(p->g);
}

/* One clause of the answer, folded both ways (see fold). */
typedef struct clause {
    char *hay, *hay_ns;
} clause;

/* Does the clause hold the phrase? */
static int phrase_in(const clause *c, const char *text)
{
    phrase p;
    int hit = 0;
    if (!phrase_make(&p, text))
        hit = (*p.spaced && find_word(c->hay, p.spaced)) ||
              (p.wide && *p.nospace && strstr(c->hay_ns, p.nospace));
    phrase_free(&p);
    return hit;
}

/* Overwrite every occurrence of the phrase in the clause with '#'. */
static void blank_out(clause *c, const char *text)
{
    phrase p;
    if (!phrase_make(&p, text)) {
        size_t n = strlen(p.spaced), m = strlen(p.nospace);
        for (char *at; n && (at = find_word(c->hay, p.spaced)) != NULL;)
            memset(at, '#', n);
        for (char *at; p.wide && m && (at = strstr(c->hay_ns, p.nospace)) != NULL;)
            memset(at, '#', m);
    }
    phrase_free(&p);
}

/* Does the clause hold one of the alternatives of "a | b | c"? */
static int group_in(const clause *c, const char *group)
{
    char *copy = strdup(group);
    int hit = 0;
    for (char *save = NULL, *alt = copy ? strtok_r(copy, "|", &save) : NULL; alt && !hit;
         alt = strtok_r(NULL, "|", &save))
        hit = phrase_in(c, alt);
    free(copy);
    return hit;
}

static int all_groups_in(const clause *c, const char *const *groups, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!groups[i] || !group_in(c, groups[i]))
            return 0;
    return n > 0;
}

/* A concept's text with its asides in parentheses left out ("RNN 中依赖距离随位置
 * 间隔增长（要逐步传递）" → "RNN 中依赖距离随位置间隔增长"): the core of the idea,
 * as an answer words it. malloc'd; NULL if s is NULL. */
static char *concept_head(const char *s)
{
    static const char *const opens[] = {"(", "（"}, *const closes[] = {")", "）"};
    char *out = s ? malloc(strlen(s) + 1) : NULL;
    size_t o = 0;
    for (const char *p = s; out && *p;) {
        size_t l = 0;
        for (size_t i = 0; i < 2 && !l; i++) {
            const char *close = !strncmp(p, opens[i], strlen(opens[i])) ? strstr(p, closes[i]) : NULL;
            if (close)
                l = (size_t)(close - p) + strlen(closes[i]);
        }
        if (l) {
            p += l;
            continue;
        }
        out[o++] = *p++;
    }
    if (out)
        out[o] = '\0';
    return out;
}

/* How strongly the clause states the concept: 2 by `together`, 1 by a phrase. */
static int concept_strength(const qz_concept *k, const clause *c)
{
    if (all_groups_in(c, k->together, k->n_together))
        return 2;
    char *head = concept_head(k->concept);
    int hit = head && phrase_in(c, head);
    free(head);
    if (hit)
        return 1;
    for (size_t i = 0; i < k->n_synonyms; i++)
        if (k->synonyms[i] && phrase_in(c, k->synonyms[i]))
            return 1;
    return 0;
}

/* How strongly the clause states a contradiction; phrases are looked for in
 * `blanked`, the clause with the concept's own synonyms blanked out. */
static int contra_strength(const qz_contradiction *x, const clause *c, const clause *blanked)
{
    if (all_groups_in(c, x->together, x->n_together))
        return 2;
    for (size_t i = 0; i < x->n_phrases; i++)
        if (x->phrases[i] && phrase_in(blanked, x->phrases[i]))
            return 1;
    return 0;
}

/* ---- longer phrases of other concepts: "one step at a time" states the RNN concept,
 * though it holds "one step", a phrase of the self-attention concept. */

/* One alternative of a phrase or group of the rubric, folded; positive: it states
 * its concept (concept text, synonym, `together`), 0: only in a contradiction. */
typedef struct alt {
    phrase p;
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
        if (!x->text || phrase_make(&x->p, t) || !*x->p.nospace) {
            phrase_free(&x->p);
            free(x->text);
            continue;
        }
        a->n++;
    }
    free(copy);
}

static void alts_of_concept(alts *a, const qz_concept *k, size_t owner)
{
    char *head = concept_head(k->concept);
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
static int holds(const phrase *p, const phrase *q)
{
    if (strlen(p->nospace) <= strlen(q->nospace))
        return 0;
    return (*q->spaced && find_word((char *)p->spaced, q->spaced)) ||
           (q->wide && strstr(p->nospace, q->nospace));
}

/* Is p one of concept a's own words (then it never hides them)? */
static int concept_has(const alts *a, size_t concept, const phrase *p)
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
        phrase_free(&x->words.v[i].p);
        free(x->words.v[i].text);
    }
    free(x->words.v);
    free(x->shadows);
}

/* Judge one concept in one clause: updates j (contradiction wins for good). */
static int judge_concept(const qz_concept *k, const clause *c, qz_judgement *j)
{
    int sc = concept_strength(k, c), sx = 0;
    const qz_contradiction *worst = NULL;
    if (k->n_contradicts) {
        clause b = {strdup(c->hay), strdup(c->hay_ns)};
        if (!b.hay || !b.hay_ns) {
            free(b.hay);
            free(b.hay_ns);
            return -1;
        }
        for (size_t i = 0; i < k->n_synonyms; i++)
            if (k->synonyms[i])
                blank_out(&b, k->synonyms[i]);
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
static void blank_negated(clause *c, const char *group)
{
    char *copy = group ? strdup(group) : NULL;
    for (char *save = NULL, *alt = copy ? strtok_r(copy, "|", &save) : NULL; alt;
         alt = strtok_r(NULL, "|", &save)) {
        phrase p;
        if (!phrase_make(&p, alt) &&
            (qz_neg_cue_en(p.spaced) != SIZE_MAX || qz_neg_cue_zh(p.nospace) != SIZE_MAX))
            blank_out(c, alt);
        phrase_free(&p);
    }
    free(copy);
}

static void blank_rubric_negations(clause *c, const qz_concept *rubric, size_t n_rubric)
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
static int cut_negated(clause *c, const qz_concept *rubric, size_t n_rubric)
{
    clause b = {strdup(c->hay), strdup(c->hay_ns)};
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
static int judge_clause(const judge_ctx *x, size_t i, const clause *c, qz_judgement *j)
{
    clause m = {strdup(c->hay), strdup(c->hay_ns)};
    int rc = m.hay && m.hay_ns ? 0 : -1;
    for (size_t s = 0; !rc && s < x->n_shadows; s++)
        if (x->shadows[s].hides == i)
            blank_out(&m, x->shadows[s].text);
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
    clause c = {raw ? fold(raw, 0) : NULL, raw ? fold(raw, 1) : NULL};
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
    clause c = {raw ? fold(raw, 0) : NULL, raw ? fold(raw, 1) : NULL};
    int rc = raw && c.hay && c.hay_ns ? 0 : -1;
    *pair = 0;
    for (size_t i = 0; !rc && !*pair && i < x->n_rubric; i++) {
        const qz_concept *k = &x->rubric[i];
        *pair = all_groups_in(&c, k->together, k->n_together);
        for (size_t m = 0; !*pair && m < k->n_contradicts; m++)
            *pair = all_groups_in(&c, k->contradicts[m].together, k->contradicts[m].n_together);
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

void qz_result_self_assess(qz_result *r, qz_verdict v)
{
    r->self_assessed = 1;
    r->self_verdict = v;
    r->self_score = v == QZ_CORRECT ? 1 : v == QZ_PARTIAL ? 0.5 : 0;
}

static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return 0;
    return 1;
}

/* The concepts found, stated wrongly (with why), and missing. */
static void print_concepts(const qz_question *q, const qz_judgement *j, size_t n_found, size_t need,
                           size_t n_wrong, qz_lang lang, FILE *fb)
{
    fprintf(fb, QZ_TR(lang, "Key ideas found (%zu of %zu, %zu needed):\n", "提到的要点（%zu/%zu，需要 %zu 个）：\n"),
            n_found, q->n_rubric, need);
    for (size_t i = 0; i < q->n_rubric; i++)
        if (j[i].found)
            fprintf(fb, "  ✓ %s\n", q->rubric[i].concept);
    if (n_wrong) {
        fprintf(fb, QZ_TR(lang, "Stated wrongly:\n", "说错的要点：\n"));
        for (size_t i = 0; i < q->n_rubric; i++) {
            const char *why = j[i].wrong ? j[i].wrong->feedback : NULL;
            int n = why ? (int)strlen(why) : 0;
            while (n && (why[n - 1] == '\n' || why[n - 1] == ' '))
                n--;
            if (j[i].wrong)
                fprintf(fb, "  ✗ %s%s%.*s\n", q->rubric[i].concept, n ? QZ_TR(lang, " — ", "——") : "",
                        n, n ? why : "");
        }
    }
    if (n_found + n_wrong < q->n_rubric) {
        fprintf(fb, QZ_TR(lang, "Missing:\n", "缺少的要点：\n"));
        for (size_t i = 0; i < q->n_rubric; i++)
            if (!j[i].found && !j[i].wrong)
                fprintf(fb, "  ✗ %s\n", q->rubric[i].concept);
    }
}

int qz_grade_text(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                  FILE *fb, at_error *err)
{
    if (!q->n_rubric || !q->rubric)
        return at_error_set(err, AT_EINVAL, "question %s: a text question needs a rubric",
                            q->id ? q->id : "?");
    out->expected = q->reference ? strdup(q->reference) : NULL;
    if (blank(answer)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, QZ_TR(lang, "Write an answer first (a sentence or two).\n", "请先写下答案（一两句话）。\n"));
        return AT_OK;
    }
    qz_judgement *j = calloc(q->n_rubric, sizeof *j);
    if (!j)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    size_t n_found = 0, n_wrong = 0;
    at_error e2;
    if (qz_rubric_judge(q->rubric, q->n_rubric, answer, j, &n_found, &e2)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, "%s\n", e2.msg);
        free(j);
        return e2.code == AT_ENOMEM ? at_error_set(err, AT_ENOMEM, "out of memory") : AT_OK;
    }
    for (size_t i = 0; i < q->n_rubric; i++)
        n_wrong += j[i].wrong != NULL;
    size_t need = q->min_concepts && q->min_concepts <= q->n_rubric ? q->min_concepts : q->n_rubric;
    /* A wrong statement costs what a found concept earns; it is never "correct". */
    size_t net = n_found > n_wrong ? n_found - n_wrong : 0;
    out->score = !n_wrong && n_found >= need ? 1.0 : (double)(net < need ? net : need) / (double)need;
    if (n_wrong && out->score >= 1.0)
        out->score = 0.5;
    out->verdict = !n_wrong && n_found >= need ? QZ_CORRECT : net ? QZ_PARTIAL : QZ_WRONG;
    fprintf(fb, "%s", out->verdict == QZ_CORRECT ? QZ_TR(lang, "Correct: the key ideas are there.\n",
                                                         "正确：关键要点都提到了。\n")
                      : out->verdict == QZ_PARTIAL ? QZ_TR(lang, "Partly right.\n", "部分正确。\n")
                      : n_wrong ? QZ_TR(lang, "Not right: the answer states something wrong.\n",
                                        "不正确：答案里有错误的说法。\n")
                                : QZ_TR(lang, "None of the key ideas was recognised.\n",
                                        "没有识别出关键要点。\n"));
    print_concepts(q, j, n_found, need, n_wrong, lang, fb);
    free(j);
    if (q->reference)
        fprintf(fb, QZ_TR(lang, "\nReference answer:\n%s", "\n参考答案：\n%s"), q->reference);
    if (q->reference && *q->reference && q->reference[strlen(q->reference) - 1] != '\n')
        fprintf(fb, "\n");
    fprintf(fb, QZ_TR(lang, "(Graded by key ideas; you may grade it yourself after reading the reference.)\n",
                      "（按关键要点评分；读完参考答案后你也可以自己评分。）\n"));
    return AT_OK;
}
