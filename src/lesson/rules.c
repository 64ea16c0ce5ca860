/* The format's structural rules, beyond what a schema says: one kind per step,
 * the fields each question kind uses, one source per compute block, one
 * assertion per expect entry. Run on the node tree, so every error has its place. */
#define _GNU_SOURCE
#include "lesson/rules.h"

#include <stdio.h>
#include <string.h>

static const char *const step_kinds[] = {"text", "table", "formula", "code",
                                         "lab", "compute", "question"};
#define N_STEP_KINDS (sizeof step_kinds / sizeof step_kinds[0])

typedef struct kind_rule {
    const char *kind;
    const char *uses;          /* space-separated keys this kind may have */
    const char *needs;         /* space-separated keys it must have */
} kind_rule;

static const char *const common_keys = "id kind prompt hints explanation";
static const kind_rule question_rules[] = {
    {"softmax", "tokens scores ask glosses decimals tolerance", "tokens scores ask"},
    {"numeric", "value tolerance relative decimals slips", "value"},
    {"attention", "tokens glosses q k v mask scale ask row decimals tolerance", "q k v ask row"},
    {"choice", "options multiple", "options"},
    {"formula", "canonical follow_up", "canonical"},
    {"text", "rubric misconceptions reference min_concepts", "rubric reference"},
    {"code", "setup result canonical mistakes", "setup result canonical"},
};

/* Is word one of the space-separated words of list? */
static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, word, n))
            return 1;
        p += len + (e != NULL);
    }
    return 0;
}

static void check_question(at_checker *c, const ynode *q)
{
    const ynode *kind = ynode_get(q, "kind", NULL);
    if (!kind || kind->type != YN_SCALAR)
        return;                                   /* reported by the schema pass */
    const kind_rule *r = NULL;
    for (size_t i = 0; i < sizeof question_rules / sizeof question_rules[0]; i++)
        if (!strcmp(question_rules[i].kind, kind->value))
            r = &question_rules[i];
    if (!r)
        return;
    for (size_t i = 0; i + 1 < q->n; i += 2) {
        const char *key = q->items[i]->value;
        int known = 0;
        for (const cyaml_schema_field_t *f = at_question_fields; f->key; f++)
            known |= !strcmp(f->key, key);
        if (known && !in_list(common_keys, key) && !in_list(r->uses, key))
            at_err(c, q->items[i], "`%s` is not used by a %s question (it uses: %s)", key,
                   r->kind, r->uses);
    }
    char need[128];
    snprintf(need, sizeof need, "%s", r->needs);
    for (char *w = strtok(need, " "); w; w = strtok(NULL, " "))
        if (!ynode_get(q, w, NULL))
            at_err(c, q, "a %s question needs `%s`", r->kind, w);
}

static void check_expect(at_checker *c, const ynode *list, int in_lab)
{
    if (!list || list->type != YN_SEQ)
        return;
    for (size_t i = 0; i < list->n; i++) {
        const ynode *e = list->items[i];
        if (e->type != YN_MAP)
            continue;
        int kinds = !!ynode_get(e, "top", NULL) + !!ynode_get(e, "weight", NULL) +
                    !!ynode_get(e, "output", NULL);
        if (kinds != 1)
            at_err(c, e, "an expect entry has exactly one of `top`, `weight`, `output` "
                         "(found %d)", kinds);
        if (in_lab && ynode_get(e, "output", NULL))
            at_err(c, e, "`output` expectations are for compute steps; a lab checks weights");
    }
}

/* A step's `predict`: the keys each kind uses (a choice its options, a number one thing
 * to guess, a token the query whose largest weight is guessed). */
