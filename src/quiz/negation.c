/* Negation in text answers, on normalised tokens (quiz/textnorm.h): the words that
 * deny what follows them (not, no, never, without, n't or "doesnt", prevent, avoid; 不, 没, 没有,
 * 无, 未, 非, 别, 防止, 避免, 以免; skip, 跳过: "can't skip any step" denies twice), not
 * the words that only hold such a character
 * (不管, 非常, 不同, 不断 …) or that deny nothing ("not only", "no matter"). */
#define _POSIX_C_SOURCE 200809L
#include "quiz/statement.h"

#include <string.h>

/* How many tokens from i spell the Han text w (one token per character); 0 if they
 * do not. */
size_t qz_han_at(const qz_text *t, size_t i, const char *w)
{
    size_t k = i;
    for (const char *p = w; *p; k++) {
        if (k >= t->n || t->t[k].kind != QZ_TK_HAN)
            return 0;
        size_t l = strlen(t->t[k].s);
        if (strncmp(p, t->t[k].s, l))
            return 0;
        p += l;
    }
    return k - i;
}

/* Does a listed Han word start at token i, or hold token i as its second character? */
static int han_word_around(const qz_text *t, size_t i, const char *const *words, size_t n)
{
    for (size_t w = 0; w < n; w++)
        if (qz_han_at(t, i, words[w]) || (i > 0 && qz_han_at(t, i - 1, words[w]) >= 2))
            return 1;
    return 0;
}

static int en_cue(const char *w)
{
    static const char *const words[] = {"not", "no", "never", "without", "neither", "nor",
                                        "cannot", "none", "nothing", "nobody", "prevent",
                                        "prevents", "prevented", "preventing", "avoid",
                                        "avoids", "avoided", "avoiding", "stop", "stops",
                                        "stopping", "lack", "lacks", "instead"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(w, words[i]))
            return 1;
    /* typed without the apostrophe: "doesnt", "dont" */
    static const char *const bare[] = {"doesnt", "dont", "didnt", "isnt", "arent", "cant", "wont",
                                       "wasnt", "werent", "couldnt", "wouldnt", "shouldnt",
                                       "hasnt", "havent", "neednt"};
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++)
        if (!strcmp(w, bare[i]))
            return 1;
    size_t n = strlen(w);
    return n > 3 && !strcmp(w + n - 3, "n't");
}

int qz_neg_prevents(const qz_text *t, size_t i)
{
    static const char *const en[] = {"prevent", "prevents", "prevented", "preventing", "avoid",
                                     "avoids", "avoided", "avoiding", "stop", "stops", "stopping"};
    for (size_t w = 0; i < t->n && w < sizeof en / sizeof en[0]; w++)
        if (!strcmp(t->t[i].raw, en[w]))
            return 1;
    static const char *const zh[] = {"防止", "避免", "以免", "以防", "免得"};
    for (size_t w = 0; w < sizeof zh / sizeof zh[0]; w++)
        if (qz_han_at(t, i, zh[w]))
            return 1;
    return 0;
}

