/* The functions and methods the code evaluator knows: torch.*, torch.nn.functional (F.*),
 * nn.Softmax and nn.Identity, the tensor methods and properties, math.*, numpy (np.*),
 * einops.rearrange and Python's builtins (float, int, len, range, print, max, min, sum,
 * abs, tuple, list). Each takes its arguments as PyTorch does, positional or by keyword,
 * and raises where PyTorch would (quiz/code.h lists the rules a class trips on). */
#define _GNU_SOURCE
#include "quiz/code_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Where a function is found. */
enum { W_T = 1, W_F = 2, W_M = 4, W_B = 8, W_MATH = 16, W_NP = 32, W_E = 64, W_NN = 128 };

typedef int (*lib_impl)(ce_ev *ev, ce_args *a, ce_val *out, int mode);

typedef struct lib_fn {
    const char *name;
    unsigned where;
    lib_impl fn;
    int mode;
} lib_fn;

/* ---- arguments */

static ce_val *arg(ce_args *a, int i, const char *kw)
{
    for (int k = 0; kw && k < a->n_kw; k++)
        if (!strcmp(a->kw_names[k], kw))
            return &a->kw[k];
    return i >= 0 && i < a->n_pos ? &a->pos[i] : NULL;
}

static int missing(ce_ev *ev, ce_args *a, const char *what)
{
    return ce_raise(ev, "%s() is missing its argument %s", a->fname, what);
}

static ce_val none_val(void)
{
    return (ce_val){.kind = CV_NONE};
}

static ce_val num(double x, ce_dtype t)
{
    return (ce_val){.kind = CV_NUM, .num = x, .ntype = t};
}

static ce_val tval(ce_tensor *t)
{
    return (ce_val){.kind = CV_TENSOR, .t = t};
}

static int set_tensor(ce_val *out, ce_tensor *t)
{
    if (!t)
        return -1;
    *out = tval(t);
    return 0;
}

static int to_long(ce_ev *ev, ce_args *a, const ce_val *v, long *out)
{
    if (v->kind == CV_NUM && v->ntype != CE_FLOAT) {
        *out = (long)v->num;
        return 0;
    }
    if (v->kind == CV_TENSOR && v->t->numel == 1 && v->t->dtype != CE_FLOAT) {
        *out = (long)v->t->data[0];
        return 0;
    }
    return ce_raise(ev, "%s() takes a whole number here", a->fname);
}

static int to_double(ce_ev *ev, ce_args *a, const ce_val *v, double *out)
{
    if (v->kind == CV_NUM) {
        *out = v->num;
        return 0;
    }
    if (v->kind == CV_TENSOR) {
        if (v->t->numel != 1)
            return ce_raise(ev, "%s(): a tensor of %ld numbers is not one number", a->fname, v->t->numel);
        *out = v->t->data[0];
        return 0;
    }
    return ce_raise(ev, "%s() takes a number here", a->fname);
}

static ce_tensor *tensor_arg(ce_ev *ev, ce_args *a, int i, const char *kw, const char *what)
{
    ce_val *v = arg(a, i, kw);
    if (!v) {
        missing(ev, a, what);
        return NULL;
    }
    if (v->kind != CV_TENSOR) {
        ce_raise(ev, "%s() takes a tensor as %s, not a %s", a->fname, what,
                 v->kind == CV_NUM ? "number" : v->kind == CV_TUPLE || v->kind == CV_LIST ? "list" : "value of another kind");
        return NULL;
    }
    return v->t;
}

static int long_arg(ce_ev *ev, ce_args *a, int i, const char *kw, long dflt, long *out, int required)
{
    ce_val *v = arg(a, i, kw);
    if (!v || v->kind == CV_NONE) {
        if (required)
            return missing(ev, a, kw ? kw : "");
        *out = dflt;
        return 0;
    }
    return to_long(ev, a, v, out);
}

static int bool_arg(ce_args *a, int i, const char *kw, int dflt)
{
    ce_val *v = arg(a, i, kw);
    return v && v->kind == CV_NUM ? v->num != 0 : dflt;
}

/* Sizes or axes given as *args from `from` on, or as one tuple / list / torch.Size. */
static int long_list(ce_ev *ev, ce_args *a, int from, const char *kw, long *out, int *n)
{
    ce_val *v = arg(a, -1, kw);
    const ce_val *items = NULL;
    int count = 0;
    if (v) {
        items = v;
        count = 1;
    } else if (from < a->n_pos) {
        items = &a->pos[from];
        count = a->n_pos - from;
    }
    if (count == 1 && (items->kind == CV_TUPLE || items->kind == CV_LIST)) {
        count = items->seq->n;
        items = items->seq->v;
    }
    if (count > CE_MAXD)
        return ce_unread(ev, "a tensor of more than %d axes is too large for the grader", CE_MAXD);
    for (int i = 0; i < count; i++)
        if (to_long(ev, a, &items[i], &out[i]))
            return -1;
    *n = count;
    return 0;
}

static int dtype_arg(ce_args *a, const char *kw, ce_dtype *out)
{
    ce_val *v = arg(a, -1, kw);
    if (!v || v->kind != CV_DTYPE)
        return 0;
    *out = v->ntype;
    return 1;
}

/* ---- softmax */

enum { SM_F, SM_TORCH, SM_MATH, SM_MODULE };

static int do_softmax(ce_ev *ev, ce_args *a, ce_val *out, int mode, int log_, double module_dim)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    ce_val *d = mode == SM_MODULE ? NULL : arg(a, 1, "dim");
    if (!d && mode != SM_MODULE)
        d = arg(a, -1, "axis");
    long dim;
    if (mode == SM_MODULE && !isnan(module_dim)) {
        dim = (long)module_dim;
    } else if (d && d->kind != CV_NONE) {
        if (to_long(ev, a, d, &dim))
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
    return set_tensor(out, ct_softmax(ev, x, dd, log_));
}

static int fn_softmax(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    return do_softmax(ev, a, out, mode, 0, NAN);
}

static int fn_log_softmax(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    return do_softmax(ev, a, out, mode, 1, NAN);
}

/* nn.Softmax(dim=…): a module; called on its input (mode 1) */
static int fn_softmax_module(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *d = arg(a, 0, "dim");
    long dim = 0;
    if (d && d->kind != CV_NONE && to_long(ev, a, d, &dim))
        return -1;
    *out = (ce_val){.kind = CV_FUNC, .fn = -1, .opt = d && d->kind != CV_NONE ? (double)dim : NAN};
    return 1;   /* the caller sets fn */
}

/* ---- products */

static int fn_matmul(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input"), *y = x ? tensor_arg(ev, a, 1, "other", "other") : NULL;
    if (!y)
        return -1;
    if (mode == 1 && (x->ndim != 2 || y->ndim != 2))
        return ce_raise(ev, "mm() multiplies 2-D matrices; these have %d and %d axes (use matmul or @)",
                        x->ndim, y->ndim);
    if (mode == 2 && (x->ndim != 3 || y->ndim != 3))
        return ce_raise(ev, "bmm() multiplies 3-D batches; these have %d and %d axes", x->ndim, y->ndim);
    return set_tensor(out, ct_matmul(ev, x, y, a->fname));
}

