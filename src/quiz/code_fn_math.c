/* The code evaluator's functions that compute: softmax (F.softmax's legacy dim rule
 * included), products (matmul, mm, bmm, einsum, scaled_dot_product_attention), masks
 * (masked_fill, where, tril, triu, logical_not), reductions and elementwise functions
 * (quiz/code_fn.h). */
#define _GNU_SOURCE
#include "quiz/code_fn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int cf_do_softmax(ce_ev *ev, ce_args *a, ce_val *out, int mode, int log_, double module_dim)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    ce_val *d = mode == SM_MODULE ? NULL : ce_arg(a, 1, "dim");
    if (!d && mode != SM_MODULE)
        d = ce_arg(a, -1, "axis");
    long dim;
    if (mode == SM_MODULE && !isnan(module_dim)) {
        dim = ce_long_of(module_dim);
    } else if (d && d->kind != CV_NONE) {
        if (ce_to_long(ev, a, d, &dim))
            return -1;
    } else if (mode == SM_F || mode == SM_MODULE) {
        /* PyTorch's legacy rule when dim is not given (with a warning): dim 0 for 0, 1 or 3
         * axes, else 1 */
        dim = x->ndim == 0 || x->ndim == 1 || x->ndim == 3 ? 0 : 1;
    } else if (mode == SM_TORCH) {
        return ce_raise(ev, "%s() needs dim: the axis it normalises over (dim=-1, the keys)", a->fname);
    } else {
        dim = -1;
    }
    if (x->dtype != CE_FLOAT)
        return ce_raise(ev, "%s() takes a float tensor, not bool or integers", a->fname);
    int dd;
    if (ct_dim(ev, dim, x->ndim, &dd))
        return -1;
    return ce_set_tensor(out, ct_softmax(ev, x, dd, log_));
}

int cf_softmax(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    return cf_do_softmax(ev, a, out, mode, 0, NAN);
}

int cf_log_softmax(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    return cf_do_softmax(ev, a, out, mode, 1, NAN);
}

int cf_matmul(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input"), *y = x ? ce_tensor_arg(ev, a, 1, "other", "other") : NULL;
    if (!y)
        return -1;
    if (mode == 1 && (x->ndim != 2 || y->ndim != 2))
        return ce_raise(ev, "mm() multiplies 2-D matrices; these have %d and %d axes (use matmul or @)",
                        x->ndim, y->ndim);
    if (mode == 2 && (x->ndim != 3 || y->ndim != 3))
        return ce_raise(ev, "bmm() multiplies 3-D batches; these have %d and %d axes", x->ndim, y->ndim);
    return ce_set_tensor(out, ct_matmul(ev, x, y, a->fname));
}

int cf_einsum(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *spec = ce_arg(a, 0, NULL);
    if (!spec || spec->kind != CV_STR)
        return ce_raise(ev, "einsum() takes its subscripts first, as a string ('bij,bjd->bid')");
    ce_tensor *ts[8];
    int n = 0;
    const ce_val *items = a->pos + 1;
    int count = a->n_pos - 1;
    if (count == 1 && (items->kind == CV_LIST || items->kind == CV_TUPLE)) {
        count = items->seq->n;
        items = items->seq->v;
    }
    if (count > 8)
        return ce_unread(ev, "einsum of more than 8 tensors is not read");
    for (int i = 0; i < count; i++) {
        if (items[i].kind != CV_TENSOR)
            return ce_raise(ev, "einsum() takes tensors after its subscripts");
        ts[n++] = items[i].t;
    }
    return ce_set_tensor(out, ct_einsum(ev, spec->str, ts, n));
}

/* F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0, is_causal=False,
 * scale=None) */
int cf_sdpa(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *q = ce_tensor_arg(ev, a, 0, "query", "query"), *k = q ? ce_tensor_arg(ev, a, 1, "key", "key") : NULL,
              *v = k ? ce_tensor_arg(ev, a, 2, "value", "value") : NULL;
    if (!v)
        return -1;
    ce_val *drop = ce_arg(a, 4, "dropout_p");
    if (drop && drop->kind == CV_NUM && drop->num > 0)
        return ce_unread(ev, "dropout is random: the grader cannot judge it (leave dropout_p at 0)");
    if (q->ndim < 2 || k->ndim < 2)
        return ce_raise(ev, "scaled_dot_product_attention() takes tensors of at least 2 axes");
    double scale = 1 / sqrt((double)q->shape[q->ndim - 1]);
    ce_val *sv = ce_arg(a, 6, "scale");
    if (sv && sv->kind != CV_NONE) {
        ce_args tmp = *a;
        if (ce_to_double(ev, &tmp, sv, &scale))
            return -1;
    }
    ce_tensor *kt = ct_transpose(ev, k, k->ndim - 2, k->ndim - 1);
    ce_tensor *s = kt ? ct_matmul(ev, q, kt, a->fname) : NULL;
    ce_tensor *sc = s ? ct_scalar(ev, CE_FLOAT, scale) : NULL;
    if (!sc || !(s = ct_binary(ev, B_MUL, s, sc)))
        return -1;
    long L = s->shape[s->ndim - 2], S = s->shape[s->ndim - 1];
    if (ce_bool_arg(a, 5, "is_causal", 0)) {
        long shape[2] = {L, S};
        ce_tensor *m = ct_new(ev, CE_BOOL, 2, shape), *ninf = ct_scalar(ev, CE_FLOAT, -INFINITY);
        if (!m || !ninf)
            return -1;
        for (long i = 0; i < L; i++)
            for (long j = 0; j < S; j++)
                m->data[i * S + j] = j <= i;
        if (!(s = ct_where(ev, m, s, ninf)))
            return -1;
    }
    ce_val *mv = ce_arg(a, 3, "attn_mask");
    if (mv && mv->kind == CV_TENSOR) {
        if (mv->t->dtype == CE_BOOL) {   /* True: takes part in attention */
            ce_tensor *ninf = ct_scalar(ev, CE_FLOAT, -INFINITY);
            if (!ninf || !(s = ct_where(ev, mv->t, s, ninf)))
                return -1;
        } else if (!(s = ct_binary(ev, B_ADD, s, mv->t))) {
            return -1;
        }
    }
    ce_tensor *w = ct_softmax(ev, s, s->ndim - 1, 0);
    return ce_set_tensor(out, w ? ct_matmul(ev, w, v, a->fname) : NULL);
}

