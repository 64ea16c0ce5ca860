/* Running a code answer: names (the setup's, the run's, the modules everybody imports),
 * expressions with Python's rules for numbers and PyTorch's for tensors, and statements
 * (assignments, in-place updates, imports, for). See quiz/code_impl.h. */
#define _GNU_SOURCE
#include "quiz/code_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names */

ce_val *ce_lookup(ce_ev *ev, const char *name)
{
    for (int i = ev->n_names - 1; i >= 0; i--)
        if (!strcmp(ev->names[i].name, name))
            return &ev->names[i].val;
    return NULL;
}

int ce_bind(ce_ev *ev, const char *name, const ce_val *v)
{
    for (int i = ev->n_names - 1; i >= ev->frame; i--)
        if (!strcmp(ev->names[i].name, name)) {
            ev->names[i].val = *v;
            return 0;
        }
    if (ev->n_names == ev->cap_names) {
        int cap = ev->cap_names ? 2 * ev->cap_names : 32;
        ce_binding *b = ce_alloc(ev->arena, (size_t)cap * sizeof *b);
        if (!b)
            return ce_nomem(ev);
        if (ev->n_names)
            memcpy(b, ev->names, (size_t)ev->n_names * sizeof *b);
        ev->names = b;
        ev->cap_names = cap;
    }
    const char *n = ce_strndup(ev->arena, name, strlen(name));
    if (!n)
        return ce_nomem(ev);
    ev->names[ev->n_names++] = (ce_binding){n, *v};
    return 0;
}

/* The names the setup made, for a message: "Q, K, V, d_k, scores". */
static void setup_names(const ce_ev *ev, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < ev->n_setup && n + 40 < cap; i++) {
        ce_kind k = ev->names[i].val.kind;
        if (k == CV_MODULE)
            continue;
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", ev->names[i].name);
    }
}

static int module_of(const char *path)
{
    static const struct { const char *path; int mod; } m[] = {
        {"torch", MOD_TORCH}, {"torch.nn", MOD_NN}, {"torch.nn.functional", MOD_F}, {"nn", MOD_NN},
        {"F", MOD_F}, {"math", MOD_MATH}, {"numpy", MOD_NP}, {"np", MOD_NP}, {"einops", MOD_EINOPS},
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        if (!strcmp(m[i].path, path))
            return m[i].mod;
    return -1;
}

/* A name not bound: a module everybody imports (torch, F, nn, math, np, einops), a
 * builtin (float, range, softmax, inf), else the run stops naming it. */
static int name_value(ce_ev *ev, const char *name, ce_val *out)
{
    ce_val *v = ce_lookup(ev, name);
    if (v) {
        *out = *v;
        return 0;
    }
    int mod = module_of(name);
    if (mod >= 0 && strcmp(name, "numpy")) {
        *out = (ce_val){.kind = CV_MODULE, .fn = mod};
        return 0;
    }
    if (!ce_lib_builtin(ev, name, out))
        return 0;
    char names[300];
    setup_names(ev, names, sizeof names);
    return ce_unread(ev, "'%s' is not defined here (the names you may use: %s)", name, names);
}

/* ---- values */

static ce_val num_val(double x, ce_dtype t)
{
    return (ce_val){.kind = CV_NUM, .num = x, .ntype = t};
}

static ce_val tensor_val(ce_tensor *t)
{
    return (ce_val){.kind = CV_TENSOR, .t = t};
}

static const char *kind_name(const ce_val *v)
{
    switch (v->kind) {
    case CV_NONE: return "None";
    case CV_NUM: return v->ntype == CE_FLOAT ? "float" : v->ntype == CE_INT ? "int" : "bool";
    case CV_STR: return "str";
    case CV_TENSOR: return "Tensor";
    case CV_TUPLE: return "tuple";
    case CV_LIST: return "list";
    case CV_SLICE: return "slice";
    case CV_ELLIPSIS: return "ellipsis";
    case CV_RANGE: return "range";
    case CV_FUNC: return "function";
    case CV_MODULE: return "module";
    case CV_DTYPE: return "dtype";
    case CV_DEF: return "function";
    }
    return "?";
}

int ce_truth(ce_ev *ev, const ce_val *v)
{
    switch (v->kind) {
    case CV_NONE: return 0;
    case CV_NUM: return v->num != 0;
    case CV_STR: return v->str[0] != 0;
    case CV_TUPLE:
    case CV_LIST: return v->seq->n > 0;
    case CV_TENSOR:
        if (v->t->numel != 1)
            return ce_raise(ev, "the truth value of a tensor of %ld numbers is ambiguous", v->t->numel);
        return v->t->data[0] != 0;
    default: return 1;
    }
}

int ce_items(ce_ev *ev, const ce_val *v, ce_val **items, long *n)
{
    if (v->kind == CV_RANGE) {
        long a = v->r[0], b = v->r[1], s = v->r[2];
        long count = s > 0 ? (b > a ? (b - a + s - 1) / s : 0) : (a > b ? (a - b - s - 1) / -s : 0);
        if (count > QZ_CODE_MAX_STEPS)
            return ce_unread(ev, "the code runs too long for the grader (more than %d steps)",
                             QZ_CODE_MAX_STEPS);
        *items = ce_alloc(ev->arena, (size_t)(count ? count : 1) * sizeof **items);
        if (!*items)
            return ce_nomem(ev);
        for (long i = 0; i < count; i++)
            (*items)[i] = num_val((double)(a + i * s), CE_INT);
        *n = count;
        return 0;
    }
    if (v->kind == CV_TUPLE || v->kind == CV_LIST) {
        *items = v->seq->v;
        *n = v->seq->n;
        return 0;
    }
    if (v->kind == CV_TENSOR) {
        const ce_tensor *t = v->t;
        if (t->ndim == 0)
            return ce_raise(ev, "iteration over a 0-d tensor");
        *items = ce_alloc(ev->arena, (size_t)t->shape[0] * sizeof **items);
        if (!*items)
            return ce_nomem(ev);
        for (long i = 0; i < t->shape[0]; i++) {
            ce_val ix = num_val((double)i, CE_INT);
            ce_tensor *row = ct_index(ev, t, &ix, 1);
            if (!row)
                return -1;
            (*items)[i] = tensor_val(row);
        }
        *n = t->shape[0];
        return 0;
    }
    return ce_raise(ev, "'%s' object is not iterable", kind_name(v));
}

ce_seq *ce_new_seq(ce_ev *ev, int n)
{
    ce_seq *s = ce_alloc(ev->arena, sizeof *s);
    if (!s || !(s->v = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *s->v))) {
        ce_nomem(ev);
        return NULL;
    }
    s->n = n;
    return s;
}

