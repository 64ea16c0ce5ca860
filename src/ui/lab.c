/* The lab screen: a sentence input, the tokens, the attention heatmap of the chosen
 * layer and head, and a detail pane for the selected query token. */
#include "ui/lab.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/headstats.h"
#include "engine/hf/hf.h"
#include "ui/attnview.h"
#include "ui/crt.h"
#include "ui/draw.h"
#include "ui/editkeys.h"
#include "ui/headsgrid.h"
#include "ui/heatmap.h"
#include "ui/i18n.h"
#include "ui/lineedit.h"
#include "ui/scopetext.h"
#include "ui/tutor.h"
#include "ui/uitext.h"

typedef struct ui_lab {
    ui_screen base;
    ui_lineedit input;
    int typing;          /* the input line has the focus */
    ui_attn attn;
    ui_heatmap map;
    int detail_top;      /* first key row shown in the detail pane */
    int stale;           /* the sentence changed since the model last ran on it */
    size_t frame;        /* the training frame t shows next */
    int find;            /* the measure f looks for next (at_head_measure) */
    char found[256];     /* what f found, shown under the settings ("" = nothing) */
    at_hf_cache *cache;  /* a real model's key/value cache (NULL: none yet, or BERT) */
} ui_lab;

static const ui_help_item lab_help[] = {
    {N_("i  /  Tab"), N_("edit the sentence (the heatmap follows every keystroke)")},
    {N_("Enter  Tab  Esc"), N_("leave the sentence, back to the heatmap")},
    {N_("Ctrl-U  Ctrl-W"), N_("while editing: clear the line, delete a word")},
    {N_("↑ ↓  j k"), N_("choose the query token (row: who is asking)")},
    {N_("← →  h l"), N_("choose the key token (column: who is looked at)")},
    {N_("Home End  g G"), N_("first / last query token")},
    {N_("[  ]"), N_("previous / next layer")},
    {N_(",  .  1-9  a"), N_("previous / next head, head N, all heads side by side")},
    {N_("m"), N_("causal mask on/off (a token sees only itself and earlier ones)")},
    {N_("s"), N_("scaling by √dₖ on/off in every layer (without it the weights sharpen; the "
                 "layers below change too, so q·k itself changes)")},
    {N_("e"), N_("export the shown weights as CSV (the file name is shown)")},
    {N_("f"), N_("find a head by what it does, over every layer: the most weight on the "
                 "previous token, on the first token, on the other pieces of the same word "
                 "(each press: the next)")},
    {N_("t"), N_("put in a sentence the model was trained on (each press: the next sentence "
                 "frame)")},
    {N_("the model"), N_("The built-in model was trained only to tell which noun a pronoun "
                         "refers to, in a few sentence frames (the line under the layer "
                         "says which; t shows them). There its coreference head, the head "
                         "shown first, looks from the pronoun to that noun.")},
    {N_("layer 1 head 1"), N_("The previous-token head: trained so that every token looks at "
                              "the token before it. Unlike the coreference head it does so on "
                              "any sentence, words it never saw included; the line above the "
                              "heatmap gives its weights on your sentence.")},
    {N_("its limits"), N_("Only the pronoun's row of the coreference head was trained: the "
                          "other rows are dimmed and mean nothing. Words it never saw are "
                          "listed; their vectors are guesses from character n-grams. When "
                          "the sentence has no pronoun it was trained at, when more than a "
                          "quarter of its tokens are unseen, or when the query is, a note says "
                          "the weights are not learned meaning. It learned agreement (he, "
                          "she, they, it; 他, 她, 他们) and a few hundred words; on sentences "
                          "unlike its frames its choice of noun is often wrong.")},
    {N_("a real model"), N_("With --model DIR (a Hugging Face GPT-2 or BERT folder) the "
                            "lab shows that model: its own tokens (␣ is the space before a "
                            "GPT-2 word, ## a WordPiece inside a word), every layer and head, "
                            "its own mask (GPT-2 looks only backwards). Try f: many heads "
                            "look at the previous token, many rest on the first token; in "
                            "the upper layers look for the head that links a pronoun to its "
                            "noun. Lessons keep the built-in model.")},
    {N_("the cache"), N_("GPT-2 looks only backwards, so a token's keys, values and "
                         "attention row never change when words are added after it. The lab "
                         "keeps them (a key/value cache): typing at the end computes only the "
                         "new tokens, an edit in the middle everything from there on; the line "
                         "under the settings says how many were computed. A layer is computed "
                         "when it is shown: the layers above the one on screen catch up when you "
                         "move to them ([ ]) or press f.")},
    {NULL, NULL},
};

/* Run the model on the sentence; a real model through its key/value cache, up to the
 * layer `layers` − 1 (0: every layer): the layers above the one shown wait until they
 * are shown or measured (need_layers). */
static void run_model(ui_lab *l, size_t layers)
{
    ui_tutor *t = ui_tutor_of(l->base.app);
    if (t->hf && !l->cache)
        at_hf_cache_new(t->hf, &l->cache, NULL);   /* none: every run computes everything */
    if (t->hf)
        ui_attn_compute_hf(&l->attn, t->hf, l->cache, l->input.buf, layers);
    else
        ui_attn_compute(&l->attn, t->model, l->input.buf);
    ui_attn_heatmap(&l->attn, l->attn.head == UI_HEAD_ALL ? 0 : l->attn.head, &l->map);
    if (l->attn.run.n && l->map.cur_row < 0)
        l->map.cur_row = 0;
    if (l->attn.run.n && l->map.cur_col < 0)
        l->map.cur_col = 0;
}

