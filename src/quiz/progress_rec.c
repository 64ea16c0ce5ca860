/* The progress store's records in memory: answers, self-assessments, positions, the
 * Leitner boxes, and the events a save merges into the file. See quiz/progress.h. */
#include "quiz/progress_impl.h"

#include <cyaml/cyaml.h>
#include <stdlib.h>
#include <string.h>

void *qz_progress_mem(void *old, size_t size)
{
    return cyaml_mem(NULL, old, size);
}

char *qz_progress_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = qz_progress_mem(NULL, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

const qz_answer_rec *qz_store_answer(const qz_store *s, const char *id)
{
    for (unsigned i = 0; s->p && i < s->p->answers_count; i++)
        if (!strcmp(s->p->answers[i].id, id))
            return &s->p->answers[i];
    return NULL;
}

qz_answer_rec *qz_progress_answer(qz_progress *p, const char *id, long long now)
{
    for (unsigned i = 0; i < p->answers_count; i++)
        if (!strcmp(p->answers[i].id, id))
            return &p->answers[i];
    qz_answer_rec *a = qz_progress_mem(p->answers, (p->answers_count + 1) * sizeof *a);
    char *copy = qz_progress_strdup(id);
    if (a)
        p->answers = a;
    if (!a || !copy) {
        qz_progress_mem(copy, 0);
        return NULL;
    }
    qz_answer_rec *r = &a[p->answers_count++];
    memset(r, 0, sizeof *r);
    r->id = copy;
    r->box = 1;
    r->due = now;
    p->answers_total = p->answers_count;
    return r;
}

qz_lesson_rec *qz_progress_lesson(qz_progress *p, const char *id)
{
    for (unsigned i = 0; i < p->lessons_count; i++)
        if (!strcmp(p->lessons[i].id, id))
            return &p->lessons[i];
    qz_lesson_rec *a = qz_progress_mem(p->lessons, (p->lessons_count + 1) * sizeof *a);
    char *copy = qz_progress_strdup(id);
    if (a)
        p->lessons = a;
    if (!a || !copy) {
        qz_progress_mem(copy, 0);
        return NULL;
    }
    qz_lesson_rec *l = &a[p->lessons_count++];
    memset(l, 0, sizeof *l);
    l->id = copy;
    return l;
}

qz_rec_verdict qz_rec_verdict_of(qz_verdict v)
{
    return v == QZ_CORRECT ? QZ_REC_CORRECT : v == QZ_PARTIAL ? QZ_REC_PARTIAL
         : v == QZ_REVIEW ? QZ_REC_REVIEW : QZ_REC_WRONG;
}

void qz_progress_apply(qz_answer_rec *r, const qz_store_event *e)
{
    if (e->self) {
        r->self = qz_rec_verdict_of(e->verdict);
    } else if (e->verdict == QZ_REVIEW) {   /* not judged: not an attempt, the box stays */
        if (e->at >= r->last)
            r->verdict = QZ_REC_REVIEW;
        if (e->at > r->last)
            r->last = e->at;
        return;
    } else {
        if (e->at >= r->last) {   /* the newest attempt's verdict */
            r->verdict = qz_rec_verdict_of(e->verdict);
            r->score = e->score;
        }
        if (e->score > r->best)
            r->best = e->score;
        r->attempts++;
        r->correct += e->verdict == QZ_CORRECT;
    }
    if (e->at > r->last)
        r->last = e->at;
    qz_leitner_update(r, e->verdict, e->at);
}

void qz_store_events_clear(qz_store *s)
{
    for (size_t i = 0; i < s->events_count; i++)
        free(s->events[i].id);
    free(s->events);
    s->events = NULL;
    s->events_count = 0;
    s->position_set = false;
}

/* Note the event, then apply it to the record in memory. */
static int happen(qz_store *s, const char *id, qz_verdict v, double score, bool self,
                  long long now, at_error *err)
{
    qz_store_event *grown = realloc(s->events, (s->events_count + 1) * sizeof *grown);
    char *copy = strdup(id);
    qz_answer_rec *r = grown && copy ? qz_progress_answer(s->p, id, now) : NULL;
    if (grown)
        s->events = grown;
    if (!r) {
        free(copy);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    qz_store_event *e = &s->events[s->events_count++];
    *e = (qz_store_event){.id = copy, .verdict = v, .score = score, .self = self, .at = now};
    qz_progress_apply(r, e);
    return AT_OK;
}

int qz_store_record(qz_store *s, const char *id, const qz_result *res, long long now,
                    at_error *err)
{
    if (res->verdict == QZ_MALFORMED)
        return AT_OK;   /* not an attempt */
    int rc = happen(s, id, res->verdict, res->score, false, now, err);
    if (rc == AT_OK && res->self_assessed)   /* the student's own grade, after the automatic one */
        rc = qz_store_self_assess(s, id, res->self_verdict, now, err);
    return rc;
}

int qz_store_self_assess(qz_store *s, const char *id, qz_verdict v, long long now, at_error *err)
{
    if (v == QZ_MALFORMED || v == QZ_REVIEW)
        return at_error_set(err, AT_EINVAL, "a self-assessment is correct, partial or wrong");
    return happen(s, id, v, 0, true, now, err);
}

const qz_lesson_rec *qz_store_lesson(const qz_store *s, const char *lesson)
{
    for (unsigned i = 0; s->p && i < s->p->lessons_count; i++)
        if (!strcmp(s->p->lessons[i].id, lesson))
            return &s->p->lessons[i];
    return NULL;
}

int qz_store_set_position(qz_store *s, const char *lesson, unsigned step, bool done,
                          long long now, at_error *err)
{
    qz_progress *p = s->p;
    char *pos = qz_progress_strdup(lesson);
    qz_lesson_rec *l = pos ? qz_progress_lesson(p, lesson) : NULL;
    if (!l) {
        qz_progress_mem(pos, 0);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    qz_progress_mem(p->lesson, 0);
    p->lesson = pos;
    p->step = step;
    p->position_at = now;
    s->position_set = true;
    if (step > l->step)
        l->step = step;
    l->done = l->done || done;
    return AT_OK;
}

/* ---- Leitner boxes ---- */

long long qz_leitner_interval(unsigned box)
{
    static const long long seconds[QZ_LEITNER_BOXES + 1] = {
        60, 60, 86400, 3 * 86400, 7 * 86400, 30 * 86400,
    };
    return seconds[box > QZ_LEITNER_BOXES ? QZ_LEITNER_BOXES : box];
}

void qz_leitner_update(qz_answer_rec *r, qz_verdict v, long long now)
{
    if (r->box < 1)
        r->box = 1;
    if (v == QZ_CORRECT && r->box < QZ_LEITNER_BOXES)
        r->box++;
    else if (v == QZ_WRONG)
        r->box = 1;
    r->due = now + qz_leitner_interval(r->box);
}

size_t qz_store_due(const qz_store *s, long long now, const char **ids, size_t max)
{
    size_t n = 0;
    const qz_progress *p = s->p;
    /* Insertion into a list kept sorted by (box, due): the lists are short. */
    const qz_answer_rec **sel = malloc((max ? max : 1) * sizeof *sel);
    if (!sel)
        return 0;
    for (unsigned i = 0; p && i < p->answers_count; i++) {
        const qz_answer_rec *r = &p->answers[i];
        if (r->due > now)
            continue;
        size_t at = n;
        while (at > 0 && (sel[at - 1]->box > r->box ||
                          (sel[at - 1]->box == r->box && sel[at - 1]->due > r->due)))
            at--;
        if (at >= max)
            continue;
        size_t last = n < max ? n : max - 1;
        memmove(&sel[at + 1], &sel[at], (last - at) * sizeof *sel);
        sel[at] = r;
        if (n < max)
            n++;
    }
    for (size_t i = 0; i < n; i++)
        ids[i] = sel[i]->id;
    free(sel);
    return n;
}
