/* `make model`: trains the mini-model from models/corpus.yaml and writes
 * models/mini.safetensors. Prints the loss curve, what each head does and the
 * held-out evaluation (stored in the file's metadata "evaluation" too).
 *
 * usage: train-model CORPUS.yaml OUT.safetensors [--no-ngrams] [--steps N] [--d N]
 *                    [--prev X] [--attn X] [--lr X] [--noise X]
 *        train-model --report MODEL.safetensors
 * --report prints the evaluation a model file carries (`make model-check` ends with
 * it). The other options are for experiments, never used by `make model`:
 * --no-ngrams trains without the hashed character n-grams (an unseen word then gets
 * no vector of its own), to measure what they bring; --steps, --d (d_model), --prev
 * and --attn (the weights of the two attention losses), --lr and --noise (the share of
 * random sequences in a batch) change the training's settings. */
#include "engine/safetensors.h"
#include "engine/train.h"

#include <cblas.h>
#include <cjson/cJSON.h>
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

static double num(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(x) ? x->valuedouble : 0.0;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(x) ? x->valuestring : "";
}

static double pct(double a, double n)
{
    return n > 0 ? 100.0 * a / n : 0.0;
}

/* Sum of a field over the groups (or twins) of one language and split, agreement only
 * when agree is set. */
static double sum(const cJSON *arr, const char *lang, const char *split, int agree,
                  const char *field)
{
    double total = 0;
    const cJSON *g;
    cJSON_ArrayForEach(g, arr)
        if (!strcmp(str(g, "lang"), lang) && !strcmp(str(g, "split"), split) &&
            (!agree || !strcmp(str(g, "decided"), "agreement")))
            total += num(g, field);
    return total;
}

/* The targets of the built-in model, checked on the figures (1 when all are met):
 * agreement sentences of held-out noun pairs (made of the model's vocabulary) and of
 * held-out frames at least 90% right, twin pairs of held-out frames at least 80% both
 * right, each language; the previous-token head at least 0.7 on average on every
 * held-out set. */
static int targets(const cJSON *j)
{
    int met = 1;
    const cJSON *g, *groups = cJSON_GetObjectItemCaseSensitive(j, "groups");
    const cJSON *twins = cJSON_GetObjectItemCaseSensitive(j, "twins");
    static const char *const split[2] = {"held_out_combinations", "held_out_frames"};
    printf("\ntargets\n");
    for (int zh = 0; zh < 2; zh++) {
        const char *lang = zh ? "zh" : "en";
        for (int k = 0; k < 2; k++) {
            double n = sum(groups, lang, split[k], 1, "n"), ok = sum(groups, lang, split[k], 1,
                                                                      "right");
            int a = n > 0 && ok >= 0.9 * n;
            printf("  %s: agreement sentences, %s: %.0f/%.0f right (%.1f%%, target 90%%) %s\n",
                   lang, split[k], ok, n, pct(ok, n), a ? "met" : "NOT MET");
            met &= a;
        }
        double pairs = sum(twins, lang, "held_out_frames", 0, "pairs");
        double both = sum(twins, lang, "held_out_frames", 0, "both_right");
        int t = pairs > 0 && both >= 0.8 * pairs;
        printf("  %s: twin pairs of held-out frames %.0f/%.0f both right (%.1f%%, target 80%%) "
               "%s\n", lang, both, pairs, pct(both, pairs), t ? "met" : "NOT MET");
        met &= t;
    }
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "previous_token")) {
        if (!strcmp(str(g, "set"), "training sentences"))
            continue;
        int ok = num(g, "mean_weight") >= num(j, "role_min");
        printf("  previous-token head, %s (%s): mean weight on the token before %.3f "
               "(target %.1f) %s\n", str(g, "set"), str(g, "lang"), num(g, "mean_weight"),
               num(j, "role_min"), ok ? "met" : "NOT MET");
        met &= ok;
    }
    return met;
}

