/* Diagnosis of wrong numeric answers against the usual mistakes, and the walk
 * through the right steps with the engine's numbers. */
#include "quiz/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Row index (into row_s / row_w) of slot j, or -1 when slots are not weights. */
static long row_index(const qz_numctx *c, size_t j)
{
    if (c->q->kind == QZ_SOFTMAX)
        return (long)c->q->ask[j];
    if (c->q->kind == QZ_ATTENTION && !c->q->ask_output)
        return (long)j;
    return -1;
}

static void slot_name(const qz_numctx *c, size_t j, FILE *fb)
{
    if (c->names[j])
        fprintf(fb, "%s", c->names[j]);
    else
        fprintf(fb, "#%zu", j + 1);
}

double qz_near_tol(const qz_numctx *c, size_t j)
{
    const qz_question *q = c->q;
    if (q->tolerance < 0 && q->relative < 0 && c->decimals >= 0)
        return 0.5 * pow(10.0, -c->decimals);
    return c->tol[j];
}

static int near(const qz_numctx *c, size_t j, double x, double want)
{
    return fabs(x - want) <= qz_near_tol(c, j) * (1 + 1e-9) + 1e-12;
}

/* Does every answered slot hold alt[j] (within tol · mult)? A mistake in the
 * computation changes every value, so the right ones must match too (unless alt is
 * right there as well). At least one slot must be wrong. */
static int matches(const qz_numctx *c, const double *given, const int *ok, const double *alt,
                   double mult)
{
    int wrong = 0;
    for (size_t j = 0; j < c->n; j++) {
        if (ok[j] == 2)
            continue;
        wrong += ok[j] == 0;
        if (!isfinite(alt[j]) || fabs(given[j] - alt[j]) > qz_near_tol(c, j) * mult * (1 + 1e-9) + 1e-12)
            return 0;
    }
    return wrong > 0;
}

static void show_alt(const qz_numctx *c, const int *ok, const double *alt, FILE *fb)
{
    int first = 1;
    for (size_t j = 0; j < c->n; j++) {
        if (ok[j] == 2)
            continue;
        fprintf(fb, "%s", first ? "" : qz_trc(c->lang, "list of values", ", "));
        slot_name(c, j, fb);
        fprintf(fb, " ");
        qz_put_num(fb, alt[j], 4);
        first = 0;
    }
}

static int weights_asked(const qz_numctx *c)
{
    return c->row_n && row_index(c, 0) >= 0;
}

