/* A question: prompt, answer line, hints, grading and feedback. */
#include "ui/question.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "quiz/lang.h"
#include "quiz/progress.h"
#include "quiz/rubric.h"
#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/editkeys.h"
#include "ui/i18n.h"
#include "ui/tutor.h"
#include "ui/uitext.h"

const ui_help_item ui_question_help[] = {
    {N_("a  i  Enter"), N_("answer: type on the answer line")},
    {N_("a b c …"), N_("on a choice question: answer with that option")},
    {N_("Enter"), N_("while answering: grade the answer")},
    {N_("Esc"), N_("while answering: leave the answer line")},
    {N_("H"), N_("show the next hint")},
    {N_("r"), N_("show the reference answer (after an attempt)")},
    {N_("y  p  n"), N_("after a text answer is graded: your own grade (right, partly, not yet)")},
    {NULL, NULL},
};

int ui_question_init(ui_question *uq, const at_lesson *lesson, const at_question *q)
{
    memset(uq, 0, sizeof *uq);
    uq->lesson = lesson;
    uq->q = q;
    snprintf(uq->id, sizeof uq->id, "%s:%s", lesson->doc->id, q->id);
    ui_lineedit_set(&uq->answer, "");
    at_error err;
    at_error_clear(&err);
    if (qz_bind_lesson_question(lesson, q, &uq->bound, &err) == AT_OK)
        uq->bound_ok = 1;
    else
        snprintf(uq->bind_error, sizeof uq->bind_error, "%s", err.msg);
    return 0;
}

void ui_question_free(ui_question *uq)
{
    if (uq->bound_ok)
        qz_bound_free(&uq->bound);
    if (uq->graded)
        qz_result_free(&uq->result);
    uq->bound_ok = uq->graded = 0;
}

static const char *verdict_text(qz_verdict v)
{
    switch (v) {
    case QZ_CORRECT: return _("✓ Right");
    case QZ_PARTIAL: return _("◐ Partly right");
    case QZ_WRONG: return _("✗ Not right yet");
    case QZ_REVIEW: return _("? Grade this one yourself");
    default: return _("? This answer cannot be read");
    }
}

static crt_role verdict_role(qz_verdict v)
{
    return v == QZ_CORRECT ? CRT_OK : v == QZ_PARTIAL || v == QZ_REVIEW ? CRT_WARN : CRT_WRONG;
}

/* The grader's feedback without a first line that only repeats the verdict the
 * screen already shows ("Not right." under "✗ Not right yet"): qz_result.body_at. */
static const char *feedback_body(const ui_question *uq)
{
    return uq->result.feedback + uq->result.body_at;
}

/* The options the answer chooses, as the grader reads them (qz_choice_chosen); a bit
 * per option, 0 when the answer names no option. */
static unsigned long long chosen_options(const ui_question *uq)
{
    const qz_question *q = &uq->bound.q;
    unsigned long long m = 0;
    if (!uq->bound_ok || !q->n_options)
        return 0;
    int *chosen = calloc(q->n_options, sizeof *chosen);
    const char *bad;
    size_t bad_len;
    if (chosen && !qz_choice_chosen(q, uq->answer.buf, chosen, &bad, &bad_len))
        for (size_t i = 0; i < q->n_options && i < 64; i++)
            m |= chosen[i] ? 1ull << i : 0;
    free(chosen);
    return m;
}

/* An answer graded wrong (or partly) once: the student tries again before the
 * right answer is shown (after a second such try, or with r). A text answer too: its
 * first feedback names the key ideas found and the wrong claims, not the reference
 * (copied back, it would be graded right); an answer the grader could not judge
 * (review) shows the reference at once, to grade oneself by. */
static int first_wrong_try(const ui_question *uq)
{
    qz_verdict v = uq->result.verdict;
    return (v == QZ_WRONG || v == QZ_PARTIAL) && uq->wrong_tries < 2 && !uq->show_reference;
}

static int retry_choice(const ui_question *uq)
{
    return uq->q->options_count && first_wrong_try(uq);
}

static const char *const retry_hint = N_("Press a to try again, or r to see the right answer.");
static const char *const retry_letter = N_("Press a letter to try again, or r to see the right answer.");

/* Options answered by their letter alone (a single answer, a–f: the letters the screens
 * use for nothing else); else the answer line takes the letters. */
