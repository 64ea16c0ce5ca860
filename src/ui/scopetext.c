/* The mini-model's scope in the tutor's words. */
#include "ui/scopetext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/i18n.h"

/* Append to buf (always NUL-terminated, cut when full). */
static void add(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

/* The pronouns it was trained at: "it/he/she… 它/他/他们…" (at most three of each
 * script, a screen line holds that), Latin ones first. */
static void pronouns(const at_model *m, char *buf, size_t cap)
{
    const char *p[AT_MODEL_MAX_PRONOUNS];
    size_t n = at_model_pronouns(m, p, AT_MODEL_MAX_PRONOUNS);
    buf[0] = '\0';
    if (n > AT_MODEL_MAX_PRONOUNS)
        n = AT_MODEL_MAX_PRONOUNS;
    for (int han = 0; han < 2; han++) {
        size_t shown = 0, more = 0;
        for (size_t i = 0; i < n; i++) {
            if (((unsigned char)p[i][0] >= 0x80) != han)
                continue;
            if (shown == 3) {
                more = 1;
                continue;
            }
            add(buf, cap, "%s%s", shown ? "/" : buf[0] ? " " : "", p[i]);
            shown++;
        }
        if (more)
            add(buf, cap, "…");
    }
}

const at_model_frame *ui_scope_frame(const at_model *m, size_t i, size_t *n_trained)
{
    const at_model_frame *f;
    size_t n = at_model_frames(m, &f), k = 0;
    const char *lang = ui_lang();
    *n_trained = 0;
    for (size_t j = 0; j < n; j++)
        *n_trained += !f[j].held_out && f[j].example[0];
    if (*n_trained == 0)
        return NULL;
    i %= *n_trained;
    for (int pass = 0; pass < 2; pass++)   /* the UI language's frames first */
        for (size_t j = 0; j < n; j++) {
            if (f[j].held_out || !f[j].example[0] || (strcmp(f[j].lang, lang) == 0) != !pass)
                continue;
            if (k++ == i)
                return &f[j];
        }
    return NULL;
}

int ui_scope_trained_on(const at_model *m, int with_example, char *buf, size_t cap)
{
    at_model_info info;
    at_model_get_info(m, &info);
    buf[0] = '\0';
    if (!info.trained) {
        add(buf, cap, "%s", _("Untrained demo weights: random numbers from a fixed seed"));
        return 1;
    }
    size_t frames;
    const at_model_frame *ex = ui_scope_frame(m, 0, &frames);
    char pron[384];
    pronouns(m, pron, sizeof pron);
    if (!ex || !pron[0]) {
        add(buf, cap, "%s", _("The model file does not record what it was trained on"));
        return 0;
    }
    add(buf, cap, _n("Trained only to tell which noun %s refers to, in %zu sentence frame",
                           "Trained only to tell which noun %s refers to, in %zu sentence frames",
                           frames), pron, frames);
    if (with_example)
        add(buf, cap, _(", such as “%s”"), ex->example);
    return 1;
}

/* 1 when a shows the named head with a sentence of two tokens or more. */
static int shows_named(const at_model *m, const ui_attn *a, double *mean, double *min,
                       size_t *at)
{
    size_t l, h;
    return at_model_named_head(m, &l, &h) && a->head != UI_HEAD_ALL && a->layer == (int)l &&
           a->head == (int)h && at_run_previous_token(&a->run, l, h, mean, min, at);
}

int ui_scope_named(const at_model *m, const ui_attn *a, char *buf, size_t cap)
{
    size_t at;
    double mean, min;
    buf[0] = '\0';
    if (!shows_named(m, a, &mean, &min, &at))
        return 0;
    add(buf, cap, _("Previous-token head (trained, any sentence)"));
    add(buf, cap, " · ");
    add(buf, cap, _("here %.2f on the token before, lowest %.2f (%s)"), mean, min,
        a->labels[at]);
    return 1;
}

int ui_scope_note(const at_model *m, const ui_attn *a, int cur_row, char *buf, size_t cap)
{
    const at_scope *s = &a->scope;
    at_model_info info;
    at_model_get_info(m, &info);
    int query_unseen = info.trained && cur_row >= 0 && (size_t)cur_row < s->n &&
                       a->run.unknown && a->run.unknown[cur_row];
    buf[0] = '\0';
    size_t at;
    double mean, min;
    if (a->run.n == 0 || (!s->reasons && !query_unseen) || shows_named(m, a, &mean, &min, &at))
        return 0;
    int parts = 0;   /* the reasons, " · "-separated after the heading */
    add(buf, cap, "%s", _("Not learned meaning here: "));
    if (s->reasons & AT_SCOPE_UNTRAINED)
        add(buf, cap, "%s%s", parts++ ? " · " : "", _("untrained demo weights"));
    if (s->reasons & AT_SCOPE_UNSEEN) {
        int pct = s->n ? (int)(100.0 * (double)s->unseen_tokens / (double)s->n + 0.5) : 0;
        add(buf, cap, "%s", parts++ ? " · " : "");
        add(buf, cap, s->unseen_han ? _("%d%% unseen characters") : _("%d%% unseen words"), pct);
    }
    if (s->reasons & AT_SCOPE_NO_PRONOUN) {
        char pron[384];
        pronouns(m, pron, sizeof pron);
        add(buf, cap, "%s", parts++ ? " · " : "");
        add(buf, cap, _("no %s, the pronouns it was trained at"), pron);
    }
    if (query_unseen) {
        add(buf, cap, "%s", parts++ ? " · " : "");
        add(buf, cap, _("the query “%s” is unseen"), a->labels[cur_row]);
    }
    return 1;
}

void ui_scope_unseen(const ui_attn *a, int cut_bytes, int narrow, char *buf, size_t cap)
{
    const at_scope *s = &a->scope;
    buf[0] = '\0';
    if (cut_bytes > 0)
        add(buf, cap, _("sentence cut at %d bytes"), cut_bytes);
    if (a->n_total > a->toks.n && a->toks.n) {
        add(buf, cap, "%s", buf[0] ? " · " : "");
        add(buf, cap, _("first %zu of %zu tokens (model limit)"), a->toks.n, a->n_total);
    }
    if (s->n_unseen == 0 || (s->reasons & AT_SCOPE_UNTRAINED))
        return;
    int pct = s->n ? (int)(100.0 * (double)s->unseen_tokens / (double)s->n + 0.5) : 0;
    add(buf, cap, "%s", buf[0] ? " · " : "");
    if (narrow)
        add(buf, cap, _("unseen (%d%%): "), pct);
    else
        add(buf, cap, s->unseen_han ? _("unseen characters (%d%% of the tokens): ")
                                    : _("unseen words (%d%% of the tokens): "), pct);
    for (size_t k = 0; k < s->n_unseen; k++)
        add(buf, cap, "%s%s", k ? " " : "", a->labels[s->unseen[k]]);
}

void ui_scope_rows(const at_model *m, const ui_attn *a, char *buf, size_t cap)
{
    const at_scope *s = &a->scope;
    at_model_info info;
    at_model_get_info(m, &info);
    buf[0] = '\0';
    if (!info.trained || a->run.n == 0 || a->layer < 0 || (size_t)a->layer + 1 != info.n_layers)
        return;
    if (s->n_trained_rows == 0) {
        add(buf, cap, "%s", _("No row of this head was trained: the sentence has no pronoun "
                              "the model was trained at (every row dimmed)"));
        return;
    }
    add(buf, cap, "%s", _("trained row: "));
    for (size_t i = 0, k = 0; i < s->n; i++)
        if (s->trained_row[i])
            add(buf, cap, "%s%s", k++ ? " " : "", a->labels[i]);
    if (s->n_trained_rows < s->n)
        add(buf, cap, " · %s", _("the other rows of this head were never trained (dimmed)"));
}