/* ---- operators */

static int py_number_op(ce_ev *ev, int op, const ce_val *a, const ce_val *b, ce_val *out)
{
    double x = a->num, y = b->num, r;
    ce_dtype t = a->ntype == CE_FLOAT || b->ntype == CE_FLOAT ? CE_FLOAT : CE_INT;
    switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/':
        if (y == 0)
            return ce_raise(ev, "division by zero");
        r = x / y;
        t = CE_FLOAT;
        break;
    case OP_FLOORDIV:
        if (y == 0)
            return ce_raise(ev, "division by zero");
        r = floor(x / y);
        break;
    case '%':
        if (y == 0)
            return ce_raise(ev, "division by zero");
        r = x - y * floor(x / y);
        break;
    case OP_POW:
        r = pow(x, y);
        if (t == CE_INT && y < 0)
            t = CE_FLOAT;
        if (x < 0 && y != floor(y))
            return ce_unread(ev, "a negative number to a fractional power is a complex number");
        break;
    case '&': r = (double)(ce_long_of(x) & ce_long_of(y)); t = a->ntype == CE_BOOL && b->ntype == CE_BOOL ? CE_BOOL : CE_INT; break;
    case '|': r = (double)(ce_long_of(x) | ce_long_of(y)); t = a->ntype == CE_BOOL && b->ntype == CE_BOOL ? CE_BOOL : CE_INT; break;
    case '^': r = (double)(ce_long_of(x) ^ ce_long_of(y)); t = a->ntype == CE_BOOL && b->ntype == CE_BOOL ? CE_BOOL : CE_INT; break;
    case '@': return ce_raise(ev, "@ multiplies matrices, not numbers");
    default: return ce_raise(ev, "this operator does not apply to numbers");
    }
    if ((op == '&' || op == '|' || op == '^') && (a->ntype == CE_FLOAT || b->ntype == CE_FLOAT))
        return ce_raise(ev, "& | ^ do not apply to floats");
    *out = num_val(r, t);
    return 0;
}

static enum ct_binop binop_of(int op)
{
    switch (op) {
    case '+': return B_ADD;
    case '-': return B_SUB;
    case '*': return B_MUL;
    case '/': return B_DIV;
    case OP_FLOORDIV: return B_FLOORDIV;
    case '%': return B_MOD;
    case OP_POW: return B_POW;
    case OP_EQ: return B_EQ;
    case OP_NE: return B_NE;
    case '<': return B_LT;
    case OP_LE: return B_LE;
    case '>': return B_GT;
    case OP_GE: return B_GE;
    case '&': return B_AND;
    case '|': return B_OR;
    default: return B_XOR;
    }
}

static int is_tensorish(const ce_val *v)
{
    return v->kind == CV_TENSOR || v->kind == CV_NUM;
}

