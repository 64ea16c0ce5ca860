/* Lint of text rubrics: a key idea states something of a subject; a claim says
 * something (phrases, a direction, or its subject denied); `with` groups hold
 * alternatives; misconceptions have unique names. */
#define _GNU_SOURCE
#include "lesson/rubriclint.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct linter {
    at_diag_list *diags;
    const char *file;
} linter;

static void error(linter *l, const ynode *at, const char *fmt, const char *arg)
{
    at_diag_add(l->diags, AT_DIAG_ERROR, l->file, at ? at->line : 1, at ? at->col : 1, fmt, arg);
}

static void warning(linter *l, const ynode *at, const char *fmt, const char *arg)
{
    at_diag_add(l->diags, AT_DIAG_WARNING, l->file, at ? at->line : 1, at ? at->col : 1, fmt, arg);
}

static const ynode *item(const ynode *seq, size_t i)
{
    return seq && seq->type == YN_SEQ && i < seq->n ? seq->items[i] : NULL;
}

/* Words that say nothing alone: a claim of only one of them, of no subject, would give
 * credit for a keyword. */
static int generic(const char *w)
{
    static const char *const words[] = {
        "normalize", "normalise", "normalizes", "normalises", "normalization", "variance",
        "stable", "stability", "stabilize", "stabilise", "sequential", "sequentially", "O(N)",
        "O(n)", "softmax", "attention", "gradient", "gradients", "parallel", "decoder",
        "encoder", "归一", "归一化", "稳定", "串行", "方差", "梯度", "注意力", "并行",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcasecmp(w, words[i]))
            return 1;
    return 0;
}

/* Does every alternative of "a | b | c" hold text? */
static int group_ok(const char *g)
{
    const char *p = g;
    for (;;) {
        const char *e = strchr(p, '|');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int text = 0;
        for (size_t i = 0; i < n; i++)
            text |= !isspace((unsigned char)p[i]);
        if (!text)
            return 0;
        if (!e)
            return 1;
        p = e + 1;
    }
}

static void lint_claims(linter *l, const at_claim *c, unsigned n, unsigned n_subject,
                        int key_idea, const ynode *claims)
{
    for (unsigned i = 0; i < n; i++) {
        const ynode *cn = item(claims, i);
        const at_claim *x = &c[i];
        int subject = n_subject || x->subject_count;
        if (!x->phrases_count && x->direction == AT_DIR_NONE) {
            if (x->polarity != AT_POL_DENIED)
                error(l, cn, "%s", "this claim says nothing: give it `phrases`, a `direction`, or "
                                   "`polarity: denied` (its subject denied, as in \"no decoder\")");
            else if (!subject)
                error(l, cn, "%s", "a claim that denies its subject needs a `subject` (here or "
                                   "on its statement)");
        }
        for (unsigned g = 0; g < x->with_count; g++)
            if (!group_ok(x->with[g]))
                error(l, item(ynode_get(cn, "with", NULL), g), "%s",
                      "an empty alternative in this `with` group: write \"a | b\", each with text");
        if (key_idea && !subject && x->phrases_count && x->direction == AT_DIR_NONE &&
            !x->with_count)
            for (unsigned p = 0; p < x->phrases_count; p++)
                if (generic(x->phrases[p]))
                    warning(l, item(ynode_get(cn, "phrases", NULL), p),
                            "'%s' alone says nothing: a key idea with this phrase and no `subject` "
                            "gives credit for the bare word; give the key idea a `subject` or the "
                            "claim a `with`", x->phrases[p]);
    }
}

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return 0;
    return 1;
}

static void lint_misconceptions(linter *l, const at_misconception *ms, unsigned n, unsigned n_rubric,
                                const ynode *miscs, const char *where);

void at_lint_rubric(const at_question *q, const ynode *node, const char *file, at_diag_list *diags)
{
    linter l = {diags, file};
    if (q->kind != AT_Q_TEXT)
        return;
    const ynode *rubric = ynode_get(node, "rubric", NULL);
    unsigned required = 0;
    for (unsigned i = 0; i < q->rubric_count; i++) {
        const at_concept *k = &q->rubric[i];
        const ynode *kn = item(rubric, i);
        required += k->required;
        if (!k->claims_count && !k->synonyms_count && !k->together_count)
            warning(&l, kn, "%s", "a key idea without `claims` is recognised only in an answer "
                                  "that repeats its text: give it a `subject` and `claims`");
        lint_claims(&l, k->claims, k->claims_count, k->subject_count, 1, ynode_get(kn, "claims", NULL));
    }
    unsigned need = q->min_concepts && *q->min_concepts <= q->rubric_count ? *q->min_concepts
                                                                           : q->rubric_count;
    if (required > need) {
        char msg[160];
        snprintf(msg, sizeof msg, "%u key ideas are `required` but `min_concepts` is %u: a correct "
                                  "answer needs all %u", required, need, required);
        warning(&l, ynode_get(node, "min_concepts", NULL) ? ynode_get(node, "min_concepts", NULL)
                                                           : rubric, "%s", msg);
    }
    lint_misconceptions(&l, q->misconceptions, q->misconceptions_count, q->rubric_count,
                        ynode_get(node, "misconceptions", NULL), "this question");
}

void at_lint_lesson_misconceptions(const at_lesson_doc *d, const ynode *root, const char *file,
                                   at_diag_list *diags)
{
    linter l = {diags, file};
    const ynode *miscs = ynode_get(root, "misconceptions", NULL);
    lint_misconceptions(&l, d->misconceptions, d->misconceptions_count, 0, miscs, "this lesson");
    for (unsigned i = 0; i < d->misconceptions_count; i++) {
        const at_misconception *m = &d->misconceptions[i];
        const ynode *mn = item(miscs, i);
        if (m->replaces_count)
            error(&l, ynode_get(mn, "replaces", NULL), "%s",
                  "a misconception of the whole lesson replaces no key idea (it is a false claim "
                  "beside any answer): move it into the question whose key ideas it states "
                  "wrongly, or drop `replaces`");
    }
}

/* Names unique in where (one question, or the lesson), `replaces` within the rubric's
 * n_rubric key ideas, claims that say something. */
static void lint_misconceptions(linter *l, const at_misconception *ms, unsigned n, unsigned n_rubric,
                                const ynode *miscs, const char *where)
{
    for (unsigned i = 0; i < n; i++) {
        const at_misconception *m = &ms[i];
        const ynode *mn = item(miscs, i);
        if (!valid_name(m->name))
            error(l, ynode_get(mn, "name", NULL),
                  "misconception name '%s' may hold only letters, digits, '-' and '_'", m->name);
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(ms[j].name, m->name)) {
                char msg[200];
                snprintf(msg, sizeof msg, "misconception name '%s' is used twice in %s", m->name,
                         where);
                error(l, ynode_get(mn, "name", NULL), "%s", msg);
            }
        for (unsigned j = 0; n_rubric && j < m->replaces_count; j++)
            if (m->replaces[j] < 1 || m->replaces[j] > n_rubric || m->replaces[j] > 32)
            {
                char msg[160];
                snprintf(msg, sizeof msg, "`replaces` names key idea %u, but the rubric has %u "
                                          "(numbered from 1, at most 32)",
                         m->replaces[j], n_rubric);
                error(l, item(ynode_get(mn, "replaces", NULL), j), "%s", msg);
            }
        lint_claims(l, m->claims, m->claims_count, m->subject_count, 0, ynode_get(mn, "claims", NULL));
    }
}
