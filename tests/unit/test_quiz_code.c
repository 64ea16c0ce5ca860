/* Code answers (quiz/code.h): the evaluator of the PyTorch subset, and the answers a class
 * would type to the code lesson's last two find-the-bug questions, each with the verdict
 * and the diagnosis it must get, in both languages. */
#define _GNU_SOURCE
#include "check.h"
#include "lesson/lesson.h"
#include "quiz/bind.h"
#include "quiz/code.h"
#include "quiz/quiz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One answer and what it must get (tests/grading/code-answers.tsv says how it is written).
 *   want  'C' right, 'P' partly right (stops early), 'W' wrong, 'M' unreadable
 *   diag  W: the lesson's mistake name, or "shape", "nonfinite", "raises", "other",
 *            "nothing"; P: "early"; M: words the message must hold (English), "character"
 *            for a place named */
typedef struct answer_case {
    char question[32];
    char want;
    char diag[32];
    char *answer;
} answer_case;

#define POPULATION "tests/grading/code-answers.tsv"

/* The answers of one question from the population file; *n of them (caller frees each
 * answer and the array). */
static answer_case *load_population(const char *question, size_t *n)
{
    FILE *f = fopen(POPULATION, "r");
    assert_non_null(f);
    answer_case *cases = NULL;
    size_t cap = 0;
    *n = 0;
    char *line = NULL;
    size_t len = 0;
    while (getline(&line, &len, f) > 0) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *q = line, *w = strchr(q, '\t'), *d = w ? strchr(w + 1, '\t') : NULL, *ans = d ? strchr(d + 1, '\t') : NULL;
        assert_non_null(ans);
        *w++ = *d++ = *ans++ = '\0';
        if (strcmp(q, question))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            cases = realloc(cases, cap * sizeof *cases);
            assert_non_null(cases);
        }
        answer_case *c = &cases[(*n)++];
        snprintf(c->question, sizeof c->question, "%s", q);
        c->want = w[0];
        snprintf(c->diag, sizeof c->diag, "%s", strcmp(d, "-") ? d : "");
        c->answer = malloc(strlen(ans) + 1);
        assert_non_null(c->answer);
        char *o = c->answer;
        for (const char *p = ans; *p; p++) {
            if (*p == '\\' && (p[1] == 'n' || p[1] == 't' || p[1] == '\\')) {
                *o++ = p[1] == 'n' ? '\n' : p[1] == 't' ? '\t' : '\\';
                p++;
            } else {
                *o++ = *p;
            }
        }
        *o = '\0';
    }
    free(line);
    fclose(f);
    return cases;
}

static void free_population(answer_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(cases[i].answer);
    free(cases);
}

static const char *finding_name(const qz_code_judgement *j, const qz_question *q)
{
    switch (j->finding) {
    case QZ_CODE_RIGHT: return "right";
    case QZ_CODE_MISTAKE: return q->code_mistakes[j->mistake].name;
    case QZ_CODE_EARLY: return "early";
    case QZ_CODE_NONFINITE: return "nonfinite";
    case QZ_CODE_SHAPE: return "shape";
    case QZ_CODE_OTHER: return "other";
    case QZ_CODE_RAISED: return "raises";
    case QZ_CODE_NOTHING: return "nothing";
    case QZ_CODE_UNREAD: return "unreadable";
    }
    return "?";
}

/* A question of the code lesson, bound (b owns it; free with qz_bound_free). */
static at_lesson *load_code_lesson(const char *lang)
{
    char path[128];
    snprintf(path, sizeof path, "lessons/%s/11-attention-code.yaml", lang);
    at_lesson *l = NULL;
    at_diag_list d = {0};
    int rc = at_lesson_load(path, &l, &d);
    if (rc)
        at_diag_print(&d, stderr);
    at_diag_list_free(&d);
    assert_int_equal(rc, AT_OK);
    return l;
}

static void bind(const at_lesson *l, const char *id, qz_bound *b)
{
    const at_question *src = at_lesson_find_question(l, id, NULL);
    assert_non_null(src);
    at_error err;
    int rc = qz_bind_lesson_question(l, src, b, &err);
    if (rc)
        print_error("%s: %s\n", id, err.msg);
    assert_int_equal(rc, AT_OK);
    assert_int_equal(b->q.kind, QZ_CODE);
}

