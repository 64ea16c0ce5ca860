/* The self-test screen. */
#include "ui/quizview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quiz/bind.h"
#include "ui/crt.h"
#include "ui/doc.h"
#include "ui/draw.h"
#include "ui/i18n.h"
#include "ui/question.h"
#include "ui/tutor.h"

enum { BLOCK_FIELD = 2 };

typedef struct ui_quiz {
    ui_screen base;
    const at_lesson *lesson;       /* the self-test lesson, or NULL */
    const at_question *qs[64];     /* its questions, in order */
    size_t n, cur;                 /* cur == n: the summary */
    /* as the seed numbers them: a question's follow-up is its part (b), not one more
     * question (Q2: the formula, then what √dₖ is for) */
    size_t number[64];             /* 1-based number of qs[i] */
    char part[64];                 /* 'a', 'b', or 0 */
    size_t numbered;               /* how many numbers: the questions, parts counted once */
    ui_question question;
    int has_question;
    ui_doc doc;
    int top;
} ui_quiz;

static const ui_help_item quiz_help[] = {
    {N_("→ l  PgDn"), N_("next question (after the last: the score)")},
    {N_("← h  PgUp"), N_("previous question")},
    {N_("↑ ↓  j k"), N_("scroll")},
    {N_("a  i  Enter"), N_("answer: type on the answer line, Enter grades")},
    {N_("H"), N_("show the next hint")},
    {N_("r"), N_("show the reference answer (after an attempt)")},
    {N_("y  p  n"), N_("after a text answer is graded: your own grade (right, partly, not yet)")},
    {NULL, NULL},
};

static void enter(ui_quiz *z)
{
    if (z->has_question)
        ui_question_free(&z->question);
    z->has_question = 0;
    z->top = 0;
    if (z->cur < z->n) {
        ui_question_init(&z->question, z->lesson, z->qs[z->cur]);
        z->has_question = 1;
    }
}

/* Opened directly (attn-tutor quiz): no home screen under it, q quits. */
static int alone(const ui_quiz *z)
{
    return z->base.app->depth <= 1;
}

static const char *quiz_title(ui_screen *s)
{
    return _("Self-test");
}

static const char *quiz_status(ui_screen *s)
{
    ui_quiz *z = (ui_quiz *)s;
    if (z->has_question && z->question.typing)
        return _("answering · Enter: grade · Esc: leave");
    if (z->has_question && ui_question_can_self_grade(&z->question))
        return alone(z) ? _("y/p/n: your own grade · ←/→: question · q: quit")
                        : _("y/p/n: your own grade · ←/→: question · q: back");
    if (!z->has_question)   /* the summary: no answer, no hint here */
        return alone(z) ? _("←: the questions · q: quit") : _("←: the questions · q: back");
    return alone(z) ? _("a: answer · H: hint · r: reference · ←/→: question · q: quit")
                    : _("a: answer · H: hint · r: reference · ←/→: question · q: back");
}

static int quiz_typing(ui_screen *s)
{
    ui_quiz *z = (ui_quiz *)s;
    return z->has_question && z->question.typing;
}

/* "Q2 (b)", "Q3". */
static void question_label(const ui_quiz *z, size_t i, char *b, size_t n)
{
    if (z->part[i])
        snprintf(b, n, _("Q%zu (%c)"), z->number[i], z->part[i]);
    else
        snprintf(b, n, _("Q%zu"), z->number[i]);
}

static void layout_summary(ui_quiz *z, ui_doc *d)
{
    qz_store *store = ui_tutor_store(z->base.app);
    char b[512], id[160];
    size_t right = 0, tried = 0;
    ui_doc_line_add(d, _("Your score"), CRT_TITLE, 0);
    ui_doc_blank(d);
    for (size_t i = 0; i < z->n; i++) {
        snprintf(id, sizeof id, "%s:%s", z->lesson->doc->id, z->qs[i]->id);
        const qz_answer_rec *r = store ? qz_store_answer(store, id) : NULL;
        const char *v = _("not tried");
        crt_role role = CRT_DIM;
        qz_rec_verdict st = ui_question_standing(r);   /* the best result, as the home counts */
        if (st != QZ_REC_NONE) {
            tried++;
            if (st == QZ_REC_CORRECT) {
                v = _("right");
                role = CRT_OK;
                right++;
            } else if (st == QZ_REC_PARTIAL) {
                v = _("partly right");
                role = CRT_WARN;
            } else if (st == QZ_REC_REVIEW) {
                v = _("to grade yourself");
                role = CRT_WARN;
            } else {
                v = _("not right yet");
                role = CRT_WRONG;
            }
        }
        char own[128] = "";
        if (st != QZ_REC_NONE && r->self != QZ_REC_NONE && r->attempts)
            snprintf(own, sizeof own, _(" (your own grade: %s)"),
                     r->self == QZ_REC_CORRECT ? _("right")
                     : r->self == QZ_REC_PARTIAL ? _("partly right") : _("not right yet"));
        char label[32];
        question_label(z, i, label, sizeof label);
        snprintf(b, sizeof b, "%-7s %s%s", label, v, own);
        ui_doc_line_add(d, b, role, 2);
    }
    ui_doc_blank(d);
    snprintf(b, sizeof b, _("%zu of %zu answers right, %zu tried."), right, z->n, tried);
    ui_doc_line_add(d, b, CRT_TITLE, 0);
    ui_doc_line_add(d, alone(z) ? _("← goes back to the questions; q quits.")
                                : _("← goes back to the questions; q to the home screen."),
                    CRT_DIM, 0);
}

