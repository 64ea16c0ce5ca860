/* Code answers: a small evaluator of the PyTorch subset that the code lesson's exercises
 * are answered in, and the grader of `kind: code` questions built on it.
 *
 * The answer is judged by what it computes, not by how it is spelt: the lesson's `setup`
 * lines make small concrete tensors (Q, K, V, a causal mask, the heads of a multi-head
 * layer), the answer runs on them, and its result is compared with the result of the
 * lesson's `canonical` lines run on the same tensors; a wrong result is compared with what
 * each of the lesson's known `mistakes` computes, so the feedback says what it breaks.
 *
 * What is read (Python 3 syntax, one statement a line or several separated by `;`; in a
 * one-line field a new `name = …` after a complete statement starts the next one):
 *   statements  name = expr, a, b = expr, x[index] = expr, x += expr (and -= *= /= @=),
 *               return expr, an expression alone, import / from … import (torch, torch.nn,
 *               torch.nn.functional, math, numpy, einops), for name in expr: … (its body on
 *               the same line, or the indented lines below it), pass,
 *               def name(parameters) [-> annotation]: … (its body as a for's; on one line
 *               it ends after its return; annotations, a docstring, defaults, *args and
 *               **kwargs read; a call runs it with names of its own, as Python does; a
 *               function never called is the answer, run on the question's tensors: each
 *               parameter gets the setup's value of its name, else the first three Q, K,
 *               V in order, else its default)
 *   expressions numbers (1, 0.5, -1e9), strings ('…', "…", """…""" over lines, and the
 *               curly quotes a Chinese input method types), None, True, False,
 *               + - * / // % ** @, unary - + ~ not, == != < <= > >=, & | and or, calls
 *               with positional, keyword and *starred arguments, attributes, x[i],
 *               x[:, i], x[..., :n], x[:, None], x[bool mask], tuples, lists,
 *               [e for v in xs if c] and (e for v in xs)
 *   tensors     up to QZ_CODE_MAX_DIMS axes, float (computed in double), bool and integer,
 *               broadcasting as PyTorch does; the functions and methods of code_lib.c
 *               (torch.*, F.*, nn.Softmax, nn.Identity, math.*, np.*, einops.rearrange,
 *               torch.finfo, the tensor methods; randn and rand from a seeded generator of
 *               the project's, not PyTorch's numbers), with PyTorch's rules where a class
 *               trips: F.softmax without dim takes dim 0 of a 3-D tensor, view() of a
 *               transposed tensor raises, masked_fill takes a bool mask, 1 - bool_tensor
 *               raises, .T reverses every axis, all -inf in a softmax row gives NaN
 *   formulas    an answer that is no Python (softmax(QK^T/sqrt(d_k) + M) V, Unicode, LaTeX)
 *               is read by the formula reader (quiz/formula_impl.h) and that tree evaluated:
 *               juxtaposition and × are matrix products, ᵀ swaps the last two axes, the
 *               softmax runs over the last axis (the queries' axis where the formula says so)
 * Leniencies (what Python would refuse, read as the student means it): torch, F, nn,
 * math, np and einops need no import; a bare softmax(x) runs over the last axis, sqrt,
 * exp and rearrange need no module, inf and ∞ are float('inf'); a line's indentation is
 * ignored outside a for and a def; a name a function reads before it assigns it is the
 * name outside it.
 * What is not read (lambda, if and while statements, classes, a def inside a def, a
 * function that calls itself, try, indexing with a list or an integer tensor) makes the
 * answer unreadable, with the construct and its place named; so does a name the setup
 * does not define or a function the evaluator does not know (named, never judged as
 * wrong). Where PyTorch versions differ, the evaluator follows 2.1 and later
 * (masked_fill takes a bool mask only).
 *
 * Limits: a tensor of at most QZ_CODE_MAX_NUMEL numbers, QZ_CODE_MAX_STEPS operations a
 * run (a loop counts each time round), expressions nested QZ_CODE_MAX_DEPTH deep, code of
 * QZ_CODE_MAX_BYTES; past them the answer is unreadable ("too large"), never slow.
 * Nothing here prints: messages are returned in the language asked (quiz/lang.h). */