/* Print an evaluation (metadata "evaluation", at_evaluation_json) as tables. */
static int print_evaluation(const char *json)
{
    cJSON *j = json ? cJSON_Parse(json) : NULL, *g;
    if (!cJSON_IsObject(j)) {
        fprintf(stderr, "train-model: the model file carries no evaluation\n");
        cJSON_Delete(j);
        return -1;
    }
    const cJSON *co = cJSON_GetObjectItemCaseSensitive(j, "coreference");
    const cJSON *nh = cJSON_GetObjectItemCaseSensitive(j, "named_head");
    printf("\nantecedents: the coreference head (layer %.0f head %.0f), the pronoun's row\n",
           num(co, "layer"), num(co, "head"));
    printf("  %-22s %-4s %-10s %6s %16s %8s %16s\n", "sentences", "lang", "decided by", "n",
           "right", "weight", "predicted");
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "groups"))
        printf("  %-22s %-4s %-10s %6.0f %7.0f (%5.1f%%) %8.3f %7.0f (%5.1f%%)\n",
               str(g, "split"), str(g, "lang"), str(g, "decided"), num(g, "n"), num(g, "right"),
               pct(num(g, "right"), num(g, "n")), num(g, "mean_weight"), num(g, "predicted"),
               pct(num(g, "predicted"), num(g, "predictable")));
    printf("  (right: more weight on the antecedent's tokens than on the other noun's; "
           "weight: the mean\n   weight on the antecedent; predicted: the top prediction at "
           "the pronoun is the antecedent,\n   out of the sentences whose antecedent is in "
           "the vocabulary)\n");
    printf("\ntwin pairs (one sentence, two answers: both must be right)\n");
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "twins"))
        printf("  %-22s %-4s %6.0f pairs %6.0f both right (%5.1f%%)\n", str(g, "split"),
               str(g, "lang"), num(g, "pairs"), num(g, "both_right"),
               pct(num(g, "both_right"), num(g, "pairs")));
    printf("\nthe named head (layer %.0f head %.0f, %s): weight of each row on the token "
           "before it\n", num(nh, "layer"), num(nh, "head"), str(nh, "role"));
    printf("  %-28s %-4s %6s %7s %16s %7s %7s %7s\n", "sentences", "lang", "n", "rows",
           "rows >= 0.7", "mean", "min", "unseen");
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "previous_token"))
        printf("  %-28s %-4s %6.0f %7.0f %7.0f (%5.1f%%) %7.3f %7.3f %6.1f%%\n", str(g, "set"),
               str(g, "lang"), num(g, "sentences"), num(g, "rows"), num(g, "rows_ok"),
               pct(num(g, "rows_ok"), num(g, "rows")), num(g, "mean_weight"),
               num(g, "min_weight"), 100.0 * num(g, "unseen_share"));
    printf("  (unseen: the share of tokens outside the vocabulary)\n");
    const cJSON *pr = cJSON_GetObjectItemCaseSensitive(j, "probes");
    if (cJSON_GetArraySize(pr) > 0) {
        printf("\nprobe sentences (ordinary sentences outside the frames, models/corpus.yaml)\n");
        cJSON_ArrayForEach(g, pr)
            printf("  %-4s %3.0f/%-3.0f right (%5.1f%%)\n", str(g, "lang"), num(g, "right"),
                   num(g, "n"), pct(num(g, "right"), num(g, "n")));
    }
    int met = targets(j);
    cJSON_Delete(j);
    return met ? 0 : 1;
}

static int report_file(const char *path)
{
    at_safetensors st;
    at_error err;
    if (at_st_read(path, &st, &err)) {
        fprintf(stderr, "train-model: %s\n", err.msg);
        return 2;
    }
    printf("held-out evaluation stored in %s\n", path);
    int rc = print_evaluation(at_st_meta(&st, "evaluation"));
    at_st_free(&st);
    return rc < 0 ? 2 : 0;
}