static int letters_answer(const ui_question *uq)
{
    return uq->q->options_count > 0 && uq->q->options_count <= 6 &&
           !(uq->q->multiple && *uq->q->multiple);
}

/* The grader's feedback for a first wrong try: the values marked and the slip named, up
 * to what gives the answer away (qz_result.reveal_at: the right answer, the engine's
 * worked steps and the explanation come with r or after a second wrong try). malloc'd;
 * NULL when out of memory. */
static char *feedback_before_retry(const ui_question *uq)
{
    const char *fb = feedback_body(uq);
    size_t n = uq->result.reveal_at - uq->result.body_at;
    while (n && (fb[n - 1] == '\n' || fb[n - 1] == ' '))
        n--;
    return strndup(fb, n);
}

/* The chosen options with their own feedback, and how to go on. */
static void layout_chosen(ui_question *uq, ui_doc *d)
{
    const at_question *q = uq->q;
    for (unsigned i = 0; i < q->options_count && i < 64; i++) {
        if (!(uq->chosen >> i & 1))
            continue;
        const at_option *o = &q->options[i];
        char line[2048];
        if (qz_feedback_has_verdict(o->feedback))   /* "Right: …" says it itself */
            snprintf(line, sizeof line, "%c) %s — %s", 'a' + (int)(i % 26), o->text ? o->text : "",
                     o->feedback);
        else if (o->feedback)
            snprintf(line, sizeof line, _("%c) %s — %s: %s"), 'a' + (int)(i % 26),
                     o->text ? o->text : "", o->correct ? _("right") : _("not right"), o->feedback);
        else
            snprintf(line, sizeof line, "%c) %s — %s", 'a' + (int)(i % 26),
                     o->text ? o->text : "", o->correct ? _("right") : _("not right"));
        ui_doc_flow(d, line, o->correct ? CRT_OK : CRT_WRONG, 2);
    }
    /* wrapped, not cut, at 40 columns */
    ui_doc_text(d, letters_answer(uq) ? _(retry_letter) : _(retry_hint), CRT_DIM, 2);
}

/* The student's own grade of a text answer, or how to give one. */
static void layout_self_grade(ui_question *uq, ui_doc *d)
{
    char b[512];
    if (uq->result.self_assessed) {
        qz_verdict v = uq->result.self_verdict;
        snprintf(b, sizeof b, _("Your own grade: %s (y/p/n change it)"),
                 v == QZ_CORRECT ? _("right") : v == QZ_PARTIAL ? _("partly right") : _("not right yet"));
        ui_doc_text(d, b, verdict_role(v), 2);
    } else if (uq->result.verdict == QZ_REVIEW) {   /* the grader could not judge: the student does */
        ui_doc_text(d, _("Your own grade (after reading the reference): y right · p partly · n not yet"),
                    CRT_DIM, 2);
    } else {   /* graded: the student may still disagree */
        ui_doc_text(d, _("If you think the grade is off, give your own: y right · p partly · n not yet"),
                    CRT_DIM, 2);
    }
}

int ui_question_can_self_grade(const ui_question *uq)
{
    return uq->graded && uq->bound_ok && uq->bound.q.kind == QZ_TEXT &&
           uq->result.verdict != QZ_MALFORMED && !uq->typing;
}

qz_rec_verdict ui_question_standing(const qz_answer_rec *r)
{
    if (!r)
        return QZ_REC_NONE;
    if (!r->attempts)   /* only reviews so far: the student's own grade, or still to give */
        return r->self != QZ_REC_NONE ? r->self
             : r->verdict == QZ_REC_REVIEW ? QZ_REC_REVIEW : QZ_REC_NONE;
    if (r->correct > 0 || r->best >= 1)
        return QZ_REC_CORRECT;
    return r->best > 0 ? QZ_REC_PARTIAL : QZ_REC_WRONG;
}

qz_rec_verdict ui_question_standing_parts(const qz_answer_rec *a, const qz_answer_rec *b,
                                          int has_b)
{
    qz_rec_verdict sa = ui_question_standing(a);
    if (!has_b)
        return sa;
    qz_rec_verdict sb = ui_question_standing(b);
    if (sa == QZ_REC_CORRECT && sb == QZ_REC_CORRECT)
        return QZ_REC_CORRECT;
    if (sa == QZ_REC_NONE && sb == QZ_REC_NONE)
        return QZ_REC_NONE;
    if ((sa == QZ_REC_WRONG || sa == QZ_REC_NONE) && (sb == QZ_REC_WRONG || sb == QZ_REC_NONE))
        return QZ_REC_WRONG;
    return QZ_REC_PARTIAL;
}

