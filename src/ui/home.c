/* The home screen: a list of what the student can open. */
#include "ui/home.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/i18n.h"
#include "ui/question.h"
#include "ui/route.h"
#include "quiz/bind.h"
#include "ui/tutor.h"
#include "ui/uitext.h"

typedef enum item_kind { ITEM_CONTINUE, ITEM_LESSON, ITEM_LAB, ITEM_QUIZ } item_kind;

typedef struct home_item {
    item_kind kind;
    int lesson;          /* index for ITEM_LESSON */
    char num[24];        /* "3." for a lesson (and the self-test among them), else "" */
    char label[256];
    char mark[64];       /* progress mark */
    char mark_short[32]; /* the same without the question count, for narrow screens */
} home_item;

typedef struct ui_home {
    ui_screen base;
    home_item items[64];
    int n, sel, top;
} ui_home;

static const ui_help_item home_help[] = {
    {N_("↑ ↓  j k"), N_("choose")},
    {N_("Enter  → l"), N_("open")},
    {N_("c"), N_("continue where you left off")},
    {N_("L"), N_("open the attention lab")},
    {N_("t"), N_("open the self-test")},
    {NULL, NULL},
};

/* Questions of a lesson answered right so far (the best result of each, as the
 * self-test summary counts them), tried, and how many it has. The ids are those the
 * lesson player and the self-test both record: "LESSON:QID". */
static void lesson_score(ui_app *app, const at_lesson *l, unsigned *right, unsigned *tried,
                         unsigned *total)
{
    qz_store *store = ui_tutor_store(app);
    char id[160];
    *right = *tried = *total = 0;
    for (unsigned i = 0; i < l->doc->steps_count; i++) {
        const at_question *q = l->doc->steps[i].question;
        if (!q || at_lesson_part_of(l, q))   /* a second part counts with its question */
            continue;
        (*total)++;
        snprintf(id, sizeof id, "%s:%s", l->doc->id, q->id);
        const qz_answer_rec *a = store ? qz_store_answer(store, id) : NULL, *b = NULL;
        if (q->follow_up && at_lesson_find_question(l, q->follow_up, NULL)) {
            snprintf(id, sizeof id, "%s:%s", l->doc->id, q->follow_up);
            b = store ? qz_store_answer(store, id) : NULL;
        }
        qz_rec_verdict v = ui_question_standing_parts(a, b, q->follow_up != NULL &&
                                                      at_lesson_find_question(l, q->follow_up, NULL));
        *tried += v != QZ_REC_NONE;
        *right += v == QZ_REC_CORRECT;
    }
}

/* "✓ done", "▸ 3/9", "· new", plus " Q2/3" for questions. A lesson is done when its
 * last step was reached and every question of it was tried (paging through to the end
 * leaves it at "▸ 9/9" while a question waits); the self-test (opened as the quiz) when
 * every question was tried, under way when some were. */
static void lesson_mark(ui_app *app, const at_lesson *l, int quiz, char *mark, size_t n,
                        char *shrt, size_t sn)
{
    qz_store *store = ui_tutor_store(app);
    const qz_lesson_rec *r = store ? qz_store_lesson(store, l->doc->id) : NULL;
    unsigned right, tried, total;
    lesson_score(app, l, &right, &tried, &total);
    char q[32] = "";
    if (total)
        snprintf(q, sizeof q, _(" Q%u/%u"), right, total);
    if ((r && r->done && tried == total) || (quiz && total && tried == total))
        snprintf(shrt, sn, "%s", _("✓ done"));
    else if (quiz && tried)
        snprintf(shrt, sn, _("▸ %u/%u"), tried, total);
    else if (r && r->done)   /* read to the end, a question left */
        snprintf(shrt, sn, _("▸ %u/%u"), l->doc->steps_count, l->doc->steps_count);
    else if (r)
        snprintf(shrt, sn, _("▸ %u/%u"), r->step + 1, l->doc->steps_count);
    else
        snprintf(shrt, sn, "%s", _("· new"));
    size_t k = strlen(shrt) < n ? strlen(shrt) : n - 1;
    memmove(mark, shrt, k);
    mark[k] = '\0';
    snprintf(mark + k, n - k, "%s", q);
}

