/* Formula grader: lexer, parser into a small tree, normal form (ordered matrix
 * factors, commuting scalar factors), comparison. See quiz/formula.h. */
#include "quiz/formula.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum ftok { F_END, F_NUM, F_VAR, F_SOFTMAX, F_SQRT, F_FRAC, F_LPAR, F_RPAR, F_MUL, F_DIV, F_POW,
            F_TRANS, F_PLUS, F_MINUS, F_COMMA };
enum fvar { V_Q, V_K, V_V, V_DK };

typedef struct ftoken {
    enum ftok kind;
    int var;          /* F_VAR: enum fvar */
    double num;
    long offset;
} ftoken;

#define MAX_TOK 256
#define MAX_NODE 256

typedef struct fnode {
    enum ftok op;     /* F_NUM, F_VAR, F_SOFTMAX, F_SQRT, F_MUL, F_DIV, F_POW, F_TRANS, F_PLUS */
    int var;
    double num;
    int a, b;         /* children (node indices), -1 none */
} fnode;

typedef struct fparser {
    ftoken tok[MAX_TOK];
    int n, i;
    fnode node[MAX_NODE];
    int n_node;
    int root;
    const char *text;     /* what is being read (for positions in messages) */
    at_error *err;
} fparser;

static const struct { const char *text; enum ftok kind; int var; } words[] = {
    {"\\operatorname{softmax}", F_SOFTMAX, 0}, {"\\mathrm{softmax}", F_SOFTMAX, 0},
    {"\\text{softmax}", F_SOFTMAX, 0}, {"\\softmax", F_SOFTMAX, 0}, {"softmax", F_SOFTMAX, 0},
    {"\\sqrt", F_SQRT, 0}, {"sqrt", F_SQRT, 0}, {"√", F_SQRT, 0}, {"\\frac", F_FRAC, 0},
    {"\\cdot", F_MUL, 0}, {"\\times", F_MUL, 0}, {"·", F_MUL, 0}, {"⋅", F_MUL, 0}, {"×", F_MUL, 0},
    {"∙", F_MUL, 0}, {"@", F_MUL, 0}, {"**", F_POW, 0}, {"*", F_MUL, 0}, {"÷", F_DIV, 0}, {"/", F_DIV, 0},
    {"ᵀ", F_TRANS, 0}, {"^\\top", F_TRANS, 0}, {"^{\\top}", F_TRANS, 0}, {"^{T}", F_TRANS, 0},
    {"^T", F_TRANS, 0}, {"^t", F_TRANS, 0}, {"^⊤", F_TRANS, 0}, {"^\\intercal", F_TRANS, 0},
    {"'", F_TRANS, 0}, {"′", F_TRANS, 0}, {".T", F_TRANS, 0}, {"^", F_POW, 0},
    {"d_{k}", F_VAR, V_DK}, {"d_k", F_VAR, V_DK}, {"d_K", F_VAR, V_DK}, {"dₖ", F_VAR, V_DK},
    {"dk", F_VAR, V_DK}, {"\\left", F_END, 0}, {"\\right", F_END, 0}, {"\\,", F_END, 0},
    {"(", F_LPAR, 0}, {"{", F_LPAR, 0}, {"[", F_LPAR, 0}, {")", F_RPAR, 0}, {"}", F_RPAR, 0},
    {"]", F_RPAR, 0}, {"+", F_PLUS, 0}, {"-", F_MINUS, 0}, {"−", F_MINUS, 0}, {",", F_COMMA, 0},
};

static int lex_error(fparser *p, long off, const char *what)
{
    long chars = 0;   /* characters, not bytes, before the error */
    for (long i = 0; i < off; i++)
        chars += ((unsigned char)p->text[i] & 0xc0) != 0x80;
    int rc = at_error_set(p->err, AT_EINVAL, "cannot read the formula at character %ld: %s",
                          chars + 1, what);
    if (p->err)
        p->err->offset = off;
    return rc;
}