static int fn_einsum(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *spec = arg(a, 0, NULL);
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
    return set_tensor(out, ct_einsum(ev, spec->str, ts, n));
}

/* F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0, is_causal=False,
 * scale=None) */
static int fn_sdpa(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *q = tensor_arg(ev, a, 0, "query", "query"), *k = q ? tensor_arg(ev, a, 1, "key", "key") : NULL,
              *v = k ? tensor_arg(ev, a, 2, "value", "value") : NULL;
    if (!v)
        return -1;
    ce_val *drop = arg(a, 4, "dropout_p");
    if (drop && drop->kind == CV_NUM && drop->num > 0)
        return ce_unread(ev, "dropout is random: the grader cannot judge it (leave dropout_p at 0)");
    if (q->ndim < 2 || k->ndim < 2)
        return ce_raise(ev, "scaled_dot_product_attention() takes tensors of at least 2 axes");
    double scale = 1 / sqrt((double)q->shape[q->ndim - 1]);
    ce_val *sv = arg(a, 6, "scale");
    if (sv && sv->kind != CV_NONE) {
        ce_args tmp = *a;
        if (to_double(ev, &tmp, sv, &scale))
            return -1;
    }
    ce_tensor *kt = ct_transpose(ev, k, k->ndim - 2, k->ndim - 1);
    ce_tensor *s = kt ? ct_matmul(ev, q, kt, a->fname) : NULL;
    ce_tensor *sc = s ? ct_scalar(ev, CE_FLOAT, scale) : NULL;
    if (!sc || !(s = ct_binary(ev, B_MUL, s, sc)))
        return -1;
    long L = s->shape[s->ndim - 2], S = s->shape[s->ndim - 1];
    if (bool_arg(a, 5, "is_causal", 0)) {
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
    ce_val *mv = arg(a, 3, "attn_mask");
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
    return set_tensor(out, w ? ct_matmul(ev, w, v, a->fname) : NULL);
}

/* ---- axes */

static int fn_transpose(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    if (mode == 1) {   /* np.transpose(x, axes=None) */
        ce_val *ax = arg(a, 1, "axes");
        int perm[CE_MAXD];
        if (!ax || ax->kind == CV_NONE) {
            for (int i = 0; i < x->ndim; i++)
                perm[i] = x->ndim - 1 - i;
        } else {
            long l[CE_MAXD];
            int n;
            ce_args b = {.pos = ax, .n_pos = 1, .fname = a->fname};
            if (long_list(ev, &b, 0, NULL, l, &n))
                return -1;
            if (n != x->ndim)
                return ce_raise(ev, "%s(): the axes do not match the tensor's %d axes", a->fname, x->ndim);
            for (int i = 0; i < n; i++)
                if (ct_dim(ev, l[i], x->ndim, &perm[i]))
                    return -1;
        }
        return set_tensor(out, ct_permute(ev, x, perm));
    }
    long d0, d1;
    int a0, a1;
    if (long_arg(ev, a, 1, "dim0", 0, &d0, 1) || long_arg(ev, a, 2, "dim1", 0, &d1, 1) ||
        ct_dim(ev, d0, x->ndim, &a0) || ct_dim(ev, d1, x->ndim, &a1))
        return -1;
    return set_tensor(out, ct_transpose(ev, x, a0, a1));
}

static int fn_permute(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    long l[CE_MAXD];
    int n, perm[CE_MAXD];
    if (long_list(ev, a, 1, "dims", l, &n))
        return -1;
    (void)mode;
    if (n != x->ndim)
        return ce_raise(ev, "permute() needs every axis of the tensor once: %d axes named, it has %d", n, x->ndim);
    for (int i = 0; i < n; i++)
        if (ct_dim(ev, l[i], x->ndim, &perm[i]))
            return -1;
    return set_tensor(out, ct_permute(ev, x, perm));
}

static int fn_movedim(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    long s, d;
    int src, dst;
    if (!x || long_arg(ev, a, 1, "source", 0, &s, 1) || long_arg(ev, a, 2, "destination", 0, &d, 1) ||
        ct_dim(ev, s, x->ndim, &src) || ct_dim(ev, d, x->ndim, &dst))
        return -1;
    int perm[CE_MAXD], k = 0;
    for (int i = 0; i < x->ndim; i++) {
        if (i == dst) {
            perm[i] = src;
            continue;
        }
        if (k == src)
            k++;
        perm[i] = k++;
    }
    return set_tensor(out, ct_permute(ev, x, perm));
}

static int fn_t(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    if (x->ndim > 2)
        return ce_raise(ev, "t() takes a tensor of at most 2 axes; this one has %d (use .transpose(-2, -1))",
                        x->ndim);
    return set_tensor(out, x->ndim < 2 ? x : ct_transpose(ev, x, 0, 1));
}

static int fn_reshape(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    long l[CE_MAXD];
    int n;
    if (mode == 1 && a->n_pos == 2 && a->pos[1].kind == CV_DTYPE)
        return ce_unread(ev, "view(dtype) is not read");
    if (long_list(ev, a, 1, mode == 2 ? "newshape" : "shape", l, &n))
        return -1;
    return set_tensor(out, ct_reshape(ev, x, n, l, mode == 1));
}

static int fn_flatten(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    long s, e;
    int sd, ed;
    if (!x || long_arg(ev, a, 1, "start_dim", 0, &s, 0) || long_arg(ev, a, 2, "end_dim", -1, &e, 0))
        return -1;
    if (!x->ndim)
        return set_tensor(out, ct_reshape(ev, x, 1, (long[]){1}, 0));
    if (ct_dim(ev, s, x->ndim, &sd) || ct_dim(ev, e, x->ndim, &ed))
        return -1;
    if (sd > ed)
        return ce_raise(ev, "flatten(): start_dim comes after end_dim");
    long shape[CE_MAXD];
    int n = 0;
    for (int i = 0; i < x->ndim; i++) {
        if (i > sd && i <= ed)
            shape[n - 1] *= x->shape[i];
        else
            shape[n++] = x->shape[i];
    }
    return set_tensor(out, ct_reshape(ev, x, n, shape, 0));
}

static int fn_squeeze(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    long shape[CE_MAXD];
    int n = 0;
    ce_val *dv = arg(a, 1, mode ? "axis" : "dim");
    if (dv && dv->kind != CV_NONE) {
        long d;
        int dd;
        if (to_long(ev, a, dv, &d) || ct_dim(ev, d, x->ndim, &dd))
            return -1;
        for (int i = 0; i < x->ndim; i++)
            if (i != dd || x->shape[i] != 1)
                shape[n++] = x->shape[i];
    } else {
        for (int i = 0; i < x->ndim; i++)
            if (x->shape[i] != 1)
                shape[n++] = x->shape[i];
    }
    return set_tensor(out, ct_reshape(ev, x, n, shape, 0));
}

static int fn_unsqueeze(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    long d;
    int dd;
    if (!x || long_arg(ev, a, 1, mode ? "axis" : "dim", 0, &d, 1) || ct_dim(ev, d, x->ndim + 1, &dd))
        return -1;
    if (x->ndim >= CE_MAXD)
        return ce_unread(ev, "a tensor of more than %d axes is too large for the grader", CE_MAXD);
    long shape[CE_MAXD];
    for (int i = 0, k = 0; i <= x->ndim; i++)
        shape[i] = i == dd ? 1 : x->shape[k++];
    return set_tensor(out, ct_reshape(ev, x, x->ndim + 1, shape, 0));
}

/* ---- copies and types */

enum { ID_SAME, ID_CONTIGUOUS, ID_CLONE };

static int fn_identity(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *v = arg(a, 0, "input");
    if (!v)
        return missing(ev, a, "input");
    if (v->kind != CV_TENSOR || mode == ID_SAME) {
        *out = *v;
        return 0;
    }
    ce_tensor *t = ct_copy(ev, v->t);
    if (t && mode == ID_CONTIGUOUS)
        ct_contiguous_strides(t);
    return set_tensor(out, t);
}

static int fn_cast(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    return x ? set_tensor(out, ct_cast(ev, x, (ce_dtype)mode)) : -1;
}

static int fn_to(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    ce_dtype dt = x->dtype;
    int cast = dtype_arg(a, "dtype", &dt);
    for (int i = 1; i < a->n_pos; i++) {
        if (a->pos[i].kind == CV_DTYPE) {
            dt = a->pos[i].ntype;
            cast = 1;
        } else if (a->pos[i].kind == CV_TENSOR && mode) {   /* type_as(other) */
            dt = a->pos[i].t->dtype;
            cast = 1;
        }
    }
    if (!cast) {
        *out = tval(x);
        return 0;
    }
    return set_tensor(out, ct_cast(ev, x, dt));
}

/* ---- masks */

static int fn_masked_fill(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input"), *m = x ? tensor_arg(ev, a, 1, "mask", "mask") : NULL;
    if (!m)
        return -1;
    ce_val *v = arg(a, 2, "value");
    if (!v)
        return missing(ev, a, "value");
    if (m->dtype != CE_BOOL)
        return ce_raise(ev, "masked_fill() takes a bool mask (True where it fills), not %s; compare it "
                            "first (mask == 0) or use .bool()", m->dtype == CE_FLOAT ? "floats" : "integers");
    double value;
    if (v->kind == CV_TENSOR && v->t->ndim > 0)
        return ce_raise(ev, "masked_fill() fills with one number, not a tensor of %d axes", v->t->ndim);
    if (to_double(ev, a, v, &value))
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
    *out = tval(t);
    return 0;
}

static int fn_where(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *c = arg(a, 0, "condition"), *x = arg(a, 1, "input"), *y = arg(a, 2, "other");
    if (!c || !x || !y) {
        if (c && !x)
            return ce_unread(ev, "where() with one argument (the places of True) is not read");
        return missing(ev, a, "condition, input, other");
    }
    ce_tensor *ct = ct_of(ev, c, CE_BOOL), *xt = ct ? ct_of(ev, x, CE_FLOAT) : NULL,
              *yt = xt ? ct_of(ev, y, CE_FLOAT) : NULL;
    return yt ? set_tensor(out, ct_where(ev, ct, xt, yt)) : -1;
}

static int fn_tri(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    long d;
    if (!x || long_arg(ev, a, 1, mode & 2 ? "k" : "diagonal", 0, &d, 0))
        return -1;
    return set_tensor(out, ct_tri(ev, x, d, mode & 1));
}

static int fn_logical(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    ce_tensor *bx = ct_cast(ev, x, CE_BOOL);
    if (!bx)
        return -1;
    if (mode == 0)
        return set_tensor(out, ct_unary(ev, U_NOT, bx));
    ce_val *o = arg(a, 1, "other");
    if (!o)
        return missing(ev, a, "other");
    ce_tensor *y = ct_of(ev, o, CE_BOOL), *by = y ? ct_cast(ev, y, CE_BOOL) : NULL;
    return by ? set_tensor(out, ct_binary(ev, mode == 1 ? B_AND : B_OR, bx, by)) : -1;
}

/* ---- making tensors */

enum { MK_ONES, MK_ZEROS, MK_FULL, MK_EMPTY };

static int fn_fill(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    long shape[CE_MAXD];
    int n;
    double value = mode == MK_ONES ? 1 : 0;
    ce_dtype dt = CE_FLOAT;
    int np_ = mode >= 10;
    mode %= 10;
    if (mode == MK_FULL) {
        ce_val *v = arg(a, 1, "fill_value");
        if (!v)
            return missing(ev, a, "fill_value");
        if (to_double(ev, a, v, &value))
            return -1;
        dt = v->kind == CV_NUM ? v->ntype : v->t->dtype;
        ce_val *sz = arg(a, 0, np_ ? "shape" : "size");
        ce_args b = {.pos = sz, .n_pos = sz ? 1 : 0, .fname = a->fname};
        if (!sz)
            return missing(ev, a, "size");
        if (long_list(ev, &b, 0, NULL, shape, &n))
            return -1;
    } else if (long_list(ev, a, 0, np_ ? "shape" : "size", shape, &n)) {
        return -1;
    }
    dtype_arg(a, "dtype", &dt);
    ce_tensor *t = ct_new(ev, dt, n, shape);
    if (!t)
        return -1;
    for (long i = 0; i < t->numel; i++)
        t->data[i] = dt == CE_BOOL ? value != 0 : value;
    *out = tval(t);
    return 0;
}

static int fn_like(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    double value = mode == MK_ONES ? 1 : 0;
    ce_dtype dt = x->dtype;
    if (mode == MK_FULL) {
        ce_val *v = arg(a, 1, "fill_value");
        if (!v)
            return missing(ev, a, "fill_value");
        if (to_double(ev, a, v, &value))
            return -1;
    }
    dtype_arg(a, "dtype", &dt);
    ce_tensor *t = ct_new(ev, dt, x->ndim, x->shape);
    if (!t)
        return -1;
    for (long i = 0; i < t->numel; i++)
        t->data[i] = dt == CE_BOOL ? value != 0 : dt == CE_INT ? trunc(value) : value;
    *out = tval(t);
    return 0;
}

static int fn_eye(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    long n, m;
    if (long_arg(ev, a, 0, "n", 0, &n, 1) || long_arg(ev, a, 1, "m", n, &m, 0))
        return -1;
    ce_dtype dt = CE_FLOAT;
    dtype_arg(a, "dtype", &dt);
    long shape[2] = {n, m};
    ce_tensor *t = ct_new(ev, dt, 2, shape);
    if (!t)
        return -1;
    for (long i = 0; i < n && i < m; i++)
        t->data[i * m + i] = 1;
    *out = tval(t);
    return 0;
}

static int fn_arange(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    double v[3] = {0, 0, 1};
    int is_float = 0, n = a->n_pos < 3 ? a->n_pos : 3;
    if (!n)
        return missing(ev, a, "end");
    for (int i = 0; i < n; i++) {
        if (to_double(ev, a, &a->pos[i], &v[n == 1 ? 1 : i]))
            return -1;
        is_float |= a->pos[i].kind == CV_NUM ? a->pos[i].ntype == CE_FLOAT : a->pos[i].t->dtype == CE_FLOAT;
    }
    if (v[2] == 0)
        return ce_raise(ev, "arange(): the step cannot be 0");
    double count = ceil((v[1] - v[0]) / v[2]);
    if (count < 0)
        count = 0;
    if (count > QZ_CODE_MAX_NUMEL)
        return ce_unread(ev, "a tensor this large is too large for the grader (at most %d numbers)",
                         QZ_CODE_MAX_NUMEL);
    ce_dtype dt = is_float ? CE_FLOAT : CE_INT;
    dtype_arg(a, "dtype", &dt);
    long shape[1] = {(long)count};
    ce_tensor *t = ct_new(ev, dt, 1, shape);
    if (!t)
        return -1;
    for (long i = 0; i < shape[0]; i++)
        t->data[i] = v[0] + (double)i * v[2];
    *out = tval(t);
    return 0;
}

/* splitmix64: the same numbers on every machine for one seed */
static uint64_t next_u64(unsigned long long *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(unsigned long long *s)
{
    return (double)(next_u64(s) >> 11) * 0x1.0p-53;
}

static int fn_random(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    long shape[CE_MAXD];
    int n;
    if (long_list(ev, a, 0, "size", shape, &n))
        return -1;
    ce_tensor *t = ct_new(ev, CE_FLOAT, n, shape);
    if (!t)
        return -1;
    for (long i = 0; i < t->numel; i++) {
        if (mode) {
            t->data[i] = uniform(&ev->seed);
        } else {   /* Box–Muller */
            double u = uniform(&ev->seed), v = uniform(&ev->seed);
            t->data[i] = sqrt(-2 * log(u > 0 ? u : 0x1.0p-53)) * cos(2 * M_PI * v);
        }
    }
    *out = tval(t);
    return 0;
}

static int fn_manual_seed(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    long s;
    if (long_arg(ev, a, 0, "seed", 0, &s, 1))
        return -1;
    ev->seed = (unsigned long long)s * 0x2545f4914f6cdd1dull + 1;
    *out = none_val();
    return 0;
}

static int fn_tensor(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *v = arg(a, 0, "data");
    if (!v)
        return missing(ev, a, "data");
    ce_tensor *t = ct_of(ev, v, CE_FLOAT);
    if (!t)
        return -1;
    ce_dtype dt = t->dtype;
    if (dtype_arg(a, "dtype", &dt) || v->kind == CV_TENSOR)
        return set_tensor(out, ct_cast(ev, t, dt));
    *out = tval(t);
    return 0;
}

/* ---- joining and splitting */

static int fn_cat(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *seq = arg(a, 0, mode & 2 ? "arrays" : "tensors");
    if (!seq)
        return missing(ev, a, "tensors");
    if (seq->kind != CV_TUPLE && seq->kind != CV_LIST)
        return ce_raise(ev, "%s() takes a list or a tuple of tensors, not a %s", a->fname,
                        seq->kind == CV_TENSOR ? "tensor" : "single value");
    long dim;
    if (long_arg(ev, a, 1, mode & 2 ? "axis" : "dim", 0, &dim, 0))
        return -1;
    ce_tensor **ts = ce_alloc(ev->arena, (size_t)(seq->seq->n + 1) * sizeof *ts);
    if (!ts)
        return ce_nomem(ev);
    for (int i = 0; i < seq->seq->n; i++)
        if (!(ts[i] = ct_of(ev, &seq->seq->v[i], CE_FLOAT)))
            return -1;
    return set_tensor(out, ct_cat(ev, ts, seq->seq->n, dim, mode & 1));
}

static int parts_out(ce_ev *ev, ce_tensor **parts, int n, ce_val *out)
{
    ce_seq *s = ce_alloc(ev->arena, sizeof *s);
    if (!s || !(s->v = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *s->v)))
        return ce_nomem(ev);
    s->n = n;
    for (int i = 0; i < n; i++)
        s->v[i] = tval(parts[i]);
    *out = (ce_val){.kind = CV_TUPLE, .seq = s};
    return 0;
}

static int fn_unbind(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    long d;
    int dd;
    if (!x || long_arg(ev, a, 1, "dim", 0, &d, 0) || ct_dim(ev, d, x->ndim, &dd))
        return -1;
    if (!x->ndim)
        return ce_raise(ev, "unbind() of a 0-d tensor");
    int n = (int)x->shape[dd];
    ce_tensor **parts = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *parts);
    if (!parts)
        return ce_nomem(ev);
    long shape[CE_MAXD];
    for (int i = 0, k = 0; i < x->ndim; i++)
        if (i != dd)
            shape[k++] = x->shape[i];
    for (int i = 0; i < n; i++) {
        ce_tensor *p = ct_narrow(ev, x, dd, i, 1);
        if (!p || !(parts[i] = ct_reshape(ev, p, x->ndim - 1, shape, 0)))
            return -1;
        for (int j = 0, k = 0; j < x->ndim; j++)   /* the strides of a view without that axis */
            if (j != dd)
                parts[i]->stride[k++] = x->stride[j];
    }
    return parts_out(ev, parts, n, out);
}

