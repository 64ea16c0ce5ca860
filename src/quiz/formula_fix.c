/* Rewrites of a formula's tokens before they are parsed, for what the answer says of it
 * in its own notation or words: one symbol corrected after the formula ("sorry, I meant
 * d_k, not d_model", "更正：是 d_k 不是 d_model", "不对，dₖ 应该是 √dₖ"), the per-query
 * form (out_i = Σ_j softmax_j(q_i·k_j/√d_k) v_j: the dot products of rows are Q Kᵀ, the
 * sum over j of weights times v_j is the product with V), and a step said in words and
 * again in symbols. See quiz/formula_impl.h. */
#include "quiz/formula_impl.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- one symbol corrected after the formula ---- */

/* A symbol: [√ | sqrt] [(] a variable [)] [ᵀ], tokens [at, at + len). */
typedef struct atom {
    size_t at, len;
    size_t name;          /* the variable's token */
    int sqrt, var, trans;
} atom;

static int is_sqrt(const ftoken *t)
{
    return t->kind == F_SQRT || fq_name_is(t, "sqrt") || fq_name_is(t, "root");
}

/* The symbol at token i of t[0, n); 0 when none starts there. */
static int atom_at(const ftoken *t, size_t n, size_t i, atom *a)
{
    size_t k = i;
    *a = (atom){.at = i};
    a->sqrt = k < n && is_sqrt(&t[k]);
    k += a->sqrt;
    int paren = k < n && t[k].kind == F_LPAR;
    k += paren;
    if (k >= n || t[k].kind != F_VAR || t[k].var == V_MASK || t[k].var == V_OTHER)
        return 0;
    a->name = k;
    a->var = t[k++].var;
    if (paren) {
        if (k >= n || t[k].kind != F_RPAR)
            return 0;
        k++;
    } else if (a->sqrt && k < n && t[k].kind == F_LPAR) {
        return 0;
    }
    a->trans = k < n && t[k].kind == F_TRANS;
    k += a->trans;
    a->len = k - i;
    return 1;
}

static int same_atom(const atom *a, const atom *b)
{
    return a->sqrt == b->sqrt && a->var == b->var && a->trans == b->trans;
}

/* A scale (d_k, √d_model) or a matrix (K, Kᵀ): a correction keeps to its kind. */
static int scalar(const atom *a)
{
    return a->var == V_DK || a->var == V_DMODEL;
}

static int han_contains(const ftoken *t, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; t->kind == F_HAN && i + n <= t->len; i++)
        if (!memcmp(t->text + i, s, n))
            return 1;
    return 0;
}

/* "not", "instead of", "rather than", 不是, 而不是: the symbol taken back follows. */
static int negator(const ftoken *t)
{
    return fq_name_is(t, "not") || fq_name_is(t, "instead") || fq_name_is(t, "rather") ||
           han_contains(t, "不是");
}

/* "should be", "must be", 应该是, 应为, 改成, 换成, 改为: the new symbol follows. */
static size_t becomes(const ftoken *t, size_t k, size_t n)
{
    if ((fq_name_is(&t[k], "should") || fq_name_is(&t[k], "must")) && k + 1 < n && fq_name_is(&t[k + 1], "be"))
        return 2;
    return han_contains(&t[k], "应该是") || han_contains(&t[k], "应为") || han_contains(&t[k], "改成") ||
           han_contains(&t[k], "换成") || han_contains(&t[k], "改为");
}

/* After the formula [.., b): the symbol taken back (old) and the one meant (neu). */
static int correction(const ftokens *T, size_t b, atom *old, atom *neu)
{
    const ftoken *t = T->t;
    size_t n = T->n;
    int corrected = 0, have_new = 0;
    atom a, last_scalar = {0}, last_matrix = {0};
    int seen_scalar = 0, seen_matrix = 0;
    for (size_t k = b; k < n; k++) {
        corrected |= fq_correcting(&t[k]);
        size_t w = becomes(t, k, n);
        if (corrected && w && k > b && atom_at(t, n, k + w, neu)) {
            /* "dₖ 应该是 √dₖ": the symbol right before is taken back */
            for (size_t s = b; s < k; s++)
                if (atom_at(t, n, s, &a) && s + a.len == k && scalar(&a) == scalar(neu) && !same_atom(&a, neu)) {
                    *old = a;
                    return 1;
                }
        }
        if (corrected && negator(&t[k])) {
            size_t j = k + 1;
            while (j < n && (t[j].kind == F_FILLER || fq_name_is(&t[j], "than")))
                j++;   /* "instead of", "rather than" */
            if (atom_at(t, n, j, old)) {
                /* "not d_k but d_model", 不是 dₖ 而是 d_model: the one meant follows */
                size_t q = j + old->len;
                q += q < n && t[q].kind == F_COMMA;
                if (q < n && (fq_name_is(&t[q], "but") || han_contains(&t[q], "是")) && atom_at(t, n, q + 1, neu) &&
                    scalar(neu) == scalar(old))
                    return !same_atom(old, neu);
                *neu = scalar(old) ? last_scalar : last_matrix;
                have_new = scalar(old) ? seen_scalar : seen_matrix;
                return have_new && !same_atom(old, neu);
            }
        }
        if (atom_at(t, n, k, &a)) {
            if (corrected && scalar(&a))
                last_scalar = a, seen_scalar = 1;
            else if (corrected)
                last_matrix = a, seen_matrix = 1;
            k += a.len - 1;
        }
    }
    return 0;
}