static qz_mistake softmax_mistakes(const qz_numctx *c, const double *given, const int *ok,
                                   double *alt, FILE *fb)
{
    qz_lang L = c->lang;
    double sum_s = 0, max = -INFINITY, sum_e = 0;
    for (size_t k = 0; k < c->row_n; k++)
        if (isfinite(c->row_s[k])) {
            sum_s += c->row_s[k];
            max = fmax(max, c->row_s[k]);
        }
    for (size_t k = 0; k < c->row_n; k++)
        if (isfinite(c->row_s[k]))
            sum_e += exp(c->row_s[k] - max);
    /* Forgot the exp: the raw scores divided by their sum. */
    for (size_t j = 0; j < c->n; j++)
        alt[j] = sum_s != 0 ? c->row_s[row_index(c, j)] / sum_s : NAN;
    if (matches(c, given, ok, alt, 1)) {
        fprintf(fb, qz_tr(L, "It looks like the exp was skipped: the raw scores divided by their sum ("));
        qz_put_num(fb, sum_s, 4);
        fprintf(fb, qz_tr(L, ") give "));
        show_alt(c, ok, alt, fb);
        fprintf(fb, qz_tr(L, ". Softmax first takes exp of every score, then divides by the sum of the exps.\n"));
        return QZ_M_NO_EXP;
    }
    /* exp without normalising. */
    for (size_t j = 0; j < c->n; j++)
        alt[j] = max < 80 ? exp(c->row_s[row_index(c, j)]) : NAN;
    if (matches(c, given, ok, alt, 1)) {
        fprintf(fb, qz_tr(L, "These are the exps themselves ("));
        show_alt(c, ok, alt, fb);
        fprintf(fb, qz_tr(L, "), not yet divided by the sum of all the exps. Weights must add up to 1.\n"));
        return QZ_M_NO_NORMALISE;
    }
    /* A sigmoid of each score on its own: no exp of the others, no sum over the row. */
    for (size_t j = 0; j < c->n; j++)
        alt[j] = 1 / (1 + exp(-c->row_s[row_index(c, j)]));
    if (matches(c, given, ok, alt, 1)) {
        fprintf(fb, qz_tr(L, "These are sigmoids of each score on its own, 1/(1+e^(−s)) ("));
        show_alt(c, ok, alt, fb);
        fprintf(fb, qz_tr(L, "). Softmax looks at the whole row: exp of every score, divided by the sum of "
                             "the exps of all the scores in the row, so that the weights add up to 1.\n"));
        return QZ_M_SIGMOID;
    }
    /* The same share for every token, 1/n: the scores ignored. */
    size_t visible = 0, given_all = 1;
    for (size_t k = 0; k < c->row_n; k++)
        visible += isfinite(c->row_s[k]) != 0;
    for (size_t j = 0; j < c->n; j++)
        given_all &= ok[j] != 2;   /* one value alone ("0.17") shows no method */
    for (size_t j = 0; j < c->n; j++)
        alt[j] = visible ? 1.0 / (double)visible : NAN;
    if (visible > 1 && given_all && c->n > 1 && matches(c, given, ok, alt, 1)) {
        fprintf(fb, qz_tr(L, "These give every token the same share, 1/%zu: softmax weighs each token by "
                             "the exp of its own score, so higher scores get more.\n"),
                visible);
        return QZ_M_UNIFORM;
    }
    /* One token's exp left out of the sum (often the query's own). */
    for (size_t k = 0; k < c->row_n; k++) {
        if (!isfinite(c->row_s[k]) || c->slot_of[k] != (size_t)-1)
            continue;
        double ek = exp(c->row_s[k] - max);
        for (size_t j = 0; j < c->n; j++)
            alt[j] = exp(c->row_s[row_index(c, j)] - max) / (sum_e - ek);
        if (matches(c, given, ok, alt, 1)) {
            fprintf(fb, qz_tr(L, "These are the weights with the exp of %s left out of the sum. "
                                 "Every visible token counts in the sum, the query's own token included.\n"),
                    c->q->tokens && (c->q->kind == QZ_SOFTMAX || c->q->n_tokens == c->row_n)
                        ? c->q->tokens[k] : "?");
            return QZ_M_LEFT_OUT_TOKEN;
        }
    }
    /* Every value a little off (within three units of the last decimal asked, or three
     * tolerances) and all of them off by the same factor, as far as their decimals
     * tell: the values keep the proportion of their exps, so the method is right and the
     * exps or their sum are rough (e^x ≈ 1 + x gives 0.15 0.18 for 0.1384 0.1691; e^1.2
     * taken as 2.3 gives 0.15 0.19). The wrong methods above change the proportion or
     * were named. */
    if (given_all && c->n > 1) {
        /* the factor given/want of each value, as an interval its rounding allows */
        double lo_max = 0, hi_min = INFINITY;
        int rough = 1;
        size_t off = 0;
        for (size_t j = 0; j < c->n && rough; j++) {
            double w = c->want[j], slack = qz_near_tol(c, j);
            rough = w > 0 && given[j] > 0 &&   /* three units of the last decimal, or tolerances */
                    fabs(given[j] - w) <= (c->decimals >= 0 ? 6 : 3) * slack * (1 + 1e-9);
            off += ok[j] == 0;
            lo_max = fmax(lo_max, (given[j] - slack) / w);
            hi_min = fmin(hi_min, (given[j] + slack) / w);
        }
        /* one factor fits them all, give or take 8% (e^x ≈ 1 + x lowers the larger
         * exps more than the smaller) */
        if (rough && off == c->n && lo_max <= 1.08 * hi_min) {   /* one right: partly, as ever */
            fprintf(fb, qz_tr(L, "Each value is a little off, but they stand in the right proportion to each "
                                 "other: the method (exp of every score, divided by the sum of all the exps) "
                                 "is right, the exps or their sum are rough. Work each exp out to three "
                                 "decimals.\n"));
            return QZ_M_ROUGH;
        }
    }
    return QZ_M_NONE;
}

