/* The formula grader: reads a formula as students type it and compares it
 * structurally with a canonical form (Vaswani et al. 2017, eq. 1:
 * Attention(Q, K, V) = softmax(QKᵀ / √d_k) V).
 *
 * Notations read (and any mix of them):
 *   Unicode    softmax(QKᵀ/√dₖ)·V, Q×Kᵀ÷√(dₖ), σ(…) for sigmoid
 *   ASCII      softmax(Q K^T / sqrt(d_k)) V, softmax((Q*K')/sqrt(dk))*V, d_k^0.5, d_k^(-1/2)
 *   LaTeX      $…$, $$…$$, \[…\], \(…\), \begin{equation}; \left( \right) and the other
 *              sizing commands; \operatorname{softmax}, \text{…}, \mathrm{…}, \mathbf{Q};
 *              \frac{QK^\top}{\sqrt{d_k}}, \frac1{…}, ^{T}, ^\top, ^{\mathsf T}, ^\intercal,
 *              \cdot, \times, d_{k}, d_{\text{k}}
 *   full width （）／＊＝，√ｄｋ as a Chinese input method types them; 。、【】
 *   code       Python, NumPy, PyTorch: @, *, **, .T, .mT, .t(), .transpose(-2, -1),
 *              .permute(…), np.transpose, math/np/torch.sqrt, torch.rsqrt, pow(…),
 *              torch.matmul, np.matmul, np.dot, torch.bmm, a.matmul(b),
 *              F.softmax(…, dim=-1), torch.softmax, x.softmax(-1), nn.Softmax(dim=-1)(…),
 *              scipy.special.softmax(…, axis=-1), torch.tensor(…)/float(…) as wrappers,
 *              K.shape[-1] / K.size(-1) as d_k, torch.einsum('id,jd->ij', Q, K),
 *              masked_fill, several statements (scores = Q @ K.T / np.sqrt(d_k);
 *              weights = softmax(scores); weights @ V; W /= W.sum(-1)), the softmax
 *              written out (exp(S - max) / sum(exp(…)), Σ, \sum_j; over the queries'
 *              axis when its sum is: W.sum(axis=0)), a function (def attn(q, k, v): …
 *              return …) read as the lines of its body, its parameters as the matrices
 *              they are bound to (formula_def.c)
 *   words      English: times, multiplied by, over, divided by, divide A by B, (the)
 *              square root of, root, transpose(d), K-transpose, the transpose of, softmax
 *              of, the dot products of A and B (A Bᵀ), then, x for times;
 *              Chinese: 乘以, 乘, 右乘, 除以, 根号, 根号下, 的平方根, 开根号, 的转置, 转置,
 *              A 和/与 B 相乘 / 做矩阵乘法 (A B), A 与 B 的点积 (A Bᵀ), 再, 然后, 后, 做, 过;
 *              a comma or an arrow (→, ->) may go between the steps ("Q 乘以 K 的转置，再除以
 *              根号 d_k", "QKᵀ/√dₖ → softmax → ×V"); the softmax's axis in words (over the
 *              keys, row-wise, 按行; over the columns, 按列 is a slip)
 *   matrix     MATLAB, Octave: K', K.', .* ./ .^, exp(S)./sum(exp(S),2) (max(S,[],2)
 *   languages  subtracted; sum(E,1), sum(E), sum(E,'all'), sum(E(:)) are no row's sum),
 *              bsxfun(@rdivide, …), size(K,2), % comments, function out = f(Q,K,V) … end,
 *              f = @(Q,K,V) …; Julia: exp.(S), .- ./, softmax(S; dims=2), sum(…, dims=2),
 *              maximum, √dk, mapslices, function … end; R: t(K), %*%, <-, rowSums,
 *              colSums, tcrossprod, apply(S, 1, f), sweep, ncol(K), f <- function(…) {…};
 *              Mathematica: Q.Transpose[K], K\[Transpose], Sqrt[dk], Exp[S]/Total[Exp[S],
 *              {2}] (Total[E], Total[E, 2]: not each row's), SoftmaxLayer[][…], Map, /@, w.V,
 *              // N, (* … *), f[q_, k_, v_] := Module[{…}, …]; a loop over the queries
 *              (for i in range(n): … out[i] = w @ V; for i = 1:n … out(i,:) = w*V; end) read
 *              as its body, Q[i] or Q(i,:) as Q; axes counted from 1 in these languages
 *   index      the per-query form: a_ij = exp(q_i·k_j/√d_k) / Σ_l exp(q_i·k_l/√d_k),
 *              out_i = Σ_j a_ij v_j; α_ij, \alpha_{ij}, a_{i,j}, e^{…}, softmax_j(…), q_iᵀk_j,
 *              k_j·q_i, ⟨q_i, k_j⟩, <q_i, k_j>, Σ_j', \sum_{l=1}^{n}, named scores (e_ij, then
 *              e_il); a named normaliser (out_i = Σ_j [exp(q_i·k_j/√d_k) / Z_i] v_j, Z_i = Σ_j
 *              exp(…), or (1/Z_i) Σ_j …); Σ and q·k without their indices beside indexed ones
 *              (Σ w_j v_j, w_j = exp(q·k_j/√d)/Σ exp(q·k/√d)); w defined bare and used as w_j;
 *              a sum or softmax over the query's index is the softmax over the wrong axis
 *   more       an additive mask (+ M); names for results (A = …, 权重 = …, then AV)
 *   names      d_k, dk, d, D_k, dₖ, d_head, head_dim; query/key/value(s) for Q/K/V
 *   a left-hand side "Attention(Q,K,V) =", "注意力 =", "out =" is skipped; a trailing full
 *   stop or 。 too.
 * Matrix products keep their order; scalar factors (numbers, powers of d_k) commute, so
 * QKᵀ·(1/√d_k), (Q/√d_k)Kᵀ and d_k^-0.5·QKᵀ all equal QKᵀ/√d_k.
 *
 * An answer may hold words besides the formula (an explanation): words that stand for
 * nothing in a formula ("where", "keeps", Chinese prose) end a run of formula; the
 * formula is the run that reads most as a whole one (softmax with Q, K or V), or the last
 * after words that take an earlier one back ("no wait", 不对). What the words say of the
 * formula is read too (the softmax applied to V, over the columns). */