/* The sentence changed: the model runs again, up to the layer shown. A query on a row
 * the model was not trained at moves to the first one it was (the pronoun). */
static void recompute(ui_lab *l)
{
    l->found[0] = '\0';
    run_model(l, l->attn.layer >= 0 ? (size_t)l->attn.layer + 1 : 0);
    size_t row = l->map.cur_row >= 0 ? (size_t)l->map.cur_row : 0;
    if (row < l->attn.scope.n && l->attn.scope.trained_row[row])
        return;
    for (size_t i = 0; i < l->attn.scope.n; i++)
        if (l->attn.scope.trained_row[i]) {
            l->map.cur_row = (int)i;
            break;
        }
}

/* The first `layers` layers (0: all) complete before they are shown or measured. */
static void need_layers(ui_lab *l, size_t layers)
{
    size_t L = l->attn.run.n_layers;
    if (l->attn.run.n && l->attn.layers_done < (layers && layers < L ? layers : L))
        run_model(l, layers);
}

/* Run the model on the sentence if it changed: once per batch of typed or pasted
 * keys (the app applies every waiting key before it draws), not once per key. */
static void run_if_stale(ui_lab *l)
{
    if (l->stale)
        recompute(l);
    l->stale = 0;
}

static const char *lab_title(ui_screen *s)
{
    return _("Attention lab");
}

static const char *lab_status(ui_screen *s)
{
    ui_lab *l = (ui_lab *)s;
    if (l->typing)
        return _("typing · Enter/Tab: to the heatmap · Ctrl-U: clear");
    return _("i: type · arrows: move · [ ]: layer · , .: head · m: mask · s: scale · t: training sentence · e: CSV");
}

static int lab_typing(ui_screen *s)
{
    return ((ui_lab *)s)->typing;
}

/* A real model's layers (heads = 0) or heads per layer (heads = 1). */
static size_t hf_size(const at_hf_model *m, int heads)
{
    at_hf_info hi;
    at_hf_get_info(m, &hi);
    return heads ? hi.cfg->n_heads : hi.cfg->n_layers;
}

/* "12 tokens · layer 2/2 · head 1/1 · no mask · scaled by √dₖ · trained model"; the
 * layer and head counts are the model's even when no sentence is typed yet. */
static void draw_info(ui_lab *l, WINDOW *w, int y, int x, int cols)
{
    char b[512];
    ui_app *app = l->base.app;
    ui_tutor *t = ui_tutor_of(app);
    const ui_attn *a = &l->attn;
    at_model_info info;
    at_model_get_info(t->model, &info);
    size_t n_layers = info.n_layers;
    if (t->hf)   /* a real checkpoint: its own sizes, every layer the same heads */
        n_layers = hf_size(t->hf, 0);
    size_t layer = a->layer >= 0 && (size_t)a->layer < n_layers ? (size_t)a->layer : 0;
    size_t heads = t->hf ? hf_size(t->hf, 1) : info.n_layers ? info.n_heads[layer] : 0;
    char head[48];
    if (a->head == UI_HEAD_ALL && heads == 1)
        snprintf(head, sizeof head, "%s", _("one head"));
    else if (a->head == UI_HEAD_ALL)
        snprintf(head, sizeof head, _("all %zu heads"), heads);
    else
        snprintf(head, sizeof head, _("head %d/%zu"), a->head + 1, heads);
    char toks[64];
    if (a->toks.n == 0 || a->run.n == 0)
        snprintf(toks, sizeof toks, "%s", _("type a sentence"));
    else
        snprintf(toks, sizeof toks, _n("%zu token", "%zu tokens", a->toks.n), a->toks.n);
    if (t->hf) {
        at_hf_info hi;
        at_hf_get_info(t->hf, &hi);
        snprintf(b, sizeof b, _("%s · layer %zu/%zu · %s · %s · %s · %s"), toks,
                 layer + 1, n_layers, head,
                 hi.causal ? _("causal mask (the model's own)") : _("no mask (both ways)"),
                 _("scaled by √dₖ"), hi.cfg->family == AT_HF_GPT2 ? "GPT-2" : "BERT");
    } else {
        snprintf(b, sizeof b, _("%s · layer %zu/%zu · %s · %s · %s · %s"), toks,
                 layer + 1, info.n_layers, head,
                 a->causal ? _("causal mask") : _("no mask"),
                 a->unscaled ? _("not scaled") : _("scaled by √dₖ"),
                 t->trained ? _("trained model") : _("untrained demo weights"));
    }
    ui_put_items(w, y, x, b, cols, crt_attr(CRT_DIM));
}

/* The lines between the settings and the heatmap: what the model was trained on (on
 * tall screens), the cut sentence and the unseen words, then the note that the weights
 * are not learned meaning or, on the coreference layer, which row was trained; on the
 * previous-token head, what it does on this sentence instead of the note.
 * Returns the rows used from y. */
