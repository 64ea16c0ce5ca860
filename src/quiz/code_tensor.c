/* Tensor operations of the code evaluator, with PyTorch's rules: broadcasting, type
 * promotion (bool < integer < float), matmul's batch axes, softmax (a row of −∞ only gives
 * NaN), reshape and view (view raises where PyTorch's strides would not allow it),
 * reductions, where, tril and triu, cat and stack (indexing: code_index.c; einsum and
 * rearrange: code_einsum.c). Shapes are row-major; every result is a new tensor in the
 * run's arena (see quiz/code_impl.h). */
#include "quiz/code_impl.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *ct_shape_text(const long *shape, int ndim, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%ld", i ? ", " : "", shape[i]);
    if (n < cap)
        snprintf(buf + n, cap - n, ndim == 1 ? ",)" : ")");
    return buf;
}

void ct_contiguous_strides(ce_tensor *t)
{
    long s = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        t->stride[i] = s;
        s *= t->shape[i] > 0 ? t->shape[i] : 1;
    }
}

ce_tensor *ct_new(ce_ev *ev, ce_dtype dt, int ndim, const long *shape)
{
    if (ndim > CE_MAXD) {
        ce_unread(ev, "a tensor of more than %d axes is too large for the grader", CE_MAXD);
        return NULL;
    }
    long numel = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            ce_raise(ev, "a size cannot be negative (%ld)", shape[i]);
            return NULL;
        }
        if (shape[i] > QZ_CODE_MAX_NUMEL || (numel *= shape[i]) > QZ_CODE_MAX_NUMEL) {
            ce_unread(ev, "a tensor this large is too large for the grader (at most %d numbers)",
                      QZ_CODE_MAX_NUMEL);
            return NULL;
        }
    }
    ce_tensor *t = ce_alloc(ev->arena, sizeof *t);
    if (!t || !(t->data = ce_alloc(ev->arena, (size_t)(numel ? numel : 1) * sizeof *t->data))) {
        ce_nomem(ev);
        return NULL;
    }
    t->dtype = dt;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++)
        t->shape[i] = shape[i];
    t->numel = numel;
    ct_contiguous_strides(t);
    return t;
}

ce_tensor *ct_copy(ce_ev *ev, const ce_tensor *a)
{
    ce_tensor *t = ct_new(ev, a->dtype, a->ndim, a->shape);
    if (t) {
        memcpy(t->data, a->data, (size_t)a->numel * sizeof *t->data);
        memcpy(t->stride, a->stride, sizeof t->stride);
    }
    return t;
}

ce_tensor *ct_scalar(ce_ev *ev, ce_dtype dt, double x)
{
    ce_tensor *t = ct_new(ev, dt, 0, NULL);
    if (t)
        t->data[0] = x;
    return t;
}

int ct_dim(ce_ev *ev, long dim, int ndim, int *out)
{
    int n = ndim ? ndim : 1;
    *out = 0;
    if (dim < -n || dim >= n)
        return ce_raise(ev, "dimension %ld is out of range for a tensor of %d axes (from %d to %d)",
                        dim, ndim, -n, n - 1);
    *out = (int)(dim < 0 ? dim + n : dim);
    return 0;
}

/* bool < int < float as a rank */
static int rank(ce_dtype d)
{
    return d == CE_BOOL ? 0 : d == CE_INT ? 1 : 2;
}

/* The type of a result of a and b: the wider (PyTorch's type promotion by category). */
static ce_dtype wider(ce_dtype a, ce_dtype b)
{
    return rank(a) >= rank(b) ? a : b;
}

