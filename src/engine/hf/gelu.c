/* GPT-2's GELU (the tanh form) over whole vectors: SLEEF's 1-ULP tanhf, 8 lanes at a
 * time where the CPU has AVX2 and FMA (gelu_avx2.c, chosen at run time), 4 on SSE2
 * (see hf_impl.h: hf_gelu_tanh). */
#include "engine/hf/hf_impl.h"
#include "engine/vexp.h"

#include <emmintrin.h>
#include <sleef.h>

void hf_gelu_tanh_sse2(size_t len, float *x)
{
    const __m128 c = _mm_set1_ps(HF_GELU_C), k = _mm_set1_ps(0.044715f),
                 half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
    for (size_t i = 0; i < len; i += 4) {
        float lanes[4] = {0, 0, 0, 0};
        for (size_t l = 0; l < 4 && i + l < len; l++)
            lanes[l] = x[i + l];
        __m128 v = _mm_loadu_ps(lanes);
        __m128 u = _mm_mul_ps(c, _mm_add_ps(v, _mm_mul_ps(k, _mm_mul_ps(v, _mm_mul_ps(v, v)))));
        __m128 g = _mm_mul_ps(_mm_mul_ps(half, v), _mm_add_ps(one, Sleef_tanhf4_u10(u)));
        _mm_storeu_ps(lanes, g);
        for (size_t l = 0; l < 4 && i + l < len; l++)
            x[i + l] = lanes[l];
    }
}

void hf_gelu_tanh(size_t len, float *x)
{
    if (at_vhave_avx2())
        hf_gelu_tanh_avx2(len, x);
    else
        hf_gelu_tanh_sse2(len, x);
}
