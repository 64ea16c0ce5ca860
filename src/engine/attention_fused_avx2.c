/* Multi-head attention of short sequences in one pass over all heads (AVX2 + FMA;
 * built with -mavx2 -mfma, called only where the CPU has them: see kernels.h).
 *
 * At a few dozen tokens the two-pass kernel's time goes to the fixed cost of its 2 sgemm
 * calls per head, to a softmax that walks one short row at a time (a serial chain of
 * maximum, exp and sum per row) and to its checks (a NaN scan per row, V scanned once
 * per head). Here the 8 lanes of a vector are 8 queries: for a block of 8 queries of
 * one head,
 *   Qᵀ      [d_head × 8]   the block's queries, transposed
 *   S       [n_k × 8]      S[j] = scale · Σ_t K[j][t] · Qᵀ[t]  (one FMA per t, per key)
 *   softmax                down the keys, all 8 rows at once: masked scores set to -inf
 *                          and the NaN test in the same pass as the maximum, then
 *                          exp(S − max) (SLEEF's Sleef_expf8_u10avx2, 1 ULP, as the
 *                          two-pass kernel) and its sum, then the division
 *   out     [8 × d_head]   out[l] = Σ_j S[j][l] · V[j], two queries and 32 columns at
 *                          a time
 * and V is checked for non-finite values once per call, not once per head.
 * The edge cases are the two-pass kernel's (attention.c): masked keys never read, a row
 * with no visible key (or only -inf scores) gives zeros and fully_masked, +inf scores
 * share the row equally, a NaN score that no mask hides is an error naming the first
 * query and key (heads in order), non-finite values in V reach only weighted rows. */
#include "engine/kernels.h"

#include <immintrin.h>
#include <math.h>
#include <sleef.h>
#include <string.h>

enum { LANES = 8 };

/* One call: all heads, shapes and outputs. */
typedef struct fused_call {
    size_t n_heads, d_model, d_head, n_q, n_k;
    const float *q, *k, *v;
    float scale;
    const at_mask *mask;   /* NULL: every key visible */
    float *out, *weights;
    unsigned char *fully_masked;
    int v_finite;
} fused_call;

