/* The fused small-n attention kernel of attention_fused_avx2.c for fewer than 16 queries
 * on a CPU with AVX-512: 8 queries per vector for the scores and the softmax, as there,
 * and the output sums over 16 columns of V per vector, 4 queries at a time (half the
 * FMA instructions of the AVX2 kernel there). Built with -mavx512f -mavx512dq -mavx512bw
 * -mavx512vl -mavx2 -mfma; called only where the CPU has them (kernels.h). */
#include <immintrin.h>
#include <sleef.h>

#define LANES 8
typedef __m256 vec;
#define V_ZERO() _mm256_setzero_ps()
#define V_SET1(x) _mm256_set1_ps(x)
#define V_LOAD(p) _mm256_loadu_ps(p)
#define V_STORE(p, x) _mm256_storeu_ps(p, x)
#define V_BCAST(p) _mm256_broadcast_ss(p)
#define V_ADD(a, b) _mm256_add_ps(a, b)
#define V_SUB(a, b) _mm256_sub_ps(a, b)
#define V_MUL(a, b) _mm256_mul_ps(a, b)
#define V_DIV(a, b) _mm256_div_ps(a, b)
#define V_MAX(a, b) _mm256_max_ps(a, b)
#define V_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define V_EXP(x) Sleef_expf8_u10avx2(x)
#define V_UNORD_BITS(x) ((unsigned)_mm256_cmp_ps_mask(x, x, _CMP_UNORD_Q))
#define V_EQ_BITS(a, b) ((unsigned)_mm256_cmp_ps_mask(a, b, _CMP_EQ_OQ))
#define V_GT_BITS(a, b) ((unsigned)_mm256_cmp_ps_mask(a, b, _CMP_GT_OQ))
#define V_BLEND(bits, a, b) _mm256_mask_blend_ps((__mmask8)(bits), a, b)
typedef __m512 pvec;
#define PV_LANES 16
#define PV_ZERO() _mm512_setzero_ps()
#define PV_LOAD(p) _mm512_loadu_ps(p)
#define PV_STORE(p, x) _mm512_storeu_ps(p, x)
#define PV_BCAST(p) _mm512_set1_ps(*(p))
#define PV_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define PV_ROWS 4
#define MAX_BLOCKS 1
#define FUSED_ENTRY at_attention_fused8_avx512

#include "engine/attention_fused_body.h"