int fq_correct_symbol(const ftokens *T, size_t b, ftoken **pt, size_t *pn)
{
    atom old, neu, a;
    if (!correction(T, b, &old, &neu))
        return 0;
    ftoken *t = *pt;
    size_t n = *pn, hits = 0;
    if (!old.sqrt && !old.trans && !neu.sqrt && !neu.trans) {
        /* one name for another (d_k for d_model), wherever it stands: √d_model too */
        for (size_t k = 0; k < n; k++)
            if (t[k].kind == F_VAR && t[k].var == neu.var)
                return 0;
        for (size_t k = 0; k < n; k++)
            if (t[k].kind == F_VAR && t[k].var == old.var) {
                t[k] = T->t[neu.name];
                hits++;
            }
        return hits > 0;
    }
    for (size_t k = 0; k < n; k++)
        if (atom_at(t, n, k, &a)) {
            if (same_atom(&a, &neu))
                return 0;   /* the formula already says what the words correct it to */
            hits += same_atom(&a, &old);
            k += a.len - 1;
        }
    if (!hits)
        return 0;
    ftoken *out = malloc((n + hits * neu.len + 1) * sizeof *out);
    if (!out)
        return -1;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (atom_at(t, n, k, &a) && same_atom(&a, &old)) {
            memcpy(out + m, T->t + neu.at, neu.len * sizeof *out);
            m += neu.len;
            k += a.len - 1;
            continue;
        }
        out[m++] = t[k];
    }
    out[m] = t[n];   /* F_END */
    free(t);
    *pt = out;
    *pn = m;
    return 1;
}

/* ---- the per-query form ---- */

/* q_i, k_j, v_j: a row of Q, K or V (a variable with an index). */
static int row(const ftoken *t)
{
    return t->kind == F_VAR && t->index && t->var <= V_V;
}

int fq_per_query(ftoken **pt, size_t *pn)
{
    ftoken *t = *pt;
    size_t n = *pn, m = 0;
    int rows = 0;
    for (size_t k = 0; k < n; k++)
        rows += row(&t[k]);
    if (rows < 2)
        return 0;
    ftoken *out = malloc((2 * n + 1) * sizeof *out);
    if (!out)
        return -1;
    for (size_t k = 0; k < n; k++) {
        if (fq_name_is(&t[k], "sum") && t[k].index)
            continue;   /* Σ_j of weights times v_j: the product with V */
        out[m++] = t[k];
        if (!row(&t[k]))
            continue;
        /* q_i·k_j, q_iᵀ k_j, q_i k_jᵀ: the dot product of two rows, Q Kᵀ */
        size_t j = k + 1;
        j += j < n && t[j].kind == F_TRANS;
        j += j < n && (t[j].kind == F_MUL || t[j].kind == F_DOTMUL);
        if (j < n && row(&t[j]) && t[j].index != t[k].index) {
            out[m] = t[k];   /* the operator, at the first row's place */
            out[m++].kind = F_DOTMUL;
            out[m++] = t[j];
            k = j + (j + 1 < n && t[j + 1].kind == F_TRANS);
        }
    }
    out[m] = t[n];
    free(t);
    *pt = out;
    *pn = m;
    return 1;
}

/* ---- a step restated in symbols ---- */

/* The Q, K, V of tokens [a, b) as bits. */
static unsigned matrices(const ftoken *t, size_t a, size_t b)
{
    unsigned m = 0;
    for (size_t k = a; k < b; k++)
        if (t[k].kind == F_VAR && t[k].var <= V_V)
            m |= 1u << t[k].var;
    return m;
}

int fq_drop_restatement(ftoken *t, size_t *pn)
{
    size_t n = *pn, s = 0, m = 0;
    int depth = 0, dropped = 0;
    for (size_t k = 0; k < n; k++) {
        enum ftok kind = t[k].kind;
        if (!depth && (kind == F_COMMA || kind == F_SEP))
            s = m + 1;   /* the next step starts after it (in the output) */
        if (kind == F_LPAR && m && !depth &&
            (t[m - 1].kind == F_VAR || t[m - 1].kind == F_RPAR || t[m - 1].kind == F_TRANS)) {
            size_t j = k;
            int d = 0;
            for (; j < n; j++) {
                d += (t[j].kind == F_LPAR) - (t[j].kind == F_RPAR);
                if (!d)
                    break;
            }
            enum ftok after = j + 1 < n ? t[j + 1].kind : F_END;
            unsigned inside = j < n ? matrices(t, k + 1, j) : 0;
            if (inside && (after == F_COMMA || after == F_SEP || after == F_END) &&
                inside == matrices(t, s, m)) {
                k = j;   /* "every query with every key (QKᵀ), …": said twice */
                dropped = 1;
                continue;
            }
        }
        depth += (kind == F_LPAR) - (kind == F_RPAR);
        t[m++] = t[k];
    }
    t[m] = t[n];
    *pn = m;
    return dropped;
}