static void check_predict(at_checker *c, const ynode *p, int in_lab)
{
    if (!p || p->type != YN_MAP)
        return;
    const ynode *kind = ynode_get(p, "kind", NULL);
    if (!kind || kind->type != YN_SCALAR)
        return;                                   /* reported by the schema pass */
    static const kind_rule rules[] = {
        {"choice", "options", "options"},
        {"number", "weight output variance tolerance", ""},
        {"token", "from row", ""},
    };
    const kind_rule *r = NULL;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!strcmp(rules[i].kind, kind->value))
            r = &rules[i];
    if (!r)
        return;
    for (size_t i = 0; i + 1 < p->n; i += 2) {
        const char *key = p->items[i]->value;
        if (!in_list("prompt kind explanation", key) && !in_list(r->uses, key))
            at_err(c, p->items[i], "`%s` is not used by a %s prediction (it uses: %s)", key,
                   r->kind, r->uses);
        else if (in_lab && in_list("output variance row", key))
            at_err(c, p->items[i], "`%s` is for compute steps; a lab's prediction names a token "
                   "(`from`) or a weight", key);
    }
    if (!strcmp(r->kind, "choice") && !ynode_get(p, "options", NULL))
        at_err(c, p, "a choice prediction needs `options`");
    if (!strcmp(r->kind, "number")) {
        int n = !!ynode_get(p, "weight", NULL) + !!ynode_get(p, "output", NULL) +
                !!ynode_get(p, "variance", NULL);
        if (n != 1)
            at_err(c, p, "a number prediction guesses exactly one of `weight`, `output`, "
                         "`variance` (found %d)", n);
    }
    static const char *const guessed[] = {"weight", "output"};
    for (size_t g = 0; g < 2; g++) {
        const ynode *w = ynode_get(p, guessed[g], NULL);
        for (size_t i = 0; w && w->type == YN_MAP && i + 1 < w->n; i += 2)
            if (in_list("value tolerance at_least at_most", w->items[i]->value))
                at_err(c, w->items[i], "`%s` has no place in a prediction: the engine computes "
                       "the %s the student guesses", w->items[i]->value, guessed[g]);
    }
}

void at_check_compute_rules(at_checker *c, const ynode *m)
{
    if (!m || m->type != YN_MAP)
        return;
    int has_q = !!ynode_get(m, "q", NULL), has_k = !!ynode_get(m, "k", NULL);
    int has_v = !!ynode_get(m, "v", NULL);
    int qkv = has_q || has_k || has_v;
    int sources = qkv + !!ynode_get(m, "scores", NULL) + !!ynode_get(m, "random", NULL);
    if (sources == 0)
        at_err(c, m, "a compute block needs `q`, `k` and `v`, or `scores`, or `random`");
    else if (sources > 1)
        at_err(c, m, "a compute block takes one source: `q`/`k`/`v`, `scores` or `random`, "
                     "not several");
    else if (qkv && !(has_q && has_k && has_v))
        at_err(c, m, "a compute block with matrices needs all of `q`, `k` and `v` (missing %s)",
               !has_q ? "q" : !has_k ? "k" : "v");
    const ynode *key;
    if (ynode_get(m, "scores", &key) && ynode_get(m, "heads", NULL))
        at_err(c, key, "`heads` needs `q`, `k`, `v`: given `scores` there is one softmax per row");
    check_expect(c, ynode_get(m, "expect", NULL), 0);
    check_predict(c, ynode_get(m, "predict", NULL), 0);
}

/* Every row of a table as wide as its header (else as row 1): a comma left unquoted
 * in a cell makes one cell more. */
