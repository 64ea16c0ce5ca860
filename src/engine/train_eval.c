/* Evaluation of the mini-model on its corpus: the coreference head's choice of
 * antecedent, the prediction at the pronoun, the named previous-token head, twin
 * pairs, and a survey of what every head looks at. */
#include "engine/train.h"
#include "engine/model_ops.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static double span_mass(const float *row, const size_t span[2])
{
    double s = 0.0;
    for (size_t j = span[0]; j < span[1]; j++)
        s += row[j];
    return s;
}

/* The top logit at the pronoun: is it a token of the antecedent (and not of the other
 * noun)? *predictable: the antecedent has a vocabulary row at all. */
static int predicts(const at_model *m, const at_example *e, const at_model_acts *a,
                    float *logits, int *predictable)
{
    const size_t d = m->cfg.d_model, V = m->cfg.vocab_size;
    long ante[AT_MAX_SPAN], other[AT_MAX_SPAN];
    size_t n_a = at_example_ids(e, e->answer, ante), n_o = at_example_ids(e, !e->answer, other);
    *predictable = n_a > 0 && V > 0;
    if (!*predictable)
        return 0;
    at_gemm(0, 1, 1, V, d, a->lnf + e->pronoun * d, d, m->p.tok_emb, d, 0.0f, logits, V);
    size_t best = 0;
    for (size_t j = 1; j < V; j++)
        if (logits[j] > logits[best])
            best = j;
    int in_a = 0, in_o = 0;
    for (size_t k = 0; k < n_a; k++)
        in_a |= ante[k] == (long)best;
    for (size_t k = 0; k < n_o; k++)
        in_o |= other[k] == (long)best;
    return in_a && !in_o;
}

static void prev_head(const at_example *e, const at_model_acts *a, at_ex_result *r)
{
    const size_t n = e->toks.n;
    const float *w = a->layer[AT_PREV_LAYER].weights + AT_PREV_HEAD * n * n;
    r->prev_min = 1.0;
    for (size_t i = 1; i < n; i++) {
        double x = w[i * n + i - 1];
        r->prev_rows++;
        r->prev_ok += x >= AT_PREV_ROLE_MIN;
        r->prev_sum += x;
        if (x < r->prev_min)
            r->prev_min = x;
    }
}

int at_evaluate_run(const at_model *m, const at_corpus *c, int with_train, at_ex_result *res,
                    at_error *err)
{
    memset(res, 0, c->n * sizeof *res);
    at_model_acts a;
    float *logits = malloc((m->cfg.vocab_size + 1) * sizeof *logits);
    int rc = at_model_acts_alloc(&m->cfg, c->max_tokens ? c->max_tokens : 1, 0, &a, err);
    if (!rc && !logits)
        rc = at_error_set(err, AT_ENOMEM, "evaluate: out of memory");
    for (size_t i = 0; !rc && i < c->n; i++) {
        const at_example *e = &c->ex[i];
        at_ex_result *r = &res[i];
        if (!with_train && e->split == AT_SPLIT_TRAIN)
            continue;
        if ((rc = at_model_forward(m, e->feats, e->toks.n, NULL, &a, err)))
            break;
        for (size_t j = 0; j < e->toks.n; j++)
            r->unseen += e->feats[j].id < 0;
        prev_head(e, &a, r);
        if (e->pronoun == AT_NO_INDEX)
            continue;
        const size_t n = e->toks.n;
        const float *row = a.layer[m->coref_layer].weights + (m->coref_head * n + e->pronoun) * n;
        r->w_ante = span_mass(row, e->span[e->answer]);
        r->w_other = span_mass(row, e->span[!e->answer]);
        if (e->kind == AT_EX_PRONOUN)
            r->predicted = predicts(m, e, &a, logits, &r->predictable);
    }
    free(logits);
    at_model_acts_free(&a);
    return rc;
}

static const char *const SPLIT_NAME[AT_N_SPLITS] = {"train", "held_out_combinations",
                                                    "held_out_frames", "held_out_words"};
static const char *const LANG[2] = {"en", "zh"};

static int right(const at_ex_result *r)
{
    return r->w_ante > r->w_other;
}

