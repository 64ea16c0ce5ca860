/* A question's rubric compiled for the statement matcher: every phrase of its key
 * ideas, misconceptions and of the grader's own words normalised once (textnorm.h);
 * the older form (`synonyms`, `together`, `contradicts`) read as statements; and the
 * older matcher API (qz_rubric_judge, qz_rubric_match) on top of it. */
#define _POSIX_C_SOURCE 200809L
#include "quiz/rubric.h"

#include <stdlib.h>
#include <string.h>

#include "quiz/compiled.h"

/* ---- phrase lists */

typedef struct builder {
    qz_rubric_c *r;
    int failed;
} builder;

/* Add one alternative (trimmed; empty ones are skipped). */
static void alt_add(builder *b, qz_alts *a, const char *text)
{
    if (b->failed || !text)
        return;
    qz_text t;
    at_error e;
    if (qz_norm_text(&b->r->norm, text, 0, &t, &e)) {
        b->failed = 1;
        return;
    }
    if (!t.n) {
        qz_text_free(&t);
        return;
    }
    qz_text *v = realloc(a->v, (a->n + 1) * sizeof *v);
    unsigned char *s = v ? realloc(a->self, a->n + 1) : NULL;
    if (v)
        a->v = v;
    if (!s) {
        qz_text_free(&t);
        b->failed = 1;
        return;
    }
    a->self = s;
    a->v[a->n] = t;
    a->self[a->n] = 0;
    a->n++;
    if (qz_vocab_add(&b->r->vocab, &t))
        b->failed = 1;
}

/* Add the alternatives of a group "a | b | c". */
static void group_add(builder *b, qz_alts *a, const char *group)
{
    char *copy = group ? strdup(group) : NULL;
    b->failed |= group && !copy;
    for (char *save = NULL, *t = copy ? strtok_r(copy, "|", &save) : NULL; t;
         t = strtok_r(NULL, "|", &save))
        alt_add(b, a, t);
    free(copy);
}

static void list_add(builder *b, qz_alts *a, const char *const *list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        alt_add(b, a, list[i]);
}

static void lex_add(builder *b, qz_alts *a, const char *const *list)
{
    for (; *list; list++)
        alt_add(b, a, *list);
}

static void alts_free(qz_alts *a)
{
    for (size_t i = 0; i < a->n; i++)
        qz_text_free(&a->v[i]);
    free(a->v);
    free(a->self);
    memset(a, 0, sizeof *a);
}

/* The verb is not the agent noun its stem shares: "nothing to decode" does not name a
 * decoder, "encode" no encoder, "decoding" no decoder (p's word ends in -er/-ers, t's is
 * that stem + e/es/ing). */
static int verb_of_agent(const qz_tok *t, const qz_tok *p)
{
    if (t->kind != QZ_TK_WORD || p->kind != QZ_TK_WORD || !t->raw || !p->raw)
        return 0;
    size_t n = strlen(p->raw), m = strlen(t->raw);
    size_t stem = n > 3 && !strcmp(p->raw + n - 2, "er") ? n - 2
                  : n > 4 && !strcmp(p->raw + n - 3, "ers") ? n - 3 : 0;
    if (!stem || strncmp(t->raw, p->raw, stem))
        return 0;
    return (m == stem + 1 && t->raw[stem] == 'e') || (m == stem + 2 && !strcmp(t->raw + stem, "es")) ||
           (m == stem + 3 && !strcmp(t->raw + stem, "ing"));   /* "every step of decoding" */
}

/* An adverb is not the noun its stem shares: "probably" is no "probability" (t's word
 * ends in -ly, p's does not, and t is not p + ly: "directly" still reads as "direct"). */
static int adverb_of_other(const qz_tok *t, const qz_tok *p)
{
    if (t->kind != QZ_TK_WORD || p->kind != QZ_TK_WORD || !t->raw || !p->raw)
        return 0;
    size_t n = strlen(t->raw), m = strlen(p->raw);
    if (n < 4 || strcmp(t->raw + n - 2, "ly") || (m >= 2 && !strcmp(p->raw + m - 2, "ly")))
        return 0;
    return !(m == n - 2 && !strncmp(t->raw, p->raw, m)) &&
           !(m == n - 1 && p->raw[m - 1] == 'e' && !strncmp(t->raw, p->raw, m - 1)) &&
           !(n > 4 && !strcmp(t->raw + n - 3, "ily") && m == n - 2 && p->raw[m - 1] == 'y' &&
             !strncmp(t->raw, p->raw, m - 1));
}