static void build(ui_home *h)
{
    const at_lesson_set *set = ui_tutor_lessons(h->base.app);
    unsigned pos_step = 0;
    const char *pos_lesson = ui_tutor_position(h->base.app, &pos_step);
    h->n = 0;
    home_item *it;
    if (pos_lesson) {
        const at_lesson *l = at_lesson_set_find(set, pos_lesson);
        if (l) {
            it = &h->items[h->n++];
            *it = (home_item){.kind = ITEM_CONTINUE};
            snprintf(it->label, sizeof it->label, _("Continue: %s, step %u"), l->doc->title,
                     pos_step + 1);
        }
    }
    /* the self-test lesson is one entry among the lessons, opening the self-test
     * screen; its size counted, not typed */
    for (size_t i = 0; i < set->count && h->n < 60; i++) {
        const at_lesson *l = set->lessons[i];
        unsigned nq = 0;
        int quiz = !strcmp(l->doc->id, QZ_SELF_TEST_LESSON);
        for (unsigned k = 0; quiz && k < l->doc->steps_count; k++)   /* a part (Q2's b) is no question of its own */
            nq += l->doc->steps[k].question && !at_lesson_part_of(l, l->doc->steps[k].question);
        quiz = nq > 0;
        it = &h->items[h->n++];
        *it = (home_item){.kind = quiz ? ITEM_QUIZ : ITEM_LESSON, .lesson = (int)i};
        snprintf(it->num, sizeof it->num, "%zu.", i + 1);
        if (quiz)
            snprintf(it->label, sizeof it->label,
                     _n("Self-test: %u question", "Self-test: %u questions", nq), nq);
        else
            snprintf(it->label, sizeof it->label, "%s", l->doc->title);
        lesson_mark(h->base.app, l, quiz, it->mark, sizeof it->mark, it->mark_short, sizeof it->mark_short);
    }
    it = &h->items[h->n++];
    *it = (home_item){.kind = ITEM_LAB};
    snprintf(it->label, sizeof it->label, "%s", _("Attention lab: type a sentence, see its attention"));
    if (h->sel >= h->n)
        h->sel = h->n - 1;
}

static const char *home_title(ui_screen *s)
{
    return _("Home");
}

static const char *home_status(ui_screen *s)
{
    return _("↑↓: choose · Enter: open · q: save and quit");
}

/* s in max columns; when it is wider, cut at a grapheme boundary and ended with "…". */
static void put_cut(WINDOW *w, int y, int x, const char *s, int max, attr_t a)
{
    size_t n = strlen(s);
    if (max < 1)
        return;
    if (ui_text_width(s, n) <= max) {
        ui_put(w, y, x, s, n, max, a);
        return;
    }
    int cols = 0;
    size_t k = ui_text_clip(s, n, max - 1, &cols);
    ui_put(w, y, x, s, k, cols, a);
    ui_puts(w, y, x + cols, "…", 1, a);
}

static void home_draw(ui_screen *s, WINDOW *w, ui_rect r)
{
    ui_home *h = (ui_home *)s;
    ui_puts(w, r.y + 1, r.x + 2, _("Self-attention, step by step"), r.w - 4, crt_attr(CRT_TITLE));
    int y0 = r.y + 3, rows = r.h - 4;
    const char *note = ui_tutor_note(s->app);
    if (note) {   /* wrapped at the bottom, so a file name in it shows whole */
        ui_lines lines = {0};
        if (ui_wrap(note, strlen(note), r.w - 4, &lines) == 0) {
            /* too long for the room: its first line, then its end (where the
             * file it names is) */
            int n = (int)lines.n < rows - 1 ? (int)lines.n : rows - 1;
            for (int i = 0; i < n; i++) {
                size_t k = i == 0 ? 0 : lines.n - (size_t)(n - i);
                ui_put(w, r.y + r.h - n + i, r.x + 2, note + lines.v[k].start, lines.v[k].len,
                       r.w - 4, crt_attr(CRT_WARN));
            }
            rows -= n > 0 ? n : 0;
        }
        ui_lines_free(&lines);
    }
    if (rows < 1)
        return;
    if (h->sel < h->top)
        h->top = h->sel;
    if (h->sel >= h->top + rows)
        h->top = h->sel - rows + 1;
    /* the lesson numbers right-aligned in their own column, so they line up whatever
     * the marks; then the mark column, as wide as the widest mark and a gap (the short
     * marks, without the question count, when the labels would get fewer than 16
     * columns; none under 10); labels too long end in "…" */
    int nw = 0, full = 0, brief = 0;
    for (int i = 0; i < h->n; i++) {
        const home_item *it = &h->items[i];
        int w0 = ui_text_width(it->num, strlen(it->num));
        int fw = ui_text_width(it->mark, strlen(it->mark));
        int bw = ui_text_width(it->mark_short, strlen(it->mark_short));
        nw = w0 > nw ? w0 : nw;
        full = fw > full ? fw : full;
        brief = bw > brief ? bw : brief;
    }
    int avail = r.w - 6, lead = nw ? nw + 1 : 0;
    int use_short = lead + full + 1 > avail - 16, mw = (use_short ? brief : full) + 1;
    if (mw == 1 || avail - lead - mw < 10)
        mw = 0;
    for (int i = 0; i < rows && h->top + i < h->n; i++) {
        const home_item *it = &h->items[h->top + i];
        int sel = h->top + i == h->sel;
        attr_t a = sel ? crt_attr(CRT_SELECTED) : crt_attr(CRT_NORMAL);
        int y = y0 + i, x = r.x + 3;
        ui_fill(w, y, r.x + 2, r.w - 4, a);
        if (!it->num[0]) {
            put_cut(w, y, x, it->label, avail, a);
            continue;
        }
        ui_put_right(w, y, x, it->num, nw, a);
        if (mw > 0)
            ui_puts(w, y, x + lead, use_short ? it->mark_short : it->mark, mw - 1,
                    sel ? a : crt_attr(CRT_OK));
        put_cut(w, y, x + lead + mw, it->label, avail - lead - mw, a);
    }
}

