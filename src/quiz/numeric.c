/* Grading of the numeric kinds (softmax, numeric, attention): place each value the
 * student wrote (by label or by position), compare with the engine's values within
 * the tolerance, and explain. */
#include "quiz/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MISSING 2   /* ok[j]: no value was given for slot j */

static void list_tokens(FILE *fb, const qz_question *q)
{
    for (size_t i = 0; i < q->n_tokens; i++)
        fprintf(fb, "%s%s", i ? " " : "", q->tokens[i]);
}

static void list_asked(FILE *fb, const qz_numctx *c)
{
    for (size_t j = 0; j < c->n; j++)
        fprintf(fb, "%s%s", j ? QZ_TR(c->lang, (j + 1 == c->n ? " and " : ", "),
                                      (j + 1 == c->n ? " 和 " : "、")) : "",
                c->names[j] ? c->names[j] : "?");
}

static long find_token(const qz_question *q, const char *label)
{
    size_t n = q->kind == QZ_ATTENTION && q->n_tokens != q->n_k ? 0 : q->n_tokens;
    for (size_t i = 0; q->tokens && i < n; i++)
        if (!strcasecmp(q->tokens[i], label))
            return (long)i;
    return -1;
}

static void malformed(qz_result *out, FILE *fb, const char *msg)
{
    out->verdict = QZ_MALFORMED;
    out->score = 0;
    fprintf(fb, "%s\n", msg);
}

/* Decimals an example answer shows: those asked; none when every expected value is a
 * whole number and no decimals are asked (positions, counts); 2 otherwise. */
static int example_decimals(const qz_numctx *c)
{
    if (c->decimals >= 0)
        return c->decimals;
    for (size_t j = 0; j < c->n; j++)
        if (!c->want || c->want[j] != floor(c->want[j]))
            return 2;
    return 0;
}

/* An example answer of the question's shape, made up (never the expected values):
 * one value per slot asked, with the decimals asked, labelled by the tokens asked
 * when labelled (cat=0.10 sat=0.17); more than 8 values: the first 3 and "…". */
static void print_example(FILE *fb, const qz_numctx *c, int labelled)
{
    int d = example_decimals(c);
    size_t shown = c->n > 8 ? 3 : c->n;
    for (size_t j = 0; j < shown; j++) {
        fputs(j ? " " : "", fb);
        if (labelled && c->names && c->names[j])
            fprintf(fb, "%s=", c->names[j]);
        if (d == 0)
            fprintf(fb, "%zu", 2 + 3 * j);
        else
            fprintf(fb, "%.*f", d, 0.10 + 0.07 * (double)j);
    }
    if (shown < c->n)
        fprintf(fb, QZ_TR(c->lang, " … (%zu values)", " …（共 %zu 个数）"), c->n);
}

/* "下雨=0.14 没=0.17" in any order. Returns 1 if the answer is malformed (written to fb),
 * 0 when placed; a value for a token not asked is a wrong-token mistake. */
