/* attn-tutor attend --model DIR: a Hugging Face model folder's own tokens and the
 * attention of every layer and head (engine/hf/hf.h). */
#include "cli/attend.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "engine/hf/hf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *family_name(const at_hf_config *c)
{
    return c->family == AT_HF_GPT2 ? "GPT-2" : "BERT";
}

static void json_strings(const char *key, char *const *v, size_t n)
{
    printf("\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i) putchar(',');
        cli_json_string(stdout, v[i]);
    }
    putchar(']');
}

static void print_json(const at_hf_info *info, const at_hf_tokens *t, const at_model_run *r)
{
    const size_t n = r->n;
    printf("{\"model\":");
    cli_json_string(stdout, info->cfg->model_type);
    printf(",\"model_dir\":");
    cli_json_string(stdout, info->dir);
    printf(",\"tokenizer\":\"%s\",\"dtype\":\"%s\",\"mask\":\"%s\",\"scaled\":true,",
           info->tokenizer, info->dtype, info->causal ? "causal" : "none");
    printf("\"n_layers\":%zu,\"n_heads\":%zu,\"d_model\":%zu,\"tokens\":[", info->cfg->n_layers,
           info->cfg->n_heads, info->cfg->d_model);
    for (size_t i = 0; i < n; i++) {
        if (i) putchar(',');
        cli_json_string(stdout, t->shown.items[i].text);
    }
    printf("],\"token_ids\":[");
    for (size_t i = 0; i < n; i++)
        printf("%s%d", i ? "," : "", (int)t->ids[i]);
    printf("],");
    json_strings("pieces", t->pieces, n);
    printf(",\"spans\":[");
    for (size_t i = 0; i < n; i++)
        printf("%s[%zu,%zu]", i ? "," : "", t->shown.items[i].start,
               t->shown.items[i].start + t->shown.items[i].len);
    printf("],\"fully_masked\":[");
    for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? "," : "", r->fully_masked[i] ? "true" : "false");
    printf("],\"layers\":[");
    for (size_t l = 0; l < r->n_layers; l++) {
        printf("%s{\"heads\":[", l ? "," : "");
        for (size_t h = 0; h < r->n_heads[l]; h++) {
            const float *w = r->weights[l] + h * n * n;
            printf("%s{\"weights\":[", h ? "," : "");
            for (size_t i = 0; i < n; i++) {
                printf("%s[", i ? "," : "");
                for (size_t j = 0; j < n; j++) {
                    if (j) putchar(',');
                    cli_print_number(stdout, w[i * n + j], 1);
                }
                putchar(']');
            }
            printf("]}");
        }
        printf("]}");
    }
    printf("]}\n");
}

static void print_tables(const at_hf_info *info, const at_hf_tokens *t, const at_model_run *r,
                         size_t l, size_t h0, size_t h1)
{
    qz_lang lang = qz_lang_from(cli_g.lang ? cli_g.lang : cli_default_lang());
    const at_hf_config *c = info->cfg;
    printf(qz_tr(lang, "model: %s (%s), %zu layers x %zu heads, %s tokens, %s weights\n"),
           family_name(c), info->dir, c->n_layers, c->n_heads, info->tokenizer, info->dtype);
    printf(qz_ntr(lang, "%zu token; rows: query token, columns: key token; each row sums to 1\n",
                  "%zu tokens; rows: query token, columns: key token; each row sums to 1\n",
                  r->n), r->n);
    printf("%s\n", info->causal ? qz_tr(lang, "mask: causal, the model's own: each token sees "
                                               "only itself and the tokens before it")
                                 : qz_tr(lang, "mask: none (bidirectional)"));
    for (size_t h = h0; h < h1; h++) {
        printf(qz_tr(lang, "\nlayer %zu of %zu, head %zu of %zu%s\n"), l + 1, r->n_layers, h + 1,
               r->n_heads[l], "");
        cli_attend_table(&t->shown, r, l, h, NULL, lang);
    }
}

/* The options that belong to the mini-model only. */
static int refuse_options(const attend_args *a, const at_hf_info *info)
{
    const char *why = a->untrained ? "--untrained: a model folder has only its own weights"
                    : a->opts.unscaled ? "--no-scale: a real model's scores are scaled as it was "
                                         "trained; the option is for the mini-model"
                    : a->mask_given && a->opts.causal != info->causal
                        ? (info->causal ? "--mask none: GPT-2 is causal by construction (its "
                                          "training made every token look only backwards)"
                                        : "--mask causal: BERT attends both ways by construction")
                    : NULL;
    if (!why)
        return 0;
    fprintf(stderr, "attn-tutor attend: %s\n", why);
    return 2;
}

int cli_attend_hf(const attend_args *a)
{
    at_hf_model *m = NULL;
    at_hf_tokens t = {0};
    at_model_run run = {0};
    at_hf_info info;
    at_error err;
    int rc = 0;
    if (at_hf_open(cli_g.model_path, &m, &err)) {
        fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
        rc = err.code == AT_ENOMEM ? 1 : 2;
        goto out;
    }
    at_hf_get_info(m, &info);
    if ((rc = refuse_options(a, &info)))
        goto out;
    if (at_hf_tokenize(m, a->sentence, strlen(a->sentence), &t, &err)) {
        fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
        rc = err.code == AT_ENOMEM ? 1 : 2;
        goto out;
    }
    if (at_hf_attend(m, &t, &run, &err)) {
        fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
        rc = err.code == AT_ENOMEM ? 1 : 2;
        goto out;
    }
    size_t l = a->layer ? (size_t)a->layer - 1 : 0;
    if (l >= run.n_layers) {
        fprintf(stderr, "attn-tutor attend: --layer %ld: the model has %zu layers\n", a->layer,
                run.n_layers);
        rc = 2;
        goto out;
    }
    size_t h0 = a->head > 0 ? (size_t)a->head - 1 : 0;
    size_t h1 = a->head < 0 ? run.n_heads[l] : h0 + 1;
    if (h0 >= run.n_heads[l]) {
        fprintf(stderr, "attn-tutor attend: --head %ld: layer %zu has %zu heads\n", a->head,
                l + 1, run.n_heads[l]);
        rc = 2;
        goto out;
    }
    if (a->format == FMT_JSON)
        print_json(&info, &t, &run);
    else if (a->format == FMT_CSV)
        cli_attend_csv(&t.shown, &run, l, h0, h1);
    else
        print_tables(&info, &t, &run, l, h0, h1);
out:
    at_model_run_free(&run);
    at_hf_tokens_free(&t);
    at_hf_free(m);
    return rc;
}
