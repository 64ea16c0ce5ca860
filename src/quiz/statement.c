/* The statement matcher: what a text answer states, sentence by sentence (the rules
 * are in statement.h). */
#define _POSIX_C_SOURCE 200809L
#include "quiz/statement.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistr.h>

#include "quiz/compiled.h"

enum { M_SUBJ, M_CLAIM, M_DIR, M_WITH, M_UNLESS };
#define NEUTRAL 3             /* mention.set of a subject of none of the statements */
#define NEG_REACH 5           /* words a negation reaches (two Han characters a word) */
#define FOIL_REACH 1
#define INSTEAD_REACH 8       /* tokens from "instead of" to the subject it contrasts */

typedef struct mention {
    size_t a, b;              /* tokens [a, b) */
    unsigned char kind;       /* M_* */
    unsigned char set;        /* 0 key idea, 1 misconception (not M_DIR) */
    unsigned char dir;        /* M_DIR: its qz_direction */
    unsigned char neg, dead, virt, self;
    unsigned char prevented;  /* denied by prevent, avoid, 防止 (a danger named) */
    unsigned char foil;       /* M_SUBJ after "unlike", 不像: only compared with */
    unsigned char object;     /* M_SUBJ after 把, 将: an object, never a subject */
    unsigned char refused;    /* M_CLAIM in a question answered "no" ("or is it exploding
                               * gradients? No - vanishing"): rejected, not named */
    size_t pat, claim, group;
    long run;                 /* M_SUBJ: its group of subjects, -1 none */
} mention;

typedef struct mlist {
    mention *v;
    size_t n, cap;
    int failed;
} mlist;

static void madd(mlist *l, mention m)
{
    if (l->failed)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        mention *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->failed = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    m.run = -1;
    l->v[l->n++] = m;
}

/* A statement matched in a sentence: which pattern, on which phrase. */
typedef struct match {
    unsigned char set;        /* 0 key idea, 1 misconception, 2 key idea denied */
    size_t pat, a, b;         /* pattern; the claim's tokens [a, b) */
    size_t subj;              /* where its subject starts, SIZE_MAX for none */
    int carried;              /* said of the group carried from the sentence before */
    size_t claim;             /* the pattern's claim it matched (try_bare: its bare one) */
    size_t ga, gb;            /* the tokens [ga, gb) of its group of subjects (ga == gb:
                               * none named in its sentence) */
} match;

typedef struct matches {
    match *v;
    size_t n, cap;
    int failed;
} matches;

static void match_add(matches *l, match m)
{
    if (l->failed)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        match *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->failed = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = m;
}

/* What one sentence is read with. */
typedef struct sentence {
    const qz_rubric_c *r;
    const qz_text *t;
    size_t s0, s1;
    mlist m;
    size_t n_runs;
    long *run_first;          /* [n_runs] first token of each group */
    long *run_end;            /* [n_runs] one past its last token */
    long *consumed;           /* [n_runs] 1 + the mention of the claim that took it, or 0 */
    unsigned char *run_foil;  /* [n_runs] a group of foils ("unlike RNNs") */
    int forward;
    size_t first_content;     /* the first token after opening connectives ("so", 所以) */
    size_t p0, p1;            /* the period it is in: `unless` looks there */
    int side;                 /* k > 0: only the lesson's misconception k - 1 is looked for */
    int turned;               /* it follows a contrast or a denial turned ("Q is not the
                               * encoder, it's the decoder", "…, but the decoder") */
} sentence;

static const qz_cpattern *pattern(const qz_rubric_c *r, int set, size_t pat)
{
    return set ? &r->miscs[pat] : &r->ideas[pat];
}

/* ---- finding the phrases */

/* Is Han token i the second character of a word that holds no phrase starting there
 * ("主要用来" holds no 要用)? */
static int inside_han_word(const qz_text *t, size_t i)
{
    static const char *const words[] = {"主要", "重要", "只要", "摘要", "概要", "纲要", "必要"};
    if (!i || t->t[i].kind != QZ_TK_HAN)
        return 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        if (qz_han_at(t, i - 1, words[w]) == 2)
            return 1;
    return 0;
}

static int ends_sentence(const qz_text *t, size_t i);

/* Is 不 at token i the middle of A不A (要不要, 需不需要, 用不用), outside a question? It
 * asks whether, it denies nothing ("不确定要不要 decoder" reads no "不要 decoder"); a
 * question the student answers is read as before ("要不要解码器？不要。"). */
static int a_not_a(const qz_text *t, size_t i)
{
    if (!i || i + 1 >= t->n || !qz_han_at(t, i, "不") || t->t[i - 1].kind != QZ_TK_HAN ||
        strcmp(t->t[i - 1].s, t->t[i + 1].s))
        return 0;
    for (size_t k = i; k < t->n; k++) {
        if (qz_tok_is(t, k, "?") || qz_tok_is(t, k, "？"))
            return 0;
        if (ends_sentence(t, k))
            break;
    }
    return 1;
}

static void find_list(sentence *s, size_t i, const qz_alts *a, mention proto)
{
    if (inside_han_word(s->t, i) || a_not_a(s->t, i))
        return;
    size_t which = 0, len = qz_alts_at(s->t, i, a, &which);
    if (len && i + len <= s->s1) {
        proto.a = i;
        proto.b = i + len;
        proto.self = a->self ? a->self[which] : 0;
        madd(&s->m, proto);
    }
}

static void find_pattern(sentence *s, size_t i, int set, size_t p)
{
    const qz_cpattern *pt = pattern(s->r, set, p);
    find_list(s, i, &pt->subject, (mention){.kind = M_SUBJ, .set = (unsigned char)set, .pat = p});
    for (size_t c = 0; c < pt->n_claims; c++) {
        const qz_cclaim *cl = &pt->claims[c];
        mention m = {.set = (unsigned char)set, .pat = p, .claim = c};
        m.kind = M_CLAIM;
        find_list(s, i, &cl->phrases, m);
        m.kind = M_UNLESS;
        find_list(s, i, &cl->unless, m);
        m.kind = M_WITH;
        for (size_t g = 0; g < cl->n_with; g++) {
            m.group = g;
            find_list(s, i, &cl->with[g], m);
        }
    }
}

/* The phrases of the question's own statements, or (s->side) of the lesson's
 * misconceptions only: those are read in a reading of their own, so that their words
 * change nothing in how the key ideas are read. */
static void find_all(sentence *s)
{
    const qz_rubric_c *r = s->r;
    for (size_t i = s->s0; i < s->s1; i++) {
        for (size_t p = 0; !s->side && p < r->n_ideas; p++)
            find_pattern(s, i, 0, p);
        for (size_t p = 0; p < r->n_miscs; p++)
            if (r->misc_info[pattern(r, 1, p)->owner].lesson_wide == (s->side != 0) &&
                (!s->side || pattern(r, 1, p)->owner == (size_t)s->side - 1))
                find_pattern(s, i, 1, p);
        /* read apart, the question's subjects still own what is said of them ("an RNN's
         * cost is linear" is not said of nothing) */
        for (size_t p = 0; s->side && p < r->n_ideas; p++)
            find_list(s, i, &pattern(r, 0, p)->subject, (mention){.kind = M_SUBJ, .set = NEUTRAL});
        for (size_t p = 0; s->side && p < r->n_miscs; p++)
            if (!r->misc_info[pattern(r, 1, p)->owner].lesson_wide)
                find_list(s, i, &pattern(r, 1, p)->subject, (mention){.kind = M_SUBJ, .set = NEUTRAL});
        for (unsigned d = QZ_DIR_NONE; d <= QZ_DIR_SAME; d++)
            find_list(s, i, &r->dir[d], (mention){.kind = M_DIR, .dir = (unsigned char)d});
        find_list(s, i, &r->neutral, (mention){.kind = M_SUBJ, .set = NEUTRAL});
    }
}

static int shadows(const mention *m)
{
    return m->kind == M_SUBJ || m->kind == M_CLAIM || m->kind == M_DIR;
}

/* A phrase inside a longer phrase found at the same place does not count, nor one that
 * starts inside a phrase before it and ends after it ("没有必要用": 要用 is not read). */
static int unless_blocks(const sentence *s, const qz_cpattern *pt, const qz_cclaim *cl,
                         size_t at);

/* A key idea's claim an `unless` of its own takes back shadows nothing: "RNN vs
 * self-attention: O(1) vs O(n)" is read as its O(1) and O(n), not as the bare
 * comparison. */
static int blocked(const sentence *s, const mention *o)
{
    if (o->kind != M_CLAIM || o->set != 0)
        return 0;   /* (a misconception's "too small" still hides the "small" in it) */
    const qz_cpattern *pt = pattern(s->r, 0, o->pat);
    const qz_cclaim *cl = &pt->claims[o->claim];
    return cl->unless.n && unless_blocks(s, pt, cl, o->a);
}

static int possessive(const sentence *s, const mention *m);

/* Is claim m a side (encoder, decoder, source …) that owns the subject right after it: "the
 * encoder's keys", 编码器的 K (not "每一步的参数": a step owns nothing the rubric names)? */
static int side_owner(const sentence *s, const mention *m)
{
    if (m->kind != M_CLAIM || qz_alts_at(s->t, m->a, &s->r->side, NULL) != m->b - m->a ||
        !possessive(s, m))
        return 0;
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_SUBJ && s->m.v[k].a == m->b)
            return 1;
    return 0;
}

static void shadow(sentence *s)
{
    /* first what overlaps a longer phrase, or one as long before it ("不用 decoder":
     * "用 decoder" is not read), then what lies inside a longer phrase still read */
    for (size_t i = 0; i < s->m.n; i++) {
        mention *m = &s->m.v[i];
        for (size_t j = 0; shadows(m) && j < s->m.n && !m->dead; j++) {
            const mention *o = &s->m.v[j];
            size_t lo = o->b - o->a, lm = m->b - m->a;
            int overlap = (o->a < m->a && m->a < o->b && o->b < m->b) ||
                          (m->a < o->a && o->a < m->b && m->b < o->b);
            /* the longer one is read; of two as long, the first ("不用" before "用 decoder") */
            m->dead = shadows(o) && !o->dead && overlap && (lo > lm || (lo == lm && o->a < m->a)) &&
                      !blocked(s, o);
        }
    }
    for (size_t i = 0; i < s->m.n; i++) {
        mention *m = &s->m.v[i];
        for (size_t j = 0; shadows(m) && j < s->m.n && !m->dead; j++) {
            const mention *o = &s->m.v[j];
            /* a subject inside a claim that names it ("用解码器") is still a subject; so is
             * an owner that ends another statement's claim ("the decoder's queries read
             * the encoder's keys and values": the keys' source, and what is read) */
            m->dead = shadows(o) && !o->dead && o->a <= m->a && m->b <= o->b &&
                      o->b - o->a > m->b - m->a && !(m->kind == M_SUBJ && o->kind == M_CLAIM) &&
                      !(o->kind == M_CLAIM && m->b == o->b && (m->set != o->set || m->pat != o->pat) &&
                        side_owner(s, m)) &&
                      !blocked(s, o);
        }
    }
    /* …and the longer claim that ends on that owner says no more than the owner does: "用
     * 解码器的 Q 去查编码器的 K 和 V" looks up the keys and values, it names no purpose */
    for (size_t i = 0; i < s->m.n; i++) {
        mention *o = &s->m.v[i];
        for (size_t j = 0; o->kind == M_CLAIM && !o->dead && j < s->m.n; j++) {
            const mention *m = &s->m.v[j];
            o->dead = m->kind == M_CLAIM && !m->dead && m->b == o->b && m->a > o->a &&
                      (m->set != o->set || m->pat != o->pat) && side_owner(s, m) && !blocked(s, o);
        }
    }
}

static int live(const mention *m)
{
    return !m->dead && !m->virt;
}

/* ---- a side's positions */

/* In a sentence after a contrast or a denial turned, is token a the first thing said, a
 * pronoun and a copula at most before it ("…, it's the decoder", "…, but the decoder",
 * "…，是解码器")? Then it names what the carried group is or comes from, in place of
 * what was denied. */
static int names_in_turn(const sentence *s, size_t a)
{
    static const char *const words[] = {"it's", "it", "is", "that's", "that", "they're", "they",
                                        "are", "but", "rather", "instead", "是", "而是", "它",
                                        "它们", NULL};
    if (!s->turned || a > s->s0 + 3)
        return 0;
    /* the claim ends the sentence: "…, but the decoder uses them" acts, not names */
    size_t b = a;
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_CLAIM && s->m.v[k].a == a && s->m.v[k].b > b)
            b = s->m.v[k].b;
    /* ("it's the decoder's", 是解码器的, "it's the decoder's state", 是解码器的状态) */
    static const char *const owned[] = {"'s", "s", "的", "state", "states", "hidden", "side",
                                        "output", "outputs", "current", "状态", "隐状态", "输出",
                                        "这边", "一侧", "那边", "一边", NULL};
    for (size_t j = b; j < s->s1; j++) {
        int ok = s->t->t[j].kind == QZ_TK_MARK;
        for (size_t w = 0; owned[w] && !ok; w++) {
            size_t h = (unsigned char)owned[w][0] >= 0x80 ? qz_han_at(s->t, j, owned[w]) : 0;
            ok = qz_tok_raw_is(s->t, j, owned[w]) || qz_tok_is(s->t, j, owned[w]) || h;
            if (h > 1)
                j += h - 1;
        }
        if (!ok)
            return 0;
    }
    for (size_t j = s->s0; j < a; j++) {
        int ok = 0;
        for (size_t w = 0; words[w] && !ok; w++)
            ok = qz_tok_raw_is(s->t, j, words[w]) || qz_tok_is(s->t, j, words[w]);
        if (!ok)
            return 0;
    }
    return 1;
}

/* Is a word of origin (from, 来自, 从) among the 3 tokens before token a, in its clause? */
static int origin_before(const sentence *s, size_t a)
{
    for (size_t j = a; j-- > s->s0 && j + 3 >= a;) {
        if (s->t->t[j].kind == QZ_TK_MARK)
            return 0;
        size_t l = qz_alts_at(s->t, j, &s->r->origin, NULL);
        if (l && j + l <= a)
            return 1;
    }
    return 0;
}

/* "目标端每个位置对源端所有位置算权重", "each decoder position scores all encoder
 * positions": a side (quiz/compiled.h: qz_lex_side) named with its positions is who acts
 * or what is acted on, not where Q, K or V come from ("K、V 来自编码器每个位置的输出" is):
 * its claims are read as a noun of none of the statements. */
static void side_positions(sentence *s)
{
    size_t n = s->m.n;
    for (size_t k = 0; k < n; k++) {
        mention m = s->m.v[k];
        if (m.kind != M_CLAIM || !live(&m) || qz_alts_at(s->t, m.a, &s->r->side, NULL) != m.b - m.a)
            continue;
        size_t e = qz_alts_at(s->t, m.b, &s->r->positions, NULL);
        if (!e || origin_before(s, m.a))
            continue;
        for (size_t j = 0; j < n; j++)
            if (s->m.v[j].kind == M_CLAIM && s->m.v[j].a == m.a)
                s->m.v[j].dead = 1;
        madd(&s->m, (mention){.kind = M_SUBJ, .set = NEUTRAL, .a = m.a, .b = m.b + e});
    }
}

/* ---- negation */

/* Length of "instead of", "rather than", 而不是, 而非 at token i, 0 if none. */
static size_t instead_at(const qz_text *t, size_t i)
{
    if ((qz_tok_raw_is(t, i, "instead") && qz_tok_raw_is(t, i + 1, "of")) ||
        (qz_tok_raw_is(t, i, "rather") && qz_tok_raw_is(t, i + 1, "than")))
        return 2;
    size_t l;
    if ((l = qz_han_at(t, i, "而不是")) || (l = qz_han_at(t, i, "而非")))
        return l;
    return 0;
}

static int inside_phrase(const sentence *s, size_t i)
{
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        if (live(m) && shadows(m) && m->a <= i && i < m->b)
            return 1;
    }
    return 0;
}

/* A phrase of the rubric holding a negation ("no need", 没有必要) also denies the claim
 * right after it: "没有必要用解码器", "no need to use a decoder". 没了 (gone: "梯度没了学不动")
 * is a state, not a negation of what follows. */
static void negate_after_phrases(sentence *s)
{
    const qz_text *t = s->t;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *p = &s->m.v[k];
        int cue = 0;
        for (size_t i = p->a; p->kind == M_CLAIM && live(p) && i < p->b && !cue; i++)
            cue = qz_neg_cue_at(t, i) != 0 && !(qz_han_at(t, i, "没了") && !qz_han_at(t, i, "没了解"));
        if (!cue)
            continue;
        size_t target = SIZE_MAX;
        for (size_t j = 0; j < s->m.n; j++) {
            const mention *m = &s->m.v[j];
            if (m->kind == M_CLAIM && live(m) && m->a >= p->b && m->a - p->b <= 2 && m->a < target)
                target = m->a;
        }
        for (size_t i = p->b; target != SIZE_MAX && i < target; i++)
            if (t->t[i].kind == QZ_TK_MARK)
                target = SIZE_MAX;
        for (size_t j = 0; target != SIZE_MAX && j < s->m.n; j++)
            if (s->m.v[j].kind == M_CLAIM && live(&s->m.v[j]) && s->m.v[j].a == target)
                s->m.v[j].neg ^= 1;
    }
}

/* No mark between tokens a and b. */
static int clause_has(const sentence *s, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (s->t->t[i].kind == QZ_TK_MARK)
            return 0;
    return 1;
}

/* Does a purpose open at token i, after a negation: 为了 (不是为了), "for"/"to"/"about"
 * before an -ing word ("not for making the weights sum to 1", "not about making …"), or
 * "to" before a verb ("not to make the weights sum to 1"), maybe after "there", "really",
 * "meant", "just", "used" ("NOT there to make …")? */
static int purpose_at(const qz_text *t, size_t i)
{
    if (qz_han_at(t, i, "为了") || qz_han_at(t, i, "是为了"))
        return 1;
    static const char *const verbs[] = {"make", "turn", "normalize", "normalise", "convert",
                                        "scale", "keep", "prevent", "stop", "avoid", "get",
                                        "speed", "reduce", "give", "ensure", "force", NULL};
    /* "not there to make …", "not really for …", "not meant to …" */
    if (i + 2 < t->n && (qz_tok_raw_is(t, i, "there") || qz_tok_raw_is(t, i, "really") ||
                         qz_tok_raw_is(t, i, "meant") || qz_tok_raw_is(t, i, "just") ||
                         qz_tok_raw_is(t, i, "used")))
        i++;
    for (size_t v = 0; i + 1 < t->n && qz_tok_raw_is(t, i, "to") && verbs[v]; v++)
        if (qz_tok_raw_is(t, i + 1, verbs[v]))
            return 1;
    if (i + 1 >= t->n ||
        !(qz_tok_raw_is(t, i, "for") || qz_tok_raw_is(t, i, "to") || qz_tok_raw_is(t, i, "about")) ||
        t->t[i + 1].kind != QZ_TK_WORD || !t->t[i + 1].raw)
        return 0;
    size_t n = strlen(t->t[i + 1].raw);
    return n > 4 && !strcmp(t->t[i + 1].raw + n - 3, "ing");
}

/* "and" before a verb of its own ("doesn't care about word order and needs no position
 * information"): a second statement of the subject, out of the denial's reach. */
static int and_verb(const qz_text *t, size_t k)
{
    static const char *const verbs[] = {"needs", "need", "is", "are", "has", "have", "uses",
                                        "makes", "gives", "keeps", "requires", "can", "will",
                                        "does", "gets", "lets", "sees", "knows", NULL};
    if (!qz_tok_raw_is(t, k, "and") || k + 1 >= t->n)
        return 0;
    for (size_t v = 0; verbs[v]; v++)
        if (qz_tok_raw_is(t, k + 1, verbs[v]))
            return 1;
    return 0;
}

static void negate(sentence *s)
{
    const qz_text *t = s->t;
    negate_after_phrases(s);
    for (size_t i = s->s0; i < s->s1;) {
        size_t l = qz_neg_cue_at(t, i);
        if (!l || inside_phrase(s, i)) {
            i++;
            continue;
        }
        size_t from = i + l, target = SIZE_MAX;
        for (size_t k = 0; k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            /* an object or a foil is skipped: "不会把分数变成概率" denies 变成概率 */
            if (live(m) && !(m->kind == M_SUBJ && (m->foil || m->object)) && m->a >= from &&
                m->a < target)
                target = m->a;
        }
        size_t reach = 0;   /* in half words: a Latin word counts 2, a Han character 1 */
        for (size_t k = from; target != SIZE_MAX && k < target; k++) {
            reach += t->t[k].kind == QZ_TK_HAN ? 1 : 2;
            /* a pronoun is what is denied: "without it, the softmax …"; a verb of change
             * is: "gates don't change the O(n) path" leaves the path as it is */
            /* …or a condition ends before it: "不压的话 softmax 梯度会趋近 0" */
            if (t->t[k].kind == QZ_TK_MARK || reach > 2 * NEG_REACH ||
                qz_alts_at(t, k, &s->r->pronoun, NULL) || qz_alts_at(t, k, &s->r->change, NULL) ||
                qz_han_at(t, k, "的话") || and_verb(t, k))
                target = SIZE_MAX;
        }
        /* "instead of a chain of recurrent updates": what follows describes the subject
         * contrasted (a foil), it is not denied */
        size_t inst = 0;
        for (size_t j = i >= 2 ? i - 2 : 0; j <= i && !inst; j++)
            if (instead_at(t, j) && j + instead_at(t, j) > i)
                inst = 1;
        for (size_t k = 0; inst && target != SIZE_MAX && k < s->m.n; k++) {
            const mention *f = &s->m.v[k];
            if (f->kind == M_SUBJ && live(f) && f->foil && f->a > i && clause_has(s, i, f->a))
                target = SIZE_MAX;
        }
        /* 不…也…: "even without it, still …" (不除也一样能训练) is a condition, no denial of
         * what it names */
        for (size_t k = 0; target != SIZE_MAX && k < s->m.n; k++)
            if (live(&s->m.v[k]) && s->m.v[k].a == target && s->m.v[k].b < t->n &&
                qz_han_at(t, s->m.v[k].b, "也") && qz_han_at(t, i, "不"))
                target = SIZE_MAX;
        /* "Not O(n) like an RNN, …": a comparison opening the sentence, what it names is
         * the RNN's, not denied (after a subject of its own, "attention is not O(n) like an
         * RNN" denies it of that subject) */
        int own_before = 0;
        for (size_t k = 0; k < s->m.n; k++)
            own_before |= s->m.v[k].kind == M_SUBJ && live(&s->m.v[k]) && !s->m.v[k].foil &&
                          !s->m.v[k].virt && s->m.v[k].a < i;
        for (size_t k = 0; !own_before && target != SIZE_MAX && k < s->m.n; k++) {
            const mention *c = &s->m.v[k];
            if (c->kind == M_CLAIM && live(c) && c->a == target && c->b < s->s1 &&
                (qz_tok_raw_is(t, c->b, "like") ||
                 (qz_tok_raw_is(t, c->b, "as") && (qz_tok_raw_is(t, c->b + 1, "in") ||
                                                   qz_tok_raw_is(t, c->b + 1, "with")))))
                for (size_t j = 0; j < s->m.n; j++)
                    if (s->m.v[j].kind == M_SUBJ && live(&s->m.v[j]) && s->m.v[j].foil &&
                        s->m.v[j].a > c->b && s->m.v[j].a <= c->b + 3)
                        target = SIZE_MAX;
        }
        int prevents = qz_neg_prevents(t, i);
        /* the denial lands on a qualifier (another claim's context word) with a claim a
         * few words after it in the same clause and no subject between: "RNN doesn't
         * connect far words directly" denies "directly" too, "does NOT have to carry
         * information forward through the intermediate states" the states */
        size_t qual_end = 0, then = SIZE_MAX;
        for (size_t k = 0; target != SIZE_MAX && k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (live(m) && m->a == target && m->kind != M_WITH)
                qual_end = SIZE_MAX;
            else if (live(m) && m->a == target && qual_end != SIZE_MAX && m->b > qual_end)
                qual_end = m->b;
        }
        for (size_t k = 0; qual_end && qual_end != SIZE_MAX && k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind == M_CLAIM && live(m) && m->a >= qual_end && m->a <= qual_end + 4 &&
                m->a < then && clause_has(s, qual_end, m->a))
                then = m->a;
        }
        for (size_t k = qual_end; then != SIZE_MAX && k < then; k++)
            if (and_verb(t, k) || qz_alts_at(t, k, &s->r->pronoun, NULL))
                then = SIZE_MAX;
        for (size_t k = 0; then != SIZE_MAX && k < s->m.n; k++)
            if (s->m.v[k].kind == M_SUBJ && live(&s->m.v[k]) && !s->m.v[k].virt &&
                s->m.v[k].a >= qual_end && s->m.v[k].a < then)
                then = SIZE_MAX;
        for (size_t k = 0; target != SIZE_MAX && k < s->m.n; k++)
            if (live(&s->m.v[k]) && (s->m.v[k].a == target ||
                                     (s->m.v[k].a == then && s->m.v[k].kind == M_CLAIM))) {
                s->m.v[k].neg ^= 1;
                s->m.v[k].prevented |= prevents;
            }
        /* "doesn't have to travel through n time steps": the phrases of one claim that
         * follow the one denied, a word apart at most, are denied with it, also across
         * another claim's phrases between them ("don't have to go through n sequential
         * steps": n and sequential are the RNN idea's words) */
        for (size_t k = 0; target != SIZE_MAX && k < s->m.n; k++) {
            const mention *d = &s->m.v[k];
            if (d->kind != M_CLAIM || !live(d) || d->a != target)
                continue;
            size_t end = d->b;
            for (int grew = 1; grew;) {
                grew = 0;
                for (size_t j = 0; j < s->m.n; j++) {
                    mention *m = &s->m.v[j];
                    if (m->kind != M_CLAIM || !live(m) || m->a < d->b || m->a > end + 1 ||
                        ((m->neg == d->neg || m->set != d->set || m->pat != d->pat) &&
                         m->b <= end) ||
                        !clause_has(s, d->b, m->a) || m->a == target)
                        continue;
                    /* through the other claims' phrases; only the denied claim's are
                     * denied with it */
                    int same = m->set == d->set && m->pat == d->pat;
                    grew |= (same && m->neg != d->neg) || m->b > end;
                    if (same) {
                        m->neg = d->neg;
                        m->prevented |= prevents;
                        /* the same words read for another claim are denied alike: "words
                         * cannot see every other word directly" denies the RNN's
                         * "directly" as well as the attention's */
                        for (size_t o = 0; o < s->m.n; o++)
                            if (s->m.v[o].kind == M_CLAIM && live(&s->m.v[o]) &&
                                s->m.v[o].a == m->a && s->m.v[o].b == m->b) {
                                s->m.v[o].neg = d->neg;
                                s->m.v[o].prevented |= prevents;
                            }
                    }
                    end = m->b > end ? m->b : end;
                }
            }
        }
        /* 不随…增加: what 不 denies through 随 ("along with") is the change the clause
         * ends on ("自注意力的路径长度不随距离增加" says it does not grow) */
        size_t change = SIZE_MAX;
        for (size_t k = 0; qz_han_at(t, from, "随") && k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind == M_DIR && live(m) && m->a > from && m->a < change &&
                m->a - from <= 2 * NEG_REACH && clause_has(s, from, m->a))
                change = m->a;
        }
        if (change == target)
            change = SIZE_MAX;   /* denied already */
        for (size_t k = 0; change != SIZE_MAX && k < s->m.n; k++)
            if (s->m.v[k].kind == M_DIR && live(&s->m.v[k]) && s->m.v[k].a == change)
                s->m.v[k].neg ^= 1;
        /* a purpose denied is denied whole, every claim of it up to the end of its clause
         * ("不是为了归一化成概率，是为了控制方差": 归一化 and 成概率 alike) */
        if (target != SIZE_MAX && purpose_at(t, from)) {
            size_t end = from;
            while (end < s->s1 && t->t[end].kind != QZ_TK_MARK)
                end++;
            for (size_t k = 0; k < s->m.n; k++) {
                mention *m = &s->m.v[k];
                if (m->kind == M_CLAIM && live(m) && m->a > target && m->a < end && !m->neg)
                    m->neg = 1;
            }
        }
        i = from;
    }
}

