/* Text answers: concepts found and missing, then the reference answer. */
#include "quiz/rubric.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <uninorm.h>
#include <unistr.h>

#include "quiz/internal.h"

/* Case-folded NFKC text with ASCII punctuation and spaces folded into single
 * spaces, padded with a space at both ends (for word boundaries). nospace: every
 * space removed instead (Chinese phrasings with or without spaces). malloc'd. */
static char *fold(const char *s, int nospace)
{
    size_t n = 0;
    uint8_t *f = u8_casefold((const uint8_t *)s, strlen(s), NULL, UNINORM_NFKC, NULL, &n);
    if (!f)
        return NULL;
    char *out = malloc(n + 3);
    size_t o = 0;
    if (out) {
        out[o++] = ' ';
        for (size_t i = 0; i < n; i++) {
            unsigned char c = f[i];
            int blank = c < 0x80 && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') && c != '\'' &&
                        c != '%' && c != '+' && c != '=' && c != '<' && c != '>';
            if (!blank)
                out[o++] = (char)c;
            else if (!nospace && out[o - 1] != ' ')
                out[o++] = ' ';
        }
        if (out[o - 1] != ' ')
            out[o++] = ' ';
        out[o] = '\0';
    }
    free(f);
    return out;
}

static int ascii_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
}

/* After a Latin word: the end of the word, or an inflection and then the end
 * ("align" in "aligns", "aligned", "aligning"). */
static int word_ends(const char *p)
{
    static const char *const endings[] = {"", "s", "es", "d", "ed", "ing"};
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        size_t l = strlen(endings[i]);
        if (!strncmp(p, endings[i], l) && !ascii_alnum(p[l]))
            return 1;
    }
    return 0;
}

/* Is needle (folded, trimmed) in hay at a word boundary? Latin words must not be
 * glued to other Latin letters ("one step" is not in "none steps"). */
static int contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; n && (p = strstr(p, needle)) != NULL; p++) {
        int left_ok = !ascii_alnum(needle[0]) || p == hay || !ascii_alnum(p[-1]);
        int right_ok = !ascii_alnum(needle[n - 1]) || word_ends(p + n);
        if (left_ok && right_ok)
            return 1;
    }
    return 0;
}

/* Does the answer (folded both ways) hold the phrase? */
static int phrase_in(const char *hay, const char *hay_nospace, const char *phrase)
{
    char *f = fold(phrase, 0), *g = fold(phrase, 1);
    int hit = 0;
    if (f && g) {
        char *t = f;
        while (*t == ' ')
            t++;
        size_t n = strlen(t);
        while (n && t[n - 1] == ' ')
            t[--n] = '\0';
        hit = n && contains(hay, t);
        /* Phrases with non-Latin text also match with the spaces left out. */
        int wide = 0;
        for (const char *c = g; *c; c++)
            wide |= (unsigned char)*c >= 0x80;
        char *h = g;
        while (*h == ' ')
            h++;
        size_t m = strlen(h);
        while (m && h[m - 1] == ' ')
            h[--m] = '\0';
        if (!hit && wide && m)
            hit = strstr(hay_nospace, h) != NULL;
    }
    free(f);
    free(g);
    return hit;
}

int qz_rubric_match(const qz_concept *rubric, size_t n_rubric, const char *answer,
                    unsigned char *found, size_t *n_found, at_error *err)
{
    *n_found = 0;
    if (u8_check((const uint8_t *)answer, strlen(answer)))
        return at_error_set(err, AT_EUTF8, "the answer is not valid UTF-8");
    char *hay = fold(answer, 0), *hay_ns = fold(answer, 1);
    int rc = AT_OK;
    if (!hay || !hay_ns) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n_rubric; i++) {
        const qz_concept *c = &rubric[i];
        found[i] = c->concept && phrase_in(hay, hay_ns, c->concept);
        for (size_t k = 0; !found[i] && k < c->n_synonyms; k++)
            found[i] = c->synonyms[k] && phrase_in(hay, hay_ns, c->synonyms[k]);
        *n_found += found[i];
    }
out:
    free(hay);
    free(hay_ns);
    return rc;
}

void qz_result_self_assess(qz_result *r, qz_verdict v)
{
    r->self_assessed = 1;
    r->verdict = v;
    r->score = v == QZ_CORRECT ? 1 : v == QZ_PARTIAL ? 0.5 : 0;
}

static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return 0;
    return 1;
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
    unsigned char *found = calloc(q->n_rubric, 1);
    if (!found)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    size_t n_found = 0;
    at_error e2;
    if (qz_rubric_match(q->rubric, q->n_rubric, answer, found, &n_found, &e2)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, "%s\n", e2.msg);
        free(found);
        return e2.code == AT_ENOMEM ? at_error_set(err, AT_ENOMEM, "out of memory") : AT_OK;
    }
    size_t need = q->min_concepts && q->min_concepts <= q->n_rubric ? q->min_concepts : q->n_rubric;
    out->score = n_found >= need ? 1.0 : (double)n_found / (double)need;
    out->verdict = n_found >= need ? QZ_CORRECT : n_found ? QZ_PARTIAL : QZ_WRONG;
    fprintf(fb, "%s", out->verdict == QZ_CORRECT ? QZ_TR(lang, "Correct: the key ideas are there.\n",
                                                         "正确：关键要点都提到了。\n")
                      : out->verdict == QZ_PARTIAL ? QZ_TR(lang, "Partly right.\n", "部分正确。\n")
                                                   : QZ_TR(lang, "None of the key ideas was recognised.\n",
                                                           "没有识别出关键要点。\n"));
    fprintf(fb, QZ_TR(lang, "Key ideas found (%zu of %zu, %zu needed):\n", "提到的要点（%zu/%zu，需要 %zu 个）：\n"),
            n_found, q->n_rubric, need);
    for (size_t i = 0; i < q->n_rubric; i++)
        if (found[i])
            fprintf(fb, "  ✓ %s\n", q->rubric[i].concept);
    if (n_found < q->n_rubric) {
        fprintf(fb, QZ_TR(lang, "Missing:\n", "缺少的要点：\n"));
        for (size_t i = 0; i < q->n_rubric; i++)
            if (!found[i])
                fprintf(fb, "  ✗ %s\n", q->rubric[i].concept);
    }
    if (q->reference)
        fprintf(fb, QZ_TR(lang, "\nReference answer:\n%s", "\n参考答案：\n%s"), q->reference);
    if (q->reference && *q->reference && q->reference[strlen(q->reference) - 1] != '\n')
        fprintf(fb, "\n");
    fprintf(fb, QZ_TR(lang, "(Graded by key ideas; you may grade it yourself after reading the reference.)\n",
                      "（按关键要点评分；读完参考答案后你也可以自己评分。）\n"));
    free(found);
    return AT_OK;
}
