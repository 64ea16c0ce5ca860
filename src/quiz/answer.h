/* Numbers in the forms students write them: "0.14 0.17", "0.14, 0.17", "0.14;0.17",
 * "下雨=0.14 没=0.17", "下雨: 0.14, 没: 0.17", "14% 17%", ".14 .17", "0,14 0,17",
 * "1.384e-1", and the arithmetic of a hand calculation: "1.35/9.75", "exp(0.3)/9.75",
 * "e^0.5/9.75", "√2/2". Full-width punctuation (，；：＝％（）) and ×, ·, ÷, − are
 * accepted. The parser only reads; which value belongs to which token and whether the
 * count is right is decided by the grader (quiz/grade.h). */
#ifndef AT_QUIZ_ANSWER_H
#define AT_QUIZ_ANSWER_H

#include <stddef.h>

#include "engine/error.h"
#include "quiz/lang.h"

#define QZ_MAX_VALUES 32
#define QZ_LABEL_MAX 64

typedef struct qz_value {
    double x;                 /* the value; a percentage is already divided by 100 */
    int percent;              /* written with a % sign */
    int computed;             /* written as arithmetic (1.35/9.75), not one literal */
    int decimals;             /* decimal places of a literal, in fraction units
                               * (14% → 2, 0.138 → 3); -1 when computed */
    char label[QZ_LABEL_MAX]; /* "下雨" in "下雨=0.14"; "" when unlabelled */
    long offset;              /* byte offset of the value (or its label) in the answer */
} qz_value;

typedef struct qz_numbers {
    size_t n;
    qz_value v[QZ_MAX_VALUES];
    int comma_decimal;        /* decimals were written with a comma (0,14) */
    size_t labelled;          /* how many values carry a label */
} qz_numbers;

/* Parse every value of an answer, in the order written.
 *   want   how many values the question asks for (0 = unknown); used only to read
 *          "0,155" (one value 0.155) apart from "1,2" (two values)
 * Returns AT_OK, or AT_EINVAL with err->msg saying what is wrong and where (in lang)
 * and err->offset the byte offset: "0.14abc" (letters glued to a number), an
 * ambiguous use of commas ("0,14, 0,17", "0,16,"), an unknown word, a division by
 * zero, unbalanced parentheses, an empty answer, more than QZ_MAX_VALUES values. */
int qz_parse_numbers(const char *text, size_t want, qz_lang lang, qz_numbers *out,
                     at_error *err);

/* Evaluate one arithmetic expression (the whole text, e.g. "exp(0.3)/9.75");
 * AT_OK or AT_EINVAL as above. */
int qz_eval(const char *text, qz_lang lang, double *out, at_error *err);

#endif
