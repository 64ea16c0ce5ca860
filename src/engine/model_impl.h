/* Internals of the mini-model shared by the model (inference), its file format
 * and the trainer. Not for the UI or lessons: they use model.h. */
#ifndef AT_MODEL_IMPL_H
#define AT_MODEL_IMPL_H

#include <stdint.h>
#include "engine/attention.h"
#include "engine/model.h"

#define AT_MODEL_MAX_TOKENS 256
#define AT_MODEL_MAX_GRAMS 48   /* hashed n-grams kept per token */

typedef struct at_model_config {
    size_t d_model;
    size_t n_layers;
    size_t n_heads[AT_MODEL_MAX_LAYERS];
    size_t d_ff[AT_MODEL_MAX_LAYERS];   /* 0 = no feed-forward block in that layer */
    size_t vocab_size;                  /* rows of tok_emb */
    size_t n_buckets;                   /* rows of ngram_emb */
    size_t ngram_min, ngram_max;        /* character n-gram lengths, in code points */
} at_model_config;

/* One layer's parameters (pre-layer-norm block). d = d_model, f = d_ff. */
typedef struct at_layer_params {
    float *ln1_g, *ln1_b;               /* [d] layer norm before attention */
    float *W_q, *W_k, *W_v, *W_o;       /* [d × d] applied as X·W */
    float *b_q, *b_k, *b_v, *b_o;       /* [d] */
    float *ln2_g, *ln2_b;               /* [d] layer norm before feed-forward (if f) */
    float *W_1, *b_1;                   /* [d × f], [f] */
    float *W_2, *b_2;                   /* [f × d], [d] */
} at_layer_params;

typedef struct at_model_params {
    float *tok_emb;                     /* [vocab_size × d] word vectors; also the output layer */
    float *ngram_emb;                   /* [n_buckets × d] hashed character n-gram vectors */
    at_layer_params layer[AT_MODEL_MAX_LAYERS];
    float *lnf_g, *lnf_b;               /* [d] final layer norm */
} at_model_params;

/* One named tensor of the flat parameter array (its name in the safetensors file). */
typedef struct at_param_desc {
    char name[48];
    size_t rows, cols;                  /* cols = 0 for a vector */
    size_t offset;                      /* in floats, into the flat array */
    int kind;                           /* AT_P_WEIGHT, AT_P_BIAS, AT_P_GAIN, AT_P_EMB */
} at_param_desc;

enum { AT_P_WEIGHT, AT_P_BIAS, AT_P_GAIN, AT_P_EMB };
#define AT_MODEL_MAX_PARAMS (4 + 16 * AT_MODEL_MAX_LAYERS)

/* Lay the parameters of cfg out in one flat array: fills table (may be NULL) and
 * *n_table, points p's members into base (base may be NULL to only count), and
 * returns the total number of floats. */
size_t at_model_layout(const at_model_config *cfg, float *base, at_model_params *p,
                       at_param_desc *table, size_t *n_table);

struct at_model {
    at_model_config cfg;
    float *flat;                        /* all parameters, at_model_layout order */
    size_t n_flat;
    at_model_params p;
    char **vocab;                       /* [vocab_size] lower-cased words, strcmp order */
    int trained;
    size_t coref_layer, coref_head;
    at_head_profile *profiles;          /* [Σ heads] in layer order, or NULL */
    at_model_frame *frames;             /* [n_frames] metadata "corpus", or NULL */
    size_t n_frames;
    size_t train_sentences;             /* 0 when not recorded */
    char **pronouns;                    /* [n_pronouns] metadata "corpus" "pronouns" */
    size_t n_pronouns;
    char *evaluation;                   /* metadata "evaluation" (JSON), or NULL */
};

/* Allocate a model for cfg with zeroed parameters and an empty vocabulary. */
int at_model_alloc(const at_model_config *cfg, at_model **out, at_error *err);

/* Fill the parameters from a seeded generator: weights N(0, 1/fan_in), gains 1,
 * biases 0, embeddings N(0, emb_sd²). */
