/* Code answers judged and graded (quiz/code.h): the answer, the canonical lines and the
 * known mistakes run on the question's setup, the results compared, and feedback that says
 * what the answer breaks; the lesson author's question checked by the same runs. */
#define _GNU_SOURCE
#include "quiz/code_impl.h"
#include "quiz/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void qz_code_judgement_free(qz_code_judgement *j)
{
    if (!j)
        return;
    qz_code_outcome_free(&j->run);
    qz_code_outcome_free(&j->expected);
    qz_code_env_free(j->own_env);
    memset(j, 0, sizeof *j);
}

static int has_nonfinite(const qz_code_tensor *t)
{
    for (long i = 0; i < t->numel; i++)
        if (!isfinite(t->data[i]))
            return 1;
    return 0;
}

/* Is t one of the setup's tensors (a step that changes nothing)? */
static int in_setup(const qz_code_env *env, const qz_code_tensor *t)
{
    return ce_env_holds(env, t);
}

int qz_code_judge(const qz_question *q, const char *answer, qz_lang lang, qz_code_judgement *j,
                  at_error *err)
{
    memset(j, 0, sizeof *j);
    const char *id = q->id ? q->id : "?";
    if (!q->canonical || !q->result)
        return at_error_set(err, AT_ERANGE, "question %s: a code question needs `canonical` and `result`", id);
    at_error e2;
    int rc = qz_code_env_new(q->setup, lang, &j->own_env, &e2);
    if (rc)
        return at_error_set(err, rc == AT_ENOMEM ? rc : AT_ERANGE, "question %s: its setup does not run: %s",
                            id, e2.msg);
    j->env = j->own_env;
    if ((rc = qz_code_run(j->env, q->canonical, q->result, lang, &j->expected, err)))
        return rc;
    if (j->expected.status != QZ_CODE_RAN)
        return at_error_set(err, AT_ERANGE, "question %s: its canonical lines do not run: %s", id,
                            j->expected.msg);
    if ((rc = qz_code_run(j->env, answer, q->result, lang, &j->run, err)))
        return rc;
    const qz_code_outcome *r = &j->run;
    switch (r->status) {
    case QZ_CODE_UNREADABLE: j->finding = QZ_CODE_UNREAD; return AT_OK;
    case QZ_CODE_RAISES: j->finding = QZ_CODE_RAISED; return AT_OK;
    case QZ_CODE_NO_VALUE: j->finding = QZ_CODE_NOTHING; return AT_OK;
    case QZ_CODE_RAN: break;
    }
    const qz_code_tensor *want = &j->expected.value;
    if (qz_code_tensor_same(&r->value, want)) {
        j->finding = QZ_CODE_RIGHT;
        return AT_OK;
    }
    for (size_t m = 0; m < q->n_code_mistakes; m++)
        for (size_t k = 0; k < q->code_mistakes[m].n_answers; k++) {
            qz_code_outcome o;
            if ((rc = qz_code_run(j->env, q->code_mistakes[m].answers[k], q->result, lang, &o, err)))
                return rc;
            int same = o.status == QZ_CODE_RAN && qz_code_tensor_same(&r->value, &o.value);
            qz_code_outcome_free(&o);
            if (same) {
                j->finding = QZ_CODE_MISTAKE;
                j->mistake = m;
                return AT_OK;
            }
        }
    for (size_t s = 0; s < j->expected.n_steps; s++)
        if (qz_code_tensor_same(&r->value, &j->expected.steps[s]) && !in_setup(j->env, &j->expected.steps[s])) {
            j->finding = QZ_CODE_EARLY;
            j->step = s;
            return AT_OK;
        }
    int same_shape = r->value.ndim == want->ndim &&
                     !memcmp(r->value.shape, want->shape, sizeof(long) * (size_t)want->ndim);
    if (has_nonfinite(&r->value) && !has_nonfinite(want))
        j->finding = QZ_CODE_NONFINITE;
    else if (!same_shape)
        j->finding = QZ_CODE_SHAPE;
    else
        j->finding = QZ_CODE_OTHER;
    return AT_OK;
}

/* ---- feedback */

/* "(2, 4, 5)", and " (B, n, d_v)" in sym when every size has a name of its own. */
static void shape_names(const qz_code_env *env, const qz_code_tensor *t, char *num, size_t ncap, char *sym,
                        size_t scap)
{
    ct_shape_text(t->shape, t->ndim, num, ncap);
    size_t n = (size_t)snprintf(sym, scap, "(");
    for (int i = 0; i < t->ndim; i++) {
        const char *name = qz_code_env_name_of(env, t->shape[i]);
        if (!name || n + strlen(name) + 4 >= scap) {
            sym[0] = '\0';
            return;
        }
        n += (size_t)snprintf(sym + n, scap - n, "%s%s", i ? ", " : "", name);
    }
    snprintf(sym + n, scap - n, t->ndim == 1 ? ",)" : ")");
    if (t->ndim == 0)
        sym[0] = '\0';
}

