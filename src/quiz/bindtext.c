/* A text question's rubric and misconceptions as the grader's qz_concept and
 * qz_misconception (the phrases stay borrowed from the lesson). */
#include "quiz/bind.h"

#include <stdlib.h>
#include <string.h>

struct qz_text_bound {
    qz_concept *rubric;
    qz_contradiction *contradicts;   /* every concept's, one after another */
    qz_misconception *miscs;
    qz_claim *claims;                /* every statement's, one after another */
};

/* The key ideas a misconception states wrongly, as bits (lint reports numbers outside
 * 1..n_rubric and rubrics of more than 32 ideas; those bits are left out here). */
static unsigned long replaced_ideas(const at_misconception *m, unsigned n_rubric)
{
    unsigned long bits = 0;
    for (unsigned i = 0; i < m->replaces_count; i++)
        if (m->replaces[i] >= 1 && m->replaces[i] <= n_rubric && m->replaces[i] <= 32)
            bits |= 1ul << (m->replaces[i] - 1);
    return bits;
}

static qz_claim claim_of(const at_claim *c)
{
    return (qz_claim){
        .subject = (const char *const *)c->subject,
        .n_subject = c->subject_count,
        .phrases = (const char *const *)c->phrases,
        .n_phrases = c->phrases_count,
        .direction = (qz_direction)c->direction,
        .polarity = (qz_polarity)c->polarity,
        .with = (const char *const *)c->with,
        .n_with = c->with_count,
        .unless = (const char *const *)c->unless,
        .n_unless = c->unless_count,
        .subject_implied = c->subject_implied,
    };
}

/* A statement whose claims go to claims[*used ..]. */
static qz_statement statement_of(char **subject, unsigned n_subject, bool implied,
                                 const at_claim *claims, unsigned n_claims, qz_claim *all,
                                 size_t *used)
{
    qz_statement st = {(const char *const *)subject, n_subject, implied, NULL, 0};
    if (n_claims) {
        st.claims = &all[*used];
        st.n_claims = n_claims;
        for (unsigned i = 0; i < n_claims; i++)
            all[(*used)++] = claim_of(&claims[i]);
    }
    return st;
}

int qz_bind_rubric(const at_question *src, const at_misconception *shared, unsigned n_shared,
                   qz_bound *b, at_error *err)
{
    qz_question *q = &b->q;
    size_t n_x = 0, n_claims = 0, used = 0;
    /* the question's own misconceptions, then the lesson's: one the question has its own
     * wording of (the same name) is read as well, and counted only where the question's
     * wording is not found (qz_grade_text), so that the question's feedback is shown and
     * the lesson's phrasings still count */
    const at_misconception **ms = calloc((size_t)src->misconceptions_count + n_shared + 1, sizeof *ms);
    if (!ms)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    size_t n_miscs = 0;
    for (unsigned i = 0; i < src->misconceptions_count; i++)
        ms[n_miscs++] = &src->misconceptions[i];
    for (unsigned i = 0; shared && i < n_shared; i++)
        ms[n_miscs++] = &shared[i];
    for (unsigned i = 0; i < src->rubric_count; i++) {
        n_x += src->rubric[i].contradicts_count;
        n_claims += src->rubric[i].claims_count;
    }
    for (size_t i = 0; i < n_miscs; i++)
        n_claims += ms[i]->claims_count;
    struct qz_text_bound *t = calloc(1, sizeof *t);
    if (t) {
        b->text = t;
        t->rubric = calloc(src->rubric_count ? src->rubric_count : 1, sizeof *t->rubric);
        t->contradicts = calloc(n_x ? n_x : 1, sizeof *t->contradicts);
        t->miscs = calloc(n_miscs ? n_miscs : 1, sizeof *t->miscs);
        t->claims = calloc(n_claims ? n_claims : 1, sizeof *t->claims);
    }
    if (!t || !t->rubric || !t->contradicts || !t->miscs || !t->claims) {
        free(ms);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    for (unsigned i = 0, x = 0; i < src->rubric_count; i++) {
        const at_concept *c = &src->rubric[i];
        qz_concept *k = &t->rubric[i];
        for (unsigned j = 0; j < c->contradicts_count; j++) {
            const at_contradiction *s = &c->contradicts[j];
            t->contradicts[x + j] = (qz_contradiction){
                (const char *const *)s->phrases, s->phrases_count,
                (const char *const *)s->together, s->together_count, s->feedback};
        }
        *k = (qz_concept){
            .concept = c->concept,
            .required = c->required,
            .statement = statement_of(c->subject, c->subject_count, c->subject_implied, c->claims,
                                      c->claims_count, t->claims, &used),
            .synonyms = (const char *const *)c->synonyms,
            .n_synonyms = c->synonyms_count,
            .together = (const char *const *)c->together,
            .n_together = c->together_count,
            .contradicts = c->contradicts_count ? &t->contradicts[x] : NULL,
            .n_contradicts = c->contradicts_count,
        };
        x += c->contradicts_count;
    }
    for (size_t i = 0; i < n_miscs; i++) {
        const at_misconception *m = ms[i];
        t->miscs[i] = (qz_misconception){
            .name = m->name,
            .feedback = m->feedback,
            .off_point = m->off_point,
            .minor = m->minor,
            .partial_alone = m->partial_alone,
            .replaces = i < src->misconceptions_count ? replaced_ideas(m, src->rubric_count) : 0,
            .lesson_wide = i >= src->misconceptions_count,
            .statement = statement_of(m->subject, m->subject_count, m->subject_implied, m->claims,
                                      m->claims_count, t->claims, &used),
        };
    }
    q->rubric = t->rubric;
    q->n_rubric = src->rubric_count;
    free(ms);
    q->misconceptions = n_miscs ? t->miscs : NULL;
    q->n_misconceptions = n_miscs;
    q->min_concepts = src->min_concepts ? *src->min_concepts : 0;
    q->reference = src->reference;
    q->prompt = src->prompt;
    return AT_OK;
}

void qz_bind_rubric_free(qz_bound *b)
{
    struct qz_text_bound *t = b->text;
    if (!t)
        return;
    free(t->rubric);
    free(t->contradicts);
    free(t->miscs);
    free(t->claims);
    free(t);
    b->text = NULL;
}
