/* Shared by the formula grader's files (formula_read.c, formula.c); not for other
 * modules. Reading a formula goes: normalise the text (full-width forms, LaTeX
 * wrappers and delimiters), cut it into tokens (symbols, numbers, names, words of
 * English and Chinese that stand for operators), find the run of tokens that is the
 * formula (the rest is an explanation in words), parse that run. */
#ifndef AT_QUIZ_FORMULA_IMPL_H
#define AT_QUIZ_FORMULA_IMPL_H

#include <stddef.h>

#include "engine/error.h"

enum ftok {
    F_END,
    F_NUM,      /* num */
    F_VAR,      /* var: enum fvar */
    F_NAME,     /* an identifier or word (text, len): a function, method, module or
                 * bound name, or a word of prose; the formula's reader decides */
    F_HAN,      /* a run of Chinese characters that stands for nothing in a formula */
    F_SQRT,     /* √, \sqrt, sqrt without a call, "square root of", 根号 */
    F_SQRT_POST,/* "的平方根", "开根号": after what it applies to */
    F_FRAC,     /* \frac */
    F_TRANS,    /* ᵀ, ^T, ^\top, ', "transpose(d)", 的转置: after its matrix */
    F_TRANS_PRE,/* "the transpose of": before it */
    F_LPAR,     /* ( [ { */
    F_RPAR,     /* ) ] } */
    F_MUL,      /* * · × @ \cdot "times" 乘以 */
    F_DIV,      /* / ÷ "over" "divided by" 除以 */
    F_POW,      /* ^ ** */
    F_PLUS,
    F_MINUS,
    F_COMMA,    /* , 、 and the Chinese comma */
    F_DOT,      /* . before a name: member access (K.T, np.sqrt) */
    F_ASSIGN,   /* = 等于 "equals" */
    F_SEP,      /* ; a line break, a full stop, a colon */
    F_FILLER,   /* then, 再, 然后, apply: no meaning in the formula; var 2: words that
                 * put the softmax over the wrong axis ("over the columns", 按列) */
    F_OTHER,    /* a symbol of no meaning here (#, ?, …); "/@", Mathematica's Map, which
                 * the parser reads after a function's name */
    F_CONJ,     /* 和, 与, 跟: a product when the clause ends in a product verb
                 * ("Q 和 K 的转置做矩阵乘法"), else a word of prose */
    F_PRODVERB, /* 相乘, 做矩阵乘法, 的乘积: the verb of such a product */
    F_STRING,   /* an einsum subscript string without its quotes: id,jd->ij; MATLAB's
                 * 'all' (sum(E, 'all')) */
    F_DOTPRE,   /* "the dot products of": its "and" / "with" then is F_DOTMUL */
    F_DOTMUL,   /* a dot product of rows: A · Bᵀ (点积, "dot product of A and B") */
};

enum fvar {
    V_Q, V_K, V_V, V_DK, V_DMODEL,
    V_LEN,      /* n, seq_len: the length of the sequence (a wrong scale, not a matrix) */
    V_MASK,     /* M, mask: an additive mask, which a right formula may carry */
    V_OTHER,    /* another symbol (W_q, x): a matrix that is not in the formula */
};

typedef struct ftoken {
    enum ftok kind;
    int var;            /* F_VAR: enum fvar; F_NAME: 1 "softmax of", 3 a LaTeX command;
                         * F_FILLER: 2 words of a wrong softmax axis; F_PRODVERB: 1 点积 */
    double num;         /* F_NUM */
    const char *text;   /* F_NAME, F_WORD: in the normalised text, len bytes */
    size_t len;
    long at, end;       /* bytes [at, end) of the original answer */
    int space_before;   /* white space between this token and the one before */
    char index;         /* F_VAR, F_NAME: the index of a row or a sum (q_i, k_j, Σ_j,
                         * softmax_j: 'i', 'j'); 0 none */
    int axis_bad;       /* F_NAME softmax or sum of the index form: over the queries'
                         * index (softmax_i, Σ_i beside q_i·k_j), set by fq_per_query */
} ftoken;

