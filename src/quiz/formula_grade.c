/* Formula answers graded: the formula's verdict from its mistakes (quiz/formula.h), short
 * feedback that names the part that broke and what was expected of it, and words written
 * beside the formula graded by the follow-up question's grader. See qz_grade_formula in
 * quiz/internal.h. */
#define _GNU_SOURCE   /* strcasestr */
#include "quiz/formula.h"
#include "quiz/garble.h"
#include "quiz/code.h"
#include "quiz/compiled.h"
#include "quiz/internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* At most this many mistakes are named: the first that matter most. */
#define MAX_NAMED 3

static void name_mistakes(const qz_formula_diag *d, qz_lang lang, FILE *fb)
{
    unsigned m = d->mistakes;
    if (m & QZ_F_SOFTMAX_PLACE)
        m &= ~(unsigned)QZ_F_SCALE_OUTSIDE;   /* a consequence of where softmax stands */
    if (m & (QZ_F_NO_FORMULA))
        m = QZ_F_NO_FORMULA;
    int named = 0;
    for (int pass = 0; pass < 2; pass++)       /* what makes it wrong first, then slips */
        for (unsigned bit = 1; bit <= QZ_F_OTHER && named < MAX_NAMED; bit <<= 1) {
            if (!(m & bit) || ((bit & QZ_F_FATAL) == 0) != pass)
                continue;
            if (bit == QZ_F_NO_FORMULA && d->function[0])
                fprintf(fb, qz_tr(lang, "  - %s(…) only names the formula: write what it computes from Q, K, V and dₖ.\n"),
                        d->function);
            else if (bit == QZ_F_NOT_SOFTMAX && d->function[0])
                fprintf(fb, qz_tr(lang, "  - %s: %s\n"), d->function, qz_formula_mistake_text(bit, lang));
            else
                fprintf(fb, "  - %s\n", qz_formula_mistake_text(bit, lang));
            named++;
        }
}

/* Is s[i] a comment's '#' (after a space or a bracket, not inside a name)? */
static int comment_at(const char *s, size_t i)
{
    return s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == ')');
}

/* Does the answer hold a comment (code's "# …")? */
static int commented(const char *answer)
{
    for (size_t i = 0; answer[i]; i++)
        if (comment_at(answer, i))
            return 1;
    return 0;
}

/* The answer without the formula and its legend: what the student wrote beside it.
 * malloc'd. */
static char *words_beside(const char *answer, const qz_formula_diag *d)
{
    size_t len = strlen(answer);
    char *s = malloc(2 * len + 2);
    if (!s)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        size_t skip_to = i == d->start && d->end > d->start ? d->end
                       : i == d->legend_start && d->legend_end > d->legend_start ? d->legend_end : 0;
        if (skip_to) {
            /* the formula's comments are words beside it ("… @ V  # the √d_k is not needed") */
            for (size_t k = i; k < skip_to; k++)
                if (comment_at(answer, k)) {
                    size_t e = qz_comment_end(answer, k, skip_to);
                    s[n++] = ' ';
                    memcpy(s + n, answer + k + 1, e - k - 1);
                    n += e - k - 1;
                    s[n++] = '.';
                    k = e;
                }
            s[n++] = ' ';
            i = skip_to - 1;
            continue;
        }
        s[n++] = answer[i];
    }
    s[n] = '\0';
    return s;
}

/* Do the words beside the formula speak of what the follow-up asks, the scale: √dₖ, the
 * division, the variance, saturation, the gradients, or of the softmax's axis (in either
 * language)? */
static int speaks_of_scale(const char *w)
{
    static const char *const cues[] = {
        "√", "sqrt", "d_k", "dk", "dₖ", "d_{k}", "scale", "scaling", "scaled", "divid",
        "denominator", "temperature", "variance", "saturat", "gradient", "grows", "growing",
        "large", "big", "根号", "除", "缩放", "縮放", "分母", "温度", "溫度", "方差", "饱和",
        "飽和", "梯度", "维度", "維度", "变大", "變大", "太大", "过大", "過大",
        /* the softmax's axis: "over the queries so each key's weights sum to 1" */
        "axis", "over the queries", "over queries", "each key's", "column", "dim=0", "dim 0",
        "按列", "列", NULL};
    return qz_lex_find(w, cues) != NULL;
}

/* The follow-up question's grader on the words beside the formula: the one place the
 * text grader is called for a formula answer. *r is its result (verdict QZ_REVIEW when
 * it was not called); free with qz_result_free. Returns AT_OK or AT_ENOMEM. */
