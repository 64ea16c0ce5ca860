/* Grading of the numeric kinds (softmax, numeric, attention): place each value the
 * student wrote (by label or by position), compare with the engine's values within
 * the tolerance, and explain. */
#define _GNU_SOURCE
#include "engine/visible.h"
#include "quiz/compiled.h"
#include "quiz/garble.h"
#include "quiz/internal.h"
#include "quiz/textnorm.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MISSING 2   /* ok[j]: no value was given for slot j */

static void list_asked(FILE *fb, const qz_numctx *c)
{
    for (size_t j = 0; j < c->n; j++)
        fprintf(fb, "%s%s", !j ? "" : j + 1 == c->n ? qz_trc(c->lang, "list of tokens", " and ")
                                                    : qz_trc(c->lang, "list of tokens", ", "),
                c->names[j] ? c->names[j] : "?");
}

/* Digits that did not come through: a box or a replacement character (▯ □ U+FFFD); an
 * ellipsis inside a number ("0.…7", "1…7", "0.‥") or after its first decimal ("0.1…");
 * a mark where a digit should be ("0.?7", "0.#7", "0.1?", "0.1几", 下雨0.没). */
static int lost_digits_in(const char *s)
{
    if (qz_answer_lost_characters(s))
        return 1;
    /* digits struck out in a scribble ("0.~~1~~~~4~~ ~~~"): a clean strike-out was taken
     * out before (qz_answer_unstruck), what is left cannot be read */
    if (strstr(s, "~~"))
        return 1;
    /* a leading 0's decimal point with nothing readable after it, or one decimal and
     * then a mark standing for the rest */
    for (const char *p = strchr(s, '.'); p; p = strchr(p + 1, '.')) {
        if (p == s || p[-1] < '0' || p[-1] > '9')
            continue;
        int lead0 = p[-1] == '0' && (p - 1 == s || p[-2] < '0' || p[-2] > '9');
        const char *q = p + 1;
        if (lead0 && (*q == '?' || *q == '#' || *q == '_' || !strncmp(q, "‥", strlen("‥")) ||
                      (unsigned char)*q >= 0xe3))
            return 1;   /* 0xe3…: a CJK character right after "0." */
        if (lead0 && *q >= '0' && *q <= '9' &&
            (q[1] == '?' || q[1] == '#' || q[1] == '_' || !strncmp(q + 1, "几", strlen("几"))))
            return 1;   /* "0.1?", "0.1几": the second decimal left out */
    }
    static const char *const dots[] = {"…", "‥", "..."};
    for (size_t d = 0; d < 3; d++)
        for (const char *p = strstr(s, dots[d]); p; p = strstr(p + 1, dots[d])) {
            size_t l = strlen(dots[d]), run = 0;
            while (p - run > s && p[-1 - (long)run] >= '0' && p[-1 - (long)run] <= '9')
                run++;
            /* "0.…7", "0.1…": a decimal point right before, or one decimal written */
            if (p > s && p[-1] == '.' && d < 2)
                return 1;
            if (run == 1 && p - 1 > s && p[-2] == '.')
                return 1;
            if (run && p[l] >= '0' && p[l] <= '9')
                return 1;   /* "1…7" */
        }
    return 0;
}

/* Lost digits in what the answer ends with: after its last correction ("0.1? 0.17 -
 * sorry, 0.14 0.17" keeps only what follows "sorry"). */
static int lost_digits(const char *s)
{
    const char *tail = s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        size_t l = qz_correction_word_at(s + i, n - i);
        if (l)
            tail = s + i + l;
    }
    return lost_digits_in(tail);
}

/* Control characters (a terminal's escape codes pasted or sent): what is around them
 * is not what a student wrote. Tabs and line ends are text. */
/* Does the answer hold a character the terminal filter (engine/visible.h) would not show
 * (C0 and C1 controls, DEL, bidi overrides), line breaks and tabs aside? */
static int control_chars(const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t c;
        int n = at_visible_decode(s + i, len - i, &c);
        if (n <= 0) {   /* not UTF-8: the reader refuses it on its own */
            i++;
            continue;
        }
        if (at_visible_unsafe(c) && c != '\t' && c != '\n' && c != '\r')
            return 1;
        i += (size_t)n;
    }
    return 0;
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
    if (c->q->decimals >= 0)
        return c->q->decimals;
    for (size_t j = 0; j < c->n; j++)
        if (!c->want || c->want[j] != floor(c->want[j]))
            return 2;
    return 0;
}

/* An example answer of the question's shape that gives nothing away: one placeholder
 * per slot asked (0.xx for two decimals, N for a whole number), labelled by the tokens
 * asked when labelled (cat=0.xx sat=0.xx); more than 8 values: the first 3 and "…". */
static void print_example(FILE *fb, const qz_numctx *c, int labelled)
{
    int d = example_decimals(c);
    size_t shown = c->n > 8 ? 3 : c->n;
    for (size_t j = 0; j < shown; j++) {
        fputs(j ? " " : "", fb);
        if (labelled && c->names && c->names[j])
            fprintf(fb, "%s=", c->names[j]);
        if (d == 0)
            fputs("N", fb);
        else
            fprintf(fb, "0.%.*s", d > 9 ? 9 : d, "xxxxxxxxx");
    }
    if (shown < c->n)
        fprintf(fb, qz_tr(c->lang, " … (%zu values)"), c->n);
}

/* "Nothing was counted: answer again, e.g. 0.xx 0.xx" after a refused answer: a
 * placeholder example that gives nothing away (labelled: with the tokens' names). */
static void again_example(FILE *fb, const qz_numctx *c, int labelled)
{
    fprintf(fb, qz_tr(c->lang, "Nothing was counted: answer again, e.g. "));
    print_example(fb, c, labelled);
    fprintf(fb, "\n");
}

/* The slot a token's value answers; (size_t)-1 when the token is not asked. */
static size_t slot_of_token(const qz_numctx *c, long k)
{
    if (k < 0 || !c->slot_of || (size_t)k >= c->row_n)
        return (size_t)-1;
    return c->slot_of[k];
}

/* dec[] of a value left as a division ("1.35/9.75"), below -1 (other arithmetic) */
#define DEC_RATIO (-2)

static void take(const qz_value *v, size_t slot, double *given, int *dec, int *ok)
{
    given[slot] = v->x;
    dec[slot] = v->computed && v->divided ? DEC_RATIO : v->decimals;
    ok[slot] = 0;
}

/* Labelled values: each asked token takes the last value written for it (the value
 * its working ends on); slots no label names take the unlabelled values in order when
 * there are exactly as many. Returns 1 when the answer is malformed (written to fb);
 * a value for a token not asked is noted (a wrong-token mistake). */
