/* config.json of a Hugging Face model folder: which architecture, and its sizes.
 *
 * Keys read, with the defaults the transformers library itself uses when a key is
 * absent (GPT2Config, BertConfig):
 *   gpt2: n_embd 768, n_head 12, n_layer 12, n_positions 1024, vocab_size 50257,
 *         n_inner null (= 4·n_embd), layer_norm_epsilon 1e-5, activation_function
 *         "gelu_new", scale_attn_weights true, scale_attn_by_inverse_layer_idx false
 *   bert: hidden_size 768, num_attention_heads 12, num_hidden_layers 12,
 *         intermediate_size 3072, max_position_embeddings 512, type_vocab_size 2,
 *         vocab_size 30522, layer_norm_eps 1e-12, hidden_act "gelu",
 *         position_embedding_type "absolute"
 * A config without model_type is read by its "architectures" (GPT2…, Bert…). */
#ifndef AT_HF_CONFIG_H
#define AT_HF_CONFIG_H

#include <stddef.h>
#include "engine/error.h"

typedef enum at_hf_family { AT_HF_GPT2 = 1, AT_HF_BERT = 2 } at_hf_family;

typedef enum at_hf_act {
    AT_HF_GELU_TANH,    /* 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))): "gelu_new" */
    AT_HF_GELU_ERF,     /* 0.5·x·(1 + erf(x/√2)): "gelu" */
    AT_HF_RELU,
} at_hf_act;

typedef struct at_hf_config {
    at_hf_family family;
    char model_type[32];        /* as written ("gpt2", "bert") */
    size_t n_layers, n_heads, d_model, d_ff;
    size_t n_positions;         /* learned positions: the longest input */
    size_t vocab_size;
    size_t type_vocab_size;     /* BERT's token types (segments); 0 for GPT-2 */
    double ln_eps;              /* layer norm ε */
    at_hf_act act;
    int scale_attn;             /* 1: scores divided by √d_head */
    int scale_by_layer;         /* GPT-2: scores also divided by (layer index + 1) */
    int do_lower_case;          /* BERT: -1 not said in config.json, else 0/1 */
} at_hf_config;

/* Read path (config.json). Errors, one line starting with the path: AT_EIO / AT_ENOTREG
 * (cannot read it), AT_EINVAL (not JSON, with the byte offset; another model_type,
 * named with those that can be opened; a size out of range or heads that do not
 * divide the width, naming the key), AT_ERANGE (over 1 MB). */
int at_hf_config_read(const char *path, at_hf_config *cfg, at_error *err);

#endif