/* Judge every answer of a population; counts what came out as wanted. Fails the test
 * after printing every answer that did not. */
static void run_population(const char *lang, const char *id)
{
    size_t n;
    answer_case *cases = load_population(id, &n);
    at_lesson *l = load_code_lesson(lang);
    qz_bound b;
    bind(l, id, &b);
    qz_lang ql = qz_lang_from(lang);
    size_t right = 0, right_ok = 0, wrong = 0, wrong_refused = 0, wrong_diag = 0, unread = 0,
           unread_ok = 0, partial = 0, partial_ok = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
        const answer_case *c = &cases[i];
        qz_code_judgement j;
        at_error err;
        int rc = qz_code_judge(&b.q, c->answer, ql, &j, &err);
        if (rc) {
            print_error("%s %s: '%s': rc %d: %s\n", lang, id, c->answer, rc, err.msg);
            qz_code_judgement_free(&j);
            bad++;
            continue;
        }
        const char *got = finding_name(&j, &b.q);
        int ok;
        switch (c->want) {
        case 'C':
            right++;
            ok = j.finding == QZ_CODE_RIGHT;
            right_ok += ok;
            break;
        case 'P':
            partial++;
            ok = j.finding == QZ_CODE_EARLY;
            partial_ok += ok;
            break;
        case 'W':
            wrong++;
            wrong_refused += j.finding != QZ_CODE_RIGHT && j.finding != QZ_CODE_UNREAD;
            ok = !strcmp(got, c->diag);
            wrong_diag += ok;
            break;
        default:
            unread++;
            ok = j.finding == QZ_CODE_UNREAD &&
                 (ql != QZ_EN || (!strcmp(c->diag, "character") ? j.run.at >= 0 : strstr(j.run.msg, c->diag) != NULL));
            unread_ok += ok;
        }
        if (!ok) {
            bad++;
            print_error("%s %s: '%s': want %c %s, got %s%s%s\n", lang, id, c->answer, c->want, c->diag, got,
                        j.run.msg[0] ? ": " : "", j.run.msg);
        }
        qz_code_judgement_free(&j);
    }
    print_message("# %s %s: right accepted %zu/%zu; wrong refused %zu/%zu, diagnosed as wanted "
                  "%zu/%zu; partly right %zu/%zu; unreadable named %zu/%zu\n",
                  lang, id, right_ok, right, wrong_refused, wrong, wrong_diag, wrong, partial_ok,
                  partial, unread_ok, unread);
    qz_bound_free(&b);
    at_lesson_free(l);
    free_population(cases, n);
    if (bad)
        fail_msg("%zu answers of %s (%s) judged otherwise than wanted", bad, id, lang);
}

static void test_population_bug4_en(void **state)
{
    run_population("en", "code-bug-4");
}

static void test_population_bug4_zh(void **state)
{
    run_population("zh", "code-bug-4");
}

static void test_population_bug5_en(void **state)
{
    run_population("en", "code-bug-5");
}

static void test_population_bug5_zh(void **state)
{
    run_population("zh", "code-bug-5");
}

/* The population has what the exercise asks of it: 25 right and 20 wrong at least, and
 * a few the grader cannot read. */
static void test_population_size(void **state)
{
    const char *ids[] = {"code-bug-4", "code-bug-5"};
    for (int s = 0; s < 2; s++) {
        size_t n, right = 0, wrong = 0, unread = 0;
        answer_case *c = load_population(ids[s], &n);
        for (size_t i = 0; i < n; i++) {
            right += c[i].want == 'C';
            wrong += c[i].want == 'W' || c[i].want == 'P';
            unread += c[i].want == 'M';
        }
        free_population(c, n);
        assert_true(right >= 25);
        assert_true(wrong >= 20);
        assert_true(unread >= 3);
    }
}

/* ---- grading through qz_grade: the verdict, the lesson's own words, nothing given away */

