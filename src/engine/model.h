/* The mini-model: a small Transformer encoder whose attention the lab shows.
 *
 * Embeddings (a vocabulary of words plus hashed character n-grams, fastText-style,
 * so any word gets a vector), sinusoidal positions (Vaswani et al. 2017, §3.5),
 * then layers of pre-layer-norm multi-head self-attention (§3.2.2, eq. 1) with
 * residual connections and, where configured, a position-wise feed-forward block
 * (§3.3). The shipped model has 2 layers: several heads plus feed-forward in
 * layer 1, ONE head in layer 2 (the coreference head: it looks up a pronoun's
 * antecedent). Layer 1 head 1 is trained to look at the token before each token, on
 * any sentence (the previous-token head, at_model_named_head). Training:
 * src/engine/train.h and `make model`.
 *
 * Every attention weight comes from the engine's at_mha_forward (attention.h),
 * the same code the lab and lessons run. The engine does no hidden I/O: a model is
 * read only from the path the caller gives. */
#ifndef AT_MODEL_H
#define AT_MODEL_H

#include <stddef.h>
#include "engine/error.h"
#include "engine/tokenizer.h"

#define AT_MODEL_MAX_LAYERS 8

typedef struct at_model at_model;   /* opaque; release with at_model_free */

/* Load a model from a safetensors file (8-byte little-endian header length, a JSON
 * header, raw little-endian float32; config, vocabulary and the coreference head in
 * "__metadata__"). *out is caller-owned (at_model_free). Errors: AT_EIO (cannot
 * read), AT_EINVAL (not a model file: the message names the field), AT_ENOMEM. */
int at_model_load(const char *path, at_model **out, at_error *err);

/* Save a model in the same format (used by the trainer). AT_EIO on failure. */
int at_model_save(const at_model *m, const char *path, at_error *err);

/* The untrained model: same architecture as the shipped one, weights drawn from a
 * seeded generator (deterministic: the same seed gives the same weights on every
 * machine), no vocabulary (every word's vector comes from its hashed n-grams).
 * Its heatmaps mean nothing; the lab shows it beside the trained one.
 * *out is caller-owned (at_model_free). Errors: AT_ENOMEM. */
int at_model_demo(unsigned long seed, at_model **out, at_error *err);

/* NULL-safe. */
void at_model_free(at_model *m);

typedef struct at_model_info {
    size_t n_layers, d_model;
    size_t max_tokens;                   /* longest sentence at_model_attend accepts */
    size_t n_heads[AT_MODEL_MAX_LAYERS]; /* heads per layer */
    size_t d_ff[AT_MODEL_MAX_LAYERS];    /* feed-forward width per layer, 0 = none */
    size_t vocab_size;                   /* words seen in training (0 for demo weights) */
    int trained;                         /* 0 = untrained demo weights */
    size_t coref_layer, coref_head;      /* 0-based: the head that finds the antecedent */
} at_model_info;

void at_model_get_info(const at_model *m, at_model_info *info);

/* "trained" or "untrained demo weights" (a static string). */
const char *at_model_kind(const at_model *m);

typedef struct at_run_opts {
    int causal;     /* 1 = causal mask (token i sees keys 0…i only), §3.2.3 */
    int unscaled;   /* 1 = scores not divided by √d_k (the scaling lesson) */
} at_run_opts;

/* Everything one run shows, filled by at_model_attend; free with at_model_run_free.
 * Index of layer l, head h, query i, key j in weights[l], scores[l], scaled[l]:
 * (h · n + i) · n + j. */
typedef struct at_model_run {
    size_t n;                   /* tokens */
    size_t n_layers;
    size_t *n_heads;            /* [n_layers] */
    float **weights;            /* [layer] → [n_heads × n × n] attention weights; rows sum to 1 */
    float **scores;             /* [layer] → [n_heads × n × n] raw q·k; masked = -INFINITY */
    float **scaled;             /* [layer] → [n_heads × n × n] q·k·scale; masked = -INFINITY */
    unsigned char *fully_masked;/* [n] 1 = the query's row had no visible key (all zeros) */
    unsigned char *unknown;     /* [n] 1 = word never seen in training (its vector is a guess
                                   from character n-grams); all 1 for demo weights */
} at_model_run;

/* Run the model on a tokenised sentence (tokenizer.h) and keep every layer's and
 * head's scores and weights. opts may be NULL (no mask, scaled). run is
 * caller-provided storage; its arrays are allocated here and released by
 * at_model_run_free. Errors: AT_EINVAL (no tokens), AT_ERANGE (more than
 * max_tokens), AT_ENOMEM. On error run is left empty (safe to free). */
int at_model_attend(const at_model *m, const at_tokens *toks, const at_run_opts *opts,
                    at_model_run *run, at_error *err);

/* NULL-safe; leaves run zeroed. */
void at_model_run_free(at_model_run *run);

/* How much a head of a run looks at the token before: over the rows i ≥ 1, the mean
 * and the lowest of weight[i][i − 1], and *argmin the row of the lowest. Returns 0
 * (outputs untouched) when the run has fewer than 2 tokens or no such head, else 1. */
int at_run_previous_token(const at_model_run *r, size_t layer, size_t head, double *mean,
                          double *min, size_t *argmin);

