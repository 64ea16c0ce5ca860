/* qz_grade: one entry for every kind of question; the verdict's names and exit
 * statuses. */
#define _GNU_SOURCE   /* asprintf */
#include "quiz/code.h"
#include "quiz/garble.h"
#include "quiz/internal.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistr.h>

static const char *const verdict_names[] = {"correct", "partial", "wrong", "malformed", "review"};

const char *qz_mistake_name(qz_mistake m)
{
    static const char *const names[] = {
        "none", "no_exp", "no_normalise", "swapped", "wrong_token", "whole_row",
        "percent_without_sign", "left_out_token", "no_scale", "double_scale", "rounding",
        "wrong_row", "weights_not_output", "formula", "misconception", "slip", "code", "sigmoid",
        "uniform", "false_claim", "rough",
    };
    return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "none";
}

const char *qz_verdict_name(qz_verdict v)
{
    return (unsigned)v < 5 ? verdict_names[v] : "malformed";
}

int qz_verdict_parse(const char *name)
{
    for (int i = 0; name && i < 5; i++)
        if (!strcmp(name, verdict_names[i]))
            return i;
    return -1;
}

int qz_verdict_exit_status(qz_verdict v)
{
    switch (v) {
    case QZ_CORRECT: return 0;
    case QZ_WRONG: return 1;
    case QZ_PARTIAL: return 3;
    case QZ_REVIEW: return 4;
    default: return 2;
    }
}

qz_question qz_question_init(qz_kind kind)
{
    return (qz_question){.kind = kind, .decimals = -1, .tolerance = -1, .relative = -1};
}

void qz_result_free(qz_result *r)
{
    if (!r)
        return;
    free(r->expected);
    free(r->expected_values);
    free(r->feedback);
    memset(r, 0, sizeof *r);
}

static char *dup_text(const char *s)
{
    return s ? strdup(s) : NULL;
}