static int judge_words(const qz_question *q, const char *answer, const qz_formula_diag *d,
                       qz_lang lang, qz_result *r, at_error *err)
{
    memset(r, 0, sizeof *r);
    r->verdict = QZ_REVIEW;
    char *words = words_beside(answer, d);
    if (!words)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    at_error e2;
    int rc = qz_grade(q->follow_up, words, lang, r, &e2);
    /* words that do not speak of the scale ("(A is n×n, rows sum to 1)", "M is the mask,
     * can be left out") are a note on the formula: only a false claim of the lesson's in
     * them ("all heads share one set of projections") is held against it */
    if (!rc && !speaks_of_scale(words) && r->mistake != QZ_M_FALSE_CLAIM) {
        qz_result_free(r);
        memset(r, 0, sizeof *r);
        r->verdict = QZ_REVIEW;
        /* …read for the lesson's false claims alone: the follow-up's own misconceptions
         * take √dₖ as their subject when none is named, and these words name none
         * ("the softmax is taken over the whole matrix, so all the weights sum to 1") */
        if (q->beside) {
            rc = qz_grade(q->beside, words, lang, r, &e2);
            if (!rc && r->mistake != QZ_M_FALSE_CLAIM) {
                qz_result_free(r);
                memset(r, 0, sizeof *r);
                r->verdict = QZ_REVIEW;
            }
        }
    }
    free(words);
    if (rc) {
        memset(r, 0, sizeof *r);
        r->verdict = QZ_REVIEW;
    }
    return rc == AT_ENOMEM ? at_error_set(err, rc, "out of memory") : AT_OK;
}

/* Its headline goes into the feedback when it judged them (right, partly, wrong); words
 * it cannot judge (a note on notation, "where d_k is the key dimension") are not the
 * follow-up's business. */
static void print_words(const qz_question *q, const qz_result *r, qz_lang lang, FILE *fb)
{
    if ((r->verdict == QZ_CORRECT || r->verdict == QZ_PARTIAL || r->verdict == QZ_WRONG) && r->feedback &&
        *r->feedback) {
        size_t n = strcspn(r->feedback, "\n");
        fprintf(fb, qz_tr(lang, "Your words beside the formula, as question %s grades them: %.*s\n"),
                q->follow_up->id ? q->follow_up->id : "?", (int)n, r->feedback);
    }
    qz_print_stated_wrongly(r, fb);   /* what is wrong in them */
}

/* After the formula, words that disown everything before them and nothing after
 * ("softmax(QKᵀ/√dₖ)V，以上都是错的", "… that's wrong", "… is the wrong one"): the formula is
 * taken back. */
static int formula_disowned(const char *answer, size_t end)
{
    static const char *const more[] = {"that's wrong", "that is wrong", "is the wrong one",
                                       "i take that back", "take that back", "scratch that", NULL};
    /* right after it, ending the answer: "softmax(QKᵀ/√dₖ)V is wrong", "…V 是错的" */
    static const char *const after[] = {"is wrong", "is false", "is incorrect", "is not right",
                                        "is not correct", "是错的", "是错误的", "不对", NULL};
    const char *rest = answer + end;
    const char *r = rest + strspn(rest, " ");
    for (size_t i = 0; after[i]; i++) {
        size_t l = strlen(after[i]);
        if (!strncasecmp(r, after[i], l) && r[l + strspn(r + l, " .!。！")] == '\0')
            return 1;
    }
    return qz_lex_find(rest, qz_lex_disown) || qz_lex_find(rest, more);
}

/* The formula denied: "not softmax(QKᵀ/√dₖ)V", "The formula is NOT …", "不是 softmax(…)V"
 * before it, or "…? No.", "…？不是。", "… — not" right after it. */
static int formula_negated(const char *answer, size_t start, size_t end)
{
    size_t b = start;
    while (b && answer[b - 1] == ' ')
        b--;
    static const char *const before[] = {"not", "isn't", "不是", "并不是", "并非", "绝不是", NULL};
    for (size_t i = 0; before[i]; i++) {
        size_t l = strlen(before[i]);
        if (b >= l && !strncasecmp(answer + b - l, before[i], l) &&
            (b == l || !isalpha((unsigned char)answer[b - l - 1]) ||
             (unsigned char)before[i][0] >= 0x80))
            return 1;
    }
    const char *a = answer + end;
    a += strspn(a, " ");
    int asked = 0;
    if (*a == '?') {
        a++;
        asked = 1;
    } else if (!strncmp(a, "？", strlen("？"))) {
        a += strlen("？");
        asked = 1;
    } else if (!strncmp(a, "—", strlen("—")) || *a == '-') {
        a += *a == '-' ? 1 : strlen("—");
        asked = 1;
    }
    if (!asked)
        return 0;
    a += strspn(a, " ");
    static const char *const after[] = {"no", "not", "nope", "不是", "不对", "错", NULL};
    for (size_t i = 0; after[i]; i++) {
        size_t l = strlen(after[i]);
        if (!strncasecmp(a, after[i], l) && !isalpha((unsigned char)a[l]))
            return 1;
    }
    return 0;
}

