/* safetensors reader and writer (see safetensors.h). */
#include "engine/safetensors.h"
#include "engine/file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* A model is read whole; more than this is not a model this reader was made for. */
#define MODEL_MAX_BYTES ((size_t)1 << 30)

static int read_whole(const char *path, unsigned char **buf, size_t *size, at_error *err)
{
    char *data;
    at_error why;
    int rc = at_file_read(path, "a model file (.safetensors)", MODEL_MAX_BYTES, &data, size, &why);
    if (rc == AT_ERANGE)
        return at_error_set(err, rc, "%s: larger than 1 GiB, the limit for a model file", path);
    if (rc)
        return at_error_set(err, rc, "%s: %s", path, why.msg);
    *buf = (unsigned char *)data;
    return AT_OK;
}

int at_st_read(const char *path, at_safetensors *st, at_error *err)
{
    memset(st, 0, sizeof *st);
    if (!host_is_little_endian())
        return at_error_set(err, AT_EINVAL, "%s: safetensors needs a little-endian machine", path);
    int rc = read_whole(path, &st->file, &st->size, err);
    if (rc)
        return rc;
    uint64_t hlen = 0;
    for (int i = 7; st->size >= 8 && i >= 0; i--)
        hlen = (hlen << 8) | st->file[i];
    if (st->size < 8 || hlen > st->size - 8) {
        at_st_free(st);
        return at_error_set(err, AT_EINVAL, "%s: not a safetensors file (header length %llu, "
                            "file %zu bytes)", path, (unsigned long long)hlen, st->size);
    }
    st->header = cJSON_ParseWithLength((const char *)st->file + 8, (size_t)hlen);
    if (!cJSON_IsObject(st->header)) {
        at_st_free(st);
        return at_error_set(err, AT_EINVAL, "%s: the safetensors header is not a JSON object",
                            path);
    }
    st->data = st->file + 8 + hlen;
    st->data_size = st->size - 8 - (size_t)hlen;
    return AT_OK;
}

void at_st_free(at_safetensors *st)
{
    if (!st)
        return;
    cJSON_Delete(st->header);
    free(st->file);
    memset(st, 0, sizeof *st);
}

static int get_size(const cJSON *arr, int i, size_t *out)
{
    const cJSON *x = cJSON_GetArrayItem(arr, i);
    if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 1e15)
        return -1;
    *out = (size_t)x->valuedouble;
    return 0;
}

int at_st_get_f32(const at_safetensors *st, const char *name, size_t rows, size_t cols,
                  float *out, at_error *err)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(st->header, name);
    if (!cJSON_IsObject(t))
        return at_error_set(err, AT_EINVAL, "tensor '%s' is missing", name);
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(t, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(t, "shape");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(t, "data_offsets");
    if (!cJSON_IsString(dtype) || strcmp(dtype->valuestring, "F32"))
        return at_error_set(err, AT_EINVAL, "tensor '%s': dtype must be F32", name);
    size_t ndim = cols ? 2 : 1, r = 0, c = 0, begin = 0, end = 0;
    if (!cJSON_IsArray(shape) || (size_t)cJSON_GetArraySize(shape) != ndim ||
        get_size(shape, 0, &r) || (cols && get_size(shape, 1, &c)) || r != rows || c != cols)
        return at_error_set(err, AT_EINVAL, "tensor '%s': shape is not [%zu%s%.0zu]", name, rows,
                            cols ? ", " : "", cols);
    if (!cJSON_IsArray(offs) || cJSON_GetArraySize(offs) != 2 || get_size(offs, 0, &begin) ||
        get_size(offs, 1, &end) || end < begin || end > st->data_size ||
        end - begin != rows * (cols ? cols : 1) * sizeof(float))
        return at_error_set(err, AT_EINVAL, "tensor '%s': data_offsets do not fit the file",
                            name);
    memcpy(out, st->data + begin, end - begin);
    return AT_OK;
}

const char *at_st_meta(const at_safetensors *st, const char *key)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(st->header, "__metadata__");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static cJSON *build_header(const at_st_entry *e, size_t n, const char *const *meta,
                           size_t n_meta)
{
    cJSON *h = cJSON_CreateObject();
    cJSON *md = cJSON_AddObjectToObject(h, "__metadata__");
    if (!md)
        goto fail;
    for (size_t i = 0; i < n_meta; i++)
        if (!cJSON_AddStringToObject(md, meta[2 * i], meta[2 * i + 1]))
            goto fail;
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        cJSON *t = cJSON_AddObjectToObject(h, e[i].name);
        size_t bytes = e[i].rows * (e[i].cols ? e[i].cols : 1) * sizeof(float);
        double shape[2] = {(double)e[i].rows, (double)e[i].cols};
        double offs[2] = {(double)off, (double)(off + bytes)};
        if (!t || !cJSON_AddStringToObject(t, "dtype", "F32") ||
            !cJSON_AddItemToObject(t, "shape", cJSON_CreateDoubleArray(shape, e[i].cols ? 2 : 1)) ||
            !cJSON_AddItemToObject(t, "data_offsets", cJSON_CreateDoubleArray(offs, 2)))
            goto fail;
        off += bytes;
    }
    return h;
fail:
    cJSON_Delete(h);
    return NULL;
}

int at_st_write(const char *path, const at_st_entry *e, size_t n, const char *const *meta,
                size_t n_meta, at_error *err)
{
    if (!host_is_little_endian())
        return at_error_set(err, AT_EINVAL, "%s: safetensors needs a little-endian machine", path);
    int rc = AT_OK;
    FILE *f = NULL;
    cJSON *h = build_header(e, n, meta, n_meta);
    char *json = h ? cJSON_PrintUnformatted(h) : NULL;
    if (!json) {
        rc = at_error_set(err, AT_ENOMEM, "%s: out of memory for the header", path);
        goto out;
    }
    size_t len = strlen(json), padded = (len + 7) / 8 * 8;  /* data starts 8-aligned */
    unsigned char hl[8];
    for (int i = 0; i < 8; i++)
        hl[i] = (unsigned char)(((uint64_t)padded >> (8 * i)) & 0xFF);
    f = fopen(path, "wb");
    if (!f) {
        rc = at_error_set(err, AT_EIO, "%s: %s", path, strerror(errno));
        goto out;
    }
    int bad = fwrite(hl, 1, 8, f) != 8 || fwrite(json, 1, len, f) != len;
    for (size_t i = len; i < padded && !bad; i++)
        bad = fputc(' ', f) == EOF;
    for (size_t i = 0; i < n && !bad; i++) {
        size_t count = e[i].rows * (e[i].cols ? e[i].cols : 1);
        bad = fwrite(e[i].data, sizeof(float), count, f) != count;
    }
    if (fclose(f) != 0 || bad)
        rc = at_error_set(err, AT_EIO, "%s: write failed", path);
    f = NULL;
out:
    if (f)
        fclose(f);
    free(json);
    cJSON_Delete(h);
    return rc;
}