static int place_labelled(const qz_numctx *c, const qz_numbers *nums, double *given, int *dec,
                          int *ok, qz_result *out, FILE *fb)
{
    qz_lang L = c->lang;
    size_t missing = c->n, free_values = 0;
    int others = 0;
    for (size_t i = 0; i < nums->n; i++) {
        const qz_value *v = &nums->v[i];
        size_t slot = slot_of_token(c, v->token);
        if (v->token >= 0 && slot != (size_t)-1) {
            missing -= ok[slot] == MISSING;
            take(v, slot, given, dec, ok);
        }
        free_values += v->token < 0 && !v->other && !v->aside;
    }
    if (missing && free_values == missing) {
        size_t j = 0;
        for (size_t i = 0; i < nums->n; i++) {
            const qz_value *v = &nums->v[i];
            if (v->token >= 0 || v->other || v->aside)
                continue;
            while (j < c->n && ok[j] != MISSING)
                j++;
            if (j < c->n)
                take(v, j, given, dec, ok);
        }
    } else {
        for (size_t i = 0; i < nums->n; i++) {
            const qz_value *v = &nums->v[i];
            size_t slot = v->token < 0 ? slot_of_token(c, v->inherited) : (size_t)-1;
            if (slot != (size_t)-1 && ok[slot] != MISSING)
                take(v, slot, given, dec, ok);   /* a later step of the same token */
        }
    }
    for (size_t i = 0; i < nums->n; i++) {
        const qz_value *v = &nums->v[i];
        if (v->token < 0 || slot_of_token(c, v->token) != (size_t)-1 || !c->row_w)
            continue;
        others++;
        fprintf(fb, qz_tr(L, "%s is not asked: the question asks for "),
                c->q->tokens[v->token]);
        list_asked(fb, c);
        fprintf(fb, qz_tr(L, ".\n"));
    }
    for (size_t j = 0; j < c->n && !others; j++)
        if (ok[j] == MISSING) {   /* graded as not answered: "下雨 0.14" alone is partly right */
            fprintf(fb, qz_tr(L, "%s has no value; the question asks for "),
                    c->names[j] ? c->names[j] : "?");
            list_asked(fb, c);
            fprintf(fb, qz_tr(L, ".\n"));
        }
    (void)out;
    if (others)
        out->mistake = QZ_M_WRONG_TOKEN;
    return 0;
}

/* Does a value of nums carry the label of a token asked? */
static int labels_asked(const qz_numctx *c, const qz_numbers *nums)
{
    for (size_t i = 0; i < nums->n; i++)
        if (nums->v[i].token >= 0 && slot_of_token(c, nums->v[i].token) != (size_t)-1)
            return 1;
    return 0;
}

/* Unlabelled values: those after a concluding word ("so", 所以) when they are as many
 * as asked, else those not named as another quantity ("sum 9.75"), else all. NULL
 * (and *n the count read) when none of these is as many as asked. */
static const qz_value **pick_unlabelled(const qz_numctx *c, const qz_numbers *nums,
                                        const qz_value **pick, size_t *n)
{
    /* 1: not another quantity, not in an aside; 2: asides too; 3: all */
    for (int pass = 1; pass <= 3; pass++) {
        size_t k = 0;
        for (size_t i = 0; i < nums->n; i++) {
            const qz_value *v = &nums->v[i];
            if ((pass < 3 && v->other) || (pass < 2 && v->aside) || v->rejected)
                continue;
            pick[k++] = v;
        }
        *n = k;
        if (k == c->n)
            return pick;
        if (k == 1 && pick[0]->each && c->n > 1) {   /* "0.2 each" */
            for (size_t j = 1; j < c->n; j++)
                pick[j] = pick[0];
            return pick;
        }
        if (pass == 1 && k)
            break;   /* the count read is that of the answer's own values */
    }
    /* "exp后：1.11,…,3.32；和≈9.75；0.14 0.17": the working's values are all above 1 (the
     * exps, their sum), and as many values as asked, each a weight (0 to 1), end it… */
    const qz_value *all[QZ_MAX_VALUES];
    size_t k = 0;
    for (size_t i = 0; i < nums->n && k < QZ_MAX_VALUES; i++)
        if (!nums->v[i].rejected && !nums->v[i].aside)
            all[k++] = &nums->v[i];
    if (k <= c->n || !c->n)
        return NULL;
    /* … or the answer opens with them and its working follows ("约 0.14 和 0.17，e^0.3≈1.35，
     * …，分母≈9.75") */
    for (int first = 0; first <= 1; first++) {
        size_t i = 0;
        for (; i < k; i++) {
            int weight = all[i]->x >= 0 && all[i]->x <= 1 && !all[i]->other;
            if ((first ? i < c->n : i >= k - c->n) != weight)
                break;
        }
        if (i == k) {
            memcpy(pick, all + (first ? 0 : k - c->n), c->n * sizeof *pick);
            *n = c->n;
            return pick;
        }
    }
    return NULL;
}

/* Is v, the one value of an answer where two are asked, both of them run together: a
 * literal whose decimals are twice those asked ("0.1417" for 0.xx 0.xx) and whose halves
 * are the two weights, in order ("0.1384", the first weight to four places, is not)? */
static int run_together(const qz_numctx *c, const qz_value *v)
{
    int d = c->q->decimals > 0 ? c->q->decimals : 2;
    if (c->n != 2 || v->decimals != 2 * d || v->x <= 0 || v->x >= 1 || v->percent)
        return 0;
    double scale = pow(10, d), whole = round(v->x * scale * scale);
    double first = floor(whole / scale) / scale, second = fmod(whole, scale) / scale;
    return fabs(first - c->want[0]) <= 0.011 && fabs(second - c->want[1]) <= 0.011 &&
           fabs(v->x - c->want[0]) > 0.5 / scale / scale;
}

/* One value where several are asked ("0.34"): the student committed to it, so it is an
 * answer, read in the asked order as the first; the others have no value. (Several
 * values that cannot be told apart are what "unreadable" is kept for.) 1 when taken. */
static int lone_value(const qz_numctx *c, const qz_value *const *pick, size_t got, double *given,
                      int *dec, int *ok, FILE *notes)
{
    if (got != 1 || c->n < 2 || c->q->unordered || pick[0]->other || pick[0]->aside)
        return 0;
    take(pick[0], 0, given, dec, ok);
    for (size_t j = 1; j < c->n; j++) {
        fprintf(notes, qz_tr(c->lang, "%s has no value; the question asks for "),
                c->names[j] ? c->names[j] : "?");
        list_asked(notes, c);
        fprintf(notes, qz_tr(c->lang, ".\n"));
    }
    return 1;
}

/* The values after the last concluding word ("so", 所以, "no wait", 即) when they are an
 * answer on their own: as many as asked, or labelled with every token asked. Else the
 * whole answer. */
