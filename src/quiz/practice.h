/* Practice beyond the five self-test questions: exercises with new numbers each
 * time, made from a seed (so a session can be replayed) and graded like any
 * question, against the engine:
 *   softmax    a hand softmax of 3–6 scores, one or two weights asked
 *   attention  one row of attention (weights or output) from small q, k, v, with √d_k
 *   causal     which keys a causal mask hides from a query (read from the engine's
 *              weights: exactly 0)
 *   heads      the parameter count of multi-head attention (W_Q, W_K, W_V, W_O and
 *              biases; Vaswani et al. 2017 §3.2.2) */
#ifndef AT_QUIZ_PRACTICE_H
#define AT_QUIZ_PRACTICE_H

#include <stdint.h>

#include "engine/error.h"
#include "quiz/quiz.h"

typedef enum qz_practice_kind {
    QZ_P_SOFTMAX, QZ_P_ATTENTION, QZ_P_CAUSAL, QZ_P_HEADS, QZ_P_KINDS
} qz_practice_kind;

/* One generated exercise; q points into the storage below (no allocation but the
 * prompt and explanation). */
typedef struct qz_exercise {
    qz_practice_kind kind;
    uint64_t seed;
    char *prompt;              /* malloc'd, in the language asked for */
    char *explanation;         /* malloc'd; q.explanation points here */
    qz_question q;
    const char *tokens[8];
    double scores[8];
    size_t ask[2];
    double mq[8], mk[8], mv[8];
    double values[8];
    qz_slip slips[4];          /* wrong values with the slip each shows (q.slips) */
} qz_exercise;

/* Make the exercise of `kind` for `seed` (the same seed always gives the same
 * exercise). Returns AT_OK, AT_EINVAL for a bad kind, AT_ENOMEM. Free with
 * qz_exercise_free. */
int qz_practice_make(qz_practice_kind kind, uint64_t seed, qz_lang lang, qz_exercise *out,
                     at_error *err);
void qz_exercise_free(qz_exercise *e);

/* The kind a session uses for its i-th exercise: they take turns. */
qz_practice_kind qz_practice_kind_at(uint64_t seed, unsigned i);

/* "softmax", "attention", "causal", "heads"; parse returns -1 if unknown. */
const char *qz_practice_kind_name(qz_practice_kind k);
int qz_practice_kind_parse(const char *name);

#endif
