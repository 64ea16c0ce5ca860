/* Internals of the checkpoint module shared by its files (see hf.h). */
#ifndef AT_HF_IMPL_H
#define AT_HF_IMPL_H

#include "engine/attention.h"
#include "engine/hf/bpe.h"
#include "engine/hf/config.h"
#include "engine/hf/hf.h"
#include "engine/hf/weights.h"

/* One block's parameters, pointers into the mapped files or converted copies.
 * d = d_model, f = d_ff. GPT-2 names in comments. */
typedef struct hf_layer {
    const float *ln1_g, *ln1_b;     /* [d] ln_1 */
    const float *w_qkv, *b_qkv;     /* [d × 3d], [3d] attn.c_attn (q | k | v columns) */
    const float *w_o, *b_o;         /* [d × d], [d] attn.c_proj */
    const float *ln2_g, *ln2_b;     /* [d] ln_2 */
    const float *w_fc, *b_fc;       /* [d × f], [f] mlp.c_fc */
    const float *w_out, *b_out;     /* [f × d], [d] mlp.c_proj */
} hf_layer;

struct at_hf_model {
    char *dir;
    at_hf_config cfg;
    at_hf_weights w;
    at_bpe *bpe;
    const float *wte, *wpe;         /* [vocab × d] token, [n_positions × d] position embeddings */
    hf_layer *layers;               /* [n_layers] */
    size_t max_tokens;
};

/* Find GPT-2's tensors (shapes from cfg). Errors as at_hf_weights_get. */
int hf_gpt2_bind(at_hf_model *m, at_error *err);

/* GPT-2's forward pass over ids[0 .. n), recording attention into run (whose arrays
 * are allocated: weights/scores/scaled [n_layers] of [n_heads × n × n]). Only what the
 * attention of every layer needs is computed: the last block's MLP and the final layer
 * norm are skipped. Errors: AT_ENOMEM, AT_EINVAL from the engine. */
int hf_gpt2_forward(const at_hf_model *m, const int32_t *ids, size_t n, at_model_run *run,
                    at_error *err);

/* Shared operations on [n × d] rows. */
/* out = (x − mean) / √(var + eps) · g + b per row (Ba et al. 2016); statistics in double. */
void hf_layernorm(size_t n, size_t d, const float *x, const float *g, const float *b,
                  double eps, float *out);
/* out = x·W + b: x [n × d_in], W [d_in × d_out] (trans_w = 0) or [d_out × d_in]
 * (trans_w = 1, a torch Linear's weight), b [d_out] or NULL, out [n × d_out]. */
void hf_linear(size_t n, size_t d_in, size_t d_out, const float *x, const float *W,
               int trans_w, const float *b, float *out);
/* The activation of cfg->act in place over x[0 .. len). */
void hf_activate(at_hf_act act, size_t len, float *x);

/* Allocate run's arrays for n tokens of m (zeroed); AT_ENOMEM leaves it freed. */
int hf_run_alloc(const at_hf_model *m, size_t n, at_model_run *run, at_error *err);

#endif
