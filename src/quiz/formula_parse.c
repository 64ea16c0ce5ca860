/* The formula among the words of an answer, and the formula as a tree: statements
 * (name = expression; the answer is the last one that uses Q, K or V), function calls
 * with positional and keyword arguments (F.softmax(x, dim=-1)), methods (K.transpose(
 * -2, -1), x.softmax(-1)), module paths (torch.nn.functional.softmax), operator words,
 * and steps joined by commas ("Q 乘以 K 的转置，再除以根号 d_k"). The matrix languages'
 * functions are read as NumPy's: an axis counted from 1 (MATLAB's sum(E, 2), Julia's
 * dims=2) is NumPy's axis 1, R's rowSums(E) and Mathematica's Total[E, {2}] are sums of the
 * rows, apply, Map, mapslices, sweep and bsxfun apply what they are given by rows.
 * See quiz/formula_impl.h. */
#include "quiz/formula_impl.h"
#include "quiz/lang.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a name does. */
enum frole {
    R_NONE, R_SOFTMAX, R_FUNC, R_SQRT, R_RSQRT, R_MATMUL, R_DIV, R_TRANSPOSE, R_TRANSWORD, R_POW,
    R_IDENTITY, R_MODULE, R_SHAPE, R_SIZE, R_TATTR, R_ATTENTION, R_MASKED, R_EINSUM, R_WHERE,
    /* the matrix languages' (MATLAB, Julia, R, Mathematica) */
    R_TOTAL,        /* Mathematica's Total[E, {2}]: a sum over the level it names */
    R_ROWSUM,       /* R's rowSums(E) */
    R_COLSUM,       /* R's colSums(E): over the queries' axis */
    R_TCROSS,       /* R's tcrossprod(A, B): A Bᵀ */
    R_CROSS,        /* R's crossprod(A, B): Aᵀ B */
    R_NCOL,         /* R's ncol(K): the width, d_k */
    R_BSXFUN,       /* MATLAB's bsxfun(@rdivide, A, B): A ./ B */
    R_MAP,          /* Mathematica's Map[f, S], Julia's mapslices(f, S; dims=2): f by rows */
    R_APPLY,        /* R's apply(S, 1, f): f by rows, each result a column */
    R_SWEEP,        /* R's sweep(E, 1, s, "/"): E / s by rows */
    R_INV,          /* Julia's inv(x): 1 / x */
};

static const struct { const char *name; enum frole role; } roles[] = {
    {"softmax", R_SOFTMAX}, {"softmax_", R_SOFTMAX},
    {"sm", R_SOFTMAX},   /* a note's shorthand: "sm(QKᵀ/√dₖ)V" */
    {"sigmoid", R_FUNC}, {"sigma", R_FUNC}, {"expit", R_FUNC}, {"logistic", R_FUNC}, {"tanh", R_FUNC},
    {"relu", R_FUNC}, {"gelu", R_FUNC}, {"exp", R_FUNC}, {"log", R_FUNC}, {"max", R_FUNC},
    {"argmax", R_FUNC}, {"hardmax", R_FUNC}, {"sparsemax", R_FUNC}, {"log_softmax", R_FUNC},
    {"logsoftmax", R_FUNC}, {"normalize", R_FUNC}, {"norm", R_FUNC}, {"layernorm", R_FUNC},
    {"layer_norm", R_FUNC}, {"sum", R_FUNC}, {"mean", R_FUNC}, {"abs", R_FUNC}, {"softplus", R_FUNC},
    {"sqrt", R_SQRT}, {"root", R_SQRT}, {"rsqrt", R_RSQRT},
    {"matmul", R_MATMUL}, {"mm", R_MATMUL}, {"bmm", R_MATMUL}, {"dot", R_MATMUL},
    {"multiply", R_MATMUL}, {"mul", R_MATMUL}, {"mmult", R_MATMUL},   /* a spreadsheet's MMULT */
    {"div", R_DIV}, {"divide", R_DIV}, {"true_divide", R_DIV},
    {"transpose", R_TRANSWORD}, {"transposed", R_TRANSWORD}, {"t", R_TRANSPOSE},
    {"permute", R_TRANSPOSE}, {"swapaxes", R_TRANSPOSE}, {"swapdims", R_TRANSPOSE},
    {"pow", R_POW}, {"power", R_POW}, {"float_power", R_POW},
    {"tensor", R_IDENTITY}, {"as_tensor", R_IDENTITY}, {"array", R_IDENTITY}, {"asarray", R_IDENTITY},
    {"float", R_IDENTITY}, {"float32", R_IDENTITY}, {"float64", R_IDENTITY}, {"double", R_IDENTITY},
    {"int", R_IDENTITY}, {"contiguous", R_IDENTITY}, {"to", R_IDENTITY}, {"detach", R_IDENTITY},
    {"clone", R_IDENTITY}, {"cuda", R_IDENTITY}, {"cpu", R_IDENTITY}, {"type_as", R_IDENTITY},
    {"floattensor", R_IDENTITY}, {"cast", R_IDENTITY}, {"convert_to_tensor", R_IDENTITY},
    {"masked_fill", R_MASKED}, {"masked_fill_", R_MASKED},
    {"einsum", R_EINSUM}, {"where", R_WHERE},
    {"softmaxlayer", R_SOFTMAX}, {"maximum", R_FUNC}, {"permutedims", R_TRANSPOSE},
    {"adjoint", R_TRANSPOSE}, {"ctranspose", R_TRANSPOSE}, {"total", R_TOTAL},
    {"rowsums", R_ROWSUM}, {"colsums", R_COLSUM}, {"tcrossprod", R_TCROSS}, {"crossprod", R_CROSS},
    {"ncol", R_NCOL}, {"bsxfun", R_BSXFUN}, {"map", R_MAP}, {"mapslices", R_MAP}, {"apply", R_APPLY},
    {"sweep", R_SWEEP}, {"mtimes", R_MATMUL}, {"mrdivide", R_DIV}, {"rdivide", R_DIV},
    {"repmat", R_IDENTITY}, {"inv", R_INV}, {"realsqrt", R_SQRT}, {"conjugatetranspose", R_TRANSPOSE},
    {"matrixform", R_IDENTITY}, {"simplify", R_IDENTITY}, {"fullsimplify", R_IDENTITY},
    {"traditionalform", R_IDENTITY},
    {"np", R_MODULE}, {"numpy", R_MODULE}, {"torch", R_MODULE}, {"F", R_MODULE}, {"nn", R_MODULE},
    {"functional", R_MODULE}, {"math", R_MODULE}, {"scipy", R_MODULE}, {"special", R_MODULE},
    {"tf", R_MODULE}, {"jax", R_MODULE}, {"jnp", R_MODULE}, {"self", R_MODULE}, {"keras", R_MODULE},
    {"ops", R_MODULE}, {"linalg", R_MODULE}, {"nnlib", R_MODULE}, {"flux", R_MODULE},
    {"shape", R_SHAPE}, {"size", R_SIZE}, {"T", R_TATTR}, {"mT", R_TATTR},
    {"attention", R_ATTENTION}, {"attn", R_ATTENTION},
    {"scaled_dot_product_attention", R_ATTENTION}, {"sdpa", R_ATTENTION},
    {"self_attention", R_ATTENTION}, {"cross_attention", R_ATTENTION},
    {"multi_head_attention", R_ATTENTION}, {"multihead_attention", R_ATTENTION},
    {"dot_product_attention", R_ATTENTION},
};

static enum frole role_of(const ftoken *t)
{
    if (t->kind != F_NAME)
        return R_NONE;
    for (size_t i = 0; i < sizeof roles / sizeof *roles; i++) {
        if (tolower((unsigned char)*t->text) != tolower((unsigned char)*roles[i].name))
            continue;   /* (the first letter first: a long answer asks this of every token) */
        size_t n = strlen(roles[i].name);
        if (t->len != n)
            continue;
        /* one-letter names are exact (t is a method, T an attribute, F a module) */
        if (n == 1 ? !strncmp(t->text, roles[i].name, 1) : !strncasecmp(t->text, roles[i].name, n))
            return roles[i].role;
    }
    return R_NONE;
}

/* ---- where the formula is among the words ---- */

static int name_bound_before(const ftokens *T, size_t i)
{
    for (size_t j = 0; j + 1 < T->n; j++)
        if (T->t[j].kind == T->t[i].kind && T->t[j + 1].kind == F_ASSIGN && T->t[j].len == T->t[i].len &&
            !strncmp(T->t[j].text, T->t[i].text, T->t[i].len))
            return 1;
    return 0;
}

