/* Matrix products over OpenBLAS, with the thread count chosen by size. */
#include "engine/attention.h"

#include <cblas.h>
#include <stdlib.h>

/* Below this many multiply-adds one thread is faster (measured: OpenBLAS 0.3.21 on
 * 2 cores, a second thread pays from about 128³; see bench/RESULTS.md). */
#define AT_BLAS_THREAD_MIN_WORK ((size_t)128 * 128 * 128)

static int blas_max_threads = -1;

int at_blas_threads(size_t m, size_t n, size_t k)
{
    if (blas_max_threads < 0) {
        const char *env = getenv("OPENBLAS_NUM_THREADS");
        blas_max_threads = env && atoi(env) > 0 ? atoi(env) : openblas_get_num_threads();
        if (blas_max_threads < 1)
            blas_max_threads = 1;
    }
    return m * n * k < AT_BLAS_THREAD_MIN_WORK ? 1 : blas_max_threads;
}

void at_matmul_ld(size_t m, size_t n, size_t k, const float *A, size_t lda, const float *B,
                  size_t ldb, int trans_b, float *C, size_t ldc, int accumulate)
{
    /* Ask OpenBLAS rather than remember: a caller may have changed it directly. */
    int threads = at_blas_threads(m, n, k);
    if (threads != openblas_get_num_threads())
        openblas_set_num_threads(threads);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                (int)m, (int)n, (int)k, 1.0f, A, (int)lda, B, (int)ldb,
                accumulate ? 1.0f : 0.0f, C, (int)ldc);
}

void at_matmul(size_t m, size_t n, size_t k, const float *A, const float *B, int trans_b,
               float *C, int accumulate)
{
    at_matmul_ld(m, n, k, A, k, B, trans_b ? k : n, trans_b, C, n, accumulate);
}