#ifndef AT_QUIZ_FORMULA_H
#define AT_QUIZ_FORMULA_H

#include <stddef.h>

#include "engine/error.h"
#include "quiz/lang.h"

/* Mistakes named by the comparison (a bit set). QZ_F_OTHER is the highest bit. */
enum {
    QZ_F_NO_SOFTMAX       = 1 << 0,  /* no softmax at all: no weights (one slip alone,
                                      * fatal beside another mistake) */
    QZ_F_NO_SCALE         = 1 << 1,  /* scores not scaled: softmax(QKᵀ)V */
    QZ_F_DK_NOT_SQRT      = 1 << 2,  /* divided by d_k instead of √d_k */
    QZ_F_SCALE_MULTIPLIED = 1 << 3,  /* multiplied by √d_k instead of dividing */
    QZ_F_SCALE_OTHER      = 1 << 4,  /* some other scale (a number, d_k²…) */
    QZ_F_SCALE_OUTSIDE    = 1 << 5,  /* the scale stands outside the softmax */
    QZ_F_K_NOT_TRANSPOSED = 1 << 6,  /* QK instead of QKᵀ */
    QZ_F_WRONG_PRODUCT    = 1 << 7,  /* another product: QᵀK, KᵀQ, QQᵀ… */
    QZ_F_V_INSIDE         = 1 << 8,  /* V inside the softmax, or words that apply the
                                      * softmax to V: the softmax in the wrong place */
    QZ_F_V_MISSING        = 1 << 9,  /* the weights are never applied to V */
    QZ_F_V_LEFT           = 1 << 10, /* V·softmax(…) instead of softmax(…)·V */
    QZ_F_NOT_SOFTMAX      = 1 << 11, /* another function where softmax belongs (sigmoid…) */
    QZ_F_SOFTMAX_PLACE    = 1 << 12, /* softmax around something other than the scores */
    QZ_F_QK_SWAPPED       = 1 << 13, /* KQᵀ: the transpose of the scores */
    QZ_F_SOFTMAX_AXIS     = 1 << 14, /* softmax over the queries' axis (dim=0, dim=-2, or
                                      * words: "按列", "over the columns") */
    QZ_F_NO_FORMULA       = 1 << 15, /* words or a list of symbols, no formula */
    QZ_F_V_ELEMENTWISE    = 1 << 16, /* the weights times V element by element (⊙, or *
                                      * said to be elementwise), not a matrix product */
    QZ_F_MASK_OUTSIDE     = 1 << 17, /* a mask added to or multiplied with what the softmax
                                      * gives, not added to the scores inside it */
    QZ_F_OTHER            = 1 << 18, /* differs in some other way */
};

