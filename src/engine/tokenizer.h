/* Tokenizer for the sentences the tutor attends over, on libunistring.
 *
 * Source: Unicode UAX #29 (word and grapheme cluster boundaries, as implemented
 * by u8_wordbreaks and u8_grapheme_breaks in libunistring 1.0, Unicode 14).
 * Tokens are the positions of Vaswani et al. 2017: one row of Q, K and V each.
 *
 * A sentence is split into the tokens whose attention weights the tutor shows:
 *   - Latin (and other spaced) text by word breaks (UAX #29, u8_wordbreaks):
 *     "didn't", "didn’t", "3.14" and "U.S.A" are one token each;
 *   - punctuation is kept, each mark its own token ("tired." → "tired", ".";
 *     "…" and full-width "，" "。" are tokens too);
 *   - white space, U+200B zero-width space and control characters separate
 *     tokens and are dropped;
 *   - Han text gives one token per character ("小明今天没来学校" → 8 tokens), unless
 *     the student separated Han words with spaces: when a Han character is
 *     followed, after horizontal white space only, by another Han character
 *     anywhere in the input, every run of Han characters is one token
 *     ("今天 下雨 我 没 带 伞" → 6 tokens: the student's own segmentation is
 *     kept). The choice is made once for the whole input; a newline alone does
 *     not count as such a space;
 *   - Han next to other text splits at the script change ("我love你" → 我 love 你);
 *     kana and Hangul follow the word-break rules (a katakana run is one token);
 *   - a grapheme cluster is never split (👩🏿‍🔧, "e" + U+0301, ⚠️, 🇨🇳 stay whole);
 *     invisible format characters (U+00AD soft hyphen, U+FEFF, U+200E…) are kept
 *     inside a word ("co\u00ADoperate" is one token) and dropped elsewhere.
 * Each token keeps its byte span in the input and its display width (columns, per
 * grapheme cluster, see text.h). The result does not depend on the locale. */
#ifndef AT_TOKENIZER_H
#define AT_TOKENIZER_H

#include <stddef.h>
#include "engine/error.h"

/* The longest input at_tokenize accepts, in bytes (64 KiB: far more than a
 * sentence; it bounds the work and the n × n attention matrices downstream). */
#define AT_TOKENIZE_MAX_BYTES 65536

typedef struct at_token {
    size_t start, len;   /* byte span in the input: input[start .. start + len) */
    int width;           /* display columns (sum over grapheme clusters, see text.h) */
    char *text;          /* NUL-terminated copy of the span, owned by the at_tokens */
} at_token;

typedef struct at_tokens {
    at_token *items;     /* [n], in input order; NULL when n = 0 */
    size_t n;
} at_tokens;

/* Split s[0 .. len) (UTF-8, need not be NUL-terminated; nothing past len is read)
 * into tokens by the rules above. out is overwritten (not freed first); on success
 * the caller frees it with at_tokens_free. An empty or all-space input gives
 * n = 0 and AT_OK. Errors (out is then empty, err filled if not NULL):
 *   AT_EUTF8   invalid or truncated UTF-8; err->offset is the byte offset of the
 *              first bad byte (E6 88 91 E6 B3 → 3) and the message names it
 *   AT_ERANGE  len > AT_TOKENIZE_MAX_BYTES
 *   AT_EINVAL  out is NULL, or s is NULL with len > 0
 *   AT_ENOMEM  out of memory */
int at_tokenize(const char *s, size_t len, at_tokens *out, at_error *err);

/* Free the tokens' texts and items and leave t empty (NULL-safe; safe on an
 * emptied or zero-initialised at_tokens). */
void at_tokens_free(at_tokens *t);

#endif
