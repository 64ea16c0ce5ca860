/* Merging one process's changes into the progress file as another process left it
 * (rules in quiz/progress.h). Runs under the store's lock, between reading the file
 * again and writing it. */
#include "quiz/progress_impl.h"

#include <string.h>

/* The record of id among the first n of p, or NULL. */
static qz_answer_rec *answer_among(qz_progress *p, unsigned n, const char *id)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(p->answers[i].id, id))
            return &p->answers[i];
    return NULL;
}

/* A record of memory the file does not hold, copied whole. */
static int copy_answer(qz_progress *disk, const qz_answer_rec *m)
{
    qz_answer_rec *r = qz_progress_answer(disk, m->id, m->due);
    if (!r)
        return -1;
    char *id = r->id;
    *r = *m;
    r->id = id;
    return 0;
}

static int merge_answers(qz_progress *disk, const qz_store *s)
{
    const qz_progress *m = s->p;
    unsigned held = disk->answers_count;   /* the file's own records come first */
    for (unsigned i = 0; i < m->answers_count; i++)
        if (!answer_among(disk, held, m->answers[i].id) && copy_answer(disk, &m->answers[i]))
            return -1;
    /* This process's events, in order, on the records the file held (a copied record
     * has them already). */
    for (size_t i = 0; i < s->events_count; i++) {
        qz_answer_rec *r = answer_among(disk, held, s->events[i].id);
        if (r)
            qz_progress_apply(r, &s->events[i]);
    }
    return 0;
}

static int merge_lessons(qz_progress *disk, const qz_progress *m)
{
    for (unsigned i = 0; i < m->lessons_count; i++) {
        const qz_lesson_rec *ml = &m->lessons[i];
        qz_lesson_rec *l = qz_progress_lesson(disk, ml->id);
        if (!l)
            return -1;
        if (ml->step > l->step)
            l->step = ml->step;
        l->done = l->done || ml->done;
    }
    return 0;
}

/* The newest position wins (set here and not older than the file's), or ours when the
 * file has none. */
static int merge_position(qz_progress *disk, const qz_store *s)
{
    const qz_progress *m = s->p;
    if (!m->lesson || (disk->lesson && !(s->position_set && m->position_at >= disk->position_at)))
        return 0;
    char *pos = qz_progress_strdup(m->lesson);
    if (!pos)
        return -1;
    qz_progress_mem(disk->lesson, 0);
    disk->lesson = pos;
    disk->step = m->step;
    disk->position_at = m->position_at;
    return 0;
}

int qz_progress_merge(qz_progress *disk, const qz_store *s, at_error *err)
{
    if (merge_answers(disk, s) || merge_lessons(disk, s->p) || merge_position(disk, s))
        return at_error_set(err, AT_ENOMEM, "progress not saved: out of memory");
    disk->answers_total = disk->answers_count;
    return AT_OK;
}
