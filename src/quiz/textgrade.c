/* Text answers graded: the verdict and score from the concepts the rubric matcher
 * finds (quiz/rubric.h), then what was found, stated wrongly and missing, and the
 * reference answer. */
#define _POSIX_C_SOURCE 200809L
#include "quiz/rubric.h"

#include <stdlib.h>
#include <string.h>

#include "quiz/internal.h"

void qz_result_self_assess(qz_result *r, qz_verdict v)
{
    r->self_assessed = 1;
    r->self_verdict = v;
    r->self_score = v == QZ_CORRECT ? 1 : v == QZ_PARTIAL ? 0.5 : 0;
}

static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return 0;
    return 1;
}

/* The concepts found, stated wrongly (with why), and missing. */
static void print_concepts(const qz_question *q, const qz_judgement *j, size_t n_found, size_t need,
                           size_t n_wrong, qz_lang lang, FILE *fb)
{
    fprintf(fb, QZ_TR(lang, "Key ideas found (%zu of %zu, %zu needed):\n", "提到的要点（%zu/%zu，需要 %zu 个）：\n"),
            n_found, q->n_rubric, need);
    for (size_t i = 0; i < q->n_rubric; i++)
        if (j[i].found)
            fprintf(fb, "  ✓ %s\n", q->rubric[i].concept);
    if (n_wrong) {
        fprintf(fb, QZ_TR(lang, "Stated wrongly:\n", "说错的要点：\n"));
        for (size_t i = 0; i < q->n_rubric; i++) {
            const char *why = j[i].wrong ? j[i].wrong->feedback : NULL;
            int n = why ? (int)strlen(why) : 0;
            while (n && (why[n - 1] == '\n' || why[n - 1] == ' '))
                n--;
            if (j[i].wrong)
                fprintf(fb, "  ✗ %s%s%.*s\n", q->rubric[i].concept, n ? QZ_TR(lang, " — ", "——") : "",
                        n, n ? why : "");
        }
    }
    if (n_found + n_wrong < q->n_rubric) {
        fprintf(fb, QZ_TR(lang, "Missing:\n", "缺少的要点：\n"));
        for (size_t i = 0; i < q->n_rubric; i++)
            if (!j[i].found && !j[i].wrong)
                fprintf(fb, "  ✗ %s\n", q->rubric[i].concept);
    }
}

int qz_grade_text(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                  FILE *fb, at_error *err)
{
    if (!q->n_rubric || !q->rubric)
        return at_error_set(err, AT_EINVAL, "question %s: a text question needs a rubric",
                            q->id ? q->id : "?");
    out->expected = q->reference ? strdup(q->reference) : NULL;
    if (blank(answer)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, QZ_TR(lang, "Write an answer first (a sentence or two).\n", "请先写下答案（一两句话）。\n"));
        return AT_OK;
    }
    qz_judgement *j = calloc(q->n_rubric, sizeof *j);
    if (!j)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    size_t n_found = 0, n_wrong = 0;
    at_error e2;
    if (qz_rubric_judge(q->rubric, q->n_rubric, answer, j, &n_found, &e2)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, "%s\n", e2.msg);
        free(j);
        return e2.code == AT_ENOMEM ? at_error_set(err, AT_ENOMEM, "out of memory") : AT_OK;
    }
    for (size_t i = 0; i < q->n_rubric; i++)
        n_wrong += j[i].wrong != NULL;
    size_t need = q->min_concepts && q->min_concepts <= q->n_rubric ? q->min_concepts : q->n_rubric;
    /* A wrong statement costs what a found concept earns; it is never "correct". */
    size_t net = n_found > n_wrong ? n_found - n_wrong : 0;
    out->score = !n_wrong && n_found >= need ? 1.0 : (double)(net < need ? net : need) / (double)need;
    if (n_wrong && out->score >= 1.0)
        out->score = 0.5;
    out->verdict = !n_wrong && n_found >= need ? QZ_CORRECT : net ? QZ_PARTIAL : QZ_WRONG;
    fprintf(fb, "%s", out->verdict == QZ_CORRECT ? QZ_TR(lang, "Correct: the key ideas are there.\n",
                                                         "正确：关键要点都提到了。\n")
                      : out->verdict == QZ_PARTIAL ? QZ_TR(lang, "Partly right.\n", "部分正确。\n")
                      : n_wrong ? QZ_TR(lang, "Not right: the answer states something wrong.\n",
                                        "不正确：答案里有错误的说法。\n")
                                : QZ_TR(lang, "None of the key ideas was recognised.\n",
                                        "没有识别出关键要点。\n"));
    if (out->verdict == QZ_PARTIAL)   /* the other headlines say more than the verdict */
        out->body_at = qz_fb_pos(fb);
    print_concepts(q, j, n_found, need, n_wrong, lang, fb);
    free(j);
    if (q->reference)
        fprintf(fb, QZ_TR(lang, "\nReference answer:\n%s", "\n参考答案：\n%s"), q->reference);
    if (q->reference && *q->reference && q->reference[strlen(q->reference) - 1] != '\n')
        fprintf(fb, "\n");
    fprintf(fb, QZ_TR(lang, "(Graded by key ideas; you may grade it yourself after reading the reference.)\n",
                      "（按关键要点评分；读完参考答案后你也可以自己评分。）\n"));
    return AT_OK;
}
