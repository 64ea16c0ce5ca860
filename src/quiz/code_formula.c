/* An answer written as a formula, not as Python (softmax(QK^T/sqrt(d_k) + M) V,
 * softmax(QKᵀ/√dₖ + M)V, LaTeX): read by the formula grader's reader (quiz/formula_impl.h),
 * and its tree evaluated on the code question's tensors. A product of two tensors is a
 * matrix product (batch axes first), ᵀ swaps the last two axes, the softmax runs over the
 * last axis (over the queries' where the formula says dim=0, dim=-2 or "over the
 * columns"), Q, K, V, d_k, d_model are the names of the setup, M or mask and any other
 * symbol the setup's name as typed. */
#include "quiz/code_impl.h"
#include "quiz/formula_impl.h"

#include <math.h>
#include <string.h>

static int fx(ce_ev *ev, const fformula *f, int n, int axis_remark, ce_val *out);

static int tensor_or_number(const ce_val *v)
{
    return v->kind == CV_TENSOR || v->kind == CV_NUM;
}

static int var_value(ce_ev *ev, const fnode *x, ce_val *out)
{
    static const char *const std[] = {"Q", "K", "V", "d_k", "d_model"};
    char name[64];
    if (x->var <= V_DMODEL) {
        ce_val *v = ce_lookup(ev, std[x->var]);
        if (v) {
            *out = *v;
            return 0;
        }
    }
    if (x->sym && x->sym_len && x->sym_len < sizeof name) {
        memcpy(name, x->sym, x->sym_len);
        name[x->sym_len] = '\0';
        ce_val *v = ce_lookup(ev, name);
        if (v) {
            *out = *v;
            return 0;
        }
        return ce_unread(ev, "'%s' is not defined here", name);
    }
    return ce_unread(ev, "'%s' is not defined here", x->var <= V_DMODEL ? std[x->var] : "?");
}

static int fx(ce_ev *ev, const fformula *f, int n, int axis_remark, ce_val *out)
{
    if (n < 0)
        return ce_unread(ev, "part of this formula cannot be computed");
    if (++ev->depth > QZ_CODE_MAX_DEPTH) {
        ev->depth--;
        return ce_unread(ev, "the code is nested too deeply");
    }
    const fnode *x = &f->node[n];
    ce_val a = {0}, b = {0};
    int rc = 0;
    if (x->a >= 0 && (rc = fx(ev, f, x->a, axis_remark, &a)))
        goto out;
    if (x->b >= 0 && (rc = fx(ev, f, x->b, axis_remark, &b)))
        goto out;
    if (ce_tick(ev)) {
        rc = -1;
        goto out;
    }
    switch (x->op) {
    case N_NUM: *out = (ce_val){.kind = CV_NUM, .num = x->num, .ntype = CE_FLOAT}; break;
    case N_VAR: rc = var_value(ev, x, out); break;
    case N_SOFTMAX: {
        ce_tensor *t = a.kind == CV_TENSOR ? a.t : NULL;
        if (!t || t->dtype != CE_FLOAT) {
            rc = ce_raise(ev, "softmax() takes a float tensor");
            break;
        }
        int dim = t->ndim - ((x->axis_bad || axis_remark) && t->ndim >= 2 ? 2 : 1);
        ce_tensor *w = ct_softmax(ev, t, dim < 0 ? 0 : dim, 0);
        rc = w ? (*out = (ce_val){.kind = CV_TENSOR, .t = w}, 0) : -1;
        break;
    }
    case N_FUNC: {
        static const struct { const char *name; enum ct_unop op; } fns[] = {
            {"exp", U_EXP}, {"log", U_LOG}, {"sqrt", U_SQRT}, {"tanh", U_TANH}, {"sigmoid", U_SIGMOID},
            {"relu", U_RELU}, {"abs", U_ABS},
        };
        int k = -1;
        for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
            if (strlen(fns[i].name) == x->len && !strncmp(fns[i].name, x->name, x->len))
                k = (int)i;
        if (k < 0) {
            char name[40];
            size_t l = x->len < sizeof name - 1 ? x->len : sizeof name - 1;
            memcpy(name, x->name, l);
            name[l] = '\0';
            rc = ce_unread(ev, "the grader does not know the function '%s'", name);
            break;
        }
        if (a.kind == CV_NUM) {
            ce_tensor *s = ct_scalar(ev, CE_FLOAT, a.num);
            ce_tensor *r = s ? ct_unary(ev, fns[k].op, s) : NULL;
            rc = r ? (*out = (ce_val){.kind = CV_NUM, .num = r->data[0], .ntype = CE_FLOAT}, 0) : -1;
        } else if (a.kind == CV_TENSOR) {
            ce_tensor *r = ct_unary(ev, fns[k].op, a.t);
            rc = r ? (*out = (ce_val){.kind = CV_TENSOR, .t = r}, 0) : -1;
        } else {
            rc = ce_raise(ev, "this function takes a tensor or a number");
        }
        break;
    }
    case N_SQRT:
        if (a.kind == CV_NUM) {
            *out = (ce_val){.kind = CV_NUM, .num = sqrt(a.num), .ntype = CE_FLOAT};
        } else if (a.kind == CV_TENSOR) {
            ce_tensor *r = ct_unary(ev, U_SQRT, a.t);
            rc = r ? (*out = (ce_val){.kind = CV_TENSOR, .t = r}, 0) : -1;
        } else {
            rc = ce_raise(ev, "a square root of something that is no number");
        }
        break;
    case N_MUL:
        if (!tensor_or_number(&a) || !tensor_or_number(&b))
            rc = ce_raise(ev, "a product of something that is no tensor");
        else
            rc = ce_binop(ev, a.kind == CV_TENSOR && b.kind == CV_TENSOR && a.t->ndim && b.t->ndim ? '@' : '*',
                          &a, &b, out);
        break;
    case N_DIV: rc = ce_binop(ev, '/', &a, &b, out); break;
    case N_POW: rc = ce_binop(ev, OP_POW, &a, &b, out); break;
    case N_PLUS: rc = ce_binop(ev, '+', &a, &b, out); break;
    case N_NEG: {
        ce_val m1 = {.kind = CV_NUM, .num = -1, .ntype = CE_INT};
        rc = ce_binop(ev, '*', &m1, &a, out);
        break;
    }
    case N_TRANS:
        if (a.kind == CV_TENSOR && a.t->ndim >= 2) {
            ce_tensor *r = ct_transpose(ev, a.t, a.t->ndim - 2, a.t->ndim - 1);
            rc = r ? (*out = (ce_val){.kind = CV_TENSOR, .t = r}, 0) : -1;
        } else {
            *out = a;
        }
        break;
    default: rc = ce_unread(ev, "part of this formula cannot be computed");
    }
out:
    ev->depth--;
    return rc ? -1 : 0;
}

int ce_formula(ce_ev *ev, const char *answer, ce_val *out)
{
    fformula f;
    at_error err;
    int rc = fq_parse(answer, 0, &f, &err);
    if (rc || f.no_formula || f.is_list || f.root < 0) {
        fq_formula_free(&f);
        return 1;   /* no formula: the caller keeps what Python said */
    }
    ev->at = -1;
    /* an elementwise product with V (⊙, or '*' beside '@') is read as a product for
     * naming the slip; it computes no attention */
    if (f.remarks & FQ_REMARK_ELEMENTWISE)
        rc = ce_unread(ev, "part of this formula cannot be computed") ? -1 : 0;
    else
        rc = fx(ev, &f, f.root, (f.remarks & FQ_REMARK_AXIS) != 0, out);
    fq_formula_free(&f);
    return rc;
}
