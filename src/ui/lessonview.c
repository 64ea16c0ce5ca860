/* The lesson player. */
#include "ui/lessonview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/attnview.h"
#include "ui/computeview.h"
#include "ui/crt.h"
#include "ui/doc.h"
#include "ui/draw.h"
#include "ui/headsgrid.h"
#include "ui/i18n.h"
#include "ui/predict.h"
#include "ui/scopetext.h"
#include "ui/question.h"
#include "ui/route.h"
#include "ui/tutor.h"
#include "ui/uitext.h"

enum { BLOCK_LAB = 1, BLOCK_FIELD = 2, BLOCK_PREDICT_FIELD = 3, BLOCK_PREDICT_KEYS = 4 };

typedef struct ui_lesson {
    ui_screen base;
    size_t index;                /* lesson in the tutor's set */
    unsigned step;
    int top;                     /* first doc line shown */
    int page;                    /* rows of the step's body at the last draw */
    int to_end;                  /* show the end of the step at the next draw (PgUp back) */
    ui_doc doc;
    /* state of the current step */
    ui_question question;
    int has_question;
    ui_attn attn;
    ui_heatmap map;
    int has_lab;
    ui_heads_grid grid;          /* a lab step with `head: all`: every head side by side */
    int has_grid;
    at_compute_result timed;     /* a `time: true` compute step, run here */
    int has_timed;
    double timed_ms;
    char step_error[512];
    /* predict, then reveal (ui/predict.h) */
    ui_predict pred;
    int has_pred;
    ui_predict_memo *memo;       /* [steps] what each step's prediction came to, this visit */
    size_t memo_lesson;          /* the lesson memo belongs to; (size_t)-1 = none */
    float *lab_view;             /* a lab step's weights as its prediction reads them
                                    (the mean of the heads for `head: all`) */
} ui_lesson;

static const ui_help_item lesson_help[] = {
    {N_("→ l"), N_("next step (at the end: the next lesson)")},
    {N_("← h"), N_("previous step")},
    {N_("PgDn  Space"), N_("next page of a long step; at its end, the next step")},
    {N_("PgUp"), N_("previous page; at the top of a step, the end of the one before")},
    {N_("Home  End"), N_("first / last step")},
    {N_("↑ ↓  j k"), N_("scroll a long step")},
    {N_("Enter"), N_("on a lab step: open the sentence in the lab")},
    {N_("a  H  r"), N_("on a question: answer, hint, reference answer")},
    {N_("y  p  n"), N_("after a text answer is graded: your own grade (right, partly, not yet)")},
    {NULL, NULL},
};

/* Opened directly (attn-tutor lesson ID): no home screen under it, q quits. */
static int alone(const ui_lesson *l)
{
    return l->base.app->depth <= 1;
}

static const at_lesson *lesson_of(ui_lesson *l)
{
    return ui_tutor_lessons(l->base.app)->lessons[l->index];
}

static const at_step *step_of(ui_lesson *l)
{
    return &lesson_of(l)->doc->steps[l->step];
}

static void free_step_state(ui_lesson *l)
{
    if (l->has_question)
        ui_question_free(&l->question);
    ui_attn_free(&l->attn);
    if (l->has_timed)
        at_compute_result_free(&l->timed);
    free(l->lab_view);
    l->lab_view = NULL;
    l->has_question = l->has_lab = l->has_timed = l->has_pred = 0;
    l->step_error[0] = '\0';
}

static int lab_focus(const ui_attn *a, const char *focus)
{
    if (!focus || a->run.n == 0)
        return 0;
    long i = at_token_index(a->labels, a->run.n, focus);
    return i < 0 ? 0 : (int)i;
}

