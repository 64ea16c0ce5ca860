/* The code evaluator's functions that make tensors (ones, zeros, full, eye, arange,
 * randn and rand from a seeded generator, tensor), einops.rearrange and Python's
 * builtins (float, int, len, range, print, max, min, sum, tuple, list) (quiz/code_fn.h). */
#define _GNU_SOURCE
#include "quiz/code_fn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* full's and full_like's fill_value (argument 1) into *value; *v_out receives it. */
static int fill_value(ce_ev *ev, ce_args *a, double *value, ce_val **v_out)
{
    ce_val *v = ce_arg(a, 1, "fill_value");
    if (!v)
        return ce_missing(ev, a, "fill_value");
    if (v_out)
        *v_out = v;
    return ce_to_double(ev, a, v, value);
}

/* A new tensor of dtype dt (the "dtype" argument wins) and this shape, every element
 * value (as the dtype holds it: bool, truncated int, float). */
static int filled(ce_ev *ev, ce_args *a, ce_dtype dt, int n, const long *shape, double value,
                  ce_val *out)
{
    ce_dtype_arg(a, "dtype", &dt);
    ce_tensor *t = ct_new(ev, dt, n, shape);
    if (!t)
        return -1;
    for (long i = 0; i < t->numel; i++)
        t->data[i] = dt == CE_BOOL ? value != 0 : dt == CE_INT ? trunc(value) : value;
    *out = ce_tval(t);
    return 0;
}

int cf_fill(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    long shape[CE_MAXD];
    int n;
    double value = mode == MK_ONES ? 1 : 0;
    ce_dtype dt = CE_FLOAT;
    int np_ = mode >= 10;
    mode %= 10;
    if (mode == MK_FULL) {
        ce_val *v = NULL;
        if (fill_value(ev, a, &value, &v))
            return -1;
        dt = v->kind == CV_NUM ? v->ntype : v->t->dtype;
        ce_val *sz = ce_arg(a, 0, np_ ? "shape" : "size");
        ce_args b = {.pos = sz, .n_pos = sz ? 1 : 0, .fname = a->fname};
        if (!sz)
            return ce_missing(ev, a, "size");
        if (ce_long_list(ev, &b, 0, NULL, shape, &n))
            return -1;
    } else if (ce_long_list(ev, a, 0, np_ ? "shape" : "size", shape, &n)) {
        return -1;
    }
    return filled(ev, a, dt, n, shape, value, out);
}

int cf_like(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_tensor *x = ce_tensor_arg(ev, a, 0, "input", "input");
    if (!x)
        return -1;
    double value = mode == MK_ONES ? 1 : 0;
    ce_dtype dt = x->dtype;
    if (mode == MK_FULL && fill_value(ev, a, &value, NULL))
        return -1;
    return filled(ev, a, dt, x->ndim, x->shape, value, out);
}

int cf_eye(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    long n, m;
    if (ce_long_arg(ev, a, 0, "n", 0, &n, 1) || ce_long_arg(ev, a, 1, "m", n, &m, 0))
        return -1;
    ce_dtype dt = CE_FLOAT;
    ce_dtype_arg(a, "dtype", &dt);
    long shape[2] = {n, m};
    ce_tensor *t = ct_new(ev, dt, 2, shape);
    if (!t)
        return -1;
    for (long i = 0; i < n && i < m; i++)
        t->data[i * m + i] = 1;
    *out = ce_tval(t);
    return 0;
}

