/* Matrix products over OpenBLAS, with the thread count chosen by size. */
#include "engine/attention.h"
#include "engine/blas_core.h"
#include "engine/kernels.h"

#include <cblas.h>
#include <stdlib.h>

/* Below this many multiply-adds one thread is faster, on OpenBLAS's Haswell core
 * (measured: OpenBLAS 0.3.21 on 2 cores, a second thread pays from about 128³; see
 * bench/RESULTS.md); on other cores scaled by at_blas_work_scale. */
#define AT_BLAS_THREAD_MIN_WORK ((size_t)128 * 128 * 128)
/* A product with fewer rows or columns than this stays on one thread whatever its
 * size (measured: 8×512×512, the projections of an 8-token sentence, is 2.6× slower
 * on two threads). */
#define AT_BLAS_THREAD_MIN_SIDE 16

/* The configured maximum; -1 until first asked. With the scale of the core in use
 * (0 until first asked), the engine's only global state. */
static int blas_max_threads = -1;
static double blas_work_scale = 0.0;

double at_blas_work_scale(at_isa isa)
{
    switch (isa) {
    case AT_ISA_AVX512: return 2.0;   /* 16 floats a vector, 2 FMA units: 64 flops/cycle */
    case AT_ISA_AVX2: return 1.0;     /* 8 floats, FMA: 32 */
    case AT_ISA_AVX: return 0.5;      /* 8 floats, multiply and add apart: 16 */
    default: return 0.25;             /* SSE: 4 floats: 8 */
    }
}

size_t at_blas_scaled_work(size_t haswell_work)
{
    if (blas_work_scale == 0.0)
        blas_work_scale = at_blas_work_scale(at_blas_core_isa(at_blas_core_name()));
    return (size_t)((double)haswell_work * blas_work_scale);
}

void at_blas_set_max_threads(int n)
{
    blas_max_threads = n > 0 ? n : -1;
    if (n > 0)   /* also for products that do not go through at_matmul_ex (at_gemm) */
        at_blas_use_threads(n);
}

/* OpenBLAS's own (exported by its pthread build, not declared in cblas.h): stops the
 * worker threads; exec_blas starts them again when a product needs them. Weak: an
 * OpenBLAS built with OpenMP has none. */
extern int blas_thread_shutdown_(void) __attribute__((weak));

void at_blas_rest_workers(void)
{
    if (blas_thread_shutdown_)
        blas_thread_shutdown_();
}

int at_blas_max_threads(void)
{
    if (blas_max_threads < 0) {
        const char *env = getenv("OPENBLAS_NUM_THREADS");
        blas_max_threads = env && atoi(env) > 0 ? atoi(env) : openblas_get_num_threads();
        if (blas_max_threads < 1)
            blas_max_threads = 1;
    }
    return blas_max_threads;
}

int at_blas_threads(size_t m, size_t n, size_t k)
{
    int max = at_blas_max_threads();
    if (m < AT_BLAS_THREAD_MIN_SIDE || n < AT_BLAS_THREAD_MIN_SIDE)
        return 1;
    return m * n * k < at_blas_scaled_work(AT_BLAS_THREAD_MIN_WORK) ? 1 : max;
}

void at_blas_use_threads(int n)
{
    /* The default maximum is OpenBLAS's count before the engine first changes it (the
     * start-up's self-check runs on one thread). */
    (void)at_blas_max_threads();
    if (n != openblas_get_num_threads())
        openblas_set_num_threads(n);
}

void at_matmul_ex(size_t m, size_t n, size_t k, float alpha, const float *A, size_t lda,
                  const float *B, size_t ldb, int trans_b, float *C, size_t ldc, int accumulate,
                  int threads)
{
    /* Ask OpenBLAS rather than remember: a caller may have changed it directly. */
    at_blas_use_threads(threads > 0 ? threads : at_blas_threads(m, n, k));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                (int)m, (int)n, (int)k, alpha, A, (int)lda, B, (int)ldb,
                accumulate ? 1.0f : 0.0f, C, (int)ldc);
}

void at_matmul_ld(size_t m, size_t n, size_t k, const float *A, size_t lda, const float *B,
                  size_t ldb, int trans_b, float *C, size_t ldc, int accumulate)
{
    at_matmul_ex(m, n, k, 1.0f, A, lda, B, ldb, trans_b, C, ldc, accumulate, 0);
}

void at_matmul(size_t m, size_t n, size_t k, const float *A, const float *B, int trans_b,
               float *C, int accumulate)
{
    at_matmul_ld(m, n, k, A, k, B, trans_b ? k : n, trans_b, C, n, accumulate);
}