/* dst[r * ld_dst + c] = src[c * ld_src + r] for an 8 × 8 tile. */
static void transpose8(const float *src, size_t ld_src, float *dst, size_t ld_dst)
{
    __m256 r[8], t[8];
    for (int i = 0; i < 8; i++)
        r[i] = _mm256_loadu_ps(src + (size_t)i * ld_src);
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; i++) {
        _mm256_storeu_ps(dst + (size_t)i * ld_dst, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
        _mm256_storeu_ps(dst + (size_t)(i + 4) * ld_dst,
                         _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
    }
}

/* Qᵀ [d_head × 8] of queries i0 … i0 + rows − 1 of head columns q_h; lanes past
 * `rows` are 0. */
static void load_queries(const fused_call *c, const float *q_h, size_t i0, size_t rows, float *Qt)
{
    const size_t d = c->d_head, ld = c->d_model;
    size_t t = 0;
    if (rows == LANES)
        for (; t + 8 <= d; t += 8)
            transpose8(q_h + i0 * ld + t, ld, Qt + t * LANES, LANES);
    for (; t < d; t++)
        for (size_t l = 0; l < LANES; l++)
            Qt[t * LANES + l] = l < rows ? q_h[(i0 + l) * ld + t] : 0.0f;
}

/* S[j] = scale · Σ_t K[j][t] · Qᵀ[t] for every key j: 8 keys at a time (8 chains of
 * FMAs in flight), then 4, then 1. */
static void block_scores(const fused_call *c, const float *Qt, const float *k_h, float *S)
{
    const size_t d = c->d_head, ld = c->d_model, n_k = c->n_k;
    const __m256 scale = _mm256_set1_ps(c->scale);
    size_t j = 0;
    for (; j + 8 <= n_k; j += 8) {
        const float *k_j = k_h + j * ld;
        __m256 a[8];
        for (int u = 0; u < 8; u++)
            a[u] = _mm256_setzero_ps();
        for (size_t t = 0; t < d; t++) {
            const __m256 qt = _mm256_loadu_ps(Qt + t * LANES);
            for (int u = 0; u < 8; u++)
                a[u] = _mm256_fmadd_ps(_mm256_broadcast_ss(k_j + (size_t)u * ld + t), qt, a[u]);
        }
        for (int u = 0; u < 8; u++)
            _mm256_storeu_ps(S + (j + (size_t)u) * LANES, _mm256_mul_ps(a[u], scale));
    }
    for (; j + 4 <= n_k; j += 4) {
        const float *k_j = k_h + j * ld;
        __m256 a[4];
        for (int u = 0; u < 4; u++)
            a[u] = _mm256_setzero_ps();
        for (size_t t = 0; t < d; t++) {
            const __m256 qt = _mm256_loadu_ps(Qt + t * LANES);
            for (int u = 0; u < 4; u++)
                a[u] = _mm256_fmadd_ps(_mm256_broadcast_ss(k_j + (size_t)u * ld + t), qt, a[u]);
        }
        for (int u = 0; u < 4; u++)
            _mm256_storeu_ps(S + (j + (size_t)u) * LANES, _mm256_mul_ps(a[u], scale));
    }
    for (; j < n_k; j++) {
        const float *k_j = k_h + j * ld;
        __m256 a = _mm256_setzero_ps();
        for (size_t t = 0; t < d; t++)
            a = _mm256_fmadd_ps(_mm256_broadcast_ss(k_j + t), _mm256_loadu_ps(Qt + t * LANES), a);
        _mm256_storeu_ps(S + j * LANES, _mm256_mul_ps(a, scale));
    }
}

/* Bit l set: query i0 + l (l < rows) may see key j. */
static unsigned visible_lanes(const fused_call *c, size_t i0, size_t rows, size_t j)
{
    unsigned bits = (1u << rows) - 1u;
    const at_mask *m = c->mask;
    if (!m)
        return bits;
    if (m->causal && j > i0)   /* lanes l with i0 + l ≥ j */
        bits &= j - i0 < LANES ? ~((1u << (j - i0)) - 1u) : 0u;
    if (m->key_padding && m->key_padding[j])
        bits = 0;
    if (m->allowed)
        for (size_t l = 0; l < rows; l++)
            if (!m->allowed[(i0 + l) * c->n_k + j])
                bits &= ~(1u << l);
    return bits;
}

/* Softmax of the block's rows, down the keys of S, in place. Returns 0, or -1 with
 * *bad_l and *bad_j set to the first query lane and its first key whose visible score
 * is NaN. *empty gets the lanes with no visible key or only -inf scores. */
static int block_softmax(const fused_call *c, size_t i0, size_t rows, float *S,
                         unsigned *empty, size_t *bad_l, size_t *bad_j)
{
    const size_t n_k = c->n_k;
    const unsigned live = (1u << rows) - 1u;
    const __m256 ninf = _mm256_set1_ps(-INFINITY), zero = _mm256_setzero_ps();
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const int masked = c->mask || rows < LANES;
    __m256 max = ninf, nan = zero;
    for (size_t j = 0; j < n_k; j++) {
        __m256 s = _mm256_loadu_ps(S + j * LANES);
        if (masked) {   /* masked scores are overwritten, never read */
            __m256i bits = _mm256_set1_epi32((int)visible_lanes(c, i0, rows, j));
            __m256 vis = _mm256_castsi256_ps(
                _mm256_cmpeq_epi32(_mm256_and_si256(bits, lane_bit), lane_bit));
            s = _mm256_blendv_ps(ninf, s, vis);
            _mm256_storeu_ps(S + j * LANES, s);
        }
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(s, s, _CMP_UNORD_Q));
        max = _mm256_max_ps(s, max);   /* max_ps(a, b) is b when a is NaN */
    }
    if ((unsigned)_mm256_movemask_ps(nan) & live) {
        unsigned bits = (unsigned)_mm256_movemask_ps(nan) & live;
        *bad_l = (size_t)__builtin_ctz(bits);
        for (size_t j = 0; j < n_k; j++)
            if (isnan(S[j * LANES + *bad_l])) {
                *bad_j = j;
                break;
            }
        return -1;
    }
    unsigned inf = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(max, _mm256_set1_ps(INFINITY),
                                                              _CMP_EQ_OQ)) & live;
    if (inf) {   /* the +inf scores share the row: exp(0 − 0) for them, exp(-inf) else */
        float m[LANES];
        _mm256_storeu_ps(m, max);
        for (size_t l = 0; l < LANES; l++) {
            if (!(inf >> l & 1u))
                continue;
            m[l] = 0.0f;
            for (size_t j = 0; j < n_k; j++)
                S[j * LANES + l] = S[j * LANES + l] == INFINITY ? 0.0f : -INFINITY;
        }
        max = _mm256_loadu_ps(m);
    }
    const __m256 none = _mm256_cmp_ps(max, ninf, _CMP_EQ_OQ);
    *empty = (unsigned)_mm256_movemask_ps(none) & live;
    max = _mm256_blendv_ps(max, zero, none);   /* exp(-inf − 0) = 0: the row stays 0 */
    __m256 sum = zero;
    for (size_t j = 0; j < n_k; j++) {
        __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(S + j * LANES), max));
        _mm256_storeu_ps(S + j * LANES, e);
        sum = _mm256_add_ps(sum, e);
    }
    /* 1 / sum, and 0 where nothing was visible (sum = 0) */
    const __m256 inv = _mm256_and_ps(_mm256_div_ps(_mm256_set1_ps(1.0f), sum),
                                     _mm256_cmp_ps(sum, zero, _CMP_GT_OQ));
    for (size_t j = 0; j < n_k; j++)
        _mm256_storeu_ps(S + j * LANES, _mm256_mul_ps(_mm256_loadu_ps(S + j * LANES), inv));
    return 0;
}