static int fn_split(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    ce_val *how = x ? arg(a, 1, mode ? "chunks" : "split_size_or_sections") : NULL;
    long d;
    int dd;
    if (!how)
        return x ? missing(ev, a, mode ? "chunks" : "split_size") : -1;
    if (long_arg(ev, a, 2, "dim", 0, &d, 0) || ct_dim(ev, d, x->ndim, &dd))
        return -1;
    long size = x->ndim ? x->shape[dd] : 1, sizes[64];
    int n = 0;
    if (how->kind == CV_LIST || how->kind == CV_TUPLE) {
        if (mode)
            return ce_raise(ev, "chunk() takes a number of chunks");
        long total = 0;
        for (int i = 0; i < how->seq->n && n < 64; i++) {
            if (to_long(ev, a, &how->seq->v[i], &sizes[n]))
                return -1;
            total += sizes[n++];
        }
        if (total != size)
            return ce_raise(ev, "split(): the sections add up to %ld, the axis is %ld long", total, size);
    } else {
        long k;
        if (to_long(ev, a, how, &k))
            return -1;
        if (k <= 0)
            return ce_raise(ev, "%s() needs a positive number", a->fname);
        long each = mode ? (size + k - 1) / k : k;
        for (long at = 0; at < size && n < 64; at += each)
            sizes[n++] = at + each <= size ? each : size - at;
        if (n == 64)
            return ce_unread(ev, "more than 64 parts is too many for the grader");
    }
    ce_tensor *parts[64];
    long at = 0;
    for (int i = 0; i < n; i++) {
        if (!(parts[i] = ct_narrow(ev, x, dd, at, sizes[i])))
            return -1;
        at += sizes[i];
    }
    return parts_out(ev, parts, n, out);
}