int qz_grade(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
             at_error *err)
{
    memset(out, 0, sizeof *out);
    at_error_clear(err);
    if (!answer)
        answer = "";
    size_t written = strlen(answer);
    /* A formula is read as UTF-8 text as a written answer is: broken UTF-8 is refused
     * as it is there (numbers and choices report it as a malformed answer of their own). */
    const uint8_t *bad = q->kind == QZ_FORMULA || q->kind == QZ_CODE
                         ? u8_check((const uint8_t *)answer, strlen(answer)) : NULL;
    if (bad)
        return at_error_set(err, AT_EUTF8, "the answer is not valid UTF-8 (byte %zu)",
                            (size_t)(bad - (const uint8_t *)answer));
    char *buf = NULL;
    size_t len = 0;
    FILE *fb = open_memstream(&buf, &len);
    if (!fb)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc;
    out->verdict = QZ_WRONG;
    out->body_at = 0;
    out->reveal_at = SIZE_MAX;
    if (!answer)
        answer = "";
    /* text decoded with the wrong encoding and nothing lost: graded as it was written,
     * and the student is told how it was read */
    char *repaired = q->kind != QZ_CHOICE ? qz_answer_repaired(answer) : NULL;
    if (repaired)
        answer = repaired;
    /* words struck out in Markdown and written again: what stands is the answer */
    char *unstruck = q->kind != QZ_CHOICE ? qz_answer_unstruck(answer) : NULL;
    if (unstruck)
        answer = unstruck;
    /* a formula's reader stops at a symbol it does not know: "… @ v 👍" (a written
     * answer reads its emoji: 😂 beside nothing recognised is a joke); a written answer
     * pasted from a chat window keeps its Markdown: "**Q来源**：解码器 **K、V来源**：…" */
    char *plain = q->kind == QZ_FORMULA || q->kind == QZ_CODE ? qz_answer_without_emoji(answer)
                  : q->kind == QZ_TEXT ? qz_answer_unmarked(answer)
                  : q->kind != QZ_CHOICE ? qz_answer_unbolded(answer) : NULL;
    if (plain)
        answer = plain;
    /* a chat window's Markdown pasted on one line ("## Formula Attention(Q, K, V) = …"):
     * its opening heading would read as a comment to the end of the line, the formula in
     * it; the words of the heading stay (a heading further on is a comment, as in code) */
    if (q->kind == QZ_FORMULA && !strchr(answer, '\n')) {
        size_t h = strspn(answer, " "), marks = strspn(answer + h, "#");
        /* …unless it is code's comment, a statement after it ("# q, k: [B, T, d_k]  scores
         * = q @ k.T …": a line break pasted as spaces) */
        if (marks && marks <= 6 && answer[h + marks] == ' ' &&
            qz_comment_end(answer, h, strlen(answer)) == strlen(answer))
            answer += h + marks + 1;
    }
    if (written > QZ_ANSWER_MAX) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "The answer is too long to grade: %zu bytes, where at most %d are "
                                "read (about 4,000 English letters or 1,300 Chinese characters). "
                                "Nothing was counted: write the answer shorter.\n"),
                written, QZ_ANSWER_MAX);
        rc = AT_OK;
    } else if (unstruck && !*unstruck) {   /* "~~方差~~（划掉）~~饱~~": all of it taken back */
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "Everything in the answer is struck out, so nothing is left to "
                                "grade. Nothing was counted: write the answer you settle on.\n"));
        rc = AT_OK;
    } else if (q->kind != QZ_CHOICE && qz_answer_points_elsewhere(answer)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "The answer points to a picture or an attachment, which cannot be "
                                "graded here. Nothing was counted: write the answer as text.\n"));
        rc = AT_OK;
    } else if (q->kind != QZ_CHOICE && qz_answer_no_attempt(answer)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "This is no answer yet: it points to another answer or to somewhere "
                                "else, or says it will come later. Nothing was counted: write the "
                                "answer here.\n"));
        rc = AT_OK;
    } else if (q->kind != QZ_CHOICE && !repaired && qz_answer_unreadable_text(answer)) {
        /* mojibake, a scan's shading, keys hit at random: no grader can read it */
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "This cannot be read: the characters look garbled (text saved in one "
                                "encoding and opened in another, or keys hit at random). Nothing was "
                                "counted: write the answer again.\n"));
        rc = AT_OK;
    } else {
        switch (q->kind) {
        case QZ_SOFTMAX:
        case QZ_NUMERIC:
        case QZ_ATTENTION: rc = qz_grade_numeric(q, answer, lang, out, fb, err); break;
        case QZ_CHOICE: rc = qz_grade_choice(q, answer, lang, out, fb, err); break;
        case QZ_FORMULA: rc = qz_grade_formula(q, answer, lang, out, fb, err); break;
        case QZ_TEXT: rc = qz_grade_text(q, answer, lang, out, fb, err); break;
        case QZ_CODE: rc = qz_grade_code(q, answer, lang, out, fb, err); break;
        default:
            rc = at_error_set(err, AT_EINVAL, "question %s: unknown kind", q->id ? q->id : "?");
        }
    }
    fclose(fb);
    out->feedback = buf;
    if (out->reveal_at > len)
        out->reveal_at = len;
    if (out->body_at > out->reveal_at)
        out->body_at = out->reveal_at;
    if (repaired && !rc && buf) {
        char *note = NULL;
        int nl = asprintf(&note, qz_tr(lang, "Read as: %s (the text had been decoded with the wrong "
                                             "encoding).\n"), repaired);
        char *whole = nl > 0 ? malloc(len + (size_t)nl + 1) : NULL;
        size_t at = out->body_at;
        if (!at) {   /* after the first line, before what it says */
            const char *eol = memchr(buf, '\n', out->reveal_at);
            at = eol ? (size_t)(eol - buf) + 1 : 0;
        }
        if (whole) {
            memcpy(whole, buf, at);
            memcpy(whole + at, note, (size_t)nl);
            memcpy(whole + at + nl, buf + at, len - at + 1);
            free(buf);
            out->feedback = whole;
            out->reveal_at += (size_t)nl;
        }
        free(note);
    }
    free(repaired);
    free(unstruck);
    free(plain);
    if (rc)
        qz_result_free(out);
    return rc;
}

size_t qz_fb_pos(FILE *fb)
{
    long p = fflush(fb) == 0 ? ftell(fb) : -1;
    return p > 0 ? (size_t)p : 0;
}

/* ---- choice ---- */

/* Equal ignoring surrounding spaces and ASCII case. */
static int strcasecmp_trim(const char *a, const char *b)
{
    while (isspace((unsigned char)*a))
        a++;
    while (isspace((unsigned char)*b))
        b++;
    size_t la = strlen(a), lb = strlen(b);
    while (la && isspace((unsigned char)a[la - 1]))
        la--;
    while (lb && isspace((unsigned char)b[lb - 1]))
        lb--;
    return la != lb || strncasecmp(a, b, la);
}

