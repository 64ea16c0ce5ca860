/* The mini-model's scope in words, for attend and show: what it was trained on (from
 * the model file's metadata) and the note that says when its weights are not learned
 * meaning. The facts come from the engine (at_model_frames, at_model_scope). */
#include "cli/cli.h"
#include "engine/model.h"

#include <stdarg.h>
#include <string.h>

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

void cli_scope_pronouns(const at_model *m, char *buf, size_t cap)
{
    const char *p[AT_MODEL_MAX_PRONOUNS];
    size_t n = at_model_pronouns(m, p, AT_MODEL_MAX_PRONOUNS);
    buf[0] = '\0';
    for (size_t i = 0; i < n && i < AT_MODEL_MAX_PRONOUNS; i++)
        add(buf, cap, "%s%s", i ? "/" : "", p[i]);
}

/* The first trained frame in the language of the output (else the first trained one). */
static const at_model_frame *example_frame(const at_model *m, qz_lang lang, size_t *trained)
{
    const at_model_frame *f, *pick = NULL;
    size_t n = at_model_frames(m, &f);
    *trained = 0;
    for (size_t i = 0; i < n; i++) {
        if (f[i].held_out)
            continue;
        (*trained)++;
        int same = !strcmp(f[i].lang, lang == QZ_ZH ? "zh" : "en");
        if (f[i].example[0] && (!pick || (same && strcmp(pick->lang, f[i].lang))))
            pick = &f[i];
    }
    return pick;
}

int cli_scope_trained_on(const at_model *m, qz_lang lang, char *buf, size_t cap)
{
    at_model_info info;
    at_model_get_info(m, &info);
    buf[0] = '\0';
    if (!info.trained) {
        add(buf, cap, "%s", qz_tr(lang, "not trained: random weights from a fixed seed"));
        return 1;
    }
    size_t frames;
    const at_model_frame *ex = example_frame(m, lang, &frames);
    char pron[384];
    cli_scope_pronouns(m, pron, sizeof pron);
    if (!frames || !pron[0]) {
        add(buf, cap, "%s", qz_tr(lang, "the model file does not record what it was trained on"));
        return 0;
    }
    add(buf, cap, qz_tr(lang, "trained only to tell which noun %s refers to, on %zu sentence "
                              "frames (%zu sentences, %zu words)"),
        pron, frames, at_model_train_sentences(m), info.vocab_size);
    if (ex)
        add(buf, cap, qz_tr(lang, " such as “%s”"), ex->example);
    size_t l, h;
    if (at_model_named_head(m, &l, &h))
        add(buf, cap, qz_tr(lang, "; layer %zu head %zu was trained to look at the token before "
                                  "it, on any sentence"), l + 1, h + 1);
    return 1;
}

int cli_scope_note(const at_model *m, const at_scope *s, qz_lang lang, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!s->reasons)
        return 0;
    const char *sep = qz_tr(lang, "; ");
    int parts = 0;
    add(buf, cap, "%s", qz_tr(lang, "the weights here are not learned meaning: "));
    if (s->reasons & AT_SCOPE_UNTRAINED) {
        add(buf, cap, "%s", qz_tr(lang, "these are untrained demo weights"));
        parts++;
    }
    if (s->reasons & AT_SCOPE_NO_PRONOUN) {
        char pron[384];
        cli_scope_pronouns(m, pron, sizeof pron);
        add(buf, cap, qz_tr(lang, "%sthe model was trained only at %s, and this sentence has none"), parts ? sep : "", pron);
        parts++;
    }
    if (s->reasons & AT_SCOPE_UNSEEN) {
        int pct = s->n ? (int)(100.0 * (double)s->unseen_tokens / (double)s->n + 0.5) : 0;
        add(buf, cap, s->unseen_han ? qz_tr(lang, "%s%d%% of the tokens are characters it never saw "
                                                  "(their vectors are guesses from character n-grams)")
                                    : qz_tr(lang, "%s%d%% of the tokens are words it never saw (their "
                                                  "vectors are guesses from character n-grams)"),
            parts ? sep : "", pct);
    }
    add(buf, cap, "%s", qz_tr(lang, "."));
    return 1;
}
