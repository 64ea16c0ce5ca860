/* The mini-model: parameter layout, demo weights, vocabulary and token features. */
#include "engine/model_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <unistr.h>

uint64_t at_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float at_rng_uniform(uint64_t *s)
{
    return (float)(at_rng_next(s) >> 40) / 16777216.0f;
}

float at_rng_normal(uint64_t *s)
{
    double u1 = ((double)(at_rng_next(s) >> 11) + 1.0) / 9007199254740993.0;
    double u2 = (double)(at_rng_next(s) >> 11) / 9007199254740992.0;
    return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

at_model_config at_model_default_config(size_t vocab_size)
{
    at_model_config c = {.d_model = 48, .n_layers = 2, .vocab_size = vocab_size,
                         .n_buckets = 4096, .ngram_min = 2, .ngram_max = 4};
    c.n_heads[0] = 4;
    c.d_ff[0] = 192;
    c.n_heads[1] = 1;
    c.d_ff[1] = 0;
    return c;
}

static void add_param(at_param_desc *table, size_t *n_table, size_t *off, float *base,
                      float **slot, const char *name, size_t rows, size_t cols, int kind)
{
    if (table) {
        at_param_desc *t = &table[*n_table];
        snprintf(t->name, sizeof t->name, "%s", name);
        t->rows = rows;
        t->cols = cols;
        t->offset = *off;
        t->kind = kind;
    }
    (*n_table)++;
    if (slot)
        *slot = base ? base + *off : NULL;
    *off += rows * (cols ? cols : 1);
}

size_t at_model_layout(const at_model_config *c, float *base, at_model_params *p,
                       at_param_desc *table, size_t *n_table)
{
    at_model_params dummy;
    if (!p)
        p = &dummy;
    memset(p, 0, sizeof *p);
    size_t off = 0, nt = 0;
    const size_t d = c->d_model;
    char name[48];
    add_param(table, &nt, &off, base, &p->tok_emb, "tok_emb", c->vocab_size, d, AT_P_EMB);
    add_param(table, &nt, &off, base, &p->ngram_emb, "ngram_emb", c->n_buckets, d, AT_P_EMB);
    for (size_t l = 0; l < c->n_layers; l++) {
        at_layer_params *L = &p->layer[l];
        const size_t f = c->d_ff[l];
        struct { float **slot; const char *what; size_t rows, cols; int kind; } t[] = {
            {&L->ln1_g, "ln1.weight", d, 0, AT_P_GAIN}, {&L->ln1_b, "ln1.bias", d, 0, AT_P_BIAS},
            {&L->W_q, "attn.W_q", d, d, AT_P_WEIGHT}, {&L->b_q, "attn.b_q", d, 0, AT_P_BIAS},
            {&L->W_k, "attn.W_k", d, d, AT_P_WEIGHT}, {&L->b_k, "attn.b_k", d, 0, AT_P_BIAS},
            {&L->W_v, "attn.W_v", d, d, AT_P_WEIGHT}, {&L->b_v, "attn.b_v", d, 0, AT_P_BIAS},
            {&L->W_o, "attn.W_o", d, d, AT_P_WEIGHT}, {&L->b_o, "attn.b_o", d, 0, AT_P_BIAS},
            {&L->ln2_g, "ln2.weight", d, 0, AT_P_GAIN}, {&L->ln2_b, "ln2.bias", d, 0, AT_P_BIAS},
            {&L->W_1, "ffn.W_1", d, f, AT_P_WEIGHT}, {&L->b_1, "ffn.b_1", f, 0, AT_P_BIAS},
            {&L->W_2, "ffn.W_2", f, d, AT_P_WEIGHT}, {&L->b_2, "ffn.b_2", d, 0, AT_P_BIAS},
        };
        size_t n_t = f ? sizeof t / sizeof t[0] : 10;
        for (size_t i = 0; i < n_t; i++) {
            snprintf(name, sizeof name, "layers.%zu.%s", l, t[i].what);
            add_param(table, &nt, &off, base, t[i].slot, name, t[i].rows, t[i].cols, t[i].kind);
        }
    }
    add_param(table, &nt, &off, base, &p->lnf_g, "ln_f.weight", d, 0, AT_P_GAIN);
    add_param(table, &nt, &off, base, &p->lnf_b, "ln_f.bias", d, 0, AT_P_BIAS);
    if (n_table)
        *n_table = nt;
    return off;
}

int at_model_alloc(const at_model_config *cfg, at_model **out, at_error *err)
{
    *out = NULL;
    if (cfg->d_model == 0 || cfg->n_layers == 0 || cfg->n_layers > AT_MODEL_MAX_LAYERS ||
        cfg->n_buckets == 0 || cfg->ngram_min == 0 || cfg->ngram_max < cfg->ngram_min)
        return at_error_set(err, AT_EINVAL, "model: bad configuration");
    for (size_t l = 0; l < cfg->n_layers; l++)
        if (cfg->n_heads[l] == 0 || cfg->d_model % cfg->n_heads[l])
            return at_error_set(err, AT_EINVAL, "model: layer %zu: %zu heads do not divide "
                                "d_model = %zu", l + 1, cfg->n_heads[l], cfg->d_model);
    at_model *m = calloc(1, sizeof *m);
    if (!m)
        return at_error_set(err, AT_ENOMEM, "model: out of memory");
    m->cfg = *cfg;
    m->n_flat = at_model_layout(cfg, NULL, NULL, NULL, NULL);
    m->flat = calloc(m->n_flat, sizeof *m->flat);
    m->vocab = calloc(cfg->vocab_size + 1, sizeof *m->vocab);
    if (!m->flat || !m->vocab) {
        at_model_free(m);
        return at_error_set(err, AT_ENOMEM, "model: out of memory");
    }
    at_model_layout(cfg, m->flat, &m->p, NULL, NULL);
    m->coref_layer = cfg->n_layers - 1;
    *out = m;
    return AT_OK;
}

void at_model_free(at_model *m)
{
    if (!m)
        return;
    if (m->vocab)
        for (size_t i = 0; i < m->cfg.vocab_size; i++)
            free(m->vocab[i]);
    free(m->vocab);
    free(m->flat);
    free(m->profiles);
    for (size_t i = 0; m->frames && i < m->n_frames; i++) {
        free(m->frames[i].id);
        free(m->frames[i].lang);
        free(m->frames[i].pattern);
        free(m->frames[i].pronoun);
        free(m->frames[i].example);
    }
    free(m->frames);
    for (size_t i = 0; m->pronouns && i < m->n_pronouns; i++)
        free(m->pronouns[i]);
    free(m->pronouns);
    free(m->evaluation);
    free(m);
}

/* Weights N(0, sd²) with sd = 1/√fan_in, gains 1, biases 0, embeddings N(0, emb_sd²). */
void at_model_init_params(at_model *m, uint64_t seed, float emb_sd)
{
    at_param_desc table[AT_MODEL_MAX_PARAMS];
    size_t n_table;
    at_model_layout(&m->cfg, m->flat, &m->p, table, &n_table);
    uint64_t s = seed;
    for (size_t t = 0; t < n_table; t++) {
        float *x = m->flat + table[t].offset;
        size_t len = table[t].rows * (table[t].cols ? table[t].cols : 1);
        float sd = table[t].kind == AT_P_EMB ? emb_sd : 1.0f / sqrtf((float)table[t].rows);
        for (size_t i = 0; i < len; i++) {
            if (table[t].kind == AT_P_GAIN)
                x[i] = 1.0f;
            else if (table[t].kind == AT_P_BIAS)
                x[i] = 0.0f;
            else
                x[i] = sd * at_rng_normal(&s);
        }
    }
}

int at_model_demo(unsigned long seed, at_model **out, at_error *err)
{
    at_model_config cfg = at_model_default_config(0);
    int rc = at_model_alloc(&cfg, out, err);
    if (rc)
        return rc;
    at_model_init_params(*out, (uint64_t)seed, 1.0f);
    (*out)->trained = 0;
    return AT_OK;
}

void at_model_get_info(const at_model *m, at_model_info *info)
{
    memset(info, 0, sizeof *info);
    info->n_layers = m->cfg.n_layers;
    info->d_model = m->cfg.d_model;
    info->max_tokens = AT_MODEL_MAX_TOKENS;
    for (size_t l = 0; l < m->cfg.n_layers; l++) {
        info->n_heads[l] = m->cfg.n_heads[l];
        info->d_ff[l] = m->cfg.d_ff[l];
    }
    info->vocab_size = m->cfg.vocab_size;
    info->trained = m->trained;
    info->coref_layer = m->coref_layer;
    info->coref_head = m->coref_head;
}

const char *at_model_kind(const at_model *m)
{
    return m->trained ? "trained" : "untrained demo weights";
}

char *at_model_lower(const char *s, size_t len)
{
    size_t n = 0;
    uint8_t *low = u8_tolower((const uint8_t *)s, len, NULL, NULL, NULL, &n);
    if (!low)
        return NULL;
    char *r = realloc(low, n + 1);
    if (!r) {
        free(low);
        return NULL;
    }
    r[n] = '\0';
    return r;
}

long at_model_lookup(const at_model *m, const char *word, size_t len)
{
    char *low = at_model_lower(word, len);
    if (!low)
        return -1;
    long lo = 0, hi = (long)m->cfg.vocab_size - 1, found = -1;
    while (lo <= hi) {
        long mid = lo + (hi - lo) / 2;
        int c = strcmp(m->vocab[mid], low);
        if (c == 0) {
            found = mid;
            break;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    free(low);
    return found;
}

int at_model_head_profile(const at_model *m, size_t layer, size_t head, at_head_profile *out)
{
    memset(out, 0, sizeof *out);
    if (layer >= m->cfg.n_layers || head >= m->cfg.n_heads[layer])
        return AT_EINVAL;
    size_t k = head;
    for (size_t l = 0; l < layer; l++)
        k += m->cfg.n_heads[l];
    if (m->profiles)
        *out = m->profiles[k];
    return AT_OK;
}

int at_model_knows(const at_model *m, const char *word)
{
    return at_model_lookup(m, word, strlen(word)) >= 0;
}

/* FNV-1a over the code points of one n-gram. */
static uint32_t gram_hash(const uint32_t *cp, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (cp[i] >> (8 * b)) & 0xFFu;
            h *= 16777619u;
        }
    return h;
}

/* Hashed n-grams of "<word>" (lower-cased code points), lengths ngram_min…ngram_max. */
static void token_grams(const at_model_config *c, const uint32_t *cp, size_t n_cp,
                        at_token_feat *f)
{
    f->n_grams = 0;
    for (size_t len = c->ngram_min; len <= c->ngram_max; len++)
        for (size_t i = 0; i + len <= n_cp && f->n_grams < AT_MODEL_MAX_GRAMS; i++)
            f->grams[f->n_grams++] = gram_hash(cp + i, len) % (uint32_t)c->n_buckets;
    if (f->n_grams == 0) /* a word shorter than ngram_min: hash it whole */
        f->grams[f->n_grams++] = gram_hash(cp, n_cp) % (uint32_t)c->n_buckets;
}

int at_model_featurize(const at_model *m, const at_tokens *toks, at_token_feat *feats,
                       at_error *err)
{
    for (size_t i = 0; i < toks->n; i++) {
        const at_token *t = &toks->items[i];
        char *low = at_model_lower(t->text, strlen(t->text));
        size_t n_cp = 0;
        uint32_t *cp = low ? u8_to_u32((const uint8_t *)low, strlen(low), NULL, &n_cp) : NULL;
        uint32_t *wrapped = cp ? malloc((n_cp + 2) * sizeof *wrapped) : NULL;
        if (!wrapped) {
            free(low);
            free(cp);
            return at_error_set(err, AT_ENOMEM, "model: out of memory");
        }
        wrapped[0] = '<';
        memcpy(wrapped + 1, cp, n_cp * sizeof *cp);
        wrapped[n_cp + 1] = '>';
        feats[i].id = at_model_lookup(m, t->text, strlen(t->text));
        token_grams(&m->cfg, wrapped, n_cp + 2, &feats[i]);
        free(wrapped);
        free(cp);
        free(low);
    }
    return AT_OK;
}