static int draw_scope(ui_lab *l, WINDOW *w, int y, int x, int cols, int rows)
{
    ui_app *app = l->base.app;
    ui_tutor *t = ui_tutor_of(app);
    const ui_attn *a = &l->attn;
    char b[1024];
    int used = 0, tall = rows >= 18;
    if (t->hf) {   /* a real checkpoint: what it is, the cut, what f found */
        at_hf_info hi;
        at_hf_get_info(t->hf, &hi);
        const char *base = strrchr(hi.dir, '/');
        base = base && base[1] ? base + 1 : hi.dir;
        char cached[160] = "";
        if (hi.causal && a->run.n)
            snprintf(cached, sizeof cached, _(" · computed %zu of %zu tokens (key/value cache)"),
                     a->run.n - a->reused, a->run.n);
        snprintf(b, sizeof b, _("%s · %zu layers × %zu heads · %s tokens%s · %s"), base,
                 hi.cfg->n_layers, hi.cfg->n_heads, hi.tokenizer, cached, _("f: find heads"));
        ui_put_items(w, y + used++, x, b, cols, crt_attr(CRT_DIM));
        if (a->n_total > a->toks.n && a->toks.n) {
            snprintf(b, sizeof b, _("first %zu of %zu tokens (model limit)"), a->toks.n,
                     a->n_total);
            ui_put_items(w, y + used++, x, b, cols, crt_attr(CRT_WARN));
        }
        if (l->found[0] && rows > 9)
            ui_put_items(w, y + used++, x, l->found, cols, crt_attr(CRT_OK));
        return used;
    }
    if (t->model_note[0] && rows > 9) {
        ui_puts(w, y + used++, x, t->model_note, cols, crt_attr(CRT_WARN));
    } else if (tall) {
        ui_scope_trained_on(ui_tutor_model(app), 0, b, sizeof b);
        if (ui_tutor_trained(app))
            strcat(b, _(" · t: one of its sentences"));
        ui_put_items(w, y + used++, x, b, cols, crt_attr(CRT_DIM));
    }
    ui_scope_unseen(a, l->input.cut ? UI_LINE_MAX - 1 : 0, cols < 60, b, sizeof b);
    if (b[0])
        ui_put_items(w, y + used, x, b, cols, crt_attr(CRT_WARN));
    else if (tall && a->run.n && ui_tutor_trained(app))
        ui_puts(w, y + used, x, _("every word was in the training sentences"), cols,
                crt_attr(CRT_DIM));
    used += b[0] || tall;
    /* tall: the trained rows, then the note (its line kept, so the heatmap stays put);
     * otherwise the note, or the trained rows when there is none */
    char note[1024];
    int has_note = ui_scope_note(t->model, a, l->map.cur_row, note, sizeof note);
    if (ui_scope_named(t->model, a, b, sizeof b)) {   /* the named head: what it does here */
        ui_put_items(w, y + used, x, b, cols, crt_attr(CRT_OK));
        return used + 1;
    }
    if (tall || !has_note) {
        ui_scope_rows(ui_tutor_model(app), a, b, sizeof b);
        if (b[0])
            ui_put_items(w, y + used, x, b, cols, crt_attr(CRT_DIM));
        used += b[0] || tall;
    }
    if (has_note)
        ui_put_items(w, y + used, x, note, cols, crt_attr(CRT_WRONG) | A_BOLD);
    used += has_note || tall;
    return used > 0 ? used : 1;
}

static void draw_input(ui_lab *l, WINDOW *w, int y, int x, int cols)
{
    const char *label = _("Sentence: ");
    int lw = ui_puts(w, y, x, label, cols / 3, crt_attr(l->typing ? CRT_TITLE : CRT_NORMAL));
    int fw = cols - lw;
    if (fw < 2)
        return;
    int cx = ui_lineedit_fit(&l->input, fw);
    ui_fill(w, y, x + lw, fw, crt_attr(CRT_INPUT));
    if (!l->typing) {   /* not editing: the start of the sentence, "…" when cut */
        int tw = ui_text_width(l->input.buf, l->input.len);
        int used = ui_put(w, y, x + lw, l->input.buf, l->input.len, tw > fw ? fw - 1 : fw,
                          crt_attr(CRT_INPUT));
        if (tw > fw)
            ui_puts(w, y, x + lw + used, "…", 1, crt_attr(CRT_INPUT));
        return;
    }
    /* skip the scrolled-off columns, whole clusters only */
    size_t i = 0;
    int col = 0;
    while (i < l->input.len && col < l->input.scroll) {
        size_t j = ui_text_next(l->input.buf, l->input.len, i);
        col += ui_text_gwidth(l->input.buf + i, j - i);
        i = j;
    }
    int shift = col - l->input.scroll;   /* a wide glyph half scrolled off */
    ui_put(w, y, x + lw + shift, l->input.buf + i, l->input.len - i, fw - shift,
           crt_attr(CRT_INPUT));
    if (l->typing)
        ui_app_cursor(l->base.app, y, x + lw + cx);
}

static void fmt_score(float v, char *b, size_t n)
{
    if (isinf(v) && v < 0)
        snprintf(b, n, "%s", _("masked"));
    else
        snprintf(b, n, "%.3f", (double)v);
}

