/* The body of the fused small-n attention kernel, written once for both vector widths:
 * attention_fused_avx2.c (8 lanes, AVX2 + FMA) and attention_fused_avx512.c (16 lanes,
 * AVX-512) define these and include this file once:
 *   LANES                     queries per block, one vector lane each
 *   vec                       the vector type
 *   V_ZERO() V_SET1(x) V_LOAD(p) V_STORE(p, x) V_BCAST(p)   (V_BCAST: *p in every lane)
 *   V_ADD V_SUB V_MUL V_DIV V_MAX(a, b) (b where a is NaN)  V_FMA(a, b, c) = a·b + c
 *   V_EXP(x)                  SLEEF's 1-ULP expf of that width
 *   V_UNORD_BITS(x)           bit l set where lane l is NaN
 *   V_EQ_BITS(a, b), V_GT_BITS(a, b)   bit l set where a == b, a > b (ordered)
 *   V_BLEND(bits, a, b)       b in the lanes of bits, a elsewhere
 *   PV_ROWS                   queries whose outputs are summed at once (2 or 4: as
 *                             many as the vector registers hold, 4 vectors each)
 *   pvec, PV_LANES, PV_ZERO() PV_LOAD(p) PV_STORE(p, x) PV_BCAST(p) PV_FMA(a, b, c)
 *                             the vectors of the output sum (columns of V), which
 *                             need not be those of the queries: defaults vec, LANES,
 *                             V_*
 *   MAX_BLOCKS                blocks of queries whose scores are computed at once,
 *                             sharing each key's broadcast (1, or 2 with 32 registers)
 *   FUSED_ENTRY               the name of the entry point (declared in kernels.h)
 * See attention_fused_avx2.c for what the kernel does. */
#include "engine/kernels.h"

#include <immintrin.h>
#include <math.h>
#include <sleef.h>
#include <string.h>

#ifndef PV_LANES
typedef vec pvec;
#define PV_LANES LANES
#define PV_ZERO V_ZERO
#define PV_LOAD V_LOAD
#define PV_STORE V_STORE
#define PV_BCAST V_BCAST
#define PV_FMA V_FMA
#endif

/* Loops over a few accumulators are unrolled, so that they stay in registers. */
#define UNROLL _Pragma("GCC unroll 8")

/* One call: all heads, shapes and outputs. */
typedef struct fused_call {
    size_t n_heads, d_model, d_head, n_q, n_k;
    const float *q, *k, *v;
    size_t ld_kv;          /* row stride of the head's keys and values: d_model, or
                              d_head once packed */
    float scale;
    const at_mask *mask;   /* NULL: every key visible */
    float *out, *weights;
    unsigned char *fully_masked;
    int v_finite;
} fused_call;