/* After the formula, a word that corrects what came before ("更正：分母是 dₖ", "no wait,
 * it's divided by d_k"): what follows changes the answer, in words. */
static int formula_corrected(const char *answer, size_t end)
{
    static const char *const marks[] = {"更正", "改正：", "改正:", "纠正一下", "不对，", "不对,",
                                        "不对。", "写错了", "说错了", "搞错了", "correction:",
                                        "correction :", "no wait", "wait no", "wait,", "wait ,",
                                        "scratch that", "sorry, actually", "sorry actually",
                                        "sorry, i mean", "i mean,", "i meant", "my bad", NULL};
    return qz_lex_find(answer + end, marks) != NULL;
}

/* After the formula at [.., end), a part of it offered otherwise in words, as a doubt:
 * "…V, or maybe divided by d_k, not sure which", "…V，也可能是除以 dk". Two formulas are
 * then offered, as with a second formula written out. */
static int formula_hedged(const char *answer, size_t end)
{
    static const char *const hedges[] = {"or maybe", "or perhaps", "or possibly", "or is it",
                                         "or was it", "not sure which", "也可能是", "也可能",
                                         "或许是", "还是说", "不确定是", "不知道是", NULL};
    static const char *const parts[] = {"divide", "d_k", "dk", "d k", "sqrt", "√", "root",
                                        "softmax", "sigmoid", "transpose", "without", "no scal",
                                        "除以", "根号", "转置", "不开", "乘", NULL};
    for (size_t i = 0; hedges[i]; i++) {
        const char *h = strcasestr(answer + end, hedges[i]);
        if (h && qz_lex_find(h + strlen(hedges[i]), parts))
            return 1;
    }
    return 0;
}

/* Does the answer name the softmax anywhere (歸一化 too: OpenCC reads it before)? */
static int mentions_softmax(const char *answer)
{
    static const char *const w[] = {"softmax", "soft max", "soft-max", "归一化", "歸一化", "软最大",
                                    NULL};
    return qz_lex_find(answer, w) != NULL;
}

/* Characters lost on the way: three question marks or more in a row ("Attention =
 * ??????(??????)"), a box or a replacement character. A hedge ("…V ??") is two at most. */
static int lost_characters(const char *answer)
{
    return qz_answer_lost_characters(answer) || strstr(answer, "???") || strstr(answer, "？？？");
}

/* Wrong, for the reason why (translated): "Not right.", then why; the tutor shows its own
 * headline, then what follows body_at. */
static void not_right(qz_result *out, FILE *fb, qz_lang lang, const char *why)
{
    out->verdict = QZ_WRONG;
    out->score = 0;
    fprintf(fb, qz_tr(lang, "Not right.\n"));
    out->body_at = qz_fb_pos(fb);
    fputs(why, fb);
}

