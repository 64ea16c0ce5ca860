/* Grading: a question (borrowed from a loaded lesson or made by the practice
 * generator), a student's answer as typed, and the verdict with feedback that says
 * what is right, what is wrong, and why. Expected values are computed by the engine
 * at grading time (at_softmax_row_f64, at_attention_forward), never typed in.
 * src/quiz draws nothing; the UI shows qz_result.feedback as it is. */
#ifndef AT_QUIZ_QUIZ_H
#define AT_QUIZ_QUIZ_H

#include <stddef.h>

#include "engine/error.h"
#include "quiz/answer.h"
#include "quiz/lang.h"

typedef enum qz_kind {
    QZ_SOFTMAX,     /* scores + tokens asked: weights by hand */
    QZ_NUMERIC,     /* one or more values with a tolerance */
    QZ_ATTENTION,   /* small q/k/v: one row of weights or of the output */
    QZ_CHOICE,      /* options, one or several correct */
    QZ_FORMULA,     /* compared structurally with a canonical formula */
    QZ_TEXT,        /* rubric of key concepts */
    QZ_CODE,        /* code run on small tensors, compared by what it computes (quiz/code.h) */
} qz_kind;

typedef struct qz_option {
    const char *text;
    int correct;
    const char *feedback;      /* why this option is right or wrong; may be NULL */
} qz_option;

/* ---- text answers: key ideas and misconceptions as statements (quiz/statement.h has
 * the matcher's rules). A statement is a subject and what is said of it (a claim),
 * with a direction and a polarity; a clause that names the words without stating the
 * claim of the subject ("variance", "normalize", 归一) states nothing. */

typedef enum qz_direction {
    QZ_DIR_NONE = 0,           /* the claim's own phrases only */
    QZ_DIR_UP,                 /* grows, larger, 变大 … (the grader's words and the claim's) */
    QZ_DIR_DOWN,               /* shrinks, smaller, reduced, 变小 … */
    QZ_DIR_SAME,               /* constant, kept, unchanged, 不变 … */
} qz_direction;

typedef enum qz_polarity {
    QZ_POL_AFFIRMED = 0,       /* holds when stated ("the gradients vanish") */
    QZ_POL_DENIED,             /* holds when denied ("no decoder is needed") */
    QZ_POL_EITHER,             /* either ("prevents saturation" and "it saturates") */
} qz_polarity;

/* What is said of the subject. A claim with a direction matches the grader's own
 * words of that direction and its phrases; a denied direction reads as the other
 * ("does not grow" is SAME and DOWN, "is not constant" is UP). A claim with neither
 * phrases nor a direction is the subject itself, and must be QZ_POL_DENIED ("no
 * decoder"). */
typedef struct qz_claim {
    const char *const *subject;    /* this claim's own subject instead of the statement's
                                    * ("decoder" for "no decoder is needed" beside
                                    * "encoder" for "the encoder is enough"); may be NULL */
    size_t n_subject;
    const char *const *phrases;    /* alternatives, both languages */
    size_t n_phrases;
    qz_direction direction;
    qz_polarity polarity;
    const char *const *with;       /* groups "a | b": one alternative of every group is
                                    * affirmed in the same sentence; may be NULL */
    size_t n_with;
    const char *const *unless;     /* phrases: none of them in the sentence; may be NULL */
    size_t n_unless;
    int subject_implied;           /* said of no subject at all, this claim is said of its
                                    * statement's subject (or its own), also when the
                                    * statement's other claims need theirs said: "(1) 够了"
                                    * under the part that asks whether the encoder is enough */
} qz_claim;

typedef struct qz_statement {
    const char *const *subject;    /* alternatives; NULL/0: any subject */
    size_t n_subject;
    int subject_implied;           /* a claim said of no subject at all is said of this
                                    * one (the question's own topic: "it normalises") */
    const qz_claim *claims;        /* any one of them */
    size_t n_claims;
} qz_statement;

/* A wrong statement about a concept (the older form of a misconception, kept for
 * rubrics written with `synonyms`/`together`/`contradicts`). */
