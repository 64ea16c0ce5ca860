/* Indexing tensors as PyTorch does: whole numbers, slices, None, ... and one bool mask
 * (x[:, ~allowed]); reading (ct_index) and assigning in place (ct_index_put). See
 * quiz/code_impl.h. */
#include "quiz/code_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- indexing */

/* What selects along the result's axes. */
typedef struct sel_axis {
    int kind;           /* 0 an axis of a sliced (src, start, step), 1 a new axis (None),
                         * 2 the places a bool mask holds True (over mask_dims axes from src) */
    int src;
    long start, step, size;
} sel_axis;

typedef struct selection {
    int ndim;
    long shape[CE_MAXD];
    sel_axis ax[CE_MAXD];
    long fixed[CE_MAXD];        /* per axis of a: the index an int picks, or -1 */
    long *mask_at;              /* kind 2: [size × mask_dims] coordinates of the True places */
    int mask_dims;
    int has_mask;
    long stride[CE_MAXD];       /* the result's strides over a's memory (no mask) */
} selection;

static int select_parts(ce_ev *ev, const ce_tensor *a, const ce_val *parts, int n, selection *s)
{
    memset(s, 0, sizeof *s);
    int used = 0, ellipsis = -1;
    for (int i = 0; i < n; i++) {
        const ce_val *p = &parts[i];
        if (p->kind == CV_ELLIPSIS) {
            if (ellipsis >= 0)
                return ce_raise(ev, "an index can hold one ... only");
            ellipsis = i;
        } else if (p->kind == CV_TENSOR && p->t->dtype == CE_BOOL && p->t->ndim > 0) {
            used += p->t->ndim;
        } else if (p->kind != CV_NONE) {
            used++;
        }
    }
    if (used > a->ndim)
        return ce_raise(ev, "too many indices for a tensor of %d axes", a->ndim);
    for (int d = 0; d < a->ndim; d++)
        s->fixed[d] = -1;
    int d = 0;
    for (int i = 0; i < n; i++) {
        const ce_val *p = &parts[i];
        if (p->kind == CV_ELLIPSIS) {
            for (int k = 0; k < a->ndim - used; k++, d++) {
                s->ax[s->ndim] = (sel_axis){0, d, 0, 1, a->shape[d]};
                s->stride[s->ndim] = a->stride[d];
                s->shape[s->ndim++] = a->shape[d];
            }
            continue;
        }
        if (s->ndim >= CE_MAXD)
            return ce_unread(ev, "a tensor of more than %d axes is too large for the grader", CE_MAXD);
        if (p->kind == CV_NONE) {
            s->ax[s->ndim] = (sel_axis){1, -1, 0, 1, 1};
            s->stride[s->ndim] = 1;
            s->shape[s->ndim++] = 1;
            continue;
        }
        if (p->kind == CV_SLICE) {
            long size = a->shape[d], step = p->has[2] ? p->r[2] : 1;
            long lo = p->has[0] ? p->r[0] : 0, hi = p->has[1] ? p->r[1] : size;
            lo = lo < 0 ? (lo + size < 0 ? 0 : lo + size) : (lo > size ? size : lo);
            hi = hi < 0 ? (hi + size < 0 ? 0 : hi + size) : (hi > size ? size : hi);
            long len = hi > lo ? (hi - lo + step - 1) / step : 0;
            s->ax[s->ndim] = (sel_axis){0, d, lo, step, len};
            s->stride[s->ndim] = a->stride[d] * step;
            s->shape[s->ndim++] = len;
            d++;
            continue;
        }
        if (p->kind == CV_TENSOR && p->t->dtype == CE_BOOL && p->t->ndim > 0) {
            const ce_tensor *m = p->t;
            if (s->has_mask)
                return ce_unread(ev, "indexing with two masks is not read");
            for (int k = 0; k < m->ndim; k++)
                if (m->shape[k] != a->shape[d + k]) {
                    char x[64], y[64];
                    return ce_raise(ev, "the mask's shape %s does not match the indexed axes of %s",
                                    ct_shape_text(m->shape, m->ndim, x, sizeof x),
                                    ct_shape_text(a->shape, a->ndim, y, sizeof y));
                }
            long count = 0;
            for (long k = 0; k < m->numel; k++)
                count += m->data[k] != 0;
            s->mask_at = ce_alloc(ev->arena, (size_t)(count * m->ndim + 1) * sizeof *s->mask_at);
            if (!s->mask_at)
                return ce_nomem(ev);
            long c = 0;
            for (long k = 0; k < m->numel; k++) {
                if (!m->data[k])
                    continue;
                long rest = k;
                for (int j = m->ndim - 1; j >= 0; j--) {
                    s->mask_at[c * m->ndim + j] = rest % m->shape[j];
                    rest /= m->shape[j];
                }
                c++;
            }
            s->ax[s->ndim] = (sel_axis){2, d, 0, 1, count};
            s->shape[s->ndim++] = count;
            s->mask_dims = m->ndim;
            s->has_mask = 1;
            d += m->ndim;
            continue;
        }
        long i0;
        if (p->kind == CV_NUM && p->ntype != CE_FLOAT)
            i0 = ce_long_of(p->num);
        else if (p->kind == CV_TENSOR && p->t->ndim == 0 && p->t->dtype == CE_INT)
            i0 = ce_long_of(p->t->data[0]);
        else if (p->kind == CV_TENSOR || p->kind == CV_LIST || p->kind == CV_TUPLE)
            return ce_unread(ev, "indexing with a list or an integer tensor is not read; use slices, "
                                 "whole numbers or a bool mask");
        else
            return ce_raise(ev, "an index must be a whole number, a slice, None, ... or a bool mask");
        if (i0 < -a->shape[d] || i0 >= a->shape[d])
            return ce_raise(ev, "index %ld is out of range for an axis of size %ld", i0, a->shape[d]);
        s->fixed[d] = i0 < 0 ? i0 + a->shape[d] : i0;
        d++;
    }
    for (; d < a->ndim; d++) {   /* the axes not named are taken whole */
        if (s->ndim >= CE_MAXD)
            return ce_unread(ev, "a tensor of more than %d axes is too large for the grader", CE_MAXD);
        s->ax[s->ndim] = (sel_axis){0, d, 0, 1, a->shape[d]};
        s->stride[s->ndim] = a->stride[d];
        s->shape[s->ndim++] = a->shape[d];
    }
    long numel = 1;
    for (int i = 0; i < s->ndim; i++)
        if ((numel *= s->shape[i] ? s->shape[i] : 1) > QZ_CODE_MAX_NUMEL)
            return ce_unread(ev, "a tensor this large is too large for the grader (at most %d numbers)",
                             QZ_CODE_MAX_NUMEL);
    return 0;
}