/* Antecedents: one group per split, language and what decides. */
static void add_groups(cJSON *out, const at_corpus *c, const at_ex_result *res)
{
    for (int s = 0; s < AT_N_SPLITS; s++)
        for (int zh = 0; zh < 2; zh++)
            for (int by = AT_BY_AGREEMENT; by <= AT_BY_ADJECTIVE; by++) {
                size_t n = 0, ok = 0, predictable = 0, predicted = 0;
                double w = 0.0;
                for (size_t i = 0; i < c->n; i++) {
                    const at_example *e = &c->ex[i];
                    if (e->kind != AT_EX_PRONOUN || e->split != s || e->zh != zh ||
                        e->decided != by)
                        continue;
                    n++;
                    ok += (size_t)right(&res[i]);
                    predictable += (size_t)res[i].predictable;
                    predicted += (size_t)res[i].predicted;
                    w += res[i].w_ante;
                }
                if (!n)
                    continue;
                cJSON *g = cJSON_CreateObject();
                cJSON_AddStringToObject(g, "split", SPLIT_NAME[s]);
                cJSON_AddStringToObject(g, "lang", LANG[zh]);
                cJSON_AddStringToObject(g, "decided", by == AT_BY_AGREEMENT ? "agreement"
                                                                            : "adjective");
                cJSON_AddNumberToObject(g, "n", (double)n);
                cJSON_AddNumberToObject(g, "right", (double)ok);
                cJSON_AddNumberToObject(g, "predictable", (double)predictable);
                cJSON_AddNumberToObject(g, "predicted", (double)predicted);
                cJSON_AddNumberToObject(g, "mean_weight", (double)(float)(w / (double)n));
                cJSON_AddItemToArray(out, g);
            }
}

/* Twin pairs: both sentences right. */
static void add_twins(cJSON *out, const at_corpus *c, const at_ex_result *res)
{
    for (int s = 0; s < AT_N_SPLITS; s++)
        for (int zh = 0; zh < 2; zh++) {
            size_t pairs = 0, both = 0;
            for (size_t i = 0; i < c->n; i++) {
                const at_example *e = &c->ex[i];
                if (e->kind != AT_EX_PRONOUN || e->split != s || e->zh != zh ||
                    e->twin == AT_NO_INDEX || e->twin < i)
                    continue;
                pairs++;
                both += right(&res[i]) && right(&res[e->twin]);
            }
            if (!pairs)
                continue;
            cJSON *g = cJSON_CreateObject();
            cJSON_AddStringToObject(g, "split", SPLIT_NAME[s]);
            cJSON_AddStringToObject(g, "lang", LANG[zh]);
            cJSON_AddNumberToObject(g, "pairs", (double)pairs);
            cJSON_AddNumberToObject(g, "both_right", (double)both);
            cJSON_AddItemToArray(out, g);
        }
}

/* The named head on sentences training never saw. */
static void add_prev(cJSON *out, const at_corpus *c, const at_ex_result *res)
{
    static const char *const SET[] = {"training sentences", "held-out pronoun sentences",
                                      "held-out random sequences", "probe sentences"};
    for (int set = 0; set < 4; set++)
        for (int zh = 0; zh < 2; zh++) {
            size_t n = 0, rows = 0, ok = 0, tokens = 0, unseen = 0;
            double sum = 0.0, min = 1.0;
            for (size_t i = 0; i < c->n; i++) {
                const at_example *e = &c->ex[i];
                int in = set == 0 ? e->kind == AT_EX_PRONOUN && e->split == AT_SPLIT_TRAIN
                       : set == 1 ? e->kind == AT_EX_PRONOUN && e->split != AT_SPLIT_TRAIN
                       : set == 2 ? e->kind == AT_EX_NOISE && e->split != AT_SPLIT_TRAIN
                                  : e->kind == AT_EX_PROBE;
                if (!in || e->zh != zh || !res[i].prev_rows)
                    continue;
                n++;
                rows += res[i].prev_rows;
                ok += res[i].prev_ok;
                sum += res[i].prev_sum;
                tokens += e->toks.n;
                unseen += res[i].unseen;
                if (res[i].prev_min < min)
                    min = res[i].prev_min;
            }
            if (!n)
                continue;
            cJSON *g = cJSON_CreateObject();
            cJSON_AddStringToObject(g, "set", SET[set]);
            cJSON_AddStringToObject(g, "lang", LANG[zh]);
            cJSON_AddNumberToObject(g, "sentences", (double)n);
            cJSON_AddNumberToObject(g, "rows", (double)rows);
            cJSON_AddNumberToObject(g, "rows_ok", (double)ok);
            cJSON_AddNumberToObject(g, "mean_weight", (double)(float)(sum / (double)rows));
            cJSON_AddNumberToObject(g, "min_weight", (double)(float)min);
            cJSON_AddNumberToObject(g, "unseen_share", (double)(float)((double)unseen /
                                                                        (double)tokens));
            cJSON_AddItemToArray(out, g);
        }
}

/* Ordinary sentences with a pronoun, outside the frames. */
static void add_probes(cJSON *out, const at_corpus *c, const at_ex_result *res)
{
    for (int zh = 0; zh < 2; zh++) {
        size_t n = 0, ok = 0;
        for (size_t i = 0; i < c->n; i++) {
            const at_example *e = &c->ex[i];
            if (e->kind == AT_EX_PROBE && e->zh == zh && e->pronoun != AT_NO_INDEX) {
                n++;
                ok += (size_t)right(&res[i]);
            }
        }
        if (!n)
            continue;
        cJSON *g = cJSON_CreateObject();
        cJSON_AddStringToObject(g, "lang", LANG[zh]);
        cJSON_AddNumberToObject(g, "n", (double)n);
        cJSON_AddNumberToObject(g, "right", (double)ok);
        cJSON_AddItemToArray(out, g);
    }
}

