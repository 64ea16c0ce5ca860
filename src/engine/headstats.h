/* What a head does, measured on one sentence: the average weight its rows put on the
 * previous token, on the first token, and on the other pieces of their own word
 * (the measures of Clark et al. 2019, "What Does BERT Look At?", §3; BertViz's way to
 * find heads). Works on any run (model.h: at_model_run), the mini-model's or a real
 * checkpoint's. */
#ifndef AT_HEADSTATS_H
#define AT_HEADSTATS_H

#include <stddef.h>
#include "engine/model.h"
#include "engine/tokenizer.h"

typedef enum at_head_measure {
    AT_HEAD_PREVIOUS,   /* rows 2 … n: weight on the token just before */
    AT_HEAD_FIRST,      /* rows 2 … n: weight on token 1 */
    AT_HEAD_SAME_WORD,  /* rows of a word of several pieces: weight on its other pieces */
    AT_HEAD_N_MEASURES,
} at_head_measure;

/* 1 when token j continues the word of token j − 1: both stand for text (len > 0) and
 * touch in the sentence s with no white space between ("didn" + "'t", "road" + "##s"),
 * or are pieces of one character (byte-level BPE); not where either side of the
 * boundary is a CJK character or punctuation, each a word of its own (小明 is two). */
int at_tokens_same_word(const at_tokens *t, const char *s, size_t j);

/* The measure m of layer l, head h of run r on tokens t of sentence s: a mean weight in
 * [0, 1] into *out. Returns 0, or -1 when the sentence has nothing to measure (one
 * token; no word of several pieces). */
int at_head_measure_of(const at_model_run *r, const at_tokens *t, const char *s, size_t l,
                       size_t h, at_head_measure m, double *out);

/* What the measure m of layer l, head h would be if the head spread each row's weight
 * evenly over the keys it sees (those of weight > 0; a mask hides the others): the
 * chance level a measure is read against (about 1/n without a mask; the mean of 1/i
 * with a causal one). Returns as at_head_measure_of. */
int at_head_measure_even(const at_model_run *r, const at_tokens *t, const char *s, size_t l,
                         size_t h, at_head_measure m, double *out);

/* The head with the largest measure m over every layer and head: *l, *h (0-based) and
 * *out. Returns the number of heads compared, 0 when there is nothing to measure. */
size_t at_head_best(const at_model_run *r, const at_tokens *t, const char *s,
                    at_head_measure m, size_t *l, size_t *h, double *out);

#endif
