/* Lessons: the YAML format of docs/lesson-format.md loaded into C structs with
 * libcyaml, plus the numbers the engine computes from them.
 *
 * Two layers, never mixed:
 *   - at_lesson_doc and everything under it mirror the YAML one to one (the key
 *     of each member is written beside it). Optional scalars are pointers (NULL =
 *     not written); optional enums have a 0 "unset" value. libcyaml 1.3.1 cannot
 *     hold a list of lists (matrices, table rows): those members are at_rows,
 *     filled from the same file's libyaml events (cells kept as written, so
 *     YAML's .nan/.inf survive).
 *   - at_step_calc and friends hold what is derived: matrices as floats, weights,
 *     outputs, expected answers — computed by the engine (src/engine), never
 *     typed in, never written back into the doc.
 *
 * Positions: every diagnostic carries FILE:LINE:COL (1-based). Loading never
 * changes the locale; numbers are read as in the "C" locale whatever LC_NUMERIC is.
 * Ownership: everything returned through `out` parameters is freed by the
 * matching *_free function; const pointers into a lesson live as long as it. */
#ifndef AT_LESSON_H
#define AT_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/error.h"
#include "engine/model.h"
#include "engine/tokenizer.h"

/* Files bigger than this are refused before parsing (a clear error). */
#define AT_LESSON_MAX_BYTES (1024 * 1024)
/* Deepest nesting of YAML collections accepted. */
#define AT_LESSON_MAX_DEPTH 32
/* Limits on compute blocks: rows (tokens) and columns (d_k, d_v). */
#define AT_COMPUTE_MAX_N 4096
#define AT_COMPUTE_MAX_D 1024
/* At most this many attention weights (heads × n_q × n_k) per compute block, and in
 * all the blocks a lesson computes when it loads (`time: true` blocks are not run at
 * load): a lesson file cannot make the loader allocate without bound. */
#define AT_COMPUTE_MAX_CELLS (1u << 24)

/* ------------------------------------------------------------------ diagnostics */

typedef enum at_diag_level { AT_DIAG_ERROR, AT_DIAG_WARNING } at_diag_level;

typedef struct at_diag {
    at_diag_level level;
    char *file;        /* as given to the loader */
    int line, col;     /* 1-based; 0 when the whole file is meant */
    char *msg;         /* one line, no trailing newline */
} at_diag;

/* A growing list of diagnostics. Zero-initialise; free with at_diag_list_free. */
typedef struct at_diag_list {
    at_diag *items;
    size_t count, cap;
    size_t errors, warnings;
} at_diag_list;

