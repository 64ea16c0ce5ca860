/* The mini-model's operations, each a forward/backward pair on plain float arrays
 * (the backward adds into its gradient outputs: callers zero them once per step).
 * Shapes are [rows × cols], row-major. Matrix products go through cblas_sgemm.
 * Attention's forward is the engine's at_mha_forward (attention.h); its backward
 * is here. */
#ifndef AT_MODEL_OPS_H
#define AT_MODEL_OPS_H

#include <stddef.h>

/* C (+)= op(A)·op(B): op(A) [m × k], op(B) [k × n], C [m × n]; lda, ldb, ldc row
 * strides; ta/tb = 1 means the stored matrix is the transpose. */
void at_gemm(int ta, int tb, size_t m, size_t n, size_t k, const float *A, size_t lda,
             const float *B, size_t ldb, float beta, float *C, size_t ldc);

/* Layer norm (Ba et al. 2016): out = (x − mean) / √(var + 1e-5) · g + b, per row.
 *   x, out [n × d]; g, b [d]; mean, rstd [n] (kept for the backward). */
void at_layernorm_forward(size_t n, size_t d, const float *x, const float *g, const float *b,
                          float *out, float *mean, float *rstd);
/* dx, dg, db += the gradients given dout [n × d]. */
void at_layernorm_backward(size_t n, size_t d, const float *x, const float *g,
                           const float *mean, const float *rstd, const float *dout,
                           float *dx, float *dg, float *db);

/* out = x·W + b: x [n × d_in], W [d_in × d_out], b [d_out] or NULL, out [n × d_out]. */
void at_linear_forward(size_t n, size_t d_in, size_t d_out, const float *x, const float *W,
                       const float *b, float *out);
/* dx += dout·Wᵀ (dx may be NULL), dW += xᵀ·dout, db += Σ rows of dout (db may be NULL). */
void at_linear_backward(size_t n, size_t d_in, size_t d_out, const float *x, const float *W,
                        const float *dout, float *dx, float *dW, float *db);

/* GELU, tanh form (Hendrycks & Gimpel 2016): x, out [len]. */
void at_gelu_forward(size_t len, const float *x, float *out);
void at_gelu_backward(size_t len, const float *x, const float *dout, float *dx);

/* Backward of multi-head self-attention's core, softmax(Q_h K_hᵀ · scale) V_h per head
 * (Vaswani et al. 2017 eq. 1), heads as column slices of width d / H:
 *   q, k, v [n × d]; weights [H × n × n] (from the forward); dheads [n × d] the
 *   gradient of the concatenated head outputs; dweights [H × n × n] or NULL: a
 *   gradient on the weights themselves (a loss on the attention pattern); dq, dk,
 *   dv [n × d] += gradients; scratch [2 × n × n]. A causal mask is honoured through
 *   the zero weights. */
void at_attention_backward(size_t n, size_t d, size_t H, float scale, const float *q,
                           const float *k, const float *v, const float *weights,
                           const float *dheads, const float *dweights, float *dq, float *dk,
                           float *dv, float *scratch);

/* Loss of the antecedent prediction: logits [V]; target set S of token rows
 * (the antecedent's tokens, e.g. 小 and 明); loss = −log Σ_{t∈S} softmax(logits)_t.
 * probs [V] receives the softmax. Returns the loss. */
float at_set_xent_forward(size_t V, const float *logits, const long *S, size_t n_S, float *probs);
/* dlogits += the gradient (p_j − [j∈S] p_j / P_S) · scale. */
void at_set_xent_backward(size_t V, const float *probs, const long *S, size_t n_S, float scale,
                          float *dlogits);

#endif