/* The memo of the lesson's predictions, made when a lesson is entered. */
static ui_predict_memo *memo_of(ui_lesson *l)
{
    const at_lesson *ls = lesson_of(l);
    if (l->memo_lesson != l->index) {
        free(l->memo);
        l->memo = calloc(ls->doc->steps_count ? ls->doc->steps_count : 1, sizeof *l->memo);
        l->memo_lesson = l->memo ? l->index : (size_t)-1;
    }
    return l->memo ? &l->memo[l->step] : NULL;
}

/* A lab step's weights as an at_compute_result (what its prediction reads): the shown
 * layer's head, or the mean of its heads for `head: all`. */
static int lab_result(ui_lesson *l, at_compute_result *r)
{
    const ui_attn *a = &l->attn;
    size_t n = a->run.n, H = ui_attn_heads(a);
    if (n == 0 || H == 0)
        return -1;
    memset(r, 0, sizeof *r);
    r->n_q = r->n_k = n;
    r->heads = 1;
    r->tokens = r->key_tokens = a->labels;
    if (a->head != UI_HEAD_ALL) {
        r->weights = (float *)a->run.weights[a->layer] + ui_attn_index(a, a->head, 0, 0);
        return 0;
    }
    l->lab_view = calloc(n * n, sizeof *l->lab_view);
    if (!l->lab_view)
        return -1;
    for (size_t h = 0; h < H; h++)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                l->lab_view[i * n + j] += a->run.weights[a->layer][ui_attn_index(a, (int)h, i, j)] / (float)H;
    r->weights = l->lab_view;
    return 0;
}

/* The step's `predict`, answered from what the step computed. */
static void enter_prediction(ui_lesson *l)
{
    const at_step *s = step_of(l);
    const at_predict *p = s->compute ? s->compute->predict : s->lab ? s->lab->predict : NULL;
    if (!p)
        return;
    at_compute_result view, *r = NULL;
    if (s->compute)
        r = lesson_of(l)->calc[l->step].compute ? lesson_of(l)->calc[l->step].compute
            : l->has_timed ? &l->timed : NULL;
    else if (l->has_lab && lab_result(l, &view) == 0)
        r = &view;
    if (!r)
        return;   /* the step could not be computed: its error is shown */
    ui_predict_init(&l->pred, p, r, s->lab ? s->lab->focus : NULL, memo_of(l));
    l->has_pred = 1;
}

static void enter_step(ui_lesson *l)
{
    const at_model *model = ui_tutor_model(l->base.app);
    const at_step *s = step_of(l);
    free_step_state(l);
    l->top = 0;
    switch (at_step_kind_of(s)) {
    case AT_STEP_QUESTION:
        ui_question_init(&l->question, lesson_of(l), s->question);
        l->has_question = 1;
        break;
    case AT_STEP_LAB: {
        const at_lab *lab = s->lab;
        at_model_info info;
        at_model_get_info(model, &info);
        memset(&l->attn, 0, sizeof l->attn);
        l->attn.layer = lab->layer ? (int)*lab->layer - 1 : (int)info.n_layers - 1;
        l->attn.head = lab->head && strcmp(lab->head, "all") ? atoi(lab->head) - 1
                       : lab->head ? UI_HEAD_ALL : (int)info.coref_head;
        if (!lab->layer && !lab->head)
            l->attn.layer = (int)info.coref_layer;
        l->attn.causal = lab->mask == AT_LAB_MASK_CAUSAL;
        l->attn.unscaled = lab->scale == AT_OFF;
        ui_attn_compute(&l->attn, model, lab->sentence ? lab->sentence : "");
        memset(&l->map, 0, sizeof l->map);
        l->map.cur_row = l->map.cur_col = lab_focus(&l->attn, lab->focus);
        ui_attn_heatmap(&l->attn, l->attn.head == UI_HEAD_ALL ? 0 : l->attn.head, &l->map);
        l->has_lab = 1;
        break;
    }
    case AT_STEP_COMPUTE:
        if (!lesson_of(l)->calc[l->step].compute) {
            at_error err;
            at_error_clear(&err);
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            if (at_compute_run(s->compute, &l->timed, &err) == AT_OK) {
                clock_gettime(CLOCK_MONOTONIC, &b);
                l->timed_ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
                l->has_timed = 1;
            } else {
                snprintf(l->step_error, sizeof l->step_error, "%s", err.msg);
            }
        }
        break;
    default:
        break;
    }
    enter_prediction(l);
}