/* Mistakes that are more than a slip of one part: the formula is then wrong whatever
 * else is right (see qz_formula_diag.fatal for a product that is more than a slip). The
 * scale multiplied is one: it makes the scores larger, the opposite of what it is for, and
 * teachers mark softmax(QKᵀ·√dₖ)V with no other slip wrong (13 of the 19 such answers in
 * the labelled and blind sets; 25 of 31 counting those with more slips), while d_k for
 * √d_k (51 of 55 partly right) or no scale at all stay one slip. */
#define QZ_F_FATAL (QZ_F_NOT_SOFTMAX | QZ_F_SOFTMAX_PLACE | QZ_F_V_INSIDE | QZ_F_NO_FORMULA | \
                    QZ_F_OTHER | QZ_F_SCALE_MULTIPLIED)

/* What the comparison found. */
typedef struct qz_formula_diag {
    unsigned mistakes;      /* QZ_F_* bits; 0 when the formula is the canonical one */
    int slips;              /* parts that broke outside QZ_F_FATAL: the scale (its value
                             * and its place count apart), the product, V, the axis */
    int fatal;              /* 1: a mistake of QZ_F_FATAL, a product that is not Q
                             * and K once each (QZ_F_WRONG_PRODUCT then is no slip) */
    char function[32];      /* QZ_F_NOT_SOFTMAX: the function written instead, as typed
                             * (sigmoid, tanh); QZ_F_NO_FORMULA: the call that only names
                             * the formula (Attention, scaled_dot_product_attention); "" otherwise */
    size_t start, end;      /* the formula's bytes in the answer: [start, end) */
    int alternative;        /* 1: a second, different formula follows it, offered beside
                             * it ("…; softmax(QKᵀ)V", "…，也可能是 …"), or stands before it
                             * with "or", 或者: not chosen */
    int explained;          /* 1: the answer holds words outside the formula (an
                             * explanation): answer[0, start) and answer[end, …) */
    int corrected;          /* 1: a symbol of it was corrected in words after it ("sorry,
                             * I meant d_k, not d_model"), and the corrected formula read */
    size_t legend_start, legend_end;  /* words that only say what one of the formula's
                             * own sizes is ("where n is the sequence length"): part of
                             * no explanation; equal when none */
    const char *unread;     /* on AT_EINVAL: why the formula cannot be read, an English
                             * msgid (static) to translate, with one %.*s for unread_arg
                             * or none; NULL otherwise */
    char unread_arg[64];
    long unread_char;       /* where, in characters of the answer, from 1 */
} qz_formula_diag;

/* Find and compare the formula in a student's answer with the canonical one.
 *   student    the whole answer, UTF-8; it may hold an explanation besides the formula
 *   d          out: filled in on AT_OK (and start/end/explained on AT_EINVAL too)
 * For a canonical form of eq. 1 the mistakes are named part by part (QZ_F_*); for any
 * other canonical form a difference is QZ_F_OTHER.
 * Returns AT_OK; AT_EINVAL when the student's formula cannot be read (err->msg says
 * where, counted in characters of the answer, err->offset the byte); AT_ERANGE when the
 * canonical form itself cannot be read (a lesson error); AT_ENOMEM. */
int qz_formula_diagnose(const char *student, const char *canonical, qz_formula_diag *d,
                        at_error *err);

/* qz_formula_diagnose, only the mistakes. */
int qz_formula_compare(const char *student, const char *canonical, unsigned *mistakes,
                       at_error *err);

/* One short sentence in lang naming a single QZ_F_* bit and what was expected of the
 * part that broke (never the whole formula). */
const char *qz_formula_mistake_text(unsigned bit, qz_lang lang);

#endif
