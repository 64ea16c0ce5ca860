/* The attention of one sentence, kept for drawing. */
#include "ui/attnview.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/hf/hf.h"
#include "ui/i18n.h"

void ui_attn_free(ui_attn *a)
{
    at_model_run_free(&a->run);
    at_scope_free(&a->scope);
    at_tokens_free(&a->toks);
    free(a->labels);
    free(a->untrained);
    a->labels = NULL;
    a->untrained = NULL;
}

int ui_attn_compute(ui_attn *a, const at_model *m, const char *sentence)
{
    at_error err;
    at_error_clear(&err);
    ui_attn_free(a);
    a->error[0] = '\0';
    int rc = at_tokenize(sentence, strlen(sentence), &a->toks, &err);
    if (rc != AT_OK) {
        snprintf(a->error, sizeof a->error, "%s", err.msg);
        return rc;
    }
    a->n_total = a->toks.n;
    at_model_info info;
    at_model_get_info(m, &info);
    if (info.max_tokens && a->toks.n > info.max_tokens) {   /* keep the first max_tokens */
        for (size_t i = info.max_tokens; i < a->toks.n; i++)
            free(a->toks.items[i].text);
        a->toks.n = info.max_tokens;
    }
    if (a->toks.n == 0)
        return AT_OK;
    a->labels = malloc(a->toks.n * sizeof *a->labels);
    if (!a->labels) {
        snprintf(a->error, sizeof a->error, "%s", _("out of memory"));
        at_tokens_free(&a->toks);
        return AT_ENOMEM;
    }
    for (size_t i = 0; i < a->toks.n; i++)
        a->labels[i] = a->toks.items[i].text;
    at_run_opts opts = {a->causal, a->unscaled};
    rc = at_model_attend(m, &a->toks, &opts, &a->run, &err);
    if (rc == AT_OK)
        rc = at_model_scope(m, &a->toks, &a->scope, &err);
    if (rc == AT_OK && !(a->untrained = calloc(a->toks.n, 1)))
        rc = at_error_set(&err, AT_ENOMEM, "%s", _("out of memory"));
    if (rc != AT_OK) {
        snprintf(a->error, sizeof a->error, "%s", err.msg);
        at_model_run_free(&a->run);
        return rc;
    }
    a->last_layer = info.n_layers - 1;
    a->layers_done = a->run.n_layers;
    for (size_t i = 0; info.trained && i < a->toks.n; i++)
        a->untrained[i] = !at_scope_row_trained(m, &a->scope, a->last_layer, i);
    if (a->layer < 0 || (size_t)a->layer >= a->run.n_layers)
        a->layer = (int)a->run.n_layers - 1;
    if (a->head != UI_HEAD_ALL && (a->head < 0 || (size_t)a->head >= ui_attn_heads(a)))
        a->head = 0;
    return AT_OK;
}

int ui_attn_compute_hf(ui_attn *a, const at_hf_model *m, at_hf_cache *cache,
                       const char *sentence, size_t layers)
{
    at_error err;
    at_error_clear(&err);
    at_model_run prev = a->run;   /* kept for the cache until the new run is made */
    memset(&a->run, 0, sizeof a->run);
    a->reused = 0;
    a->layers_done = 0;
    ui_attn_free(a);
    a->error[0] = '\0';
    at_hf_tokens t;
    at_hf_info info;
    at_hf_get_info(m, &info);
    a->causal = info.causal;
    int rc = at_hf_tokenize(m, sentence, strlen(sentence), &t, &err);
    if (rc != AT_OK) {
        snprintf(a->error, sizeof a->error, "%s", err.msg);
        at_model_run_free(&prev);
        return rc;
    }
    a->n_total = t.n;
    at_hf_tokens view = t;   /* the first max_tokens only */
    if (view.n > info.max_tokens)
        view.n = info.max_tokens;
    if (view.n && !(a->labels = malloc(view.n * sizeof *a->labels)))
        rc = at_error_set(&err, AT_ENOMEM, "%s", _("out of memory"));
    at_hf_cache_use use = {0, 0};
    if (!rc && view.n)
        rc = at_hf_attend_cached(m, cache, &view, prev.n ? &prev : NULL, layers, &a->run,
                                 &use, &err);
    a->reused = use.reused;
    a->layers_done = use.layers;
    at_model_run_free(&prev);
    if (rc != AT_OK) {
        snprintf(a->error, sizeof a->error, "%s", err.msg);
        free(a->labels);
        a->labels = NULL;
        at_hf_tokens_free(&t);
        return rc;
    }
    /* keep the labels and spans of the tokens shown; drop the rest */
    a->toks = t.shown;
    for (size_t i = view.n; i < a->toks.n; i++)
        free(a->toks.items[i].text);
    a->toks.n = view.n;
    t.shown = (at_tokens){0};
    at_hf_tokens_free(&t);
    for (size_t i = 0; i < a->toks.n; i++)
        a->labels[i] = a->toks.items[i].text;
    a->last_layer = (size_t)-1;   /* no row is dimmed */
    if (a->layer < 0 || (size_t)a->layer >= a->run.n_layers)
        a->layer = 0;
    if (a->head != UI_HEAD_ALL && (a->head < 0 || (size_t)a->head >= ui_attn_heads(a)))
        a->head = 0;
    return AT_OK;
}

size_t ui_attn_heads(const ui_attn *a)
{
    if (a->run.n == 0 || a->layer < 0 || (size_t)a->layer >= a->run.n_layers)
        return 0;
    return a->run.n_heads[a->layer];
}

size_t ui_attn_index(const ui_attn *a, int head, size_t i, size_t j)
{
    size_t n = a->run.n;
    return ((size_t)head * n + i) * n + j;
}

void ui_attn_heatmap(const ui_attn *a, int head, ui_heatmap *h)
{
    size_t n = a->run.n;
    h->n_q = h->n_k = n;
    if (n == 0)
        return;
    size_t off = ui_attn_index(a, head, 0, 0);
    h->weights = a->run.weights[a->layer] + off;
    h->scores = a->run.scores[a->layer] + off;
    h->fully_masked = a->run.fully_masked;
    h->dim_rows = (size_t)a->layer == a->last_layer ? a->untrained : NULL;
    h->q_labels = a->labels;
    h->k_labels = a->labels;
    if (h->cur_row >= (int)n)
        h->cur_row = (int)n - 1;
    if (h->cur_col >= (int)n)
        h->cur_col = (int)n - 1;
}

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int ui_attn_export_csv(const ui_attn *a, const char *path)
{
    size_t n = a->run.n, heads = ui_attn_heads(a);
    if (n == 0) {
        errno = EINVAL;
        return -1;
    }
    /* Only into a regular file: a FIFO or a device of that name would block or swallow it. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0644);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int all = a->head == UI_HEAD_ALL;
    fputs(all ? "layer,head,query" : "query", f);
    for (size_t j = 0; j < n; j++) {
        fputc(',', f);
        csv_field(f, a->labels[j]);
    }
    fputc('\n', f);
    for (size_t h = all ? 0 : (size_t)a->head; h < (all ? heads : (size_t)a->head + 1); h++) {
        for (size_t i = 0; i < n; i++) {
            if (all)
                fprintf(f, "%d,%zu,", a->layer + 1, h + 1);
            csv_field(f, a->labels[i]);
            for (size_t j = 0; j < n; j++)
                fprintf(f, ",%.6g", (double)a->run.weights[a->layer][ui_attn_index(a, (int)h, i, j)]);
            fputc('\n', f);
        }
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}
