/* Scaled dot-product attention in O(n) memory: the keys in tiles, with the online
 * softmax (Milakov & Gimelshein 2018, "Online normalizer calculation for softmax";
 * Dao et al. 2022, FlashAttention, Algorithm 1). For a block of query rows, each tile
 * of keys gives scores S = Q Kᵀ·scale; each row keeps its running maximum m and the
 * running sum l of exp(s − m); when a tile raises m, what the row has summed so far
 * (l and its output row) is rescaled by exp(m_old − m_new) before the tile's
 * exp(S − m)·V is added. At the end each output row is divided by its l. The scores
 * of one tile (ON_ROWS × ON_KEYS floats, on the stack) are all the scratch there is.
 *
 * Same results as the two-pass kernel (attention.c) to rounding, including its edge
 * cases: masked keys never read, a row with no visible key (or only -inf scores) gives
 * zeros and fully_masked, +inf scores share the row equally, a NaN score that no mask
 * hides is an error naming the first such query and key, non-finite values in V reach
 * only rows that give them weight. */
#include "engine/attention.h"
#include "engine/kernels.h"
#include "engine/vexp.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define ON_ROWS 64    /* query rows per block */
#define ON_KEYS 256   /* keys per tile: a tile's scores are 64 KiB, in L2 */

/* out_i += Σ_j p_ij V_j over the tile's keys with p_ij > 0 only (V holds a non-finite
 * value: sgemm would spread 0·NaN). */
static void add_weighted_rows(size_t rows, size_t keys, const float *P, const float *V,
                              size_t ld_v, size_t d_v, float *out, size_t ld_out)
{
    for (size_t r = 0; r < rows; r++) {
        const float *p_r = P + r * keys;
        float *out_r = out + r * ld_out;
        for (size_t j = 0; j < keys; j++) {
            if (p_r[j] == 0.0f)
                continue;
            const float *v_j = V + j * ld_v;
            for (size_t d = 0; d < d_v; d++)
                out_r[d] += p_r[j] * v_j[d];
        }
    }
}

/* Running state of one query row. */
typedef struct online_row {
    float m;          /* the largest visible score so far (-inf: none) */
    double l;         /* Σ exp(s − m) over the visible keys so far */
    size_t bad_key;   /* the first visible key with a NaN score, or SIZE_MAX */
} online_row;

/* One row of a tile: mask, NaN check, the online update of m and l (rescaling the
 * row's output so far), and s turned into the unnormalised weights exp(s − m). */
static void tile_row(const at_attn_config *c, size_t i, size_t j0, float *s, size_t keys,
                     online_row *st, float *out_i)
{
    const int masked = c->mask.causal || c->mask.key_padding || c->mask.allowed;
    for (size_t jj = 0; jj < keys; jj++) {
        if (masked && !at_mask_visible(&c->mask, c->n_k, i, j0 + jj))
            s[jj] = -INFINITY;   /* overwritten, never read: exp gives exactly 0 */
        else if (isnan(s[jj]) && st->bad_key == SIZE_MAX)
            st->bad_key = j0 + jj;
    }
    const float m_tile = at_vmax(s, keys);   /* NaN ignored */
    const float m_new = m_tile > st->m ? m_tile : st->m;
    if (st->bad_key != SIZE_MAX || m_new == -INFINITY) {
        memset(s, 0, keys * sizeof *s);   /* no weight: a bad row, or nothing visible yet */
        return;
    }
    if (m_new != st->m) {
        /* exp(m_old − m_new): 0 from -inf (nothing summed yet) or to +inf */
        float alpha = st->m == -INFINITY ? 0.0f : expf(st->m - m_new);
        if (st->m != -INFINITY)
            for (size_t d = 0; d < c->d_v; d++)
                out_i[d] *= alpha;
        st->l *= alpha;
        st->m = m_new;
    }
    if (m_new == INFINITY) {   /* the +inf scores share the row, the rest get 0 */
        for (size_t jj = 0; jj < keys; jj++) {
            s[jj] = s[jj] == INFINITY ? 1.0f : 0.0f;
            st->l += s[jj];
        }
        return;
    }
    st->l += at_vexp_shift(s, keys, m_new);
}

int at_attention_online(const at_attn_config *c, const float *Q, const float *K, const float *V,
                        float *out, unsigned char *fully_masked, int threads, at_error *err)
{
    if (!c || !Q || !K || !V || !out)
        return at_error_set(err, AT_EINVAL, "attention: a required matrix is missing");
    int rc = at_attention_check(c, err);
    if (rc)
        return rc;
    const size_t ld_q = c->ld_q ? c->ld_q : c->d_k, ld_k = c->ld_k ? c->ld_k : c->d_k;
    const size_t ld_v = c->ld_v ? c->ld_v : c->d_v, ld_out = c->ld_out ? c->ld_out : c->d_v;
    const size_t n_q = c->n_q, n_k = c->n_k, d_v = c->d_v;
    const int v_finite = at_vall_finite(V, n_k, d_v, ld_v);
    float S[ON_ROWS * ON_KEYS];
    online_row st[ON_ROWS];
    for (size_t i0 = 0; i0 < n_q; i0 += ON_ROWS) {
        const size_t i1 = i0 + ON_ROWS < n_q ? i0 + ON_ROWS : n_q, rows = i1 - i0;
        /* Under a causal mask, keys after the block's last query are never seen. */
        const size_t n_cols = c->mask.causal && i1 < n_k ? i1 : n_k;
        float *out_blk = out + i0 * ld_out;
        for (size_t r = 0; r < rows; r++) {
            st[r] = (online_row){.m = -INFINITY, .l = 0.0, .bad_key = SIZE_MAX};
            memset(out_blk + r * ld_out, 0, d_v * sizeof *out_blk);
        }
        for (size_t j0 = 0; j0 < n_cols; j0 += ON_KEYS) {
            const size_t keys = j0 + ON_KEYS < n_cols ? ON_KEYS : n_cols - j0;
            /* S = Q Kᵀ · scale  [rows × keys], dense */
            at_matmul_ex(rows, keys, c->d_k, c->scale, Q + i0 * ld_q, ld_q, K + j0 * ld_k, ld_k,
                         1, S, keys, 0, threads);
            for (size_t r = 0; r < rows; r++)
                tile_row(c, i0 + r, j0, S + r * keys, keys, &st[r], out_blk + r * ld_out);
            /* out += exp(S − m) V  [rows × d_v] */
            if (v_finite)
                at_matmul_ex(rows, d_v, keys, 1.0f, S, keys, V + j0 * ld_v, ld_v, 0, out_blk,
                             ld_out, 1, threads);
            else
                add_weighted_rows(rows, keys, S, V + j0 * ld_v, ld_v, d_v, out_blk, ld_out);
        }
        for (size_t r = 0; r < rows; r++) {
            float *out_r = out_blk + r * ld_out;
            if (st[r].bad_key != SIZE_MAX)
                return at_error_set(err, AT_EINVAL,
                                    "attention: the score of query %zu against key %zu is not a "
                                    "number (a NaN or an infinity in Q or K that no mask hides)",
                                    i0 + r + 1, st[r].bad_key + 1);
            const int empty = st[r].m == -INFINITY;
            if (fully_masked)
                fully_masked[i0 + r] = (unsigned char)empty;
            if (empty)
                memset(out_r, 0, d_v * sizeof *out_r);
            else
                at_vscale(out_r, d_v, (float)(1.0 / st[r].l));
        }
    }
    return AT_OK;
}