#ifndef AT_QUIZ_CODE_H
#define AT_QUIZ_CODE_H

#include <stddef.h>

#include "engine/error.h"
#include "quiz/lang.h"
#include "quiz/quiz.h"

#define QZ_CODE_MAX_DIMS 6
#define QZ_CODE_MAX_NUMEL 65536
#define QZ_CODE_MAX_STEPS 20000
#define QZ_CODE_MAX_DEPTH 64
#define QZ_CODE_MAX_BYTES 8192

/* A tensor the code computed (a number is a tensor of 0 axes). */
typedef struct qz_code_tensor {
    int ndim;
    long shape[QZ_CODE_MAX_DIMS];
    long numel;
    double *data;       /* [numel], row-major; malloc'd (qz_code_tensor_free) */
    int is_bool;        /* True / False as 1 / 0 */
} qz_code_tensor;

void qz_code_tensor_free(qz_code_tensor *t);

/* Same shape and the same numbers: |a − b| ≤ 1e-6·(1 + |b|) at every place (the precision
 * of PyTorch's float32), NaN where the other has NaN, an infinity where the other has the
 * same. */
int qz_code_tensor_same(const qz_code_tensor *a, const qz_code_tensor *b);

typedef enum qz_code_status {
    QZ_CODE_RAN,        /* it ran; the result is in value */
    QZ_CODE_UNREADABLE, /* the evaluator cannot read or run it: a syntax it does not read,
                         * a name the setup does not define, a function it does not know, a
                         * limit; msg says what and at; nothing is judged */
    QZ_CODE_RAISES,     /* PyTorch itself would stop with an error (shapes that do not fit,
                         * view() of a transposed tensor, a float mask for masked_fill) */
    QZ_CODE_NO_VALUE,   /* it ran but computed no tensor */
} qz_code_status;

/* What running an answer gave. */
typedef struct qz_code_outcome {
    qz_code_status status;
    qz_code_tensor value;   /* QZ_CODE_RAN: the result (see qz_code_run) */
    qz_code_tensor *steps;  /* the tensors its statements assigned, in order [n_steps] */
    char **step_names;      /* [n_steps] the name each was assigned to */
    size_t n_steps;
    int result_bound;       /* 1: the code itself assigned the name `result` */
    int as_formula;         /* 1: read as a formula (math notation), not as Python */
    long at;                /* UNREADABLE, RAISES: byte offset in the code where it stopped,
                             * or -1 when no place can be named */
    char msg[400];          /* UNREADABLE, RAISES: what, in the language asked ("unknown
                             * function 'my_softmax'"), without the place */
} qz_code_outcome;

void qz_code_outcome_free(qz_code_outcome *o);

/* Names bound to values: the world an answer runs in. Opaque. */
typedef struct qz_code_env qz_code_env;

/* A new environment with setup (code in the subset above, may be NULL) run in it.
 * Returns AT_OK; AT_EINVAL when setup cannot be read or raises (err->msg says what, with
 * the line and column in setup; a lesson error); AT_ENOMEM. *out is freed with
 * qz_code_env_free. */
int qz_code_env_new(const char *setup, qz_lang lang, qz_code_env **out, at_error *err);
void qz_code_env_free(qz_code_env *env);

/* Run code in a copy of env (env itself is not changed). The result is the tensor bound
 * to `result` when the code assigns that name (result may be NULL); else what a `return`
 * or the last expression statement gives; else the last tensor assigned; else what the
 * last call of a function of the answer's returned (print(attn(Q, K, V))). A function
 * defined and never called, with nothing after it that gives a value, is run as above.
 * An answer that is no Python is read as a formula (see above) when the formula reader
 * can read it.
 * out is filled in every case (free with qz_code_outcome_free). Returns AT_OK (out says
 * what happened) or AT_ENOMEM. */
