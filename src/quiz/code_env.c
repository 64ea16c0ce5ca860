/* The code evaluator's memory (one arena a run), how a run stops (raise, unread), the
 * environments an answer runs in, and the public entry points of quiz/code.h: a run's
 * result chosen, exported and compared. */
#define _GNU_SOURCE
#include "quiz/code_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/visible.h"

/* ---- the arena */

void *ce_alloc(ce_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!n)
        n = 16;
    if (a->over || a->total + n > CE_MAX_BYTES) {
        a->over = 1;
        return NULL;
    }
    ce_block *b = a->head;
    if (!b || b->used + n > b->size) {
        size_t size = n > 65536 ? n : 65536;
        b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    a->total += n;
    memset(p, 0, n);
    return p;
}

char *ce_strndup(ce_arena *a, const char *s, size_t n)
{
    char *d = ce_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void ce_arena_free(ce_arena *a)
{
    for (ce_block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    memset(a, 0, sizeof *a);
}

/* ---- stopping a run */

static int stop(ce_ev *ev, qz_code_status st, const char *msgid, va_list ap)
{
    if (ev->status != QZ_CODE_RAN)
        return -1;   /* the first reason stands */
    ev->status = st;
    vsnprintf(ev->msg, sizeof ev->msg, qz_tr(ev->lang, msgid), ap);
    return -1;
}

int ce_raise(ce_ev *ev, const char *msgid, ...)
{
    va_list ap;
    va_start(ap, msgid);
    stop(ev, QZ_CODE_RAISES, msgid, ap);
    va_end(ap);
    return -1;
}

int ce_unread(ce_ev *ev, const char *msgid, ...)
{
    va_list ap;
    va_start(ap, msgid);
    stop(ev, QZ_CODE_UNREADABLE, msgid, ap);
    va_end(ap);
    return -1;
}

int ce_nomem(ce_ev *ev)
{
    if (ev->arena->over)
        return ce_unread(ev, "the code computes too much: too large for the grader");
    return ce_unread(ev, "out of memory");
}

int ce_tick(ce_ev *ev)
{
    if (++ev->steps > QZ_CODE_MAX_STEPS)
        return ce_unread(ev, "the code runs too long for the grader (more than %d steps)",
                         QZ_CODE_MAX_STEPS);
    return 0;
}

/* ---- environments */

struct qz_code_env {
    ce_arena arena;
    ce_binding *names;
    int n;
    unsigned long long seed;
};

typedef struct memo {
    const ce_tensor **from;
    ce_tensor **to;
    int n, cap;
} memo;

static ce_tensor *copy_tensor_memo(ce_ev *ev, const ce_tensor *t, memo *m)
{
    for (int i = 0; i < m->n; i++)
        if (m->from[i] == t)
            return m->to[i];
    ce_tensor *c = ct_copy(ev, t);
    if (!c)
        return NULL;
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 16;
        const ce_tensor **f = ce_alloc(ev->arena, (size_t)cap * sizeof *f);
        ce_tensor **to = ce_alloc(ev->arena, (size_t)cap * sizeof *to);
        if (!f || !to)
            return NULL;
        if (m->n) {
            memcpy(f, m->from, (size_t)m->n * sizeof *f);
            memcpy(to, m->to, (size_t)m->n * sizeof *to);
        }
        m->from = f;
        m->to = to;
        m->cap = cap;
    }
    m->from[m->n] = t;
    m->to[m->n++] = c;
    return c;
}

/* v copied into ev's arena (tensors shared between names stay shared). */
static int copy_val(ce_ev *ev, const ce_val *v, ce_val *out, memo *m)
{
    *out = *v;
    if (v->kind == CV_TENSOR)
        return (out->t = copy_tensor_memo(ev, v->t, m)) ? 0 : ce_nomem(ev);
    if (v->kind == CV_STR)
        return (out->str = ce_strndup(ev->arena, v->str, strlen(v->str))) ? 0 : ce_nomem(ev);
    if (v->kind == CV_TUPLE || v->kind == CV_LIST) {
        ce_seq *s = ce_new_seq(ev, v->seq->n);
        if (!s)
            return -1;
        s->named = v->seq->named;
        for (int i = 0; i < v->seq->n; i++)
            if (copy_val(ev, &v->seq->v[i], &s->v[i], m))
                return -1;
        out->seq = s;
    }
    if (v->kind == CV_FUNC && v->self) {
        ce_val *self = ce_alloc(ev->arena, sizeof *self);
        if (!self || copy_val(ev, v->self, self, m))
            return ce_nomem(ev);
        out->self = self;
    }
    return 0;
}

/* A run's evaluator over a copy of env (NULL: empty). */
static int ev_start(ce_ev *ev, ce_arena *arena, const qz_code_env *env, const char *code, qz_lang lang)
{
    memset(ev, 0, sizeof *ev);
    ev->arena = arena;
    ev->lang = lang;
    ev->code = code;
    ev->at = -1;
    ev->status = QZ_CODE_RAN;
    ev->seed = env ? env->seed : 1;
    memo m = {0};
    for (int i = 0; env && i < env->n; i++) {
        ce_val v;
        if (copy_val(ev, &env->names[i].val, &v, &m) || ce_bind(ev, env->names[i].name, &v))
            return -1;
    }
    ev->n_setup = ev->n_names;
    return 0;
}

/* Where a byte offset is in code: "line 2, column 5" (1-based, in characters). */
static void line_col(const char *code, long at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (long i = 0; code && i < at && code[i]; i++) {
        if (code[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)code[i] & 0xc0) != 0x80) {
            ++*col;
        }
    }
}

