/* Engine-internal entry points with an explicit BLAS thread count, for callers
 * that run several attention heads on their own worker threads (mha.c). */
#ifndef AT_KERNELS_H
#define AT_KERNELS_H

#include "engine/attention.h"

/* C = alpha·A·op(B) (+ C if accumulate), as at_matmul_ld; threads = the OpenBLAS
 * thread count to use, 0 = chosen by size (at_blas_threads). Worker threads pass 1
 * after the caller has set OpenBLAS to 1 thread: then no thread setting changes. */
void at_matmul_ex(size_t m, size_t n, size_t k, float alpha, const float *A, size_t lda,
                  const float *B, size_t ldb, int trans_b, float *C, size_t ldc, int accumulate,
                  int threads);

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

#endif
