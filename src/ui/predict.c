/* Predict, then reveal (see predict.h). */
#include "ui/predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quiz/answer.h"
#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/editkeys.h"
#include "ui/i18n.h"
#include "ui/uitext.h"

#define MAX_KEYS 256

void ui_predict_init(ui_predict *u, const at_predict *p, const at_compute_result *r,
                     const char *from_default, const ui_predict_memo *memo)
{
    memset(u, 0, sizeof *u);
    u->p = p;
    u->m.choice = u->m.token = -1;
    if (memo)
        u->m = *memo;
    ui_lineedit_set(&u->line, "");
    u->ans_ok = at_predict_answer_of(p, r, from_default, &u->ans, u->error, sizeof u->error) == 0;
    if (!u->ans_ok) {
        u->m.revealed = 1;   /* nothing to compare with: the result is shown as it is */
        return;
    }
    u->error[0] = '\0';
    if (p->kind == AT_PREDICT_TOKEN) {
        u->keys = r->key_tokens;
        u->query = r->tokens ? r->tokens[u->ans.row] : NULL;
        u->n_keys = r->n_k < MAX_KEYS ? r->n_k : MAX_KEYS;
        for (size_t j = 0; j < u->n_keys; j++)
            u->row_w[j] = r->weights[u->ans.row * r->n_k + j];
        u->cursor = u->m.token >= 0 ? u->m.token : 0;
        if (u->cursor >= (int)u->n_keys)
            u->cursor = 0;
    }
}

int ui_predict_pending(const ui_predict *u)
{
    return u->p && !u->m.revealed;
}

int ui_predict_picking(const ui_predict *u)
{
    return ui_predict_pending(u) && u->p->kind == AT_PREDICT_TOKEN && u->n_keys > 0;
}

int ui_predict_typing(const ui_predict *u)
{
    return ui_predict_pending(u) && u->typing;
}

/* The label of key j: its token, else its number. */
static const char *key_label(const ui_predict *u, size_t j, char *buf, size_t cap)
{
    if (u->keys && u->keys[j])
        return u->keys[j];
    snprintf(buf, cap, _("key %zu"), j + 1);
    return buf;
}

static void layout_pending(ui_predict *u, ui_doc *d, int field_block, int keys_block)
{
    const at_predict *p = u->p;
    char b[1024];
    ui_doc_line_add(d, _("Predict first"), CRT_TITLE, 0);
    if (p->prompt)
        ui_doc_text(d, p->prompt, CRT_NORMAL, 0);
    switch (p->kind) {
    case AT_PREDICT_CHOICE:
        for (unsigned i = 0; i < p->options_count && i < 26; i++) {
            snprintf(b, sizeof b, "%c) %s", 'a' + (int)i, p->options[i].text ? p->options[i].text : "");
            ui_doc_text(d, b, CRT_NORMAL, 2);
        }
        ui_doc_line_add(d, _("(press the letter of your prediction)"), CRT_DIM, 2);
        break;
    case AT_PREDICT_NUMBER:
        ui_doc_blank(d);
        ui_doc_block(d, field_block, 1);
        break;
    case AT_PREDICT_TOKEN:
        ui_doc_blank(d);
        if (keys_block)
            ui_doc_block(d, keys_block, 1);
        snprintf(b, sizeof b, _("(← →: choose the key that %s will weigh most · Enter: that is my "
                                "prediction)"), u->query ? u->query : _("the query"));
        ui_doc_text(d, b, CRT_DIM, 2);
        break;
    }
    if (u->note[0])
        ui_doc_text(d, u->note, CRT_WARN, 2);
    ui_doc_text(d, _("r: show the result without a prediction"), CRT_DIM, 2);
    ui_doc_blank(d);
}

static void put_value(char *b, size_t cap, double x)
{
    if (x == floor(x) && fabs(x) < 1e15)
        snprintf(b, cap, "%.0f", x);
    else
        snprintf(b, cap, "%.4g", x);
}