int qz_code_env_new(const char *setup, qz_lang lang, qz_code_env **out, at_error *err)
{
    *out = NULL;
    qz_code_env *env = calloc(1, sizeof *env);
    if (!env)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    ce_ev ev;
    ev_start(&ev, &env->arena, NULL, setup, lang);
    ce_program p;
    if (setup && *setup && (ce_read(&ev, setup, &p) || ce_run_program(&ev, &p))) {
        int line, col;
        line_col(setup, ev.at, &line, &col);
        int rc = ev.arena->over || ev.msg[0] ? AT_EINVAL : AT_ENOMEM;
        at_error_set(err, rc, "setup, line %d, column %d: %s", line, col, ev.msg);
        qz_code_env_free(env);
        return rc;
    }
    env->names = ev.names;
    env->n = ev.n_names;
    env->seed = ev.seed;
    *out = env;
    return AT_OK;
}

void qz_code_env_free(qz_code_env *env)
{
    if (!env)
        return;
    ce_arena_free(&env->arena);
    free(env);
}

static int export_tensor(const ce_tensor *t, qz_code_tensor *out)
{
    memset(out, 0, sizeof *out);
    out->ndim = t->ndim;
    memcpy(out->shape, t->shape, sizeof out->shape);
    out->numel = t->numel;
    out->is_bool = t->dtype == CE_BOOL;
    out->data = malloc((size_t)(t->numel ? t->numel : 1) * sizeof *out->data);
    if (!out->data)
        return -1;
    memcpy(out->data, t->data, (size_t)t->numel * sizeof *out->data);
    return 0;
}

int ce_env_holds(const qz_code_env *env, const qz_code_tensor *t)
{
    for (int i = 0; i < env->n; i++) {
        const ce_val *v = &env->names[i].val;
        if (v->kind != CV_TENSOR)
            continue;
        qz_code_tensor x;
        if (export_tensor(v->t, &x))
            return 0;
        int same = qz_code_tensor_same(&x, t);
        qz_code_tensor_free(&x);
        if (same)
            return 1;
    }
    return 0;
}

const char *qz_code_env_name_of(const qz_code_env *env, long value)
{
    const char *found = NULL;
    for (int i = 0; i < env->n; i++) {
        const ce_val *v = &env->names[i].val;
        if (v->kind == CV_NUM && v->ntype == CE_INT && ce_long_of(v->num) == value) {
            if (found)
                return NULL;
            found = env->names[i].name;
        }
    }
    return found;
}

/* ---- tensors out */

void qz_code_tensor_free(qz_code_tensor *t)
{
    if (t) {
        free(t->data);
        memset(t, 0, sizeof *t);
    }
}


int qz_code_tensor_same(const qz_code_tensor *a, const qz_code_tensor *b)
{
    if (a->ndim != b->ndim || a->numel != b->numel)
        return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return 0;
    for (long i = 0; i < a->numel; i++) {
        double x = a->data[i], y = b->data[i];
        if (isnan(x) || isnan(y)) {
            if (isnan(x) != isnan(y))
                return 0;
        } else if (isinf(x) || isinf(y)) {
            if (x != y)
                return 0;
        } else if (fabs(x - y) > 1e-6 * (1 + fabs(y))) {
            return 0;
        }
    }
    return 1;
}

void qz_code_outcome_free(qz_code_outcome *o)
{
    if (!o)
        return;
    qz_code_tensor_free(&o->value);
    for (size_t i = 0; i < o->n_steps; i++) {
        qz_code_tensor_free(&o->steps[i]);
        free(o->step_names ? o->step_names[i] : NULL);
    }
    free(o->steps);
    free(o->step_names);
    memset(o, 0, sizeof *o);
}

/* Did the code itself bind the name (not the setup)? */
static ce_val *bound_by_code(ce_ev *ev, const char *name)
{
    for (int i = ev->n_setup; name && i < ev->n_names; i++)
        if (!strcmp(ev->names[i].name, name))
            return &ev->names[i].val;
    for (int i = 0; name && i < ev->n_steps_v; i++)   /* a setup name assigned again */
        if (!strcmp(ev->steps_name[i], name))
            return ce_lookup(ev, name);
    return NULL;
}

/* The run's result: `result` if the code bound it, else a return, else the last value,
 * else what the last call of the answer's own function returned. */