/* A word the text may hold inside a phrase that does not write it: "doesn't need any
 * positional information" is "doesn't need positional information", 不需要任何位置编码 is
 * 不需要位置编码, 只能看到它自己 is 只能看到自己 (a pronoun before 自己). Its length in
 * tokens, 0 when none; never a word the phrase itself has there. */
static size_t optional_at(const qz_text *t, size_t j, const qz_tok *next)
{
    static const char *const words[] = {"any", "really", "even", "actually"};
    const qz_tok *w = &t->t[j];
    if (!strcmp(w->s, next->s))
        return 0;
    if (w->kind == QZ_TK_WORD)
        for (size_t k = 0; k < sizeof words / sizeof *words; k++)
            if (w->raw && !strcmp(w->raw, words[k]))
                return 1;
    if (w->kind != QZ_TK_HAN)
        return 0;
    static const char *const han[] = {"它", "他", "她", "其"};
    if (!strcmp(next->s, "自") && j + 1 < t->n && !strcmp(t->t[j + 1].s, "自"))
        for (size_t k = 0; k < sizeof han / sizeof *han; k++)
            if (!strcmp(w->s, han[k]))
                return 1;
    if (!strcmp(w->s, "任") && j + 1 < t->n && !strcmp(t->t[j + 1].s, "何") && strcmp(next->s, "何"))
        return 2;
    return 0;
}

size_t qz_alt_at(const qz_text *t, size_t i, const qz_text *p)
{
    if (!p->n || i + p->n > t->n)
        return 0;
    size_t j = i, skip;
    for (size_t k = 0; k < p->n; k++, j++) {
        while (k > 0 && j + 1 < t->n && (skip = optional_at(t, j, &p->t[k])) && j + skip < t->n)
            j += skip;
        if (j >= t->n || strcmp(t->t[j].s, p->t[k].s) || verb_of_agent(&t->t[j], &p->t[k]) ||
            adverb_of_other(&t->t[j], &p->t[k]))
            return 0;
    }
    return j - i;
}

size_t qz_alts_at(const qz_text *t, size_t i, const qz_alts *a, size_t *which)
{
    size_t best = 0, len = 0;
    for (size_t k = 0; k < a->n; k++) {
        size_t l;
        if (a->v[k].n > best && (l = qz_alt_at(t, i, &a->v[k]))) {
            best = a->v[k].n;
            len = l;
            if (which)
                *which = k;
        }
    }
    return len;
}

/* Does phrase p hold one of the alternatives of a? */
static int holds_any(const qz_text *p, const qz_alts *a)
{
    for (size_t i = 0; i < p->n; i++)
        if (qz_alts_at(p, i, a, NULL))
            return 1;
    return 0;
}

/* ---- statements */

static qz_cclaim *claims_grow(builder *b, qz_cpattern *p)
{
    qz_cclaim *c = realloc(p->claims, (p->n_claims + 1) * sizeof *c);
    if (!c) {
        b->failed = 1;
        return NULL;
    }
    p->claims = c;
    c = &p->claims[p->n_claims++];
    memset(c, 0, sizeof *c);
    return c;
}

/* A new pattern of owner in *v (n patterns so far); NULL when out of memory. */
static qz_cpattern *pattern_new(builder *b, qz_cpattern **v, size_t *n, size_t owner)
{
    qz_cpattern *a = realloc(*v, (*n + 1) * sizeof *a);
    if (!a) {
        b->failed = 1;
        return NULL;
    }
    *v = a;
    qz_cpattern *p = &a[(*n)++];
    memset(p, 0, sizeof *p);
    p->owner = owner;
    return p;
}

/* One claim of a statement; returns -1 for a claim that says nothing. */
static int claim_add(builder *b, qz_cpattern *p, const qz_claim *src)
{
    qz_cclaim *c = claims_grow(b, p);
    if (!c)
        return 0;
    c->dir = src->direction;
    c->pol = src->polarity;
    list_add(b, &c->phrases, src->phrases, src->n_phrases);
    list_add(b, &c->unless, src->unless, src->n_unless);
    if (src->n_with) {
        c->with = calloc(src->n_with, sizeof *c->with);
        if (!c->with) {
            b->failed = 1;
            return 0;
        }
        c->n_with = src->n_with;
        for (size_t g = 0; g < src->n_with; g++)
            group_add(b, &c->with[g], src->with[g]);
    }
    c->bare = !c->phrases.n && c->dir == QZ_DIR_NONE;
    return c->bare && c->pol != QZ_POL_DENIED ? -1 : 0;
}