/* Words that stand in a formula without parentheses after them. */
static int formula_word(const ftoken *t)
{
    static const char *const w[] = {"softmax", "sqrt", "root", "transpose", "transposed",
                                    "sigmoid", "tanh", "relu"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (fq_name_is(t, w[i]))
            return 1;
    return 0;
}

static int legend_lead(const ftoken *t);

/* A function of the matrix languages named by an English word ("the total (the sum)",
 * "map", "apply", "sweep", "simplify"): a call only when its bracket follows it closely. */
static int english_role(const ftoken *t)
{
    static const char *const w[] = {"total", "map", "apply", "sweep", "simplify", NULL};
    for (size_t k = 0; w[k]; k++)
        if (fq_name_is(t, w[k]))
            return 1;
    return 0;
}

/* Does token i belong to a formula (1) or to the words around it (0)? A name does
 * when it reads as code (np.sqrt, K.T, f(…), x = …), is a symbol (X, d_model, W1) or a
 * word of formulas (softmax, sqrt, transpose); other words are prose. */
static int is_math(const ftokens *T, size_t i)
{
    const ftoken *t = &T->t[i], *next = &T->t[i + 1], *prev = i ? &T->t[i - 1] : NULL;
    if (t->kind == F_HAN)   /* 权重 = …, then 权重 × V; 输出 z_i = …: a label of the name
                             * (其中 α_ij = … is a definition after the formula instead) */
        return next->kind == F_ASSIGN || name_bound_before(T, i) ||
               (fq_subscripted(next) && T->t[i + 2].kind == F_ASSIGN && !legend_lead(t));
    if (t->kind != F_NAME)
        return 1;
    /* "… + mask)": the additive mask is a term of the formula */
    int mask = fq_name_is(t, "mask") &&
               ((prev && (prev->kind == F_PLUS || prev->kind == F_MINUS || prev->kind == F_MUL)) ||
                next->kind == F_PLUS || next->kind == F_MUL);
    /* np.where(mask, …), masked_fill(mask, …): the first argument of a known function */
    mask |= prev && prev->kind == F_LPAR && i >= 2 && T->t[i - 2].kind == F_NAME &&
            role_of(&T->t[i - 2]) != R_NONE;
    mask |= fq_name_is(t, "inf") || fq_name_is(t, "infinity");   /* -np.inf, float('-inf'): a
                                                                   * fill value; Total[E, Infinity] */
    /* MATLAB's function handle: bsxfun(@rdivide, …) */
    mask |= prev && prev->kind == F_MUL && *prev->text == '@' && !t->space_before;
    mask |= next->kind == F_OTHER && next->len == 2 && !strncmp(next->text, "/@", 2);   /* Total /@ E */
    /* a function passed by its name, the last argument: apply(E, 1, sum), Map[Total, E] */
    mask |= prev && prev->kind == F_COMMA && next->kind == F_RPAR && role_of(t) != R_NONE;
    if (mask || t->index || t->len == 1 || t->var == 3 || formula_word(t) || next->kind == F_DOT ||
        next->kind == F_ASSIGN ||
        (prev && (prev->kind == F_DOT || (prev->kind == F_ASSIGN && !prev->space_before))) ||
        (next->kind == F_LPAR && (!next->space_before || (role_of(t) != R_NONE && !english_role(t)))))
        return 1;
    for (size_t k = 0; k < t->len; k++)
        if (!isalpha((unsigned char)t->text[k]) && t->text[k] != '\'')
            return 1;   /* d_model, W1: symbols, not words (it's is a word) */
    return name_bound_before(T, i);
}

static int trim_front(enum ftok k)
{
    return k == F_SEP || k == F_COMMA || k == F_RPAR || k == F_MUL || k == F_DOTMUL || k == F_DIV || k == F_POW ||
           k == F_PLUS || k == F_ASSIGN || k == F_FILLER || k == F_DOT || k == F_TRANS ||
           k == F_SQRT_POST;
}

static int trim_back(enum ftok k)
{
    return k == F_SEP || k == F_COMMA || k == F_LPAR || k == F_MUL || k == F_DOTMUL || k == F_DIV || k == F_POW ||
           k == F_PLUS || k == F_MINUS || k == F_ASSIGN || k == F_FILLER || k == F_DOT ||
           k == F_SQRT || k == F_FRAC || k == F_TRANS_PRE;
}

/* What token t adds to a run's score: 1 to *qkv for Q, K or V, the rest returned. */
static int token_score(const ftoken *t, int *qkv)
{
    if (t->kind == F_VAR && t->var <= V_V)
        ++*qkv;
    else if (t->kind == F_VAR || t->kind == F_SQRT || t->kind == F_FRAC)
        return 1;
    else if (role_of(t) == R_SOFTMAX)
        return 3;
    else if (role_of(t) == R_FUNC)
        return 2;
    return 0;
}

/* How much a run of tokens looks like the formula. */
static int run_score(const ftokens *T, size_t a, size_t b)
{
    int s = 0, qkv = 0;
    for (size_t i = a; i < b; i++)
        s += token_score(&T->t[i], &qkv);
    return qkv ? s + 2 * qkv : 0;   /* no formula without Q, K or V */
}

/* run_score of many runs within one: sums of token_score from a first token on, so that a
 * long answer's statements are scored without going through it again for each. */
typedef struct run_sums {
    const ftokens *T;
    size_t from;
    int *s, *q;         /* [k - from]: the sums of the tokens before k; NULL: not made */
} run_sums;

static void sums_make(run_sums *r, const ftokens *T, size_t a, size_t b)
{
    *r = (run_sums){.T = T, .from = a};
    r->s = malloc((b - a + 1) * sizeof *r->s);
    r->q = malloc((b - a + 1) * sizeof *r->q);
    if (!r->s || !r->q) {
        free(r->s);
        free(r->q);
        r->s = r->q = NULL;
        return;
    }
    r->s[0] = r->q[0] = 0;
    for (size_t k = a; k < b; k++) {
        int q = 0;
        r->s[k - a + 1] = r->s[k - a] + token_score(&T->t[k], &q);
        r->q[k - a + 1] = r->q[k - a] + q;
    }
}

/* run_score(T, a, b) for a run within the one the sums were made of. */
static int sums_score(const run_sums *r, size_t a, size_t b)
{
    if (!r->s)
        return run_score(r->T, a, b);
    int q = r->q[b - r->from] - r->q[a - r->from];
    return q ? r->s[b - r->from] - r->s[a - r->from] + 2 * q : 0;
}

/* How whole a formula a run is: 2 softmax (or another function) with Q, K or V; 1 Q, K
 * and V all with an operator between (not "Q, K, V are the matrices"); 0 neither. */
static int run_complete(const ftokens *T, size_t a, size_t b)
{
    int fn = 0, var[3] = {0, 0, 0}, op = 0;
    for (size_t i = a; i < b; i++) {
        const ftoken *t = &T->t[i];
        if (t->kind == F_VAR && t->var <= V_V)
            var[t->var] = 1;
        fn |= t->kind == F_NAME && (role_of(t) == R_SOFTMAX || role_of(t) == R_FUNC);
        op |= t->kind == F_MUL || t->kind == F_DIV || t->kind == F_TRANS || t->kind == F_SQRT ||
              t->kind == F_FRAC || (t->kind == F_VAR && i > a && T->t[i - 1].kind == F_VAR);
    }
    return fn && var[0] + var[1] + var[2] > 0 ? 2 : var[0] + var[1] + var[2] == 3 && op;
}

static int qkv_in(const ftokens *T, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (T->t[i].kind == F_VAR && T->t[i].var <= V_V)
            return 1;
    return 0;
}

/* Is the group [a, b) (inside brackets) a gloss of a matrix, not a factor: words in it
 * ("the keys", "K transposed") and no operator? */
static int gloss_in(const ftokens *T, size_t a, size_t b)
{
    int words = 0;
    for (size_t i = a; i < b; i++) {
        enum ftok k = T->t[i].kind;
        if (k == F_MUL || k == F_DIV || k == F_POW || k == F_PLUS || k == F_MINUS || k == F_SQRT ||
            k == F_FRAC || k == F_ASSIGN || (k == F_TRANS && T->t[i].len < 4))
            return 0;
        words |= k == F_FILLER || k == F_TRANS;
    }
    return words;
}

/* Is the token the sign of membership (Q ∈ R^{n×d_k}, "\\in" read as it)? */
static int is_member(const ftoken *t)
{
    return t->len >= strlen("∈") && !strncmp(t->text, "∈", strlen("∈"));
}

static int has_v(const ftokens *T, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (T->t[i].kind == F_VAR && T->t[i].var == V_V)
            return 1;
    return 0;
}

static int legend_verb(const ftoken *t);
static int han_starts(const ftoken *t, const char *w);

/* Cut a run down to the formula: what cannot begin or end one, a remark in
 * parentheses, statements that hold no matrix. */
static void trim_run(const ftokens *T, size_t *ps, size_t *pe)
{
    size_t s = *ps, e = *pe;
    int words_follow = e < T->n;
    for (;;) {
        if (s < e && trim_front(T->t[s].kind))
            s++;
        else if (e > s && trim_back(T->t[e - 1].kind) && (T->t[e - 1].kind != F_LPAR || words_follow))
            e--;
        else if (e > s && e < T->n && formula_word(&T->t[e - 1]) && !is_math(T, e) && has_v(T, s, e - 1))
            e--;   /* "…V, softmax 对每一行做": the word begins the words that follow (not
                    * "QKᵀ，除以 √dₖ，过 softmax 得到权重": the step before the words) */
        else
            break;
    }
    /* a remark in parentheses: "(K' = K transpose)", "(d_k = dimension of keys)" */
    int depth = 0;
    for (size_t k = s; k < e; k++) {
        if (T->t[k].kind == F_LPAR && depth++ == 0) {
            int d = 0, assign = 0;
            size_t j = k;
            for (; j < e; j++) {
                d += (T->t[j].kind == F_LPAR) - (T->t[j].kind == F_RPAR);
                assign |= d == 1 && T->t[j].kind == F_ASSIGN;
                if (!d)
                    break;
            }
            int call = k > s && T->t[k - 1].kind == F_NAME && !T->t[k].space_before;
            int after_op = k > s && (T->t[k - 1].kind == F_MUL || T->t[k - 1].kind == F_DIV);
            /* "…V (the keys)", "…V (K transposed)": words gloss the matrix named */
            int gloss = T->t[k].space_before && gloss_in(T, k + 1, j);
            int remark = j < e && j + 1 == e && !after_op &&
                         ((!qkv_in(T, k, j) && run_complete(T, s, k)) || (gloss && has_v(T, s, k)));
            /* "…V (matmul with V)", "…V (multiply by V)": an operation said in words
             * after a whole formula tells how it is computed; it is no factor */
            int said_op = T->t[k].space_before && k + 1 < e &&
                          (T->t[k + 1].kind == F_MUL || T->t[k + 1].kind == F_DIV) &&
                          isalpha((unsigned char)T->t[k + 1].text[0]) && run_complete(T, s, k);
            if ((assign || remark || said_op || (j == e && words_follow)) && !call && run_score(T, s, k)) {
                e = k;   /* also a parenthesis left open where words follow */
                break;
            }
        }
        if (T->t[k].kind == F_RPAR && depth > 0)
            depth--;
    }
    /* the shape of what a whole formula gives, after it: "…V ∈ R^{n×d_v}" */
    for (size_t k = s + 1, depth = 0; k < e; k++) {
        depth += T->t[k - 1].kind == F_LPAR;
        depth -= T->t[k - 1].kind == F_RPAR && depth > 0;
        if (!depth && is_member(&T->t[k]) && run_complete(T, s, k) == 2 && has_v(T, s, k)) {
            e = k;
            break;
        }
    }
    /* shapes or definitions given before the formula, up to a colon: "With Q∈R^{n×d_k},
     * K∈R^{m×d_k}: softmax(QKᵀ/√d_k)V", "(…, Q=XW_Q, K=XW_K, V=XW_V): Attention(Q,K,V)=…"
     * is a legend (the run may start inside the aside's bracket) */
    long level = 0;   /* below 0 when the run starts inside the aside's bracket */
    for (size_t k = s + 1; k < e; k++) {
        level += (T->t[k - 1].kind == F_LPAR) - (T->t[k - 1].kind == F_RPAR);
        if (level > 0 || T->t[k].kind != F_SEP)
            continue;
        int shapes = 0;
        for (size_t j = s; j < k; j++)
            shapes |= is_member(&T->t[j]) ||
                      (j + 1 < k && T->t[j].kind == F_VAR && T->t[j].var <= V_V &&
                       T->t[j + 1].kind == F_ASSIGN && (j == s || T->t[j - 1].kind == F_COMMA ||
                                                        T->t[j - 1].kind == F_LPAR));
        if (shapes && run_complete(T, k + 1, e) == 2 && has_v(T, k + 1, e))
            s = k + 1;
        break;
    }
    /* shapes after a comma: "…V，Q∈R^{n×d_k}，K∈R^{m×d_k}" is a legend, not the formula */
    for (size_t k = s + 1; k + 2 < e; k++)
        if (T->t[k].kind == F_COMMA && (T->t[k + 1].kind == F_VAR || T->t[k + 1].kind == F_NAME) &&
            T->t[k + 2].len >= strlen("∈") && !strncmp(T->t[k + 2].text, "∈", strlen("∈"))) {
            e = k;
            break;
        }
    /* shapes in brackets after a whole formula: "…V （Q: n×d_k，K: m×d_k）", "…V (Q ∈ R^{n×d})"
     * is a legend, not a factor */
    for (size_t k = s + 1; k + 2 < e; k++)
        if (T->t[k].kind == F_LPAR && (T->t[k + 1].kind == F_VAR || T->t[k + 1].kind == F_NAME) &&
            (T->t[k + 2].kind == F_SEP ||
             (T->t[k + 2].len >= strlen("∈") && !strncmp(T->t[k + 2].text, "∈", strlen("∈")))) &&
            run_complete(T, s, k) == 2 && has_v(T, s, k)) {
            e = k;
            break;
        }
    /* what Q, K and V are, after a comma and a whole formula: "…V, Q=XWq K=XWk V=XWv",
     * "…V，Q K V 分别是 query key value 矩阵" is a legend, not a product QKV */
    for (size_t k = s + 1, depth = 0; k + 1 < e; k++) {
        depth += (T->t[k].kind == F_LPAR) - (T->t[k].kind == F_RPAR);
        if (depth || T->t[k].kind != F_COMMA || run_complete(T, s, k) != 2 || !has_v(T, s, k))
            continue;
        const ftoken *n1 = &T->t[k + 1], *n2 = &T->t[k + 2];
        int defines = n1->kind == F_VAR && n1->var <= V_V && n2->kind == F_ASSIGN;
        size_t j = k + 1;   /* the letters run on past e when "V 是…" was cut off it */
        while (j < T->n && ((T->t[j].kind == F_VAR && T->t[j].var <= V_V) || T->t[j].kind == F_COMMA))
            j++;
        int letters = j > k + 1 && j >= e && j < T->n &&
                      (legend_verb(&T->t[j]) || fq_name_is(&T->t[j], "are") ||
                       fq_name_is(&T->t[j], "is") || fq_name_is(&T->t[j], "stand") ||
                       fq_name_is(&T->t[j], "mean") || han_starts(&T->t[j], "分别") ||
                       han_starts(&T->t[j], "分別") || han_starts(&T->t[j], "係"));
        if (defines || letters) {
            e = k;
            break;
        }
    }
    while (e > s && trim_back(T->t[e - 1].kind))
        e--;
    /* statements of the run that hold no matrix ("… at 1: softmax(…)V") are words */
    run_sums rs;
    sums_make(&rs, T, s, e);
    for (size_t k = s; k < e; k++)
        if (T->t[k].kind == F_ASSIGN)
            break;   /* a definition (scale = 1/math.sqrt(d_k)) is part of the code */
        else if (T->t[k].kind == F_SEP && (!sums_score(&rs, s, k) || k == s + 1) && sums_score(&rs, k + 1, e))
            s = k + 1;   /* also a lone symbol before a colon: "… to weight V: softmax(…)V" */
    for (size_t k = e; k-- > s;)
        if (T->t[k].kind == F_SEP && !sums_score(&rs, k + 1, e) && sums_score(&rs, s, k))
            e = k;
    free(rs.s);
    free(rs.q);
    /* the steps told first, then the whole formula after a break: "先算 QKᵀ，除以 √dₖ，对每一行
     * 做 softmax，再乘 V：softmax(QKᵀ/√dₖ)V" is the formula after the colon */
    {
        int depth = 0;
        size_t brk = e, before = 0, after = 0;
        for (size_t k = s; k < e; k++) {
            depth += (T->t[k].kind == F_LPAR) - (T->t[k].kind == F_RPAR);
            if (!depth && T->t[k].kind == F_SEP) {
                brk = k;
                before += after;
                after = 0;
            } else if (!depth && T->t[k].kind == F_COMMA) {
                after++;
            }
        }
        if (brk < e && before && !after && run_complete(T, brk + 1, e) == 2 &&
            has_v(T, brk + 1, e))
            s = brk + 1;
    }
    /* A step after a whole formula that has its V is the start of a sentence about it:
     * "softmax(QKᵀ/√dₖ)V，除以根号dk是为了…" (a chain of steps ends on V: "…，再乘 V");
     * after a sentence break (—, ;) it is, whatever it names: "softmax(QKᵀ/√dₖ)V —— 先算 Q
     * 和 K 的点积…" tells the formula again in words. */
    for (int cut = 1; cut;) {
        cut = 0;
        int depth = 0;
        size_t last = e;
        for (size_t k = s; k < e; k++) {
            depth += (T->t[k].kind == F_LPAR) - (T->t[k].kind == F_RPAR);
            if (!depth && (T->t[k].kind == F_COMMA || T->t[k].kind == F_SEP))
                last = k;
        }
        /* …or a part of the formula with words after it says what it is:
         * "softmax(QKᵀ/√dₖ)V，QKᵀ 是 n×n 的打分矩阵", "…V, QK^T gives the scores" */
        if (last < e &&
            (T->t[last].kind == F_SEP || !qkv_in(T, last + 1, e) ||
             (e < T->n && !run_complete(T, last + 1, e))) &&
            run_complete(T, s, last) && has_v(T, s, last)) {
            e = last;
            cut = 1;
        }
    }
    *ps = s;
    *pe = e;
}

static int han_has(const ftoken *t, const char *s);
static int negating(const ftoken *t);

int fq_correcting(const ftoken *t)
{
    static const char *const w[] = {"wait", "actually", "sorry", "correction", "oops", "mean", "meant",
                                    "rather", "no", "go", "instead", "final", "scratch", "backwards",
                                    "thought"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (fq_name_is(t, w[i]))
            return 1;
    return han_has(t, "不对") || han_has(t, "应该") || han_has(t, "更正") || han_has(t, "改成") ||
           han_has(t, "其实") || han_has(t, "错了") || han_has(t, "写错") || han_has(t, "反过来") ||
           han_has(t, "说反") || han_has(t, "改为") || han_has(t, "最终") || han_has(t, "忘了");
}

/* Words at T->t[i] that take the formula before back: fq_correcting's, or "wrong",
 * "incorrect", 错的 said of it with the right one named within a few words ("… is wrong,
 * the right one is …", "…是错的，正确的是 …"); "wrong" alone may be a remark ("without it
 * the gradients go wrong"). */
static int takes_back(const ftokens *T, size_t i)
{
    const ftoken *t = &T->t[i];
    if (fq_correcting(t))
        return 1;
    if (!fq_name_is(t, "wrong") && !fq_name_is(t, "incorrect") && !han_has(t, "错的"))
        return 0;
    for (size_t k = i + (t->kind != F_HAN); k < T->n && k <= i + 6; k++)
        if (fq_name_is(&T->t[k], "right") || fq_name_is(&T->t[k], "correct") ||
            fq_name_is(&T->t[k], "should") || han_has(&T->t[k], "正确") || han_has(&T->t[k], "应为"))
            return 1;
    return 0;
}

/* Does a run of Chinese characters start with w? */
static int han_starts(const ftoken *t, const char *w)
{
    return t->kind == F_HAN && t->len >= strlen(w) && !memcmp(t->text, w, strlen(w));
}

/* Han words that say what a symbol before them is: 为, 是, 表示, 指, 代表, 即. */
static int legend_verb(const ftoken *t)
{
    static const char *const w[] = {"为", "是", "表示", "指", "代表", "即"};
    for (size_t i = 0; t->kind == F_HAN && i < sizeof w / sizeof *w; i++)
        if (t->len >= strlen(w[i]) && !memcmp(t->text, w[i], strlen(w[i])))
            return 1;
    return 0;
}

static int defines_after(const ftokens *T, size_t s, size_t a, size_t b, size_t from);

/* Is token k a dash between spaces that opens words, not a minus: a name (or a dotted
 * one) right after it and then a word of prose ("… V - I hope I got the transpose
 * right", "… V - F.scaled_dot_product_attention does exactly this")? */
static int dash_to_words(const ftokens *T, size_t k)
{
    if (T->t[k].kind != F_MINUS || !T->t[k].space_before || k + 2 >= T->n ||
        !T->t[k + 1].space_before || T->t[k + 1].kind != F_NAME)
        return 0;
    size_t j = k + 2;
    while (j + 1 < T->n && T->t[j].kind == F_DOT && T->t[j + 1].kind == F_NAME)
        j += 2;
    return j < T->n && T->t[j].kind == F_NAME && T->t[j].space_before && !is_math(T, j);
}

/* The next run of formula tokens at or after token from: [*s, *e); 0 when none is left. */
static int math_run(const ftokens *T, size_t from, size_t *s, size_t *e)
{
    while (from < T->n && !is_math(T, from))
        from++;
    if (from >= T->n)
        return 0;
    *s = *e = from;
    while (*e < T->n && is_math(T, *e) && (*e == from || !dash_to_words(T, *e)))
        (*e)++;
    return 1;
}

/* The run of tokens [*a, *b) that is the formula: of the runs that read as a whole
 * formula, the one that looks most like one (the later on a tie), or the first after
 * words that take it back ("… no wait, it's …"); else the one that looks most like a
 * formula; 0 if none. A definition of one of its names after it is none (it is read
 * into it). *prose: words outside it. */
static int find_formula(const ftokens *T, size_t *a, size_t *b, int *prose)
{
    int best = 0, complete = 0, taken_back = 0;
    size_t chain = 0;   /* where the formula or the last definition read into it ends */
    for (size_t i = 0, s, e; math_run(T, i, &s, &e);) {
        for (size_t k = i; k < s; k++)
            taken_back |= takes_back(T, k);
        i = e;
        /* "… V   d为每个头的维度": a symbol after a space and before 为, 是, 表示 opens a
         * legend of it; it is not a factor of the formula */
        if (e > s + 1 && e < T->n && T->t[e - 1].kind == F_VAR && T->t[e - 1].space_before &&
            legend_verb(&T->t[e]))
            e--;
        trim_run(T, &s, &e);
        if (best && s < e && defines_after(T, s, *a, *b, chain)) {
            chain = e;   /* "z_i = Σ_j α_ij v_j where α_ij = softmax_j(…)" (and "…，而 Z_i = …"
                          * of a name of that definition) */
            continue;
        }
        int score = s < e ? run_score(T, s, e) : 0;
        int whole = score ? run_complete(T, s, e) : 0;
        /* a formula after words that take the one before back replaces it, also one
         * without softmax ("on second thought there's no softmax: QKᵀV/√dₖ") */
        if (whole > complete || (whole && taken_back) || (whole && whole == complete && score >= best) ||
            (!complete && !whole && score > best)) {
            best = score;
            complete = whole;
            taken_back = 0;
            *a = s;
            *b = chain = e;
        }
    }
    *prose = 0;
    for (size_t k = 0; best && k < T->n; k++)
        if ((k < *a || k >= *b) && !is_math(T, k))
            *prose = 1;
    return best > 0;
}

/* A formula without V continued after words by "…, then times V" / "…，再乘以 V": the
 * token of that V, or 0. */
static size_t v_after_words(const ftokens *T, size_t a, size_t b)
{
    if (has_v(T, a, b))
        return 0;
    size_t k = b;   /* "…，得到的权重再去乘 V": words, commas and fillers, then × V (not
                     * "…，不用乘 V", which denies it) */
    for (; k < T->n && (!is_math(T, k) || T->t[k].kind == F_COMMA || T->t[k].kind == F_FILLER); k++)
        if (negating(&T->t[k]))
            return 0;
    if (k + 1 >= T->n + 1 || T->t[k].kind != F_MUL)
        return 0;
    for (k++; k < T->n && T->t[k].kind == F_FILLER; k++)
        ;
    size_t after = k + 1;   /* "对 V 加权求和": fillers after V too */
    while (after < T->n && T->t[after].kind == F_FILLER)
        after++;
    int ends = after >= T->n || !is_math(T, after) || T->t[after].kind == F_SEP || T->t[after].kind == F_COMMA;
    return k < T->n && T->t[k].kind == F_VAR && T->t[k].var == V_V && ends ? k : 0;
}

/* Remarks in the words around the formula that change what it says: softmax applied
 * to V ("the softmax is applied to V", "softmax 作用在 V 上"), softmax over the
 * columns ("按列", "over dim 0"). FQ_REMARK_* bits. */
static int han_has(const ftoken *t, const char *s)
{
    if (t->kind != F_HAN)
        return 0;
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= t->len; i++)
        if (!memcmp(t->text + i, s, n))
            return 1;
    return 0;
}

static int negating(const ftoken *t)
{
    static const char *const w[] = {"not", "never", "no", "instead"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (fq_name_is(t, w[i]))
            return 1;
    if (t->kind == F_NAME && t->len > 3 && !strncasecmp(t->text + t->len - 3, "n't", 3))
        return 1;
    return han_has(t, "不") || han_has(t, "没") || han_has(t, "非");
}

static int applying(const ftoken *t)
{
    static const char *const w[] = {"applied", "applies", "apply", "acts", "act", "operates", "taken"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (fq_name_is(t, w[i]))
            return 1;
    return t->kind == F_FILLER ? fq_name_is(t, "apply") || (t->len == 5 && !strncasecmp(t->text, "apply", 5))
                               : han_has(t, "作用") || han_has(t, "用在") || han_has(t, "施加");
}

/* Does "each", "every", "per" or 每个 stand right before token i ("softmax over the keys for
 * each query", 对每个query的所有key: one row a query, not the softmax over the queries)? */
static int each_before(const ftokens *T, size_t i)
{
    static const char *const w[] = {"each", "every", "per", "每个", "每一个", "每"};
    if (!i)
        return 0;
    const ftoken *b = &T->t[i - 1];
    for (size_t k = 0; b->text && k < sizeof w / sizeof *w; k++) {
        size_t n = strlen(w[k]);
        if (b->len >= n && !strncasecmp(b->text + b->len - n, w[k], n))
            return 1;
    }
    return 0;
}

static int column_word(const ftokens *T, size_t i)
{
    const ftoken *t = &T->t[i], *n = &T->t[i + 1];
    static const char *const w[] = {"column", "columns", "columnwise", "queries"};
    for (size_t k = 0; k < sizeof w / sizeof *w; k++)
        if (fq_name_is(t, w[k]))
            return 1;
    if ((fq_name_is(t, "dim") || fq_name_is(t, "axis") || han_has(t, "第")) &&
        (n->kind == F_NUM || (n->kind == F_ASSIGN && T->t[i + 2].kind == F_NUM)))
        return (n->kind == F_NUM ? n->num : T->t[i + 2].num) == 0;
    if (t->kind == F_VAR && t->var == V_Q && t->len > 1)
        return !each_before(T, i);   /* over the queries; "for each query" is a row */
    return han_has(t, "列") || (t->kind == F_FILLER && t->var == 2);
}

static unsigned find_remarks(const ftokens *T, size_t a, size_t b)
{
    unsigned r = 0;
    size_t start = 0;
    for (size_t i = 0; i <= T->n; i++) {
        enum ftok k = T->t[i].kind;
        if (k != F_COMMA && k != F_SEP && k != F_END && i != a)
            continue;
        size_t from = start, to = i;
        start = i == a ? b : i + 1;
        if (from >= a && from < b)
            continue;   /* the formula itself */
        int softmax = 0, verb = 0, neg = 0, column = 0, row = 0, key = 0, transpose = 0;
        for (size_t j = from; j < to; j++) {
            const ftoken *t = &T->t[j];
            key |= t->kind == F_VAR && t->var == V_K;
            transpose |= fq_name_is(t, "transposed") || fq_name_is(t, "transpose") ||
                         fq_name_is(t, "transposing") ||
                         (t->kind == F_TRANS && t->text && t->len >= strlen("转置") &&
                          !memcmp(t->text + t->len - strlen("转置"), "转置", strlen("转置")));
            softmax |= role_of(t) == R_SOFTMAX;
            neg |= negating(t);
            verb |= softmax && applying(t);
            column |= column_word(T, j);
            /* "對每一列（每個 query）": 列 is a row in Taiwan; the query named says which */
            row |= (t->kind == F_VAR && t->var == V_Q && each_before(T, j)) || fq_name_is(t, "row") ||
                   fq_name_is(t, "rows") || han_has(t, "每一行") || han_has(t, "按行") ||
                   han_has(t, "逐行");
            softmax |= t->kind == F_FILLER && t->var == 2;   /* "按列归一化" says it alone */
            if (softmax && verb && !neg && t->kind == F_VAR && t->var == V_V)
                r |= FQ_REMARK_ON_V;
        }
        if (softmax && column && !row && !neg)
            r |= FQ_REMARK_AXIS;
        if (key && transpose && !neg)   /* "（K 要转置）", "K transposed" */
            r |= FQ_REMARK_K_TRANSPOSED;
        if (i == a)
            i = b - 1;
    }
    return r;
}

/* A size the canonical formula does not hold, written where d_k belongs (n, d_model). */
static int other_size(const ftoken *t)
{
    return t->kind == F_VAR && (t->var == V_LEN || t->var == V_DMODEL);
}

/* Words that open a legend: where, with, here, 其中; 而, 并且, 以及, 另外 (and, whereas). */
static int legend_lead(const ftoken *t)
{
    static const char *const and[] = {"而", "而且", "并且", "以及", "且", "另外"};
    for (size_t k = 0; t->kind == F_HAN && k < sizeof and / sizeof *and; k++)
        if (t->len == strlen(and[k]) && !memcmp(t->text, and[k], t->len))
            return 1;
    return t->kind == F_FILLER || fq_name_is(t, "where") || fq_name_is(t, "with") ||
           fq_name_is(t, "here") || han_has(t, "其中");
}

static int holds_var(const ftokens *T, size_t a, size_t b, int var)
{
    for (size_t i = a; i < b; i++)
        if (T->t[i].kind == F_VAR && T->t[i].var == var)
            return 1;
    return 0;
}

/* A legend after the formula that says what one of its own sizes is ("where n is the
 * sequence length", "with n the number of tokens", "其中 n 是序列长度"): a clause that opens
 * with that symbol (after where, with, here, 其中) and names no other symbol. It says
 * what the formula's scale is, a slip the formula is graded on, so it is no remark for
 * the follow-up question. Sets *from and *to (bytes of the answer); 0 when none. */
static int find_legend(const ftokens *T, size_t a, size_t b, size_t *from, size_t *to)
{
    size_t start = b;
    for (size_t i = b; i <= T->n; i++) {
        enum ftok k = T->t[i].kind;
        if (k != F_COMMA && k != F_SEP && k != F_END)
            continue;
        size_t j = start;
        while (j < i && legend_lead(&T->t[j]))
            j++;
        int legend = j < i && other_size(&T->t[j]) && holds_var(T, a, b, T->t[j].var);
        for (size_t m = j + 1; legend && m < i; m++)
            legend = T->t[m].kind != F_VAR || T->t[m].var == T->t[j].var;
        if (legend) {
            *from = (size_t)T->t[start].at;
            *to = (size_t)T->t[i - 1].end;
            return 1;
        }
        start = i + 1;
    }
    return 0;
}

/* ---- parser ---- */

#define MAX_DEPTH 48
#define MAX_FORMULA_TOKENS 600
#define MAX_BIND 16

typedef struct fbinding {
    const char *s;      /* the name as typed, len bytes */
    size_t len;
    int node;
} fbinding;

typedef struct fparser {
    ftoken *t;          /* the formula's tokens without fillers, F_END last */
    size_t n, i;
    fformula *f;
    const char *answer;
    at_error *err;
    int depth, failed;  /* failed: the AT_E* code of the first error, 0 none */
    fbinding bind[MAX_BIND];
    int n_bind;
    int one_based;      /* the answer counts axes from 1 (ftokens.one_based) */
    int rows;           /* the answer loops over the queries (ftokens.rows) */
} fparser;

static const ftoken *peek(const fparser *p) { return &p->t[p->i]; }
static const ftoken *peek2(const fparser *p) { return &p->t[p->i + (p->i < p->n)]; }

static int perr_at(fparser *p, const ftoken *t, const char *fmt, const char *arg, int arg_len)
{
    if (!p->failed) {
        long chars = 0;   /* characters, not bytes, before the error */
        for (long k = 0; k < t->at && p->answer[k]; k++)
            chars += ((unsigned char)p->answer[k] & 0xc0) != 0x80;
        char what[200];
        snprintf(what, sizeof what, fmt, arg_len, arg ? arg : "");
        at_error_set(p->err, AT_EINVAL, "cannot read the formula at character %ld: %s", chars + 1, what);
        p->f->err_what = fmt;
        snprintf(p->f->err_arg, sizeof p->f->err_arg, "%.*s", arg_len < 63 ? arg_len : 63, arg ? arg : "");
        p->f->err_char = chars + 1;
        if (p->err)
            p->err->offset = t->at;
        p->failed = AT_EINVAL;
    }
    return -1;
}

static int node(fparser *p, fop op, int a, int b)
{
    if (p->failed || (op != N_NUM && op != N_VAR && op != N_OTHER && a < 0) ||
        ((op == N_MUL || op == N_DIV || op == N_POW || op == N_PLUS) && b < 0))
        return -1;
    fformula *f = p->f;
    if (f->n_node == f->cap) {
        int cap = f->cap ? 2 * f->cap : 64;
        fnode *nn = realloc(f->node, (size_t)cap * sizeof *nn);
        if (!nn) {
            at_error_set(p->err, AT_ENOMEM, "out of memory");
            p->failed = AT_ENOMEM;
            return -1;
        }
        f->node = nn;
        f->cap = cap;
    }
    f->node[f->n_node] = (fnode){.op = op, .a = a, .b = b};
    return f->n_node++;
}

static int num_node(fparser *p, double x)
{
    int n = node(p, N_NUM, -1, -1);
    if (n >= 0)
        p->f->node[n].num = x;
    return n;
}

/* what: a message with no conversion; it is its own template and msgid */
static int fail(fparser *p, const char *what)
{
    return perr_at(p, peek(p), what, NULL, 0);
}

static int parse_chain(fparser *p);
static int is_atom(const fparser *p, int n);
static int parse_unary(fparser *p);
static int parse_postfix(fparser *p);
static int term_rest(fparser *p, int acc);
static int sum_rest(fparser *p, int acc);

static int bound(const fparser *p, const ftoken *t);

/* "Q x K^T": a lone x between spaces is a times sign. */
static int times_x(const ftoken *t)
{
    /* (an operator, a bracket closing or an end after it: "W_q x + W_k x", x is a name) */
    enum ftok n = t->kind == F_NAME ? t[1].kind : F_END;
    return t->kind == F_NAME && t->len == 1 && t->text[0] == 'x' && t->space_before && t[1].space_before &&
           n != F_PLUS && n != F_MINUS && n != F_RPAR && n != F_COMMA && n != F_SEP && n != F_END &&
           n != F_DIV && n != F_MUL && n != F_ASSIGN;
}

static int starts_primary(const fparser *p, const ftoken *t)
{
    enum ftok k = t->kind;
    return k == F_NUM || k == F_VAR || k == F_LPAR || k == F_SQRT || k == F_FRAC || k == F_TRANS_PRE ||
           (k == F_NAME && role_of(t) != R_TRANSWORD && !times_x(t)) || (k == F_HAN && bound(p, t) >= 0);
}

static int expect_rpar(fparser *p)
{
    /* (two calls: each message is found for translation) */
    if (peek(p)->kind == F_END)
        return fail(p, "a closing parenthesis is missing");
    if (peek(p)->kind != F_RPAR)
        return fail(p, "a closing parenthesis is expected here");
    p->i++;
    return 0;
}

static int parse_group(fparser *p)
{
    if (peek(p)->kind != F_LPAR)
        return fail(p, "an opening parenthesis is expected");
    p->i++;
    int e = parse_chain(p);
    if (e < 0 || expect_rpar(p))
        return -1;
    return e;
}

/* The value of a small integer argument (dim=-1, transpose(-2, -1)); NAN if not one. */
static double const_value(const fparser *p, int n)
{
    if (n < 0)
        return NAN;
    const fnode *x = &p->f->node[n];
    if (x->op == N_NUM)
        return x->num;
    if (x->op == N_NEG)
        return -const_value(p, x->a);
    return NAN;
}

typedef struct fargs {
    int pos[4];
    int n_pos;
    double axis;        /* dim= / axis= (from 0), Julia's dims= (from 1, made from 0); NAN
                         * if not given, INFINITY for MATLAB's 'all' (every entry) */
    int braced[4];      /* the positional argument is in braces: Mathematica's level {2} */
    const ftoken *fn;   /* a function passed first by its name: Julia's sum(exp, S; dims=2) */
    int trans[2];       /* TensorFlow's transpose_a=True / transpose_b=True (adjoint_a/_b) */
} fargs;

/* MATLAB's [] for an argument left out: max(S, [], 2). */
static int empty_brackets(const fparser *p)
{
    return peek(p)->kind == F_LPAR && *peek(p)->text == '[' && peek2(p)->kind == F_RPAR;
}

/* ( [arg {, arg}] ): positional arguments and dim/axis/dims; other keywords are skipped;
 * MATLAB's 'all' and [] are no positional arguments. */
static int parse_args(fparser *p, fargs *A)
{
    *A = (fargs){.axis = NAN};
    if (peek(p)->kind != F_LPAR)
        return fail(p, "an opening parenthesis is expected");
    p->i++;
    if (peek(p)->kind == F_RPAR) {
        p->i++;
        return 0;
    }
    for (;;) {
        const ftoken *t = peek(p);
        if (t->kind == F_STRING && t->len == 3 && !strncmp(t->text, "all", 3)) {
            p->i++;   /* sum(E, 'all') */
            A->axis = INFINITY;
        } else if (empty_brackets(p)) {
            p->i += 2;
        } else if (!A->n_pos && !A->fn && t->kind == F_NAME && bound(p, t) < 0 &&
                   (role_of(t) == R_FUNC || role_of(t) == R_SQRT) &&
                   (peek2(p)->kind == F_COMMA || peek2(p)->kind == F_RPAR)) {
            A->fn = t;   /* sum(exp, S): the sum of exp(S) */
            p->i++;
        } else if (t->kind == F_NAME && peek2(p)->kind == F_ASSIGN) {   /* keyword argument */
            int dims = fq_name_is(t, "dims");
            int is_axis = fq_name_is(t, "dim") || fq_name_is(t, "axis") || dims;
            int tr = fq_name_is(t, "transpose_a") || fq_name_is(t, "adjoint_a")   ? 0
                   : fq_name_is(t, "transpose_b") || fq_name_is(t, "adjoint_b") ? 1 : -1;
            p->i += 2;
            if (tr >= 0 && peek(p)->kind == F_NAME &&
                (fq_name_is(peek(p), "True") || fq_name_is(peek(p), "true"))) {
                A->trans[tr] = 1;   /* tf.matmul(q, k, transpose_b=True): q kᵀ */
                p->i++;
            } else if (is_axis) {
                int v = parse_unary(p);
                if (v < 0)
                    return -1;
                A->axis = const_value(p, v) - dims;
            } else {
                int depth = 0;
                while (peek(p)->kind != F_END && (depth || (peek(p)->kind != F_COMMA && peek(p)->kind != F_RPAR))) {
                    depth += peek(p)->kind == F_LPAR;
                    depth -= peek(p)->kind == F_RPAR;
                    p->i++;
                }
            }
        } else {
            int braced = t->kind == F_LPAR && *t->text == '{';
            int e = parse_chain(p);
            if (e < 0)
                return -1;
            if (A->n_pos < 4) {
                A->braced[A->n_pos] = braced;
                A->pos[A->n_pos++] = e;
            }
        }
        if (peek(p)->kind == F_COMMA) {
            p->i++;
            continue;
        }
        return expect_rpar(p);
    }
}

static int need_args(fparser *p, const ftoken *name, const fargs *A, int n)
{
    if (A->n_pos >= n)
        return 0;
    return perr_at(p, name, "%.*s() needs its argument in the parentheses", name->text, (int)name->len);
}

/* Does axis (from 0) leave a row's softmax or sum right in a loop over the queries (the
 * row is one vector: NumPy's any axis, every entry, MATLAB's dim 2 but not its dim 1)? */
static int row_axis(const fparser *p, double axis)
{
    return p->rows && (isinf(axis) || !p->one_based);
}

static int softmax_node(fparser *p, int arg, double axis)
{
    int n = node(p, N_SOFTMAX, arg, -1);
    if (n >= 0)
        p->f->node[n].axis_bad = (axis == 0 || axis == -2 || isinf(axis)) && !row_axis(p, axis);
    return n;
}

static int func_node(fparser *p, const ftoken *name, int arg)
{
    int n = node(p, N_FUNC, arg, -1);
    if (n >= 0) {
        p->f->node[n].name = name->text;
        p->f->node[n].len = name->len;
        p->f->node[n].axis_bad = name->axis_bad;   /* Σ_i exp(q_i·k_j): over the queries */
    }
    return n;
}

/* A sum over the queries' axis (np.sum(…, axis=0), x.sum(-2)) or over every entry (MATLAB's
 * sum(E, 'all'), axis INFINITY): the normaliser of a softmax written out over the wrong
 * axis. n is the sum's node, axis its axis from 0 (NAN if none). */
static int sum_axis(fparser *p, int n, const ftoken *name, double axis)
{
    if (n >= 0 && fq_name_is(name, "sum") && (axis == 0 || axis == -2 || isinf(axis)) && !row_axis(p, axis))
        p->f->node[n].axis_bad = 1;
    return n;
}

/* A sum of arg along axis (from 0: 0 or 1) written with another name: R's rowSums(E),
 * Mathematica's Total[E, {2}]; it is read as sum(E, axis) is. The columns of a transpose
 * are the rows (Total[Transpose[E]]: each row's sum). */
static int sum_node(fparser *p, int arg, double axis)
{
    static const ftoken sum_name = {.kind = F_NAME, .text = "sum", .len = 3};
    if (arg >= 0 && p->f->node[arg].op == N_TRANS && (axis == 0 || axis == 1)) {
        arg = p->f->node[arg].a;
        axis = 1 - axis;
    }
    return sum_axis(p, func_node(p, &sum_name, arg), &sum_name, axis);
}

/* Is the call named by t (a token of the formula) of no module and no object: MATLAB's
 * sum(E, 2), not np.sum(E, 1) or E.sum(1)? */
static int bare_call(const fparser *p, const ftoken *t)
{
    return t >= p->t && t < p->t + p->n && (t == p->t || t[-1].kind != F_DOT);
}

/* The axis (from 0) a call's positional argument arg names: as written, or one less in a
 * call of no module in an answer that counts axes from 1 (MATLAB's sum(E, 2) is NumPy's
 * np.sum(E, 1)). NAN when it is no constant. */
static double positional_axis(const fparser *p, const ftoken *name, int arg)
{
    double v = const_value(p, arg);
    return p->one_based && bare_call(p, name) && v >= 1 ? v - 1 : v;
}

/* e^x: the exponential, exp(x). */
static int exp_node(fparser *p, int x)
{
    static const ftoken exp_name = {.kind = F_NAME, .text = "exp", .len = 3};
    return func_node(p, &exp_name, x);
}

/* The name e alone (not bound): Euler's number, in e^{…}. */
static int is_euler(const fparser *p, int n)
{
    const fnode *x = &p->f->node[n];
    return x->op == N_VAR && x->var == V_OTHER && x->sym_len == 1 && x->sym[0] == 'e';
}

static int parse_softmax_call(fparser *p, const ftoken *name);

/* softmax(x), softmax(x, dim=-1), nn.Softmax(dim=-1)(x), softmax \frac{…}{…}; softmax_i(…)
 * of the index form over the queries (the token's axis_bad) */
static int parse_softmax(fparser *p, const ftoken *name)
{
    int n = parse_softmax_call(p, name);
    if (n >= 0 && name->axis_bad)
        p->f->node[n].axis_bad = 1;
    return n;
}

/* A formula said in words after a softmax with no bracket ("soft max Q K T over square
 * root d k then multiply by V"): up to a comma, an operator said as a word (over, times,
 * 除以, 的转置). Typed symbols ("softmax QKᵀ/√d V") are read as they stand. */
static int dictated_after(const fparser *p)
{
    if (!peek(p)->space_before)
        return 0;
    for (size_t j = p->i; p->t[j].kind != F_END && p->t[j].kind != F_COMMA && p->t[j].kind != F_LPAR; j++) {
        enum ftok k = p->t[j].kind;
        unsigned char c = (unsigned char)p->answer[p->t[j].at];
        if ((k == F_MUL || k == F_DIV || k == F_TRANS || k == F_SQRT) && (isalpha(c) || c >= 0x80))
            return 1;
    }
    return 0;
}

static int parse_softmax_call(fparser *p, const ftoken *name)
{
    if (peek(p)->kind == F_LPAR) {
        fargs A;
        if (parse_args(p, &A))
            return -1;
        double axis = A.axis;
        if (!A.n_pos && peek(p)->kind == F_LPAR) {   /* a module called on its input */
            fargs B;
            if (parse_args(p, &B))
                return -1;
            A.pos[0] = B.pos[0];
            A.n_pos = B.n_pos;
        }
        if (need_args(p, name, &A, 1))
            return -1;
        if (A.n_pos > 1 && isnan(axis))
            axis = positional_axis(p, name, A.pos[1]);
        return softmax_node(p, A.pos[0], axis);
    }
    if ((name->var == 1 || dictated_after(p)) && starts_primary(p, peek(p))) {
        /* "softmax of": up to a comma */
        /* said in words, "softmax of Q K transpose over root d k times V": a last "times V"
         * (再乘 V)
         * in words multiplies the softmax, as "sine of x times y" does the sine (a
         * softmax of V inside is no formula anyone says) */
        size_t j = p->i, mul = SIZE_MAX;
        for (int depth = 0; p->t[j].kind != F_END && (depth || p->t[j].kind != F_COMMA); j++) {
            depth += (p->t[j].kind == F_LPAR) - (p->t[j].kind == F_RPAR);
            unsigned char c = (unsigned char)p->answer[p->t[j].at];
            if (!depth && p->t[j].kind == F_MUL && (isalpha(c) || c >= 0x80))   /* times, 乘 */
                mul = j;
        }
        int cut = mul != SIZE_MAX && mul + 2 == j && p->t[mul + 1].kind == F_VAR && p->t[mul + 1].var == V_V;
        if (cut)
            p->t[mul].kind = F_END;   /* the argument ends there; the "times" is put back */
        int arg = sum_rest(p, term_rest(p, parse_unary(p)));
        if (cut)
            p->t[mul].kind = F_MUL;
        return softmax_node(p, arg, NAN);
    }
    if (starts_primary(p, peek(p)))
        return softmax_node(p, parse_postfix(p), NAN);
    return perr_at(p, name, "%.*s of what? Put what it acts on in parentheses", name->text, (int)name->len);
}

/* A function of the role table, its name just read. */
/* The last two letters of an einsum operand ("bhid" → "id"); 0 if fewer. */
static int last_two(const char *s, size_t n, char out[2])
{
    int k = 0;
    for (size_t i = n; i-- > 0 && k < 2;)
        if (isalpha((unsigned char)s[i]))
            out[1 - k++] = s[i];
    return k == 2;
}

/* torch.einsum('id,jd->ij', Q, K): a product of two matrices, transposed as the
 * subscripts say (the axes before the last two are batch axes). */
static int parse_einsum(fparser *p, const ftoken *name)
{
    if (peek(p)->kind != F_LPAR || peek2(p)->kind != F_STRING)
        return perr_at(p, name, "%.*s needs its subscripts, as in einsum('id,jd->ij', Q, K)",
                       name->text, (int)name->len);
    const ftoken *spec = &p->t[p->i + 1];
    p->i += 2;
    int m[2] = {-1, -1};
    for (int k = 0; k < 2; k++) {
        if (peek(p)->kind != F_COMMA)
            return fail(p, "einsum takes two matrices here");
        p->i++;
        if ((m[k] = parse_chain(p)) < 0)
            return -1;
    }
    if (expect_rpar(p))
        return -1;
    const char *s = spec->text, *comma = memchr(s, ',', spec->len), *arrow = strstr(s, "->");
    char x[2], y[2], o[2];
    if (!comma || !arrow || arrow > s + spec->len || !last_two(s, (size_t)(comma - s), x) ||
        !last_two(comma + 1, (size_t)(arrow - comma - 1), y) ||
        !last_two(arrow + 2, spec->len - (size_t)(arrow + 2 - s), o))
        return perr_at(p, spec, "einsum subscripts '%.*s' are not a product of two matrices",
                       spec->text, (int)spec->len);
    char c = x[0] == y[0] || x[0] == y[1] ? x[0] : x[1];   /* the contracted index */
    if ((c != y[0] && c != y[1]) || c == o[0] || c == o[1])
        return perr_at(p, spec, "einsum subscripts '%.*s' are not a product of two matrices",
                       spec->text, (int)spec->len);
    char row = c == x[1] ? x[0] : x[1], col = c == y[0] ? y[1] : y[0];
    int a = c == x[1] ? m[0] : node(p, N_TRANS, m[0], -1);
    int b = c == y[0] ? m[1] : node(p, N_TRANS, m[1], -1);
    int prod = node(p, N_MUL, a, b);
    if (o[0] == row && o[1] == col)
        return prod;
    if (o[0] == col && o[1] == row)
        return node(p, N_TRANS, prod, -1);
    return perr_at(p, spec, "einsum subscripts '%.*s' are not a product of two matrices",
                   spec->text, (int)spec->len);
}

/* A fill value written as code: float('-inf'), -float("inf"), -np.inf, -torch.inf,
 * torch.finfo(x.dtype).min: names of no matrix, strings, numbers, signs, dots and
 * brackets up to the argument's end. Passed over: 1; else 0, nothing read. */
static int fill_value(fparser *p)
{
    size_t i = p->i;
    int depth = 0, fill = 0;
    for (;; i++) {
        const ftoken *t = &p->t[i];
        if (t->kind == F_END)
            return 0;
        if (!depth && (t->kind == F_COMMA || t->kind == F_RPAR))
            break;
        depth += (t->kind == F_LPAR) - (t->kind == F_RPAR);
        if (t->kind == F_NAME) {
            if (!(fq_name_is(t, "float") || fq_name_is(t, "inf") || fq_name_is(t, "np") ||
                  fq_name_is(t, "torch") || fq_name_is(t, "math") || fq_name_is(t, "finfo") ||
                  fq_name_is(t, "min") || fq_name_is(t, "dtype") || fq_name_is(t, "numpy") ||
                  fq_name_is(t, "x") || fq_name_is(t, "scores")))
                return 0;
            fill |= fq_name_is(t, "float") || fq_name_is(t, "inf") || fq_name_is(t, "finfo");
        } else if (t->kind != F_STRING && t->kind != F_MINUS && t->kind != F_DOT &&
                   t->kind != F_LPAR && t->kind != F_RPAR && t->kind != F_NUM) {
            return 0;
        }
    }
    if (!fill)
        return 0;
    p->i = i;
    return 1;
}

/* np.where(mask, scores, -1e9), torch.where(mask == 0, -inf, scores): a mask applied to
 * the scores. The condition is passed over (as masked_fill's); the branch that is no
 * constant is what flows on. At the '(' after the name; the node, or -1. */
static int parse_where(fparser *p, const ftoken *name)
{
    p->i++;   /* ( */
    int depth = 0;
    while (peek(p)->kind != F_END && (depth || peek(p)->kind != F_COMMA)) {
        depth += (peek(p)->kind == F_LPAR) - (peek(p)->kind == F_RPAR);
        if (depth < 0)
            break;
        p->i++;
    }
    if (peek(p)->kind != F_COMMA)
        return perr_at(p, name, "%.*s() needs a condition and two values", name->text, (int)name->len);
    p->i++;
    int a = fill_value(p) ? num_node(p, -1e9) : parse_chain(p);
    if (a < 0)
        return -1;
    if (peek(p)->kind != F_COMMA)
        return perr_at(p, name, "%.*s() needs a condition and two values", name->text, (int)name->len);
    p->i++;
    int b = fill_value(p) ? num_node(p, -1e9) : parse_chain(p);
    if (b < 0 || expect_rpar(p))
        return -1;
    return isnan(const_value(p, a)) ? a : b;
}

/* A function passed by its name: softmax, Exp, SoftmaxLayer[], nn.Softmax(), MATLAB's
 * handle @rdivide. Its name's token (the tokens are passed), or NULL when none stands here. */
static const ftoken *function_ref(fparser *p)
{
    if (peek(p)->kind == F_MUL && *peek(p)->text == '@')
        p->i++;
    while (role_of(peek(p)) == R_MODULE && peek2(p)->kind == F_DOT)
        p->i += 2;
    const ftoken *f = peek(p);
    if (f->kind != F_NAME)
        return NULL;
    p->i++;
    while (peek(p)->kind == F_LPAR && peek2(p)->kind == F_RPAR)
        p->i += 2;   /* SoftmaxLayer[], nn.Softmax() */
    return f;
}

/* Does the function named by f give one number of a row (a sum, a maximum), not a row? */
static int reduces(const ftoken *f)
{
    enum frole r = role_of(f);
    return r == R_TOTAL || r == R_ROWSUM || fq_name_is(f, "sum") || fq_name_is(f, "max") ||
           fq_name_is(f, "maximum") || fq_name_is(f, "mean") || fq_name_is(f, "min");
}

/* The function f (passed by name) applied to x along axis (from 0: the rows' 1). */
static int apply_ref(fparser *p, const ftoken *f, int x, double axis)
{
    switch (role_of(f)) {
    case R_SOFTMAX: return softmax_node(p, x, axis);
    case R_SQRT: return node(p, N_SQRT, x, -1);
    case R_TRANSPOSE:
    case R_TRANSWORD: return node(p, N_TRANS, x, -1);
    case R_IDENTITY: return x;
    case R_TOTAL:
    case R_ROWSUM: return sum_node(p, x, axis);
    default: return sum_axis(p, func_node(p, f, x), f, axis);
    }
}

/* Every sum under node n made one over the queries' axis (a function applied to columns). */
static void sums_over_columns(fparser *p, int n, int depth)
{
    if (n < 0 || depth > MAX_DEPTH)
        return;
    fnode *x = &p->f->node[n];
    if (x->op == N_FUNC && x->len == 3 && !strncasecmp(x->name, "sum", 3))
        x->axis_bad = 1;
    sums_over_columns(p, x->a, depth + 1);
    sums_over_columns(p, x->b, depth + 1);
}

/* R's apply(S, margin, function(r) body) at "function": the body of one expression read
 * with r bound to S and its sums of one row (of one column for margin 2: over the queries'
 * axis); by rows, each result becomes a column, so a row the body gives is transposed
 * (t(apply(S, 1, …)) undoes it). The node, or -1. */
static int apply_lambda(fparser *p, int x, double margin)
{
    p->i++;
    if (peek(p)->kind != F_LPAR || peek2(p)->kind != F_NAME || p->t[p->i + 2].kind != F_RPAR)
        return fail(p, "apply() needs a function of one row");
    const ftoken *r = &p->t[p->i + 1];
    p->i += 3;
    if (p->n_bind >= MAX_BIND)
        return fail(p, "the formula is too long");
    p->bind[p->n_bind++] = (fbinding){r->text, r->len, x};
    int rows = p->rows;
    p->rows = 1;
    int body = sum_rest(p, term_rest(p, parse_unary(p)));
    p->rows = rows;
    p->n_bind--;
    if (body < 0 || expect_rpar(p))
        return -1;
    if (margin == 2)
        sums_over_columns(p, body, 0);
    const fnode *b = &p->f->node[body];
    int reduced = b->op == N_FUNC && b->len == 3 && !strncasecmp(b->name, "sum", 3);
    return margin == 1 && !reduced ? node(p, N_TRANS, body, -1) : body;
}

/* The matrix languages' calls that take a function or an operator and apply it by rows,
 * at the '(' after the name:
 *   Map[f, S]                  Mathematica: f of each row
 *   mapslices(f, S; dims=2)    Julia: f of each row (dims=1: of each column)
 *   apply(S, 1, f)             R: f of each row (2: of each column); a row that f gives
 *                              (softmax) becomes a column, so the result is transposed
 *   bsxfun(@rdivide, A, B)     MATLAB: A ./ B (@times, @minus, @plus likewise)
 *   sweep(E, 1, s, "/")        R: each row of E divided by its entry of s (2: each column)
 * The node, or -1. */
static int parse_by_rows(fparser *p, const ftoken *name, enum frole role)
{
    p->i++;   /* ( */
    const ftoken *f = NULL;
    int x = -1, y = -1, mathematica = role == R_MAP && fq_name_is(name, "Map");
    double margin = role == R_MAP ? NAN : 1;
    if (role == R_MAP || role == R_BSXFUN) {
        if (!(f = function_ref(p)) || peek(p)->kind != F_COMMA)
            return perr_at(p, name, "%.*s() needs a function and a matrix", name->text, (int)name->len);
        p->i++;
    }
    if ((x = parse_chain(p)) < 0)
        return -1;
    if (role == R_APPLY || role == R_SWEEP || role == R_BSXFUN) {
        if (peek(p)->kind != F_COMMA)
            return perr_at(p, name, "%.*s() needs a function and a matrix", name->text, (int)name->len);
        p->i++;
        int m = role == R_BSXFUN ? (y = parse_chain(p)) : parse_unary(p);
        if (m < 0)
            return -1;
        margin = role == R_BSXFUN ? 1 : const_value(p, m);
    }
    if (role == R_APPLY || role == R_SWEEP) {
        if (peek(p)->kind != F_COMMA)
            return perr_at(p, name, "%.*s() needs a function and a matrix", name->text, (int)name->len);
        p->i++;
        if (role == R_APPLY && fq_name_is(peek(p), "function"))
            return apply_lambda(p, x, margin);
        /* (sweep's statistic is one expression: the "/" after it is no step of a chain) */
        if (role == R_APPLY ? !(f = function_ref(p)) : (y = sum_rest(p, term_rest(p, parse_unary(p)))) < 0)
            return f || p->failed ? -1 : perr_at(p, name, "%.*s() needs a function and a matrix",
                                                 name->text, (int)name->len);
    }
    /* the rest: Julia's dims=, sweep's operator ("/", FUN = "/"), other arguments passed */
    enum ftok op = role == R_SWEEP ? F_MINUS : F_END;
    for (int depth = 0; peek(p)->kind != F_END && (depth || peek(p)->kind != F_RPAR); p->i++) {
        const ftoken *t = peek(p);
        depth += (t->kind == F_LPAR) - (t->kind == F_RPAR);
        if (!depth && fq_name_is(t, "dims") && peek2(p)->kind == F_ASSIGN && p->t[p->i + 2].kind == F_NUM)
            margin = p->t[p->i + 2].num;
        if (!depth && role == R_SWEEP && (t->kind == F_DIV || t->kind == F_MUL || t->kind == F_PLUS))
            op = t->kind;
    }
    if (expect_rpar(p))
        return -1;
    /* the axis f runs along, from 0: Map's the rows', mapslices' dims less one, apply's
     * and sweep's margin 1 the rows', 2 the columns' */
    double axis = mathematica ? 1 : role == R_MAP ? margin - 1 : margin == 1 ? 1 : margin == 2 ? 0 : NAN;
    switch (role) {
    case R_BSXFUN:
        if (fq_name_is(f, "rdivide"))
            return node(p, N_DIV, x, y);
        if (fq_name_is(f, "ldivide"))
            return node(p, N_DIV, y, x);
        if (fq_name_is(f, "times"))
            return node(p, N_MUL, x, y);
        if (fq_name_is(f, "plus") || fq_name_is(f, "minus"))
            return node(p, N_PLUS, x, fq_name_is(f, "minus") ? node(p, N_NEG, y, -1) : y);
        return perr_at(p, f, "unknown function '%.*s'", f->text, (int)f->len);
    case R_SWEEP: {
        const fnode *s = &p->f->node[y];
        if (axis == 0 && s->op == N_FUNC)
            p->f->node[y].axis_bad = 1;   /* the columns divided by a row's sum */
        return op == F_DIV ? node(p, N_DIV, x, y) : op == F_MUL ? node(p, N_MUL, x, y)
             : node(p, N_PLUS, x, op == F_PLUS ? y : node(p, N_NEG, y, -1));
    }
    case R_APPLY: {
        int r = apply_ref(p, f, x, axis);
        return axis == 1 && !reduces(f) ? node(p, N_TRANS, r, -1) : r;
    }
    default: return apply_ref(p, f, x, axis);
    }
}

static int parse_call(fparser *p, const ftoken *name, enum frole role)
{
    fargs A;
    if (role == R_SOFTMAX)
        return parse_softmax(p, name);
    if (role == R_EINSUM)
        return parse_einsum(p, name);
    if (peek(p)->kind != F_LPAR) {
        if ((role == R_SQRT || role == R_FUNC || role == R_TRANSWORD) && starts_primary(p, peek(p))) {
            int x = parse_postfix(p);    /* sqrt d_k, root d_k, \exp x */
            return role == R_SQRT ? node(p, N_SQRT, x, -1)
                 : role == R_FUNC ? func_node(p, name, x) : node(p, N_TRANS, x, -1);
        }
        /* a type named as a value, no call: tf.cast(d_k, tf.float32) (cast keeps its first
         * argument; the type is read and dropped) */
        if (role == R_IDENTITY && (fq_name_is(name, "float32") || fq_name_is(name, "float64") ||
                                   fq_name_is(name, "float") || fq_name_is(name, "double") ||
                                   fq_name_is(name, "int")))
            return num_node(p, 1);
        return perr_at(p, name, "%.*s needs an argument", name->text, (int)name->len);
    }
    if (role == R_WHERE)
        return parse_where(p, name);
    if (role == R_BSXFUN || role == R_MAP || role == R_APPLY || role == R_SWEEP)
        return parse_by_rows(p, name, role);
    if (parse_args(p, &A))
        return -1;
    switch (role) {
    case R_SQRT: return need_args(p, name, &A, 1) ? -1 : node(p, N_SQRT, A.pos[0], -1);
    case R_RSQRT:
        return need_args(p, name, &A, 1) ? -1 : node(p, N_DIV, num_node(p, 1), node(p, N_SQRT, A.pos[0], -1));
    case R_MATMUL:
        if (need_args(p, name, &A, 2))
            return -1;
        return node(p, N_MUL, A.trans[0] ? node(p, N_TRANS, A.pos[0], -1) : A.pos[0],
                    A.trans[1] ? node(p, N_TRANS, A.pos[1], -1) : A.pos[1]);
    case R_DIV: return need_args(p, name, &A, 2) ? -1 : node(p, N_DIV, A.pos[0], A.pos[1]);
    case R_POW: return need_args(p, name, &A, 2) ? -1 : node(p, N_POW, A.pos[0], A.pos[1]);
    case R_TRANSPOSE:
    case R_TRANSWORD: return need_args(p, name, &A, 1) ? -1 : node(p, N_TRANS, A.pos[0], -1);
    case R_IDENTITY: return need_args(p, name, &A, 1) ? -1 : A.pos[0];
    case R_INV: return need_args(p, name, &A, 1) ? -1 : node(p, N_DIV, num_node(p, 1), A.pos[0]);
    case R_TOTAL: {
        if (need_args(p, name, &A, 1))
            return -1;
        /* level {2} (or {-1}): each row's sum; no level (the first: the rows added up), a
         * level k (levels 1 to k), Infinity: over the queries' axis or every entry */
        double level = A.n_pos > 1 ? const_value(p, A.pos[1]) : NAN;
        int rows = A.n_pos > 1 && A.braced[1] && (level == 2 || level == -1);
        if (A.n_pos > 1 && !A.braced[1])
            return sum_node(p, A.pos[0], INFINITY);
        return sum_node(p, A.pos[0], rows);
    }
    case R_ROWSUM:
    case R_COLSUM: return need_args(p, name, &A, 1) ? -1 : sum_node(p, A.pos[0], role == R_ROWSUM);
    case R_TCROSS:     /* tcrossprod(A, B): A Bᵀ; tcrossprod(A): A Aᵀ */
        if (need_args(p, name, &A, 1))
            return -1;
        return node(p, N_MUL, A.pos[0], node(p, N_TRANS, A.pos[A.n_pos > 1], -1));
    case R_CROSS:      /* crossprod(A, B): Aᵀ B */
        if (need_args(p, name, &A, 1))
            return -1;
        return node(p, N_MUL, node(p, N_TRANS, A.pos[0], -1), A.pos[A.n_pos > 1]);
    case R_NCOL: {     /* ncol(K): the width of the keys */
        if (need_args(p, name, &A, 1))
            return -1;
        const fnode *x = &p->f->node[A.pos[0]];
        int n = node(p, x->op == N_VAR && (x->var == V_Q || x->var == V_K) ? N_VAR : N_OTHER, -1, -1);
        if (n >= 0)
            p->f->node[n].var = V_DK;
        return n;
    }
    default: {
        if (need_args(p, name, &A, 1))
            return -1;
        if (A.fn && (A.pos[0] = apply_ref(p, A.fn, A.pos[0], NAN)) < 0)
            return -1;   /* Julia's sum(exp, S; dims=2): sum(exp(S); dims=2) */
        double axis = !isnan(A.axis) ? A.axis : A.n_pos > 1 ? positional_axis(p, name, A.pos[1]) : NAN;
        /* sum(S(:)), sum(exp(S(:))), sum(vec(S)): every entry (the flattening goes) */
        for (int *at = &A.pos[0]; fq_name_is(name, "sum") && *at >= 0 && p->f->node[*at].op == N_FUNC;
             at = &p->f->node[*at].a) {
            const fnode *x = &p->f->node[*at];
            if ((x->len == 3 && !strncasecmp(x->name, "vec", 3)) ||
                (x->len == 7 && !strncasecmp(x->name, "flatten", 7))) {
                *at = x->a;
                axis = INFINITY;
                break;
            }
        }
        /* sum(E) with no axis in MATLAB adds the rows up (over the first axis), in R and
         * Julia every entry: neither is each row's sum */
        if (isnan(axis) && A.n_pos == 1 && p->one_based && bare_call(p, name) && name->var != 3 &&
            !name->index)
            axis = INFINITY;
        return sum_axis(p, func_node(p, name, A.pos[0]), name, axis);
    }
    }
}

static int bound(const fparser *p, const ftoken *t)
{
    for (int k = p->n_bind - 1; k >= 0; k--)
        if (p->bind[k].len == t->len && !strncmp(p->bind[k].s, t->text, t->len))
            return p->bind[k].node;
    return -1;
}

/* The name of an additive mask: M, mask, attn_mask, attention_mask. */
static int mask_name(const ftoken *t)
{
    return fq_name_is(t, "M") || fq_name_is(t, "mask") || fq_name_is(t, "attn_mask") ||
           fq_name_is(t, "attention_mask");
}

/* Do the tokens from p->i spell pattern: words (names, case aside), X (Q or K), [ ] for
 * brackets, N for a number, - ? The count of tokens, 0 when they do not. */
static size_t spells(const fparser *p, const char *const *pattern)
{
    size_t k = p->i;
    for (size_t w = 0; pattern[w]; w++, k++) {
        const ftoken *t = &p->t[k];
        const char *x = pattern[w];
        int ok = !strcmp(x, "[") ? t->kind == F_LPAR
               : !strcmp(x, "]") ? t->kind == F_RPAR
               : !strcmp(x, "X") ? t->kind == F_VAR && (t->var == V_Q || t->var == V_K)
               : !strcmp(x, "-") ? t->kind == F_MINUS
               : isdigit((unsigned char)*x) ? t->kind == F_NUM && t->num == *x - '0'
               : fq_name_is(t, x);
        if (!ok || t->kind == F_END)
            return 0;
    }
    return k - p->i;
}

/* The width of Q or K, d_k, as Mathematica writes it (Last[Dimensions[K]], Dimensions[K][[2]]
 * or [[-1]], Length[First[K]], Length[K[[1]]]) and R (dim(K)[2]). Its tokens are passed and
 * a node of d_k made; -1 and nothing passed when none stands at p->i. */
static int width_call(fparser *p)
{
    static const char *const forms[][12] = {
        {"dim", "[", "X", "]", "[", "2", "]", NULL},
        {"Last", "[", "Dimensions", "[", "X", "]", "]", NULL},
        {"Dimensions", "[", "X", "]", "[", "[", "2", "]", "]", NULL},
        {"Dimensions", "[", "X", "]", "[", "[", "-", "1", "]", "]", NULL},
        {"Length", "[", "First", "[", "X", "]", "]", NULL},
        {"Length", "[", "X", "[", "[", "1", "]", "]", "]", NULL},
    };
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        size_t n = spells(p, forms[f]);
        if (n) {
            p->i += n;
            int d = node(p, N_VAR, -1, -1);
            if (d >= 0)
                p->f->node[d].var = V_DK;
            return d;
        }
    }
    return -1;
}

static int parse_name(fparser *p)
{
    const ftoken *name = peek(p);
    int b = bound(p, name);
    if (b < 0 && (b = width_call(p)) >= 0)
        return b;
    p->i++;
    if (b >= 0)
        return b;
    enum frole role = role_of(name);
    if (peek(p)->kind == F_OTHER && peek(p)->len == 2 && !strncmp(peek(p)->text, "/@", 2) &&
        role != R_NONE) {
        p->i++;   /* Mathematica's Map written f /@ S: f of each row */
        return apply_ref(p, name, parse_unary(p), 1);
    }
    if (role == R_MODULE) {   /* np.sqrt, torch.nn.functional.softmax, self.d_k */
        if (peek(p)->kind != F_DOT)
            return perr_at(p, name, "'%.*s' alone means nothing here", name->text, (int)name->len);
        p->i++;
        return peek(p)->kind == F_NAME ? parse_name(p) : parse_postfix(p);
    }
    if (role == R_ATTENTION && peek(p)->kind == F_LPAR) {   /* "… = Attention(Q, K, V)" */
        int depth = 0;
        do {
            depth += (peek(p)->kind == F_LPAR) - (peek(p)->kind == F_RPAR);
            p->i++;
        } while (depth > 0 && peek(p)->kind != F_END);
        if (depth)
            return fail(p, "a closing parenthesis is missing");
        int n = node(p, N_OTHER, -1, -1);
        if (n >= 0) {   /* the formula's name, not the formula, unless it is defined */
            p->f->node[n].sym = name->text;
            p->f->node[n].sym_len = name->len;
        }
        return n;
    }
    if (role == R_NONE || role == R_ATTENTION) {
        if (peek(p)->kind == F_LPAR && role == R_NONE)
            return parse_call(p, name, R_FUNC);   /* an unknown function: named in the feedback */
        /* another symbol: a mask (M, mask), or a matrix that has no place here (W_q, x) */
        int n = node(p, N_VAR, -1, -1);
        if (n >= 0) {
            p->f->node[n].var = mask_name(name) ? V_MASK : V_OTHER;
            p->f->node[n].sym = name->text;
            p->f->node[n].sym_len = name->len;
        }
        return n;
    }
    if (role == R_SIZE && peek(p)->kind == F_LPAR) {   /* size(K, 2), np.size(K, -1) */
        fargs A;
        if (parse_args(p, &A) || need_args(p, name, &A, 1))
            return -1;
        const fnode *x = &p->f->node[A.pos[0]];
        double axis = A.n_pos > 1 ? positional_axis(p, name, A.pos[1]) : NAN;
        int width = x->op == N_VAR && (x->var == V_Q || x->var == V_K) && (axis == 1 || axis == -1);
        int n = node(p, width ? N_VAR : N_OTHER, -1, -1);
        if (n >= 0)
            p->f->node[n].var = V_DK;
        return n;
    }
    if (role == R_SHAPE || role == R_SIZE || role == R_TATTR)
        return perr_at(p, name, "'%.*s' of what?", name->text, (int)name->len);
    return parse_call(p, name, role);
}

static int parse_primary(fparser *p)
{
    const ftoken *t = peek(p);
    int n;
    if (++p->depth > MAX_DEPTH) {
        p->depth--;
        return fail(p, "the formula is nested too deeply");
    }
    switch (t->kind) {
    case F_NUM:
        p->i++;
        n = num_node(p, t->num);
        break;
    case F_VAR:
        if (t->len == 1 && *t->text == 'N' && peek2(p)->kind == F_LPAR && *peek2(p)->text == '[' &&
            !peek2(p)->space_before) {
            p->i++;   /* Mathematica's N[…]: the number a result comes to, the same formula */
            n = parse_group(p);
            break;
        }
        p->i++;
        n = node(p, N_VAR, -1, -1);
        if (n >= 0) {
            p->f->node[n].var = t->var;
            p->f->node[n].sym = t->text;
            p->f->node[n].sym_len = t->len;
        }
        break;
    case F_LPAR: n = parse_group(p); break;
    case F_NAME: n = parse_name(p); break;
    case F_SQRT:
        p->i++;
        n = node(p, N_SQRT, peek(p)->kind == F_LPAR ? parse_group(p) : parse_postfix(p), -1);
        break;
    case F_TRANS_PRE:
        p->i++;
        n = node(p, N_TRANS, parse_postfix(p), -1);
        break;
    case F_FRAC: {
        p->i++;
        int a = peek(p)->kind == F_LPAR ? parse_group(p) : parse_primary(p);
        int b = a < 0 ? -1 : peek(p)->kind == F_LPAR ? parse_group(p) : parse_primary(p);
        n = node(p, N_DIV, a, b);
        break;
    }
    case F_END: n = fail(p, "the formula ends too early"); break;
    case F_RPAR: n = fail(p, "a parenthesis closes that was never opened"); break;
    case F_HAN:
        if ((n = bound(p, t)) >= 0) {
            p->i++;
            break;
        }
        /* fall through */
    case F_OTHER:
    case F_STRING:
        n = perr_at(p, t, "unknown symbol '%.*s'", t->text, (int)t->len);
        break;
    default: n = fail(p, "a matrix, d_k, softmax or sqrt is expected here");
    }
    p->depth--;
    return n;
}

/* After "x.": T, t(), transpose(…), softmax(…), matmul(y), shape[-1], size(-1), … */
static int parse_member(fparser *p, int x)
{
    const ftoken *name = peek(p);
    enum frole role = role_of(name);
    p->i++;
    fargs A = {.axis = NAN};
    if (role == R_MASKED && peek(p)->kind == F_LPAR) {   /* scores.masked_fill(mask == 0, -inf) */
        int depth = 0;
        do {
            depth += (peek(p)->kind == F_LPAR) - (peek(p)->kind == F_RPAR);
            p->i++;
        } while (depth > 0 && peek(p)->kind != F_END);
        return depth ? fail(p, "a closing parenthesis is missing") : x;
    }
    int has_args = peek(p)->kind == F_LPAR && role != R_SHAPE && role != R_TATTR;
    if (has_args && parse_args(p, &A))
        return -1;
    const fnode *xn = &p->f->node[x];
    int qk = xn->op == N_VAR && (xn->var == V_Q || xn->var == V_K);
    switch (role) {
    case R_TATTR: return node(p, N_TRANS, x, -1);
    case R_TRANSPOSE:
    case R_TRANSWORD: return node(p, N_TRANS, x, -1);
    case R_SOFTMAX:
        return softmax_node(p, x, !isnan(A.axis) ? A.axis : A.n_pos ? const_value(p, A.pos[0]) : NAN);
    case R_MATMUL: return need_args(p, name, &A, 1) ? -1 : node(p, N_MUL, x, A.pos[0]);
    case R_DIV: return need_args(p, name, &A, 1) ? -1 : node(p, N_DIV, x, A.pos[0]);
    case R_POW: return need_args(p, name, &A, 1) ? -1 : node(p, N_POW, x, A.pos[0]);
    case R_SQRT: return node(p, N_SQRT, x, -1);
    case R_RSQRT: return node(p, N_DIV, num_node(p, 1), node(p, N_SQRT, x, -1));
    case R_IDENTITY: return x;
    case R_FUNC:
        return sum_axis(p, func_node(p, name, x), name,
                        !isnan(A.axis) ? A.axis : A.n_pos ? const_value(p, A.pos[0]) : NAN);
    case R_SHAPE:
    case R_SIZE: {
        double idx = A.n_pos ? const_value(p, A.pos[0]) : NAN;
        if (role == R_SHAPE || (!A.n_pos && peek(p)->kind == F_LPAR)) {
            if (peek(p)->kind != F_LPAR)
                return fail(p, "shape needs an index, as in K.shape[-1]");
            p->i++;
            int e = parse_unary(p);
            if (e < 0 || expect_rpar(p))
                return -1;
            idx = const_value(p, e);
        }
        if (qk && idx != 0 && idx != -2) {
            int n = node(p, N_VAR, -1, -1);
            if (n >= 0)
                p->f->node[n].var = V_DK;
            return n;
        }
        return node(p, N_OTHER, -1, -1);
    }
    default:
        return perr_at(p, name, "unknown method '%.*s'", name->text, (int)name->len);
    }
}

/* The exponent after ^ or **: 0.5, -0.5, {1/2}, (-1/2), -1/2 written without spaces. */
static int parse_exponent(fparser *p)
{
    int neg = peek(p)->kind == F_MINUS;
    p->i += neg;
    int e;
    if (peek(p)->kind == F_NUM && p->t[p->i + 1].kind == F_DIV && !p->t[p->i + 1].space_before &&
        p->t[p->i + 2].kind == F_NUM && !p->t[p->i + 2].space_before) {
        double a = peek(p)->num, b = p->t[p->i + 2].num;
        p->i += 3;
        e = num_node(p, b != 0 ? a / b : NAN);
    } else {
        e = peek(p)->kind == F_LPAR ? parse_group(p) : parse_primary(p);
    }
    return neg ? node(p, N_NEG, e, -1) : e;
}

/* Mathematica's '.' before a function of its own, called with '[': Q.Transpose[K],
 * w.Exp[…] is a matrix product, not a method (Python calls a method with '(' and gives it a
 * name in lower case); so is a '.' before a name the answer defined (V.A). */
static int dot_product_call(const fparser *p)
{
    const ftoken *d = peek(p), *f = peek2(p);
    if (d->kind != F_DOT || f->kind != F_NAME)
        return 0;
    if (role_of(f) == R_NONE && bound(p, f) >= 0)
        return 1;   /* V.A: A a name of the answer's, no method */
    if (f->len < 2 || !isupper((unsigned char)f->text[0]))
        return 0;
    const ftoken *b = f + 1;   /* f is no F_END: b is within the tokens */
    return b->kind == F_LPAR && *b->text == '[' && !b->space_before;
}

static int parse_postfix(fparser *p)
{
    int n = parse_primary(p);
    while (n >= 0) {
        const ftoken *t = peek(p);
        if (t->kind == F_TRANS) {
            p->i++;
            n = node(p, N_TRANS, n, -1);
        } else if (t->kind == F_SQRT_POST) {
            p->i++;
            n = node(p, N_SQRT, n, -1);
        } else if (role_of(t) == R_TRANSWORD && peek2(p)->kind != F_LPAR) {
            p->i++;      /* K transpose, K transposed */
            n = node(p, N_TRANS, n, -1);
        } else if (t->kind == F_POW) {
            p->i++;
            int e = parse_exponent(p);
            n = is_euler(p, n) ? exp_node(p, e) : node(p, N_POW, n, e);
        } else if (t->kind == F_DOT && peek2(p)->kind == F_NAME && !dot_product_call(p)) {
            p->i++;
            n = parse_member(p, n);
        } else if (t->kind == F_LPAR && !t->space_before && *t->text == '(' && peek2(p)->kind == F_SEP &&
                   *peek2(p)->text == ':' && p->t[p->i + 2].kind == F_RPAR) {
            static const ftoken vec = {.kind = F_NAME, .text = "vec", .len = 3};
            p->i += 3;   /* MATLAB's S(:): every entry in one column */
            n = func_node(p, &vec, n);
        } else {
            break;
        }
    }
    return n;
}

static int parse_unary(fparser *p)
{
    if (peek(p)->kind == F_MINUS) {
        p->i++;
        return node(p, N_NEG, parse_unary(p), -1);
    }
    if (peek(p)->kind == F_PLUS)
        p->i++;
    return parse_postfix(p);
}

/* "softmax" standing after what it applies to: "…, 做 softmax, 再乘 V". */
static int softmax_after(const fparser *p)
{
    const ftoken *t = peek(p), *n = peek2(p);
    return role_of(t) == R_SOFTMAX && n->kind != F_LPAR && !starts_primary(p, n);
}

static int term_rest(fparser *p, int acc)
{
    while (acc >= 0) {
        const ftoken *t = peek(p);
        if (t->kind == F_DOTMUL) {   /* dot products of the rows: A Bᵀ */
            p->i++;
            int b = parse_unary(p);
            acc = node(p, N_MUL, acc, b >= 0 && p->f->node[b].op == N_TRANS ? b : node(p, N_TRANS, b, -1));
        } else if (t->kind == F_MUL || t->kind == F_DIV || (times_x(t) && starts_primary(p, peek2(p)))) {
            p->i++;
            acc = node(p, t->kind == F_DIV ? N_DIV : N_MUL, acc, parse_unary(p));
        } else if ((t->kind == F_DOT && peek2(p)->kind == F_VAR) || dot_product_call(p)) {
            p->i++;      /* Q.K^T, Q.Transpose[K]: a dot for the product */
            acc = node(p, N_MUL, acc, parse_postfix(p));
        } else if (softmax_after(p)) {
            p->i++;
            acc = softmax_node(p, acc, NAN);
        } else if (starts_primary(p, t) && !((t->kind == F_NAME || t->kind == F_HAN) &&
                                             peek2(p)->kind == F_ASSIGN)) {
            /* juxtaposition: QK, softmax(…)V; not "… then out_i = …", the next statement */
            acc = node(p, N_MUL, acc, parse_postfix(p));
        } else {
            break;
        }
    }
    return acc;
}

static int sum_rest(fparser *p, int acc)
{
    while (acc >= 0 && (peek(p)->kind == F_PLUS || peek(p)->kind == F_MINUS)) {
        int minus = peek(p)->kind == F_MINUS;
        p->i++;
        int b = term_rest(p, parse_unary(p));
        acc = node(p, N_PLUS, acc, minus ? node(p, N_NEG, b, -1) : b);
    }
    return acc;
}

/* An expression, and the steps that follow it after commas: "…，再除以根号 d_k",
 * "…, softmax, then times V". */
static int parse_chain(fparser *p)
{
    if (++p->depth > MAX_DEPTH) {
        p->depth--;
        return fail(p, "the formula is nested too deeply");
    }
    int e = sum_rest(p, term_rest(p, parse_unary(p)));
    while (e >= 0 && peek(p)->kind == F_COMMA) {
        enum ftok k = peek2(p)->kind;
        if (k == F_MUL || k == F_DIV || k == F_DOTMUL) {
            p->i++;
        } else {
            p->i++;
            if (!softmax_after(p) || is_atom(p, e)) {   /* "V, softmax, …" is a list */
                p->i--;
                break;
            }
        }
        e = sum_rest(p, term_rest(p, e));
    }
    p->depth--;
    return e;
}

/* Does the tree under n use Q, K or V? (seen: one flag per node) */
static int uses_matrix(const fparser *p, int n, unsigned char *seen)
{
    if (n < 0 || seen[n])
        return 0;
    seen[n] = 1;
    const fnode *x = &p->f->node[n];
    return (x->op == N_VAR && (x->var == V_Q || x->var == V_K || x->var == V_V)) || uses_matrix(p, x->a, seen) || uses_matrix(p, x->b, seen);
}

/* name = expression, Attention(Q, K, V) = …, 注意力 = …, or an expression. */
static int parse_statement(fparser *p)
{
    size_t j = p->i;
    while (p->t[j].kind == F_NAME || p->t[j].kind == F_HAN || p->t[j].kind == F_VAR)
        j++;
    if (j > p->i && p->t[j].kind == F_LPAR) {
        int depth = 0;
        do {
            depth += (p->t[j].kind == F_LPAR) - (p->t[j].kind == F_RPAR);
            j++;
        } while (depth > 0 && p->t[j].kind != F_END);
    }
    const ftoken *lhs = NULL, *symbol = NULL;
    enum ftok op = F_END;
    if (j > p->i && (p->t[j].kind == F_MUL || p->t[j].kind == F_DIV || p->t[j].kind == F_PLUS ||
                     p->t[j].kind == F_MINUS) &&
        p->t[j + 1].kind == F_ASSIGN && !p->t[j + 1].space_before && p->t[p->i].kind == F_NAME) {
        op = p->t[j].kind;      /* W /= W.sum(-1): W = W / W.sum(-1); S -= S.max(-1) */
        j++;
    }
    if (j > p->i && p->t[j].kind == F_ASSIGN) {
        lhs = peek(p);
        if (lhs->kind == F_HAN && j > p->i + 1 && p->t[j - 1].kind == F_NAME)
            symbol = &p->t[j - 1];   /* 权重 a_ij = …: the symbol after its label */
        p->i = j + 1;
    }
    enum ftok after = p->t[p->i + (p->i < p->n)].kind;
    if (role_of(peek(p)) == R_SOFTMAX && (after == F_COMMA || after == F_SEP || after == F_END)) {
        p->i++;                 /* "softmax" alone, as in a list of words */
        return node(p, N_OTHER, -1, -1);
    }
    int e = parse_chain(p);
    if (lhs && lhs->kind == F_HAN && e >= 0 && p->n_bind < MAX_BIND)
        p->bind[p->n_bind++] = (fbinding){lhs->text, lhs->len, e};
    if (symbol && e >= 0 && p->n_bind < MAX_BIND)
        p->bind[p->n_bind++] = (fbinding){symbol->text, symbol->len, e};
    if (op != F_END && e >= 0) {
        int b = bound(p, lhs);
        e = b < 0             ? fail(p, "a name is updated before it is defined")
            : op == F_MUL     ? node(p, N_MUL, b, e)
            : op == F_DIV     ? node(p, N_DIV, b, e)
            : op == F_PLUS    ? node(p, N_PLUS, b, e)
                              : node(p, N_PLUS, b, node(p, N_NEG, e, -1));
    }
    if (e >= 0 && lhs && lhs->kind == F_NAME && p->n_bind < MAX_BIND)
        p->bind[p->n_bind++] = (fbinding){lhs->text, lhs->len, e};
    return e;
}

/* A symbol alone: Q, d_k, sqrt(d_k), a word. */
static int is_atom(const fparser *p, int n)
{
    const fnode *x = &p->f->node[n];
    return x->op == N_VAR || x->op == N_NUM || x->op == N_OTHER || (x->op == N_SQRT && is_atom(p, x->a));
}

/* Do tokens a and b hold the same name? */
static int same_name(const ftoken *a, const ftoken *b)
{
    return a->kind == F_NAME && b->kind == F_NAME && a->len == b->len && !strncmp(a->text, b->text, a->len);
}

/* "out = np.exp(s) / np.exp(s).sum(-1) @ V, where s = Q @ K.T / np.sqrt(d_k)": a name
 * defined in a later statement than the first that uses it (and defined nowhere before)
 * is a definition given after; its statement moves before that use, with its separator.
 * Returns 0, or -1 out of memory. */
static int definitions_first(fparser *p)
{
    enum { MAX_STMT = 32 };
    for (int round = 0; round < MAX_STMT; round++) {
        size_t start[MAX_STMT + 1], n_st = 0;
        int depth = 0;
        start[n_st++] = 0;
        for (size_t i = 0; i < p->n && n_st < MAX_STMT; i++) {
            enum ftok k = p->t[i].kind;
            depth += (k == F_LPAR) - (k == F_RPAR);
            if (!depth && (k == F_SEP || k == F_COMMA) && i + 1 < p->n)
                start[n_st++] = i + 1;
        }
        start[n_st] = p->n + 1;   /* one past a separator that is not there */
        size_t from = 0, st = 0;
        for (size_t s = 1; s < n_st && !from; s++) {
            const ftoken *lhs = &p->t[start[s]];
            if (lhs->kind != F_NAME || p->t[start[s] + 1].kind != F_ASSIGN)
                continue;
            for (size_t u = 0; u < s && !from; u++) {
                size_t a = start[u], b = start[u + 1] - 1;
                if (same_name(&p->t[a], lhs) && p->t[a + 1].kind == F_ASSIGN)
                    break;   /* defined before */
                /* (after its own name, or from its start: "Σ_j α_ij v_j where α_ij = …") */
                for (size_t i = a + (p->t[a + 1].kind == F_ASSIGN ? 2 : 0); i < b && !from; i++)
                    if (same_name(&p->t[i], lhs) && p->t[i + 1].kind != F_ASSIGN) {
                        from = u + 1;
                        st = s;
                    }
            }
        }
        if (!from)
            return 0;
        /* statements [from - 1, st) then st: st (and the separator before it) goes first */
        size_t a = start[from - 1], m = start[st], e = start[st + 1] - 1;   /* e: its end */
        ftoken *moved = malloc((e - a) * sizeof *moved);
        if (!moved)
            return -1;
        size_t n = 0;
        for (size_t i = m; i < e; i++)
            moved[n++] = p->t[i];
        moved[n++] = p->t[m - 1];   /* the separator */
        for (size_t i = a; i + 1 < m; i++)
            moved[n++] = p->t[i];
        memcpy(&p->t[a], moved, n * sizeof *moved);
        free(moved);
    }
    return 0;
}

static int parse_program(fparser *p)
{
    int answer = -1, atom_answer = -1, last = -1, n_stmt = 0, n_atoms = 0;
    unsigned char *seen = NULL;
    if (definitions_first(p)) {
        at_error_set(p->err, AT_ENOMEM, "out of memory");
        p->failed = AT_ENOMEM;
        return -1;
    }
    for (;;) {
        while (peek(p)->kind == F_SEP || peek(p)->kind == F_COMMA || peek(p)->kind == F_ASSIGN)
            p->i++;
        if (peek(p)->kind == F_END)
            break;
        int e = parse_statement(p);
        if (e < 0)
            goto out;
        enum ftok k = peek(p)->kind;
        int next = (k == F_NAME || k == F_HAN) && peek2(p)->kind == F_ASSIGN;   /* "… then out_i = …" */
        if (k != F_SEP && k != F_COMMA && k != F_END && k != F_ASSIGN && !next) {
            fail(p, k == F_RPAR ? "a parenthesis closes that was never opened" : "unexpected symbol");
            e = -1;
            goto out;
        }
        free(seen);
        seen = calloc((size_t)p->f->n_node + 1, 1);
        if (!seen) {
            at_error_set(p->err, AT_ENOMEM, "out of memory");
            p->failed = AT_ENOMEM;
            goto out;
        }
        last = e;
        if (uses_matrix(p, e, seen))   /* "…V，Q、K、V 分别是…": the formula, not a symbol */
            *(is_atom(p, e) ? &atom_answer : &answer) = e;
        n_stmt++;
        n_atoms += is_atom(p, e);
    }
    if (last < 0)
        fail(p, "there is no formula");
    else   /* "Q, K, V, softmax, sqrt(d_k)": a list of symbols, not a formula */
        p->f->is_list = n_stmt >= 3 && n_atoms >= n_stmt - 1 && answer < 0;
    if (answer < 0)
        answer = atom_answer;
    if (n_stmt == 1 && last >= 0 && p->f->node[last].op == N_OTHER &&
        p->f->node[last].sym) {   /* "F.scaled_dot_product_attention(q, k, v)" alone */
        p->f->named = p->f->node[last].sym;
        p->f->named_len = p->f->node[last].sym_len;
    }
out:
    free(seen);
    if (p->failed)
        return -1;
    return answer >= 0 ? answer : last;
}

/* Words between a formula and the definitions given after it: where, with, and, let, a
 * comma. */
static int definition_gap(const ftoken *t)
{
    return legend_lead(t) || t->kind == F_COMMA || fq_name_is(t, "and") || fq_name_is(t, "let") ||
           t->kind == F_CONJ;
}

/* Is the run at s a definition of a name the formula [a, b) uses, given after it as
 * definitions_after reads one ("z_i = Σ_j α_ij v_j where α_ij = …"), or of a name the
 * definitions read so far use (they run from b to from)? */
static int defines_after(const ftokens *T, size_t s, size_t a, size_t b, size_t from)
{
    if (from < b)
        from = b;
    if (s < from || s - from > 4 || T->t[s].kind != F_NAME || T->t[s + 1].kind != F_ASSIGN)
        return 0;
    for (size_t k = from; k < s; k++)
        if (!definition_gap(&T->t[k]))
            return 0;
    for (size_t k = a; k < from; k++)
        if (same_name(&T->t[k], &T->t[s]) && T->t[k + 1].kind != F_ASSIGN)
            return 1;
    return 0;
}

/* Definitions given in words after the formula [a, b) of names it uses: "softmax(S)V,
 * where S = QKᵀ/√dₖ", "… @ V with s = Q @ K.T / np.sqrt(d_k)". Each is a run of math
 * that opens with the name and "=", after no more than three words that open a legend
 * (where, with, and, 其中) or commas. The mask's own made of numbers alone ("M = 0 or
 * -inf") gives its entries and is passed over; one with a matrix ("M = QKᵀ") is put in.
 * Their runs [def_a, def_b), at most max; returns how many. */
static size_t definitions_after(const ftokens *T, size_t a, size_t b, size_t *def_a, size_t *def_b,
                                size_t max)
{
    size_t n = 0, k = b;
    while (n < max && k < T->n) {
        size_t gap = 0;
        while (k < T->n && gap < 4 && definition_gap(&T->t[k]))
            k++, gap++;
        if (k + 1 >= T->n || T->t[k].kind != F_NAME || T->t[k + 1].kind != F_ASSIGN)
            break;
        int used = 0;   /* by the formula, or by a definition before this one ("…, α_ij =
                         * exp(s_ij)/Σ_l exp(s_il), s_ij = q_i·k_j/√d_k") */
        for (size_t i = a; i < b && !used; i++)
            used = same_name(&T->t[i], &T->t[k]) && T->t[i + 1].kind != F_ASSIGN;
        for (size_t m = 0; m < n && !used; m++)
            for (size_t i = def_a[m] + 2; i < def_b[m] && !used; i++)
                used = same_name(&T->t[i], &T->t[k]) && T->t[i + 1].kind != F_ASSIGN;
        if (!used)
            break;
        size_t e = k + 2;
        while (e < T->n && is_math(T, e) && T->t[e].kind != F_SEP &&
               !(T->t[e].kind == F_COMMA && e + 1 < T->n && !is_math(T, e + 1)) &&
               !(T->t[e].kind == F_COMMA && e + 2 < T->n && T->t[e + 1].kind == F_NAME &&
                 T->t[e + 2].kind == F_ASSIGN))   /* ", M = …": the next definition */
            e++;
        while (e > k + 2 && trim_back(T->t[e - 1].kind))
            e--;
        if (e <= k + 2)
            break;
        const ftoken *name = &T->t[k];
        int entries = mask_name(name);
        for (size_t i = k + 2; i < e && entries; i++)   /* numbers, signs, inf, or: no matrix */
            entries = T->t[i].kind == F_NUM || T->t[i].kind == F_MINUS ||
                      T->t[i].kind == F_PLUS || T->t[i].kind == F_DIV ||
                      T->t[i].kind == F_COMMA || T->t[i].kind == F_FILLER ||
                      T->t[i].kind == F_OTHER ||
                      (T->t[i].kind == F_NAME &&
                       (fq_name_is(&T->t[i], "inf") || fq_name_is(&T->t[i], "infinity") ||
                        fq_name_is(&T->t[i], "∞") || fq_name_is(&T->t[i], "or") ||
                        fq_name_is(&T->t[i], "或") || fq_name_is(&T->t[i], "and")));
        if (entries) {
            k = e;   /* "M = 0 or -inf": the mask's entries, not an expression to put in */
            continue;
        }
        def_a[n] = k;
        def_b[n++] = e;
        k = e;
    }
    return n;
}

/* Does the run [s, e) use a name the formula [a, b) defines (name = …)? */
static int uses_defined(const ftokens *T, size_t a, size_t b, size_t s, size_t e)
{
    for (size_t k = a; k < b; k++)
        for (size_t m = s; T->t[k + 1].kind == F_ASSIGN && m < e; m++)
            if (same_name(&T->t[k], &T->t[m]) && T->t[m + 1].kind != F_ASSIGN)
                return 1;
    return 0;
}

/* A formula [a, b) without V, words, then a statement that applies a name it defines to
 * a matrix ("α_ij = …, and the output is z_i = Σ_j α_ij v_j"; "weights: a_ij = …; output:
 * o_i = Σ_j a_ij v_j"): the formula goes on there, and is graded with it (also when the
 * matrix is not V). The first run from `from` that holds Q, K or V is that statement or
 * there is none; its run [*ua, *ub), or 0. */
static int use_after(const ftokens *T, size_t a, size_t b, size_t from, size_t *ua, size_t *ub)
{
    if (has_v(T, a, b))
        return 0;
    for (size_t i = from, s, e; math_run(T, i, &s, &e);) {
        i = e;
        trim_run(T, &s, &e);
        if (s >= e || !qkv_in(T, s, e))
            continue;
        if (!uses_defined(T, a, b, s, e))
            return 0;
        *ua = s;
        *ub = e;
        return 1;
    }
    return 0;
}

int fq_parse(const char *answer, int whole, fformula *f, at_error *err)
{
    memset(f, 0, sizeof *f);
    f->root = -1;
    at_error_clear(err);
    ftokens T;
    int rc = fq_tokenize(answer, &T, err);
    if (rc)
        return rc;
    fq_refusal no;
    int def = whole ? 0 : fq_unwrap_def(&T, answer, &no);
    if (def >= 0 && !whole && fq_unwrap_loop(&T) < 0)
        def = -1;
    if (def < 0) {   /* a function it cannot read: the answer is refused, naming where */
        fparser p = {.answer = answer, .err = err, .f = f};
        if (def == -2)
            perr_at(&p, &(ftoken){.at = no.at}, no.why, no.arg, no.arg_len);
        fq_tokens_free(&T);
        f->end = strlen(answer);
        return def == -1 ? at_error_set(err, AT_ENOMEM, "out of memory") : AT_EINVAL;
    }
    if (!whole)
        fq_projections(T.t, &T.n);   /* (X W_Q) is Q before the formula is looked for */
    size_t a = 0, b = T.n;
    int found = whole ? T.n > 0 : find_formula(&T, &a, &b, &f->explained);
    f->text = T.text;
    T.text = NULL;
    if (!found) {
        size_t n = T.n;
        f->start = f->end = 0;
        f->explained = f->no_formula = n > 0;   /* words only: "I don't know", 不知道 */
        fq_tokens_free(&T);
        return n ? AT_OK : at_error_set(err, AT_EINVAL, "%s",
                                        QZ_N_("the answer is empty: write the formula"));
    }
    size_t v_tail = whole ? 0 : v_after_words(&T, a, b);
    if (T.elementwise)
        f->remarks |= FQ_REMARK_ELEMENTWISE;
    if (!whole) {
        f->remarks |= find_remarks(&T, a, b);
        f->has_legend = find_legend(&T, a, b, &f->legend_start, &f->legend_end);
    }
    f->start = (size_t)T.t[a].at;
    f->end = (size_t)T.t[b - 1].end;
    size_t def_a[5], def_b[5], n_def = whole ? 0 : definitions_after(&T, a, b, def_a, def_b, 4), extra = 0;
    if (!whole && !v_tail && use_after(&T, a, b, n_def ? def_b[n_def - 1] : b, &def_a[n_def], &def_b[n_def]))
        n_def++;   /* the statement that applies the formula's weights, after words */
    for (size_t d = 0; d < n_def; d++)
        extra += def_b[d] - def_a[d] + 1;
    fparser p = {.answer = answer, .err = err, .f = f, .one_based = T.one_based, .rows = T.rows};
    p.t = malloc((b - a + 1 + extra) * sizeof *p.t);
    if (!p.t) {
        fq_tokens_free(&T);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    for (size_t i = a; i < b; i++) {
        if (T.t[i].kind == F_FILLER && T.t[i].var == 2)
            f->remarks |= FQ_REMARK_AXIS;   /* "softmax over the columns of (…)" */
        if (T.t[i].kind != F_FILLER)
            p.t[p.n++] = T.t[i];
    }
    for (size_t d = 0; d < n_def; d++) {   /* "…, where S = QKᵀ/√dₖ": its statement after; also
                                            * "…, and the output is z_i = Σ_j α_ij v_j" */
        p.t[p.n] = T.t[def_a[d]];
        p.t[p.n].kind = F_SEP;
        p.n++;
        for (size_t i = def_a[d]; i < def_b[d]; i++)
            if (T.t[i].kind != F_FILLER)
                p.t[p.n++] = T.t[i];
        f->end = (size_t)T.t[def_b[d] - 1].end;
    }
    p.t[p.n] = T.t[b];
    p.t[p.n].kind = F_END;
    p.t[p.n].at = (long)f->end;
    if (!whole)
        fq_drop_restatement(p.t, &p.n);
    if (!whole)
        fq_define_symbol(&T, b, p.t, p.n);
    int corrected = whole ? 0 : fq_correct_symbol(&T, b, &p.t, &p.n);
    f->corrected = corrected > 0;
    if (!whole && (corrected < 0 || fq_per_query(&p.t, &p.n) < 0)) {
        free(p.t);
        fq_tokens_free(&T);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    if (p.n > MAX_FORMULA_TOKENS) {
        p.i = MAX_FORMULA_TOKENS;
        fail(&p, "the formula is too long");
    } else {
        f->root = parse_program(&p);
        if (f->root >= 0 && v_tail) {   /* the V that follows the words */
            int v = node(&p, N_VAR, -1, -1);
            if (v >= 0)
                f->node[v].var = V_V;
            f->root = node(&p, N_MUL, f->root, v);
            f->end = (size_t)T.t[v_tail].end;
        }
    }
    free(p.t);
    fq_tokens_free(&T);
    if (f->root < 0)
        return p.failed ? p.failed : at_error_set(err, AT_EINVAL, "the formula cannot be read");
    return AT_OK;
}

void fq_formula_free(fformula *f)
{
    free(f->node);
    free(f->text);
    memset(f, 0, sizeof *f);
}
