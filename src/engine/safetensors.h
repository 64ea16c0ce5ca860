/* Reading and writing safetensors files: an 8-byte little-endian header length N,
 * N bytes of JSON header ({"name": {"dtype": "F32", "shape": [...],
 * "data_offsets": [begin, end]}, …, "__metadata__": {string: string}}), then the raw
 * little-endian tensor bytes. https://github.com/huggingface/safetensors
 *
 * A file is mapped (mmap, read-only, private), not read into a copy: a 500 MB
 * checkpoint opens in the time it takes to parse its header. Every entry of the header
 * is checked when the file is opened (dtype, shape, offsets inside the data, byte count
 * = elements × dtype size), so nothing later reads past the end of the file. F32, F16
 * and BF16 tensors can be read as float; other dtypes are checked and listed but not
 * converted. The header is parsed with cJSON. */
#ifndef AT_SAFETENSORS_H
#define AT_SAFETENSORS_H

#include <stddef.h>
#include "engine/error.h"

typedef struct cJSON cJSON;

typedef enum at_st_dtype {
    AT_ST_F32, AT_ST_F16, AT_ST_BF16,
    AT_ST_OTHER,                /* a dtype of the format this reader does not convert */
} at_st_dtype;

#define AT_ST_MAX_DIMS 8

/* One tensor of a file, as its header describes it; every field checked at open. */
typedef struct at_st_tensor {
    const char *name;           /* owned by the file's header */
    const char *dtype_name;     /* "F32", "BF16", "I64", … (owned by the header) */
    at_st_dtype dtype;
    size_t ndim, shape[AT_ST_MAX_DIMS];
    size_t count;               /* elements: the product of shape (1 for a scalar) */
    const unsigned char *data;  /* count × dtype size bytes inside the mapping */
    size_t nbytes;
} at_st_tensor;

typedef struct at_safetensors {
    const unsigned char *file;  /* the whole file, mapped read-only */
    size_t size;
    cJSON *header;              /* parsed header */
    const unsigned char *data;  /* tensor bytes (after the header) */
    size_t data_size;
    at_st_tensor *tensors;      /* [n_tensors], sorted by name */
    size_t n_tensors;
} at_safetensors;

/* Map and check a file. The struct is caller-owned; release with at_st_free.
 * Errors (each message starts with the path and says what is wrong, one line):
 * AT_EIO (cannot open or map), AT_ENOTREG (a folder, FIFO, device or socket, see
 * engine/file.h), AT_EINVAL (shorter than its header length says; a header that is
 * not a JSON object, over 100 MB, or an entry with a bad dtype, shape or offsets, or a
 * tensor named twice; the tensor is named), AT_ENOMEM. A file that another program
 * truncates while it is mapped is outside what a reader can guard against (SIGBUS). */
int at_st_read(const char *path, at_safetensors *st, at_error *err);

/* NULL-safe; unmaps the file. */
void at_st_free(at_safetensors *st);

/* The tensor called name, or NULL. The pointer belongs to st. */
const at_st_tensor *at_st_find(const at_safetensors *st, const char *name);

/* Bytes per element of a dtype name ("F32" → 4, "BF16" → 2, "BOOL" → 1 …), 0 when the
 * name is not a dtype of the format. */
size_t at_st_dtype_size(const char *name);

/* Convert t (F32, F16 or BF16; little-endian) into out [t->count]. F16 subnormals,
 * infinities and NaNs convert exactly. Returns AT_EINVAL for another dtype. */
int at_st_to_f32(const at_st_tensor *t, float *out, at_error *err);

/* IEEE 754 binary16 and bfloat16 bit patterns as float. */
float at_f16_to_f32(unsigned short h);
float at_bf16_to_f32(unsigned short b);

/* Copy tensor `name`, which must be F32 with shape [rows, cols] (cols = 0: [rows]),
 * into out [rows × cols]. AT_EINVAL names the tensor when it is missing, of another
 * dtype or shape. */
int at_st_get_f32(const at_safetensors *st, const char *name, size_t rows, size_t cols,
                  float *out, at_error *err);

/* The string value of __metadata__[key], or NULL. Owned by st. */
const char *at_st_meta(const at_safetensors *st, const char *key);

/* One tensor to write. */
typedef struct at_st_entry {
    const char *name;
    size_t rows, cols;          /* cols = 0 for a vector */
    const float *data;
} at_st_entry;

/* Write tensors (in the order given) and metadata (n_meta key/value string pairs:
 * meta[2i] = key, meta[2i+1] = value) to path. Byte for byte the same output for
 * the same input. Errors: AT_EIO, AT_ENOMEM. */
int at_st_write(const char *path, const at_st_entry *entries, size_t n,
                const char *const *meta, size_t n_meta, at_error *err);

#endif
