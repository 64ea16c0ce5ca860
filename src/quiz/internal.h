/* Shared between the grader's files; not for other modules. */
#ifndef AT_QUIZ_INTERNAL_H
#define AT_QUIZ_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "quiz/answer.h"
#include "quiz/quiz.h"

/* What a numeric question expects, computed by the engine, with what the
 * diagnosis needs (the row of scores and weights the asked values come from). */
typedef struct qz_numctx {
    const qz_question *q;
    qz_lang lang;
    size_t n;               /* values asked */
    double *want;           /* [n] exact expected values */
    double *tol;            /* [n] tolerance of each */
    const char **names;     /* [n] token of each slot, or NULL */
    int decimals;           /* decimals asked, -1 = not given */
    size_t row_n;           /* softmax / attention: the weights of the row */
    double *row_s;          /* [row_n] scaled scores (-inf masked) */
    double *row_w;          /* [row_n] weights */
    size_t *slot_of;        /* [row_n] slot asking for each row entry, or (size_t)-1 */
    float *att_w, *att_out, *att_raw, *att_scaled;   /* attention: all rows */
} qz_numctx;

int qz_numctx_build(qz_numctx *c, const qz_question *q, qz_lang lang, at_error *err);

/* The sums and extreme of the row's scores (numclaims.c): what worked steps, sums and a
 * method written out in an answer are checked against. */
typedef struct qz_row_sums {
    double top;       /* the largest score */
    double exps;      /* Σ exp(s) */
    double shifted;   /* Σ exp(s − top): the stable softmax's denominator */
    double scores;    /* Σ s */
} qz_row_sums;
qz_row_sums qz_row_sums_of(const qz_numctx *c);

/* What a numeric answer (UTF-8) states beside the values asked, checked against c's row
 * (numclaims.c): a weight given wrongly for a token not asked (among nums, the values the
 * answer ends on), a wrong token named as getting the most or the least weight, a sum
 * the working has no step for (among all its values). Writes one line per false claim to
 * fb; returns how many. */
size_t qz_false_claims(const qz_numctx *c, const qz_numbers *all, const qz_numbers *nums,
                       const char *answer, FILE *fb);
void qz_numctx_free(qz_numctx *c);

/* The engine on an attention question's q/k/v with `scale` (<= 0: 1/√d_k):
 * w [n_q × n_k], out [n_q × d_v], raw and scaled [n_q × n_k] (may be NULL). */
int qz_attention_run(const qz_question *q, double scale, float *w, float *out, float *raw,
                     float *scaled, at_error *err);

/* Is x within the tolerance of the expected value of slot j? */
int qz_within(const qz_numctx *c, size_t j, double x);

/* How near a value must be to another quantity to be taken for it (a mistake's value,
 * another token's weight, a rounding slip): half a unit of the last decimal asked when
 * the question gives no tolerance of its own, so that it rounds like it (the default
 * tolerance, one unit, is the room a right answer has, not the mark of a mistake); else
 * the question's tolerance of slot j. */
double qz_near_tol(const qz_numctx *c, size_t j);

/* A recognised mistake whose values match every wrong slot; writes its feedback.
 *   given [n] values, dec [n] decimals written (-1 computed), ok [n] 1 right, 0 wrong,
 *   2 no value. */
qz_mistake qz_diagnose(const qz_numctx *c, const double *given, const int *dec, const int *ok,
                       FILE *fb);

/* Slot j as a rounding slip (its value against want[j] at the decimals written,
 * dec[j]): 1 cut off instead of rounded, 2 rounded right but to fewer decimals than
 * asked, 0 neither. */
int qz_rounding_slip(const qz_numctx *c, size_t j, const double *given, const int *dec);

/* A right value cut off instead of rounded (0.13 for 0.1384 at 2 decimals, within the
 * tolerance): "下雨: 0.13 looks cut off …", one line per such slot (ok[j] == 1). */
void qz_note_rounding(const qz_numctx *c, const double *given, const int *dec, const int *ok,
                      FILE *fb);

/* The steps of the right computation with the engine's numbers. */
void qz_walk_steps(const qz_numctx *c, FILE *fb);

/* Print a number for a person: `decimals` places, or with QZ_NUM_AUTO integers
 * plainly and others with 4 decimals, or with QZ_NUM_SHORT up to 6 significant digits. */
#define QZ_NUM_AUTO (-1)
#define QZ_NUM_SHORT (-2)
void qz_put_num(FILE *f, double x, int decimals);

/* The feedback written to fb so far, in bytes (to set qz_result.body_at / reveal_at). */
size_t qz_fb_pos(FILE *fb);

int qz_grade_numeric(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                     FILE *fb, at_error *err);
int qz_grade_choice(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                    FILE *fb, at_error *err);
/* A formula answer (formula_grade.c). The verdict is the formula's: no mistake correct
 * (1), one slip partial (0.5), two slips or a mistake of QZ_F_FATAL wrong (0); words only
 * or a list of symbols are wrong, an empty or unreadable formula malformed. Words written
 * beside the formula are read for what they say of the formula itself ("the softmax is
 * applied to V" makes it wrong, "按列" is a slip of the axis); what they say of √d_k is
 * graded by q->follow_up's grader (q2b) and reported in the feedback, and does not change
 * the verdict: q2 is marked on the formula, the explanation is q2b's. */
int qz_grade_formula(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                     FILE *fb, at_error *err);
int qz_grade_text(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                  FILE *fb, at_error *err);

/* What a text grade r found stated wrongly: the ✗ lines of the first part of its
 * feedback that has any (after the ideas found, before those missing), into fb; nothing
 * unless r is wrong or partly right for a misconception or a false claim of the lesson.
 * For the words beside a formula or beside values, graded by a text question. */
void qz_print_stated_wrongly(const qz_result *r, FILE *fb);
/* A code answer (code_grade.c; quiz/code.h judges it): what the canonical lines compute
 * correct (1); stopping at a value they compute on the way partial (0.5); another result
 * wrong (0), told what it breaks (the question's mistake it makes, a shape, NaN, the error
 * PyTorch would raise); code the evaluator cannot read malformed, with what and where. */
int qz_grade_code(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                  FILE *fb, at_error *err);

#endif