static qz_mistake attention_mistakes(const qz_numctx *c, const double *given, const int *ok,
                                     double *alt, FILE *fb)
{
    const qz_question *q = c->q;
    qz_lang L = c->lang;
    size_t nw = q->n_q * q->n_k;
    float *w = malloc(nw * sizeof *w), *o = malloc(q->n_q * q->d_v * sizeof *o);
    qz_mistake m = QZ_M_NONE;
    double sq = sqrt((double)q->d_k);
    /* √d_k dropped (scale 1) or applied twice (scale 1/d_k). */
    for (int pass = 0; w && o && pass < 2 && (q->scale <= 0 || fabs(q->scale - 1 / sq) < 1e-9); pass++) {
        if (pass == 1 && q->d_k == 1)
            break;
        if (qz_attention_run(q, pass == 0 ? 1.0 : 1.0 / (double)q->d_k, w, o, NULL, NULL, NULL))
            break;
        for (size_t j = 0; j < c->n; j++)
            alt[j] = q->ask_output ? o[q->row * q->d_v + j] : w[q->row * q->n_k + j];
        if (!matches(c, given, ok, alt, 1))
            continue;
        if (pass == 0)
            fprintf(fb, qz_tr(L, "These are the values without dividing the scores by √d_k = √%zu = %.4f. "
                                 "Scale the scores first: q·k / √d_k.\n"),
                    q->d_k, sq);
        else
            fprintf(fb, qz_tr(L, "These are the values with the scores divided by √d_k twice (by d_k = %zu). "
                                 "Divide once, by √d_k = %.4f.\n"),
                    q->d_k, sq);
        m = pass == 0 ? QZ_M_NO_SCALE : QZ_M_DOUBLE_SCALE;
        goto out;
    }
    /* Another query's row. */
    for (size_t r = 0; r < q->n_q; r++) {
        if (r == q->row)
            continue;
        for (size_t j = 0; j < c->n; j++)
            alt[j] = q->ask_output ? c->att_out[r * q->d_v + j] : c->att_w[r * q->n_k + j];
        if (matches(c, given, ok, alt, 1)) {
            fprintf(fb, qz_tr(L, "These are the values of row %zu; the question asks for row %zu "
                                 "(one row per query).\n"), r + 1, q->row + 1);
            m = QZ_M_WRONG_ROW;
            goto out;
        }
    }
out:
    free(w);
    free(o);
    return m;
}

int qz_rounding_slip(const qz_numctx *c, size_t j, const double *given, const int *dec)
{
    /* a whole number ("0 0") is no rounding of a weight asked to decimals: it says the
     * weight is nothing (or all) */
    if (c->decimals < 0 || dec[j] < 0 || dec[j] > c->decimals || (dec[j] == 0 && c->decimals > 0))
        return 0;
    double p = pow(10.0, dec[j]);
    double trunc_v = trunc(c->want[j] * p) / p, round_v = round(c->want[j] * p) / p;
    if (fabs(given[j] - trunc_v) < 1e-9 && fabs(trunc_v - round_v) > 1e-9)
        return 1;
    return dec[j] < c->decimals && fabs(given[j] - round_v) < 1e-9 ? 2 : 0;
}