static int flex(fparser *p, const char *s)
{
    const char *start = s;
    while (*s) {
        if (isspace((unsigned char)*s) || !strncmp(s, "\\ ", 2) || !strncmp(s, "\\;", 2)) {
            s += *s == '\\' ? 2 : 1;
            continue;
        }
        if (p->n >= MAX_TOK - 1)
            return lex_error(p, s - start, "the formula is too long");
        ftoken *t = &p->tok[p->n];
        memset(t, 0, sizeof *t);
        t->offset = s - start;
        size_t i, len = 0;
        for (i = 0; i < sizeof words / sizeof words[0]; i++) {
            len = strlen(words[i].text);
            if (!strncasecmp(s, words[i].text, len) &&
                /* "dk" and "d_k" must not be the start of a longer word */
                !(words[i].kind == F_VAR && isalpha((unsigned char)s[len])))
                break;
        }
        if (i < sizeof words / sizeof words[0]) {
            s += len;
            if (words[i].kind == F_END)
                continue;   /* \left, \right: sizing only */
            t->kind = words[i].kind;
            t->var = words[i].var;
        } else if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
            char *end;
            t->kind = F_NUM;
            t->num = strtod(s, &end);
            s = end;
        } else if (strchr("QKVqkvd", *s) && !isalpha((unsigned char)s[1])) {
            t->kind = F_VAR;
            t->var = tolower((unsigned char)*s) == 'q' ? V_Q : tolower((unsigned char)*s) == 'k' ? V_K
                   : tolower((unsigned char)*s) == 'v' ? V_V : V_DK;
            s++;
        } else if (strchr("QKVqkv", *s)) {
            /* QK, qkv…: letters glued together are separate matrices */
            int c = toupper((unsigned char)*s);
            t->kind = F_VAR;
            t->var = c == 'Q' ? V_Q : c == 'K' ? V_K : V_V;
            s++;
        } else if (!strncasecmp(s, "attention", 9)) {
            return lex_error(p, s - start, "write only the right-hand side, or \"Attention(Q,K,V) = …\"");
        } else {
            return lex_error(p, s - start, "unknown symbol (use Q, K, V, d_k, softmax, sqrt, ^T, /)");
        }
        p->n++;
    }
    p->tok[p->n] = (ftoken){.kind = F_END, .offset = s - start};
    return AT_OK;
}

static int new_node(fparser *p, enum ftok op, int a, int b)
{
    if (p->n_node >= MAX_NODE)
        return -1;
    p->node[p->n_node] = (fnode){.op = op, .a = a, .b = b};
    return p->n_node++;
}

static const ftoken *fpeek(const fparser *p) { return &p->tok[p->i]; }

static int parse_error(fparser *p, const char *what)
{
    lex_error(p, fpeek(p)->offset, what);
    return -1;
}

static int parse_expr(fparser *p);

static int expect_rpar(fparser *p)
{
    if (fpeek(p)->kind != F_RPAR)
        return parse_error(p, "a closing parenthesis is missing");
    p->i++;
    return 0;
}

static int parse_group(fparser *p)
{
    if (fpeek(p)->kind != F_LPAR)
        return parse_error(p, "an opening parenthesis is expected");
    p->i++;
    int e = parse_expr(p);
    if (e < 0 || expect_rpar(p))
        return -1;
    return e;
}

static int parse_postfix(fparser *p);

static int parse_primary(fparser *p)
{
    const ftoken *t = fpeek(p);
    int n;
    switch (t->kind) {
    case F_NUM:
    case F_VAR:
        p->i++;
        n = new_node(p, t->kind, -1, -1);
        if (n >= 0) {
            p->node[n].var = t->var;
            p->node[n].num = t->num;
        }
        return n;
    case F_LPAR:
        return parse_group(p);
    case F_SOFTMAX:
        p->i++;
        n = parse_group(p);
        return n < 0 ? -1 : new_node(p, F_SOFTMAX, n, -1);
    case F_SQRT:
        p->i++;
        n = fpeek(p)->kind == F_LPAR ? parse_group(p) : parse_postfix(p);
        return n < 0 ? -1 : new_node(p, F_SQRT, n, -1);
    case F_FRAC: {
        p->i++;
        int a = parse_group(p);
        int b = a < 0 ? -1 : parse_group(p);
        return b < 0 ? -1 : new_node(p, F_DIV, a, b);
    }
    case F_MINUS:
        return parse_error(p, "a minus sign has no place in this formula");
    case F_END:
        return parse_error(p, "the formula ends too early");
    default:
        return parse_error(p, "a matrix, d_k, softmax or sqrt is expected here");
    }
}

static int parse_postfix(fparser *p)
{
    int n = parse_primary(p);
    while (n >= 0) {
        if (fpeek(p)->kind == F_TRANS) {
            p->i++;
            n = new_node(p, F_TRANS, n, -1);
        } else if (fpeek(p)->kind == F_POW) {
            p->i++;
            int neg = fpeek(p)->kind == F_MINUS;
            p->i += neg;
            int e = fpeek(p)->kind == F_LPAR ? parse_group(p) : parse_primary(p);
            if (e >= 0 && neg) {   /* d_k^-0.5 */
                int m1 = new_node(p, F_NUM, -1, -1);
                if (m1 >= 0)
                    p->node[m1].num = -1;
                e = m1 < 0 ? -1 : new_node(p, F_MUL, m1, e);
            }
            n = e < 0 ? -1 : new_node(p, F_POW, n, e);
        } else {
            break;
        }
    }
    return n;
}