/* "[0, 1, 2]": the index of element i of t. */
static void index_text(const qz_code_tensor *t, long i, char *buf, size_t cap)
{
    long idx[QZ_CODE_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = t->shape[d] ? i % t->shape[d] : 0;
        i = t->shape[d] ? i / t->shape[d] : 0;
    }
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (int d = 0; d < t->ndim && n < cap; d++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%ld", d ? ", " : "", idx[d]);
    if (n < cap)
        snprintf(buf + n, cap - n, "]");
}

/* Where in the answer, as "character N" (characters, not bytes). */
static long char_at(const char *answer, long at)
{
    long chars = 0;
    for (long k = 0; k < at && answer[k]; k++)
        chars += ((unsigned char)answer[k] & 0xc0) != 0x80;
    return chars + 1;
}

static void indent(FILE *fb, const char *text)
{
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n");
        if (n)
            fprintf(fb, "    %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

int qz_grade_code(const qz_question *q, const char *answer, qz_lang lang, qz_result *out, FILE *fb,
                  at_error *err)
{
    qz_code_judgement j;
    int rc = qz_code_judge(q, answer, lang, &j, err);
    if (rc) {
        qz_code_judgement_free(&j);
        return rc;
    }
    out->expected = strdup(q->canonical);
    const char *res = q->result;
    const qz_code_outcome *r = &j.run;
    char a[96], b[96], sa[160], sb[160];
    switch (j.finding) {
    case QZ_CODE_UNREAD:
        out->verdict = QZ_MALFORMED;
        if (r->at >= 0)
            fprintf(fb, qz_tr(lang, "The grader cannot read this code at character %ld: %s.\n"),
                    char_at(answer, r->at), r->msg);
        else
            fprintf(fb, qz_tr(lang, "The grader cannot read this code: %s.\n"), r->msg);
        fprintf(fb, qz_tr(lang, "Nothing was counted: write the lines in Python with PyTorch, as in the "
                                "lesson.\n"));
        break;
    case QZ_CODE_NOTHING:
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "This code computes no tensor. Nothing was counted: type the lines that "
                                "compute %s.\n"), res);
        break;
    case QZ_CODE_RIGHT:
        out->verdict = QZ_CORRECT;
        out->score = 1;
        shape_names(j.env, &r->value, a, sizeof a, sa, sizeof sa);
        fprintf(fb, qz_tr(lang, "Correct: your code computes %s %s as the right lines do.\n"), res, a);
        break;
    case QZ_CODE_EARLY:
        out->verdict = QZ_PARTIAL;
        out->score = 0.5;
        out->mistake = QZ_M_CODE;
        fprintf(fb, qz_tr(lang, "Partly right: your code computes %s right, but stops there: the lines "
                                "go on to %s.\n"), j.expected.step_names[j.step], res);
        break;
    default:
        out->verdict = QZ_WRONG;
        out->mistake = QZ_M_CODE;
        fprintf(fb, "%s", qz_tr(lang, "Not right.\n"));
        out->body_at = qz_fb_pos(fb);
        if (j.finding == QZ_CODE_MISTAKE) {
            const char *f = q->code_mistakes[j.mistake].feedback;
            fprintf(fb, "%s%s", f ? f : "", f && *f && f[strlen(f) - 1] == '\n' ? "" : "\n");
        } else if (j.finding == QZ_CODE_RAISED) {
            if (r->at >= 0)
                fprintf(fb, qz_tr(lang, "PyTorch would stop with an error at character %ld: %s.\n"),
                        char_at(answer, r->at), r->msg);
            else
                fprintf(fb, qz_tr(lang, "PyTorch would stop with an error: %s.\n"), r->msg);
        } else if (j.finding == QZ_CODE_NONFINITE) {
            long i = 0;
            while (i < r->value.numel && isfinite(r->value.data[i]))
                i++;
            index_text(&r->value, i, a, sizeof a);
            fprintf(fb, qz_tr(lang, "%s holds NaN or infinite numbers (the first at %s) where the right "
                                    "lines give none: a softmax row whose scores are all −∞, or −∞ "
                                    "that reaches a product or a sum after the softmax, makes them.\n"),
                    res, a);
        } else if (j.finding == QZ_CODE_SHAPE) {
            shape_names(j.env, &r->value, a, sizeof a, sa, sizeof sa);
            shape_names(j.env, &j.expected.value, b, sizeof b, sb, sizeof sb);
            if (*sb)
                fprintf(fb, qz_tr(lang, "%s has the shape %s here; the right lines give %s, that is %s.\n"),
                        res, a, b, sb);
            else
                fprintf(fb, qz_tr(lang, "%s has the shape %s here; the right lines give %s.\n"), res, a, b);
        } else {
            long i = 0;
            const qz_code_tensor *x = &r->value, *y = &j.expected.value;
            while (i < x->numel && fabs(x->data[i] - y->data[i]) <= 1e-6 * (1 + fabs(y->data[i])))
                i++;
            shape_names(j.env, x, a, sizeof a, sa, sizeof sa);
            index_text(x, i, b, sizeof b);
            fprintf(fb, qz_tr(lang, "%s has the right shape %s but other numbers (the first that differs "
                                    "is at %s).\n"), res, a, b);
        }
    }
    if (out->verdict != QZ_WRONG)
        out->body_at = 0;
    if (out->verdict != QZ_CORRECT && out->verdict != QZ_MALFORMED) {
        out->reveal_at = qz_fb_pos(fb);
        fprintf(fb, "%s", qz_tr(lang, "Expected:\n"));
        indent(fb, q->canonical);
        if (q->explanation)
            fprintf(fb, "\n%s%s", q->explanation,
                    *q->explanation && q->explanation[strlen(q->explanation) - 1] == '\n' ? "" : "\n");
    }
    qz_code_judgement_free(&j);
    return AT_OK;
}

/* ---- the lesson author's question */

/* One problem into out[*n] (when it fits; lint's messages are English). */
static int problem(qz_code_problem *out, size_t cap, int *n, qz_code_field field, size_t m, size_t k,
                   const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static int problem(qz_code_problem *out, size_t cap, int *n, qz_code_field field, size_t m, size_t k,
                   const char *fmt, ...)
{
    if ((size_t)*n < cap) {
        out[*n] = (qz_code_problem){.field = field, .mistake = m, .answer = k};
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(out[*n].msg, sizeof out[*n].msg, fmt, ap);
        va_end(ap);
    }
    return ++*n;
}

int qz_code_check_question(const qz_question *q, qz_code_problem *out, size_t cap)
{
    int n = 0;
    at_error err;
    qz_code_env *env;
    int rc = qz_code_env_new(q->setup, QZ_EN, &env, &err);
    if (rc == AT_ENOMEM)
        return -1;
    if (rc) {
        problem(out, cap, &n, QZ_CODE_FIELD_SETUP, 0, 0, "`setup` does not run: %.300s", err.msg);
        return n;
    }
    if (!q->result || !*q->result)
        problem(out, cap, &n, QZ_CODE_FIELD_RESULT, 0, 0, "`result` names nothing");
    qz_code_outcome want = {0};
    if (!q->canonical || qz_code_run(env, q->canonical, q->result, QZ_EN, &want, &err)) {
        qz_code_env_free(env);
        return q->canonical ? -1 : problem(out, cap, &n, QZ_CODE_FIELD_CANONICAL, 0, 0, "`canonical` is missing");
    }
    char where[48] = "";
    if (want.at >= 0)
        snprintf(where, sizeof where, " at character %ld", char_at(q->canonical, want.at));
    if (want.status == QZ_CODE_UNREADABLE || want.status == QZ_CODE_RAISES)
        problem(out, cap, &n, QZ_CODE_FIELD_CANONICAL, 0, 0, "the canonical lines do not run%s: %.300s", where, want.msg);
    else if (want.status == QZ_CODE_NO_VALUE || !want.result_bound)
        problem(out, cap, &n, QZ_CODE_FIELD_CANONICAL, 0, 0,
                "the canonical lines do not assign a tensor to `%s` (the question's `result`)",
                q->result ? q->result : "");
    for (size_t m = 0; m < q->n_code_mistakes; m++)
        for (size_t k = 0; k < q->code_mistakes[m].n_answers; k++) {
            const char *code = q->code_mistakes[m].answers[k];
            qz_code_outcome o;
            if (qz_code_run(env, code, q->result, QZ_EN, &o, &err)) {
                qz_code_outcome_free(&want);
                qz_code_env_free(env);
                return -1;
            }
            where[0] = '\0';
            if (o.at >= 0)
                snprintf(where, sizeof where, " at character %ld", char_at(code, o.at));
            if (o.status == QZ_CODE_UNREADABLE || o.status == QZ_CODE_RAISES)
                problem(out, cap, &n, QZ_CODE_FIELD_MISTAKE, m, k, "this answer does not run%s: %.300s",
                        where, o.msg);
            else if (o.status == QZ_CODE_NO_VALUE)
                problem(out, cap, &n, QZ_CODE_FIELD_MISTAKE, m, k, "this answer computes no tensor");
            else if (want.status == QZ_CODE_RAN && qz_code_tensor_same(&o.value, &want.value))
                problem(out, cap, &n, QZ_CODE_FIELD_MISTAKE, m, k, "this answer computes what the canonical "
                        "lines compute: it is no mistake");
            qz_code_outcome_free(&o);
        }
    qz_code_outcome_free(&want);
    qz_code_env_free(env);
    return n;
}