int qz_grade_formula(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                     FILE *fb, at_error *err)
{
    if (!q->canonical)
        return at_error_set(err, AT_EINVAL, "question %s: a formula question needs `canonical`",
                            q->id ? q->id : "?");
    out->expected = strdup(q->canonical);
    if (lost_characters(answer)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "Some characters of the formula did not come through (shown as ? or □): "
                                "nothing was counted, write it again.\n"));
        return AT_OK;
    }
    qz_formula_diag d;
    at_error ferr;
    int rc = qz_formula_diagnose(answer, q->canonical, &d, &ferr);
    if (rc == AT_ERANGE || rc == AT_ENOMEM)
        return at_error_set(err, rc, "question %s: %s", q->id ? q->id : "?", ferr.msg);
    if (rc) {
        out->verdict = QZ_MALFORMED;
        if (d.unread) {   /* in the answer's language */
            char what[256];
            snprintf(what, sizeof what, qz_tr(lang, d.unread), (int)strlen(d.unread_arg), d.unread_arg);
            fprintf(fb, qz_tr(lang, "cannot read the formula at character %ld: %s"), d.unread_char, what);
            fputc('\n', fb);
        } else {   /* in the answer's language when the catalogue has it ("the answer is empty") */
            fprintf(fb, "%s\n", qz_tr(lang, ferr.msg));
        }
        fprintf(fb, qz_tr(lang, "Unicode, ASCII, LaTeX or code (NumPy, PyTorch) are all fine.\n"));
        return AT_OK;
    }
    /* the words beside the formula, graded by the follow-up: a misconception stated
     * there ("√d_k makes the weights sum to 1", "d_k is the length of the sentence")
     * makes a right formula wrong, as a false claim beside a right answer is marked
     * elsewhere (quiz/textgrade.c), and a formula with a slip wrong (the seed's Q2 asks
     * for the formula and what √d_k is for) */
    qz_result words = {.verdict = QZ_REVIEW};
    if ((d.explained || commented(answer)) && q->follow_up && !(d.mistakes & QZ_F_NO_FORMULA) &&
        (rc = judge_words(q, answer, &d, lang, &words, err)))
        return rc;
    /* a formula with no softmax, the softmax said in words elsewhere ("QKᵀV/√dₖ，然后再做
     * softmax", "… on second thought there's no softmax"): not a part left out but one
     * placed where the formula cannot say, or taken back: wrong */
    if (d.mistakes == QZ_F_NO_SOFTMAX && !d.fatal && mentions_softmax(answer))
        d.fatal = 1;
    int stated_wrong = words.verdict == QZ_WRONG || words.verdict == QZ_PARTIAL;
    int misconceived = stated_wrong && words.mistake == QZ_M_MISCONCEPTION;
    /* a false claim of the lesson beside it ("softmax goes down the columns"): a formula
     * with one slip stays partly right (the claim may be that slip in words) */
    int false_claim = stated_wrong && words.mistake == QZ_M_FALSE_CLAIM;
    if (!(d.mistakes & QZ_F_NO_FORMULA) && formula_negated(answer, d.start, d.end)) {
        not_right(out, fb, lang, qz_tr(lang, "The answer says the formula is not the one it writes: "
                                             "write the formula you mean.\n"));
    } else if (d.explained && !(d.mistakes & QZ_F_NO_FORMULA) && formula_disowned(answer, d.end)) {
        not_right(out, fb, lang, qz_tr(lang, "The answer takes back the formula it gave.\n"));
    } else if (!d.mistakes && (misconceived || false_claim)) {
        out->verdict = QZ_WRONG;
        out->score = 0;
        out->mistake = QZ_M_MISCONCEPTION;
        fprintf(fb, qz_tr(lang, "Not right: the formula is right, but the words beside it state "
                                "something wrong.\n"));
        out->body_at = qz_fb_pos(fb);
    } else if (d.alternative) {
        /* two formulas offered, one to be right: every teacher's set marks it wrong
         * ("softmax(QKᵀ/√dₖ)V 或者 softmax(QKᵀ)V/√dₖ，两种都对") */
        not_right(out, fb, lang, qz_tr(lang, "The answer offers two different formulas, and only one "
                                             "can be the answer: write the one you settle on.\n"));
    } else if (!d.mistakes && formula_hedged(answer, d.end)) {
        not_right(out, fb, lang, qz_tr(lang, "After the formula the answer offers one of its parts "
                                             "otherwise, as a doubt, and only one can be the answer: "
                                             "write the formula you settle on.\n"));
    } else if (!d.mistakes && d.explained && !d.corrected && words.verdict != QZ_CORRECT &&
               formula_corrected(answer, d.end)) {
        /* "softmax(QKᵀ/√dₖ)V，更正：分母是 dₖ，不开根号": the formula changed in words */
        out->verdict = QZ_MALFORMED;
        out->score = 0;
        fprintf(fb, qz_tr(lang, "After the formula the answer corrects it in words, so it is not "
                                "clear which formula you settle on. Nothing was counted: write that "
                                "formula.\n"));
        print_words(q, &words, lang, fb);
        qz_result_free(&words);
        return AT_OK;
    } else if (!d.mistakes) {
        out->verdict = QZ_CORRECT;
        out->score = 1;
        fprintf(fb, qz_tr(lang, "Correct: %s\n"), q->canonical);
    } else {
        int partial = !d.fatal && d.slips == 1 && !misconceived;
        out->verdict = partial ? QZ_PARTIAL : QZ_WRONG;
        out->score = partial ? 0.5 : 0;
        out->mistake = QZ_M_FORMULA;
        fprintf(fb, "%s", partial ? qz_tr(lang, "Partly right: one part is off.\n")
                                  : qz_tr(lang, "Not right.\n"));
        out->body_at = qz_fb_pos(fb);
        name_mistakes(&d, lang, fb);
    }
    print_words(q, &words, lang, fb);
    qz_result_free(&words);
    if (out->verdict == QZ_CORRECT)
        return AT_OK;
    out->reveal_at = qz_fb_pos(fb);
    fprintf(fb, qz_tr(lang, "Expected: %s\n"), q->canonical);
    if (q->explanation)
        fprintf(fb, "\n%s%s", q->explanation,
                *q->explanation && q->explanation[strlen(q->explanation) - 1] == '\n' ? "" : "\n");
    return AT_OK;
}