/* The offset in a's data of the result's element at idx. */
static long sel_offset(const ce_tensor *a, const selection *s, const long *idx)
{
    long coord[CE_MAXD];
    for (int d = 0; d < a->ndim; d++)
        coord[d] = s->fixed[d];
    for (int i = 0; i < s->ndim; i++) {
        const sel_axis *x = &s->ax[i];
        if (x->kind == 0)
            coord[x->src] = x->start + idx[i] * x->step;
        else if (x->kind == 2)
            for (int j = 0; j < s->mask_dims; j++)
                coord[x->src + j] = s->mask_at[idx[i] * s->mask_dims + j];
    }
    long off = 0;
    for (int d = 0; d < a->ndim; d++)
        off = off * a->shape[d] + coord[d];
    return off;
}

ce_tensor *ct_index(ce_ev *ev, const ce_tensor *a, const ce_val *parts, int n)
{
    selection s;
    if (select_parts(ev, a, parts, n, &s))
        return NULL;
    ce_tensor *t = ct_new(ev, a->dtype, s.ndim, s.shape);
    if (!t)
        return NULL;
    long idx[CE_MAXD] = {0};
    for (long i = 0; i < t->numel; i++) {
        t->data[i] = a->data[sel_offset(a, &s, idx)];
        for (int d = s.ndim - 1; d >= 0; d--) {
            if (++idx[d] < s.shape[d])
                break;
            idx[d] = 0;
        }
    }
    if (!s.has_mask)
        memcpy(t->stride, s.stride, sizeof t->stride);
    return t;
}

int ct_index_put(ce_ev *ev, ce_tensor *a, const ce_val *parts, int n, const ce_tensor *v)
{
    selection s;
    if (select_parts(ev, a, parts, n, &s))
        return -1;
    ce_tensor shape = {.ndim = s.ndim};
    memcpy(shape.shape, s.shape, sizeof shape.shape);
    int ndim;
    long bshape[CE_MAXD];
    if (ct_broadcast(ev, &shape, v, &ndim, bshape))
        return -1;
    if (ndim != s.ndim || memcmp(bshape, s.shape, sizeof(long) * (size_t)ndim)) {
        char x[64], y[64];
        return ce_raise(ev, "a value of shape %s cannot be assigned to a selection of shape %s",
                        ct_shape_text(v->shape, v->ndim, x, sizeof x), ct_shape_text(s.shape, s.ndim, y, sizeof y));
    }
    long sv[CE_MAXD], idx[CE_MAXD] = {0};
    ct_bsteps(v, s.ndim, sv);
    long numel = 1;
    for (int i = 0; i < s.ndim; i++)
        numel *= s.shape[i];
    for (long i = 0; i < numel; i++) {
        long vo = 0;
        for (int d = 0; d < s.ndim; d++)
            vo += idx[d] * sv[d];
        double x = v->data[vo];
        a->data[sel_offset(a, &s, idx)] = a->dtype == CE_BOOL ? x != 0 : a->dtype == CE_INT ? trunc(x) : x;
        for (int d = s.ndim - 1; d >= 0; d--) {
            if (++idx[d] < s.shape[d])
                break;
            idx[d] = 0;
        }
    }
    return 0;
}
