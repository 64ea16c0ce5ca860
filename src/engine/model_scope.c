/* The model's scope: what it was trained on (from its file's metadata "corpus") and,
 * for one sentence, the words it never saw and the rows its coreference head was
 * trained at. The training loss looks only at the pronoun's position (train.h), so in
 * the last layer — the coreference head's — no other row was ever trained. */
#include "engine/model_impl.h"

#include <stdlib.h>
#include <string.h>
#include <unictype.h>
#include <unistr.h>

size_t at_model_frames(const at_model *m, const at_model_frame **frames)
{
    *frames = m->frames;
    return m->n_frames;
}

size_t at_model_train_sentences(const at_model *m)
{
    return m->train_sentences;
}

const char *at_model_evaluation(const at_model *m)
{
    return m->evaluation;
}

int at_model_named_head(const at_model *m, size_t *layer, size_t *head)
{
    if (!m->trained || !m->profiles)
        return 0;
    size_t k = 0;
    for (size_t l = 0; l < m->cfg.n_layers; l++)
        for (size_t h = 0; h < m->cfg.n_heads[l]; h++, k++)
            if (!strcmp(m->profiles[k].role, "previous token")) {
                *layer = l;
                *head = h;
                return 1;
            }
    return 0;
}

size_t at_model_pronouns(const at_model *m, const char **out, size_t max)
{
    size_t n = 0;
    if (m->pronouns) {   /* the file's own list */
        for (size_t i = 0; i < m->n_pronouns && i < max; i++)
            out[i] = m->pronouns[i];
        return m->n_pronouns;
    }
    for (size_t i = 0; i < m->n_frames; i++) {   /* older files: one pronoun a frame */
        const at_model_frame *f = &m->frames[i];
        int dup = f->held_out || !f->pronoun[0];
        for (size_t k = 0; k < n && k < max && !dup; k++)
            dup = !strcmp(out[k], f->pronoun);
        if (!dup && n < max)
            out[n] = f->pronoun;
        n += !dup;
    }
    return n;
}

/* 1 when the token is a pronoun of the training sentences (compared lower-cased, as
 * the model reads words). */
static int is_trained_pronoun(const at_model *m, const char *low)
{
    const char *p[64];
    size_t n = at_model_pronouns(m, p, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if (!strcmp(p[i], low) && at_model_knows(m, low))
            return 1;
    return 0;
}

static int all_han(const char *s)
{
    const uc_script_t *han = uc_script_byname("Han");
    const uint8_t *p = (const uint8_t *)s, *end = p + strlen(s);
    if (!han || p == end)
        return 0;
    while (p < end) {
        ucs4_t c;
        int k = u8_mbtouc(&c, p, (size_t)(end - p));
        if (k <= 0 || !uc_is_script(c, han))
            return 0;
        p += k;
    }
    return 1;
}

int at_scope_row_trained(const at_model *m, const at_scope *s, size_t layer, size_t i)
{
    if (!m->trained || i >= s->n || layer >= m->cfg.n_layers)
        return 0;
    return layer + 1 < m->cfg.n_layers ? 1 : s->trained_row[i];
}

void at_scope_free(at_scope *s)
{
    if (!s)
        return;
    free(s->unseen);
    free(s->trained_row);
    memset(s, 0, sizeof *s);
}

int at_model_scope(const at_model *m, const at_tokens *t, at_scope *out, at_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = t->n;
    char **low = calloc(n ? n : 1, sizeof *low);
    out->unseen = malloc((n ? n : 1) * sizeof *out->unseen);
    out->trained_row = calloc(n ? n : 1, 1);
    int rc = AT_OK;
    if (!low || !out->unseen || !out->trained_row) {
        rc = at_error_set(err, AT_ENOMEM, "model: out of memory");
        goto out;
    }
    out->n = n;
    out->unseen_han = 1;
    for (size_t i = 0; i < n; i++) {
        if (!(low[i] = at_model_lower(t->items[i].text, strlen(t->items[i].text)))) {
            rc = at_error_set(err, AT_ENOMEM, "model: out of memory");
            goto out;
        }
        if (m->trained && is_trained_pronoun(m, low[i])) {
            out->trained_row[i] = 1;
            out->n_trained_rows++;
        }
        if (m->trained && at_model_knows(m, low[i]))
            continue;
        out->unseen_tokens++;
        int first = 1;
        for (size_t k = 0; k < out->n_unseen && first; k++)
            first = strcmp(low[out->unseen[k]], low[i]) != 0;
        if (first) {
            out->unseen[out->n_unseen++] = i;
            out->unseen_han &= all_han(t->items[i].text);
        }
    }
    if (out->n_unseen == 0)
        out->unseen_han = 0;
    if (!m->trained)
        out->reasons |= AT_SCOPE_UNTRAINED;
    else if (out->n_trained_rows == 0)
        out->reasons |= AT_SCOPE_NO_PRONOUN;
    if (m->trained && out->unseen_tokens * 4 > n)
        out->reasons |= AT_SCOPE_UNSEEN;
out:
    for (size_t i = 0; low && i < n; i++)
        free(low[i]);
    free(low);
    if (rc)
        at_scope_free(out);
    return rc;
}