typedef struct qz_contradiction {
    const char *const *phrases;    /* any one of them, in one clause */
    size_t n_phrases;
    const char *const *together;   /* groups "Q | query | 查询": one phrase of every
                                    * group in one clause */
    size_t n_together;
    const char *feedback;          /* what is wrong, in the question's language; may be NULL */
} qz_contradiction;

/* A key idea. With `statement` set (n_claims > 0) it is matched as a statement; the
 * older form (`synonyms`: any phrase; `together`: one phrase of every group in one
 * clause; `contradicts`: wrong statements that count as misconceptions) still reads. */
typedef struct qz_concept {
    const char *concept;       /* shown as found / missing */
    int required;              /* a correct answer states it, whatever else it states */
    qz_statement statement;
    const char *const *synonyms;   /* older form: phrasings in both languages */
    size_t n_synonyms;
    const char *const *together;   /* older form: groups "Q | queries | 查询" */
    size_t n_together;
    const qz_contradiction *contradicts;   /* older form: [n_contradicts] or NULL */
    size_t n_contradicts;
} qz_concept;

/* A misconception: a wrong statement, named in the feedback when an answer states it.
 * It caps the verdict (the rule is at qz_grade_text in quiz/statement.h). */
typedef struct qz_misconception {
    const char *name;          /* short name ("probabilities"), for JSON and tests */
    const char *feedback;      /* what is wrong, in the question's language */
    int partial_alone;         /* off_point, and alone partly right: "attention runs in
                                * parallel, an RNN one step after another" (Q1) */
    int minor;                 /* one asked part answered wrongly or weakly: partly
                                * right beside right parts; a misconception without it
                                * makes the whole answer wrong */
    int off_point;             /* true but beside the question (speed for Q1): wrong
                                * only when the key ideas are not all there */
    unsigned long replaces;    /* bit i: it states key idea i wrongly (that idea earns
                                * nothing); 0: a false claim beside the answer */
    int lesson_wide;           /* one of the lesson's, not the question's: read on its own
                                * (its words do not change how the answer's key ideas
                                * are read), a false claim beside the answer */
    qz_statement statement;
} qz_misconception;

/* A wrong value students often give (numeric questions), with the slip it shows: named
 * on a wrong try instead of a generic "not right", never with the right value. */
typedef struct qz_slip {
    double value;
    const char *feedback;      /* in the question's language */
} qz_slip;

/* A known wrong answer to a code question: code that makes the mistake, and what it
 * breaks. An answer that computes what one of `answers` computes is told `feedback`. */
typedef struct qz_code_mistake {
    const char *name;              /* short name ("after-softmax"), for tests and JSON */
    const char *const *answers;    /* [n_answers] code, in the subset of quiz/code.h */
    size_t n_answers;
    const char *feedback;          /* what it breaks, in the question's language */
} qz_code_mistake;