/* Save where the student is (every step change). */
static void save_position(ui_lesson *l)
{
    qz_store *store = ui_tutor_store(l->base.app);
    if (!store)
        return;
    const at_lesson *ls = lesson_of(l);
    int done = l->step + 1 >= ls->doc->steps_count;
    at_error err;
    at_error_clear(&err);
    if (qz_store_set_position(store, ls->doc->id, l->step, done, (long long)time(NULL),
                              &err) != AT_OK)
        ui_app_message(l->base.app, CRT_WRONG, "%s", err.msg);
    else
        ui_tutor_save(l->base.app);
}

static void go_step(ui_lesson *l, long step)
{
    const at_lesson *ls = lesson_of(l);
    if (step < 0)
        step = 0;
    if (step >= (long)ls->doc->steps_count)
        step = (long)ls->doc->steps_count - 1;
    if ((unsigned)step != l->step) {
        l->step = (unsigned)step;
        enter_step(l);
    }
    save_position(l);
}

static void next(ui_lesson *l)
{
    const at_lesson *ls = lesson_of(l);
    if (l->step + 1 < ls->doc->steps_count) {
        go_step(l, l->step + 1);
        return;
    }
    save_position(l);   /* the last step: the lesson is done */
    if (l->index + 1 < ui_tutor_lessons(l->base.app)->count) {
        free_step_state(l);
        l->index++;
        l->step = 0;
        enter_step(l);
        save_position(l);
        ui_app_message(l->base.app, CRT_OK, "%s", _("Lesson done. This is the next one."));
    } else {
        ui_app_message(l->base.app, CRT_OK, "%s", alone(l) ? _("That was the last lesson. q: quit.")
                                                            : _("That was the last lesson. q: back home."));
    }
}

/* ---- layout of each step kind ---- */

static void layout_compute(ui_lesson *l, ui_doc *d, const at_compute_result *cr)
{
    const at_compute *c = step_of(l)->compute;
    if (!l->has_pred) {
        ui_compute_layout(d, c, cr);
    } else if (ui_predict_pending(&l->pred)) {   /* the prompt, then what the engine is given */
        ui_compute_layout_header(d, cr);
        ui_predict_layout(&l->pred, d, BLOCK_PREDICT_FIELD, BLOCK_PREDICT_KEYS);
        ui_doc_line_add(d, _("What the engine is given:"), CRT_DIM, 0);
        ui_doc_blank(d);
        ui_compute_layout_inputs(d, c, cr);
        return;   /* (a timed block's time is shown with its result) */
    } else {
        ui_compute_layout_header(d, cr);
        ui_predict_layout(&l->pred, d, BLOCK_PREDICT_FIELD, BLOCK_PREDICT_KEYS);
        ui_compute_layout_results(d, c, cr);
        ui_doc_line_add(d, _("How the engine got there:"), CRT_DIM, 0);
        ui_doc_blank(d);
        ui_compute_layout_inputs(d, c, cr);
    }
    if (l->has_timed) {
        char line[256];
        snprintf(line, sizeof line, _("Computed just now by the engine in %.3f ms."), l->timed_ms);
        ui_doc_line_add(d, line, CRT_DIM, 0);
    }
}