/* Nested lists of numbers (and tensors) as a tensor. */
static int nested_shape(ce_ev *ev, const ce_val *v, int depth, long *shape, int *ndim, ce_dtype *dt)
{
    if (depth > CE_MAXD)
        return ce_unread(ev, "a list nested this deep is too large for the grader");
    if (v->kind == CV_NUM) {
        if (*ndim < 0)
            *ndim = depth;
        else if (*ndim != depth)
            return ce_raise(ev, "the lists are not of one shape");
        *dt = wider(*dt, v->ntype);
        return 0;
    }
    if (v->kind == CV_TENSOR && v->t->ndim == 0) {
        if (*ndim < 0)
            *ndim = depth;
        *dt = wider(*dt, v->t->dtype);
        return 0;
    }
    if (v->kind != CV_TUPLE && v->kind != CV_LIST)
        return ce_raise(ev, "a tensor is made of numbers, not of this");
    if (depth >= CE_MAXD)
        return ce_unread(ev, "a list nested this deep is too large for the grader");
    if (shape[depth] < 0)
        shape[depth] = v->seq->n;
    else if (shape[depth] != v->seq->n)
        return ce_raise(ev, "the lists are not of one shape");
    for (int i = 0; i < v->seq->n; i++)
        if (nested_shape(ev, &v->seq->v[i], depth + 1, shape, ndim, dt))
            return -1;
    if (!v->seq->n && *ndim < 0)
        *ndim = depth + 1;
    return 0;
}

static void nested_fill(const ce_val *v, double **p)
{
    if (v->kind == CV_NUM)
        *(*p)++ = v->num;
    else if (v->kind == CV_TENSOR)
        *(*p)++ = v->t->data[0];
    else
        for (int i = 0; i < v->seq->n; i++)
            nested_fill(&v->seq->v[i], p);
}

ce_tensor *ct_of(ce_ev *ev, const ce_val *v, ce_dtype want)
{
    (void)want;
    if (v->kind == CV_TENSOR)
        return v->t;
    if (v->kind == CV_NUM)
        return ct_scalar(ev, v->ntype, v->num);
    if (v->kind == CV_TUPLE || v->kind == CV_LIST) {
        long shape[CE_MAXD + 1];
        for (int i = 0; i <= CE_MAXD; i++)
            shape[i] = -1;
        int ndim = -1;
        ce_dtype dt = CE_BOOL;
        if (nested_shape(ev, v, 0, shape, &ndim, &dt))
            return NULL;
        for (int i = 0; i < ndim; i++)
            if (shape[i] < 0)
                shape[i] = 0;
        ce_tensor *t = ct_new(ev, dt, ndim, shape);
        if (!t)
            return NULL;
        double *p = t->data;
        nested_fill(v, &p);
        return t;
    }
    ce_raise(ev, "a tensor or a number is needed here");
    return NULL;
}

/* ---- broadcasting */

int ct_broadcast(ce_ev *ev, const ce_tensor *a, const ce_tensor *b, int *ndim, long *shape)
{
    int n = a->ndim > b->ndim ? a->ndim : b->ndim;
    for (int i = 0; i < n; i++) {
        int ia = i - (n - a->ndim), ib = i - (n - b->ndim);
        long sa = ia >= 0 ? a->shape[ia] : 1, sb = ib >= 0 ? b->shape[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            char x[64], y[64];
            return ce_raise(ev, "the shapes %s and %s do not broadcast together (%ld against %ld)",
                            ct_shape_text(a->shape, a->ndim, x, sizeof x),
                            ct_shape_text(b->shape, b->ndim, y, sizeof y), sa, sb);
        }
        shape[i] = sa == 1 ? sb : sa;
    }
    *ndim = n;
    return 0;
}

/* Steps of t's data per axis of a broadcast shape of ndim axes (0 where t has size 1). */
void ct_bsteps(const ce_tensor *t, int ndim, long *steps)
{
    long s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        int it = i - (ndim - t->ndim);
        long size = it >= 0 ? t->shape[it] : 1;
        steps[i] = size == 1 ? 0 : s;
        s *= size;
    }
}

/* Next multi-index of shape; the offsets of each operand advanced. 0 at the end. */
static int next_index(int ndim, const long *shape, long *idx, long *off, const long *const *steps, int n_ops)
{
    for (int d = ndim - 1; d >= 0; d--) {
        idx[d]++;
        for (int k = 0; k < n_ops; k++)
            off[k] += steps[k][d];
        if (idx[d] < shape[d])
            return 1;
        for (int k = 0; k < n_ops; k++)
            off[k] -= steps[k][d] * shape[d];
        idx[d] = 0;
    }
    return 0;
}