static int open_item(ui_home *h)
{
    const home_item *it = &h->items[h->sel];
    const at_lesson_set *set = ui_tutor_lessons(h->base.app);
    qz_store *store = ui_tutor_store(h->base.app);
    unsigned pos_step = 0;
    const char *pos_lesson = ui_tutor_position(h->base.app, &pos_step);
    ui_open_arg arg = {.layer = -1, .head = -1, .focus = -1};
    switch (it->kind) {
    case ITEM_LAB: ui_open(h->base.app, UI_SCREEN_LAB, NULL); break;
    case ITEM_QUIZ: ui_open(h->base.app, UI_SCREEN_QUIZ, NULL); break;
    case ITEM_CONTINUE: {
        for (size_t i = 0; pos_lesson && i < set->count; i++)
            if (!strcmp(set->lessons[i]->doc->id, pos_lesson)) {
                arg.lesson = i;
                arg.step = pos_step;
                ui_open(h->base.app, UI_SCREEN_LESSON, &arg);
            }
        break;
    }
    case ITEM_LESSON: {
        const at_lesson *l = set->lessons[it->lesson];
        const qz_lesson_rec *r = store ? qz_store_lesson(store, l->doc->id) : NULL;
        unsigned step = 0;
        if (pos_lesson && !strcmp(pos_lesson, l->doc->id))
            step = pos_step;
        else if (r && !r->done)
            step = r->step;
        arg.lesson = (size_t)it->lesson;
        arg.step = step;
        ui_open(h->base.app, UI_SCREEN_LESSON, &arg);
        break;
    }
    }
    return UI_HANDLED | UI_REDRAW;
}

static int home_key(ui_screen *s, ui_key k)
{
    ui_home *h = (ui_home *)s;
    if (UI_IS_FN(k, KEY_UP) || UI_IS_CHAR(k, 'k')) {
        if (h->sel > 0)
            h->sel--;
    } else if (UI_IS_FN(k, KEY_DOWN) || UI_IS_CHAR(k, 'j')) {
        if (h->sel + 1 < h->n)
            h->sel++;
    } else if (UI_IS_FN(k, KEY_HOME) || UI_IS_CHAR(k, 'g')) {
        h->sel = 0;
    } else if (UI_IS_FN(k, KEY_END) || UI_IS_CHAR(k, 'G')) {
        h->sel = h->n - 1;
    } else if (UI_IS_CHAR(k, '\r') || UI_IS_CHAR(k, '\n') || UI_IS_FN(k, KEY_ENTER) ||
               UI_IS_FN(k, KEY_RIGHT) || UI_IS_CHAR(k, 'l')) {
        return open_item(h);
    } else if (UI_IS_CHAR(k, 'c')) {
        if (h->n > 0 && h->items[0].kind == ITEM_CONTINUE) {
            h->sel = 0;
            return open_item(h);
        }
    } else if (UI_IS_CHAR(k, 't')) {
        ui_open(s->app, UI_SCREEN_QUIZ, NULL);
    } else if (UI_IS_CHAR(k, 'L')) {
        ui_open(s->app, UI_SCREEN_LAB, NULL);
    } else if (UI_IS_CHAR(k, 'q') || UI_IS_CHAR(k, 27)) {
        ui_tutor_save(s->app);
        return UI_QUIT;
    } else {
        return UI_IGNORED;
    }
    return UI_HANDLED | UI_REDRAW;
}

static void home_resume(ui_screen *s)
{
    build((ui_home *)s);
}

static void home_free(ui_screen *s)
{
    free(s);
}

static const ui_screen_ops home_ops = {
    .draw = home_draw,
    .key = home_key,
    .title = home_title,
    .status = home_status,
    .resume = home_resume,
    .free = home_free,
    .help = home_help,
};

ui_screen *ui_home_new(ui_app *app)
{
    ui_home *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->base.ops = &home_ops;
    h->base.app = app;
    build(h);
    h->sel = 0;
    return &h->base;
}