static const qz_numbers *concluded_part(const qz_numctx *c, const qz_numbers *nums, qz_numbers *part,
                                        const char *answer)
{
    if (!nums->concluded)
        return nums;
    memset(part, 0, sizeof *part);
    part->comma_decimal = nums->comma_decimal;
    size_t labelled_asked = 0;
    for (size_t i = nums->conclusion_at; i < nums->n; i++) {
        part->v[part->n++] = nums->v[i];
        part->labelled += nums->v[i].token >= 0;
        labelled_asked += slot_of_token(c, nums->v[i].token) != (size_t)-1;
    }
    /* "so 0.14 and 0.17. Interesting (0.34)": the sentence the concluding word opens
     * ends after as many values as asked; what comes after it is a remark */
    if (qz_answer_count(part) > c->n && !part->labelled && c->n) {
        long from = part->v[c->n - 1].offset, to = part->v[c->n].offset;
        size_t len = strlen(answer);
        for (long p = from; p >= 0 && p < to && (size_t)p < len; p++)
            if ((answer[p] == '.' && (answer[p + 1] == ' ' || answer[p + 1] == '\n')) ||
                answer[p] == '\n' || answer[p] == '!' || !strncmp(answer + p, "。", 3) ||
                !strncmp(answer + p, "！", 3)) {
                part->n = c->n;
                break;
            }
    }
    return qz_answer_count(part) == c->n || labelled_asked >= c->n ? part : nums;
}

/* Do the values after the concluding word say the opening ones again, each labelled and
 * equal to its opening value, or give tokens not asked ("Approximately 0.14 and 0.17. …,
 * so rains gets 1.35/9.75 and didn't gets 1.65/9.75. … today/bring (about 0.11 each)")? */
static int restates_opening(const qz_numctx *c, const qz_numbers *nums)
{
    size_t k = c->n, again = 0;
    for (size_t i = nums->conclusion_at; i < nums->n; i++) {
        const qz_value *v = &nums->v[i];
        size_t slot = slot_of_token(c, v->token);
        if (v->token < 0 && !v->other && !v->aside)
            return 0;
        if (slot < k) {
            if (fabs(v->x - nums->v[slot].x) > 0.005)
                return 0;
            again++;
        }
    }
    return again > 0;
}

/* "0.14 0.17 -- you can subtract the max (1.2) first", "答：0.14 0.17。没/下雨 的比值 ≈
 * 1.22": an answer that opens with as many bare values as asked, alone in their sentence,
 * has given them (the reader's nums->opening), in the asked order; what follows is a
 * remark: its numbers and the token names in it are not the answer. Not when a
 * concluding word or a correction stands after the values (concluded_part decides), when
 * they are offered as alternatives, or when the remark gives a token asked another
 * weight (0 to 1) than the one it opened with. part gets the values; NULL when the rule
 * does not apply. */
static const qz_numbers *opening_part(const qz_numctx *c, const qz_numbers *nums, qz_numbers *part)
{
    size_t k = c->n;
    /* a concluding word in the remark ("… so you can subtract 0.1 first") concludes no
     * answer of its own unless as many values as asked follow it (and say other values) */
    if (!k || nums->opening != k ||
        (nums->concluded && nums->conclusion_at > 0 && nums->n - nums->conclusion_at >= k &&
         !restates_opening(c, nums)) ||
        nums->alternatives || nums->turned || c->q->unordered)
        return NULL;   /* a concluding word before them all ("答：", "Answer:") is no matter */
    for (size_t i = k; i < nums->n; i++) {
        const qz_value *v = &nums->v[i];
        size_t slot = slot_of_token(c, v->token);
        if (slot < k && !v->other && v->x >= 0 && v->x <= 1 && fabs(v->x - nums->v[slot].x) > 0.005)
            return NULL;
    }
    memset(part, 0, sizeof *part);
    part->comma_decimal = nums->comma_decimal;
    for (size_t i = 0; i < k; i++) {
        part->v[part->n] = nums->v[i];
        part->v[part->n].token = -1;   /* a name in the remark labels none of them */
        part->v[part->n].inherited = -1;
        part->v[part->n++].label[0] = '\0';
    }
    return part;
}

/* After a word that takes values back ("不对，下雨应该是 0.12"): is every value after it
 * labelled with a token asked, so that each replaces that token's value before? */
static int taken_back_by_labels(const qz_numctx *c, const qz_numbers *nums)
{
    size_t after = 0;
    for (size_t i = nums->conclusion_at; i < nums->n; i++) {
        if (nums->v[i].aside)
            continue;
        if (slot_of_token(c, nums->v[i].token) == (size_t)-1)
            return 0;
        after++;
    }
    return after > 0;
}

/* The whole row of weights where only some are asked, every one right: the asked ones
 * stand at their tokens' places in the sentence, so the answer is right and the note
 * says what was asked. Weights given where the output is asked are partly right. */
static int whole_row(const qz_numctx *c, const qz_value *const *vals, size_t n, qz_result *out,
                     FILE *fb)
{
    if (!c->row_n || n <= c->n || n > c->row_n || c->row_n == c->n || c->row_n > 64)
        return 0;
    /* the values, in the row's order, each the weight of a later token than the one before
     * ("0.14 0.17 0.34": 下雨, 没 and 伞), the tokens asked among them; short of the whole
     * row, the answer opens with the asked ones ("0.11 0.14 0.17" does not say which is
     * which) */
    for (size_t k = 0; n < c->row_n && k < c->n; k++)
        if (fabs(vals[k]->x - c->want[k]) > c->tol[0] * (1 + 1e-9) + 1e-12)
            return 0;
    unsigned char given[64] = {0};
    for (size_t k = 0, j = 0; k < n; k++, j++) {
        while (j < c->row_n && fabs(vals[k]->x - c->row_w[j]) > c->tol[0] * (1 + 1e-9) + 1e-12)
            j++;
        if (j == c->row_n)
            return 0;
        given[j] = 1;
    }
    for (size_t j = 0; j < c->row_n; j++)
        if (c->slot_of[j] != (size_t)-1 && !given[j])
            return 0;
    qz_lang L = c->lang;
    int output = c->q->kind == QZ_ATTENTION && c->q->ask_output;
    out->verdict = output ? QZ_PARTIAL : QZ_CORRECT;
    out->score = output ? 0.5 : 1;
    out->mistake = output ? QZ_M_WEIGHTS_NOT_OUTPUT : QZ_M_WHOLE_ROW;
    fprintf(fb, output ? qz_tr(L, "Partly right.\n") : qz_tr(L, "Correct.\n"));
    out->body_at = qz_fb_pos(fb);
    if (output)
        fprintf(fb, qz_tr(L, "These are the %zu attention weights of the row, and they are right; "
                             "the question asks for the output: the weights times the rows of V.\n"),
                c->row_n);
    else if (n == c->row_n) {
        fprintf(fb, qz_tr(L, "You gave the whole row (%zu weights, all right). The question asks only for "), c->row_n);
        list_asked(fb, c);
        fprintf(fb, qz_tr(L, ", in that order.\n"));
    } else {
        fprintf(fb, qz_tr(L, "You gave %zu weights of the row, in its order and all right. The question "
                             "asks only for "), n);
        list_asked(fb, c);
        fprintf(fb, qz_tr(L, ", in that order.\n"));
    }
    return 1;
}

