/* The mini-model in a safetensors file: tensors by name (at_model_layout), and in
 * __metadata__ the config, vocabulary and coreference head as JSON strings. */
#include "engine/model_impl.h"
#include "engine/safetensors.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORMAT_NAME "attn-tutor mini-model 1"

static int json_size(const cJSON *obj, const char *key, size_t max, size_t *out)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > (double)max)
        return -1;
    *out = (size_t)x->valuedouble;
    return 0;
}

static int json_sizes(const cJSON *obj, const char *key, size_t n, size_t *out)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n)
        return -1;
    size_t i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, a) {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 1e6)
            return -1;
        out[i++] = (size_t)x->valuedouble;
    }
    return 0;
}

static int parse_config(const char *text, at_model_config *c)
{
    memset(c, 0, sizeof *c);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    int bad = !cJSON_IsObject(j) || json_size(j, "d_model", 4096, &c->d_model) ||
              json_size(j, "n_layers", AT_MODEL_MAX_LAYERS, &c->n_layers) ||
              json_sizes(j, "n_heads", c->n_layers, c->n_heads) ||
              json_sizes(j, "d_ff", c->n_layers, c->d_ff) ||
              json_size(j, "vocab_size", 1000000, &c->vocab_size) ||
              json_size(j, "n_buckets", 10000000, &c->n_buckets) ||
              json_size(j, "ngram_min", 16, &c->ngram_min) ||
              json_size(j, "ngram_max", 16, &c->ngram_max);
    cJSON_Delete(j);
    return bad ? -1 : 0;
}

static int parse_vocab(const char *text, at_model *m)
{
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    int rc = -1;
    if (!cJSON_IsArray(j) || (size_t)cJSON_GetArraySize(j) != m->cfg.vocab_size)
        goto out;
    /* one walk down cJSON's list (cJSON_GetArrayItem(j, i) starts from the head each
     * time: quadratic in the vocabulary, 3.4 M instructions at every start) */
    size_t i = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, j) {
        if (!cJSON_IsString(w) || !(m->vocab[i] = strdup(w->valuestring)))
            goto out;
        if (i > 0 && strcmp(m->vocab[i - 1], m->vocab[i]) >= 0)
            goto out;   /* lookup needs strcmp order */
        i++;
    }
    rc = 0;
out:
    cJSON_Delete(j);
    return rc;
}

static double json_number(const cJSON *obj, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(x) ? x->valuedouble : 0.0;
}

/* The trainer's head survey ("heads": a list of objects with layer and head counted
 * from 1). Missing or malformed: no profiles (they are a description, not weights). */
static void parse_profiles(const char *text, at_model *m)
{
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    size_t total = 0;
    for (size_t l = 0; l < m->cfg.n_layers; l++)
        total += m->cfg.n_heads[l];
    if (cJSON_IsArray(j) && (m->profiles = calloc(total, sizeof *m->profiles))) {
        const cJSON *e;
        cJSON_ArrayForEach(e, j) {
            size_t l = (size_t)json_number(e, "layer"), h = (size_t)json_number(e, "head"), k = h;
            if (l < 1 || l > m->cfg.n_layers || h < 1 || h > m->cfg.n_heads[l - 1])
                continue;
            for (size_t i = 0; i + 1 < l; i++)
                k += m->cfg.n_heads[i];
            at_head_profile *p = &m->profiles[k - 1];
            p->measured = 1;
            p->pronoun_to_antecedent = json_number(e, "pronoun_to_antecedent");
            p->pronoun_to_other_noun = json_number(e, "pronoun_to_other_noun");
            p->pronoun_to_adjective = json_number(e, "pronoun_to_adjective");
            p->pronoun_to_itself = json_number(e, "pronoun_to_itself");
            p->to_previous = json_number(e, "to_previous");
            p->to_itself = json_number(e, "to_itself");
            p->antecedent_above_other = json_number(e, "antecedent_above_other");
            const cJSON *role = cJSON_GetObjectItemCaseSensitive(e, "role");
            if (cJSON_IsString(role))
                snprintf(p->role, sizeof p->role, "%s", role->valuestring);
        }
    }
    cJSON_Delete(j);
}