void ui_question_layout(ui_question *uq, ui_doc *d, int field_block)
{
    const at_question *q = uq->q;
    char b[512];
    snprintf(b, sizeof b, _("Question %s"), q->id);
    ui_doc_line_add(d, b, CRT_TITLE, 0);
    if (q->prompt)
        ui_doc_text(d, q->prompt, CRT_NORMAL, 0);
    for (unsigned i = 0; i < q->options_count; i++) {
        snprintf(b, sizeof b, "%c) ", 'a' + (int)(i % 26));
        char line[1024];
        snprintf(line, sizeof line, "%s%s", b, q->options[i].text ? q->options[i].text : "");
        ui_doc_text(d, line, CRT_NORMAL, 2);
    }
    if (q->options_count)
        ui_doc_line_add(d, q->multiple && *q->multiple ? _("(answer with the letters, e.g. a c)")
                           : letters_answer(uq) ? _("(press the letter of your answer)")
                                                : _("(answer with the letter)"),
                        CRT_DIM, 2);
    for (unsigned i = 0; i < uq->hints_shown && i < q->hints_count; i++) {
        snprintf(b, sizeof b, _("Hint %u: "), i + 1);
        char line[1024];
        snprintf(line, sizeof line, "%s%s", b, q->hints[i]);
        ui_doc_text(d, line, CRT_WARN, 0);
    }
    ui_doc_blank(d);
    uq->field_line = (int)d->n;
    ui_doc_block(d, field_block, 1);
    if (!uq->bound_ok) {
        snprintf(b, sizeof b, _("This question cannot be graded: %s"), uq->bind_error);
        ui_doc_text(d, b, CRT_WRONG, 0);
    }
    if (uq->graded) {
        ui_doc_blank(d);
        uq->focus_line = (int)d->n;
        ui_doc_line_add(d, verdict_text(uq->result.verdict), verdict_role(uq->result.verdict), 0);
        if (ui_question_can_self_grade(uq))   /* in view with the verdict, above the feedback */
            layout_self_grade(uq, d);
        if (retry_choice(uq)) {
            layout_chosen(uq, d);
        } else if (uq->result.feedback && first_wrong_try(uq)) {
            char *fb = feedback_before_retry(uq);
            ui_doc_flow(d, fb ? fb : "", CRT_NORMAL, 2);
            free(fb);
            ui_doc_text(d, _(retry_hint), CRT_DIM, 2);
        } else if (uq->result.feedback) {
            ui_doc_flow(d, feedback_body(uq), CRT_NORMAL, 2);
            if (uq->result.verdict == QZ_MALFORMED && !uq->typing)
                ui_doc_line_add(d, letters_answer(uq) ? _("Press a letter to try again.")
                                                      : _("Press a to try again."), CRT_DIM, 2);
        }
    }
    if (uq->show_reference) {
        ui_doc_blank(d);
        if (uq->scroll_pending == 2)
            uq->focus_line = (int)d->n;
        ui_doc_line_add(d, _("Reference answer:"), CRT_TITLE, 0);
        if (q->reference)
            ui_doc_text(d, q->reference, CRT_NORMAL, 2);
        else if (q->options_count) {   /* the right options, written out */
            for (unsigned i = 0; i < q->options_count; i++) {
                if (!q->options[i].correct)
                    continue;
                char line[1024];
                snprintf(line, sizeof line, "%c) %s", 'a' + (int)(i % 26),
                         q->options[i].text ? q->options[i].text : "");
                ui_doc_text(d, line, CRT_OK, 2);
            }
        } else if (uq->graded && uq->result.expected)
            ui_doc_text(d, uq->result.expected, CRT_OK, 2);
        if (q->explanation)
            ui_doc_text(d, q->explanation, CRT_DIM, 2);
    }
    ui_doc_blank(d);
    /* H is offered only where the question has a hint */
    int hints = q->hints_count > 0;
    const char *keys = uq->typing ? _("Enter: grade · Esc: leave the answer line")
                       : ui_question_can_self_grade(uq)
                           ? (hints ? _("a: answer · H: hint · r: reference answer · y/p/n: your own grade")
                                    : _("a: answer · r: reference answer · y/p/n: your own grade"))
                       : letters_answer(uq)
                           ? (hints ? _("a, b, …: answer · H: hint · r: reference answer")
                                    : _("a, b, …: answer · r: reference answer"))
                           : hints ? _("a: answer · H: hint · r: reference answer")
                                   : _("a: answer · r: reference answer");
    ui_doc_text(d, keys, CRT_DIM, 0);   /* wrapped on a narrow screen, never cut */
}

