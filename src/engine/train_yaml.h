/* The training corpus's YAML description (models/corpus.yaml), one to one, shared by
 * the loader (train_corpus.c) and the generators (train_generate.c, train_extra.c).
 * Internal to the trainer. */
#ifndef AT_TRAIN_YAML_H
#define AT_TRAIN_YAML_H

#include <stdbool.h>
#include <stdint.h>
#include "engine/train.h"

struct yaml_list {
    char *name;                 /* name */
    char *cls;                  /* class: what a pronoun must refer to ("boy", "thing"…) */
    char **words;               /* words: a word may be several ("the boy", "那 只 猫"):
                                   its last space-separated word is the antecedent */
    unsigned words_count;
    char **held_out_words;      /* held_out_words: never in training, only evaluated */
    unsigned held_out_words_count;
};

struct yaml_pronoun {
    char *lang;                 /* lang */
    char *word;                 /* word */
    char *form;                 /* form: subject, object or possessive */
    char *be;                   /* be: the verb {be} becomes after it (was / were) */
    char **refers;              /* refers: the classes it can refer to */
    unsigned refers_count;
};

struct yaml_frame {
    char *id;                   /* id */
    char *lang;                 /* lang */
    char *text;                 /* text: with {a}, {b}, {p}, optionally {adj} and {be} */
    char *form;                 /* form: which pronouns fill {p} */
    char **a, **b;              /* a, b: list names */
    unsigned a_count, b_count;
    char **adj_a;               /* adj_a: adjectives that point to the {a} noun */
    unsigned adj_a_count;
    char **adj_b;               /* adj_b: adjectives that point to the {b} noun */
    unsigned adj_b_count;
    char **adj;                 /* adj: adjectives that point to neither */
    unsigned adj_count;
    unsigned max_pairs;         /* max_pairs: noun pairs drawn (0 = every pair) */
    bool held_out_frame;        /* held_out_frame */
};

struct yaml_noise {
    unsigned train, held_out;   /* train, held_out: how many sentences */
    unsigned min_tokens, max_tokens;
};

struct yaml_probe {
    char *lang;                 /* lang */
    char *text;                 /* text */
    char *pronoun;              /* pronoun (optional) */
    char *antecedent, *other;   /* antecedent, other (optional): the two nouns */
};

struct yaml_corpus {
    unsigned long seed;         /* seed */
    double held_out;            /* held_out */
    struct yaml_list *lists;    /* lists */
    unsigned lists_count;
    struct yaml_pronoun *pronouns; /* pronouns */
    unsigned pronouns_count;
    struct yaml_frame *frames;  /* frames */
    unsigned frames_count;
    struct yaml_noise *noise;   /* noise (optional) */
    struct yaml_probe *probes;  /* probes (optional) */
    unsigned probes_count;
};

/* Expand every frame into its sentences (train_generate.c). used [frames × pronouns]
 * (zeroed by the caller) receives, for each frame and pronoun, AT_GEN_USED when a
 * sentence of the frame has that pronoun, | AT_GEN_TRAINED when a training one has. */
enum { AT_GEN_USED = 1, AT_GEN_TRAINED = 2 };
int at_gen_frames(const struct yaml_corpus *y, at_corpus *c, unsigned char *used,
                  at_error *err);

/* Random sentences for the previous-token head, and the probe sentences (train_extra.c). */
int at_gen_noise(const struct yaml_corpus *y, at_corpus *c, at_error *err);
int at_gen_probes(const struct yaml_corpus *y, at_corpus *c, at_error *err);

/* Append a tokenised sentence to c (grows c->ex); *out points at it. The text is
 * taken over (freed on error). */
int at_corpus_push(at_corpus *c, char *text, at_example **out, at_error *err);

#endif