/* ---- subjects and their groups */

/* Does an alternative of a end at token `end`, no more than `gap` tokens before it? */
static int ends_before(const sentence *s, const qz_alts *a, size_t end, size_t gap)
{
    for (size_t j = s->s0; j < end; j++) {
        size_t len = qz_alts_at(s->t, j, a, NULL);
        if (len && j + len <= end && end - (j + len) <= gap)
            return 1;
    }
    return 0;
}

static int starts_after(const sentence *s, const qz_alts *a, size_t start, size_t gap)
{
    for (size_t j = start; j < s->s1 && j <= start + gap; j++)
        if (qz_alts_at(s->t, j, a, NULL))
            return 1;
    return 0;
}

static int is_glue(const sentence *s, size_t from, size_t to)
{
    for (size_t k = from; k < to;) {
        size_t len = qz_alts_at(s->t, k, &s->r->glue, NULL);
        if (!len)
            return 0;
        k += len;
    }
    return 1;
}

static int claimish(const mention *m);

/* "RNN 得一步步传 hidden state，自注意力是直接连过去的": a group that ends a clause
 * whose claim (or, in Chinese, whose words) came before it, a comma, and a subject whose
 * own claim follows are two statements, not one group of subjects. */
static int clause_ends_with(const sentence *s, long run, const mention *next)
{
    size_t a = (size_t)s->run_first[run], b = (size_t)s->run_end[run];
    int comma = 0;
    for (size_t i = b; i < next->a; i++)
        comma |= qz_tok_is(s->t, i, ",") || qz_tok_is(s->t, i, "，");
    if (!comma)
        return 0;
    size_t c0 = s->s0;
    for (size_t i = s->s0; i < a; i++)
        if (s->t->t[i].kind == QZ_TK_MARK)
            c0 = i + 1;
    int before = 0, after = 0;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *x = &s->m.v[k];
        if (!claimish(x))
            continue;
        before |= x->a >= c0 && x->b <= a;
        after |= x->a >= next->b && (x->a < s->s1);
    }
    /* "其他词拿不到梯度，模型学不动": a group denied right after the words of its clause
     * is their object, and the clause ends with it */
    int denied = 0;
    for (size_t k = 0; k < s->m.n; k++)
        denied |= s->m.v[k].kind == M_SUBJ && s->m.v[k].run == run && s->m.v[k].neg;
    before |= denied && a > c0 && s->t->t[a - 1].kind == QZ_TK_HAN;
    return before && after;
}

/* Subjects next to each other (only glue between) form one group. */
static int group_subjects(sentence *s)
{
    s->n_runs = 0;
    size_t cap = s->m.n + 1;
    s->run_first = malloc(cap * sizeof *s->run_first);
    s->run_end = malloc(cap * sizeof *s->run_end);
    s->consumed = calloc(cap, sizeof *s->consumed);
    s->run_foil = calloc(cap, 1);
    if (!s->run_first || !s->run_end || !s->consumed || !s->run_foil)
        return -1;
    /* the carried group first */
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].virt) {
            if (!s->n_runs) {
                s->run_first[0] = (long)s->s0;
                s->run_end[0] = (long)s->s0;
                s->n_runs = 1;
            }
            s->m.v[k].run = 0;
        }
    long carried = s->n_runs ? 0 : -1;
    for (size_t pos = s->s0; pos < s->s1; pos++) {
        for (size_t k = 0; k < s->m.n; k++) {
            mention *m = &s->m.v[k];
            if (m->kind != M_SUBJ || !live(m) || m->object || m->a != pos)
                continue;
            long cur = (long)s->n_runs - 1;
            /* "unlike K and V": what is listed with a foil is one too */
            if (cur >= 0 && cur != carried && s->run_foil[cur] && !m->foil &&
                is_glue(s, (size_t)s->run_end[cur], m->a))
                m->foil = 1;
            /* a foil makes a group of its own */
            int joins = cur >= 0 && cur != carried && s->run_foil[cur] == m->foil &&
                        ((long)m->a <= s->run_end[cur] ||
                         (!m->foil && is_glue(s, (size_t)s->run_end[cur], m->a) &&
                          !clause_ends_with(s, cur, m)));
            if (!joins) {
                cur = (long)s->n_runs++;
                s->run_first[cur] = (long)m->a;
                s->run_end[cur] = (long)m->b;
                s->run_foil[cur] = m->foil;
            }
            if ((long)m->b > s->run_end[cur])
                s->run_end[cur] = (long)m->b;
            m->run = cur;
        }
    }
    return 0;
}

static int subject_at(const sentence *s, const mention *m);

/* Is token a in the clause after "instead of", "rather than", 而不是 (no mark between,
 * INSTEAD_REACH tokens at most)? A subject there is what the statement is contrasted
 * with: "one attention step instead of a chain of recurrent updates". */
static int after_instead(const sentence *s, size_t a)
{
    for (size_t i = a; i > s->s0 && a - i < INSTEAD_REACH;) {
        i--;
        if (s->t->t[i].kind == QZ_TK_MARK)
            return 0;
        size_t l = instead_at(s->t, i);
        if (l && i + l <= a)
            return 1;
    }
    return 0;
}

/* 查询 (and 询问, 提问, 发问) said after the decoder is what the decoder does, not the
 * queries named: "让 decoder 在生成时“查询”输入序列" is no claim that Q comes from the
 * source. True when a live claim ends a few tokens before m in its clause, with no 的
 * ("解码器的查询" is the noun) and no mark but quotes between, and another starts right
 * after it or a word of ability or purpose stands before it (能查询, 用来查询) ("decoder
 * 提问，encoder 回答" names the queries' side). */
static int han_verb_subject(const sentence *s, const mention *m)
{
    static const char *const verbs[] = {"查询", "询问", "提问", "发问"};
    int verb = 0;
    for (size_t v = 0; v < sizeof verbs / sizeof *verbs && !verb; v++)
        verb = qz_han_at(s->t, m->a, verbs[v]) == m->b - m->a;
    if (!verb)
        return 0;
    /* it has an object: a claim right after it ("查询输入序列"), not a mark ("decoder 提问，") */
    int object = 0;
    for (size_t j = m->b; j < s->s1 && j <= m->b + 1 && !object; j++) {
        const qz_tok *k = &s->t->t[j];
        if (k->kind == QZ_TK_MARK && strcmp(k->s, "“") && strcmp(k->s, "”") && strcmp(k->s, "\""))
            break;
        for (size_t c = 0; c < s->m.n && !object; c++)
            object = s->m.v[c].kind == M_CLAIM && live(&s->m.v[c]) && s->m.v[c].a == j;
    }
    /* or a word of ability or purpose just before it (能查询, 去查询, 用来查询): a verb */
    static const char *const modal[] = {"能", "去", "来", "会", "要", "可以", "可", "用来", "以便",
                                        "便于"};
    for (size_t v = 0; v < sizeof modal / sizeof *modal && !object; v++)
        for (size_t back = 1; back <= 2 && back <= m->a - s->s0 && !object; back++)
            object = qz_han_at(s->t, m->a - back, modal[v]) == back;
    if (!object)
        return 0;
    for (size_t j = m->a; j-- > s->s0 && m->a - j <= 8;) {
        const qz_tok *k = &s->t->t[j];
        if (k->kind == QZ_TK_MARK && strcmp(k->s, "“") && strcmp(k->s, "”") && strcmp(k->s, "\""))
            return 0;
        if (k->kind == QZ_TK_HAN && !strcmp(k->s, "的"))
            return 0;
        for (size_t c = 0; c < s->m.n; c++)
            if (s->m.v[c].kind == M_CLAIM && live(&s->m.v[c]) && s->m.v[c].b == j + 1)
                return 1;
    }
    return 0;
}

/* "Without (the) scaling nothing goes wrong": a subject after a "without" that opens the
 * clause, with a claim right after it, is the condition the claim is said under. */
static int opening_without(const sentence *s, const mention *m)
{
    size_t c = m->a - 1;
    while (c > s->s0 && (qz_tok_raw_is(s->t, c, "the") || qz_tok_raw_is(s->t, c, "any")))
        c--;
    if (!qz_tok_raw_is(s->t, c, "without") ||
        (c > s->s0 && s->t->t[c - 1].kind != QZ_TK_MARK))
        return 0;
    for (size_t k = 0; k < s->m.n; k++)
        if ((s->m.v[k].kind == M_CLAIM || s->m.v[k].kind == M_DIR) && !s->m.v[k].dead &&
            s->m.v[k].a == m->b)
            return 1;
    return 0;
}

/* "No scaling => very sharp softmax", "without scaling: …": a subject after "no" or
 * "without" and before an arrow or a colon is the condition the rest is said under, not
 * what it is said of; not one whose denial is itself a claim ("No decoder: …"). */
static int condition_head(const sentence *s, const mention *m)
{
    if (m->a > s->s0 && m->b < s->s1 && s->t->t[m->b].kind != QZ_TK_MARK &&
        opening_without(s, m))
        return 1;
    if (m->a <= s->s0 || m->b >= s->s1 || s->t->t[m->b].kind != QZ_TK_MARK)
        return 0;
    if (!qz_tok_raw_is(s->t, m->a - 1, "no") && !qz_tok_raw_is(s->t, m->a - 1, "without"))
        return 0;
    if (m->set != NEUTRAL) {   /* "No decoder: …" states the answer itself (a bare claim) */
        const qz_cpattern *pt = pattern(s->r, m->set, m->pat);
        for (size_t c = 0; c < pt->n_claims; c++)
            if (pt->claims[c].bare)
                return 0;
    }
    static const char *const marks[] = {":", "：", "→", "->", "=>", "⇒"};
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
        if (qz_tok_raw_is(s->t, m->b, marks[i]))
            return 1;
    return 0;
}

/* A claim between "from" and "to" with a verb of change beside them is the state before
 * the change, not said of the subject: "自注意力把依赖距离从 O(n) 缩短到常数", "cuts the
 * path length from O(n) down to O(1)". Without a verb of change "from … to" is where
 * something goes ("K and V from the encoder to the decoder"). */
static void mark_states_before(sentence *s)
{
    static const char *const verbs[] = {"reduce", "reduces", "reduced", "reducing", "cut", "cuts",
                                        "shorten", "shortens", "shortened", "drop", "drops",
                                        "dropped", "lower", "lowers", "lowered", "bring", "brings",
                                        "brought", "decrease", "decreases", "decreased", "shrink",
                                        "shrinks", "shrank", "goes", "went", "improves",
                                        "improved", "缩", "降", "减", "压", "变", NULL};
    for (size_t k = 0; k < s->m.n; k++) {
        mention *m = &s->m.v[k];
        if (m->kind != M_CLAIM || m->dead || m->a <= s->s0 ||
            !(qz_tok_raw_is(s->t, m->a - 1, "从") || qz_tok_raw_is(s->t, m->a - 1, "from")))
            continue;
        size_t to = 0;
        for (size_t j = m->b; j < s->s1 && j < m->b + 4 && !to; j++) {
            if (s->t->t[j].kind == QZ_TK_MARK)
                break;
            if (qz_tok_raw_is(s->t, j, "到") || qz_tok_raw_is(s->t, j, "to"))
                to = j;
        }
        if (!to)
            continue;
        size_t c0 = s->s0;   /* the verb in the clause, up to the "to" */
        for (size_t j = s->s0; j < m->a; j++)
            if (s->t->t[j].kind == QZ_TK_MARK)
                c0 = j + 1;
        int change = 0;
        for (size_t j = c0; j < to && !change; j++)
            for (size_t v = 0; verbs[v] && !change; v++)
                change = qz_tok_raw_is(s->t, j, verbs[v]);
        if (change)
            m->dead = 1;
    }
}

/* X 不 X at token a: a claim that starts with the character repeated after 不 (需不需要). */
static int x_not_x(const sentence *s, size_t a)
{
    return a >= s->s0 + 2 && qz_tok_raw_is(s->t, a - 1, "不") &&
           !strcmp(s->t->t[a - 2].raw, s->t->t[a].raw) && s->t->t[a].kind == QZ_TK_HAN;
}

/* A side named as a time ("K and V stay fixed during decoding", "while decoding"): when,
 * not where from. */
static void mark_times(sentence *s)
{
    for (size_t k = 0; k < s->m.n; k++) {
        mention *m = &s->m.v[k];
        size_t a = m->a;
        while (a > s->s0 && qz_tok_raw_is(s->t, a - 1, "the"))
            a--;
        if (m->kind == M_CLAIM && !m->dead && a > s->s0 &&
            (qz_tok_raw_is(s->t, a - 1, "during") || qz_tok_raw_is(s->t, a - 1, "when") ||
             qz_tok_raw_is(s->t, a - 1, "while") || qz_tok_raw_is(s->t, a - 1, "throughout")) &&
            (qz_tok_raw_is(s->t, m->a, "decoding") || qz_tok_raw_is(s->t, m->a, "encoding") ||
             qz_tok_raw_is(s->t, m->a, "generation") || qz_tok_raw_is(s->t, m->a, "inference") ||
             qz_tok_raw_is(s->t, m->a, "training")))
            m->dead = 1;
    }
}

/* A question answered by a bare yes or no after it ("Need a decoder? No.", 要不要
 * decoder？不要。): its claims are said, or denied. In X 不 X the 不 is the question's: the
 * claim on the second X is the one answered, and one that starts at that 不 ("不要
 * decoder") is what a "no" says. */
static void answer_reply(sentence *s, int yes)
{
    for (size_t k = 0; k < s->m.n; k++) {
        mention *m = &s->m.v[k];
        if (m->kind != M_CLAIM || !live(m))
            continue;
        if (x_not_x(s, m->a + 1) && qz_tok_raw_is(s->t, m->a, "不")) {
            m->neg = 0;
            m->dead = yes;
            continue;
        }
        if (x_not_x(s, m->a))
            m->neg = 0;
        m->neg ^= !yes;
        m->refused = !yes;
    }
}

/* A claim asked, not said: after 是否, whether, or inside 需不需要, 要不要, 是不是 (the
 * question copied as a heading: "（1）是否需要 Decoder：不需要"). */
static void mark_asked(sentence *s)
{
    for (size_t k = 0; k < s->m.n; k++) {
        mention *m = &s->m.v[k];
        if (m->kind != M_CLAIM || m->dead || m->a <= s->s0)
            continue;
        size_t a = m->a;
        int asked = qz_tok_raw_is(s->t, a - 1, "whether") ||
                    (a >= s->s0 + 2 && qz_tok_raw_is(s->t, a - 2, "是") && qz_tok_raw_is(s->t, a - 1, "否"));
        asked |= x_not_x(s, a);
        if (asked)
            m->dead = 1;
    }
}

static void mark_foils(sentence *s)
{
    const qz_rubric_c *r = s->r;
    for (size_t k = 0; k < s->m.n; k++) {
        mention *m = &s->m.v[k];
        if (m->kind != M_SUBJ || !live(m))
            continue;
        if (m->set == NEUTRAL)   /* "the encoder layers": a noun of the claim before */
            for (size_t j = 0; j < s->m.n && !m->dead; j++)
                m->dead = claimish(&s->m.v[j]) && s->m.v[j].b == m->a;
        m->foil = ends_before(s, &r->foil_before, m->a, FOIL_REACH) ||
                  starts_after(s, &r->foil_after, m->b, 2) || after_instead(s, m->a);
        m->object = ends_before(s, &r->object, m->a, 0) || han_verb_subject(s, m) ||
                    condition_head(s, m);
    }
}

/* ---- who a claim is said of */

static int claimish(const mention *m)
{
    return (m->kind == M_CLAIM || m->kind == M_DIR) && live(m);
}

static int context_holds(const sentence *s, int set, size_t p, size_t c, size_t at);

/* Forward when the sentence starts with a claim, said of no pronoun, no object (把) and
 * nothing carried. A claim whose `with` or `unless` fails there is no claim: "The encoder
 * is enough, the decoder …" opens with the subject "encoder", not with the claim
 * "encoder" that only "(1) encoder" makes. */
static void choose_order(sentence *s)
{
    const mention *first = NULL;
    int carried = 0;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        carried |= m->virt;
        if (!live(m) || (m->kind != M_CLAIM && !(m->kind == M_SUBJ && !m->foil && !m->object)))
            continue;
        if (m->kind == M_CLAIM && !context_holds(s, m->set, m->pat, m->claim, m->a))
            continue;
        if (!first || m->a < first->a || (m->a == first->a && m->kind == M_CLAIM))
            first = m;
    }
    s->forward = 0;
    if (!first || first->kind != M_CLAIM || carried)
        return;
    size_t clause = s->s0;   /* "我理解是这样的，decoder 那边…": a clause before says nothing */
    for (size_t j = s->s0; j < first->a; j++)
        if (s->t->t[j].kind == QZ_TK_MARK && (qz_tok_is(s->t, j, ",") || qz_tok_is(s->t, j, "、")))
            clause = j + 1;
    for (size_t j = clause; j < first->a; j++) {
        /* "the half that writes the output asks the questions": a relative "that" or
         * "which" after a word of the clause opens no subject of its own */
        if (j > clause && s->t->t[j - 1].kind != QZ_TK_MARK &&
            (qz_tok_is(s->t, j, "that") || qz_tok_is(s->t, j, "which") || qz_tok_is(s->t, j, "who")))
            continue;
        if (qz_alts_at(s->t, j, &s->r->pronoun, NULL) || qz_alts_at(s->t, j, &s->r->object, NULL))
            return;   /* "it …", "把分数除小": the subject is unsaid, not after */
    }
    s->forward = 1;
}

/* Does the clause (between commas) holding token a read forward: its first phrase a
 * claim, no pronoun or object before it, and, in the sentence's first clause, nothing
 * carried? "The decoder's query vectors attend over the encoder's keys, i.e. Q from the
 * decoder, K and V from the encoder": the first clause forward, the others not. */
static int clause_forward(const sentence *s, size_t a)
{
    size_t c0 = s->s0, c1 = s->s1;
    for (size_t j = s->s0; j < a; j++)
        if (qz_tok_is(s->t, j, ","))
            c0 = j + 1;
    for (size_t j = a; j < s->s1 && c1 == s->s1; j++)
        if (qz_tok_is(s->t, j, ","))
            c1 = j;
    if (c0 == s->s0)
        return s->forward;
    const mention *first = NULL;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        if (!live(m) || m->a < c0 || m->a >= c1 ||
            (m->kind != M_CLAIM && !(m->kind == M_SUBJ && !m->foil && !m->object && m->set != NEUTRAL)))
            continue;
        if (!first || m->a < first->a || (m->a == first->a && m->kind == M_CLAIM))
            first = m;
    }
    if (!first)
        return s->forward;
    if (first->kind != M_CLAIM)
        return 0;
    int subject_after = 0;   /* a clause without a subject of its own reads as the sentence */
    for (size_t k = 0; k < s->m.n && !subject_after; k++) {
        const mention *m = &s->m.v[k];
        subject_after = live(m) && m->kind == M_SUBJ && !m->foil && !m->object && m->set != NEUTRAL &&
                        m->a > first->a && m->a < c1;
    }
    if (!subject_after)
        return s->forward;
    for (size_t k = 0; k < s->m.n; k++)   /* "that's how the decoder asks …" */
        if (live(&s->m.v[k]) && s->m.v[k].kind == M_SUBJ && s->m.v[k].a == first->b &&
            !s->m.v[k].foil && !s->m.v[k].object && s->m.v[k].set != NEUTRAL)
            return 1;
    for (size_t j = c0; j < first->a; j++)
        if (qz_alts_at(s->t, j, &s->r->pronoun, NULL) || qz_alts_at(s->t, j, &s->r->object, NULL))
            return 0;
    return 1;
}

/* Is group r only nouns of none of the statements ("layer")? */
static int neutral_run(const sentence *s, long r)
{
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_SUBJ && s->m.v[k].run == r && s->m.v[k].set != NEUTRAL)
            return 0;
    return 1;
}

/* A neutral run that only distributes ("自注意力每层的计算量", "costs O(n) per layer"):
 * 每 or per before it; what follows it is not said of it. */