static void say_rounding(const qz_numctx *c, size_t j, int slip, const double *given, const int *dec,
                         FILE *fb)
{
    qz_lang L = c->lang;
    slot_name(c, j, fb);
    if (slip == 1) {
        fprintf(fb, qz_tr(L, ": "));
        qz_put_num(fb, given[j], dec[j]);
        fprintf(fb, qz_ntr(L, " looks cut off after %d decimal: round the last digit instead.\n",
                           " looks cut off after %d decimals: round the last digit instead.\n",
                           (unsigned long)dec[j]),
                dec[j]);
    } else {
        fprintf(fb, qz_tr(L, ": give %d decimals, not %d.\n"),
                c->decimals, dec[j]);
    }
}

/* The row entry (another token) whose weight slot j holds; -1 when none. */
static long other_token(const qz_numctx *c, size_t j, const double *given)
{
    long self = row_index(c, j);
    for (size_t k = 0; self >= 0 && k < c->row_n; k++)
        if ((long)k != self && near(c, j, given[j], c->row_w[k]))
            return (long)k;
    return -1;
}

void qz_note_rounding(const qz_numctx *c, const double *given, const int *dec, const int *ok,
                      FILE *fb)
{
    for (size_t j = 0; j < c->n; j++)
        if (ok[j] == 1 && qz_rounding_slip(c, j, given, dec) == 1)
            say_rounding(c, j, 1, given, dec, fb);
}

/* Per slot: the weight of another token, truncation, too few decimals. When rounding
 * explains every wrong slot, it is the diagnosis (0.13 for 0.1384 is cut off, even if
 * another token's weight is near 0.13). */
static qz_mistake slot_mistakes(const qz_numctx *c, const double *given, const int *dec,
                                const int *ok, FILE *fb)
{
    qz_lang L = c->lang;
    size_t wrong = 0, token = 0, rounding = 0, all_rounding = 0;
    for (size_t j = 0; j < c->n; j++)
        if (ok[j] == 0) {
            wrong++;
            all_rounding += qz_rounding_slip(c, j, given, dec) != 0;
        }
    for (size_t j = 0; j < c->n; j++) {
        if (ok[j] != 0)
            continue;
        int slip = qz_rounding_slip(c, j, given, dec);
        long k = all_rounding == wrong ? -1 : other_token(c, j, given);
        if (k >= 0) {
            qz_put_num(fb, given[j], dec[j] >= 0 && dec[j] <= 6 ? dec[j] : 4);
            fprintf(fb, qz_tr(L, " is the weight of %s (token %ld), not of "),
                    c->q->tokens && (c->q->kind == QZ_SOFTMAX || c->q->n_tokens == c->row_n)
                        ? c->q->tokens[k] : "?", k + 1);
            slot_name(c, j, fb);
            fprintf(fb, qz_tr(L, " (token %ld): count the tokens again.\n"),
                    row_index(c, j) + 1);
            token++;
        } else if (slip) {
            say_rounding(c, j, slip, given, dec, fb);
            rounding++;
        }
    }
    if (wrong && token == wrong)
        return QZ_M_WRONG_TOKEN;
    if (wrong && rounding + token == wrong && rounding)
        return QZ_M_ROUNDING;
    return QZ_M_NONE;
}

/* A slip the question names (a lesson's `slips`, a practice exercise's): a wrong value
 * students often give, told by what it shows, never by the right value. */
static qz_mistake named_slip(const qz_numctx *c, const double *given, const int *ok, FILE *fb)
{
    const qz_question *q = c->q;
    for (size_t s = 0; s < q->n_slips; s++)
        for (size_t j = 0; j < c->n; j++)
            if (ok[j] == 0 && q->slips[s].feedback &&
                near(c, j, given[j], q->slips[s].value)) {
                const char *f = q->slips[s].feedback;
                size_t n = strlen(f);
                while (n && (f[n - 1] == '\n' || f[n - 1] == ' '))
                    n--;
                fprintf(fb, "%.*s\n", (int)n, f);
                return QZ_M_SLIP;
            }
    return QZ_M_NONE;
}