static void draw_block(void *ctx, WINDOW *w, int id, int row0, ui_rect where)
{
    ui_quiz *z = ctx;
    if (id == BLOCK_FIELD && z->has_question)
        ui_question_draw_field(&z->question, z->base.app, w, where);
}

static void quiz_draw(ui_screen *s, WINDOW *w, ui_rect r)
{
    ui_quiz *z = (ui_quiz *)s;
    ui_rect body = {r.y + 2, r.x + 1, r.h - 2, r.w - 2};
    ui_doc_reset(&z->doc, body.w);
    if (!z->lesson) {
        ui_puts(w, r.y + 1, r.x + 1, _("No self-test lesson was found."), r.w - 2, crt_attr(CRT_WRONG));
        return;
    }
    char b[128];
    if (z->cur < z->n && z->part[z->cur])
        snprintf(b, sizeof b, _("question %zu of %zu, part %c"), z->number[z->cur], z->numbered,
                 z->part[z->cur]);
    else if (z->cur < z->n)
        snprintf(b, sizeof b, _("question %zu of %zu"), z->number[z->cur], z->numbered);
    else
        snprintf(b, sizeof b, "%s", _("summary"));
    ui_puts(w, r.y, r.x + 1, b, r.w - 2, crt_attr(CRT_TITLE));
    if (z->has_question)
        ui_question_layout(&z->question, &z->doc, BLOCK_FIELD);
    else
        layout_summary(z, &z->doc);
    if (z->has_question)
        z->top = ui_question_scroll(&z->question, z->top, body.h);
    int max_top = (int)z->doc.n - body.h;
    if (z->top > max_top)
        z->top = max_top;
    if (z->top < 0)
        z->top = 0;
    ui_doc_draw(w, body, &z->doc, z->top, draw_block, z);
    if (z->top + body.h < (int)z->doc.n)
        ui_put_right(w, r.y, r.x + r.w / 2, _("↓ more (j)"), r.w / 2 - 1, crt_attr(CRT_WARN));
}

static int quiz_key(ui_screen *s, ui_key k)
{
    ui_quiz *z = (ui_quiz *)s;
    if (z->has_question) {
        int f = ui_question_key(&z->question, s->app, k);
        if (f != UI_IGNORED)
            return f;
    }
    if (UI_IS_FN(k, KEY_RIGHT) || UI_IS_CHAR(k, 'l') || UI_IS_FN(k, KEY_NPAGE)) {
        if (z->cur < z->n) {
            z->cur++;
            enter(z);
        }
    } else if (UI_IS_FN(k, KEY_LEFT) || UI_IS_CHAR(k, 'h') || UI_IS_FN(k, KEY_PPAGE)) {
        if (z->cur > 0) {
            z->cur--;
            enter(z);
        }
    } else if (UI_IS_FN(k, KEY_DOWN) || UI_IS_CHAR(k, 'j')) {
        z->top++;
    } else if (UI_IS_FN(k, KEY_UP) || UI_IS_CHAR(k, 'k')) {
        z->top = z->top > 0 ? z->top - 1 : 0;
    } else if (UI_IS_CHAR(k, 'q') || UI_IS_CHAR(k, 27)) {
        return UI_BACK;
    } else {
        return UI_IGNORED;
    }
    return UI_HANDLED | UI_REDRAW;
}

static void quiz_free(ui_screen *s)
{
    ui_quiz *z = (ui_quiz *)s;
    if (z->has_question)
        ui_question_free(&z->question);
    ui_doc_free(&z->doc);
    free(z);
}

static const ui_screen_ops quiz_ops = {
    .draw = quiz_draw,
    .key = quiz_key,
    .typing = quiz_typing,
    .title = quiz_title,
    .status = quiz_status,
    .free = quiz_free,
    .help = quiz_help,
};

ui_screen *ui_quiz_new(ui_app *app)
{
    ui_quiz *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->base.ops = &quiz_ops;
    z->base.app = app;
    z->lesson = at_lesson_set_find(ui_tutor_lessons(app), QZ_SELF_TEST_LESSON);
    if (z->lesson) {
        const at_lesson_doc *doc = z->lesson->doc;
        for (unsigned i = 0; i < doc->steps_count && z->n < 64; i++)
            if (doc->steps[i].question)
                z->qs[z->n++] = doc->steps[i].question;
        for (size_t i = 0; i < z->n; i++) {
            const at_question *parent = at_lesson_part_of(z->lesson, z->qs[i]);
            size_t j = 0;
            while (parent && j < i && z->qs[j] != parent)
                j++;
            if (parent && j < i) {   /* the second part of question j */
                z->number[i] = z->number[j];
                z->part[j] = 'a';
                z->part[i] = 'b';
            } else {
                z->number[i] = ++z->numbered;
            }
        }
    }
    enter(z);
    return &z->base;
}