static int per_run(const sentence *s, long r)
{
    size_t a = (size_t)s->run_first[r];
    return a > 0 && (qz_tok_raw_is(s->t, a - 1, "每") || qz_tok_raw_is(s->t, a - 1, "per"));
}

static int claim_between(const sentence *s, size_t from, size_t to)
{
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        if ((m->kind == M_CLAIM || m->kind == M_DIR) && live(m) && m->a >= from && m->b <= to)
            return 1;
    }
    return 0;
}

/* The nearest group of subjects before token a (skip_consumed: not one a claim before
 * took as its own). A foil in the middle ("Self-attention, unlike RNNs, connects
 * directly") is passed over; one that opens a statement of its own after the subject
 * before has had its claim ("…距离约为 1，不像 RNN 那样要经过更多时间步") owns it. */
static long run_before(const sentence *s, size_t a, int skip_consumed)
{
    long best = -1;
    for (size_t r = 0; r < s->n_runs; r++)
        if (s->run_end[r] <= (long)a && !(skip_consumed && s->consumed[r]) &&
            (best < 0 || s->run_end[r] >= s->run_end[best]))
            best = (long)r;
    /* (a layer named after "from" is where the claim's subject comes from: "K, V from
     * the last layer of the encoder") */
    if (best >= 0 && neutral_run(s, best) &&
        (origin_before(s, (size_t)s->run_first[best]) || per_run(s, best) ||
         !((long)a == s->run_end[best] ||
          ((long)a == s->run_end[best] + 1 && qz_tok_raw_is(s->t, (size_t)s->run_end[best], "of"))))) {
        long prev = -1;   /* "within a single layer so the distance is 1": not the layer's */
        for (long r = best - 1; r >= 0 && prev < 0; r--)
            if (!neutral_run(s, r) && !(skip_consumed && s->consumed[r]))
                prev = r;
        return prev;
    }
    if (best > 0 && s->run_foil[best]) {
        /* "自注意力不像 RNN 那样一步步传": what X does is X's, denied of the subject */
        size_t f = (size_t)s->run_first[best], e = (size_t)s->run_end[best];
        int unlike_same = (qz_han_at(s->t, e, "那样") == 2 || qz_han_at(s->t, e, "一样") == 2) &&
                          ((f >= 2 && qz_han_at(s->t, f - 2, "不像") == 2) ||
                           (f >= 3 && qz_han_at(s->t, f - 3, "不是像") == 3));
        if (unlike_same)
            return best;
        long prev = -1;
        for (long r = best - 1; r >= 0 && prev < 0; r--)
            if (!s->run_foil[r])
                prev = r;
        /* "it" after the foil stands for the subject before it: "The encoder is enough,
         * but unlike in BERT it has to be causally masked" (a relative "which" after the
         * foil is the foil's: "unlike an RNN which relays information step by step") */
        int pronoun = 0;
        for (size_t j = (size_t)s->run_end[best]; j < a && !pronoun; j++)
            pronoun = qz_tok_raw_is(s->t, j, "it") || qz_tok_raw_is(s->t, j, "它");
        if (prev >= 0 &&
            (pronoun || !claim_between(s, (size_t)s->run_end[prev], (size_t)s->run_first[best])))
            return prev;
    }
    return best;
}

/* Another claim (not a word of direction) between tokens from and to: then a claim
 * after it is its object ("it aligns target words with source words", "K 和 V 来自编码器，
 * 用来对齐源句和目标句"), not said of the subjects before both. */
static long run_after(const sentence *s, size_t b)
{
    for (size_t r = 0; r < s->n_runs; r++)
        if (s->run_first[r] >= (long)b && !s->consumed[r] && !neutral_run(s, (long)r))
            return (long)r;   /* not a noun of none of the statements ("层") */
    return -1;
}

static int comma_at(const sentence *s, size_t j)
{
    return qz_tok_is(s->t, j, ",") || qz_tok_is(s->t, j, "，");
}

/* Is group r, after token b with a comma between (or with "=" or a colon right after
 * it), followed in its own clause by a claim of its own? Then a claim before is not its:
 * "…so its 1 hop, in rnn its as many hops as tokens in between". */
static int own_claim_after(const sentence *s, size_t b, long r)
{
    int comma = 0;
    for (size_t j = b; j < (size_t)s->run_first[r] && !comma; j++)
        comma = comma_at(s, j);
    /* …or, comma or not, given its own right after it: "f(enc_out): attention(q=dec_x)",
     * "encoder output Q: decoder" (an "=" or a colon, then a claim in its clause) */
    size_t e0 = (size_t)s->run_end[r];
    int assigned = e0 < s->s1 && (qz_tok_is(s->t, e0, "=") || qz_tok_is(s->t, e0, ":") ||
                                  qz_tok_is(s->t, e0, "：") || qz_tok_is(s->t, e0, "＝"));
    if (!comma && !assigned)
        return 0;
    /* the group is the subject of a predicate of its own: "Enough, a decoder is for
     * generating sequences" (a copula right after it), 够，decoder 是生成序列用的 */
    static const char *const copulas[] = {"is", "are", "was", "were", "是", "只是", "就是",
                                          "主要是", NULL};
    size_t e = (size_t)s->run_end[r];
    for (size_t w = 0; comma && copulas[w] && e < s->s1; w++)
        if (qz_tok_raw_is(s->t, e, copulas[w]) || qz_tok_is(s->t, e, copulas[w]))
            return 1;
    size_t c1 = s->s1;
    for (size_t j = (size_t)s->run_end[r]; j < s->s1 && c1 == s->s1; j++)
        if (comma_at(s, j))
            c1 = j;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *x = &s->m.v[k];
        if (x->kind == M_CLAIM && live(x) && x->a >= (size_t)s->run_end[r] && x->b <= c1 &&
            context_holds(s, x->set, x->pat, x->claim, x->a))
            return 1;
    }
    return 0;
}


/* Do the claims found where x is and those found where of is share a pattern? */
static int same_statement(const sentence *s, const mention *x, const mention *of)
{
    for (size_t i = 0; i < s->m.n; i++) {
        const mention *y = &s->m.v[i];
        if (y->kind != M_CLAIM || y->a != x->a || y->b != x->b)
            continue;
        for (size_t j = 0; j < s->m.n; j++) {
            const mention *z = &s->m.v[j];
            if (z->kind == M_CLAIM && z->a == of->a && z->b == of->b && z->set == y->set &&
                z->pat == y->pat)
                return 1;
        }
    }
    return 0;
}

/* Does group r hold a subject of a statement claimed at m's place? */
static int run_fits(const sentence *s, long r, const mention *m)
{
    for (size_t i = 0; i < s->m.n; i++) {
        const mention *y = &s->m.v[i];
        if (y->kind != M_CLAIM || y->a != m->a || y->b != m->b)
            continue;
        if (!pattern(s->r, y->set, y->pat)->subject.n)
            continue;   /* a claim of any subject takes no group as its own */
        for (size_t j = 0; j < s->m.n; j++) {
            const mention *x = &s->m.v[j];
            if (x->kind == M_SUBJ && x->run == r && x->set == y->set && x->pat == y->pat)
                return 1;
        }
    }
    return 0;
}

static int noun_claim_between(const sentence *s, size_t from, size_t to, const mention *of)
{
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *x = &s->m.v[k];
        if (x->kind != M_CLAIM || !live(x) || x->a < from || x->b > to ||
            !context_holds(s, x->set, x->pat, x->claim, x->a) ||
            ends_before(s, &s->r->destination, x->a, 0))
            continue;   /* a claim whose `with` or `unless` fails, or an object ("根据 CLS
                         * 生成"), says nothing here */
        /* nor one denied that ends its own clause: "Self attention no relay, distance is
         * 1" (what follows the comma goes on about the subject) */
        if (x->neg && !clause_has(s, x->b, to))
            continue;
        /* claims of one statement go together: "任何两个词都是直接打交道"; a claim of any
         * subject ("Q is read from the decoder") is no statement of the subject before */
        if (!same_statement(s, x, of) && pattern(s->r, x->set, x->pat)->subject.n &&
            !(x->set == 1 && qz_rubric_c_misc(s->r, pattern(s->r, 1, x->pat)->owner).off_point))
            return 1;
    }
    return 0;
}

/* A group of subjects starting at token b, or -1. */
static long run_at(const sentence *s, size_t b)
{
    for (size_t r = 0; r < s->n_runs; r++)
        if (s->run_first[r] == (long)b && s->run_end[r] > s->run_first[r])
            return (long)r;
    return -1;
}

/* Is the claim m a possessive, the owner of what follows it: "the encoder's keys and
 * values", 编码器的 K 和 V (the 的 was dropped before K), "uses the decoder's queries"? */
static int possessive(const sentence *s, const mention *m)
{
    if (m->kind != M_CLAIM || m->b <= m->a || m->b >= s->t->n)
        return 0;
    const char *w = s->t->t[m->b - 1].raw;
    size_t n = strlen(w);
    return s->t->t[m->b].owned || (n > 2 && !strcmp(w + n - 2, "'s")) ||
           (n > 4 && !strcmp(w + n - 4, "’s"));
}

/* Does a possessive claim other than m end right before token at? */
static int possessed(const sentence *s, const mention *m, size_t at)
{
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *x = &s->m.v[k];
        if (x != m && live(x) && x->b == at && possessive(s, x))
            return 1;
    }
    return 0;
}

/* A word of direction, a possessive or an English participle right before its noun:
 * "large dot products", "the encoder's keys", "vanishing gradients", "saturated
 * softmax". */
static int attributive(const sentence *s, const mention *m)
{
    if (m->kind == M_DIR || possessive(s, m))
        return 1;
    const char *w = s->t->t[m->b - 1].raw;
    size_t n = strlen(w);
    return s->t->t[m->b - 1].kind == QZ_TK_WORD &&
           ((n > 4 && !strcmp(w + n - 3, "ing")) || (n > 3 && !strcmp(w + n - 2, "ed")));
}

/* Is a claim found at m's place one of a statement whose subject may go unsaid? */
static int implied_here(const sentence *s, const mention *m)
{
    const qz_cpattern *p = pattern(s->r, m->set, m->pat);
    return !p->subject.n || p->subject_implied;
}

/* A claim that is the object of a verb or of a word of destination before it ("把译文…
 * 对齐", "sends a query into the source"): no statement of a subject. */
static int object_claim(const sentence *s, const mention *m)
{
    if (ends_before(s, &s->r->object, m->a, 0) ||
        (m->kind == M_CLAIM && ends_before(s, &s->r->destination, m->a, 0) && !implied_here(s, m)))
        return 1;
    /* the second of two things connected ("connects the encoder and the decoder",
     * 连接编码器和解码器, "between encoder and decoder"): an object too, no side's source */
    static const char *const connects[] = {"connects", "connect", "connecting", "links", "link",
                                           "linking", "bridges", "between", "连接", "联结", "连通",
                                           "沟通", NULL};
    for (size_t j = s->s0; m->kind == M_CLAIM && j < m->a; j++) {
        size_t g = qz_alts_at(s->t, j, &s->r->glue, NULL);
        if (!g || j + g != m->a)
            continue;
        for (size_t k = 0; k < s->m.n; k++) {
            const mention *x = &s->m.v[k];
            if (x->kind != M_CLAIM || !live(x) || x->b != j || x->a == s->s0)
                continue;
            size_t w = x->a - 1;
            if (w > s->s0 && (qz_tok_raw_is(s->t, w, "the") || qz_tok_raw_is(s->t, w, "an") ||
                              qz_tok_raw_is(s->t, w, "a")))
                w--;
            for (size_t c = 0; connects[c]; c++)
                if (qz_tok_raw_is(s->t, w, connects[c]) || qz_tok_is(s->t, w, connects[c]) ||
                    (w > s->s0 && qz_han_at(s->t, w - 1, connects[c]) == 2))
                    return 1;
        }
    }
    return 0;
}

/* The group of the first foil after token b in its clause, or -1. */
static long foil_after(const sentence *s, size_t b)
{
    long best = -1;
    size_t at = SIZE_MAX;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *x = &s->m.v[k];
        if (x->kind == M_SUBJ && live(x) && x->foil && x->run >= 0 && x->a >= b && x->a < at &&
            clause_has(s, b, x->a)) {
            at = x->a;
            best = x->run;
        }
    }
    return best;
}

/* The group of a subject inside claim m ("one attention step"), or -1. */
static long run_inside(const sentence *s, const mention *m)
{
    if (m->kind != M_CLAIM)
        return -1;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *x = &s->m.v[k];
        if (x->kind == M_SUBJ && live(x) && !x->object && x->set != NEUTRAL &&
            x->run >= 0 && x->a >= m->a && x->b <= m->b && x->b - x->a < m->b - m->a)
            return x->run;
    }
    return -1;
}

/* Does the sentence hold two indefinites each right before a claim, the two claims not
 * the same words ("one the encoder, the other the decoder", 一个编码器、一个解码器; not
 * "一个时间步一个时间步")? */
static int indefinite_pair(const sentence *s)
{
    size_t n = 0, first_a = 0, first_b = 0;
    for (size_t i = s->s0; i < s->s1;) {
        size_t l = qz_alts_at(s->t, i, &s->r->indefinite, NULL);
        if (!l) {
            i++;
            continue;
        }
        for (size_t k = 0; k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind != M_CLAIM || !live(m) || m->a != i + l)
                continue;
            int same = n && m->b - m->a == first_b - first_a;
            for (size_t j = 0; same && j < m->b - m->a; j++)
                same = !strcmp(s->t->t[m->a + j].s, s->t->t[first_a + j].s);
            if (n && !same)
                return 1;
            if (!n) {
                n = 1;
                first_a = m->a;
                first_b = m->b;
            }
            break;
        }
        i += l;
    }
    return 0;
}

static int is_open(const sentence *s, size_t i);
static int is_close(const sentence *s, size_t i);

/* Does token a open a parenthesis after token from that names no subject of the rubric,
 * only a copula or "all" before it ("与距离无关（都是一步），RNN 则…", "(always one
 * step)")? What it says is said of what comes before it, not of the next subject. */
static int aside_of(const sentence *s, size_t from, size_t a)
{
    static const char *const lead[] = {"都", "是", "都是", "即", "就是", "也就是", "只要",
                                       "all", "always", "is", "are", "just", "only", "i.e.",
                                       "=", "~", "≈", NULL};
    size_t open = SIZE_MAX, close = s->s1;
    for (size_t i = a; i > from && open == SIZE_MAX && a - i < 4; i--) {
        if (is_open(s, i - 1)) {
            open = i - 1;
            break;
        }
        int ok = 0;
        for (size_t w = 0; lead[w] && !ok; w++)
            ok = qz_tok_is(s->t, i - 1, lead[w]) || qz_tok_raw_is(s->t, i - 1, lead[w]);
        if (!ok)
            return 0;
    }
    if (open == SIZE_MAX)
        return 0;
    for (size_t i = a; i < s->s1 && close == s->s1; i++)
        if (is_close(s, i) || is_open(s, i))
            close = i;
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        if (m->kind == M_SUBJ && live(m) && !m->object && m->set != NEUTRAL && m->a > open &&
            m->b <= close)
            return 0;
    }
    return 1;
}

/* The group a bracket holding token a follows right after ("RNN (sequential chain)"),
 * or -1: the bracket is still open at a, and the token before it ends a group. */
static long paren_subject(const sentence *s, size_t a)
{
    for (size_t j = a; j-- > s->s0;) {
        if (is_close(s, j))
            return -1;
        if (is_open(s, j)) {
            /* "RNN (unlike attention, which is O(1))": the bracket names its own */
            for (size_t k = 0; k < s->m.n; k++)
                if (live(&s->m.v[k]) && s->m.v[k].kind == M_SUBJ && s->m.v[k].a > j && s->m.v[k].a < a)
                    return -1;
            for (size_t r = 0; r < s->n_runs; r++)
                if (s->run_end[r] == (long)j && s->run_first[r] != s->run_end[r] && !s->run_foil[r])
                    return (long)r;
            return -1;
        }
    }
    return -1;
}

/* "…，也要像 RNN 一样一步一步传过去": a claim after "像 X 一样" (like X) is said of the
 * subject compared with X, the group before the foil, not of X. */
static void like_foil(sentence *s, long *owner)
{
    static const char *const same[] = {"一样", "那样", "似的", "一般"};
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        long o = owner[k];
        if (!claimish(m) || o < 0 || (size_t)o >= s->n_runs || !s->run_foil[o] ||
            s->run_end[o] < 0 || (size_t)s->run_end[o] > m->a)
            continue;
        size_t e = (size_t)s->run_end[o];
        int like = 0;
        for (size_t w = 0; w < sizeof same / sizeof *same && !like; w++)
            like = qz_han_at(s->t, e, same[w]) == 2 && e + 2 <= m->a;
        /* 不像 X 那样 (also "不像 K 和 V 那样"): the claim is X's, not the subject's */
        size_t f = (size_t)s->run_first[o];
        int unlike = 0;
        for (size_t j = f > s->s0 + 8 ? f - 8 : s->s0; j < f && !unlike; j++)
            unlike = qz_han_at(s->t, j, "不像") == 2 || qz_han_at(s->t, j, "不同于") == 3 ||
                     qz_han_at(s->t, j, "不是像") == 3;
        if (!like || unlike)
            continue;
        long before = -1;   /* the last group of subjects before the foil, not a foil */
        for (size_t r = 0; r < s->n_runs; r++)
            if (!s->run_foil[r] && s->run_end[r] >= 0 && s->run_end[r] <= s->run_first[o])
                before = (long)r;
        if (before >= 0)
            owner[k] = before;
    }
}

/* The owner of every claim, in token order (a forward claim takes its group; claims
 * found at one place share it). */
/* A personal pronoun as the subject right before token a ("here we just need one label",
 * 我们只需要一个标签): what follows is said of the student's task, not of a group before. */
static int person_before(const sentence *s, size_t a)
{
    static const char *const adverbs[] = {"just", "only", "still", "also", "really", "then",
                                          "只", "就", "只要", "也", "还", "只需"};
    static const char *const persons[] = {"we", "you", "我们", "你们", "咱们"};
    size_t j = a;
    for (int hop = 0; hop < 2 && j > s->s0; hop++) {
        int adv = 0;
        for (size_t w = 0; w < sizeof adverbs / sizeof *adverbs && !adv; w++)
            adv = qz_tok_raw_is(s->t, j - 1, adverbs[w]) || qz_tok_is(s->t, j - 1, adverbs[w]);
        if (!adv)
            break;
        j--;
    }
    for (size_t w = 0; j > s->s0 && w < sizeof persons / sizeof *persons; w++)
        if (qz_tok_raw_is(s->t, j - 1, persons[w]) ||
            (j >= s->s0 + 2 && qz_han_at(s->t, j - 2, persons[w]) == 2))
            return 1;
    return 0;
}

static size_t paren_at(const sentence *s, size_t i);

/* Are claim c, claim m after it and a group at token g one phrase: no mark between
 * them, and no joining word ("and", "/", "vs") between c and m nor between m and g? */
static int same_phrase_before(const sentence *s, const mention *c, const mention *m, size_t g)
{
    if (c->b > m->a || m->b > g || !clause_has(s, c->b, g))
        return 0;
    for (size_t j = c->b; j < g; j++)
        if ((j < m->a || j >= m->b) && (qz_alts_at(s->t, j, &s->r->versus, NULL) ||
                                        qz_alts_at(s->t, j, &s->r->part_glue, NULL) ||
                                        qz_tok_is(s->t, j, "/") || qz_tok_raw_is(s->t, j, "or")))
            return 0;
    return 1;
}

/* Is claim m a side said as its layers, where something happens: "in every decoder
 * layer", "each decoder block", 每一层 decoder, 每个解码器层? */
static int side_layers(const sentence *s, const mention *m)
{
    if (qz_alts_at(s->t, m->a, &s->r->side, NULL) != m->b - m->a || m->b >= s->s1)
        return 0;
    static const char *const after[] = {"layer", "layers", "block", "blocks", "层", NULL};
    int layer = 0;
    for (size_t w = 0; after[w] && !layer; w++)
        layer = qz_tok_raw_is(s->t, m->b, after[w]) || qz_han_at(s->t, m->b, after[w]);
    if (!layer || origin_before(s, m->a))
        return 0;   /* ("K and V from every decoder layer" says where they come from) */
    static const char *const before[] = {"every", "each", "all", "in", "of", "across", "每",
                                         "每一", "每个", "各", "各个", "所有", NULL};
    for (size_t w = 0; before[w]; w++) {
        int han = (unsigned char)before[w][0] >= 0x80;
        size_t n = han ? strlen(before[w]) / 3 : 1;   /* its tokens: a Han character each */
        if (m->a >= s->s0 + n && (han ? qz_han_at(s->t, m->a - n, before[w]) == n
                                      : qz_tok_raw_is(s->t, m->a - 1, before[w])))
            return 1;
    }
    return 0;
}