int cf_masked_fill(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input"), *m = x ? ce_tensor_arg(ev, a, 1, "mask", "mask") : NULL;
    if (!m)
        return -1;
    ce_val *v = ce_arg(a, 2, "value");
    if (!v)
        return ce_missing(ev, a, "value");
    if (m->dtype != CE_BOOL)
        return ce_raise(ev, "masked_fill() takes a bool mask (True where it fills), not a %s one; compare "
                            "it first (mask == 0) or use .bool()", m->dtype == CE_FLOAT ? "torch.float" : "torch.long");
    double value;
    if (v->kind == CV_TENSOR && v->t->ndim > 0)
        return ce_raise(ev, "masked_fill() fills with one number, not a tensor of %d axes", v->t->ndim);
    if (ce_to_double(ev, a, v, &value))
        return -1;
    if (m->ndim > x->ndim)
        return ce_raise(ev, "masked_fill(): the mask has more axes than the tensor");
    for (int i = 0; i < m->ndim; i++) {
        long ms = m->shape[i], xs = x->shape[x->ndim - m->ndim + i];
        if (ms != xs && ms != 1) {
            char p[64], q[64];
            return ce_raise(ev, "masked_fill(): the mask %s does not broadcast to the tensor %s",
                            ct_shape_text(m->shape, m->ndim, p, sizeof p), ct_shape_text(x->shape, x->ndim, q, sizeof q));
        }
    }
    ce_tensor *t = mode ? x : ct_copy(ev, x);   /* masked_fill_ changes x itself */
    if (!t)
        return -1;
    if (!mode)
        ct_contiguous_strides(t);
    if (t->dtype != CE_FLOAT && value != trunc(value))
        return ce_raise(ev, "masked_fill(): %g does not fit an integer or bool tensor", value);
    long steps[CE_MAXD], s = 1;
    for (int i = x->ndim - 1; i >= 0; i--) {
        int im = i - (x->ndim - m->ndim);
        long size = im >= 0 ? m->shape[im] : 1;
        steps[i] = size == 1 ? 0 : s;
        s *= size;
    }
    long idx[CE_MAXD] = {0};
    for (long i = 0; i < t->numel; i++) {
        long o = 0;
        for (int d = 0; d < x->ndim; d++)
            o += idx[d] * steps[d];
        if (m->data[o] != 0)
            t->data[i] = t->dtype == CE_BOOL ? value != 0 : value;
        for (int d = x->ndim - 1; d >= 0; d--) {
            if (++idx[d] < x->shape[d])
                break;
            idx[d] = 0;
        }
    }
    *out = ce_tval(t);
    return 0;
}

int cf_where(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *c = ce_arg(a, 0, "condition"), *x = ce_arg(a, 1, "input"), *y = ce_arg(a, 2, "other");
    if (!c || !x || !y) {
        if (c && !x)
            return ce_unread(ev, "where() with one argument (the places of True) is not read");
        return ce_missing(ev, a, "condition, input, other");
    }
    ce_tensor *ct = ct_of(ev, c, CE_BOOL), *xt = ct ? ct_of(ev, x, CE_FLOAT) : NULL,
              *yt = xt ? ct_of(ev, y, CE_FLOAT) : NULL;
    return yt ? ce_set_tensor(out, ct_where(ev, ct, xt, yt)) : -1;
}

int cf_tri(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    long d;
    if (!x || ce_long_arg(ev, a, 1, mode & 2 ? "k" : "diagonal", 0, &d, 0))
        return -1;
    return ce_set_tensor(out, ct_tri(ev, x, d, mode & 1));
}