qz_mistake qz_diagnose(const qz_numctx *c, const double *given, const int *dec, const int *ok,
                       FILE *fb)
{
    qz_mistake named = named_slip(c, given, ok, fb);
    if (named != QZ_M_NONE)
        return named;
    qz_lang L = c->lang;
    double *alt = calloc(c->n ? c->n : 1, sizeof *alt);
    qz_mistake m = QZ_M_NONE;
    if (!alt)
        return m;
    for (size_t j = 0; j < c->n; j++)
        alt[j] = 100 * c->want[j];
    if (matches(c, given, ok, alt, 100)) {
        fprintf(fb, qz_tr(L, "These look like percentages without the %% sign: write "));
        for (size_t j = 0; j < c->n; j++) {
            fprintf(fb, "%s", j ? " " : "");
            qz_put_num(fb, given[j], dec[j] >= 0 ? dec[j] : 2);
            fprintf(fb, "%%");
        }
        fprintf(fb, qz_tr(L, ", or as fractions of 1.\n"));
        m = QZ_M_PERCENT_NO_SIGN;
        goto out;
    }
    int missing = 0;
    for (size_t j = 0; j < c->n; j++)
        missing |= ok[j] == 2;
    if (c->n >= 2 && !c->q->unordered && !missing) {
        int swapped = 1, wrong = 0;
        for (size_t j = 0; j < c->n && swapped; j++) {
            if (ok[j] != 0)
                continue;
            wrong++;
            int found = 0;
            for (size_t i = 0; i < c->n && !found; i++)
                found = i != j && ok[i] == 0 && near(c, i, given[j], c->want[i]);   /* "0.14 0.14" is no swap */
            swapped = found;
        }
        if (swapped && wrong) {
            fprintf(fb, qz_tr(L, "These numbers belong to the other tokens: they are swapped. The question asks for "));
            for (size_t j = 0; j < c->n; j++) {
                fprintf(fb, "%s", j ? qz_tr(L, ", then ") : "");
                slot_name(c, j, fb);
            }
            fprintf(fb, qz_tr(L, ".\n"));
            m = QZ_M_SWAPPED;
            goto out;
        }
    }
    if (weights_asked(c) && (m = softmax_mistakes(c, given, ok, alt, fb)) != QZ_M_NONE)
        goto out;
    if (c->q->kind == QZ_ATTENTION && (m = attention_mistakes(c, given, ok, alt, fb)) != QZ_M_NONE)
        goto out;
    m = slot_mistakes(c, given, dec, ok, fb);
out:
    free(alt);
    return m;
}

static const char *row_token(const qz_numctx *c, size_t k)
{
    const qz_question *q = c->q;
    if (q->tokens && (q->kind == QZ_SOFTMAX || q->n_tokens == c->row_n))
        return q->tokens[k];
    return NULL;
}