static void grade(const char *lang, const char *id, const char *answer, qz_result *r)
{
    at_lesson *l = load_code_lesson(lang);
    qz_bound b;
    bind(l, id, &b);
    at_error err;
    int rc = qz_grade(&b.q, answer, qz_lang_from(lang), r, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, AT_OK);
    qz_bound_free(&b);
    at_lesson_free(l);
}

static void test_grade_feedback(void **state)
{
    qz_result r;
    grade("en", "code-bug-4", "scores = scores.masked_fill(~allowed, float('-inf')); out = F.softmax(scores, dim=-1) @ V", &r);
    assert_int_equal(r.verdict, QZ_CORRECT);
    assert_true(r.score == 1);
    qz_result_free(&r);

    grade("en", "code-bug-4", "scores = scores.masked_fill(~allowed, 0.0); out = F.softmax(scores, dim=-1) @ V", &r);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_int_equal(r.mistake, QZ_M_CODE);
    assert_non_null(strstr(r.feedback, "exp(0) = 1"));
    /* the right lines come only after reveal_at */
    assert_null(memmem(r.feedback, r.reveal_at, "masked_fill(~allowed, float(\"-inf\"))", 36));
    assert_non_null(strstr(r.feedback + r.reveal_at, "float(\"-inf\")"));
    qz_result_free(&r);

    grade("zh", "code-bug-4", "scores = scores.masked_fill(allowed, -1e9); out = F.softmax(scores, dim=-1) @ V", &r);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_non_null(strstr(r.feedback, "掩码反了"));
    qz_result_free(&r);

    grade("en", "code-bug-4", "scores = scores.masked_fill(~allowed, float('-inf'))", &r);
    assert_int_equal(r.verdict, QZ_PARTIAL);
    assert_true(r.score == 0.5);
    assert_non_null(strstr(r.feedback, "out"));
    qz_result_free(&r);

    grade("en", "code-bug-5", "concat = merge_heads(heads)", &r);
    assert_int_equal(r.verdict, QZ_MALFORMED);
    assert_non_null(strstr(r.feedback, "merge_heads"));
    assert_non_null(strstr(r.feedback, "character 10"));
    qz_result_free(&r);

    grade("zh", "code-bug-5", "concat = heads.transpose(1, 2).view(B, n, d_model)", &r);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_non_null(strstr(r.feedback, "view"));
    assert_non_null(strstr(r.feedback, "reshape"));
    qz_result_free(&r);

    grade("en", "code-bug-5", "concat = torch.cat(heads.unbind(1), dim=1)", &r);
    assert_int_equal(r.verdict, QZ_WRONG);
    assert_non_null(strstr(r.feedback, "(2, 12, 5)"));
    assert_non_null(strstr(r.feedback, "(B, n, d_model)"));
    qz_result_free(&r);

    /* a control character of the answer is never copied into the feedback raw */
    grade("en", "code-bug-5", "concat = evil\x1b]0;x\x07(heads)", &r);
    assert_int_equal(r.verdict, QZ_MALFORMED);
    assert_null(strchr(r.feedback, '\x1b'));
    assert_null(strchr(r.feedback, '\x07'));
    qz_result_free(&r);
}

/* ---- the evaluator itself */

static qz_code_env *env_of(const char *setup)
{
    qz_code_env *e = NULL;
    at_error err;
    int rc = qz_code_env_new(setup, QZ_EN, &e, &err);
    if (rc)
        print_error("setup: %s\n", err.msg);
    assert_int_equal(rc, AT_OK);
    return e;
}

static void run(const qz_code_env *e, const char *code, qz_code_outcome *o)
{
    at_error err;
    assert_int_equal(qz_code_run(e, code, NULL, QZ_EN, o, &err), AT_OK);
}

