/* The tensors of a Hugging Face model folder: model.safetensors, or the shards that
 * model.safetensors.index.json names ({"weight_map": {tensor: "model-00001-of-00002
 * .safetensors", …}}). Every file is mapped and checked when the folder is opened
 * (engine/safetensors.h); a tensor is then found by its name in the model (e.g.
 * "h.0.attn.c_attn.weight"), with or without the prefix a head model puts in front
 * ("transformer.", "bert."), a layer norm's "weight"/"bias" also as the older
 * "gamma"/"beta". F32 tensors are used where they lie in the mapping; F16 and BF16
 * (and an F32 tensor not aligned to 4 bytes) are converted into float once. */
#ifndef AT_HF_WEIGHTS_H
#define AT_HF_WEIGHTS_H

#include <stddef.h>
#include "engine/error.h"
#include "engine/safetensors.h"

typedef struct at_hf_weights {
    char *dir;
    at_safetensors *shards;     /* [n_shards], mapped */
    char **shard_names;         /* [n_shards] file names inside dir */
    size_t n_shards;
    cJSON *index;               /* the parsed index (sharded folders), else NULL */
    const char *const *prefixes;/* tried in order before a name; set by the caller */
    float **owned;              /* converted tensors (freed with the weights) */
    size_t n_owned, cap_owned;
    size_t mapped_bytes;        /* F32 bytes used in place */
    size_t converted_bytes;     /* float bytes made from F16/BF16 */
    char dtype[8];              /* the dtype of the first tensor read ("F32", "BF16") */
} at_hf_weights;

/* Open the weights of the folder dir. prefixes: NULL-terminated list of name prefixes
 * to try ("" first), borrowed. Errors (one line, naming the file): AT_EIO (no
 * model.safetensors nor index; a shard that cannot be opened), AT_EINVAL (a file that
 * is not safetensors or whose header lies; an index that is not JSON, lacks weight_map,
 * or names a file outside the folder), AT_ENOTREG, AT_ENOMEM. */
int at_hf_weights_open(const char *dir, const char *const *prefixes, at_hf_weights *w,
                       at_error *err);

/* NULL-safe; unmaps every file and frees the converted tensors. */
void at_hf_weights_free(at_hf_weights *w);

/* The float data of tensor `name`, which must have ndim dimensions of the sizes in
 * shape (what config.json implies). *out belongs to w. Errors (AT_EINVAL, one line
 * naming the file and the tensor): missing, another shape (both shapes said), a dtype
 * that is not F32/F16/BF16; AT_ENOMEM. */
int at_hf_weights_get(at_hf_weights *w, const char *name, size_t ndim, const size_t *shape,
                      const float **out, at_error *err);

/* 1 when a tensor of that name (with a prefix, as above) exists. */
int at_hf_weights_has(const at_hf_weights *w, const char *name);

#endif