int cf_logical(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    ce_tensor *bx = ct_cast(ev, x, CE_BOOL);
    if (!bx)
        return -1;
    if (mode == 0)
        return ce_set_tensor(out, ct_unary(ev, U_NOT, bx));
    ce_val *o = ce_arg(a, 1, "other");
    if (!o)
        return ce_missing(ev, a, "other");
    ce_tensor *y = ct_of(ev, o, CE_BOOL), *by = y ? ct_cast(ev, y, CE_BOOL) : NULL;
    return by ? ce_set_tensor(out, ct_binary(ev, mode == 1 ? B_AND : B_OR, bx, by)) : -1;
}

int cf_reduce(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    int op = mode & 15, np_ = mode & 16, values_only = mode & 32;
    ce_tensor *x = ce_tensor_arg(ev, a, 0, np_ ? "a" : "input", "input");
    if (!x)
        return -1;
    ce_val *dv = ce_arg(a, 1, np_ ? "axis" : "dim");
    int keep = ce_bool_arg(a, 2, np_ ? "keepdims" : "keepdim", 0);
    unsigned dims = 0;
    if (dv && dv->kind == CV_TENSOR && (op == R_MAX || op == R_MIN) && !np_) {   /* torch.max(a, b) */
        ce_tensor *y = dv->t;
        return ce_set_tensor(out, ct_binary(ev, op == R_MAX ? B_MAX : B_MIN, x, y));
    }
    if (dv && dv->kind != CV_NONE) {
        long l[CE_MAXD];
        int n;
        ce_args b = {.pos = dv, .n_pos = 1, .fname = a->fname};
        if (ce_long_list(ev, &b, 0, NULL, l, &n))
            return -1;
        for (int i = 0; i < n; i++) {
            int d;
            if (ct_dim(ev, l[i], x->ndim, &d))
                return -1;
            dims |= 1u << d;
        }
        if (!x->ndim)
            dims = 0;
    }
    if (!x->numel && (op == R_MAX || op == R_MIN))
        return ce_raise(ev, "%s() of an empty tensor", a->fname);
    ce_tensor *t = ct_reduce(ev, (enum ct_reduce)op, x, dims, keep);
    if (!t)
        return -1;
    if ((op == R_MAX || op == R_MIN) && dv && dv->kind != CV_NONE && !np_ && !values_only) {
        /* torch.max(x, dim): (values, indices) */
        ce_tensor *ix = ct_reduce(ev, op == R_MAX ? R_ARGMAX : R_ARGMIN, x, dims, keep);
        ce_tensor *parts[2] = {t, ix};
        if (!ix || ce_parts_out(ev, parts, 2, out))
            return -1;
        out->seq->named = SEQ_MAX;
        return 0;
    }
    *out = ce_tval(t);
    return 0;
}

int cf_elementwise(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    enum ct_unop op = (enum ct_unop)(mode & 0xff);
    ce_val *v = ce_arg(a, 0, "input");
    if (!v)
        v = ce_arg(a, 0, "x");
    if (!v)
        return ce_missing(ev, a, "input");
    int takes = mode & EL_ANY;
    if (v->kind == CV_TENSOR && takes == EL_NUMBER && v->t->numel != 1)
        return ce_raise(ev, "%s() takes one number, not a tensor of %ld numbers (use torch's)", a->fname,
                        v->t->numel);
    if (v->kind == CV_NUM || (takes == EL_NUMBER && v->kind == CV_TENSOR)) {
        if (takes == EL_TENSOR)
            return ce_raise(ev, "%s() takes a tensor, not a number: write math.sqrt(d_k) or d_k ** 0.5", a->fname);
        double x, r;
        if (ce_to_double(ev, a, v, &x))
            return -1;
        switch (op) {
        case U_EXP: r = exp(x); break;
        case U_LOG:
            if (x <= 0 && takes == EL_NUMBER)
                return ce_raise(ev, "math domain error: log of %g", x);
            r = log(x);
            break;
        case U_SQRT:
            if (x < 0 && takes == EL_NUMBER)
                return ce_raise(ev, "math domain error: the square root of %g", x);
            r = sqrt(x);
            break;
        case U_RSQRT: r = 1 / sqrt(x); break;
        case U_ABS: r = fabs(x); break;
        case U_SIGMOID: r = 1 / (1 + exp(-x)); break;
        case U_TANH: r = tanh(x); break;
        case U_RELU: r = x > 0 ? x : 0; break;
        default: r = x;
        }
        *out = ce_num(r, op == U_ABS && v->kind == CV_NUM ? v->ntype : CE_FLOAT);
        return 0;
    }
    if (v->kind != CV_TENSOR)
        return ce_raise(ev, "%s() takes a tensor or a number", a->fname);
    return ce_set_tensor(out, ct_unary(ev, op, v->t));
}

int cf_pow(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *x = ce_arg(a, 0, "input"), *e = ce_arg(a, 1, "exponent");
    if (!x || !e)
        return ce_missing(ev, a, "exponent");
    if (mode && (x->kind != CV_NUM || e->kind != CV_NUM)) {
        double bx, be;
        if (ce_to_double(ev, a, x, &bx) || ce_to_double(ev, a, e, &be))
            return -1;
        *out = ce_num(pow(bx, be), CE_FLOAT);
        return 0;
    }
    return ce_binop(ev, OP_POW, x, e, out);
}