/* An option's text without the full stop that ends it (it is quoted inside a sentence). */
static const char *quoted(const char *t, char *buf, size_t cap)
{
    size_t n = t ? strlen(t) : 0;
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\n'))
        n--;
    if (n && t[n - 1] == '.')
        n--;
    else if (n >= 3 && !memcmp(t + n - 3, "。", 3))
        n -= 3;
    snprintf(buf, cap, "%.*s", (int)n, t ? t : "");
    return buf;
}

static void layout_choice(ui_predict *u, ui_doc *d)
{
    const at_predict *p = u->p;
    char b[2048];
    int right = -1;
    for (unsigned i = 0; i < p->options_count && i < 26; i++)
        if (p->options[i].correct && right < 0)
            right = (int)i;
    if (right < 0)
        return;
    char rb[512], cb[512];
    const char *rt = quoted(p->options[right].text, rb, sizeof rb);
    int c = u->m.choice;
    if (!u->m.predicted || c < 0 || c >= (int)p->options_count) {
        snprintf(b, sizeof b, _("The answer: %c) %s."), 'a' + right, rt);
        ui_doc_text(d, b, CRT_OK, 0);
        return;
    }
    const at_option *o = &p->options[c];
    if (o->correct)
        snprintf(b, sizeof b, _("✓ You predicted %c) %s — right."), 'a' + c,
                 quoted(o->text, cb, sizeof cb));
    else
        snprintf(b, sizeof b, _("✗ You predicted %c) %s — the answer is %c) %s."), 'a' + c,
                 quoted(o->text, cb, sizeof cb), 'a' + right, rt);
    ui_doc_text(d, b, o->correct ? CRT_OK : CRT_WRONG, 0);
    if (o->feedback)
        ui_doc_flow(d, o->feedback, CRT_NORMAL, 2);
}

static void layout_number(ui_predict *u, ui_doc *d)
{
    char b[1024], want[64], got[64], diff[64], tol[64];
    put_value(want, sizeof want, u->ans.value);
    if (!u->m.predicted) {
        snprintf(b, sizeof b, _("The engine computes %s."), want);
        ui_doc_text(d, b, CRT_OK, 0);
        return;
    }
    double delta = u->ans.value - u->m.number, t = at_predict_tolerance(u->p);
    put_value(got, sizeof got, u->m.number);
    snprintf(diff, sizeof diff, "%.2g", fabs(delta));
    put_value(tol, sizeof tol, t);
    int close = fabs(delta) <= t * (1 + 1e-9);
    if (close)
        snprintf(b, sizeof b, _("✓ You predicted %s; the engine computes %s: close, within %s."),
                 got, want, tol);
    else if (delta > 0)
        snprintf(b, sizeof b, _("You predicted %s; the engine computes %s, %s higher than your "
                                "prediction."), got, want, diff);
    else
        snprintf(b, sizeof b, _("You predicted %s; the engine computes %s, %s lower than your "
                                "prediction."), got, want, diff);
    ui_doc_text(d, b, close ? CRT_OK : CRT_WARN, 0);
}

static void layout_token(ui_predict *u, ui_doc *d)
{
    char b[1024], kb[32], cb[32];
    size_t top = u->ans.token;
    const char *q = u->query ? u->query : _("the query");
    const char *tl = top < u->n_keys ? key_label(u, top, kb, sizeof kb) : "?";
    double tw = top < u->n_keys ? u->row_w[top] : 0;
    int c = u->m.token;
    if (!u->m.predicted || c < 0 || c >= (int)u->n_keys) {
        snprintf(b, sizeof b, _("%s gives its largest weight to %s (%.4f)."), q, tl, tw);
        ui_doc_text(d, b, CRT_OK, 0);
        return;
    }
    const char *cl = key_label(u, (size_t)c, cb, sizeof cb);
    if ((size_t)c == top)
        snprintf(b, sizeof b, _("✓ You picked %s, and %s gives it the largest weight (%.4f)."), cl,
                 q, tw);
    else
        snprintf(b, sizeof b, _("✗ You picked %s (weight %.4f); %s gives its largest weight to %s "
                                "(%.4f)."), cl, (double)u->row_w[c], q, tl, tw);
    ui_doc_text(d, b, (size_t)c == top ? CRT_OK : CRT_WRONG, 0);
}

