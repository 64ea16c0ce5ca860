/* safetensors reader and writer (see safetensors.h). */
#include "engine/safetensors.h"
#include "engine/file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* The format's own limit on the header (safetensors' MAX_HEADER_SIZE). */
#define HEADER_MAX_BYTES ((uint64_t)100 << 20)

static const struct { const char *name; size_t size; at_st_dtype dtype; } dtypes[] = {
    {"F32", 4, AT_ST_F32}, {"F16", 2, AT_ST_F16}, {"BF16", 2, AT_ST_BF16},
    {"F64", 8, AT_ST_OTHER}, {"I64", 8, AT_ST_OTHER}, {"U64", 8, AT_ST_OTHER},
    {"I32", 4, AT_ST_OTHER}, {"U32", 4, AT_ST_OTHER}, {"I16", 2, AT_ST_OTHER},
    {"U16", 2, AT_ST_OTHER}, {"I8", 1, AT_ST_OTHER}, {"U8", 1, AT_ST_OTHER},
    {"BOOL", 1, AT_ST_OTHER}, {"F8_E4M3", 1, AT_ST_OTHER}, {"F8_E5M2", 1, AT_ST_OTHER},
};

size_t at_st_dtype_size(const char *name)
{
    for (size_t i = 0; name && i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (!strcmp(name, dtypes[i].name))
            return dtypes[i].size;
    return 0;
}

static at_st_dtype dtype_of(const char *name)
{
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (!strcmp(name, dtypes[i].name))
            return dtypes[i].dtype;
    return AT_ST_OTHER;
}

/* A JSON number that is a whole size (0 … 2^53), else -1. */
static int json_size(const cJSON *x, size_t *out)
{
    if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0) || x->valuedouble > 9007199254740992.0 ||
        x->valuedouble != (double)(uint64_t)x->valuedouble)
        return -1;
    *out = (size_t)x->valuedouble;
    return 0;
}

/* "[768, 2304]" into buf, for messages. */
static const char *shape_text(const at_st_tensor *t, char *buf, size_t cap)
{
    size_t o = 0;
    o += (size_t)snprintf(buf, cap, "[");
    for (size_t i = 0; i < t->ndim && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%zu", i ? ", " : "", t->shape[i]);
    if (o < cap)
        snprintf(buf + o, cap - o, "]");
    return buf;
}

/* Check one header entry and fill t. The message names the tensor, not the path. */
static int parse_entry(const at_safetensors *st, const cJSON *e, at_st_tensor *t,
                       at_error *err)
{
    const char *name = e->string;
    memset(t, 0, sizeof *t);
    t->name = name;
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(e, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(e, "shape");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
    if (!cJSON_IsObject(e) || !dtype || !shape || !offs)
        return at_error_set(err, AT_EINVAL, "tensor '%s': not an object with dtype, shape and "
                            "data_offsets", name);
    size_t esize = cJSON_IsString(dtype) ? at_st_dtype_size(dtype->valuestring) : 0;
    if (!esize)
        return at_error_set(err, AT_EINVAL, "tensor '%s': unknown dtype %s%s%s", name,
                            cJSON_IsString(dtype) ? "'" : "(not a string)",
                            cJSON_IsString(dtype) ? dtype->valuestring : "",
                            cJSON_IsString(dtype) ? "'" : "");
    t->dtype_name = dtype->valuestring;
    t->dtype = dtype_of(dtype->valuestring);
    int nd = cJSON_IsArray(shape) ? cJSON_GetArraySize(shape) : -1;
    if (nd < 0 || nd > AT_ST_MAX_DIMS)
        return at_error_set(err, AT_EINVAL, "tensor '%s': shape is not a list of at most %d "
                            "sizes", name, AT_ST_MAX_DIMS);
    t->ndim = (size_t)nd;
    t->count = 1;
    for (int i = 0; i < nd; i++) {
        if (json_size(cJSON_GetArrayItem(shape, i), &t->shape[i]))
            return at_error_set(err, AT_EINVAL, "tensor '%s': shape holds something that is "
                                "not a size (a whole number from 0)", name);
        if (t->shape[i] && t->count > SIZE_MAX / 8 / t->shape[i])
            return at_error_set(err, AT_EINVAL, "tensor '%s': shape is too large", name);
        t->count *= t->shape[i];
    }
    size_t begin, end;
    if (!cJSON_IsArray(offs) || cJSON_GetArraySize(offs) != 2 ||
        json_size(cJSON_GetArrayItem(offs, 0), &begin) ||
        json_size(cJSON_GetArrayItem(offs, 1), &end) || end < begin)
        return at_error_set(err, AT_EINVAL, "tensor '%s': data_offsets is not [begin, end] "
                            "with begin <= end", name);
    if (end > st->data_size)
        return at_error_set(err, AT_EINVAL, "tensor '%s': data_offsets [%zu, %zu] run past the "
                            "end of the data (%zu bytes: the file is truncated or the header "
                            "lies)", name, begin, end, st->data_size);
    char sh[160];
    if (end - begin != t->count * esize)
        return at_error_set(err, AT_EINVAL, "tensor '%s': data_offsets [%zu, %zu] hold %zu "
                            "bytes, but shape %s of %s needs %zu", name, begin, end,
                            end - begin, shape_text(t, sh, sizeof sh), t->dtype_name,
                            t->count * esize);
    t->data = st->data + begin;
    t->nbytes = end - begin;
    return AT_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const at_st_tensor *)a)->name, ((const at_st_tensor *)b)->name);
}