/* The answer cut into tokens. text is the normalised copy names point into. */
typedef struct ftokens {
    ftoken *t;          /* [n + 1], the last one F_END */
    size_t n;
    char *text;
    int elementwise;    /* the product before a final V was written element by element:
                         * read as a product, named as FQ_REMARK_ELEMENTWISE */
    int one_based;      /* written in a language that counts axes from 1 (MATLAB, Octave,
                         * Julia, R, Mathematica): sum(E, 2) sums the rows, sum(E) without an
                         * axis does not (formula_parse.c) */
    int rows;           /* a loop over the queries was read (fq_unwrap_loop): its sums are
                         * of one row, whatever their axis (but a one-based dim 1) */
} ftokens;

/* Normalise and tokenise a whole answer (any length). Returns AT_OK, AT_ENOMEM. */
int fq_tokenize(const char *answer, ftokens *out, at_error *err);
void fq_tokens_free(ftokens *t);

/* Is this F_NAME (case-insensitive) equal to word? */
int fq_name_is(const ftoken *t, const char *word);

/* Words that take back what came before: "no wait", "actually", "I meant", 不对, 应该是. */
int fq_correcting(const ftoken *t);

/* ---- rewrites before parsing (formula_fix.c) ---- */

/* One symbol corrected in words after the formula, whose tokens end at T->t[b]: "sorry,
 * I meant d_k, not d_model", "correction: it's sqrt(d_k), not d_k", "更正：是 d_k 不是
 * d_model", "不对，dₖ 应该是 √dₖ", "是 Kᵀ 不是 K". The formula's tokens *pt [*pn] (F_END
 * after them; malloc'd, replaced) get the symbol meant wherever the one taken back
 * stands. Returns 1 when rewritten, 0 when there is no such correction (or the formula
 * already holds the symbol meant), -1 out of memory. */
int fq_correct_symbol(const ftokens *T, size_t b, ftoken **pt, size_t *pn);

/* The scale's symbol defined in words after the formula (whose tokens end at T->t[b]) as
 * the model's width: "softmax(QKᵀ/√d)V, where d is the model dimension", "d 是模型维度
 * d_model", "d = d_model". The formula's tokens t[n] that write that symbol become d_model
 * (a wrong scale, one slip). A share of the width ("d = d_model / h", 除以头数) is d_k
 * and changes nothing. Returns 1 when rewritten, else 0. */
int fq_define_symbol(const ftokens *T, size_t b, ftoken *t, size_t n);

/* The index (per-query) form: rows q_i, k_j, v_j (two at least), Σ_j / sum_j, softmax_j,
 * weights and scores named with their indices (a_ij, α_ij, e_il, out_i). It is rewritten
 * into the matrix form it stands for, so that it is graded as that form is:
 *   - the dot product of two vectors with different indices (q_i·k_j, q_iᵀk_j, k_j·q_i,
 *     q·k_j for one query, ⟨q_i, k_j⟩, dot(q_i, k_j)) becomes Q·Kᵀ (F_DOTMUL); so does
 *     q·k without indices where such a product stands too (Σ exp(q·k/√d), its indices
 *     left out);
 *   - a sum whose terms hold a row (Σ_j a_ij v_j, Σ w_j v_j with no index of its own) is
 *     the product of the weights with that row's matrix: the sum goes and the row's
 *     matrix ends the term;
 *   - a sum in a denominator (exp(…) / Σ_l exp(q_i·k_l/√d_k)) is the softmax's normaliser
 *     and stays a sum, and so does one defining a name that stands in a denominator
 *     (Z_i = Σ_j exp(…) beside exp(…) / Z_i); any other sum (Σ_j a_ij: the weights summed)
 *     goes;
 *   - a sum or a softmax over the index of the query (Σ_i, softmax_i beside q_i·k_j or
 *     e_ij) is marked axis_bad: the softmax over the queries' axis;
 *   - names lose their indices (a_ij and a_ik are one name, "a_"; w_j is w where w stands
 *     bare too: "w = softmax(…); out_i = Σ_j w_j v_j");
 *   - a row outside any sum is its matrix too (o_i = a_ij v_j: Einstein's convention
 *     sums the repeated j).
 * Tokens as for fq_correct_symbol. Returns 1 rewritten, 0 not that form, -1 out of
 * memory. */
