/* Engine-internal entry points with an explicit BLAS thread count, for callers
 * that run several attention heads on their own worker threads (mha.c). */
#ifndef AT_KERNELS_H
#define AT_KERNELS_H

#include "engine/attention.h"
#include "engine/blas_core.h"
#include "engine/vexp.h"

/* C = alpha·A·op(B) (+ C if accumulate), as at_matmul_ld; threads = the OpenBLAS
 * thread count to use, 0 = chosen by size (at_blas_threads). Worker threads pass 1
 * after the caller has set OpenBLAS to 1 thread: then no thread setting changes. */
void at_matmul_ex(size_t m, size_t n, size_t k, float alpha, const float *A, size_t lda,
                  const float *B, size_t ldb, int trans_b, float *C, size_t ldc, int accumulate,
                  int threads);

/* A thread threshold measured on OpenBLAS's Haswell core (multiply-adds), for the core
 * in use: a second thread pays once the work it takes over outlasts the fixed cost of
 * handing it over, so the threshold grows with the speed of one thread, taken from
 * the width of the core's vectors (at_blas_work_scale of its level). */
size_t at_blas_scaled_work(size_t haswell_work);

/* The speed of one thread of a core of level isa against Haswell's, by its peak
 * multiply-adds per cycle: 2 for AVX-512, 1 for AVX2 + FMA, 0.5 for AVX, 0.25 for SSE. */
double at_blas_work_scale(at_isa isa);

/* The configured maximum of BLAS threads (at_blas_set_max_threads, else
 * OPENBLAS_NUM_THREADS, else OpenBLAS's default), at least 1. */
int at_blas_max_threads(void);

/* Sets OpenBLAS to n threads now (if it is not already), for a caller about to
 * start worker threads that pass threads = 1 to at_matmul_ex. */
void at_blas_use_threads(int n);

/* at_attention_forward with its sgemm calls on `threads` BLAS threads (0 = by size). */
int at_attention_run(const at_attn_config *c, const float *Q, const float *K, const float *V,
                     float *weights, float *out, unsigned char *fully_masked,
                     const at_attn_trace *trace, int threads, at_error *err);

/* The same in O(n) memory, when nobody asks for the weights (attention_online.c):
 * tiles of keys with the online softmax, never an n_q × n_k matrix; no scratch beyond
 * one tile on the stack (64 KiB). Same results and errors as at_attention_run to
 * rounding (within 1e-5). */
int at_attention_online(const at_attn_config *c, const float *Q, const float *K, const float *V,
                        float *out, unsigned char *fully_masked, int threads, at_error *err);

/* Multi-head attention of short sequences, all heads in one pass (attention_fused_avx2.c):
 * the softmax down the keys for 8 queries at once (one vector lane each), masked scores
 * and the NaN test in the pass that takes the maximum, V checked once per call, the
 * products by FMA loops instead of 2 sgemm calls per head. AVX2 + FMA only: call it
 * where at_vhave_avx2() holds.
 *   q [n_q × d_model], k, v [n_k × d_model], out [n_q × d_model], dense; head h uses
 *   columns h·d_head … (h+1)·d_head − 1, d_head = d_model / n_heads
 *   n_k ≤ AT_FUSED_MAX_KEYS and d_head ≤ AT_FUSED_MAX_DHEAD, else AT_EINVAL
 *   mask           may be NULL (every key visible)
 *   weights        [n_heads × n_q × n_k] optional
 *   fully_masked   [n_q] optional, the rows of head 0 (as at_mha_attend)
 *   pack           [AT_FUSED_PACK(n_k, d_head)] floats of scratch, required: one head's
 *                  keys and values copied dense, the scores of two blocks [n_k × 16] (or
 *                  of four blocks against a tile of 512 keys), the queries of four blocks
 * Same results as at_attention_run head by head to rounding (within 1e-5), and the
 * same edge cases and errors (a NaN score names the first query and key, heads in
 * order). Allocates nothing; 8 KiB of stack (32 KiB for the 16-lane AVX-512 one). */
#define AT_FUSED_MAX_KEYS 4096
#define AT_FUSED_MAX_DHEAD 256
#define AT_FUSED_SCORES(n_k) ((n_k) < 1024 ? 1024 * 32 : (n_k) * 32)
#define AT_FUSED_PACK(n_k, d_head) (2 * (n_k) * (d_head) + AT_FUSED_SCORES(n_k) + \
                                    4 * 16 * (d_head))
int at_attention_fused_avx2(size_t n_heads, size_t d_model, size_t n_q, const float *q,
                            size_t n_k, const float *k, const float *v, float scale,
                            const at_mask *mask, float *out, float *weights,
                            unsigned char *fully_masked, float *pack, at_error *err);

/* The same with 16 queries per vector (attention_fused_avx512.c): call it where
 * at_cpu_isa() is AT_ISA_AVX512. */
int at_attention_fused_avx512(size_t n_heads, size_t d_model, size_t n_q, const float *q,
                              size_t n_k, const float *k, const float *v, float scale,
                              const at_mask *mask, float *out, float *weights,
                              unsigned char *fully_masked, float *pack, at_error *err);

/* The 8-lane kernel with the output sums in 16-column vectors
 * (attention_fused8_avx512.c), for fewer than 16 queries: call it where at_cpu_isa()
 * is AT_ISA_AVX512. */
int at_attention_fused8_avx512(size_t n_heads, size_t d_model, size_t n_q, const float *q,
                               size_t n_k, const float *k, const float *v, float scale,
                               const at_mask *mask, float *out, float *weights,
                               unsigned char *fully_masked, float *pack, at_error *err);

/* at_mha_attend with the path chosen by the caller: fused = 1 takes the fused kernel
 * whenever it can (AVX2, the sizes above, no traced scores), 8 or 16 its kernel of that
 * many lanes (AVX-512 ones where at_cpu_isa() is AT_ISA_AVX512), 2 the AVX2 kernel, 0
 * never, -1 where it is the faster (at_mha_attend). For tests and benchmarks that
 * compare the paths. */
int at_mha_attend_ex(size_t n_heads, size_t d_model, size_t n_q, const float *q, size_t n_k,
                     const float *k, const float *v, float scale, const at_mask *mask,
                     float *out, float *weights, unsigned char *fully_masked,
                     const at_mha_trace *trace, at_workspace *ws, int fused, at_error *err);

/* at_mha_forward with the attention path chosen as in at_mha_attend_ex. */
int at_mha_forward_ex(const at_mha_weights *w, size_t n_q, const float *X_q, size_t n_k,
                      const float *X_kv, float scale, const at_mask *mask, float *out,
                      float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                      at_workspace *ws, int fused, at_error *err);

/* 1 if at_mha_attend_ex(…, fused = 1, …) would take the fused kernel for these sizes. */
int at_fused_possible(size_t n_heads, size_t d_model, size_t n_k, const at_mha_trace *trace);

/* visible(i, j) of at_mask for a query i and key j of n_k keys. */
int at_mask_visible(const at_mask *m, size_t n_k, size_t i, size_t j);

/* AT_OK, or AT_EINVAL with err filled for zero sizes or a non-finite scale. */
int at_attention_check(const at_attn_config *c, at_error *err);

#endif