static void owners(sentence *s, long *owner)
{
    for (size_t pos = s->s0; pos < s->s1; pos++) {
        long taken = -2;
        for (size_t k = 0; k < s->m.n; k++) {
            mention *m = &s->m.v[k];
            if (!claimish(m) || m->a != pos)
                continue;
            long next_run = run_after(s, m->b);   /* "we only need the encoder": its object */
            if (m->kind == M_CLAIM && m->b == m->a + 1 && person_before(s, m->a) &&
                run_inside(s, m) < 0 &&
                (next_run < 0 || (size_t)s->run_first[next_run] > m->b + 3)) {
                owner[k] = -1;   /* "we just need one label": the task's, no group's */
                continue;
            }
            long o = attributive(s, m) ? run_at(s, m->b) : -1;
            if (o >= 0 || object_claim(s, m)) {
                owner[k] = o;   /* "把译文…对齐", "sends a query into the source": an object */
                continue;
            }
            if (taken != -2) {
                owner[k] = taken;
                continue;
            }
            /* a claim that holds a subject speaks of it ("one attention step", "hidden-state
             * updates"), not of a group before or after; one after "instead of" speaks of the
             * subject contrasted there ("instead of a chain of n recurrent updates") */
            long inner = run_inside(s, m);
            if (inner >= 0 && !run_fits(s, inner, m))
                inner = -1;   /* "a range where softmax behaves": not said of softmax */
            if (inner < 0 && m->kind == M_CLAIM && after_instead(s, m->a))
                inner = foil_after(s, m->b);
            if (inner >= 0) {
                owner[k] = taken = inner;
                continue;
            }
            /* a claim right after another of the same statement is one phrase with it
             * ("the encoded source provides K and V"), or its gloss in brackets ("is
             * constant (1 hop) for attention"): it has the same owner */
            long joined = -2;
            int bracket = m->a > s->s0 && (qz_tok_is(s->t, m->a - 1, "(") || qz_tok_is(s->t, m->a - 1, "（"));
            for (size_t j = 0; j < s->m.n && joined == -2; j++) {
                const mention *x = &s->m.v[j];
                if (j != k && x->kind == M_CLAIM && live(x) && (x->b == m->a || (bracket && x->b + 1 == m->a)) &&
                    m->kind == M_CLAIM &&
                    (same_statement(s, x, m) ||   /* "K、V 来自 encoder 的词嵌入": the head noun */
                     (x->b == m->a && owner[j] >= 0 && s->t->t[m->a].kind == QZ_TK_HAN &&
                      run_fits(s, owner[j], m))) &&
                    context_holds(s, x->set, x->pat, x->claim, x->a) && !subject_at(s, x))
                    joined = owner[j];
            }
            if (joined != -2) {
                owner[k] = taken = joined;
                continue;
            }
            int fwd = clause_forward(s, m->a);
            if (s->first_content == m->a && !fwd) {
                o = run_before(s, m->a, 0);
                /* "So the decoder looks …": not said of the carried group; but ", which
                 * only attends to itself" is said of what "which" stands for */
                int relative = (m->a > s->s0 && (qz_tok_raw_is(s->t, m->a - 1, "which") ||
                                                 qz_tok_raw_is(s->t, m->a - 1, "who"))) ||
                           names_in_turn(s, m->a);   /* "Q is not the encoder, but the decoder" */
                /* (a claim that is no side, "所以远距离跟近距离一样是直连的", is said of it) */
                if (o >= 0 && s->run_first[o] == s->run_end[o] && !relative &&
                    (m->kind != M_CLAIM || qz_alts_at(s->t, m->a, &s->r->side, NULL) == m->b - m->a))
                    o = -1;
            } else if (fwd && (o = paren_subject(s, m->a)) >= 0) {
                /* "O(n) for RNN (sequential chain) and O(1) for attention": a claim in
                 * brackets right after a group is said of that group */
            } else if (fwd) {
                /* the group after is taken when it is this claim's subject ("够了，不用
                 * Decoder": 够 does not take Decoder); a claim of the same statement may
                 * share it ("只用 Encoder …是不够的") */
                o = run_after(s, m->b);
                /* the group a claim of the same phrase took before it is this one's too:
                 * "O(n) long hops in an RNN" (O(n) took the RNN; the hops are not the
                 * next group's) */
                long r0 = -1;
                for (size_t r = 0; r < s->n_runs && r0 < 0; r++)
                    if (s->run_first[r] >= (long)m->b && !neutral_run(s, (long)r))
                        r0 = (long)r;
                if (r0 >= 0 && r0 != o && s->consumed[r0] && m->kind == M_CLAIM &&
                    same_phrase_before(s, &s->m.v[s->consumed[r0] - 1], m, (size_t)s->run_first[r0]))
                    o = r0;
                /* not past ", and" into a clause of its own: "The weight matrix is
                 * target len × source len, and K/V can be cached" */
                for (size_t j = m->b; o >= 0 && j + 1 < (size_t)s->run_first[o]; j++)
                    if (qz_tok_is(s->t, j, ",") &&
                        (qz_tok_raw_is(s->t, j + 1, "and") || qz_tok_raw_is(s->t, j + 1, "but") ||
                         qz_tok_raw_is(s->t, j + 1, "while") || qz_tok_raw_is(s->t, j + 1, "and,")))
                        o = -1;
                /* a claim inside brackets takes no group past a comma after them: "(but the
                 * cost is O(n²) per layer), RNN has an O(n) path" */
                for (size_t j = m->b; o >= 0 && paren_at(s, m->a) != SIZE_MAX &&
                                      j < (size_t)s->run_first[o]; j++)
                    if (comma_at(s, j))
                        o = -1;
                /* nor into an aside in brackets: "只用 Encoder 就行（当然用 GPT 也可以）" (a
                 * bracket still open at the group, which does not open it: "asks the
                 * questions (Q)" labels what it said) */
                /* …and past a closed one only to a group right after it ("constant (one
                 * hop) for self-attention", not "(mean pooling) and slap a linear head") */
                if (o >= 0) {
                    int open = 0;
                    size_t last_open = 0, last_close = SIZE_MAX;
                    for (size_t j = m->b; j < (size_t)s->run_first[o]; j++) {
                        if (qz_tok_is(s->t, j, "(") || qz_tok_is(s->t, j, "（")) {
                            open++;
                            last_open = j;
                        } else if ((qz_tok_is(s->t, j, ")") || qz_tok_is(s->t, j, "）")) && open) {
                            open--;
                            last_close = j;
                        }
                    }
                    if (open ? last_open + 1 != (size_t)s->run_first[o]
                             : last_close != SIZE_MAX && last_close + 3 < (size_t)s->run_first[o])
                        o = -1;
                }
                /* nor past a comma to a group with a claim of its own after it in its
                 * clause: "… straight away so its 1 hop, in rnn its as many hops as
                 * tokens in between" */
                if (o >= 0 && own_claim_after(s, m->b, o))
                    o = -1;
                /* nor to a group an owner names right before it: "the decoder takes the
                 * encoder's keys and values", 解码器用编码器的 K 和 V (the decoder does
                 * something, the keys are the encoder's) */
                if (o >= 0 && possessed(s, m, (size_t)s->run_first[o]))
                    o = -1;
                /* nor past a comma when a group stands before the claim in its own
                 * clause: "long range dependency in RNN is harder because the signal
                 * must go through many steps, attention doesn't have this problem" */
                if (o >= 0) {
                    size_t c0 = s->s0;
                    int comma = 0;
                    for (size_t j = s->s0; j < m->a; j++)
                        if (comma_at(s, j))
                            c0 = j + 1;
                    for (size_t j = m->b; j < (size_t)s->run_first[o] && !comma; j++)
                        comma = comma_at(s, j);
                    long before = comma ? run_before(s, m->a, 0) : -1;
                    if (before >= 0 && s->run_first[before] >= (long)c0 && !s->run_foil[before]) {
                        owner[k] = taken = before;
                        continue;
                    }
                }
                if (o >= 0 && m->kind == M_CLAIM && run_fits(s, o, m))
                    s->consumed[o] = (long)k + 1;
                if (o < 0) {
                    o = run_before(s, m->a, 0);
                    if (o >= 0 && s->consumed[o] &&
                        !same_statement(s, &s->m.v[s->consumed[o] - 1], m))
                        o = run_before(s, m->a, 1);
                }
            } else {
                o = run_before(s, m->a, 0);
                size_t from = o >= 0 && s->run_first[o] != s->run_end[o] ? (size_t)s->run_end[o] : s->s0;
                /* "… one step apart only if they are adjacent": a claim said of a pronoun
                 * right before it (a copula between) is said of the group before */
                int pronoun = 0;
                for (size_t j = m->a; o >= 0 && j > from && m->a - j < 3 && !pronoun; j--) {
                    if (qz_alts_at(s->t, j - 1, &s->r->pronoun, NULL)) {
                        pronoun = 1;
                        for (size_t g = j; g < m->a; g++)
                            pronoun &= qz_tok_raw_is(s->t, g, "is") || qz_tok_raw_is(s->t, g, "are") ||
                                       qz_tok_raw_is(s->t, g, "be") || qz_tok_raw_is(s->t, g, "was") ||
                                       qz_tok_raw_is(s->t, g, "were") || qz_tok_is(s->t, g, "是") ||
                                       qz_tok_is(s->t, g, "都");
                    }
                }
                if (o >= 0 && m->kind == M_CLAIM && !pronoun && !aside_of(s, from, m->a) &&
                    noun_claim_between(s, from, m->a, m))
                    o = run_after(s, m->b);   /* "… and the encoder provides K and V" */
            }
            /* "K and V come from the encoder. It is how the decoder gets …": in a sentence
             * said of the group carried from the one before, a side named with no word of
             * origin before it (from, 来自) acts or is acted on; it is not where that group
             * comes from */
            if (o >= 0 && m->kind == M_CLAIM && s->run_first[o] == s->run_end[o] &&
                qz_alts_at(s->t, m->a, &s->r->side, NULL) == m->b - m->a && !origin_before(s, m->a) &&
                !names_in_turn(s, m->a))
                o = -1;
            /* "(K for matching, V for content) -> the decoder can condition …": a side
             * followed by "can", 能 acts in a statement of its own */
            if (o >= 0 && m->kind == M_CLAIM && qz_alts_at(s->t, m->a, &s->r->side, NULL) == m->b - m->a &&
                !origin_before(s, m->a) && m->b < s->s1 && qz_alts_at(s->t, m->b, &s->r->ability, NULL))
                o = -1;
            /* "It lets the decoder look at the encoder", "作用是让目标句关注源句": a side
             * looked at is not where the subject comes from (what is looked at otherwise is
             * said of the one looking: "自注意力只能关注局部窗口"); "one the encoder, the
             * other the decoder": said of neither in particular */
            if (o >= 0 && m->kind == M_CLAIM &&
                ((ends_before(s, &s->r->looked_at, m->a, 0) &&
                  qz_alts_at(s->t, m->a, &s->r->side, NULL)) ||
                                                 (indefinite_pair(s) &&
                                                  ends_before(s, &s->r->indefinite, m->a, 0))))
                o = -1;
            /* "(the same encoder output is used in every decoder layer)", 每一层 decoder:
             * a side's layers named as where something is used, no origin */
            if (o >= 0 && m->kind == M_CLAIM && side_layers(s, m))
                o = -1;
            owner[k] = taken = o;
        }
    }
}

static int has_words_of(const qz_text *t, size_t s0, size_t s1, const qz_alts *a);

/* ---- role notes in parentheses */

static int tok_open(const qz_text *t, size_t i)
{
    return qz_tok_is(t, i, "(") || qz_tok_is(t, i, "（");
}

static int tok_close(const qz_text *t, size_t i)
{
    return qz_tok_is(t, i, ")") || qz_tok_is(t, i, "）");
}

static int is_open(const sentence *s, size_t i)
{
    return tok_open(s->t, i);
}

static int is_close(const sentence *s, size_t i)
{
    return tok_close(s->t, i);
}

/* "the word being generated (decoder, Q) searches the sentence (encoder, K and V)",
 * 解码器提问（Q），编码器提供答案库（K、V）: a short parenthesis that names one group of
 * subjects is a note of roles. The group takes the claims inside it, or else those
 * just before the parenthesis in its clause; the claims after it, in the sentence, are
 * not said of that group. A parenthesis with neither ("Q (the query) comes from the
 * decoder") is no note. */
static void paren_roles(sentence *s, long *owner)
{
    for (size_t open = s->s0; open < s->s1; open++) {
        if (!is_open(s, open))
            continue;
        size_t close = open + 1;
        while (close < s->s1 && close - open <= 12 && !is_close(s, close) && !is_open(s, close))
            close++;
        if (close >= s->s1 || !is_close(s, close))
            continue;
        long run = -1;
        int groups = 0, inside = 0, before = 0;
        for (size_t k = 0; k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind != M_SUBJ || !live(m) || m->a <= open || m->b > close || m->run < 0 ||
                m->set == NEUTRAL || m->foil || m->object)
                continue;   /* "（上一层的输出）": a layer is no subject of the rubric */
            groups += run != m->run;
            run = m->run;
        }
        if (groups != 1)
            continue;
        for (size_t k = 0; k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind == M_CLAIM && live(m) && m->a > open && m->b <= close &&
                !subject_at(s, m) && !object_claim(s, m))
                inside = 1;
        }
        /* the claims just before it: in its clause, no more than eight tokens before */
        size_t from = open;
        while (from > s->s0 && open - from < 8 && s->t->t[from - 1].kind != QZ_TK_MARK)
            from--;
        for (size_t k = 0; !inside && k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind == M_CLAIM && live(m) && m->a >= from && m->b <= open && !subject_at(s, m))
                before = 1;
        }
        if (!inside && !before)
            continue;
        for (size_t k = 0; k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind != M_CLAIM || !live(m) || subject_at(s, m) || object_claim(s, m))
                continue;   /* "(the same K, V for every decoder layer)": what it serves */
            if (inside ? (m->a > open && m->b <= close) : (m->a >= from && m->b <= open))
                owner[k] = run;
            else if (m->a > close && owner[k] == run)
                owner[k] = -1;
        }
    }
}

/* "Q and K, V come from the decoder and the encoder respectively": a group of subjects
 * whose parts are joined by "and" (和, 与) and a word that says "respectively" (分别,
 * 各自) gives the claims after it, up to the end of the clause, to its parts in order
 * (the last part takes what is left); each part becomes a group of its own. */
static void distribute(sentence *s, long *owner)
{
    enum { MAX_PARTS = 8, MAX_PLACES = 16 };
    if (!has_words_of(s->t, s->s0, s->s1, &s->r->respectively))
        return;
    size_t cap = s->m.n + 1, n0 = s->n_runs;
    for (size_t g = 0; g < n0; g++) {
        if (s->run_foil[g] || s->run_end[g] <= s->run_first[g])
            continue;
        size_t ge = (size_t)s->run_end[g], c1 = s->s1;
        for (size_t i = ge; i < s->s1 && c1 == s->s1; i++)
            if (s->t->t[i].kind == QZ_TK_MARK && !qz_tok_is(s->t, i, "、") &&
                !qz_tok_is(s->t, i, "/"))
                c1 = i;
        if (!has_words_of(s->t, (size_t)s->run_first[g], c1, &s->r->respectively))
            continue;
        /* the parts: the subjects' places, a new part after "and" */
        size_t part_a[MAX_PARTS], n_parts = 0, prev_b = 0;
        for (size_t pos = (size_t)s->run_first[g]; pos < ge; pos++) {
            size_t b = 0;
            for (size_t k = 0; k < s->m.n && !b; k++)
                if (s->m.v[k].kind == M_SUBJ && s->m.v[k].run == (long)g && s->m.v[k].a == pos &&
                    !s->m.v[k].virt && live(&s->m.v[k]))
                    b = s->m.v[k].b;
            if (!b)
                continue;
            if (!n_parts || has_words_of(s->t, prev_b, pos, &s->r->part_glue)) {
                if (n_parts == MAX_PARTS)
                    break;
                part_a[n_parts++] = pos;
            }
            prev_b = b;
            pos = b - 1;
        }
        if (n_parts < 2 || s->n_runs + n_parts > cap)
            continue;
        /* the claims after the group in its clause, by place */
        size_t places[MAX_PLACES], n_places = 0;
        for (size_t pos = ge; pos < c1 && n_places < MAX_PLACES; pos++)
            for (size_t k = 0; k < s->m.n; k++) {
                const mention *m = &s->m.v[k];
                if (m->kind == M_CLAIM && live(m) && m->a == pos &&
                    (owner[k] == (long)g || owner[k] < 0)) {
                    places[n_places++] = pos;
                    break;
                }
            }
        if (n_places < 2)
            continue;
        /* one new group per part */
        long first = (long)s->n_runs;
        for (size_t p = 0; p < n_parts; p++) {
            long r = first + (long)p;
            s->run_first[r] = (long)part_a[p];
            s->run_end[r] = (long)part_a[p];
            s->run_foil[r] = 0;
            s->consumed[r] = 0;
        }
        s->n_runs += n_parts;
        for (size_t k = 0; k < s->m.n; k++) {
            mention *x = &s->m.v[k];
            if (x->kind != M_SUBJ || x->run != (long)g || x->virt)
                continue;
            size_t p = 0;
            while (p + 1 < n_parts && part_a[p + 1] <= x->a)
                p++;
            x->run = first + (long)p;
            if ((long)x->b > s->run_end[x->run])
                s->run_end[x->run] = (long)x->b;
        }
        for (size_t k = 0; k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (m->kind != M_CLAIM || !live(m) || m->a < ge || m->a >= c1 ||
                !(owner[k] == (long)g || owner[k] < 0))
                continue;
            size_t rank = 0;
            while (rank < n_places && places[rank] != m->a)
                rank++;
            if (rank < n_places)
                owner[k] = first + (long)(rank < n_parts ? rank : n_parts - 1);
        }
    }
}

/* ---- lists set side by side */

enum { MAX_ITEMS = 4 };

/* A list of items: their first tokens, and whether a word of "versus" joins them. */
typedef struct item_list {
    size_t a[MAX_ITEMS], b[MAX_ITEMS], n;
    int versus;
} item_list;

/* The length of the joining word ("and", "vs", 和, 对, "、", "/", ",") at token k, 0 if
 * none; sets *versus (if given) when it sets two sides against each other. */
static size_t glue_at(const sentence *s, size_t k, int *versus)
{
    size_t l = qz_alts_at(s->t, k, &s->r->versus, NULL);
    if (l) {
        if (versus)
            *versus = 1;
    } else if (!(l = qz_alts_at(s->t, k, &s->r->part_glue, NULL)) &&
               (qz_tok_is(s->t, k, "、") || qz_tok_is(s->t, k, "/") || qz_tok_is(s->t, k, ",")))
        l = 1;
    return l;
}

/* Do only joining words stand in [from, to), at least one? Sets *versus when one of them
 * sets two sides against each other. */
static int joined(const sentence *s, size_t from, size_t to, int *versus)
{
    if (from >= to)
        return 0;
    int v = 0;
    for (size_t k = from; k < to;) {
        size_t l = glue_at(s, k, &v);
        if (!l || k + l > to)
            return 0;
        k += l;
    }
    *versus |= v;
    return 1;
}

/* Is mention m an item of the kind listed: a live claim, or a subject of the rubric? */
static int list_item(const mention *m, int subjects)
{
    if (!live(m))
        return 0;
    return subjects ? m->kind == M_SUBJ && !m->object && m->set != NEUTRAL && m->run >= 0
                    : m->kind == M_CLAIM;
}

/* The list items of one kind by the token they start at: the mentions k[first[pos]] to
 * k[first[pos + 1] - 1], in the order of the mentions. first has t->n + 2 entries, k one
 * per item; both NULL when out of memory (then no list is found). Built once per kind,
 * so that finding the lists of a sentence is linear in its mentions, not cubic. */
typedef struct item_index {
    size_t *first, *k;
} item_index;

static item_index items_by_start(const sentence *s, int subjects)
{
    item_index ix = {calloc(s->t->n + 2, sizeof(size_t)), calloc(s->m.n + 1, sizeof(size_t))};
    if (!ix.first || !ix.k) {
        free(ix.first);
        free(ix.k);
        return (item_index){NULL, NULL};
    }
    for (size_t k = 0; k < s->m.n; k++)
        if (list_item(&s->m.v[k], subjects) && s->m.v[k].a < s->t->n)
            ix.first[s->m.v[k].a + 1]++;
    for (size_t p = 0; p <= s->t->n; p++)
        ix.first[p + 1] += ix.first[p];
    size_t *fill = calloc(s->t->n + 1, sizeof(size_t));
    if (!fill) {
        free(ix.first);
        free(ix.k);
        return (item_index){NULL, NULL};
    }
    for (size_t k = 0; k < s->m.n; k++)
        if (list_item(&s->m.v[k], subjects) && s->m.v[k].a < s->t->n) {
            size_t a = s->m.v[k].a;
            ix.k[ix.first[a] + fill[a]++] = k;
        }
    free(fill);
    return ix;
}

static void items_free(item_index *ix)
{
    free(ix->first);
    free(ix->k);
}

/* The list of subjects or claims that starts at token a: each next item starts where
 * joining words after one of the previous item's phrases end; of several such items, the
 * one mentioned first. */
static item_list list_from(const sentence *s, const item_index *ix, size_t a)
{
    item_list l = {.n = 0};
    if (!ix->first)
        return l;
    for (size_t at = a; l.n < MAX_ITEMS && at < s->t->n;) {
        size_t end = 0;
        for (size_t i = ix->first[at]; i < ix->first[at + 1]; i++)
            if (s->m.v[ix->k[i]].b > end)
                end = s->m.v[ix->k[i]].b;
        if (!end)
            break;
        l.a[l.n] = at;
        l.b[l.n++] = end;
        /* the item mentioned first that starts where joining words after an item at `at`
         * end; the versus of the first such item at `at` */
        size_t best_k = SIZE_MAX, next = SIZE_MAX;
        for (size_t i = ix->first[at]; i < ix->first[at + 1]; i++) {
            /* where the joining words after this item end, one word at a time, as
             * joined() reads them */
            for (size_t to = s->m.v[ix->k[i]].b; to < s->t->n;) {
                size_t g = glue_at(s, to, NULL);
                if (!g)
                    break;
                to += g;
                if (to < s->t->n && ix->first[to] < ix->first[to + 1] &&
                    ix->k[ix->first[to]] < best_k) {
                    best_k = ix->k[ix->first[to]];
                    next = to;
                }
            }
        }
        if (next == SIZE_MAX)
            break;
        for (size_t i = ix->first[at]; i < ix->first[at + 1]; i++) {
            int v = l.versus;
            if (joined(s, s->m.v[ix->k[i]].b, next, &v)) {
                l.versus = v;
                break;
            }
        }
        at = next;
    }
    return l;
}

/* "O(1) vs O(n) (self-attention vs RNN)", "self-attention vs RNN: O(1) vs O(n)",
 * "constant vs linear path length, for attention and RNN respectively": a list of
 * claims and a list of subjects as long, side by side in the sentence, one of them
 * joined by a word of "versus" or the sentence saying "respectively", give the claims
 * to the subjects in order; each subject becomes a group of its own, compared with
 * nothing. */
static void pair_lists(sentence *s, long *owner)
{
    int respectively = has_words_of(s->t, s->s0, s->s1, &s->r->respectively);
    item_index subj_ix = items_by_start(s, 1), claim_ix = items_by_start(s, 0);
    item_list subj[MAX_ITEMS * 2];
    size_t n_subj = 0;
    for (size_t pos = s->s0; pos < s->s1 && n_subj < MAX_ITEMS * 2; pos++) {
        item_list l = list_from(s, &subj_ix, pos);
        if (l.n >= 2) {
            subj[n_subj++] = l;
            pos = l.b[l.n - 1] - 1;
        }
    }
    for (size_t pos = s->s0; pos < s->s1 && n_subj; pos++) {
        item_list c = list_from(s, &claim_ix, pos);
        if (c.n < 2)
            continue;
        pos = c.b[c.n - 1] - 1;
        /* the list of subjects nearest, before or after, as long, that does not cross it */
        const item_list *best = NULL;
        size_t gap = SIZE_MAX;
        for (size_t i = 0; i < n_subj; i++) {
            const item_list *l = &subj[i];
            if (l->n != c.n || !(l->versus || c.versus || respectively))
                continue;
            size_t g;
            if (l->b[l->n - 1] <= c.a[0])
                g = c.a[0] - l->b[l->n - 1];
            else if (l->a[0] >= c.b[c.n - 1])
                g = l->a[0] - c.b[c.n - 1];
            else
                continue;
            if (g < gap) {
                gap = g;
                best = l;
            }
        }
        if (!best || s->n_runs + c.n > s->m.n + 1)
            continue;
        long first = (long)s->n_runs;
        for (size_t i = 0; i < c.n; i++) {
            long r = first + (long)i;
            s->run_first[r] = (long)best->a[i];
            s->run_end[r] = (long)best->b[i];
            s->run_foil[r] = 0;
            s->consumed[r] = 0;
        }
        s->n_runs += c.n;
        for (size_t k = 0; k < s->m.n; k++) {
            mention *m = &s->m.v[k];
            for (size_t i = 0; i < c.n; i++) {
                if (m->kind == M_SUBJ && !m->virt && m->a == best->a[i]) {
                    m->run = first + (long)i;
                    m->foil = 0;
                } else if (m->kind == M_CLAIM && live(m) && m->a == c.a[i]) {
                    owner[k] = first + (long)i;
                }
            }
        }
    }
    items_free(&subj_ix);
    items_free(&claim_ix);
}

/* ---- statements */

/* Does a claim of direction want hold of a phrase of direction got, denied or not? */
static int direction_holds(qz_direction want, qz_direction got, int denied)
{
    if (!denied)
        return want == got;
    switch (want) {
    case QZ_DIR_UP: return got == QZ_DIR_SAME;              /* "is not constant" */
    case QZ_DIR_DOWN: return got == QZ_DIR_UP;              /* "does not grow" */
    case QZ_DIR_SAME: return got == QZ_DIR_UP;              /* "does not grow" */
    default: return 0;
    }
}

static int polarity_holds(qz_polarity want, int denied)
{
    return want == QZ_POL_EITHER || (want == QZ_POL_DENIED) == (denied != 0);
}

/* Is every alternative of group a one of the pattern's subjects ("k | key | keys")? */
static int names_subjects(const qz_cpattern *pt, const qz_alts *a)
{
    for (size_t i = 0; i < a->n; i++) {
        int found = 0;
        for (size_t j = 0; j < pt->subject.n && !found; j++)
            found = a->v[i].n == pt->subject.v[j].n && qz_alt_at(&pt->subject.v[j], 0, &a->v[i]);
        if (!found)
            return 0;
    }
    return a->n > 0;
}

/* Does a preventing word at token i (prevent, 防止) prevent the opposite of direction
 * dir in its clause ("让点积变大，防止分数太小": a danger of getting too small, which
 * says the scaling makes things larger)? Then it lifts no claim of dir. */
static int prevents_opposite(const sentence *s, size_t i, unsigned dir)
{
    if ((dir != QZ_DIR_UP && dir != QZ_DIR_DOWN) || !qz_neg_prevents(s->t, i))
        return 0;
    unsigned opposite = dir == QZ_DIR_UP ? QZ_DIR_DOWN : QZ_DIR_UP;
    const mention *first = NULL;   /* the word of direction nearest after it */
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        if (m->kind == M_DIR && !m->dead && m->a > i && clause_has(s, i, m->a) &&
            (!first || m->a < first->a))
            first = m;
    }
    return first && first->dir == opposite;
}