/* ---- reductions */

static int fn_reduce(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    int op = mode & 15, np_ = mode & 16, values_only = mode & 32;
    ce_tensor *x = tensor_arg(ev, a, 0, np_ ? "a" : "input", "input");
    if (!x)
        return -1;
    ce_val *dv = arg(a, 1, np_ ? "axis" : "dim");
    int keep = bool_arg(a, 2, np_ ? "keepdims" : "keepdim", 0);
    unsigned dims = 0;
    if (dv && dv->kind == CV_TENSOR && (op == R_MAX || op == R_MIN) && !np_) {   /* torch.max(a, b) */
        ce_tensor *y = dv->t;
        return set_tensor(out, ct_binary(ev, op == R_MAX ? B_MAX : B_MIN, x, y));
    }
    if (dv && dv->kind != CV_NONE) {
        long l[CE_MAXD];
        int n;
        ce_args b = {.pos = dv, .n_pos = 1, .fname = a->fname};
        if (long_list(ev, &b, 0, NULL, l, &n))
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
        if (!ix || parts_out(ev, parts, 2, out))
            return -1;
        out->seq->max_pair = 1;
        return 0;
    }
    *out = tval(t);
    return 0;
}

/* ---- elementwise functions */

enum { EL_TENSOR = 0x100, EL_NUMBER = 0x200, EL_ANY = 0x300 };