int ce_binop(ce_ev *ev, int op, const ce_val *a, const ce_val *b, ce_val *out)
{
    if (a->kind == CV_NUM && b->kind == CV_NUM && op != '@') {
        if (op == OP_EQ || op == OP_NE || op == '<' || op == '>' || op == OP_LE || op == OP_GE) {
            double x = a->num, y = b->num;
            int r = op == OP_EQ ? x == y : op == OP_NE ? x != y : op == '<' ? x < y : op == '>' ? x > y
                  : op == OP_LE ? x <= y : x >= y;
            *out = num_val(r, CE_BOOL);
            return 0;
        }
        return py_number_op(ev, op, a, b, out);
    }
    if ((op == OP_EQ || op == OP_NE) && (!is_tensorish(a) || !is_tensorish(b))) {
        int same = a->kind == b->kind &&
                   (a->kind == CV_NONE || (a->kind == CV_STR && !strcmp(a->str, b->str)) ||
                    (a->kind == CV_DTYPE && a->ntype == b->ntype) || (a->kind == CV_MODULE && a->fn == b->fn));
        *out = num_val(op == OP_EQ ? same : !same, CE_BOOL);
        return 0;
    }
    if ((a->kind == CV_TUPLE || a->kind == CV_LIST) && b->kind == a->kind && op == '+') {
        ce_seq *s = ce_new_seq(ev, a->seq->n + b->seq->n);
        if (!s)
            return -1;
        memcpy(s->v, a->seq->v, (size_t)a->seq->n * sizeof *s->v);
        memcpy(s->v + a->seq->n, b->seq->v, (size_t)b->seq->n * sizeof *s->v);
        *out = (ce_val){.kind = a->kind, .seq = s};
        return 0;
    }
    if (!is_tensorish(a) || !is_tensorish(b))
        return ce_raise(ev, "this operator does not apply to %s", a->kind == CV_TENSOR || a->kind == CV_NUM
                                                                  ? kind_name(b) : kind_name(a));
    ce_tensor *x = ct_of(ev, a, CE_FLOAT), *y = x ? ct_of(ev, b, CE_FLOAT) : NULL;
    if (!y)
        return -1;
    ce_tensor *r = op == '@' ? ct_matmul(ev, x, y, "@") : ct_binary(ev, binop_of(op), x, y);
    if (!r)
        return -1;
    *out = tensor_val(r);
    return 0;
}

/* ---- expressions */

static int eval_list(ce_ev *ev, ce_node **items, int n, ce_kind kind, ce_val *out);

static int eval_comp(ce_ev *ev, const ce_node *n, ce_val *out)
{
    ce_val it;
    ce_val *items;
    long count;
    if (ce_eval(ev, n->b, &it) || ce_items(ev, &it, &items, &count))
        return -1;
    ce_seq *s = ce_new_seq(ev, (int)count);
    if (!s)
        return -1;
    ce_val *saved = ce_lookup(ev, n->name), keep = saved ? *saved : (ce_val){0};
    int had = saved != NULL;
    s->n = 0;
    for (long i = 0; i < count; i++) {
        if (ce_tick(ev) || ce_bind(ev, n->name, &items[i]))
            return -1;
        if (n->c) {
            ce_val c;
            int t;
            if (ce_eval(ev, n->c, &c) || (t = ce_truth(ev, &c)) < 0)
                return -1;
            if (!t)
                continue;
        }
        if (ce_eval(ev, n->a, &s->v[s->n]))
            return -1;
        s->n++;
    }
    if (had)   /* a comprehension's variable is its own (Python 3) */
        *ce_lookup(ev, n->name) = keep;
    *out = (ce_val){.kind = CV_LIST, .seq = s};
    return 0;
}

static int call_def(ce_ev *ev, const ce_stmt *def, ce_args *a, ce_val *out);

static int eval_call(ce_ev *ev, const ce_node *n, ce_val *out)
{
    ce_val fn;
    if (ce_eval(ev, n->a, &fn))
        return -1;
    ce_args a = {0};
    int cap = n->n_items + 8;
    a.pos = ce_alloc(ev->arena, (size_t)(cap + 1) * sizeof *a.pos);
    a.kw = ce_alloc(ev->arena, (size_t)(n->n_items + 1) * sizeof *a.kw);
    a.kw_names = ce_alloc(ev->arena, (size_t)(n->n_items + 1) * sizeof *a.kw_names);
    if (!a.pos || !a.kw || !a.kw_names)
        return ce_nomem(ev);
    for (int i = 0; i < n->n_items; i++) {
        const ce_node *x = n->items[i];
        ce_val v;
        if (ce_eval(ev, x->kind == X_KW || x->kind == X_STAR ? x->a : x, &v))
            return -1;
        if (x->kind == X_KW) {
            a.kw_names[a.n_kw] = x->name;
            a.kw[a.n_kw++] = v;
        } else if (x->kind == X_STAR) {
            ce_val *items;
            long count;
            if (ce_items(ev, &v, &items, &count))
                return -1;
            if (a.n_pos + count > cap) {
                ce_val *p = ce_alloc(ev->arena, (size_t)(a.n_pos + count + 8) * sizeof *p);
                if (!p)
                    return ce_nomem(ev);
                memcpy(p, a.pos, (size_t)a.n_pos * sizeof *p);
                a.pos = p;
                cap = (int)(a.n_pos + count + 8);
            }
            for (long k = 0; k < count; k++)
                a.pos[a.n_pos++] = items[k];
        } else {
            if (a.n_pos == cap)
                return ce_unread(ev, "too many arguments");
            a.pos[a.n_pos++] = v;
        }
    }
    ev->at = n->at;
    if (ce_tick(ev))
        return -1;
    if (fn.kind == CV_DEF)
        return call_def(ev, fn.def, &a, out);
    if (fn.kind != CV_FUNC)
        return ce_raise(ev, "'%s' object is not callable", kind_name(&fn));
    return ce_lib_call(ev, &fn, &a, out);
}