static void check_table(at_checker *c, const ynode *t)
{
    const ynode *header = ynode_get(t, "header", NULL), *rows = ynode_get(t, "rows", NULL);
    if (!rows || rows->type != YN_SEQ || !rows->n || rows->items[0]->type != YN_SEQ)
        return;
    if (header && (header->type != YN_SEQ || !header->n))
        header = NULL;
    size_t want = header ? header->n : rows->items[0]->n, narrower = 0;
    for (size_t i = 0; i < rows->n; i++)
        narrower += rows->items[i]->type == YN_SEQ && rows->items[i]->n < want;
    if (header && narrower == rows->n) {
        at_err(c, header, "`header` has %zu cells, more than any row: a comma separates cells, "
                          "so a cell holding a comma must be quoted (\"a, b\")", header->n);
        return;
    }
    for (size_t i = 0; i < rows->n; i++) {
        const ynode *row = rows->items[i];
        if (row->type != YN_SEQ || row->n == want)
            continue;
        const char *cells = row->n == 1 ? "cell" : "cells", *ref = header ? "the header" : "row 1";
        if (row->n > want)
            at_err(c, row, "table row %zu has %zu %s, %s has %zu: a comma separates cells, so "
                           "a cell holding a comma must be quoted (\"a, b\")", i + 1, row->n,
                   cells, ref, want);
        else
            at_err(c, row, "table row %zu has %zu %s, %s has %zu: add the missing cells (\"\" "
                           "for an empty one)", i + 1, row->n, cells, ref, want);
    }
}

static void check_step(at_checker *c, const ynode *step)
{
    if (step->type != YN_MAP)
        return;
    const ynode *first = NULL;
    for (size_t i = 0; i + 1 < step->n; i += 2) {
        const ynode *key = step->items[i];
        int is_kind = 0;
        for (size_t k = 0; k < N_STEP_KINDS; k++)
            is_kind |= !strcmp(key->value, step_kinds[k]);
        if (!is_kind)
            continue;
        if (first)
            at_err(c, key, "a step has one kind only: '%s' and '%s' are both here "
                           "(start a new step with '- ')", first->value, key->value);
        else
            first = key;
    }
    if (!first)
        at_err(c, step, "a step needs one of: text, table, formula, code, lab, compute, question");
    const ynode *v;
    if ((v = ynode_get(step, "question", NULL)) && v->type == YN_MAP)
        check_question(c, v);
    if ((v = ynode_get(step, "compute", NULL)))
        at_check_compute_rules(c, v);
    if ((v = ynode_get(step, "table", NULL)))
        check_table(c, v);
    if ((v = ynode_get(step, "lab", NULL)) && v->type == YN_MAP) {
        check_expect(c, ynode_get(v, "expect", NULL), 1);
        check_predict(c, ynode_get(v, "predict", NULL), 1);
    }
}

/* The kind of a step node ("lab", "question", …), or NULL. */
static const char *step_kind(const ynode *step)
{
    for (size_t i = 0; step && step->type == YN_MAP && i + 1 < step->n; i += 2)
        for (size_t k = 0; k < N_STEP_KINDS; k++)
            if (!strcmp(step->items[i]->value, step_kinds[k]))
                return step_kinds[k];
    return NULL;
}

/* Predict, then reveal: a step that shows a result (compute, lab) asks for a prediction
 * first, or follows one that did (a run of results after one prediction), or follows a
 * question the student just answered. A warning: the lesson still works. */
static void check_predictions(at_checker *c, const ynode *steps)
{
    int covered = 0;
    const char *prev = NULL;
    for (size_t i = 0; i < steps->n; i++) {
        const ynode *step = steps->items[i];
        const char *kind = step_kind(step);
        int result = kind && (!strcmp(kind, "compute") || !strcmp(kind, "lab"));
        if (result) {
            const ynode *body = ynode_get(step, kind, NULL);
            int own = body && body->type == YN_MAP && ynode_get(body, "predict", NULL);
            int after_result = prev && (!strcmp(prev, "compute") || !strcmp(prev, "lab"));
            covered = own || (prev && !strcmp(prev, "question")) || (after_result && covered);
            if (!covered)
                at_warn(c, step, "this %s step shows a result with no prediction before it: add "
                        "`predict:` so the student commits to an answer first", kind);
        }
        prev = kind;
    }
}

void at_check_lesson_rules(at_checker *c, const ynode *root)
{
    const ynode *steps = ynode_get(root, "steps", NULL);
    if (!steps || steps->type != YN_SEQ)
        return;
    for (size_t i = 0; i < steps->n; i++)
        check_step(c, steps->items[i]);
    check_predictions(c, steps);
}