/* The innermost parenthesis open at token i of t, counted from token from (up to end):
 * the token of its "(" or "（", or SIZE_MAX outside any (or nested deeper than 8). */
static size_t open_paren(const qz_text *t, size_t from, size_t end, size_t i)
{
    size_t open[8], depth = 0;
    for (size_t k = from; k < i && k < end; k++) {
        if (tok_open(t, k)) {
            if (depth < 8)
                open[depth] = k;
            depth++;
        } else if (tok_close(t, k) && depth) {
            depth--;
        }
    }
    return depth && depth <= 8 ? open[depth - 1] : SIZE_MAX;
}

/* The innermost parenthesis open at token i in the period [p0, i): the token of its
 * "(" or "（", or SIZE_MAX outside any. */
static size_t paren_at(const sentence *s, size_t i)
{
    return open_paren(s->t, s->p0, s->p1, i);
}

/* `with` affirmed and `unless` absent in the period of the claim found at token at; an
 * `unless` in a parenthesis the claim is not in, or outside the one it is in, is a remark
 * of its own ("O(1) path length (though the compute is O(n²))") and lifts nothing, but
 * for the clause right before the claim's parenthesis, which the bracket comments on. */
static int ends_sentence(const qz_text *t, size_t i);

/* "otherwise", 否则, 不然 at token i: the case where what was said does not hold. */
static int otherwise_at(const qz_text *t, size_t i)
{
    return qz_tok_raw_is(t, i, "otherwise") || qz_tok_raw_is(t, i, "else") ||
           qz_han_at(t, i, "否则") || qz_han_at(t, i, "不然") || qz_han_at(t, i, "要不然") ||
           qz_han_at(t, i, "要不");
}

/* A consequence drawn between tokens a and b (qz_lex_drawn: "…, that is why …", 所以):
 * what follows it is a statement of its own. */
static int consequence_between(const sentence *s, size_t a, size_t b)
{
    for (size_t k = a + 1; k < b && k < s->t->n; k++)
        if (qz_alts_at(s->t, k, &s->r->drawn, NULL) ||
            (qz_tok_raw_is(s->t, k, "so") && (qz_tok_is(s->t, k - 1, ",") || qz_tok_is(s->t, k - 1, "，"))))
            return 1;   /* (", so …" draws one too) */
    return 0;
}

/* A condition w after a claim at, a mark between them, that a mark and more words
 * follow: "softmax doesn't saturate, if you don't divide, the gradients vanish" — the
 * condition opens the clause after it, it is not the claim's. */
/* No mark between tokens a and b but inside, and around, an aside in brackets closed
 * before b: "用 decoder-only（比如 GPT）也能做" is one clause. */
static int clause_has_past_aside(const sentence *s, size_t a, size_t b)
{
    int depth = 0;
    for (size_t i = a; i < b; i++) {
        if (tok_open(s->t, i))
            depth++;
        else if (tok_close(s->t, i) && depth)
            depth--;
        else if (!depth && s->t->t[i].kind == QZ_TK_MARK)
            return 0;
    }
    return depth == 0;
}

/* Does a condition open at token w ("without", "if", 如果, 不除, 否则 …)? A word of
 * another kind (what goes wrong, "softmax 不饱和") opens no case of its own. */
static int condition_at(const qz_text *t, size_t w)
{
    if (otherwise_at(t, w))
        return 1;
    static const char *const en[] = {"without", "if", "unless", "no", "when", "once", "not",
                                     "dont", "don't", "doesn't", "didn't", NULL};
    static const char *const zh[] = {"不", "如果", "若", "没有", "没", "要是", "假如", "一旦", "当",
                                     NULL};
    for (size_t i = 0; en[i]; i++)
        if (qz_tok_raw_is(t, w, en[i]))
            return 1;
    for (size_t i = 0; zh[i]; i++)
        if (qz_han_at(t, w, zh[i]) && !qz_han_at(t, w, "不让"))
            return 1;
    return 0;
}

static int opens_later_clause(const sentence *s, size_t at, size_t w)
{
    if (w <= at || clause_has_past_aside(s, at, w) || !condition_at(s->t, w))
        return 0;
    /* "防止 softmax 饱和，不除会梯度消失": a condition that opens its clause, with a claim
     * of its own after it in that clause, is that claim's */
    /* (a claim inside the condition's own words is none after it: "缩放用的，不让 softmax
     * 进入饱和区" holds 饱和) */
    size_t wend = w + 1;
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_WITH && s->m.v[k].a == w && s->m.v[k].b > wend)
            wend = s->m.v[k].b;
    if (s->t->t[w - 1].kind == QZ_TK_MARK && !qz_tok_is(s->t, w - 1, "'"))
        for (size_t k = 0; k < s->m.n; k++)
            if (s->m.v[k].kind == M_CLAIM && live(&s->m.v[k]) && s->m.v[k].a >= wend &&
                clause_has(s, w, s->m.v[k].a))
                return 1;
    for (size_t k = w + 1; k + 1 < s->p1; k++)
        if (s->t->t[k].kind == QZ_TK_MARK && !qz_tok_is(s->t, k, "'"))
            return 1;
    return 0;
}

static int unless_blocks(const sentence *s, const qz_cpattern *pt, const qz_cclaim *cl,
                         size_t at);

/* Does the student say right after token b that they do not know it ("V not sure", "V: ?",
 * V 不确定, "V idk")? Then what stands before b is named, not answered. */
static int unknown_after(const sentence *s, size_t b)
{
    static const char *const en[] = {"unsure", "idk", "dunno", "unknown", "tbd", "?", "？", NULL};
    static const char *const zh[] = {"不确定", "不知道", "不清楚", "忘了", "记不清", "不记得", "待定",
                                     NULL};
    size_t i = b;
    while (i < s->t->n && (qz_tok_is(s->t, i, ":") || qz_tok_is(s->t, i, "：") ||
                           qz_tok_is(s->t, i, "=") || qz_tok_raw_is(s->t, i, "i'm") ||
                           qz_tok_raw_is(s->t, i, "im") || qz_tok_raw_is(s->t, i, "is") ||
                           qz_tok_raw_is(s->t, i, "from") || qz_han_at(s->t, i, "我")))
        i++;
    if (i >= s->t->n)
        return 0;
    for (size_t w = 0; en[w]; w++)
        if (qz_tok_raw_is(s->t, i, en[w]) || qz_tok_is(s->t, i, en[w]))
            return 1;
    for (size_t w = 0; zh[w]; w++)
        if (qz_han_at(s->t, i, zh[w]))
            return 1;
    return i + 1 < s->t->n && ((qz_tok_raw_is(s->t, i, "not") && qz_tok_raw_is(s->t, i + 1, "sure")) ||
                               ((qz_tok_raw_is(s->t, i, "don't") || qz_tok_raw_is(s->t, i, "dont")) &&
                                qz_tok_raw_is(s->t, i + 1, "know")));
}

static int context_holds(const sentence *s, int set, size_t p, size_t c, size_t at)
{
    const qz_cpattern *pt = pattern(s->r, set, p);
    const qz_cclaim *cl = &pt->claims[c];
    for (size_t g = 0; g < cl->n_with; g++) {
        int ok = 0;
        for (size_t k = 0; k < s->m.n && !ok; k++) {
            const mention *m = &s->m.v[k];
            ok = m->kind == M_WITH && m->set == set && m->pat == p && m->claim == c &&
                 m->group == g && !m->neg && !(m->a > at && otherwise_at(s->t, m->a)) &&
                 !opens_later_clause(s, at, m->a) && !unknown_after(s, m->b);
        }
        /* subjects named together ("K … and … V", "keys built from the encoder output,
         * then the encoder-side values") may stand anywhere in the period, and in the
         * periods a semicolon joins to it ("K = enc_out × W_K; V = enc_out × W_V") */
        size_t w0 = s->p0, w1 = s->p1;
        while (w0 > 0 && qz_tok_is(s->t, w0 - 1, ";")) {
            w0--;
            while (w0 > 0 && !ends_sentence(s->t, w0 - 1))
                w0--;
        }
        while (w1 < s->t->n && qz_tok_is(s->t, w1, ";")) {
            w1++;
            while (w1 < s->t->n && !ends_sentence(s->t, w1))
                w1++;
        }
        for (size_t i = w0; !ok && i < w1 && names_subjects(pt, &cl->with[g]); i++) {
            size_t len = qz_alts_at(s->t, i, &cl->with[g], NULL);
            ok = len != 0 && !unknown_after(s, i + len);
        }
        if (!ok)
            return 0;
    }
    return !unless_blocks(s, pt, cl, at);
}

/* Does an `unless` of claim cl stand in the period of the claim found at token at (an
 * `unless` in a parenthesis the claim is not in, or outside the one it is in, is a remark
 * on something else)? */
/* A "but" (however, yet, 但, 不过, 可是) between tokens a and b that turns to the path
 * itself (path, distance, hops, 路径, 距离) before b: "costs O(n²) compute, but the path
 * is O(1)" (not "its complexity is O(n²) but the RNN's is O(n)": the same thing compared). */
static int but_between(const qz_text *t, size_t a, size_t b)
{
    static const char *const path[] = {"path", "paths", "distance", "distances", "hop", "hops",
                                       "路径", "距离", "依赖距离", NULL};
    for (size_t i = a + 1; i < b; i++)
        if (qz_tok_raw_is(t, i, "but") || qz_tok_raw_is(t, i, "however") ||
            qz_tok_raw_is(t, i, "yet") || qz_han_at(t, i, "但") || qz_han_at(t, i, "不过") ||
            qz_han_at(t, i, "可是") || qz_han_at(t, i, "然而"))
            for (size_t j = i + 1; j < b; j++)
                for (size_t w = 0; path[w]; w++)
                    if (qz_tok_raw_is(t, j, path[w]) || qz_han_at(t, j, path[w]))
                        return 1;
    return 0;
}

/* Is the word at token i what the claim is likened to ("和 decoder 的 masked
 * self-attention 一样要加下三角 mask", "just like masked self-attention, it uses a causal
 * mask", "the same as in the decoder")? The thing compared says nothing against
 * the claim: an `unless` there does not take it back. */
static int likened(const sentence *s, size_t i)
{
    static const char *const with_han[] = {"和", "跟", "与", "同", "像", NULL};
    static const char *const same_han[] = {"一样", "一般", "相同", "似的", "类似", NULL};
    size_t lo = i > s->p0 + 8 ? i - 8 : s->p0;
    for (size_t j = i; j-- > lo;) {
        if (s->t->t[j].kind == QZ_TK_MARK)
            return 0;
        if (qz_han_at(s->t, j, "不像") || qz_tok_raw_is(s->t, j, "unlike"))
            return 0;   /* "unlike the decoder's masked self-attention": set against it */
        /* ("like GPT" alone names an example: "a decoder-only model like GPT would work") */
        if ((qz_tok_raw_is(s->t, j, "like") && j > s->p0 &&
             (qz_tok_raw_is(s->t, j - 1, "just") || qz_tok_raw_is(s->t, j - 1, "exactly"))) ||
            (qz_tok_raw_is(s->t, j, "as") && j > s->p0 &&
             (qz_tok_raw_is(s->t, j - 1, "same") || qz_tok_raw_is(s->t, j - 1, "just"))) ||
            (qz_tok_raw_is(s->t, j, "to") && j > s->p0 && qz_tok_raw_is(s->t, j - 1, "similar")))
            return 1;
        for (size_t w = 0; with_han[w]; w++)
            if (qz_han_at(s->t, j, with_han[w]))
                for (size_t k = i + 1; k < s->p1 && k <= i + 10; k++) {
                    if (s->t->t[k].kind == QZ_TK_MARK)
                        return 0;
                    for (size_t v = 0; same_han[v]; v++)
                        if (qz_han_at(s->t, k, same_han[v]))
                            return 1;
                }
    }
    return 0;
}

/* Does the clause of token i (between marks), after the clause of the claim at token at,
 * speak of another subject than pattern pt's: "self-attention passes it on step by step,
 * an RNN connects them in one step" (the RNN's one step takes nothing back of
 * self-attention), not "an RNN needs n steps, attention 1 step" (its own clause)? */
static int said_of_other(const sentence *s, const qz_cpattern *pt, size_t at, size_t i)
{
    if (i < at)
        return 0;   /* (a clause before it sets the scene: "…the whole review; so no causal mask") */
    size_t c0 = i, c1 = i;
    while (c0 > s->p0 && s->t->t[c0 - 1].kind != QZ_TK_MARK)
        c0--;
    while (c1 < s->p1 && s->t->t[c1].kind != QZ_TK_MARK)
        c1++;
    if (at >= c0 && at < c1)
        return 0;
    /* the words are a statement of that clause's own (the RNN's "in one step"), not a
     * word of topic ("because attention has constant computational complexity") */
    int stated = 0;   /* (that clause may be another sentence's: its phrases are looked up) */
    for (int set = 0; set < 2 && !stated; set++)
        for (size_t p = 0; p < (set ? s->r->n_miscs : s->r->n_ideas) && !stated; p++) {
            const qz_cpattern *q = pattern(s->r, set, p);
            for (size_t c = 0; c < q->n_claims && !stated; c++)
                for (size_t j = c0; j <= i && !stated; j++)
                    stated = j + qz_alts_at(s->t, j, &q->claims[c].phrases, NULL) > i;
        }
    if (!stated)
        return 0;
    int other = 0;
    for (size_t j = c0; j < c1; j++) {
        if (qz_alts_at(s->t, j, &pt->subject, NULL))
            return 0;
        for (int set = 0; set < 2 && !other; set++)
            for (size_t p = 0; p < (set ? s->r->n_miscs : s->r->n_ideas) && !other; p++)
                other = pattern(s->r, set, p) != pt &&
                        qz_alts_at(s->t, j, &pattern(s->r, set, p)->subject, NULL) != 0;
    }
    return other;
}

static int unless_blocks(const sentence *s, const qz_cpattern *pt, const qz_cclaim *cl,
                         size_t at)
{
    size_t paren = paren_at(s, at);
    /* an `unless` inside the claim's own words takes nothing back: "goes one step at a
     * time" holds "one step" */
    size_t cb = at;
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_CLAIM && s->m.v[k].a == at && s->m.v[k].b > cb)
            cb = s->m.v[k].b;
    for (size_t i = s->p0; i < s->p1; i++) {  /* "its complexity is O(n²), an RNN's O(n)" */
        size_t ul = qz_alts_at(s->t, i, &cl->unless, NULL);
        if (ul && i >= at && i + ul <= cb && cb - at > ul)
            continue;
        if (!ul || prevents_opposite(s, i, cl->dir) ||
            likened(s, i) || (pt->subject.n && said_of_other(s, pt, at, i)))
            continue;
        /* "otherwise" after the claim opens the case after it ("scales them down so softmax
         * isn't too peaky, otherwise the gradients vanish"): it says nothing of the claim */
        if (i > at && otherwise_at(s->t, i))
            continue;
        /* nor does what a consequence drawn after the claim names ("O(1) while an RNN needs
         * O(n), that is why it also needs less memory": the memory is not what is O(n)) */
        if (i > at && (consequence_between(s, at, i) || opens_later_clause(s, at, i)))
            continue;
        /* nor what a clause concedes before a "but" that the claim follows ("costs O(n²)
         * compute per layer, but the path between any two positions is O(1)") */
        if (i < at && but_between(s->t, i, at))
            continue;
        size_t pi = paren_at(s, i);
        /* the clause a bracket comments on speaks for it too: "softmax over the key dim
         * (each row sums to 1)" */
        if (pi == paren || (paren != SIZE_MAX && i < paren && pi == paren_at(s, paren) &&
                            clause_has(s, i, paren)))
            return 1;
    }
    return 0;
}

/* Is the claim mention m said of a subject of pattern (set, p)? *sneg: that subject
 * denied. */
static int subject_holds(const sentence *s, const mention *m, long owner, int set, size_t p,
                         int *sneg, size_t *subj)
{
    const qz_cpattern *pt = pattern(s->r, set, p);
    *sneg = 0;
    *subj = SIZE_MAX;
    if (m->kind == M_CLAIM && m->self)
        return 1;
    int virt = 0;
    for (size_t k = 0; owner >= 0 && k < s->m.n; k++) {
        const mention *x = &s->m.v[k];
        if (x->kind != M_SUBJ || x->run != owner || x->dead || x->object)
            continue;
        virt |= x->virt;
        /* the statement is denied with its subject ("does not turn the scores into
         * probabilities"); a claim of any subject is not denied by a subject of another
         * clause ("nothing to decode, and the vector is [CLS]'s") */
        if (!pt->subject.n || (x->set == set && x->pat == p)) {
            int apart = 0;   /* a mark between them: another clause's subject */
            for (size_t i = x->b; i < m->a && !pt->subject.n; i++)
                apart |= s->t->t[i].kind == QZ_TK_MARK;
            /* a claim before its subject, a mark between: the subject's denial is its own
             * clause's ("控制电平：防止分数爆表": the level is controlled, the scores'
             * blowing up prevented) */
            for (size_t i = m->b; x->neg && i < x->a; i++)
                apart |= s->t->t[i].kind == QZ_TK_MARK && x->prevented;
            /* nor past a mark after it: "prevents softmax saturation: without scaling you
             * get an extremely sharp distribution" (what is prevented is the saturation,
             * not the distribution of the clause after) */
            for (size_t i = x->b; x->neg && x->prevented && i < m->a; i++)
                apart |= s->t->t[i].kind == QZ_TK_MARK;
            *sneg = apart ? 0 : x->neg;
            *subj = x->a;
            return 1;
        }
    }
    if (!pt->subject.n || (pt->subject_implied && (owner < 0 || virt)))
        return 1;
    /* a claim that needs its own subject named beside it (`with` one of the pattern's
     * subjects) holds whoever does it: "the [CLS] token, which BERT appends at the end",
     * "[CLS]? We put it at the end" */
    /* (a false claim's only: a key idea is not credited to whatever owns it) */
    if (set == 1 && pt->subject_implied && m->kind == M_CLAIM && m->claim < pt->n_claims)
        for (size_t g = 0; g < pt->claims[m->claim].n_with; g++)
            if (names_subjects(pt, &pt->claims[m->claim].with[g]))
                return 1;
    return 0;
}

/* Was the subject at token subj of group owner denied by a preventing word? */
static int subject_prevented(const sentence *s, long owner, size_t subj)
{
    for (size_t k = 0; owner >= 0 && subj != SIZE_MAX && k < s->m.n; k++)
        if (s->m.v[k].kind == M_SUBJ && s->m.v[k].run == owner && s->m.v[k].a == subj &&
            s->m.v[k].prevented)
            return 1;
    return 0;
}

/* A word of direction right before an English noun that is none of the rubric's
 * subjects ("huge inputs would make …", "for large dₖ"): it describes that noun and
 * states nothing of the subjects. */
static int modifies_other(const sentence *s, const mention *m)
{
    static const char *const function_words[] = {
        "when", "so", "and", "or", "because", "for", "if", "than", "as", "with", "which",
        "that", "to", "in", "at", "by", "then", "otherwise", "since", "but", "while", "of",
        "on", "enough", "too", "again", "anymore", "now", "quickly", "fast", "very", "there",
        "is", "are", "was", "were", "be", "and/or", "unless", "until", "after", "before",
        "compared", "relative", "overall", "too", "which", "whereas", "during", "it", "they",
        "this", "those", "these", "its", "their", "the", "a", "an", "without", "not", "no", NULL};
    if (m->kind != M_DIR || m->b >= s->s1 || s->t->t[m->b].kind != QZ_TK_WORD ||
        s->t->t[m->a].kind != QZ_TK_WORD)
        return 0;
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_SUBJ && !s->m.v[k].dead && s->m.v[k].a == m->b)
            return 0;
    for (const char *const *w = function_words; *w; w++)
        if (qz_tok_raw_is(s->t, m->b, *w))
            return 0;
    for (size_t k = 0; k < s->m.n; k++)   /* a claim or another word of direction after it */
        if (s->m.v[k].a == m->b && !s->m.v[k].dead && s->m.v[k].kind != M_SUBJ)
            return 0;
    return 1;
}

/* Is the word of sameness at token i a likeness to another thing, not a quantity kept
 * the same: "和 dropout 一样" (a Latin word compared), "作用一样", "效果相同" (the same
 * role), "does the same job as", "plays the same role as"? */
static int same_as_other(const sentence *s, size_t i)
{
    static const char *const role_han[] = {"作用", "效果", "功能", "用途", "目的", "功效", NULL};
    static const char *const role_en[] = {"job", "role", "purpose", "function", "effect", "thing",
                                          "trick", "idea", NULL};
    if (qz_tok_raw_is(s->t, i, "same")) {
        for (size_t w = 0; role_en[w]; w++)
            if (i + 1 < s->s1 && qz_tok_raw_is(s->t, i + 1, role_en[w]))
                return 1;
        return 0;
    }
    if (!qz_han_at(s->t, i, "一样") && !qz_han_at(s->t, i, "相同"))
        return 0;
    for (size_t w = 0; role_han[w]; w++)
        if (i >= s->s0 + 2 && qz_han_at(s->t, i - 2, role_han[w]) == 2)
            return 1;
    size_t lo = i > s->s0 + 8 ? i - 8 : s->s0;
    for (size_t j = i; j-- > lo;) {
        if (s->t->t[j].kind == QZ_TK_MARK)
            return 0;
        if (qz_han_at(s->t, j, "和") || qz_han_at(s->t, j, "跟") || qz_han_at(s->t, j, "与") ||
            qz_han_at(s->t, j, "像")) {
            /* (a word of four letters or more: a method, "dropout", "layernorm"; not a
             * quantity, "和 dk=1 时一样") */
            for (size_t k = j + 1; k < i; k++)
                if (s->t->t[k].kind == QZ_TK_WORD && strlen(s->t->t[k].raw) >= 4 &&
                    strspn(s->t->t[k].raw, "abcdefghijklmnopqrstuvwxyz") == strlen(s->t->t[k].raw))
                    return 1;
            return 0;
        }
    }
    return 0;
}

static void try_claim(sentence *s, const mention *m, long owner, int set, size_t p, size_t c,
                      matches *out)
{
    if (modifies_other(s, m))
        return;
    const qz_cclaim *cl = &pattern(s->r, set, p)->claims[c];
    if (cl->bare)
        return;
    int sneg;
    size_t subj;
    if (!subject_holds(s, m, owner, set, p, &sneg, &subj))
        return;
    int carried = owner >= 0 && s->run_first[owner] == s->run_end[owner];
    int denied = m->neg || sneg;   /* "No decoder: classification doesn't need …" */
    /* a misconception's danger prevented is still named: "√dₖ prevents exploding
     * gradients", 防止梯度爆炸 */
    if (denied && set == 1 && cl->dir == QZ_DIR_NONE && cl->pol == QZ_POL_AFFIRMED &&
        (m->prevented || (!m->neg && subject_prevented(s, owner, subj))))
        denied = 0;   /* (a danger denied outright, "(not exploding)", stays denied) */
    /* "stops the dot products from getting too big": a phrase that opens with "from" is
     * what the prevention keeps off, the prevention said with it, no denial */
    if (denied && !m->neg && m->kind == M_CLAIM && qz_tok_raw_is(s->t, m->a, "from") &&
        subject_prevented(s, owner, subj))
        denied = 0;
    /* a misconception named either way is not named by a question the student answers
     * "no" ("Or is it exploding gradients? No - they vanish") */
    if (cl->pol == QZ_POL_EITHER && m->refused)
        return;
    if (cl->dir != QZ_DIR_NONE) {
        qz_direction got = m->kind == M_DIR ? (qz_direction)m->dir : cl->dir;
        /* "不一样", "not the same": different, not growing */
        if (denied && got == QZ_DIR_SAME && m->kind == M_DIR &&
            (qz_han_at(s->t, m->a, "一样") || qz_han_at(s->t, m->a, "相同") ||
             qz_tok_raw_is(s->t, m->a, "same")))
            return;
        /* "和 dropout 作用一样", "does the same job as dropout": alike in role, nothing kept
         * the same */
        if (got == QZ_DIR_SAME && m->kind == M_DIR && same_as_other(s, m->a))
            return;
        if (!direction_holds(cl->dir, got, denied))
            return;
    } else if (!polarity_holds(cl->pol, denied)) {
        /* a key idea denied ("Q does not come from the decoder") is stated wrongly */
        if (!set && cl->pol == QZ_POL_AFFIRMED && context_holds(s, set, p, c, m->a))
            match_add(out, (match){2, p, m->a, m->b, subj, carried, c, 0, 0});
        return;
    }
    size_t ga = 0, gb = 0;
    if (owner >= 0 && subj != SIZE_MAX && !carried) {
        ga = (size_t)s->run_first[owner];
        gb = (size_t)s->run_end[owner];
    }
    if (context_holds(s, set, p, c, m->a))
        match_add(out, (match){(unsigned char)set, p, m->a, m->b, subj, carried, c, ga, gb});
}