int qz_code_run(const qz_code_env *env, const char *code, const char *result, qz_lang lang,
                qz_code_outcome *out, at_error *err);

/* The name of a whole number bound in env with this value ("d_model" for 15), if exactly
 * one name holds it; NULL otherwise. Borrowed from env. */
const char *qz_code_env_name_of(const qz_code_env *env, long value);

/* ---- judging an answer to a `kind: code` question (quiz.h: qz_question's code fields) */

typedef enum qz_code_finding {
    QZ_CODE_RIGHT,      /* it computes what the canonical lines compute */
    QZ_CODE_MISTAKE,    /* it computes what one of the question's mistakes computes */
    QZ_CODE_EARLY,      /* it stops at a value the canonical lines compute on the way
                         * (the masked scores, not yet out): partly right */
    QZ_CODE_NONFINITE,  /* NaN or an infinity where the right result has none */
    QZ_CODE_SHAPE,      /* a result of another shape */
    QZ_CODE_OTHER,      /* the right shape, other numbers */
    QZ_CODE_RAISED,     /* PyTorch would stop with an error */
    QZ_CODE_NOTHING,    /* it computes no tensor */
    QZ_CODE_UNREAD,     /* the evaluator could not read or run it (not judged) */
} qz_code_finding;

typedef struct qz_code_judgement {
    qz_code_finding finding;
    size_t mistake;         /* QZ_CODE_MISTAKE: index into q->code_mistakes */
    size_t step;            /* QZ_CODE_EARLY: index into expected_steps */
    qz_code_outcome run;    /* the answer's run */
    qz_code_outcome expected;   /* the canonical lines' run (value: the right result) */
    const qz_code_env *env; /* the setup's world, borrowed for the feedback's names; valid
                             * until qz_code_judgement_free */
    qz_code_env *own_env;
} qz_code_judgement;

/* Run the setup, the canonical lines, the mistakes' answers and the answer, and compare.
 * Returns AT_OK; AT_ERANGE when the question itself is broken (its setup or canonical
 * lines do not run, or compute no tensor: err names which, a lesson error), AT_ENOMEM.
 * Free j with qz_code_judgement_free (also after an error). */
int qz_code_judge(const qz_question *q, const char *answer, qz_lang lang,
                  qz_code_judgement *j, at_error *err);
void qz_code_judgement_free(qz_code_judgement *j);

/* A lesson author's code question checked by the same evaluator (attn-tutor lint): the
 * setup and the canonical lines run, and the canonical lines assign a tensor to
 * `result`; every mistake's answers run and compute something other than the canonical
 * lines. */
typedef enum qz_code_field {
    QZ_CODE_FIELD_SETUP, QZ_CODE_FIELD_RESULT, QZ_CODE_FIELD_CANONICAL, QZ_CODE_FIELD_MISTAKE,
} qz_code_field;

typedef struct qz_code_problem {
    qz_code_field field;    /* which field is wrong */
    size_t mistake, answer; /* QZ_CODE_FIELD_MISTAKE: mistakes[mistake].answers[answer] */
    char msg[440];          /* what is wrong, in English (lint's language), one line */
} qz_code_problem;

/* Check q (kind QZ_CODE). out (caller's, cap entries) gets the problems found. Returns
 * their number (only the first cap are written), or -1 when out of memory. */
int qz_code_check_question(const qz_question *q, qz_code_problem *out, size_t cap);

/* A comment that starts at s[i] (Python's #): where reading goes on. The end of the
 * line; in text of one line (an answer field), a ';' that a statement follows
 * ("… / math.sqrt(d_k)  # scale ; p = scores.softmax(-1)"). s[0, n). */
size_t qz_comment_end(const char *s, size_t i, size_t n);

#endif