static void layout_table(ui_doc *d, const at_table *t)
{
    size_t nc = t->header_count;
    for (unsigned r = 0; r < t->rows.rows_count; r++)
        if (t->rows.rows[r].cells_count > nc)
            nc = t->rows.rows[r].cells_count;
    if (nc == 0 || nc > 64)
        return;
    const char **cells = calloc((t->rows.rows_count + 1) * nc, sizeof *cells);
    const char ***rows = calloc(t->rows.rows_count + 1, sizeof *rows);
    if (!cells || !rows)
        goto out;
    for (unsigned r = 0; r < t->rows.rows_count; r++) {
        rows[r] = &cells[(r + 1) * nc];
        for (size_t c = 0; c < nc; c++)
            rows[r][c] = c < t->rows.rows[r].cells_count ? t->rows.rows[r].cells[c] : "";
    }
    for (size_t c = 0; c < nc; c++)
        cells[c] = c < t->header_count ? t->header[c] : "";
    ui_doc_table(d, t->header_count ? cells : NULL, nc, (const char *const *const *)rows,
                 t->rows.rows_count, 0);
out:
    free(cells);
    free(rows);
}

/* Code lines as written; a line wider than the document goes on under "↪" (never cut
 * off: a clipped line of code reads as another line of code). */
static void layout_code(ui_doc *d, const at_code *c)
{
    if (c->lang)
        ui_doc_line_add(d, c->lang, CRT_DIM, 2);
    const char *p = c->source ? c->source : "";
    int room = d->width - 2 > 8 ? d->width - 2 : 8;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < 1000 ? n : 1000), p);
        size_t len = strlen(line), at = 0;
        int first = 1;
        do {
            int cols = 0, w = first ? room : room - 2;
            size_t k = ui_text_clip(line + at, len - at, w, &cols);
            if (k == 0 && at < len)
                k = ui_text_next(line + at, len - at, 0);   /* one cluster wider than w */
            char piece[1100];
            snprintf(piece, sizeof piece, "%s%.*s", first ? "" : "↪ ", (int)k, line + at);
            ui_doc_line_add(d, piece, CRT_CODE, 2);
            at += k;
            first = 0;
        } while (at < len);
        p += n + (e != NULL);
    }
}

static void layout_lab(ui_lesson *l, ui_doc *d, int height)
{
    const at_lab *lab = step_of(l)->lab;
    char b[1024];
    snprintf(b, sizeof b, _("Lab: “%s”"), lab->sentence ? lab->sentence : "");
    ui_doc_text(d, b, CRT_TITLE, 0);
    if (l->attn.error[0]) {
        ui_doc_text(d, l->attn.error, CRT_WRONG, 0);
        return;
    }
    char head[64];
    /* every head, when one panel fits the screen's height (the document scrolls) */
    l->has_grid = l->attn.head == UI_HEAD_ALL &&
                  ui_heads_grid_plan(&l->attn, d->width, -1, &l->grid) &&
                  l->grid.panel_h - 1 <= height;
    if (l->has_grid)
        snprintf(head, sizeof head, _("all %zu heads"), ui_attn_heads(&l->attn));
    else
        snprintf(head, sizeof head, _("head %d"), l->attn.head == UI_HEAD_ALL ? 1 : l->attn.head + 1);
    snprintf(b, sizeof b, _("layer %d · %s · %s · %s — Enter opens it in the lab"),
             l->attn.layer + 1, head, l->attn.causal ? _("causal mask") : _("no mask"),
             l->attn.unscaled ? _("not scaled") : _("scaled by √dₖ"));
    ui_doc_text(d, b, CRT_DIM, 0);
    /* the model's scope: what it was trained on, unseen words, the note or trained rows */
    const at_model *m = ui_tutor_model(l->base.app);
    ui_scope_trained_on(m, 1, b, sizeof b);
    ui_doc_text(d, b, CRT_DIM, 0);
    ui_scope_unseen(&l->attn, 0, 0, b, sizeof b);
    if (b[0])
        ui_doc_text(d, b, CRT_WARN, 0);
    if (ui_scope_named(m, &l->attn, b, sizeof b)) {
        ui_doc_text(d, b, CRT_OK, 0);
    } else if (ui_scope_note(m, &l->attn, l->map.cur_row, b, sizeof b)) {
        ui_doc_text(d, b, CRT_WRONG, 0);
    } else {
        ui_scope_rows(m, &l->attn, b, sizeof b);
        if (b[0])
            ui_doc_text(d, b, CRT_DIM, 0);
    }
    if (l->attn.head == UI_HEAD_ALL && !l->has_grid)
        ui_doc_text(d, _("All heads do not fit this terminal; showing head 1."), CRT_WARN, 0);
    if (l->has_pred) {
        ui_doc_blank(d);
        ui_predict_layout(&l->pred, d, BLOCK_PREDICT_FIELD, 0);
        l->map.hidden = ui_predict_pending(&l->pred);
        if (ui_predict_picking(&l->pred))
            l->map.cur_col = l->pred.cursor;
        else if (l->map.hidden)
            l->map.cur_col = -1;   /* no cell marked while a choice or number is asked */
        else if (l->map.cur_col < 0)
            l->map.cur_col = l->map.cur_row;
        if (l->has_grid && ui_predict_pending(&l->pred)) {   /* shown once predicted */
            ui_doc_text(d, _("The heads appear here once you have predicted."), CRT_DIM, 0);
            return;
        }
    }
    if (l->has_grid) {   /* the document scrolls: the grid takes the rows it needs */
        ui_doc_block(d, BLOCK_LAB, l->grid.rows);
        return;
    }
    int h = (int)l->attn.run.n + 1;
    if (h > height - 3)
        h = height - 3;
    if (h < 3)
        h = 3;
    ui_doc_block(d, BLOCK_LAB, h);
}