/* The values asked, then the whole row as the working ("约为 0.14 和 0.17。六个词的权重大致是
 * 0.11、0.14、0.13、0.17、0.11、0.34"), or the row first and the asked ones after it: graded
 * as the row, when the asked ones agree with it. */
static int answer_and_row(const qz_numctx *c, const qz_value *const *vals, size_t n, qz_result *out,
                          FILE *fb)
{
    if (!c->row_n || n != c->n + c->row_n)
        return 0;
    double tol = c->tol[0] * (1 + 1e-9) + 1e-12;
    int head = 1, tail = 1;
    for (size_t k = 0; k < c->n; k++) {
        head &= fabs(vals[k]->x - c->want[k]) <= tol;
        tail &= fabs(vals[c->row_n + k]->x - c->want[k]) <= tol;
    }
    return (head && whole_row(c, vals + c->n, c->row_n, out, fb)) ||
           (tail && whole_row(c, vals, c->row_n, out, fb));
}

static void count_mismatch(const qz_numctx *c, size_t got, qz_result *out, FILE *fb)
{
    qz_lang L = c->lang;
    out->verdict = QZ_MALFORMED;
    fprintf(fb, qz_ntr(L, "The question asks for %zu number", "The question asks for %zu numbers", c->n),
            c->n);
    if (c->names[0]) {
        fprintf(fb, "%s", qz_tr(L, " ("));
        list_asked(fb, c);
        fprintf(fb, "%s", qz_tr(L, ")"));
    }
    if (got > c->n && c->names[0])
        fprintf(fb, qz_tr(L, "; the answer has %zu and does not say which is which. Nothing was counted: "
                             "answer again, e.g. "), got);
    else
        fprintf(fb, qz_tr(L, "; the answer has %zu. Nothing was counted: answer again, e.g. "), got);
    print_example(fb, c, got > c->n && c->names[0]);
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

/* A value as the student wrote it: its decimals, a whole number plainly, else 4
 * decimals. */
static void put_given(FILE *fb, double x, int dec)
{
    qz_put_num(fb, x, dec > 6 ? QZ_NUM_SHORT : dec >= 0 ? dec : x == floor(x) ? QZ_NUM_AUTO : 4);
}

/* An expected value: whole numbers plainly (21, not 21.0000), else 4 decimals and, when
 * fewer are asked, "≈" the rounding. */
static void put_expected(FILE *fb, const qz_numctx *c, double x)
{
    if (x == floor(x) && fabs(x) < 1e15) {
        qz_put_num(fb, x, QZ_NUM_AUTO);
        return;
    }
    qz_put_num(fb, x, c->decimals >= 0 && c->decimals < 4 ? 4 : -1);
    if (c->decimals >= 0 && c->decimals < 4) {
        fprintf(fb, " ≈ ");
        qz_put_num(fb, x, c->decimals);
    }
}

/* Each slot with the student's value and ✓ or ✗; with_engine adds the engine's value
 * (for a right answer, or once the answer may be given away). */
/* Each asked value as given, marked ✓ (within the tolerance), ✗, or ≈ where the slip
 * is the rounding (rounding_near) and the value is within two tolerances: right but
 * for its last digit, as the diagnosis below it says. */
static void report_values(const qz_numctx *c, const double *given, const int *dec, const int *ok,
                          int with_engine, int rounding_near, FILE *fb)
{
    qz_lang L = c->lang;
    for (size_t j = 0; j < c->n; j++) {
        if (c->names[j])
            fprintf(fb, qz_tr(L, "  %s: "), c->names[j]);
        else
            fprintf(fb, qz_tr(L, "  #%zu: "), j + 1);
        if (ok[j] == MISSING)
            fprintf(fb, qz_tr(L, "no value"));
        else
            put_given(fb, given[j], dec[j]);
        int near = rounding_near && ok[j] == 0 &&
                   fabs(given[j] - c->want[j]) <= 2 * qz_near_tol(c, j) * (1 + 1e-9);
        fprintf(fb, "  %s", ok[j] == 1 ? "✓" : near ? "≈" : "✗");
        if (with_engine && !c->q->unordered) {
            fprintf(fb, qz_tr(L, "  (engine: "));
            put_expected(fb, c, c->want[j]);
            fprintf(fb, qz_tr(L, ")"));
        }
        fprintf(fb, "\n");
    }
}

/* What gives the answer away: the engine's values. */
static void report_expected(const qz_numctx *c, FILE *fb)
{
    qz_lang L = c->lang;
    fprintf(fb, qz_tr(L, "\nThe right answer (engine): "));
    for (size_t j = 0; j < c->n; j++) {
        fprintf(fb, "%s", j ? qz_tr(L, ", ") : "");
        if (c->names[j])
            fprintf(fb, "%s ", c->names[j]);
        put_expected(fb, c, c->want[j]);
    }
    fprintf(fb, "\n");
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
        if (c->want[j] == floor(c->want[j]) && c->q->decimals < 0)
            qz_put_num(f, c->want[j], QZ_NUM_AUTO);
        else
            qz_put_num(f, c->want[j], c->decimals);
    }
    if (f)
        fclose(f);
    out->expected = buf;
}

/* Every wrong value within two tolerances (0.13 for 0.1384 at 2 decimals: cut off,
 * not rounded) or right at fewer decimals than asked: the computation is right, the
 * writing is not, as teachers mark it (partly right). */
static int near_misses(const qz_numctx *c, const double *given, const int *dec, const int *ok)
{
    for (size_t j = 0; j < c->n; j++)
        if (ok[j] == 0 && fabs(given[j] - c->want[j]) > 2 * qz_near_tol(c, j) * (1 + 1e-9) &&
            qz_rounding_slip(c, j, given, dec) != 2)
            return 0;
        else if (ok[j] == MISSING)
            return 0;
    return 1;
}

/* Right values left as arithmetic ("1.35/9.75 and 1.65/9.75"): the question asks for
 * them worked out to its decimals. */
static int unevaluated(const qz_numctx *c, const int *dec)
{
    if (c->decimals < 0)
        return 0;
    for (size_t j = 0; j < c->n; j++)
        if (dec[j] == DEC_RATIO)
            return 1;
    return 0;
}