static int eval_index(ce_ev *ev, const ce_node *n, ce_val *out)
{
    ce_val x, ix;
    if (ce_eval(ev, n->a, &x) || ce_eval(ev, n->b, &ix))
        return -1;
    ev->at = n->at;
    if (x.kind == CV_TENSOR) {
        const ce_val *parts = ix.kind == CV_TUPLE ? ix.seq->v : &ix;
        int np = ix.kind == CV_TUPLE ? ix.seq->n : 1;
        ce_tensor *t = ct_index(ev, x.t, parts, np);
        if (!t)
            return -1;
        *out = tensor_val(t);
        return 0;
    }
    if (x.kind == CV_TUPLE || x.kind == CV_LIST) {
        long len = x.seq->n;
        if (ix.kind == CV_NUM && ix.ntype != CE_FLOAT) {
            long i = ce_long_of(ix.num);
            if (i < -len || i >= len)
                return ce_raise(ev, "index %ld is out of range", i);
            *out = x.seq->v[i < 0 ? i + len : i];
            return 0;
        }
        if (ix.kind == CV_SLICE) {
            long a = ix.has[0] ? ix.r[0] : 0, b = ix.has[1] ? ix.r[1] : len;
            if (ix.has[2] && ix.r[2] != 1)
                return ce_unread(ev, "a slice with a step is not read here");
            a = a < 0 ? (a + len < 0 ? 0 : a + len) : (a > len ? len : a);
            b = b < 0 ? (b + len < 0 ? 0 : b + len) : (b > len ? len : b);
            ce_seq *s = ce_new_seq(ev, (int)(b > a ? b - a : 0));
            if (!s)
                return -1;
            for (long i = a; i < b; i++)
                s->v[i - a] = x.seq->v[i];
            *out = (ce_val){.kind = x.kind, .seq = s};
            return 0;
        }
        return ce_raise(ev, "a %s is indexed by whole numbers", kind_name(&x));
    }
    return ce_raise(ev, "'%s' object is not subscriptable", kind_name(&x));
}

static int slice_part(ce_ev *ev, const ce_node *n, long *out, int *has)
{
    *has = 0;
    if (!n)
        return 0;
    ce_val v;
    if (ce_eval(ev, n, &v))
        return -1;
    if (v.kind == CV_NONE)
        return 0;
    if (v.kind == CV_TENSOR && v.t->numel == 1 && v.t->dtype != CE_FLOAT)
        v = num_val(v.t->data[0], CE_INT);
    if (v.kind != CV_NUM || v.ntype == CE_FLOAT)
        return ce_raise(ev, "slice indices must be whole numbers");
    *out = ce_long_of(v.num);
    *has = 1;
    return 0;
}

static int eval_attr(ce_ev *ev, const ce_node *n, ce_val *out)
{
    ce_val x;
    if (ce_eval(ev, n->a, &x))
        return -1;
    ev->at = n->at;
    if (x.kind == CV_MODULE) {
        if (!ce_lib_attr(ev, x.fn, n->name, out))
            return 0;
        static const char *const mods[] = {"torch", "torch.nn", "torch.nn.functional", "math",
                                           "numpy", "einops"};
        return ce_unread(ev, "the grader does not know %s.%s", mods[x.fn < 6 ? x.fn : 0], n->name);
    }
    if (x.kind == CV_TENSOR) {
        ce_val *self = ce_alloc(ev->arena, sizeof *self);
        if (!self)
            return ce_nomem(ev);
        *self = x;
        return ce_lib_tensor_attr(ev, self, n->name, out);
    }
    if (x.kind == CV_TUPLE && x.seq->named) {   /* max(dim).values, torch.finfo(…).min */
        static const char *const names[][4] = {{""}, {"values", "indices"}, {"min", "max", "eps", "tiny"}};
        for (int i = 0; i < 4 && i < x.seq->n; i++)
            if (names[x.seq->named][i] && !strcmp(names[x.seq->named][i], n->name)) {
                *out = x.seq->v[i];
                return 0;
            }
    }
    if (x.kind == CV_NUM && (!strcmp(n->name, "real")))
        return *out = x, 0;
    return ce_unread(ev, "the grader does not know the attribute '%s' of a %s", n->name, kind_name(&x));
}