/* out[l] = Σ_j P[j][l] · V[j] for queries l and l + 1 (two == 1) or l alone, columns
 * [t0, t0 + 8·w) of the head; w vectors of 8 columns (1 ≤ w ≤ 4). */
static inline void values_chunk(const fused_call *c, const float *P, size_t l, int two,
                                const float *v_h, float *out_l, size_t t0, int w)
{
    const size_t ld = c->d_model;
    __m256 a0[4], a1[4];
    for (int u = 0; u < w; u++)
        a0[u] = a1[u] = _mm256_setzero_ps();
    for (size_t j = 0; j < c->n_k; j++) {
        const float *v_j = v_h + j * ld + t0;
        const __m256 p0 = _mm256_broadcast_ss(P + j * LANES + l);
        const __m256 p1 = _mm256_broadcast_ss(P + j * LANES + l + (size_t)two);
        for (int u = 0; u < w; u++) {
            const __m256 vv = _mm256_loadu_ps(v_j + 8 * u);
            a0[u] = _mm256_fmadd_ps(p0, vv, a0[u]);
            if (two)
                a1[u] = _mm256_fmadd_ps(p1, vv, a1[u]);
        }
    }
    for (int u = 0; u < w; u++) {
        _mm256_storeu_ps(out_l + t0 + 8 * u, a0[u]);
        if (two)
            _mm256_storeu_ps(out_l + ld + t0 + 8 * u, a1[u]);
    }
}

/* out = P V for the block's rows: out_h [rows × d_head] (stride d_model) from P [n_k × 8]
 * and the head's values v_h. With a non-finite value in V, only keys of weight > 0 are
 * added (0 · NaN would spread NaN), one element at a time, as the two-pass kernel does. */