static int starts_primary(enum ftok k)
{
    return k == F_NUM || k == F_VAR || k == F_LPAR || k == F_SOFTMAX || k == F_SQRT || k == F_FRAC;
}

static int parse_term(fparser *p)
{
    int n = parse_postfix(p);
    while (n >= 0) {
        enum ftok k = fpeek(p)->kind;
        if (k == F_MUL || k == F_DIV) {
            p->i++;
            int b = parse_postfix(p);
            n = b < 0 ? -1 : new_node(p, k, n, b);
        } else if (starts_primary(k)) {   /* juxtaposition: QK, softmax(…)V */
            int b = parse_postfix(p);
            n = b < 0 ? -1 : new_node(p, F_MUL, n, b);
        } else {
            break;
        }
    }
    return n;
}

static int parse_expr(fparser *p)
{
    int n = parse_term(p);
    while (n >= 0 && (fpeek(p)->kind == F_PLUS || fpeek(p)->kind == F_MINUS)) {
        p->i++;
        int b = parse_term(p);
        n = b < 0 ? -1 : new_node(p, F_PLUS, n, b);
    }
    return n;
}

static int parse_formula(fparser *p, const char *text, at_error *err)
{
    memset(p, 0, sizeof *p);
    p->err = err;
    /* "Attention(Q, K, V) = …": keep the right-hand side. */
    const char *eq = strrchr(text, '=');
    if (eq)
        text = eq + 1;
    p->text = text;
    int rc = flex(p, text);
    if (rc)
        return rc;
    int root = parse_expr(p);
    if (root >= 0 && fpeek(p)->kind != F_END)
        root = parse_error(p, fpeek(p)->kind == F_RPAR ? "a parenthesis closes that was never opened"
                                                      : "unexpected symbol");
    if (root < 0)
        return err && err->code ? err->code : at_error_set(err, AT_EINVAL, "the formula is too long");
    p->root = root;
    return AT_OK;
}

/* ---- normal form ---- */

#define MAX_MATS 8
typedef struct nform nform;
typedef struct fmat {
    int var;              /* V_Q, V_K, V_V, or -1 for softmax(arg) */
    int transposed;
    int arg;              /* index into the form pool for softmax */
} fmat;
struct nform {
    double coef;          /* numeric factor */
    double dk;            /* exponent of d_k */
    int n_mats;
    fmat mats[MAX_MATS];
    int other;            /* something outside this algebra (a sum, a matrix in a denominator) */
};

typedef struct fpool {
    nform f[MAX_NODE];
    int n;
} fpool;

static int form_new(fpool *pool)
{
    if (pool->n >= MAX_NODE)
        return -1;
    pool->f[pool->n] = (nform){.coef = 1};
    return pool->n++;
}

static int normalise(const fparser *p, int node, fpool *pool);

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

static int normalise(const fparser *p, int node, fpool *pool)
{
    const fnode *n = &p->node[node];
    int r = form_new(pool);
    if (r < 0)
        return -1;
    int a = n->a >= 0 ? normalise(p, n->a, pool) : -1;
    int b = n->b >= 0 ? normalise(p, n->b, pool) : -1;
    if ((n->a >= 0 && a < 0) || (n->b >= 0 && b < 0))
        return -1;
    nform *f = &pool->f[r], *fa = a >= 0 ? &pool->f[a] : NULL, *fb = b >= 0 ? &pool->f[b] : NULL;
    switch (n->op) {
    case F_NUM: f->coef = n->num; break;
    case F_VAR:
        if (n->var == V_DK)
            f->dk = 1;
        else
            f->mats[f->n_mats++] = (fmat){.var = n->var};
        break;
    case F_MUL:
        *f = *fa;
        f->coef *= fb->coef;
        f->dk += fb->dk;
        f->other |= fb->other;
        append_mats(f, fb);
        break;
    case F_DIV:
        *f = *fa;
        f->coef = fb->coef != 0 ? f->coef / fb->coef : NAN;
        f->dk -= fb->dk;
        f->other |= fb->other || fb->n_mats > 0;
        break;
    case F_SQRT:
    case F_POW: {
        double e = n->op == F_SQRT ? 0.5 : (fb->n_mats || fb->dk ? NAN : fb->coef);
        *f = *fa;
        f->coef = pow(f->coef, e);
        f->dk *= e;
        f->other |= fa->n_mats > 0 || isnan(e);
        break;
    }
    case F_TRANS:
        *f = *fa;
        for (int i = 0; i < fa->n_mats; i++) {
            f->mats[i] = fa->mats[fa->n_mats - 1 - i];
            f->mats[i].transposed ^= 1;
        }
        break;
    case F_SOFTMAX:
        f->mats[f->n_mats++] = (fmat){.var = -1, .arg = a};
        break;
    default:
        f->other = 1;
    }
    return r;
}

