/* The mini-model's trainer: a Winograd-style corpus generated from a YAML
 * description (models/corpus.yaml), the backward pass of every operation of the
 * model (model_ops.h), AdamW (Loshchilov & Hutter 2019), evaluation on held-out
 * sentences. Single thread, fixed seed: the same corpus file gives the same weights
 * bit for bit. The caller (models/train_main.c, `make model`) does the printing. */
#ifndef AT_TRAIN_H
#define AT_TRAIN_H

#include <stddef.h>
#include "engine/model_impl.h"

enum { AT_SPLIT_TRAIN, AT_SPLIT_HELD_OUT, AT_SPLIT_HELD_OUT_FRAME };

/* One generated sentence: its tokens, where the pronoun and the two nouns are. */
typedef struct at_example {
    char *text;                 /* the sentence as generated */
    at_tokens toks;
    at_token_feat *feats;       /* [toks.n], filled by at_corpus_featurize */
    size_t pronoun;             /* token index of the pronoun */
    size_t span[3][2];          /* token spans [begin, end) of {a}, {b}, {adj} */
    int answer;                 /* 0: the pronoun means {a}; 1: {b} */
    size_t frame;               /* index into at_corpus.frames */
    int split;                  /* AT_SPLIT_* */
} at_example;

typedef struct at_frame_info {
    char *id, *lang;
    char *pattern;              /* the text with its slots named after their lists:
                                   "The {animal} didn't cross the {place} because it …" */
    char *pronoun;              /* the token whose antecedent is predicted */
    int held_out_frame;
    size_t n_train;             /* its sentences in the training split */
    size_t example;             /* index in at_corpus.ex of its first training sentence
                                   (Chinese: the first one typed without spaces);
                                   (size_t)-1 when it has none */
} at_frame_info;

typedef struct at_corpus {
    unsigned long seed;
    at_frame_info *frames;
    size_t n_frames;
    at_example *ex;
    size_t n;
    size_t max_tokens;          /* longest sentence */
} at_corpus;

/* Read the YAML description at path (libcyaml) and generate, tokenise and split
 * every sentence. Errors: AT_EIO, AT_EINVAL (the message names the frame and what
 * is wrong: an unknown list, a pronoun missing from the text…), AT_ENOMEM.
 * Release with at_corpus_free (also after an error). */
int at_corpus_load(const char *path, at_corpus *c, at_error *err);
void at_corpus_free(at_corpus *c);

/* What the model is trained on, as JSON for the model file's metadata "corpus"
 * (read back by at_model_frames, model.h): {"sentences": training sentences,
 * "frames": [{"id", "lang", "pattern", "pronoun", "example", "sentences",
 * "held_out_frame"}]}. Returns a malloc'd string, NULL when out of memory. */
char *at_corpus_describe(const at_corpus *c);

/* The vocabulary: every distinct lower-cased token of the training split, strcmp
 * order. *words [*n] is caller-owned (free each, then the array). */
int at_corpus_vocab(const at_corpus *c, char ***words, size_t *n, at_error *err);

/* Compute every example's features against the model's vocabulary. */
int at_corpus_featurize(at_corpus *c, const at_model *m, at_error *err);

/* Vocabulary rows of the antecedent's ({answer}) or the other noun's tokens,
 * distinct: ids [AT_MAX_SPAN], returns the count. */
#define AT_MAX_SPAN 8
size_t at_example_ids(const at_example *e, int which, long *ids);

typedef struct at_train_opts {
    size_t steps, batch;
    float lr, warmup, weight_decay, beta1, beta2, eps;
    float word_dropout;         /* probability of hiding a word's id (n-grams only) */
    float attn_lambda;          /* weight of the loss on the coreference head's attention
                                   (0 = none); the head is the last layer's first */
    unsigned long seed;
    /* Called every log_every steps with the mean loss of the last batch. */
    size_t log_every;
    void (*on_log)(void *ctx, size_t step, float loss);
    void *ctx;
} at_train_opts;

at_train_opts at_train_defaults(void);

/* Train m (allocated with the corpus vocabulary, parameters initialised) on the
 * corpus's training split. Errors: AT_ENOMEM. */
int at_train(at_model *m, const at_corpus *c, const at_train_opts *o, at_error *err);

/* Loss and gradient of one example (accumulated into grad, [m->n_flat], with the
 * factor scale), given feats possibly with hidden ids. a is sized for the example.
 * Returns the loss. Used by at_train and by the gradient check. */
typedef struct at_grad_acts at_grad_acts;

/* An optional loss on one head's attention: lambda · (−log Σ_{j∈[begin,end)} w_pj),
 * w the weights of (layer, head) in the pronoun's row p: it pulls the coreference
 * head's attention onto the antecedent's tokens (supervised attention). */
typedef struct at_attn_target {
    size_t layer, head, begin, end;
    float lambda;
} at_attn_target;

int at_grad_acts_alloc(const at_model_config *cfg, size_t cap, at_grad_acts **out, at_error *err);
void at_grad_acts_free(at_grad_acts *g);
int at_example_loss_grad(const at_model *m, const at_token_feat *feats, size_t n,
                         size_t pronoun, const long *S, size_t n_S,
                         const at_attn_target *target, float scale, at_model_acts *a,
                         at_grad_acts *g, float *grad, float *loss, at_error *err);

/* Figures of one group of sentences. */
typedef struct at_eval {
    size_t n;
    size_t predicted;           /* the top prediction is a token of the antecedent */
    size_t attended;            /* the coref head puts more weight on the antecedent's
                                   tokens than on the other noun's */
    double mean_weight;         /* mean weight of the coref head on the antecedent */
} at_eval;

/* Evaluate the examples of a split (and language: "en", "zh" or NULL for both;
 * frame: a frame index or -1 for all) in head (layer, head). */
int at_evaluate(const at_model *m, const at_corpus *c, int split, const char *lang,
                long frame, size_t layer, size_t head, at_eval *out, at_error *err);

/* What each head does, measured on the training split: mean weight of the
 * pronoun's row on {a}, {b}, the adjective, itself; mean weight of every row on the
 * previous token and on itself; and the share of sentences where the head puts more
 * weight on the antecedent than on the other noun. */
typedef struct at_head_stats {
    double pron_ante, pron_other, pron_adj, pron_self;
    double prev, self;
    double ante_wins;
} at_head_stats;

/* stats [Σ heads] in layer order. Also picks the coreference head (the best
 * ante_wins) into m->coref_layer, m->coref_head. */
int at_head_survey(at_model *m, const at_corpus *c, at_head_stats *stats, at_error *err);

#endif
