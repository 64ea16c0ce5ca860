/* Lab steps on the mini-model: tokenise, attend (engine/model.h), pick what is shown. */
#define _GNU_SOURCE
#include "lesson/lesson.h"

#include <stdlib.h>
#include <string.h>

static int pick_layer_head(const at_lab *lab, const at_model *m, at_lab_result *r,
                           at_error *err)
{
    at_model_info info;
    at_model_get_info(m, &info);
    size_t last = info.n_layers - 1;
    r->layer = lab->layer ? *lab->layer - 1 : last;
    if (!lab->layer || *lab->layer < 1 || *lab->layer > info.n_layers) {
        if (lab->layer)
            return at_error_set(err, AT_EINVAL, "`layer: %u` but the model has %zu layers (1–%zu)",
                                *lab->layer, info.n_layers, info.n_layers);
    }
    size_t heads = info.n_heads[r->layer];
    if (lab->head && !strcmp(lab->head, "all")) {
        r->head = AT_LAB_ALL_HEADS;
    } else if (lab->head) {
        char *end;
        long h = strtol(lab->head, &end, 10);
        if (*end || h < 1 || (size_t)h > heads)
            return at_error_set(err, AT_EINVAL, "`head: %s` but layer %zu has %zu head%s (1–%zu "
                                "or all)", lab->head, r->layer + 1, heads, heads == 1 ? "" : "s",
                                heads);
        r->head = (size_t)h - 1;
    } else {
        r->head = r->layer == info.coref_layer && info.coref_head < heads ? info.coref_head : 0;
    }
    return AT_OK;
}

/* The weights shown: one head's, or the mean of the layer's heads. */
static int make_view(at_lab_result *r, at_error *err)
{
    size_t n = r->run.n, nn = n * n, heads = r->run.n_heads[r->layer];
    const float *w = r->run.weights[r->layer];
    at_compute_result *v = &r->view;
    v->n_q = v->n_k = n;
    v->heads = 1;
    if (!(v->weights = calloc(nn, sizeof *v->weights)))
        return at_error_set(err, AT_ENOMEM, "out of memory");
    if (r->head != AT_LAB_ALL_HEADS) {
        memcpy(v->weights, w + r->head * nn, nn * sizeof *v->weights);
    } else {
        for (size_t h = 0; h < heads; h++)
            for (size_t i = 0; i < nn; i++)
                v->weights[i] += w[h * nn + i] / (float)heads;
    }
    const char **labels = malloc(n * sizeof *labels);
    if (!labels)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        labels[i] = r->tokens.items[i].text;
    v->tokens = v->key_tokens = labels;
    return AT_OK;
}

int at_lab_run(const at_lab *lab, const at_model *m, at_lab_result *r, at_error *err)
{
    memset(r, 0, sizeof *r);
    r->focus = -1;
    at_run_opts opts = {.causal = lab->mask == AT_LAB_MASK_CAUSAL, .unscaled = lab->scale == AT_OFF};
    int rc = at_tokenize(lab->sentence, strlen(lab->sentence), &r->tokens, err);
    if (rc)
        return rc;
    if (r->tokens.n == 0)
        return at_error_set(err, AT_EINVAL, "`sentence` has no tokens");
    if ((rc = pick_layer_head(lab, m, r, err)) || (rc = at_model_attend(m, &r->tokens, &opts,
                                                                        &r->run, err)))
        return rc;
    if ((rc = make_view(r, err)))
        return rc;
    if (lab->focus) {
        r->focus = at_token_index(r->view.tokens, r->tokens.n, lab->focus);
        if (r->focus < 0)
            return at_error_set(err, AT_EINVAL, "`focus: %s` is not one of the sentence's %zu "
                                "tokens", lab->focus, r->tokens.n);
    }
    return AT_OK;
}

void at_lab_result_free(at_lab_result *r)
{
    if (!r)
        return;
    free(r->view.weights);
    free((void *)r->view.tokens);
    at_model_run_free(&r->run);
    at_tokens_free(&r->tokens);
    memset(r, 0, sizeof *r);
    r->focus = -1;
}
