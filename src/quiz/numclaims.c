/* What a numeric answer says beside the values asked, checked against the engine's row:
 * a weight given for a token that was not asked ("伞 itself gets 0.5") and a claim about
 * which token gets the most or the least weight ("没 gets the most", “没”的权重最大), and
 * which of two gets more (没比下雨小).
 * Right values with a false claim beside them are partly right, as a teacher marks a
 * right answer with a false remark. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "quiz/internal.h"
#include "quiz/lang.h"

qz_row_sums qz_row_sums_of(const qz_numctx *c)
{
    qz_row_sums r = {.top = -INFINITY};
    for (size_t i = 0; i < c->row_n; i++)
        if (isfinite(c->row_s[i]) && c->row_s[i] > r.top)
            r.top = c->row_s[i];
    for (size_t i = 0; i < c->row_n; i++)
        if (isfinite(c->row_s[i])) {
            r.exps += exp(c->row_s[i]);
            r.shifted += exp(c->row_s[i] - r.top);
            r.scores += c->row_s[i];
        }
    return r;
}

static int near_step(double x, double q)
{
    return fabs(x - q) <= 0.011 * (q > 1 ? q : 1);
}

/* Is v a quantity of the working the student may write beside the weights rather than
 * a claim about token i's weight: i's score, its exp, or its exp shifted by the largest
 * score (the stable softmax); or, at the end of a chain of steps ("exp(−0.9) = 0.407"),
 * any token's exp or shifted exp (the chain may start at another token's score: "max
 * 1.2: exp(−0.9) = 0.407")? */
static int worked_step(const qz_numctx *c, const qz_row_sums *r, size_t i, const qz_value *v)
{
    for (size_t j = 0; j < c->row_n; j++) {
        double s = c->row_s[j];
        if (!isfinite(s) || (j != i && !v->steps))
            continue;
        if ((j == i && near_step(v->x, s)) || near_step(v->x, exp(s)) || near_step(v->x, exp(s - r->top)))
            return 1;
    }
    return 0;
}

/* Do the words just before the value at offset say it is a weight ("the weight for 我
 * is 0.2", "伞 gets 1.2", “我”分到 0.2), not a step of the working? */
static int called_weight(const char *answer, long offset)
{
    static const char *const w[] = {"weight", "gets", "get ", "receives", "attention", "权重",
                                    "分到", "得到", "拿到", "注意力", NULL};
    if (!answer || offset <= 0)
        return 0;
    long from = offset > 24 ? offset - 24 : 0;
    for (size_t i = 0; w[i]; i++) {
        size_t l = strlen(w[i]);
        for (long p = from; p + (long)l <= offset; p++)
            if (!strncasecmp(answer + p, w[i], l))
                return 1;
    }
    return 0;
}

/* Weights of tokens not asked, off by more than the question's room for a right value. */
static size_t wrong_weights(const qz_numctx *c, const qz_row_sums *r, const qz_numbers *nums,
                            const char *answer, FILE *fb)
{
    size_t n = 0;
    for (size_t k = 0; k < nums->n; k++) {
        const qz_value *v = &nums->v[k];
        if (v->token < 0 || (size_t)v->token >= c->row_n || c->slot_of[v->token] != (size_t)-1 ||
            v->x <= 0)
            continue;
        int weight = called_weight(answer, v->offset);   /* a weight said, not a step */
        if (v->x > 1 && !weight)
            continue;
        size_t i = (size_t)v->token;
        double room = c->n ? c->tol[0] : 0.01;
        if (v->decimals >= 0 && v->decimals < 2)   /* "今天 gets 0.1": rounded to what is written */
            room = fmax(room, 0.5 * pow(10, -v->decimals));
        if (fabs(v->x - c->row_w[i]) <= room * (1 + 1e-9) || (!weight && worked_step(c, r, i, v)))
            continue;
        fprintf(fb, qz_tr(c->lang, "  %s: %g  ✗  (engine: %.4f): a weight of a token not asked, "
                                   "stated wrongly\n"),
                c->q->tokens[i], v->x, c->row_w[i]);
        n++;
    }
    return n;
}

static int is_clause_end(const char *p)
{
    static const char *const marks[] = {"，", "；", "。", "！", "？", ",", ";", "!", "?", "\n",
                                        "（", "）", "(", ")", NULL};
    for (size_t i = 0; marks[i]; i++)
        if (!strncmp(p, marks[i], strlen(marks[i])))
            return (int)strlen(marks[i]);
    if (*p == '.' && !(p[1] >= '0' && p[1] <= '9'))
        return 1;
    return 0;
}

/* The end of the clause that starts at a; *l: the length of the mark there (0 at the
 * text's end). The next clause starts at end + *l. */
static const char *clause_end(const char *a, int *l)
{
    const char *b = a;
    *l = 0;
    while (*b && !(*l = is_clause_end(b)))
        b++;
    return b;
}

/* A byte that may stand beside a token's name that is a word of its own: space, a mark,
 * a quote, or the start or end. */