/* The three keys with the largest weights for query i (n where fewer keys). */
static void top3(const ui_attn *a, int head, size_t i, size_t top[3])
{
    size_t n = a->run.n;
    top[0] = top[1] = top[2] = n;
    for (size_t j = 0; j < n; j++) {
        float v = a->run.weights[a->layer][ui_attn_index(a, head, i, j)];
        for (int t = 0; t < 3; t++) {
            if (top[t] == n || v > a->run.weights[a->layer][ui_attn_index(a, head, i, top[t])]) {
                for (int u = 2; u > t; u--)
                    top[u] = top[u - 1];
                top[t] = j;
                break;
            }
        }
    }
}

/* 1 when row i of the shown layer is one that training never reached. */
static int untrained_row(const ui_attn *a, size_t i)
{
    return a->untrained && (size_t)a->layer == a->last_layer && i < a->run.n && a->untrained[i];
}

/* One line for small terminals: "it → animal 0.997 · too 0.003 · it 0.000". */
static void draw_summary(ui_lab *l, WINDOW *w, int y, int x, int cols)
{
    const ui_attn *a = &l->attn;
    int head = a->head == UI_HEAD_ALL ? 0 : a->head;
    size_t i = (size_t)l->map.cur_row, top[3];
    if (a->run.n == 0)
        return;
    char b[512];
    if (a->run.fully_masked[i]) {
        snprintf(b, sizeof b, "%s: %s", a->labels[i], _("fully masked: no key visible, all weights 0"));
        ui_puts(w, y, x, b, cols, crt_attr(CRT_WARN));
        return;
    }
    top3(a, head, i, top);
    int pos = snprintf(b, sizeof b, "%s%s →", a->labels[i],
                       untrained_row(a, i) ? _(" (untrained row)") : "");
    for (int t = 0; t < 3 && top[t] < a->run.n && pos < (int)sizeof b; t++)
        pos += snprintf(b + pos, sizeof b - (size_t)pos, "%s %s %.3f", t ? " ·" : "",
                        a->labels[top[t]],
                        (double)a->run.weights[a->layer][ui_attn_index(a, head, i, top[t])]);
    ui_put_items(w, y, x, b, cols, crt_attr(CRT_OK));
}

/* The detail pane: for the selected query, each key's q·k, scaled score and weight. */
static void draw_detail(ui_lab *l, WINDOW *w, ui_rect r)
{
    const ui_attn *a = &l->attn;
    int head = a->head == UI_HEAD_ALL ? 0 : a->head;
    size_t n = a->run.n, i = (size_t)l->map.cur_row;
    if (n == 0 || r.h < 3 || r.w < 20)
        return;
    char b[256];
    snprintf(b, sizeof b, _("Query %zu: %s"), i + 1, a->labels[i]);
    int tw = ui_puts(w, r.y, r.x, b, r.w, crt_attr(CRT_TITLE));
    if (ui_tutor_trained(l->base.app) && a->run.unknown && a->run.unknown[i])
        tw += ui_puts(w, r.y, r.x + tw, _(" (unseen word)"), r.w - tw, crt_attr(CRT_WARN));
    if (untrained_row(a, i))
        ui_puts(w, r.y, r.x + tw, _(" (untrained row)"), r.w - tw, crt_attr(CRT_DIM));
    if (a->run.fully_masked[i]) {
        ui_puts(w, r.y + 1, r.x, _("fully masked: no key visible, all weights 0"), r.w,
                crt_attr(CRT_WARN));
        return;
    }
    int kw = r.w - 24 > 10 ? 10 : r.w - 24;
    ui_puts(w, r.y + 1, r.x, _("key"), kw, crt_attr(CRT_DIM));
    ui_put_right(w, r.y + 1, r.x + kw, "q·k", 8, crt_attr(CRT_DIM));
    ui_put_right(w, r.y + 1, r.x + kw + 8, a->unscaled ? _("×1") : "/√dₖ", 8, crt_attr(CRT_DIM));
    ui_put_right(w, r.y + 1, r.x + kw + 16, _("weight"), 8, crt_attr(CRT_DIM));
    int rows = r.h - 7;   /* title, header, keys…, blank, "top 3:", three lines */
    if (rows < 1)
        rows = 1;
    int cur = l->map.cur_col;
    if (cur < l->detail_top)
        l->detail_top = cur;
    if (cur >= l->detail_top + rows)
        l->detail_top = cur - rows + 1;
    if (l->detail_top > (int)n - rows)
        l->detail_top = (int)n - rows;
    if (l->detail_top < 0)
        l->detail_top = 0;
    for (int k = 0; k < rows && l->detail_top + k < (int)n; k++) {
        size_t j = (size_t)(l->detail_top + k);
        size_t at = ui_attn_index(a, head, i, j);
        int y = r.y + 2 + k;
        attr_t at_a = (int)j == cur ? crt_attr(CRT_SELECTED) : crt_attr(CRT_NORMAL);
        ui_fill(w, y, r.x, kw + 24, at_a);
        ui_puts(w, y, r.x, a->labels[j], kw - 1, at_a);
        fmt_score(a->run.scores[a->layer][at], b, sizeof b);
        ui_put_right(w, y, r.x + kw, b, 8, at_a);
        fmt_score(a->run.scaled[a->layer][at], b, sizeof b);
        ui_put_right(w, y, r.x + kw + 8, b, 8, at_a);
        snprintf(b, sizeof b, "%.3f", (double)a->run.weights[a->layer][at]);
        ui_put_right(w, y, r.x + kw + 16, b, 8, at_a);
    }
    size_t top[3];
    top3(a, head, i, top);
    int y = r.y + 2 + (rows < (int)n ? rows : (int)n) + 1;
    if (y < r.y + r.h)
        ui_puts(w, y++, r.x, _("top 3:"), r.w, crt_attr(CRT_DIM));
    for (int t = 0; t < 3 && top[t] < n && y < r.y + r.h; t++, y++) {
        snprintf(b, sizeof b, "%d. %.3f ", t + 1,
                 (double)a->run.weights[a->layer][ui_attn_index(a, head, i, top[t])]);
        int c = ui_puts(w, y, r.x + 1, b, r.w - 1, crt_attr(CRT_OK));
        ui_puts(w, y, r.x + 1 + c, a->labels[top[t]], r.w - 1 - c, crt_attr(CRT_OK));
    }
}

