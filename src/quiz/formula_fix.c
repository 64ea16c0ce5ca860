/* Rewrites of a formula's tokens before they are parsed, for what the answer says of it
 * in its own notation or words: one symbol corrected after the formula ("sorry, I meant
 * d_k, not d_model", "更正：是 d_k 不是 d_model", "不对，dₖ 应该是 √dₖ"), the index form
 * (out_i = Σ_j softmax_j(q_i·k_j/√d_k) v_j, a_ij = exp(q_i·k_j/√d_k) / Σ_l exp(q_i·k_l/√d_k):
 * the dot products of rows are Q Kᵀ, the sum over j of weights times v_j is the product
 * with V, the sum in the denominator the softmax's, and so is a sum named for a
 * denominator: Z_i = Σ_j exp(…)), and a step said in words and again in symbols. See
 * quiz/formula_impl.h. */
#include "quiz/formula_impl.h"

#include <ctype.h>
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

/* ---- a scale's symbol defined after the formula ---- */

/* "is", "=", "denotes", 是, 为, 指, 表示: a definition of the symbol before follows. */
static int defines(const ftoken *t)
{
    static const char *const w[] = {"is", "denotes", "means", "equals"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (fq_name_is(t, w[i]))
            return 1;
    if (t->kind == F_ASSIGN)
        return 1;
    static const char *const h[] = {"是", "为", "指", "表示", "即"};
    for (size_t i = 0; i < sizeof h / sizeof *h; i++)
        if (t->kind == F_HAN && t->len >= strlen(h[i]) && !memcmp(t->text, h[i], strlen(h[i])))
            return 1;
    return 0;
}

/* The model's width named in words: "the model dimension", "hidden size", 模型维度. */
static int model_width(const ftoken *t, size_t k, size_t n)
{
    if (t[k].kind == F_VAR && t[k].var == V_DMODEL)
        return 1;
    static const char *const h[] = {"模型维度", "模型的维度", "模型宽度", "隐藏层维度", "隐层维度",
                                     "词向量维度", "嵌入维度", "embedding 维度", "d_model"};
    for (size_t i = 0; i < sizeof h / sizeof *h; i++)
        if (han_contains(&t[k], h[i]))
            return 1;
    static const char *const first[] = {"model", "hidden", "embedding", "embed"};
    static const char *const second[] = {"dimension", "dim", "width", "size", "dimensionality"};
    for (size_t i = 0; i < sizeof first / sizeof *first; i++)
        if (fq_name_is(&t[k], first[i]) && k + 1 < n)
            for (size_t j = 0; j < sizeof second / sizeof *second; j++)
                if (fq_name_is(&t[k + 1], second[j]))
                    return 2;
    return 0;
}

/* A share of the width, not the width: "d_model / h", "divided by the heads", 除以头数. */
static int shared_out(const ftoken *t, size_t k, size_t n)
{
    for (size_t j = k; j < n && j < k + 4 && t[j].kind != F_SEP && t[j].kind != F_COMMA; j++)
        if (t[j].kind == F_DIV || fq_name_is(&t[j], "per") || fq_name_is(&t[j], "heads") ||
            fq_name_is(&t[j], "head") || han_contains(&t[j], "头") || han_contains(&t[j], "除"))
            return 1;
    return 0;
}

int fq_define_symbol(const ftokens *T, size_t b, ftoken *t, size_t n)
{
    const ftoken *u = T->t;
    for (size_t k = b; k + 1 < T->n; k++) {
        if (u[k].kind != F_VAR || u[k].var != V_DK)
            continue;
        size_t j = k + 1;
        while (j < T->n && u[j].kind == F_FILLER)
            j++;
        if (j >= T->n || !defines(&u[j]))
            continue;
        /* the definition's own words: up to three tokens to the width ("the model's dimension") */
        for (size_t m = u[j].kind == F_HAN ? j : j + 1; m < T->n && m <= j + 3 && u[m].kind != F_SEP; m++) {
            int w = model_width(u, m, T->n);
            if (!w)
                continue;
            if (shared_out(u, m + (size_t)w, T->n))
                return 0;
            int hits = 0;
            for (size_t i = 0; i < n; i++)
                if (t[i].kind == F_VAR && t[i].var == V_DK && t[i].len == u[k].len &&
                    !strncasecmp(t[i].text, u[k].text, u[k].len)) {
                    t[i].var = V_DMODEL;
                    hits++;
                }
            return hits > 0;
        }
    }
    return 0;
}

/* ---- the index form ---- */

/* q_i, k_j, v_j: a row of Q, K or V (a variable with an index). */
static int row(const ftoken *t)
{
    return t->kind == F_VAR && t->index && t->var <= V_V;
}

/* One side of a dot product: a row, or q or k without an index (one query: q·k_j). */
static int vec(const ftoken *t)
{
    return row(t) || (t->kind == F_VAR && t->len == 1 && (*t->text == 'q' || *t->text == 'k'));
}

size_t fq_subscripted(const ftoken *t)
{
    if (t->kind != F_NAME || t->len < 3)
        return 0;
    size_t u = t->len;
    while (u > 0 && t->text[u - 1] != '_')
        u--;
    if (u < 2 || t->len - u < 1 || t->len - u > 2)
        return 0;
    for (size_t k = u; k < t->len; k++)
        if (t->text[k] < 'a' || t->text[k] > 'z')
            return 0;
    return u;
}

/* A token that carries an index (q_i, Σ_j, softmax_j, a_ij). */
static int indexed(const ftoken *t)
{
    return t->index || fq_subscripted(t);
}

/* Two vectors at t[k] that make a dot product: a [ᵀ] [·] b [ᵀ], with an index on one at
 * least and not the same on both (q_i·k_i is no score of every pair); loose (the answer
 * has such a product elsewhere): also q and k without an index, with a transpose or an
 * operator between them ("w_j = exp(q·k_j/√d)/Σ exp(q·k/√d)": the same scores, their
 * indices left out). Sets the tokens of the two and returns the one past it; 0 when none
 * starts there. */
static size_t dot_plain(const ftoken *t, size_t n, size_t k, size_t *a, size_t *b, int loose)
{
    if (!vec(&t[k]))
        return 0;
    size_t j = k + 1;
    j += j < n && t[j].kind == F_TRANS;
    j += j < n && (t[j].kind == F_MUL || t[j].kind == F_DOTMUL);
    if (j >= n || !vec(&t[j]))
        return 0;
    int plain = loose && !t[k].index && !t[j].index && t[k].var != t[j].var &&
                (j > k + 1 || (j + 1 < n && t[j + 1].kind == F_TRANS));
    if (!plain && (!(row(&t[k]) || row(&t[j])) || t[j].index == t[k].index))
        return 0;
    *a = k;
    *b = j;
    return j + 1 + (j + 1 < n && t[j + 1].kind == F_TRANS);
}

/* ⟨q_i, k_j⟩ (read as a parenthesis), dot(q_i, k_j): the pair at t[k] in parentheses. */
static size_t dot_pair(const ftoken *t, size_t n, size_t k, size_t *a, size_t *b)
{
    size_t p = k + fq_name_is(&t[k], "dot");
    if (p + 4 > n || t[p].kind != F_LPAR || t[p + 2].kind != F_COMMA || t[p + 4].kind != F_RPAR ||
        !vec(&t[p + 1]) || !vec(&t[p + 3]) || !(row(&t[p + 1]) || row(&t[p + 3])) ||
        (p == k && k && t[k - 1].kind == F_NAME))
        return 0;   /* f(q_i, k_j): a function of the two, not their product */
    *a = p + 1;
    *b = p + 3;
    return p + 5;
}

static void drop(ftoken *t, size_t *n, size_t i)
{
    memmove(t + i, t + i + 1, (*n - i) * sizeof *t);   /* F_END too */
    (*n)--;
}

/* The primes of indices go, in place: Σ_j', k_j' (j' is an index as j is), not a
 * transpose. */
static void drop_primes(ftoken *t, size_t *n)
{
    for (size_t k = 1; k < *n;) {
        if (t[k].kind == F_TRANS && *t[k].text == '\'' && indexed(&t[k - 1]) && !t[k].space_before)
            drop(t, n, k);
        else
            k++;
    }
}

/* Every dot product of two vectors made Q·Kᵀ: t[0, n) into out, with F_END after; the
 * count. Q stands first whichever was written first (k_j·q_i is q_i·k_j). */
static size_t dot_products(const ftoken *t, size_t n, ftoken *out)
{
    size_t m = 0, a, b, e;
    int loose = 0;   /* a product of rows stands somewhere: q·k without indices is one too */
    for (size_t k = 0; k < n && !loose; k++)
        loose = dot_plain(t, n, k, &a, &b, 0) || dot_pair(t, n, k, &a, &b);
    for (size_t k = 0; k < n; k++) {
        int pair = 0;
        if ((e = dot_plain(t, n, k, &a, &b, loose)) || (pair = (e = dot_pair(t, n, k, &a, &b)) != 0)) {
            if (pair)
                out[m++] = t[a - 1];   /* ( */
            if (t[a].var == V_K && t[b].var == V_Q) {
                size_t s = a;
                a = b;
                b = s;
            }
            out[m++] = t[a];
            out[m] = t[k];   /* the operator, at the first one's place */
            out[m++].kind = F_DOTMUL;
            out[m++] = t[b];
            if (pair)
                out[m++] = t[e - 1];   /* ) */
            k = e - 1;
            continue;
        }
        out[m++] = t[k];
    }
    out[m] = t[n];
    return m;
}

/* The end of the term that starts at t[a]: the first +, -, comma, step or '=' outside the
 * parentheses it opens, or a parenthesis that closes one opened before it. */
static size_t term_end(const ftoken *t, size_t n, size_t a)
{
    int depth = 0;
    size_t e = a;
    for (; e < n; e++) {
        enum ftok k = t[e].kind;
        if (k == F_LPAR)
            depth++;
        else if (k == F_RPAR && depth-- == 0)
            break;
        else if (!depth && (k == F_PLUS || k == F_MINUS || k == F_COMMA || k == F_SEP || k == F_ASSIGN))
            break;
    }
    return e;
}

/* Does t[k - 1] close the first group of a \frac (its numerator)? */
static int closes_numerator(const ftoken *t, size_t k)
{
    if (!k || t[k - 1].kind != F_RPAR)
        return 0;
    int depth = 0;
    for (size_t i = k; i-- > 0;) {
        depth += (t[i].kind == F_RPAR) - (t[i].kind == F_LPAR);
        if (!depth)
            return i && t[i - 1].kind == F_FRAC;
    }
    return 0;
}

/* Does t[k] stand in a denominator: after '/', or first in \frac's second group? */
static int in_denominator(const ftoken *t, size_t k)
{
    size_t j = k;
    while (j && t[j - 1].kind == F_LPAR)
        j--;
    return j && (t[j - 1].kind == F_DIV || (j < k && closes_numerator(t, j)));
}

/* The query's and the key's index of the first scores in t[a, e): q_i·k_j (made Q·Kᵀ) or a
 * name of two indices (e_ij: the query's first). 0 each when none is found. */
static void score_indices(const ftoken *t, size_t a, size_t e, char *qi, char *ki)
{
    *qi = *ki = 0;
    for (size_t k = a; k < e; k++) {
        size_t u = fq_subscripted(&t[k]);
        if (k + 2 < e && t[k + 1].kind == F_DOTMUL && t[k].kind == F_VAR && t[k + 2].kind == F_VAR) {
            *qi = t[k].var == V_Q ? t[k].index : 0;
            *ki = t[k + 2].var == V_K ? t[k + 2].index : 0;
            return;
        }
        if (u && t[k].len - u == 2) {
            *qi = t[k].text[u];
            *ki = t[k].text[u + 1];
            return;
        }
    }
}

/* Does a softmax or a sum over index x of t[a, e) run over the queries: x is the index
 * of the query in its scores and not that of the key? */
static int over_queries(const ftoken *t, size_t a, size_t e, char x)
{
    char qi, ki;
    score_indices(t, a, e, &qi, &ki);
    return x && qi && x == qi && x != ki;
}

/* Σ_j a_ij v_j at t[k], its terms [k + 1, e) holding the row t[r]: the weights times the
 * row's matrix. The sum goes, the row (with a '·' that joins it) moves to the end of the
 * terms, as the matrix it is a row of. A sum that does not run over that row's index and
 * the key's of its weights (Σ_i a_ij v_j, Σ_j a_ij v_i, Σ_i a_ij v_i) weights no rows of
 * V: its matrix is another one. */
static void weighted_sum(ftoken *t, size_t *n, size_t k, size_t r, size_t e)
{
    ftoken v = t[r];
    char qi, ki, x = t[k].index;
    score_indices(t, k + 1, e, &qi, &ki);
    if (v.index != x || (qi == x && ki != x))
        v.var = V_OTHER;
    v.index = 0;
    int first = t[r - 1].kind == F_LPAR || r == k + 1;
    size_t mul = first ? r + 1 : r - 1;
    int joined = mul < e && (t[mul].kind == F_MUL || t[mul].kind == F_DOTMUL);
    if (joined && mul > r)
        drop(t, n, mul);
    drop(t, n, r);
    if (joined && mul < r)
        drop(t, n, mul);
    e -= 1 + joined;
    memmove(t + e + 1, t + e, (*n - e + 1) * sizeof *t);
    t[e] = v;
    (*n)++;
    drop(t, n, k);
}

/* Is a the same name as b, their subscripts aside (Z_i and Z_j, Z_i and Z)? */
static int same_base(const ftoken *a, const ftoken *b)
{
    size_t ua = fq_subscripted(a), ub = fq_subscripted(b);
    size_t la = ua ? ua - 1 : a->len, lb = ub ? ub - 1 : b->len;
    return a->kind == F_NAME && b->kind == F_NAME && la == lb && !strncmp(a->text, b->text, la);
}

/* Is the sum at t[k] the right side of a definition ("Z_i = Σ_j exp(q_i·k_j/√d_k)") whose
 * name stands in a denominator (exp(…) / Z_i, (1/Z_i) Σ_j …): the softmax's normaliser,
 * named? */
static int named_normaliser(const ftoken *t, size_t n, size_t k)
{
    if (k < 2 || t[k - 1].kind != F_ASSIGN || t[k - 2].kind != F_NAME)
        return 0;
    for (size_t m = 0; m < n; m++)
        if (m != k - 2 && same_base(&t[m], &t[k - 2]) && t[m + 1].kind != F_ASSIGN && in_denominator(t, m))
            return 1;
    return 0;
}

/* The sums and softmaxes of the index form, in place (see fq_per_query). */
static void sums(ftoken *t, size_t *pn)
{
    size_t k = 0;
    while (k < *pn) {
        /* Σ without its index ("输出 = Σ w_j v_j") runs over the index of the row it weights */
        int sum = fq_name_is(&t[k], "sum") && (t[k].index || t[k].var == 3);
        if (!sum && !(fq_name_is(&t[k], "softmax") && t[k].index)) {
            k++;
            continue;
        }
        size_t e = term_end(t, *pn, k + 1 + (!sum && t[k + 1].kind == F_LPAR));
        if (!sum) {   /* softmax_j(…): over the queries when j is the query's index */
            t[k].axis_bad = over_queries(t, k + 1, e, t[k].index);
            k++;
            continue;
        }
        size_t r = k + 1;
        while (r < e && !(row(&t[r]) && t[r - 1].kind != F_DOTMUL && t[r + 1].kind != F_DOTMUL))
            r++;
        if (r < e) {
            if (!t[k].index)
                t[k].index = t[r].index;
            weighted_sum(t, pn, k, r, e);   /* t[k] is the next token now */
        } else if (in_denominator(t, k) || named_normaliser(t, *pn, k)) {   /* the softmax's normaliser */
            t[k].axis_bad = over_queries(t, k + 1, e, t[k].index);
            k++;
        } else {                             /* the weights summed: no product */
            drop(t, pn, k);
        }
    }
}

/* Does the name of x (w_j, its base u bytes long with the '_') stand bare too, the same
 * name with its index left out: defined bare and used with it ("w = softmax(…); out_i =
 * Σ_j w_j v_j"), or defined with it and used bare ("s_j = q_i·k_j/√d_k; w = softmax(s)")?
 * Not when both are defined (two names), nor for e^{…} (Euler's e beside e_ij). */
static int bare_too(const ftoken *t, size_t n, const ftoken *x, size_t u)
{
    int bare = 0, bare_def = 0, sub_def = 0;
    for (size_t k = 0; k < n; k++) {
        if (t[k].kind != F_NAME || strncmp(t[k].text, x->text, u - 1))
            continue;
        int def = t[k + 1].kind == F_ASSIGN;
        if (fq_subscripted(&t[k]) == u) {
            sub_def |= def;
        } else if (t[k].len == u - 1 && !(t[k + 1].kind == F_POW && u == 2 && *x->text == 'e')) {
            bare = 1;
            bare_def |= def;
        }
    }
    return bare && !(bare_def && sub_def);
}

int fq_per_query(ftoken **pt, size_t *pn)
{
    ftoken *t = *pt;
    size_t n = *pn;
    int rows = 0;
    for (size_t k = 0; k < n; k++)
        rows += row(&t[k]);
    if (rows < 2)
        return 0;
    ftoken *out = malloc((2 * n + 1) * sizeof *out);   /* q_i k_j: a '·' more */
    if (!out)
        return -1;
    drop_primes(t, &n);
    n = dot_products(t, n, out);
    sums(out, &n);
    /* a_ij, a_il: the one name a_; w_j the name w when w stands bare too ("w = softmax(
     * q_i·k_j/√d_k); out_i = Σ_j w_j v_j"), each name's length found before any changes */
    size_t *len = malloc((n + 1) * sizeof *len);
    if (!len) {
        free(out);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        size_t u = fq_subscripted(&out[k]);
        len[k] = u ? u - bare_too(out, n, &out[k], u) : out[k].len;
    }
    for (size_t k = 0; k < n; k++)
        out[k].len = len[k];
    free(len);
    free(t);
    *pt = out;
    *pn = n;
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
        if (kind == F_LPAR && m && !depth && !closes_numerator(t, m) &&
            (t[m - 1].kind == F_VAR || t[m - 1].kind == F_RPAR || t[m - 1].kind == F_TRANS)) {
            /* (not \frac's denominator, which follows its numerator's group) */
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

/* ---- the input times a projection ---- */

/* The matrix (V_Q, V_K, V_V) a projection's name stands for: W_Q, W_k, Wq, W_{V}; with
 * input, the name starts with the input glued before it (XW_Q, xW_q); -1. */
static int projection(const ftoken *t, int input)
{
    const char *x = t->text;
    size_t n = t->len;
    if (t->kind != F_NAME)
        return -1;
    if (input) {   /* the input glued before it: required */
        if (n < 3 || !strchr("XxHhE", x[0]) || x[1] != 'W')
            return -1;
        x++;
        n--;
    }
    if (n < 2 || n > 5 || x[0] != 'W')
        return -1;
    size_t i = 1 + (x[1] == '_');
    int brace = i < n && x[i] == '{';
    i += brace;
    if (i >= n || i + 1 + brace != n || (brace && x[n - 1] != '}'))
        return -1;
    int c = toupper((unsigned char)x[i]);
    return c == 'Q' ? V_Q : c == 'K' ? V_K : c == 'V' ? V_V : -1;
}

/* The input a projection multiplies: X, x, H, h, E. */
static int input_name(const ftoken *t)
{
    return t->kind == F_NAME && t->len == 1 && strchr("XxHhE", *t->text);
}

int fq_projections(ftoken *t, size_t *pn)
{
    int any = 0;
    for (size_t k = 0; k < *pn; k++) {
        size_t w = k + 1 + (t[k + 1].kind == F_MUL), last = w;
        int var = -1;
        if (input_name(&t[k]) && w < *pn)
            var = projection(&t[w], 0);   /* X W_Q, x @ W_q, X·W_Q */
        if (var < 0 && (var = projection(&t[k], 1)) >= 0)
            last = k;                     /* XW_Q: one name */
        if (var < 0 && t[k].kind == F_NAME && t[k].len == 2 && strchr("XxHh", t[k].text[0]) &&
            t[k].text[1] == 'W' && k + 2 < *pn && t[k + 1].kind == F_POW && t[k + 2].kind == F_VAR &&
            t[k + 2].var <= V_V) {   /* XW^Q: one name, then the power's letter */
            var = t[k + 2].var;
            last = k + 2;
        }
        if (var < 0)
            continue;
        t[k].kind = F_VAR;
        t[k].var = var;
        t[k].len = (size_t)(t[last].text + t[last].len - t[k].text);
        t[k].end = t[last].end;
        t[k].index = 0;
        for (size_t d = k + 1; d <= last; d++)
            drop(t, pn, k + 1);
        any = 1;
    }
    return any;
}