static double floordiv(double x, double y)
{
    return floor(x / y);
}

ce_tensor *ct_binary(ce_ev *ev, enum ct_binop op, const ce_tensor *a, const ce_tensor *b)
{
    if (op == B_SUB && (a->dtype == CE_BOOL || b->dtype == CE_BOOL)) {
        ce_raise(ev, "subtraction with a bool tensor is not supported: to turn a mask around, use ~ "
                     "or logical_not()");
        return NULL;
    }
    if ((op == B_AND || op == B_OR || op == B_XOR) && (a->dtype == CE_FLOAT || b->dtype == CE_FLOAT)) {
        ce_raise(ev, "& | ^ take bool or integer tensors, not floats");
        return NULL;
    }
    if ((op == B_FLOORDIV || op == B_MOD) && a->dtype != CE_FLOAT && b->dtype != CE_FLOAT)
        for (long i = 0; i < b->numel; i++)
            if (b->data[i] == 0) {
                ce_raise(ev, "integer division by zero");
                return NULL;
            }
    int ndim;
    long shape[CE_MAXD];
    if (ct_broadcast(ev, a, b, &ndim, shape))
        return NULL;
    ce_dtype dt = wider(a->dtype, b->dtype);
    if (op >= B_EQ && op <= B_GE)
        dt = CE_BOOL;
    else if (op == B_DIV)
        dt = CE_FLOAT;
    else if (op == B_POW && dt == CE_BOOL)
        dt = CE_INT;
    ce_tensor *t = ct_new(ev, dt, ndim, shape);
    if (!t)
        return NULL;
    long sa[CE_MAXD], sb[CE_MAXD], idx[CE_MAXD] = {0}, off[2] = {0, 0};
    ct_bsteps(a, ndim, sa);
    ct_bsteps(b, ndim, sb);
    const long *steps[2] = {sa, sb};
    for (long i = 0; i < t->numel; i++) {
        double x = a->data[off[0]], y = b->data[off[1]], r;
        switch (op) {
        case B_ADD: r = x + y; break;
        case B_SUB: r = x - y; break;
        case B_MUL: r = x * y; break;
        case B_DIV: r = x / y; break;
        case B_FLOORDIV: r = floordiv(x, y); break;
        case B_MOD: r = x - y * floordiv(x, y); break;
        case B_POW: r = pow(x, y); break;
        case B_EQ: r = x == y; break;
        case B_NE: r = x != y; break;
        case B_LT: r = x < y; break;
        case B_LE: r = x <= y; break;
        case B_GT: r = x > y; break;
        case B_GE: r = x >= y; break;
        case B_AND: r = (double)(ce_long_of(x) & ce_long_of(y)); break;
        case B_OR: r = (double)(ce_long_of(x) | ce_long_of(y)); break;
        case B_XOR: r = (double)(ce_long_of(x) ^ ce_long_of(y)); break;
        case B_MAX: r = isnan(x) || isnan(y) ? NAN : x > y ? x : y; break;
        default: r = isnan(x) || isnan(y) ? NAN : x < y ? x : y; break;
        }
        if (dt == CE_BOOL)
            r = r != 0;
        t->data[i] = r;
        next_index(ndim, shape, idx, off, steps, 2);
    }
    return t;
}

ce_tensor *ct_cast(ce_ev *ev, const ce_tensor *a, ce_dtype dt)
{
    ce_tensor *t = ct_copy(ev, a);
    if (!t)
        return NULL;
    t->dtype = dt;
    for (long i = 0; i < t->numel; i++)
        t->data[i] = dt == CE_BOOL ? t->data[i] != 0 : dt == CE_INT ? trunc(t->data[i]) : t->data[i];
    ct_contiguous_strides(t);
    return t;
}