/* Every head of the layer side by side, when they fit (ui/headsgrid.h: numbers in the
 * cells and whole labels where there is room). Returns 0 when they do not. */
static int draw_all_heads(ui_lab *l, WINDOW *w, ui_rect r)
{
    ui_heads_grid g;
    if (!ui_heads_grid_plan(&l->attn, r.w, r.h, &g))
        return 0;
    ui_heads_grid_draw(w, r, 0, &l->attn, l->map.cur_row, &g);
    if (g.cell < 4 && g.rows + 1 < r.h)
        ui_puts(w, r.y + g.rows + 1, r.x, _("colour only: a head alone (1-9) shows its numbers"),
                r.w, crt_attr(CRT_DIM));
    return 1;
}

/* One head as a thumbnail of side rows × rows (2 columns a cell, so it looks square):
 * cell (a, b) shows the largest weight of its block of queries and keys; a block whose
 * every cell is masked is blank. */
static void draw_thumbnail(const ui_attn *a, int head, WINDOW *w, int y, int x, size_t side)
{
    size_t n = a->run.n;
    const float *wt = a->run.weights[a->layer] + ui_attn_index(a, head, 0, 0);
    const float *sc = a->run.scores[a->layer] + ui_attn_index(a, head, 0, 0);
    int colour = crt_palette_in_use() != CRT_PALETTE_NONE;
    for (size_t r = 0; r < side; r++)
        for (size_t c = 0; c < side; c++) {
            size_t i0 = r * n / side, i1 = (r + 1) * n / side, j0 = c * n / side,
                   j1 = (c + 1) * n / side;
            float best = -1;
            for (size_t i = i0; i < i1; i++)
                for (size_t j = j0; j < j1; j++)
                    if (!(isinf(sc[i * n + j]) && sc[i * n + j] < 0) && wt[i * n + j] > best)
                        best = wt[i * n + j];
            int cy = y + (int)r, cx = x + 2 * (int)c;
            if (best < 0) {
                ui_fill(w, cy, cx, 2, crt_attr(CRT_NORMAL));
            } else if (colour) {
                ui_fill(w, cy, cx, 2, crt_attr(crt_heat_role(best)));
            } else {
                ui_puts(w, cy, cx, crt_shade(best), 1, crt_attr(CRT_NORMAL));
                ui_puts(w, cy, cx + 1, crt_shade(best), 1, crt_attr(CRT_NORMAL));
            }
        }
}

/* Every head of the layer as thumbnails (BertViz's model view), when the full maps do
 * not fit: the largest side that fits, at most one cell per token. Returns 0 when not
 * even 4 × 4 cells fit. */
static int draw_thumbnails(ui_lab *l, WINDOW *w, ui_rect r)
{
    size_t H = ui_attn_heads(&l->attn), n = l->attn.run.n, best = 0, best_per_row = 1;
    for (size_t per_row = 1; per_row <= H; per_row++) {
        size_t rows_of = (H + per_row - 1) / per_row;
        size_t by_w = (size_t)r.w / per_row, by_h = ((size_t)r.h - 1) / rows_of;
        size_t side = by_w >= 3 ? (by_w - 2) / 2 : 0;
        if (by_h >= 1 && by_h - 1 < side)
            side = by_h - 1;
        if (side > n)
            side = n;
        if (side > best) {
            best = side;
            best_per_row = per_row;
        }
    }
    if (best < 4)
        return 0;
    int pw = 2 * (int)best + 2, ph = (int)best + 1;
    char t[160];
    snprintf(t, sizeof t, _("every head of layer %d: each cell the largest weight of its "
                            "block (%zu × %zu tokens a cell at most)"), l->attn.layer + 1,
             (n + best - 1) / best, (n + best - 1) / best);
    ui_put_items(w, r.y, r.x, t, r.w, crt_attr(CRT_DIM));
    for (size_t h = 0; h < H; h++) {
        int gx = r.x + (int)(h % best_per_row) * pw, gy = r.y + 1 + (int)(h / best_per_row) * ph;
        snprintf(t, sizeof t, _("head %zu"), h + 1);
        ui_puts(w, gy, gx, t, pw - 1, crt_attr(CRT_TITLE));
        draw_thumbnail(&l->attn, (int)h, w, gy + 1, gx, best);
    }
    return 1;
}