static void layout(ui_lesson *l, int width, int height)
{
    const at_step *s = step_of(l);
    ui_doc *d = &l->doc;
    ui_doc_reset(d, width);
    switch (at_step_kind_of(s)) {
    case AT_STEP_TEXT: ui_doc_text(d, s->text, CRT_NORMAL, 0); break;
    case AT_STEP_TABLE: layout_table(d, s->table); break;
    case AT_STEP_FORMULA:
        ui_doc_blank(d);
        ui_doc_text(d, s->formula, CRT_FORMULA, 4);
        break;
    case AT_STEP_CODE: layout_code(d, s->code); break;
    case AT_STEP_LAB: layout_lab(l, d, height); break;
    case AT_STEP_COMPUTE:
        if (l->step_error[0])
            ui_doc_text(d, l->step_error, CRT_WRONG, 0);
        else if (lesson_of(l)->calc[l->step].compute)
            layout_compute(l, d, lesson_of(l)->calc[l->step].compute);
        else if (l->has_timed)
            layout_compute(l, d, &l->timed);
        break;
    case AT_STEP_QUESTION: ui_question_layout(&l->question, d, BLOCK_FIELD); break;
    default: break;
    }
}

static void draw_block(void *ctx, WINDOW *w, int id, int row0, ui_rect where)
{
    ui_lesson *l = ctx;
    if (id == BLOCK_PREDICT_FIELD && l->has_pred)
        ui_predict_draw_field(&l->pred, l->base.app, w, where);
    if (id == BLOCK_PREDICT_KEYS && l->has_pred)
        ui_predict_draw_keys(&l->pred, w, where);
    if (id == BLOCK_FIELD && l->has_question)
        ui_question_draw_field(&l->question, l->base.app, w, where);
    if (id == BLOCK_LAB && l->has_lab && l->has_grid)
        ui_heads_grid_draw(w, where, row0, &l->attn, l->map.cur_row, &l->grid);
    else if (id == BLOCK_LAB && l->has_lab && row0 == 0)
        ui_heatmap_draw(w, where, &l->map);
}

