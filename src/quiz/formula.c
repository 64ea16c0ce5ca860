/* Formula grader: the normal form of a formula tree (ordered matrix factors,
 * commuting scalar factors), the comparison with the canonical form, and the mistakes
 * named part by part for eq. 1. Reading is in formula_read.c and formula_parse.c.
 * See quiz/formula.h. */
#define _GNU_SOURCE   /* strcasestr */
#include "quiz/formula.h"
#include "quiz/compiled.h"   /* qz_lex_hedge */
#include "quiz/formula_impl.h"
#include "quiz/textnorm.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_MATS 8

/* A factor that does not commute: a matrix, or a function of a form (softmax(…), or
 * another function such as sigmoid). */
typedef struct fmat {
    int var;              /* V_Q, V_K, V_V; -1 softmax(arg); -2 another function */
    int transposed;
    int arg;              /* functions: index into the form pool */
    int axis_bad;         /* softmax over the queries' axis */
    const fnode *fn;      /* -2: the node naming the function */
} fmat;

typedef struct nform {
    double coef;          /* numeric factor */
    double dk;            /* exponent of d_k */
    double dm;            /* exponent of d_model */
    double dn;            /* exponent of the sequence length (n, seq_len) */
    int n_mats;
    fmat mats[MAX_MATS];
    int other;            /* outside this algebra (a sum, a matrix in a denominator) */
    int mask;             /* an additive mask alone (M): dropped from a sum */
    int mask_out;         /* a mask added or multiplied here, outside any softmax */
} nform;

typedef struct fpool {
    nform *f;
    int n;
    int *memo;            /* per tree node: its form, or -1 (a name used twice is one node) */
} fpool;

static int form_new(fpool *pool)
{
    pool->f[pool->n] = (nform){.coef = 1};
    return pool->n++;
}

static void append_mats(nform *dst, const nform *src)
{
    for (int i = 0; i < src->n_mats; i++) {
        if (dst->n_mats == MAX_MATS) {
            dst->other = 1;
            return;
        }
        dst->mats[dst->n_mats++] = src->mats[i];
    }
}

static int mask_only(const nform *f)
{
    return f->mask && !f->n_mats && !f->other && f->coef == 1 && !f->dk && !f->dm && !f->dn;
}

static int is_func(const fformula *t, int n, const char *name)
{
    const fnode *x = &t->node[n];
    size_t l = strlen(name);
    return x->op == N_FUNC && x->len == l && !strncasecmp(x->name, name, l);
}

static int trees_equal(const fformula *t, int a, int b)
{
    if (a == b)
        return 1;
    if (a < 0 || b < 0)
        return 0;
    const fnode *x = &t->node[a], *y = &t->node[b];
    return x->op == y->op && x->var == y->var && x->num == y->num && x->len == y->len &&
           (!x->len || !strncasecmp(x->name, y->name, x->len)) && trees_equal(t, x->a, y->a) &&
           trees_equal(t, x->b, y->b);
}

/* exp(x) or exp(x - max(x)): x; else -1. */
static int exp_argument(const fformula *t, int n)
{
    if (n < 0 || !is_func(t, n, "exp"))
        return -1;
    int x = t->node[n].a;
    const fnode *s = &t->node[x];
    if (s->op == N_PLUS && t->node[s->b].op == N_NEG &&
        (is_func(t, t->node[s->b].a, "max") || is_func(t, t->node[s->b].a, "amax") ||
         is_func(t, t->node[s->b].a, "maximum")))   /* (Julia's maximum(S, dims=2)) */
        x = s->a;   /* the maximum subtracted for stability changes nothing */
    return x;
}

static int normalise(const fformula *t, int node, fpool *pool);

/* Softmax written out: exp(x) / sum(exp(x)), with or without the maximum subtracted
 * (W = np.exp(S - S.max(-1)); W /= W.sum(-1)); over the queries' axis when the sum is
 * (axis=0, Σ_i of the index form). */