static int survey(at_model *m, const at_corpus *c, char *json, size_t cap)
{
    at_head_stats st[64];
    at_error err;
    if (at_head_survey(m, c, st, &err)) {
        fprintf(stderr, "train-model: %s\n", err.msg);
        return -1;
    }
    printf("\nwhat each head does (training sentences; the pronoun's row, then every row)\n");
    printf("  %-12s %8s %8s %8s %8s   %8s %8s %9s  %s\n", "head", "antecdnt", "other",
           "adject.", "itself", "prev", "self", "ante>oth", "role");
    strcpy(json, "[");
    size_t k = 0;
    for (size_t l = 0; l < m->cfg.n_layers; l++)
        for (size_t h = 0; h < m->cfg.n_heads[l]; h++, k++) {
            const at_head_stats *s = &st[k];
            const char *role = l == AT_PREV_LAYER && h == AT_PREV_HEAD ? "previous token"
                             : l == m->coref_layer && h == m->coref_head ? "coreference" : "";
            printf("  layer %zu h %zu %8.3f %8.3f %8.3f %8.3f   %8.3f %8.3f %8.1f%%  %s\n",
                   l + 1, h + 1, s->pron_ante, s->pron_other, s->pron_adj, s->pron_self,
                   s->prev, s->self, 100.0 * s->ante_wins, role);
            size_t len = strlen(json);
            snprintf(json + len, cap - len, "%s{\"layer\":%zu,\"head\":%zu,"
                     "\"pronoun_to_antecedent\":%.4f,\"pronoun_to_other_noun\":%.4f,"
                     "\"pronoun_to_adjective\":%.4f,\"pronoun_to_itself\":%.4f,\"to_previous\":%.4f,\"to_itself\":%.4f,"
                     "\"antecedent_above_other\":%.4f,\"role\":\"%s\"}", k ? "," : "", l + 1,
                     h + 1, s->pron_ante, s->pron_other, s->pron_adj, s->pron_self, s->prev,
                     s->self, s->ante_wins, role);
        }
    strcat(json, "]");
    return 0;
}

