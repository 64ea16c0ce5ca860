/* Evaluation of the mini-model on the corpus: antecedent prediction, the
 * coreference head's attention, and a survey of what every head looks at. */
#include "engine/train.h"
#include "engine/model_ops.h"

#include <stdlib.h>
#include <string.h>

static double span_mass(const float *row, const size_t span[2])
{
    double s = 0.0;
    for (size_t j = span[0]; j < span[1]; j++)
        s += row[j];
    return s;
}

/* 1 if the top logit at the pronoun is a token of the antecedent and not of the other noun. */
static int predicts(const at_model *m, const at_example *e, const at_model_acts *a, float *logits)
{
    const size_t d = m->cfg.d_model, V = m->cfg.vocab_size;
    at_gemm(0, 1, 1, V, d, a->lnf + e->pronoun * d, d, m->p.tok_emb, d, 0.0f, logits, V);
    size_t best = 0;
    for (size_t j = 1; j < V; j++)
        if (logits[j] > logits[best])
            best = j;
    long ante[AT_MAX_SPAN], other[AT_MAX_SPAN];
    size_t n_a = at_example_ids(e, e->answer, ante), n_o = at_example_ids(e, !e->answer, other);
    int in_a = 0, in_o = 0;
    for (size_t k = 0; k < n_a; k++)
        in_a |= ante[k] == (long)best;
    for (size_t k = 0; k < n_o; k++)
        in_o |= other[k] == (long)best;
    return in_a && !in_o;
}

int at_evaluate(const at_model *m, const at_corpus *c, int split, const char *lang,
                long frame, size_t layer, size_t head, at_eval *out, at_error *err)
{
    memset(out, 0, sizeof *out);
    at_model_acts a;
    float *logits = malloc((m->cfg.vocab_size + 1) * sizeof *logits);
    int rc = at_model_acts_alloc(&m->cfg, c->max_tokens, 0, &a, err);
    if (!rc && !logits)
        rc = at_error_set(err, AT_ENOMEM, "evaluate: out of memory");
    for (size_t i = 0; !rc && i < c->n; i++) {
        const at_example *e = &c->ex[i];
        if (e->split != split || (frame >= 0 && e->frame != (size_t)frame) ||
            (lang && strcmp(c->frames[e->frame].lang, lang)))
            continue;
        if ((rc = at_model_forward(m, e->feats, e->toks.n, NULL, &a, err)))
            break;
        const size_t n = e->toks.n;
        const float *row = a.layer[layer].weights + (head * n + e->pronoun) * n;
        double w_ante = span_mass(row, e->span[e->answer]);
        double w_other = span_mass(row, e->span[!e->answer]);
        out->n++;
        out->attended += w_ante > w_other;
        out->mean_weight += w_ante;
        out->predicted += (size_t)predicts(m, e, &a, logits);
    }
    if (out->n)
        out->mean_weight /= (double)out->n;
    free(logits);
    at_model_acts_free(&a);
    return rc;
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
        if (e->split != AT_SPLIT_TRAIN)
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