static int forms_equal(const fpool *ps, int a, const fpool *pc, int b)
{
    const nform *x = &ps->f[a], *y = &pc->f[b];
    if (x->other || y->other || fabs(x->coef - y->coef) > 1e-9 || fabs(x->dk - y->dk) > 1e-9 ||
        x->n_mats != y->n_mats)
        return 0;
    for (int i = 0; i < x->n_mats; i++) {
        const fmat *m = &x->mats[i], *n = &y->mats[i];
        if (m->var != n->var || m->transposed != n->transposed)
            return 0;
        if (m->var == -1 && !forms_equal(ps, m->arg, pc, n->arg))
            return 0;
    }
    return 1;
}

static int has_var(const fpool *pool, int f, int var)
{
    const nform *x = &pool->f[f];
    for (int i = 0; i < x->n_mats; i++)
        if (x->mats[i].var == var || (x->mats[i].var == -1 && has_var(pool, x->mats[i].arg, var)))
            return 1;
    return 0;
}

static int softmax_at(const nform *x)
{
    for (int i = 0; i < x->n_mats; i++)
        if (x->mats[i].var == -1)
            return i;
    return -1;
}

/* Name the mistakes of a formula meant to be softmax(QKᵀ/√d_k)V. */
static unsigned attention_mistakes(const fpool *pool, int top)
{
    const nform *x = &pool->f[top];
    unsigned m = 0;
    int s = softmax_at(x);
    if (s < 0)
        return QZ_F_NO_SOFTMAX | (has_var(pool, top, V_V) ? 0 : QZ_F_V_MISSING);
    const nform *in = &pool->f[x->mats[s].arg];
    if (has_var(pool, x->mats[s].arg, V_V))
        m |= QZ_F_V_INSIDE;
    else if (!has_var(pool, top, V_V))
        m |= QZ_F_V_MISSING;
    else if (x->n_mats != 2 || s != 0 || x->mats[1].var != V_V || x->mats[1].transposed)
        m |= s == 1 && x->n_mats == 2 && x->mats[0].var == V_V ? QZ_F_V_LEFT : QZ_F_OTHER;
    double dk = in->dk + x->dk;
    if (fabs(x->dk) > 1e-9 || fabs(x->coef - 1) > 1e-9)
        m |= QZ_F_SCALE_OUTSIDE;
    if (fabs(in->coef * x->coef - 1) > 1e-9)
        m |= QZ_F_SCALE_OTHER;
    else if (fabs(dk) < 1e-9)
        m |= QZ_F_NO_SCALE;
    else if (fabs(dk + 1) < 1e-9)
        m |= QZ_F_DK_NOT_SQRT;
    else if (fabs(dk - 0.5) < 1e-9)
        m |= QZ_F_SCALE_MULTIPLIED;
    else if (fabs(dk + 0.5) > 1e-9)
        m |= QZ_F_SCALE_OTHER;
    /* The product inside: Q Kᵀ (V excluded, it is reported above). */
    int q = -1, k = -1, n = 0;
    for (int i = 0; i < in->n_mats; i++) {
        if (in->mats[i].var == V_V)
            continue;
        if (in->mats[i].var == V_Q && q < 0) q = n;
        else if (in->mats[i].var == V_K && k < 0) k = n;
        n++;
    }
    if (n != 2 || q < 0 || k < 0 || in->other)
        m |= QZ_F_WRONG_PRODUCT;
    else {
        int iq = -1, ik = -1;
        for (int i = 0; i < in->n_mats; i++) {
            if (in->mats[i].var == V_Q) iq = i;
            if (in->mats[i].var == V_K) ik = i;
        }
        int qt = in->mats[iq].transposed, kt = in->mats[ik].transposed;
        if (iq < ik && !qt && !kt)
            m |= QZ_F_K_NOT_TRANSPOSED;
        else if (!(iq < ik && !qt && kt))
            m |= QZ_F_WRONG_PRODUCT;
    }
    if (!m)
        m = QZ_F_OTHER;
    return m;
}