static char *json_strdup(const cJSON *obj, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, key);
    return strdup(cJSON_IsString(x) ? x->valuestring : "");
}

/* The trainer's description of the corpus ("corpus", see at_corpus_describe). Missing
 * or malformed: no frames (the model still works; the lab says nothing of its scope).
 * Returns -1 only when out of memory. */
static int parse_corpus(const char *text, at_model *m)
{
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(j, "frames"), *e;
    int rc = 0, n = cJSON_IsArray(frames) ? cJSON_GetArraySize(frames) : 0;
    if (n > 0 && !(m->frames = calloc((size_t)n, sizeof *m->frames)))
        rc = -1;
    if (rc)
        frames = NULL;
    cJSON_ArrayForEach(e, frames) {
        at_model_frame *f = &m->frames[m->n_frames++];
        double k = json_number(e, "sentences");
        f->id = json_strdup(e, "id");
        f->lang = json_strdup(e, "lang");
        f->pattern = json_strdup(e, "pattern");
        f->pronoun = json_strdup(e, "pronoun");
        f->example = json_strdup(e, "example");
        f->sentences = k > 0 && k < 1e9 ? (size_t)k : 0;
        f->held_out = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "held_out_frame"));
        if (!f->id || !f->lang || !f->pattern || !f->pronoun || !f->example) {
            rc = -1;
            break;
        }
    }
    double total = json_number(j, "sentences");
    m->train_sentences = total > 0 && total < 1e12 ? (size_t)total : 0;
    const cJSON *pron = cJSON_GetObjectItemCaseSensitive(j, "pronouns");
    int np = cJSON_IsArray(pron) ? cJSON_GetArraySize(pron) : 0;
    if (!rc && np > 0 && !(m->pronouns = calloc((size_t)np, sizeof *m->pronouns)))
        rc = -1;
    const cJSON *w, *list = np > 0 ? pron : NULL;
    cJSON_ArrayForEach(w, list) {
        if (rc)
            break;
        if (!cJSON_IsString(w))
            continue;
        if (!(m->pronouns[m->n_pronouns++] = strdup(w->valuestring)))
            rc = -1;
    }
    cJSON_Delete(j);
    return rc;
}

static int load_tensors(const at_safetensors *st, at_model *m, at_error *err)
{
    at_param_desc table[AT_MODEL_MAX_PARAMS];
    size_t n_table;
    at_model_layout(&m->cfg, m->flat, &m->p, table, &n_table);
    for (size_t t = 0; t < n_table; t++) {
        int rc = at_st_get_f32(st, table[t].name, table[t].rows, table[t].cols,
                               m->flat + table[t].offset, err);
        if (rc)
            return rc;
    }
    return AT_OK;
}

