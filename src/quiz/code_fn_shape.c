/* The code evaluator's functions that move numbers about: transpose, permute, movedim,
 * .t(), reshape, view, flatten, squeeze, unsqueeze, copies and casts, cat and stack,
 * unbind, split, chunk, size (quiz/code_fn.h). */
#define _GNU_SOURCE
#include "quiz/code_fn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int cf_transpose(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    if (mode == 1) {   /* np.transpose(x, axes=None) */
        ce_val *ax = ce_arg(a, 1, "axes");
        int perm[CE_MAXD];
        if (!ax || ax->kind == CV_NONE) {
            for (int i = 0; i < x->ndim; i++)
                perm[i] = x->ndim - 1 - i;
        } else {
            long l[CE_MAXD];
            int n;
            ce_args b = {.pos = ax, .n_pos = 1, .fname = a->fname};
            if (ce_long_list(ev, &b, 0, NULL, l, &n))
                return -1;
            if (n != x->ndim)
                return ce_raise(ev, "%s(): the axes do not match the tensor's %d axes", a->fname, x->ndim);
            for (int i = 0; i < n; i++)
                if (ct_dim(ev, l[i], x->ndim, &perm[i]))
                    return -1;
        }
        return ce_set_tensor(out, ct_permute(ev, x, perm));
    }
    long d0, d1;
    int a0, a1;
    if (ce_long_arg(ev, a, 1, "dim0", 0, &d0, 1) || ce_long_arg(ev, a, 2, "dim1", 0, &d1, 1) ||
        ct_dim(ev, d0, x->ndim, &a0) || ct_dim(ev, d1, x->ndim, &a1))
        return -1;
    return ce_set_tensor(out, ct_transpose(ev, x, a0, a1));
}

int cf_permute(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    long l[CE_MAXD];
    int n, perm[CE_MAXD];
    if (ce_long_list(ev, a, 1, "dims", l, &n))
        return -1;
    (void)mode;
    if (n != x->ndim)
        return ce_raise(ev, "permute() needs every axis of the tensor once: %d axes named, it has %d", n, x->ndim);
    for (int i = 0; i < n; i++)
        if (ct_dim(ev, l[i], x->ndim, &perm[i]))
            return -1;
    return ce_set_tensor(out, ct_permute(ev, x, perm));
}

int cf_movedim(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    long s, d;
    int src, dst;
    if (!x || ce_long_arg(ev, a, 1, "source", 0, &s, 1) || ce_long_arg(ev, a, 2, "destination", 0, &d, 1) ||
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
    return ce_set_tensor(out, ct_permute(ev, x, perm));
}

int cf_t(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    if (x->ndim > 2)
        return ce_raise(ev, "t() takes a tensor of at most 2 axes; this one has %d (use .transpose(-2, -1))",
                        x->ndim);
    return ce_set_tensor(out, x->ndim < 2 ? x : ct_transpose(ev, x, 0, 1));
}

int cf_reshape(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    long l[CE_MAXD];
    int n;
    if (mode == 1 && a->n_pos == 2 && a->pos[1].kind == CV_DTYPE)
        return ce_unread(ev, "view(dtype) is not read");
    if (ce_long_list(ev, a, 1, mode == 2 ? "newshape" : "shape", l, &n))
        return -1;
    return ce_set_tensor(out, ct_reshape(ev, x, n, l, mode == 1));
}

int cf_flatten(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    long s, e;
    int sd, ed;
    if (!x || ce_long_arg(ev, a, 1, "start_dim", 0, &s, 0) || ce_long_arg(ev, a, 2, "end_dim", -1, &e, 0))
        return -1;
    if (!x->ndim)
        return ce_set_tensor(out, ct_reshape(ev, x, 1, (long[]){1}, 0));
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
    return ce_set_tensor(out, ct_reshape(ev, x, n, shape, 0));
}

int cf_squeeze(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    long shape[CE_MAXD];
    int n = 0;
    ce_val *dv = ce_arg(a, 1, mode ? "axis" : "dim");
    if (dv && dv->kind != CV_NONE) {
        long d;
        int dd;
        if (ce_to_long(ev, a, dv, &d) || ct_dim(ev, d, x->ndim, &dd))
            return -1;
        for (int i = 0; i < x->ndim; i++)
            if (i != dd || x->shape[i] != 1)
                shape[n++] = x->shape[i];
    } else {
        for (int i = 0; i < x->ndim; i++)
            if (x->shape[i] != 1)
                shape[n++] = x->shape[i];
    }
    return ce_set_tensor(out, ct_reshape(ev, x, n, shape, 0));
}

int cf_unsqueeze(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    long d;
    int dd;
    if (!x || ce_long_arg(ev, a, 1, mode ? "axis" : "dim", 0, &d, 1) || ct_dim(ev, d, x->ndim + 1, &dd))
        return -1;
    if (x->ndim >= CE_MAXD)
        return ce_unread(ev, "a tensor of more than %d axes is too large for the grader", CE_MAXD);
    long shape[CE_MAXD];
    for (int i = 0, k = 0; i <= x->ndim; i++)
        shape[i] = i == dd ? 1 : x->shape[k++];
    return ce_set_tensor(out, ct_reshape(ev, x, x->ndim + 1, shape, 0));
}

int cf_identity(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *v = ce_arg(a, 0, "input");
    if (!v)
        return ce_missing(ev, a, "input");
    if (v->kind != CV_TENSOR || mode == ID_SAME) {
        *out = *v;
        return 0;
    }
    ce_tensor *t = ct_copy(ev, v->t);
    if (t && mode == ID_CONTIGUOUS)
        ct_contiguous_strides(t);
    return ce_set_tensor(out, t);
}

int cf_cast(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    return x ? ce_set_tensor(out, ct_cast(ev, x, (ce_dtype)mode)) : -1;
}

int cf_to(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    ce_dtype dt = x->dtype;
    int cast = ce_dtype_arg(a, "dtype", &dt);
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
        *out = ce_tval(x);
        return 0;
    }
    return ce_set_tensor(out, ct_cast(ev, x, dt));
}