int ui_question_scroll(ui_question *uq, int top, int rows)
{
    if (uq->typing) {   /* the line being typed is always in view, whatever the screen's height */
        if (uq->field_line >= top + rows)
            top = uq->field_line - rows + 1 + (rows > 3);
        else if (uq->field_line < top)
            top = uq->field_line;
        return top < 0 ? 0 : top;
    }
    if (!uq->scroll_pending)
        return top;
    uq->scroll_pending = 0;
    int want = uq->focus_line - 3;   /* keep the answer line in view when it fits */
    if (uq->focus_line >= top + rows - 2 || uq->focus_line < top)
        return want < 0 ? 0 : want;
    return top;
}

void ui_question_draw_field(ui_question *uq, ui_app *app, WINDOW *w, ui_rect where)
{
    const char *label = _("Your answer: ");
    int lw = ui_puts(w, where.y, where.x, label, where.w / 2,
                     crt_attr(uq->typing ? CRT_TITLE : CRT_NORMAL));
    int fw = where.w - lw - 1;
    if (fw < 2)
        return;
    ui_fill(w, where.y, where.x + lw, fw, crt_attr(CRT_INPUT));
    if (!uq->typing) {   /* read from its start; a longer answer ends in "…" */
        const char *a = uq->answer.buf;
        size_t n = uq->answer.len;
        if (ui_text_width(a, n) <= fw) {
            ui_put(w, where.y, where.x + lw, a, n, fw, crt_attr(CRT_INPUT));
        } else {
            int cols = 0;
            size_t k = ui_text_clip(a, n, fw - 1, &cols);
            ui_put(w, where.y, where.x + lw, a, k, cols, crt_attr(CRT_INPUT));
            ui_puts(w, where.y, where.x + lw + cols, "…", 1, crt_attr(CRT_INPUT));
        }
        return;
    }
    int cx = ui_lineedit_fit(&uq->answer, fw);
    size_t i = 0;
    int col = 0;
    while (i < uq->answer.len && col < uq->answer.scroll) {
        size_t j = ui_text_next(uq->answer.buf, uq->answer.len, i);
        col += ui_text_gwidth(uq->answer.buf + i, j - i);
        i = j;
    }
    ui_put(w, where.y, where.x + lw + (col - uq->answer.scroll), uq->answer.buf + i,
           uq->answer.len - i, fw, crt_attr(CRT_INPUT));
    if (uq->typing)
        ui_app_cursor(app, where.y, where.x + lw + cx);
}

static void grade(ui_question *uq, ui_app *app)
{
    qz_store *store = ui_tutor_store(app);
    if (!uq->bound_ok) {
        ui_app_message(app, CRT_WRONG, "%s", uq->bind_error);
        return;
    }
    if (uq->graded)
        qz_result_free(&uq->result);
    uq->graded = 0;
    at_error err;
    at_error_clear(&err);
    if (qz_grade(&uq->bound.q, uq->answer.buf, qz_lang_from(ui_tutor_lang(app)), &uq->result, &err) != AT_OK) {
        ui_app_message(app, CRT_WRONG, "%s", err.msg);
        return;
    }
    uq->graded = 1;
    uq->scroll_pending = 1;
    if (uq->result.verdict == QZ_MALFORMED) {   /* not an attempt; the next one starts empty */
        uq->typing = 0;
        uq->new_try = 1;
        return;
    }
    uq->attempts++;
    uq->typing = 0;
    uq->new_try = 1;   /* the next time the answer line opens, it starts empty */
    uq->wrong_tries += uq->result.verdict != QZ_CORRECT && uq->result.verdict != QZ_REVIEW;
    if (uq->q->options_count)
        uq->chosen = chosen_options(uq);
    if (store) {
        if (qz_store_record(store, uq->id, &uq->result, (long long)time(NULL), &err) != AT_OK)
            ui_app_message(app, CRT_WRONG, "%s", err.msg);
        else
            ui_tutor_save(app);
    }
}

