/* Scaled dot-product attention, multi-head attention and cross-attention on
 * OpenBLAS (cblas_sgemm).
 *
 * Source: Vaswani et al. 2017, "Attention Is All You Need":
 *   eq. (1)  Attention(Q, K, V) = softmax(QKᵀ / √d_k) V
 *   §3.2.2   MultiHead(Q, K, V) = Concat(head_1, …, head_h) W^O,
 *            head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)
 *   §3.2.3   causal (decoder) masking; encoder–decoder (cross-) attention.
 *
 * All matrices are row-major float. Shapes are written [rows × cols].
 * The engine does no I/O and keeps no global state except the BLAS thread count. */
#ifndef AT_ATTENTION_H
#define AT_ATTENTION_H

#include <stddef.h>
#include "engine/error.h"

/* Numerically stable softmax of one row, in place.
 *   x        [n]  scores in, weights out
 *   visible  [n]  1 = may attend, 0 = masked; NULL = all visible
 * Masked entries are skipped (never read: a NaN or inf there cannot leak) and
 * come out exactly 0. The row maximum is taken over visible finite-or-inf
 * entries starting from -INFINITY. Returns 1 if no entry is visible (the row is
 * "fully masked": all weights are 0, never NaN), else 0. n = 0 returns 1. */
int at_softmax_row(float *x, const unsigned char *visible, size_t n);

/* The same in double precision, for hand calculations and grading (scores that a
 * person types, such as 7999.99, are not representable in float). */
int at_softmax_row_f64(double *x, const unsigned char *visible, size_t n);

/* Which keys a query may see. visible(i, j) holds when all of:
 *   !causal || j <= i                          (causal mask, decoder §3.2.3)
 *   !key_padding || !key_padding[j]            (padding mask, [n_k], 1 = pad)
 *   !allowed || allowed[i * n_k + j]           (arbitrary mask, [n_q × n_k])  */
typedef struct at_mask {
    int causal;
    const unsigned char *key_padding;
    const unsigned char *allowed;
} at_mask;

/* Scaled dot-product attention, Vaswani et al. 2017 eq. (1).
 *   n_q, n_k, d_k, d_v  > 0, else AT_EINVAL (never a division by zero)
 *   scale   multiplier on QKᵀ: 1/√d_k normally (at_attn_config_init sets it),
 *           1 for "no scaling"
 *   ld_*    row strides in floats (0 = dense: d_k for Q and K, d_v for V and out),
 *           so a head can be a column slice of a wider matrix. */
typedef struct at_attn_config {
    size_t n_q, n_k, d_k, d_v;
    float scale;
    at_mask mask;
    size_t ld_q, ld_k, ld_v, ld_out;
} at_attn_config;

/* A config with scale = 1/√d_k, no mask, dense strides. */
at_attn_config at_attn_config_init(size_t n_q, size_t n_k, size_t d_k, size_t d_v);

/* Optional intermediates (caller-owned buffers, each may be NULL):
 *   scores  [n_q × n_k]  raw QKᵀ
 *   scaled  [n_q × n_k]  QKᵀ · scale
 * Masked entries are written as -INFINITY in both. */
typedef struct at_attn_trace {
    float *scores;
    float *scaled;
} at_attn_trace;

/* out = softmax(mask(QKᵀ · scale)) V.
 *   Q [n_q × d_k], K [n_k × d_k], V [n_k × d_v]      (strides ld_q, ld_k, ld_v)
 *   weights       [n_q × n_k]  dense; receives the attention weights (each visible
 *                              row sums to 1; masked entries 0). NULL: nobody asks
 *                              for them, and the output is computed in O(n) memory,
 *                              tiles of keys with the online softmax (Milakov &
 *                              Gimelshein 2018), no allocation; then trace must not
 *                              ask for scores either (AT_EINVAL)
 *   out           [n_q × d_v]  required (stride ld_out)
 *   fully_masked  [n_q]        optional; 1 where a row had no visible key
 *                              (its weights and output are all 0)
 *   trace         optional, see at_attn_trace
 * Masked keys are skipped, not added to: non-finite values in a masked key or
 * value never reach the output; a NaN score that no mask hides (a NaN, or ∞·0, in Q
 * or K) is AT_EINVAL naming the query and key (1-based), never a row shown as masked.
 * Returns AT_OK, or AT_EINVAL / AT_ENOMEM with err filled.
 * A non-finite value in V is handled row by row (sgemm would spread 0·NaN).
 * With weights, allocates nothing but one mask row (n_k bytes) when masked with
 * n_k > 256, and works in blocks of query rows so that each block's scores stay in
 * cache. */
int at_attention_forward(const at_attn_config *cfg, const float *Q, const float *K,
                         const float *V, float *weights, float *out,
                         unsigned char *fully_masked, const at_attn_trace *trace,
                         at_error *err);

/* Weights of multi-head attention (§3.2.2). Each matrix [d_model × d_model],
 * applied as X·W (row vector times matrix); head h uses columns
 * h·d_head … (h+1)·d_head − 1 of W_q, W_k, W_v and rows of W_o likewise,
 * d_head = d_model / n_heads (n_heads must divide d_model). Biases optional
 * ([d_model] each, NULL = none). The struct borrows; it frees nothing. */
typedef struct at_mha_weights {
    size_t d_model, n_heads;
    const float *W_q, *W_k, *W_v, *W_o;
    const float *b_q, *b_k, *b_v, *b_o;
} at_mha_weights;

/* Optional intermediates of at_mha_forward (caller-owned, each may be NULL):
 *   q, k, v        [n_q × d_model], [n_k × d_model], [n_k × d_model] projections
 *   scores, scaled [n_heads × n_q × n_k]
 *   heads_out      [n_q × d_model]  concatenated per-head outputs before W_o */
