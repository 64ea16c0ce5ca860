/* The formula grader (Q2), the text rubric matcher (Q1, Q4, Q5) and choice questions. */
#define _GNU_SOURCE
#include "check.h"
#include "quiz/formula.h"
#include "quiz/quiz.h"
#include "quiz/rubric.h"

#include <string.h>

static const char *canonical = "softmax(Q K^T / sqrt(d_k)) V";

static void expect_formula(const char *student, unsigned want)
{
    unsigned got = 0xffff;
    at_error err;
    int rc = qz_formula_compare(student, canonical, &got, &err);
    if (rc || got != want) {
        print_error("'%s': rc %d mistakes 0x%x, want 0x%x (%s)\n", student, rc, got, want,
                    rc ? err.msg : "");
        fail();
    }
}

static void test_formula_notations(void **state)
{
    const char *same[] = {
        "softmax(QK^T/sqrt(d_k))V", "softmax(Q K^T / √d_k) V", "softmax(QKᵀ/√dₖ)·V",
        "softmax((Q*K')/sqrt(dk))*V", "Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V",
        "\\text{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V", "softmax(Q @ K.T / d_k**0.5) @ V",
        "softmax(QK^T · 1/√d_k) V", "softmax(d_k^-0.5 Q K^T) V", "softmax(q k^T / sqrt(d_k)) v",
        "softmax(Q×Kᵀ÷√(dₖ))×V", "softmax(QK^{T}/sqrt{d_{k}})V",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        expect_formula(same[i], 0);
}

/* Every answer of a list reads as the canonical formula. */
static void expect_same(const char *const *answers, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect_formula(answers[i], 0);
}

#define EXPECT_SAME(...)                                                   \
    do {                                                                   \
        static const char *const list_[] = {__VA_ARGS__};                  \
        expect_same(list_, sizeof list_ / sizeof list_[0]);                \
    } while (0)

static void test_notation_unicode(void **state)
{
    EXPECT_SAME("softmax(QKᵀ/√dₖ)V", "softmax(Q·Kᵀ/√dₖ)·V", "softmax(Q⋅K⊤/√d_k)V", "softmax(Q×Kᵀ÷√(dₖ))×V",
                "softmax(QK′/√dₖ)V", "softmax(QKᵀ·dₖ^(−½))V", "softmax(Q∗Kᵀ∕√dₖ)V");
}

static void test_notation_ascii(void **state)
{
    EXPECT_SAME("softmax(Q K^T / sqrt(d_k)) V", "softmax(QK^T/sqrt(d_k))V", "softmax((Q*K')/sqrt(dk))*V",
                "softmax(Q K^T / sqrt d_k) V", "softmax(QK^T / d_k^0.5) V", "softmax(QK^T * d_k^-0.5) V",
                "softmax(QK^T / d_k^(1/2)) V", "softmax(QK^T d_k^-1/2) V", "SOFTMAX(Q*K^T/SQRT(D_K))*V",
                "Softmax(QK^t/sqrt(dk))V", "softmax(QKT/sqrt(dk))V", "softmax(Q.K^T/sqrt(d))V");
}

static void test_notation_latex(void **state)
{
    EXPECT_SAME("$\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$",
                "$$\\mathrm{softmax}\\left(\\frac{QK^{\\mathsf T}}{\\sqrt{d_{k}}}\\right) V$$",
                "\\[ \\text{softmax}\\Big(\\frac{Q K^{T}}{\\sqrt{d_k}}\\Big) \\cdot V \\]",
                "\\( softmax(QK^T/\\sqrt{d_k})V \\)",
                "\\begin{equation} \\mathrm{softmax}(QK^T/\\sqrt{d_k})V \\end{equation}",
                "\\text{Attention}(Q,K,V)=\\text{softmax}\\left(\\frac{QK^{T}}{\\sqrt{d_{k}}}\\right)V",
                "softmax(\\frac{Q \\cdot K^\\intercal}{\\sqrt{d_{\\text{k}}}}) \\times V",
                "softmax(\\dfrac{\\mathbf{Q}\\mathbf{K}^{\\mathsf{T}}}{\\sqrt{d_k}})\\mathbf{V}",
                "\\mathrm{softmax}\\frac{QK^T}{\\sqrt{d_k}}V", "softmax(\\frac1{\\sqrt{d_k}}QK^{\\rm T})V",
                "softmax\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right.\\right)V");
}

/* A formula in steps reads as the one formula they make; a product with V element by
 * element is its own slip. */
static void test_formula_in_steps(void **state)
{
    (void)state;
    const char *same[] = {
        "先算 S=QKᵀ/√dₖ，再 A=softmax(S)（按行），输出 = AV",
        "scores = Q @ K.T / math.sqrt(d_k); weights = softmax(scores, dim=-1); out = weights @ V",
        "S = QK^T; A = softmax(S / sqrt(d_k)); output = A V",
        "先算 Q 乘 K 的转置，除以根号 d_k，过 softmax（按行），最后乘 V。",
        /* typed on one line: a comment ends where the next statement starts after ';' */
        "s = Q @ K.T / math.sqrt(d_k)  # 缩放 ; p = s.softmax(-1)  # 按行归一化 ; return p @ V",
        "s = Q @ K.T / math.sqrt(d_k)  # scale; p = softmax(s, dim=-1); out = p @ V",
        /* R: %*% multiplies matrices, <- assigns; a label before the first step; an
         * in-place division; a last step said without a sign */
        "softmax(Q %*% t(K) / sqrt(d_k)) %*% V",
        "A <- softmax(Q %*% t(K) / sqrt(dk)); out <- A %*% V",
        "R style: A <- softmax(Q %*% t(K) / sqrt(dk)) (row-wise); out <- A %*% V",
        "s = Q K^T; s /= sqrt(d_k); w = softmax(s); out = w V",
        "先算 S = QKᵀ/√dₖ，再对每一行做 softmax 得到权重 A，最后 A 乘 V。",
        "S = QK^T/sqrt(d_k); A = softmax(S); then A times V",
        /* what a step gives, said after it */
        "先 QK^T 打分，除以 √dk，再 softmax，最后乘 V",
        "先QK^T算相似度，再除以根号dk，softmax以后乘V",
        "first QK^T to get the scores, then divide by sqrt(d_k) to scale them, softmax for the "
        "weights, then multiply by V",
        "QK^T gives scores, divide by sqrt(d_k), softmax, then multiply by V",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        expect_formula(same[i], 0);
    expect_formula("S = QK^T; A = softmax(S); output = A V", QZ_F_NO_SCALE);
    /* another function in the softmax's step: read, so it is named */
    expect_formula("QK^T as scores, divide by sqrt(d_k), sigmoid, multiply by V", QZ_F_NOT_SOFTMAX);
    expect_formula("先算QK^T，除以根号dk，再过sigmoid，最后乘V", QZ_F_NOT_SOFTMAX);
    expect_formula("QK^T, divide by sqrt(d_k), relu it, multiply by V", QZ_F_NOT_SOFTMAX);
    expect_formula("softmax(Q %*% K / sqrt(d_k)) %*% V", QZ_F_K_NOT_TRANSPOSED);
    expect_formula("A <- softmax(Q %*% t(K) / dk); out <- A %*% V", QZ_F_DK_NOT_SQRT);
    /* a lone x before an operator is a name, not a times sign ("W_q x + W_k x"); terms left
     * out between commas are a name ("head_1, ..., head_h"): read, and not attention */
    unsigned m = 0;
    at_error err;
    assert_int_equal(qz_formula_compare("softmax(W_q x + W_k x) V / sqrt(d)", canonical, &m, &err), AT_OK);
    assert_true(m != 0);
    assert_int_equal(qz_formula_compare("MultiHead(Q,K,V) = Concat(head_1, ..., head_h) W^O", canonical,
                                        &m, &err), AT_OK);
    assert_true(m != 0);
    expect_formula("softmax(QK^T/sqrt(d_k))V ...", 0);
    /* a ';' inside a comment with no statement after it stays in the comment */
    expect_formula("softmax(Q @ K.T) @ V  # no scaling; d_k is small", QZ_F_NO_SCALE);
    expect_formula("softmax(QKᵀ/√dₖ) ⊙ V", QZ_F_V_ELEMENTWISE);
    expect_formula("softmax(QK^T/sqrt(d_k)) * V (elementwise)", QZ_F_V_ELEMENTWISE);
    expect_formula("softmax(Q @ K.T / math.sqrt(d_k)) * V", QZ_F_V_ELEMENTWISE);
    expect_formula("softmax(QK^T/sqrt(d_k)) * V", 0);
}

static void test_notation_full_width(void **state)
{
    EXPECT_SAME("softmax（QKᵀ／√dₖ）V", "softmax（Q＊Kᵀ／√ｄｋ）＊V", "ｓｏｆｔｍａｘ（ＱＫ＾Ｔ／ｓｑｒｔ（ｄ＿ｋ））Ｖ",
                "注意力＝softmax（QKᵀ／√dₖ）V。", "softmax【QKᵀ／√dₖ】V");
}

static void test_notation_code(void **state)
{
    EXPECT_SAME("softmax(Q @ K.T / math.sqrt(d_k)) @ V",
                "F.softmax(Q @ K.transpose(-2, -1) / math.sqrt(d_k), dim=-1) @ V",
                "torch.softmax(torch.matmul(Q, K.transpose(0,1)) / np.sqrt(K.shape[-1]), dim=-1) @ V",
                "scipy.special.softmax(Q @ K.T / np.sqrt(d_k), axis=-1) @ V",
                "np.dot(softmax(np.dot(Q, K.T) / d_k ** 0.5), V)", "np.matmul(softmax(Q @ K.t() / d_k**0.5), V)",
                "torch.matmul(F.softmax(torch.matmul(Q, K.t()) / torch.sqrt(torch.tensor(d_k, dtype=torch.float32)), dim=-1), V)",
                "torch.softmax(Q @ K.mT * d_k ** -0.5, dim=-1) @ V", "(Q @ K.transpose(-2,-1) / math.sqrt(d_k)).softmax(dim=-1) @ V",
                "nn.Softmax(dim=-1)(Q @ K.T / d_k**0.5) @ V", "softmax(torch.bmm(Q, K.transpose(1, 2)) * torch.rsqrt(d_k)).bmm(V)",
                "F.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1) @ v",
                "softmax(Q @ np.transpose(K) / np.sqrt(d_k)) @ V  # NumPy",
                "scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k); "
                "p_attn = scores.softmax(dim=-1); return torch.matmul(p_attn, value)",
                "scale = 1 / math.sqrt(d_k)\nweights = softmax(Q @ K.T * scale)\nout = weights @ V",
                "`softmax(QK^T/sqrt(d_k))V`",
                "F.softmax(torch.einsum('id,jd->ij', Q, K) / math.sqrt(d_k), dim=-1) @ V",
                "torch.einsum(\"bhqk,bhkd->bhqd\", F.softmax(torch.einsum(\"bhqd,bhkd->bhqk\", q, k) / d_k**0.5, -1), v)",
                "A = softmax(QK^T/√d_k), output = AV",
                /* JavaScript: element-wise division with map, matmul said as a verb */
                "matmul(softmax(matmul(Q, transpose(K)).map(row => row.map(x => x / Math.sqrt(dk)))), V)",
                "softmax(matmul(Q, transpose(K)).map(x => x / Math.sqrt(dk))) @ V",
                "softmax(matmul(Q, K.T) / Math.sqrt(dk)) then matmul V",
                /* TensorFlow: matmul's transpose_b, a cast to a type named as a value */
                "out = tf.matmul(tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / "
                "tf.math.sqrt(tf.cast(d_k, tf.float32)), axis=-1), v)",
                "tf.matmul(tf.nn.softmax(tf.matmul(q, tf.transpose(k)) / tf.sqrt(d_k)), v)",
                /* code pasted on one line: a comment ends at two spaces before a statement */
                "# q, k: [B, T, d_k], v: [B, T, d_v]  scores = q @ k.transpose(-2, -1) / d_k**0.5"
                "  # [B, T, T]  out = softmax(scores, dim=-1) @ v  # [B, T, d_v]",
                /* shapes in brackets after the formula are a legend */
                "Attention = softmax( Q·K^T / sqrt(d_k) ) · V  （Q: n×d_k，K: m×d_k，V: m×d_v）",
                "softmax(QK^T/sqrt(d_k))V (Q ∈ R^{n×d_k})",
                /* shapes or definitions before a colon, the output's shape after */
                "With Q∈R^{n×d_k}, K∈R^{m×d_k}, V∈R^{m×d_v}: Attention = softmax(QK^T/√d_k)V ∈ R^{n×d_v}",
                "设 Q∈ℝ^{n×d_k}，K∈ℝ^{m×d_k}，V∈ℝ^{m×d_v}：Attention(Q,K,V) = softmax(QKᵀ/√dₖ)V",
                "Scaled dot-product attention (Vaswani 2017, multi-head, Q=XW_Q, K=XW_K, V=XW_V): "
                "Attention(Q,K,V)=softmax(QK^T/sqrt(dk))V");
}

static void test_notation_words(void **state)
{
    EXPECT_SAME("softmax(Q times K transpose over square root of d_k) times V",
                "softmax(Q multiplied by the transpose of K, divided by the square root of d_k) multiplied by V",
                "Q times K transpose, divided by the square root of d_k, then softmax, then multiply by V",
                "the softmax of Q K transposed over root d_k, times V",
                "注意力 = softmax(Q 乘以 K 的转置，再除以根号 d_k) 再乘 V",
                "softmax(Q乘以K的转置除以d_k的平方根)乘V", "softmax(Q 乘 K^T 除以 根号下dk) 乘以 V",
                "Q 乘以 K 的转置，除以根号 d_k，做 softmax，再乘 V", "softmax(QK转置/根号dk)V",
                "softmax(Q x K^T / sqrt(d_k)) x V", "softmax(Q times K-transpose divided by square root of dk) times V",
                "the softmax of (Q K^T divided by root d k) multiplied by V",
                "softmax over the keys of (Q K^T / sqrt(d_k)), times V",
                "权重 = softmax(QKᵀ/√dₖ)，输出 = 权重 × V", "用 softmax(QKᵀ/√dₖ) 得到权重，再乘以 V",
                "Q 和 K 的转置做矩阵乘法，除以 d_k 的平方根，按行 softmax 之后再与 V 相乘。",
                "Take the softmax of the dot products of the queries and the keys divided by the square root of "
                "d_k, then multiply by the values.",
                "the softmax of (the dot product of Q and K over root d_k) times V",
                "QK^T/√d_k → softmax → ×V", "QK^T/√d_k -> softmax -> @V", "Q·Kᵀ/√dₖ 经过 softmax 后乘以 V",
                "把 QKᵀ 除以 √dₖ 后做 softmax，再乘 V", "divide QK^T by √d_k, apply softmax, then multiply by V",
                "Q 与 K 的点积除以根号 dk，做 softmax 后右乘 V",
                /* d_k named in words; "softmax them"; the formula again after "i.e." */
                "queries times keys transposed, divided by the square root of the key dimension, "
                "softmax, times V",
                "Scores are Q times K transposed over the square root of the key dimension, softmax "
                "them, multiply by V.",
                "queries times keys transposed, divided by the root of the dimension of the keys, "
                "softmax, times V, i.e. softmax(QKᵀ/√dₖ)V.",
                "You take queries times keys transposed, divide by the square root of the key "
                "dimension, apply softmax row-wise, then multiply by V: softmax(QKᵀ/√d_k)V.",
                "Q 乘以 K 的转置，除以根号 d_k，做 softmax，再乘 V，即 softmax(QKᵀ/√d_k)V");
}

/* The steps said in words, every one named; the symbols in Chinese; a mask term; the
 * per-query form; a symbol corrected in words after the formula. */
static void test_notation_steps_and_names(void **state)
{
    EXPECT_SAME("take the dot product of every query with every key (QKᵀ), divide by the square root of the key "
                "dimension, softmax each row, then use those weights to average the rows of V",
                "Take the dot product of the queries with the keys, divide by the square root of the key "
                "dimension, softmax each row, and multiply by the values.",
                "Multiply the queries by the transposed keys, divide by the square root of d_k, apply softmax to "
                "each row, then multiply the result by V.",
                "compute QK^T, divide it by √d_k, softmax it, and multiply by V",
                "dot product of each query with each key, divide by sqrt(d_k), softmax over the keys, then take "
                "the weighted sum of the values",
                "先算 QKᵀ，除以 √dₖ，过 softmax 得到权重，再用权重对 V 加权求和。",
                "先让每个查询和每个键做点积（QKᵀ），再除以根号 d_k，然后每一行做 softmax，最后用这些权重对 V 加权求和",
                "QKᵀ 除以 √dₖ 之后过 softmax，得到的权重再去乘 V",
                "softmax(查询×键的转置 / 根号下键的维度) × 值", "注意力 = softmax(查询 乘以 键的转置 除以 根号 d_k) 乘以 值",
                "softmax(查询矩阵 × 键矩阵的转置 / √d_k) × 值矩阵",
                "softmax(QK^T/√d_k + mask)V（decoder里才加mask）", "softmax(QKᵀ/√dₖ + 掩码)V",
                "softmax(QK^T / sqrt(d_k) + mask) V",
                "for each query q_i: output_i = sum_j softmax_j(q_i·k_j / √d_k) v_j",
                "out_i = Σ_j softmax_j(q_i·k_j/√d_k) v_j", "z_i = sum_j softmax_j(q_i^T k_j / sqrt(d_k)) v_j",
                "$o_i = \\sum_j \\mathrm{softmax}_j\\left(\\frac{q_i \\cdot k_j}{\\sqrt{d_k}}\\right) v_j$",
                "Attention = softmax(QK^T / sqrt(d_model)) * V ... correction: it's d_k, the key dimension, not "
                "d_model",
                "softmax(QK^T/d_k)V - correction: it's sqrt(d_k), not d_k", "softmax(QKᵀ/dₖ)V，不对，dₖ 应该是 √dₖ",
                "softmax(QKᵀ/√d_model)V，更正：是 d_k 不是 d_model", "softmax(QK/√d_k)V，说错了，K 要转置，是 Kᵀ 不是 K");
    /* one step missing: that step's slip */
    expect_formula("Q 和 K 做点积，除以 √d_k，然后 softmax 得到权重", QZ_F_V_MISSING);
    expect_formula("take the dot products of the queries with the keys, softmax each row, then use the weights to "
                   "average the rows of V", QZ_F_NO_SCALE);
    expect_formula("output_i = sum_j softmax_j(q_i·k_j) v_j", QZ_F_NO_SCALE);
    expect_formula("you multiply Q by K transposed, scale it, softmax, and multiply by V", QZ_F_SCALE_OTHER);
    expect_formula("Attention = softmax(QK^T ⁄ 缩放因子) V", QZ_F_SCALE_OTHER);
    expect_formula("softmax(QK^T/√d_k)V，其中 √d_k 是缩放因子", 0);
    expect_formula("softmax(查询 × 键 / √d_k) × 值", QZ_F_K_NOT_TRANSPOSED);
    /* a correction that takes a right symbol back for a wrong one */
    expect_formula("softmax(QK^T/sqrt(d_k))V — no, it is not d_k but d_model", QZ_F_SCALE_OTHER);
    /* words that deny a step add nothing; Chinese words holding 值 or 键 are words */
    expect_formula("softmax(QKᵀ/√dₖ)，输出直接就是这个权重矩阵，不用乘V", QZ_F_V_MISSING);
    expect_formula("softmax(QKᵀ/√dₖ)V，数值上更稳定，关键是键值对来自同一输入", 0);
}

/* The index form (what careful students write per query) reads as the matrix form it
 * stands for: the dot products of rows are QKᵀ, the sum in a denominator is the softmax's,
 * the sum of the weights times v_j the product with V. */
static void test_notation_index_form(void **state)
{
    EXPECT_SAME("for each query i: a_ij = exp(q_i·k_j/√d_k) / Σ_j' exp(q_i·k_j'/√d_k), and output_i = Σ_j a_ij v_j",
                "α_ij = exp(q_i·k_j/√d) / Σ_l exp(q_i·k_l/√d)，输出 z_i = Σ_j α_ij v_j",
                "\\alpha_{ij} = \\frac{\\exp(q_i^\\top k_j/\\sqrt{d_k})}{\\sum_{l}\\exp(q_i^\\top k_l/\\sqrt{d_k})}, "
                "o_i = \\sum_j \\alpha_{ij} v_j",
                "\\alpha_{ij} = \\frac{e^{q_i^\\top k_j/\\sqrt{d_k}}}{\\sum_{l} e^{q_i^\\top k_l/\\sqrt{d_k}}}, "
                "o_i = \\sum_j \\alpha_{ij} v_j",
                "$\\alpha_{ij}=\\frac{\\exp(q_i k_j^T/\\sqrt{d_k})}{\\sum_{j'}\\exp(q_i k_{j'}^T/\\sqrt{d_k})}$, "
                "$z_i=\\sum_j\\alpha_{ij}v_j$",
                "a_{i,j} = \\frac{\\exp(q_i \\cdot k_j / \\sqrt{d_k})}{\\sum_{j=1}^{n} \\exp(q_i \\cdot k_j / \\sqrt{d_k})}, "
                "\\quad o_i = \\sum_{j=1}^{n} a_{i,j} v_j",
                "a_ij = softmax_j(q_i·k_j/√d_k) then out_i = Σ_j a_ij v_j",
                "a_ij = exp(q_i^T k_j / sqrt(d_k)) / sum_l exp(q_i^T k_l / sqrt(d_k)); out_i = sum_j a_ij v_j",
                "e_ij = q_i·k_j/√d_k, α_ij = exp(e_ij)/Σ_k exp(e_ik), z_i = Σ_j α_ij v_j",
                "s_ij = q_i^T k_j / sqrt(d_k); a_ij = softmax_j(s_ij); o_i = sum_j a_ij v_j",
                "z_i = Σ_j α_ij v_j where α_ij = exp(q_i·k_j/√d_k) / Σ_l exp(q_i·k_l/√d_k)",
                "out_i = Σ_j exp(q_i·k_j/√d_k) v_j / Σ_l exp(q_i·k_l/√d_k)",
                "a_ij = exp(k_j·q_i/√d_k) / Σ_l exp(k_l·q_i/√d_k), out_i = Σ_j v_j a_ij",
                "a_ij = exp(⟨q_i, k_j⟩/√d_k) / Σ_l exp(⟨q_i, k_l⟩/√d_k), out_i = Σ_j a_ij v_j",
                "a_ij = exp(dot(q_i, k_j)/sqrt(d_k)) / sum_l exp(dot(q_i, k_l)/sqrt(d_k)), out_i = sum_j a_ij v_j",
                "a_ji = softmax_i(q_j·k_i/√d_k), out_j = Σ_i a_ji v_i",
                "weights_j = softmax_j(q·k_j / √d_k), output = Σ_j weights_j v_j",
                "对每个查询 i：α_ij = exp(q_i·k_j/√d_k) / Σ_l exp(q_i·k_l/√d_k)，输出 z_i = Σ_j α_ij v_j",
                "权重 a_ij = softmax_j(q_i·k_j/√d_k)，然后输出 o_i = Σ_j a_ij v_j",
                "z_i = Σ_j α_ij v_j，其中 α_ij = exp(q_i·k_j/√d_k) / Σ_l exp(q_i·k_l/√d_k)",
                "e_ij = q_i·k_j/√d_k，α_ij = e^{e_ij}/Σ_l e^{e_il}，z_i = Σ_j α_ij v_j");
    /* e^x is exp(x) in the matrix form too */
    expect_formula("e^{QK^T/\\sqrt{d_k}} / \\sum e^{QK^T/\\sqrt{d_k}} V", 0);
}

/* softmax typed with one slip (a letter missing, added, changed or two swapped), called:
 * still softmax; another function is not. */
static void test_notation_softmax_slips(void **state)
{
    EXPECT_SAME("softmax(QKᵀ/√dₖ)V", "sofmax(QK^T / sqrt(d_k)) V", "softamx(QK^T/sqrt(d_k))V",
                "Softmaxx(QK^T/sqrt(d_k))V", "sotfmax(QK^T/sqrt(d_k))V", "softnax(QK^T/sqrt(d_k))V");
    expect_formula("softmin(QK^T/sqrt(d_k))V", QZ_F_NOT_SOFTMAX);
    expect_formula("sigmoid(QK^T/sqrt(d_k))V", QZ_F_NOT_SOFTMAX);
}

/* A name the formula uses, defined after it ("where S = …", "…, s = …"): read as if
 * defined first; the definition is graded with the formula. */
static void test_notation_definitions_after(void **state)
{
    EXPECT_SAME("softmax(QKᵀ/√dₖ)V", "softmax(S)V, where S = QK^T/√d_k", "out = softmax(S) V, S = QK^T/sqrt(d_k)",
                "out = np.exp(s)/np.exp(s).sum(-1, keepdims=True) @ V, s = Q@K.T/np.sqrt(dk)",
                "np.exp(s)/np.exp(s).sum(-1, keepdims=True) @ V where s = Q @ K.T / np.sqrt(dk)",
                "softmax(S)V，其中 S = QKᵀ/√dₖ");
    expect_formula("softmax(S)V where S = QK^T", QZ_F_NO_SCALE);
}

/* Words a Chinese input method puts for the formula's own (跟号 for 根号, 专置 for 转置). */
static void test_notation_ime_slips(void **state)
{
    EXPECT_SAME("softmax(QK^T除以根号d_k)乘以V", "softmax(QK^T除以跟号d_k)乘以V，d_k是key的为度",
                "softmax(Q乘以K的专置除以更号d_k)再乘以V", "Q乘K的转至，除以根好d_k，softmax以后乘V",
                "softmax(Q K的转制 除以 跟号d_k) 乘以 V", "softmax(Q成以K的转置处以根号d_k)乘以V");
    /* d_k alone in words is still d_k, not its square root */
    expect_formula("queries times keys transposed, divided by the key dimension, softmax, times V",
                   QZ_F_DK_NOT_SQRT);
}

/* A formula dictated to a phone: the words as speech recognition types them ("soft max",
 * "cue and key transpose", "root d k", 软最大), "softmax of …" whose last "times V" in
 * words multiplies the softmax, a last step said without its preposition. V written
 * inside the softmax is still inside it. */
static void test_notation_dictated(void **state)
{
    EXPECT_SAME("softmax(QK^T/sqrt(d_k))V", "soft max of Q K transpose over square root of D K times V",
                "attention = softmax of cue and key transpose divided by root d k, multiply value",
                "softmax of Q K^T over root d_k multiplied by V", "软最大（Q乘K转置除以根号DK）乘V",
                "Multiply the queries by the transposed keys, divide by the square root of d_k, "
                "apply softmax to each row, then multiply the result by V.",
                "take each query and dot-product it with every key, divide all the scores by the "
                "square root of the key dimension, put them through softmax so they add up to 1, "
                "then use those weights to make a weighted sum of the value vectors",
                "每个查询向量和所有键向量做点积，再除以键维度的平方根，经过 softmax，"
                "最后对值向量做加权求和", "soft Mac(QK^T/√d_k)V");
    expect_formula("softmax of Q K^T V over root d_k", QZ_F_V_INSIDE);
    expect_formula("softmax(QK^T V / sqrt(d_k))", QZ_F_V_INSIDE);
}

static void test_notation_prefix_stop_names(void **state)
{
    EXPECT_SAME("Attention(Q, K, V) = softmax(QKᵀ / √dₖ)V.", "Attention = softmax(Q K^T / sqrt(d_k)) V.",
                "注意力(Q,K,V)=softmax(QKᵀ/√dₖ)V。", "输出 = softmax(QK^T/√d_k)V", "out := softmax(QK^T/√d_k)V",
                "softmax(QK^T/√D_k)V", "softmax(QK^T/√d_{k})V", "softmax(QK^T/sqrt(head_dim))V",
                "softmax(qk^t/sqrt(dk))v", "softmax(QK^T/√d_k)V = Attention(Q,K,V)", "Z = softmax(QK^T / √d_k) V",
                "Attention = softmax(QK^T/sqrt(d_k)) . V", "softmax(Q.K.T/sqrt(dk)).V",
                "Attention = softmax(QK^T/√d_k)V, d_k = 64", "Softmax(Q·K^T/√d_k)·V   // d_k = key 维度",
                "It's softmax(QK^T/sqrt(d_k)) times V.");
}

/* Equal structures: scalar factors commute, a transpose of a product reverses it. */
static void test_notation_equivalent(void **state)
{
    EXPECT_SAME("softmax(Q K^T times 1/sqrt(d_k)) V", "softmax((Q/sqrt(d_k)) K^T) V", "softmax((QK^T)/sqrt(d_k))V",
                "softmax(Q (K/sqrt(d_k))^T) V", "softmax(1/sqrt(d_k) * Q K^T) V", "softmax((K Q^T)^T / sqrt(d_k)) V",
                "softmax(QK^T/sqrt(d_k)/1)V");
}

/* The formula among words: the explanation is outside [start, end). */
static void test_formula_with_words(void **state)
{
    static const struct { const char *answer, *formula; int explained; } cases[] = {
        {"softmax(QK^T/sqrt(d_k))V, where dividing by sqrt(d_k) keeps the dot products from growing with "
         "the dimension", "softmax(QK^T/sqrt(d_k))V", 1},
        {"dividing by √d_k keeps the variance at 1: softmax(QK^T/√d_k)V", "softmax(QK^T/√d_k)V", 1},
        {"softmax(QK^T/√d_k)V，其中除以根号dk是为了防止点积过大导致softmax饱和", "softmax(QK^T/√d_k)V", 1},
        {"The formula is softmax(QKᵀ/√dₖ)V.", "softmax(QKᵀ/√dₖ)V", 1},
        {"softmax(QK^T/sqrt(d_k))V (d_k = dimension of the keys)", "softmax(QK^T/sqrt(d_k))V", 1},
        {"softmax(QK^T/sqrt(d_k))V.", "softmax(QK^T/sqrt(d_k))V", 0},
        {"softmax(QK^T/sqrt(d_k))V (row-wise softmax)", "softmax(QK^T/sqrt(d_k))V", 0},
        {"The attention is computed as softmax(QK^T / sqrt(d_k)) V where Q, K, V are the query, key and "
         "value matrices.", "softmax(QK^T / sqrt(d_k)) V", 1},
        {"softmax(QK^T/√d_k)V, where softmax(QK^T/√d_k) are the weights", "softmax(QK^T/√d_k)V", 1},
        {"softmax((Q K^T)/sqrt(dk)) V  -- the sqrt(dk) is there so that the dot products don't get too big.",
         "softmax((Q K^T)/sqrt(dk)) V", 1},
        {"softmax(QKᵀ/√dₖ)V，除以根号dk是为了防止点积过大", "softmax(QKᵀ/√dₖ)V", 1},
        {"softmax(QKᵀ/√dₖ)V，除以根号dk，防止点积过大", "softmax(QKᵀ/√dₖ)V", 1},
        {"Q 乘以 K 的转置，除以根号 d_k，做 softmax，再乘 V，这样得到输出",
         "Q 乘以 K 的转置，除以根号 d_k，做 softmax，再乘 V", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        qz_formula_diag d;
        at_error err;
        assert_int_equal(qz_formula_diagnose(cases[i].answer, canonical, &d, &err), AT_OK);
        assert_int_equal(d.mistakes, 0);
        assert_int_equal(d.explained, cases[i].explained);
        assert_int_equal(d.end - d.start, strlen(cases[i].formula));
        assert_memory_equal(cases[i].answer + d.start, cases[i].formula, d.end - d.start);
    }
}

static void test_formula_mistakes(void **state)
{
    expect_formula("softmax(QK^T)V", QZ_F_NO_SCALE);
    expect_formula("softmax(QK^T/d_k)V", QZ_F_DK_NOT_SQRT);
    expect_formula("softmax(QK^T sqrt(d_k))V", QZ_F_SCALE_MULTIPLIED);
    expect_formula("softmax(QK^T/8)V", QZ_F_SCALE_OTHER);
    expect_formula("softmax(QK/sqrt(d_k))V", QZ_F_K_NOT_TRANSPOSED);
    expect_formula("softmax(Q^T K/sqrt(d_k))V", QZ_F_WRONG_PRODUCT);
    expect_formula("softmax(QK^T V/sqrt(d_k))", QZ_F_V_INSIDE);
    expect_formula("softmax(QK^T/sqrt(d_k))", QZ_F_V_MISSING);
    expect_formula("V softmax(QK^T/sqrt(d_k))", QZ_F_V_LEFT);
    expect_formula("softmax(QK^T)/sqrt(d_k) V", QZ_F_SCALE_OUTSIDE);
    expect_formula("QK^T/sqrt(d_k) V", QZ_F_NO_SOFTMAX);
    expect_formula("softmax(QK/d_k)V", QZ_F_K_NOT_TRANSPOSED | QZ_F_DK_NOT_SQRT);
}

static void test_formula_unreadable(void **state)
{
    unsigned m;
    at_error err;
    assert_int_equal(qz_formula_compare("softmax(QK^T/sqrt(d_k)", canonical, &m, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "closing parenthesis"));
    assert_int_equal(qz_formula_compare("softmax(QK^T/√dₖ·V", canonical, &m, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "character 19"));   /* characters, not bytes */
    assert_int_equal(qz_formula_compare("softmax(QK^T/√dₖ))V", canonical, &m, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "never opened"));
    assert_int_equal(qz_formula_compare("", canonical, &m, &err), AT_EINVAL);
    assert_int_equal(qz_formula_compare("   ", canonical, &m, &err), AT_EINVAL);
    assert_int_equal(qz_formula_compare("Q", "softmax(", &m, &err), AT_ERANGE);
}

static void test_formula_graded(void **state)
{
    qz_question q = qz_question_init(QZ_FORMULA);
    q.id = "q2";
    q.canonical = canonical;
    qz_result r;
    assert_int_equal(qz_grade(&q, "softmax(QKᵀ/√dₖ)·V", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "softmax(QK^T/d_k)V", QZ_ZH, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_PARTIAL);   /* one slip */
    assert_true(r.score == 0.5);
    assert_non_null(strstr(r.feedback, "除以的是 dₖ，应该除以 √dₖ"));
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "softmax(QK^T", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_MALFORMED);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "softmax(", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);      /* no Q, K or V: no formula */
    qz_result_free(&r);
}

/* Grade one answer to Q2: its verdict, and (if want_text) a phrase of its feedback. */
static void expect_graded(const char *answer, qz_verdict want, const char *want_text)
{
    qz_question q = qz_question_init(QZ_FORMULA);
    q.id = "q2";
    q.canonical = canonical;
    qz_result r;
    assert_int_equal(qz_grade(&q, answer, QZ_EN, &r, NULL), AT_OK);
    if (r.verdict != want || (want_text && !strstr(r.feedback, want_text))) {
        print_error("'%s': verdict %s, want %s; feedback:\n%s\n", answer, qz_verdict_name(r.verdict),
                    qz_verdict_name(want), r.feedback);
        fail();
    }
    qz_result_free(&r);
}

/* One slip is partly right (score 0.5); every kind of slip is named. */
static void test_formula_one_slip(void **state)
{
    static const struct { const char *answer, *named; } slips[] = {
        {"softmax(QK^T)V", "No scaling"},
        {"softmax(QK^T/d_k)V", "instead of √dₖ"},
        {"matmul(softmax(matmul(Q, transpose(K)).map(r => r.map(x => x / dk))), V)", "instead of √dₖ"},
        {"softmax(QK^T / sqrt(d_model)) V", "not 1/√dₖ"},
        {"softmax(QK^T/8)V", "not 1/√dₖ"},
        {"softmax(QK^T)/sqrt(d_k) · V", "outside the softmax"},
        {"softmax(QK/sqrt(d_k))V", "K is not transposed"},
        {"softmax(KQ^T/sqrt(d_k))V", "Q and K are swapped"},
        /* kᵀ qᵀ: the scores transposed */
        {"tf.matmul(tf.nn.softmax(tf.matmul(k, q, transpose_a=True, transpose_b=True) / "
         "tf.sqrt(d_k)), v)", "product of the scores"},
        {"softmax(Q^T K/sqrt(d_k))V", "product of the scores"},
        {"Attention(Q,K,V) = softmax(QK^T / sqrt(d_k))", "V is missing"},
        {"V softmax(QK^T/sqrt(d_k))", "V stands on the left"},
        {"F.softmax(Q @ K.transpose(-2,-1) / math.sqrt(d_k), dim=0) @ V", "wrong axis"},
        {"softmax(QKᵀ/√dₖ)V, with the softmax taken over the columns", "wrong axis"},
        {"softmax(Q Kᵀ / √d_k) V，softmax 沿第 0 维（按列）做", "wrong axis"},
        {"softmax(QK^T / √d_k) V，softmax 按列归一化", "wrong axis"},
        {"softmax(Q K^T / sqrt(d_k)) V where the softmax normalizes over the queries", "wrong axis"},
        {"softmax(Q K^T/√d_k over the columns) V", "wrong axis"},
        {"softmax(QK^T/sqrt(n))V", "not 1/√dₖ"},
        {"F.softmax(Q @ K.transpose(-2, -1) / math.sqrt(seq_len), dim=-1) @ V", "not 1/√dₖ"},
        /* no softmax, every other part right: one part missing, named as the concept */
        {"(QKᵀ/√d_k)V", "no softmax"},
        {"QK^T V / sqrt(d_k)", "no softmax"},
        {"Q 乘 K 的转置除以根号 d_k 再乘 V", "no softmax"},
        {"first QK^T to get the scores, divide by sqrt(d_k), then multiply by V", "no softmax"},
    };
    for (size_t i = 0; i < sizeof slips / sizeof slips[0]; i++)
        expect_graded(slips[i].answer, QZ_PARTIAL, slips[i].named);
}

/* Two slips, or a mistake that is more than a slip, are wrong; the broken part is named
 * as the concept it breaks (softmax), not as an unknown symbol. */
static void test_formula_wrong(void **state)
{
    static const struct { const char *answer, *named; } wrong[] = {
        /* the scale multiplied: the scores made larger, the opposite of its purpose */
        {"softmax(Q @ K.T * np.sqrt(d_k)) @ V", "Multiplied by √dₖ"},
        {"softmax(QK/d_k)V", "K is not transposed"},
        {"softmax(QK^T)", "V is missing"},
        /* no softmax beside another mistake (K not transposed, no scale) */
        {"QKV / sqrt(d)", "no softmax"},
        {"Attention = Q·K·V", "no softmax"},
        {"(QKᵀ)V", "no softmax"},
        {"sigmoid(QK^T/sqrt(d_k))V", "sigmoid: softmax belongs here"},
        {"tanh(QK^T/sqrt(d_k))V", "tanh: softmax belongs here"},
        {"σ(QKᵀ/√dₖ)V", "softmax belongs here"},
        {"ReLU(QKᵀ)V", "ReLU: softmax belongs here"},
        {"softmax(Q)K^T/sqrt(d_k) V", "wrong place"},
        {"softmax(K/√d_k)·QV", "wrong place"},
        {"softmax(QK^T V/sqrt(d_k))", "takes in V"},
        {"Attention(Q, K, V) = softmax(Q @ K.T @ V / math.sqrt(d_k))", "takes in V"},
        {"softmax（QKᵀV／√dₖ）", "takes in V"},
        {"softmax(QK^T V/sqrt(n))", "takes in V"},
        {"softmax(QK V/sqrt(d_k))", "takes in V"},
        {"softmax(QK^T)V/sqrt(d_model)", "outside the softmax"},
        {"softmax(QVᵀ/√d_k)K", "takes in V"},
        {"softmax(VᵀQKᵀ/√d_k)", "takes in V"},
        {"softmax(QK^T/√d_k)V, and the softmax is applied to V, not to the scores.", "takes in V"},
        {"softmax(QK^T/√d_k)V, softmax is applied after multiplying by V", "takes in V"},
        {"softmax(QKᵀ/√d_k)V，其中 softmax 作用在 V 上而不是分数上", "takes in V"},
        {"softmax(QKᵀ/√d_k) + V", "not part of attention"},
        {"softmax(Q + K) V", "not part of attention"},
        {"Attention = tanh(W_q Q + W_k K) V", "tanh"},
        {"Q, K, V, softmax, sqrt(d_k), dot product", "no formula"},
        {"Q、K、V、softmax、根号d_k、点积", "no formula"},
        {"I don't know", "no formula"},
        {"不知道", "no formula"},
        {"softmax(QK^T/√d_k)V ... no wait, it's softmax(QK^T·√d_k + V)", NULL},
        {"softmax(QKᵀ/√d_k)V。不对，应该是 softmax(Q+K)V。", NULL},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
        expect_graded(wrong[i].answer, QZ_WRONG, wrong[i].named);
    /* the formula denied, before or right after it, is no answer of it */
    static const char *const denied[] = {"not softmax(QK^T/sqrt(d_k))V",
                                         "The formula is NOT softmax(QK^T/sqrt(d_k))V",
                                         "softmax(QK^T/sqrt(d_k))V? No.", "不是 softmax(QKᵀ/√dₖ)V"};
    for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++)
        expect_graded(denied[i], QZ_WRONG, "not the one it writes");
    expect_graded("not softmax(QK^T)V but softmax(QK^T/sqrt(d_k))V", QZ_CORRECT, NULL);
}

/* An answer of another notation gets the diagnosis of the same formula in NumPy's (one
 * grader for both), and the verdict that goes with it; with named, the feedback names the
 * slip. */
typedef struct same_slip {
    const char *answer, *numpy;
    unsigned want;
    qz_verdict verdict;
} same_slip;

static void expect_same_slips(const same_slip *slips, size_t n, int named)
{
    for (size_t i = 0; i < n; i++) {
        qz_formula_diag da, dn;
        at_error err;
        assert_int_equal(qz_formula_diagnose(slips[i].answer, canonical, &da, &err), AT_OK);
        assert_int_equal(qz_formula_diagnose(slips[i].numpy, canonical, &dn, &err), AT_OK);
        if (da.mistakes != slips[i].want || dn.mistakes != slips[i].want || da.slips != dn.slips ||
            da.fatal != dn.fatal) {
            print_error("'%s': mistakes 0x%x (slips %d, fatal %d); '%s': 0x%x (%d, %d); want 0x%x\n",
                        slips[i].answer, da.mistakes, da.slips, da.fatal, slips[i].numpy, dn.mistakes, dn.slips,
                        dn.fatal, slips[i].want);
            fail();
        }
        expect_graded(slips[i].answer, slips[i].verdict,
                      named ? qz_formula_mistake_text(slips[i].want, QZ_EN) : NULL);
    }
}

#define EXPECT_SAME_SLIPS(...)                                             \
    do {                                                                   \
        static const same_slip list_[] = {__VA_ARGS__};                    \
        expect_same_slips(list_, sizeof list_ / sizeof list_[0], 0);          \
    } while (0)

/* Every slip of the index form gets the diagnosis of the same slip in the matrix form
 * (one grader for both), and the verdict that goes with it. */
static void test_formula_index_form_slips(void **state)
{
    static const same_slip slips[] = {
        {"a_ij = exp(q_i·k_j)/Σ_l exp(q_i·k_l), out_i = Σ_j a_ij v_j", "softmax(QK^T)V", QZ_F_NO_SCALE,
         QZ_PARTIAL},
        {"a_ij = exp(q_i·k_j/d_k)/Σ_l exp(q_i·k_l/d_k), out_i = Σ_j a_ij v_j", "softmax(QK^T/d_k)V",
         QZ_F_DK_NOT_SQRT, QZ_PARTIAL},
        {"a_ij = exp(q_i·k_j/√d_k) / Σ_i exp(q_i·k_j/√d_k), out_i = Σ_j a_ij v_j",
         "softmax(QK^T/sqrt(d_k), dim=0)V", QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"a_ij = softmax_i(q_i·k_j/√d_k), out_i = Σ_j a_ij v_j", "softmax(QK^T/sqrt(d_k), dim=0)V",
         QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"e_ij = q_i·k_j/√d_k, α_ij = exp(e_ij)/Σ_k exp(e_kj), z_i = Σ_j α_ij v_j",
         "softmax(QK^T/sqrt(d_k), dim=0)V", QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"a_ij = exp(q_i·k_j/√d_k)/Σ_l exp(q_i·k_l/√d_k), out_i = Σ_j a_ij", "softmax(QK^T/sqrt(d_k))",
         QZ_F_V_MISSING, QZ_PARTIAL},
        {"α_ij = exp(q_i·k_j/√d_k) / Σ_l exp(q_i·k_l/√d_k)", "softmax(QK^T/sqrt(d_k))", QZ_F_V_MISSING,
         QZ_PARTIAL},
        {"a_ij = exp(q_i·k_j·√d_k)/Σ_l exp(q_i·k_l·√d_k), out_i = Σ_j a_ij v_j", "softmax(QK^T sqrt(d_k))V",
         QZ_F_SCALE_MULTIPLIED, QZ_WRONG},
        {"a_ij = exp(q_i·k_j/√d_k)/Σ_l exp(q_i·k_l/√d_k), out_i = Σ_j a_ij k_j", "softmax(QK^T/sqrt(d_k))K",
         QZ_F_OTHER, QZ_WRONG},
        {"a_ij = exp(q_i·k_j/√d_k)/Σ_l exp(q_i·k_l/√d_k), out_i = Σ_i a_ij v_j", "softmax(QK^T/sqrt(d_k))K",
         QZ_F_OTHER, QZ_WRONG},
        {"a_ij = exp(q_i·q_j/√d_k)/Σ_l exp(q_i·q_l/√d_k), out_i = Σ_j a_ij v_j", "softmax(QQ^T/sqrt(d_k))V",
         QZ_F_WRONG_PRODUCT, QZ_WRONG},
        {"a_ij = sigmoid(q_i·k_j/√d_k), out_i = Σ_j a_ij v_j", "sigmoid(QK^T/sqrt(d_k))V", QZ_F_NOT_SOFTMAX,
         QZ_WRONG},
        {"out_i = Σ_j (q_i·k_j/√d_k) v_j", "QK^T/sqrt(d_k) V", QZ_F_NO_SOFTMAX, QZ_PARTIAL},
        {"α_ij = exp(q_i·k_j/√d_k) / Σ_i exp(q_i·k_j/√d_k)，输出 z_i = Σ_j α_ij v_j",
         "softmax(QK^T/sqrt(d_k), dim=0)V", QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"α_ij = exp(q_i·k_j/√d_k) / Σ_l exp(q_i·k_l/√d_k)，输出 z_i = Σ_j α_ij k_j", "softmax(QK^T/sqrt(d_k))K",
         QZ_F_OTHER, QZ_WRONG},
    };
    expect_same_slips(slips, sizeof slips / sizeof slips[0], 1);
    /* a sum of code over the queries' axis is the same slip */
    expect_formula("np.exp(S)/np.sum(np.exp(S), axis=0) @ V, where S = Q @ K.T / np.sqrt(d_k)", QZ_F_SOFTMAX_AXIS);
    /* in Chinese, the slip named in Chinese */
    qz_question q = qz_question_init(QZ_FORMULA);
    q.id = "q2";
    q.canonical = canonical;
    qz_result r;
    assert_int_equal(qz_grade(&q, "α_ij = exp(q_i·k_j/d_k) / Σ_l exp(q_i·k_l/d_k)，输出 z_i = Σ_j α_ij v_j", QZ_ZH,
                              &r, NULL),
                     AT_OK);
    assert_int_equal(r.verdict, QZ_PARTIAL);
    assert_non_null(strstr(r.feedback, "除以的是 dₖ，应该除以 √dₖ"));
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "α_ij = exp(q_i·k_j/√d) / Σ_l exp(q_i·k_l/√d)，输出 z_i = Σ_j α_ij v_j", QZ_ZH, &r,
                              NULL),
                     AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
}

/* Right answers that carry more than the formula: a mask, the softmax by hand, remarks. */
static void test_formula_right_with_more(void **state)
{
    expect_graded("softmax(QK^T/sqrt(d_k) + M)V, where M is an optional mask (0 or -inf)", QZ_CORRECT, NULL);
    expect_graded("scores = Q @ K.T / math.sqrt(d_k); scores = scores.masked_fill(mask == 0, -1e9); "
                  "out = F.softmax(scores, dim=-1) @ V", QZ_CORRECT, NULL);
    expect_graded("S = Q@K.T/np.sqrt(dk); W = np.exp(S - S.max(-1, keepdims=True)); "
                  "W /= W.sum(-1, keepdims=True); out = W@V", QZ_CORRECT, NULL);
    expect_graded("np.exp(Q @ K.T / np.sqrt(d_k)) / np.sum(np.exp(Q @ K.T / np.sqrt(d_k)), axis=-1) @ V",
                  QZ_CORRECT, NULL);
    expect_graded("Attention = softmax（QKᵀ / √dₖ）V ，softmax 对每一行（最后一维）做。", QZ_CORRECT, NULL);
    expect_graded("Q 和 K 的转置做矩阵乘法，除以 d_k 的平方根，按行 softmax 之后再与 V 相乘。", QZ_CORRECT, NULL);
    expect_graded("先算 QKᵀ，除以根号dk，过softmax，最后乘V：softmax(QKᵀ/√dk)V", QZ_CORRECT, NULL);
    expect_graded("softmax(QK'/sqrt(dk))V  (K' = K transpose)", QZ_CORRECT, NULL);
    expect_graded("exp(QK^T/√d_k) / Σ exp(QK^T/√d_k) · V", QZ_CORRECT, NULL);
    expect_graded("\\frac{\\exp(QK^T/\\sqrt{d_k})}{\\sum_j \\exp(QK^T/\\sqrt{d_k})} V", QZ_CORRECT, NULL);
    expect_graded("softmax(QKᵀ/√dₖ)V — note softmax is not applied to V", QZ_CORRECT, NULL);
    expect_graded("Attention(Q,K,V)=softmax(QK^T/√d_k)V，Q、K、V 分别是查询、键、值矩阵", QZ_CORRECT, NULL);
    expect_graded("Att(Q,K,V)=softmax(QK'/√dk)·V （K' 表示 K 转置）", QZ_CORRECT, NULL);
}

/* Grade an answer to Q2 in lang (r freed by the caller). */
static void graded(const char *answer, qz_lang lang, qz_result *r)
{
    qz_question q = qz_question_init(QZ_FORMULA);
    q.id = "q2";
    q.canonical = canonical;
    assert_int_equal(qz_grade(&q, answer, lang, r, NULL), AT_OK);
}

/* A function pasted as the answer (def) gets the verdict and the very feedback of the
 * same lines written without it. */
static void expect_as_lines(const char *with_def, const char *lines, qz_verdict want)
{
    for (qz_lang lang = QZ_EN; lang <= QZ_ZH; lang++) {
        qz_result a, b;
        graded(with_def, lang, &a);
        graded(lines, lang, &b);
        if (a.verdict != want || b.verdict != want || strcmp(a.feedback, b.feedback)) {
            print_error("'%s': %s, want %s; feedback:\n%s\nwithout def: %s\n%s\n", with_def,
                        qz_verdict_name(a.verdict), qz_verdict_name(want), a.feedback,
                        qz_verdict_name(b.verdict), b.feedback);
            fail();
        }
        qz_result_free(&a);
        qz_result_free(&b);
    }
}

static void test_formula_in_a_function(void **state)
{
    expect_as_lines("def attn(Q,K,V): d=K.shape[-1]; w=np.exp(Q@K.T/np.sqrt(d)); w/=w.sum(axis=1,keepdims=True); "
                    "return w@V",
                    "d=K.shape[-1]; w=np.exp(Q@K.T/np.sqrt(d)); w/=w.sum(axis=1,keepdims=True); return w@V",
                    QZ_CORRECT);
    /* the line breaks of a one-line field turned into spaces; parameters of other names */
    expect_as_lines("def attention(q, k, v, mask=None):     scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))"
                    "     return F.softmax(scores, dim=-1) @ v     out = attention(Q, K, V)",
                    "scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.size(-1)); return F.softmax(scores, dim=-1) @ V",
                    QZ_CORRECT);
    expect_as_lines("import numpy as np\n\ndef attention(query: np.ndarray, key: np.ndarray, value: np.ndarray)"
                    " -> np.ndarray:\n    \"\"\"Scaled dot-product attention.\n\n    Softmax over the keys.\"\"\"\n"
                    "    d_k = query.shape[-1]\n\n    scores = query @ key.T / np.sqrt(d_k)\n"
                    "    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
                    "    weights /= weights.sum(axis=-1, keepdims=True)\n    return weights @ value\n\n"
                    "out = attention(Q, K, V)\nprint(out.shape)\n",
                    "d_k = Q.shape[-1]; scores = Q @ K.T / np.sqrt(d_k); "
                    "weights = np.exp(scores - scores.max(axis=-1, keepdims=True)); "
                    "weights /= weights.sum(axis=-1, keepdims=True); weights @ V", QZ_CORRECT);
    expect_as_lines("def f(x, y, z): return torch.softmax(x @ y.transpose(-2, -1) / y.size(-1) ** 0.5, dim=-1) @ z",
                    "torch.softmax(Q @ K.transpose(-2, -1) / K.size(-1) ** 0.5, dim=-1) @ V", QZ_CORRECT);
    /* bound to the call's arguments: attn(K, Q, V) swaps them */
    expect_as_lines("def attn(a, b, c): return F.softmax(a @ b.T / math.sqrt(d_k), dim=-1) @ c\nout = attn(K, Q, V)",
                    "F.softmax(K @ Q.T / math.sqrt(d_k), dim=-1) @ V", QZ_PARTIAL);
    /* wrong ones keep their diagnosis */
    expect_as_lines("def attn(Q, K, V):     s = Q @ K.T / np.sqrt(K.shape[-1])     w = np.exp(s)"
                    "     w /= w.sum(axis=0, keepdims=True)     return w @ V",
                    "s = Q @ K.T / np.sqrt(K.shape[-1]); w = np.exp(s); w /= w.sum(axis=0, keepdims=True); w @ V",
                    QZ_PARTIAL);
    expect_as_lines("def attn(Q, K, V): return F.softmax(Q @ K.T, dim=-1) @ V", "F.softmax(Q @ K.T, dim=-1) @ V",
                    QZ_PARTIAL);
    expect_as_lines("def attn(Q, K, V): return F.softmax(Q @ K.T / math.sqrt(d_k), dim=-1)",
                    "F.softmax(Q @ K.T / math.sqrt(d_k), dim=-1)", QZ_PARTIAL);
    expect_as_lines("def attn(Q, K, V): return F.softmax(Q @ K.T / math.sqrt(d_k), dim=0) @ V",
                    "F.softmax(Q @ K.T / math.sqrt(d_k), dim=0) @ V", QZ_PARTIAL);
    expect_as_lines("def attn(Q, K, V): return F.softmax(Q @ K.T @ V / math.sqrt(d_k), dim=-1)",
                    "F.softmax(Q @ K.T @ V / math.sqrt(d_k), dim=-1)", QZ_WRONG);
    expect_graded("def attn(Q, K, V): w = F.softmax(Q @ K.T / math.sqrt(d_k), dim=-1); return w @ V", QZ_CORRECT,
                  NULL);
    expect_graded("def attn(Q, K, V): w = F.softmax(Q @ K.T, dim=0); return w @ V", QZ_WRONG, "wrong axis");
    /* what is not read is refused, naming the place */
    expect_graded("def attn(Q, K, V): return attn(Q, K, V)", QZ_MALFORMED, "character 27: the function 'attn' calls");
    expect_graded("def attn(Q, K, V):\n    def sm(x):\n        return x\n    return sm(Q @ K.T) @ V", QZ_MALFORMED,
                  "character 24: a function defined inside another function");
    expect_graded("class Attention(nn.Module):\n    def forward(self, q, k, v):\n"
                  "        return F.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1) @ v",
                  QZ_MALFORMED, "character 1: a class is not read");
    expect_graded("def softmax(x): return np.exp(x) / np.exp(x).sum(0)  "
                  "def attn(Q, K, V): return softmax(Q @ K.T / np.sqrt(d_k)) @ V", QZ_MALFORMED,
                  "a second function is not read");
}

/* A wrong try names the part that broke without writing out the whole formula before
 * reveal_at; an unreadable answer's help names notations, not the formula. */
static void test_formula_feedback_holds_back(void **state)
{
    static const char *const answers[] = {"softmax(QK^T)V", "sigmoid(QK/d_k)V", "softmax(QK^T/√dₖ)",
                                          "V softmax(QK^T/sqrt(d_k))"};
    qz_question q = qz_question_init(QZ_FORMULA);
    q.id = "q2";
    q.canonical = canonical;
    qz_result r;
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++)
        for (int zh = 0; zh < 2; zh++) {
            assert_int_equal(qz_grade(&q, answers[i], zh ? QZ_ZH : QZ_EN, &r, NULL), AT_OK);
            assert_true(r.verdict == QZ_PARTIAL || r.verdict == QZ_WRONG);
            assert_null(memmem(r.feedback, r.reveal_at, "softmax(Q", 9));
            assert_null(memmem(r.feedback, r.reveal_at, "√dₖ)V", strlen("√dₖ)V")));
            assert_non_null(strstr(r.feedback + r.reveal_at, canonical));
            qz_result_free(&r);
        }
    assert_int_equal(qz_grade(&q, "softmax(QK^T/sqrt(d_k)", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_MALFORMED);
    assert_non_null(strstr(r.feedback, "closing parenthesis"));
    assert_non_null(strstr(r.feedback, "LaTeX"));
    assert_null(strstr(r.feedback, "softmax(Q"));
    qz_result_free(&r);
}

/* Words beside the formula: graded by the follow-up question (q2b) and reported; the
 * formula alone decides the verdict (q2 is marked on the formula, the explanation is
 * q2b's). */
static const char *const q2b_scale[] = {"growing with the dimension", "dot products grow", "variance"};
static const char *const q2b_wrong[] = {"into probabilities", "probability distribution", "sequence length"};
static const qz_contradiction q2b_x[] = {{.phrases = q2b_wrong, .n_phrases = 3,
                                          .feedback = "√dₖ does not turn scores into probabilities"}};
static const qz_concept q2b_rubric[] = {
    {.concept = "the dot products grow with dₖ", .synonyms = q2b_scale, .n_synonyms = 3,
     .contradicts = q2b_x, .n_contradicts = 1},
};

static void test_formula_follow_up(void **state)
{
    qz_question q2b = qz_question_init(QZ_TEXT);
    q2b.id = "q2b";
    q2b.rubric = q2b_rubric;
    q2b.n_rubric = 1;
    q2b.reference = "The dot products grow with dₖ; dividing keeps them near variance 1.";
    qz_question q = qz_question_init(QZ_FORMULA);
    q.id = "q2";
    q.canonical = canonical;
    q.follow_up = &q2b;
    qz_result r;
    assert_int_equal(qz_grade(&q, "softmax(QK^T/sqrt(d_k))V, where dividing by sqrt(d_k) keeps the dot products "
                              "from growing with the dimension", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    assert_non_null(strstr(r.feedback, "as question q2b grades them: Correct"));
    qz_result_free(&r);
    /* a wrong gloss on √d_k: a misconception stated beside a right formula makes the
     * answer wrong (as a false claim beside a right answer), and q2b's grader names it */
    assert_int_equal(qz_grade(&q, "Attention(Q,K,V)=softmax(QKᵀ/√d_k)V. where √d_k normalizes the scores into "
                              "a probability distribution.", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_int_equal(r.mistake, QZ_M_MISCONCEPTION);
    assert_non_null(strstr(r.feedback, "Not right: the formula is right, but the words beside it state "
                                       "something wrong"));
    assert_non_null(strstr(r.feedback, "as question q2b grades them: Not right"));
    assert_non_null(strstr(r.feedback, "√dₖ does not turn scores into probabilities"));
    qz_result_free(&r);
    /* words q2b's grader cannot judge: nothing said about them */
    assert_int_equal(qz_grade(&q, "softmax(QK^T/√d_k)V, where d_k is the dimension of the keys", QZ_EN, &r, NULL),
                     AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    assert_null(strstr(r.feedback, "q2b"));
    qz_result_free(&r);
    /* a legend that says what the formula's own wrong size is ("n is the sequence
     * length") states the formula's slip, no remark for q2b; the same words of d_k do */
    static const char *const legends[] = {"softmax(QK^T / sqrt(n)) V, where n is the sequence length",
                                          "softmax(QK^T/√n)V，其中 n 是序列长度",
                                          "softmax(QK^T/√n)V, with n the sequence length, because the dot "
                                          "products grow"};
    for (size_t i = 0; i < sizeof legends / sizeof *legends; i++) {
        assert_int_equal(qz_grade(&q, legends[i], QZ_EN, &r, NULL), AT_OK);
        assert_int_equal(r.verdict, QZ_PARTIAL);
        assert_non_null(strstr(r.feedback, "not 1/√dₖ"));
        assert_null(strstr(r.feedback, "Not right"));
        qz_result_free(&r);
    }
    /* a false claim about d_k beside a right formula: wrong, as teachers mark it */
    assert_int_equal(qz_grade(&q, "softmax(QK^T/√d_k)V, where d_k is the sequence length", QZ_EN, &r, NULL),
                     AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_int_equal(r.mistake, QZ_M_MISCONCEPTION);
    qz_result_free(&r);
    /* the formula alone: its own verdict, nothing about q2b */
    assert_int_equal(qz_grade(&q, "softmax(QK^T)V", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_PARTIAL);
    assert_null(strstr(r.feedback, "q2b"));
    qz_result_free(&r);
    /* a partly right formula with words: still the formula's verdict */
    assert_int_equal(qz_grade(&q, "softmax(QK^T)V, because the variance grows with d_k", QZ_ZH, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_PARTIAL);
    assert_non_null(strstr(r.feedback, "按 q2b 题评分"));
    assert_true(strstr(r.feedback, "q2b") < r.feedback + r.reveal_at);
    qz_result_free(&r);
    /* a remark that changes the formula makes it wrong, whatever q2b says */
    assert_int_equal(qz_grade(&q, "softmax(QK^T/√d_k)V, and the softmax is applied to V", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);
    qz_result_free(&r);
}

/* The parts of the feedback a screen shows apart: after the verdict-only headline
 * (body_at), and from the expected answer and explanation on (reveal_at). */
static void test_feedback_parts(void **state)
{
    qz_question q = qz_question_init(QZ_FORMULA);
    q.id = "q2";
    q.canonical = canonical;
    q.explanation = "Scaling keeps the softmax out of saturation.";
    qz_result r;
    assert_int_equal(qz_grade(&q, "softmax(QK)V", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_int_equal(r.body_at, strlen("Not right.\n"));
    assert_true(r.body_at < r.reveal_at && r.reveal_at < strlen(r.feedback));
    assert_memory_equal(r.feedback + r.reveal_at, "Expected: ", 10);
    assert_null(memmem(r.feedback, r.reveal_at, q.explanation, strlen(q.explanation)));
    assert_non_null(strstr(r.feedback + r.reveal_at, q.explanation));
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "softmax(QK)V", QZ_ZH, &r, NULL), AT_OK);
    assert_memory_equal(r.feedback + r.reveal_at, "标准形式：", strlen("标准形式："));
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "softmax(QK^T)V", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_PARTIAL);    /* a partial answer holds back the same */
    assert_int_equal(r.body_at, strlen("Partly right: one part is off.\n"));
    assert_memory_equal(r.feedback + r.reveal_at, "Expected: ", 10);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "softmax(QKᵀ/√dₖ)·V", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.body_at, 0);                        /* "Correct: …" says more */
    assert_int_equal(r.reveal_at, strlen(r.feedback));     /* nothing held back */
    qz_result_free(&r);
}

/* Q4 of the self-test, with synonyms in both languages. */
static const char *const q4_dec[] = {"query from the decoder", "decoder", "解码器", "来自解码器"};
static const char *const q4_enc[] = {"encoder output", "encoder", "编码器输出", "编码器"};
static const char *const q4_align[] = {"align", "alignment", "对齐", "翻译", "source word"};
static const qz_concept q4_rubric[] = {
    {.concept = "Q comes from the decoder", .synonyms = q4_dec, .n_synonyms = 4},
    {.concept = "K and V come from the encoder output", .synonyms = q4_enc, .n_synonyms = 4},
    {.concept = "it aligns target words with source words", .synonyms = q4_align, .n_synonyms = 5},
};

static qz_question q4(void)
{
    qz_question q = qz_question_init(QZ_TEXT);
    q.id = "q4";
    q.rubric = q4_rubric;
    q.n_rubric = 3;
    q.min_concepts = 3;
    q.reference = "Q from the decoder; K and V from the encoder output; aligns target to source.";
    return q;
}

static void test_rubric_both_languages(void **state)
{
    unsigned char found[3];
    size_t n;
    assert_int_equal(qz_rubric_match(q4_rubric, 3, "Q 来自解码器，K、V 来自编码器输出，用来对齐源语言和目标语言。",
                                     found, &n, NULL), AT_OK);
    assert_int_equal(n, 3);
    assert_int_equal(qz_rubric_match(q4_rubric, 3, "The queries come from the DECODER; keys and values "
                                     "from the Encoder-Output.", found, &n, NULL), AT_OK);
    assert_int_equal(n, 2);
    assert_true(found[0] && found[1] && !found[2]);
    /* Inflections count: "aligns" is "align". */
    assert_int_equal(qz_rubric_match(q4_rubric, 3, "it aligns the words", found, &n, NULL), AT_OK);
    assert_true(found[2]);
    /* Latin words match whole words only: "misaligned" is not "align". */
    assert_int_equal(qz_rubric_match(q4_rubric, 3, "misaligned", found, &n, NULL), AT_OK);
    assert_int_equal(n, 0);
    /* Full-width letters and stray spaces in Chinese still match. */
    assert_int_equal(qz_rubric_match(q4_rubric, 3, "ＤＥＣＯＤＥＲ 和 编 码 器", found, &n, NULL), AT_OK);
    assert_true(found[0] && found[1]);
    assert_int_equal(qz_rubric_match(q4_rubric, 3, "\xff\xfe", found, &n, NULL), AT_EUTF8);
}

static void test_text_graded(void **state)
{
    qz_question q = q4();
    qz_result r;
    assert_int_equal(qz_grade(&q, "Q from the decoder, K and V from the encoder", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_PARTIAL);
    assert_true(r.score > 0.66 && r.score < 0.67);
    assert_non_null(strstr(r.feedback, "✓ Q comes from the decoder"));
    assert_non_null(strstr(r.feedback, "✗ it aligns target words with source words"));
    assert_non_null(strstr(r.feedback, "Reference answer:"));
    assert_false(r.self_assessed);
    qz_result_self_assess(&r, QZ_CORRECT);
    assert_true(r.self_assessed && r.self_score == 1.0 && r.self_verdict == QZ_CORRECT);
    assert_int_equal(r.verdict, QZ_PARTIAL);   /* the automatic grade is kept */
    assert_true(r.score > 0.66 && r.score < 0.67);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "解码器给出查询，编码器输出给出键和值，用来对齐", QZ_ZH, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "no idea", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "  ", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_MALFORMED);
    qz_result_free(&r);
}

static void test_choice(void **state)
{
    static const qz_option opts[] = {
        {"Q, K and V all from the encoder", 0, "That is the encoder's self-attention."},
        {"Q from the decoder, K and V from the encoder", 1, "Yes: the decoder asks, the source answers."},
        {"Q from the encoder, K and V from the decoder", 0, "The other way round."},
    };
    qz_question q = qz_question_init(QZ_CHOICE);
    q.options = opts;
    q.n_options = 3;
    qz_result r;
    assert_int_equal(qz_grade(&q, "b", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    assert_string_equal(r.expected, "b");
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "(C)", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_non_null(strstr(r.feedback, "The other way round."));
    assert_non_null(strstr(r.feedback, "b) Q from the decoder, K and V from the encoder — the right answer"));   /* one right, not two */
    assert_null(strstr(r.feedback, "also correct"));
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "2", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "q from the decoder, k and v from the encoder", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_CORRECT);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "d", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_MALFORMED);
    qz_result_free(&r);
    assert_int_equal(qz_grade(&q, "a b", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_MALFORMED);   /* one option only */
    qz_result_free(&r);
    q.multiple = 1;
    assert_int_equal(qz_grade(&q, "a b", QZ_EN, &r, NULL), AT_OK);
    assert_int_equal(r.verdict, QZ_WRONG);       /* one right, one wrong: no credit */
    qz_result_free(&r);
}

/* Random formulas from the symbols students type: read or refused, never a crash. */

/* MATLAB and Octave: K' and K.' transpose, ./ .* divide and multiply element by element,
 * exp(S)./sum(exp(S),2) is the softmax of the rows (the axes count from 1), steps with
 * intermediate names, % comments, a function. */
static void test_notation_matlab(void **state)
{
    EXPECT_SAME("S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),2); out = A*V",
                "S = Q*K.'/sqrt(dk); A = exp(S)./sum(exp(S),2); out = A*V",
                "S = Q*K'/sqrt(d_k);\nA = exp(S - max(S,[],2)) ./ sum(exp(S - max(S,[],2)), 2);\nout = A*V;",
                "S = Q*K'/sqrt(dk); E = exp(S - max(S, [], 2)); A = bsxfun(@rdivide, E, sum(E, 2)); out = A*V",
                "% scaled dot-product attention\nS = (Q * K') / sqrt(dk);  % n x n scores\n"
                "P = exp(S) ./ sum(exp(S), 2);  % row softmax\nY = P * V;",
                "S = Q*K'*(1/sqrt(dk)); W = exp(S)./repmat(sum(exp(S),2),1,size(S,2)); out = W*V",
                "S = Q*K'./sqrt(size(K,2)); W = exp(S)./sum(exp(S),2); out = W*V",
                "S = Q*K'/sqrt(dk);\nS = S - max(S, [], 2);\nW = exp(S);\nW = W ./ sum(W, 2);\nout = W * V;",
                "out = (exp(Q*K'/sqrt(dk)) ./ sum(exp(Q*K'/sqrt(dk)), 2)) * V",
                "S = mtimes(Q, K') / realsqrt(dk); W = exp(S)./sum(exp(S),2); out = W*V",
                "function out = attn(Q, K, V)\n  S = Q*K'/sqrt(size(K,2));\n  A = exp(S)./sum(exp(S),2);\n"
                "  out = A*V;\nend",
                "attn = @(Q, K, V) softmax(Q*K'/sqrt(size(K,2)))*V",
                "In MATLAB: S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),2); out = A*V",
                "```matlab\nS = Q*K'/sqrt(dk);\nA = exp(S)./sum(exp(S),2);\nout = A*V;\n```",
                "我用 MATLAB 写：S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),2); out = A*V");
}

/* Julia: K' transpose, exp.(S) and ./ broadcast, softmax(S; dims=2) (the rows), √dk,
 * maximum, comments after #, a function. */
static void test_notation_julia(void **state)
{
    EXPECT_SAME("S = Q*K'/sqrt(dk); A = softmax(S; dims=2); out = A*V",
                "S = Q*K'/sqrt(dk); A = softmax(S, dims=2); out = A*V",
                "S = Q*K' ./ √dk  # scores\nA = exp.(S) ./ sum(exp.(S), dims=2)  # row softmax\nA*V",
                "S = Q*K' ./ √dk; A = exp.(S .- maximum(S, dims=2)); A = A ./ sum(A, dims=2); A*V",
                "S = (Q * K') ./ sqrt(dk)\nE = exp.(S)\nW = E ./ sum(E; dims=2)\nW * V",
                "using NNlib\nS = Q*K'/sqrt(dk)\nA = NNlib.softmax(S; dims=2)\nA*V",
                "S = Q*permutedims(K)/sqrt(dk); A = softmax(S, dims=2); A*V",
                "A = mapslices(softmax, Q*K'/sqrt(dk); dims=2); A*V",
                "S = Q*K' .* (1/sqrt(dk)); A = softmax(S; dims=2); A*V",
                "S = Q*K'*inv(sqrt(dk)); A = softmax(S; dims=2); A*V",
                "S = Q*K'/√dk\nA = @. exp(S)\nA = A ./ sum(A, dims=2)\nA*V",
                "function attn(Q, K, V)\n    S = Q*K' / sqrt(size(K, 2))\n    A = softmax(S; dims=2)\n"
                "    return A*V\nend",
                "attn(Q, K, V) = softmax(Q*K'/sqrt(size(K, 2)); dims=2) * V",
                "Julia 版本：S = Q*K'/√dk; A = exp.(S) ./ sum(exp.(S), dims=2); out = A*V（按行 softmax）");
}

/* Mathematica: '.' is the matrix product, Transpose[K], K\[Transpose], Sqrt[dk],
 * Exp[S]/Total[Exp[S], {2}] (each row's total), SoftmaxLayer[], Map, // N, (* … *). */
static void test_notation_mathematica(void **state)
{
    EXPECT_SAME("Softmax[Q.Transpose[K]/Sqrt[dk]].V",
                "S = Q.Transpose[K]/Sqrt[dk]; A = Exp[S]/Total[Exp[S], {2}]; A.V",
                "S = Q.Transpose[K]/Sqrt[dk]; A = Exp[S]/Total[Exp[S], {2}]; A.V // N",
                "s = Q.K\\[Transpose]/Sqrt[dk]; a = Exp[s]/Total[Exp[s], {2}]; a.V",
                "w = SoftmaxLayer[][Q.Transpose[K]/Sqrt[dk]]; w.V",
                "S = Q.Transpose[K]/Sqrt[dk]; w = Map[SoftmaxLayer[], S]; w.V",
                "(* attention *) S = Q.Transpose[K]/Sqrt[dk]; W = Exp[S]/Total[Exp[S], {2}]; W.V",
                "S := Q.Transpose[K]/Sqrt[dk]; W := Exp[S]/Total[Exp[S], {2}]; W.V",
                "Dot[Softmax[Dot[Q, Transpose[K]]/Sqrt[dk]], V]",
                "S = Q.Transpose[K]/Sqrt[dk]; W = Exp[S - Max[S]]/Total[Exp[S - Max[S]], {2}]; W.V",
                "S = Q.Transpose[K] dk^(-1/2); W = Exp[S]/(Total /@ Exp[S]); W.V",
                "S = Q.Transpose[K]/Sqrt[dk]; W = Exp[S]/Total[Transpose[Exp[S]]]; W.V",
                "N[Softmax[Q.Transpose[K]/Sqrt[dk]].V]",
                "attn[q_, k_, v_] := Module[{s, w}, s = q.Transpose[k]/Sqrt[Last[Dimensions[k]]]; "
                "w = Exp[s]/Total[Exp[s], {2}]; w.v]");
}

/* R: t(K), %*%, <-, exp(S) / rowSums(exp(S)) (each row divided by its sum), apply, sweep,
 * tcrossprod, a function. */
static void test_notation_r(void **state)
{
    EXPECT_SAME("S <- Q %*% t(K) / sqrt(dk); A <- exp(S) / rowSums(exp(S)); out <- A %*% V",
                "S <- Q %*% t(K) / sqrt(dk)\nA <- exp(S) / rowSums(exp(S))\nA %*% V",
                "A <- exp(Q %*% t(K) / sqrt(dk)); A <- A / rowSums(A); A %*% V",
                "S <- tcrossprod(Q, K) / sqrt(ncol(K)); A <- exp(S) / rowSums(exp(S)); A %*% V",
                "S <- Q %*% t(K) / sqrt(dk); E <- exp(S); A <- sweep(E, 1, rowSums(E), \"/\"); A %*% V",
                "S <- Q %*% t(K) / sqrt(dk); E <- exp(S); A <- E / apply(E, 1, sum); A %*% V",
                "S <- Q %*% t(K) / sqrt(dk); A <- t(apply(S, 1, function(r) exp(r) / sum(exp(r)))); A %*% V",
                "softmax <- function(x) exp(x) / sum(exp(x))\nS <- Q %*% t(K) / sqrt(dk)\n"
                "A <- t(apply(S, 1, softmax))\nA %*% V",
                "S <- Q %*% t(K) / sqrt(dim(K)[2]); A <- exp(S) / rowSums(exp(S)); A %*% V",
                "attn <- function(Q, K, V) {\n  S <- Q %*% t(K) / sqrt(ncol(K))\n  A <- exp(S) / rowSums(exp(S))\n"
                "  A %*% V\n}");
}

/* A slip written in a matrix language is the same slip written in NumPy: the softmax's
 * sum over the queries' axis (MATLAB's sum(E, 1) and sum(E) without its axis, Julia's
 * dims=1, R's colSums, Mathematica's Total[E]) or over every entry ('all', Total[E, 2],
 * R's sum), no transpose, d_k for √d_k, no scale, V missing or element by element. */
static void test_matrix_language_slips(void **state)
{
    static const char *const rows_axis = "S = Q @ K.T / np.sqrt(dk); A = np.exp(S) / np.sum(np.exp(S), axis=0); "
                                         "out = A @ V";
    EXPECT_SAME_SLIPS(
        {"S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),1); out = A*V", rows_axis, QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S)); out = A*V", rows_axis, QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),'all'); out = A*V", rows_axis, QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S(:))); out = A*V", rows_axis, QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); E = exp(S - max(S,[],2)); A = E./sum(E,1); out = A*V", rows_axis,
         QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S = Q*K' ./ √dk; A = exp.(S) ./ sum(exp.(S), dims=1); out = A*V", rows_axis, QZ_F_SOFTMAX_AXIS,
         QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = softmax(S; dims=1); out = A*V", "softmax(Q @ K.T / np.sqrt(dk), axis=0) @ V",
         QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"A = mapslices(softmax, Q*K'/sqrt(dk); dims=1); A*V", "softmax(Q @ K.T / np.sqrt(dk), axis=0) @ V",
         QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S <- Q %*% t(K) / sqrt(dk); A <- exp(S) / colSums(exp(S)); out <- A %*% V", rows_axis,
         QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S <- Q %*% t(K) / sqrt(dk); A <- exp(S) / sum(exp(S)); out <- A %*% V", rows_axis, QZ_F_SOFTMAX_AXIS,
         QZ_PARTIAL},
        {"S <- Q %*% t(K) / sqrt(dk); E <- exp(S); A <- E / apply(E, 2, sum); A %*% V", rows_axis,
         QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S = Q.Transpose[K]/Sqrt[dk]; A = Exp[S]/Total[Exp[S]]; A.V", rows_axis, QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"S = Q.Transpose[K]/Sqrt[dk]; A = Exp[S]/Total[Exp[S], 2]; A.V", rows_axis, QZ_F_SOFTMAX_AXIS,
         QZ_PARTIAL},
        {"S = Q.Transpose[K]/Sqrt[dk]; A = Exp[S]/Total[Exp[S], Infinity]; A.V", rows_axis, QZ_F_SOFTMAX_AXIS,
         QZ_PARTIAL},
        {"S = Q*K/sqrt(dk); A = exp(S)./sum(exp(S),2); out = A*V",
         "S = Q @ K / np.sqrt(dk); A = np.exp(S) / np.exp(S).sum(-1, keepdims=True); out = A @ V",
         QZ_F_K_NOT_TRANSPOSED, QZ_PARTIAL},
        {"S = Q.K/Sqrt[dk]; A = Exp[S]/Total[Exp[S], {2}]; A.V", "softmax(Q @ K / np.sqrt(dk)) @ V",
         QZ_F_K_NOT_TRANSPOSED, QZ_PARTIAL},
        {"S <- Q %*% K / sqrt(dk); A <- exp(S) / rowSums(exp(S)); out <- A %*% V",
         "softmax(Q @ K / np.sqrt(dk)) @ V", QZ_F_K_NOT_TRANSPOSED, QZ_PARTIAL},
        {"S = Q*K'/dk; A = exp(S)./sum(exp(S),2); out = A*V", "softmax(Q @ K.T / dk) @ V", QZ_F_DK_NOT_SQRT,
         QZ_PARTIAL},
        {"S = Q*K' ./ dk; A = softmax(S; dims=2); out = A*V", "softmax(Q @ K.T / dk) @ V", QZ_F_DK_NOT_SQRT,
         QZ_PARTIAL},
        {"S = Q.Transpose[K]/dk; A = Exp[S]/Total[Exp[S], {2}]; A.V", "softmax(Q @ K.T / dk) @ V",
         QZ_F_DK_NOT_SQRT, QZ_PARTIAL},
        {"S = Q*K'; A = exp(S)./sum(exp(S),2); out = A*V", "softmax(Q @ K.T) @ V", QZ_F_NO_SCALE, QZ_PARTIAL},
        {"S <- Q %*% t(K); A <- exp(S) / rowSums(exp(S)); out <- A %*% V", "softmax(Q @ K.T) @ V",
         QZ_F_NO_SCALE, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),2); out = A", "softmax(Q @ K.T / np.sqrt(dk))",
         QZ_F_V_MISSING, QZ_PARTIAL},
        {"S = Q*K'/√dk; A = softmax(S; dims=2); A", "softmax(Q @ K.T / np.sqrt(dk))", QZ_F_V_MISSING, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),2); out = A.*V", "softmax(Q @ K.T / np.sqrt(dk)) * V",
         QZ_F_V_ELEMENTWISE, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = exp(S)./sum(exp(S),2); out = V*A", "V @ softmax(Q @ K.T / np.sqrt(dk))",
         QZ_F_V_LEFT, QZ_PARTIAL},
        {"S = Q*K'/sqrt(dk); A = exp(S); out = A*V", "S = Q @ K.T / np.sqrt(dk); W = np.exp(S); out = W @ V",
         QZ_F_NOT_SOFTMAX, QZ_WRONG},
        {"S = Q*K'; A = exp(S)./sum(exp(S),1); out = A*V", "softmax(Q @ K.T, axis=0) @ V",
         QZ_F_NO_SCALE | QZ_F_SOFTMAX_AXIS, QZ_WRONG},
        {"function attn(Q, K, V)\n    S = Q*K'\n    A = softmax(S; dims=2)\n    return A*V\nend",
         "softmax(Q @ K.T) @ V", QZ_F_NO_SCALE, QZ_PARTIAL});
    /* R's apply gives a row's softmax as a column: without t() the weights are transposed */
    expect_graded("S <- Q %*% t(K) / sqrt(dk); A <- apply(S, 1, function(r) exp(r) / sum(exp(r))); A %*% V",
                  QZ_WRONG, NULL);
}

/* The component form: out_i = Σ_j α_ij v_j is the row of αV, q_i·k_j (q_iᵀk_j, <q_i, k_j>)
 * the (i, j) entry of QKᵀ, a normaliser named Z_i the softmax's; Σ and q·k with their
 * indices left out; a loop over the queries. */
static void test_notation_component_form(void **state)
{
    EXPECT_SAME("out_i = Σ_j [exp(q_i·k_j/√d_k) / Z_i] v_j, Z_i = Σ_j exp(q_i·k_j/√d_k)",
                "out_i = Σ_j [exp(q_i·k_j/√d_k) / Z_i] v_j, Z_i = Σ_l exp(q_i·k_l/√d_k)",
                "out_i = Σ_j exp(q_i·k_j/√d_k) v_j / Z_i, where Z_i = Σ_j exp(q_i·k_j/√d_k)",
                "out_i = (1/Z_i) Σ_j exp(q_i·k_j/√d_k) v_j, Z_i = Σ_j exp(q_i·k_j/√d_k)",
                "Z_i = Σ_j exp(q_i·k_j/√d_k); out_i = Σ_j exp(q_i·k_j/√d_k) v_j / Z_i",
                "out_i = \\frac{1}{Z_i} \\sum_j \\exp\\left(\\frac{q_i^\\top k_j}{\\sqrt{d_k}}\\right) v_j, \\quad "
                "Z_i = \\sum_j \\exp\\left(\\frac{q_i^\\top k_j}{\\sqrt{d_k}}\\right)",
                "$$o_i = \\sum_{j=1}^{n} \\frac{e^{q_i \\cdot k_j/\\sqrt{d_k}}}{Z_i} v_j,\\qquad "
                "Z_i = \\sum_{l=1}^{n} e^{q_i \\cdot k_l/\\sqrt{d_k}}$$",
                "z_i = Σ_j α_ij v_j, α_ij = exp(q_i·k_j/√d_k)/Σ_l exp(q_i·k_l/√d_k)",
                "z_i = Σ_j α_ij v_j，α_ij = exp(q_i·k_j/√d_k)/Z_i，Z_i = Σ_l exp(q_i·k_l/√d_k) 是配分函数",
                "z_i = Σ_j α_ij v_j，其中 α_ij = exp(q_i·k_j/√d_k)/Z_i，而 Z_i = Σ_l exp(q_i·k_l/√d_k) 是归一化常数",
                "输出 = Σ w_j v_j，w_j = exp(q·k_j/√dk)/Σ exp(q·k/√dk)",
                "sum_j softmax_j(q_i . k_j / sqrt(d_k)) v_j",
                "\\sum_j \\frac{\\exp(q_i^\\top k_j/\\sqrt{d_k})}{\\sum_l \\exp(q_i^\\top k_l/\\sqrt{d_k})} v_j",
                "out_i = Σ_j exp(<q_i,k_j>/√d_k) v_j / Σ_j exp(<q_i,k_j>/√d_k)",
                "out_i = Σ_j α_ij v_j with α_ij = exp(s_ij)/Σ_l exp(s_il), s_ij = q_i^T k_j/√d_k",
                "o_i = Σ_j π_ij v_j, π_ij = exp(q_iᵀk_j/√d_k) / Σ_j' exp(q_iᵀk_j'/√d_k)",
                "the output for query i is Σ_j α_ij v_j where α_ij = exp(q_i·k_j/√d_k)/Σ_l exp(q_i·k_l/√d_k)",
                "for each query i: w = softmax(q_i·k_j/√dk over j); out_i = Σ_j w_j v_j",
                "for each query q_i: s_j = q_i·k_j/√d_k for every j; w = softmax(s); out_i = Σ_j w_j v_j",
                "for each query i: scores_j = q_i · k_j / √d_k; weights = softmax(scores); "
                "out_i = Σ_j weights_j v_j",
                "for i in range(n): w = softmax(Q[i] @ K.T / np.sqrt(dk)); out[i] = w @ V",
                "for i in range(n):\n    s = Q[i] @ K.T / np.sqrt(d_k)\n    w = np.exp(s) / np.exp(s).sum()\n"
                "    out[i] = w @ V",
                "for i = 1:n\n  s = Q(i,:) * K' / sqrt(dk);\n  w = exp(s) / sum(exp(s));\n  out(i,:) = w * V;\nend",
                "for i in 1:n\n    s = Q[i, :]' * K' / √dk\n    w = exp.(s) ./ sum(exp.(s))\n    out[i, :] = w * V\nend",
                "for (i in 1:n) { s <- Q[i, ] %*% t(K) / sqrt(dk); w <- exp(s) / sum(exp(s)); "
                "out[i, ] <- w %*% V }",
                "for i in range(n): s = K @ Q[i] / np.sqrt(dk); w = np.exp(s) / np.exp(s).sum(); out[i] = w @ V");
}

/* Every slip of the component form is the same slip of the matrix form. */
static void test_component_form_slips(void **state)
{
    EXPECT_SAME_SLIPS(
        {"out_i = Σ_j [exp(q_i·k_j) / Z_i] v_j, Z_i = Σ_j exp(q_i·k_j)", "softmax(QK^T)V", QZ_F_NO_SCALE,
         QZ_PARTIAL},
        {"out_i = Σ_j [exp(q_i·k_j/d_k) / Z_i] v_j, Z_i = Σ_j exp(q_i·k_j/d_k)", "softmax(QK^T/d_k)V",
         QZ_F_DK_NOT_SQRT, QZ_PARTIAL},
        {"out_i = Σ_j [exp(q_i·k_j/√d_k) / Z_i] v_j, Z_i = Σ_i exp(q_i·k_j/√d_k)",
         "softmax(QK^T/sqrt(d_k), dim=0)V", QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"out_i = (1/Z_i) Σ_j exp(q_i·k_j·√d_k) v_j, Z_i = Σ_j exp(q_i·k_j·√d_k)", "softmax(QK^T sqrt(d_k))V",
         QZ_F_SCALE_MULTIPLIED, QZ_WRONG},
        {"z_i = Σ_j α_ij v_j，α_ij = exp(q_i·k_j)/Z_i，Z_i = Σ_l exp(q_i·k_l) 是配分函数", "softmax(QK^T)V",
         QZ_F_NO_SCALE, QZ_PARTIAL},
        {"输出 = Σ w_j v_j，w_j = exp(q·k_j)/Σ exp(q·k)", "softmax(QK^T)V", QZ_F_NO_SCALE, QZ_PARTIAL},
        {"for each query i: w = softmax(q_i·k_j over j); out_i = Σ_j w_j v_j", "softmax(QK^T)V", QZ_F_NO_SCALE,
         QZ_PARTIAL},
        {"for each query i: w = softmax(q_i·k_j/√dk over j); out_i = Σ_j w_j", "softmax(QK^T/sqrt(d_k))",
         QZ_F_V_MISSING, QZ_PARTIAL},
        {"\\sum_j \\frac{\\exp(q_i^\\top k_j)}{\\sum_l \\exp(q_i^\\top k_l)} v_j", "softmax(QK^T)V", QZ_F_NO_SCALE,
         QZ_PARTIAL},
        {"for i = 1:n\n  s = Q(i,:) * K' / dk;\n  w = exp(s) / sum(exp(s));\n  out(i,:) = w * V;\nend",
         "softmax(QK^T/d_k)V", QZ_F_DK_NOT_SQRT, QZ_PARTIAL},
        {"for i in range(n): w = softmax(Q[i] @ K / np.sqrt(dk)); out[i] = w @ V", "softmax(QK/sqrt(d_k))V",
         QZ_F_K_NOT_TRANSPOSED, QZ_PARTIAL},
        {"for i = 1:n\n  s = Q(i,:) * K' / sqrt(dk);\n  w = exp(s) / sum(exp(s), 1);\n  out(i,:) = w * V;\nend",
         "softmax(QK^T/sqrt(d_k), dim=0)V", QZ_F_SOFTMAX_AXIS, QZ_PARTIAL},
        {"out_i = Σ_j exp(q_i·k_j/√d_k) v_j", "np.exp(Q @ K.T / np.sqrt(d_k)) @ V", QZ_F_NOT_SOFTMAX, QZ_WRONG},
        {"out_i = Σ_j [exp(q_i·q_j/√d_k) / Z_i] v_j, Z_i = Σ_j exp(q_i·q_j/√d_k)", "softmax(QQ^T/sqrt(d_k))V",
         QZ_F_WRONG_PRODUCT, QZ_WRONG});
    /* a row's sum is over its one axis in NumPy (axis=0 of Q[i] @ K.T); a loop over the
     * heads takes whole matrices, whose axis 0 is the queries' */
    expect_formula("for i in range(n): s = Q[i] @ K.T / np.sqrt(dk); w = np.exp(s) / np.exp(s).sum(axis=0); "
                   "out[i] = w @ V", 0);
    expect_formula("for h in range(n_heads): S = Q[h] @ K[h].T / np.sqrt(dk); W = np.exp(S) / np.exp(S).sum(axis=0); "
                   "out[h] = W @ V[h]", QZ_F_SOFTMAX_AXIS);
}

/* Hostile answers in the new notations are read or refused, never more: very long, brackets
 * left open or closed too often, nested deep, loops and functions never closed. */
static void test_matrix_languages_hostile(void **state)
{
    static const char *const pieces[] = {"S = ", "Q*K'", "K.'", ".*", "./", "exp.(", "sum(", ",2)", ",'all')",
                                         ",[],", ")", "(", "[", "]", "{", "}", "Total[", "Transpose[", "Sqrt[",
                                         "SoftmaxLayer[]", "Map[", ";", "\n", "% c", "%*%", " <- ", "t(",
                                         "rowSums(", "apply(", "function(r) ", "for i in 1:n\n", "end",
                                         "for (i in 1:n) {", "Q[i,:]", "out[i] = ", "Σ_j ", "α_ij ", "v_j",
                                         "q_i·k_j", "/Z_i", "Z_i = ", "(1/Z_i)", "<q_i,k_j>", "(*", "*)",
                                         "\\[Transpose]", "//N", " /@ ", "@. ", "dims=2", "√dk", "V", "w_j",
                                         "over j", "sweep(", "bsxfun(@rdivide,", "mapslices(softmax,", "S(:)",
                                         "function out = f(Q,K,V)\n", "f = @(Q,K,V) ", "f[q_] := Module[{s}, "};
    unsigned long long x = 88172645463325252ULL;
    static char buf[8192];
    for (int i = 0; i < 4000; i++) {
        size_t len = check_random_join(buf, sizeof buf, pieces, sizeof pieces / sizeof pieces[0],
                                       i < 3900 ? 24 : 600, &x);
        qz_formula_diag d;
        at_error err;
        int rc = qz_formula_diagnose(buf, canonical, &d, &err);
        if ((rc != AT_OK && !(rc == AT_EINVAL && err.msg[0])) || d.start > d.end || d.end > len) {
            print_error("'%s': rc %d [%zu, %zu)\n", buf, rc, d.start, d.end);
            fail();
        }
    }
    /* long and deep: read or refused in linear time */
    size_t k = 0;
    for (; k + 4 < sizeof buf / 2; k += 4)
        memcpy(buf + k, "S(:)", 4);
    buf[k] = '\0';
    unsigned m;
    at_error err;
    int rc = qz_formula_compare(buf, canonical, &m, &err);
    assert_true(rc == AT_OK || rc == AT_EINVAL);
    memset(buf, '(', sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    rc = qz_formula_compare(buf, canonical, &m, &err);
    assert_true(rc == AT_OK || rc == AT_EINVAL);
}

static void test_random_formulas_never_crash(void **state)
{
    static const char *const pieces[] = {"softmax", "(", ")", "Q", "K", "V", "^T", "ᵀ", "'", "/",
                                         "sqrt", "√", "d_k", "dₖ", "*", "·", "\\frac{", "}", "{", "^",
                                         "-", "2", "0.5", "=", " ", "\\sqrt", "@", ".T", "+", "\xe2\x88"};
    unsigned long long x = 2463534242ULL;
    for (int i = 0; i < 20000; i++) {
        char buf[400];
        check_random_join(buf, sizeof buf, pieces, sizeof pieces / sizeof pieces[0], 16, &x);
        unsigned m;
        at_error err;
        int rc = qz_formula_compare(buf, canonical, &m, &err);
        if (rc != AT_OK && !(rc == AT_EINVAL && err.msg[0])) {
            print_error("'%s': rc %d\n", buf, rc);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formula_notations),
        cmocka_unit_test(test_notation_unicode),
        cmocka_unit_test(test_notation_ascii),
        cmocka_unit_test(test_notation_latex),
        cmocka_unit_test(test_notation_full_width),
        cmocka_unit_test(test_formula_in_steps),
        cmocka_unit_test(test_notation_code),
        cmocka_unit_test(test_notation_words),
        cmocka_unit_test(test_notation_steps_and_names),
        cmocka_unit_test(test_notation_ime_slips),
        cmocka_unit_test(test_notation_dictated),
        cmocka_unit_test(test_notation_softmax_slips),
        cmocka_unit_test(test_notation_definitions_after),
        cmocka_unit_test(test_notation_prefix_stop_names),
        cmocka_unit_test(test_notation_equivalent),
        cmocka_unit_test(test_notation_index_form),
        cmocka_unit_test(test_formula_index_form_slips),
        cmocka_unit_test(test_formula_with_words),
        cmocka_unit_test(test_formula_one_slip),
        cmocka_unit_test(test_formula_wrong),
        cmocka_unit_test(test_formula_right_with_more),
        cmocka_unit_test(test_formula_in_a_function),
        cmocka_unit_test(test_formula_feedback_holds_back),
        cmocka_unit_test(test_formula_follow_up),
        cmocka_unit_test(test_formula_mistakes),
        cmocka_unit_test(test_formula_unreadable),
        cmocka_unit_test(test_formula_graded),
        cmocka_unit_test(test_rubric_both_languages),
        cmocka_unit_test(test_text_graded),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_feedback_parts),
        cmocka_unit_test(test_notation_matlab),
        cmocka_unit_test(test_notation_julia),
        cmocka_unit_test(test_notation_mathematica),
        cmocka_unit_test(test_notation_r),
        cmocka_unit_test(test_matrix_language_slips),
        cmocka_unit_test(test_notation_component_form),
        cmocka_unit_test(test_component_form_slips),
        cmocka_unit_test(test_matrix_languages_hostile),
        cmocka_unit_test(test_random_formulas_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