int cf_cat(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *seq = ce_arg(a, 0, mode & 2 ? "arrays" : "tensors");
    if (!seq)
        return ce_missing(ev, a, "tensors");
    if (seq->kind != CV_TUPLE && seq->kind != CV_LIST)
        return ce_raise(ev, "%s() takes a list or a tuple of tensors, not a %s", a->fname,
                        seq->kind == CV_TENSOR ? "tensor" : "single value");
    long dim;
    if (ce_long_arg(ev, a, 1, mode & 2 ? "axis" : "dim", 0, &dim, 0))
        return -1;
    ce_tensor **ts = ce_alloc(ev->arena, (size_t)(seq->seq->n + 1) * sizeof *ts);
    if (!ts)
        return ce_nomem(ev);
    for (int i = 0; i < seq->seq->n; i++)
        if (!(ts[i] = ct_of(ev, &seq->seq->v[i], CE_FLOAT)))
            return -1;
    return ce_set_tensor(out, ct_cat(ev, ts, seq->seq->n, dim, mode & 1));
}

int cf_unbind(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    long d;
    int dd;
    if (!x || ce_long_arg(ev, a, 1, "dim", 0, &d, 0) || ct_dim(ev, d, x->ndim, &dd))
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
    return ce_parts_out(ev, parts, n, out);
}

int cf_split(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    ce_val *how = x ? ce_arg(a, 1, mode ? "chunks" : "split_size_or_sections") : NULL;
    long d;
    int dd;
    if (!how)
        return x ? ce_missing(ev, a, mode ? "chunks" : "split_size") : -1;
    if (ce_long_arg(ev, a, 2, "dim", 0, &d, 0) || ct_dim(ev, d, x->ndim, &dd))
        return -1;
    long size = x->ndim ? x->shape[dd] : 1, sizes[64];
    int n = 0;
    if (how->kind == CV_LIST || how->kind == CV_TUPLE) {
        if (mode)
            return ce_raise(ev, "chunk() takes a number of chunks");
        long total = 0;
        for (int i = 0; i < how->seq->n && n < 64; i++) {
            if (ce_to_long(ev, a, &how->seq->v[i], &sizes[n]))
                return -1;
            total += sizes[n++];
        }
        if (total != size)
            return ce_raise(ev, "split(): the sections add up to %ld, the axis is %ld long", total, size);
    } else {
        long k;
        if (ce_to_long(ev, a, how, &k))
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
    return ce_parts_out(ev, parts, n, out);
}

int cf_size(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    if (mode == 1) {
        *out = ce_num(x->ndim, CE_INT);
        return 0;
    }
    if (mode == 2) {
        *out = ce_num((double)x->numel, CE_INT);
        return 0;
    }
    if (mode == 3) {
        if (x->numel != 1)
            return ce_raise(ev, "item() takes a tensor of one number, not %ld", x->numel);
        *out = ce_num(x->data[0], x->dtype);
        return 0;
    }
    ce_val *d = ce_arg(a, 1, "dim");
    if (!d || d->kind == CV_NONE)
        return ce_shape_tuple(ev, x, out);
    long dim;
    int dd;
    if (ce_to_long(ev, a, d, &dim) || ct_dim(ev, dim, x->ndim, &dd))
        return -1;
    *out = ce_num((double)x->shape[dd], CE_INT);
    return 0;
}