/* The value of code, which must run; the numbers are compared with want. */
static void expect_values(const qz_code_env *e, const char *code, int ndim, const long *shape,
                          const double *want)
{
    qz_code_outcome o;
    run(e, code, &o);
    if (o.status != QZ_CODE_RAN)
        print_error("'%s': status %d: %s\n", code, o.status, o.msg);
    assert_int_equal(o.status, QZ_CODE_RAN);
    assert_int_equal(o.value.ndim, ndim);
    long numel = 1;
    for (int i = 0; i < ndim; i++) {
        assert_int_equal(o.value.shape[i], shape[i]);
        numel *= shape[i];
    }
    for (long i = 0; i < numel; i++)
        if (!(fabs(o.value.data[i] - want[i]) <= 1e-9) && !(isnan(want[i]) && isnan(o.value.data[i]))) {
            print_error("'%s': [%ld] = %g, want %g\n", code, i, o.value.data[i], want[i]);
            fail();
        }
    qz_code_outcome_free(&o);
}

static void expect_status(const qz_code_env *e, const char *code, qz_code_status want, const char *words)
{
    qz_code_outcome o;
    run(e, code, &o);
    if (o.status != want || (words && !strstr(o.msg, words))) {
        print_error("'%s': status %d (want %d): %s\n", code, o.status, want, o.msg);
        fail();
    }
    qz_code_outcome_free(&o);
}

