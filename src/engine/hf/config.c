/* config.json of a Hugging Face model folder (see config.h). */
#include "engine/hf/config.h"
#include "engine/file.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_MAX_BYTES (1 << 20)

/* A whole number key within [lo, hi], or def when the key is absent (or null). */
static int get_size(const cJSON *j, const char *key, size_t def, size_t lo, size_t hi,
                    size_t *out, const char *path, at_error *err)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!x || cJSON_IsNull(x)) {
        *out = def;
        return AT_OK;
    }
    if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
        x->valuedouble < (double)lo || x->valuedouble > (double)hi)
        return at_error_set(err, AT_EINVAL, "%s: \"%s\" should be a whole number from %zu to "
                            "%zu", path, key, lo, hi);
    *out = (size_t)x->valuedouble;
    return AT_OK;
}

static int get_bool(const cJSON *j, const char *key, int def, int *out, const char *path,
                    at_error *err)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!x || cJSON_IsNull(x)) {
        *out = def;
        return AT_OK;
    }
    if (!cJSON_IsBool(x))
        return at_error_set(err, AT_EINVAL, "%s: \"%s\" should be true or false", path, key);
    *out = cJSON_IsTrue(x);
    return AT_OK;
}

static int get_eps(const cJSON *j, const char *key, double def, double *out, const char *path,
                   at_error *err)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!x || cJSON_IsNull(x)) {
        *out = def;
        return AT_OK;
    }
    if (!cJSON_IsNumber(x) || !(x->valuedouble > 0) || x->valuedouble > 1)
        return at_error_set(err, AT_EINVAL, "%s: \"%s\" should be a number above 0 and at "
                            "most 1", path, key);
    *out = x->valuedouble;
    return AT_OK;
}

static int get_act(const cJSON *j, const char *key, const char *def, at_hf_act *out,
                   const char *path, at_error *err)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, key);
    const char *s = x && !cJSON_IsNull(x) ? cJSON_GetStringValue(x) : def;
    static const struct { const char *name; at_hf_act act; } acts[] = {
        {"gelu_new", AT_HF_GELU_TANH}, {"gelu_pytorch_tanh", AT_HF_GELU_TANH},
        {"gelu_fast", AT_HF_GELU_TANH}, {"gelu", AT_HF_GELU_ERF}, {"relu", AT_HF_RELU},
    };
    for (size_t i = 0; s && i < sizeof acts / sizeof acts[0]; i++)
        if (!strcmp(s, acts[i].name)) {
            *out = acts[i].act;
            return AT_OK;
        }
    return at_error_set(err, AT_EINVAL, "%s: \"%s\" %s%s%s is not an activation attn-tutor "
                        "computes (gelu_new, gelu_pytorch_tanh, gelu, relu)", path, key,
                        s ? "'" : "(not a string)", s ? s : "", s ? "'" : "");
}

/* model_type, or the family named by "architectures" when it is absent. */
static int family_of(const cJSON *j, at_hf_config *cfg, const char *path, at_error *err)
{
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(j, "model_type");
    const char *t = cJSON_GetStringValue(mt);
    if (!mt) {
        const cJSON *arch = cJSON_GetArrayItem(
            cJSON_GetObjectItemCaseSensitive(j, "architectures"), 0);
        const char *a = cJSON_GetStringValue(arch);
        t = a && !strncmp(a, "GPT2", 4) ? "gpt2" : a && !strncmp(a, "Bert", 4) ? "bert" : NULL;
        if (!t)
            return at_error_set(err, AT_EINVAL, "%s: no \"model_type\" (nor \"architectures\" "
                                "naming GPT-2 or BERT): attn-tutor opens gpt2 and bert models",
                                path);
    }
    if (!t)
        return at_error_set(err, AT_EINVAL, "%s: \"model_type\" should be a string", path);
    snprintf(cfg->model_type, sizeof cfg->model_type, "%s", t);
    if (!strcmp(t, "gpt2"))
        cfg->family = AT_HF_GPT2;
    else if (!strcmp(t, "bert"))
        cfg->family = AT_HF_BERT;
    else
        return at_error_set(err, AT_EINVAL, "%s: model_type '%.64s' is not one attn-tutor can "
                            "open (gpt2, bert)", path, t);
    return AT_OK;
}