static int by_hand_softmax(const fformula *t, int node, fpool *pool, nform *f)
{
    const fnode *n = &t->node[node];
    int x = exp_argument(t, n->a);
    if (x < 0 || !is_func(t, n->b, "sum"))
        return 0;
    int y = exp_argument(t, t->node[n->b].a);
    if (y < 0 || !trees_equal(t, x, y))
        return 0;
    int arg = normalise(t, x, pool);
    *f = (nform){.coef = 1, .n_mats = 1};
    f->mats[0] = (fmat){.var = -1, .arg = arg, .axis_bad = t->node[n->b].axis_bad};
    return 1;
}

/* The softmax written out with its normaliser as a factor: (1/Σ exp(x)) · exp(x), exp(x) ·
 * (1/Z) with Z = Σ exp(x) ("out_i = (1/Z_i) Σ_j exp(q_i·k_j/√d_k) v_j"); a scalar over the
 * sum (2/Z) stays a factor of it. */
static int by_hand_product(const fformula *t, int node, fpool *pool, nform *f)
{
    const fnode *n = &t->node[node];
    for (int side = 0; side < 2; side++) {
        int over = side ? n->a : n->b, e = side ? n->b : n->a;
        const fnode *q = &t->node[over];
        if (q->op != N_DIV || !is_func(t, q->b, "sum"))
            continue;
        int x = exp_argument(t, e), y = exp_argument(t, t->node[q->b].a);
        if (x < 0 || y < 0 || !trees_equal(t, x, y))
            continue;
        const nform c = pool->f[normalise(t, q->a, pool)];
        if (c.n_mats || c.other || c.mask || c.mask_out)
            continue;
        int arg = normalise(t, x, pool);
        *f = (nform){.coef = c.coef, .dk = c.dk, .dm = c.dm, .dn = c.dn, .n_mats = 1};
        f->mats[0] = (fmat){.var = -1, .arg = arg, .axis_bad = t->node[q->b].axis_bad};
        return 1;
    }
    return 0;
}

/* The normal form of tree node `node`; the pool holds one form per node at most. */
static int normalise(const fformula *t, int node, fpool *pool)
{
    if (pool->memo[node] >= 0)
        return pool->memo[node];
    const fnode *n = &t->node[node];
    int a = n->a >= 0 ? normalise(t, n->a, pool) : -1;
    int b = n->b >= 0 ? normalise(t, n->b, pool) : -1;
    int r = form_new(pool);
    nform *f = &pool->f[r];
    const nform *fa = a >= 0 ? &pool->f[a] : NULL, *fb = b >= 0 ? &pool->f[b] : NULL;
    switch (n->op) {
    case N_NUM: f->coef = n->num; break;
    case N_VAR:
        if (n->var == V_DK)
            f->dk = 1;
        else if (n->var == V_DMODEL)
            f->dm = 1;
        else if (n->var == V_LEN)
            f->dn = 1;
        else if (n->var == V_MASK)
            f->mask = 1;
        else
            f->mats[f->n_mats++] = (fmat){.var = n->var};
        break;
    case N_NEG:
        *f = *fa;
        f->coef = -f->coef;
        break;
    case N_MUL:
        if (by_hand_product(t, node, pool, f))
            break;
        *f = *fa;
        f->coef *= fb->coef;
        f->dk += fb->dk;
        f->dm += fb->dm;
        f->dn += fb->dn;
        f->other |= fb->other;
        f->mask_out |= fb->mask_out || fa->mask || fb->mask;   /* softmax(…) * mask */
        append_mats(f, fb);
        break;
    case N_DIV:
        if (by_hand_softmax(t, node, pool, f))
            break;
        *f = *fa;
        f->coef = fb->coef != 0 ? f->coef / fb->coef : NAN;
        f->dk -= fb->dk;
        f->dm -= fb->dm;
        f->dn -= fb->dn;
        f->other |= fb->other || fb->n_mats > 0;
        f->mask_out |= fb->mask_out;
        break;
    case N_SQRT:
    case N_POW: {
        double e = n->op == N_SQRT ? 0.5 : (fb->n_mats || fb->dk || fb->dm || fb->dn || fb->other ? NAN : fb->coef);
        *f = *fa;
        f->coef = pow(f->coef, e);
        f->dk *= e;
        f->dm *= e;
        f->dn *= e;
        f->other |= fa->n_mats > 0 || isnan(e);
        break;
    }
    case N_TRANS:
        *f = *fa;
        for (int i = 0; i < fa->n_mats; i++) {
            f->mats[i] = fa->mats[fa->n_mats - 1 - i];
            f->mats[i].transposed ^= 1;
        }
        break;
    case N_SOFTMAX:
        f->mats[f->n_mats++] = (fmat){.var = -1, .arg = a, .axis_bad = n->axis_bad};
        break;
    case N_PLUS:   /* scores + M: a mask changes nothing of the formula's structure */
        if (mask_only(fb) || mask_only(fa)) {
            *f = mask_only(fb) ? *fa : *fb;
            f->mask_out = 1;   /* inside a softmax's argument the softmax form drops it */
        } else
            f->other = 1;
        break;
    case N_FUNC:
        f->mats[f->n_mats++] = (fmat){.var = -2, .arg = a, .fn = n};
        break;
    default:
        f->other = 1;
    }
    if (!isfinite(f->coef) || !isfinite(f->dk) || !isfinite(f->dm) || !isfinite(f->dn))
        f->other = 1;
    pool->memo[node] = r;
    return r;
}