/* "no decoder": a denied subject states a bare claim. */
static void try_bare(sentence *s, const mention *x, matches *out)
{
    const qz_cpattern *pt = pattern(s->r, x->set, x->pat);
    for (size_t c = 0; c < pt->n_claims; c++)
        if (pt->claims[c].bare && x->neg && context_holds(s, x->set, x->pat, c, x->a))
            match_add(out, (match){x->set, x->pat, x->a, x->b, x->a, 0, c, 0, 0});
}

/* Is token span [a, b) inside the claim of a match other than out->v[i] that is said of a
 * subject of its own ("K and V come from the encoder": "encoder" is that statement's)? */
static int claimed_by_another(const matches *out, size_t first, size_t i, size_t a, size_t b)
{
    for (size_t j = first; j < out->n; j++) {
        const match *o = &out->v[j];
        if (j != i && o->pat != SIZE_MAX && o->subj != SIZE_MAX && o->a <= a && b <= o->b &&
            !(o->set == out->v[i].set && o->pat == out->v[i].pat))
            return 1;
    }
    return 0;
}

/* A claim whose context (`with`) is found only in other clauses, in words another
 * statement says of its own subject, is no statement: in "Q 来自解码器，K 和 V 来自编码器，
 * 作用是融合信息" the encoder is where K and V come from, and 融合信息 says nothing of the
 * source. Context in the claim's own clause ("参考原句") is its own, and so are subjects
 * named as context ("k | key"). */
static void drop_borrowed_context(const sentence *s, matches *out, size_t first)
{
    for (size_t i = first; i < out->n; i++) {
        match *x = &out->v[i];
        if (x->pat == SIZE_MAX)
            continue;
        const qz_cpattern *pt = pattern(s->r, x->set == 1, x->pat);
        const qz_cclaim *cl = &pt->claims[x->claim];
        for (size_t g = 0; g < cl->n_with && x->pat != SIZE_MAX; g++) {
            int own = names_subjects(pt, &cl->with[g]);
            for (size_t k = 0; k < s->m.n && !own; k++) {
                const mention *m = &s->m.v[k];
                if (m->kind != M_WITH || m->set != (x->set == 1) || m->pat != x->pat ||
                    m->claim != x->claim || m->group != g || m->neg)
                    continue;
                own = clause_has(s, m->a < x->a ? m->a : x->a, m->b > x->b ? m->b : x->b) ||
                      !claimed_by_another(out, first, i, m->a, m->b);
            }
            if (!own)
                x->pat = SIZE_MAX;
        }
    }
}

/* Is token a inside the antecedent of a condition: after "if", "suppose", 如果, 要是, 假如,
 * 假设 within 6 words (12 Han characters), before any comma, "then", 就 or 那? "If you used
 * a decoder-only model instead …", "要是用 decoder-only 模型，…": a supposition, not said. */
static int supposed(const sentence *s, size_t a)
{
    static const char *const cond[] = {"if", "suppose", "supposing", "assuming", "如果", "要是",
                                       "假如", "假设", "若是", "倘若", NULL};
    size_t words = 0;
    for (size_t j = a; j > s->s0 && words < 12; j--) {
        const qz_text *t = s->t;
        size_t i = j - 1;
        if (qz_tok_is(t, i, ",") || qz_tok_is(t, i, "，") || qz_tok_raw_is(t, i, "then") ||
            qz_tok_is(t, i, "就") || qz_tok_is(t, i, "那") || qz_tok_is(t, i, "那么"))
            return 0;
        for (size_t c = 0; cond[c]; c++)
            if (qz_tok_raw_is(t, i, cond[c]) || qz_han_at(t, i, cond[c]))
                return 1;
        words += t->t[i].kind == QZ_TK_HAN ? 1 : 2;
    }
    return 0;
}

static void statements(sentence *s, const long *owner, matches *out)
{
    const qz_rubric_c *r = s->r;
    size_t first = out->n;   /* this sentence's matches start here */
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *m = &s->m.v[k];
        if (m->kind == M_SUBJ && live(m) && !m->foil && !m->object && m->set != NEUTRAL)
            try_bare(s, m, out);
        if (!claimish(m))
            continue;
        if (m->kind == M_CLAIM) {
            try_claim(s, m, owner[k], m->set, m->pat, m->claim, out);
            continue;
        }
        for (int set = 0; set < 2; set++) {
            size_t n = set ? r->n_miscs : r->n_ideas;
            for (size_t p = 0; p < n; p++) {
                const qz_cpattern *pt = pattern(r, set, p);
                for (size_t c = 0; c < pt->n_claims; c++)
                    if (pt->claims[c].dir != QZ_DIR_NONE)
                        try_claim(s, m, owner[k], set, p, c, out);
            }
        }
    }
    drop_borrowed_context(s, out, first);
    /* something wrong said of a subject only supposed ("if you used a decoder-only
     * model") is not said; a claim that needs no subject states a consequence ("if you
     * add a big constant to all the scores") and stays */
    for (size_t i = first; i < out->n; i++)
        if (out->v[i].set && out->v[i].pat != SIZE_MAX && supposed(s, out->v[i].a) &&
            pattern(r, out->v[i].set == 1, out->v[i].pat)->subject.n &&
            !pattern(r, out->v[i].set == 1, out->v[i].pat)->subject_implied)
            out->v[i].pat = SIZE_MAX;
    /* a key idea denied in a supposition ("如果没有 [CLS]，用 mean pooling 也差不多", "if
     * there were no [CLS] token") is not denied */
    for (size_t i = first; i < out->n; i++)
        if (out->v[i].set == 2 && out->v[i].pat != SIZE_MAX && supposed(s, out->v[i].a))
            out->v[i].pat = SIZE_MAX;
    /* said of a carried group, a key idea and a misconception at once ("K and V …. It
     * lets each target position attend to the source"): the sentence speaks of
     * something else, and its carried statements count for nothing */
    int idea = 0, wrong = 0;
    for (size_t i = first; i < out->n; i++)
        if (out->v[i].carried) {
            idea |= !out->v[i].set;
            wrong |= out->v[i].set != 0;
        }
    for (size_t i = first; idea && wrong && i < out->n; i++)
        if (out->v[i].carried)
            out->v[i].pat = SIZE_MAX;
    /* a key idea matched on a phrase by one claim is not denied there by another
     * ("避免 softmax 饱和": the affirmed claim fails, the denied one holds) */
    for (size_t i = first; i < out->n; i++) {
        if (out->v[i].set != 2 || out->v[i].pat == SIZE_MAX)
            continue;
        for (size_t j = first; j < out->n; j++)
            if (!out->v[j].set && out->v[j].pat != SIZE_MAX && out->v[j].a == out->v[i].a &&
                out->v[j].b == out->v[i].b &&
                pattern(r, 0, out->v[j].pat)->owner == pattern(r, 0, out->v[i].pat)->owner) {
                out->v[i].pat = SIZE_MAX;
                break;
            }
    }
    /* a misconception matched on a phrase of the same subject outweighs a key idea
     * matched on it */
    for (size_t i = first; i < out->n; i++) {
        if (out->v[i].set)
            continue;
        for (size_t j = first; j < out->n; j++)
            if (out->v[j].set == 1 && out->v[j].pat != SIZE_MAX && out->v[j].a == out->v[i].a && out->v[j].b == out->v[i].b &&
                (out->v[j].subj == out->v[i].subj || out->v[j].subj == SIZE_MAX ||
                 out->v[i].subj == SIZE_MAX)) {
                out->v[i].pat = SIZE_MAX;
                break;
            }
    }
}

/* ---- salads, retractions, giving up */

static int is_list_mark(const char *m)
{
    return !strcmp(m, ",") || !strcmp(m, "、") || !strcmp(m, "/") || !strcmp(m, "+") ||
           !strcmp(m, "&") || !strcmp(m, "·") || !strcmp(m, "…") || !strcmp(m, "[") ||
           !strcmp(m, "]");
}

/* Only rubric terms and list glue: three or more items (between commas or list words)
 * of one term each ("variance, softmax, gradient"), or five terms or more with nothing
 * between them ("Q decoder K V encoder alignment"). */
static int salad(const sentence *s)
{
    /* a sign between terms says something of them: "Var(q·k) = d_k", "Var(q·k) ∝ d_k" */
    static const char *const signs[] = {"=", "≈", "→", "<", ">", "∝", "≤", "≥", "≪", "≫"};
    for (size_t i = s->s0; i < s->s1; i++)
        for (size_t g = 0; g < sizeof signs / sizeof *signs; g++)
            if (qz_tok_is(s->t, i, signs[g]))
                return 0;
    size_t terms = 0, items = 0, item_terms = 0, max_item = 0, run_terms = 0, max_run = 0;
    size_t item_run = 0;   /* the longest run of terms in the item being read */
    size_t item_start = s->s0, dir_items = 0;   /* items that state something */
    int one_each = 1, any_term = 0;
    for (size_t i = s->s0; i <= s->s1;) {
        size_t cover = 0;
        int term = 0;
        for (size_t k = 0; i < s->s1 && k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (!m->virt && m->a == i && m->b - m->a > cover && m->kind != M_WITH) {
                cover = m->b - m->a;
                term |= live(m) && shadows(m);
            }
        }
        /* a claim's `with` word covers only where nothing else is found: "saturation" is
         * the second key idea's term, whatever claim needs it beside it */
        for (size_t k = 0; i < s->s1 && !cover && k < s->m.n; k++) {
            const mention *m = &s->m.v[k];
            if (!m->virt && m->a == i && m->b - m->a > cover && m->kind == M_WITH)
                cover = m->b - m->a;
        }
        int sep = 0;
        if (i == s->s1) {
            sep = 1;
        } else if (!cover) {
            cover = qz_alts_at(s->t, i, &s->r->glue, NULL);
            if (!cover && s->t->t[i].kind == QZ_TK_MARK && is_list_mark(s->t->t[i].s))
                cover = 1;
            if (!cover)
                return 0;
            sep = 1;
        }
        for (size_t k = 0; cover && !any_term && k < s->m.n; k++) {
            const mention *m = &s->m.v[k];   /* a term here, whichever mention came first */
            any_term = !m->virt && m->a == i && m->b - m->a == cover && live(m) && shadows(m);
        }
        if (term) {
            terms++;
            item_terms++;
        }
        run_terms = any_term ? run_terms + 1 : sep ? 0 : run_terms;
        if (run_terms > item_run)
            item_run = run_terms;
        any_term = 0;
        if (sep && item_terms) {
            items++;
            one_each &= item_terms == 1;
            size_t this_item = item_terms;
            item_terms = 0;
            /* a statement: a direction said (even inside a longer phrase: "grows with
             * dk"), or a subject and, after it, a claim ("softmax saturates") */
            int dir = 0;
            long subj_at = -1;
            for (size_t k = 0; k < s->m.n && !dir; k++) {
                const mention *x = &s->m.v[k];
                if (x->virt || x->a < item_start || x->a >= i)
                    continue;
                dir = x->kind == M_DIR && x->dir != QZ_DIR_NONE;
                if (x->kind == M_SUBJ && live(x) && (subj_at < 0 || (long)x->a < subj_at))
                    subj_at = (long)x->a;
            }
            for (size_t k = 0; k < s->m.n && !dir && subj_at >= 0; k++) {
                const mention *x = &s->m.v[k];
                dir = x->kind == M_CLAIM && live(x) && !x->virt && (long)x->a > subj_at && x->a < i;
            }
            dir_items += dir;
            /* many terms in one item are a list unless the item states something ("the
             * decoder's queries attend over the encoder's keys and values") … */
            /* …with a word of grammar in it: a possessive ('s, 的) or "of", a negation, or
             * a Chinese word that joins a subject to what is said of it (qz_lex_joins:
             * "除以 √dₖ 让点积的方差不随维度变大"); a list of keywords has none ("scaling
             * variance saturation gradients") */
            int grammar = 0;
            for (size_t j = item_start; dir && j < i && !grammar; j++) {
                const char *raw = s->t->t[j].raw;
                size_t rl = raw ? strlen(raw) : 0;
                grammar = (rl > 2 && (!strcmp(raw + rl - 2, "'s") ||
                                      (rl > 4 && !strcmp(raw + rl - 4, "’s")))) ||
                          qz_tok_raw_is(s->t, j, "of") || qz_tok_raw_is(s->t, j, "的") ||
                          /* a verb's preposition: "Dividing by √d_k normalizes std to 1" */
                          qz_tok_raw_is(s->t, j, "to") || qz_tok_raw_is(s->t, j, "into") ||
                          qz_neg_cue_at(s->t, j) != 0 || qz_alts_at(s->t, j, &s->r->joins, NULL);
            }
            if (!(dir && grammar) && this_item > max_item)
                max_item = this_item;
            if (!(dir && grammar) && item_run > max_run)
                max_run = item_run;
#ifdef QZ_STATEMENT_DEBUG
            fprintf(stderr, "  salad item [%zu,%zu): %zu terms, subject at %ld, states %d\n", item_start,
                    i, this_item, subj_at, dir);
#endif
        }
        if (sep) {
            item_start = i + (cover ? cover : 1);
            item_run = 0;
        }
        i += cover ? cover : 1;
    }
    /* short statements between commas ("variance grows with dk, softmax saturates,
     * gradients vanish", 防止点积过大，softmax 饱和，梯度消失) say something: two items
     * or more that state something are no list of terms */
    return (items >= 3 && one_each && dir_items < 2) || max_item >= 5 || max_run >= 5;
}

/* Is a subject found where m is (the word is a subject, not said of one)? */
static int subject_at(const sentence *s, const mention *m)
{
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_SUBJ && s->m.v[k].a == m->a && s->m.v[k].b == m->b)
            return 1;
    return 0;
}

/* A list of short items between commas (、 ,), four or more, two of them terms, none
 * saying something of a subject, no colon or equals sign: "Long-range dependency,
 * O(1), O(n), path length, RNN, self-attention". */
static int term_list(const sentence *s)
{
    size_t items = 0, with_terms = 0, width = 0;
    int subj = 0, claim = 0, term = 0;
    for (size_t i = s->s0; i <= s->s1; i++) {
        const qz_tok *k = i < s->s1 ? &s->t->t[i] : NULL;
        int sep = !k || (k->kind == QZ_TK_MARK && (!strcmp(k->s, ",") || !strcmp(k->s, "、")));
        if (k && k->kind == QZ_TK_MARK && (!strcmp(k->s, ":") || !strcmp(k->s, "=") ||
                                           !strcmp(k->s, "→")))
            return 0;
        if (sep) {
            if (width) {
                items++;
                with_terms += term;
                if ((subj && claim) || width > 6)
                    return 0;
            }
            width = 0;
            subj = claim = term = 0;
            continue;
        }
        width += k->kind == QZ_TK_HAN ? 1 : 2;
        claim |= k->kind == QZ_TK_NUM;   /* "均值 0、方差 1": a value given is said */
        for (size_t m = 0; m < s->m.n; m++) {
            const mention *x = &s->m.v[m];
            if (!live(x) || x->a != i)
                continue;
            subj |= x->kind == M_SUBJ && !x->foil && !x->object;
            claim |= (x->kind == M_CLAIM && context_holds(s, x->set, x->pat, x->claim, x->a) &&
                      !subject_at(s, x)) ||
                     (x->kind == M_DIR && x->dir != QZ_DIR_NONE);
            term |= shadows(x);
        }
    }
    return items >= 4 && with_terms >= 2;
}

/* Parts joined by "+", three or more, each a short name and none saying anything the
 * rubric reads (no claim that holds): "Multi-head self-attention + positional encoding +
 * residual + LayerNorm + FFN", 自注意力+前馈网络+层归一化: components listed, nothing
 * stated. */
static int plus_list(const sentence *s)
{
    size_t items = 0, width = 0, pluses = 0;
    for (size_t i = s->s0; i <= s->s1; i++) {
        const qz_tok *k = i < s->s1 ? &s->t->t[i] : NULL;
        if (!k || qz_tok_is(s->t, i, "+")) {
            if (!width || width > 8)
                return 0;
            items++;
            pluses += k != NULL;
            width = 0;
            continue;
        }
        if (k->kind == QZ_TK_MARK && !qz_tok_is(s->t, i, "(") && !qz_tok_is(s->t, i, ")") &&
            !qz_tok_is(s->t, i, "[") && !qz_tok_is(s->t, i, "]"))
            return 0;
        width += k->kind == QZ_TK_HAN ? 1 : 2;
    }
    for (size_t m = 0; m < s->m.n; m++) {
        const mention *x = &s->m.v[m];
        if (!live(x) || x->kind != M_CLAIM || !context_holds(s, x->set, x->pat, x->claim, x->a))
            continue;
        const qz_cpattern *p = pattern(s->r, x->set, x->pat);
        int subject = !p->subject.n || p->subject_implied || x->self;   /* "用" of no decoder */
        for (size_t j = 0; j < s->m.n && !subject; j++)
            subject = live(&s->m.v[j]) && s->m.v[j].kind == M_SUBJ && s->m.v[j].set == x->set &&
                      s->m.v[j].pat == x->pat;
        if (subject)
            return 0;
    }
    return items >= 3 && pluses >= 2;
}

/* Every token of [s0, s1) but marks is covered by alternatives of a; at least one. */
static int only_words_of(const qz_text *t, size_t s0, size_t s1, const qz_alts *a)
{
    int any = 0;
    for (size_t i = s0; i < s1;) {
        if (t->t[i].kind == QZ_TK_MARK) {
            i++;
            continue;
        }
        size_t len = qz_alts_at(t, i, a, NULL);
        if (!len)
            return 0;
        any = 1;
        i += len;
    }
    return any;
}

static int has_words_of(const qz_text *t, size_t s0, size_t s1, const qz_alts *a)
{
    for (size_t i = s0; i < s1; i++)
        if (qz_alts_at(t, i, a, NULL))
            return 1;
    return 0;
}

/* ---- sentences */

static int ends_sentence(const qz_text *t, size_t i)
{
    const qz_tok *k = &t->t[i];
    /* dots of a pause after a word a statement cannot end on ("V from ... also the
     * decoder", "K comes from the... encoder") end nothing */
    if (k->kind == QZ_TK_MARK && !strcmp(k->s, ".") &&
        ((i + 1 < t->n && qz_tok_is(t, i + 1, ".")) || (i > 0 && qz_tok_is(t, i - 1, ".")))) {
        static const char *const open[] = {"from", "to", "of", "the", "a", "an", "is", "are",
                                           "was", "were", "by", "in", "on", "at", "with", "and",
                                           "or", "into", "than"};
        size_t j = i;
        while (j > 0 && qz_tok_is(t, j - 1, "."))
            j--;
        for (size_t w = 0; j > 0 && w < sizeof open / sizeof open[0]; w++)
            if (qz_tok_raw_is(t, j - 1, open[w]))
                return 0;
    }
    /* a dash before a relative word goes on with the sentence: "the [CLS] token — which
     * BERT puts first" */
    if (k->kind == QZ_TK_MARK && !strcmp(k->s, "—") && i + 1 < t->n &&
        (qz_tok_raw_is(t, i + 1, "which") || qz_tok_raw_is(t, i + 1, "who") ||
         qz_tok_raw_is(t, i + 1, "where")))
        return 0;
    if (k->kind == QZ_TK_MARK)
        return !strcmp(k->s, ".") || !strcmp(k->s, "!") || !strcmp(k->s, "?") ||
               !strcmp(k->s, ";") || !strcmp(k->s, "。") || !strcmp(k->s, "｡") ||
               !strcmp(k->s, "—");
    return 0;
}

/* Length of a contrast word at token i (it ends a sentence and belongs to none). */
static size_t contrast_at(const qz_text *t, size_t i)
{
    static const char *const en[] = {"but", "while", "whereas", "however", "although", "though",
                                     "whilst"};
    const qz_tok *k = &t->t[i];
    if (k->kind == QZ_TK_WORD) {
        /* "while decoding": a time, no contrast */
        if (!strcmp(k->raw, "while") && i + 1 < t->n && t->t[i + 1].kind == QZ_TK_WORD &&
            strlen(t->t[i + 1].raw) > 4 && !strcmp(t->t[i + 1].raw + strlen(t->t[i + 1].raw) - 3, "ing"))
            return 0;
        /* "however many words are between them", "however far apart": a degree, no
         * contrast */
        static const char *const degree[] = {"many", "much", "far", "long", "large", "big",
                                             "distant", "close"};
        for (size_t w = 0; !strcmp(k->raw, "however") && i + 1 < t->n && w < sizeof degree / sizeof *degree; w++)
            if (!strcmp(t->t[i + 1].raw, degree[w]))
                return 0;
        for (size_t w = 0; w < sizeof en / sizeof en[0]; w++)
            if (!strcmp(k->raw, en[w]))
                return 1;
        return 0;
    }
    if (k->kind != QZ_TK_HAN)
        return 0;
    size_t l;
    if ((l = qz_han_at(t, i, "然而")) || (l = qz_han_at(t, i, "反之")))
        return l;
    if (!strcmp(k->s, "而")) {
        static const char *const not_after[] = {"且", "言", "不是", "非"};   /* 而不是: instead */
        static const char *const not_before[] = {"从", "进", "因", "然", "继", "反"};
        for (size_t w = 0; w < 4; w++)
            if (qz_han_at(t, i + 1, not_after[w]))
                return 0;
        for (size_t w = 0; i > 0 && w < sizeof not_before / sizeof not_before[0]; w++)
            if (qz_han_at(t, i - 1, not_before[w]))
                return 0;
        /* between two verbs with no mark it joins them ("随着序列变长而经过更多时间步"):
         * a contrast follows a mark, or says 而是 */
        if (i > 0 && t->t[i - 1].kind == QZ_TK_HAN && !qz_han_at(t, i + 1, "是"))
            return 0;
        return 1;
    }
    if (!strcmp(k->s, "但"))
        return 1;
    if (!strcmp(k->s, "则")) {
        static const char *const not_before[] = {"规", "原", "法", "准", "细"};
        for (size_t w = 0; i > 0 && w < sizeof not_before / sizeof not_before[0]; w++)
            if (qz_han_at(t, i - 1, not_before[w]))
                return 0;
        return 1;
    }
    return 0;
}

/* Length of the word at token i that offers the second of two alternatives the sentence
 * from s0 opened ("either A or B", 要么 A 要么 B): each alternative is read as a sentence of
 * its own, so a right one beside a wrong one is a hedge between them, not a right answer. */
static size_t alternative_at(const qz_text *t, size_t s0, size_t i)
{
    size_t l = 0;
    if (t->t[i].kind == QZ_TK_WORD && !strcmp(t->t[i].raw, "or")) {
        for (size_t j = s0; j < i; j++)
            if (t->t[j].kind == QZ_TK_WORD && !strcmp(t->t[j].raw, "either"))
                return 1;
        return 0;
    }
    if ((l = qz_han_at(t, i, "要么")) != 0)
        for (size_t j = s0; j < i; j++)
            if (qz_han_at(t, j, "要么"))
                return l;
    return 0;
}

