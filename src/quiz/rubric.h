/* Text rubrics: which key ideas a written answer states, and which misconceptions
 * (the statement matcher's rules are in quiz/statement.h, the verdict's at
 * qz_grade_text in quiz/textgrade.c). Case, width, spacing, inflection, small typos
 * and Traditional characters do not matter (quiz/textnorm.h): "Step-by-step" matches
 * "step by step", "距离为1" matches "距离为 1", "saturation" matches "saturates". */
#ifndef AT_QUIZ_RUBRIC_H
#define AT_QUIZ_RUBRIC_H

#include <stddef.h>

#include "engine/error.h"
#include "quiz/quiz.h"

/* How one concept fared in an answer. */
typedef struct qz_judgement {
    int found;                       /* 1: the concept is stated */
    const qz_contradiction *wrong;   /* non-NULL: a clause states this contradiction
                                      * (then found is 0); borrowed from the rubric */
} qz_judgement;

/* Judge every concept (an older contradiction it belongs to, when stated, makes it
 * wrong).
 * out [n_rubric] is filled in; *n_found counts the concepts found. Returns AT_OK,
 * AT_EUTF8 for invalid UTF-8 in the answer, AT_ENOMEM. */
int qz_rubric_judge(const qz_concept *rubric, size_t n_rubric, const char *answer,
                    qz_judgement *out, size_t *n_found, at_error *err);

/* found [n_rubric] out: 1 where the concept was recognised. *n_found out.
 * Returns AT_OK, AT_EUTF8 for invalid UTF-8 in the answer, AT_ENOMEM. */
int qz_rubric_match(const qz_concept *rubric, size_t n_rubric, const char *answer,
                    unsigned char *found, size_t *n_found, at_error *err);

/* The student grades a text answer themselves (after reading the reference):
 * sets self_verdict and self_score (1, 0.5, 0) and marks the result self-assessed;
 * the automatic verdict and score are left as they are (progress keeps both). */
void qz_result_self_assess(qz_result *r, qz_verdict v);

#endif