typedef struct at_mha_trace {
    float *q, *k, *v;
    float *scores, *scaled;
    float *heads_out;
} at_mha_trace;

/* Reusable scratch memory, so repeated calls allocate nothing.
 * Zero-initialise; release with at_workspace_free. */
typedef struct at_workspace {
    float *data;
    size_t cap;   /* floats */
} at_workspace;

/* Returns a buffer of at least n floats (contents undefined), or NULL on ENOMEM. */
float *at_workspace_reserve(at_workspace *ws, size_t n);
void at_workspace_free(at_workspace *ws);

/* Multi-head attention. Self-attention: pass X_kv = X_q and n_k = n_q.
 * Cross-attention (encoder–decoder, §3.2.3): queries from X_q (decoder),
 * keys and values from X_kv (encoder output).
 *   X_q [n_q × d_model], X_kv [n_k × d_model]
 *   scale          multiplier on scores (1/√d_head normally; 1 = no scaling)
 *   out            [n_q × d_model] required
 *   weights        [n_heads × n_q × n_k] optional (per-head attention weights);
 *                  without them (and without traced scores), more than 512 keys are
 *                  attended in O(n) memory (see at_mha_attend)
 *   fully_masked   [n_q] optional (the mask is shared by all heads)
 * Returns AT_OK, AT_EINVAL (shapes), AT_ERANGE (sizes overflow) or AT_ENOMEM. */
int at_mha_forward(const at_mha_weights *w, size_t n_q, const float *X_q, size_t n_k,
                   const float *X_kv, float scale, const at_mask *mask, float *out,
                   float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                   at_workspace *ws, at_error *err);

/* The attention part of multi-head attention on already projected inputs:
 * head h attends with columns h·d_head … (h+1)·d_head − 1 of q, k and v,
 * d_head = d_model / n_heads, and writes the same columns of out (Concat of
 * §3.2.2, before W^O). at_mha_forward calls this after its projections.
 *   q [n_q × d_model], k, v [n_k × d_model], out [n_q × d_model], dense
 *   weights [n_heads × n_q × n_k] optional; fully_masked [n_q] optional. Without
 *   weights (and without traced scores) and with more than 512 keys, each head goes
 *   through the O(n)-memory kernel (tiles of keys, online softmax): no scratch in ws
 *   beyond what the projections need, instead of one head's n_q × n_k weights per
 *   worker thread (1 GiB at n = 16384)
 *   trace  optional; only its scores and scaled are used
 * Up to 4096 keys (on one worker, on a CPU with AVX2 + FMA, without traced scores) all
 * heads go through one fused pass (kernels.h, at_attention_fused_avx2 / _avx512): the
 * softmax down the keys for 8 or 16 queries at once, no sgemm call, past 1024 keys
 * without weights in tiles of keys with the online softmax; scratch in ws of
 * O(n_k · d_head) floats (AT_FUSED_PACK); same results to rounding.
 * On large inputs the heads are shared by up to at_blas_set_max_threads worker
 * threads (pthreads, joined before returning), each product then on one BLAS
 * thread; results agree with one thread to rounding.
 * Returns AT_OK, AT_EINVAL, AT_ERANGE or AT_ENOMEM. */
int at_mha_attend(size_t n_heads, size_t d_model, size_t n_q, const float *q, size_t n_k,
                  const float *k, const float *v, float scale, const at_mask *mask, float *out,
                  float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                  at_workspace *ws, at_error *err);

/* C = A·B (+ C if accumulate): A [m × k], B [k × n], C [m × n], dense row-major;
 * trans_b: B is given as [n × k] and Bᵀ is used. A thin wrapper over cblas_sgemm
 * that first picks the BLAS thread count for the problem size (at_blas_threads). */
void at_matmul(size_t m, size_t n, size_t k, const float *A, const float *B, int trans_b,
               float *C, int accumulate);

/* The same with explicit row strides (lda, ldb, ldc in floats), for column slices. */
void at_matmul_ld(size_t m, size_t n, size_t k, const float *A, size_t lda, const float *B,
                  size_t ldb, int trans_b, float *C, size_t ldc, int accumulate);

/* The thread count used for a product of m·n·k multiply-adds: 1 below the measured
 * threshold (128³ on OpenBLAS's Haswell core, scaled by the speed of one thread of the
 * core in use: 2·128³ on SkylakeX, 128³/4 on Prescott) or when m or n is below 16
 * (OpenBLAS issue 4387: threads cost more than they save on small matrices), else the
 * configured maximum. */
int at_blas_threads(size_t m, size_t n, size_t k);

/* Sets the maximum thread count of the engine's BLAS calls and worker threads
 * (n ≥ 1), and OpenBLAS's own thread count to n at once; n ≤ 0 goes back to the
 * default: OPENBLAS_NUM_THREADS if set, else OpenBLAS's own default (one per core).
 * Not thread-safe: call it before work starts. Threads are created with
 * pthread_create, never fork(). With n = 1 OpenBLAS's worker threads are never woken,
 * so they never spin (sched_yield) after a product, as they do for some 0.1 s. */
void at_blas_set_max_threads(int n);

/* Puts OpenBLAS's worker threads to rest: they are stopped, and the next product that
 * uses more than one thread starts them again (some 0.1 ms). Left alone, a worker
 * spins (sched_yield) for some 0.1 s of CPU after it starts and after each product:
 * measured with OpenBLAS 0.3.21 on 2 cores, 60 ms of CPU at every start of a program
 * that links it. Call it when no product is running (before waiting for input); it
 * does nothing on an OpenBLAS built without its own thread server (OpenMP) or when
 * the workers are already stopped. Not thread-safe. */
void at_blas_rest_workers(void);

#endif