/* The dots of "i.e." and "e.g." end nothing. */
static int abbreviation_dot(const qz_text *t, size_t i)
{
    /* "1. Encoder": a list number; not a value after a sign ("the variance goes to ≈1.
     * Without it …") */
    static const char *const signs[] = {"≈", "~", "∼", "≃", "=", "<", ">", "≤", "≥", "+", "-",
                                        "−", "×", "*", "/", "^", "±", NULL};
    int after_sign = 0;
    for (size_t k = 0; i >= 2 && signs[k] && !after_sign; k++)
        after_sign = qz_tok_is(t, i - 2, signs[k]);
    if (i >= 1 && t->t[i - 1].kind == QZ_TK_NUM && strlen(t->t[i - 1].s) <= 2 &&
        (i == 1 || (t->t[i - 2].kind == QZ_TK_MARK && !after_sign)))
        return 1;
    /* "Vaswani et al. showed …", "cf. the paper", "vs. RNNs", "approx. 0.14" */
    static const char *const abbr[] = {"al", "cf", "vs", "approx", "fig", "eq", "resp", NULL};
    for (size_t a = 0; abbr[a]; a++)
        if (i >= 1 && i + 1 < t->n && qz_tok_raw_is(t, i - 1, abbr[a]))
            return 1;
    /* dotted letters: "i.e.", "e.g.", "w.r.t. the other scores" (every dot of one) */
    static const char *const dotted[] = {"ie", "eg", "wrt"};
    for (size_t a = 0; a < sizeof dotted / sizeof *dotted; a++) {
        size_t len = strlen(dotted[a]);
        for (size_t m = 0; m < len; m++) {   /* i is the dot after letter m */
            if (i < 1 + 2 * m || i - 1 - 2 * m + 2 * len > t->n)
                continue;
            size_t j = i - 1 - 2 * m;
            int all = 1;
            for (size_t q = 0; q < len && all; q++) {
                char letter[2] = {dotted[a][q], '\0'};
                all = qz_tok_raw_is(t, j + 2 * q, letter) && qz_tok_is(t, j + 2 * q + 1, ".");
            }
            if (all)
                return 1;
        }
    }
    return 0;
}

/* Does a list number start at token i: "2)", "(2)", "（2）" (1 or 2 digits)? */
static int list_number_at(const qz_text *t, size_t i)
{
    size_t k = i;
    if (k < t->n && qz_tok_is(t, k, "("))
        k++;
    if (k >= t->n || t->t[k].kind != QZ_TK_NUM || strlen(t->t[k].s) > 2 || strchr(t->t[k].s, '.'))
        return 0;
    if (k + 1 >= t->n || !qz_tok_is(t, k + 1, ")"))
        return 0;
    /* "(0)" right after a word is its argument ("exp(0) = 0"), not a list number */
    if (k != i && i > 0 && t->t[i - 1].kind == QZ_TK_WORD && k + 2 < t->n &&
        (qz_tok_is(t, k + 2, "=") || qz_tok_is(t, k + 2, "≈")))
        return 0;
    if (k == i && open_paren(t, 0, t->n, i) != SIZE_MAX)
        return 0;   /* "(… don't sum to 1)": the ')' closes a parenthesis the text opened */
    /* "2)" after a word ("… long path 2) …"), not after a sign ("Var≈1)") */
    return k == i ? i == 0 || t->t[i - 1].kind == QZ_TK_WORD || t->t[i - 1].kind == QZ_TK_HAN : 1;
}

/* How a sentence ends. */
enum { END_TEXT, END_FULL, END_CONTRAST, END_CONSEQUENCE, END_CORRECTION };

/* Does a clause start at token i: the text's start or a mark before it, fillers
 * ("hmm, no wait") passed over? */
static int clause_start(const qz_rubric_c *r, const qz_text *t, size_t i)
{
    while (i > 0) {
        const qz_tok *k = &t->t[i - 1];
        if (k->kind == QZ_TK_MARK)
            return 1;
        size_t f = 0;   /* a filler ending right before i */
        for (size_t j = i - 1; j + 1 > 0 && j + 3 >= i && !f; j--)
            if (qz_alts_at(t, j, &r->filler, NULL) == i - j)
                f = i - j;
        if (!f)
            return 0;
        i -= f;
    }
    return 1;
}

/* A correction at token i ("no wait", "sorry, I mean", 不对, 说错了): its length in
 * tokens, 0 if none. What follows it is the student's answer now. */
static size_t correction_at(const qz_rubric_c *r, const qz_text *t, size_t i)
{
    size_t l = qz_alts_at(t, i, &r->correct_strong, NULL);
    if (!l && clause_start(r, t, i))
        l = qz_alts_at(t, i, &r->correct_weak, NULL);
    /* "I first thought …, but actually …", 一开始我以为…，其实…: the belief disowned */
    size_t turn = l ? 0 : qz_alts_at(t, i, &r->turn, NULL);
    for (size_t j = 0; turn && j < i && !l; j++)
        if (qz_alts_at(t, j, &r->thought, NULL))
            l = turn;
    return l;
}

/* A denial turned into what holds, at the mark i of the sentence from s0: "Q is not
 * from the encoder, it's from the decoder", "not from the encoder - Q is from the
 * decoder", "Q 不是来自编码器，是来自解码器" — what follows the mark is affirmed, as after
 * "but" or 而是. 1 (the mark's length) or 0. */
static size_t denial_turn_at(const qz_text *t, size_t s0, size_t i)
{
    const qz_tok *k = &t->t[i];
    if (k->kind != QZ_TK_MARK || i + 1 >= t->n)
        return 0;
    int comma = !strcmp(k->s, ",") || !strcmp(k->s, "，"),
        dash = !strcmp(k->s, "-") || !strcmp(k->s, "–") || !strcmp(k->s, "—");
    if (!comma && !dash)
        return 0;
    int en = 0, zh = 0;
    for (size_t j = s0; j < i; j++) {
        const qz_tok *d = &t->t[j];
        if (d->kind == QZ_TK_WORD && d->raw) {
            size_t n = strlen(d->raw);
            en |= !strcmp(d->raw, "not") || (n > 3 && !strcmp(d->raw + n - 3, "n't"));
        }
        zh |= d->kind == QZ_TK_HAN && qz_neg_cue_at(t, j) != 0;
    }
    if (!en && !zh)
        return 0;
    if (zh && qz_han_at(t, i + 1, "是") && !qz_han_at(t, i + 1, "是不是"))
        return 1;
    if (en && ((qz_tok_raw_is(t, i + 1, "instead") && !qz_tok_raw_is(t, i + 2, "of")) ||
               (qz_tok_raw_is(t, i + 1, "rather") && !qz_tok_raw_is(t, i + 2, "than"))))
        return 1;   /* "not from the encoder, instead from the decoder" */
    if (en && (qz_tok_raw_is(t, i + 1, "it's") || qz_tok_raw_is(t, i + 1, "they're") ||
               qz_tok_raw_is(t, i + 1, "that's") ||
               ((qz_tok_raw_is(t, i + 1, "it") || qz_tok_raw_is(t, i + 1, "that")) &&
                (qz_tok_raw_is(t, i + 2, "is") || qz_tok_raw_is(t, i + 2, "comes"))) ||
               (qz_tok_raw_is(t, i + 1, "they") &&
                (qz_tok_raw_is(t, i + 2, "are") || qz_tok_raw_is(t, i + 2, "come")))))
        return 1;
    return en && dash;
}

/* The end of the sentence starting at s0, where the next one starts, and how it ended
 * (*how: END_*). */
static size_t sentence_end(const qz_rubric_c *r, const qz_text *t, size_t s0, size_t *next,
                           int *how)
{
    for (size_t i = s0; i < t->n; i++) {
        size_t l;
        if (i > s0 && correction_at(r, t, i)) {
            *next = i;
            *how = END_CORRECTION;
            return i;
        }
        if (i > s0 && list_number_at(t, i)) {   /* "… long path 2) attention …", "（2）" */
            *next = i;
            *how = END_FULL;
            return i;
        }
        if (ends_sentence(t, i) && !abbreviation_dot(t, i)) {
            *next = i + 1;
            /* "Q is not from the encoder — it's the decoder's": a dash after a denial
             * turns to what holds */
            *how = i > s0 && qz_tok_is(t, i, "—") && denial_turn_at(t, s0, i) ? END_CONTRAST : END_FULL;
            return i;
        }
        if (i > s0 && ((l = contrast_at(t, i)) != 0 || (l = denial_turn_at(t, s0, i)) != 0 ||
                       (l = alternative_at(t, s0, i)) != 0)) {
            *next = i + l;
            *how = END_CONTRAST;
            return i;
        }
        if (t->t[i].kind == QZ_TK_MARK && (!strcmp(t->t[i].s, ",") || !strcmp(t->t[i].s, "，")) &&
            i + 1 < t->n && qz_alts_at(t, i + 1, &r->consequence, NULL)) {
            *next = i + 1;
            *how = END_CONSEQUENCE;
            return i;
        }
    }
    *next = t->n;
    *how = END_TEXT;
    return t->n;
}

/* The end of the period (up to . ! ? ; 。 or a correction) holding token s0. */
static size_t period_end(const qz_rubric_c *r, const qz_text *t, size_t s0)
{
    for (size_t i = s0; i < t->n; i++)
        if ((ends_sentence(t, i) && !abbreviation_dot(t, i)) || (i > s0 && correction_at(r, t, i)))
            return i;
    return t->n;
}

/* Does the sentence [s0, s1) ending in "?" ask (the question repeated, "What does it
 * do?"), rather than answer with a doubt ("maybe it keeps them small?", 好像是…？)? */
static int asks(const qz_rubric_c *r, const qz_text *t, size_t s0, size_t s1)
{
    /* the question quoted under a label: "Q: \"Is the encoder enough …?\"", 引用：「…？」,
     * "> (1) Is …?" */
    for (int again = 1; again;) {
        again = 0;
        while (s0 < s1 && (t->t[s0].kind == QZ_TK_MARK || qz_alts_at(t, s0, &r->filler, NULL)) &&
               !list_number_at(t, s0))
            s0++;
        size_t l = s0 < s1 ? qz_alts_at(t, s0, &r->quote_label, NULL) : 0;
        if (s0 < s1 && list_number_at(t, s0)) {
            s0 += qz_tok_is(t, s0, "(") ? 3 : 2;
            again = 1;
        } else if (l && s0 + l < s1 && qz_tok_is(t, s0 + l, ":")) {
            s0 += l + 1;
            again = 1;
        }
    }
    if (has_words_of(t, s0, s1, &r->hedge))
        return 0;
    if (s0 < s1 && qz_alts_at(t, s0, &r->question, NULL))
        return 1;
    /* the choice asked repeated as a heading: "(1) Encoder or Decoder?", 编码器还是解码器？ */
    size_t words = 0, or_at = SIZE_MAX;
    for (size_t i = s0; i < s1; i++) {
        words += t->t[i].kind != QZ_TK_MARK;
        if (qz_tok_raw_is(t, i, "or") || qz_han_at(t, i, "还是") == 2 || qz_tok_is(t, i, "或"))
            or_at = i;
    }
    if (or_at != SIZE_MAX && or_at > s0 && words <= 7)
        return 1;
    for (size_t i = s0; i < s1; i++)
        if (t->t[i].kind == QZ_TK_HAN && qz_alts_at(t, i, &r->question, NULL))
            return 1;
    return s1 > s0 && (qz_tok_is(t, s1 - 1, "吗") || qz_tok_is(t, s1 - 1, "呢"));
}

/* A bare reply to the question before it ("Need a decoder? No.", "Encoder enough? Yes.",
 * 需要 Decoder 吗？不需要。): its length in tokens with the mark that ends it, 0 if the
 * sentence at i is no such reply; *yes tells which. A reply that goes on after a comma
 * ("No, the CLS token.") is the word and the comma. */
static size_t bare_reply(const qz_rubric_c *r, const qz_text *t, size_t i, int *yes)
{
    size_t l = qz_alts_at(t, i, &r->reply_no, NULL);
    *yes = !l;
    if (!l)
        l = qz_alts_at(t, i, &r->reply_yes, NULL);
    if (!l || (i + l < t->n && t->t[i + l].kind != QZ_TK_MARK))
        return 0;   /* none, or a word of the sentence goes on: "不需要 decoder" */
    size_t e = i + l;
    while (e < t->n && e < i + l + 2 && t->t[e].kind == QZ_TK_MARK && !qz_tok_is(t, e, "("))
        e++;
    return e - i;
}

typedef struct reader {
    const qz_rubric_c *r;
    const qz_text *t;
    size_t p0, p1;            /* the period the sentence is in (`unless` looks there) */
    int after_contrast;       /* the sentence follows a contrast word ("… but from the
                               * decoder"): it may take the subject before */
    int after_turn;           /* …a contrast or a denial turned, not a consequence */
    mention *carry;           /* the last group of subjects of the sentence before */
    size_t n_carry;
    matches all;
    /* segments: the answer as first stated, then after each correction ("no wait, …")
     * or turn ("the other way round"); seg_first[k]: its first match in `all` */
    size_t *seg_first;
    unsigned char *seg_turn;  /* [n_seg] it says "the other way round" */
    unsigned char *seg_restart;   /* [n_seg] it starts the answer over ("scratch that") */
    size_t n_seg, cap_seg;
    int hedged;               /* a subject given two different claims as alternatives */
    int reply;                /* the sentence is a question answered by a bare "yes" (1) or
                               * "no" (2) after it */
    int side;                 /* k > 0: the reading of the lesson's misconception k - 1 alone */
    size_t n_read;            /* sentences read so far */
    int padded;               /* the first sentence lists terms and more follows: padding,
                               * judged by what the rest states (a salad if it states nothing) */
    qz_reading *out;
} reader;

/* A new segment starts with the next match. 0, or -1 when out of memory. */
static int segment_open(reader *rd)
{
    if (rd->n_seg == rd->cap_seg) {
        size_t cap = rd->cap_seg ? 2 * rd->cap_seg : 8;
        size_t *f = realloc(rd->seg_first, cap * sizeof *f);
        if (!f)
            return -1;
        rd->seg_first = f;
        unsigned char *u = realloc(rd->seg_turn, cap);
        if (!u)
            return -1;
        rd->seg_turn = u;
        u = realloc(rd->seg_restart, cap);
        if (!u)
            return -1;
        rd->seg_restart = u;
        rd->cap_seg = cap;
    }
    rd->seg_first[rd->n_seg] = rd->all.n;
    rd->seg_restart[rd->n_seg] = 0;
    rd->seg_turn[rd->n_seg++] = 0;
    return 0;
}

/* Keep the last group of subjects for the next sentence: one only compared with (a foil,
 * "自注意力不像 RNN 那样…，而是…") is not what the next one speaks of, while a subject of
 * the sentence's own stands before it. */
static int keep_carry(reader *rd, const sentence *s)
{
    long last = -1, last_own = -1;
    for (size_t k = 0; k < s->m.n; k++)
        if (s->m.v[k].kind == M_SUBJ && s->m.v[k].run >= 0 && !s->m.v[k].virt) {
            long r = s->m.v[k].run;
            last = r > last ? r : last;
            if (!s->run_foil[r] && !s->m.v[k].foil)
                last_own = r > last_own ? r : last_own;
        }
    if (last_own >= 0)
        last = last_own;
    int used = 0;
    for (size_t k = 0; k < s->m.n; k++)
        used |= s->m.v[k].virt;
    if (last < 0 && used)
        return 0;      /* carried on: "Self-attention … . It … . So …" */
    free(rd->carry);   /* a sentence with subjects of its own, or none at all, ends it */
    rd->carry = NULL;
    rd->n_carry = 0;
    for (size_t k = 0; last >= 0 && k < s->m.n; k++)
        if (s->m.v[k].kind == M_SUBJ && s->m.v[k].run == last && !s->m.v[k].virt) {
            mention *v = realloc(rd->carry, (rd->n_carry + 1) * sizeof *v);
            if (!v)
                return -1;
            rd->carry = v;
            rd->carry[rd->n_carry++] = s->m.v[k];
        }
    return 0;
}

/* Does a claim at [a, b) share a pattern with any claim at [c, d)? Synonyms ("the decoder
 * or the target side") do; two sides ("the decoder or the encoder") do not. */
static int same_claim(const sentence *s, size_t a, size_t b, size_t c, size_t d)
{
    for (size_t i = 0; i < s->m.n; i++) {
        const mention *x = &s->m.v[i];
        if (x->kind != M_CLAIM || !live(x) || x->a != a || x->b != b)
            continue;
        for (size_t j = 0; j < s->m.n; j++) {
            const mention *y = &s->m.v[j];
            if (y->kind == M_CLAIM && live(y) && y->a == c && y->b == d && y->set == x->set &&
                y->pat == x->pat)
                return 1;
        }
    }
    return 0;
}

/* "Q comes from the decoder or the encoder", "梯度消失或爆炸", "来自解码器（也可能是编码器）":
 * a claim said of its subject, then another, different one offered as an alternative
 * (or, 或, 或者, 还是, /, 也可能是): the student has not chosen. */
static int hedged(const sentence *s, const long *owner)
{
    const qz_text *t = s->t;
    /* claims given out by "respectively" to the parts of a group, one each: no choice left open */
    int resp = has_words_of(t, s->s0, s->s1, &s->r->respectively);
    for (size_t k = 0; k < s->m.n; k++) {
        const mention *c2 = &s->m.v[k];
        if (c2->kind != M_CLAIM || !live(c2))
            continue;
        size_t j = c2->a;
        while (j > s->s0 && (qz_tok_raw_is(t, j - 1, "the") || qz_tok_raw_is(t, j - 1, "a") ||
                             qz_tok_raw_is(t, j - 1, "an")))
            j--;
        size_t l = 0;
        if (j > s->s0 && (qz_tok_raw_is(t, j - 1, "or") || qz_tok_raw_is(t, j - 1, "/") ||
                          qz_tok_raw_is(t, j - 1, "或")))
            l = 1;
        else if (j >= s->s0 + 2 && (qz_han_at(t, j - 2, "或者") == 2 || qz_han_at(t, j - 2, "还是") == 2))
            l = 2;
        else if (j >= s->s0 + 4 && qz_han_at(t, j - 4, "也可能是") == 4)
            l = 4;
        else if (j >= s->s0 + 3 && qz_han_at(t, j - 3, "可能是") == 3)
            l = 3;
        if (!l)
            continue;
        /* "learns slowly or even gets stuck", 或者甚至: the second goes further, no choice */
        if (qz_tok_raw_is(t, c2->a, "even") || qz_han_at(t, c2->a, "甚至") == 2)
            continue;
        size_t end = j - l;
        if (end > s->s0 && (!strcmp(t->t[end - 1].s, "（") || !strcmp(t->t[end - 1].s, "(")))
            end--;
        for (size_t i = 0; i < s->m.n; i++) {
            const mention *c1 = &s->m.v[i];
            if (c1->kind == M_CLAIM && live(c1) && owner[i] >= 0 && c1->b == end &&
                (!resp || owner[k] < 0 || owner[k] == owner[i]) &&   /* "Q/K/V 分别来自 decoder/encoder/…" */
                !same_claim(s, c1->a, c1->b, c2->a, c2->b))
                return 1;
        }
    }
    return 0;
}

/* Does [a, b) open with a word naming a difference (区别, 差别, 差异, 不同, 差在,
 * difference), after at most two words before it ("本质区别", "the key difference",
 * "两者差在「几步能到」")? */
static int difference_heading(const qz_text *t, size_t a, size_t b)
{
    static const char *const han[] = {"区别", "差别", "差异", "不同", "差在"};
    for (size_t i = a; i < b && i < a + 4; i++) {
        for (size_t w = 0; w < sizeof han / sizeof han[0]; w++)
            if (qz_han_at(t, i, han[w]))
                return 1;
        if (qz_tok_raw_is(t, i, "difference") || qz_tok_raw_is(t, i, "differences"))
            return 1;
    }
    return 0;
}

/* Where the words of a at or after token from first start in [from, to), or SIZE_MAX;
 * *len their length. */
static size_t words_at(const qz_text *t, size_t from, size_t to, const qz_alts *a, size_t *len)
{
    for (size_t i = from; i < to; i++) {
        size_t l = qz_alts_at(t, i, a, NULL);
        if (l && i + l <= to) {
            *len = l;
            return i;
        }
    }
    return SIZE_MAX;
}

/* What the student reports and rejects states nothing of its own: "It is false that in an
 * RNN …", "Many people think …, but that is a myth", "说 RNN 逐步传递…，这是错误的",
 * "很多人以为…，但这是误解". Every claim said after the frame's opening (before the
 * rejecting words, where there are some) is not read: a key idea there is not credited
 * and a misconception there is not held. (Not read as the opposite: a key idea's words
 * may name what the rejected claim is about, "It is not true that [CLS] only sees
 * itself".) */
static void reject_reported(sentence *s)
{
    const qz_text *t = s->t;
    size_t l = 0, from = SIZE_MAX, to = s->s1;
    size_t first = s->s0;
    while (first < s->s1 && t->t[first].kind == QZ_TK_MARK)
        first++;
    size_t o = words_at(t, first, s->s1, &s->r->reject_open, &l);
    if (o != SIZE_MAX && o <= first + 2) {
        from = o + l;
        /* to a colon, where what is true follows: "It is not true that [CLS] only sees
         * itself: it attends to every token" */
        for (size_t i = from; i < s->s1; i++)
            if (qz_tok_is(t, i, ":") || qz_tok_is(t, i, "：")) {
                to = i;
                break;
            }
    } else {
        /* the tail may stand past a contrast that ends the sentence, in its period: "…,
         * but that is a myth", "…，但这是误解" */
        size_t end = s->p1 > s->s1 ? s->p1 : s->s1;
        size_t tl = 0, tail = words_at(t, first, end, &s->r->reject_tail, &tl);
        if (tail == SIZE_MAX)
            return;
        /* …with nothing but the contrast between ("but", 但, a comma) */
        if (tail > s->s1) {
            for (size_t i = s->s1; i < tail; i++)
                if (t->t[i].kind != QZ_TK_MARK && !qz_tok_raw_is(t, i, "but") &&
                    !qz_tok_is(t, i, "但") && !qz_tok_is(t, i, "但是") && !qz_tok_is(t, i, "可"))
                    return;
        }
        if (tail > s->s1)
            tail = s->s1;
        size_t rl = 0, rep = words_at(t, first, tail, &s->r->report, &rl);
        /* 说 reports only where it opens the sentence (说明, 所说 are no report) */
        while (rep != SIZE_MAX && qz_tok_is(t, rep, "说") && rep != first)
            rep = words_at(t, rep + 1, tail, &s->r->report, &rl);
        from = rep != SIZE_MAX ? rep + rl : first;
        to = tail;
    }
    for (size_t k = 0; k < s->m.n; k++) {
        mention *m = &s->m.v[k];
        if (live(m) && m->kind != M_SUBJ && m->kind != M_UNLESS && m->kind != M_WITH &&
            m->a >= from && m->b <= to)
            m->dead = 1;
    }
}