static void test_eval_layout(void **state)
{
    qz_code_env *e = env_of("x = torch.arange(12).reshape(2, 3, 2)");
    long s232[] = {2, 3, 2}, s322[] = {3, 2, 2}, s26[] = {2, 6}, s223[] = {2, 2, 3};
    double id[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    expect_values(e, "x", 3, s232, id);
    double t01[12] = {0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11};
    expect_values(e, "x.transpose(0, 1)", 3, s322, t01);
    expect_values(e, "x.permute(1, 0, 2).contiguous()", 3, s322, t01);
    expect_values(e, "x.reshape(2, -1)", 2, s26, id);
    double mt[12] = {0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11};
    expect_values(e, "x.mT", 3, s223, mt);
    expect_values(e, "x.transpose(-2, -1)", 3, s223, mt);
    expect_values(e, "einops.rearrange(x, 'a b c -> a c b')", 3, s223, mt);
    expect_values(e, "torch.einsum('abc->acb', x)", 3, s223, mt);
    double col[6] = {0, 2, 4, 6, 8, 10};
    long s23[] = {2, 3};
    expect_values(e, "x[..., 0]", 2, s23, col);
    expect_values(e, "x[:, :, 0]", 2, s23, col);
    /* view of a transposed tensor raises in PyTorch; reshape copies */
    expect_status(e, "x.transpose(0, 1).view(3, 4)", QZ_CODE_RAISES, "view");
    expect_status(e, "x.transpose(0, 1).reshape(5, 4)", QZ_CODE_RAISES, "shape");
    qz_code_env_free(e);
}

static void test_eval_softmax(void **state)
{
    qz_code_env *e = env_of("s = torch.tensor([[0.0, float('-inf')], [float('-inf'), float('-inf')]])");
    long s22[] = {2, 2};
    double w[4] = {1, 0, NAN, NAN};   /* a row of −∞ only is NaN, as in PyTorch */
    expect_values(e, "F.softmax(s, dim=-1)", 2, s22, w);
    double l2[4] = {0.5, 0.5, 0.5, 0.5};
    expect_values(e, "torch.softmax(torch.zeros(2, 2), 0)", 2, s22, l2);
    /* without dim, F.softmax takes dim 0 of a 3-D tensor (PyTorch's legacy rule) */
    long s211[] = {2, 1, 1};
    double half[2] = {0.5, 0.5};
    expect_values(e, "F.softmax(torch.zeros(2, 1, 1))", 3, s211, half);
    qz_code_env_free(e);
}

static void test_eval_pytorch_rules(void **state)
{
    qz_code_env *e = env_of("a = torch.ones(2, 2, dtype=torch.bool)\ns = torch.zeros(2, 2)");
    expect_status(e, "1 - a", QZ_CODE_RAISES, "bool");
    expect_status(e, "s.masked_fill(s, 1.0)", QZ_CODE_RAISES, "bool");
    expect_status(e, "torch.ones(3, 2) @ torch.ones(3, 2)", QZ_CODE_RAISES, "3");
    expect_status(e, "torch.ones(100000, 100000)", QZ_CODE_UNREADABLE, "large");
    expect_status(e, "foo(s)", QZ_CODE_UNREADABLE, "foo");
    expect_status(e, "s.frobnicate()", QZ_CODE_UNREADABLE, "frobnicate");
    expect_status(e, "lambda x: x", QZ_CODE_UNREADABLE, "lambda");
    expect_status(e, "while True: pass", QZ_CODE_UNREADABLE, "while");
    expect_status(e, "for i in range(100000000): s = s + 1", QZ_CODE_UNREADABLE, "long");
    /* deep nesting is refused, not a crash */
    char deep[600];
    memset(deep, '(', 300);
    deep[300] = '1';
    memset(deep + 301, ')', 298);
    deep[599] = '\0';
    expect_status(e, deep, QZ_CODE_UNREADABLE, NULL);
    long s22[] = {2, 2};
    double f[4] = {0, 0, 0, 0};
    expect_values(e, "~a", 2, s22, f);
    /* in-place changes reach every name of the tensor */
    double g[4] = {5, 5, 5, 5};
    expect_values(e, "t = s; s.masked_fill_(a, 5.0); t", 2, s22, g);
    qz_code_env_free(e);
}

static void test_eval_result_name(void **state)
{
    qz_code_env *e = env_of("x = torch.ones(2)");
    qz_code_outcome o;
    at_error err;
    assert_int_equal(qz_code_run(e, "out = x * 2; y = x * 3", "out", QZ_EN, &o, &err), AT_OK);
    assert_int_equal(o.status, QZ_CODE_RAN);
    assert_true(o.value.data[0] == 2);
    assert_int_equal(o.n_steps, 2);
    qz_code_outcome_free(&o);
    /* the run does not change the environment */
    assert_int_equal(qz_code_run(e, "x += 1", NULL, QZ_EN, &o, &err), AT_OK);
    qz_code_outcome_free(&o);
    assert_int_equal(qz_code_run(e, "x", NULL, QZ_EN, &o, &err), AT_OK);
    assert_true(o.value.data[0] == 1);
    qz_code_outcome_free(&o);
    /* a position is reported in bytes of the answer */
    assert_int_equal(qz_code_run(e, "y = x +* 2", NULL, QZ_EN, &o, &err), AT_OK);
    assert_int_equal(o.status, QZ_CODE_UNREADABLE);
    assert_int_equal(o.at, 7);
    qz_code_outcome_free(&o);
    qz_code_env_free(e);
    assert_string_equal(qz_code_env_name_of(e = env_of("B, n = 2, 4\nd = 4"), 2), "B");
    assert_null(qz_code_env_name_of(e, 4));
    qz_code_env_free(e);
}

/* ---- functions the answer defines (def) */

/* Judge one answer to a code question of the lesson: its finding ("right", a mistake's
 * name, "shape", "unreadable"…) and, for one refused, words of the message and the
 * character it names (from 1; 0: not checked). */
static void expect_judged(const char *lang, const char *id, const char *answer, const char *want,
                          const char *words, long at)
{
    at_lesson *l = load_code_lesson(lang);
    qz_bound b;
    bind(l, id, &b);
    qz_code_judgement j;
    at_error err;
    assert_int_equal(qz_code_judge(&b.q, answer, qz_lang_from(lang), &j, &err), AT_OK);
    const char *got = finding_name(&j, &b.q);
    if (strcmp(got, want) || (words && !strstr(j.run.msg, words)) || (at && j.run.at + 1 != at)) {
        print_error("%s %s: '%s': got %s (%s) at byte %ld; want %s (%s) at %ld\n", lang, id, answer, got,
                    j.run.msg, j.run.at, want, words ? words : "", at);
        fail();
    }
    qz_code_judgement_free(&j);
    qz_bound_free(&b);
    at_lesson_free(l);
}

/* A pasted function is judged by what it returns: called, or never called (then run on
 * the question's own tensors); a wrong one gets the diagnosis its lines get without def. */
static void test_def_judged(void **state)
{
    static const char *const right4[] = {
        "def attn(Q, K, V): s = scores.masked_fill(~allowed, float('-inf')); return F.softmax(s, dim=-1) @ V",
        "def attn(Q, K, V): s = scores.masked_fill(~allowed, float('-inf')); return F.softmax(s, dim=-1) @ V"
        "  out = attn(Q, K, V)",
        "def attn(q, k, v, mask):\n    s = q @ k.transpose(-2, -1) / d_k ** 0.5\n"
        "    s = s.masked_fill(mask, float('-inf'))\n    return F.softmax(s, dim=-1) @ v\n",
        "import torch\n\ndef attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,\n"
        "              mask=None) -> torch.Tensor:\n    \"\"\"Causal attention.\n\n    Hides the future.\"\"\"\n"
        "    scores = query @ key.transpose(-2, -1) / d_k ** 0.5\n\n"
        "    scores = scores.masked_fill(~allowed, float(\"-inf\"))  # 未来的位置\n"
        "    return F.softmax(scores, dim=-1) @ value\n\nout = attention(Q, K, V)\nprint(out.shape)\n",
        "def attn(Q, K, V, *args, **kwargs): return F.softmax(scores + M, dim=-1) @ V  print(attn(Q, K, V))",
        "def masked(s, keep=allowed): return s.masked_fill(~keep, -1e9)\n"
        "out = F.softmax(masked(scores), dim=-1) @ V",
    };
    for (size_t i = 0; i < sizeof right4 / sizeof *right4; i++) {
        expect_judged("en", "code-bug-4", right4[i], "right", NULL, 0);
        expect_judged("zh", "code-bug-4", right4[i], "right", NULL, 0);
    }
    /* heads is the setup's: bound by its name, not as Q */
    expect_judged("en", "code-bug-5", "def merge(heads): return heads.transpose(1, 2).reshape(B, n, d_model)",
                  "right", NULL, 0);
    expect_judged("zh", "code-bug-5", "def merge(heads):\n    return heads.reshape(B, n, d_model)", "tokens-mixed",
                  NULL, 0);
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): s = scores.masked_fill(~allowed, float('-inf')); "
                  "return F.softmax(s, dim=-2) @ V", "softmax-axis", NULL, 0);
    expect_judged("en", "code-bug-4", "def attn(Q, K, V):\n    w = F.softmax(scores, dim=-1).masked_fill(~allowed, 0.0)\n"
                  "    return w @ V\nout = attn(Q, K, V)", "after-softmax", NULL, 0);
    expect_judged("zh", "code-bug-4", "def attn(Q, K, V): return F.softmax(scores, dim=-1) @ V", "no-mask", NULL, 0);
    /* Python's rules for calls */
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): return F.softmax(scores + M, dim=-1) @ V  out = attn(Q, K)",
                  "raises", "missing the argument 'V'", 0);
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): return V  out = attn(Q, K, V, M)", "raises",
                  "takes 3 arguments but 4", 0);
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): scores = Q\nout = F.softmax(scores, dim=-1) @ V",
                  "no-mask", NULL, 0);   /* a function's names are its own */
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): scores = Q  out = F.softmax(scores, dim=-1) @ V",
                  "raises", "cannot be multiplied", 0);   /* on one line: both in its body */
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): out = F.softmax(scores + M, dim=-1) @ V", "nothing", NULL, 0);
    /* what is refused names the construct and its place */
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): return attn(Q, K, V)", "unreadable", "calls itself", 27);
    expect_judged("en", "code-bug-4", "def attn(Q, K, V):\n    def sm(x):\n        return x\n    return sm(V)",
                  "unreadable", "inside another function", 24);
    expect_judged("en", "code-bug-4", "class Attention(nn.Module):\n    def forward(self, q, k, v):\n        return v",
                  "unreadable", "a class is not read", 1);
    expect_judged("en", "code-bug-4", "def attn(x, y, z, w): return x", "unreadable", "parameter 'w'", 1);
    expect_judged("en", "code-bug-4", "def attn(Q, K, V): return V  lambda x: x", "unreadable", "lambda", 0);
}