int cf_arange(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    double v[3] = {0, 0, 1};
    int is_float = 0, n = a->n_pos < 3 ? a->n_pos : 3;
    if (!n)
        return ce_missing(ev, a, "end");
    for (int i = 0; i < n; i++) {
        if (ce_to_double(ev, a, &a->pos[i], &v[n == 1 ? 1 : i]))
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
    ce_dtype_arg(a, "dtype", &dt);
    long shape[1] = {(long)count};
    ce_tensor *t = ct_new(ev, dt, 1, shape);
    if (!t)
        return -1;
    for (long i = 0; i < shape[0]; i++)
        t->data[i] = v[0] + (double)i * v[2];
    *out = ce_tval(t);
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

int cf_random(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    long shape[CE_MAXD];
    int n;
    if (ce_long_list(ev, a, 0, "size", shape, &n))
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
    *out = ce_tval(t);
    return 0;
}

int cf_manual_seed(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    long s;
    if (ce_long_arg(ev, a, 0, "seed", 0, &s, 1))
        return -1;
    ev->seed = (unsigned long long)s * 0x2545f4914f6cdd1dull + 1;
    *out = ce_none();
    return 0;
}

/* torch.finfo(dtype): float32's min, max, eps and tiny (the evaluator computes in double,
 * but a mask filled with float32's min is what the student's code asks for) */
int cf_finfo(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *d = ce_arg(a, 0, "type");
    if (d && d->kind == CV_DTYPE && d->ntype != CE_FLOAT)
        return ce_raise(ev, "torch.finfo() takes a float dtype; for integers it is torch.iinfo()");
    ce_tensor *v[4];
    static const double x[4] = {-3.4028234663852886e38, 3.4028234663852886e38, 1.1920928955078125e-07,
                                1.1754943508222875e-38};
    for (int i = 0; i < 4; i++)
        if (!(v[i] = ct_scalar(ev, CE_FLOAT, x[i])))
            return -1;
    if (ce_parts_out(ev, v, 4, out))
        return -1;
    for (int i = 0; i < 4; i++)
        out->seq->v[i] = ce_num(x[i], CE_FLOAT);
    out->seq->named = SEQ_FINFO;
    return 0;
}

int cf_tensor(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *v = ce_arg(a, 0, "data");
    if (!v)
        return ce_missing(ev, a, "data");
    ce_tensor *t = ct_of(ev, v, CE_FLOAT);
    if (!t)
        return -1;
    ce_dtype dt = t->dtype;
    if (ce_dtype_arg(a, "dtype", &dt) || v->kind == CV_TENSOR)
        return ce_set_tensor(out, ct_cast(ev, t, dt));
    *out = ce_tval(t);
    return 0;
}

int cf_rearrange(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *x = ce_arg(a, 0, "tensor"), *p = ce_arg(a, 1, "pattern");
    if (!x || !p)
        return ce_missing(ev, a, "tensor, pattern");
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
        if (ce_to_long(ev, a, &a->kw[k], &sizes[n]))
            return -1;
        if (sizes[n] < 1 || sizes[n] > QZ_CODE_MAX_NUMEL)
            return ce_raise(ev, "rearrange: the size of '%s' must be from 1 to %d", names[n], QZ_CODE_MAX_NUMEL);
        n++;
    }
    return ce_set_tensor(out, ct_rearrange(ev, t, p->str, names, sizes, n));
}

int cf_float(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *v = ce_arg(a, 0, NULL);
    if (!v) {
        *out = ce_num(0, mode ? CE_INT : CE_FLOAT);
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
    } else if (ce_to_double(ev, a, v, &x)) {
        return -1;
    }
    if (mode && !isfinite(x))
        return ce_raise(ev, "int() of an infinite number");
    *out = ce_num(mode ? trunc(x) : x, mode ? CE_INT : CE_FLOAT);
    return 0;
}

int cf_len(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *v = ce_arg(a, 0, NULL);
    if (!v)
        return ce_missing(ev, a, "obj");
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
    *out = ce_num((double)n, CE_INT);
    return 0;
}

int cf_range(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    long v[3] = {0, 0, 1};
    if (a->n_pos < 1 || a->n_pos > 3)
        return ce_raise(ev, "range() takes 1 to 3 whole numbers");
    for (int i = 0; i < a->n_pos; i++)
        if (ce_to_long(ev, a, &a->pos[i], &v[a->n_pos == 1 ? 1 : i]))
            return -1;
    if (!v[2])
        return ce_raise(ev, "range(): the step cannot be 0");
    *out = (ce_val){.kind = CV_RANGE, .r = {v[0], v[1], v[2]}};
    return 0;
}

int cf_print(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)ev;
    (void)a;
    (void)mode;
    *out = ce_none();
    return 0;
}

int cf_minmax(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *items = a->pos;
    long n = a->n_pos;
    if (n == 1 && (items->kind == CV_TENSOR && items->t->ndim > 0)) {
        ce_args b = *a;
        return cf_reduce(ev, &b, out, mode ? R_MIN | 32 : R_MAX | 32);
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

int cf_sum_builtin(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    (void)mode;
    ce_val *v = ce_arg(a, 0, NULL), *items;
    long n;
    if (!v)
        return ce_missing(ev, a, "iterable");
    if (ce_items(ev, v, &items, &n))
        return -1;
    ce_val acc = a->n_pos > 1 ? a->pos[1] : ce_num(0, CE_INT);
    for (long i = 0; i < n; i++)
        if (ce_binop(ev, '+', &acc, &items[i], &acc))
            return -1;
    *out = acc;
    return 0;
}

int cf_seq(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    ce_val *v = ce_arg(a, 0, NULL), *items;
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