static int read_gpt2(const cJSON *j, at_hf_config *c, const char *path, at_error *err)
{
    size_t inner;
    int rc;
    if ((rc = get_size(j, "n_embd", 768, 1, 65536, &c->d_model, path, err)) ||
        (rc = get_size(j, "n_head", 12, 1, 1024, &c->n_heads, path, err)) ||
        (rc = get_size(j, "n_layer", 12, 1, 256, &c->n_layers, path, err)) ||
        (rc = get_size(j, "n_positions", 1024, 1, 1 << 20, &c->n_positions, path, err)) ||
        (rc = get_size(j, "vocab_size", 50257, 1, 10000000, &c->vocab_size, path, err)) ||
        (rc = get_size(j, "n_inner", 0, 1, 1 << 20, &inner, path, err)) ||
        (rc = get_eps(j, "layer_norm_epsilon", 1e-5, &c->ln_eps, path, err)) ||
        (rc = get_act(j, "activation_function", "gelu_new", &c->act, path, err)) ||
        (rc = get_bool(j, "scale_attn_weights", 1, &c->scale_attn, path, err)) ||
        (rc = get_bool(j, "scale_attn_by_inverse_layer_idx", 0, &c->scale_by_layer, path, err)))
        return rc;
    c->d_ff = inner ? inner : 4 * c->d_model;
    c->do_lower_case = -1;
    return AT_OK;
}

static int read_bert(const cJSON *j, at_hf_config *c, const char *path, at_error *err)
{
    int rc;
    if ((rc = get_size(j, "hidden_size", 768, 1, 65536, &c->d_model, path, err)) ||
        (rc = get_size(j, "num_attention_heads", 12, 1, 1024, &c->n_heads, path, err)) ||
        (rc = get_size(j, "num_hidden_layers", 12, 1, 256, &c->n_layers, path, err)) ||
        (rc = get_size(j, "intermediate_size", 3072, 1, 1 << 20, &c->d_ff, path, err)) ||
        (rc = get_size(j, "max_position_embeddings", 512, 1, 1 << 20, &c->n_positions, path,
                       err)) ||
        (rc = get_size(j, "type_vocab_size", 2, 1, 1024, &c->type_vocab_size, path, err)) ||
        (rc = get_size(j, "vocab_size", 30522, 1, 10000000, &c->vocab_size, path, err)) ||
        (rc = get_eps(j, "layer_norm_eps", 1e-12, &c->ln_eps, path, err)) ||
        (rc = get_act(j, "hidden_act", "gelu", &c->act, path, err)) ||
        (rc = get_bool(j, "do_lower_case", -1, &c->do_lower_case, path, err)))
        return rc;
    const char *pe = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(j, "position_embedding_type"));
    if (pe && strcmp(pe, "absolute"))
        return at_error_set(err, AT_EINVAL, "%s: position_embedding_type '%.64s' is not one "
                            "attn-tutor computes (absolute)", path, pe);
    c->scale_attn = 1;
    return AT_OK;
}

int at_hf_config_read(const char *path, at_hf_config *cfg, at_error *err)
{
    memset(cfg, 0, sizeof *cfg);
    char *text = NULL;
    size_t len;
    at_error why;
    int rc = at_file_read(path, "a config file (config.json)", CONFIG_MAX_BYTES, &text, &len,
                          &why);
    if (rc)
        return at_error_set(err, rc, "%s: %s", path, why.msg);
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!cJSON_IsObject(j)) {
        if (!j && end)
            rc = at_error_set(err, AT_EINVAL, "%s: not valid JSON (near byte %ld)", path,
                              (long)(end - text));
        else
            rc = at_error_set(err, AT_EINVAL, "%s: not a JSON object", path);
        goto out;
    }
    if ((rc = family_of(j, cfg, path, err)))
        goto out;
    rc = cfg->family == AT_HF_GPT2 ? read_gpt2(j, cfg, path, err) : read_bert(j, cfg, path, err);
    if (!rc && cfg->d_model % cfg->n_heads)
        rc = at_error_set(err, AT_EINVAL, "%s: %zu heads do not divide the width %zu", path,
                          cfg->n_heads, cfg->d_model);
out:
    cJSON_Delete(j);
    free(text);
    return rc;
}
