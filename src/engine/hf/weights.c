/* The tensors of a Hugging Face model folder (see weights.h). */
#include "engine/hf/weights.h"
#include "engine/file.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SINGLE "model.safetensors"
#define INDEX "model.safetensors.index.json"
#define INDEX_MAX_BYTES (16 << 20)

static int exists(const char *dir, const char *name)
{
    char *p = at_path_join(dir, name);
    struct stat st;
    int ok = p && lstat(p, &st) == 0;
    free(p);
    return ok;
}

/* Map dir/name as shard i. */
static int open_shard(at_hf_weights *w, size_t i, const char *name, at_error *err)
{
    char *path = at_path_join(w->dir, name);
    w->shard_names[i] = strdup(name);
    if (!path || !w->shard_names[i]) {
        free(path);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    int rc = at_st_read(path, &w->shards[i], err);
    free(path);
    if (!rc) {
        w->n_shards = i + 1;
    } else {
        free(w->shard_names[i]);
        w->shard_names[i] = NULL;
    }
    return rc;
}

/* A shard name from the index must stay inside the folder: a plain file name. */
static int plain_name(const char *s)
{
    return s && *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..") && strlen(s) < 256;
}

static int open_index(at_hf_weights *w, at_error *err)
{
    char *path = at_path_join(w->dir, INDEX), *text = NULL;
    size_t len;
    at_error why;
    int rc = path ? at_file_read(path, "an index file (.json)", INDEX_MAX_BYTES, &text, &len, &why)
                  : (why.code = AT_ENOMEM, snprintf(why.msg, sizeof why.msg, "out of memory"),
                     AT_ENOMEM);
    if (rc) {
        rc = at_error_set(err, rc, "%s/%s: %s", w->dir, INDEX, why.msg);
        goto out;
    }
    w->index = cJSON_ParseWithLength(text, len);
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(w->index, "weight_map"), *e;
    if (!cJSON_IsObject(w->index) || !cJSON_IsObject(map)) {
        rc = at_error_set(err, AT_EINVAL, "%s/%s: not a JSON object with a \"weight_map\" "
                          "object", w->dir, INDEX);
        goto out;
    }
    size_t n = 0, cap = (size_t)cJSON_GetArraySize(map);
    char **names = calloc(cap ? cap : 1, sizeof *names);
    if (!names) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    cJSON_ArrayForEach(e, map) {   /* the distinct file names, in order of appearance */
        const char *f = cJSON_GetStringValue(e);
        if (!plain_name(f)) {
            rc = at_error_set(err, AT_EINVAL, "%s/%s: weight_map puts tensor '%s' in %s%s%s, "
                              "which is not a file name inside the folder", w->dir, INDEX,
                              e->string, f ? "'" : "(not a string)", f ? f : "", f ? "'" : "");
            break;
        }
        size_t k = 0;
        while (k < n && strcmp(names[k], f))
            k++;
        if (k == n)
            names[n++] = (char *)f;
    }
    if (!rc && !n)
        rc = at_error_set(err, AT_EINVAL, "%s/%s: weight_map is empty", w->dir, INDEX);
    if (!rc) {
        w->shards = calloc(n, sizeof *w->shards);
        w->shard_names = calloc(n, sizeof *w->shard_names);
        if (!w->shards || !w->shard_names)
            rc = at_error_set(err, AT_ENOMEM, "out of memory");
    }
    for (size_t i = 0; !rc && i < n; i++)
        rc = open_shard(w, i, names[i], err);
    free(names);
out:
    free(text);
    free(path);
    return rc;
}

int at_hf_weights_open(const char *dir, const char *const *prefixes, at_hf_weights *w,
                       at_error *err)
{
    static const char *const none[] = {"", NULL};
    memset(w, 0, sizeof *w);
    w->prefixes = prefixes ? prefixes : none;
    if (!(w->dir = strdup(dir)))
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc;
    if (exists(dir, INDEX)) {
        rc = open_index(w, err);
    } else if (exists(dir, SINGLE)) {
        w->shards = calloc(1, sizeof *w->shards);
        w->shard_names = calloc(1, sizeof *w->shard_names);
        rc = w->shards && w->shard_names ? open_shard(w, 0, SINGLE, err)
                                         : at_error_set(err, AT_ENOMEM, "out of memory");
    } else {
        int bin = exists(dir, "pytorch_model.bin");
        rc = at_error_set(err, AT_EIO, "%s: no %s (nor %s)%s", dir, SINGLE, INDEX,
                          bin ? ": pytorch_model.bin is not read; convert it to safetensors "
                                "(the safetensors library's convert script does)" : "");
    }
    if (rc)
        at_hf_weights_free(w);
    return rc;
}

void at_hf_weights_free(at_hf_weights *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_shards; i++)
        at_st_free(&w->shards[i]);
    for (size_t i = 0; w->shard_names && i < w->n_shards; i++)
        free(w->shard_names[i]);
    for (size_t i = 0; i < w->n_owned; i++)
        free(w->owned[i]);
    free(w->owned);
    free(w->shards);
    free(w->shard_names);
    cJSON_Delete(w->index);
    free(w->dir);
    memset(w, 0, sizeof *w);
}