static int read_sentence(reader *rd, size_t s0, size_t s1)
{
    sentence s = {.r = rd->r, .t = rd->t, .s0 = s0, .s1 = s1, .p0 = rd->p0, .p1 = rd->p1,
                  .side = rd->side, .turned = rd->after_turn};
    int rc = 0;
    long *owner = NULL;
    find_all(&s);
    shadow(&s);
    side_positions(&s);
    mark_foils(&s);
    mark_states_before(&s);
    mark_times(&s);
    if (!rd->reply)
        mark_asked(&s);
    negate(&s);
    reject_reported(&s);
    if (rd->reply)
        answer_reply(&s, rd->reply == 1);
    size_t said = 0, subjects = 0;
    for (size_t k = 0; k < s.m.n; k++) {
        said += live(&s.m.v[k]) && shadows(&s.m.v[k]);
        subjects += live(&s.m.v[k]) && s.m.v[k].kind == M_SUBJ && !s.m.v[k].foil &&
                    !s.m.v[k].object;
    }
    /* A colon that does not label a subject ("RNN: O(n)") ends a sentence: "It's like a
     * library: the decoder brings the question (Q), …", "The target side queries the
     * source side: the decoder's states are the queries …" */
    for (size_t c = s0 + 1; c + 1 < s1; c++) {
        if (!qz_tok_is(rd->t, c, ":"))
            continue;
        /* a label: one subject or one claim since the last mark ("RNN:", "From the
         * decoder: Q") */
        size_t from = s0, in_label = 0;
        for (size_t i = c; i > s0; i--)   /* a bracket is inside the label: "Keys (K):" */
            if (rd->t->t[i - 1].kind == QZ_TK_MARK && !tok_open(rd->t, i - 1) &&
                !tok_close(rd->t, i - 1)) {
                from = i;
                break;
            }
        int before = 0, subj_ends = 0;
        size_t subjects = 0, claim_at = SIZE_MAX;
        for (size_t k = 0; k < s.m.n; k++) {
            const mention *m = &s.m.v[k];
            if (!live(m) || !shadows(m) || m->set == NEUTRAL)
                continue;
            before |= m->a < c;
            if (m->a < from || m->b > c)
                continue;
            /* "Keys (K) and Values (V):" ends on a subject and its bracketed letter */
            subj_ends |= m->kind == M_SUBJ &&
                         (m->b == c || (tok_close(rd->t, c - 1) &&
                                        open_paren(rd->t, s0, c, c - 1) == m->b));
            subjects += m->kind == M_SUBJ;
            if (m->kind != M_SUBJ && claim_at != m->a)
                in_label += claim_at == SIZE_MAX || m->a >= claim_at;
            if (m->kind != M_SUBJ && claim_at == SIZE_MAX)
                claim_at = m->a;
        }
        /* "K and V:" (subjects only), "From the decoder:" (one claim only) */
        /* …but a claim labels only what has none of its own: "编码器那边提供字典：Q 由
         * decoder 的隐藏状态得到" is a sentence before a sentence */
        size_t next_mark = c + 1;
        while (next_mark < s1 && rd->t->t[next_mark].kind != QZ_TK_MARK)
            next_mark++;
        int claimed_after = 0;
        for (size_t k = 0; k < s.m.n && in_label == 1 && !subjects; k++) {
            const mention *m = &s.m.v[k];
            claimed_after |= live(m) && shadows(m) && m->set != NEUTRAL && m->kind != M_SUBJ &&
                             m->a > c && m->b <= next_mark;
        }
        int labels = (subj_ends && !in_label) || (in_label == 1 && !subjects && !claimed_after);
        /* "差别在信息传递的路径：…", "The key difference — in how information travels:":
         * a heading that names what differs says nothing of either side; what follows
         * the colon is the answer */
        if (from == s0 && !subjects && difference_heading(rd->t, s0, c)) {
            free(s.m.v);
            return read_sentence(rd, c + 1, s1);
        }
        if (labels || has_words_of(rd->t, s0, c, &rd->r->retract))
            continue;
        free(s.m.v);
        int rc2 = before ? read_sentence(rd, s0, c) : 0;
        return rc2 ? rc2 : read_sentence(rd, c + 1, s1);
    }
    rd->out->mentions += said;
    /* "It's the other way round", 反过来: a turn on what came before. A sentence
     * that says only that, or opens with it, starts a segment of its own. */
    size_t lead = s0;
    while (lead < s1 && (rd->t->t[lead].kind == QZ_TK_MARK ||
                         qz_alts_at(rd->t, lead, &rd->r->filler, NULL) ||
                         qz_alts_at(rd->t, lead, &rd->r->pronoun, NULL) ||
                         qz_tok_raw_is(rd->t, lead, "it's") || qz_tok_raw_is(rd->t, lead, "is") ||
                         qz_tok_raw_is(rd->t, lead, "应该") || qz_tok_is(rd->t, lead, "是")))
        lead++;
    int turn = has_words_of(rd->t, s0, s1, &rd->r->retract);
    if (turn && (!said || (lead < s1 && qz_alts_at(rd->t, lead, &rd->r->retract, NULL)))) {
        if (rd->seg_first[rd->n_seg - 1] != rd->all.n && segment_open(rd)) {
            rc = -1;
            goto out;
        }
        rd->seg_turn[rd->n_seg - 1] = 1;
    } else if (turn && rd->n_seg > 1 && rd->seg_first[rd->n_seg - 1] == rd->all.n) {
        rd->seg_turn[rd->n_seg - 1] = 1;   /* "no wait, it's the opposite: …" */
    }
    if (plus_list(&s)) {   /* components joined by "+": a list, whatever the rubric reads */
        rd->out->salad = 1;
        goto out;
    }
    if (!said)
        goto out;
    /* carried only into a sentence that opens with a pronoun or a connective ("It …",
     * "So …", 所以): another one may speak of something the rubric does not name */
    int opens = rd->after_contrast || qz_alts_at(rd->t, s0, &rd->r->pronoun, NULL) ||
                qz_alts_at(rd->t, s0, &rd->r->consequence, NULL) ||
                qz_alts_at(rd->t, s0, &rd->r->glue, NULL) ||
                /* what a colon or a dash opens tells of the sentence before it:
                 * "Self-attention is a group chat: everyone hears everyone directly", "… a
                 * group chat — everyone reaches everyone in a single step" */
                (s0 > 0 && (qz_tok_is(rd->t, s0 - 1, ":") || qz_tok_is(rd->t, s0 - 1, "—")));
    /* "Its purpose is …", "Their job …", 它的作用: a possessive opens a sentence about
     * what it owns, not about the subjects before */
    if (!rd->after_contrast && s0 + 1 < s1 &&
        (qz_tok_raw_is(rd->t, s0, "its") || qz_tok_raw_is(rd->t, s0, "their") ||
         ((qz_tok_is(rd->t, s0, "它") || qz_tok_is(rd->t, s0, "它们")) &&
          qz_tok_is(rd->t, s0 + 1, "的"))))
        opens = 0;
    /* a sentence stating something of any subject ("It lets the decoder attend to the
     * source") speaks of that, not of the subjects before */
    for (size_t k = 0; opens && k < s.m.n; k++) {
        const mention *m = &s.m.v[k];
        if (m->kind == M_CLAIM && live(m)) {
            const qz_cpattern *p = pattern(rd->r, m->set, m->pat);
            opens = p->subject.n || p->subject_implied ||
                    !context_holds(&s, m->set, m->pat, m->claim, m->a);
        }
    }
    /* "依赖距离一个随长度增长，另一个是常数": one and the other, each said of one of the
     * subjects before, neither of the last one in particular */
    if (!subjects && opens && indefinite_pair(&s))
        opens = 0;
    if (!subjects && opens)
        for (size_t k = 0; k < rd->n_carry; k++) {
            mention m = rd->carry[k];
            m.a = m.b = s0;
            m.virt = 1;
            m.dead = 0;
            /* "不是说 RNN 看不到远处，而是它要经过…": what was denied was said of it there;
             * carried past the contrast it is affirmed */
            if (rd->after_contrast)
                m.neg = 0;
            madd(&s.m, m);
        }
    if (s.m.failed || group_subjects(&s)) {
        rc = -1;
        goto out;
    }
    choose_order(&s);
    s.first_content = s0;
    for (size_t l; s.first_content < s1 &&
                   ((l = qz_alts_at(rd->t, s.first_content, &rd->r->consequence, NULL)) != 0 ||
                    (l = qz_alts_at(rd->t, s.first_content, &rd->r->pronoun, NULL)) != 0 ||
                    (l = qz_alts_at(rd->t, s.first_content, &rd->r->glue, NULL)) != 0 ||
                    rd->t->t[s.first_content].kind == QZ_TK_MARK);)
        s.first_content += l ? l : 1;
    owner = malloc((s.m.n ? s.m.n : 1) * sizeof *owner);
    if (!owner) {
        rc = -1;
        goto out;
    }
    for (size_t k = 0; k < s.m.n; k++)
        owner[k] = -1;
    owners(&s, owner);
    like_foil(&s, owner);
    distribute(&s, owner);
    pair_lists(&s, owner);
    paren_roles(&s, owner);
    rd->hedged |= hedged(&s, owner);
    /* (a pass that looks for one of the lesson's false claims alone reads the other
     * sentences' words as no one's terms: no salad there, or it would stop reading) */
    if (!rd->side && (salad(&s) || term_list(&s))) {
#ifdef QZ_STATEMENT_DEBUG
        fprintf(stderr, "  salad at [%zu,%zu): salad %d, term list %d\n", s0, s1, salad(&s),
                term_list(&s));
#endif
        if (rd->n_read == 1 && s1 < rd->t->n) {
            rd->padded = 1;   /* "Self-attention, QKV, softmax, parallel: any two positions …" */
            goto out;
        }
        rd->out->salad = 1;
        goto out;
    }
#ifdef QZ_STATEMENT_DEBUG
    for (size_t k = 0; k < s.m.n; k++) {
        const mention *m = &s.m.v[k];
        if (m->dead)
            continue;
        fprintf(stderr, "  [%zu,%zu) %-6s", m->a, m->b, (const char *[]){"subj", "claim", "dir", "with", "unless"}[m->kind]);
        for (size_t i = m->a; i < m->b; i++)
            fprintf(stderr, " %s", rd->t->t[i].s);
        fprintf(stderr, "  set=%d pat=%zu claim=%zu neg=%d foil=%d virt=%d run=%ld owner=%ld%s\n", m->set,
                m->pat, m->claim, m->neg, m->foil, m->virt, m->run, owner[k], s.forward ? " fwd" : "");
    }
#endif
#ifdef QZ_STATEMENT_DEBUG
    size_t n_before = rd->all.n;
#endif
    statements(&s, owner, &rd->all);
#ifdef QZ_STATEMENT_DEBUG
    for (size_t k = n_before; k < rd->all.n; k++)
        fprintf(stderr, "  match set=%d pat=%zu claim=%zu [%zu,%zu) subj=%zu carried=%d\n",
                rd->all.v[k].set, rd->all.v[k].pat, rd->all.v[k].claim, rd->all.v[k].a,
                rd->all.v[k].b, rd->all.v[k].subj, rd->all.v[k].carried);
#endif
    rc = rd->all.failed || keep_carry(rd, &s) ? -1 : 0;
out:
    free(owner);
    free(s.m.v);
    free(s.run_first);
    free(s.run_end);
    free(s.consumed);
    free(s.run_foil);
    return rc;
}

/* The answer the student ends on, segment by segment (statement.h): a correction that
 * states a key idea keeps what was right before it and drops what was wrong ("Q from
 * the encoder, no wait, from the decoder"), and so does one that states something wrong
 * (the answer is wrong by it); one that states only what is beside the point is the answer
 * now ("…. Actually no, the real difference is just that attention is parallel"); after a
 * turn ("…, no, the other way round: …") or a start
 * over ("scratch that", 算了，我收回) only what follows counts; a turn with nothing after
 * it reverses what was right, which is then wrong, and what was wrong into something the
 * grader cannot tell; a start over with nothing after it takes everything back; a
 * correction whose words the grader does not read leaves it unsure. */
static void settle(reader *rd)
{
    for (size_t k = 1; k < rd->n_seg; k++) {
        size_t a = rd->seg_first[k], b = k + 1 < rd->n_seg ? rd->seg_first[k + 1] : rd->all.n;
        int said = 0, on_point = 0, before = 0, before_wrong = 0;
        unsigned long replaced = 0;   /* key ideas a misconception after it states wrongly */
        int whole = 0;                /* a misconception after it that takes back everything */
        for (size_t i = a; i < b; i++)
            if (rd->all.v[i].pat != SIZE_MAX) {
                const match *m = &rd->all.v[i];
                said = 1;
                on_point |= m->set != 1 ||
                            !qz_rubric_c_misc(rd->r, pattern(rd->r, 1, m->pat)->owner).off_point;
                if (m->set == 1) {
                    qz_misc_info mi = qz_rubric_c_misc(rd->r, pattern(rd->r, 1, m->pat)->owner);
                    replaced |= mi.replaces;
                    /* a wrong claim of no part: the answer the correction settles on */
                    whole |= !mi.replaces && !mi.off_point;
                }
            }
        for (size_t i = 0; i < a; i++)
            if (rd->all.v[i].pat != SIZE_MAX) {
                before = 1;
                before_wrong |= rd->all.v[i].set != 0;
            }
        if (!before && !said)
            continue;
        if (said) {
            rd->out->retracted = 0;
            rd->out->unsure = 0;
        } else if ((rd->seg_turn[k] && !before_wrong) || rd->seg_restart[k]) {
            rd->out->retracted = 1;   /* what was right, the other way round, or taken back */
            rd->out->unsure = 0;
        } else if (before) {
            rd->out->unsure = 1;
        }
        /* "(1) encoder is enough. (2) [CLS]. Actually, (1) a decoder is needed": the
         * correction takes back the key ideas it states wrongly, and keeps the others */
        for (size_t i = 0; i < a; i++) {
            size_t idea = rd->all.v[i].set == 0 && rd->all.v[i].pat != SIZE_MAX
                              ? pattern(rd->r, 0, rd->all.v[i].pat)->owner : SIZE_MAX;
            if (!said || !on_point || rd->seg_turn[k] || rd->seg_restart[k] ||
                rd->all.v[i].set != 0 || whole || (idea < 32 && (replaced >> idea & 1)))
                rd->all.v[i].pat = SIZE_MAX;
        }
    }
}

static void find_splits(const reader *rd, qz_reading *out);
static void find_part_misconceptions(const reader *rd, qz_reading *out);

/* Read rd->t sentence by sentence into rd->all, corrections and turns opening segments,
 * then settle what the answer ends on. 0, or -1 when out of memory. */
static int read_answer(reader *rd)
{
    const qz_rubric_c *r = rd->r;
    const qz_text *t = rd->t;
    int rc = segment_open(rd), how = END_FULL;
    for (size_t s0 = 0; !rc && !rd->out->gave_up && !rd->out->salad && s0 < t->n;) {
        size_t l = correction_at(r, t, s0);
        if (l) {   /* what follows is the answer now; it may speak of the subject before */
            if (rd->seg_first[rd->n_seg - 1] != rd->all.n || rd->seg_turn[rd->n_seg - 1])
                rc = segment_open(rd);
            if (!rc && has_words_of(t, s0, s0 + l, &r->retract))
                rd->seg_turn[rd->n_seg - 1] = 1;   /* "no, the opposite" */
            if (!rc && has_words_of(t, s0, s0 + l, &r->restart))
                rd->seg_restart[rd->n_seg - 1] = 1;   /* "scratch that", 算了，我收回 */
            s0 += l;
            how = END_CORRECTION;
            continue;
        }
        if (how == END_FULL || how == END_CORRECTION) {
            rd->p0 = s0;
            rd->p1 = period_end(r, t, s0);
        }
        rd->after_contrast = how == END_CONTRAST || how == END_CONSEQUENCE || how == END_CORRECTION;
        rd->after_turn = how == END_CONTRAST;
        size_t next, s1 = sentence_end(r, t, s0, &next, &how);
        int yes = 0, q = s1 < t->n && !strcmp(t->t[s1].s, "?");
        size_t reply = q ? bare_reply(r, t, next, &yes) : 0;
        int asked = q && !reply && asks(r, t, s0, s1);
        rd->reply = reply ? (yes ? 1 : 2) : 0;
        if (s1 > s0 && !asked) {
            rd->n_read++;
            rc = read_sentence(rd, s0, s1);
        }
        rd->reply = 0;
        s0 = next + reply;
        if (reply)
            how = END_FULL;
    }
    if (!rc && rd->padded && !rd->all.n)
        rd->out->salad = 1;   /* terms listed, then nothing stated */
    if (!rc)
        settle(rd);
    return rc;
}

static void reader_free(reader *rd)
{
    free(rd->all.v);
    free(rd->carry);
    free(rd->seg_first);
    free(rd->seg_turn);
    free(rd->seg_restart);
}

/* Has the rubric misconceptions of the lesson (read apart)? */
static int has_lesson_wide(const qz_rubric_c *r)
{
    for (size_t i = 0; i < r->n_misc_owners; i++)
        if (r->misc_info[i].lesson_wide)
            return 1;
    return 0;
}

int qz_rubric_read(const qz_rubric_c *r, const char *answer, qz_reading *out, at_error *err)
{
    memset(out, 0, sizeof *out);
    if (u8_check((const uint8_t *)answer, strlen(answer)))
        return at_error_set(err, AT_EUTF8, "the answer is not valid UTF-8");
    out->n_idea = r->n_idea_owners;
    out->n_misc = r->n_misc_owners;
    out->idea = calloc(out->n_idea ? out->n_idea : 1, 1);
    out->misc = calloc(out->n_misc ? out->n_misc : 1, 1);
    out->denied = calloc(out->n_idea ? out->n_idea : 1, 1);
    out->split = calloc(out->n_idea ? out->n_idea : 1, 1);
    out->misc_part = calloc(out->n_misc ? out->n_misc : 1, sizeof *out->misc_part);
    qz_text t = {0};
    if (!out->idea || !out->misc || !out->denied || !out->split || !out->misc_part || qz_norm_text(&r->norm, answer, 1, &t, err)) {
        qz_reading_free(out);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    reader rd = {.r = r, .t = &t, .out = out};
    int rc = 0;
    out->gave_up = only_words_of(&t, 0, t.n, &r->give_up);
    /* in the first three words, or anywhere in a first clause of eight words or fewer
     * ("I am afraid I do not know; …", "这个问题我不太清楚，…") */
    for (size_t i = 0, words = 0; i < t.n && words < 8 && !out->opens_not_knowing; i++) {
        if (t.t[i].kind == QZ_TK_MARK && words >= 3 && strchr(",;.:", t.t[i].s[0]) &&
            !t.t[i].s[1])
            break;
        out->opens_not_knowing = qz_alts_at(&t, i, &r->dont_know, NULL) > 0;
        words += t.t[i].kind != QZ_TK_MARK;
    }
    out->garbled = qz_answer_garbled(answer);
    if (!out->gave_up && (qz_answer_spaced_terms(answer) || qz_answer_semicolon_terms(answer) ||
                          qz_answer_comma_terms(answer)))
        out->salad = 1;   /* terms listed: nothing is stated */
    rc = read_answer(&rd);
    if (!rc && rd.hedged && !out->retracted)
        out->unsure = 1;   /* two answers offered: the student grades it against the reference */
    out->restated = !rc && ((r->prompt.n && qz_answer_restates(r, &t)) || qz_answer_tautology(&t));
    for (size_t i = 0; !rc && i < rd.all.n; i++) {
        const match *m = &rd.all.v[i];
        if (m->pat == SIZE_MAX)
            continue;
        size_t owner = pattern(r, m->set == 1, m->pat)->owner;
        if (m->set == 1)
            out->misc[owner] = 1;
        else if (m->set == 2)
            out->denied[owner] = 1;
        else
            out->idea[owner] = 1;
    }
    if (!rc) {
        find_splits(&rd, out);
        find_part_misconceptions(&rd, out);
    }
    reader_free(&rd);
    if (!rc && !out->gave_up && !out->salad && has_lesson_wide(r)) {
        /* the lesson's misconceptions, read on their own: what the sentences state of
         * their subjects, corrections and turns as above; only what they find is kept */
        /* each on its own, as if it were the lesson's only one: the phrases of one false
         * claim never hide those of another ("causal mask" of one, "mask" of the next);
         * only those with a claim phrase somewhere in the answer are read */
        unsigned char *cand = calloc(out->n_misc ? out->n_misc : 1, 1);
        if (!cand)
            rc = -1;
        for (size_t p = 0; !rc && p < r->n_miscs; p++) {
            const qz_cpattern *pt = pattern(r, 1, p);
            if (!r->misc_info[pt->owner].lesson_wide || cand[pt->owner])
                continue;
            for (size_t i = 0; i < t.n && !cand[pt->owner]; i++)
                for (size_t c = 0; c < pt->n_claims && !cand[pt->owner]; c++)
                    cand[pt->owner] = qz_alts_at(&t, i, &pt->claims[c].phrases, NULL) > 0;
        }
        for (size_t o = 0; !rc && o < out->n_misc; o++) {
            if (!cand[o])
                continue;
            qz_reading scratch = {.n_idea = out->n_idea, .n_misc = out->n_misc};
            reader side = {.r = r, .t = &t, .out = &scratch, .side = (int)o + 1};
            rc = read_answer(&side);
            for (size_t i = 0; !rc && i < side.all.n; i++)
                if (side.all.v[i].pat != SIZE_MAX && side.all.v[i].set == 1)
                    out->misc[pattern(r, 1, side.all.v[i].pat)->owner] = 1;
            reader_free(&side);
        }
        free(cand);
    }
    qz_text_free(&t);
    if (rc) {
        qz_reading_free(out);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    return AT_OK;
}

/* Do the words of group [a, b) and those of group [c, d) share one (glue aside)? */
static int groups_share(const qz_rubric_c *r, const qz_text *t, size_t a, size_t b, size_t c, size_t d)
{
    for (size_t i = a; i < b; i++) {
        if (t->t[i].kind == QZ_TK_MARK || qz_alts_at(t, i, &r->glue, NULL))
            continue;
        for (size_t j = c; j < d; j++)
            if (!strcmp(t->t[i].s, t->t[j].s))
                return 1;
    }
    return 0;
}

/* "Q from the decoder, K from the encoder, V from the decoder": key idea i, whose claim
 * needs several subjects together (its `with`: K and V), stated right of some subjects
 * and wrongly (a misconception that replaces it) of others only, each group named: one
 * part of it wrong, no contradiction. */
static void find_splits(const reader *rd, qz_reading *out)
{
    for (size_t i = 0; i < out->n_idea && i < 32; i++) {
        int right = 0, wrong = 0, split = out->idea[i];
        for (size_t x = 0; split && x < rd->all.n; x++) {
            const match *a = &rd->all.v[x];
            if (a->pat == SIZE_MAX || a->set != 0 || pattern(rd->r, 0, a->pat)->owner != i)
                continue;
            if (pattern(rd->r, 0, a->pat)->claims[a->claim].n_with < 2) {
                split = 0;   /* an idea of one subject ("只需要 Encoder"): no parts to split */
                break;
            }
            right = 1;
            for (size_t y = 0; split && y < rd->all.n; y++) {
                const match *b = &rd->all.v[y];
                if (b->pat == SIZE_MAX || b->set != 1 ||
                    !(qz_rubric_c_misc(rd->r, pattern(rd->r, 1, b->pat)->owner).replaces >> i & 1))
                    continue;
                wrong = 1;
                split = a->ga < a->gb && b->ga < b->gb &&
                        !groups_share(rd->r, rd->t, a->ga, a->gb, b->ga, b->gb);
            }
        }
        out->split[i] = split && right && wrong;
    }
}

/* "Q from the decoder, K from the encoder, V from the decoder": a misconception said only
 * of subjects that cover some of the groups a key idea it replaces needs together (its
 * claim's `with`: K and V) states that idea wrongly in part, and none of the others it
 * replaces (the purpose of a layer whose K and V come from the decoder). Sets
 * out->misc_part[m]: the key ideas misconception m replaces in part, 0 when none. */
static void find_part_misconceptions(const reader *rd, qz_reading *out)
{
    for (size_t m = 0; m < out->n_misc; m++) {
        unsigned long replaces = qz_rubric_c_misc(rd->r, m).replaces, part = 0;
        if (!out->misc[m] || !replaces)
            continue;
        for (size_t i = 0; i < rd->r->n_ideas; i++) {
            const qz_cpattern *ip = &rd->r->ideas[i];
            if (ip->owner >= 32 || !(replaces >> ip->owner & 1))
                continue;
            for (size_t c = 0; c < ip->n_claims; c++) {
                const qz_cclaim *cl = &ip->claims[c];
                if (cl->n_with < 2 || cl->n_with > 8)
                    continue;
                unsigned covered = 0;
                int named = 1;
                for (size_t x = 0; x < rd->all.n; x++) {
                    const match *b = &rd->all.v[x];
                    if (b->pat == SIZE_MAX || b->set != 1 || pattern(rd->r, 1, b->pat)->owner != m)
                        continue;
                    named &= b->ga < b->gb;
                    for (size_t k = b->ga; k < b->gb; k++)
                        for (size_t g = 0; g < cl->n_with; g++)
                            if (qz_alts_at(rd->t, k, &cl->with[g], NULL))
                                covered |= 1u << g;
                }
                if (named && covered && covered != (1u << cl->n_with) - 1)
                    part |= 1ul << ip->owner;
            }
        }
        out->misc_part[m] = part;
    }
}

void qz_reading_free(qz_reading *r)
{
    free(r->idea);
    free(r->misc);
    free(r->denied);
    free(r->split);
    free(r->misc_part);
    r->idea = r->misc = r->denied = r->split = NULL;
    r->misc_part = NULL;
}