static int same_function(const fmat *m, const fmat *n)
{
    return m->var != -2 ||
           (m->fn->len == n->fn->len && !strncasecmp(m->fn->name, n->fn->name, m->fn->len));
}

static int forms_equal(const fpool *ps, int a, const fpool *pc, int b)
{
    const nform *x = &ps->f[a], *y = &pc->f[b];
    if (x->other || y->other || fabs(x->coef - y->coef) > 1e-9 || fabs(x->dk - y->dk) > 1e-9 ||
        fabs(x->dm - y->dm) > 1e-9 || fabs(x->dn - y->dn) > 1e-9 ||
        x->n_mats != y->n_mats)
        return 0;
    for (int i = 0; i < x->n_mats; i++) {
        const fmat *m = &x->mats[i], *n = &y->mats[i];
        if (m->var != n->var || m->transposed != n->transposed || m->axis_bad != n->axis_bad ||
            !same_function(m, n))
            return 0;
        if (m->var < 0 && !forms_equal(ps, m->arg, pc, n->arg))
            return 0;
    }
    return 1;
}

static int has_var(const fpool *pool, int f, int var)
{
    const nform *x = &pool->f[f];
    for (int i = 0; i < x->n_mats; i++)
        if (x->mats[i].var == var || (x->mats[i].var < 0 && has_var(pool, x->mats[i].arg, var)))
            return 1;
    return 0;
}

static int count_var(const nform *x, int var)
{
    int n = 0;
    for (int i = 0; i < x->n_mats; i++)
        n += x->mats[i].var == var;
    return n;
}

static int count_functions(const nform *x)
{
    int n = 0;
    for (int i = 0; i < x->n_mats; i++)
        n += x->mats[i].var < 0;
    return n;
}

/* The scale's value: exponents of d_k and of the other sizes (d_model, the sequence
 * length) and numeric factor, inside and outside together. */