static int eval_list(ce_ev *ev, ce_node **items, int n, ce_kind kind, ce_val *out)
{
    int total = 0;
    ce_val *vals = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *vals);
    long *counts = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *counts);
    ce_val **stars = ce_alloc(ev->arena, (size_t)(n ? n : 1) * sizeof *stars);
    if (!vals || !counts || !stars)
        return ce_nomem(ev);
    for (int i = 0; i < n; i++) {
        const ce_node *x = items[i];
        if (ce_eval(ev, x->kind == X_STAR ? x->a : x, &vals[i]))
            return -1;
        counts[i] = 1;
        if (x->kind == X_STAR && ce_items(ev, &vals[i], &stars[i], &counts[i]))
            return -1;
        total += (int)counts[i];
    }
    ce_seq *s = ce_new_seq(ev, total);
    if (!s)
        return -1;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (items[i]->kind == X_STAR)
            for (long j = 0; j < counts[i]; j++)
                s->v[k++] = stars[i][j];
        else
            s->v[k++] = vals[i];
    *out = (ce_val){.kind = kind, .seq = s};
    return 0;
}

static int eval_unary(ce_ev *ev, const ce_node *n, ce_val *out)
{
    ce_val x;
    if (ce_eval(ev, n->a, &x))
        return -1;
    ev->at = n->at;
    if (n->op == OP_NOT) {
        int t = ce_truth(ev, &x);
        if (t < 0)
            return -1;
        *out = num_val(!t, CE_BOOL);
        return 0;
    }
    if (x.kind == CV_NUM) {
        if (n->op == '~') {
            if (x.ntype == CE_FLOAT)
                return ce_raise(ev, "~ does not apply to a float");
            *out = x.ntype == CE_BOOL ? num_val(-x.num - 1, CE_INT) : num_val(-x.num - 1, CE_INT);
            return 0;
        }
        *out = num_val(n->op == '-' ? -x.num : x.num, x.ntype == CE_BOOL ? CE_INT : x.ntype);
        return 0;
    }
    if (x.kind != CV_TENSOR)
        return ce_raise(ev, "this operator does not apply to %s", kind_name(&x));
    if (n->op == '+') {
        *out = x;
        return 0;
    }
    ce_tensor *t = ct_unary(ev, n->op == '-' ? U_NEG : U_NOT, x.t);
    if (!t)
        return -1;
    *out = tensor_val(t);
    return 0;
}

int ce_eval(ce_ev *ev, const ce_node *n, ce_val *out)
{
    if (++ev->depth > QZ_CODE_MAX_DEPTH) {
        ev->at = n->at;
        ev->depth--;
        return ce_unread(ev, "the code is nested too deeply");
    }
    int rc = 0;
    switch (n->kind) {
    case X_NUM: *out = num_val(n->num, n->is_int ? CE_INT : CE_FLOAT); break;
    case X_STR:
        *out = (ce_val){.kind = CV_STR, .str = n->name};
        break;
    case X_NONE: *out = (ce_val){.kind = CV_NONE}; break;
    case X_TRUE: *out = num_val(1, CE_BOOL); break;
    case X_FALSE: *out = num_val(0, CE_BOOL); break;
    case X_ELLIPSIS: *out = (ce_val){.kind = CV_ELLIPSIS}; break;
    case X_NAME:
        ev->at = n->at;
        rc = name_value(ev, n->name, out);
        break;
    case X_ATTR: rc = eval_attr(ev, n, out); break;
    case X_CALL: rc = eval_call(ev, n, out); break;
    case X_INDEX: rc = eval_index(ev, n, out); break;
    case X_SLICE:
        *out = (ce_val){.kind = CV_SLICE};
        rc = slice_part(ev, n->a, &out->r[0], &out->has[0]) || slice_part(ev, n->b, &out->r[1], &out->has[1]) ||
             slice_part(ev, n->c, &out->r[2], &out->has[2]) ? -1 : 0;
        if (!rc && out->has[2] && out->r[2] <= 0) {
            ev->at = n->at;
            rc = ce_raise(ev, "a slice's step must be positive");
        }
        break;
    case X_BIN: {
        ce_val a, b;
        if ((rc = ce_eval(ev, n->a, &a)) || (rc = ce_eval(ev, n->b, &b)))
            break;
        ev->at = n->at;
        rc = ce_tick(ev) ? -1 : ce_binop(ev, n->op, &a, &b, out);
        break;
    }
    case X_CMP: {
        ce_val a, b;
        if ((rc = ce_eval(ev, n->a, &a)) || (rc = ce_eval(ev, n->b, &b)))
            break;
        ev->at = n->at;
        if (n->op == OP_IN) {
            ce_val *items;
            long cnt;
            if ((rc = ce_items(ev, &b, &items, &cnt)))
                break;
            int found = 0;
            for (long i = 0; i < cnt && !found; i++)
                found = items[i].kind == CV_NUM && a.kind == CV_NUM && items[i].num == a.num;
            *out = num_val(found, CE_BOOL);
            break;
        }
        rc = ce_binop(ev, n->op, &a, &b, out);
        break;
    }
    case X_BOOL: {
        ce_val a;
        int t;
        if ((rc = ce_eval(ev, n->a, &a)) || (t = ce_truth(ev, &a)) < 0) {
            rc = -1;
            break;
        }
        if ((n->op == OP_AND) != t)
            *out = a;   /* short-circuit: Python gives the operand */
        else
            rc = ce_eval(ev, n->b, out);
        break;
    }
    case X_IFELSE: {
        ce_val c;
        int t;
        if (ce_eval(ev, n->b, &c) || (t = ce_truth(ev, &c)) < 0)
            rc = -1;
        else
            rc = ce_eval(ev, t ? n->a : n->c, out);
        break;
    }
    case X_UNARY: rc = eval_unary(ev, n, out); break;
    case X_TUPLE: rc = eval_list(ev, n->items, n->n_items, CV_TUPLE, out); break;
    case X_LIST: rc = eval_list(ev, n->items, n->n_items, CV_LIST, out); break;
    case X_COMP: rc = eval_comp(ev, n, out); break;
    case X_STAR:
        ev->at = n->at;
        rc = ce_unread(ev, "a *starred value is read only in a call or a list");
        break;
    case X_KW:
        ev->at = n->at;
        rc = ce_unread(ev, "a keyword argument outside a call");
        break;
    }
    ev->depth--;
    return rc;
}