int fq_per_query(ftoken **pt, size_t *pn);

/* a_ij, α_ij, e_il, out_i, weights_j: an F_NAME with a subscript of one or two index
 * letters. The length of its base with the '_' ("a_"), 0 when it is no such name. */
size_t fq_subscripted(const ftoken *t);

/* The input times a projection matrix is that projection: "(X W_Q)(X W_K)ᵀ", "x @ W_v",
 * "XW^Q" are read as Q, K and V. Tokens t [*pn] with F_END after them, in place. Returns
 * 1 when one was read so. */
int fq_projections(ftoken *t, size_t *pn);

/* A step said in words and then in symbols in parentheses ("the dot product of every
 * query with every key (QKᵀ), …", "每个查询和每个键做点积（QKᵀ），…"): the parenthesis
 * goes when it holds the same matrices as its step and ends it. Tokens t [*pn] with
 * F_END after them, in place. Returns 1 when one went. */
int fq_drop_restatement(ftoken *t, size_t *pn);

/* ---- a Python function (formula_def.c) ---- */

/* Why a function cannot be read: an English msgid (with one %.*s for the function's name,
 * or none), the name, and the byte of the answer at fault. */
typedef struct fq_refusal {
    const char *why;
    const char *arg;
    int arg_len;
    long at;
} fq_refusal;

/* def name(parameters) [-> annotation]: … in T (a whole answer's tokens, replaced) made
 * the lines of its body: the header and a docstring go; each of the first three
 * parameters (self, *args and keyword-only ones passed over) becomes the matrix it is
 * bound to, the call's argument or else Q, K, V in order; the call after the function
 * ([out =] name(…), print(name(…))) becomes a separator. The body is the lines below the
 * header indented more than the def, or on the header's line up to the next statement
 * after its return. The matrix languages' functions are read alike, their header and the
 * token that closes the body going: MATLAB's and Julia's function [out =] name(…) … end,
 * R's name <- function(…) { … } (or one expression), MATLAB's name = @(…) expression,
 * Mathematica's name[q_, k_, v_] := Module[{…}, …] (or one expression). Returns 1 when
 * rewritten, 0 when there is no function, -1 out of memory, -2 when the function cannot
 * be read (a def inside it or a second one, a class, a call of itself): *no says why. */
int fq_unwrap_def(ftokens *T, const char *answer, fq_refusal *no);

/* A loop over the queries in T (a whole answer's tokens, replaced) made the lines of its
 * body: Python's for i in range(n): …, MATLAB's for i = 1:n … end, Julia's for i in 1:n …
 * end, R's for (i in 1:n) { … }. The header and the body's end go; a row taken by the
 * loop's variable (Q[i], Q[i, :], Q(i,:), Q[[i]], out[i] = …) becomes the matrix it is a
 * row of, the row's transpose (Julia's Q[i, :]') the row, K @ Q[i] the row's products with
 * the keys (Q Kᵀ). T->rows is set (not for a loop over the heads: for h in range(n_heads)).
 * Returns 1 when rewritten, 0 when there is no such loop, -1 out of memory. */
int fq_unwrap_loop(ftokens *T);

/* ---- the formula as a tree (formula_parse.c) ---- */

