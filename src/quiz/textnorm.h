/* Text answers normalised once, before any matching (internal to src/quiz): the
 * answer and every rubric phrase become the same kind of token list, so that matching
 * compares tokens and never spellings.
 *
 *   1. Traditional Chinese is read as Simplified (OpenCC, config t2s.json); in an answer,
 *      a word of the field typed with the wrong characters by an input method is read as
 *      the word meant (跟号 → 根号, 愿句 → 原句: quiz/imeslip.h);
 *   2. case folding and NFKC (full-width letters, digits and punctuation become ASCII;
 *      dₖ becomes dk, ² becomes 2);
 *   3. tokens: a Latin word, a number, one Han character, or one mark (punctuation or
 *      a symbol); spaces separate and vanish, so 距离为1 and 距离为 1 are one list;
 *      a hyphen joins nothing ("one-hot" is "one hot"), nor does an underscore
 *      (dec_hidden) but in d_k and d_model; "--" and "—" are one mark "—"; a line
 *      break is a space (text wrapped over lines is one text);
 *   4. English words are stemmed (Snowball, libstemmer): saturates, saturation and
 *      saturating are all "satur";
 *   5. a word of 5 letters or more that is not in the rubric's vocabulary but one edit
 *      (insertion, deletion, substitution, swap of neighbours) from a word of 5 letters
 *      or more that is, is read as that word ("varaince", "dimention"), unless it is an
 *      English word of the system's word list (/usr/share/dict/words, Debian's
 *      wamerican: "being" is not a typo of "bring");
 *   6. the notations of the field become one token each: √dₖ, sqrt(d_k), 根号 dk and
 *      "square root of d_k" are "sqrtdk"; d_k and dₖ are "dk"; O(1), O(n), O(n²) are
 *      "o(1)", "o(n)", "o(n2)";
 *   7. "the", "a", "an" and 的 (not in 的话) are dropped.
 */
#ifndef AT_QUIZ_TEXTNORM_H
#define AT_QUIZ_TEXTNORM_H

#include <stddef.h>

#include "engine/error.h"

typedef enum qz_tok_kind {
    QZ_TK_WORD,     /* a Latin word (stemmed) or one of the field's notations */
    QZ_TK_NUM,      /* digits, maybe with a decimal point */
    QZ_TK_HAN,      /* one Han character (or another character of a script without spaces) */
    QZ_TK_MARK,     /* one punctuation mark or symbol; "→" for -> */
} qz_tok_kind;

typedef struct qz_tok {
    char *s;        /* normalised text (malloc'd) */
    char *raw;      /* the word folded but not stemmed (malloc'd): negations read it */
    qz_tok_kind kind;
    unsigned char owned;   /* a 的 was dropped before it: what it names is owned by the
                            * words before ("编码器的 K": the encoder's K) */
} qz_tok;

typedef struct qz_text {
    qz_tok *t;      /* [n] */
    size_t n;
} qz_text;

/* The Latin words of a rubric, as written (folded) and stemmed: what a typo is
 * corrected to. */
typedef struct qz_vocab {
    char **raw, **stem;
    size_t n, cap;
    size_t *by_raw, *by_stem;   /* [n_slot] open-addressed index + 1 of each word, 0 empty */
    size_t n_slot;              /* a power of two, at least twice n */
} qz_vocab;

/* The converters, opened once per grading (OpenCC takes a few milliseconds). */
typedef struct qz_norm {
    const struct qz_textlibs *lib;   /* the libraries' functions (quiz/textlibs.h) */
    void *stemmer;          /* struct sb_stemmer * */
    void *t2s;              /* opencc_t, or NULL when its configuration was not found */
    const qz_vocab *vocab;  /* words typos are corrected to; may be NULL */
} qz_norm;

/* Open the stemmer and OpenCC's t2s.json (looked up by name, then in OpenCC's data
 * folder of the build, then under $OPENCC_DATA_DIR). Traditional Chinese is left as
 * it is when none is found; everything else works. AT_OK or AT_ENOMEM. Close with
 * qz_norm_close (also after an error). */
int qz_norm_open(qz_norm *nm, at_error *err);

/* s (valid UTF-8) in Simplified Chinese as OpenCC's t2s gives it, in a new string the
 * caller frees, when that changes s and keeps every byte offset (each character
 * converted to one of the same UTF-8 length: 沒 → 没, 數 → 数): an answer's labels then
 * read as the question's tokens, and the offsets the reader reports stay the answer's.
 * NULL otherwise (nothing to convert, no OpenCC data, invalid UTF-8, out of memory). */
char *qz_simplified_same_offsets(const char *s);
void qz_norm_close(qz_norm *nm);

/* Does this process read Traditional Chinese (was t2s.json found)? */
int qz_norm_has_t2s(const qz_norm *nm);

/* Normalise s (UTF-8; checked by the caller) into out (free with qz_text_free).
 * fix_typos: correct words against nm->vocab (answers, not rubric phrases).
 * Returns AT_OK or AT_ENOMEM. */
int qz_norm_text(const qz_norm *nm, const char *s, int fix_typos, qz_text *out, at_error *err);
void qz_text_free(qz_text *t);

/* Add the Latin words of a normalised phrase to the vocabulary (raw and stem).
 * 0, or -1 when out of memory. */
int qz_vocab_add(qz_vocab *v, const qz_text *t);
void qz_vocab_free(qz_vocab *v);

/* Is token i of t the text w (normalised form)? */
int qz_tok_is(const qz_text *t, size_t i, const char *w);

/* Does the raw (unstemmed) word of token i equal w? */
int qz_tok_raw_is(const qz_text *t, size_t i, const char *w);

/* The length of a word that opens a student's correction at s (n bytes readable, any
 * case): sorry, wait, oops, "no,", actually, i mean, scratch, corrected, 更正, 不对,
 * 应该是 …; 0 if none. The dash before one ends a clause (tokenizing); a number
 * reader looks for lost digits only after the last one. */
size_t qz_correction_word_at(const char *s, size_t n);

#endif