/* ---- statements */

/* A tensor assigned to a name: kept as it is now (a later in-place change does not reach
 * it), to tell an answer that stops early. A function's own names are not the answer's
 * steps: they are gone when it returns. */
static void record_step(ce_ev *ev, const char *name, const ce_val *v)
{
    if (v->kind != CV_TENSOR || ev->n_steps_v >= 64 || ev->n_calls)
        return;
    if (!ev->steps_v && (!(ev->steps_v = ce_alloc(ev->arena, 64 * sizeof *ev->steps_v)) ||
                         !(ev->steps_name = ce_alloc(ev->arena, 64 * sizeof *ev->steps_name))))
        return;
    ce_tensor *c = ct_copy(ev, v->t);
    if (c) {
        ev->steps_name[ev->n_steps_v] = name;
        ev->steps_v[ev->n_steps_v++] = c;
    }
}

static int assign(ce_ev *ev, const ce_node *target, const ce_val *v)
{
    ev->at = target->at;
    if (target->kind == X_NAME) {
        record_step(ev, target->name, v);
        return ce_bind(ev, target->name, v);
    }
    if (target->kind == X_TUPLE || target->kind == X_LIST) {
        ce_val *items;
        long n;
        if (ce_items(ev, v, &items, &n))
            return -1;
        if (n != target->n_items)
            return ce_raise(ev, "%ld values to unpack into %d names", n, target->n_items);
        for (long i = 0; i < n; i++)
            if (assign(ev, target->items[i], &items[i]))
                return -1;
        return 0;
    }
    /* x[index] = value: in place, seen by every name of x */
    ce_val x, ix;
    if (ce_eval(ev, target->a, &x) || ce_eval(ev, target->b, &ix))
        return -1;
    ev->at = target->at;
    if (x.kind != CV_TENSOR)
        return ce_unread(ev, "only a tensor's items can be assigned to here");
    ce_tensor *val = ct_of(ev, v, x.t->dtype);
    if (!val)
        return -1;
    const ce_val *parts = ix.kind == CV_TUPLE ? ix.seq->v : &ix;
    return ct_index_put(ev, x.t, parts, ix.kind == CV_TUPLE ? ix.seq->n : 1, val);
}

static int run_stmts(ce_ev *ev, ce_stmt **s, int n);

static int run_import(ce_ev *ev, const ce_stmt *s)
{
    for (int i = 0; i < s->n_names; i++) {
        ce_val v;
        const char *bind = s->aliases[i];
        if (s->from) {
            int mod = module_of(s->from);
            if (mod < 0 || !strcmp(s->from, "F") || !strcmp(s->from, "nn") || !strcmp(s->from, "np"))
                return ce_unread(ev, "the grader does not know the module '%s'", s->from);
            if (ce_lib_attr(ev, mod, s->names[i], &v))
                return ce_unread(ev, "the grader does not know %s.%s", s->from, s->names[i]);
            if (!bind)
                bind = s->names[i];
        } else {
            int mod = module_of(s->names[i]);
            if (mod < 0 || !strcmp(s->names[i], "F") || !strcmp(s->names[i], "nn") || !strcmp(s->names[i], "np"))
                return ce_unread(ev, "the grader does not know the module '%s'", s->names[i]);
            if (!bind) {   /* import torch.nn.functional binds torch */
                const char *dot = strchr(s->names[i], '.');
                bind = dot ? ce_strndup(ev->arena, s->names[i], (size_t)(dot - s->names[i])) : s->names[i];
                if (!bind)
                    return ce_nomem(ev);
                mod = module_of(bind);
            }
            v = (ce_val){.kind = CV_MODULE, .fn = mod};
        }
        if (ce_bind(ev, bind, &v))
            return -1;
    }
    return 0;
}

