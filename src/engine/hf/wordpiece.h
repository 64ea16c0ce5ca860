/* BERT's tokenizer (Devlin et al. 2019, §3 and the tokenization.py released with it;
 * the transformers library's BertTokenizerFast does the same): vocab.txt (one piece a
 * line, the id is the line number from 0), then
 *   1. clean: drop U+0000, U+FFFD and control characters (categories C*, but tab,
 *      newline and carriage return are white space); white space (those three, the
 *      space and category Zs) becomes a space;
 *   2. every CJK ideograph (the CJK Unified Ideographs blocks and their extensions,
 *      the compatibility ideographs) becomes a word of its own;
 *   3. uncased models: lower-case (full Unicode case mapping; Σ at the end of a word
 *      is ς), then strip accents (NFD, drop category Mn);
 *   4. split words at white space, and every punctuation character (ASCII 33–47,
 *      58–64, 91–96, 123–126 and categories P*) is a word of its own;
 *   5. WordPiece: each word is cut greedily into the longest pieces in the vocabulary
 *      from the left, pieces after the first written "##…"; a word that cannot be cut,
 *      or of more than 100 characters, is one [UNK];
 *   6. [CLS] … [SEP] around the sentence (token type 0 for all).
 * Each piece keeps the byte span of the sentence it came from (the characters it was
 * made from; [CLS] and [SEP] have an empty span at the start and the end). */
#ifndef AT_HF_WORDPIECE_H
#define AT_HF_WORDPIECE_H

#include <stddef.h>
#include <stdint.h>
#include "engine/error.h"

typedef struct at_wordpiece at_wordpiece;

/* Read vocab.txt; lower_case: steps 3 (1) or not (0). Needs [CLS], [SEP] and [UNK] in
 * the vocabulary. Errors (one line naming the file): AT_EIO/AT_ENOTREG, AT_EINVAL (not
 * UTF-8 at a line; a special piece missing), AT_ERANGE (over 64 MB), AT_ENOMEM. *out is
 * caller-owned (at_wordpiece_free). */
int at_wordpiece_load(const char *vocab_path, int lower_case, at_wordpiece **out,
                      at_error *err);

void at_wordpiece_free(at_wordpiece *w);

/* The number of lines (ids 0 … size − 1). */
size_t at_wordpiece_size(const at_wordpiece *w);

/* The piece of an id ("##ing"), or NULL. */
const char *at_wordpiece_piece(const at_wordpiece *w, int32_t id);

/* The id of a piece, or -1. */
int32_t at_wordpiece_id(const at_wordpiece *w, const char *piece);

/* Tokens of s[0 .. len) with [CLS] and [SEP]: *n ids and spans, arrays allocated here
 * (caller frees each). Errors: AT_EUTF8 (err->offset), AT_ENOMEM. */
int at_wordpiece_encode(const at_wordpiece *w, const char *s, size_t len, int32_t **ids,
                        size_t **start, size_t **len_out, size_t *n, at_error *err);

#endif