static void judge(const qz_numctx *c, const double *given, const int *dec, int *ok, qz_result *out,
                  const char *notes, const char *false_claims, FILE *fb)
{
    qz_lang L = c->lang;
    size_t n_ok = 0;
    for (size_t j = 0; j < c->n; j++)
        n_ok += ok[j] == 1;
    if (n_ok == c->n && false_claims && *false_claims) {
        /* right values with a false claim beside them ("0.14 0.17, so 没 gets the most
         * weight"): wrong, the claim named, as a false claim beside a right answer is
         * marked elsewhere (quiz/textgrade.c) */
        out->verdict = QZ_WRONG;
        out->score = 0;
        out->mistake = QZ_M_FALSE_CLAIM;
        fprintf(fb, qz_tr(L, "Not right: the values are right, but the answer also states something "
                             "wrong.\n"));
        out->body_at = qz_fb_pos(fb);
        report_values(c, given, dec, ok, 1, 0, fb);
        fputs(false_claims, fb);
        if (notes && *notes)
            fputs(notes, fb);
        return;
    }
    if (n_ok == c->n && unevaluated(c, dec)) {
        out->verdict = QZ_PARTIAL;
        out->score = 0.5;
        out->mistake = QZ_M_NONE;
        fprintf(fb, qz_tr(L, "Partly right.\n"));
        out->body_at = qz_fb_pos(fb);
        fprintf(fb, qz_tr(L, "The working is right, but the values are left as arithmetic: work "
                             "each one out to %d decimals.\n"), c->decimals);
        if (notes && *notes)
            fputs(notes, fb);
        out->reveal_at = qz_fb_pos(fb);
        report_expected(c, fb);
        qz_walk_steps(c, fb);
        return;
    }
    if (n_ok == c->n) {
        out->verdict = QZ_CORRECT;
        out->score = 1;
        out->mistake = QZ_M_NONE;   /* a value for a token not asked is only noted */
        fprintf(fb, qz_tr(L, "Correct.\n"));
        out->body_at = qz_fb_pos(fb);
        report_values(c, given, dec, ok, 1, 0, fb);
        qz_note_rounding(c, given, dec, ok, fb);
        if (notes && *notes)
            fputs(notes, fb);
        return;
    }
    /* The diagnosis decides the verdict, so it is written aside and printed after the
     * headline that agrees with it. It names the slip, never the expected values. */
    char *diag = NULL;
    size_t diag_len = 0;
    FILE *df = open_memstream(&diag, &diag_len);
    qz_mistake m = qz_diagnose(c, given, dec, ok, df ? df : fb);
    if (df)
        fclose(df);
    /* Right values under swapped labels (or in the swapped order) answer the question
     * wrongly; percentages without their sign are right numbers written wrongly. A wrong
     * method that gives every value the student wrote (no exp, exps not divided, a sigmoid
     * of each score, a token left out of the sum, no scaling or twice) is wrong even where one of its values
     * lands within the tolerance, as a teacher marks it. */
    int method = m == QZ_M_NO_EXP || m == QZ_M_NO_NORMALISE || m == QZ_M_LEFT_OUT_TOKEN ||
                 m == QZ_M_NO_SCALE || m == QZ_M_DOUBLE_SCALE || m == QZ_M_SIGMOID ||
                 m == QZ_M_UNIFORM;
    int partly = m != QZ_M_SWAPPED && !method &&
                 (n_ok || m == QZ_M_PERCENT_NO_SIGN || m == QZ_M_ROUGH ||
                  (m == QZ_M_ROUNDING && near_misses(c, given, dec, ok)));
    fprintf(fb, partly ? qz_tr(L, "Partly right.\n") : qz_tr(L, "Not right.\n"));
    out->body_at = qz_fb_pos(fb);
    report_values(c, given, dec, ok, 0, m == QZ_M_ROUNDING, fb);
    fprintf(fb, "%s%s", notes ? notes : "", diag ? diag : "");
    free(diag);
    if (m != QZ_M_NONE || out->mistake == QZ_M_NONE)
        out->mistake = m;
    out->score = m == QZ_M_SWAPPED || method ? 0 : (double)n_ok / (double)c->n;
    out->verdict = partly ? QZ_PARTIAL : QZ_WRONG;
    if (partly && !n_ok)
        out->score = 0.5;   /* the computation is right; the writing is not */
    out->reveal_at = qz_fb_pos(fb);
    report_expected(c, fb);
    qz_walk_steps(c, fb);
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
    fprintf(fb, qz_tr(lang, "(Read %.*s,%.*s as %.*s.%.*s; a dot is safer: %.*s.%.*s.)\n"),
            il, a, fl, p + 1, il, a, fl, p + 1, il, a, fl, p + 1);
}

/* No digit, and words that say the student does not know ("不会", "I don't know"): an
 * answer, and a wrong one. Other text without a number ("abc") cannot be read. */
static int says_no_number(const char *answer)
{
    static const char *const giving_up[] = {
        "know", "idea", "sure", "idk", "dunno", "no clue", "skip", "pass", "forgot", "can't",
        "cannot", "unsure", "不会", "不知道", "不清楚", "不确定", "忘了", "不懂", "算不出", "不记得",
        "没学", "跳过", "没思路", "不太会", "无法", "没法", "算不了", "做不了", "没办法", "答不了",
        "不能算", "计算器", "calculator", "too hard", "sorry", "放棄", "唔識", "唔會",
    };
    for (const unsigned char *p = (const unsigned char *)answer; *p; p++)
        if (isdigit(*p) || (p[0] == 0xef && p[1] == 0xbc && p[2] >= 0x90 && p[2] <= 0x99))
            return 0;
    for (size_t i = 0; i < sizeof giving_up / sizeof giving_up[0]; i++)
        if (strcasestr(answer, giving_up[i]))
            return 1;
    return qz_lex_find(answer, qz_lex_dont_know) != NULL;   /* the text questions' own: 放弃, 唔识 */
}

static void no_number(const qz_numctx *c, qz_result *out, FILE *fb)
{
    qz_lang L = c->lang;
    out->verdict = QZ_WRONG;
    out->score = 0;
    fprintf(fb, qz_tr(L, "Not right.\n"));
    out->body_at = qz_fb_pos(fb);
    fprintf(fb, qz_tr(L, "The answer gives no number. Try the hints, then answer with numbers, e.g. "));
    print_example(fb, c, 0);
    fprintf(fb, "\n");
    out->reveal_at = qz_fb_pos(fb);
    report_expected(c, fb);
    qz_walk_steps(c, fb);
    if (c->q->explanation && *c->q->explanation)
        fprintf(fb, "\n%s%s", c->q->explanation,
                c->q->explanation[strlen(c->q->explanation) - 1] == '\n' ? "" : "\n");
}