static void count_corpus(const at_corpus *c, size_t n_words)
{
    size_t split_n[AT_N_SPLITS] = {0}, noise = 0, probes = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (c->ex[i].kind == AT_EX_PRONOUN)
            split_n[c->ex[i].split]++;
        noise += c->ex[i].kind == AT_EX_NOISE;
        probes += c->ex[i].kind == AT_EX_PROBE;
    }
    printf("corpus: %zu pronoun sentences in %zu frames (%zu training; held out: %zu "
           "combinations, %zu in held-out frames, %zu with held-out words), %zu random "
           "sequences, %zu probes; vocabulary %zu, %zu pronouns, longest %zu tokens\n",
           c->n - noise - probes, c->n_frames, split_n[AT_SPLIT_TRAIN],
           split_n[AT_SPLIT_HELD_OUT], split_n[AT_SPLIT_HELD_OUT_FRAME],
           split_n[AT_SPLIT_HELD_OUT_WORDS], noise, probes, n_words, c->n_pronouns,
           c->max_tokens);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--report"))
        return report_file(argv[2]);
    int no_ngrams = 0;
    long steps = 0, d_model = 0;
    double prev = -1, attn = -1, lr = -1, noise = -1;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--no-ngrams"))
            no_ngrams = 1;
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            steps = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--d") && i + 1 < argc)
            d_model = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--prev") && i + 1 < argc)
            prev = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--attn") && i + 1 < argc)
            attn = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--lr") && i + 1 < argc)
            lr = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--noise") && i + 1 < argc)
            noise = strtod(argv[++i], NULL);
        else
            argc = 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: train-model CORPUS.yaml OUT.safetensors [--no-ngrams] "
                        "[--steps N]\n       train-model --report MODEL.safetensors\n");
        return 2;
    }
    openblas_set_num_threads(1);
    double t0 = now();
    at_corpus c;
    at_model *m = NULL;
    at_error err;
    char **words = NULL, *eval_json = NULL, *corpus_json = NULL;
    size_t n_words = 0;
    static char heads_json[16384];
    at_ex_result *res = NULL;
    int rc = 1;
    if (at_corpus_load(argv[1], &c, &err) || at_corpus_vocab(&c, &words, &n_words, &err))
        goto fail;
    at_model_config cfg = at_model_default_config(n_words);
    if (d_model > 0) {
        cfg.d_model = (size_t)d_model;
        cfg.d_ff[0] = 4 * (size_t)d_model;
    }
    if (at_model_alloc(&cfg, &m, &err))
        goto fail;
    for (size_t i = 0; i < n_words; i++)
        m->vocab[i] = words[i];
    free(words);
    words = NULL;
    at_model_init_params(m, c.seed, 0.3f);
    m->trained = 1;
    if (at_corpus_featurize(&c, m, &err))
        goto fail;
    if (no_ngrams)   /* the experiment: no vector from the spelling */
        for (size_t i = 0; i < c.n; i++)
            for (size_t t = 0; t < c.ex[i].toks.n; t++)
                c.ex[i].feats[t].n_grams = 0;
    count_corpus(&c, n_words);
    printf("model: d_model %zu, layer 1: %zu heads + feed-forward %zu, layer 2: %zu head; "
           "%zu parameters\n", cfg.d_model, cfg.n_heads[0], cfg.d_ff[0], cfg.n_heads[1],
           m->n_flat);
    at_train_opts o = at_train_defaults();
    o.seed = c.seed;
    o.on_log = on_log;
    o.ctx = &t0;
    if (steps > 0)
        o.steps = (size_t)steps;
    if (prev >= 0)
        o.prev_lambda = (float)prev;
    if (attn >= 0)
        o.attn_lambda = (float)attn;
    if (lr > 0)
        o.lr = (float)lr;
    if (noise >= 0)
        o.noise_share = (float)noise;
    printf("training: %zu steps of %zu sentences (%.0f%% random sequences), AdamW lr %g, word "
           "dropout %g, attention losses: coreference head (layer %zu head 1) %g, previous "
           "token (layer 1 head 1) %g; one thread%s\n", o.steps, o.batch,
           100.0 * (double)o.noise_share, (double)o.lr, (double)o.word_dropout, cfg.n_layers,
           (double)o.attn_lambda, (double)o.prev_lambda, no_ngrams ? "; NO n-grams" : "");
    if (at_train(m, &c, &o, &err))
        goto fail;
    double t_train = now() - t0;
    if (survey(m, &c, heads_json, sizeof heads_json))
        goto out;
    if (!(res = calloc(c.n, sizeof *res)))
        goto oom;
    if (at_evaluate_run(m, &c, 1, res, &err))
        goto fail;
    if (!(eval_json = at_evaluation_json(m, &c, res)) || !(corpus_json = at_corpus_describe(&c)))
        goto oom;
    int met = print_evaluation(eval_json) == 0;
    const char *extra[] = {"evaluation", eval_json, "heads", heads_json, "corpus", corpus_json};
    if (at_model_save_meta(m, argv[2], extra, 3, &err))
        goto fail;
    printf("\nwrote %s; training took %.1f s, everything %.1f s%s\n", argv[2], t_train,
           now() - t0, met ? "" : "; some targets NOT met");
    rc = 0;
    goto out;
oom:
    at_error_set(&err, AT_ENOMEM, "out of memory");
fail:
    fprintf(stderr, "train-model: %s\n", err.msg);
out:
    if (words)
        for (size_t i = 0; i < n_words; i++)
            free(words[i]);
    free(words);
    free(res);
    free(eval_json);
    free(corpus_json);
    at_model_free(m);
    at_corpus_free(&c);
    return rc;
}