static int parse_tensors(at_safetensors *st, at_error *err)
{
    size_t n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, st->header)
        n += strcmp(e->string, "__metadata__") != 0;
    st->tensors = calloc(n ? n : 1, sizeof *st->tensors);
    if (!st->tensors)
        return at_error_set(err, AT_ENOMEM, "out of memory for %zu tensors", n);
    cJSON_ArrayForEach(e, st->header) {
        if (!strcmp(e->string, "__metadata__"))
            continue;
        int rc = parse_entry(st, e, &st->tensors[st->n_tensors], err);
        if (rc)
            return rc;
        st->n_tensors++;
    }
    qsort(st->tensors, st->n_tensors, sizeof *st->tensors, by_name);
    for (size_t i = 1; i < st->n_tensors; i++)
        if (!strcmp(st->tensors[i - 1].name, st->tensors[i].name))
            return at_error_set(err, AT_EINVAL, "tensor '%s' is named twice in the header",
                                st->tensors[i].name);
    return AT_OK;
}

static int map_file(const char *path, at_safetensors *st, at_error *err)
{
    int fd;
    size_t size;
    at_error why;
    int rc = at_file_open(path, "a model file (.safetensors)", &fd, &size, &why);
    if (rc)
        return at_error_set(err, rc, "%s: %s", path, why.msg);
    if (size < 8) {
        close(fd);
        return at_error_set(err, AT_EINVAL, "%s: not a safetensors file (%zu bytes, shorter "
                            "than the 8-byte header length)", path, size);
    }
    void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED)
        return at_error_set(err, AT_EIO, "%s: cannot map the file: %s", path, strerror(e));
    st->file = p;
    st->size = size;
    return AT_OK;
}

int at_st_read(const char *path, at_safetensors *st, at_error *err)
{
    memset(st, 0, sizeof *st);
    if (!host_is_little_endian())
        return at_error_set(err, AT_EINVAL, "%s: safetensors needs a little-endian machine", path);
    int rc = map_file(path, st, err);
    if (rc)
        return rc;
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = (hlen << 8) | st->file[i];
    if (hlen > st->size - 8 || hlen > HEADER_MAX_BYTES) {
        rc = at_error_set(err, AT_EINVAL, "%s: not a safetensors file (header length %llu, "
                          "file %zu bytes%s)", path, (unsigned long long)hlen, st->size,
                          hlen > HEADER_MAX_BYTES && hlen <= st->size - 8
                              ? "; the format allows 100 MB of header" : "");
        goto fail;
    }
    st->header = cJSON_ParseWithLength((const char *)st->file + 8, (size_t)hlen);
    if (!cJSON_IsObject(st->header)) {
        rc = at_error_set(err, AT_EINVAL, "%s: the safetensors header is not a JSON object",
                          path);
        goto fail;
    }
    st->data = st->file + 8 + hlen;
    st->data_size = st->size - 8 - (size_t)hlen;
    at_error why;
    if ((rc = parse_tensors(st, &why))) {
        at_error_set(err, rc, "%s: %s", path, why.msg);
        goto fail;
    }
    return AT_OK;
fail:
    at_st_free(st);
    return rc;
}

void at_st_free(at_safetensors *st)
{
    if (!st)
        return;
    cJSON_Delete(st->header);
    free(st->tensors);
    if (st->file)
        munmap((void *)st->file, st->size);
    memset(st, 0, sizeof *st);
}

const at_st_tensor *at_st_find(const at_safetensors *st, const char *name)
{
    if (!st || !st->n_tensors || !name)
        return NULL;
    at_st_tensor key = {.name = name};
    return bsearch(&key, st->tensors, st->n_tensors, sizeof key, by_name);
}

float at_f16_to_f32(unsigned short h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1F) {                 /* inf, NaN */
        bits = sign | 0x7F800000u | (man << 13);
    } else if (exp) {                  /* normal */
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man) {                  /* subnormal: man · 2^-24, exact in float */
        float f = (float)man * 0x1p-24f;
        return sign ? -f : f;
    } else {
        bits = sign;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

float at_bf16_to_f32(unsigned short b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

int at_st_to_f32(const at_st_tensor *t, float *out, at_error *err)
{
    const unsigned char *p = t->data;
    switch (t->dtype) {
    case AT_ST_F32:
        memcpy(out, p, t->count * sizeof(float));
        return AT_OK;
    case AT_ST_F16:
        for (size_t i = 0; i < t->count; i++)
            out[i] = at_f16_to_f32((unsigned short)(p[2 * i] | p[2 * i + 1] << 8));
        return AT_OK;
    case AT_ST_BF16:
        for (size_t i = 0; i < t->count; i++)
            out[i] = at_bf16_to_f32((unsigned short)(p[2 * i] | p[2 * i + 1] << 8));
        return AT_OK;
    default:
        return at_error_set(err, AT_EINVAL, "tensor '%s': dtype %s cannot be read as float "
                            "(F32, F16 and BF16 can)", t->name, t->dtype_name);
    }
}

int at_st_get_f32(const at_safetensors *st, const char *name, size_t rows, size_t cols,
                  float *out, at_error *err)
{
    const at_st_tensor *t = at_st_find(st, name);
    if (!t)
        return at_error_set(err, AT_EINVAL, "tensor '%s' is missing", name);
    if (t->dtype != AT_ST_F32)
        return at_error_set(err, AT_EINVAL, "tensor '%s': dtype must be F32", name);
    size_t ndim = cols ? 2 : 1;
    if (t->ndim != ndim || t->shape[0] != rows || (cols && t->shape[1] != cols))
        return at_error_set(err, AT_EINVAL, "tensor '%s': shape is not [%zu%s%.0zu]", name, rows,
                            cols ? ", " : "", cols);
    memcpy(out, t->data, t->nbytes);
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