/* Everything is borrowed: the question does not own or free its arrays. */
typedef struct qz_question {
    const char *id;            /* "q3" */
    qz_kind kind;
    int decimals;              /* decimals the answer needs; -1 = not given (softmax,
                                * attention: 2) */
    double tolerance;          /* absolute; < 0 = not given (then one unit in the
                                * last decimal asked) */
    double relative;           /* relative, as a fraction; < 0 = not given. Near 0 it
                                * falls back to the absolute tolerance. */
    const char *explanation;   /* optional; appended to the feedback of a wrong answer */

    /* QZ_SOFTMAX (tokens optional for QZ_ATTENTION: labels of the key rows) */
    const char *const *tokens; /* [n_tokens] */
    size_t n_tokens;
    const double *scores;      /* [n_tokens] already scaled scores */
    const size_t *ask;         /* [n_ask] 0-based token indices asked, in answer order */
    size_t n_ask;
    const qz_gloss *glosses;   /* [n_glosses] other words for tokens ("rains" for 下雨), by
                                * which an answer may label its values; may be NULL */
    size_t n_glosses;

    /* QZ_NUMERIC */
    const double *values;      /* [n_values] */
    size_t n_values;
    int unordered;             /* the values may come in any order (a set) */
    const qz_slip *slips;      /* [n_slips] wrong values and the slip each shows, or NULL */
    size_t n_slips;

    /* QZ_ATTENTION: one query row of softmax(q kᵀ · scale [+ causal mask]) v */
    const double *q, *k, *v;   /* [n_q × d_k], [n_k × d_k], [n_k × d_v] row-major */
    size_t n_q, n_k, d_k, d_v;
    double scale;              /* <= 0: 1/√d_k */
    int causal;
    const unsigned char *allowed;  /* [n_q × n_k] 1 = may attend, or NULL */
    int ask_output;            /* 0: the weights of row `row`; 1: its output vector */
    size_t row;                /* 0-based query row */

    /* QZ_CHOICE */
    const qz_option *options;
    size_t n_options;
    int multiple;              /* several options may be correct */

    /* QZ_FORMULA */
    const char *canonical;     /* e.g. "softmax(Q K^T / sqrt(d_k)) V" */
    const struct qz_question *follow_up;   /* a text question (q2b) that grades words
                                * written beside the formula, or NULL; see
                                * qz_grade_formula in quiz/internal.h */
    const struct qz_question *beside;   /* QZ_SOFTMAX, QZ_NUMERIC, QZ_ATTENTION: the
                                * lesson's misconceptions as a text question of no key
                                * ideas, or NULL: a false claim in the words beside right
                                * values makes them partly right */

    /* QZ_CODE (with canonical: the right lines) */
    const char *setup;         /* code that makes the names an answer may use */
    const char *result;        /* the name the answer must compute ("out") */
    const qz_code_mistake *code_mistakes;   /* [n_code_mistakes] or NULL */
    size_t n_code_mistakes;

    /* QZ_TEXT */
    const qz_concept *rubric;
    size_t n_rubric;
    const qz_misconception *misconceptions;   /* [n_misconceptions] or NULL */
    size_t n_misconceptions;
    size_t min_concepts;       /* 0 = all */
    const char *reference;
    const char *prompt;        /* the question as asked, or NULL: an answer that only
                                * restates it states nothing */
} qz_question;

/* A question with every field "not given" (decimals -1, tolerances -1). */
qz_question qz_question_init(qz_kind kind);

/* QZ_REVIEW: a text answer in which the grader recognises neither a key idea nor a
 * misconception; it shows the reference and the student grades it (never counted as
 * a wrong attempt). */
typedef enum qz_verdict { QZ_CORRECT, QZ_PARTIAL, QZ_WRONG, QZ_MALFORMED, QZ_REVIEW } qz_verdict;

/* What went wrong, when the grader recognised it. */
typedef enum qz_mistake {
    QZ_M_NONE,
    QZ_M_NO_EXP,            /* normalised the raw scores: s_i / Σ s */
    QZ_M_NO_NORMALISE,      /* exp(s_i) without dividing by the sum */
    QZ_M_SWAPPED,           /* right values, tokens in the other order */
    QZ_M_WRONG_TOKEN,       /* the weight of another token (e.g. the neighbour) */
    QZ_M_WHOLE_ROW,         /* every weight of the row instead of those asked */
    QZ_M_PERCENT_NO_SIGN,   /* 13.84 for 0.1384 */
    QZ_M_LEFT_OUT_TOKEN,    /* one token's exp left out of the sum */
    QZ_M_NO_SCALE,          /* attention without dividing by √d_k */
    QZ_M_DOUBLE_SCALE,      /* divided by √d_k twice (by d_k) */
    QZ_M_ROUNDING,          /* truncated instead of rounded, or too few decimals */
    QZ_M_WRONG_ROW,         /* attention: another query's row */
    QZ_M_WEIGHTS_NOT_OUTPUT,/* attention: gave the weights where the output is asked */
    QZ_M_FORMULA,           /* formula: see feedback (qz_formula_mistake names it) */
    QZ_M_MISCONCEPTION,     /* text: a misconception stated, or a key idea denied (the
                             * feedback names it) */
    QZ_M_SLIP,              /* numeric: one of the question's slips (qz_question.slips) */
    QZ_M_CODE,              /* code: computes something else (the feedback says what it
                             * breaks: a mistake of the question, a shape, NaN, an error) */
    QZ_M_SIGMOID,           /* a sigmoid of each score on its own, 1/(1+e^-s), instead of
                             * the softmax of the row */
    QZ_M_UNIFORM,           /* the same share for every token, 1/n: the scores ignored */
    QZ_M_FALSE_CLAIM,       /* text: only false claims of the lesson (its own
                             * `misconceptions`) beside the answer, none of the question's */
    QZ_M_ROUGH,             /* softmax: every value a little off but all in the right
                             * proportion: the method right, the exps or their sum rough */
} qz_mistake;