static int result_of(ce_ev *ev, const char *result, ce_val *out)
{
    ce_val *r = bound_by_code(ev, result);
    if (r) {
        *out = *r;
        return 1;
    }
    if (ev->returned) {
        *out = ev->ret;
        return 1;
    }
    if (ev->has_last) {
        *out = ev->last;
        return 1;
    }
    if (ev->has_last_call && ev->last_call.kind != CV_NONE) {
        *out = ev->last_call;
        return 1;
    }
    return 0;
}

/* A function the answer defines and never calls, with nothing after it that gives a
 * value: the answer is what it returns on the question's tensors (a student pastes the
 * function alone). */
static void run_uncalled(ce_ev *ev, const char *result)
{
    ce_val v;
    if (ev->status != QZ_CODE_RAN || !ev->uncalled || ev->returned || ev->has_last ||
        bound_by_code(ev, result) || ce_call_uncalled(ev, ev->uncalled, &v))
        return;
    ev->last = v;
    ev->has_last = 1;
}

/* The run's stop reason into out, filtered for a terminal (engine/visible.h). */
static void copy_message(qz_code_outcome *out, const ce_ev *ev)
{
    out->status = ev->status;
    out->at = ev->at;
    char *clean = at_visible_copy(ev->msg, strlen(ev->msg), 0, NULL);
    snprintf(out->msg, sizeof out->msg, "%s", clean ? clean : "");
    free(clean);
}

static int finish(ce_ev *ev, const char *result, qz_code_outcome *out)
{
    if (ev->status != QZ_CODE_RAN) {
        copy_message(out, ev);
        return 0;
    }
    ce_val v;
    if (!result_of(ev, result, &v) || (v.kind != CV_TENSOR && v.kind != CV_NUM)) {
        out->status = QZ_CODE_NO_VALUE;
        out->at = -1;
        return 0;
    }
    ce_tensor *t = ct_of(ev, &v, CE_FLOAT);
    if (!t) {
        copy_message(out, ev);
        return 0;
    }
    out->status = QZ_CODE_RAN;
    out->result_bound = bound_by_code(ev, result) != NULL;
    if (export_tensor(t, &out->value))
        return -1;
    out->steps = calloc((size_t)(ev->n_steps_v ? ev->n_steps_v : 1), sizeof *out->steps);
    out->step_names = calloc((size_t)(ev->n_steps_v ? ev->n_steps_v : 1), sizeof *out->step_names);
    if (!out->steps || !out->step_names)
        return -1;
    for (int i = 0; i < ev->n_steps_v; i++) {
        if (!(out->step_names[i] = strdup(ev->steps_name[i])) || export_tensor(ev->steps_v[i], &out->steps[i])) {
            free(out->step_names[i]);
            return -1;
        }
        out->n_steps++;
    }
    return 0;
}

/* Is this a reason to try the formula reader: code that is no Python, or a name it does
 * not know (QK, T in QK^T)? */
static int formula_may_read(const ce_ev *ev, const char *code)
{
    if (ev->status != QZ_CODE_UNREADABLE)
        return 0;
    /* the formula reader passes over masked_fill's arguments and where(): what it would
     * compute is not what the code says; a def is Python that this reader read and
     * refused (a def inside a def, a call of itself), which the formula reader would
     * take apart */
    return !strstr(code, "masked_fill") && !strstr(code, "where") && !strstr(code, "[") &&
           !strstr(code, "def ");
}

int qz_code_run(const qz_code_env *env, const char *code, const char *result, qz_lang lang,
                qz_code_outcome *out, at_error *err)
{
    memset(out, 0, sizeof *out);
    out->at = -1;
    ce_arena arena = {0};
    ce_ev ev;
    int rc = AT_OK;
    if (ev_start(&ev, &arena, env, code, lang)) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    ce_program p;
    if (!ce_read(&ev, code, &p) && !ce_run_program(&ev, &p))
        run_uncalled(&ev, result);
    if (formula_may_read(&ev, code)) {
        /* math notation: softmax(QK^T/sqrt(d_k) + M) V */
        ce_arena farena = {0};
        ce_ev fev;
        ce_val v;
        int f = ev_start(&fev, &farena, env, code, lang) ? 1 : ce_formula(&fev, code, &v);
        /* a formula that computes, or that stops where PyTorch would (shapes that do not
         * fit): that is the answer; one with a name the setup lacks is not */
        if (f == 0 || (f < 0 && fev.status == QZ_CODE_RAISES)) {
            fev.last = v;
            fev.has_last = f == 0;
            if (finish(&fev, NULL, out))
                rc = at_error_set(err, AT_ENOMEM, "out of memory");
            out->as_formula = 1;
            ce_arena_free(&farena);
            goto out;
        }
        ce_arena_free(&farena);
    }
    if (finish(&ev, result, out))
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
out:
    if (rc)
        qz_code_outcome_free(out);
    ce_arena_free(&arena);
    return rc;
}