/* What one head does, as measured by the trainer on the training sentences (stored
 * in the model file's metadata "heads"; see train.h, at_head_survey). Weights are
 * means in [0, 1]; "pronoun" rows are the pronoun's row of the head. */
typedef struct at_head_profile {
    int measured;                   /* 0: no measurement (demo weights, older file) */
    double pronoun_to_antecedent;   /* weight on the noun the pronoun refers to */
    double pronoun_to_other_noun;   /* weight on the other noun */
    double pronoun_to_adjective;    /* weight on the adjective that decides it */
    double pronoun_to_itself;
    double to_previous, to_itself;  /* every row: weight on the previous token, on itself */
    double antecedent_above_other;  /* share of sentences where antecedent > other noun */
    char role[24];                  /* what training made it: "previous token",
                                       "coreference", or "" (nothing named) */
} at_head_profile;

/* The profile of (layer, head), 0-based. Returns AT_EINVAL when there is no such
 * head; out->measured = 0 when the model carries no measurement. */
int at_model_head_profile(const at_model *m, size_t layer, size_t head, at_head_profile *out);

/* 1 if the (lower-cased) word is in the model's vocabulary, else 0. */
int at_model_knows(const at_model *m, const char *word);

/* One sentence frame of the training corpus, as the model file records it (metadata
 * "corpus", written by `make model` from models/corpus.yaml). Strings belong to the
 * model. */
typedef struct at_model_frame {
    char *id, *lang;            /* "en-cross", "en" */
    char *pattern;              /* the frame, its slots named after their word lists:
                                   "The {animal} didn't cross the {place} because it was
                                   too {adj}." (Chinese with spaces between words) */
    char *pronoun;              /* the token at which the model was trained: "it" */
    char *example;              /* one training sentence made from it ("" if none) */
    size_t sentences;           /* training sentences made from it */
    int held_out;               /* 1: kept out of training (only evaluated on) */
} at_model_frame;

/* The frames of the model's corpus in corpus order, held-out ones included (flagged);
 * *frames is borrowed from m (may be NULL when the count is 0). Returns the count:
 * 0 for the demo weights and for a file that does not record its corpus. */
size_t at_model_frames(const at_model *m, const at_model_frame **frames);

/* The model's held-out evaluation as `make model` measured it (metadata "evaluation",
 * JSON, see at_evaluation_json in train.h), borrowed from m; NULL when not recorded. */
const char *at_model_evaluation(const at_model *m);

/* The head training named after what it does on any sentence (the previous-token
 * head): its layer and head, 0-based. 0 when the model has none (demo weights, older
 * files), else 1. */
int at_model_named_head(const at_model *m, size_t *layer, size_t *head);

/* How many sentences the model was trained on (0 when not recorded). */
size_t at_model_train_sentences(const at_model *m);

/* The distinct pronouns of the training sentences, in corpus order, into
 * out[0 .. max) (borrowed from m). Returns how many there are (AT_MODEL_MAX_PRONOUNS
 * holds all of the shipped model's). */
#define AT_MODEL_MAX_PRONOUNS 32
size_t at_model_pronouns(const at_model *m, const char **out, size_t max);

/* The model's scope on one sentence: which words it never saw, at which tokens its
 * coreference head was trained, and whether its weights here can mean anything. */
enum {
    AT_SCOPE_UNTRAINED = 1u,    /* untrained demo weights: nothing is learned */
    AT_SCOPE_NO_PRONOUN = 2u,   /* no token is a pronoun the model was trained at */
    AT_SCOPE_UNSEEN = 4u,       /* more than a quarter of the tokens are unseen words */
};

typedef struct at_scope {
    size_t n;                   /* tokens */
    size_t unseen_tokens;       /* tokens whose word the model never saw (occurrences) */
    size_t n_unseen;            /* distinct unseen words (compared lower-cased) */
    size_t *unseen;             /* [n_unseen] token index of each one's first occurrence,
                                   in order of appearance */
    int unseen_han;             /* 1: every distinct unseen word is written in Han
                                   characters only (Chinese characters, not words) */
    unsigned char *trained_row; /* [n] 1: the coreference head was trained at this
                                   token's row (a pronoun of a training frame); the
                                   training loss looks at no other row of that head */
    size_t n_trained_rows;
    unsigned reasons;           /* AT_SCOPE_* bits; 0: the sentence is within what the
                                   model was trained on */
} at_scope;

/* Fill *out for the tokens t (as run through at_model_attend). out is caller storage;
 * release its arrays with at_scope_free. Errors: AT_ENOMEM (out left empty). */
int at_model_scope(const at_model *m, const at_tokens *t, at_scope *out, at_error *err);

/* 1 if training reached row i of (layer, any head): the loss is taken only at the
 * pronoun, so in the last layer — the coreference head's — only the pronoun's rows
 * (s->trained_row) were trained, while every row of an earlier layer feeds the last
 * one and was. 0 for untrained weights and out-of-range arguments. */
int at_scope_row_trained(const at_model *m, const at_scope *s, size_t layer, size_t i);

/* NULL-safe; leaves s zeroed. */
void at_scope_free(at_scope *s);

#endif