static int run_stmt(ce_ev *ev, const ce_stmt *s)
{
    ev->at = s->at;
    if (ce_tick(ev))
        return -1;
    ce_val v;
    switch (s->kind) {
    case S_PASS: return 0;
    case S_IMPORT: return run_import(ev, s);
    case S_DEF:
        /* what came before is not the answer now: the function is, when nothing after
         * it gives a value (a call) */
        ev->uncalled = s;
        ev->has_last = 0;
        return ce_bind(ev, s->from, &(ce_val){.kind = CV_DEF, .def = s});
    case S_EXPR:
        if (ce_eval(ev, s->value, &v))
            return -1;
        if (v.kind != CV_NONE) {
            ev->last = v;
            ev->has_last = 1;
        }
        return 0;
    case S_RETURN:
        if (s->value && ce_eval(ev, s->value, &v))
            return -1;
        ev->ret = s->value ? v : (ce_val){.kind = CV_NONE};
        ev->returned = 1;
        return 0;
    case S_ASSIGN:
        if (ce_eval(ev, s->value, &v))
            return -1;
        for (int i = 0; i < s->n_targets; i++)
            if (assign(ev, s->targets[i], &v))
                return -1;
        ev->last = v;
        ev->has_last = 1;
        if (v.kind == CV_TUPLE && s->targets[s->n_targets - 1]->kind == X_TUPLE && v.seq->n)
            ev->last = v.seq->v[v.seq->n - 1];
        return 0;
    case S_AUG: {
        const ce_node *t = s->targets[0];
        ce_val cur, rhs;
        if (ce_eval(ev, t, &cur) || ce_eval(ev, s->value, &rhs))
            return -1;
        ev->at = s->at;
        if (ce_binop(ev, s->op, &cur, &rhs, &v))
            return -1;
        if (cur.kind == CV_TENSOR && v.kind == CV_TENSOR) {
            /* x += y is in place: the shape must stay, and every name of x sees it */
            if (v.t->ndim != cur.t->ndim || memcmp(v.t->shape, cur.t->shape, (size_t)v.t->ndim * sizeof *v.t->shape)) {
                char a[64], b[64];
                return ce_raise(ev, "an in-place update cannot change the shape %s into %s",
                                ct_shape_text(cur.t->shape, cur.t->ndim, a, sizeof a),
                                ct_shape_text(v.t->shape, v.t->ndim, b, sizeof b));
            }
            if (cur.t->dtype != CE_FLOAT && v.t->dtype == CE_FLOAT)
                return ce_raise(ev, "an in-place update cannot turn an integer or bool tensor into floats");
            memcpy(cur.t->data, v.t->data, (size_t)cur.t->numel * sizeof *cur.t->data);
            v = cur;
            if (t->kind == X_NAME)
                record_step(ev, t->name, &v);
        } else if (assign(ev, t, &v)) {
            return -1;
        }
        ev->last = v;
        ev->has_last = 1;
        return 0;
    }
    case S_FOR: {
        ce_val it, *items;
        long n;
        if (ce_eval(ev, s->value, &it) || ce_items(ev, &it, &items, &n))
            return -1;
        for (long i = 0; i < n && !ev->returned; i++)
            if (assign(ev, s->targets[0], &items[i]) || run_stmts(ev, s->body, s->n_body))
                return -1;
        return 0;
    }
    }
    return 0;
}

static int run_stmts(ce_ev *ev, ce_stmt **s, int n)
{
    for (int i = 0; i < n && !ev->returned; i++)
        if (run_stmt(ev, s[i]))
            return -1;
    return 0;
}

/* ---- the answer's own functions */

/* The argument for parameter k of def: positional, by keyword, or the default; *given
 * 0 when there is none. */
static int param_value(ce_ev *ev, const ce_stmt *def, int k, const ce_args *a, ce_val *v, int *given)
{
    *given = 1;
    for (int i = 0; i < a->n_kw; i++)
        if (!strcmp(a->kw_names[i], def->names[k])) {
            if (k < a->n_pos)
                return ce_raise(ev, "%s() got two values for the argument '%s'", def->from, def->names[k]);
            *v = a->kw[i];
            return 0;
        }
    if (k < a->n_pos) {
        *v = a->pos[k];
        return 0;
    }
    if (def->defaults[k])   /* evaluated at the call, not once at the def: the same here */
        return ce_eval(ev, def->defaults[k], v);
    *given = 0;
    return 0;
}

/* Every argument has a parameter (or *args, **kwargs to go to). */
static int args_fit(ce_ev *ev, const ce_stmt *def, const ce_args *a)
{
    if (a->n_pos > def->n_names && !def->rest_args)
        return ce_raise(ev, "%s() takes %d arguments but %d were given", def->from, def->n_names, a->n_pos);
    for (int i = 0; i < a->n_kw && !def->rest_kw; i++) {
        int k = 0;
        while (k < def->n_names && strcmp(def->names[k], a->kw_names[i]))
            k++;
        if (k == def->n_names)
            return ce_raise(ev, "%s() got an unexpected keyword argument '%s'", def->from, a->kw_names[i]);
    }
    return 0;
}