static cJSON *head_ref(size_t layer, size_t head, const char *role)
{
    cJSON *h = cJSON_CreateObject();
    cJSON_AddNumberToObject(h, "layer", (double)(layer + 1));
    cJSON_AddNumberToObject(h, "head", (double)(head + 1));
    cJSON_AddStringToObject(h, "role", role);
    return h;
}

char *at_evaluation_json(const at_model *m, const at_corpus *c, const at_ex_result *res)
{
    cJSON *j = cJSON_CreateObject();
    cJSON *groups = cJSON_CreateArray(), *twins = cJSON_CreateArray();
    cJSON *prev = cJSON_CreateArray(), *probes = cJSON_CreateArray();
    char *s = NULL;
    if (!j || !groups || !twins || !prev || !probes) {
        cJSON_Delete(groups);
        cJSON_Delete(twins);
        cJSON_Delete(prev);
        cJSON_Delete(probes);
        goto out;
    }
    cJSON_AddItemToObject(j, "coreference", head_ref(m->coref_layer, m->coref_head,
                                                     "coreference"));
    cJSON_AddItemToObject(j, "named_head", head_ref(AT_PREV_LAYER, AT_PREV_HEAD,
                                                    "previous token"));
    cJSON_AddNumberToObject(j, "role_min", AT_PREV_ROLE_MIN);
    add_groups(groups, c, res);
    add_twins(twins, c, res);
    add_prev(prev, c, res);
    add_probes(probes, c, res);
    cJSON_AddItemToObject(j, "groups", groups);
    cJSON_AddItemToObject(j, "twins", twins);
    cJSON_AddItemToObject(j, "previous_token", prev);
    cJSON_AddItemToObject(j, "probes", probes);
    s = cJSON_PrintUnformatted(j);
out:
    cJSON_Delete(j);
    return s;
}

static void survey_one(const at_model *m, const at_example *e, const at_model_acts *a,
                       at_head_stats *stats)
{
    const size_t n = e->toks.n, p = e->pronoun;
    size_t k = 0;
    for (size_t l = 0; l < m->cfg.n_layers; l++)
        for (size_t h = 0; h < m->cfg.n_heads[l]; h++, k++) {
            const float *w = a->layer[l].weights + h * n * n, *row = w + p * n;
            at_head_stats *s = &stats[k];
            double ante = span_mass(row, e->span[e->answer]);
            double other = span_mass(row, e->span[!e->answer]);
            s->pron_ante += ante;
            s->pron_other += other;
            s->pron_adj += span_mass(row, e->span[2]);
            s->pron_self += row[p];
            s->ante_wins += ante > other;
            double prev = 0.0, self = 0.0;
            for (size_t i = 0; i < n; i++) {
                self += w[i * n + i];
                prev += i ? w[i * n + i - 1] : 0.0;
            }
            s->prev += prev / (double)(n - 1);
            s->self += self / (double)n;
        }
}

int at_head_survey(at_model *m, const at_corpus *c, at_head_stats *stats, at_error *err)
{
    size_t n_heads = 0, count = 0;
    for (size_t l = 0; l < m->cfg.n_layers; l++)
        n_heads += m->cfg.n_heads[l];
    memset(stats, 0, n_heads * sizeof *stats);
    at_model_acts a;
    int rc = at_model_acts_alloc(&m->cfg, c->max_tokens, 0, &a, err);
    for (size_t i = 0; !rc && i < c->n; i++) {
        const at_example *e = &c->ex[i];
        if (e->split != AT_SPLIT_TRAIN || e->kind != AT_EX_PRONOUN)
            continue;
        if ((rc = at_model_forward(m, e->feats, e->toks.n, NULL, &a, err)))
            break;
        survey_one(m, e, &a, stats);
        count++;
    }
    at_model_acts_free(&a);
    if (rc || !count)
        return rc ? rc : at_error_set(err, AT_EINVAL, "survey: no training sentences");
    double best = -1.0;
    size_t k = 0;
    for (size_t l = 0; l < m->cfg.n_layers; l++)
        for (size_t h = 0; h < m->cfg.n_heads[l]; h++, k++) {
            at_head_stats *s = &stats[k];
            double *f[] = {&s->pron_ante, &s->pron_other, &s->pron_adj, &s->pron_self,
                           &s->prev, &s->self, &s->ante_wins};
            for (size_t j = 0; j < sizeof f / sizeof f[0]; j++)
                *f[j] /= (double)count;
            if (s->ante_wins > best) {
                best = s->ante_wins;
                m->coref_layer = l;
                m->coref_head = h;
            }
        }
    return AT_OK;
}