static int fn_elementwise(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    enum ct_unop op = (enum ct_unop)(mode & 0xff);
    ce_val *v = arg(a, 0, "input");
    if (!v)
        v = arg(a, 0, "x");
    if (!v)
        return missing(ev, a, "input");
    int takes = mode & EL_ANY;
    if (v->kind == CV_TENSOR && takes == EL_NUMBER && v->t->numel != 1)
        return ce_raise(ev, "%s() takes one number, not a tensor of %ld numbers (use torch's)", a->fname,
                        v->t->numel);
    if (v->kind == CV_NUM || (takes == EL_NUMBER && v->kind == CV_TENSOR)) {
        if (takes == EL_TENSOR)
            return ce_raise(ev, "%s() takes a tensor, not a number: write math.sqrt(d_k) or d_k ** 0.5", a->fname);
        double x, r;
        if (to_double(ev, a, v, &x))
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
        *out = num(r, op == U_ABS && v->kind == CV_NUM ? v->ntype : CE_FLOAT);
        return 0;
    }
    if (v->kind != CV_TENSOR)
        return ce_raise(ev, "%s() takes a tensor or a number", a->fname);
    return set_tensor(out, ct_unary(ev, op, v->t));
}

static int fn_pow(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *x = arg(a, 0, "input"), *e = arg(a, 1, "exponent");
    if (!x || !e)
        return missing(ev, a, "exponent");
    if (mode && (x->kind != CV_NUM || e->kind != CV_NUM)) {
        double bx, be;
        if (to_double(ev, a, x, &bx) || to_double(ev, a, e, &be))
            return -1;
        *out = num(pow(bx, be), CE_FLOAT);
        return 0;
    }
    return ce_binop(ev, OP_POW, x, e, out);
}

/* ---- sizes */

static int shape_tuple(ce_ev *ev, const ce_tensor *t, ce_val *out)
{
    ce_seq *s = ce_alloc(ev->arena, sizeof *s);
    if (!s || !(s->v = ce_alloc(ev->arena, (size_t)(t->ndim ? t->ndim : 1) * sizeof *s->v)))
        return ce_nomem(ev);
    s->n = t->ndim;
    for (int i = 0; i < t->ndim; i++)
        s->v[i] = num((double)t->shape[i], CE_INT);
    *out = (ce_val){.kind = CV_TUPLE, .seq = s};
    return 0;
}

static int fn_size(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    if (mode == 1) {
        *out = num(x->ndim, CE_INT);
        return 0;
    }
    if (mode == 2) {
        *out = num((double)x->numel, CE_INT);
        return 0;
    }
    if (mode == 3) {
        if (x->numel != 1)
            return ce_raise(ev, "item() takes a tensor of one number, not %ld", x->numel);
        *out = num(x->data[0], x->dtype);
        return 0;
    }
    ce_val *d = arg(a, 1, "dim");
    if (!d || d->kind == CV_NONE)
        return shape_tuple(ev, x, out);
    long dim;
    int dd;
    if (to_long(ev, a, d, &dim) || ct_dim(ev, dim, x->ndim, &dd))
        return -1;
    *out = num((double)x->shape[dd], CE_INT);
    return 0;
}

/* ---- einops */

static int fn_rearrange(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *x = arg(a, 0, "tensor"), *p = arg(a, 1, "pattern");
    if (!x || !p)
        return missing(ev, a, "tensor, pattern");
    ce_tensor *t = x->kind == CV_TENSOR ? x->t : NULL;
    if (!t && (x->kind == CV_LIST || x->kind == CV_TUPLE)) {   /* a list of tensors: stacked */
        ce_tensor **ts = ce_alloc(ev->arena, (size_t)(x->seq->n + 1) * sizeof *ts);
        if (!ts)
            return ce_nomem(ev);
        for (int i = 0; i < x->seq->n; i++)
            if (!(ts[i] = ct_of(ev, &x->seq->v[i], CE_FLOAT)))
                return -1;
        if (!(t = ct_cat(ev, ts, x->seq->n, 0, 1)))
            return -1;
    }
    if (!t)
        return ce_raise(ev, "rearrange() takes a tensor");
    if (p->kind != CV_STR)
        return ce_raise(ev, "rearrange() takes its pattern as a string ('b h n d -> b n (h d)')");
    const char *names[CE_MAXD * 2];
    long sizes[CE_MAXD * 2];
    int n = 0;
    for (int k = 0; k < a->n_kw && n < CE_MAXD * 2; k++) {
        if (!strcmp(a->kw_names[k], "tensor") || !strcmp(a->kw_names[k], "pattern"))
            continue;
        names[n] = a->kw_names[k];
        if (to_long(ev, a, &a->kw[k], &sizes[n]))
            return -1;
        n++;
    }
    return set_tensor(out, ct_rearrange(ev, t, p->str, names, sizes, n));
}

/* ---- Python's builtins */

