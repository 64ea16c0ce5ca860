/* Checks of a loaded lesson that need its numbers; see verify.h. */
#define _GNU_SOURCE
#include "lesson/verify.h"

#include "lesson/rubriclint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistr.h>
#include <uniwidth.h>

typedef struct verifier {
    at_diag_list *diags;
    const char *file;
    size_t cells;             /* attention weights computed so far (AT_COMPUTE_MAX_CELLS) */
} verifier;

static void report(verifier *v, at_diag_level lvl, const ynode *at, const char *fmt, const char *msg)
{
    at_diag_add(v->diags, lvl, v->file, at ? at->line : 1, at ? at->col : 1, fmt, msg);
}

/* Count a computed block against the lesson's budget; 0 if it still fits. */
static int over_budget(verifier *v, const at_compute_result *r, const ynode *at)
{
    v->cells += r->heads * r->n_q * r->n_k;
    if (v->cells <= AT_COMPUTE_MAX_CELLS)
        return 0;
    report(v, AT_DIAG_ERROR, at, "%s", "this lesson computes more attention weights than a "
           "lesson may (split it, make the blocks smaller, or mark large demos `time: true`)");
    return 1;
}

static const ynode *item(const ynode *seq, size_t i)
{
    return seq && seq->type == YN_SEQ && i < seq->n ? seq->items[i] : NULL;
}

/* The node to blame for an expect entry: its checked value, else the entry. */
static const ynode *expect_node(const ynode *entry)
{
    static const char *keys[] = {"value", "at_least", "at_most"};
    const ynode *body = ynode_get(entry, "weight", NULL);
    if (!body)
        body = ynode_get(entry, "output", NULL);
    for (size_t i = 0; body && i < 3; i++) {
        const ynode *n = ynode_get(body, keys[i], NULL);
        if (n)
            return n;
    }
    const ynode *top = ynode_get(entry, "top", NULL);
    return top ? top : entry;
}

static void verify_expects(verifier *v, const at_expect *e, unsigned n,
                           const at_compute_result *r, const char *from_default,
                           const ynode *list)
{
    for (unsigned j = 0; j < n; j++) {
        char msg[400];
        int rc = at_expect_check(&e[j], r, from_default, msg, sizeof msg);
        const ynode *at = item(list, j);
        if (rc > 0)
            report(v, AT_DIAG_ERROR, at ? expect_node(at) : NULL, "expectation fails: %s", msg);
        else if (rc < 0)
            report(v, AT_DIAG_ERROR, at, "expectation cannot be checked: %s", msg);
    }
}

/* Where an at_error points (a matrix position) or, failing that, the node. */
static void report_err(verifier *v, const at_error *err, const ynode *fallback)
{
    if (err->line > 0)
        at_diag_add(v->diags, AT_DIAG_ERROR, v->file, err->line, err->col, "%s", err->msg);
    else
        report(v, AT_DIAG_ERROR, fallback, "%s", err->msg);
}

/* The value of the first `key` a message names that the mapping has, else the mapping. */
static const ynode *blamed_key(const ynode *map, const char *msg)
{
    for (const char *p = strchr(msg, '`'); p; p = strchr(p + 1, '`')) {
        const char *e = strchr(p + 1, '`');
        char key[32];
        if (!e || (size_t)(e - p - 1) >= sizeof key)
            break;
        memcpy(key, p + 1, (size_t)(e - p - 1));
        key[e - p - 1] = '\0';
        const ynode *n = ynode_get(map, key, NULL);
        if (n)
            return n;
        p = e;
    }
    return map;
}

/* A prediction the engine can answer (its row, key, column exist; a choice has a right
 * option): else an error at its `predict`. */
static void verify_predict(verifier *v, const at_predict *p, const at_compute_result *r,
                           const char *from_default, const ynode *node)
{
    at_predict_answer a;
    char msg[400];
    if (p && at_predict_answer_of(p, r, from_default, &a, msg, sizeof msg))
        report(v, AT_DIAG_ERROR, ynode_get(node, "predict", NULL), "the prediction cannot be "
               "answered: %s", msg);
}

