/* GPT-2's GELU, 8 lanes at a time (built with -mavx2 -mfma; see gelu.c). */
#include "engine/hf/hf_impl.h"

#include <immintrin.h>
#include <sleef.h>

void hf_gelu_tanh_avx2(size_t len, float *x)
{
    const __m256 c = _mm256_set1_ps(HF_GELU_C), k = _mm256_set1_ps(0.044715f),
                 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    for (size_t i = 0; i < len; i += 8) {
        float lanes[8];
        int whole = i + 8 <= len;
        const float *src = x + i;
        if (!whole) {   /* the tail through a padded copy */
            for (size_t l = 0; l < 8; l++)
                lanes[l] = i + l < len ? x[i + l] : 0.0f;
            src = lanes;
        }
        __m256 v = _mm256_loadu_ps(src);
        /* written without fused multiply-adds, as the scalar form rounds */
        __m256 v3 = _mm256_mul_ps(k, _mm256_mul_ps(v, _mm256_mul_ps(v, v)));
        __m256 u = _mm256_mul_ps(c, _mm256_add_ps(v, v3));
        __m256 g = _mm256_mul_ps(_mm256_mul_ps(half, v), _mm256_add_ps(one, Sleef_tanhf8_u10avx2(u)));
        if (whole) {
            _mm256_storeu_ps(x + i, g);
        } else {
            _mm256_storeu_ps(lanes, g);
            for (size_t l = 0; i + l < len; l++)
                x[i + l] = lanes[l];
        }
    }
}