static int fn_float(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *v = arg(a, 0, NULL);
    if (!v) {
        *out = num(0, mode ? CE_INT : CE_FLOAT);
        return 0;
    }
    double x;
    if (v->kind == CV_STR) {
        char buf[64], *e;
        size_t n = 0;
        for (const char *p = v->str; *p && n + 1 < sizeof buf; p++)
            if (*p != ' ')
                buf[n++] = *p;
        buf[n] = '\0';
        const char *b = buf + (buf[0] == '+' || buf[0] == '-');
        int neg = buf[0] == '-';
        if (!strcasecmp(b, "inf") || !strcasecmp(b, "infinity"))
            x = neg ? -INFINITY : INFINITY;
        else if (!strcasecmp(b, "nan"))
            x = NAN;
        else if (!mode && (x = strtod(buf, &e), *buf && !*e))
            ;
        else if (mode && (x = (double)strtol(buf, &e, 10), *buf && !*e))
            ;
        else
            return ce_raise(ev, "could not turn the string '%s' into a number", v->str);
        if (mode && !isfinite(x))
            return ce_raise(ev, "could not turn the string '%s' into a whole number", v->str);
    } else if (to_double(ev, a, v, &x)) {
        return -1;
    }
    if (mode && !isfinite(x))
        return ce_raise(ev, "int() of an infinite number");
    *out = num(mode ? trunc(x) : x, mode ? CE_INT : CE_FLOAT);
    return 0;
}

static int fn_len(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *v = arg(a, 0, NULL);
    if (!v)
        return missing(ev, a, "obj");
    long n;
    if (v->kind == CV_TENSOR) {
        if (!v->t->ndim)
            return ce_raise(ev, "len() of a 0-d tensor");
        n = v->t->shape[0];
    } else if (v->kind == CV_TUPLE || v->kind == CV_LIST) {
        n = v->seq->n;
    } else if (v->kind == CV_STR) {
        n = (long)strlen(v->str);
    } else if (v->kind == CV_RANGE) {
        ce_val *items;
        if (ce_items(ev, v, &items, &n))
            return -1;
    } else {
        return ce_raise(ev, "len() of a value that has no length");
    }
    *out = num((double)n, CE_INT);
    return 0;
}

static int fn_range(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    long v[3] = {0, 0, 1};
    if (a->n_pos < 1 || a->n_pos > 3)
        return ce_raise(ev, "range() takes 1 to 3 whole numbers");
    for (int i = 0; i < a->n_pos; i++)
        if (to_long(ev, a, &a->pos[i], &v[a->n_pos == 1 ? 1 : i]))
            return -1;
    if (!v[2])
        return ce_raise(ev, "range(): the step cannot be 0");
    *out = (ce_val){.kind = CV_RANGE, .r = {v[0], v[1], v[2]}};
    return 0;
}

static int fn_print(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)ev;
    (void)a;
    (void)mode;
    *out = none_val();
    return 0;
}

static int fn_minmax(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *items = a->pos;
    long n = a->n_pos;
    if (n == 1 && (items->kind == CV_TENSOR && items->t->ndim > 0)) {
        ce_args b = *a;
        return fn_reduce(ev, &b, out, mode ? R_MIN | 32 : R_MAX | 32);
    }
    if (n == 1 && ce_items(ev, &a->pos[0], &items, &n))
        return -1;
    if (!n)
        return ce_raise(ev, "%s() of nothing", a->fname);
    ce_val best = items[0];
    for (long i = 1; i < n; i++) {
        ce_val c;
        if (ce_binop(ev, mode ? '<' : '>', &items[i], &best, &c))
            return -1;
        int t = ce_truth(ev, &c);
        if (t < 0)
            return -1;
        if (t)
            best = items[i];
    }
    *out = best;
    return 0;
}

static int fn_sum_builtin(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *v = arg(a, 0, NULL), *items;
    long n;
    if (!v)
        return missing(ev, a, "iterable");
    if (ce_items(ev, v, &items, &n))
        return -1;
    ce_val acc = a->n_pos > 1 ? a->pos[1] : num(0, CE_INT);
    for (long i = 0; i < n; i++)
        if (ce_binop(ev, '+', &acc, &items[i], &acc))
            return -1;
    *out = acc;
    return 0;
}

static int fn_seq(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *v = arg(a, 0, NULL), *items;
    long n = 0;
    if (v && ce_items(ev, v, &items, &n))
        return -1;
    ce_seq *s = ce_alloc(ev->arena, sizeof *s);
    if (!s || !(s->v = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *s->v)))
        return ce_nomem(ev);
    s->n = (int)n;
    if (n)
        memcpy(s->v, items, (size_t)n * sizeof *s->v);
    *out = (ce_val){.kind = mode ? CV_LIST : CV_TUPLE, .seq = s};
    return 0;
}

static int fn_module(ce_ev *ev, ce_args *a, ce_val *out, int mode);

/* ---- the table */