void ui_predict_layout(ui_predict *u, ui_doc *d, int field_block, int keys_block)
{
    if (!u->p)
        return;
    if (!u->ans_ok) {
        char b[512];
        snprintf(b, sizeof b, _("This prediction cannot be answered: %s"), u->error);
        ui_doc_text(d, b, CRT_WRONG, 0);
        ui_doc_blank(d);
        return;
    }
    if (ui_predict_pending(u)) {
        layout_pending(u, d, field_block, keys_block);
        return;
    }
    ui_doc_line_add(d, u->m.predicted ? _("Your prediction") : _("Not predicted"), CRT_TITLE, 0);
    switch (u->p->kind) {
    case AT_PREDICT_CHOICE: layout_choice(u, d); break;
    case AT_PREDICT_NUMBER: layout_number(u, d); break;
    case AT_PREDICT_TOKEN: layout_token(u, d); break;
    }
    if (u->p->explanation)
        ui_doc_flow(d, u->p->explanation, CRT_DIM, 2);
    ui_doc_blank(d);
}

void ui_predict_draw_field(ui_predict *u, ui_app *app, WINDOW *w, ui_rect where)
{
    const char *label = _("Your prediction: ");
    int lw = ui_puts(w, where.y, where.x, label, where.w / 2,
                     crt_attr(u->typing ? CRT_TITLE : CRT_NORMAL));
    int fw = where.w - lw - 1;
    if (fw < 2)
        return;
    ui_fill(w, where.y, where.x + lw, fw, crt_attr(CRT_INPUT));
    int cx = ui_lineedit_fit(&u->line, fw);
    size_t i = 0;
    int col = 0;
    while (i < u->line.len && col < u->line.scroll) {
        size_t j = ui_text_next(u->line.buf, u->line.len, i);
        col += ui_text_gwidth(u->line.buf + i, j - i);
        i = j;
    }
    ui_put(w, where.y, where.x + lw + (col - u->line.scroll), u->line.buf + i, u->line.len - i,
           fw, crt_attr(CRT_INPUT));
    if (u->typing)
        ui_app_cursor(app, where.y, where.x + lw + cx);
}

void ui_predict_draw_keys(ui_predict *u, WINDOW *w, ui_rect where)
{
    char kb[32];
    /* from the first key that keeps the cursor's key in view */
    int first = 0;
    for (;;) {
        int x = 0;
        for (int j = first; j <= u->cursor && j < (int)u->n_keys; j++) {
            const char *l = key_label(u, (size_t)j, kb, sizeof kb);
            x += ui_text_width(l, strlen(l)) + 3;
        }
        if (x <= where.w - 2 || first >= u->cursor)
            break;
        first++;
    }
    int x = where.x;
    if (first > 0)
        x += ui_puts(w, where.y, x, "‹ ", 2, crt_attr(CRT_DIM));
    for (int j = first; j < (int)u->n_keys; j++) {
        const char *l = key_label(u, (size_t)j, kb, sizeof kb);
        int lw = ui_text_width(l, strlen(l));
        if (x + lw + 2 > where.x + where.w)
            break;
        attr_t a = j == u->cursor ? crt_attr(CRT_SELECTED) : crt_attr(CRT_TITLE);
        ui_puts(w, where.y, x, " ", 1, a);
        ui_puts(w, where.y, x + 1, l, lw, a);
        ui_puts(w, where.y, x + 1 + lw, " ", 1, a);
        x += lw + 3;
    }
}