typedef struct qz_result {
    qz_verdict verdict;
    double score;              /* 0 … 1 */
    qz_mistake mistake;
    int self_assessed;         /* text answers the student graded themselves; then
                                * self_verdict / self_score hold their grade, kept
                                * apart: verdict and score stay the automatic ones */
    qz_verdict self_verdict;
    double self_score;         /* 1, 0.5, 0 */
    char *expected;            /* the expected answer as text ("0.14 0.17"); malloc'd */
    double *expected_values;   /* numeric kinds: exact values, [n_expected]; malloc'd */
    size_t n_expected;
    char *feedback;            /* several lines, in the question's language; malloc'd */
    size_t body_at;            /* feedback + body_at: after a first line that only names
                                * the verdict ("Not right.", "部分正确。"); 0 when none */
    size_t reveal_at;          /* feedback + reveal_at: where what gives the answer away
                                * begins (the expected answer, the explanation), so a
                                * screen can hold it back until a retry; the feedback's
                                * length when nothing does */
} qz_result;

/* The options a choice answer chooses, as qz_grade reads them: an option's whole text
 * (case and surrounding spaces ignored), or letters (a, B, "(c)") or numbers (1, 2)
 * separated by spaces, commas or semicolons. chosen[0 .. q->n_options) (caller's,
 * zeroed) gets 1 for each option chosen. Returns 0, or -1 with the part that names no
 * option in *bad (bad_len bytes; the answer is then malformed). */
int qz_choice_chosen(const qz_question *q, const char *answer, int *chosen, const char **bad,
                     size_t *bad_len);

/* The longest answer graded, in bytes of UTF-8: about 4,000 English letters or 1,300
 * Chinese characters, eight times the longest answer of the labelled sets (the tutor's
 * answer line holds twice as much, ui/lineedit.h). Reading a sentence grows faster than
 * its length; this keeps every answer graded within a few seconds. */
#define QZ_ANSWER_MAX 4095

/* Grade one answer.
 *   answer   the student's text, UTF-8, as typed; longer than QZ_ANSWER_MAX bytes it
 *            is malformed, and the feedback says how long it is and how long it may be
 *   out      filled in every case (free with qz_result_free); a malformed answer
 *            (QZ_MALFORMED: "0.14abc", wrong count, ambiguous commas) is not an
 *            attempt, and its feedback says exactly what to fix.
 * Returns AT_OK; AT_EINVAL when the question itself is inconsistent (err says
 * which field), AT_ENOMEM. */
int qz_grade(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
             at_error *err);

void qz_result_free(qz_result *r);

/* "none", "no_exp", "no_normalise", … (JSON output). */
const char *qz_mistake_name(qz_mistake m);

/* "correct", "partial", "wrong", "malformed", "review" (JSON and the progress file). */
const char *qz_verdict_name(qz_verdict v);

/* Parse a verdict name; -1 if unknown. */
int qz_verdict_parse(const char *name);

/* The process exit status of `attn-tutor check`: 0 correct, 1 wrong, 3 partial,
 * 2 malformed, 4 review (the grader could not judge; the student grades it). */
int qz_verdict_exit_status(qz_verdict v);

#endif