static int place_labelled(const qz_numctx *c, const qz_numbers *nums, double *given, int *dec,
                          int *ok, qz_result *out, FILE *fb)
{
    qz_lang L = c->lang;
    int others = 0;
    if (nums->labelled != nums->n) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, QZ_TR(L, "Label every value or none (", "要么每个数都标上词元，要么都不标（"));
        print_example(fb, c, 1);
        fprintf(fb, QZ_TR(L, ", or ", "，或 "));
        print_example(fb, c, 0);
        fprintf(fb, QZ_TR(L, ").\n", "）。\n"));
        return 1;
    }
    for (size_t i = 0; i < nums->n; i++) {
        const qz_value *v = &nums->v[i];
        long k = find_token(c->q, v->label);
        if (k < 0) {
            out->verdict = QZ_MALFORMED;
            fprintf(fb, QZ_TR(L, "'%s' is not one of the tokens (", "'%s' 不是题目里的词元（"), v->label);
            list_tokens(fb, c->q);
            fprintf(fb, QZ_TR(L, "); the question asks for ", "）；题目问的是 "));
            list_asked(fb, c);
            fprintf(fb, QZ_TR(L, ".\n", "。\n"));
            return 1;
        }
        size_t slot = c->slot_of ? c->slot_of[k] : (size_t)-1;
        if (slot == (size_t)-1) {
            others++;
            fprintf(fb, QZ_TR(L, "%s is not asked: its weight is ", "题目没有问 %s：它的权重是 "),
                    v->label);
            qz_put_num(fb, c->row_w[k], 4);
            fprintf(fb, QZ_TR(L, "; the question asks for ", "；题目问的是 "));
            list_asked(fb, c);
            fprintf(fb, QZ_TR(L, ".\n", "。\n"));
            continue;
        }
        if (ok[slot] != MISSING) {
            out->verdict = QZ_MALFORMED;
            fprintf(fb, QZ_TR(L, "%s has two values; give one.\n", "%s 写了两个数；只写一个。\n"),
                    v->label);
            return 1;
        }
        given[slot] = v->x;
        dec[slot] = v->decimals;
        ok[slot] = 0;
    }
    for (size_t j = 0; j < c->n && !others; j++)
        if (ok[j] == MISSING) {
            out->verdict = QZ_MALFORMED;
            fprintf(fb, QZ_TR(L, "%s has no value; the question asks for ", "%s 没有给出数值；题目问的是 "),
                    c->names[j] ? c->names[j] : "?");
            list_asked(fb, c);
            fprintf(fb, QZ_TR(L, ".\n", "。\n"));
            return 1;
        }
    if (others)
        out->mistake = QZ_M_WRONG_TOKEN;
    return 0;
}

/* The whole row of weights where only some are asked: partly right when the row is. */
static int whole_row(const qz_numctx *c, const qz_numbers *nums, qz_result *out, FILE *fb)
{
    if (!c->row_n || nums->n != c->row_n || c->row_n == c->n)
        return 0;
    for (size_t k = 0; k < c->row_n; k++)
        if (fabs(nums->v[k].x - c->row_w[k]) > c->tol[0] * (1 + 1e-9) + 1e-12)
            return 0;
    qz_lang L = c->lang;
    int output = c->q->kind == QZ_ATTENTION && c->q->ask_output;
    out->verdict = QZ_PARTIAL;
    out->score = 0.5;
    out->mistake = output ? QZ_M_WEIGHTS_NOT_OUTPUT : QZ_M_WHOLE_ROW;
    if (output)
        fprintf(fb, QZ_TR(L, "These are the %zu attention weights of the row, and they are right; "
                             "the question asks for the output: the weights times the rows of V.\n",
                          "这是该行的 %zu 个注意力权重，都对；但题目问的是输出：用这些权重对 V 的各行加权求和。\n"),
                c->row_n);
    else {
        fprintf(fb, QZ_TR(L, "You gave the whole row (%zu weights, all right). The question asks only for ",
                          "你给出了整行（%zu 个权重，全对）。题目只问 "), c->row_n);
        list_asked(fb, c);
        fprintf(fb, ": ");
        for (size_t j = 0; j < c->n; j++) {
            fprintf(fb, "%s", j ? " " : "");
            qz_put_num(fb, c->want[j], c->decimals);
        }
        fprintf(fb, QZ_TR(L, ".\n", "。\n"));
    }
    return 1;
}

static void count_mismatch(const qz_numctx *c, size_t got, qz_result *out, FILE *fb)
{
    qz_lang L = c->lang;
    out->verdict = QZ_MALFORMED;
    fprintf(fb, QZ_TR(L, "The question asks for %zu number%s", "题目要 %zu 个数"), c->n,
            QZ_TR(L, c->n == 1 ? "" : "s", ""));
    if (c->names[0]) {
        fprintf(fb, " (");
        list_asked(fb, c);
        fprintf(fb, ")");
    }
    fprintf(fb, QZ_TR(L, "; the answer has %zu. Nothing was counted: answer again, e.g. ",
                      "，答案里有 %zu 个。这次不算作答，请重新回答，例如 "), got);
    print_example(fb, c, 0);
    fprintf(fb, "\n");
}