static const lib_fn lib[] = {
    {"softmax", W_F, fn_softmax, SM_F},
    {"softmax", W_T | W_M, fn_softmax, SM_TORCH},
    {"softmax", W_B, fn_softmax, SM_MATH},
    {"log_softmax", W_F, fn_log_softmax, SM_F},
    {"log_softmax", W_T | W_M, fn_log_softmax, SM_TORCH},
    {"Softmax", W_NN, fn_module, 0},
    {"Identity", W_NN, fn_module, 1},
    {"softmax (module)", 0, fn_softmax, SM_MODULE},
    {"identity (module)", 0, fn_identity, ID_SAME},
    {"matmul", W_T | W_M | W_NP, fn_matmul, 0},
    {"mm", W_T | W_M, fn_matmul, 1},
    {"bmm", W_T | W_M, fn_matmul, 2},
    {"dot", W_NP, fn_matmul, 0},
    {"einsum", W_T | W_NP, fn_einsum, 0},
    {"scaled_dot_product_attention", W_F, fn_sdpa, 0},
    {"transpose", W_T | W_M, fn_transpose, 0},
    {"transpose", W_NP, fn_transpose, 1},
    {"swapaxes", W_T | W_M | W_NP, fn_transpose, 0},
    {"swapdims", W_T | W_M, fn_transpose, 0},
    {"permute", W_T | W_M, fn_permute, 0},
    {"movedim", W_T | W_M, fn_movedim, 0},
    {"moveaxis", W_T | W_M | W_NP, fn_movedim, 0},
    {"t", W_T | W_M, fn_t, 0},
    {"reshape", W_T | W_M, fn_reshape, 0},
    {"reshape", W_NP, fn_reshape, 2},
    {"view", W_M, fn_reshape, 1},
    {"flatten", W_T | W_M, fn_flatten, 0},
    {"squeeze", W_T | W_M, fn_squeeze, 0},
    {"squeeze", W_NP, fn_squeeze, 1},
    {"unsqueeze", W_T | W_M, fn_unsqueeze, 0},
    {"expand_dims", W_NP, fn_unsqueeze, 1},
    {"contiguous", W_M, fn_identity, ID_CONTIGUOUS},
    {"clone", W_T | W_M, fn_identity, ID_CLONE},
    {"detach", W_T | W_M, fn_identity, ID_SAME},
    {"cpu", W_M, fn_identity, ID_SAME},
    {"cuda", W_M, fn_identity, ID_SAME},
    {"float", W_M, fn_cast, CE_FLOAT},
    {"double", W_M, fn_cast, CE_FLOAT},
    {"half", W_M, fn_cast, CE_FLOAT},
    {"bool", W_M, fn_cast, CE_BOOL},
    {"long", W_M, fn_cast, CE_INT},
    {"int", W_M, fn_cast, CE_INT},
    {"to", W_M, fn_to, 0},
    {"type_as", W_M, fn_to, 1},
    {"masked_fill", W_T | W_M, fn_masked_fill, 0},
    {"masked_fill_", W_M, fn_masked_fill, 1},
    {"where", W_T | W_NP, fn_where, 0},
    {"tril", W_T | W_M, fn_tri, 0},
    {"triu", W_T | W_M, fn_tri, 1},
    {"tril", W_NP, fn_tri, 2},
    {"triu", W_NP, fn_tri, 3},
    {"logical_not", W_T | W_M | W_NP, fn_logical, 0},
    {"logical_and", W_T | W_M | W_NP, fn_logical, 1},
    {"logical_or", W_T | W_M | W_NP, fn_logical, 2},
    {"ones", W_T, fn_fill, MK_ONES},
    {"zeros", W_T, fn_fill, MK_ZEROS},
    {"full", W_T, fn_fill, MK_FULL},
    {"ones", W_NP, fn_fill, 10 + MK_ONES},
    {"zeros", W_NP, fn_fill, 10 + MK_ZEROS},
    {"full", W_NP, fn_fill, 10 + MK_FULL},
    {"ones_like", W_T | W_NP, fn_like, MK_ONES},
    {"zeros_like", W_T | W_NP, fn_like, MK_ZEROS},
    {"full_like", W_T | W_NP, fn_like, MK_FULL},
    {"eye", W_T | W_NP, fn_eye, 0},
    {"arange", W_T | W_NP, fn_arange, 0},
    {"randn", W_T, fn_random, 0},
    {"rand", W_T, fn_random, 1},
    {"manual_seed", W_T, fn_manual_seed, 0},
    {"tensor", W_T, fn_tensor, 0},
    {"as_tensor", W_T, fn_tensor, 0},
    {"array", W_NP, fn_tensor, 0},
    {"asarray", W_NP, fn_tensor, 0},
    {"cat", W_T, fn_cat, 0},
    {"concat", W_T, fn_cat, 0},
    {"concatenate", W_T, fn_cat, 0},
    {"concatenate", W_NP, fn_cat, 2},
    {"stack", W_T, fn_cat, 1},
    {"stack", W_NP, fn_cat, 3},
    {"unbind", W_T | W_M, fn_unbind, 0},
    {"split", W_T | W_M, fn_split, 0},
    {"chunk", W_T | W_M, fn_split, 1},
    {"sum", W_T | W_M, fn_reduce, R_SUM},
    {"mean", W_T | W_M, fn_reduce, R_MEAN},
    {"prod", W_T | W_M, fn_reduce, R_PROD},
    {"max", W_T | W_M, fn_reduce, R_MAX},
    {"min", W_T | W_M, fn_reduce, R_MIN},
    {"amax", W_T | W_M, fn_reduce, R_MAX | 32},
    {"amin", W_T | W_M, fn_reduce, R_MIN | 32},
    {"argmax", W_T | W_M, fn_reduce, R_ARGMAX},
    {"argmin", W_T | W_M, fn_reduce, R_ARGMIN},
    {"sum", W_NP, fn_reduce, R_SUM | 16},
    {"mean", W_NP, fn_reduce, R_MEAN | 16},
    {"max", W_NP, fn_reduce, R_MAX | 16},
    {"min", W_NP, fn_reduce, R_MIN | 16},
    {"amax", W_NP, fn_reduce, R_MAX | 16},
    {"exp", W_T | W_M, fn_elementwise, U_EXP | EL_TENSOR},
    {"log", W_T | W_M, fn_elementwise, U_LOG | EL_TENSOR},
    {"sqrt", W_T | W_M, fn_elementwise, U_SQRT | EL_TENSOR},
    {"rsqrt", W_T | W_M, fn_elementwise, U_RSQRT | EL_TENSOR},
    {"abs", W_T | W_M, fn_elementwise, U_ABS | EL_TENSOR},
    {"sigmoid", W_T | W_M | W_F, fn_elementwise, U_SIGMOID | EL_TENSOR},
    {"tanh", W_T | W_M | W_F, fn_elementwise, U_TANH | EL_TENSOR},
    {"relu", W_T | W_M | W_F, fn_elementwise, U_RELU | EL_TENSOR},
    {"gelu", W_F, fn_elementwise, U_GELU | EL_TENSOR},
    {"isinf", W_T | W_M | W_NP, fn_elementwise, U_ISINF | EL_TENSOR},
    {"isnan", W_T | W_M | W_NP, fn_elementwise, U_ISNAN | EL_TENSOR},
    {"exp", W_NP | W_B, fn_elementwise, U_EXP | EL_ANY},
    {"log", W_NP, fn_elementwise, U_LOG | EL_ANY},
    {"sqrt", W_NP | W_B, fn_elementwise, U_SQRT | EL_ANY},
    {"abs", W_NP, fn_elementwise, U_ABS | EL_ANY},
    {"tanh", W_NP, fn_elementwise, U_TANH | EL_ANY},
    {"sqrt", W_MATH, fn_elementwise, U_SQRT | EL_NUMBER},
    {"exp", W_MATH, fn_elementwise, U_EXP | EL_NUMBER},
    {"log", W_MATH, fn_elementwise, U_LOG | EL_NUMBER},
    {"tanh", W_MATH, fn_elementwise, U_TANH | EL_NUMBER},
    {"fabs", W_MATH, fn_elementwise, U_ABS | EL_NUMBER},
    {"abs", W_B, fn_elementwise, U_ABS | EL_ANY},
    {"pow", W_T | W_M | W_B, fn_pow, 0},
    {"power", W_NP, fn_pow, 0},
    {"pow", W_MATH, fn_pow, 1},
    {"size", W_M, fn_size, 0},
    {"dim", W_M, fn_size, 1},
    {"ndimension", W_M, fn_size, 1},
    {"numel", W_T | W_M, fn_size, 2},
    {"item", W_M, fn_size, 3},
    {"rearrange", W_E | W_B, fn_rearrange, 0},
    {"float", W_B, fn_float, 0},
    {"int", W_B, fn_float, 1},
    {"len", W_B, fn_len, 0},
    {"range", W_B, fn_range, 0},
    {"print", W_B, fn_print, 0},
    {"max", W_B, fn_minmax, 0},
    {"min", W_B, fn_minmax, 1},
    {"sum", W_B, fn_sum_builtin, 0},
    {"tuple", W_B, fn_seq, 0},
    {"list", W_B, fn_seq, 1},
};
#define N_LIB ((int)(sizeof lib / sizeof lib[0]))