ce_tensor *ct_unary(ce_ev *ev, enum ct_unop op, const ce_tensor *a)
{
    if (op == U_NEG && a->dtype == CE_BOOL) {
        ce_raise(ev, "negation with - of a bool tensor is not supported: to turn a mask around, use ~ "
                     "or logical_not()");
        return NULL;
    }
    if (op == U_NOT && a->dtype == CE_FLOAT) {
        ce_raise(ev, "~ takes a bool or integer tensor, not floats");
        return NULL;
    }
    ce_dtype dt = op == U_NEG || op == U_NOT || op == U_ABS || op == U_RELU ? a->dtype
                : op == U_ISINF || op == U_ISNAN ? CE_BOOL : CE_FLOAT;
    if (op == U_ABS && dt == CE_BOOL)
        dt = CE_BOOL;
    ce_tensor *t = ct_new(ev, dt, a->ndim, a->shape);
    if (!t)
        return NULL;
    for (long i = 0; i < a->numel; i++) {
        double x = a->data[i], r;
        switch (op) {
        case U_NEG: r = -x; break;
        case U_NOT: r = a->dtype == CE_BOOL ? !x : -x - 1; break;
        case U_EXP: r = exp(x); break;
        case U_LOG: r = log(x); break;
        case U_SQRT: r = sqrt(x); break;
        case U_RSQRT: r = 1 / sqrt(x); break;
        case U_ABS: r = fabs(x); break;
        case U_SIGMOID: r = 1 / (1 + exp(-x)); break;
        case U_TANH: r = tanh(x); break;
        case U_RELU: r = x > 0 ? x : 0; break;
        case U_ISINF: r = isinf(x) != 0; break;
        case U_ISNAN: r = isnan(x) != 0; break;
        default: r = 0.5 * x * (1 + erf(x / sqrt(2))); break;
        }
        t->data[i] = r;
    }
    return t;
}

/* ---- matrix products */

ce_tensor *ct_matmul(ce_ev *ev, const ce_tensor *a, const ce_tensor *b, const char *what)
{
    if (!a->ndim || !b->ndim) {
        ce_raise(ev, "%s needs tensors of at least 1 axis, not a number", what);
        return NULL;
    }
    if (a->dtype == CE_BOOL || b->dtype == CE_BOOL) {
        ce_raise(ev, "%s of a bool tensor is not supported: turn it into floats first (.float())", what);
        return NULL;
    }
    /* a (…, n, k) @ b (…, k, m); a 1-D operand is a row or a column, removed after */
    long am = a->ndim == 1 ? 1 : a->shape[a->ndim - 2], ak = a->shape[a->ndim - 1];
    long bk = b->ndim == 1 ? b->shape[0] : b->shape[b->ndim - 2], bm = b->ndim == 1 ? 1 : b->shape[b->ndim - 1];
    if (ak != bk) {
        char x[64], y[64];
        ce_raise(ev, "%s: the shapes %s and %s cannot be multiplied (%ld columns against %ld rows)", what,
                 ct_shape_text(a->shape, a->ndim, x, sizeof x), ct_shape_text(b->shape, b->ndim, y, sizeof y),
                 ak, bk);
        return NULL;
    }
    /* the batch axes broadcast */
    ce_tensor ba = {.ndim = a->ndim > 2 ? a->ndim - 2 : 0}, bb = {.ndim = b->ndim > 2 ? b->ndim - 2 : 0};
    memcpy(ba.shape, a->shape, sizeof(long) * (size_t)ba.ndim);
    memcpy(bb.shape, b->shape, sizeof(long) * (size_t)bb.ndim);
    int nb;
    long bshape[CE_MAXD];
    if (ct_broadcast(ev, &ba, &bb, &nb, bshape))
        return NULL;
    long shape[CE_MAXD];
    int ndim = nb;
    memcpy(shape, bshape, sizeof(long) * (size_t)nb);
    if (a->ndim > 1)
        shape[ndim++] = am;
    if (b->ndim > 1)
        shape[ndim++] = bm;
    ce_tensor *t = ct_new(ev, a->dtype == CE_FLOAT || b->dtype == CE_FLOAT ? CE_FLOAT : CE_INT, ndim, shape);
    if (!t)
        return NULL;
    long batch = 1;
    for (int i = 0; i < nb; i++)
        batch *= bshape[i];
    long sa[CE_MAXD], sb[CE_MAXD], idx[CE_MAXD] = {0}, off[2] = {0, 0};
    ba.numel = bb.numel = 1;
    ct_bsteps(&ba, nb, sa);
    ct_bsteps(&bb, nb, sb);
    const long *steps[2] = {sa, sb};
    long amat = am * ak, bmat = bk * bm;
    for (long k = 0; k < batch; k++) {
        const double *pa = a->data + off[0] * amat, *pb = b->data + off[1] * bmat;
        double *pt = t->data + k * am * bm;
        for (long i = 0; i < am; i++)
            for (long j = 0; j < bm; j++) {
                double s = 0;
                for (long l = 0; l < ak; l++)
                    s += pa[i * ak + l] * pb[l * bm + j];
                pt[i * bm + j] = s;
            }
        if (nb)
            next_index(nb, bshape, idx, off, steps, 2);
        if (ce_tick(ev))
            return NULL;
    }
    return t;
}

