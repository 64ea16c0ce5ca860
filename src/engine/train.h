/* The mini-model's trainer: a corpus of pronoun sentences generated from a YAML
 * description (models/corpus.yaml: frames decided by agreement or, Winograd-style, by
 * an adjective; random sequences; probes), the backward pass of every operation of
 * the model (model_ops.h), AdamW (Loshchilov & Hutter 2019), two losses on attention
 * (the coreference head onto the antecedent, layer 1 head 1 onto the previous token),
 * evaluation on held-out sentences. Single thread, fixed seed: the same corpus file gives the same weights
 * bit for bit. The caller (models/train_main.c, `make model`) does the printing. */
#ifndef AT_TRAIN_H
#define AT_TRAIN_H

#include <stddef.h>
#include "engine/model_impl.h"

/* Where a sentence is used: training, or one of the held-out groups that training
 * never saw: combinations of trained words in a trained frame (a noun pair never
 * trained together in that frame), whole frames, and words (a trained frame with a
 * word of a list's held_out_words, so the word is outside the vocabulary). */
enum { AT_SPLIT_TRAIN, AT_SPLIT_HELD_OUT, AT_SPLIT_HELD_OUT_FRAME, AT_SPLIT_HELD_OUT_WORDS,
       AT_N_SPLITS };

/* What decides the antecedent: agreement (the pronoun fits exactly one noun by gender,
 * number, person or thing), or the adjective (the pronoun fits both). */
enum { AT_BY_AGREEMENT, AT_BY_ADJECTIVE };

/* What a sentence is for: a pronoun sentence of a frame, a random sequence of words
 * and strings (for the previous-token head only), or a probe (an ordinary sentence
 * of models/corpus.yaml, only evaluated). */
enum { AT_EX_PRONOUN, AT_EX_NOISE, AT_EX_PROBE };

#define AT_NO_INDEX ((size_t)-1)

/* One generated sentence: its tokens, where the pronoun and the two nouns are. */
typedef struct at_example {
    char *text;                 /* the sentence as generated */
    at_tokens toks;
    at_token_feat *feats;       /* [toks.n], filled by at_corpus_featurize */
    int kind;                   /* AT_EX_* */
    size_t pronoun;             /* token index of the pronoun (its first token: 他 of 他们
                                   typed without spaces); AT_NO_INDEX: none */
    size_t span[3][2];          /* token spans [begin, end) of the {a} and {b} antecedents
                                   (the last word of the slot: "boy" of "the boy") and of
                                   {adj} ([0, 0) when the frame has none) */
    int answer;                 /* 0: the pronoun means {a}; 1: {b} */
    int decided;                /* AT_BY_* */
    size_t frame;               /* index into at_corpus.frames; AT_NO_INDEX for noise and
                                   probes */
    int split;                  /* AT_SPLIT_* */
    int zh;                     /* 1: a Chinese sentence */
    size_t twin;                /* the same frame, nouns and spelling with the other
                                   answer (its twin), or AT_NO_INDEX */
} at_example;

typedef struct at_frame_info {
    char *id, *lang;
    char *pattern;              /* the text with its slots named: "The {animal} didn't
                                   cross the {place} because {it} was too {adj}." */
    char *pronoun;              /* the pronouns of its sentences, "/"-joined: "he/she" */
    int held_out_frame;
    size_t n_train;             /* its sentences in the training split */
    size_t example;             /* index in at_corpus.ex of its first training sentence
                                   (Chinese: the first one typed without spaces);
                                   AT_NO_INDEX when it has none */
} at_frame_info;

typedef struct at_corpus {
    unsigned long seed;
    at_frame_info *frames;
    size_t n_frames;
    at_example *ex;
    size_t n, cap;
    size_t max_tokens;          /* longest sentence */
    char **pronouns;            /* [n_pronouns] distinct pronoun words of the training
                                   sentences, in the order of models/corpus.yaml */
    size_t n_pronouns;
} at_corpus;