/* Set answers: each given value takes the first unused expected value it matches. */
static void match_unordered(const qz_numctx *c, const double *given, int *ok)
{
    int *used = calloc(c->n, sizeof *used);
    for (size_t i = 0; used && i < c->n; i++)
        for (size_t j = 0; j < c->n; j++)
            if (!used[j] && qz_within(c, j, given[i])) {
                used[j] = 1;
                ok[i] = 1;
                break;
            }
    free(used);
}

static void report_values(const qz_numctx *c, const double *given, const int *dec, const int *ok,
                          FILE *fb)
{
    qz_lang L = c->lang;
    for (size_t j = 0; j < c->n; j++) {
        if (c->names[j])
            fprintf(fb, "  %s: ", c->names[j]);
        else
            fprintf(fb, "  #%zu: ", j + 1);
        if (ok[j] == MISSING)
            fprintf(fb, QZ_TR(L, "no value", "未作答"));
        else
            qz_put_num(fb, given[j], dec[j] >= 0 ? dec[j] : 4);
        fprintf(fb, "  %s", ok[j] == 1 ? "✓" : "✗");
        if (!c->q->unordered) {
            fprintf(fb, QZ_TR(L, "  (engine: ", "  （引擎："));
            qz_put_num(fb, c->want[j], c->decimals >= 0 && c->decimals < 4 ? 4 : -1);
            if (c->decimals >= 0 && c->decimals < 4) {
                fprintf(fb, " ≈ ");
                qz_put_num(fb, c->want[j], c->decimals);
            }
            fprintf(fb, QZ_TR(L, ")", "）"));
        }
        fprintf(fb, "\n");
    }
}

static void set_expected(const qz_numctx *c, qz_result *out)
{
    out->n_expected = c->n;
    out->expected_values = malloc(c->n * sizeof *out->expected_values);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (size_t j = 0; f && j < c->n; j++) {
        if (out->expected_values)
            out->expected_values[j] = c->want[j];
        fprintf(f, "%s", j ? " " : "");
        qz_put_num(f, c->want[j], c->decimals);
    }
    if (f)
        fclose(f);
    out->expected = buf;
}

static void judge(const qz_numctx *c, const double *given, const int *dec, int *ok, qz_result *out,
                  const char *notes, FILE *fb)
{
    qz_lang L = c->lang;
    size_t n_ok = 0;
    for (size_t j = 0; j < c->n; j++)
        n_ok += ok[j] == 1;
    if (n_ok == c->n) {
        out->verdict = QZ_CORRECT;
        out->score = 1;
        fprintf(fb, QZ_TR(L, "Correct.\n", "正确。\n"));
        out->body_at = qz_fb_pos(fb);
        report_values(c, given, dec, ok, fb);
        return;
    }
    /* The diagnosis decides the verdict (tokens swapped: partly right), so it is
     * written aside and printed after the headline that agrees with it. */
    char *diag = NULL;
    size_t diag_len = 0;
    FILE *df = open_memstream(&diag, &diag_len);
    qz_mistake m = qz_diagnose(c, given, dec, ok, df ? df : fb);
    if (df)
        fclose(df);
    int partly = n_ok || m == QZ_M_SWAPPED || m == QZ_M_PERCENT_NO_SIGN;
    fprintf(fb, partly ? QZ_TR(L, "Partly right.\n", "部分正确。\n") : QZ_TR(L, "Not right.\n", "不对。\n"));
    out->body_at = qz_fb_pos(fb);
    report_values(c, given, dec, ok, fb);
    fprintf(fb, "%s%s", notes ? notes : "", diag ? diag : "");
    free(diag);
    if (m != QZ_M_NONE || out->mistake == QZ_M_NONE)
        out->mistake = m;
    out->score = (double)n_ok / (double)c->n;
    out->verdict = n_ok ? QZ_PARTIAL : QZ_WRONG;
    if (!n_ok && (m == QZ_M_SWAPPED || m == QZ_M_PERCENT_NO_SIGN)) {
        out->verdict = QZ_PARTIAL;   /* the computation is right; the writing is not */
        out->score = 0.5;
    }
    qz_walk_steps(c, fb);
    out->reveal_at = qz_fb_pos(fb);
    if (c->q->explanation && *c->q->explanation)
        fprintf(fb, "\n%s%s", c->q->explanation,
                c->q->explanation[strlen(c->q->explanation) - 1] == '\n' ? "" : "\n");
}

