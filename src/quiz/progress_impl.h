/* Shared between the progress store's files (progress.c: file, lock, save;
 * progress_rec.c: records in memory; progress_merge.c: merging); not for other
 * modules. */
#ifndef AT_QUIZ_PROGRESS_IMPL_H
#define AT_QUIZ_PROGRESS_IMPL_H

#include "quiz/progress.h"

/* Allocation that cyaml_free can release (the loaded state is freed by libcyaml):
 * realloc(old, size), size 0 frees. */
void *qz_progress_mem(void *old, size_t size);
char *qz_progress_strdup(const char *s);

/* The record of question id in p, added (box 1, due now) when absent; NULL when out
 * of memory. */
qz_answer_rec *qz_progress_answer(qz_progress *p, const char *id, long long now);

/* The record of lesson id in p, added (step 0) when absent; NULL when out of memory. */
qz_lesson_rec *qz_progress_lesson(qz_progress *p, const char *id);

/* The stored verdict of a graded one. */
qz_rec_verdict qz_rec_verdict_of(qz_verdict v);

/* One event applied to a record, as it was applied in memory when it happened. */
void qz_progress_apply(qz_answer_rec *r, const qz_store_event *e);

/* Merge what s changed since it last loaded or saved (s->events, s->position_set, and
 * s->p) into disk, the file as read just now under the lock (rules in progress.h).
 * AT_OK or AT_ENOMEM (err set; disk is then half merged: drop it). */
int qz_progress_merge(qz_progress *disk, const qz_store *s, at_error *err);

/* Forget the pending events (after a save). */
void qz_store_events_clear(qz_store *s);

#endif