/* Read the YAML description at path (libcyaml) and generate, tokenise and split
 * every sentence. Errors: AT_EIO, AT_EINVAL (the message names the frame and what
 * is wrong: an unknown list, a pronoun missing from the text…), AT_ENOMEM.
 * Release with at_corpus_free (also after an error). */
int at_corpus_load(const char *path, at_corpus *c, at_error *err);
void at_corpus_free(at_corpus *c);

/* What the model is trained on, as JSON for the model file's metadata "corpus"
 * (read back by at_model_frames, model.h): {"sentences": training sentences,
 * "pronouns": [the pronoun words], "frames": [{"id", "lang", "pattern", "pronoun",
 * "example", "sentences", "held_out_frame"}]}. Returns a malloc'd string, NULL when
 * out of memory. */
char *at_corpus_describe(const at_corpus *c);

/* The vocabulary: every distinct lower-cased token of the training split's pronoun
 * sentences (not of the random ones), strcmp order. *words [*n] is caller-owned (free each, then the array). */
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
    float prev_lambda;          /* weight of the loss that makes layer 1 head 1 a
                                   previous-token head (0 = none) */
    float noise_share;          /* share of each batch drawn from the random sequences */
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

/* An optional loss that names a head: lambda · mean over rows i of −log w_i,i−1 (row 0:
 * −log w_0,0), w the weights of (layer, head): every token looks at the one before. */
typedef struct at_prev_target {
    size_t layer, head;
    float lambda;
} at_prev_target;

int at_grad_acts_alloc(const at_model_config *cfg, size_t cap, at_grad_acts **out, at_error *err);
void at_grad_acts_free(at_grad_acts *g);

/* pronoun = AT_NO_INDEX: no prediction and no coreference target (a random sequence:
 * only prev's loss); else S [n_S ≥ 1] the antecedent's vocabulary rows. target and
 * prev may be NULL. */
int at_example_loss_grad(const at_model *m, const at_token_feat *feats, size_t n,
                         size_t pronoun, const long *S, size_t n_S,
                         const at_attn_target *target, const at_prev_target *prev,
                         float scale, at_model_acts *a, at_grad_acts *g, float *grad,
                         float *loss, at_error *err);

/* The head the trainer names (at_prev_target): layer 1 head 1, 0-based. */
#define AT_PREV_LAYER 0
#define AT_PREV_HEAD 0
/* A row "keeps the role" of the previous-token head when at least this share of its
 * weight is on the token before it. */
#define AT_PREV_ROLE_MIN 0.7

/* What the model does on one sentence (one forward pass). */
typedef struct at_ex_result {
    double w_ante, w_other;     /* the coreference head, the pronoun's row: its weight on
                                   the antecedent's tokens and on the other noun's */
    int predictable;            /* the antecedent has a token in the vocabulary */
    int predicted;              /* the top prediction at the pronoun is one of them */
    size_t prev_rows, prev_ok;  /* the named head: rows with a token before them, and
                                   those with ≥ AT_PREV_ROLE_MIN of their weight on it */
    double prev_sum, prev_min;  /* sum and minimum over those rows of that weight */
    size_t unseen;              /* tokens outside the vocabulary */
} at_ex_result;

/* Run the model on every example (with_train = 0: skip the training split) into
 * res [c->n] (skipped ones zeroed). Errors: AT_ENOMEM. */
int at_evaluate_run(const at_model *m, const at_corpus *c, int with_train, at_ex_result *res,
                    at_error *err);

/* The evaluation as JSON, for the model file's metadata "evaluation" (made by
 * at_evaluate_run with_train = 1): {"coreference": {layer, head}, "named_head": {layer,
 * head, "role"}, "groups": [{split, lang, decided, n, right, predictable, predicted,
 * mean_weight}], "twins": [{split, lang, pairs, both_right}], "previous_token": [{set,
 * lang, sentences, rows, rows_ok, mean_weight, min_weight, unseen_share}], "probes":
 * [{lang, n, right}]}; layers and heads from 1; right: the coreference head puts more
 * weight on the antecedent than on the other noun. Returns a malloc'd string or NULL
 * (out of memory). */
char *at_evaluation_json(const at_model *m, const at_corpus *c, const at_ex_result *res);

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
