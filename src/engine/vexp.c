/* Softmax kernels: run-time choice between AVX2+FMA (vexp_avx2.c) and SSE2,
 * which every x86-64 has. See vexp.h. */
#include "engine/vexp.h"

#include <emmintrin.h>
#include <math.h>
#include <sleef.h>

int at_vhave_avx2(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

float at_vmax_sse2(const float *x, size_t n)
{
    __m128 acc = _mm_set1_ps(-INFINITY);
    size_t j = 0;
    for (; j + 4 <= n; j += 4)   /* max_ps(a, b) is b when a is NaN: NaN ignored */
        acc = _mm_max_ps(_mm_loadu_ps(x + j), acc);
    float lanes[4];
    _mm_storeu_ps(lanes, acc);
    float m = -INFINITY;
    for (int l = 0; l < 4; l++)
        m = lanes[l] > m ? lanes[l] : m;
    for (; j < n; j++)
        m = x[j] > m ? x[j] : m;
    return m;
}

double at_vexp_shift_sse2(float *x, size_t n, float shift)
{
    const __m128 s = _mm_set1_ps(shift);
    double sum = 0.0;
    for (size_t j = 0; j < n; j += 4) {
        float lanes[4];
        for (size_t l = 0; l < 4; l++)   /* the tail is padded with -inf (exp gives 0) */
            lanes[l] = j + l < n ? x[j + l] : -INFINITY;
        _mm_storeu_ps(lanes, Sleef_expf4_u10(_mm_sub_ps(_mm_loadu_ps(lanes), s)));
        for (size_t l = 0; l < 4 && j + l < n; l++) {
            x[j + l] = lanes[l];
            sum += lanes[l];
        }
    }
    return sum;
}

float at_vmax(const float *x, size_t n)
{
    return at_vhave_avx2() ? at_vmax_avx2(x, n) : at_vmax_sse2(x, n);
}

double at_vexp_shift(float *x, size_t n, float shift)
{
    return at_vhave_avx2() ? at_vexp_shift_avx2(x, n, shift) : at_vexp_shift_sse2(x, n, shift);
}

void at_vscale(float *x, size_t n, float s)
{
    if (at_vhave_avx2()) {
        at_vscale_avx2(x, n, s);
        return;
    }
    for (size_t j = 0; j < n; j++)
        x[j] *= s;
}

int at_vall_finite(const float *x, size_t rows, size_t cols, size_t ld)
{
    if (at_vhave_avx2())
        return at_vall_finite_avx2(x, rows, cols, ld);
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            if (!isfinite(x[i * ld + j]))
                return 0;
    return 1;
}