static int edge(const char *s, const char *p, int after)
{
    if (after ? !*p : p == s)
        return 1;
    unsigned char ch = (unsigned char)(after ? p[0] : p[-1]);
    if (ch < 0x80)
        return !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'));
    static const char *const ok[] = {"“", "”", "「", "」", "‘", "’", "《", "》", "（", "）", "的",
                                     "是", "里", "给", "，", "；", "。", "：", "、", "比", "和", "与",
                                     "跟", "及", NULL};
    /* after a token's name only: 伞自己, 伞本身, 伞对自己 */
    static const char *const ok_after[] = {"自己", "本身", "自身", "对", "最", "权重", "比", "更",
                                           "大", "小", "高", "低", "多", "少", "超过", "占", "拿",
                                           "分到", "还", "都", "也", "要", NULL};
    for (size_t i = 0; after && ok_after[i]; i++)
        if (!strncmp(p, ok_after[i], strlen(ok_after[i])))
            return 1;
    /* before a token's name only: a connective (而且伞, 但伞) */
    static const char *const ok_before[] = {"且", "而", "但", "则", "说明", "表明", "可见", "所以",
                                            "因此", NULL};
    for (size_t i = 0; !after && ok_before[i]; i++) {
        size_t l = strlen(ok_before[i]);
        if (p - s >= (long)l && !strncmp(p - l, ok_before[i], l))
            return 1;
    }
    for (size_t i = 0; ok[i]; i++) {
        size_t l = strlen(ok[i]);
        if (after ? !strncmp(p, ok[i], l) : (p - s >= (long)l && !strncmp(p - l, ok[i], l)))
            return 1;
    }
    return 0;
}

typedef struct mention {
    size_t token;
    const char *at;
} mention;

/* Token t's names: the token as the question writes it, then the question's glosses of it
 * ("didn't" for 没); pointers into the question, at most 16. Returns their number. */
static size_t token_names(const qz_numctx *c, size_t t, const char **alts, size_t *lens)
{
    size_t n_alts = 0;
    alts[n_alts] = c->q->tokens[t];
    lens[n_alts++] = strlen(c->q->tokens[t]);
    for (size_t g = 0; g < c->q->n_glosses && n_alts < 16; g++)
        if (c->q->glosses[g].token == t)
            n_alts += qz_gloss_alts(c->q->glosses[g].words, alts + n_alts, lens + n_alts,
                                    16 - n_alts);
    return n_alts;
}

/* Does the byte at q of s stand inside a token's name written as a word of its own (the
 * "n't" of "didn't", the "not" of "did not", glosses of 没)? */
static int inside_name(const qz_numctx *c, const char *s, const char *q)
{
    for (size_t t = 0; t < c->row_n && t < c->q->n_tokens; t++) {
        const char *alts[16];
        size_t lens[16], n_alts = token_names(c, t, alts, lens);
        for (size_t k = 0; k < n_alts; k++)
            for (const char *at = (size_t)(q - s) + 1 >= lens[k] ? q + 1 - lens[k] : s; at <= q; at++)
                if (!strncasecmp(at, alts[k], lens[k]) && edge(s, at, 0) && edge(s, at + lens[k], 1))
                    return 1;
    }
    return 0;
}

/* The token named in [a, b) nearest to position p, or (size_t)-1. Names and the
 * question's glosses count, as words of their own. */
static size_t nearest_token(const qz_numctx *c, const char *s, const char *a, const char *b,
                            const char *p)
{
    size_t best = (size_t)-1;
    long best_d = -1;
    for (size_t t = 0; t < c->row_n && t < c->q->n_tokens; t++) {
        const char *alts[16];
        size_t lens[16], n_alts = token_names(c, t, alts, lens);
        for (size_t k = 0; k < n_alts; k++)
            for (const char *q = a; q + lens[k] <= b; q++) {
                if (strncasecmp(q, alts[k], lens[k]) || !edge(s, q, 0) || !edge(s, q + lens[k], 1))
                    continue;
                long d = q < p ? (long)(p - q) : (long)(q - p);
                if (best_d < 0 || d < best_d) {
                    best_d = d;
                    best = t;
                }
            }
    }
    return best;
}

/* Is one of the words w[] in [a, b)? With edges, an English one only as a word of its own
 * (edge() in s); without, anywhere ("besides" in "besides伞"). */
static int has_word(const char *s, const char *a, const char *b, const char *const *w, int edges)
{
    for (size_t i = 0; w[i]; i++) {
        size_t l = strlen(w[i]);
        int word = edges && (unsigned char)w[i][0] < 0x80;
        for (const char *p = a; p + l <= b; p++)
            if (!strncasecmp(p, w[i], l) && (!word || (edge(s, p, 0) && edge(s, p + l, 1))))
                return 1;
    }
    return 0;
}

/* "apart from 伞, 没 gets the most", 除了伞以外: a claim among the others only */
static int among_others(const char *a, const char *b)
{
    static const char *const w[] = {"besides", "except", "other than", "apart from", "among the others",
                                    "of the others", "excluding", "除了", "除去", "其余", "其他", "之外",
                                    "以外", NULL};
    return has_word(a, a, b, w, 0);
}

/* Words that say the tokens asked together, as one ("together they get more than 伞",
 * 两个加起来比伞大), NULL-terminated. */
static const char *const together_words[] = {"together", "combined", "between them", "加起来",
                                             "合起来", "一共", "总共", "合计", NULL};

/* The weights of the tokens asked, summed. */
static double asked_total(const qz_numctx *c)
{
    double total = 0;
    for (size_t i = 0; i < c->row_n; i++)
        if (c->slot_of[i] != (size_t)-1)
            total += c->row_w[i];
    return total;
}

/* Token t's rank among the row's weights, 1 the largest (most) or the smallest: one
 * more than the entries strictly beyond it, so that ties share a rank. */
static size_t rank_of(const qz_numctx *c, size_t t, int most)
{
    size_t beyond = 0;
    for (size_t j = 0; j < c->row_n; j++)
        beyond += most ? c->row_w[j] > c->row_w[t] + 1e-6 : c->row_w[j] < c->row_w[t] - 1e-6;
    return beyond + 1;
}