static void block_values(const fused_call *c, const float *P, size_t rows, const float *v_h,
                         float *out_h)
{
    const size_t d = c->d_head, ld = c->d_model;
    if (!c->v_finite) {
        for (size_t l = 0; l < rows; l++) {
            float *out_l = out_h + l * ld;
            memset(out_l, 0, d * sizeof *out_l);
            for (size_t j = 0; j < c->n_k; j++) {
                const float p = P[j * LANES + l];
                if (p == 0.0f)
                    continue;
                for (size_t t = 0; t < d; t++)
                    out_l[t] += p * v_h[j * ld + t];
            }
        }
        return;
    }
    for (size_t l = 0; l < rows; l += 2) {
        const int two = l + 1 < rows;
        float *out_l = out_h + l * ld;
        size_t t = 0;
        for (; t + 32 <= d; t += 32)
            values_chunk(c, P, l, two, v_h, out_l, t, 4);
        for (; t + 8 <= d; t += 8)
            values_chunk(c, P, l, two, v_h, out_l, t, 1);
        for (; t < d; t++)   /* the last columns, d_head not a multiple of 8 */
            for (size_t r = l; r < l + 1 + (size_t)two; r++) {
                float acc = 0.0f;
                for (size_t j = 0; j < c->n_k; j++)
                    acc += P[j * LANES + r] * v_h[j * ld + t];
                out_h[r * ld + t] = acc;
            }
    }
}

/* weights [rows × n_k] (stride n_k) of the block from P [n_k × 8]. */
static void store_weights(const fused_call *c, const float *P, size_t rows, float *w)
{
    const size_t n_k = c->n_k;
    size_t j = 0;
    if (rows == LANES)
        for (; j + 8 <= n_k; j += 8)
            transpose8(P + j * LANES, LANES, w + j, n_k);
    for (; j < n_k; j++)
        for (size_t l = 0; l < rows; l++)
            w[l * n_k + j] = P[j * LANES + l];
}

int at_attention_fused_avx2(size_t n_heads, size_t d_model, size_t n_q, const float *q,
                            size_t n_k, const float *k, const float *v, float scale,
                            const at_mask *mask, float *out, float *weights,
                            unsigned char *fully_masked, at_error *err)
{
    if (n_k > AT_FUSED_MAX_KEYS || d_model / n_heads > AT_FUSED_MAX_DHEAD)
        return at_error_set(err, AT_EINVAL, "attention: the fused kernel takes at most %d keys "
                            "and heads of %d", AT_FUSED_MAX_KEYS, AT_FUSED_MAX_DHEAD);
    if (!isfinite(scale))
        return at_error_set(err, AT_EINVAL, "attention: the scale must be a finite number");
    fused_call c = {.n_heads = n_heads, .d_model = d_model, .d_head = d_model / n_heads,
                    .n_q = n_q, .n_k = n_k, .q = q, .k = k, .v = v, .scale = scale,
                    .out = out, .weights = weights, .fully_masked = fully_masked};
    if (mask && (mask->causal || mask->key_padding || mask->allowed))
        c.mask = mask;
    c.v_finite = at_vall_finite_avx2(v, n_k, d_model, d_model);
    float Qt[AT_FUSED_MAX_DHEAD * LANES], S[AT_FUSED_MAX_KEYS * LANES];
    for (size_t h = 0; h < n_heads; h++) {
        const size_t col = h * c.d_head;
        for (size_t i0 = 0; i0 < n_q; i0 += LANES) {
            const size_t rows = n_q - i0 < LANES ? n_q - i0 : LANES;
            load_queries(&c, q + col, i0, rows, Qt);
            block_scores(&c, Qt, k + col, S);
            unsigned empty = 0;
            size_t bad_l = 0, bad_j = 0;
            if (block_softmax(&c, i0, rows, S, &empty, &bad_l, &bad_j))
                return at_error_set(err, AT_EINVAL,
                                    "attention: the score of query %zu against key %zu is not a "
                                    "number (a NaN or an infinity in Q or K that no mask hides)",
                                    i0 + bad_l + 1, bad_j + 1);
            if (fully_masked && h == 0)
                for (size_t l = 0; l < rows; l++)
                    fully_masked[i0 + l] = (unsigned char)(empty >> l & 1u);
            if (weights)
                store_weights(&c, S, rows, weights + (h * n_q + i0) * n_k);
            block_values(&c, S, rows, v + col, out + i0 * d_model + col);
        }
    }
    return AT_OK;
}