/* ---- along one axis: outer × size × inner */

static void split_at(const ce_tensor *a, int dim, long *outer, long *size, long *inner)
{
    *outer = *inner = 1;
    for (int i = 0; i < dim; i++)
        *outer *= a->shape[i];
    for (int i = dim + 1; i < a->ndim; i++)
        *inner *= a->shape[i];
    *size = a->ndim ? a->shape[dim] : 1;
}

ce_tensor *ct_softmax(ce_ev *ev, const ce_tensor *a, int dim, int log_)
{
    ce_tensor *t = ct_new(ev, CE_FLOAT, a->ndim, a->shape);
    if (!t)
        return NULL;
    long outer, size, inner;
    split_at(a, dim, &outer, &size, &inner);
    for (long o = 0; o < outer; o++)
        for (long in = 0; in < inner; in++) {
            const double *x = a->data + o * size * inner + in;
            double *y = t->data + o * size * inner + in;
            double m = -INFINITY, s = 0;
            int nan = 0;
            for (long k = 0; k < size; k++) {
                nan |= isnan(x[k * inner]);
                if (x[k * inner] > m)
                    m = x[k * inner];
            }
            if (nan)
                m = NAN;
            for (long k = 0; k < size; k++)
                s += exp(x[k * inner] - m);   /* a row of −∞ only: −∞ − (−∞) is NaN */
            for (long k = 0; k < size; k++)
                y[k * inner] = log_ ? x[k * inner] - m - log(s) : exp(x[k * inner] - m) / s;
        }
    return t;
}

ce_tensor *ct_permute(ce_ev *ev, const ce_tensor *a, const int *perm)
{
    long shape[CE_MAXD];
    int seen[CE_MAXD] = {0};
    for (int i = 0; i < a->ndim; i++) {
        if (perm[i] < 0 || perm[i] >= a->ndim || seen[perm[i]]++) {
            ce_raise(ev, "the axes of a permutation must be each axis once");
            return NULL;
        }
        shape[i] = a->shape[perm[i]];
    }
    ce_tensor *t = ct_new(ev, a->dtype, a->ndim, shape);
    if (!t)
        return NULL;
    long src[CE_MAXD], steps_a[CE_MAXD], idx[CE_MAXD] = {0}, off[1] = {0};
    long s = 1;
    for (int i = a->ndim - 1; i >= 0; i--) {
        src[i] = s;
        s *= a->shape[i];
    }
    for (int i = 0; i < a->ndim; i++)
        steps_a[i] = src[perm[i]];
    const long *steps[1] = {steps_a};
    for (long i = 0; i < t->numel; i++) {
        t->data[i] = a->data[off[0]];
        next_index(t->ndim, shape, idx, off, steps, 1);
    }
    for (int i = 0; i < a->ndim; i++)
        t->stride[i] = a->stride[perm[i]];
    return t;
}

ce_tensor *ct_transpose(ce_ev *ev, const ce_tensor *a, int d0, int d1)
{
    int perm[CE_MAXD];
    for (int i = 0; i < a->ndim; i++)
        perm[i] = i;
    perm[d0] = d1;
    perm[d1] = d0;
    return ct_permute(ev, a, perm);
}

