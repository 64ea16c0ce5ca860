/* The text rubric matcher: which key concepts a written answer states, and which it
 * states wrongly. A concept is recognised by its synonyms in Chinese and English, or by
 * groups of words that must meet in one clause (`together`); a contradiction marks it
 * wrong (rules at qz_concept in quiz.h). Case, width and punctuation inside a phrase do
 * not matter: "Step-by-step" matches "step by step", "距离为1" matches "距离为 1",
 * full-width letters match ASCII. */
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

/* Judge every concept clause by clause (the rules are at qz_concept in quiz.h).
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
