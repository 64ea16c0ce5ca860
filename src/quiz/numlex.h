/* Under the numeric answer reader: the text made plain (normalise), a lexer over it and
 * the arithmetic of one value ("exp(0.3)/9.75"). answer.c holds them; reader.c reads a
 * whole sentence with them. Not for other modules. */
#ifndef AT_QUIZ_NUMLEX_H
#define AT_QUIZ_NUMLEX_H

#include <stddef.h>

#include "quiz/answer.h"

enum qz_tok_kind {
    T_END,
    T_NUM,        /* 0.14, .14, 1,048,576, 1.384e-1 */
    T_OP,         /* + - * / ^ */
    T_LPAR, T_RPAR,
    T_PCT,
    T_SEP,        /* , ; 、 。 . ! ? and: values or clauses apart */
    T_LABELSEP,   /* = : between a label and its value, or a step and its result */
    T_CHAIN,      /* ≈ ~ → : a step and its result ("e^0.3/9.75 ≈ 0.14") */
    T_WORD,       /* a run of letters or CJK characters */
    T_ROOT,       /* √ */
    T_PUNCT,      /* anything else a sentence holds: quotes, brackets, # … */
};

typedef struct qz_tok {
    enum qz_tok_kind kind;
    char op;              /* + - * / ^ for T_OP; the character for T_SEP / T_LABELSEP */
    double num;           /* T_NUM */
    int decimals;         /* T_NUM: decimal places (at most QZ_MAX_DECIMALS) */
    const char *s;        /* span in the normalised text */
    size_t len;
    int space_before;     /* whitespace (or the start) before this token */
} qz_tok;

/* Decimal places are counted up to this many (1e-99999 has "99999 decimals"). */
#define QZ_MAX_DECIMALS 17
/* Exponents are clamped to ± this before any arithmetic. */
#define QZ_MAX_EXPONENT 9999

typedef struct qz_lexer {
    const char *text;     /* normalised, NUL-terminated */
    const long *orig;     /* [strlen(text) + 1] byte offset in the answer of each byte */
    qz_tok *toks;         /* [strlen(text) + 2] */
    size_t n;             /* tokens, T_END not counted */
    int comma_decimal;    /* a comma between digits is a decimal point */
    int whole;            /* whole numbers expected: "21,000" is 21000 */
    int slash_sep;        /* " / " between spaces separates values ("0.14 / 0.17") */
    int space_groups;     /* one whole number asked: "1 048 576" is one number */
    qz_lang lang;
    at_error *err;
} qz_lexer;

/* The answer as the lexer reads it: full-width digits and dot, every minus sign
 * (U+2212 …) as '-', superscripts (10⁻¹ → 10^(-1)), LaTeX (\frac{a}{b} → ((a)/(b)),
 * \approx → ≈, \times → *, braces → parentheses; other commands dropped).
 * *orig[i] is the answer's byte offset of output byte i. Both malloc'd; -1 when out
 * of memory. */
int qz_normalise(const char *text, char **out, long **orig);

/* Tokenise lx->text into lx->toks. AT_OK, or AT_EINVAL (lx->err: a character cut by
 * the end of the answer; "2e+1" inside arithmetic). */
int qz_lex(qz_lexer *lx);

/* Does a value (a number, a sign, a parenthesised sum, √, exp( …) start at token i? */
int qz_value_starts(const qz_lexer *lx, size_t i);

/* Parse one value (one arithmetic expression) starting at token *i; *i moves past it.
 * Fills x, percent, computed, decimals of v. AT_OK, or AT_EINVAL with lx->err naming
 * the problem (division by zero, a ')' missing, too large …). *soft is set when the
 * expression is not arithmetic on numbers after all ("e^x", "1+x", "0.14 +"): then *i
 * is the token where it stopped making sense, and the caller may read on as text. */
int qz_parse_value(const qz_lexer *lx, size_t *i, qz_value *v, int *soft);

/* Set err (via lx) to msgid (an English message, in lx->lang through qz_tr) at token t,
 * quoting it; returns AT_EINVAL. */
int qz_lex_fail(const qz_lexer *lx, const qz_tok *t, const char *msgid);

/* The sentence reader (reader.c): every value of the tokens with its label. */
int qz_read_tokens(const qz_lexer *lx, const qz_read_opts *o, qz_numbers *out);

#endif