int qz_choice_chosen(const qz_question *q, const char *answer, int *chosen, const char **bad,
                     size_t *bad_len)
{
    for (size_t i = 0; i < q->n_options; i++)
        if (q->options[i].text && !strcasecmp_trim(answer, q->options[i].text)) {
            chosen[i] = 1;
            return 0;
        }
    const char *p = answer;
    while (*p) {
        while (*p && (isspace((unsigned char)*p) || *p == ',' || *p == ';'))
            p++;
        if (!*p)
            break;
        const char *s = p;
        while (*p && !isspace((unsigned char)*p) && *p != ',' && *p != ';')
            p++;
        size_t n = (size_t)(p - s);
        long idx = -1;
        if (n == 1 && isalpha((unsigned char)*s))
            idx = tolower((unsigned char)*s) - 'a';
        else if (n == 3 && s[0] == '(' && s[2] == ')' && isalpha((unsigned char)s[1]))
            idx = tolower((unsigned char)s[1]) - 'a';
        else if (n <= 2 && isdigit((unsigned char)s[0]) && (n == 1 || isdigit((unsigned char)s[1])))
            idx = strtol(s, NULL, 10) - 1;
        if (idx < 0 || (size_t)idx >= q->n_options) {
            *bad = s;
            *bad_len = n;
            return -1;
        }
        chosen[idx] = 1;
    }
    return 0;
}

int qz_grade_choice(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                    FILE *fb, at_error *err)
{
    if (!q->n_options || !q->options)
        return at_error_set(err, AT_EINVAL, "question %s: a choice question needs options",
                            q->id ? q->id : "?");
    int *chosen = calloc(q->n_options, sizeof *chosen);
    if (!chosen)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    const char *bad = NULL;
    size_t bad_len = 0, n_chosen = 0, n_correct = 0, hits = 0, false_hits = 0;
    char expected[128] = "";
    for (size_t i = 0; i < q->n_options; i++)
        if (q->options[i].correct) {
            n_correct++;
            size_t l = strlen(expected);
            snprintf(expected + l, sizeof expected - l, "%s%c", l ? " " : "", (char)('a' + i % 26));
        }
    out->expected = dup_text(expected);
    if (qz_choice_chosen(q, answer, chosen, &bad, &bad_len)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "'%.*s' is not an option: answer with a letter from a to %c.\n"),
                (int)bad_len, bad, (char)('a' + (q->n_options - 1) % 26));
        goto out;
    }
    for (size_t i = 0; i < q->n_options; i++) {
        n_chosen += chosen[i];
        hits += chosen[i] && q->options[i].correct;
        false_hits += chosen[i] && !q->options[i].correct;
    }
    if (!n_chosen || (!q->multiple && n_chosen > 1)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, n_chosen ? qz_tr(lang, "Choose one option.\n")
                             : qz_tr(lang, "Choose an option (a, b, …).\n"));
        goto out;
    }
    out->score = n_correct ? (double)(hits > false_hits ? hits - false_hits : 0) / (double)n_correct : 0;
    out->verdict = hits == n_correct && !false_hits ? QZ_CORRECT : out->score > 0 ? QZ_PARTIAL : QZ_WRONG;
    fprintf(fb, "%s\n", out->verdict == QZ_CORRECT ? qz_tr(lang, "Correct.")
                      : out->verdict == QZ_PARTIAL ? qz_tr(lang, "Partly right.")
                                                   : qz_tr(lang, "Not right."));
    out->body_at = qz_fb_pos(fb);
    for (size_t i = 0; i < q->n_options; i++) {
        if (!chosen[i] && !(q->options[i].correct && out->verdict != QZ_CORRECT))
            continue;
        const char *own = chosen[i] ? q->options[i].feedback : NULL;
        fprintf(fb, "  %c) %s — ", (char)('a' + i % 26), q->options[i].text ? q->options[i].text : "");
        if (qz_feedback_has_verdict(own))   /* "Right: exp(−∞) = 0 …" says it itself */
            fprintf(fb, "%s", own);
        else {
            fprintf(fb, "%s", chosen[i] ? (q->options[i].correct ? qz_tr(lang, "right") : qz_tr(lang, "wrong"))
                              : hits ? qz_tr(lang, "also correct, not chosen")
                                     : qz_tr(lang, "the right answer"));
            if (own)
                fprintf(fb, qz_tr(lang, ": %s"), own);
        }
        fprintf(fb, "\n");
    }
    out->reveal_at = qz_fb_pos(fb);
    if (out->verdict != QZ_CORRECT && q->explanation)
        fprintf(fb, "\n%s\n", q->explanation);
out:
    free(chosen);
    return AT_OK;
}
