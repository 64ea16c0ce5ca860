/* The progress store: where the student is, how each question went, and the
 * spaced-repetition boxes, in $XDG_STATE_HOME/attn-tutor/progress.yaml (default
 * ~/.local/state/attn-tutor/progress.yaml).
 *
 * Any number of processes share the file (the tutor, check, practice, each as often
 * as the student likes) and none erases what another recorded. A save takes an
 * exclusive flock on progress.yaml.lock beside the file (waiting while another process
 * holds it; the kernel releases it when a holder dies, even by kill -9), reads the
 * file again, merges into it what this process changed since it last loaded or saved,
 * writes the result and lets go; the lock is held only for that. The merge:
 *   - attempts and correct answers add up: each process adds only the attempts it
 *     made since its last load or save (kept as a list of events), never twice;
 *   - the best score is the higher one; the last verdict and score are the newest
 *     attempt's (by time);
 *   - a question's Leitner box follows the merged history: this process's verdicts,
 *     in order, move the box the file holds (so a wrong answer here sends back a
 *     question another process had moved up);
 *   - a self-assessment made here is kept; one made elsewhere is not undone;
 *   - the position (lesson and step) is the newest by time; a lesson's furthest step
 *     is the higher one and `done` stays done;
 *   - a record the file does not hold (it was set aside as damaged in between) is
 *     kept whole from memory.
 *
 * Saving never loses the previous state: libcyaml writes the YAML into memory, it
 * goes to a temporary file in the same folder, which is fsync'ed, renamed over the
 * old file, and the folder fsync'ed (so after a crash or a kill the file is the old
 * or the new complete state). A file that cannot be read back is moved aside as
 * progress.yaml.damaged-YYYYMMDD-HHMMSS and reported, never overwritten; one that is
 * not a regular file at all (a FIFO, a socket, a folder: see engine/file.h) is not
 * read, not moved and not replaced (s->warning says what it is; nothing is saved). A
 * read-only folder or a full disk gives an error the caller shows; the store stays
 * usable in memory.
 *
 * Question ids in the store are "LESSON:QID" (e.g. "self-test:q3"); practice
 * exercises use "practice:KIND". */
#ifndef AT_QUIZ_PROGRESS_H
#define AT_QUIZ_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"
#include "quiz/quiz.h"

#define QZ_PROGRESS_VERSION 1
/* Ends the message of a save that failed on I/O: true of a session (the tutor),
 * not of a one-shot command, which leaves it out. */
#define QZ_SAVE_RETRY_NOTE " (the tutor keeps your progress in memory and tries again at the next save)"
#define QZ_LEITNER_BOXES 5
/* The lock file, beside progress.yaml (kept: removing a lock file is a race). */
#define QZ_PROGRESS_LOCK "progress.yaml.lock"

/* The verdict as stored; QZ_REC_NONE = never graded that way. */
typedef enum qz_rec_verdict {
    QZ_REC_NONE = 0, QZ_REC_CORRECT, QZ_REC_PARTIAL, QZ_REC_WRONG,
    QZ_REC_REVIEW,            /* the grader could not judge: the student grades it */
} qz_rec_verdict;

/* One question's record. */
typedef struct qz_answer_rec {
    char *id;                 /* "self-test:q3" */
    qz_rec_verdict verdict;   /* last automatic verdict */
    double score;             /* last automatic score, 0 … 1 */
    double best;              /* best automatic score */
    unsigned attempts;        /* graded attempts (malformed answers are not attempts) */
    unsigned correct;         /* attempts graded correct */
    qz_rec_verdict self;      /* the student's own verdict on a text answer; kept apart */
    unsigned box;             /* Leitner box, 1 … QZ_LEITNER_BOXES */
    long long due;            /* Unix time when the question comes back */
    long long last;           /* Unix time of the last attempt */
} qz_answer_rec;

/* How far the student got in one lesson. */
typedef struct qz_lesson_rec {
    char *id;                 /* lesson id */
    unsigned step;            /* furthest step reached, 0-based */
    bool done;                /* reached the end */
} qz_lesson_rec;

typedef struct qz_progress {
    unsigned version;         /* QZ_PROGRESS_VERSION when saved */
    char *lesson;             /* where the student is: lesson id (NULL = nowhere yet) */
    unsigned step;            /* … and step, 0-based */
    long long position_at;    /* Unix time the position was set (0: unknown, older files) */
    qz_lesson_rec *lessons;
    unsigned lessons_count;
    unsigned answers_total;   /* equals answers_count: a cut file is detected */
    qz_answer_rec *answers;
    unsigned answers_count;
} qz_progress;