int at_model_load(const char *path, at_model **out, at_error *err)
{
    *out = NULL;
    at_safetensors st;
    at_model *m = NULL;
    int rc = at_st_read(path, &st, err);
    if (rc)
        return rc;
    at_model_config cfg;
    const char *fmt = at_st_meta(&st, "format");
    if (!fmt || strcmp(fmt, FORMAT_NAME)) {
        rc = at_error_set(err, AT_EINVAL, "%s: not an attn-tutor model (metadata 'format' "
                          "should be \"%s\")", path, FORMAT_NAME);
        goto out;
    }
    if (parse_config(at_st_meta(&st, "config"), &cfg)) {
        rc = at_error_set(err, AT_EINVAL, "%s: metadata 'config' is missing or malformed", path);
        goto out;
    }
    if ((rc = at_model_alloc(&cfg, &m, err)))
        goto out;
    if (parse_vocab(at_st_meta(&st, "vocab"), m)) {
        rc = at_error_set(err, AT_EINVAL, "%s: metadata 'vocab' is not a sorted list of %zu "
                          "words", path, cfg.vocab_size);
        goto out;
    }
    const char *cl = at_st_meta(&st, "coref_layer"), *ch = at_st_meta(&st, "coref_head");
    m->coref_layer = cl ? strtoul(cl, NULL, 10) : cfg.n_layers - 1;
    m->coref_head = ch ? strtoul(ch, NULL, 10) : 0;
    if (m->coref_layer >= cfg.n_layers || m->coref_head >= cfg.n_heads[m->coref_layer]) {
        rc = at_error_set(err, AT_EINVAL, "%s: metadata 'coref_layer'/'coref_head' name no "
                          "head of the model", path);
        goto out;
    }
    parse_profiles(at_st_meta(&st, "heads"), m);
    if (parse_corpus(at_st_meta(&st, "corpus"), m)) {
        rc = at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    const char *ev = at_st_meta(&st, "evaluation");
    if (ev && !(m->evaluation = strdup(ev))) {
        rc = at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    const char *tr = at_st_meta(&st, "trained");
    m->trained = tr && !strcmp(tr, "1");
    if ((rc = load_tensors(&st, m, err))) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        at_error_set(err, rc, "%s: %s", path, msg);
        goto out;
    }
    *out = m;
    m = NULL;
out:
    at_model_free(m);
    at_st_free(&st);
    return rc;
}

static char *config_json(const at_model_config *c)
{
    cJSON *j = cJSON_CreateObject();
    double heads[AT_MODEL_MAX_LAYERS], ff[AT_MODEL_MAX_LAYERS];
    for (size_t l = 0; l < c->n_layers; l++) {
        heads[l] = (double)c->n_heads[l];
        ff[l] = (double)c->d_ff[l];
    }
    cJSON_AddNumberToObject(j, "d_model", (double)c->d_model);
    cJSON_AddNumberToObject(j, "n_layers", (double)c->n_layers);
    cJSON_AddItemToObject(j, "n_heads", cJSON_CreateDoubleArray(heads, (int)c->n_layers));
    cJSON_AddItemToObject(j, "d_ff", cJSON_CreateDoubleArray(ff, (int)c->n_layers));
    cJSON_AddNumberToObject(j, "vocab_size", (double)c->vocab_size);
    cJSON_AddNumberToObject(j, "n_buckets", (double)c->n_buckets);
    cJSON_AddNumberToObject(j, "ngram_min", (double)c->ngram_min);
    cJSON_AddNumberToObject(j, "ngram_max", (double)c->ngram_max);
    cJSON_AddStringToObject(j, "positions", "sinusoidal");
    cJSON_AddStringToObject(j, "norm", "pre-layer-norm, eps 1e-5");
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return s;
}

static char *vocab_json(const at_model *m)
{
    cJSON *j = cJSON_CreateArray();
    for (size_t i = 0; j && i < m->cfg.vocab_size; i++)
        cJSON_AddItemToArray(j, cJSON_CreateString(m->vocab[i]));
    char *s = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return s;
}

int at_model_save_meta(const at_model *m, const char *path, const char *const *extra,
                       size_t n_extra, at_error *err)
{
    at_param_desc table[AT_MODEL_MAX_PARAMS];
    at_st_entry entries[AT_MODEL_MAX_PARAMS];
    at_model_params p;
    size_t n_table;
    at_model_layout(&m->cfg, m->flat, &p, table, &n_table);
    for (size_t t = 0; t < n_table; t++)
        entries[t] = (at_st_entry){table[t].name, table[t].rows, table[t].cols,
                                   m->flat + table[t].offset};
    char *cfg = config_json(&m->cfg), *vocab = vocab_json(m);
    char cl[32], ch[32];
    snprintf(cl, sizeof cl, "%zu", m->coref_layer);
    snprintf(ch, sizeof ch, "%zu", m->coref_head);
    const char *meta[2 * 16] = {"format", FORMAT_NAME, "config", cfg, "vocab", vocab,
                                "coref_layer", cl, "coref_head", ch,
                                "trained", m->trained ? "1" : "0"};
    size_t n_meta = 6;
    for (size_t i = 0; i < n_extra && n_meta < 16; i++, n_meta++) {
        meta[2 * n_meta] = extra[2 * i];
        meta[2 * n_meta + 1] = extra[2 * i + 1];
    }
    int rc = cfg && vocab ? at_st_write(path, entries, n_table, meta, n_meta, err)
                          : at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
    free(cfg);
    free(vocab);
    return rc;
}

int at_model_save(const at_model *m, const char *path, at_error *err)
{
    return at_model_save_meta(m, path, NULL, 0, err);
}