static void verify_compute(verifier *v, at_step_calc *calc, const at_compute *c,
                           const ynode *node)
{
    at_error err;
    if ((c->time && *c->time) || v->cells > AT_COMPUTE_MAX_CELLS)
        return;                      /* timed live by the tutor / over budget (reported) */
    at_compute_result *r = calloc(1, sizeof *r);
    if (!r || at_compute_run(c, r, &err)) {
        if (r)
            report_err(v, &err, blamed_key(node, err.msg));
        free(r);
        return;
    }
    calc->compute = r;
    if (over_budget(v, r, node))
        return;
    verify_expects(v, c->expect, c->expect_count, r, NULL, ynode_get(node, "expect", NULL));
    verify_predict(v, c->predict, r, NULL, node);
}

static void record_code(verifier *v, at_step_calc *calc, const at_question *q, const ynode *node);

static void verify_question(verifier *v, at_step_calc *calc, const at_question *q,
                            const ynode *node)
{
    at_error err;
    if (v->cells > AT_COMPUTE_MAX_CELLS)
        return;
    at_question_calc *qc = calloc(1, sizeof *qc);
    if (!qc || at_question_compute(q, qc, &err)) {
        if (qc)
            report_err(v, &err, blamed_key(node, err.msg));
        free(qc);
        return;
    }
    calc->question = qc;
    if (qc->attn.weights && over_budget(v, &qc->attn, node))
        return;
    if (q->kind == AT_Q_CHOICE) {
        unsigned right = 0;
        for (unsigned i = 0; i < q->options_count; i++)
            right += q->options[i].correct;
        const ynode *opts = ynode_get(node, "options", NULL);
        if (right == 0)
            report(v, AT_DIAG_ERROR, opts, "%s", "no option is marked `correct: true`");
        else if (right > 1 && !(q->multiple && *q->multiple))
            report(v, AT_DIAG_ERROR, opts, "%s", "several options are correct: add `multiple: true`");
    }
    for (unsigned i = 0; q->kind == AT_Q_NUMERIC && qc->n == 1 && i < q->slips_count; i++)
        if (fabs(q->slips[i].value - qc->expected[0]) <= qc->tolerance * (1 + 1e-9))
            report(v, AT_DIAG_ERROR, ynode_get(item(ynode_get(node, "slips", NULL), i), "value", NULL),
                   "%s", "this slip's `value` is the right answer (within the tolerance): a slip "
                   "is a wrong value");
    if (q->kind == AT_Q_TEXT && q->min_concepts && *q->min_concepts > q->rubric_count)
        report(v, AT_DIAG_ERROR, ynode_get(node, "min_concepts", NULL), "%s",
               "`min_concepts` is larger than the number of rubric concepts");
    at_lint_rubric(q, node, v->file, v->diags);
    record_code(v, calc, q, node);
}

/* A code question: where its fields are, for the checks that run its code (they live in
 * src/quiz, which lessons do not call: attn-tutor lint runs them on the loaded lesson). */
static void record_code(verifier *v, at_step_calc *calc, const at_question *q, const ynode *node)
{
    if (q->kind != AT_Q_CODE)
        return;
    at_code_where *w = calloc(1, sizeof *w);
    unsigned n = 0;
    for (unsigned i = 0; i < q->mistakes_count; i++)
        n += q->mistakes[i].answers_count;
    if (!w || !(w->answer_line = calloc(n ? n : 1, sizeof *w->answer_line)) ||
        !(w->answer_col = calloc(n ? n : 1, sizeof *w->answer_col))) {
        if (w) {
            free(w->answer_line);
            free(w);
        }
        return;
    }
    const ynode *s = ynode_get(node, "setup", NULL), *r = ynode_get(node, "result", NULL),
                *c = ynode_get(node, "canonical", NULL), *ms = ynode_get(node, "mistakes", NULL);
    w->setup_line = s ? s->line : node->line;
    w->setup_col = s ? s->col : node->col;
    w->result_line = r ? r->line : node->line;
    w->result_col = r ? r->col : node->col;
    w->canonical_line = c ? c->line : node->line;
    w->canonical_col = c ? c->col : node->col;
    for (unsigned i = 0; i < q->mistakes_count; i++) {
        const ynode *answers = ynode_get(item(ms, i), "answers", NULL);
        for (unsigned k = 0; k < q->mistakes[i].answers_count; k++) {
            const ynode *a = item(answers, k);
            w->answer_line[w->n_answers] = a ? a->line : node->line;
            w->answer_col[w->n_answers++] = a ? a->col : node->col;
        }
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(q->mistakes[j].name, q->mistakes[i].name))
                report(v, AT_DIAG_ERROR, ynode_get(item(ms, i), "name", NULL),
                       "mistake name '%s' is used twice in this question", q->mistakes[i].name);
    }
    calc->code = w;
}