typedef enum fop {
    N_NUM, N_VAR, N_SOFTMAX, N_FUNC, N_SQRT, N_MUL, N_DIV, N_POW, N_TRANS, N_PLUS, N_NEG,
    N_OTHER,    /* something outside the grader's algebra (V.shape[0]) */
} fop;

typedef struct fnode {
    fop op;
    int var;            /* N_VAR: enum fvar */
    double num;         /* N_NUM */
    int a, b;           /* children, -1 none */
    int axis_bad;       /* N_SOFTMAX: over the queries' axis (dim=0, dim=-2, softmax_i);
                         * N_FUNC sum: a sum over it (axis=0, Σ_i), the normaliser of a
                         * softmax written out over the wrong axis */
    const char *name;   /* N_FUNC: the function's name as typed, len bytes */
    size_t len;
    const char *sym;    /* N_VAR: the symbol as typed (M, scores, dₖ), sym_len bytes, for
                         * the code grader's evaluation (quiz/code.h); NULL when none */
    size_t sym_len;
} fnode;

typedef struct fformula {
    /* why it cannot be read, for a message in the answer's language: the English msgid
     * (a template of one %.*s, or none), its argument and the character it is at (from 1);
     * err_what NULL when it was read */
    const char *err_what;
    char err_arg[64];
    long err_char;
    fnode *node;
    int n_node, cap;
    int root;
    size_t start, end;  /* the formula's bytes in the answer */
    int explained;      /* words outside the formula */
    int no_formula;     /* words only: nothing reads as a formula (root -1) */
    int is_list;        /* symbols separated by commas, not combined ("Q, K, V, softmax") */
    const char *named;  /* the formula only named by a call ("Attention(Q, K, V)",
                         * "F.scaled_dot_product_attention(q, k, v)"): the name's bytes in
                         * text, named_len long; NULL otherwise */
    size_t named_len;
    unsigned remarks;   /* FQ_REMARK_*: what the words around it say of the formula */
    int has_legend;     /* words after it say what one of its own sizes is ("where n is
                         * the sequence length"): bytes [legend_start, legend_end) */
    size_t legend_start, legend_end;
    int corrected;      /* a symbol of it corrected in words after it ("sorry, I meant d_k,
                         * not d_model"): the formula read is the corrected one */
    char *text;         /* owns what names point into */
} fformula;

enum {
    FQ_REMARK_ON_V = 1,     /* "the softmax is applied to V" */
    FQ_REMARK_AXIS = 2,     /* softmax over the columns / dim 0 */
    FQ_REMARK_ELEMENTWISE = 4, /* V multiplied element by element (⊙, ∘, \odot, or a '*'
                                * in code whose matrix products are '@' or that the words
                                * call elementwise) */
    FQ_REMARK_K_TRANSPOSED = 8, /* the words say K is transposed ("K 要转置", "K transposed"):
                                 * a QK written without the mark is QKᵀ */
};

/* Read the formula of an answer into a tree. whole = 1 reads the whole text as one
 * formula (a canonical form); 0 finds the formula among words first. Returns AT_OK
 * (with f->no_formula and root -1 when the answer holds words only), AT_EINVAL (an
 * empty answer, or a formula that cannot be read: err says where and why;
 * f->start/end/explained still set), AT_ENOMEM. Free with fq_formula_free in every case. */
int fq_parse(const char *answer, int whole, fformula *f, at_error *err);
void fq_formula_free(fformula *f);

/* A formula written in steps made one (formula_steps.c): "S = QKᵀ/√dₖ; A = softmax(S);
 * out = AV" → "softmax((QKᵀ/√dₖ)) V" with its names replaced, or a chain in words (先算
 * Q 乘 K 的转置，除以根号 d_k，过 softmax，最后乘 V) with each step applied to what came
 * before. A malloc'd string, or NULL when s is not such a formula (or out of memory). */
char *qz_formula_steps(const char *s);

#endif