/* Commit the answer line: the first number read (qz_read_numbers: 0.4, .4, 40%, 0,4). */
static void commit_number(ui_predict *u)
{
    qz_numbers nums;
    at_error err;
    qz_read_opts o = {.want = 1};
    at_error_clear(&err);
    if (qz_read_numbers(u->line.buf, &o, QZ_EN, &nums, &err) != AT_OK || nums.n == 0) {
        snprintf(u->note, sizeof u->note, "%s", _("Type a number, e.g. 0.4, then Enter."));
        return;
    }
    u->m.number = nums.v[0].x;
    u->m.predicted = u->m.revealed = 1;
    u->typing = 0;
    u->note[0] = '\0';
}

static int key_line(ui_predict *u, ui_key k)
{
    ui_lineedit *e = &u->line;
    if (UI_IS_CHAR(k, '\r') || UI_IS_CHAR(k, '\n') || UI_IS_FN(k, KEY_ENTER)) {
        commit_number(u);
        return UI_HANDLED | UI_REDRAW;
    }
    if (UI_IS_CHAR(k, 27)) {
        u->typing = 0;
        return UI_HANDLED | UI_REDRAW;
    }
    ui_edit_key(e, k);
    return UI_HANDLED | UI_REDRAW;
}

static int is_enter(ui_key k)
{
    return UI_IS_CHAR(k, '\r') || UI_IS_CHAR(k, '\n') || UI_IS_FN(k, KEY_ENTER);
}

int ui_predict_key(ui_predict *u, ui_app *app, ui_key k)
{
    if (!ui_predict_pending(u))
        return UI_IGNORED;
    if (u->typing)
        return key_line(u, k);
    if (UI_IS_CHAR(k, 'r')) {
        u->m.revealed = 1;
        return UI_HANDLED | UI_REDRAW;
    }
    switch (u->p->kind) {
    case AT_PREDICT_CHOICE:
        if (!k.fn && k.ch >= 'a' && k.ch < 'a' + (wint_t)u->p->options_count && k.ch <= 'z') {
            u->m.choice = (int)(k.ch - 'a');
            u->m.predicted = u->m.revealed = 1;
            return UI_HANDLED | UI_REDRAW;
        }
        break;
    case AT_PREDICT_NUMBER:
        if (UI_IS_CHAR(k, 'a') || UI_IS_CHAR(k, 'i') || is_enter(k)) {
            u->typing = 1;
            return UI_HANDLED | UI_REDRAW;
        }
        if (!k.fn && ((k.ch >= '0' && k.ch <= '9') || k.ch == '.' || k.ch == '-')) {
            u->typing = 1;   /* a digit opens the line and is its first character */
            return key_line(u, k);
        }
        break;
    case AT_PREDICT_TOKEN:
        if (UI_IS_FN(k, KEY_LEFT) || UI_IS_CHAR(k, 'h')) {
            u->cursor = u->cursor > 0 ? u->cursor - 1 : 0;
            return UI_HANDLED | UI_REDRAW;
        }
        if (UI_IS_FN(k, KEY_RIGHT) || UI_IS_CHAR(k, 'l')) {
            u->cursor = u->cursor + 1 < (int)u->n_keys ? u->cursor + 1 : u->cursor;
            return UI_HANDLED | UI_REDRAW;
        }
        if (is_enter(k)) {
            u->m.token = u->cursor;
            u->m.predicted = u->m.revealed = 1;
            return UI_HANDLED | UI_REDRAW;
        }
        break;
    }
    (void)app;
    return UI_IGNORED;
}

const char *ui_predict_status(const ui_predict *u)
{
    if (u->typing)
        return _("predicting · Enter: that is my prediction · Esc: leave the line");
    switch (u->p->kind) {
    case AT_PREDICT_CHOICE: return _("a, b, …: your prediction · r: show without one · PgDn: on");
    case AT_PREDICT_NUMBER: return _("type a number, Enter · r: show without one · PgDn: on");
    default: return _("← →: choose a key · Enter: predict · r: show without one · PgDn: on");
    }
}