/* The patterns of a statement: its subject with the claims that have no subject of
 * their own, then one pattern per claim that has, or that is `subject_implied` in a
 * statement that is not (it takes the statement's subject). The first is *base (made by
 * the caller, also for the older form). */
static int statement_add(builder *b, qz_cpattern **v, size_t *n, size_t base,
                         const qz_statement *st)
{
    int rc = 0;
    list_add(b, &(*v)[base].subject, st->subject, st->n_subject);
    (*v)[base].subject_implied = st->subject_implied;
    size_t owner = (*v)[base].owner;
    for (size_t i = 0; i < st->n_claims && !b->failed; i++) {
        const qz_claim *c = &st->claims[i];
        qz_cpattern *p = &(*v)[base];
        if (c->n_subject || (c->subject_implied && !st->subject_implied)) {
            p = pattern_new(b, v, n, owner);
            if (!p)
                break;
            if (c->n_subject)
                list_add(b, &p->subject, c->subject, c->n_subject);
            else
                list_add(b, &p->subject, st->subject, st->n_subject);
            /* a claim with a subject of its own needs it said, unless it says otherwise */
            p->subject_implied = c->subject_implied;
        }
        rc |= claim_add(b, p, c);
    }
    return rc;
}

/* The concept's text without its asides in parentheses: the core of the idea as an
 * answer may word it (older rubrics count it as a phrase). malloc'd. */
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

/* The older form: every synonym (and the concept's text) a claim of any subject; each
 * `together` a claim on its first group with the others as `with`. */
static void older_form(builder *b, qz_cpattern *p, const char *concept, const char *const *syn,
                       size_t n_syn, const char *const *together, size_t n_together)
{
    qz_cclaim *c = (syn && n_syn) || concept ? claims_grow(b, p) : NULL;
    if (c) {
        char *head = concept_head(concept);
        b->failed |= concept && !head;
        alt_add(b, &c->phrases, head);
        free(head);
        list_add(b, &c->phrases, syn, n_syn);
    }
    if (n_together && together && (c = claims_grow(b, p)) != NULL) {
        group_add(b, &c->phrases, together[0]);
        c->n_with = n_together - 1;
        c->with = c->n_with ? calloc(c->n_with, sizeof *c->with) : NULL;
        b->failed |= c->n_with && !c->with;
        for (size_t g = 0; c->with && g < c->n_with; g++)
            group_add(b, &c->with[g], together[g + 1]);
    }
}

/* Mark the claim phrases that hold a subject of their own statement. */
static void mark_self(qz_cpattern *v, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        qz_cpattern *p = &v[k];
        for (size_t c = 0; c < p->n_claims; c++) {
            qz_alts *a = &p->claims[c].phrases;
            for (size_t i = 0; i < a->n; i++)
                a->self[i] = p->subject.n && holds_any(&a->v[i], &p->subject);
        }
    }
}

static void pattern_free(qz_cpattern *p)
{
    alts_free(&p->subject);
    for (size_t c = 0; c < p->n_claims; c++) {
        alts_free(&p->claims[c].phrases);
        alts_free(&p->claims[c].unless);
        for (size_t g = 0; g < p->claims[c].n_with; g++)
            alts_free(&p->claims[c].with[g]);
        free(p->claims[c].with);
    }
    free(p->claims);
}

void qz_rubric_c_free(qz_rubric_c *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_ideas; i++)
        pattern_free(&r->ideas[i]);
    for (size_t i = 0; i < r->n_miscs; i++)
        pattern_free(&r->miscs[i]);
    free(r->ideas);
    free(r->miscs);
    free(r->misc_info);
    for (size_t d = 0; d < 4; d++)
        alts_free(&r->dir[d]);
    qz_alts *lex[] = {&r->glue, &r->foil_before, &r->foil_after, &r->pronoun, &r->object,
                      &r->destination, &r->neutral, &r->consequence, &r->retract, &r->give_up, &r->dont_know,
                      &r->correct_strong, &r->correct_weak, &r->restart, &r->filler, &r->question,
                      &r->hedge, &r->looked_at, &r->indefinite, &r->respectively, &r->part_glue, &r->versus,
                      &r->side, &r->positions, &r->origin, &r->ability, &r->thought, &r->turn, &r->change,
                      &r->joins, &r->reply_yes, &r->reply_no, &r->quote_label, &r->drawn,
                      &r->reject_open, &r->report, &r->reject_tail};
    for (size_t i = 0; i < sizeof lex / sizeof lex[0]; i++)
        alts_free(lex[i]);
    qz_text_free(&r->prompt);
    qz_vocab_free(&r->vocab);
    qz_norm_close(&r->norm);
    free(r);
}

