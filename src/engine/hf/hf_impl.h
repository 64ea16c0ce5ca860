/* Internals of the checkpoint module shared by its files (see hf.h). */
#ifndef AT_HF_IMPL_H
#define AT_HF_IMPL_H

#include "engine/attention.h"
#include "engine/hf/bpe.h"
#include "engine/hf/config.h"
#include "engine/hf/hf.h"
#include "engine/hf/weights.h"
#include "engine/hf/wordpiece.h"

/* One block's parameters, pointers into the mapped files or converted copies.
 * d = d_model, f = d_ff. GPT-2 names first; BERT's (torch Linear weights, [out × in])
 * after the slash. */
typedef struct hf_layer {
    const float *ln1_g, *ln1_b;     /* [d] ln_1 / attention.output.LayerNorm */
    const float *w_qkv, *b_qkv;     /* [d × 3d], [3d] attn.c_attn (q | k | v columns) */
    const float *w_q, *w_k, *w_v;   /* BERT: [d × d] attention.self.query/key/value */
    const float *b_q, *b_k, *b_v;   /* BERT: [d] */
    const float *w_o, *b_o;         /* [d × d], [d] attn.c_proj / attention.output.dense */
    const float *ln2_g, *ln2_b;     /* [d] ln_2 / output.LayerNorm */
    const float *w_fc, *b_fc;       /* [d × f] mlp.c_fc / [f × d] intermediate.dense, [f] */
    const float *w_out, *b_out;     /* [f × d] mlp.c_proj / [d × f] output.dense, [d] */
} hf_layer;

struct at_hf_model {
    char *dir;
    at_hf_config cfg;
    at_hf_weights w;
    at_bpe *bpe;                    /* the tokenizer: byte-level BPE, or */
    at_wordpiece *wordpiece;        /* WordPiece (BERT's; also GPT-2 models with vocab.txt) */
    const float *wte, *wpe;         /* [vocab × d] token, [n_positions × d] position embeddings */
    const float *wtt;               /* BERT: [type_vocab × d] token type embeddings */
    const float *ln_emb_g, *ln_emb_b; /* BERT: [d] embeddings.LayerNorm */
    hf_layer *layers;               /* [n_layers] */
    size_t max_tokens;
};

/* The tensor name of m's file, of shape [rows × cols] (a vector of rows where cols is 0):
 * a pointer into the mapped file, owned by m. Errors as at_hf_weights_get. */
int hf_tensor(at_hf_model *m, const char *name, size_t rows, size_t cols, const float **out,
              at_error *err);

/* Layer l's tensor "<layer_prefix><l>.<what>" ("h." for GPT-2, "encoder.layer." for
 * BERT), as hf_tensor. */
int hf_layer_tensor(at_hf_model *m, const char *layer_prefix, size_t l, const char *what,
                    size_t rows, size_t cols, const float **out, at_error *err);

/* Find GPT-2's tensors (shapes from cfg). Errors as at_hf_weights_get. */
int hf_gpt2_bind(at_hf_model *m, at_error *err);

/* GPT-2's forward pass over ids[0 .. n), recording attention into run (whose arrays
 * are allocated: weights/scores/scaled [n_layers] of [n_heads × n × n]). Only what the
 * attention of every layer needs is computed: the last block's c_proj and MLP and the
 * final layer norm are skipped. Errors: AT_ENOMEM, AT_EINVAL from the engine. */
int hf_gpt2_forward(const at_hf_model *m, const int32_t *ids, size_t n, at_model_run *run,
                    at_error *err);

/* x [(n − a) × d] = wte[ids[i]] + wpe[i] for the rows i = a … n − 1. */
void hf_gpt2_embed(const at_hf_model *m, const int32_t *ids, size_t a, size_t n, float *x);

/* GPT-2's block l over the rows a … n − 1 only. x [(n − a) × d] holds the residual
 * stream entering the block at those rows and leaves holding it after the block
 * (x += attn(ln_1(x)); x += mlp(ln_2(x))); in the last block only the attention is
 * computed (nothing after it changes a weight) and x is left as it was. K, V [≥ n × d]:
 * this layer's keys and values, rows 0 … a − 1 already there (causal: they do not
 * depend on later tokens), rows a … n − 1 written here. The attention rows a … n − 1 of
 * layer l go into run (allocated for n); the rows before a are not touched. a = 0:
 * every row. Errors: AT_ENOMEM, AT_EINVAL from the engine. */
int hf_gpt2_block(const at_hf_model *m, size_t l, size_t a, size_t n, float *x, float *K,
                  float *V, at_model_run *run, at_error *err);

/* BERT's tensors and forward pass, as hf_gpt2_*: embeddings (word + position + token
 * type 0, then a layer norm), post-layer-norm blocks x = LN(x + attn(x)),
 * x = LN(x + ffn(x)), no mask. */
int hf_bert_bind(at_hf_model *m, at_error *err);
int hf_bert_forward(const at_hf_model *m, const int32_t *ids, size_t n, at_model_run *run,
                    at_error *err);

/* Shared operations on [n × d] rows. */
/* out = (x − mean) / √(var + eps) · g + b per row (Ba et al. 2016); statistics in double. */
void hf_layernorm(size_t n, size_t d, const float *x, const float *g, const float *b,
                  double eps, float *out);
/* out = x·W + b: x [n × d_in], W [d_in × d_out] (trans_w = 0) or [d_out × d_in]
 * (trans_w = 1, a torch Linear's weight), b [d_out] or NULL, out [n × d_out]. */
void hf_linear(size_t n, size_t d_in, size_t d_out, const float *x, const float *W,
               int trans_w, const float *b, float *out);
/* GPT-2's GELU in the tanh form (Hendrycks & Gimpel 2016):
 * x · ½ · (1 + tanh(√(2/π) · (x + 0.044715 x³))) in place over x[0 .. len), with SLEEF's
 * 1-ULP tanhf on vectors (AVX2 + FMA where the CPU has them, else SSE2). */
#define HF_GELU_C 0.7978845608f   /* √(2/π) */
void hf_gelu_tanh(size_t len, float *x);
void hf_gelu_tanh_avx2(size_t len, float *x);   /* AVX2 + FMA CPUs only */
void hf_gelu_tanh_sse2(size_t len, float *x);   /* any x86-64 */

/* The activation of cfg->act in place over x[0 .. len). */
void hf_activate(at_hf_act act, size_t len, float *x);

/* Allocate run's arrays for n tokens of m (zeroed); AT_ENOMEM leaves it freed. */
int hf_run_alloc(const at_hf_model *m, size_t n, at_model_run *run, at_error *err);

#endif
