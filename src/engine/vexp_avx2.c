/* AVX2+FMA kernels of the softmax (built with -mavx2 -mfma; see vexp.h). */
#include "engine/vexp.h"

#include <immintrin.h>
#include <math.h>
#include <sleef.h>

float at_vmax_avx2(const float *x, size_t n)
{
    __m256 acc = _mm256_set1_ps(-INFINITY);
    size_t j = 0;
    for (; j + 8 <= n; j += 8)   /* max_ps(a, b) is b when a is NaN: NaN ignored */
        acc = _mm256_max_ps(_mm256_loadu_ps(x + j), acc);
    float lanes[8];
    _mm256_storeu_ps(lanes, acc);
    float m = -INFINITY;
    for (int l = 0; l < 8; l++)
        m = lanes[l] > m ? lanes[l] : m;
    for (; j < n; j++)
        m = x[j] > m ? x[j] : m;
    return m;
}

/* Adds the 8 lanes of e to the 4 double lanes of sum. */
static inline __m256d add_lanes(__m256d sum, __m256 e)
{
    sum = _mm256_add_pd(sum, _mm256_cvtps_pd(_mm256_castps256_ps128(e)));
    return _mm256_add_pd(sum, _mm256_cvtps_pd(_mm256_extractf128_ps(e, 1)));
}

double at_vexp_shift_avx2(float *x, size_t n, float shift)
{
    const __m256 s = _mm256_set1_ps(shift);
    __m256d sum = _mm256_setzero_pd();
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + j), s));
        _mm256_storeu_ps(x + j, e);
        sum = add_lanes(sum, e);
    }
    if (j < n) {   /* the tail, padded with -inf (exp gives 0) */
        float pad[8];
        for (int l = 0; l < 8; l++)
            pad[l] = j + (size_t)l < n ? x[j + (size_t)l] : -INFINITY;
        __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(pad), s));
        _mm256_storeu_ps(pad, e);
        for (size_t l = 0; j + l < n; l++)
            x[j + l] = pad[l];
        sum = add_lanes(sum, e);
    }
    double lanes[4];
    _mm256_storeu_pd(lanes, sum);
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

void at_vscale_avx2(float *x, size_t n, float s)
{
    const __m256 f = _mm256_set1_ps(s);
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        _mm256_storeu_ps(x + j, _mm256_mul_ps(_mm256_loadu_ps(x + j), f));
    for (; j < n; j++)
        x[j] *= s;
}

int at_vall_finite_avx2(const float *x, size_t rows, size_t cols, size_t ld)
{
    /* Σ 0·x is 0 when every x is finite, NaN as soon as one is ±inf or NaN: one FMA per
     * 8 floats, four sums in flight. */
    const __m256 zero = _mm256_setzero_ps();
    __m256 a0 = zero, a1 = zero, a2 = zero, a3 = zero;
    for (size_t i = 0; i < rows; i++) {
        const float *row = x + i * ld;
        size_t j = 0;
        for (; j + 32 <= cols; j += 32) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(row + j), zero, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(row + j + 8), zero, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(row + j + 16), zero, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(row + j + 24), zero, a3);
        }
        for (; j + 8 <= cols; j += 8)
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(row + j), zero, a0);
        for (; j < cols; j++)
            if (!isfinite(row[j]))
                return 0;
    }
    const __m256 sum = _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3));
    return _mm256_movemask_ps(_mm256_cmp_ps(sum, zero, _CMP_NEQ_UQ)) == 0;
}

/* Horizontal maximum and sum of 8 lanes. */
static inline float hmax8(__m256 v)
{
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
    return _mm_cvtss_f32(m);
}

int at_vsoftmax8_avx2(float *x, size_t n)
{
    float pad[8];
    for (size_t l = 0; l < 8; l++)
        pad[l] = l < n ? x[l] : -INFINITY;
    __m256 v = _mm256_loadu_ps(pad);
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)))
        return 1;   /* a NaN: the general path gives it weight 0 */
    float max = hmax8(v);
    if (!isfinite(max))
        return 1;
    __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(v, _mm256_set1_ps(max)));
    double lanes[4];
    _mm256_storeu_pd(lanes, add_lanes(_mm256_setzero_pd(), e));
    double sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    _mm256_storeu_ps(pad, _mm256_mul_ps(e, _mm256_set1_ps((float)(1.0 / sum))));
    for (size_t l = 0; l < n; l++)
        x[l] = pad[l];
    return 0;
}