/* The evaluator's calls: locals, keywords, defaults, *args, a docstring, the value. */
static void test_eval_def(void **state)
{
    qz_code_env *e = env_of("Q = torch.ones(2)\nK = torch.ones(2) * 2\nV = torch.ones(2) * 3");
    long s2[] = {2};
    double three[2] = {3, 3}, five[2] = {5, 5}, six[2] = {6, 6}, nine[2] = {9, 9};
    expect_values(e, "def f(a, b, c): return c", 1, s2, three);                     /* never called */
    expect_values(e, "def f(q, k, v): return q + k + v", 1, s2, six);
    expect_values(e, "def f(V, K, Q): return V", 1, s2, three);                      /* by name first */
    expect_values(e, "def f(a, b, c=None): return a + b\nf(K, V)", 1, s2, five);
    expect_values(e, "def f(a, b=V): return a + b\nout = f(K)", 1, s2, five);
    expect_values(e, "def f(a, b=V): return a + b\nout = f(b=K, a=K) * 1.25", 1, s2, five);
    expect_values(e, "def f(a, *rest): return a * len(rest)\nf(V, 1, 2, 3)", 1, s2, nine);
    expect_values(e, "def f(a, b, c):\n    '''Docstring.'''\n    return a + b + c\nprint(f(Q, K, V))", 1, s2, six);
    expect_values(e, "def f(a, b, c): return a  def g(a, b, c): return f(c, b, a) * 2\nout = g(Q, K, V)",
                  1, s2, six);
    /* a function's names are gone after it: Q is the setup's again */
    expect_values(e, "def f(a, b, c): Q = c; return Q\nout = f(Q, K, V) + Q + K", 1, s2, six);
    expect_status(e, "def f(a): return a\nf(Q, K)", QZ_CODE_RAISES, "takes 1 arguments but 2");
    expect_status(e, "def f(a): return a\nf(b=Q)", QZ_CODE_RAISES, "unexpected keyword argument 'b'");
    expect_status(e, "def f(a, a): return a", QZ_CODE_UNREADABLE, "named twice");
    expect_status(e, "def f(a):\n    return a\n    def g(): pass", QZ_CODE_UNREADABLE, "inside another function");
    expect_status(e, "def f(a): return g(a)\ndef g(a): return f(a)\nf(Q)", QZ_CODE_UNREADABLE, "calls itself");
    expect_status(e, "def f(a):\n    '''not closed\n    return a", QZ_CODE_UNREADABLE, "not closed");
    qz_code_env_free(e);
}

