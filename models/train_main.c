/* `make model`: trains the mini-model from models/corpus.yaml and writes
 * models/mini.safetensors. Prints the loss curve, held-out accuracies (English and
 * Chinese separately, and the held-out frames) and what each head does.
 * usage: train-model CORPUS.yaml OUT.safetensors */
#include "engine/train.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void on_log(void *ctx, size_t step, float loss)
{
    double t0 = *(double *)ctx;
    printf("  step %5zu  loss %.4f  (%.1f s)\n", step, loss, now() - t0);
    fflush(stdout);
}

static int set_vocab(at_model *m, char **words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        m->vocab[i] = words[i];
    return 0;
}

static double pct(size_t a, size_t n)
{
    return n ? 100.0 * (double)a / (double)n : 0.0;
}

/* One line of the evaluation table; appends the same figures to json. */
static int report(const at_model *m, const at_corpus *c, const char *name, int split,
                  const char *lang, long frame, char *json, size_t cap)
{
    at_eval ev;
    at_error err;
    if (at_evaluate(m, c, split, lang, frame, m->coref_layer, m->coref_head, &ev, &err)) {
        fprintf(stderr, "train-model: %s\n", err.msg);
        return -1;
    }
    printf("  %-34s %5zu  %6.1f%%  %6.1f%%  %.3f\n", name, ev.n, pct(ev.predicted, ev.n),
           pct(ev.attended, ev.n), ev.mean_weight);
    size_t len = strlen(json);
    snprintf(json + len, cap - len, "%s\"%s\":{\"n\":%zu,\"prediction\":%.4f,\"attention\":%.4f,"
             "\"mean_weight\":%.4f}", len > 1 ? "," : "", name, ev.n,
             (double)ev.predicted / (double)(ev.n ? ev.n : 1),
             (double)ev.attended / (double)(ev.n ? ev.n : 1), ev.mean_weight);
    return 0;
}

static int evaluate_all(const at_model *m, const at_corpus *c, char *json, size_t cap)
{
    printf("\nheld-out evaluation, coreference head = layer %zu head %zu\n",
           m->coref_layer + 1, m->coref_head + 1);
    printf("  %-34s %5s  %7s  %7s  %s\n", "sentences", "n", "predict", "attend", "weight");
    strcpy(json, "{");
    int rc = report(m, c, "train (en)", AT_SPLIT_TRAIN, "en", -1, json, cap) ||
             report(m, c, "train (zh)", AT_SPLIT_TRAIN, "zh", -1, json, cap) ||
             report(m, c, "held-out combinations (en)", AT_SPLIT_HELD_OUT, "en", -1, json, cap) ||
             report(m, c, "held-out combinations (zh)", AT_SPLIT_HELD_OUT, "zh", -1, json, cap);
    for (size_t f = 0; !rc && f < c->n_frames; f++) {
        char name[96];
        if (!c->frames[f].held_out_frame)
            continue;
        snprintf(name, sizeof name, "held-out frame %s", c->frames[f].id);
        rc = report(m, c, name, AT_SPLIT_HELD_OUT_FRAME, NULL, (long)f, json, cap);
    }
    strcat(json, "}");
    printf("  (predict: the top prediction at the pronoun is the antecedent; attend: the\n"
           "   coreference head weighs the antecedent's tokens above the other noun's;\n"
           "   weight: its mean weight on the antecedent)\n");
    return rc;
}

