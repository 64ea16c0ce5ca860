/* The arguments of the code evaluator's functions, as PyTorch takes them: positional or
 * by keyword, whole numbers, tensors, lists of sizes or axes (quiz/code_fn.h). */
#define _GNU_SOURCE
#include "quiz/code_fn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

ce_val *ce_arg(ce_args *a, int i, const char *kw)
{
    for (int k = 0; kw && k < a->n_kw; k++)
        if (!strcmp(a->kw_names[k], kw))
            return &a->kw[k];
    return i >= 0 && i < a->n_pos ? &a->pos[i] : NULL;
}

int ce_missing(ce_ev *ev, ce_args *a, const char *what)
{
    return ce_raise(ev, "%s() is missing its argument %s", a->fname, what);
}

ce_val ce_none(void)
{
    return (ce_val){.kind = CV_NONE};
}

ce_val ce_num(double x, ce_dtype t)
{
    return (ce_val){.kind = CV_NUM, .num = x, .ntype = t};
}

ce_val ce_tval(ce_tensor *t)
{
    return (ce_val){.kind = CV_TENSOR, .t = t};
}

int ce_set_tensor(ce_val *out, ce_tensor *t)
{
    if (!t)
        return -1;
    *out = ce_tval(t);
    return 0;
}

int ce_to_long(ce_ev *ev, ce_args *a, const ce_val *v, long *out)
{
    if (v->kind == CV_NUM && v->ntype != CE_FLOAT) {
        *out = ce_long_of(v->num);
        return 0;
    }
    if (v->kind == CV_TENSOR && v->t->numel == 1 && v->t->dtype != CE_FLOAT) {
        *out = ce_long_of(v->t->data[0]);
        return 0;
    }
    return ce_raise(ev, "%s() takes a whole number here", a->fname);
}

int ce_to_double(ce_ev *ev, ce_args *a, const ce_val *v, double *out)
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

ce_tensor *ce_tensor_arg(ce_ev *ev, ce_args *a, int i, const char *kw, const char *what)
{
    ce_val *v = ce_arg(a, i, kw);
    if (!v) {
        ce_missing(ev, a, what);
        return NULL;
    }
    if (v->kind != CV_TENSOR) {
        ce_raise(ev, "%s() takes a tensor as %s (torch.tensor(…) makes one)", a->fname, what);
        return NULL;
    }
    return v->t;
}

int ce_long_arg(ce_ev *ev, ce_args *a, int i, const char *kw, long dflt, long *out, int required)
{
    ce_val *v = ce_arg(a, i, kw);
    if (!v || v->kind == CV_NONE) {
        if (required)
            return ce_missing(ev, a, kw ? kw : "");
        *out = dflt;
        return 0;
    }
    return ce_to_long(ev, a, v, out);
}

int ce_bool_arg(ce_args *a, int i, const char *kw, int dflt)
{
    ce_val *v = ce_arg(a, i, kw);
    return v && v->kind == CV_NUM ? v->num != 0 : dflt;
}

/* Sizes or axes given as *args from `from` on, or as one tuple / list / torch.Size. */
int ce_long_list(ce_ev *ev, ce_args *a, int from, const char *kw, long *out, int *n)
{
    ce_val *v = ce_arg(a, -1, kw);
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
        if (ce_to_long(ev, a, &items[i], &out[i]))
            return -1;
    *n = count;
    return 0;
}

int ce_dtype_arg(ce_args *a, const char *kw, ce_dtype *out)
{
    ce_val *v = ce_arg(a, -1, kw);
    if (!v || v->kind != CV_DTYPE)
        return 0;
    *out = v->ntype;
    return 1;
}

int ce_shape_tuple(ce_ev *ev, const ce_tensor *t, ce_val *out)
{
    ce_seq *s = ce_alloc(ev->arena, sizeof *s);
    if (!s || !(s->v = ce_alloc(ev->arena, (size_t)(t->ndim ? t->ndim : 1) * sizeof *s->v)))
        return ce_nomem(ev);
    s->n = t->ndim;
    for (int i = 0; i < t->ndim; i++)
        s->v[i] = ce_num((double)t->shape[i], CE_INT);
    *out = (ce_val){.kind = CV_TUPLE, .seq = s};
    return 0;
}

int ce_parts_out(ce_ev *ev, ce_tensor **parts, int n, ce_val *out)
{
    ce_seq *s = ce_alloc(ev->arena, sizeof *s);
    if (!s || !(s->v = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *s->v)))
        return ce_nomem(ev);
    s->n = n;
    for (int i = 0; i < n; i++)
        s->v[i] = ce_tval(parts[i]);
    *out = (ce_val){.kind = CV_TUPLE, .seq = s};
    return 0;
}