static unsigned scale_mistake(double coef, double dk, double dm, double dn)
{
    if (fabs(coef - 1) > 1e-9 || fabs(dm) > 1e-9 || fabs(dn) > 1e-9)
        return QZ_F_SCALE_OTHER;
    if (fabs(dk) < 1e-9)
        return QZ_F_NO_SCALE;
    if (fabs(dk + 1) < 1e-9)
        return QZ_F_DK_NOT_SQRT;
    if (fabs(dk - 0.5) < 1e-9)
        return QZ_F_SCALE_MULTIPLIED;
    return fabs(dk + 0.5) > 1e-9 ? QZ_F_SCALE_OTHER : 0;
}

/* The scores inside the function: Q Kᵀ, and how they differ from it. *fatal: more
 * than a slip (Q Qᵀ, Q Kᵀ K…). */
static unsigned product_mistake(const nform *in, int *fatal)
{
    if (in->n_mats != 2 || count_var(in, V_Q) != 1 || count_var(in, V_K) != 1) {
        *fatal = 1;
        return QZ_F_WRONG_PRODUCT;
    }
    const fmat *a = &in->mats[0], *b = &in->mats[1];
    if (a->var == V_Q && !a->transposed && b->transposed)
        return 0;
    if (a->var == V_Q && !a->transposed && !b->transposed)
        return QZ_F_K_NOT_TRANSPOSED;
    if (a->var == V_K && !a->transposed && b->transposed)
        return QZ_F_QK_SWAPPED;
    return QZ_F_WRONG_PRODUCT;
}

/* Name the mistakes of a formula meant to be softmax(QKᵀ/√d_k)V. */
static void attention_mistakes(const fpool *pool, int top, qz_formula_diag *d)
{
    const nform *x = &pool->f[top];
    unsigned m = 0;
    int nf = count_functions(x), s = -1;
    for (int i = 0; i < x->n_mats && s < 0; i++)
        if (x->mats[i].var < 0)
            s = i;
    d->fatal = 1;
    if (x->other || nf > 1) {
        d->mistakes = QZ_F_OTHER;
        return;
    }
    if (nf == 0) {   /* no softmax: the scores are the factors before a final V */
        nform in = *x;
        in.n_mats = 0;
        int v_last = x->n_mats > 0 && x->mats[x->n_mats - 1].var == V_V && !x->mats[x->n_mats - 1].transposed;
        for (int i = 0; i < x->n_mats - v_last; i++)
            in.mats[in.n_mats++] = x->mats[i];
        int fatal = 0;
        m = QZ_F_NO_SOFTMAX | scale_mistake(x->coef, x->dk, x->dm, x->dn);
        if (count_var(&in, V_V))
            m |= QZ_F_OTHER;       /* V in the scores, or V more than once */
        else
            m |= product_mistake(&in, &fatal);
        if (!v_last && !count_var(x, V_V))
            m |= QZ_F_V_MISSING;
        d->mistakes = m;
        /* no function turns the scores into weights: the part is missing and named as
         * the concept it breaks. Alone, with every other part right ((QKᵀ/√dₖ)V), it is
         * one part missing, partly right as 10 of the 15 blind teachers on record mark it
         * (the other 5 mark it wrong); with another mistake beside it, wrong */
        d->fatal = fatal || m != QZ_F_NO_SOFTMAX;
        return;
    }
    d->fatal = 0;
    const fmat *w = &x->mats[s];
    const nform *in = &pool->f[w->arg];
    if (w->var == -2) {
        m |= QZ_F_NOT_SOFTMAX;
        snprintf(d->function, sizeof d->function, "%.*s", (int)w->fn->len, w->fn->name);
    }
    if (w->transposed || count_functions(in) || in->other)
        m |= QZ_F_OTHER;
    if (has_var(pool, w->arg, V_V)) {
        m |= QZ_F_V_INSIDE;   /* the softmax in the wrong place: never a slip */
        d->fatal = 1;
    } else if (count_var(in, V_Q) + count_var(in, V_K) < 2 &&
               count_var(x, V_Q) + count_var(x, V_K) > 0) {
        m |= QZ_F_SOFTMAX_PLACE;   /* softmax(Q) Kᵀ V: Q or K stands outside it */
    } else {
        m |= product_mistake(in, &d->fatal);
    }
    if (w->axis_bad)
        m |= QZ_F_SOFTMAX_AXIS;
    if (fabs(x->dk) > 1e-9 || fabs(x->dm) > 1e-9 || fabs(x->dn) > 1e-9 || fabs(x->coef - 1) > 1e-9)
        m |= QZ_F_SCALE_OUTSIDE;
    m |= scale_mistake(in->coef * x->coef, in->dk + x->dk, in->dm + x->dm, in->dn + x->dn);
    /* what stands outside the function: V, on its right */
    int others = x->n_mats - 1, nv = count_var(x, V_V);
    if (!(m & (QZ_F_V_INSIDE | QZ_F_SOFTMAX_PLACE))) {
        if (others == 0)
            m |= QZ_F_V_MISSING;
        else if (others == 1 && nv == 1 && s == 0 && !x->mats[1].transposed)
            ;
        else if (others == 1 && nv == 1 && s == 1 && !x->mats[0].transposed)
            m |= QZ_F_V_LEFT;
        else
            m |= QZ_F_OTHER;
    }
    if (!m)
        m = QZ_F_OTHER;   /* equal parts that do not make the same formula */
    d->mistakes = m;
    d->fatal |= (m & QZ_F_FATAL) != 0;
}