/* The parameters bound as the call's own names (from ev->frame on): the arguments, the
 * extra positional ones as the tuple *args, **kwargs as None (a dict is not read). */
static int bind_params(ce_ev *ev, const ce_stmt *def, const ce_args *a)
{
    ce_val *vals = ce_alloc(ev->arena, (size_t)(def->n_names + 1) * sizeof *vals);
    if (!vals)
        return ce_nomem(ev);
    for (int k = 0; k < def->n_names; k++) {
        int given;
        if (param_value(ev, def, k, a, &vals[k], &given))
            return -1;
        if (!given)
            return ce_raise(ev, "%s() is missing the argument '%s'", def->from, def->names[k]);
    }
    ev->frame = ev->n_names;
    for (int k = 0; k < def->n_names; k++)
        if (ce_bind(ev, def->names[k], &vals[k]))
            return -1;
    if (def->rest_args) {
        int extra = a->n_pos > def->n_names ? a->n_pos - def->n_names : 0;
        ce_seq *rest = ce_new_seq(ev, extra);
        if (!rest)
            return -1;
        memcpy(rest->v, a->pos + def->n_names, (size_t)extra * sizeof *rest->v);
        if (ce_bind(ev, def->rest_args, &(ce_val){.kind = CV_TUPLE, .seq = rest}))
            return -1;
    }
    if (def->rest_kw && ce_bind(ev, def->rest_kw, &(ce_val){.kind = CV_NONE}))
        return -1;
    return 0;
}

/* Run def's body as Python runs a call: its own names, gone after it; its return is the
 * value (None without one); what its lines compute is not the answer's last value. */
static int call_def(ce_ev *ev, const ce_stmt *def, ce_args *a, ce_val *out)
{
    for (int i = 0; i < ev->n_calls; i++)
        if (ev->calls[i] == def)
            return ce_unread(ev, "the function '%s' calls itself: a recursive function is not read",
                             def->from);
    if (ev->n_calls == CE_MAX_CALLS)
        return ce_unread(ev, "the functions call each other too deeply for the grader");
    if (args_fit(ev, def, a))
        return -1;
    if (def == ev->uncalled)
        ev->uncalled = NULL;
    int frame = ev->frame, n_names = ev->n_names, returned = ev->returned, has_last = ev->has_last;
    ce_val ret = ev->ret, last = ev->last;
    ev->calls[ev->n_calls++] = def;
    ev->returned = 0;
    int rc = bind_params(ev, def, a) || run_stmts(ev, def->body, def->n_body) ? -1 : 0;
    *out = ev->returned ? ev->ret : (ce_val){.kind = CV_NONE};
    ev->n_calls--;
    ev->frame = frame;
    ev->n_names = n_names;
    ev->returned = returned;
    ev->ret = ret;
    ev->has_last = has_last;
    ev->last = last;
    if (!rc && !ev->n_calls) {
        ev->last_call = *out;
        ev->has_last_call = 1;
    }
    return rc;
}

/* The question's tensor for parameter k of a function never called: Q, K, V in order,
 * under the names the setup gives them (Q, or q, query). NULL when it has none. */
static ce_val *question_tensor(ce_ev *ev, int k)
{
    static const char *const names[3][4] = {
        {"Q", "q", "query", "queries"}, {"K", "k", "key", "keys"}, {"V", "v", "value", "values"},
    };
    for (int i = 0; k < 3 && i < 4; i++) {
        ce_val *v = ce_lookup(ev, names[k][i]);
        if (v && v->kind == CV_TENSOR)
            return v;
    }
    return NULL;
}

int ce_call_uncalled(ce_ev *ev, const ce_stmt *def, ce_val *out)
{
    ce_args a = {.fname = def->from};
    a.pos = ce_alloc(ev->arena, (size_t)(def->n_names + 1) * sizeof *a.pos);
    if (!a.pos)
        return ce_nomem(ev);
    ev->at = def->at;
    /* positional up to the first parameter left to its default */
    for (int k = 0; k < def->n_names; k++) {
        ce_val *v = NULL;
        for (int i = 0; i < ev->n_setup && !v; i++)
            if (!strcmp(ev->names[i].name, def->names[k]))
                v = &ev->names[i].val;
        if (!v)
            v = question_tensor(ev, k);
        if (!v && def->defaults[k])
            break;
        if (!v)
            return ce_unread(ev, "the function '%s' is never called, and its parameter '%s' is none of "
                                 "the question's names: call it (%s(Q, K, V))", def->from, def->names[k],
                             def->from);
        a.pos[a.n_pos++] = *v;
    }
    return call_def(ev, def, &a, out);
}

int ce_run_program(ce_ev *ev, const ce_program *p)
{
    return run_stmts(ev, p->stmts, p->n);
}