static void lab_draw(ui_screen *s, WINDOW *w, ui_rect r)
{
    ui_lab *l = (ui_lab *)s;
    run_if_stale(l);
    draw_input(l, w, r.y, r.x + 1, r.w - 2);
    draw_info(l, w, r.y + 1, r.x + 1, r.w - 2);
    int notes = draw_scope(l, w, r.y + 2, r.x + 1, r.w - 2, r.h);
    ui_rect body = {r.y + 2 + notes, r.x + 1, r.h - 2 - notes, r.w - 2};
    if (l->attn.error[0]) {
        ui_lines lines = {0};
        ui_wrap(l->attn.error, strlen(l->attn.error), body.w, &lines);
        for (size_t i = 0; i < lines.n && (int)i < body.h; i++)
            ui_put(w, body.y + (int)i, body.x, l->attn.error + lines.v[i].start,
                   lines.v[i].len, body.w, crt_attr(CRT_WRONG));
        ui_lines_free(&lines);
        return;
    }
    if (l->attn.run.n == 0) {
        ui_puts(w, body.y, body.x, _("Type a sentence: its tokens and their attention appear here."),
                body.w, crt_attr(CRT_DIM));
        return;
    }
    if (l->attn.head == UI_HEAD_ALL) {
        if (draw_all_heads(l, w, body) || draw_thumbnails(l, w, body))
            return;
        ui_puts(w, body.y, body.x, _("All heads do not fit this terminal; showing head 1."),
                body.w, crt_attr(CRT_WARN));
        body.y++;
        body.h--;
    }
    /* wide screens: cells as wide as the longest key label (up to 12 columns), so the
     * labels are whole; the default 6 otherwise */
    int longest = 0;
    for (size_t j = 0; j < l->attn.run.n; j++) {
        int lw = ui_text_width(l->attn.labels[j], strlen(l->attn.labels[j]));
        longest = lw > longest ? lw : longest;
    }
    l->map.max_cell = longest + 1 > 6 ? (longest + 1 < 12 ? longest + 1 : 12) : 0;
    ui_rect map = body, detail = {0, 0, 0, 0};
    /* the detail pane on the right, unless the heatmap beside it would lose its
     * numbers while there is room for the pane below */
    int right_ok = body.w >= 78 &&
                   (ui_heatmap_shows_numbers(&l->map, body.w - 36) || body.h < 16);
    if (right_ok) {   /* the pane right beside the heatmap, not at the screen's edge */
        map.w = ui_heatmap_width(&l->map, body.w - 36);
        detail = (ui_rect){body.y, body.x + map.w + 2, body.h, 34};
    } else if (body.h >= 16) {   /* below */
        int dh = body.h / 2 > 10 ? 10 : body.h / 2;
        map.h = body.h - dh - 1;
        detail = (ui_rect){body.y + map.h + 1, body.x, dh, body.w};
    }
    if (detail.h == 0 && map.h >= 5) {   /* no room for the pane: one line */
        map.h--;
        draw_summary(l, w, map.y + map.h, map.x, map.w);
    }
    if (!ui_heatmap_shows_numbers(&l->map, map.w) && map.h >= 5) {   /* say so */
        ui_put_items(w, map.y + map.h - 1, map.x,
                detail.h > 0 ? _("colour only: numbers in the detail pane")
                             : _("colour only: top weights below"),
                map.w, crt_attr(CRT_DIM));
        map.h--;
    }
    ui_heatmap_draw(w, map, &l->map);
    if (detail.h > 0)
        draw_detail(l, w, detail);
}

static void change_head(ui_lab *l, int head)
{
    int H = (int)ui_attn_heads(&l->attn);
    if (H == 0)
        return;
    l->attn.head = head;
    ui_attn_heatmap(&l->attn, head == UI_HEAD_ALL ? 0 : head, &l->map);
}

/* Cycle 0 … H−1, all (when H > 1). */
static void step_head(ui_lab *l, int dir)
{
    int H = (int)ui_attn_heads(&l->attn);
    int slots = H > 1 ? H + 1 : H, cur = l->attn.head == UI_HEAD_ALL ? H : l->attn.head;
    if (slots == 0)
        return;
    cur = (cur + dir + slots) % slots;
    change_head(l, cur == H ? UI_HEAD_ALL : cur);
}

static void step_layer(ui_lab *l, int dir)
{
    int L = (int)l->attn.run.n_layers;
    if (L == 0)
        return;
    l->attn.layer = (l->attn.layer + dir + L) % L;
    need_layers(l, (size_t)l->attn.layer + 1);
    if (l->attn.head != UI_HEAD_ALL && l->attn.head >= (int)ui_attn_heads(&l->attn))
        l->attn.head = 0;
    change_head(l, l->attn.head);
}

static void export_csv(ui_lab *l)
{
    if (l->attn.run.n == 0) {
        ui_app_message(l->base.app, CRT_WARN, "%s", _("Nothing to export: type a sentence first."));
        return;
    }
    char path[128];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    if (l->attn.head == UI_HEAD_ALL)
        snprintf(path, sizeof path, "attention-L%d-all-%s.csv", l->attn.layer + 1, stamp);
    else
        snprintf(path, sizeof path, "attention-L%d-H%d-%s.csv", l->attn.layer + 1,
                 l->attn.head + 1, stamp);
    if (ui_attn_export_csv(&l->attn, path) == 0)
        ui_app_message(l->base.app, CRT_OK, _("Saved the weights to\n%s"), path);
    else
        ui_app_message(l->base.app, CRT_WRONG, _("Could not write\n%s: %s"), path, strerror(errno));
}

