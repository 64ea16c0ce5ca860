/* Numbers in the forms students write them, found in a free sentence in English or
 * Chinese: "0.14 0.17", "0.14, 0.17.", "about .14 and .17", "下雨=0.14 没=0.17",
 * "rains: 0.14, didn't: 0.17" (the question's glosses), "0.14 for 下雨", "下雨的权重是0.14",
 * "下雨和没分别是0.14和0.17", "softmax of 0.3 is about 0.14" (a token by its score),
 * "14% 17%", "0,14 0,17", "1.384E−1", "1,048,576", "21 pairs", "21 对", and the
 * arithmetic and the steps of a hand calculation: "1.35/9.75", "exp(0.3)/9.75",
 * "e^0.3/9.75 ≈ 0.14" (a step and its result: the result counts), "…，和是 9.75，所以下雨
 * 0.14，没 0.17" (the values after "so" / 所以).
 * Full-width forms, ×, ·, ÷, every minus sign (U+2212) and LaTeX (\frac, \approx) are
 * read. The reader only reads; which value answers which slot, and whether the count
 * is right, is decided by the grader (quiz/numeric.c). */
#ifndef AT_QUIZ_ANSWER_H
#define AT_QUIZ_ANSWER_H

#include <stddef.h>

#include "engine/error.h"
#include "quiz/lang.h"

#define QZ_MAX_VALUES 64
#define QZ_LABEL_MAX 64

/* Other words for a token, from the question (a lesson's `glosses`): the English
 * prompt calls 下雨 "rains". */
typedef struct qz_gloss {
    size_t token;             /* index into the question's tokens */
    const char *words;        /* "rains | it rains | rain": alternatives split by '|' */
} qz_gloss;

/* The alternatives of a gloss's words ("rains | it rains"), spaces trimmed, empty ones
 * skipped: up to max spans into alt[] and len[] (pointers into words). Returns how many. */
size_t qz_gloss_alts(const char *words, const char **alt, size_t *len, size_t max);

/* What the reader knows of the question. All borrowed; everything may be 0 / NULL. */
typedef struct qz_read_opts {
    size_t want;              /* how many values are asked (0 = unknown); reads "0,155"
                               * (one value 0.155) apart from "1,2" (two values) */
    const char *const *tokens;/* [n_tokens] names a value may be labelled with */
    size_t n_tokens;
    const qz_gloss *glosses;  /* [n_glosses] */
    const double *scores;     /* [n_tokens] each token's score, or NULL: a score written
                               * as what a value is computed from labels it with that
                               * token ("softmax of 0.3 is about 0.14", "0.3 → 0.14") */
    size_t n_glosses;
    int whole;                /* whole numbers are expected: "21,000" is 21000 */
    int alt;                  /* values offered as alternatives ("0.17 or 0.21"): 0 flags
                               * them (qz_numbers.alternatives); 1 keeps the first of
                               * each choice, 2 the last, the others read as rejected */
} qz_read_opts;

typedef struct qz_value {
    double x;                 /* the value; a percentage is already divided by 100 */
    int percent;              /* written with a % sign */
    int computed;             /* written as arithmetic (1.35/9.75), not one literal */
    int divided;              /* computed with a division left to do (1.35/9.75; not
                               * 1.38×10⁻¹) */
    int decimals;             /* decimal places of a literal, in fraction units
                               * (14% → 2, 0.138 → 3); -1 when computed */
    int steps;                /* the result of a chain of steps ("e^0.3/9.75 ≈ 0.14")
                               * whose earlier steps were dropped */
    int quotient;             /* and one of those steps was a division ("0.41/2.94 ≈ 0.14",
                               * "1.3499÷9.7504=0.13844 ≈ 0.14") */
    long token;               /* index of the token that labels it (by its name or a
                               * gloss), -1 when none */
    long inherited;           /* unlabelled, after a value labelled with this token and
                               * before any other label: a later step of the same
                               * token's working ("下雨: e^0.3 = 1.35, 1.35/9.75 = 0.14");
                               * -1 when none */
    int other;                /* named as another quantity ("sum 9.75", "和是 9.75") */
    int sum;                  /* and that quantity is a sum ("add up to 2", 和为 9.75) */
    int aside;                /* inside parentheses among words ("(divided by e^1.2)") */
    int rejected;             /* said not to be the answer ("not 0.14", 不是 0.14); other
                               * is set too, and it is never picked as an answer */
    int each;                 /* said of every value asked ("0.2 each", "都是0.2") */
    char label[QZ_LABEL_MAX]; /* the label as written ("rains", "下雨"); "" when none */
    long offset;              /* byte offset of the value in the answer */
} qz_value;

typedef struct qz_numbers {
    size_t n;
    qz_value v[QZ_MAX_VALUES];
    int comma_decimal;        /* decimals were written with a comma (0,14) */
    size_t labelled;          /* how many values carry a label (token >= 0) */
    int concluded;            /* a concluding word ("so", 所以, "answer", "actually")
                               * stands after some value */
    size_t conclusion_at;     /* then: index of the first value after the last one */
    int alternatives;         /* values offered as alternatives: "0.14 or 0.17" */
    int retracted;            /* the last concluding word takes back the values before
                               * it ("no wait", "actually", 不对) */
    int disowned;             /* it ends by taking back the values before with no others
                               * after ("0.14 0.17. 不对，还要乘 V", "… no wait.") */
    int turned;               /* the answer ends by turning its values round ("no wait, the
                               * other way round", 反过来): the two asked trade places */
    size_t opening;           /* the bare values the answer opens with, alone in their
                               * sentence, words after it ("0.14 0.17 -- subtract the max
                               * (1.2) first", 答：0.14 0.17。…); 0 when it does not */
} qz_numbers;

/* Read every value of an answer, in the order written (a chain of steps is one value,
 * its result), with the token each is labelled with.
 * Returns AT_OK, or AT_EINVAL with err->msg saying what is wrong and where (in lang)
 * and err->offset the byte offset: "0.14abc" (letters glued to a number), an
 * ambiguous use of commas ("0,14, 0,17", "0,16,"), a division by zero, unbalanced
 * parentheses, an answer without a number, more than QZ_MAX_VALUES values. Words
 * that are no label (filler, units, working) are skipped. */
int qz_read_numbers(const char *text, const qz_read_opts *opts, qz_lang lang,
                    qz_numbers *out, at_error *err);

/* Values that may answer: not another quantity, not in an aside. */
size_t qz_answer_count(const qz_numbers *nums);

/* qz_read_numbers without tokens: want values asked, no labels. */
int qz_parse_numbers(const char *text, size_t want, qz_lang lang, qz_numbers *out,
                     at_error *err);

/* Evaluate one arithmetic expression (the whole text, e.g. "exp(0.3)/9.75");
 * AT_OK or AT_EINVAL as above. */
int qz_eval(const char *text, qz_lang lang, double *out, at_error *err);

#endif