static int slips_of(unsigned m)
{
    int n = 0;
    for (unsigned bit = 1; bit <= QZ_F_OTHER; bit <<= 1)
        n += (m & bit) && !(bit & QZ_F_FATAL);
    return n;
}

static int is_attention_form(const fpool *pool, int top)
{
    const nform *x = &pool->f[top];
    return x->n_mats == 2 && x->mats[0].var == -1 && x->mats[1].var == V_V &&
           has_var(pool, x->mats[0].arg, V_Q) && has_var(pool, x->mats[0].arg, V_K);
}

static int pool_init(fpool *pool, const fformula *t)
{
    size_t n = (size_t)t->n_node + 1;
    pool->f = malloc(n * sizeof *pool->f);
    pool->memo = malloc(n * sizeof *pool->memo);
    pool->n = 0;
    if (!pool->f || !pool->memo)
        return AT_ENOMEM;
    for (size_t i = 0; i < n; i++)
        pool->memo[i] = -1;
    return AT_OK;
}

/* Is the formula f2 an attention form, or one of Q, K and V ("QKᵀV/√dₖ without softmax"),
 * other than the one read (ps, top)? */
static int differs(const fpool *ps, int top, fformula *f2)
{
    fpool p2 = {0};
    int other = 0;
    if (!pool_init(&p2, f2)) {
        int top2 = normalise(f2, f2->root, &p2);
        other = (is_attention_form(&p2, top2) ||
                 (has_var(&p2, top2, V_Q) && has_var(&p2, top2, V_K) && has_var(&p2, top2, V_V))) &&
                !forms_equal(ps, top, &p2, top2);
    }
    free(p2.f);
    free(p2.memo);
    return other;
}

/* "softmax(QKᵀ/√dₖ)V; softmax(QKᵀ·√dₖ)V", "…，也可能是 softmax(QKᵀ)V": a second, different
 * formula right after the one read, with only a few words between (no correction: that
 * the parser settles itself): the student has not chosen. Words that set the second
 * apart as a counterfactual ("without it", 如果不除) leave it an explanation. */