size_t qz_neg_cue_at(const qz_text *t, size_t i)
{
    if (i >= t->n)
        return 0;
    const qz_tok *k = &t->t[i];
    if (k->kind == QZ_TK_WORD) {
        /* "skips the words in between" denies the steps; "can't skip any step" denies
         * the denial. A skip connection is a thing, no denial. */
        if ((qz_tok_raw_is(t, i, "skip") || qz_tok_raw_is(t, i, "skips") ||
             qz_tok_raw_is(t, i, "skipping") || qz_tok_raw_is(t, i, "skipped") ||
             qz_tok_raw_is(t, i, "bypass") || qz_tok_raw_is(t, i, "bypasses") ||
             qz_tok_raw_is(t, i, "bypassing")) &&
            !qz_tok_raw_is(t, i + 1, "connection") && !qz_tok_raw_is(t, i + 1, "connections") &&
            /* "skip it and one score dwarfs the rest": the scaling left out, what follows
             * is what then happens (as after "without it") */
            !qz_tok_raw_is(t, i + 1, "it") && !qz_tok_raw_is(t, i + 1, "this") &&
            !qz_tok_raw_is(t, i + 1, "that") && !qz_tok_raw_is(t, i + 1, "scaling") &&
            !qz_tok_raw_is(t, i + 1, "dividing") && !qz_tok_raw_is(t, i + 1, "division"))
            return 1;
        if (!en_cue(k->raw))
            return 0;
        /* "all or nothing", "all-or-nothing": a degree, no denial */
        if (qz_tok_raw_is(t, i, "nothing") && i >= 2 && qz_tok_raw_is(t, i - 1, "or") &&
            qz_tok_raw_is(t, i - 2, "all"))
            return 0;
        /* "instead" denies only with "of" after it ("instead of the encoder"); alone it
         * turns to what holds ("Q is from the decoder, instead K and V are from the
         * encoder", "not from the encoder, instead from the decoder") */
        if (qz_tok_raw_is(t, i, "instead") && !qz_tok_raw_is(t, i + 1, "of"))
            return 0;
        /* "not only", "no matter", "no doubt", "not just": nothing is denied */
        if ((qz_tok_raw_is(t, i, "not") || qz_tok_raw_is(t, i, "no")) &&
            (qz_tok_raw_is(t, i + 1, "only") || qz_tok_raw_is(t, i + 1, "matter") ||
             qz_tok_raw_is(t, i + 1, "doubt") || qz_tok_raw_is(t, i + 1, "just")))
            return 0;
        /* "not sure about the decoder part", "not certain": a doubt, nothing denied */
        if (qz_tok_raw_is(t, i, "not") &&
            (qz_tok_raw_is(t, i + 1, "sure") || qz_tok_raw_is(t, i + 1, "certain") ||
             ((qz_tok_raw_is(t, i + 1, "quite") || qz_tok_raw_is(t, i + 1, "too") ||
               qz_tok_raw_is(t, i + 1, "so") || qz_tok_raw_is(t, i + 1, "very") ||
               qz_tok_raw_is(t, i + 1, "100%")) &&
              (qz_tok_raw_is(t, i + 2, "sure") || qz_tok_raw_is(t, i + 2, "certain")))))
            return 0;
        /* "no longer needs it": the cue is both words, the denial is of what follows */
        if (qz_tok_raw_is(t, i, "no") && qz_tok_raw_is(t, i + 1, "longer"))
            return 2;
        /* "slow or no learning", "little or no gradient": a degree (next to none), said
         * as the word before "or" says it, not a denial */
        if (qz_tok_raw_is(t, i, "no") && i >= 2 && qz_tok_raw_is(t, i - 1, "or") &&
            t->t[i - 2].kind == QZ_TK_WORD && !en_cue(t->t[i - 2].raw))
            return 0;
        return 1;
    }
    if (k->kind != QZ_TK_HAN)
        return 0;
    static const char *const longer[] = {"防止", "避免", "以免", "以防", "免得", "并非", "跳过"};
    for (size_t w = 0; w < sizeof longer / sizeof longer[0]; w++) {
        size_t l = qz_han_at(t, i, longer[w]);
        if (l)
            return l;
    }
    static const char *const cues[] = {"不", "没", "无", "未", "非", "别", "甭", "勿"};
    static const char *const not_cues[] = {
        "不管", "不论", "无论", "非常", "不同", "不断", "不仅", "不过", "除非", "不久", "不少",
        /* a doubt: "不确定要不要 decoder" denies no decoder */
        "不确定", "不清楚", "不知道", "不敢肯定", "不太确定",
        "无数", "未来", "不但", "不只", "不像", "不停", "并非", "无非", "莫非", "是非", "未必",
        "差不多", "不得不", "无限", "区别", "分别", "类别", "特别", "别的", "别人", "差别", "识别",
        "告别", "个别", "级别", "性别", "鉴别", "辨别", "判别", "无所谓", "非得", "并非如此",
        "不然", "要不", "不止", "不如", "无论如何",
    };
    int cue = 0;
    for (size_t c = 0; c < sizeof cues / sizeof cues[0] && !cue; c++)
        cue = !strcmp(k->s, cues[c]);
    if (!cue)
        return 0;
    if (han_word_around(t, i, not_cues, sizeof not_cues / sizeof not_cues[0]) ||
        (i > 1 && qz_han_at(t, i - 2, "不得不")))
        return 0;
    /* 不是像 RNN 那样…: a comparison denied, as 不像 (what follows is the RNN's) */
    if (qz_han_at(t, i, "不是像") == 3)
        return 0;
    return 1;
}