/* all_row: divide every entry of the row, else only those asked. */
static void walk_softmax(const qz_numctx *c, FILE *fb, int step, int all_row)
{
    qz_lang L = c->lang;
    double max = -INFINITY, sum = 0;
    for (size_t k = 0; k < c->row_n; k++)
        if (isfinite(c->row_s[k]))
            max = fmax(max, c->row_s[k]);
    int shifted = max > 80 || max < -80;
    double shift = shifted ? max : 0;
    fprintf(fb, qz_tr(L, "  %d. exp of each score%s:"), step++,
            shifted ? qz_tr(L, " (minus the largest, so nothing overflows)") : "");
    for (size_t k = 0; k < c->row_n; k++) {
        const char *t = row_token(c, k);
        fprintf(fb, "%s%s%s", k ? qz_trc(L, "list of values", ", ") : " ", t ? t : "", t ? " " : "");
        if (!isfinite(c->row_s[k])) {
            fprintf(fb, qz_tr(L, "masked → 0"));
            continue;
        }
        double e = exp(c->row_s[k] - shift);
        sum += e;
        fprintf(fb, "exp(");
        qz_put_num(fb, c->row_s[k] - shift, QZ_NUM_SHORT);
        fprintf(fb, ") = ");
        qz_put_num(fb, e, 4);
    }
    fprintf(fb, qz_tr(L, "\n  %d. their sum: "), step++);
    qz_put_num(fb, sum, 4);
    fprintf(fb, qz_tr(L, "\n  %d. each exp divided by the sum:"), step);
    size_t m = all_row ? c->row_n : c->n;
    for (size_t j = 0; j < m; j++) {
        long k = all_row ? (long)j : row_index(c, j);
        if (!isfinite(c->row_s[k])) {
            fprintf(fb, "%s%s 0", j ? qz_trc(L, "list of values", "; ") : " ",
                    row_token(c, (size_t)k) ? row_token(c, (size_t)k) : "");
            continue;
        }
        const char *t = row_token(c, (size_t)k);
        fprintf(fb, "%s%s%s", j ? qz_trc(L, "list of values", "; ") : " ", t ? t : "", t ? " " : "");
        qz_put_num(fb, exp(c->row_s[k] - shift), 4);
        fprintf(fb, " / ");
        qz_put_num(fb, sum, 4);
        fprintf(fb, " = ");
        qz_put_num(fb, c->row_w[k], 4);
        if (c->decimals >= 0 && c->decimals < 4) {
            fprintf(fb, " ≈ ");
            qz_put_num(fb, c->row_w[k], c->decimals);
        }
    }
    fprintf(fb, "\n");
}

static void walk_attention_scores(const qz_numctx *c, FILE *fb)
{
    const qz_question *q = c->q;
    qz_lang L = c->lang;
    double scale = q->scale > 0 ? q->scale : 1 / sqrt((double)q->d_k);
    fprintf(fb, qz_tr(L, "  1. scores of query %zu: q·k for each key, times "),
            q->row + 1);
    if (q->scale > 0)
        qz_put_num(fb, scale, 4);
    else
        fprintf(fb, "1/√d_k = 1/√%zu = %.4f", q->d_k, scale);
    fprintf(fb, "%s", qz_tr(L, ":"));
    for (size_t k = 0; k < q->n_k; k++) {
        float raw = c->att_raw[q->row * q->n_k + k];
        fprintf(fb, "%s k%zu ", k ? qz_trc(L, "list of values", ",") : "", k + 1);
        if (!isfinite(c->row_s[k])) {
            fprintf(fb, qz_tr(L, "masked (causal: a later position)"));
            continue;
        }
        qz_put_num(fb, raw, QZ_NUM_SHORT);
        fprintf(fb, " → ");
        qz_put_num(fb, c->row_s[k], 4);
    }
    fprintf(fb, "\n");
}

static void walk_output(const qz_numctx *c, FILE *fb)
{
    const qz_question *q = c->q;
    fprintf(fb, qz_tr(c->lang, "  5. output = Σ weight_j · v_j ="));
    for (size_t k = 0; k < q->n_k; k++) {
        fprintf(fb, "%s", k ? " +" : "");
        fprintf(fb, " ");
        qz_put_num(fb, c->row_w[k], 4);
        fprintf(fb, "·v%zu", k + 1);
    }
    fprintf(fb, " = [");
    for (size_t j = 0; j < q->d_v; j++) {
        fprintf(fb, "%s", j ? ", " : "");
        qz_put_num(fb, c->att_out[q->row * q->d_v + j], 4);
    }
    fprintf(fb, "]\n");
}

void qz_walk_steps(const qz_numctx *c, FILE *fb)
{
    if (!c->row_n)
        return;
    fprintf(fb, qz_tr(c->lang, "\nThe steps, with the engine's numbers:\n"));
    if (c->q->kind == QZ_SOFTMAX) {
        walk_softmax(c, fb, 1, 0);
        return;
    }
    walk_attention_scores(c, fb);
    walk_softmax(c, fb, 2, 1);
    if (c->q->ask_output)
        walk_output(c, fb);
}