void at_model_init_params(at_model *m, uint64_t seed, float emb_sd);

/* at_model_save with extra metadata: extra[2i] = key, extra[2i+1] = value (≤ 10 pairs). */
int at_model_save_meta(const at_model *m, const char *path, const char *const *extra,
                       size_t n_extra, at_error *err);

/* The shipped architecture (d_model 48, layer 1: 4 heads + feed-forward 192,
 * layer 2: 1 head) with the given vocabulary size. */
at_model_config at_model_default_config(size_t vocab_size);

/* What the model reads of one token. */
typedef struct at_token_feat {
    long id;                            /* vocabulary row, -1 = unknown word */
    size_t n_grams;
    uint32_t grams[AT_MODEL_MAX_GRAMS]; /* rows of ngram_emb */
} at_token_feat;

/* Word → vocabulary row (binary search; the word is lower-cased first), -1 if absent. */
long at_model_lookup(const at_model *m, const char *word, size_t len);

/* Features of every token: feats [toks->n]. AT_ENOMEM on failure. */
int at_model_featurize(const at_model *m, const at_tokens *toks, at_token_feat *feats,
                       at_error *err);

/* Lower-case a UTF-8 word (libunistring u8_tolower); returns malloc'ed NUL-terminated
 * text or NULL on ENOMEM. */
char *at_model_lower(const char *s, size_t len);

/* Activations of one forward pass over n ≤ cap tokens, kept for the backward pass.
 * Buffers are sized for cap tokens; the first n rows are used. */
typedef struct at_layer_acts {
    float *x_in;                        /* [n × d] residual stream entering the layer */
    float *ln1, *ln1_mean, *ln1_rstd;   /* [n × d], [n], [n] */
    float *q, *k, *v;                   /* [n × d] projections */
    float *weights;                     /* [H × n × n] attention weights */
    float *scores, *scaled;             /* [H × n × n] (only when asked: at_model_attend) */
    float *heads;                       /* [n × d] concatenated head outputs before W_o */
    float *attn;                        /* [n × d] attention block output */
    float *x_mid;                       /* [n × d] x_in + attn */
    float *ln2, *ln2_mean, *ln2_rstd;   /* [n × d], [n], [n] */
    float *ff_pre, *ff_act;             /* [n × f] before and after GELU */
    float *ff_out;                      /* [n × d] */
} at_layer_acts;

typedef struct at_model_acts {
    size_t cap, n;
    float *x0;                          /* [n × d] embeddings + positions */
    at_layer_acts layer[AT_MODEL_MAX_LAYERS];
    float *x_out;                       /* [n × d] residual stream after the last layer */
    float *lnf, *lnf_mean, *lnf_rstd;   /* [n × d], [n], [n] */
    unsigned char *fully_masked;        /* [n] */
    float *mem;                         /* the one allocation behind every buffer */
    at_workspace ws;
} at_model_acts;

/* Allocate activations for up to cap tokens; with_trace also keeps raw and scaled scores. */
int at_model_acts_alloc(const at_model_config *cfg, size_t cap, int with_trace,
                        at_model_acts *a, at_error *err);
void at_model_acts_free(at_model_acts *a);

/* The forward pass (embeddings, positions, layers, final layer norm) into a.
 * n ≤ a->cap. opts may be NULL. Attention through at_mha_forward. */
int at_model_forward(const at_model *m, const at_token_feat *feats, size_t n,
                     const at_run_opts *opts, at_model_acts *a, at_error *err);

/* Sinusoidal positional encoding (Vaswani et al. 2017, §3.5) of position pos, [d]. */
void at_model_position(size_t pos, size_t d, float *out);

/* splitmix64: the project's seeded generator (same stream on every machine). */
uint64_t at_rng_next(uint64_t *state);
float at_rng_uniform(uint64_t *state);          /* [0, 1) */
float at_rng_normal(uint64_t *state);           /* mean 0, sd 1 (Box–Muller) */

#endif