/* A lesson author's mistakes are checked by the same evaluator. */
static void test_check_question(void **state)
{
    qz_code_mistake m[2] = {
        {"same", (const char *const[]){"y = x * 2"}, 1, "same as canonical"},
        {"broken", (const char *const[]){"y = x @@ 2"}, 1, "cannot run"},
    };
    qz_question q = qz_question_init(QZ_CODE);
    q.id = "t";
    q.setup = "x = torch.ones(3)";
    q.result = "y";
    q.canonical = "y = x + x";
    q.code_mistakes = m;
    q.n_code_mistakes = 2;
    qz_code_problem p[8];
    int n = qz_code_check_question(&q, p, 8);
    assert_int_equal(n, 2);
    assert_int_equal(p[0].field, QZ_CODE_FIELD_MISTAKE);
    assert_int_equal(p[0].mistake, 0);
    assert_non_null(strstr(p[0].msg, "canonical"));
    assert_int_equal(p[1].mistake, 1);
    q.canonical = "z = x + x";
    n = qz_code_check_question(&q, p, 8);
    assert_true(n >= 1);
    assert_int_equal(p[0].field, QZ_CODE_FIELD_CANONICAL);
    assert_non_null(strstr(p[0].msg, "y"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_population_size),
        cmocka_unit_test(test_population_bug4_en),
        cmocka_unit_test(test_population_bug4_zh),
        cmocka_unit_test(test_population_bug5_en),
        cmocka_unit_test(test_population_bug5_zh),
        cmocka_unit_test(test_grade_feedback),
        cmocka_unit_test(test_eval_layout),
        cmocka_unit_test(test_eval_softmax),
        cmocka_unit_test(test_eval_pytorch_rules),
        cmocka_unit_test(test_eval_result_name),
        cmocka_unit_test(test_check_question),
        cmocka_unit_test(test_def_judged),
        cmocka_unit_test(test_eval_def),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
