/* Questions of loaded lessons (src/lesson) as the grader's qz_question, and the
 * question ids of the command line: "q1" … "q5" name the self-test lesson's
 * questions, "LESSON:QID" any other. */
#ifndef AT_QUIZ_BIND_H
#define AT_QUIZ_BIND_H

#include "lesson/lesson.h"
#include "quiz/quiz.h"

#define QZ_SELF_TEST_LESSON "self-test"

/* A qz_question with the arrays it needs converted from the lesson's cells
 * (scores and matrices as numbers, asked tokens as indices). Text (prompts,
 * tokens, rubric) is borrowed from the lesson, which must outlive it. */
typedef struct qz_bound {
    qz_question q;
    struct qz_bound *follow_up;      /* a formula question's `follow_up`, bound; or NULL */
    struct qz_bound *beside;         /* a value question's lesson misconceptions; or NULL */
    double *scores, *values, *mq, *mk, *mv;
    size_t *ask;
    unsigned char *allowed;
    qz_option *options;
    qz_slip *slips;                  /* a numeric question's `slips` */
    qz_gloss *glosses;               /* one per word of every `glosses` entry */
    struct qz_text_bound *text;      /* a text question's rubric (bindtext.c) */
    qz_code_mistake *code_mistakes;  /* a code question's `mistakes` */
} qz_bound;

/* Convert one lesson question. Returns AT_OK, AT_EINVAL (err names the field, e.g.
 * "asked token 'x' is not among the tokens"), AT_ENOMEM. Free with qz_bound_free. */
int qz_bind_question(const at_question *src, qz_bound *out, at_error *err);
void qz_bound_free(qz_bound *b);

/* A text question's rubric and misconceptions into b->q (bindtext.c), then the n_shared
 * misconceptions of its lesson (`misconceptions` at the top of the lesson: false claims
 * beside any answer; borrowed like the rest, may be NULL) but those the question words
 * itself (one of its own has the same name); AT_OK or AT_ENOMEM.
 * qz_bound_free frees them (qz_bind_rubric_free). */
int qz_bind_rubric(const at_question *src, const at_misconception *shared, unsigned n_shared,
                   qz_bound *b, at_error *err);
void qz_bind_rubric_free(qz_bound *b);

/* qz_bind_question for a question of `lesson`, with what it names there: a text
 * question gets the lesson's own misconceptions after its own, a value question
 * (softmax, numeric, attention) gets them as out->q.beside (the words beside its values
 * are read for them), and a formula
 * question's `follow_up` (the text question that grades words written beside the
 * formula) is bound too, the same way, and set as out->q.follow_up. lesson may be NULL (then nothing
 * is looked up). Same returns; a follow_up that names no text question of the lesson is
 * AT_EINVAL (lint reports it too). */
int qz_bind_lesson_question(const at_lesson *lesson, const at_question *src, qz_bound *out,
                            at_error *err);

/* Split a command-line id: "q3" → ("self-test", "q3"); "masking:q2" → ("masking", "q2").
 * Writes into lesson / question (cap bytes each); -1 if a part is empty or too long. */
int qz_split_id(const char *id, char *lesson, char *question, size_t cap);

/* Find a question in a set of lessons by command-line id: LESSON:QID, or a bare QID of the
 * self-test lesson, else of the one lesson that has it (NULL when two lessons do: lint
 * warns of that). *lesson (may be NULL) gets the lesson found, or the lesson named when
 * the question is not in it. NULL if absent. */
const at_question *qz_find_question(const at_lesson_set *set, const char *id,
                                    const at_lesson **lesson);

#endif