/* A claim that token t has rank `rank`: 1, and the slip named, when false. */
static size_t wrong_rank(const qz_numctx *c, size_t t, int rank, int most, FILE *fb)
{
    size_t got = rank_of(c, t, most);
    if ((int)got == rank)
        return 0;
    fprintf(fb, qz_tr(c->lang, "  %s is not number %d of the row's weights "
                               "(engine: %.4f, number %zu)\n"),
            c->q->tokens[t], rank, c->row_w[t], got);
    return 1;
}


/* An ordinal just before a superlative at p ("the second largest"), or the superlative
 * itself (第二大): 2, 3; else 0. */
static int ordinal_before(const char *s, const char *p)
{
    static const struct { const char *w; int r; } ord[] = {
        {"second ", 2}, {"2nd ", 2}, {"third ", 3}, {"3rd ", 3}, {"第二", 2}, {"第三", 3},
    };
    for (size_t i = 0; i < sizeof ord / sizeof *ord; i++) {
        size_t l = strlen(ord[i].w);
        if (((size_t)(p - s) >= l && !strncasecmp(p - l, ord[i].w, l)) ||
            ((unsigned char)ord[i].w[0] >= 0x80 && !strncmp(p, ord[i].w, l)))
            return ord[i].r;   /* before the superlative, or 第二大 itself */
    }
    return 0;
}

/* A superlative at p0 with no token named in its clause [a, b). "These are the two highest
 * weights", 这两个是最大的: the tokens asked are said to be the largest (smallest) of the
 * row; "the largest one is close to 1", 最大的那个接近 1: a value after it is given to the
 * largest (smallest) weight, which must be within 0.05 of it. The largest value or score
 * a step divides by (先除以最大值) is neither. Returns the false ones. */