/* Words of the working (NULL-terminated): the sum of the exps, a division, and the values
 * said to be left undone. */
static const char *const sum_words[] = {"Σ", "∑", "sum", "total", "总和", "總和", "求和", "之和",
                                        "加起来", "分母", "denominator", NULL};
static const char *const div_words[] = {"/", "÷", "／", "除以", "divide", "over the", NULL};
static const char *const left_words[] = {"没来得及", "没算完", "没算出", "来不及", "没时间",
                                         "没有时间", "还没算", "没有算", "没算", "再除", "还要除",
                                         "didn't have time", "did not have time", "no time",
                                         "ran out of time", "didn't finish", "did not finish",
                                         "not finished", "haven't worked out", "didn't work out",
                                         "didn't divide", "didn't compute", "didn't calculate",
                                         "not worked out", "out of time", NULL};

/* "e^0.3/Σe^s and e^0.5/Σe^s", softmax 就是 e^0.3/Σe^x: the method written out for every
 * value asked (the exp of its own score, divided by a sum) and no value worked out.
 * A teacher gives it part of the marks: the values are still to be estimated. */
static int method_only(const qz_numctx *c, const char *answer)
{
    if (!c->row_s || !c->slot_of || !c->row_n ||
        !(strchr(answer, '/') || strstr(answer, "÷") || strstr(answer, "／") || strstr(answer, "除以")))
        return 0;
    if (!qz_lex_find(answer, sum_words))
        return 0;   /* "e^0.3/e^0.5": divided by something else */
    size_t found = 0;
    for (size_t i = 0; i < c->row_n; i++) {
        if (c->slot_of[i] == (size_t)-1 || !isfinite(c->row_s[i]))
            continue;
        char score[32], pat[6][48];
        snprintf(score, sizeof score, "%g", c->row_s[i]);
        snprintf(pat[0], sizeof pat[0], "e^%s", score);
        snprintf(pat[1], sizeof pat[1], "e^{%s}", score);
        snprintf(pat[2], sizeof pat[2], "e^(%s)", score);
        snprintf(pat[3], sizeof pat[3], "exp(%s)", score);
        snprintf(pat[4], sizeof pat[4], "e**%s", score);
        snprintf(pat[5], sizeof pat[5], "exp %s", score);
        int here = 0;
        for (size_t k = 0; k < 6 && !here; k++) {
            const char *p = strcasestr(answer, pat[k]);
            /* the score itself, not a longer number that starts with it (e^0.35) */
            here = p && !isdigit((unsigned char)p[strlen(pat[k])]);
        }
        if (!here)
            return 0;
        found++;
    }
    return found == c->n;
}

/* Does a number written in the answer start at p (not inside another: "9.75", not its
 * "75")? */
static int number_at(const char *answer, const char *p)
{
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return 0;
    return p == answer || (!isdigit((unsigned char)p[-1]) && p[-1] != '.');
}

/* "每个分数取 e 的指数，再除以所有指数之和（约 9.75）。具体的数我没来得及算", "each
 * weight is e^score / 9.75. Didn't have time to divide": the method in words (an exp, a
 * division, a sum: a word for it, or exps, the row's Σ exp written as a number) and the
 * student saying the values are not worked out. */
static int method_unfinished(const char *answer, double exps)
{
    static const char *const exp_words[] = {"e^", "exp", "指数", "e 的", "e的", "exponent", NULL};
    const char *const *lists[] = {exp_words, div_words, sum_words, left_words};
    for (size_t l = 0; l < 4; l++) {
        int hit = qz_lex_find(answer, lists[l]) != NULL;
        for (const char *p = answer; l == 2 && !hit && *p; p++)
            hit = number_at(answer, p) && fabs(strtod(p, NULL) - exps) <= 0.1;
        if (!hit)
            return 0;
    }
    return 1;
}

/* "numerators ≈ 1.35 and 1.65 over Z ≈ 9.75 (ran out of time)", 分子分别约 1.35、1.65，
 * 分母约 9.75，没来得及除, "e^0.3≈1.35，e^0.5≈1.65，再除总和": the exp of every score asked
 * written out, and the division by the sum still to do (a word for the sum or the
 * division, or the student saying it is not done). Bare exps ("1.35 1.65") are not: they
 * are given as the weights. */
static int exps_to_divide(const qz_numctx *c, const char *answer)
{
    /* (not any '/' of div_words: "1.35/1.65" divides nothing by the sum) */
    static const char *const over[] = {"divide", "over z", "over the", "/z", "/ z", "normalis",
                                       "normaliz", "归一", NULL};
    if (!qz_lex_find(answer, sum_words) && !qz_lex_find(answer, over) && !qz_lex_find(answer, left_words))
        return 0;
    for (size_t i = 0; i < c->row_n; i++) {
        if (c->slot_of[i] == (size_t)-1 || !isfinite(c->row_s[i]))
            continue;
        int here = 0;
        for (const char *p = answer; *p && !here; p++)
            here = number_at(answer, p) && fabs(strtod(p, NULL) - exp(c->row_s[i])) <= 0.03;
        if (!here)
            return 0;
    }
    return 1;
}

/* The entry of the row whose score's exp x is, read to 2 decimals (1.2 for 1.221), and
 * not yet in used[] (NULL: any); row_n when none. */
static size_t exp_of_row(const qz_numctx *c, double x, const unsigned char *used, size_t n_used)
{
    for (size_t i = 0; i < c->row_n; i++)
        if ((!used || i >= n_used || !used[i]) && isfinite(c->row_s[i]) &&
            fabs(x - exp(c->row_s[i])) <= 0.03)
            return i;
    return c->row_n;
}

/* Is every number written in the answer a step of the working, none a weight worked
 * out: a score, the exp of one, the sum of the exps, a small count ("6 个", "2 decimals")? */
static int only_working(const qz_numctx *c, const char *answer, double exps)
{
    for (const char *p = answer; *p; p++) {
        if (!number_at(answer, p))
            continue;
        char *end;
        double x = strtod(p, &end);
        int step = (x == floor(x) && x <= 10 && *end != '.') || fabs(x - exps) <= 0.1 ||
                   exp_of_row(c, x, NULL, 0) < c->row_n;
        for (size_t i = 0; i < c->row_n && !step; i++)
            step = isfinite(c->row_s[i]) && fabs(x - c->row_s[i]) < 1e-9;
        if (!step)
            return 0;
        p = end - 1;
    }
    return 1;
}

/* "exps 1.1 1.35 1.2 1.65 1.1 3.3, sum 9.7 ⇒": the exp of every score of the row but one
 * at most, and their sum, written out: the method shown in numbers. */
