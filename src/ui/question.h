/* One question as the lesson player and the quiz screen show it: the prompt, the
 * options of a choice question, an inline answer line, hints on request, the
 * grader's feedback (src/quiz) and the reference answer after an attempt. Every
 * graded attempt is recorded in the progress store and saved. */
#ifndef AT_UI_QUESTION_H
#define AT_UI_QUESTION_H

#include "lesson/lesson.h"
#include "quiz/bind.h"
#include "quiz/progress.h"
#include "quiz/quiz.h"
#include "ui/doc.h"
#include "ui/lineedit.h"
#include "ui/screen.h"

typedef struct ui_question {
    const at_lesson *lesson;      /* borrowed */
    const at_question *q;         /* borrowed */
    char id[160];                 /* "LESSON:QID", the progress store's id */
    qz_bound bound;
    int bound_ok;
    char bind_error[512];
    ui_lineedit answer;
    int typing;                   /* the answer line has the focus */
    qz_result result;
    int graded;                   /* result holds the last grading */
    int attempts;                 /* graded attempts this time (malformed ones excluded) */
    int wrong_tries;              /* graded attempts this time not fully right */
    int new_try;                  /* graded since the answer line was last opened */
    unsigned long long chosen;    /* choice: the options of the graded answer (bit i = option i) */
    unsigned hints_shown;
    int show_reference;
    int scroll_pending;           /* new feedback: the screen scrolls to focus_line */
    int focus_line;               /* doc line of the newest feedback (set by layout) */
    int field_line;               /* doc line of the answer line (set by layout) */
} ui_question;

/* Bind q of lesson for grading. Returns 0 (check bound_ok: a question the grader
 * cannot take is still shown, with the reason). */
int ui_question_init(ui_question *uq, const at_lesson *lesson, const at_question *q);
void ui_question_free(ui_question *uq);

/* Lay the question out into d: prompt, options, hints shown so far, the answer line
 * (a one-line block with id field_block, drawn by ui_question_draw_field), feedback,
 * reference answer. */
void ui_question_layout(ui_question *uq, ui_doc *d, int field_block);

/* The first doc line a screen showing the question at `top` (rows lines high) should
 * show: while the student types, one that keeps the answer line in view; once after
 * each grading or reveal, one that shows the newest feedback; else top. */
int ui_question_scroll(ui_question *uq, int top, int rows);

/* Draw the answer line in `where` (one row); places the text cursor when typing. */
void ui_question_draw_field(ui_question *uq, ui_app *app, WINDOW *w, ui_rect where);

/* Handle a key (returns UI_IGNORED when the question does not use it):
 * a, i, Enter focus the answer line; while typing Enter grades and Esc leaves;
 * H shows the next hint; r the reference answer after an attempt; after a text
 * answer is graded, y p n record the student's own verdict (right, partly, not
 * yet), kept apart from the automatic one as `attn-tutor check --self` does. */
int ui_question_key(ui_question *uq, ui_app *app, ui_key k);

/* 1 when the student may grade the last answer themselves (a graded text answer). */
int ui_question_can_self_grade(const ui_question *uq);

/* Where a question stands from its record: the best result counts (a question
 * once answered right is right). QZ_REC_NONE when never tried; a question answered
 * only with reviews (the grader could not judge) stands as the student's own grade,
 * or QZ_REC_REVIEW until they give one: never as wrong. The home marks and the
 * self-test summary both use it. */
qz_rec_verdict ui_question_standing(const qz_answer_rec *r);

/* Where a question with two parts stands (the seed's Q2: a formula, then what its
 * denominator is for): right when both parts are, not tried when neither was, wrong when
 * each part tried is wrong, else partly right. b NULL: ui_question_standing(a). */
qz_rec_verdict ui_question_standing_parts(const qz_answer_rec *a, const qz_answer_rec *b,
                                          int has_b);

/* Help lines for these keys. */
extern const ui_help_item ui_question_help[];

#endif