/* Where tensor `full` is: its shard (index or the single file) and the tensor, or NULL. */
static const at_st_tensor *lookup(const at_hf_weights *w, const char *full, size_t *shard)
{
    if (w->index) {
        const cJSON *map = cJSON_GetObjectItemCaseSensitive(w->index, "weight_map");
        const char *f = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(map, full));
        for (size_t i = 0; f && i < w->n_shards; i++)
            if (!strcmp(w->shard_names[i], f)) {
                *shard = i;
                return at_st_find(&w->shards[i], full);
            }
        return NULL;
    }
    *shard = 0;
    return w->n_shards ? at_st_find(&w->shards[0], full) : NULL;
}

/* a then b into out[256] when they fit; 1 if written. */
static int concat(char *out, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb >= 256)
        return 0;
    memcpy(out, a, la);
    memcpy(out + la, b, lb + 1);
    return 1;
}

/* The names a tensor may have: each prefix, and for a layer norm's weight/bias (a name
 * ending in ln…/LayerNorm) the older gamma/beta. Fills out[] (each < 256 bytes). */
static size_t candidates(const at_hf_weights *w, const char *name, char out[][256], size_t max)
{
    char alias[256] = "";
    size_t n = 0;
    const char *dot = strrchr(name, '.');
    if (dot && dot - name < 200 && (strstr(name, "LayerNorm.") || strstr(name, "ln_") || strstr(name, "layer_norm")) &&
        (!strcmp(dot, ".weight") || !strcmp(dot, ".bias")))
        snprintf(alias, sizeof alias, "%.*s%s", (int)(dot - name), name,
                 !strcmp(dot, ".weight") ? ".gamma" : ".beta");
    for (const char *const *p = w->prefixes; *p && n < max; p++) {
        n += concat(out[n], *p, name);
        if (alias[0] && n < max)
            n += concat(out[n], *p, alias);
    }
    return n;
}

int at_hf_weights_has(const at_hf_weights *w, const char *name)
{
    char names[16][256];
    size_t n = candidates(w, name, names, 16), shard;
    for (size_t i = 0; i < n; i++)
        if (lookup(w, names[i], &shard))
            return 1;
    return 0;
}

static void shape_text(size_t ndim, const size_t *shape, char *buf, size_t cap)
{
    size_t o = (size_t)snprintf(buf, cap, "[");
    for (size_t i = 0; i < ndim && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%zu", i ? ", " : "", shape[i]);
    if (o < cap)
        snprintf(buf + o, cap - o, "]");
}

static int keep(at_hf_weights *w, float *p)
{
    if (w->n_owned == w->cap_owned) {
        size_t cap = w->cap_owned ? 2 * w->cap_owned : 64;
        float **o = realloc(w->owned, cap * sizeof *o);
        if (!o)
            return -1;
        w->owned = o;
        w->cap_owned = cap;
    }
    w->owned[w->n_owned++] = p;
    return 0;
}

int at_hf_weights_get(at_hf_weights *w, const char *name, size_t ndim, const size_t *shape,
                      const float **out, at_error *err)
{
    char names[16][256];
    size_t n = candidates(w, name, names, 16), shard = 0;
    const at_st_tensor *t = NULL;
    *out = NULL;
    for (size_t i = 0; i < n && !t; i++)
        t = lookup(w, names[i], &shard);
    if (!t) {
        if (w->index) {
            const cJSON *map = cJSON_GetObjectItemCaseSensitive(w->index, "weight_map");
            for (size_t i = 0; i < n; i++) {
                const char *f = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(map, names[i]));
                if (f)
                    return at_error_set(err, AT_EINVAL, "%s/%s: tensor '%s' is missing (%s puts "
                                        "it in this file)", w->dir, f, names[i], INDEX);
            }
            return at_error_set(err, AT_EINVAL, "%s/%s: tensor '%s' is missing from weight_map",
                                w->dir, INDEX, name);
        }
        return at_error_set(err, AT_EINVAL, "%s/%s: tensor '%s' is missing", w->dir,
                            w->shard_names[0], name);
    }
    const char *file = w->shard_names[shard];
    int same = t->ndim == ndim;
    for (size_t i = 0; same && i < ndim; i++)
        same = t->shape[i] == shape[i];
    if (!same) {
        char have[160], want[160];
        shape_text(t->ndim, t->shape, have, sizeof have);
        shape_text(ndim, shape, want, sizeof want);
        return at_error_set(err, AT_EINVAL, "%s/%s: tensor '%s' has shape %s, but config.json "
                            "makes it %s", w->dir, file, t->name, have, want);
    }
    if (t->dtype == AT_ST_OTHER)
        return at_error_set(err, AT_EINVAL, "%s/%s: tensor '%s' is %s; attn-tutor reads F32, "
                            "F16 and BF16", w->dir, file, t->name, t->dtype_name);
    if (!w->dtype[0])
        snprintf(w->dtype, sizeof w->dtype, "%s", t->dtype_name);
    if (t->dtype == AT_ST_F32 && (uintptr_t)t->data % _Alignof(float) == 0) {
        *out = (const float *)(const void *)t->data;
        w->mapped_bytes += t->nbytes;
        return AT_OK;
    }
    float *f = malloc(t->count ? t->count * sizeof *f : 1);
    if (!f || keep(w, f)) {
        free(f);
        return at_error_set(err, AT_ENOMEM, "%s/%s: out of memory for tensor '%s'", w->dir,
                            file, t->name);
    }
    at_st_to_f32(t, f, NULL);
    w->converted_bytes += t->count * sizeof *f;
    *out = f;
    return AT_OK;
}