static int is_attention_form(const fpool *pool, int top)
{
    const nform *x = &pool->f[top];
    return x->n_mats == 2 && x->mats[0].var == -1 && x->mats[1].var == V_V &&
           has_var(pool, x->mats[0].arg, V_Q) && has_var(pool, x->mats[0].arg, V_K);
}

int qz_formula_compare(const char *student, const char *canonical, unsigned *mistakes,
                       at_error *err)
{
    int rc = AT_ENOMEM;
    fparser *ps = malloc(sizeof *ps), *pc = malloc(sizeof *pc);
    fpool *pools = malloc(2 * sizeof *pools);
    *mistakes = 0;
    if (!ps || !pc || !pools) {
        at_error_set(err, rc, "out of memory");
        goto out;
    }
    at_error cerr;
    at_error_clear(&cerr);
    if (parse_formula(pc, canonical, &cerr)) {
        rc = at_error_set(err, AT_ERANGE, "the canonical formula cannot be read: %s", cerr.msg);
        goto out;
    }
    at_error_clear(err);
    if ((rc = parse_formula(ps, student, err)))
        goto out;
    pools[0].n = pools[1].n = 0;
    int top_s = normalise(ps, ps->root, &pools[0]);
    int top_c = normalise(pc, pc->root, &pools[1]);
    if (top_s < 0 || top_c < 0) {
        rc = at_error_set(err, AT_EINVAL, "the formula is too long");
        goto out;
    }
    if (!forms_equal(&pools[0], top_s, &pools[1], top_c))
        *mistakes = is_attention_form(&pools[1], top_c) ? attention_mistakes(&pools[0], top_s)
                                                        : QZ_F_OTHER;
    rc = AT_OK;
out:
    free(ps);
    free(pc);
    free(pools);
    return rc;
}

const char *qz_formula_mistake_text(unsigned bit, int zh)
{
    switch (bit) {
    case QZ_F_NO_SOFTMAX:
        return zh ? "没有 softmax：分数要先经过 softmax 变成和为 1 的权重。"
                  : "There is no softmax: the scores must go through softmax to become weights that sum to 1.";
    case QZ_F_NO_SCALE:
        return zh ? "没有缩放：QKᵀ 要先除以 √dₖ 再做 softmax。"
                  : "No scaling: divide QKᵀ by √dₖ before the softmax.";
    case QZ_F_DK_NOT_SQRT:
        return zh ? "除以的是 dₖ，应该除以 √dₖ（点积的标准差是 √dₖ）。"
                  : "Divided by dₖ instead of √dₖ (the dot product's standard deviation is √dₖ).";
    case QZ_F_SCALE_MULTIPLIED:
        return zh ? "乘了 √dₖ：应该是除以 √dₖ。" : "Multiplied by √dₖ: divide by it instead.";
    case QZ_F_SCALE_OTHER:
        return zh ? "缩放因子不对：应该是 1/√dₖ。" : "The scale is not 1/√dₖ.";
    case QZ_F_SCALE_OUTSIDE:
        return zh ? "缩放写在了 softmax 外面：它属于 softmax 里面，作用在分数上。"
                  : "The scaling stands outside the softmax: it belongs inside, on the scores.";
    case QZ_F_K_NOT_TRANSPOSED:
        return zh ? "K 没有转置：分数是 QKᵀ（每个查询与每个键做点积）。"
                  : "K is not transposed: the scores are QKᵀ (each query dotted with each key).";
    case QZ_F_WRONG_PRODUCT:
        return zh ? "分数的乘积不对：应该是 QKᵀ。" : "The product of the scores is not QKᵀ.";
    case QZ_F_V_INSIDE:
        return zh ? "V 写进了 softmax 里：softmax 只作用于分数，得到的权重再乘 V。"
                  : "V is inside the softmax: softmax acts on the scores only; the weights then multiply V.";
    case QZ_F_V_MISSING:
        return zh ? "缺少 V：权重要乘以 V 才得到输出。" : "V is missing: the weights must multiply V to give the output.";
    case QZ_F_V_LEFT:
        return zh ? "V 在左边：应该是 softmax(…)·V。" : "V stands on the left: it is softmax(…)·V.";
    default:
        return zh ? "公式和标准形式不一致。" : "The formula differs from the canonical form.";
    }
}