/* "(Read 0,155 as 0.155…)" with the student's own first comma decimal. */
static void comma_hint(const char *answer, qz_lang lang, FILE *fb)
{
    const char *p = answer;
    while (*p && !(*p == ',' && p > answer && isdigit((unsigned char)p[-1]) && isdigit((unsigned char)p[1])))
        p++;
    if (!*p)
        return;
    const char *a = p, *z = p + 1;
    while (a > answer && isdigit((unsigned char)a[-1]))
        a--;
    while (isdigit((unsigned char)*z))
        z++;
    int il = (int)(p - a), fl = (int)(z - p - 1);
    fprintf(fb, QZ_TR(lang, "(Read %.*s,%.*s as %.*s.%.*s; a dot is safer: %.*s.%.*s.)\n",
                      "（%.*s,%.*s 按 %.*s.%.*s 理解；用小数点更稳妥：%.*s.%.*s。）\n"),
            il, a, fl, p + 1, il, a, fl, p + 1, il, a, fl, p + 1);
}

int qz_grade_numeric(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                     FILE *fb, at_error *err)
{
    qz_numctx c;
    double *given = NULL;
    int *ok = NULL, *dec = NULL;
    char *notes = NULL;
    size_t notes_len = 0;
    FILE *notes_f;
    int rc = qz_numctx_build(&c, q, lang, err);
    if (rc)
        goto out;
    set_expected(&c, out);
    qz_numbers nums;
    at_error perr;
    if (qz_parse_numbers(answer, c.n, lang, &nums, &perr)) {
        malformed(out, fb, perr.msg);
        fprintf(fb, QZ_TR(lang, "Nothing was counted: answer again, e.g. ",
                          "这次不算作答，请重新回答，例如 "));
        print_example(fb, &c, 0);
        fprintf(fb, "\n");
        goto out;
    }
    given = calloc(c.n, sizeof *given);
    ok = calloc(c.n, sizeof *ok);
    dec = calloc(c.n, sizeof *dec);
    if (!given || !ok || !dec) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t j = 0; j < c.n; j++)
        ok[j] = MISSING;
    if (nums.labelled && c.row_n) {
        notes_f = open_memstream(&notes, &notes_len);
        if (!notes_f) {
            rc = at_error_set(err, AT_ENOMEM, "out of memory");
            goto out;
        }
        int bad = place_labelled(&c, &nums, given, dec, ok, out, notes_f);
        fclose(notes_f);
        if (bad) {
            fprintf(fb, "%s", notes);
            goto out;
        }
    } else if (nums.n != c.n) {
        if (!whole_row(&c, &nums, out, fb))
            count_mismatch(&c, nums.n, out, fb);
        goto out;
    } else {
        for (size_t j = 0; j < c.n; j++) {
            given[j] = nums.v[j].x;
            dec[j] = nums.v[j].decimals;
            ok[j] = 0;
        }
    }
    if (q->unordered)
        match_unordered(&c, given, ok);
    else
        for (size_t j = 0; j < c.n; j++)
            if (ok[j] != MISSING)
                ok[j] = qz_within(&c, j, given[j]);
    judge(&c, given, dec, ok, out, notes, fb);
    if (nums.comma_decimal)
        comma_hint(answer, lang, fb);
out:
    free(given);
    free(ok);
    free(dec);
    free(notes);
    qz_numctx_free(&c);
    return rc;
}