static int valid_id(const char *id)
{
    if (!*id)
        return 0;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_'))
            return 0;
    return 1;
}

static void verify_lab(verifier *v, const at_lab *lab, const at_model *m, const ynode *node)
{
    at_lab_result r;
    at_error err;
    if (!m) {   /* the options of a choice are checked without a model */
        at_compute_result none = {0};
        if (lab->predict && lab->predict->kind == AT_PREDICT_CHOICE)
            verify_predict(v, lab->predict, &none, lab->focus, node);
        return;
    }
    if (at_lab_run(lab, m, &r, &err))
        report(v, AT_DIAG_ERROR, node, "%s", err.msg);
    else {
        verify_expects(v, lab->expect, lab->expect_count, &r.view, lab->focus,
                       ynode_get(node, "expect", NULL));
        verify_predict(v, lab->predict, &r.view, lab->focus, node);
    }
    at_lab_result_free(&r);
}

void at_verify_lesson(at_lesson *l, const ynode *root, const char *data, size_t len,
                      const at_model *m, at_diag_list *diags)
{
    verifier v = {diags, l->path, 0};
    const at_lesson_doc *d = l->doc;
    if (!valid_id(d->id))
        report(&v, AT_DIAG_ERROR, ynode_get(root, "id", NULL),
               "`id` '%s' may hold only letters, digits, '-' and '_'", d->id);
    const ynode *steps = ynode_get(root, "steps", NULL), *idn = ynode_get(root, "id", NULL);
    l->id_line = idn ? idn->line : 1;
    l->id_col = idn ? idn->col : 1;
    at_lint_lesson_misconceptions(d, root, l->path, diags);
    const ynode *langn = ynode_get(root, "lang", NULL);
    l->lang_line = langn ? langn->line : 1;
    l->lang_col = langn ? langn->col : 1;
    for (unsigned i = 0; i < d->steps_count; i++) {
        const at_step *s = &d->steps[i];
        const ynode *sn = item(steps, i);
        l->calc[i].line = sn ? sn->line : 1;
        l->calc[i].col = sn ? sn->col : 1;
        if (s->lab)
            verify_lab(&v, s->lab, m, ynode_get(sn, "lab", NULL));
        if (s->compute)
            verify_compute(&v, &l->calc[i], s->compute, ynode_get(sn, "compute", NULL));
        if (!s->question)
            continue;
        const ynode *qn = ynode_get(sn, "question", NULL);
        verify_question(&v, &l->calc[i], s->question, qn);
        for (unsigned j = 0; j < i; j++)
            if (d->steps[j].question && !strcmp(d->steps[j].question->id, s->question->id))
                report(&v, AT_DIAG_ERROR, ynode_get(qn, "id", NULL),
                       "question id '%s' is used twice in this lesson", s->question->id);
        const char *fu = s->question->follow_up;
        const at_question *fq = fu ? at_lesson_find_question(l, fu, NULL) : NULL;
        if (fu && (!fq || fq->kind != AT_Q_TEXT || fq == s->question))
            report(&v, AT_DIAG_ERROR, ynode_get(qn, "follow_up", NULL),
                   "`follow_up` '%s' is not a text question of this lesson", fu);
    }
    at_verify_widths(l->path, data, len, diags);
}

void at_verify_widths(const char *name, const char *data, size_t len, at_diag_list *diags)
{
    const uint8_t *p = (const uint8_t *)data, *end = p + len;
    for (int line = 1; p < end; line++) {
        int width = 0, col = 0, warned = 0;
        const uint8_t *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q < end && *q == '#')
            warned = 1;          /* a comment line: for the instructor, not shown */
        while (p < end && *p != '\n') {
            ucs4_t uc;
            int n = u8_mbtouc(&uc, p, (size_t)(end - p));
            int w = uc_width(uc, "UTF-8");
            width += w > 0 ? w : 0;
            col++;
            if (width > AT_LESSON_MAX_COLUMNS && !warned) {
                at_diag_add(diags, AT_DIAG_WARNING, name, line, col,
                            "line is wider than %d columns: hard to read in a terminal; break it",
                            AT_LESSON_MAX_COLUMNS);
                warned = 1;
            }
            p += n > 0 ? n : 1;
        }
        p++;
    }
}