static int exps_shown(const qz_numctx *c, const char *answer, double exps)
{
    size_t shown = 0, sum = 0;
    unsigned char used[64] = {0};
    for (const char *p = answer; *p; p++) {
        if (!number_at(answer, p))
            continue;
        char *end;
        double x = strtod(p, &end);
        sum |= fabs(x - exps) <= 0.1;
        size_t i = exp_of_row(c, x, used, sizeof used);
        if (i < c->row_n && i < sizeof used) {
            used[i] = 1;
            shown++;
        }
        p = end - 1;
    }
    return sum && c->row_n >= 3 && shown + 1 >= c->row_n;
}

/* A verdict that no value of the answer is graded for (the method alone, the values
 * taken back): its first line, why, then what the engine gives and its steps. */
static void settled(const qz_numctx *c, qz_result *out, FILE *fb, qz_verdict v, double score,
                    const char *head, const char *why)
{
    out->verdict = v;
    out->score = score;
    fprintf(fb, "%s", head);
    out->body_at = qz_fb_pos(fb);
    fprintf(fb, "%s", why);
    out->reveal_at = qz_fb_pos(fb);
    report_expected(c, fb);
    qz_walk_steps(c, fb);
}

/* What the reader needs of the question: the count, the tokens and their glosses, and
 * whether whole numbers are expected. */
static qz_read_opts read_opts(const qz_numctx *c)
{
    const qz_question *q = c->q;
    qz_read_opts o = {.want = c->n, .glosses = q->glosses, .n_glosses = q->n_glosses, .whole = 1};
    if (q->tokens && (q->kind == QZ_SOFTMAX || (q->kind == QZ_ATTENTION && q->n_tokens == q->n_k))) {
        o.tokens = q->tokens;
        o.n_tokens = q->n_tokens;
        o.scores = q->kind == QZ_SOFTMAX ? q->scores : NULL;
    } else {
        o.n_glosses = 0;
    }
    for (size_t j = 0; j < c->n; j++)
        o.whole &= c->want[j] == floor(c->want[j]) && fabs(c->want[j]) >= 1;
    o.whole &= q->decimals <= 0;
    return o;
}

/* The lesson's false claims in the words beside the values ("0.14 0.17; softmax goes
 * down the columns"): their ✗ lines into fb. 0, or -1 when out of memory. */
static int beside_claims(const qz_question *q, const char *answer, qz_lang lang, FILE *fb)
{
    qz_result r;
    at_error e;
    int rc = qz_grade(q->beside, answer, lang, &r, &e);
    if (rc)
        return rc == AT_ENOMEM ? -1 : 0;
    if (r.mistake == QZ_M_FALSE_CLAIM)   /* the question has none of its own: only these */
        qz_print_stated_wrongly(&r, fb);
    qz_result_free(&r);
    return 0;
}

static int grade_numeric(const qz_question *q, const char *answer, qz_lang lang, int alt,
                         qz_result *out, FILE *fb, at_error *err);

/* The verdict of one reading of an answer that offers alternatives (alt 1: the first of
 * each choice, 2: the last); QZ_MALFORMED when it cannot be graded. */
static qz_verdict alternative_verdict(const qz_question *q, const char *answer, qz_lang lang, int alt)
{
    qz_result r = {0};
    at_error e;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return QZ_MALFORMED;
    int rc = grade_numeric(q, answer, lang, alt, &r, f, &e);
    fclose(f);
    qz_verdict v = rc ? QZ_MALFORMED : r.verdict;
    free(text);
    free(r.expected);
    free(r.expected_values);
    return v;
}

int qz_grade_numeric(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                     FILE *fb, at_error *err)
{
    return grade_numeric(q, answer, lang, 0, out, fb, err);
}