static size_t unnamed_extreme(const qz_numctx *c, const char *a, const char *p0, const char *b, int most,
                              FILE *fb)
{
    static const char *const both[] = {"two", "both", "these", "those", "pair", "两个", "这两",
                                       "两者", "二者", "俩", NULL};
    /* said of weights ("the largest one", 最大的那个), not of a step ("先除以最大值") */
    static const char *const weight[] = {"weight", "weights", "one", "ones", "probability",
                                         "probabilities", "权重", "那个", "那一个", "概率", NULL};
    /* the largest value a step divides by ("先除以最大值") is no weight */
    if (!strncmp(p0, "最大值", strlen("最大值")) || !strncmp(p0, "最小值", strlen("最小值")) ||
        !strncasecmp(p0, "max value", 9) || !strncasecmp(p0, "largest score", 13) ||
        !strncasecmp(p0, "highest score", 13) || !strncmp(p0, "最大分数", strlen("最大分数")))
        return 0;
    if (has_word(a, a, b, both, 1)) {
        size_t k = 0, asked = 0, out = (size_t)-1;
        for (size_t i = 0; i < c->row_n; i++)
            asked += c->slot_of[i] != (size_t)-1;
        for (size_t i = 0; i < c->row_n; i++)   /* the asked among the first `asked` */
            k += c->slot_of[i] != (size_t)-1 && rank_of(c, i, most) <= asked;
        if (asked < 2 || k == asked)
            return 0;
        for (size_t j = 0; j < c->row_n; j++)
            if (c->slot_of[j] == (size_t)-1 &&
                (out == (size_t)-1 ||
                 (most ? c->row_w[j] > c->row_w[out] : c->row_w[j] < c->row_w[out])))
                out = j;
        if (out == (size_t)-1 || out >= c->q->n_tokens)
            return 0;
        fprintf(fb, most ? qz_tr(c->lang, "  the weights asked are not the largest of the row: %s gets "
                                          "more (engine: %.4f)\n")
                         : qz_tr(c->lang, "  the weights asked are not the smallest of the row: %s gets "
                                          "less (engine: %.4f)\n"),
                c->q->tokens[out], c->row_w[out]);
        return 1;
    }
    if (!has_word(a, a, b, weight, 1))
        return 0;
    for (const char *p = p0; p < b; p++) {   /* a value after the superlative */
        if (*p < '0' || *p > '9' || (p > a && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.')))
            continue;
        char *end;
        double x = strtod(p, &end);
        if (end > b || x < 0 || x > 1)
            return 0;
        size_t e = 0;
        for (size_t i = 1; i < c->row_n; i++)
            e = (most ? c->row_w[i] > c->row_w[e] : c->row_w[i] < c->row_w[e]) ? i : e;
        if (fabs(c->row_w[e] - x) <= 0.05 || e >= c->q->n_tokens)
            return 0;
        fprintf(fb, most ? qz_tr(c->lang, "  the largest weight is not about %g: it is %s's "
                                          "(engine: %.4f)\n")
                         : qz_tr(c->lang, "  the smallest weight is not about %g: it is %s's "
                                          "(engine: %.4f)\n"),
                x, c->q->tokens[e], c->row_w[e]);
        return 1;
    }
    return 0;
}

static size_t token_side(const qz_numctx *c, const char *s, const char *a, const char *b,
                         const char *p, int before);

/* Does the object of "attends mostly to" at p name the query itself ("itself", 自己)? */
static int itself_after(const char *p, const char *b)
{
    static const char *const w[] = {"itself", "its own", "it self", "自己", "自身", "它自己", "本身",
                                    NULL};
    while (p < b && (*p == ' ' || *p == '"' || *p == '\''))
        p++;
    if (!strncmp(p, "“", strlen("“")))
        p += strlen("“");
    for (size_t i = 0; w[i]; i++)
        if ((size_t)(b - p) >= strlen(w[i]) && !strncasecmp(p, w[i], strlen(w[i])))
            return 1;
    return 0;
}

/* The token before a copula ahead of p in its clause [a, p): "没 is what 伞 attends
 * to most", “没”是伞最关注的词; (size_t)-1 if none. */
static size_t object_before_copula(const qz_numctx *c, const char *s, const char *a, const char *p)
{
    static const char *const cop[] = {"是", " is ", " are ", NULL};
    const char *at = NULL;
    for (size_t i = 0; cop[i]; i++) {
        size_t l = strlen(cop[i]);
        for (const char *q = a; q + l <= p; q++)
            if (!strncmp(q, cop[i], l) && (!at || q > at))
                at = q;
    }
    return at ? nearest_token(c, s, a, at, at) : (size_t)-1;
}

/* After "most" at p: "of its attention to", "of the weight on", "attention goes to", "weight
 * on": the words that make the token after them the one getting it ("伞 gives most of its
 * attention to 没"); where that token's name may start, or NULL. */
static const char *share_to(const char *p, const char *b)
{
    static const char *const of[] = {" of its", " of the", " of his", " of their", " its", "", NULL};
    static const char *const what[] = {" attention", " weight", " focus", " probability mass",
                                       " mass", NULL};
    static const char *const to[] = {" goes to", " go to", " is on", " to", " on", NULL};
    for (size_t i = 0; of[i]; i++) {
        size_t l = strlen(of[i]);
        if ((size_t)(b - p) < l || strncasecmp(p, of[i], l))
            continue;
        for (size_t j = 0; what[j]; j++) {
            const char *q = p + l;
            size_t m = strlen(what[j]);
            if ((size_t)(b - q) < m || strncasecmp(q, what[j], m))
                continue;
            q += m;
            for (size_t k = 0; to[k]; k++) {
                size_t n = strlen(to[k]);
                if ((size_t)(b - q) >= n && !strncasecmp(q, to[k], n) && (q + n == b || q[n] == ' '))
                    return q + n;
            }
        }
    }
    return NULL;
}

static int denied_before(const qz_numctx *c, const char *s, const char *a, const char *p);

/* The token whose name stands right at p (after spaces and an opening quote), the object
 * of the words before it ("大部分注意力给了没", "主要关注“下雨”"); (size_t)-1 if none. */
static size_t token_right_at(const qz_numctx *c, const char *s, const char *p, const char *b)
{
    while (p < b && (*p == ' ' || *p == '"' || *p == '\''))
        p++;
    if ((size_t)(b - p) >= strlen("“") && !strncmp(p, "“", strlen("“")))
        p += strlen("“");
    for (size_t t = 0; t < c->row_n && t < c->q->n_tokens; t++) {
        size_t l = strlen(c->q->tokens[t]);
        if ((size_t)(b - p) >= l && !strncmp(p, c->q->tokens[t], l) &&
            (edge(s, p + l, 1) || !strncmp(p + l, "上", strlen("上"))))
            return t;
    }
    return (size_t)-1;
}

/* "X gets the most", “X”的权重最大: the token nearest such a word in its clause, against
 * the engine's largest (or smallest) weight. */
static size_t wrong_extremes(const qz_numctx *c, const char *s, FILE *fb)
{
    /* after: the token is the object after the words ("伞最关注的是下雨": 下雨 would get
     * the most), not the query before them */
    static const struct { const char *w; int most; int word; int after; } sup[] = {
        {"最关注", 1, 0, 1}, {"最注意", 1, 0, 1}, {"关注最多", 1, 0, 1}, {"attends most to", 1, 1, 1},
        {"attend most to", 1, 1, 1}, {"focuses most on", 1, 1, 1}, {"focus most on", 1, 1, 1},
        {"pays the most attention to", 1, 1, 1}, {"pays most attention to", 1, 1, 1},
        {"主要关注", 1, 0, 1}, {"主要注意", 1, 0, 1}, {"最在意", 1, 0, 1}, {"mostly attends to", 1, 1, 1},
        {"大部分注意力给了", 1, 0, 1}, {"大部分注意力都给了", 1, 0, 1}, {"大部分注意力放在", 1, 0, 1},
        {"大部分注意力都放在", 1, 0, 1}, {"注意力大部分给了", 1, 0, 1}, {"大部分权重给了", 1, 0, 1},
        {"大部分权重都给了", 1, 0, 1}, {"最多的注意力给了", 1, 0, 1},
        {"mainly attends to", 1, 1, 1}, {"attends mostly to", 1, 1, 1}, {"attends mainly to", 1, 1, 1},
        {"mostly focuses on", 1, 1, 1}, {"mainly focuses on", 1, 1, 1}, {"focuses mostly on", 1, 1, 1},
        {"focuses mainly on", 1, 1, 1}, {"mostly attend to", 1, 1, 1}, {"mainly attend to", 1, 1, 1},
        {"attends to most", 1, 1, 1}, {"attend to most", 1, 1, 1}, {"focuses on most", 1, 1, 1},
        {"looks at most", 1, 1, 1}, {"pays attention to most", 1, 1, 1},
        {"第二大", 1, 0, 0}, {"第二高", 1, 0, 0}, {"第三大", 1, 0, 0}, {"第三高", 1, 0, 0},
        {"最大", 1, 0, 0}, {"最多", 1, 0, 0}, {"最高", 1, 0, 0}, {"最小", 0, 0, 0}, {"最少", 0, 0, 0}, {"最低", 0, 0, 0},
        {"most", 1, 1, 0}, {"largest", 1, 1, 0}, {"biggest", 1, 1, 0}, {"highest", 1, 1, 0}, {"greatest", 1, 1, 0},
        {"maximum", 1, 1, 0}, {"smallest", 0, 1, 0}, {"least", 0, 1, 0}, {"lowest", 0, 1, 0}, {"minimum", 0, 1, 0},
    };
    size_t hi = 0, lo = 0;
    for (size_t i = 1; i < c->row_n; i++) {
        hi = c->row_w[i] > c->row_w[hi] ? i : hi;
        lo = c->row_w[i] < c->row_w[lo] ? i : lo;
    }
    size_t n = 0;
    const char *a = s, *prev = s;   /* prev: the clause before, for "除了伞以外，没…" */
    while (*a) {
        int l;
        const char *b = clause_end(a, &l);
        for (size_t k = 0; !among_others(prev, b) && k < sizeof sup / sizeof *sup; k++) {
            size_t wl = strlen(sup[k].w);
            for (const char *p = a; p + wl <= b; p++) {
                if (strncasecmp(p, sup[k].w, wl) || (sup[k].word && (!edge(s, p, 0) || !edge(s, p + wl, 1))))
                    continue;
                /* "伞 does not give most of its attention to 没": denied, no claim */
                if (denied_before(c, s, a, p))
                    goto next_clause;
                /* "gives most of its attention to 没": the token after gets the most */
                const char *to = sup[k].word && !sup[k].after ? share_to(p + wl, b) : NULL;
                int after = sup[k].after || to;
                const char *from = to ? to : p + wl;
                if (after && itself_after(from, b))
                    goto next_clause;   /* "伞 attends mostly to itself": the query's own weight */
                size_t t = after ? token_right_at(c, s, from, b) : (size_t)-1;
                if (t == (size_t)-1)
                    t = after ? token_side(c, s, a, b, from, 0) : nearest_token(c, s, a, b, p);
                if (after && t == (size_t)-1)
                    t = object_before_copula(c, s, a, p);   /* “没”是伞最关注的词 */
                size_t right = sup[k].most ? hi : lo;
                int rank = ordinal_before(s, p);
                if (rank > 1) {   /* "没 is the second largest" */
                    if (t != (size_t)-1)
                        n += wrong_rank(c, t, rank, sup[k].most, fb);
                    goto next_clause;
                }
                if (t == (size_t)-1) {   /* no token named: the asked ones, or a value */
                    n += unnamed_extreme(c, a, p, b, sup[k].most, fb);
                    goto next_clause;
                }
                /* ties: a token with the same weight as the extreme is not wrong */
                if (t != (size_t)-1 && fabs(c->row_w[t] - c->row_w[right]) > 1e-6) {
                    fprintf(fb, sup[k].most
                                    ? qz_tr(c->lang, "  %s does not get the largest weight: %s does "
                                                     "(engine: %.4f)\n")
                                    : qz_tr(c->lang, "  %s does not get the smallest weight: %s does "
                                                     "(engine: %.4f)\n"),
                            c->q->tokens[t], c->q->tokens[right], c->row_w[right]);
                    n++;
                }
                goto next_clause;   /* one claim a clause */
            }
        }
    next_clause:
        prev = a;
        a = *b ? b + l : b;
    }
    return n;
}

/* The token named nearest p in [a, b), whose name starts before p (before) or at or after
 * it (!before); (size_t)-1 if none. */
static size_t token_side(const qz_numctx *c, const char *s, const char *a, const char *b,
                         const char *p, int before)
{
    return before ? nearest_token(c, s, a, p, p) : nearest_token(c, s, p, b, p);
}

/* Is there a word of denial just before p in [a, p) of s: "not", "n't", 不, 并非? One that
 * is part of a token's name ("didn't gets the most": the gloss of 没) denies nothing. */
static int denied_before(const qz_numctx *c, const char *s, const char *a, const char *p)
{
    static const char *const neg[] = {"not ", "n't ", "never ", "不", "并非", "未必", NULL};
    for (size_t i = 0; neg[i]; i++) {
        long l = (long)strlen(neg[i]);
        for (long off = (long)(p - a) - l; off >= 0 && off >= (long)(p - a) - l - 12; off--)
            if (!strncasecmp(a + off, neg[i], (size_t)l) && !inside_name(c, s, a + off))
                return 1;
    }
    return 0;
}

/* Does the clause [a, p) name no subject before the comparison at p (values and filler
 * words only), so the values just given are its subject ("0.14 0.17, more than 伞", "0.14 0.17 - bigger than 伞",
 * 0.14 0.17，都比伞大)? */
static int bare_subject(const char *a, const char *p)
{
    static const char *const fill[] = {"which are", "which is", "they are", "they're", "and",
                                       "are", "is", "all", "都是", "都", "均", "也", NULL};
    const char *q = a;
    for (int again = 1; again;) {
        again = 0;
        while (q < p && (*q == ' ' || *q == '-' || *q == ':' || *q == '.' || *q == '%' ||
                         (*q >= '0' && *q <= '9')))
            q++;   /* the values themselves */
        if (p - q >= 3 && (!strncmp(q, "—", 3) || !strncmp(q, "：", 3))) {
            q += 3;
            again = 1;
            continue;
        }
        for (size_t i = 0; fill[i]; i++) {
            size_t l = strlen(fill[i]);
            if ((size_t)(p - q) >= l && !strncasecmp(q, fill[i], l) &&
                (q + l == p || q[l] == ' ' || (unsigned char)fill[i][0] >= 0x80)) {
                q += l;
                again = 1;
                break;
            }
        }
    }
    return q == p;
}

/* "没 gets more than 下雨", "下雨 is larger than 没", "没 > 下雨", 没比下雨小, 下雨的权重比没高:
 * a comparison of two tokens' weights in one clause, against the engine's row. A denied
 * comparison ("not larger than", 不比) is left alone. The tokens asked said together
 * ("those two are bigger than 伞's own weight") are compared one by one. */
static size_t wrong_comparisons(const qz_numctx *c, const char *s, FILE *fb)
{
    /* the tokens asked, said together as the subject ("both are bigger than 伞", 这俩比伞大) */
    static const char *const pair[] = {"both", "those two", "these two", "the two", "两个", "这俩",
                                       "两者", "二者", "这两", "它俩", NULL};
    static const struct { const char *w; int more; } en[] = {
        {"larger", 1}, {"bigger", 1}, {"higher", 1}, {"greater", 1}, {"more", 1}, {"heavier", 1},
        {"smaller", 0}, {"lower", 0}, {"less", 0}, {"lighter", 0}, {"fewer", 0},
    };
    static const struct { const char *w; int more; } zh[] = {
        {"大", 1}, {"高", 1}, {"多", 1}, {"重", 1}, {"小", 0}, {"低", 0}, {"少", 0}, {"轻", 0},
    };
    size_t n = 0;
    const char *a = s;
    while (*a) {
        int l;
        const char *b = clause_end(a, &l);
        size_t x = (size_t)-1, y = (size_t)-1;
        int more = -1;
        const char *said = a;   /* where the comparison is said: its subject is before */
        for (const char *p = a; p < b && more < 0; p++) {
            if (!strncasecmp(p, "than", 4) && edge(s, p, 0) && edge(s, p + 4, 1)) {
                /* the comparative word is the last one before "than" */
                for (size_t k = 0; k < sizeof en / sizeof *en && more < 0; k++) {
                    size_t wl = strlen(en[k].w);
                    long at = (long)(p - a);
                    for (long off = at - 1 - (long)wl; off >= 0 && off > at - 24; off--) {
                        const char *q = a + off;
                        if (!strncasecmp(q, en[k].w, wl) && edge(s, q, 0) && edge(s, q + wl, 1)) {
                            if (denied_before(c, s, a, q))
                                goto next_clause;
                            x = token_side(c, s, a, b, q, 1);
                            y = token_side(c, s, a, b, p + 4, 0);
                            more = en[k].more;
                            said = q;
                            break;
                        }
                    }
                }
            } else if ((*p == '>' || *p == '<') && p[1] != '=' &&
                       (p == a || (p[-1] != '-' && p[-1] != '='))) {   /* not "->", "=>" */
                x = token_side(c, s, a, b, p, 1);
                y = token_side(c, s, a, b, p + 1, 0);
                more = *p == '>';
            } else if (!strncmp(p, "比", 3)) {
                if (denied_before(c, s, a, p))
                    goto next_clause;
                x = token_side(c, s, a, b, p, 1);
                y = token_side(c, s, a, b, p + 3, 0);
                said = p;
                for (const char *q = p + 3; q < b && more < 0; q++)
                    for (size_t k = 0; k < sizeof zh / sizeof *zh; k++)
                        if (!strncmp(q, zh[k].w, 3) && !(q - 3 >= p && !strncmp(q - 3, "权", 3))) {
                            more = zh[k].more;
                            break;
                        }
            }
        }
        /* the tokens asked said together as one: their sum against the other's weight */
        /* (said in the clause or the one before it: "together they get a third of the
         * attention, more than 伞 itself") */
        const char *from = a;
        size_t cl = a > s && a[-1] == ',' ? 1 : a - s >= 3 && !strncmp(a - 3, "，", 3) ? 3 : 0;
        if (cl)
            for (from = a - cl; from > s && !is_clause_end(from - 1) &&
                                !(from - s >= 3 && is_clause_end(from - 3) == 3);
                 from--)
                ;
        if (more >= 0 && x == (size_t)-1 && y != (size_t)-1 && has_word(s, from, b, together_words, 1) &&
            c->slot_of[y] == (size_t)-1) {
            double total = asked_total(c);
            if (fabs(total - c->row_w[y]) > 1e-6 && (total > c->row_w[y]) != more) {
                fprintf(fb, more ? qz_tr(c->lang, "  together they do not get more weight than %s "
                                                  "(engine: %.4f against %.4f)\n")
                                 : qz_tr(c->lang, "  together they do not get less weight than %s "
                                                  "(engine: %.4f against %.4f)\n"),
                        c->q->tokens[y], total, c->row_w[y]);
                n++;
            }
            goto next_clause;
        }
        if (more >= 0 && x == (size_t)-1 && y != (size_t)-1 &&
            (has_word(s, a, said, pair, 1) || bare_subject(a, said)))
            for (size_t i = 0; i < c->row_n; i++)   /* "those two are bigger than 伞's own" */
                if (c->slot_of[i] != (size_t)-1 && i != y && fabs(c->row_w[i] - c->row_w[y]) > 1e-6 &&
                    (c->row_w[i] > c->row_w[y]) != more) {
                    x = i;
                    break;
                }
        if (more >= 0 && x != (size_t)-1 && y != (size_t)-1 && x != y &&
            fabs(c->row_w[x] - c->row_w[y]) > 1e-6 && (c->row_w[x] > c->row_w[y]) != more) {
            fprintf(fb, more ? qz_tr(c->lang, "  %s does not get more weight than %s (engine: %.4f "
                                              "against %.4f)\n")
                             : qz_tr(c->lang, "  %s does not get less weight than %s (engine: %.4f "
                                              "against %.4f)\n"),
                    c->q->tokens[x], c->q->tokens[y], c->row_w[x], c->row_w[y]);
            n++;
        }
    next_clause:
        a = *b ? b + l : b;
    }
    return n;
}

/* Is x a sum the working has: the weights' (1), the exps', the exps' shifted by the
 * largest score, the exps' but one token's, the scores', or the asked weights' ("the two
 * add up to 0.31")? Within
 * 5% (Σexp ≈ 10 is an estimate). */
static int a_sum(const qz_numctx *c, const qz_row_sums *r, double x)
{
    double asked = 0;
    for (size_t j = 0; j < c->n; j++)
        asked += c->want[j];
    const double sums[] = {1, r->exps, r->shifted, r->scores, asked};
    for (size_t k = 0; k < sizeof sums / sizeof sums[0]; k++)
        if (fabs(x - sums[k]) <= (k ? 0.05 * fabs(sums[k]) : 0.02))
            return 1;
    /* "e^1.2 is 3.3 and the other five exps add to about 6.4": the exps but one */
    for (size_t j = 0; j < c->row_n; j++) {
        double part = r->exps - exp(c->row_s[j]);
        if (isfinite(part) && part > 0 && fabs(x - part) <= 0.05 * part)
            return 1;
    }
    return 0;
}

/* "the weights add up to 2", 权重加起来等于 2: a value the reader found named as a sum
 * that no step of the working has. */
static size_t wrong_sums(const qz_numctx *c, const qz_row_sums *r, const qz_numbers *nums, FILE *fb)
{
    size_t n = 0;
    for (size_t k = 0; k < nums->n; k++) {
        const qz_value *v = &nums->v[k];
        if (!v->sum || a_sum(c, r, v->x))
            continue;
        fprintf(fb, qz_tr(c->lang, "  the weights of a row add up to 1, not %g%s\n"),
                v->percent ? 100 * v->x : v->x, v->percent ? "%" : "");
        n++;
    }
    return n;
}

/* Where w (any case) first stands in the clause [a, b), or NULL. */
static const char *in_clause(const char *a, const char *b, const char *w)
{
    size_t wl = strlen(w);
    for (const char *p = a; p + wl <= b; p++)
        if (!strncasecmp(p, w, wl))
            return p;
    return NULL;
}

/* "没 ranks first", “下雨”排名第二, "伞 is number one": the named token's rank among the
 * row's weights (ties share a rank). */
static size_t wrong_ranks(const qz_numctx *c, const char *s, FILE *fb)
{
    static const struct { const char *w; int r; } rk[] = {
        {"排名第一", 1}, {"排名第二", 2}, {"排名第三", 3}, {"排第一", 1}, {"排第二", 2}, {"排第三", 3},
        {"第一名", 1}, {"第二名", 2}, {"第三名", 3}, {"ranks first", 1}, {"ranks second", 2},
        {"ranks third", 3}, {"ranks 1st", 1}, {"ranks 2nd", 2}, {"ranks 3rd", 3},
        {"ranked first", 1}, {"ranked second", 2}, {"ranked third", 3}, {"number one", 1},
        {"number two", 2}, {"number three", 3}, {"second only to", 2}, {"仅次于", 2},
    };   /* not "comes first": the order of the answer ("下雨 comes first: 0.14 and 0.17") */
    size_t n = 0;
    const char *a = s;
    while (*a) {
        int l;
        const char *b = clause_end(a, &l);
        for (size_t k = 0; k < sizeof rk / sizeof *rk; k++) {
            const char *p = in_clause(a, b, rk[k].w);
            if (!p)
                continue;
            /* "下雨 is second only to 伞", “下雨”仅次于“伞”: the token before the words */
            int before = !strncmp(rk[k].w, "second only", 11) || !strcmp(rk[k].w, "仅次于");
            size_t t = before ? token_side(c, s, a, b, p, 1) : nearest_token(c, s, a, b, p);
            if (t == (size_t)-1)
                break;
            n += wrong_rank(c, t, rk[k].r, 1, fb);
            break;   /* one claim a clause */
        }
        a = *b ? b + l : b;
    }
    return n;
}

/* "伞 gets more than half", 伞对自己的权重超过一半, “没”不到一半: the named token's weight
 * against one half. */
static size_t wrong_halves(const qz_numctx *c, const char *s, FILE *fb)
{
    static const struct { const char *w; int more; } half[] = {
        {"more than half", 1}, {"over half", 1}, {"above half", 1}, {"over 50%", 1},
        {"more than 50%", 1}, {"the majority of the weight", 1},
        {"超过一半", 1}, {"超过了一半", 1}, {"过半", 1}, {"大于一半", 1}, {"多于一半", 1},
        {"一半以上", 1}, {"超过 50%", 1}, {"超过50%", 1}, {"大部分权重", 1},
        {"less than half", 0}, {"under half", 0}, {"below half", 0}, {"less than 50%", 0},
        {"不到一半", 0}, {"少于一半", 0}, {"小于一半", 0}, {"一半以下", 0}, {"不足一半", 0},
        {"不到 50%", 0}, {"不到50%", 0},
    };
    size_t n = 0;
    const char *a = s;
    while (*a) {
        int l;
        const char *b = clause_end(a, &l);
        for (size_t k = 0; k < sizeof half / sizeof *half; k++) {
            const char *p = in_clause(a, b, half[k].w);
            if (!p)
                continue;
            /* the tokens asked said together: "these two add up to more than half",
             * 这两个加起来超过一半 (their weights summed) */
            if (has_word(s, a, b, together_words, 1)) {
                double sum = asked_total(c);
                if ((sum > 0.5) != half[k].more) {
                    fprintf(fb, half[k].more
                                    ? qz_tr(c->lang, "  together the weights asked do not get more "
                                                     "than half (engine: %.4f)\n")
                                    : qz_tr(c->lang, "  together the weights asked get more than "
                                                     "half (engine: %.4f)\n"),
                            sum);
                    n++;
                }
                break;
            }
            size_t t = token_side(c, s, a, b, p, 1);   /* the token the clause speaks of */
            if (t == (size_t)-1 || t >= c->q->n_tokens)
                break;
            if ((c->row_w[t] > 0.5) != half[k].more) {
                fprintf(fb, half[k].more
                                ? qz_tr(c->lang, "  %s does not get more than half of the weight "
                                                 "(engine: %.4f)\n")
                                : qz_tr(c->lang, "  %s gets more than half of the weight "
                                                 "(engine: %.4f)\n"),
                        c->q->tokens[t], c->row_w[t]);
                n++;
            }
            break;   /* one claim a clause */
        }
        a = *b ? b + l : b;
    }
    return n;
}

/* "0.3/2.4 ≈ 0.14, 0.5/2.4 ≈ 0.17": a score asked divided by the sum of the scores (not of
 * their exps) in the working shown beside the values: the values were not found that way. */
static size_t wrong_working(const qz_numctx *c, const qz_row_sums *r, const char *answer, FILE *fb)
{
    if (!isfinite(r->scores) || fabs(r->scores - r->exps) < 0.1)
        return 0;
    for (const char *p = answer; *p; p++) {
        size_t op = *p == '/' ? 1 : !strncmp(p, "÷", strlen("÷")) ? strlen("÷") : 0;
        if (!op || p == answer)
            continue;
        const char *q = p + op;
        while (*q == ' ')
            q++;
        char *end;
        double den = strtod(q, &end);
        if (end == q || fabs(den - r->scores) > 0.05)
            continue;
        const char *b = p;   /* the numerator: the number that ends right before the '/' */
        while (b > answer && b[-1] == ' ')
            b--;
        const char *a = b;
        while (a > answer && (isdigit((unsigned char)a[-1]) || a[-1] == '.'))
            a--;
        if (a == b)
            continue;
        double num = strtod(a, NULL);
        for (size_t i = 0; i < c->row_n; i++)
            if (c->slot_of[i] != (size_t)-1 && fabs(num - c->row_s[i]) < 1e-9) {
                fprintf(fb, qz_tr(c->lang, "  the working divides the scores themselves by their sum "
                                           "(%g): softmax divides the exp of each score by the sum of "
                                           "the exps\n"),
                        den);
                return 1;
            }
    }
    return 0;
}

/* "the others get 0", 其他的都是 0: every weight not asked said to be zero; softmax gives
 * every token a positive weight. */
static size_t wrong_zeros(const qz_numctx *c, const char *answer, FILE *fb)
{
    static const char *const w[] = {"the others get 0", "others get 0", "the others get zero",
                                    "others get zero", "the rest get 0", "the rest get zero",
                                    "the others are 0", "others are 0", "the others are zero",
                                    "the rest are 0", "the rest are zero", "其他都是 0", "其他都是0",
                                    "其他的都是 0", "其他的都是0", "其余都是 0", "其余都是0",
                                    "其他为 0", "其他为0", "其余为 0", "其余为0", "其他都为 0",
                                    "其他都为0", NULL};
    for (size_t k = 0; w[k]; k++) {
        const char *p = in_clause(answer, answer + strlen(answer), w[k]);
        const char *e = p ? p + strlen(w[k]) : NULL;
        if (!p || isdigit((unsigned char)*e) || (*e == '.' && isdigit((unsigned char)e[1])))
            continue;   /* ("others get 0.1": a value, not zero) */
        double least = INFINITY;
        for (size_t i = 0; i < c->row_n; i++)
            if (c->slot_of[i] == (size_t)-1 && c->row_w[i] < least)
                least = c->row_w[i];
        if (!isfinite(least) || least < 0.005)
            return 0;
        fprintf(fb, qz_tr(c->lang, "  softmax gives every token a positive weight: the others do not "
                                   "get 0 (the smallest is %.4f)\n"),
                least);
        return 1;
    }
    return 0;
}

size_t qz_false_claims(const qz_numctx *c, const qz_numbers *all, const qz_numbers *nums,
                       const char *answer, FILE *fb)
{
    if (!c->row_w || !c->row_n || !c->q->tokens || !c->slot_of || !answer)
        return 0;
    qz_row_sums r = qz_row_sums_of(c);
    return wrong_weights(c, &r, nums, answer, fb) + wrong_extremes(c, answer, fb) +
           wrong_comparisons(c, answer, fb) + wrong_sums(c, &r, all, fb) + wrong_ranks(c, answer, fb) +
           wrong_halves(c, answer, fb) + wrong_working(c, &r, answer, fb) + wrong_zeros(c, answer, fb);
}