static void lexicon(builder *b)
{
    qz_rubric_c *r = b->r;
    lex_add(b, &r->dir[QZ_DIR_NONE], qz_lex_no_direction);
    lex_add(b, &r->dir[QZ_DIR_UP], qz_lex_up);
    lex_add(b, &r->dir[QZ_DIR_DOWN], qz_lex_down);
    lex_add(b, &r->dir[QZ_DIR_SAME], qz_lex_same);
    lex_add(b, &r->glue, qz_lex_glue);
    lex_add(b, &r->foil_before, qz_lex_foil_before);
    lex_add(b, &r->foil_after, qz_lex_foil_after);
    lex_add(b, &r->pronoun, qz_lex_pronoun);
    lex_add(b, &r->change, qz_lex_change);
    lex_add(b, &r->joins, qz_lex_joins);
    lex_add(b, &r->object, qz_lex_object);
    lex_add(b, &r->destination, qz_lex_destination);
    lex_add(b, &r->neutral, qz_lex_neutral);
    lex_add(b, &r->consequence, qz_lex_consequence);
    lex_add(b, &r->retract, qz_lex_retract);
    lex_add(b, &r->give_up, qz_lex_give_up);
    lex_add(b, &r->dont_know, qz_lex_dont_know);
    lex_add(b, &r->correct_strong, qz_lex_correct_strong);
    lex_add(b, &r->correct_weak, qz_lex_correct_weak);
    lex_add(b, &r->restart, qz_lex_restart);
    lex_add(b, &r->correct_strong, qz_lex_disown);
    lex_add(b, &r->restart, qz_lex_disown);
    lex_add(b, &r->thought, qz_lex_thought);
    lex_add(b, &r->reject_open, qz_lex_reject_open);
    lex_add(b, &r->report, qz_lex_report);
    lex_add(b, &r->reject_tail, qz_lex_reject_tail);
    lex_add(b, &r->turn, qz_lex_turn);
    lex_add(b, &r->filler, qz_lex_filler);
    lex_add(b, &r->question, qz_lex_question);
    lex_add(b, &r->reply_yes, qz_lex_reply_yes);
    lex_add(b, &r->reply_no, qz_lex_reply_no);
    lex_add(b, &r->quote_label, qz_lex_quote_label);
    lex_add(b, &r->drawn, qz_lex_drawn);
    lex_add(b, &r->hedge, qz_lex_hedge);
    lex_add(b, &r->looked_at, qz_lex_looked_at);
    lex_add(b, &r->indefinite, qz_lex_indefinite);
    lex_add(b, &r->respectively, qz_lex_respectively);
    lex_add(b, &r->part_glue, qz_lex_part_glue);
    lex_add(b, &r->versus, qz_lex_versus);
    lex_add(b, &r->side, qz_lex_side);
    lex_add(b, &r->positions, qz_lex_positions);
    lex_add(b, &r->origin, qz_lex_origin);
    lex_add(b, &r->ability, qz_lex_ability);
}