static const char *step_kind_label(at_step_kind k)
{
    switch (k) {
    case AT_STEP_TEXT: return _("text");
    case AT_STEP_TABLE: return _("table");
    case AT_STEP_FORMULA: return _("formula");
    case AT_STEP_CODE: return _("code");
    case AT_STEP_LAB: return _("lab");
    case AT_STEP_COMPUTE: return _("computed by the engine");
    case AT_STEP_QUESTION: return _("question");
    default: return "";
    }
}

static const char *lesson_title(ui_screen *s)
{
    ui_lesson *l = (ui_lesson *)s;
    return lesson_of(l)->doc->title;
}

static const char *lesson_status(ui_screen *s)
{
    ui_lesson *l = (ui_lesson *)s;
    if (l->has_question && l->question.typing)
        return _("answering · Enter: grade · Esc: leave");
    if (l->has_pred && ui_predict_pending(&l->pred))
        return ui_predict_status(&l->pred);
    if (l->has_question && ui_question_can_self_grade(&l->question))
        return alone(l) ? _("y/p/n: your own grade · ←/→: step · q: quit")
                        : _("y/p/n: your own grade · ←/→: step · q: home");
    return alone(l) ? _("←/→: step · ↑/↓: scroll · q: quit") : _("←/→: step · ↑/↓: scroll · q: home");
}

static int lesson_typing(ui_screen *s)
{
    ui_lesson *l = (ui_lesson *)s;
    return (l->has_question && l->question.typing) || (l->has_pred && ui_predict_typing(&l->pred));
}

static void lesson_draw(ui_screen *s, WINDOW *w, ui_rect r)
{
    ui_lesson *l = (ui_lesson *)s;
    const at_lesson *ls = lesson_of(l);
    char b[256];
    snprintf(b, sizeof b, _("lesson %zu · step %u/%u"), l->index + 1, l->step + 1,
             ls->doc->steps_count);
    int c = ui_puts(w, r.y, r.x + 1, b, r.w - 2, crt_attr(CRT_TITLE));
    ui_rect body = {r.y + 2, r.x + 1, r.h - 2, r.w - 2};
    layout(l, body.w, body.h);
    if (l->has_question)
        l->top = ui_question_scroll(&l->question, l->top, body.h);
    l->page = body.h;
    if (l->to_end)
        l->top = (int)l->doc.n;
    l->to_end = 0;
    int max_top = (int)l->doc.n - body.h;
    if (l->top > max_top)
        l->top = max_top;
    if (l->top < 0)
        l->top = 0;
    ui_doc_draw(w, body, &l->doc, l->top, draw_block, l);
    char right[128];
    int room = r.w - c - 3;
    const char *kind = step_kind_label(at_step_kind_of(step_of(l)));
    snprintf(right, sizeof right, "%s%s%s", l->top > 0 ? "↑ " : "",
             l->top + body.h < (int)l->doc.n ? _("↓ more · ") : "", kind);
    if (ui_text_width(right, strlen(right)) > room)   /* items dropped whole, never cut */
        snprintf(right, sizeof right, "%s", ui_text_width(kind, strlen(kind)) <= room ? kind : "");
    ui_put_right(w, r.y, r.x + c + 2, right, room, crt_attr(CRT_DIM));
}

/* A page: the body's rows less one, so the last line of a page is the first of the
 * next (never less than one row). */
static int page_rows(const ui_lesson *l)
{
    return l->page > 2 ? l->page - 1 : 1;
}

/* PgDn, Space: the next page of a long step; from its last page, the next step. */
static void page_down(ui_lesson *l)
{
    if (l->page > 0 && l->top + l->page < (int)l->doc.n)
        l->top += page_rows(l);
    else
        next(l);
}

/* PgUp: the page before; from the top of a step, the previous step at its end. */
static void page_up(ui_lesson *l)
{
    if (l->top > 0) {
        l->top = l->top > page_rows(l) ? l->top - page_rows(l) : 0;
    } else if (l->step > 0) {
        go_step(l, (long)l->step - 1);
        l->to_end = 1;
    }
}

