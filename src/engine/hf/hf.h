/* Real checkpoints: a Hugging Face model folder (config.json, model.safetensors or its
 * shards, the tokenizer's files), GPT-2 or BERT, run on the engine's attention
 * (at_mha_attend) with every layer's and head's weights recorded.
 *
 *   GPT-2 (Radford et al. 2019; the layout of OpenAI's released model as the
 *   transformers library stores it): token + learned position embeddings; n_layer
 *   pre-layer-norm blocks x += attn(ln_1(x)), x += mlp(ln_2(x)); Conv1D weights
 *   stored [in × out]; c_attn holds q, k and v side by side ([d × 3d]); causal
 *   attention; the MLP's GELU in the tanh form. Tokens: byte-level BPE (bpe.h) from
 *   vocab.json + merges.txt, or WordPiece (wordpiece.h) when the folder has only a
 *   vocab.txt (GPT-2-layout models trained with a BERT vocabulary).
 *   BERT (Devlin et al. 2019): word + position + token type (0) embeddings and a layer
 *   norm; post-layer-norm blocks x = LN(x + attn(x)), x = LN(x + ffn(x)) with torch
 *   Linear weights ([out × in]); exact (erf) GELU; attention both ways. Tokens:
 *   WordPiece from vocab.txt with [CLS] … [SEP]; lower-cased and accents stripped
 *   when tokenizer_config.json (else config.json) says do_lower_case, the default.
 *
 * The weights stay in the mapped files (F32), or are converted once (F16, BF16). The
 * engine does no other I/O than reading the folder the caller names. */
#ifndef AT_HF_H
#define AT_HF_H

#include <stddef.h>
#include <stdint.h>
#include "engine/error.h"
#include "engine/hf/config.h"
#include "engine/model.h"
#include "engine/tokenizer.h"

typedef struct at_hf_model at_hf_model;

/* 1 when path is a folder (a model folder is tried), else 0. */
int at_hf_is_folder(const char *path);

/* Open the model folder dir: config.json, the weights, the tokenizer. *out is
 * caller-owned (at_hf_free). Errors: one line naming the file and what is wrong
 * (config.h, weights.h, bpe.h; a tensor missing or of another shape than config.json
 * makes it; tokenizer ids beyond the model's vocab_size); AT_EIO for a file that is
 * missing, AT_EINVAL for one that is wrong, AT_ENOMEM. */
int at_hf_open(const char *dir, at_hf_model **out, at_error *err);

/* NULL-safe. */
void at_hf_free(at_hf_model *m);

typedef struct at_hf_info {
    const at_hf_config *cfg;    /* sizes as config.json gives them */
    const char *dir;            /* the folder as given */
    const char *tokenizer;      /* "byte-level BPE" or "WordPiece" */
    const char *dtype;          /* of the weights: "F32", "F16", "BF16" */
    size_t max_tokens;          /* the longest input at_hf_attend takes */
    int causal;                 /* 1: each token sees only itself and those before */
    size_t mapped_bytes;        /* F32 weights used in place in the mapped files */
    size_t converted_bytes;     /* float copies made from F16/BF16 */
    size_t n_files;             /* safetensors files mapped */
} at_hf_info;

void at_hf_get_info(const at_hf_model *m, at_hf_info *info);

/* A sentence as the model's tokens. shown.items[i] is what a person reads for token i:
 * its span of the sentence (start, len; len 0 for [CLS] and [SEP], which the tokenizer
 * added) and a label. Byte-level BPE: the characters of the span, a space as "␣", a
 * newline as "↵", a tab as "⇥"; a character cut between two tokens is shown whole in
 * both, with "~" on the side where the rest of it lies ("我~", "~我"). WordPiece: the
 * piece as the model sees it ("the", "##ing", "[CLS]", "[UNK]"). */
typedef struct at_hf_tokens {
    size_t n;
    int32_t *ids;               /* [n] vocabulary ids */
    char **pieces;              /* [n] vocabulary strings ("Ġanimal"), owned */
    at_tokens shown;            /* [n] labels and spans, see above */
} at_hf_tokens;

/* Tokenize s[0 .. len) (UTF-8). out is overwritten; release with at_hf_tokens_free.
 * Errors: AT_EUTF8 (err->offset), AT_ERANGE (len over AT_TOKENIZE_MAX_BYTES),
 * AT_ENOMEM. An empty sentence gives n = 0. */
int at_hf_tokenize(const at_hf_model *m, const char *s, size_t len, at_hf_tokens *out,
                   at_error *err);

/* NULL-safe; leaves t zeroed. */
void at_hf_tokens_free(at_hf_tokens *t);

/* Run the model on the tokens and keep every layer's and head's raw scores q·k, scaled
 * scores and weights (model.h: at_model_run; its `unknown` is all 0). Errors:
 * AT_EINVAL (no tokens), AT_ERANGE (more than max_tokens), AT_ENOMEM. On error run is
 * left empty. */
int at_hf_attend(const at_hf_model *m, const at_hf_tokens *t, at_model_run *run,
                 at_error *err);

/* A key/value cache for typing: GPT-2 is causal, so the keys, values and attention rows
 * of the tokens a sentence starts with do not depend on the tokens after them, in every
 * layer. Given the previous run made with the same cache, at_hf_attend_cached computes
 * only the tokens from the first one that differs (typing at the end: the last one or
 * two; an edit in the middle: from there on; deleting at the end: none) and copies the
 * rows before it. It also computes only the layers asked for (a layer's weights depend
 * on the layers below it only): the layers above stay behind, each with the rows it had,
 * and catch up when a later call asks for them. Memory: (3 · n_layers + 1) ·
 * max_tokens · d_model floats (the keys, values and residual stream entering each
 * layer; 63 MB reserved for GPT-2 small's 557 tokens, of which only the rows of the
 * tokens typed are touched). BERT has no cache: every row depends on every token,
 * each call computes everything. */
typedef struct at_hf_cache at_hf_cache;

/* A cache for m (caller-owned, at_hf_cache_free; only with m). AT_ENOMEM. */
int at_hf_cache_new(const at_hf_model *m, at_hf_cache **out, at_error *err);
void at_hf_cache_free(at_hf_cache *c);

/* What at_hf_attend_cached did. */
typedef struct at_hf_cache_use {
    size_t layers;      /* the first `layers` layers of the run are complete */
    size_t reused;      /* the fewest tokens, over those layers, whose rows were taken
                           from prev rather than computed */
} at_hf_cache_use;

/* at_hf_attend through the cache c: prev is the run the previous call with c made (or
 * NULL: computes everything); layers: how many layers, from the first, must be complete
 * in run (0, or more than the model has: all). Layers after those hold only the rows
 * that were already computed before the first token that changed, and zeros after
 * them: not to be shown until a call with more layers completes them. *use (may be
 * NULL) tells how many layers are complete (all of them without a cache or for BERT)
 * and how many tokens' rows were reused. The weights equal at_hf_attend's to rounding.
 * Errors as at_hf_attend; on error the cache is emptied (the next call computes
 * everything). */
int at_hf_attend_cached(const at_hf_model *m, at_hf_cache *c, const at_hf_tokens *t,
                        const at_model_run *prev, size_t layers, at_model_run *run,
                        at_hf_cache_use *use, at_error *err);

#endif