int qz_rubric_compile(const qz_question *q, qz_rubric_c **out, at_error *err)
{
    *out = NULL;
    qz_rubric_c *r = calloc(1, sizeof *r);
    if (!r)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc = qz_norm_open(&r->norm, err);
    if (rc) {
        qz_rubric_c_free(r);
        return rc;
    }
    builder b = {r, 0};
    size_t n_misc = q->n_misconceptions;
    for (size_t i = 0; i < q->n_rubric; i++)
        n_misc += q->rubric[i].n_contradicts;
    r->misc_info = calloc(n_misc ? n_misc : 1, sizeof *r->misc_info);
    b.failed = !r->misc_info;
    const char *bad = NULL;
    for (size_t i = 0; !b.failed && i < q->n_rubric; i++) {
        const qz_concept *k = &q->rubric[i];
        size_t base = r->n_ideas;
        if (!pattern_new(&b, &r->ideas, &r->n_ideas, i))
            break;
        if (statement_add(&b, &r->ideas, &r->n_ideas, base, &k->statement))
            bad = k->concept;
        if (!b.failed)
            older_form(&b, &r->ideas[base], k->statement.n_claims ? NULL : k->concept, k->synonyms,
                       k->n_synonyms, k->together, k->n_together);
    }
    r->n_idea_owners = q->n_rubric;
    for (size_t i = 0; !b.failed && i < q->n_misconceptions; i++) {
        const qz_misconception *m = &q->misconceptions[i];
        size_t base = r->n_miscs, owner = r->n_misc_owners++;
        r->misc_info[owner] = (qz_misc_info){.name = m->name, .feedback = m->feedback,
                                             .off_point = m->off_point, .concept = -1,
                                             .replaces = m->replaces, .lesson_wide = m->lesson_wide,
                                             .minor = m->minor, .partial_alone = m->partial_alone};
        if (!pattern_new(&b, &r->miscs, &r->n_miscs, owner))
            break;
        if (statement_add(&b, &r->miscs, &r->n_miscs, base, &m->statement))
            bad = m->name ? m->name : "a misconception";
    }
    for (size_t i = 0; !b.failed && i < q->n_rubric; i++)
        for (size_t x = 0; !b.failed && x < q->rubric[i].n_contradicts; x++) {
            const qz_contradiction *w = &q->rubric[i].contradicts[x];
            size_t owner = r->n_misc_owners++;
            /* a key idea stated wrongly: one part wrong, like a `minor` misconception */
            r->misc_info[owner] = (qz_misc_info){.feedback = w->feedback, .concept = (long)i,
                                                 .replaces = i < 32 ? 1ul << i : 0, .minor = 1};
            qz_cpattern *p = pattern_new(&b, &r->miscs, &r->n_miscs, owner);
            if (p)
                older_form(&b, p, NULL, w->phrases, w->n_phrases, w->together, w->n_together);
        }
    if (!b.failed) {
        mark_self(r->ideas, r->n_ideas);
        mark_self(r->miscs, r->n_miscs);
    }
    if (!b.failed)
        lexicon(&b);
    at_error e2;
    if (!b.failed && q->prompt && qz_norm_text(&r->norm, q->prompt, 0, &r->prompt, &e2))
        b.failed = 1;
    if (b.failed) {
        qz_rubric_c_free(r);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    if (bad) {
        qz_rubric_c_free(r);
        return at_error_set(err, AT_EINVAL,
                            "question %s: a claim of \"%s\" has no phrases and no direction, and "
                            "is not a denied subject (polarity: denied)",
                            q->id ? q->id : "?", bad);
    }
    r->norm.vocab = &r->vocab;
    *out = r;
    return AT_OK;
}

size_t qz_rubric_c_n_misc(const qz_rubric_c *r)
{
    return r->n_misc_owners;
}

qz_misc_info qz_rubric_c_misc(const qz_rubric_c *r, size_t i)
{
    return r->misc_info[i];
}

/* ---- the older API */

int qz_rubric_judge(const qz_concept *rubric, size_t n_rubric, const char *answer,
                    qz_judgement *out, size_t *n_found, at_error *err)
{
    qz_question q = qz_question_init(QZ_TEXT);
    q.rubric = rubric;
    q.n_rubric = n_rubric;
    *n_found = 0;
    memset(out, 0, n_rubric * sizeof *out);
    qz_rubric_c *r;
    int rc = qz_rubric_compile(&q, &r, err);
    if (rc)
        return rc;
    qz_reading rd;
    rc = qz_rubric_read(r, answer, &rd, err);
    if (!rc) {
        for (size_t i = 0; i < n_rubric; i++)
            out[i].found = rd.idea[i];
        for (size_t m = 0; m < rd.n_misc; m++) {
            qz_misc_info info = qz_rubric_c_misc(r, m);
            if (!rd.misc[m] || info.concept < 0 || out[info.concept].wrong)
                continue;
            size_t before = 0;
            for (size_t k = 0; k < (size_t)info.concept; k++)
                before += rubric[k].n_contradicts;
            out[info.concept].wrong = &rubric[info.concept].contradicts[m - before];
            out[info.concept].found = 0;
        }
        for (size_t i = 0; i < n_rubric; i++)
            *n_found += out[i].found;
        qz_reading_free(&rd);
    }
    qz_rubric_c_free(r);
    return rc;
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
