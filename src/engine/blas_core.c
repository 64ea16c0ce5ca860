/* Which OpenBLAS core suits this CPU, and the self-check of the core in use. */
#include "engine/blas_core.h"

#include "engine/kernels.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

at_isa at_cpu_isa(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return AT_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return AT_ISA_AVX2;
    if (__builtin_cpu_supports("avx"))
        return AT_ISA_AVX;
#endif
    return AT_ISA_BASE;
}

const char *at_isa_name(at_isa isa)
{
    switch (isa) {
    case AT_ISA_AVX512: return "AVX-512 (F, BW, VL, DQ)";
    case AT_ISA_AVX2: return "AVX2 + FMA";
    case AT_ISA_AVX: return "AVX";
    default: return "SSE";
    }
}

const char *at_blas_core_for_isa(at_isa isa)
{
    return isa == AT_ISA_AVX512 ? "SkylakeX" : isa == AT_ISA_AVX2 ? "Haswell" : NULL;
}

at_isa at_blas_core_isa(const char *core)
{
    /* OpenBLAS's x86-64 core names (driver/others/dynamic.c) by the kernels they use:
     * Cooperlake and SapphireRapids are SkylakeX's kernels plus bfloat16 ones; Zen
     * runs Haswell's. */
    static const struct { const char *name; at_isa isa; } cores[] = {
        {"SkylakeX", AT_ISA_AVX512},   {"Cooperlake", AT_ISA_AVX512},
        {"SapphireRapids", AT_ISA_AVX512},
        {"Haswell", AT_ISA_AVX2},      {"Zen", AT_ISA_AVX2},
        {"Sandybridge", AT_ISA_AVX},   {"Bulldozer", AT_ISA_AVX},
        {"Piledriver", AT_ISA_AVX},    {"Steamroller", AT_ISA_AVX},
        {"Excavator", AT_ISA_AVX},
    };
    for (size_t i = 0; core && i < sizeof cores / sizeof cores[0]; i++)
        if (!strcasecmp(core, cores[i].name))
            return cores[i].isa;
    return AT_ISA_BASE;
}

const char *at_blas_core_name(void)
{
    return openblas_get_corename();
}

/* A small integer in -3 … 3 for element (i, j) of input `which`: every product and
 * sum of the check stays exact in float. */
static float cell(int which, size_t i, size_t j)
{
    return (float)((int)((i * 7 + j * 3 + (size_t)which * 5) % 7) - 3);
}

/* C = alpha·A·op(B) + beta·C by the textbook loop, in double (exact here).
 * A [m × k]; B [k × n], or [n × k] when trans_b; C [m × n]. */
static void naive_gemm(size_t m, size_t n, size_t k, double alpha, const float *A,
                       const float *B, int trans_b, double beta, double *C)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double s = 0;
            for (size_t p = 0; p < k; p++)
                s += (double)A[i * k + p] * (trans_b ? B[j * k + p] : B[p * n + j]);
            C[i * n + j] = alpha * s + beta * C[i * n + j];
        }
}

/* One product through the engine's sgemm wrapper on one thread, compared exactly. */
static int check_product(const char *what, size_t m, size_t n, size_t k, int trans_b,
                         float alpha, int accumulate, int fake_wrong, at_error *err)
{
    int rc = AT_ENOMEM;
    float *A = malloc(m * k * sizeof *A), *B = malloc(k * n * sizeof *B);
    float *C = malloc(m * n * sizeof *C);
    double *want = malloc(m * n * sizeof *want);
    if (!A || !B || !C || !want) {
        at_error_set(err, AT_ENOMEM, "BLAS self-check: out of memory");
        goto out;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t p = 0; p < k; p++)
            A[i * k + p] = cell(0, i, p);
    for (size_t i = 0; i < (trans_b ? n : k); i++)
        for (size_t j = 0; j < (trans_b ? k : n); j++)
            B[i * (trans_b ? k : n) + j] = cell(1, i, j);
    for (size_t i = 0; i < m * n; i++)
        want[i] = C[i] = accumulate ? cell(2, i / n, i % n) : 0.0f;
    at_matmul_ex(m, n, k, alpha, A, k, B, trans_b ? k : n, trans_b, C, n, accumulate, 1);
    naive_gemm(m, n, k, alpha, A, B, trans_b, accumulate ? 1.0 : 0.0, want);
    if (fake_wrong)
        C[m * n / 2] += 1.0f;
    rc = AT_OK;
    for (size_t i = 0; i < m * n; i++)
        if ((double)C[i] != want[i]) {
            rc = at_error_set(err, AT_EINVAL,
                              "sgemm %s (%zu×%zu×%zu) on core %s: C[%zu][%zu] = %g, "
                              "expected %g", what, m, n, k, at_blas_core_name(),
                              i / n, i % n, (double)C[i], want[i]);
            break;
        }
out:
    free(A);
    free(B);
    free(C);
    free(want);
    return rc;
}

int at_blas_selfcheck(const char *bad_core, at_error *err)
{
    int fake = bad_core && !strcasecmp(bad_core, at_blas_core_name());
    int rc = check_product("A·Bᵀ", 13, 16, 24, 1, 1.0f, 0, 0, err);
    if (rc == AT_OK)
        rc = check_product("0.5·A·B + C", 33, 37, 29, 0, 0.5f, 1, fake, err);
    return rc;
}