static int survey(at_model *m, const at_corpus *c, char *json, size_t cap)
{
    at_head_stats st[16];
    at_error err;
    if (at_head_survey(m, c, st, &err)) {
        fprintf(stderr, "train-model: %s\n", err.msg);
        return -1;
    }
    printf("\nwhat each head does (training sentences; the pronoun's row, then every row)\n");
    printf("  %-12s %8s %8s %8s %8s   %8s %8s %9s\n", "head", "antecdnt", "other", "adject.",
           "itself", "prev", "self", "ante>oth");
    strcpy(json, "[");
    size_t k = 0;
    for (size_t l = 0; l < m->cfg.n_layers; l++)
        for (size_t h = 0; h < m->cfg.n_heads[l]; h++, k++) {
            const at_head_stats *s = &st[k];
            printf("  layer %zu h %zu %8.3f %8.3f %8.3f %8.3f   %8.3f %8.3f %8.1f%%\n", l + 1,
                   h + 1, s->pron_ante, s->pron_other, s->pron_adj, s->pron_self, s->prev,
                   s->self, 100.0 * s->ante_wins);
            size_t len = strlen(json);
            snprintf(json + len, cap - len, "%s{\"layer\":%zu,\"head\":%zu,\"pronoun_to_antecedent\""
                     ":%.4f,\"pronoun_to_other_noun\":%.4f,\"pronoun_to_adjective\":%.4f,"
                     "\"pronoun_to_itself\":%.4f,\"to_previous\":%.4f,\"to_itself\":%.4f,"
                     "\"antecedent_above_other\":%.4f}", k ? "," : "", l + 1, h + 1,
                     s->pron_ante, s->pron_other, s->pron_adj, s->pron_self, s->prev, s->self,
                     s->ante_wins);
        }
    strcat(json, "]");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: train-model CORPUS.yaml OUT.safetensors\n");
        return 2;
    }
    openblas_set_num_threads(1);
    double t0 = now();
    at_corpus c;
    at_model *m = NULL;
    at_error err;
    char **words = NULL;
    size_t n_words = 0;
    static char eval_json[4096], heads_json[4096];
    int rc = 1;
    if (at_corpus_load(argv[1], &c, &err) || at_corpus_vocab(&c, &words, &n_words, &err))
        goto fail;
    at_model_config cfg = at_model_default_config(n_words);
    if (at_model_alloc(&cfg, &m, &err))
        goto fail;
    set_vocab(m, words, n_words);
    free(words);
    words = NULL;
    at_model_init_params(m, c.seed, 0.3f);
    m->trained = 1;
    if (at_corpus_featurize(&c, m, &err))
        goto fail;
    size_t split_n[3] = {0};
    for (size_t i = 0; i < c.n; i++)
        split_n[c.ex[i].split]++;
    printf("corpus: %zu sentences in %zu frames (%zu training, %zu held-out combinations, "
           "%zu in held-out frames), vocabulary %zu, longest %zu tokens\n", c.n, c.n_frames,
           split_n[0], split_n[1], split_n[2], n_words, c.max_tokens);
    at_train_opts o = at_train_defaults();
    o.seed = c.seed;
    o.on_log = on_log;
    o.ctx = &t0;
    printf("training: %zu steps of %zu sentences, AdamW lr %g, word dropout %g, attention loss "
           "on the coreference head (layer %zu head 1) weighted %g, one thread\n", o.steps,
           o.batch, (double)o.lr, (double)o.word_dropout, cfg.n_layers, (double)o.attn_lambda);
    if (at_train(m, &c, &o, &err))
        goto fail;
    double t_train = now() - t0;
    if (survey(m, &c, heads_json, sizeof heads_json) ||
        evaluate_all(m, &c, eval_json, sizeof eval_json))
        goto out;
    char *corpus_json = at_corpus_describe(&c);
    if (!corpus_json) {
        fprintf(stderr, "train-model: out of memory\n");
        goto out;
    }
    const char *extra[] = {"evaluation", eval_json, "heads", heads_json, "corpus", corpus_json};
    rc = at_model_save_meta(m, argv[2], extra, 3, &err);
    free(corpus_json);
    if (rc) {
        rc = 1;
        goto fail;
    }
    printf("\nwrote %s; training took %.1f s, everything %.1f s\n", argv[2], t_train, now() - t0);
    rc = 0;
    goto out;
fail:
    fprintf(stderr, "train-model: %s\n", err.msg);
out:
    if (words)
        for (size_t i = 0; i < n_words; i++)
            free(words[i]);
    free(words);
    at_model_free(m);
    at_corpus_free(&c);
    return rc;
}