/* PyTorch's computeStride: the strides a view of shape would have over a's memory, or
 * 0 when none can (the axes it merges are not laid out one after the other). */
static int view_strides(const ce_tensor *a, int ndim, const long *shape, long *out)
{
    if (a->ndim == 0 || a->numel == 0) {
        long s = 1;
        for (int i = ndim - 1; i >= 0; i--) {
            out[i] = s;
            s *= shape[i] ? shape[i] : 1;
        }
        return 1;
    }
    int view_d = ndim - 1;
    long chunk_base = a->stride[a->ndim - 1], tensor_numel = 1, view_numel = 1;
    for (int d = a->ndim - 1; d >= 0; d--) {
        tensor_numel *= a->shape[d];
        if (d == 0 || (a->shape[d - 1] != 1 && a->stride[d - 1] != tensor_numel * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
                out[view_d] = view_numel * chunk_base;
                view_numel *= shape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel)
                return 0;
            if (d > 0) {
                chunk_base = a->stride[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

ce_tensor *ct_reshape(ce_ev *ev, const ce_tensor *a, int ndim, const long *shape_in, int view)
{
    long shape[CE_MAXD];
    int infer = -1;
    long known = 1;
    char want[96];
    if (ndim > CE_MAXD) {
        ce_unread(ev, "a tensor of more than %d axes is too large for the grader", CE_MAXD);
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        shape[i] = shape_in[i];
        if (shape[i] == -1) {
            if (infer >= 0) {
                ce_raise(ev, "only one size can be -1");
                return NULL;
            }
            infer = i;
        } else if (shape[i] < 0) {
            ce_raise(ev, "a size cannot be negative (%ld)", shape[i]);
            return NULL;
        } else if (shape[i] > QZ_CODE_MAX_NUMEL) {
            ce_raise(ev, "the shape %s does not fit a tensor of %ld numbers",
                     ct_shape_text(shape_in, ndim, want, sizeof want), a->numel);
            return NULL;
        } else {
            known *= shape[i];
        }
    }
    if (infer >= 0) {
        if (known == 0 || a->numel % known) {
            ce_raise(ev, "the shape %s does not fit a tensor of %ld numbers",
                     ct_shape_text(shape_in, ndim, want, sizeof want), a->numel);
            return NULL;
        }
        shape[infer] = a->numel / known;
        known *= shape[infer];
    }
    if (known != a->numel) {
        ce_raise(ev, "the shape %s does not fit a tensor of %ld numbers",
                 ct_shape_text(shape, ndim, want, sizeof want), a->numel);
        return NULL;
    }
    long strides[CE_MAXD];
    int ok = view_strides(a, ndim, shape, strides);
    if (view && !ok) {
        ce_raise(ev, "view() cannot give this tensor the shape %s: after a transpose its axes are "
                     "not in memory order; use .reshape(…) or .contiguous().view(…)",
                 ct_shape_text(shape, ndim, want, sizeof want));
        return NULL;
    }
    ce_tensor *t = ct_new(ev, a->dtype, ndim, shape);
    if (!t)
        return NULL;
    memcpy(t->data, a->data, (size_t)a->numel * sizeof *t->data);
    if (ok)
        memcpy(t->stride, strides, sizeof(long) * (size_t)ndim);
    return t;
}

ce_tensor *ct_reduce(ce_ev *ev, enum ct_reduce op, const ce_tensor *a, unsigned dims, int keepdim)
{
    if (!dims)
        dims = (1u << a->ndim) - 1;
    long shape[CE_MAXD], keep[CE_MAXD];
    int ndim = 0;
    long count = 1;
    for (int i = 0; i < a->ndim; i++) {
        int r = (dims >> i) & 1;
        keep[i] = r ? 1 : a->shape[i];
        if (r)
            count *= a->shape[i];
        if (!r || keepdim)
            shape[ndim++] = r ? 1 : a->shape[i];
    }
    if ((op == R_MAX || op == R_MIN || op == R_ARGMAX || op == R_ARGMIN) && count == 0) {
        ce_raise(ev, "max() or min() of an empty tensor");
        return NULL;
    }
    ce_dtype dt = op == R_MEAN ? CE_FLOAT : op == R_ARGMAX || op == R_ARGMIN ? CE_INT
                : (op == R_SUM || op == R_PROD) && a->dtype == CE_BOOL ? CE_INT : a->dtype;
    if (op == R_MEAN && a->dtype != CE_FLOAT) {
        ce_raise(ev, "mean() takes a float tensor (not bool or integers): call .float() first");
        return NULL;
    }
    ce_tensor *t = ct_new(ev, dt, ndim, shape);
    if (!t)
        return NULL;
    /* the reduced place of every element: its index with the reduced axes set to 0 */
    long src_step[CE_MAXD], dst_step[CE_MAXD];
    long s = 1;
    for (int i = a->ndim - 1; i >= 0; i--) {
        dst_step[i] = keep[i] == 1 && ((dims >> i) & 1) ? 0 : s;
        s *= keep[i];
    }
    (void)src_step;
    char *seen = ce_alloc(ev->arena, (size_t)(t->numel ? t->numel : 1));
    long *arg = ce_alloc(ev->arena, (size_t)(t->numel ? t->numel : 1) * sizeof *arg);
    if (!seen || !arg) {
        ce_nomem(ev);
        return NULL;
    }
    long idx[CE_MAXD] = {0}, off[1] = {0};
    const long *steps[1] = {dst_step};
    for (long i = 0; i < a->numel; i++) {
        double x = a->data[i];
        long o = off[0];
        long pos = 0;   /* position along the reduced axes (argmax of one axis) */
        for (int d = 0; d < a->ndim; d++)
            if ((dims >> d) & 1)
                pos = pos * a->shape[d] + idx[d];
        double *y = &t->data[o];
        switch (op) {
        case R_SUM:
        case R_MEAN: *y += x; break;
        case R_PROD: *y = seen[o] ? *y * x : x; break;
        case R_MAX:
        case R_ARGMAX:
            if (!seen[o] || x > *y || isnan(x)) {
                if (!(seen[o] && isnan(*y))) {
                    *y = x;
                    arg[o] = pos;
                }
            }
            break;
        default:
            if (!seen[o] || x < *y || isnan(x)) {
                if (!(seen[o] && isnan(*y))) {
                    *y = x;
                    arg[o] = pos;
                }
            }
        }
        seen[o] = 1;
        next_index(a->ndim, a->shape, idx, off, steps, 1);
    }
    for (long i = 0; i < t->numel; i++) {
        if (op == R_MEAN)
            t->data[i] /= (double)count;
        else if (op == R_ARGMAX || op == R_ARGMIN)
            t->data[i] = (double)arg[i];
    }
    return t;
}

ce_tensor *ct_where(ce_ev *ev, const ce_tensor *c, const ce_tensor *a, const ce_tensor *b)
{
    if (c->dtype != CE_BOOL) {
        ce_raise(ev, "where() takes a bool condition (a mask of True and False)");
        return NULL;
    }
    int n1, ndim;
    long s1[CE_MAXD], shape[CE_MAXD];
    if (ct_broadcast(ev, c, a, &n1, s1))
        return NULL;
    ce_tensor tmp = {.ndim = n1};
    memcpy(tmp.shape, s1, sizeof s1);
    if (ct_broadcast(ev, &tmp, b, &ndim, shape))
        return NULL;
    ce_tensor *t = ct_new(ev, wider(a->dtype, b->dtype), ndim, shape);
    if (!t)
        return NULL;
    long sc[CE_MAXD], sa[CE_MAXD], sb[CE_MAXD], idx[CE_MAXD] = {0}, off[3] = {0, 0, 0};
    ct_bsteps(c, ndim, sc);
    ct_bsteps(a, ndim, sa);
    ct_bsteps(b, ndim, sb);
    const long *steps[3] = {sc, sa, sb};
    for (long i = 0; i < t->numel; i++) {
        t->data[i] = c->data[off[0]] != 0 ? a->data[off[1]] : b->data[off[2]];
        next_index(ndim, shape, idx, off, steps, 3);
    }
    return t;
}

ce_tensor *ct_tri(ce_ev *ev, const ce_tensor *a, long diagonal, int upper)
{
    if (a->ndim < 2) {
        ce_raise(ev, "%s needs a tensor of at least 2 axes", upper ? "triu()" : "tril()");
        return NULL;
    }
    ce_tensor *t = ct_copy(ev, a);
    if (!t)
        return NULL;
    ct_contiguous_strides(t);
    long rows = a->shape[a->ndim - 2], cols = a->shape[a->ndim - 1];
    for (long i = 0; i < a->numel; i++) {
        long r = (i / cols) % rows, c = i % cols;
        if (upper ? c - r < diagonal : c - r > diagonal)
            t->data[i] = 0;
    }
    return t;
}

ce_tensor *ct_cat(ce_ev *ev, ce_tensor *const *ts, int n, long dim_in, int stack)
{
    if (n == 0) {
        ce_raise(ev, "%s needs at least one tensor", stack ? "stack()" : "cat()");
        return NULL;
    }
    const ce_tensor *f = ts[0];
    int ndim = f->ndim + (stack ? 1 : 0), dim = 0;
    if (!stack && f->ndim == 0) {
        ce_raise(ev, "cat() cannot join 0-d tensors: use stack()");
        return NULL;
    }
    if (ct_dim(ev, dim_in, ndim, &dim))
        return NULL;
    long shape[CE_MAXD];
    ce_dtype dt = f->dtype;
    for (int k = 0; k < n; k++) {
        const ce_tensor *x = ts[k];
        int same = x->ndim == f->ndim;
        for (int i = 0; same && i < f->ndim; i++)
            same = x->shape[i] == f->shape[i] || (!stack && i == dim);
        if (!same) {
            char a[64], b[64];
            if (stack)
                ce_raise(ev, "stack(): the tensors must have one shape; %s and %s differ",
                         ct_shape_text(f->shape, f->ndim, a, sizeof a), ct_shape_text(x->shape, x->ndim, b, sizeof b));
            else
                ce_raise(ev, "cat(): the tensors must have one shape but along the axis joined; %s and %s "
                             "differ", ct_shape_text(f->shape, f->ndim, a, sizeof a),
                         ct_shape_text(x->shape, x->ndim, b, sizeof b));
            return NULL;
        }
        dt = wider(dt, x->dtype);
    }
    for (int i = 0, j = 0; i < ndim; i++) {
        if (stack && i == dim) {
            shape[i] = n;
            continue;
        }
        shape[i] = f->shape[j++];
        if (!stack && i == dim) {
            shape[i] = 0;
            for (int k = 0; k < n; k++)
                shape[i] += ts[k]->shape[dim];
        }
    }
    ce_tensor *t = ct_new(ev, dt, ndim, shape);
    if (!t)
        return NULL;
    long outer, size, inner;
    split_at(t, dim, &outer, &size, &inner);
    long at = 0;
    for (int k = 0; k < n; k++) {
        long part = stack ? 1 : ts[k]->shape[dim];
        for (long o = 0; o < outer; o++)
            memcpy(t->data + (o * size + at) * inner, ts[k]->data + o * part * inner,
                   (size_t)(part * inner) * sizeof *t->data);
        at += part;
    }
    return t;
}

ce_tensor *ct_narrow(ce_ev *ev, const ce_tensor *a, int dim, long start, long len)
{
    long shape[CE_MAXD];
    memcpy(shape, a->shape, sizeof shape);
    shape[dim] = len;
    ce_tensor *t = ct_new(ev, a->dtype, a->ndim, shape);
    if (!t)
        return NULL;
    long outer, size, inner;
    split_at(a, dim, &outer, &size, &inner);
    for (long o = 0; o < outer; o++)
        memcpy(t->data + o * len * inner, a->data + (o * size + start) * inner,
               (size_t)(len * inner) * sizeof *t->data);
    memcpy(t->stride, a->stride, sizeof t->stride);
    return t;
}