/* t: the next training frame's example sentence, the query on its pronoun. */
static void load_frame(ui_lab *l)
{
    ui_app *app = l->base.app;
    size_t n, k = l->frame;
    const at_model_frame *f = ui_scope_frame(ui_tutor_model(app), k, &n);
    if (!f) {
        ui_app_message(l->base.app, CRT_WARN, "%s",
                       _("The model file records no sentences it was trained on."));
        return;
    }
    l->frame = (k + 1) % n;
    ui_lineedit_set(&l->input, f->example);
    l->stale = 0;
    recompute(l);   /* the query on its pronoun */
    ui_app_message(l->base.app, CRT_OK, _("Training frame %zu of %zu: %s"), k % n + 1, n,
                   f->pattern);
}

/* m, s and t with a real model: its mask and scaling are its own, and it has no
 * training sentences to show. */
static void real_model_key(ui_lab *l, int ch)
{
    at_hf_info hi;
    at_hf_get_info(ui_tutor_of(l->base.app)->hf, &hi);
    const char *why = ch == 't' ? _("t shows the built-in model's training sentences; a real "
                                    "model takes any sentence: type one (i).")
                    : ch == 's' ? _("A real model's scores are scaled by √dₖ as it was trained; "
                                    "s is for the built-in model.")
                    : hi.causal ? _("GPT-2 is causal by construction: the mask is the model's "
                                    "own (it was trained to look only backwards).")
                                : _("BERT attends both ways by construction: it has no causal "
                                    "mask.");
    ui_app_message(l->base.app, CRT_WARN, "%s", why);
}

/* f: the head, over every layer, with the most weight on the previous token, on the
 * first token, on the other pieces of the same word (each press the next measure). */
static void find_head(ui_lab *l)
{
    static const char *const what[AT_HEAD_N_MEASURES] = {
        N_("on the previous token"), N_("on the first token"),
        N_("on the other pieces of the same word")};
    if (l->attn.run.n == 0) {
        ui_app_message(l->base.app, CRT_WARN, "%s", _("Type a sentence first."));
        return;
    }
    need_layers(l, 0);   /* every layer is compared */
    for (int tries = 0; tries < AT_HEAD_N_MEASURES; tries++) {
        at_head_measure m = (at_head_measure)l->find;
        l->find = (l->find + 1) % AT_HEAD_N_MEASURES;
        size_t layer, head;
        double v;
        size_t count = at_head_best(&l->attn.run, &l->attn.toks, l->input.buf, m, &layer,
                                    &head, &v);
        if (!count)
            continue;   /* e.g. no word of several pieces: the next measure */
        l->attn.layer = (int)layer;
        change_head(l, (int)head);
        /* A best under twice what an even spread would give is no head that does this:
         * say so, with the figure */
        double even = 0;
        if (at_head_measure_even(&l->attn.run, &l->attn.toks, l->input.buf, layer, head, m,
                                 &even) == 0 && v < 2 * even)
            snprintf(l->found, sizeof l->found, _("f: no head stands out %s: the most is layer "
                                                   "%zu, head %zu, with %.2f on average (of %zu heads)"),
                     _(what[m]), layer + 1, head + 1, v, count);
        else
            snprintf(l->found, sizeof l->found, _("f: layer %zu, head %zu puts %.2f %s on average "
                                                   "(the most of %zu heads)"),
                     layer + 1, head + 1, v, _(what[m]), count);
        ui_app_message(l->base.app, CRT_OK, "%s", l->found);
        return;
    }
    ui_app_message(l->base.app, CRT_WARN, "%s", _("Nothing to measure: the sentence is one token."));
}

static int key_typing(ui_lab *l, ui_key k)
{
    ui_lineedit *e = &l->input;
    if (UI_IS_CHAR(k, '\r') || UI_IS_CHAR(k, '\n') || UI_IS_CHAR(k, '\t') ||
        UI_IS_CHAR(k, 27) || UI_IS_FN(k, KEY_ENTER) || UI_IS_FN(k, KEY_DOWN)) {
        l->typing = 0;
        return UI_HANDLED | UI_REDRAW;
    }
    int r = ui_edit_key(e, k);
    if (r == UI_EDIT_UNKNOWN)
        return UI_IGNORED;
    if (r == UI_EDIT_CHANGED)
        l->stale = 1;   /* the model runs before the next draw */
    return UI_HANDLED | UI_REDRAW;
}

static int move_cursor(ui_lab *l, int drow, int dcol)
{
    int n = (int)l->attn.run.n;
    if (n == 0)
        return UI_HANDLED;
    l->map.cur_row += drow;
    l->map.cur_col += dcol;
    if (l->map.cur_row < 0) l->map.cur_row = 0;
    if (l->map.cur_row >= n) l->map.cur_row = n - 1;
    if (l->map.cur_col < 0) l->map.cur_col = 0;
    if (l->map.cur_col >= n) l->map.cur_col = n - 1;
    return UI_HANDLED | UI_REDRAW;
}