static int other_formula(const char *text, size_t end, const fpool *ps, int top)
{
    static const char *const apart[] = {"without", "if ", "would", "instead of", "not ", "wrong",
                                        "如果", "否则", "不然", "不除", "没有", "不是", "错", "假如",
                                        "要是", "而不是", "i.e", "that is", "equivalently",
                                        "per row", "per query", "for each", "for one", "即",
                                        "也就是", "等价", "展开", "逐行", "每个", "每一", NULL};
    const char *rest = text + end;
    if (!*rest)
        return 0;
    fformula f2;
    at_error e2;
    int other = 0;
    if (fq_parse(rest, 0, &f2, &e2) == AT_OK && !f2.no_formula && !f2.is_list && f2.start <= 24) {
        int near = 1;
        for (size_t i = 0; apart[i] && near; i++) {
            size_t l = strlen(apart[i]);
            for (size_t k = 0; k + l <= f2.start && near; k++)
                near = strncasecmp(rest + k, apart[i], l) != 0;
        }
        other = near && differs(ps, top, &f2);
    }
    fq_formula_free(&f2);
    return other;
}

/* A different formula before the one read, offered with "or" ("softmax(QKᵀ/√dₖ)V 或者
 * softmax(QKᵀ)V/√dₖ，两种都对"): the later one is read, the earlier is the other. Only
 * with a word that offers (or, maybe, 或者, 也可能); a correction ("不對，應該是 …")
 * replaces the one before. */
static int other_formula_before(const char *text, size_t start, const fpool *ps, int top)
{
    static const char *const offers[] = {"or maybe", "or perhaps", "or", "maybe", "perhaps",
                                         "或者", "或是", "也可能是", "也可能", "还是", "或", NULL};
    size_t e = start;
    while (e && (text[e - 1] == ' ' || text[e - 1] == ',' || text[e - 1] == ':'))
        e--;
    if (e >= 3 && !strncmp(text + e - 3, "，", 3))
        e -= 3;
    size_t cut = 0;
    for (size_t i = 0; offers[i] && !cut; i++) {
        size_t l = strlen(offers[i]);
        if (e >= l && !strncasecmp(text + e - l, offers[i], l) &&
            (e == l || (unsigned char)text[e - l - 1] >= 0x80 || !isalpha((unsigned char)text[e - l - 1])))
            cut = e - l;
    }
    if (!cut)
        return 0;
    char *head = strndup(text, cut);
    if (!head)
        return 0;
    fformula f2;
    at_error e2;
    int other = 0;
    if (fq_parse(head, 0, &f2, &e2) == AT_OK && !f2.no_formula && !f2.is_list)
        other = differs(ps, top, &f2);
    fq_formula_free(&f2);
    free(head);
    return other;
}

/* Hedges said beside a formula ("… i think", "I guess it's …"): the English ones of
 * the lexicon's hedges (quiz/lexicon.c) blanked in s (same length, so offsets hold); the
 * formula is graded as written. Chinese ones stay: 应该 also opens a correction. */