/* dst[r * ld_dst + c] = src[c * ld_src + r] for an 8 × 8 tile (AVX: both widths). */
static inline __attribute__((always_inline)) void transpose8(const float *src, size_t ld_src,
                                                             float *dst, size_t ld_dst)
{
    __m256 r[8], t[8];
    UNROLL for (int i = 0; i < 8; i++)
        r[i] = _mm256_loadu_ps(src + (size_t)i * ld_src);
    UNROLL for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    UNROLL for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    UNROLL for (int i = 0; i < 4; i++) {
        _mm256_storeu_ps(dst + (size_t)i * ld_dst, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
        _mm256_storeu_ps(dst + (size_t)(i + 4) * ld_dst,
                         _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
    }
}

/* Qᵀ [d_head × LANES] of queries i0 … i0 + rows − 1 of head columns q_h; lanes past
 * `rows` are 0. */
static void load_queries(const fused_call *c, const float *q_h, size_t i0, size_t rows, float *Qt)
{
    const size_t d = c->d_head, ld = c->d_model;
    size_t t = 0;
    if (rows == LANES)
        for (; t + 8 <= d; t += 8)
            for (size_t g = 0; g < LANES; g += 8)
                transpose8(q_h + (i0 + g) * ld + t, ld, Qt + t * LANES + g, LANES);
    for (; t < d; t++)
        for (size_t l = 0; l < LANES; l++)
            Qt[t * LANES + l] = l < rows ? q_h[(i0 + l) * ld + t] : 0.0f;
}

/* S_b[j] = scale · Σ_t K[j][t] · Qᵀ_b[t] for the keys j0 … j0 + U − 1 and B blocks of
 * queries (Qᵀ_b = Qt + b·d_head·LANES, S_b = S_j + b·stride): U·B chains of FMAs in
 * flight, each key's element broadcast once for the B blocks. */
static inline __attribute__((always_inline)) void scores_keys(const fused_call *c,
                                                              const float *Qt, const float *k_j,
                                                              float *S_j, size_t stride, int U,
                                                              int B)
{
    const size_t ld = c->ld_kv, d = c->d_head;
    vec a[MAX_BLOCKS][8];
    UNROLL for (int b = 0; b < B; b++)
        UNROLL for (int u = 0; u < U; u++)
            a[b][u] = V_ZERO();
    for (size_t t = 0; t < d; t++) {
        vec qt[MAX_BLOCKS];
        UNROLL for (int b = 0; b < B; b++)
            qt[b] = V_LOAD(Qt + (size_t)b * d * LANES + t * LANES);
        UNROLL for (int u = 0; u < U; u++) {
            const vec kb = V_BCAST(k_j + (size_t)u * ld + t);
            UNROLL for (int b = 0; b < B; b++)
                a[b][u] = V_FMA(kb, qt[b], a[b][u]);
        }
    }
    const vec scale = V_SET1(c->scale);
    UNROLL for (int b = 0; b < B; b++)
        UNROLL for (int u = 0; u < U; u++)
            V_STORE(S_j + (size_t)b * stride + (size_t)u * LANES, V_MUL(a[b][u], scale));
}

/* S_b [n_keys × LANES] (S_b = S + b·stride) of B blocks of queries (1 ≤ B ≤ MAX_BLOCKS)
 * against the keys from k_h: 8 keys at a time, then 4, then 1. */
static inline __attribute__((always_inline)) void block_scores(const fused_call *c,
                                                               const float *Qt,
                                                               const float *k_h, size_t n_keys,
                                                               float *S, size_t stride, int B)
{
    const size_t ld = c->ld_kv;
    size_t j = 0;
    for (; j + 8 <= n_keys; j += 8)
        scores_keys(c, Qt, k_h + j * ld, S + j * LANES, stride, 8, B);
    for (; j + 4 <= n_keys; j += 4)
        scores_keys(c, Qt, k_h + j * ld, S + j * LANES, stride, 4, B);
    for (; j < n_keys; j++)
        scores_keys(c, Qt, k_h + j * ld, S + j * LANES, stride, 1, B);
}

/* block_scores for 1 or B = 2 blocks (a constant for each call of the inlined loops). */
static void scores_blocks(const fused_call *c, const float *Qt, const float *k_h,
                          size_t n_keys, float *S, size_t stride, int B)
{
#if MAX_BLOCKS > 1
    if (B == 2) {
        block_scores(c, Qt, k_h, n_keys, S, stride, 2);
        return;
    }
#endif
    (void)B;
    block_scores(c, Qt, k_h, n_keys, S, stride, 1);
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
    const vec ninf = V_SET1(-INFINITY), zero = V_ZERO();
    const int masked = c->mask || rows < LANES;
    vec max = ninf;
    unsigned nan = 0;
    for (size_t j = 0; j < n_k; j++) {
        vec s = V_LOAD(S + j * LANES);
        if (masked) {   /* masked scores are overwritten, never read */
            s = V_BLEND(visible_lanes(c, i0, rows, j), ninf, s);
            V_STORE(S + j * LANES, s);
        }
        nan |= V_UNORD_BITS(s);
        max = V_MAX(s, max);   /* a NaN score is ignored here, reported below */
    }
    if (nan & live) {
        *bad_l = (size_t)__builtin_ctz(nan & live);
        for (size_t j = 0; j < n_k; j++)
            if (isnan(S[j * LANES + *bad_l])) {
                *bad_j = j;
                break;
            }
        return -1;
    }
    const unsigned inf = V_EQ_BITS(max, V_SET1(INFINITY)) & live;
    if (inf) {   /* the +inf scores share the row: exp(0 − 0) for them, exp(-inf) else */
        float m[LANES];
        V_STORE(m, max);
        for (size_t l = 0; l < LANES; l++) {
            if (!(inf >> l & 1u))
                continue;
            m[l] = 0.0f;
            for (size_t j = 0; j < n_k; j++)
                S[j * LANES + l] = S[j * LANES + l] == INFINITY ? 0.0f : -INFINITY;
        }
        max = V_LOAD(m);
    }
    const unsigned none = V_EQ_BITS(max, ninf);
    *empty = none & live;
    max = V_BLEND(none, max, zero);   /* exp(-inf − 0) = 0: such a row stays 0 */
    vec sum = zero;
    for (size_t j = 0; j < n_k; j++) {
        const vec e = V_EXP(V_SUB(V_LOAD(S + j * LANES), max));
        V_STORE(S + j * LANES, e);
        sum = V_ADD(sum, e);
    }
    /* 1 / sum, and 0 where nothing was visible (sum = 0) */
    const vec inv = V_BLEND(V_GT_BITS(sum, zero), zero, V_DIV(V_SET1(1.0f), sum));
    for (size_t j = 0; j < n_k; j++)
        V_STORE(S + j * LANES, V_MUL(V_LOAD(S + j * LANES), inv));
    return 0;
}

/* out[l + r] (+)= Σ_j P[j][l + r] · V[j] over n_keys keys for R queries
 * (r < R ≤ PV_ROWS), columns [t0, t0 + PV_LANES·w) of the head; w vectors (1 ≤ w ≤ 4):
 * R·w sums in flight, each vector of V loaded once for R queries. acc: add to out. */
static inline __attribute__((always_inline)) void values_chunk(const fused_call *c,
                                                               const float *P, size_t n_keys,
                                                               size_t l, int R,
                                                               const float *v_h, float *out_l,
                                                               size_t t0, int w, int acc)
{
    const size_t ld = c->ld_kv;
    pvec a[PV_ROWS][4];
    UNROLL for (int r = 0; r < R; r++)
        UNROLL for (int u = 0; u < w; u++)
            a[r][u] = acc ? PV_LOAD(out_l + (size_t)r * c->d_model + t0 + PV_LANES * u)
                          : PV_ZERO();
    for (size_t j = 0; j < n_keys; j++) {
        const float *v_j = v_h + j * ld + t0;
        pvec vv[4];
        UNROLL for (int u = 0; u < w; u++)
            vv[u] = PV_LOAD(v_j + PV_LANES * u);
        UNROLL for (int r = 0; r < R; r++) {
            const pvec p = PV_BCAST(P + j * LANES + l + (size_t)r);
            UNROLL for (int u = 0; u < w; u++)
                a[r][u] = PV_FMA(p, vv[u], a[r][u]);
        }
    }
    UNROLL for (int r = 0; r < R; r++)
        UNROLL for (int u = 0; u < w; u++)
            PV_STORE(out_l + (size_t)r * c->d_model + t0 + PV_LANES * u, a[r][u]);
}

/* Columns [t, d_head) of R queries from l, d_head − t < PV_LANES: one at a time. */
static void values_tail(const fused_call *c, const float *P, size_t n_keys, size_t l,
                        size_t R, const float *v_h, float *out_h, size_t t, int acc)
{
    for (; t < c->d_head; t++)
        for (size_t r = l; r < l + R; r++) {
            float sum = acc ? out_h[r * c->d_model + t] : 0.0f;
            for (size_t j = 0; j < n_keys; j++)
                sum += P[j * LANES + r] * v_h[j * c->ld_kv + t];
            out_h[r * c->d_model + t] = sum;
        }
}

/* R queries from l: columns 4 vectors at a time, then 1, then the tail. */
static inline __attribute__((always_inline)) void values_rows(const fused_call *c,
                                                              const float *P, size_t n_keys,
                                                              size_t l, int R, const float *v_h,
                                                              float *out_h, int acc)
{
    float *out_l = out_h + l * c->d_model;
    size_t t = 0;
    for (; t + 4 * PV_LANES <= c->d_head; t += 4 * PV_LANES)
        values_chunk(c, P, n_keys, l, R, v_h, out_l, t, 4, acc);
    for (; t + PV_LANES <= c->d_head; t += PV_LANES)
        values_chunk(c, P, n_keys, l, R, v_h, out_l, t, 1, acc);
    if (t < c->d_head)
        values_tail(c, P, n_keys, l, (size_t)R, v_h, out_h, t, acc);
}

/* out = P V for the block's rows: out_h [rows × d_head] (stride d_model) from
 * P [n_k × LANES] and the head's values v_h. With a non-finite value in V, only keys of
 * weight > 0 are added (0 · NaN would spread NaN), as the two-pass kernel does. */
static void block_values(const fused_call *c, const float *P, size_t rows, const float *v_h,
                         float *out_h)
{
    const size_t n_k = c->n_k;
    const size_t d = c->d_head, ld = c->d_model, ld_v = c->ld_kv;
    if (!c->v_finite) {
        for (size_t l = 0; l < rows; l++) {
            float *out_l = out_h + l * ld;
            memset(out_l, 0, d * sizeof *out_l);
            for (size_t j = 0; j < c->n_k; j++) {
                const float p = P[j * LANES + l];
                if (p == 0.0f)
                    continue;
                for (size_t t = 0; t < d; t++)
                    out_l[t] += p * v_h[j * ld_v + t];
            }
        }
        return;
    }
    size_t l = 0;
    for (; l + PV_ROWS <= rows; l += PV_ROWS)
        values_rows(c, P, n_k, l, PV_ROWS, v_h, out_h, 0);
    for (; l < rows; l++)
        values_rows(c, P, n_k, l, 1, v_h, out_h, 0);
}

/* out += P V over a tile of n_keys keys (V finite), for the block's rows. */
static void tile_values(const fused_call *c, const float *P, size_t n_keys, size_t rows,
                        const float *v_j0, float *out_h)
{
    size_t l = 0;
    for (; l + PV_ROWS <= rows; l += PV_ROWS)
        values_rows(c, P, n_keys, l, PV_ROWS, v_j0, out_h, 1);
    for (; l < rows; l++)
        values_rows(c, P, n_keys, l, 1, v_j0, out_h, 1);
}

/* weights [rows × n_k] (stride n_k) of the block from P [n_k × LANES]. */
static void store_weights(const fused_call *c, const float *P, size_t rows, float *w)
{
    const size_t n_k = c->n_k;
    size_t j = 0;
    if (rows == LANES)
        for (; j + 8 <= n_k; j += 8)
            for (size_t g = 0; g < LANES; g += 8)
                transpose8(P + j * LANES + g, LANES, w + g * n_k + j, n_k);
    for (; j < n_k; j++)
        for (size_t l = 0; l < rows; l++)
            w[l * n_k + j] = P[j * LANES + l];
}

/* The head's keys and values copied to dense [n_k × d_head] matrices in pack: rows of
 * d_model floats, a power of two apart, fall into few cache sets and evict each other.
 * Up to PACK_MIN_KEYS keys they fit in those sets, and the copy costs more than it
 * saves (measured, 8 heads of 64, CPU time without / with the copy: 2.7 / 3.0 µs at 8
 * keys, 4.7 / 5.7 at 16, 36 / 37 at 48, 68 / 65 at 64). */
#define PACK_MIN_KEYS 48

/* Past TILE_MIN_KEYS keys (weights not asked for, V finite) the keys go in tiles of
 * TILE_KEYS for TILE_BLOCKS blocks of queries at a time (rows_tiled); the tile's keys,
 * values and scores take 3 × 128 KiB at 16 lanes and heads of 64. */
#define TILE_MIN_KEYS 1024
#define TILE_KEYS 512
#define TILE_BLOCKS 4
static void pack_head(fused_call *c, const float *k_h, const float *v_h, float *pack,
                      const float **k_out, const float **v_out)
{
    const size_t d = c->d_head;
    for (size_t j = 0; j < c->n_k; j++)   /* (memcpy of a row became a slow rep movs) */
        for (int m = 0; m < 2; m++) {
            const float *src = (m ? v_h : k_h) + j * c->d_model;
            float *dst = pack + (m * c->n_k + j) * d;
            size_t t = 0;
            for (; t + 8 <= d; t += 8)
                _mm256_storeu_ps(dst + t, _mm256_loadu_ps(src + t));
            for (; t < d; t++)
                dst[t] = src[t];
        }
    *k_out = pack;
    *v_out = pack + c->n_k * d;
    c->ld_kv = d;
}

/* Queries [i0, i1) of head h with whole rows of scores: blocks of LANES queries, two
 * at a time where MAX_BLOCKS allows; S holds the scores of two blocks. Returns AT_OK, or
 * AT_EINVAL naming the first query and key whose score is NaN. */
static int rows_whole(const fused_call *c, size_t h, size_t i0, size_t i1, const float *k_h,
                      const float *v_h, float *Qt, float *S, at_error *err)
{
    const size_t n_k = c->n_k, col = h * c->d_head;
    while (i0 < i1) {
        const int B = MAX_BLOCKS > 1 && i1 - i0 >= 2 * LANES ? 2 : 1;
        for (int b = 0; b < B; b++) {
            const size_t i = i0 + (size_t)b * LANES;
            load_queries(c, c->q + col, i, i1 - i < LANES ? i1 - i : LANES,
                         Qt + (size_t)b * c->d_head * LANES);
        }
        scores_blocks(c, Qt, k_h, n_k, S, n_k * LANES, B);
        for (int b = 0; b < B; b++, i0 += LANES) {
            const size_t rows = i1 - i0 < LANES ? i1 - i0 : LANES;
            float *S_b = S + (size_t)b * n_k * LANES;
            unsigned empty = 0;
            size_t bad_l = 0, bad_j = 0;
            if (block_softmax(c, i0, rows, S_b, &empty, &bad_l, &bad_j))
                return at_error_set(err, AT_EINVAL,
                                    "attention: the score of query %zu against key %zu is not a "
                                    "number (a NaN or an infinity in Q or K that no mask hides)",
                                    i0 + bad_l + 1, bad_j + 1);
            if (c->fully_masked && h == 0)
                for (size_t l = 0; l < rows; l++)
                    c->fully_masked[i0 + l] = (unsigned char)(empty >> l & 1u);
            if (c->weights)
                store_weights(c, S_b, rows, c->weights + (h * c->n_q + i0) * n_k);
            block_values(c, S_b, rows, v_h, c->out + i0 * c->d_model + col);
        }
    }
    return AT_OK;
}

/* Running state of the online softmax of one block of queries (Milakov & Gimelshein
 * 2018): the largest visible score so far and the sum of exp(s − max) so far. */
typedef struct tile_state {
    vec max, sum;
} tile_state;

/* One tile of keys [j0, j0 + n_keys) for one block: masked scores to -inf, the tile's
 * maximum; where it raises the row's, what the row has summed so far (its sum and its
 * output row) is rescaled by exp(max_old − max_new); then S = exp(S − max) and its sum.
 * Returns 1, touching nothing, if a visible score is NaN or +inf (rows_whole handles
 * those). */
static int tile_softmax(const fused_call *c, size_t i0, size_t rows, size_t j0,
                        size_t n_keys, float *S, tile_state *st, float *out_h)
{
    const unsigned live = (1u << rows) - 1u;
    const vec ninf = V_SET1(-INFINITY), zero = V_ZERO();
    const int masked = c->mask || rows < LANES;
    vec tmax = ninf;
    unsigned nan = 0;
    for (size_t j = 0; j < n_keys; j++) {
        vec s = V_LOAD(S + j * LANES);
        if (masked) {
            s = V_BLEND(visible_lanes(c, i0, rows, j0 + j), ninf, s);
            V_STORE(S + j * LANES, s);
        }
        nan |= V_UNORD_BITS(s);
        tmax = V_MAX(s, tmax);
    }
    if ((nan | V_EQ_BITS(tmax, V_SET1(INFINITY))) & live)
        return 1;
    const vec max = V_MAX(tmax, st->max);
    const vec safe = V_BLEND(V_EQ_BITS(max, ninf), max, zero);   /* nothing seen: 0 */
    const unsigned raised = ~V_EQ_BITS(max, st->max) & ~V_EQ_BITS(st->max, ninf) & live;
    if (raised) {   /* rescale what these rows summed so far */
        float alpha[LANES];
        V_STORE(alpha, V_EXP(V_SUB(st->max, safe)));
        for (size_t l = 0; l < rows; l++)
            if (raised >> l & 1u) {
                float *o = out_h + l * c->d_model;
                for (size_t t = 0; t < c->d_head; t++)
                    o[t] *= alpha[l];
            }
        st->sum = V_MUL(st->sum, V_BLEND(raised, V_SET1(1.0f), V_LOAD(alpha)));
    }
    st->max = max;
    vec sum = zero;
    for (size_t j = 0; j < n_keys; j++) {
        const vec e = V_EXP(V_SUB(V_LOAD(S + j * LANES), safe));
        V_STORE(S + j * LANES, e);
        sum = V_ADD(sum, e);
    }
    st->sum = V_ADD(st->sum, sum);
    return 0;
}

/* Queries [i0, i1) (at most TILE_BLOCKS blocks) of head h in tiles of TILE_KEYS keys with
 * the online softmax, V finite, no weights asked for: each tile of keys and values is
 * read once for all the blocks (they stay in the L2 cache, where a whole head's keys
 * and values at thousands of tokens do not). Returns 1 if a score was NaN or +inf:
 * the caller runs these queries again with rows_whole. */
static int rows_tiled(const fused_call *c, size_t h, size_t i0, size_t i1, const float *k_h,
                      const float *v_h, float *Qt, float *S)
{
    const size_t col = h * c->d_head, n_blocks = (i1 - i0 + LANES - 1) / LANES;
    const size_t ld = c->ld_kv, stride = TILE_KEYS * LANES;
    float *out = c->out + i0 * c->d_model + col;
    tile_state st[TILE_BLOCKS];
    for (size_t b = 0; b < n_blocks; b++) {
        const size_t i = i0 + b * LANES;
        load_queries(c, c->q + col, i, i1 - i < LANES ? i1 - i : LANES,
                     Qt + b * c->d_head * LANES);
        st[b] = (tile_state){V_SET1(-INFINITY), V_ZERO()};
    }
    for (size_t i = i0; i < i1; i++)
        memset(out + (i - i0) * c->d_model, 0, c->d_head * sizeof *out);
    /* under a causal mask, keys after the last query are never seen */
    const size_t n_keys = c->mask && c->mask->causal && i1 < c->n_k ? i1 : c->n_k;
    for (size_t j0 = 0; j0 < n_keys; j0 += TILE_KEYS) {
        const size_t kt = n_keys - j0 < TILE_KEYS ? n_keys - j0 : TILE_KEYS;
        for (size_t b = 0; b < n_blocks;) {
            const int B = MAX_BLOCKS > 1 && b + 1 < n_blocks ? 2 : 1;
            scores_blocks(c, Qt + b * c->d_head * LANES, k_h + j0 * ld, kt, S + b * stride,
                          stride, B);
            b += (size_t)B;
        }
        for (size_t b = 0; b < n_blocks; b++) {
            const size_t i = i0 + b * LANES, rows = i1 - i < LANES ? i1 - i : LANES;
            if (tile_softmax(c, i, rows, j0, kt, S + b * stride, &st[b],
                             out + b * LANES * c->d_model))
                return 1;
            tile_values(c, S + b * stride, kt, rows, v_h + j0 * ld, out + b * LANES * c->d_model);
        }
    }
    for (size_t b = 0; b < n_blocks; b++) {
        const size_t i = i0 + b * LANES, rows = i1 - i < LANES ? i1 - i : LANES;
        const vec zero = V_ZERO();
        float inv[LANES];
        V_STORE(inv, V_BLEND(V_GT_BITS(st[b].sum, zero), zero, V_DIV(V_SET1(1.0f), st[b].sum)));
        const unsigned empty = V_EQ_BITS(st[b].max, V_SET1(-INFINITY));
        for (size_t l = 0; l < rows; l++) {
            float *o = out + (b * LANES + l) * c->d_model;
            for (size_t t = 0; t < c->d_head; t++)
                o[t] *= inv[l];
            if (c->fully_masked && h == 0)
                c->fully_masked[i + l] = (unsigned char)(empty >> l & 1u);
        }
    }
    return 0;
}

int FUSED_ENTRY(size_t n_heads, size_t d_model, size_t n_q, const float *q, size_t n_k,
                const float *k, const float *v, float scale, const at_mask *mask, float *out,
                float *weights, unsigned char *fully_masked, float *pack, at_error *err)
{
    if (n_k > AT_FUSED_MAX_KEYS || d_model / n_heads > AT_FUSED_MAX_DHEAD)
        return at_error_set(err, AT_EINVAL, "attention: the fused kernel takes at most %d keys "
                            "and heads of %d", AT_FUSED_MAX_KEYS, AT_FUSED_MAX_DHEAD);
    if (!isfinite(scale))
        return at_error_set(err, AT_EINVAL, "attention: the scale must be a finite number");
    fused_call c = {.n_heads = n_heads, .d_model = d_model, .d_head = d_model / n_heads,
                    .n_q = n_q, .n_k = n_k, .q = q, .k = k, .v = v, .ld_kv = d_model,
                    .scale = scale, .out = out, .weights = weights, .fully_masked = fully_masked};
    if (mask && (mask->causal || mask->key_padding || mask->allowed))
        c.mask = mask;
    c.v_finite = at_vall_finite_avx2(v, n_k, d_model, d_model);   /* once for all heads */
    /* pack: the head's keys and values, then the scores, then (tiles) the queries */
    float *S = pack + 2 * n_k * c.d_head;
    float Qt_small[MAX_BLOCKS * AT_FUSED_MAX_DHEAD * LANES];
    const int tiled = !weights && c.v_finite && n_k > TILE_MIN_KEYS;
    float *Qt = tiled ? S + AT_FUSED_SCORES(n_k) : Qt_small;
    for (size_t h = 0; h < n_heads; h++) {
        const float *k_h = k + h * c.d_head, *v_h = v + h * c.d_head;
        if (n_k > PACK_MIN_KEYS)
            pack_head(&c, k_h, v_h, pack, &k_h, &v_h);
        if (!tiled) {
            int rc = rows_whole(&c, h, 0, n_q, k_h, v_h, Qt, S, err);
            if (rc)
                return rc;
            continue;
        }
        for (size_t i0 = 0; i0 < n_q; i0 += TILE_BLOCKS * LANES) {
            const size_t i1 = n_q - i0 < TILE_BLOCKS * LANES ? n_q : i0 + TILE_BLOCKS * LANES;
            if (rows_tiled(&c, h, i0, i1, k_h, v_h, Qt, S)) {
                int rc = rows_whole(&c, h, i0, i1, k_h, v_h, Qt, S, err);
                if (rc)
                    return rc;
            }
        }
    }
    return AT_OK;
}