static int lab_key(ui_screen *s, ui_key k)
{
    ui_lab *l = (ui_lab *)s;
    if (l->typing)
        return key_typing(l, k);
    run_if_stale(l);
    int n = (int)l->attn.run.n;
    if (k.fn) {
        switch (k.ch) {
        case KEY_UP: return move_cursor(l, -1, 0);
        case KEY_DOWN: return move_cursor(l, 1, 0);
        case KEY_LEFT: return move_cursor(l, 0, -1);
        case KEY_RIGHT: return move_cursor(l, 0, 1);
        case KEY_HOME: return move_cursor(l, -n, 0);
        case KEY_END: return move_cursor(l, n, 0);
        case KEY_PPAGE: return move_cursor(l, -10, 0);
        case KEY_NPAGE: return move_cursor(l, 10, 0);
        default: return UI_IGNORED;
        }
    }
    switch (k.ch) {
    case 'k': return move_cursor(l, -1, 0);
    case 'j': return move_cursor(l, 1, 0);
    case 'h': return move_cursor(l, 0, -1);
    case 'l': return move_cursor(l, 0, 1);
    case 'g': return move_cursor(l, -n, 0);
    case 'G': return move_cursor(l, n, 0);
    case 'i': case '/': case '\t':
        l->typing = 1;
        return UI_HANDLED | UI_REDRAW;
    case '[': step_layer(l, -1); break;
    case ']': step_layer(l, 1); break;
    case ',': step_head(l, -1); break;
    case '.': step_head(l, 1); break;
    case 'a':   /* all heads on/off */
        if (ui_attn_heads(&l->attn) == 1)
            ui_app_message(s->app, CRT_WARN, "%s", _("This layer has one head: it is the one shown."));
        else if (l->attn.head == UI_HEAD_ALL)
            change_head(l, 0);
        else if (ui_attn_heads(&l->attn) > 0)
            change_head(l, UI_HEAD_ALL);
        break;
    case 'm':
    case 's':
    case 't':
        if (ui_tutor_of(s->app)->hf) {
            real_model_key(l, k.ch);
            break;
        }
        if (k.ch == 't') {
            load_frame(l);
            break;
        }
        if (k.ch == 'm')
            l->attn.causal = !l->attn.causal;
        else
            l->attn.unscaled = !l->attn.unscaled;
        recompute(l);
        ui_app_message(s->app, CRT_WARN, "%s", l->attn.unscaled
            ? _("Scaling off in every layer: the layers below change too, so even q·k changes, "
                "not only the division by √dₖ.")
            : _("Scaling by √dₖ on again, in every layer."));
        break;
    case 'f': find_head(l); break;
    case 'e': export_csv(l); break;
    case 'q': case 27: return UI_BACK;
    default:
        if (k.ch >= '1' && k.ch <= '9') {
            int h = (int)(k.ch - '1');
            if (h < (int)ui_attn_heads(&l->attn))
                change_head(l, h);
            else
                ui_app_message(s->app, CRT_WARN, _n("This layer has %zu head.", "This layer has %zu heads.", ui_attn_heads(&l->attn)),
                               ui_attn_heads(&l->attn));
            break;
        }
        return UI_IGNORED;
    }
    return UI_HANDLED | UI_REDRAW;
}

static void lab_free(ui_screen *s)
{
    ui_lab *l = (ui_lab *)s;
    ui_attn_free(&l->attn);
    at_hf_cache_free(l->cache);
    free(l);
}

static const ui_screen_ops lab_ops = {
    .draw = lab_draw,
    .key = lab_key,
    .typing = lab_typing,
    .title = lab_title,
    .status = lab_status,
    .free = lab_free,
    .help = lab_help,
};

ui_screen *ui_lab_new(ui_app *app, const char *sentence, const ui_lab_opts *opts)
{
    ui_lab *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->base.ops = &lab_ops;
    l->base.app = app;
    at_model_info info;
    at_model_get_info(ui_tutor_model(app), &info);
    ui_lab_opts o = opts ? *opts : (ui_lab_opts){-1, -1, 0, 0, -1};
    l->attn.layer = o.layer >= 0 ? o.layer : (int)info.n_layers - 1;
    l->attn.head = o.head == -2 ? UI_HEAD_ALL : o.head >= 0 ? o.head : (int)info.coref_head;
    if (o.head == -1)
        l->attn.layer = o.layer >= 0 ? o.layer : (int)info.coref_layer;
    if (ui_tutor_of(app)->hf) {   /* a real model: layer 1, head 1 unless asked */
        l->attn.layer = o.layer >= 0 ? o.layer : 0;
        l->attn.head = o.head == -2 ? UI_HEAD_ALL : o.head >= 0 ? o.head : 0;
    }
    l->attn.causal = o.causal;
    l->attn.unscaled = o.unscaled;
    l->map.cur_row = o.focus;
    l->map.cur_col = o.focus;
    if (!sentence) {
        sentence = !strcmp(ui_tutor_lang(app), "zh") ? "小明今天没来学校，因为他生病了。"
                                          : "The animal didn't cross the road because it was too tired.";
    }
    l->typing = sentence[0] == '\0';   /* typing mode only on an empty sentence */
    ui_lineedit_set(&l->input, sentence);
    recompute(l);
    if (o.focus < 0)   /* no token named: the cursor on the pronoun the model was trained at */
        for (size_t i = 0; i < l->attn.scope.n && l->attn.scope.trained_row; i++)
            if (l->attn.scope.trained_row[i]) {
                l->map.cur_row = l->map.cur_col = (int)i;
                break;
            }
    return &l->base;
}