/* The student's own verdict on a graded text answer: shown, and stored apart from
 * the automatic one (as `attn-tutor check --self`). */
static void self_grade(ui_question *uq, ui_app *app, qz_verdict v)
{
    qz_store *store = ui_tutor_store(app);
    qz_result_self_assess(&uq->result, v);
    uq->scroll_pending = 1;
    if (!store)
        return;
    at_error err;
    at_error_clear(&err);
    if (qz_store_self_assess(store, uq->id, v, (long long)time(NULL), &err) != AT_OK)
        ui_app_message(app, CRT_WRONG, "%s", err.msg);
    else
        ui_tutor_save(app);
}

static int key_typing(ui_question *uq, ui_app *app, ui_key k)
{
    ui_lineedit *e = &uq->answer;
    if (UI_IS_CHAR(k, '\r') || UI_IS_CHAR(k, '\n') || UI_IS_FN(k, KEY_ENTER)) {
        grade(uq, app);
        return UI_HANDLED | UI_REDRAW;
    }
    if (UI_IS_CHAR(k, 27)) {
        uq->typing = 0;
        return UI_HANDLED | UI_REDRAW;
    }
    if (ui_edit_key(e, k) == UI_EDIT_UNKNOWN)
        return UI_HANDLED;   /* swallow navigation while typing */
    return UI_HANDLED | UI_REDRAW;
}

int ui_question_key(ui_question *uq, ui_app *app, ui_key k)
{
    if (uq->typing)
        return key_typing(uq, app, k);
    if (letters_answer(uq) && !k.fn && k.ch >= 'a' && k.ch <= 'f') {   /* a letter answers */
        if (k.ch >= 'a' + (wint_t)uq->q->options_count) {
            ui_app_message(app, CRT_WARN, _("%c is not an option: press a letter from a to %c."),
                           (int)k.ch, 'a' + (int)uq->q->options_count - 1);
            return UI_HANDLED | UI_REDRAW;
        }
        char letter[2] = {(char)k.ch, '\0'};
        ui_lineedit_set(&uq->answer, letter);
        uq->new_try = 0;
        grade(uq, app);
        return UI_HANDLED | UI_REDRAW;
    }
    if (uq->q->options_count && !k.fn && k.ch >= 'b' && k.ch <= 'z' && k.ch != 'i' && k.ch != 'r' &&
        !strchr("hjklgq", (int)k.ch)) {   /* several answers: the line opens with the letter */
        uq->typing = 1;
        if (uq->new_try)
            ui_lineedit_clear(&uq->answer);
        uq->new_try = 0;
        ui_lineedit_insert(&uq->answer, (wchar_t)k.ch);
        return UI_HANDLED | UI_REDRAW;
    }
    if (UI_IS_CHAR(k, 'a') || UI_IS_CHAR(k, 'i') || UI_IS_CHAR(k, '\r') ||
        UI_IS_CHAR(k, '\n') || UI_IS_FN(k, KEY_ENTER)) {
        uq->typing = 1;
        if (uq->new_try)   /* a new try after a graded one: not the old answer */
            ui_lineedit_clear(&uq->answer);
        uq->new_try = 0;
        return UI_HANDLED | UI_REDRAW;
    }
    if (UI_IS_CHAR(k, 'H')) {
        if (uq->hints_shown < uq->q->hints_count)
            uq->hints_shown++;
        else
            ui_app_message(app, CRT_WARN, "%s", uq->q->hints_count ? _("No more hints.")
                                                                     : _("This question has no hints."));
        return UI_HANDLED | UI_REDRAW;
    }
    if (ui_question_can_self_grade(uq) &&
        (UI_IS_CHAR(k, 'y') || UI_IS_CHAR(k, 'p') || UI_IS_CHAR(k, 'n'))) {
        self_grade(uq, app, UI_IS_CHAR(k, 'y') ? QZ_CORRECT : UI_IS_CHAR(k, 'p') ? QZ_PARTIAL
                                                                                : QZ_WRONG);
        return UI_HANDLED | UI_REDRAW;
    }
    if (UI_IS_CHAR(k, 'r')) {
        if (uq->attempts > 0) {
            uq->show_reference = 1;
            uq->scroll_pending = 2;
        }
        else
            ui_app_message(app, CRT_WARN, "%s", _("Try an answer first; then r shows the reference."));
        return UI_HANDLED | UI_REDRAW;
    }
    return UI_IGNORED;
}