static int lib_index(const char *name, unsigned where)
{
    for (int i = 0; i < N_LIB; i++)
        if ((lib[i].where & where) && !strcmp(lib[i].name, name))
            return i;
    return -1;
}

/* nn.Softmax(dim) and nn.Identity(): a module object, called later on its input */
static int fn_module(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    if (mode == 0) {
        fn_softmax_module(ev, a, out, 0);
        if (ev->status != QZ_CODE_RAN)
            return -1;
        out->fn = lib_index("softmax (module)", 0);
        if (out->fn < 0) {
            for (int i = 0; i < N_LIB; i++)
                if (!strcmp(lib[i].name, "softmax (module)"))
                    out->fn = i;
        }
        return 0;
    }
    for (int i = 0; i < N_LIB; i++)
        if (!strcmp(lib[i].name, "identity (module)"))
            *out = (ce_val){.kind = CV_FUNC, .fn = i, .opt = NAN};
    return 0;
}

const char *ce_lib_name(int fn)
{
    return fn >= 0 && fn < N_LIB ? lib[fn].name : "?";
}

static const struct { const char *name; unsigned where; double value; } constants[] = {
    {"inf", W_MATH | W_NP | W_T | W_B, INFINITY}, {"nan", W_MATH | W_NP | W_T | W_B, NAN},
    {"pi", W_MATH | W_NP | W_T, M_PI}, {"e", W_MATH | W_NP | W_T, M_E},
    {"Inf", W_NP, INFINITY}, {"infty", W_NP, INFINITY},
};

static const struct { const char *name; unsigned where; ce_dtype dt; } dtypes[] = {
    {"bool", W_T, CE_BOOL}, {"bool_", W_NP, CE_BOOL}, {"float", W_T, CE_FLOAT},
    {"float32", W_T | W_NP, CE_FLOAT}, {"float64", W_T | W_NP, CE_FLOAT}, {"double", W_T, CE_FLOAT},
    {"float16", W_T | W_NP, CE_FLOAT}, {"half", W_T, CE_FLOAT}, {"bfloat16", W_T, CE_FLOAT},
    {"int", W_T, CE_INT}, {"int32", W_T | W_NP, CE_INT}, {"int64", W_T | W_NP, CE_INT},
    {"long", W_T, CE_INT}, {"uint8", W_T | W_NP, CE_INT}, {"int8", W_T | W_NP, CE_INT},
};

static unsigned where_of(int mod)
{
    switch (mod) {
    case MOD_TORCH: return W_T;
    case MOD_NN: return W_NN;
    case MOD_F: return W_F;
    case MOD_MATH: return W_MATH;
    case MOD_NP: return W_NP;
    case MOD_EINOPS: return W_E;
    default: return W_B;
    }
}

int ce_lib_attr(ce_ev *ev, int mod, const char *name, ce_val *out)
{
    (void)ev;
    if (mod == MOD_TORCH && !strcmp(name, "nn")) {
        *out = (ce_val){.kind = CV_MODULE, .fn = MOD_NN};
        return 0;
    }
    if (mod == MOD_NN && !strcmp(name, "functional")) {
        *out = (ce_val){.kind = CV_MODULE, .fn = MOD_F};
        return 0;
    }
    unsigned w = where_of(mod);
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++)
        if ((constants[i].where & w) && !strcmp(constants[i].name, name)) {
            *out = num(constants[i].value, CE_FLOAT);
            return 0;
        }
    for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
        if ((dtypes[i].where & w) && !strcmp(dtypes[i].name, name)) {
            *out = (ce_val){.kind = CV_DTYPE, .ntype = dtypes[i].dt};
            return 0;
        }
    int i = lib_index(name, w);
    if (i < 0)
        return -1;
    *out = (ce_val){.kind = CV_FUNC, .fn = i, .opt = NAN};
    return 0;
}

int ce_lib_builtin(ce_ev *ev, const char *name, ce_val *out)
{
    return ce_lib_attr(ev, -1, name, out);
}

int ce_lib_tensor_attr(ce_ev *ev, ce_val *self, const char *name, ce_val *out)
{
    const ce_tensor *t = self->t;
    if (!strcmp(name, "shape"))
        return shape_tuple(ev, t, out);
    if (!strcmp(name, "ndim")) {
        *out = num(t->ndim, CE_INT);
        return 0;
    }
    if (!strcmp(name, "dtype")) {
        *out = (ce_val){.kind = CV_DTYPE, .ntype = t->dtype};
        return 0;
    }
    if (!strcmp(name, "data")) {
        *out = *self;
        return 0;
    }
    if (!strcmp(name, "device")) {
        *out = (ce_val){.kind = CV_STR, .str = "cpu"};
        return 0;
    }
    if (!strcmp(name, "T")) {   /* every axis reversed (PyTorch warns beyond 2) */
        int perm[CE_MAXD];
        for (int i = 0; i < t->ndim; i++)
            perm[i] = t->ndim - 1 - i;
        return set_tensor(out, ct_permute(ev, t, perm));
    }
    if (!strcmp(name, "mT")) {
        if (t->ndim < 2)
            return ce_raise(ev, ".mT needs a tensor of at least 2 axes");
        return set_tensor(out, ct_transpose(ev, t, t->ndim - 2, t->ndim - 1));
    }
    int i = lib_index(name, W_M);
    if (i < 0)
        return ce_unread(ev, "the grader does not know the tensor method '%s'", name);
    *out = (ce_val){.kind = CV_FUNC, .fn = i, .self = self, .opt = NAN};
    return 0;
}

int ce_lib_call(ce_ev *ev, const ce_val *fn, ce_args *a, ce_val *out)
{
    if (fn->fn < 0 || fn->fn >= N_LIB)
        return ce_unread(ev, "the grader cannot call this");
    const lib_fn *f = &lib[fn->fn];
    a->fname = f->name;
    if (fn->self) {   /* a method: the tensor first */
        ce_val *pos = ce_alloc(ev->arena, (size_t)(a->n_pos + 1) * sizeof *pos);
        if (!pos)
            return ce_nomem(ev);
        pos[0] = *fn->self;
        if (a->n_pos)
            memcpy(pos + 1, a->pos, (size_t)a->n_pos * sizeof *pos);
        a->pos = pos;
        a->n_pos++;
    }
    if (f->fn == fn_softmax && f->mode == SM_MODULE) {
        a->fname = "Softmax";
        return do_softmax(ev, a, out, SM_MODULE, 0, fn->opt);
    }
    int rc = f->fn(ev, a, out, f->mode);
    return rc < 0 || ev->status != QZ_CODE_RAN ? -1 : 0;
}
