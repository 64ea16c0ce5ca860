/* The fused small-n attention kernel of attention_fused_avx2.c with 16 queries per
 * vector (AVX-512 F; built with -mavx512f -mavx512dq -mavx512bw -mavx512vl -mavx2 -mfma,
 * called only where the CPU has them: see kernels.h): half the FMA instructions for
 * the same work, exp from SLEEF's Sleef_expf16_u10avx512f (1 ULP). */
#include <immintrin.h>
#include <sleef.h>

#define LANES 16
typedef __m512 vec;
#define V_ZERO() _mm512_setzero_ps()
#define V_SET1(x) _mm512_set1_ps(x)
#define V_LOAD(p) _mm512_loadu_ps(p)
#define V_STORE(p, x) _mm512_storeu_ps(p, x)
#define V_BCAST(p) _mm512_set1_ps(*(p))
#define V_ADD(a, b) _mm512_add_ps(a, b)
#define V_SUB(a, b) _mm512_sub_ps(a, b)
#define V_MUL(a, b) _mm512_mul_ps(a, b)
#define V_DIV(a, b) _mm512_div_ps(a, b)
#define V_MAX(a, b) _mm512_max_ps(a, b)
#define V_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define V_EXP(x) Sleef_expf16_u10avx512f(x)
#define V_UNORD_BITS(x) ((unsigned)_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q))
#define V_EQ_BITS(a, b) ((unsigned)_mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ))
#define V_GT_BITS(a, b) ((unsigned)_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ))
#define V_BLEND(bits, a, b) _mm512_mask_blend_ps((__mmask16)(bits), a, b)
#define PV_ROWS 4
#define MAX_BLOCKS 2
#define FUSED_ENTRY at_attention_fused_avx512

#include "engine/attention_fused_body.h"