static int lesson_key(ui_screen *s, ui_key k)
{
    ui_lesson *l = (ui_lesson *)s;
    if (l->has_question) {
        int f = ui_question_key(&l->question, s->app, k);
        if (f != UI_IGNORED)
            return f;
    }
    if (l->has_pred && ui_predict_pending(&l->pred)) {
        int f = ui_predict_key(&l->pred, s->app, k);
        if (f != UI_IGNORED) {
            if (l->memo && l->memo_lesson == l->index)
                l->memo[l->step] = l->pred.m;
            if (!ui_predict_pending(&l->pred))
                l->top = 0;   /* the reveal: from the comparison down */
            return f;
        }
    }
    unsigned n = lesson_of(l)->doc->steps_count;
    if (UI_IS_FN(k, KEY_RIGHT) || UI_IS_CHAR(k, 'l'))
        next(l);
    else if (UI_IS_FN(k, KEY_NPAGE) || UI_IS_CHAR(k, ' '))
        page_down(l);
    else if (UI_IS_FN(k, KEY_LEFT) || UI_IS_CHAR(k, 'h'))
        go_step(l, (long)l->step - 1);
    else if (UI_IS_FN(k, KEY_PPAGE))
        page_up(l);
    else if (UI_IS_FN(k, KEY_HOME) || UI_IS_CHAR(k, 'g'))
        go_step(l, 0);
    else if (UI_IS_FN(k, KEY_END) || UI_IS_CHAR(k, 'G'))
        go_step(l, (long)n - 1);
    else if (UI_IS_FN(k, KEY_DOWN) || UI_IS_CHAR(k, 'j'))
        l->top++;
    else if (UI_IS_FN(k, KEY_UP) || UI_IS_CHAR(k, 'k'))
        l->top = l->top > 0 ? l->top - 1 : 0;
    else if (l->has_lab && !(l->has_pred && ui_predict_pending(&l->pred)) &&
             (UI_IS_CHAR(k, '\r') || UI_IS_CHAR(k, '\n') || UI_IS_FN(k, KEY_ENTER))) {
        const at_lab *lab = step_of(l)->lab;
        ui_open_arg o = {.sentence = lab->sentence ? lab->sentence : "", .has_lab_view = 1,
                         .layer = l->attn.layer,
                         .head = l->attn.head == UI_HEAD_ALL ? -2 : l->attn.head,
                         .causal = l->attn.causal, .unscaled = l->attn.unscaled,
                         .focus = l->map.cur_row};
        ui_open(s->app, UI_SCREEN_LAB, &o);
    } else if (UI_IS_CHAR(k, 'q') || UI_IS_CHAR(k, 27))
        return UI_BACK;
    else
        return UI_IGNORED;
    return UI_HANDLED | UI_REDRAW;
}

static void lesson_free(ui_screen *s)
{
    ui_lesson *l = (ui_lesson *)s;
    free_step_state(l);
    ui_doc_free(&l->doc);
    free(l->memo);
    free(l);
}

static const ui_screen_ops lesson_ops = {
    .draw = lesson_draw,
    .key = lesson_key,
    .typing = lesson_typing,
    .title = lesson_title,
    .status = lesson_status,
    .free = lesson_free,
    .help = lesson_help,
};

ui_screen *ui_lesson_new(ui_app *app, size_t index, unsigned step)
{
    const at_lesson_set *set = ui_tutor_lessons(app);
    if (index >= set->count)
        return NULL;
    ui_lesson *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->base.ops = &lesson_ops;
    l->base.app = app;
    l->index = index;
    l->memo_lesson = (size_t)-1;
    unsigned n = set->lessons[index]->doc->steps_count;
    l->step = step < n ? step : n - 1;
    enter_step(l);
    save_position(l);
    return &l->base;
}