/* Append one diagnostic (printf-style). Silently drops it only on ENOMEM. */
void at_diag_add(at_diag_list *d, at_diag_level level, const char *file, int line, int col,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Print every diagnostic GCC-style: "FILE:LINE:COL: error: MESSAGE". */
void at_diag_print(const at_diag_list *d, FILE *f);
/* Sort by file, line, column (stable for equal positions). */
void at_diag_sort(at_diag_list *d);
void at_diag_list_free(at_diag_list *d);

/* ------------------------------------------------------- the YAML, one to one */

/* A list of rows of scalars, e.g. `q: [[1, 0], [0, 1]]` or a table's rows.
 * Cells are the scalars as written (".nan", "-.inf" and "0.5" alike). */
typedef struct at_row {
    char **cells;
    unsigned cells_count;
} at_row;

typedef struct at_rows {
    at_row *rows;
    unsigned rows_count;
    int line, col;            /* where the value starts; 0 when the key is absent */
} at_rows;

typedef enum at_lang { AT_LANG_ZH = 1, AT_LANG_EN = 2 } at_lang;   /* lang: zh | en */

typedef struct at_table {
    char **header;            /* header: [..] */
    unsigned header_count;
    at_rows rows;             /* rows: [[..], ..] */
} at_table;

typedef struct at_code {
    char *lang;               /* lang: python (a language tag, free text) */
    char *source;             /* source: | … */
} at_code;

/* One assertion of an `expect` list. Exactly one of top, weight, output is set. */
typedef struct at_expect_value {
    char *from;               /* from: query token (text or 1-based position); lab default: focus */
    char *to;                 /* to: key token (text or 1-based position) */
    unsigned *row;            /* row: 1-based query row (compute) */
    unsigned *col;            /* col: 1-based key (weight) or value column (output) */
    double *value;            /* value: expected number … */
    double *tolerance;        /* tolerance: … ± this (default 0.005) */
    double *at_least;         /* at_least: lower bound */
    double *at_most;          /* at_most: upper bound */
} at_expect_value;

typedef struct at_expect {
    char *top;                /* top: the key token that gets the largest weight */
    char *from;               /* from: for `top`, the query token (lab default: focus) */
    unsigned *row;            /* row: for `top` in a compute step, the 1-based query row */
    at_expect_value *weight;  /* weight: {…} */
    at_expect_value *output;  /* output: {…} (compute only) */
} at_expect;

typedef enum at_onoff { AT_UNSET = 0, AT_ON = 1, AT_OFF = 2 } at_onoff;      /* on | off */
typedef enum at_lab_mask { AT_LAB_MASK_UNSET = 0, AT_LAB_MASK_NONE = 1,
                           AT_LAB_MASK_CAUSAL = 2 } at_lab_mask;            /* none | causal */

typedef struct at_option {
    char *text;               /* text: */
    bool correct;             /* correct: true | false */
    char *feedback;           /* feedback: shown when picked */
} at_option;

/* A prediction asked before a compute or lab step shows its result (predict then
 * reveal): the student commits to an answer, then sees the engine's and how close
 * they were. */
typedef enum at_predict_kind {
    AT_PREDICT_CHOICE = 1,    /* one of `options` */
    AT_PREDICT_NUMBER,        /* a number: a weight, an output or a variance */
    AT_PREDICT_TOKEN,         /* a key token: the one the query gives the largest weight */
} at_predict_kind;            /* kind: choice | number | token */

typedef enum at_predict_variance {
    AT_VARIANCE_UNSET = 0, AT_VARIANCE_RAW, AT_VARIANCE_SCALED,
} at_predict_variance;        /* variance: raw | scaled */

typedef struct at_predict {
    char *prompt;             /* prompt: asked before the result is shown */
    at_predict_kind kind;     /* kind: */
    at_option *options;       /* options: [..] (choice) as in a choice question */
    unsigned options_count;
    at_expect_value *weight;  /* weight: {row/from, col/to} (number) the weight to guess */
    at_expect_value *output;  /* output: {row/from, col} (number, compute) an output entry */
    at_predict_variance variance; /* variance: raw | scaled (number, compute) */
    char *from;               /* from: (token) the query row, text or 1-based; lab default:
                                 focus; compute: the only row */
    unsigned *row;            /* row: (token, compute) the 1-based query row */
    double *tolerance;        /* tolerance: (number) how close counts as close; default 0.05,
                                 for a variance 1 */
    char *explanation;        /* explanation: shown with the result */
} at_predict;

typedef struct at_lab {
    char *sentence;           /* sentence: the text the model reads */
    unsigned *layer;          /* layer: 1-based; NULL = the last layer */
    char *head;               /* head: "1".. or "all"; NULL = the model's default head */
    at_lab_mask mask;         /* mask: none | causal */
    at_onoff scale;           /* scale: on | off */
    char *focus;              /* focus: query token to highlight (text or 1-based) */
    at_expect *expect;        /* expect: [..] */
    unsigned expect_count;
    at_predict *predict;      /* predict: asked before the heatmap is shown */
} at_lab;

/* Seeded standard-normal q, k, v for demos too big to type (the √d_k lesson). */
typedef struct at_random {
    unsigned n;               /* n: tokens (rows of q, k and v) */
    unsigned d_k;             /* d_k: columns of q and k */
    unsigned *d_v;            /* d_v: columns of v; NULL = d_k */
    unsigned *seed;           /* seed: NULL = 1 */
} at_random;

/* The compute block: a lesson step, and the whole file of `attn-tutor compute`.
 * Exactly one source: q+k+v, scores, or random. */
typedef struct at_compute {
    char **tokens;            /* tokens: labels of the query rows */
    unsigned tokens_count;
    char **key_tokens;        /* key_tokens: labels of the key rows (cross-attention); default tokens */
    unsigned key_tokens_count;
    at_rows q;                /* q: [n_q × d_k] */
    at_rows k;                /* k: [n_k × d_k] */
    at_rows v;                /* v: [n_k × d_v] */
    at_rows scores;           /* scores: [n_q × n_k] already scaled (softmax only) */
    at_random *random;        /* random: {n, d_k, d_v, seed} */
    char *mask;               /* mask: none | causal (the word form) … */
    at_rows mask_rows;        /* mask: … or rows of 1 (may attend) / 0 (masked) */
    double *scale;            /* scale: multiplier on QKᵀ; NULL = 1/√(d_k per head) */
    unsigned *heads;          /* heads: split d_k and d_v into this many; NULL = 1 */
    bool *time;               /* time: true = the tutor times the computation live */
    at_expect *expect;        /* expect: [..] */
    unsigned expect_count;
    at_predict *predict;      /* predict: asked before the results are shown (lessons) */
} at_compute;

typedef enum at_question_kind {
    AT_Q_SOFTMAX = 1, AT_Q_NUMERIC, AT_Q_ATTENTION, AT_Q_CHOICE, AT_Q_FORMULA, AT_Q_TEXT,
    AT_Q_CODE,
} at_question_kind;   /* kind: softmax | numeric | attention | choice | formula | text | code */

/* Other words for a token, as the prompt calls it (the English prompt calls 下雨
 * "rains"): an answer may label a value with them. */
typedef struct at_gloss {
    char *token;              /* token: by text or 1-based position */
    char **words;             /* words: [..] e.g. [rains, it rains] */
    unsigned words_count;
} at_gloss;

/* A wrong number students often give for a numeric question, and the slip it shows
 * (n² pairs for n(n+1)/2, W_O left out): named on a wrong try without the right answer. */
typedef struct at_slip {
    double value;             /* value: the wrong number */
    char *feedback;           /* feedback: what was slipped, in the lesson's language */
} at_slip;

/* A known wrong answer to a code question: code that makes the mistake and what it
 * breaks (see qz_code_mistake). */
typedef struct at_code_mistake {
    char *name;               /* name: a short id, letters, digits, '-' */
    char **answers;           /* answers: [..] code that makes this mistake */
    unsigned answers_count;
    char *feedback;           /* feedback: what it breaks, in the lesson's language */
} at_code_mistake;

/* A wrong statement about a concept (see qz_concept for how it is matched). */
typedef struct at_contradiction {
    char **phrases;           /* phrases: any one of them says it */
    unsigned phrases_count;
    char **together;          /* together: groups "a | b", one of each in one clause */
    unsigned together_count;
    char *feedback;           /* feedback: what is wrong, in the lesson's language */
} at_contradiction;

typedef enum at_direction {
    AT_DIR_NONE = 0, AT_DIR_UP, AT_DIR_DOWN, AT_DIR_SAME,
} at_direction;   /* direction: up | down | same (as qz_direction) */

typedef enum at_polarity {
    AT_POL_AFFIRMED = 0, AT_POL_DENIED, AT_POL_EITHER,
} at_polarity;    /* polarity: affirmed | denied | either (as qz_polarity) */

/* What a statement says of its subject (see qz_claim for how it is matched). */
typedef struct at_claim {
    char **subject;           /* subject: its own subject instead of the statement's */
    unsigned subject_count;
    char **phrases;           /* phrases: alternatives, both languages */
    unsigned phrases_count;
    at_direction direction;   /* direction: */
    at_polarity polarity;     /* polarity: */
    char **with;              /* with: groups "a | b", each affirmed in the same sentence */
    unsigned with_count;
    char **unless;            /* unless: phrases that must not be in the sentence */
    unsigned unless_count;
    bool subject_implied;     /* subject_implied: said of no subject, it is said of the
                               * statement's (or its own) subject */
} at_claim;

/* A wrong statement students make, named in the feedback (see qz_misconception). */
typedef struct at_misconception {
    char *name;               /* name: a short id, letters, digits, '-' */
    char *feedback;           /* feedback: what is wrong, in the lesson's language */
    bool off_point;           /* off_point: true but not the answer (wrong only alone) */
    bool partial_alone;       /* partial_alone: an off_point one that, alone, is half of
                               * the answer (parallel against one step at a time) */
    bool minor;               /* minor: one asked part answered wrongly or weakly (a
                               * choice turned round, the last token's output): beside
                               * right parts the answer stays partly right */
    unsigned *replaces;       /* replaces: [..] the key ideas (1-based, in rubric order) it
                               * states wrongly; none: a false claim beside the answer */
    unsigned replaces_count;
    char **subject;           /* subject: alternatives; none = any subject */
    unsigned subject_count;
    bool subject_implied;     /* subject_implied: a claim of no subject is of this one */
    at_claim *claims;         /* claims: [..] any one of them */
    unsigned claims_count;
} at_misconception;

typedef struct at_concept {
    char *concept;            /* concept: the idea, in the lesson's language */
    bool required;            /* required: a correct answer states it */
    char **subject;           /* subject: what the statement is about, alternatives */
    unsigned subject_count;
    bool subject_implied;     /* subject_implied: a claim of no subject is of this one */
    at_claim *claims;         /* claims: [..] what is said of it, any one of them */
    unsigned claims_count;
    char **synonyms;          /* synonyms: (older form) words that count for it, both languages */
    unsigned synonyms_count;
    char **together;          /* together: groups "Q | queries | 查询", one phrase of
                                 each group in one clause counts for it */
    unsigned together_count;
    at_contradiction *contradicts;  /* contradicts: [..] statements that make it wrong */
    unsigned contradicts_count;
} at_concept;

/* A question; which members are used depends on kind (lint checks that). */
typedef struct at_question {
    char *id;                 /* id: unique among the lessons of a language */
    at_question_kind kind;    /* kind: */
    char *prompt;             /* prompt: */
    char **hints;             /* hints: [..] */
    unsigned hints_count;
    char *explanation;        /* explanation: */
    unsigned *decimals;       /* decimals: how many the answer needs (softmax, numeric, attention) */
    /* softmax */
    char **tokens;            /* tokens: [..] (softmax; attention: row labels) */
    unsigned tokens_count;
    char **scores;            /* scores: [..] one per token, as written */
    unsigned scores_count;
    char **ask;               /* ask: token(s) by text or 1-based position (softmax);
                                 "weights" | "output" (attention). A single word is a list of one. */
    unsigned ask_count;
    at_gloss *glosses;        /* glosses: [..] other words for tokens (softmax, attention) */
    unsigned glosses_count;
    /* numeric */
    double *value;            /* value: */
    double *tolerance;        /* tolerance: absolute */
    double *relative;         /* relative: fraction of value */
    at_slip *slips;           /* slips: [..] wrong values with the slip each shows */
    unsigned slips_count;
    /* attention (as in compute) */
    at_rows q, k, v;          /* q: k: v: */
    char *mask;               /* mask: none | causal */
    at_rows mask_rows;        /* mask: rows of 1/0 */
    double *scale;            /* scale: */
    unsigned *row;            /* row: 1-based query row asked */
    /* choice */
    at_option *options;       /* options: [..] */
    unsigned options_count;
    bool *multiple;           /* multiple: more than one option is right */
    /* formula, code */
    char *canonical;          /* canonical: e.g. softmax(Q K^T / sqrt(d_k)) V; code: the
                                 right lines */
    char *follow_up;          /* follow_up: id of a text question of this lesson that grades
                                 the words a student writes beside the formula (q2b) */
    /* code */
    char *setup;              /* setup: code that makes the names an answer may use */
    char *result;             /* result: the name the answer must compute */
    at_code_mistake *mistakes;   /* mistakes: [..] known wrong answers and what they break */
    unsigned mistakes_count;
    /* text */
    at_concept *rubric;       /* rubric: [..] */
    unsigned rubric_count;
    at_misconception *misconceptions;   /* misconceptions: [..] */
    unsigned misconceptions_count;
    char *reference;          /* reference: the model answer */
    unsigned *min_concepts;   /* min_concepts: how many concepts make a full answer */
} at_question;

/* A step: exactly one member is set (lint reports none or two). */
typedef struct at_step {
    char *text;               /* text: paragraphs separated by a blank line */
    at_table *table;          /* table: */
    char *formula;            /* formula: */
    at_code *code;            /* code: */
    at_lab *lab;              /* lab: */
    at_compute *compute;      /* compute: */
    at_question *question;    /* question: */
} at_step;

typedef enum at_step_kind {
    AT_STEP_NONE = 0, AT_STEP_TEXT, AT_STEP_TABLE, AT_STEP_FORMULA, AT_STEP_CODE,
    AT_STEP_LAB, AT_STEP_COMPUTE, AT_STEP_QUESTION,
} at_step_kind;

/* The kind of a step (AT_STEP_NONE if none is set; the first set one otherwise). */
at_step_kind at_step_kind_of(const at_step *s);
/* "text", "table", … */
const char *at_step_kind_name(at_step_kind k);
const char *at_question_kind_name(at_question_kind k);

typedef struct at_lesson_doc {
    char *id;                 /* id: letters, digits, '-' */
    at_lang lang;             /* lang: zh | en */
    unsigned *order;          /* order: position on the home screen */
    char *title;              /* title: */
    char *summary;            /* summary: */
    at_step *steps;           /* steps: [..] at least one */
    unsigned steps_count;
    at_misconception *misconceptions;   /* misconceptions: [..] false claims of the field a
                                           student may write beside the answer to any of
                                           the lesson's text questions (no `replaces`) */
    unsigned misconceptions_count;
} at_lesson_doc;

/* ------------------------------------------------------------ derived numbers */

/* Attention computed for a compute step or an attention question.
 * Shapes: h = heads, per head d_k/h columns of q,k and d_v/h of v.
 * Per-head arrays are [heads × n_q × n_k], head-major. */
typedef struct at_compute_result {
    size_t n_q, n_k, d_k, d_v, heads;
    float scale;              /* the multiplier actually used */
    int scores_only;          /* 1: the block gave `scores`; q, k, v, raw, out are NULL */
    float *q, *k, *v;         /* [n_q × d_k], [n_k × d_k], [n_k × d_v] (may hold NaN/inf) */
    float *raw;               /* [heads × n_q × n_k] QKᵀ per head; masked = -inf */
    float *scaled;            /* [heads × n_q × n_k] raw · scale (or the given scores); masked = -inf */
    float *weights;           /* [heads × n_q × n_k] softmax rows; masked = 0 */
    double *scores64;         /* scores_only: [n_q × n_k] the given scores in double (masked
                                 = -inf), as typed: 7999.99 is not a float; else NULL */
    double *weights64;        /* scores_only: [n_q × n_k] their softmax in double
                                 (at_softmax_row_f64); weights holds the same, rounded */
    float *out;               /* [n_q × d_v] heads concatenated */
    unsigned char *allowed;   /* [n_q × n_k] 1 = may attend */
    unsigned char *fully_masked;   /* [n_q] 1 = the row saw no key (weights and output 0) */
    double raw_variance;      /* variance of the visible entries of raw (random demos) */
    double scaled_variance;   /* … and of scaled (raw · scale): ≈ 1 for random demos at 1/√d_k */
    int masked;               /* the block gave a mask (causal or rows of 1/0) */
    const char *const *tokens;     /* borrowed labels [n_q] or NULL */
    const char *const *key_tokens; /* borrowed labels [n_k] or NULL */
} at_compute_result;

/* Run a compute block through the engine (at_attention_forward per head).
 * Checks shapes (every row of q as long as k's, v as many rows as k, mask
 * n_q × n_k, heads dividing d_k and d_v, sizes within AT_COMPUTE_MAX_*) and
 * numbers (cells must be numbers; .nan/.inf/-.inf accepted). Fills out (free with
 * at_compute_result_free). Returns AT_OK, AT_EINVAL with err naming the problem
 * (err->line/col set to the offending cell when known), AT_ENOMEM. */
int at_compute_run(const at_compute *c, at_compute_result *out, at_error *err);
void at_compute_result_free(at_compute_result *r);

/* Check one `expect` entry against computed attention (a compute step, or a lab's
 * weights wrapped in an at_compute_result: weights [n_q × n_k] and the token labels
 * are all it reads for `top` and `weight`). Rows and keys are named by `row`/`col`
 * (1-based) or `from`/`to` (token text or 1-based position; a word spelt by several
 * consecutive tokens, e.g. 小明 over 小 and 明, stands for them all: `top` holds if the
 * largest weight is one of them, `weight` is their sum); from_default is the query
 * used when neither is given (a lab's focus), may be NULL; a single query row needs no
 * name. `tolerance` defaults to 0.005. Multi-head: head 1.
 * Returns 0 when it holds, 1 when it fails, -1 when it cannot be checked; msg gets
 * what the engine computes (or why), e.g. "weight (row 3, key 1) is 0.4711, expected
 * 0.42 ± 0.005". */
int at_expect_check(const at_expect *e, const at_compute_result *r, const char *from_default,
                    char *msg, size_t cap);

/* The engine's answer to a prediction, from the step's computed attention (a compute
 * step's result, or a lab's weights wrapped as at_lab_result.view). */
typedef struct at_predict_answer {
    at_predict_kind kind;
    double value;             /* number: the engine's value */
    size_t row;               /* token, number (weight/output): 0-based query row */
    size_t col;               /* number: 0-based key (weight) or output column */
    size_t token;             /* token: 0-based key with the largest weight of `row` */
    unsigned long long correct; /* choice: bit i set when option i is right */
} at_predict_answer;

/* Work out the answer of p from r (heads > 1: head 1, as `expect`); from_default is the
 * query a lab names by `focus` (may be NULL). Returns 0, or -1 with msg saying why it
 * cannot be answered (a row or token that is not there, a number with nothing to
 * guess, a token prediction on a block with several query rows and no row named). */
int at_predict_answer_of(const at_predict *p, const at_compute_result *r,
                         const char *from_default, at_predict_answer *out, char *msg,
                         size_t cap);
/* How close counts as close for a number prediction: `tolerance`, else 1 for a
 * variance and 0.05 for a weight or an output. */
double at_predict_tolerance(const at_predict *p);

/* Expected answer of a computed question. */
typedef struct at_question_calc {
    size_t n;                 /* number of expected values */
    double *expected;         /* [n] softmax: the weight of each asked token, in ask order;
                                 attention: the asked row of weights [n_k] or output [d_v];
                                 numeric: the value */
    size_t *ask_index;        /* softmax: [n] 0-based token index of each ask */
    double *all_weights;      /* softmax: [tokens_count] every token's weight (double softmax) */
    double *exps;             /* softmax: [tokens_count] exp(score) (for worked answers) */
    double exp_sum;           /* softmax: sum of exps */
    int decimals;             /* effective: `decimals`, default 2 */
    double tolerance;         /* effective absolute tolerance: `tolerance`, else
                                 `relative`·|value|, else one unit in the last
                                 asked decimal (0.01 for 2 decimals) */
    at_compute_result attn;   /* attention kind: the whole computation */
} at_question_calc;

/* Compute the expected answer of a softmax, attention or numeric question.
 * For choice/formula/text it succeeds with n = 0. Errors as at_compute_run
 * (e.g. an asked token that is not among the tokens). Free with at_question_calc_free. */
int at_question_compute(const at_question *q, at_question_calc *out, at_error *err);
void at_question_calc_free(at_question_calc *c);

/* Where a code question's fields are written, for the diagnostics of the checks that run
 * its code (quiz/code.h: qz_code_check_question; `attn-tutor lint`). 0 when absent. */
typedef struct at_code_where {
    int setup_line, setup_col;
    int result_line, result_col;
    int canonical_line, canonical_col;
    int *answer_line, *answer_col;  /* [n_answers]: every mistake's answers, in order */
    unsigned n_answers;
} at_code_where;

/* What is derived for one step (same index as doc->steps). */
typedef struct at_step_calc {
    int line, col;                 /* where the step starts in the file */
    at_compute_result *compute;    /* compute steps (NULL for `time: true`: the caller runs it) */
    at_question_calc *question;    /* question steps */
    at_code_where *code;           /* code questions: where their fields are; else NULL */
} at_step_calc;

/* A lab step run on a model: the sentence tokenised and attended. */
#define AT_LAB_ALL_HEADS ((size_t)-1)
typedef struct at_lab_result {
    at_tokens tokens;         /* the sentence, tokenised (engine/tokenizer.h) */
    at_model_run run;         /* every layer's and head's weights (engine/model.h) */
    size_t layer;             /* 0-based layer shown: `layer` − 1, default the last */
    size_t head;              /* 0-based head shown, or AT_LAB_ALL_HEADS for "all";
                                 default: the model's coreference head on its layer, else 0 */
    long focus;               /* 0-based query token of `focus`, -1 when none */
    at_compute_result view;   /* n × n weights of that layer and head (the mean over heads
                                 for "all"), token texts as labels: what `expect` checks.
                                 Only weights, tokens, key_tokens, n_q, n_k, heads = 1 are set. */
} at_lab_result;

/* Run a lab step on model m (mask and scale as the step says). Errors: AT_EINVAL
 * (layer/head out of range, focus not a token, empty sentence), AT_EUTF8, AT_ERANGE
 * (sentence too long), AT_ENOMEM. Free with at_lab_result_free (also after errors). */
int at_lab_run(const at_lab *lab, const at_model *m, at_lab_result *out, at_error *err);
void at_lab_result_free(at_lab_result *r);

/* ------------------------------------------------------------------- lessons */

typedef struct at_lesson {
    at_lesson_doc *doc;       /* the YAML, as written (libcyaml) */
    at_step_calc *calc;       /* [doc->steps_count] derived numbers */
    char *path;               /* the file it came from */
    int id_line, id_col;      /* where `id` is written (for diagnostics) */
    int lang_line, lang_col;  /* where the `lang` value is written */
} at_lesson;

/* Load one lesson file: size cap, libyaml pass for positions and shapes, libcyaml
 * load (aliases refused), then every compute step and question computed.
 * Every problem goes to diags (NULL = discard) with its FILE:LINE:COL.
 * Returns AT_OK with *out set (free with at_lesson_free) when the file has no
 * errors; otherwise AT_EINVAL (AT_EIO if unreadable, AT_ERANGE if too big, AT_ENOTREG if not a
 * regular file: a FIFO, a device, a socket or a folder, refused without blocking) and
 * *out = NULL. Warnings do not fail the load. */
int at_lesson_load(const char *path, at_lesson **out, at_diag_list *diags);
/* The same from memory; name is used in diagnostics. */
int at_lesson_load_data(const char *name, const char *data, size_t len, at_lesson **out,
                        at_diag_list *diags);
/* Load as at_lesson_load and also run every lab step on model m (NULL = skip) and
 * check its `expect` list; a failed expectation is an error at its position. */
int at_lesson_load_checked(const char *path, const at_model *m, at_lesson **out,
                           at_diag_list *diags);
void at_lesson_free(at_lesson *l);

/* The question whose `follow_up` names q — q is then its second part, as the seed's Q2
 * asks for the formula and then what its denominator is for — or NULL. */
const at_question *at_lesson_part_of(const at_lesson *l, const at_question *q);

/* A question of a lesson by id, or NULL; *step_index (may be NULL) gets its step. */
const at_question *at_lesson_find_question(const at_lesson *l, const char *id,
                                           size_t *step_index);

/* All lessons of one language, sorted by order (then id). */
typedef struct at_lesson_set {
    at_lesson **lessons;
    size_t count;
    at_lang lang;
    size_t files;             /* lesson files read, those left out (errors) included */
} at_lesson_set;

/* Load every *.yaml under dir/lang (e.g. lessons/en). Files with errors are
 * left out and reported in diags; the rest load. Returns AT_OK if every file
 * loaded, AT_EINVAL if some failed (out still holds the good ones), AT_ENOTREG if
 * one of them is not a regular file (a FIFO, a device, a socket, a folder named
 * x.yaml: refused without blocking, "is a FIFO (named pipe), not a lesson file"),
 * AT_EIO if the folder cannot be read (out empty). Free with at_lesson_set_free. */
int at_lesson_set_load(const char *dir, const char *lang, at_lesson_set *out,
                       at_diag_list *diags);
/* The same, each file loaded with at_lesson_load_checked (lab expectations on m). */
int at_lesson_set_load_checked(const char *dir, const char *lang, const at_model *m,
                               at_lesson_set *out, at_diag_list *diags);
/* The lessons of several folders, dirs[0 .. n_dirs) in priority order (each holding
 * zh/ and en/; m may be NULL): a lesson id already loaded from an earlier folder hides
 * the same id in a later one (a warning names both files), so an instructor's folder
 * can add lessons and replace shipped ones. A folder without a `lang` subfolder is
 * skipped silently. Returns as at_lesson_set_load; AT_EIO (with one diagnostic) only
 * when none of the folders has a readable `lang` subfolder. */
int at_lesson_set_load_dirs(const char *const *dirs, size_t n_dirs, const char *lang,
                            const at_model *m, at_lesson_set *out, at_diag_list *diags);
void at_lesson_set_free(at_lesson_set *s);

/* The *.yaml names of each dirs[i]/lang that are not regular files (a FIFO, a device,
 * a socket, a folder), each an error in diags, without reading any lesson (the tutor
 * asks before it starts, lessons being loaded on first use). AT_OK when there are
 * none, AT_ENOTREG, AT_ENOMEM. */
int at_lesson_dirs_check_files(const char *const *dirs, size_t n_dirs, const char *lang,
                               at_diag_list *diags);

/* Lookups (NULL when absent). at_lesson_set_find_question searches every lesson;
 * *lesson and *step_index (each may be NULL) tell where it is. */
const at_lesson *at_lesson_set_find(const at_lesson_set *s, const char *id);
const at_question *at_lesson_set_find_question(const at_lesson_set *s, const char *id,
                                               const at_lesson **lesson, size_t *step_index);

/* Load a file holding one compute block (the `attn-tutor compute` input; "-" =
 * stdin). *out is freed with at_compute_file_free. Diagnostics as for lessons. */
typedef struct at_compute_file at_compute_file;
int at_compute_file_load(const char *path, at_compute_file **out, at_diag_list *diags);
const at_compute *at_compute_file_block(const at_compute_file *f);
void at_compute_file_free(at_compute_file *f);

/* Parse one number cell as written in YAML: C-locale decimal (a Unicode minus U+2212
 * counts as '-'), or YAML's .nan/.NaN/.NAN, .inf/+.inf/-.inf (any case variant YAML
 * allows). 0 on success. */
int at_parse_cell(const char *s, double *out);

/* Index of a token named by text or by 1-based position ("3") among n tokens;
 * text takes precedence when a token is literally "3". -1 if not found. */
long at_token_index(const char *const *tokens, size_t n, const char *name);

#endif
