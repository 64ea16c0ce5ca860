/* Multi-head attention of short sequences in one pass over all heads, 8 queries per
 * vector (AVX2 + FMA; built with -mavx2 -mfma, called only where the CPU has them: see
 * kernels.h). attention_fused_avx512.c is the same body with 16 lanes.
 *
 * At a few dozen tokens the two-pass kernel's time goes to the fixed cost of its 2 sgemm
 * calls per head, to a softmax that walks one short row at a time (a serial chain of
 * maximum, exp and sum per row) and to its checks (a NaN scan per row, V scanned once
 * per head). Here the lanes of a vector are queries: for a block of 8 queries of one
 * head,
 *   Qᵀ      [d_head × 8]   the block's queries, transposed
 *   S       [n_k × 8]      S[j] = scale · Σ_t K[j][t] · Qᵀ[t]  (one FMA per t, per key)
 *   softmax                down the keys, all 8 rows at once: masked scores set to -inf
 *                          and the NaN test in the same pass as the maximum, then
 *                          exp(S − max) (SLEEF's Sleef_expf8_u10avx2, 1 ULP, as the
 *                          two-pass kernel) and its sum, then the division
 *   out     [8 × d_head]   out[l] = Σ_j S[j][l] · V[j], two queries and 32 columns at
 *                          a time
 * with the head's keys and values first copied to dense rows (rows of d_model floats
 * a power of two apart share few cache sets and evict each other).
 * and V is checked for non-finite values once per call, not once per head.
 * The edge cases are the two-pass kernel's (attention.c): masked keys never read, a row
 * with no visible key (or only -inf scores) gives zeros and fully_masked, +inf scores
 * share the row equally, a NaN score that no mask hides is an error naming the first
 * query and key (heads in order), non-finite values in V reach only weighted rows. */
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
#define V_UNORD_BITS(x) ((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)))
#define V_EQ_BITS(a, b) ((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_EQ_OQ)))
#define V_GT_BITS(a, b) ((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_GT_OQ)))
#define V_BLEND(bits, a, b) _mm256_blendv_ps(a, b, lanes_of(bits))
#define PV_ROWS 2
#define MAX_BLOCKS 1
#define FUSED_ENTRY at_attention_fused_avx2

/* A vector mask with all ones in the lanes of bits. */
static inline __m256 lanes_of(unsigned bits)
{
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32((int)bits), lane_bit), lane_bit));
}

#include "engine/attention_fused_body.h"
