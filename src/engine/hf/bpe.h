/* GPT-2's byte-level byte-pair encoding (Radford et al. 2019, §2.2; Sennrich et al. 2016),
 * read from a Hugging Face folder's vocab.json ({"piece": id, …}) and merges.txt
 * ("#version: 0.2" then one merge "a b" a line, the most frequent first).
 *
 * Encoding a sentence, as OpenAI's encoder.py does it:
 *   1. split it into pre-tokens with GPT-2's pattern
 *        's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 *      (letters, numbers and other characters in runs, each with at most one space in
 *      front; a run of white space gives all but its last character to itself when a
 *      word follows). \p{L}, \p{N} are Unicode general categories, \s the White_Space
 *      property (libunistring; Unicode 14), as in the Python `regex` module OpenAI's
 *      encoder uses (JavaScript's \s, in the npm gpt-3-encoder, differs only at U+0085,
 *      which it does not count as space, and U+FEFF, which it does);
 *   2. write each pre-token's UTF-8 bytes as the 256 printable characters of
 *      bytes_to_unicode() (the space is "Ġ", the newline "Ċ");
 *   3. merge adjacent symbols, always the pair whose merge comes first in merges.txt,
 *      every occurrence of it from left to right, until no pair has a merge;
 *   4. look each symbol up in vocab.json.
 * Every piece keeps the byte span of the sentence it came from. */
#ifndef AT_HF_BPE_H
#define AT_HF_BPE_H

#include <stddef.h>
#include <stdint.h>
#include "engine/error.h"

typedef struct at_bpe at_bpe;

/* Read vocab.json and merges.txt. Checks that every byte has its symbol in the vocabulary
 * and that every merge's result is in it (so every piece has an id). Errors, one line
 * naming the file (and the line of merges.txt): AT_EIO/AT_ENOTREG (cannot read),
 * AT_EINVAL (not a JSON object of whole-number ids; a merges line that is not two
 * symbols; a missing byte symbol or merge result), AT_ERANGE (a file over 64 MB),
 * AT_ENOMEM. *out is caller-owned (at_bpe_free). */
int at_bpe_load(const char *vocab_path, const char *merges_path, at_bpe **out, at_error *err);

void at_bpe_free(at_bpe *b);

/* One more than the largest id in vocab.json. */
size_t at_bpe_id_limit(const at_bpe *b);

/* The vocabulary string of id ("Ġanimal"), or NULL when no piece has that id. */
const char *at_bpe_piece(const at_bpe *b, int32_t id);

/* The id of a vocabulary string, or -1. */
int32_t at_bpe_id(const at_bpe *b, const char *piece);

/* The pieces of s[0 .. len) (UTF-8): *n pieces, ids[i] and the byte span
 * s[start[i] .. start[i] + len_out[i]). The three arrays are allocated here (caller
 * frees each; NULL when *n = 0). Errors: AT_EUTF8 (invalid UTF-8: err->offset is the
 * first bad byte), AT_ENOMEM. */
int at_bpe_encode(const at_bpe *b, const char *s, size_t len, int32_t **ids, size_t **start,
                  size_t **len_out, size_t *n, at_error *err);

#endif