static void blank_hedges(char *s)
{
    for (const char *const *w = qz_lex_hedge; *w; w++) {
        size_t l = strlen(*w);
        if ((unsigned char)(*w)[0] >= 0x80)
            continue;
        for (char *p = strcasestr(s, *w); p; p = strcasestr(p + 1, *w)) {
            if ((p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
                isalnum((unsigned char)p[l]) || p[l] == '_')
                continue;
            memset(p, ' ', l);
        }
    }
}

static int diagnose(const char *student, const char *canonical, qz_formula_diag *d,
                    at_error *err)
{
    fformula fs, fc;
    fpool ps = {0}, pc = {0};
    at_error cerr;
    memset(d, 0, sizeof *d);
    int rc = fq_parse(canonical, 1, &fc, &cerr);
    if (rc) {
        rc = rc == AT_ENOMEM ? at_error_set(err, rc, "out of memory")
                             : at_error_set(err, AT_ERANGE, "the canonical formula cannot be read: %s", cerr.msg);
        fq_formula_free(&fc);
        return rc;
    }
    /* Traditional characters read as Simplified (轉置 is 转置, 根號 is 根号, 不對 is 不对);
     * every character keeps its place, so the offsets below hold for the student's text */
    char *simplified = qz_simplified_same_offsets(student);
    if (!simplified)
        simplified = strdup(student);
    if (simplified)
        blank_hedges(simplified);
    rc = fq_parse(simplified ? simplified : student, 0, &fs, err);
    if (rc == AT_EINVAL && fs.err_what) {
        d->unread = fs.err_what;
        memcpy(d->unread_arg, fs.err_arg, sizeof d->unread_arg);
        d->unread_char = fs.err_char;
    }
    d->start = fs.start;
    d->end = fs.end;
    d->explained = fs.explained;
    d->corrected = fs.corrected;
    if (fs.has_legend) {
        d->legend_start = fs.legend_start;
        d->legend_end = fs.legend_end;
    }
    if (rc)
        goto out;
    if (fs.no_formula || fs.is_list || fs.named) {
        d->mistakes = QZ_F_NO_FORMULA;
        d->fatal = 1;
        if (fs.named)   /* "Attention(Q, K, V)": its name, not what it computes */
            snprintf(d->function, sizeof d->function, "%.*s", (int)fs.named_len, fs.named);
        goto out;
    }
    if (pool_init(&ps, &fs) || pool_init(&pc, &fc)) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    int top_s = normalise(&fs, fs.root, &ps);
    int top_c = normalise(&fc, fc.root, &pc);
    if (!forms_equal(&ps, top_s, &pc, top_c)) {
        if (is_attention_form(&pc, top_c))
            attention_mistakes(&ps, top_s, d);
        else
            d->mistakes = QZ_F_OTHER;
    }
    if (is_attention_form(&pc, top_c)) {   /* what the words say of the formula */
        if (fs.remarks & FQ_REMARK_ON_V) {   /* the words contradict the formula */
            d->mistakes |= QZ_F_V_INSIDE;
            d->fatal = 1;
        }
        if (fs.remarks & FQ_REMARK_AXIS)
            d->mistakes |= QZ_F_SOFTMAX_AXIS;
        if (fs.remarks & FQ_REMARK_K_TRANSPOSED)   /* the transpose said in words */
            d->mistakes &= ~(unsigned)QZ_F_K_NOT_TRANSPOSED;
        if ((fs.remarks & FQ_REMARK_ELEMENTWISE) &&
            !(d->mistakes & (QZ_F_V_MISSING | QZ_F_V_INSIDE | QZ_F_V_LEFT)))
            d->mistakes = d->mistakes | QZ_F_V_ELEMENTWISE;
    }
    /* "softmax(QKᵀ/√dₖ)V + M", "softmax(…) * mask @ V": the mask acts on the weights or the
     * output, not on the scores; the rows no longer sum to 1 */
    if (is_attention_form(&pc, top_c) && ps.f[top_s].mask_out && !(d->mistakes & QZ_F_NO_FORMULA))
        d->mistakes |= QZ_F_MASK_OUTSIDE;
    d->slips = slips_of(d->mistakes);
    d->fatal |= (d->mistakes & QZ_F_FATAL) != 0;
    d->alternative = other_formula(simplified ? simplified : student, d->end, &ps, top_s) ||
                     other_formula_before(simplified ? simplified : student, d->start, &ps, top_s);
out:
    free(ps.f);
    free(ps.memo);
    free(pc.f);
    free(pc.memo);
    fq_formula_free(&fs);
    fq_formula_free(&fc);
    free(simplified);
    return rc;
}

int qz_formula_diagnose(const char *student, const char *canonical, qz_formula_diag *d,
                        at_error *err)
{
    int rc = diagnose(student, canonical, d, err);
    if (rc == AT_ENOMEM || (!rc && !d->mistakes))
        return rc;
    /* not read, or not right as read: a formula in steps may be right as the one formula
     * they make ("S = QKᵀ/√dₖ; A = softmax(S); out = AV", 先算…，再…，最后乘 V); the words
     * then are its steps, not an explanation beside it */
    char *steps = qz_formula_steps(student);
    if (!steps)
        return rc;
    qz_formula_diag ds;
    at_error es;
    int rs = diagnose(steps, canonical, &ds, &es);
    free(steps);
    if (!rs && (rc || (!ds.fatal && (d->fatal || ds.slips < d->slips)))) {
        *d = ds;
        d->start = 0;
        d->end = strlen(student);
        d->explained = 0;
        d->legend_start = d->legend_end = 0;
        d->alternative = 0;
        return AT_OK;
    }
    return rc;
}

int qz_formula_compare(const char *student, const char *canonical, unsigned *mistakes,
                       at_error *err)
{
    qz_formula_diag d;
    int rc = qz_formula_diagnose(student, canonical, &d, err);
    *mistakes = rc ? 0 : d.mistakes;
    return rc;
}

const char *qz_formula_mistake_text(unsigned bit, qz_lang lang)
{
    switch (bit) {
    case QZ_F_NO_SOFTMAX:
        return qz_tr(lang, "There is no softmax: the scores must go through softmax to become weights that sum to 1 in each row.");
    case QZ_F_NOT_SOFTMAX:
        return qz_tr(lang, "softmax belongs here: only softmax turns each row of scores into positive weights that sum to 1.");
    case QZ_F_SOFTMAX_PLACE:
        return qz_tr(lang, "The softmax is in the wrong place: it acts on the (scaled) scores of Q against K, not on one matrix.");
    case QZ_F_NO_SCALE:
        return qz_tr(lang, "No scaling: the scores are divided by √dₖ before the softmax.");
    case QZ_F_DK_NOT_SQRT:
        return qz_tr(lang, "Divided by dₖ instead of √dₖ (the dot product's standard deviation is √dₖ).");
    case QZ_F_SCALE_MULTIPLIED:
        return qz_tr(lang, "Multiplied by √dₖ: divide by it instead.");
    case QZ_F_SCALE_OTHER:
        return qz_tr(lang, "The scale is not 1/√dₖ (dₖ: the dimension of the keys).");
    case QZ_F_SCALE_OUTSIDE:
        return qz_tr(lang, "The scaling stands outside the softmax: it belongs inside, on the scores.");
    case QZ_F_MASK_OUTSIDE:
        return qz_tr(lang, "The mask stands outside the softmax: it is added to the scores inside it, so that each row of weights still sums to 1.");
    case QZ_F_K_NOT_TRANSPOSED:
        return qz_tr(lang, "K is not transposed: the scores are Q times K transposed (each query dotted with each key).");
    case QZ_F_QK_SWAPPED:
        return qz_tr(lang, "Q and K are swapped: that gives the transpose of the scores, and softmax would run over the queries. Each row is one query: Q on the left.");
    case QZ_F_WRONG_PRODUCT:
        return qz_tr(lang, "The product of the scores is not right: it dots each query (a row of Q) with each key (a row of K).");
    case QZ_F_V_INSIDE:
        return qz_tr(lang, "The softmax takes in V: it acts on the scores only, and the weights it gives then multiply V.");
    case QZ_F_NO_FORMULA:
        return qz_tr(lang, "There is no formula: write how Q, K, V and dₖ combine; a list of symbols is not a formula.");
    case QZ_F_V_MISSING:
        return qz_tr(lang, "V is missing: the weights must multiply V to give the output.");
    case QZ_F_V_LEFT:
        return qz_tr(lang, "V stands on the left: the weights come first, then V.");
    case QZ_F_SOFTMAX_AXIS:
        return qz_tr(lang, "The softmax runs over the wrong axis: each query's row (over the keys, the last axis) must sum to 1.");
    case QZ_F_V_ELEMENTWISE:
        return qz_tr(lang, "The weights multiply V element by element: they must multiply V as matrices, each output row a weighted sum of the rows of V.");
    default:
        return qz_tr(lang, "Something else in the formula is not part of attention (an extra matrix, a sum…).");
    }
}