/* What this process did to one question since it last loaded or saved: a save adds
 * these to what the file holds. */
typedef struct qz_store_event {
    char *id;                 /* the question, "self-test:q3" */
    qz_verdict verdict;       /* correct, partial, wrong, or review (not an attempt) */
    double score;             /* the automatic score (attempts only) */
    bool self;                /* a self-assessment, not an attempt */
    long long at;             /* Unix time */
} qz_store_event;

typedef struct qz_store {
    char *dir;                /* the folder (created on the first save) */
    char *path;               /* dir/progress.yaml */
    qz_progress *p;           /* the state in memory (never NULL after qz_store_open) */
    bool no_save;             /* a file we must not overwrite (newer format, could not move aside) */
    char warning[10240];        /* what happened while loading ("" = nothing): show it once */
    qz_store_event *events;   /* this process's answers not saved yet, in order */
    size_t events_count;
    bool position_set;        /* p's position was set here and is not saved yet */
} qz_store;

/* The default folder: $XDG_STATE_HOME/attn-tutor, else $HOME/.local/state/attn-tutor.
 * Writes into buf; returns buf, or NULL when neither variable is set. */
const char *qz_store_default_dir(char *buf, size_t cap);

/* Open the store in dir (NULL = qz_store_default_dir). A missing file is an empty
 * progress; a damaged one is moved aside (s->warning says where) and progress starts
 * empty. Returns AT_OK (check s->warning), AT_EINVAL when no folder is known,
 * AT_ENOMEM. Close with qz_store_close. */
int qz_store_open(qz_store *s, const char *dir, at_error *err);
void qz_store_close(qz_store *s);

/* Lock, read the file again, merge, save atomically, unlock (see above). On AT_OK,
 * s->p is the merged state (what other processes recorded included) and nothing is
 * pending. A file found damaged now is set aside as at open (s->warning says so) and
 * the state in memory saved. Returns AT_OK; AT_EIO with a message naming the file and
 * the cause ("the disk is full", "read-only", …) — the state in memory and what is
 * pending are unchanged and a later save may succeed; AT_ENOMEM. Waits while another
 * process saves. */
int qz_store_save(qz_store *s, at_error *err);

/* The record of a question, or NULL. */
const qz_answer_rec *qz_store_answer(const qz_store *s, const char *id);

/* Record a graded answer (malformed ones are ignored: not an attempt) and move the
 * question between Leitner boxes. A review (QZ_REVIEW: the grader could not judge) is
 * not an attempt either: it is kept as the last verdict, and only the student's own
 * grade (qz_store_self_assess) moves the question between boxes. now = Unix time. In
 * memory (and pending for the next save) only; call qz_store_save. AT_OK or
 * AT_ENOMEM. */
int qz_store_record(qz_store *s, const char *id, const qz_result *r, long long now,
                    at_error *err);

/* The student's own verdict on a text answer (kept apart from the automatic score). */
int qz_store_self_assess(qz_store *s, const char *id, qz_verdict v, long long now,
                         at_error *err);

/* Where the student is: lesson id and 0-based step, at Unix time now (the newest
 * position wins when processes merge); also raises that lesson's furthest step, and
 * marks it done when done is true. AT_OK or AT_ENOMEM. */
int qz_store_set_position(qz_store *s, const char *lesson, unsigned step, bool done,
                          long long now, at_error *err);

/* A lesson's record, or NULL. */
const qz_lesson_rec *qz_store_lesson(const qz_store *s, const char *lesson);

/* The questions due for review at `now`, lowest box first, then earliest due:
 * up to max ids (borrowed from the store) into ids. Returns how many. */
size_t qz_store_due(const qz_store *s, long long now, const char **ids, size_t max);

/* Leitner boxes: right moves a question up one box, partly right keeps it, wrong
 * sends it back to box 1; it comes back after the box's interval (box 1: one
 * minute, so a wrong answer returns in the same session; then 1, 3, 7, 30 days). */
void qz_leitner_update(qz_answer_rec *r, qz_verdict v, long long now);
long long qz_leitner_interval(unsigned box);

#endif
