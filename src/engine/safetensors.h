/* Reading and writing safetensors files: an 8-byte little-endian header length N,
 * N bytes of JSON header ({"name": {"dtype": "F32", "shape": [...],
 * "data_offsets": [begin, end]}, …, "__metadata__": {string: string}}), then the raw
 * little-endian tensor bytes. Only F32 tensors are read or written. The header is
 * parsed with cJSON. https://github.com/huggingface/safetensors */
#ifndef AT_SAFETENSORS_H
#define AT_SAFETENSORS_H

#include <stddef.h>
#include "engine/error.h"

typedef struct cJSON cJSON;

typedef struct at_safetensors {
    unsigned char *file;        /* whole file */
    size_t size;
    cJSON *header;              /* parsed header */
    const unsigned char *data;  /* tensor bytes (after the header) */
    size_t data_size;
} at_safetensors;

/* Read and check a file (header length within the file, valid JSON object). The
 * struct is caller-owned; release with at_st_free. Errors: AT_EIO, AT_EINVAL
 * (the message says what is wrong), AT_ENOMEM, AT_ENOTREG (a folder, FIFO, device or
 * socket: "PATH: is a folder, not a model file (.safetensors)", see engine/file.h),
 * AT_ERANGE (over 1 GiB). */
int at_st_read(const char *path, at_safetensors *st, at_error *err);

void at_st_free(at_safetensors *st);

/* Copy tensor `name`, which must be F32 with shape [rows, cols] (cols = 0: [rows]),
 * into out [rows × cols]. AT_EINVAL names the tensor when it is missing, of another
 * dtype or shape, or its offsets fall outside the file. */
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