static int grade_numeric(const qz_question *q, const char *answer, qz_lang lang, int alt,
                         qz_result *out, FILE *fb, at_error *err)
{
    qz_numctx c;
    double *given = NULL;
    int *ok = NULL, *dec = NULL;
    char *notes = NULL;
    size_t notes_len = 0;
    qz_numbers *nums = NULL, *part = NULL, *rest = NULL, *unasked = NULL;
    const qz_value **pick = NULL;
    int rc = qz_numctx_build(&c, q, lang, err);
    if (rc)
        goto out;
    set_expected(&c, out);
    nums = malloc(sizeof *nums);
    part = malloc(sizeof *part);
    pick = malloc(QZ_MAX_VALUES * sizeof *pick);
    given = calloc(c.n, sizeof *given);
    ok = calloc(c.n, sizeof *ok);
    dec = calloc(c.n, sizeof *dec);
    FILE *notes_f = open_memstream(&notes, &notes_len);
    if (!nums || !part || !pick || !given || !ok || !dec || !notes_f) {
        if (notes_f)
            fclose(notes_f);
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    const char *unreadable =
        control_chars(answer) ? qz_tr(lang, "The answer holds control characters (a terminal's escape codes?): "
                                            "type the numbers again.")
        : lost_digits(answer) ? qz_tr(lang, "Some digits cannot be read (a box ▯, an ellipsis …, a ? or # "
                                            "where a digit should be, or digits struck out).")
                              : NULL;
    if (unreadable) {
        fclose(notes_f);
        malformed(out, fb, unreadable);
        again_example(fb, &c, 0);
        goto out;
    }
    /* the method written out, no value worked out: part of the marks, whatever numbers
     * (the scores, the sum) the working holds */
    double exps = c.row_s ? qz_row_sums_of(&c).exps : NAN;
    if (c.row_s && c.row_n &&
        (method_only(&c, answer) || method_unfinished(answer, exps) || exps_shown(&c, answer, exps) ||
         exps_to_divide(&c, answer)) &&
        only_working(&c, answer, exps)) {
        fclose(notes_f);
        settled(&c, out, fb, QZ_PARTIAL, 0.5, qz_tr(lang, "Partly right.\n"),
                qz_tr(lang, "The method is right (the exp of each score over the sum of all the "
                            "exps), but the values are not worked out: estimate each one to 2 "
                            "decimals.\n"));
        goto out;
    }
    qz_read_opts opts = read_opts(&c);
    opts.alt = alt;
    at_error perr;
    /* Traditional characters read as the question's Simplified tokens (沒 is 没) */
    char *simplified = qz_simplified_same_offsets(answer);
    int unread = qz_read_numbers(simplified ? simplified : answer, &opts, lang, nums, &perr);
    free(simplified);
    if (unread) {
        fclose(notes_f);
        if (says_no_number(answer)) {
            no_number(&c, out, fb);
            goto out;
        }
        malformed(out, fb, perr.msg);
        again_example(fb, &c, 0);
        goto out;
    }
    for (size_t j = 0; j < c.n; j++)
        ok[j] = MISSING;
    const qz_numbers *use = opening_part(&c, nums, part);
    /* a remark after the opening values: the weights it gives are claims ("伞 gets 0.5");
     * the opening values themselves are no token's but the asked ones */
    if (use && nums->n > c.n && (rest = malloc(sizeof *rest))) {
        *rest = *nums;
        rest->n = nums->n - c.n;
        memmove(rest->v, nums->v + c.n, rest->n * sizeof *rest->v);
    }
    const qz_numbers *claimed = rest;
    if (!use)
        use = concluded_part(&c, nums, part, answer);
    if (nums->disowned && !nums->turned) {
        /* "0.14，0.17。不对，还要再乘 V": the student takes the values back and ends on none */
        fclose(notes_f);
        settled(&c, out, fb, QZ_WRONG, 0, qz_tr(lang, "Not right.\n"),
                qz_tr(lang, "The answer takes back the values it gave and ends without others: "
                            "write the values you settle on.\n"));
        goto out;
    }
    if (use == nums && nums->concluded && nums->retracted && !taken_back_by_labels(&c, nums)) {
        /* "0.14 0.17 … actually …: 0.21 and 0.26": the values before are taken back, and
         * those after cannot be matched to what is asked */
        fclose(notes_f);
        malformed(out, fb, qz_tr(lang, "The answer takes its values back at the end, and the new ones cannot "
                                       "be matched to what is asked: write the final values once."));
        again_example(fb, &c, 0);
        goto out;
    }
    if (alt && nums->n < c.n) {
        /* one choice of "0.14 or 0.17 or 0.34, one of them is 下雨": fewer values than asked,
         * no answer of its own */
        fclose(notes_f);
        malformed(out, fb, "");
        goto out;
    }
    if (nums->alternatives) {
        fclose(notes_f);
        /* "didn't 0.17 or maybe 0.21", "0.14 0.17 or 0.21 0.26": each choice read on its own.
         * A right one among them earns part of the marks, not all: the answer settles on
         * none. Neither right: wrong. */
        qz_verdict first = alt ? QZ_MALFORMED : alternative_verdict(q, answer, lang, 1),
                   last = alt ? QZ_MALFORMED : alternative_verdict(q, answer, lang, 2);
        int credit = first == QZ_CORRECT || first == QZ_PARTIAL || last == QZ_CORRECT || last == QZ_PARTIAL;
        if (credit || (first == QZ_WRONG && last == QZ_WRONG)) {
            settled(&c, out, fb, credit ? QZ_PARTIAL : QZ_WRONG, credit ? 0.5 : 0,
                    credit ? qz_tr(lang, "Partly right.\n") : qz_tr(lang, "Not right.\n"),
                    credit ? qz_tr(lang, "The answer offers alternatives (one value or another) and settles on "
                                         "none; only values you settle on earn full marks.\n")
                           : qz_tr(lang, "The answer offers alternatives (one value or another), and none of "
                                         "them is right.\n"));
            goto out;
        }
        malformed(out, fb, qz_tr(lang, "The answer offers alternatives (one value or another): "
                                       "give one value for each one asked."));
        again_example(fb, &c, 0);
        goto out;
    }
    if (use->labelled && c.row_n && !labels_asked(&c, use) && (unasked = malloc(sizeof *unasked))) {
        /* "so 0.14 and 0.17. Most of it stays on the umbrella itself (0.34)": the only label
         * is of a token not asked, a remark the claims check; the answer is unlabelled */
        *unasked = *use;
        unasked->n = 0;
        unasked->labelled = 0;
        for (size_t i = 0; i < use->n; i++)
            if (use->v[i].token < 0)
                unasked->v[unasked->n++] = use->v[i];
        /* as many unlabelled values as asked, or more: "伞: 0.34" alone, or "today 0.11, I
         * 0.13", answers for the wrong tokens */
        if (unasked->n >= c.n) {
            if (!claimed)
                claimed = use;   /* the remark's weights are claims ("… and 伞 gets 0.69") */
            use = unasked;
        }
    }
    if (use->labelled && c.row_n) {
        int bad = place_labelled(&c, use, given, dec, ok, out, notes_f);
        fclose(notes_f);
        if (bad) {
            fprintf(fb, "%s", notes);
            again_example(fb, &c, 1);
            goto out;
        }
    } else {
        size_t got = use->n;
        const qz_value **vals = pick_unlabelled(&c, use, pick, &got);
        if (!vals && got == 1 && run_together(&c, pick[0])) {
            /* "0.1417", 零点一四一七: two values of two decimals each written as one */
            fclose(notes_f);
            char digits[32];
            snprintf(digits, sizeof digits, "%.*f", pick[0]->decimals, pick[0]->x);
            char *msg = NULL;
            if (asprintf(&msg, qz_tr(lang, "%s looks like two values run together: put a space "
                                           "between them."), digits) < 0)
                msg = NULL;
            malformed(out, fb, msg ? msg : "");
            free(msg);
            again_example(fb, &c, 0);
            goto out;
        }
        int lone = !vals && lone_value(&c, pick, got, given, dec, ok, notes_f);
        fclose(notes_f);
        if (!vals && !lone) {
            if (!whole_row(&c, pick, got, out, fb) && !answer_and_row(&c, pick, got, out, fb))
                count_mismatch(&c, got, out, fb);
            goto out;
        }
        for (size_t j = 0; vals && j < c.n; j++)
            take(vals[j], j, given, dec, ok);
    }
    if (nums->turned && c.n == 2 && ok[0] != MISSING && ok[1] != MISSING) {
        double g = given[0];   /* what the answer ends on: the two the other way round */
        int d = dec[0];
        given[0] = given[1];
        dec[0] = dec[1];
        given[1] = g;
        dec[1] = d;
    }
    if (q->unordered)
        match_unordered(&c, given, ok);
    else
        for (size_t j = 0; j < c.n; j++)
            if (ok[j] != MISSING)
                ok[j] = qz_within(&c, j, given[j]);
    char *claims = NULL;
    size_t claims_len = 0;
    FILE *cf = open_memstream(&claims, &claims_len);
    if (cf) {
        /* weights: not of an attempt taken back; Traditional characters name the
         * Simplified tokens here too (傘對自己的權重) */
        char *simple = qz_simplified_same_offsets(answer);
        qz_false_claims(&c, nums, claimed ? claimed : use, simple ? simple : answer, cf);
        free(simple);
        if (q->beside && beside_claims(q, answer, lang, cf))
            rc = at_error_set(err, AT_ENOMEM, "out of memory");
        fclose(cf);
    }
    judge(&c, given, dec, ok, out, notes, claims, fb);
    free(claims);
    if (nums->comma_decimal)
        comma_hint(answer, lang, fb);
out:
    free(rest);
    free(unasked);
    free(nums);
    free(part);
    free(pick);
    free(given);
    free(ok);
    free(dec);
    free(notes);
    qz_numctx_free(&c);
    return rc;
}
