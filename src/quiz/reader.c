/* Reading a sentence for its values and what labels them: the words around the numbers
 * are sorted into labels (a token's name or one of the question's glosses for it),
 * separators, links of a chain of steps ("≈", "is", 等于), concluding words ("so",
 * 所以), names of other quantities ("sum", 和是) and the rest, which is skipped.
 * See quiz/answer.h. */
#include "quiz/numlex.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistr.h>

/* What a word says about the values around it. */
enum wkind {
    W_FILLER,   /* nothing: "about", 分别, and words that hold a token's character (没有) */
    W_SEP,      /* between values or labels: 及, 以及 */
    W_LINK,     /* a step and its result: "is", "equals", 等于, 是, 为 */
    W_PREFIX,   /* "about", 约: before a value; a link only between two values glued to it */
    W_CONCL,    /* the values after it are the answer: "therefore", 所以 */
    W_RETRACT,  /* the same, taking back the values before: "actually", "instead" */
    W_DISOWN,   /* the same, taking them back even with no value after: 不对, "no wait" */
    W_FLEX,     /* a link between two values ("1.35/9.75 得 0.14"), else W_CONCL: 得, 即, so */
    W_ANSWER,   /* the values after it are the answer, labels may stand before it: 答案 */
    W_EACH,     /* one value said of all asked: "each", "both", 都是 */
    W_OR,       /* alternatives: "0.14 or 0.17" */
    W_OTHER,    /* the value after it is another quantity: "exps", 分母 */
    W_SUM,      /* the same, a sum: "sum", "add up to", 和是 (its value is checked) */
    W_TURN,     /* after the last value: the two values trade places ("the other way round") */
    W_WITH,     /* a method, not a quantity, follows: "with exp: 0.14", 除以总和：0.14 */
    W_VERB,     /* after a token's name, makes it an object, not a label: 把伞加进分母 */
    W_OBJECT,   /* before a token's name, the same: "forgot to include 伞", "left out 伞" */
    W_COMPARE,  /* two things compared: "than", 比, 相比 (and '>' '<' between words) */
    W_NOT,      /* the values right after it are not the answer: "not 0.14", 不是, "rather than" */
    W_NO,       /* "no" between two answers: the second corrects the first ("0.14 0.17. No,
                 * 0.17 0.14"); elsewhere nothing */
    W_LABEL,    /* a token (by name or gloss) */
};

/* quiz/lexicon.c (declared in quiz/compiled.h, whose token types clash with this
 * reader's): the words that disown everything before them */
extern const char *const qz_lex_disown[];

/* Words of the language of working, not of a question (a question's own words, its
 * tokens and glosses, come from the question). Phrases match across spaces. */
static const struct {
    const char *w;
    enum wkind k;
} phrases[] = {
    /* links: a step and its result */
    {"is", W_LINK}, {"are", W_LINK}, {"was", W_LINK}, {"equals", W_LINK}, {"equal", W_LINK},
    {"gives", W_FLEX}, {"give", W_LINK}, {"yields", W_FLEX}, {"giving", W_FLEX},
    {"i.e.", W_FLEX}, {"ie", W_FLEX}, {"that is", W_FLEX}, {"which is", W_FLEX}, {"makes", W_LINK},
    {"rounds to", W_FLEX}, {"rounded to", W_FLEX}, {"rounded", W_FLEX}, {"becomes", W_LINK},
    {"等于", W_LINK}, {"约等于", W_LINK}, {"约为", W_LINK}, {"是", W_LINK}, {"为", W_LINK},
    {"得", W_FLEX}, {"即", W_FLEX}, {"四舍五入", W_FLEX}, {"取", W_LINK}, {"近似为", W_LINK},
    {"约合", W_LINK}, {"就是", W_LINK},
    /* before a value */
    {"about", W_PREFIX}, {"approximately", W_PREFIX}, {"approx", W_PREFIX}, {"around", W_PREFIX},
    {"roughly", W_PREFIX}, {"nearly", W_PREFIX}, {"almost", W_PREFIX}, {"circa", W_PREFIX},
    {"ca", W_PREFIX}, {"约", W_PREFIX}, {"大约", W_PREFIX}, {"大概", W_PREFIX}, {"大致", W_PREFIX},
    {"近似", W_PREFIX}, {"差不多", W_PREFIX}, {"左右", W_FILLER}, {"上下", W_FILLER},
    /* between values or labels */
    {"及", W_SEP}, {"以及", W_SEP}, {"跟", W_SEP}, {"与", W_SEP}, {"同", W_SEP}, {"then", W_SEP},
    {"和", W_SEP},
    /* the answer follows */
    {"so", W_FLEX}, {"therefore", W_CONCL}, {"thus", W_CONCL}, {"hence", W_CONCL},
    {"finally", W_CONCL}, {"answer", W_ANSWER}, {"answers", W_ANSWER}, {"result", W_ANSWER},
    {"results", W_ANSWER}, {"final", W_ANSWER}, {"actually", W_RETRACT}, {"i mean", W_RETRACT},
    {"correction", W_RETRACT}, {"corrected", W_RETRACT}, {"sorry", W_RETRACT}, {"instead", W_RETRACT}, {"rather", W_RETRACT},
    {"no wait", W_DISOWN},
    {"所以", W_CONCL}, {"因此", W_CONCL}, {"因而", W_CONCL}, {"于是", W_CONCL}, {"故", W_CONCL},
    {"答案", W_ANSWER}, {"结果", W_ANSWER}, {"最终", W_ANSWER}, {"最后", W_ANSWER}, {"答", W_ANSWER},
    {"得到", W_FLEX}, {"得出", W_FLEX}, {"算得", W_FLEX}, {"算出", W_FLEX}, {"更正", W_DISOWN},
    {"改为", W_RETRACT}, {"应该是", W_CONCL}, {"应为", W_CONCL}, {"其实", W_RETRACT},
    {"不对", W_DISOWN}, {"纠正", W_DISOWN},
    {"总之", W_CONCL}, {"综上", W_CONCL}, {"则", W_CONCL}, {"hmm no", W_DISOWN}, {"wait", W_DISOWN},
    {"oops", W_DISOWN}, {"scratch that", W_DISOWN}, {"说错了", W_DISOWN}, {"算错了", W_DISOWN},
    {"写错了", W_DISOWN}, {"改一下", W_RETRACT}, {"等等", W_DISOWN}, {"改成", W_RETRACT},
    /* worked again: "Redo: …", 重算： */
    {"redo", W_RETRACT}, {"redoing", W_RETRACT}, {"redone", W_RETRACT}, {"recompute", W_RETRACT},
    {"recomputed", W_RETRACT}, {"recomputing", W_RETRACT}, {"recalculate", W_RETRACT},
    {"recalculated", W_RETRACT}, {"recalculating", W_RETRACT}, {"重算", W_RETRACT},
    {"重新算", W_RETRACT}, {"重新计算", W_RETRACT}, {"再算一遍", W_RETRACT}, {"改正", W_RETRACT},
    /* the values rounded: a link between two values, else the values after it answer */
    {"to two decimals", W_FLEX}, {"to two decimal places", W_FLEX}, {"two decimals", W_FLEX},
    {"to three decimals", W_FLEX}, {"保留", W_FLEX}, {"截断", W_FLEX}, {"截取", W_FLEX},
    {"舍去", W_FLEX}, {"去尾", W_FLEX}, {"truncated", W_FLEX}, {"truncating", W_FLEX},
    {"truncate", W_FLEX}, {"cut off", W_FLEX}, {"chopped", W_FLEX}, {"两位小数", W_FILLER}, {"两位", W_FILLER},
    {"三位小数", W_FILLER}, {"三位", W_FILLER}, {"位小数", W_FILLER},
    /* the values before are taken back: "…, but that's not softmax", 这是错的 */
    {"wrong", W_RETRACT}, {"mistake", W_RETRACT}, {"not softmax", W_RETRACT},
    {"not right", W_DISOWN}, {"not correct", W_DISOWN}, {"错了", W_RETRACT}, {"是错的", W_DISOWN},
    {"错误", W_RETRACT}, {"不是 softmax", W_RETRACT}, {"不正确", W_DISOWN},
    /* (and every word of qz_lex_disown: "none of that is true", 以上都是错的) */
    {"those are wrong", W_DISOWN}, {"these are wrong", W_DISOWN}, {"上面的都不对", W_DISOWN},
    {"that's wrong", W_DISOWN}, {"that is wrong", W_DISOWN}, {"i take that back", W_DISOWN},
    {"take that back", W_DISOWN},
    /* the step a value is worked with, not a quantity: "with exp:", 除以总和： */
    {"with", W_WITH}, {"using", W_WITH}, {"除以", W_WITH}, {"divided by", W_WITH},
    {"divide by", W_WITH}, {"dividing by", W_WITH}, {"没取指数", W_FILLER}, {"没做指数", W_FILLER},
    {"加进", W_VERB}, {"加入", W_VERB}, {"加上", W_VERB}, {"算进", W_VERB}, {"算上", W_VERB},
    {"放进", W_VERB}, {"include", W_OBJECT}, {"includes", W_OBJECT}, {"including", W_OBJECT},
    {"included", W_OBJECT}, {"left out", W_OBJECT}, {"leave out", W_OBJECT}, {"leaving out", W_OBJECT},
    {"omit", W_OBJECT}, {"omitted", W_OBJECT}, {"omitting", W_OBJECT}, {"exclude", W_OBJECT},
    {"excluded", W_OBJECT}, {"excluding", W_OBJECT}, {"count", W_OBJECT}, {"counted", W_OBJECT},
    {"counting", W_OBJECT}, {"forgot", W_OBJECT}, {"forgetting", W_OBJECT}, {"missed", W_OBJECT},
    {"忘了", W_OBJECT}, {"忘记", W_OBJECT}, {"漏算", W_OBJECT}, {"漏了", W_OBJECT}, {"漏掉", W_OBJECT}, {"忘了算", W_OBJECT},
    {"忘记算", W_OBJECT}, {"没算", W_OBJECT}, {"算上了", W_OBJECT}, {"加上了", W_OBJECT},
    /* a turn: the values written trade places */
    {"the other way round", W_TURN}, {"other way round", W_TURN}, {"the other way around", W_TURN},
    {"other way around", W_TURN}, {"the opposite", W_TURN}, {"reversed", W_TURN},
    {"reverse", W_TURN}, {"swap them", W_TURN}, {"swapped", W_TURN}, {"反过来", W_TURN},
    {"反了", W_TURN}, {"说反了", W_TURN}, {"颠倒", W_TURN}, {"搞反了", W_TURN}, {"弄反了", W_TURN},
    {"对调", W_TURN}, {"倒过来", W_TURN}, {"in reverse order", W_TURN}, {"reverse order", W_TURN},
    {"in the reverse order", W_TURN}, {"the other order", W_TURN}, {"other order", W_TURN},
    {"in the opposite order", W_TURN}, {"opposite order", W_TURN}, {"顺序是反的", W_TURN},
    {"顺序反了", W_TURN}, {"顺序相反", W_TURN}, {"顺序颠倒", W_TURN}, {"倒序", W_TURN},
    /* other quantities of the working */
    {"sum", W_SUM}, {"sum to", W_SUM}, {"sums to", W_SUM}, {"summing to", W_SUM},
    {"add up to", W_SUM}, {"adds up to", W_SUM}, {"adding up to", W_SUM}, {"add to", W_SUM},
    {"adds to", W_SUM}, {"加起来等于", W_SUM}, {"total", W_SUM}, {"总和", W_SUM}, {"求和", W_SUM},
    {"之和", W_SUM}, {"合计", W_SUM}, {"加起来", W_SUM}, {"相加", W_SUM}, {"和是", W_SUM},
    {"加上其他", W_SUM}, {"加上其余", W_SUM}, {"加在一起", W_SUM}, {"加一起", W_SUM},
    {"plus the others", W_SUM}, {"plus the other", W_SUM}, {"together with the others", W_SUM},
    {"和为", W_SUM}, {"和约", W_SUM}, {"和等于", W_SUM}, {"和=", W_SUM}, {"和:", W_SUM},
    {"denominator", W_OTHER}, {"normaliser", W_OTHER}, {"normalizer", W_OTHER}, {"exps", W_OTHER},
    {"exponentials", W_OTHER}, {"分母", W_OTHER}, {"of", W_OTHER}, {"out of", W_OTHER},
    {"among", W_OTHER}, {"指数", W_OTHER}, {"exp", W_OTHER}, {"e^x", W_OTHER}, {"e^s", W_OTHER},
    {"σe^s", W_SUM}, {"σe^x", W_SUM}, {"σexp", W_SUM},
    /* an enumerator's number is no value: "Step 1: exponentiate", 第 2 步 */
    {"step", W_OTHER}, {"第", W_OTHER},
    /* the order they were written in, not the values turned round */
    {"顺序反了", W_FILLER}, {"顺序颠倒了", W_FILLER}, {"顺序倒了", W_FILLER}, {"顺序写反了", W_FILLER},
    {"wrong order", W_FILLER}, {"in reverse order", W_FILLER}, {"out of order", W_FILLER},
    {"order reversed", W_FILLER},
    /* words of the working that say nothing of the values */
    {"依次", W_FILLER}, {"依次为", W_FILLER}, {"各自", W_FILLER},
    /* words that hold a token's character without naming it */
    {"我觉得", W_FILLER}, {"我认为", W_FILLER}, {"我想", W_FILLER}, {"我猜", W_FILLER},
    {"我的", W_FILLER}, {"我们", W_FILLER}, {"我算", W_FILLER}, {"我得", W_FILLER}, {"我不", W_FILLER},
    {"我也", W_FILLER}, {"我估计", W_FILLER}, {"没有", W_FILLER}, {"没错", W_FILLER},
    {"我用", W_FILLER}, {"我先", W_FILLER}, {"我按", W_FILLER}, {"我取", W_FILLER}, {"我拿", W_FILLER},
    {"我把", W_FILLER}, {"我记得", W_FILLER}, {"我写", W_FILLER}, {"我估", W_FILLER},
    {"我直接", W_FILLER}, {"我就", W_FILLER}, {"我还", W_FILLER}, {"我再", W_FILLER},
    {"我最后", W_FILLER}, {"我刚", W_FILLER}, {"我自己", W_FILLER}, {"我只", W_FILLER},
    {"我又", W_FILLER}, {"我感觉", W_FILLER}, {"我一开始", W_FILLER},
    {"带入", W_FILLER}, {"代入", W_FILLER}, {"带进", W_FILLER}, {"今天的", W_FILLER},
    {"分别", W_FILLER}, {"respectively", W_FILLER},
    /* a step left out, not a quantity: "忘了 exp：0.3/2.4≈0.13" */
    {"use exp", W_FILLER}, {"using exp", W_FILLER}, {"need exp", W_FILLER}, {"用 exp", W_FILLER},
    {"forgot exp", W_FILLER}, {"forgot the exp", W_FILLER}, {"without exp", W_FILLER},
    {"no exp", W_FILLER}, {"忘了 exp", W_FILLER}, {"忘了exp", W_FILLER}, {"忘记 exp", W_FILLER},
    {"忘记exp", W_FILLER}, {"没取 exp", W_FILLER}, {"没取exp", W_FILLER}, {"不取 exp", W_FILLER},
    {"不取exp", W_FILLER}, {"没做 exp", W_FILLER}, {"没做exp", W_FILLER},
    /* a comparison: its names are a remark, not labels ("0.14 0.17; 没 gets more than 下雨") */
    {"than", W_COMPARE}, {"比", W_COMPARE}, {"相比", W_COMPARE}, {"相比之下", W_FILLER},
    {"比例", W_FILLER}, {"比较", W_FILLER}, {"比重", W_FILLER}, {"对比", W_FILLER},
    {"比如", W_FILLER}, {"好比", W_FILLER},
    /* alternatives */
    {"or", W_OR}, {"either", W_OR}, {"或", W_OR}, {"或者", W_OR}, {"还是", W_OR},
    {"no", W_NO}, {"nope", W_NO}, {"不，", W_NO}, {"不,", W_NO},
    {"maybe", W_OR}, {"possibly", W_OR}, {"perhaps", W_OR}, {"要么", W_OR}, {"也可能是", W_OR},
    {"也可能", W_OR}, {"可能是", W_OR}, {"或许是", W_OR}, {"或许", W_OR},
    /* one value for every one asked */
    /* the values right after are rejected: "not 0.14 0.17; I get 0.21 0.29", "0.14, not
     * 0.13", 不是0.14而是0.21 (the longer phrases above win: "not right", "not softmax") */
    {"not", W_NOT}, {"isn't", W_NOT}, {"aren't", W_NOT}, {"wasn't", W_NOT}, {"weren't", W_NOT},
    {"don't get", W_NOT}, {"do not get", W_NOT}, {"didn't get", W_NOT}, {"did not get", W_NOT},
    {"rather than", W_NOT}, {"instead of", W_NOT}, {"不是", W_NOT}, {"并非", W_NOT}, {"而非", W_NOT},
    {"each", W_EACH}, {"both", W_EACH}, {"都是", W_EACH}, {"都", W_EACH}, {"各", W_EACH},
    {"均", W_EACH}, {"均为", W_EACH}, {"都为", W_EACH}, {"各为", W_EACH}, {"都约", W_EACH},
    {"都约为", W_EACH}, {"都大约", W_EACH},
};

size_t qz_gloss_alts(const char *words, const char **alt, size_t *len, size_t max)
{
    size_t n_alt = 0;
    for (const char *w = words; w && *w && n_alt < max;) {
        const char *bar = strchr(w, '|');
        size_t n = bar ? (size_t)(bar - w) : strlen(w);
        const char *a = w;
        while (n && *a == ' ')
            a++, n--;
        while (n && a[n - 1] == ' ')
            n--;
        if (n) {
            alt[n_alt] = a;
            len[n_alt++] = n;
        }
        w = bar ? bar + 1 : NULL;
    }
    return n_alt;
}

enum item_kind { IT_VALUE, IT_LABEL, IT_SEP, IT_LINK, IT_PREFIX, IT_CONCL, IT_OTHER, IT_WORD,
                 IT_EACH, IT_OR, IT_TURN, IT_COMPARE, IT_NOT, IT_NO };

typedef struct item {
    enum item_kind kind;
    char op;              /* IT_SEP: the separator (',' ';' '.' …) */
    int flex;             /* IT_CONCL: a link too, between two values (得, 即, so) */
    int answer;           /* IT_CONCL: names the answer (答案, "result"): labels may cross it */
    int retract;          /* IT_CONCL: takes back the values before ("no wait", 不对) */
    int disown;           /* IT_CONCL: takes them back even with nothing after (不对, "no wait") */
    int sum;              /* IT_OTHER: names a sum ("add up to", 和为) */
    long token;           /* IT_LABEL */
    size_t value;         /* IT_VALUE: index into the values */
    int group;            /* the aside in parentheses it stands in (0: none) */
    const char *s;        /* IT_LABEL, IT_VALUE, IT_OTHER: as written */
    size_t len;
    int used;             /* IT_LABEL: paired with a value */
    int object;           /* IT_WORD: a verb whose object is the name right after it
                           * ("include 伞"): that name is no label */
    int with;             /* IT_WORD: a method word ("with", 除以): a quantity's name right
                           * after it and before ':' is the method, not that quantity */
    int dropped;          /* a value of a choice not kept (choose_alternative) */
} item;

typedef struct reader {
    const qz_lexer *lx;
    const qz_read_opts *o;
    qz_numbers *out;
    item *it;
    size_t n;
    int group;            /* the aside being read (0: none) */
    int groups;           /* asides opened so far */
} reader;

static int ascii_word_byte(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '\'';
}

/* Does a word go on at p (a letter, a digit, '_', or an apostrophe inside a word:
 * "didn't", not "'rains'")? */
static int word_goes_on(const char *p)
{
    return isalnum((unsigned char)p[0]) || p[0] == '_' || (p[0] == '\'' && isalpha((unsigned char)p[1]));
}

/* Bytes of text that spell w (ASCII case ignored; a space in w matches any run of
 * spaces), with a word boundary wherever w starts or ends with an ASCII letter;
 * 0 when they do not. */
static size_t match(const char *text, const char *p, const char *w)
{
    const char *q = p;
    for (const char *c = w; *c; c++) {
        if (*c == ' ') {
            if (*q != ' ')
                return 0;
            while (*q == ' ')
                q++;
            continue;
        }
        if (tolower((unsigned char)*q) != tolower((unsigned char)*c))
            return 0;
        q++;
    }
    if (q == p)
        return 0;
    if (ascii_word_byte((unsigned char)w[0]) && p > text &&
        (isalnum((unsigned char)p[-1]) || p[-1] == '_' ||
         (p[-1] == '\'' && p - 1 > text && isalpha((unsigned char)p[-2]))))
        return 0;
    if (ascii_word_byte((unsigned char)w[strlen(w) - 1]) && word_goes_on(q))
        return 0;
    return (size_t)(q - p);
}

/* A token's name is a label when it holds a letter and no digit ("下雨", "cat"; not
 * ",", "[CLS]" is kept: it holds letters). */
static int token_can_label(const char *t)
{
    int letter = 0;
    for (const char *p = t; *p; p++) {
        if (isdigit((unsigned char)*p))
            return 0;
        letter |= isalpha((unsigned char)*p) || (unsigned char)*p >= 0x80;
    }
    return letter;
}

/* The longest word at p: a token (by name or gloss) before a phrase of the same
 * length. Returns its length (0: none), with kind and token. */
static size_t word_at(const reader *r, const char *p, enum wkind *kind, long *token)
{
    const char *text = r->lx->text;
    const qz_read_opts *o = r->o;
    size_t best = 0;
    for (size_t i = 0; i < o->n_tokens; i++) {
        if (!o->tokens[i] || !token_can_label(o->tokens[i]))
            continue;
        size_t l = match(text, p, o->tokens[i]);
        if (l > best) {
            best = l;
            *kind = W_LABEL;
            *token = (long)i;
        }
    }
    for (size_t g = 0; g < o->n_glosses; g++) {
        const char *alts[16];
        size_t lens[16], n_alts = qz_gloss_alts(o->glosses[g].words, alts, lens, 16);
        for (size_t k = 0; k < n_alts; k++) {
            char alt[QZ_LABEL_MAX];
            if (lens[k] >= sizeof alt || o->glosses[g].token >= o->n_tokens)
                continue;
            memcpy(alt, alts[k], lens[k]);
            alt[lens[k]] = '\0';
            size_t l = match(text, p, alt);
            if (l > best) {
                best = l;
                *kind = W_LABEL;
                *token = (long)o->glosses[g].token;
            }
        }
    }
    for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++) {
        size_t l = match(text, p, phrases[i].w);
        if (l > best) {
            best = l;
            *kind = phrases[i].k;
            *token = -1;
        }
    }
    for (size_t i = 0; qz_lex_disown[i]; i++) {   /* the grader's own words of disowning */
        size_t l = match(text, p, qz_lex_disown[i]);
        if (l > best) {
            best = l;
            *kind = W_DISOWN;
            *token = -1;
        }
    }
    return best;
}

static void add(reader *r, enum item_kind k, long token, const char *s, size_t len)
{
    r->it[r->n++] = (item){.kind = k, .token = token, .s = s, .len = len, .group = r->group};
}

static size_t utf8_len(unsigned char c)
{
    return c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

/* Sort the word token i into items; returns where the words read end (a phrase may
 * run over the next tokens: "did not"). */
static const char *read_word(reader *r, size_t i)
{
    const qz_lexer *lx = r->lx;
    const qz_tok *t = &lx->toks[i];
    const char *p = t->s, *end = t->s + t->len, *reach = end;
    while (p < end) {
        enum wkind k = W_FILLER;
        long token = -1;
        size_t l = word_at(r, p, &k, &token);
        if (!l) {
            if (isalpha((unsigned char)*p))
                while (p < end && ascii_word_byte((unsigned char)*p))
                    p++;
            else
                p += utf8_len((unsigned char)*p);
            if (!r->n || r->it[r->n - 1].kind != IT_WORD)
                add(r, IT_WORD, -1, NULL, 0);
            continue;
        }
        /* 约 glued between two values ("1.35/9.75约0.14") links them. */
        int glued_link = k == W_PREFIX && p == t->s && p + l == end && !t->space_before && i > 0 &&
                         (t[-1].kind == T_NUM || t[-1].kind == T_RPAR || t[-1].kind == T_PCT) &&
                         !t[1].space_before && qz_value_starts(lx, i + 1);
        /* "forgot to include 伞 itself": the name after such a verb is its object */
        int object = k == W_LABEL && r->n && r->it[r->n - 1].kind == IT_WORD && r->it[r->n - 1].object;
        switch (k) {
        case W_LABEL: add(r, object ? IT_WORD : IT_LABEL, token, p, l); break;
        case W_SEP: add(r, IT_SEP, -1, NULL, 0); break;
        case W_LINK: add(r, IT_LINK, -1, NULL, 0); break;
        case W_PREFIX: add(r, glued_link ? IT_LINK : IT_PREFIX, -1, NULL, 0); break;
        case W_CONCL: add(r, IT_CONCL, -1, NULL, 0); break;
        case W_RETRACT:
        case W_DISOWN:
            add(r, IT_CONCL, -1, NULL, 0);
            r->it[r->n - 1].retract = 1;
            r->it[r->n - 1].disown = k == W_DISOWN;
            break;
        case W_FLEX:
            add(r, IT_CONCL, -1, NULL, 0);
            r->it[r->n - 1].flex = 1;
            break;
        case W_ANSWER:
            add(r, IT_CONCL, -1, NULL, 0);
            r->it[r->n - 1].answer = 1;
            break;
        case W_EACH: add(r, IT_EACH, -1, NULL, 0); break;
        case W_OR: add(r, IT_OR, -1, NULL, 0); break;
        case W_OTHER: add(r, IT_OTHER, -1, p, l); break;
        case W_SUM:
            /* "e^0.3/sum = 1.35/9.75 ≈ 0.14": the sum divided by is a name in the step,
             * like Σ, not the sum's value said */
            if (p == t->s && i > 0 && t[-1].kind == T_OP && t[-1].op == '/') {
                if (!r->n || r->it[r->n - 1].kind != IT_WORD)
                    add(r, IT_WORD, -1, NULL, 0);
                break;
            }
            add(r, IT_OTHER, -1, p, l);
            r->it[r->n - 1].sum = 1;
            break;
        case W_TURN: add(r, IT_TURN, -1, NULL, 0); break;
        case W_COMPARE: add(r, IT_COMPARE, -1, NULL, 0); break;
        case W_NOT: add(r, IT_NOT, -1, NULL, 0); break;
        case W_NO: add(r, IT_NO, -1, NULL, 0); break;
        case W_WITH:
            if (!r->n || r->it[r->n - 1].kind != IT_WORD)
                add(r, IT_WORD, -1, NULL, 0);
            r->it[r->n - 1].with = 1;
            break;
        case W_VERB:   /* "把伞加进分母": 伞 is what is added, not a label */
            if (r->n && r->it[r->n - 1].kind == IT_LABEL)
                r->it[r->n - 1].kind = IT_WORD;
            break;
        case W_OBJECT:
            if (!r->n || r->it[r->n - 1].kind != IT_WORD)
                add(r, IT_WORD, -1, NULL, 0);
            r->it[r->n - 1].object = 1;
            break;
        case W_FILLER: break;
        }
        p += l;
        if (p > reach)
            reach = p;
    }
    return reach;
}

/* Does s (n bytes) start with what a wrong decoding leaves of a character: the
 * replacement character, a Latin letter with a mark (Ã, â), or ¼ ½ ¾? "0.1Ã 0.1¼" is two
 * values whose digits were lost, not 0.1 and 0.1. */
static int mojibake(const char *s, size_t n)
{
    ucs4_t c;
    if (!n || u8_mbtouc(&c, (const uint8_t *)s, n) < 1)
        return 0;
    return c == 0xFFFD || (c >= 0xBC && c <= 0xBE) || (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7);
}

/* Letters or digits glued to the end of a value ("0.14abc", "0.14.17") make it
 * unreadable; a CJK word may follow at once ("21对", "0.14左右"). */
static int glued_after_value(const qz_lexer *lx, size_t i)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "KiB", "MiB", "GiB", "bytes", "byte"};
    const qz_tok *t = &lx->toks[i];
    if (t->space_before)
        return 0;
    size_t letters = 0;
    while (letters < t->len && isalpha((unsigned char)t->s[letters]))
        letters++;
    if (t->kind == T_WORD)
        for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
            if (letters == strlen(units[u]) && !strncmp(t->s, units[u], letters))
                return 0;   /* "64MiB", "64MB左右" */
    return t->kind == T_NUM || t->kind == T_ROOT ||
           (t->kind == T_WORD && (unsigned char)t->s[0] < 0x80) || mojibake(t->s, t->len);
}

/* "to 2 decimals", "2 d.p.", 保留2位小数: the value before (tokens [start, i)) counts
 * decimals, it is no answer. */
static int precision_count(const qz_lexer *lx, size_t start, size_t i, const qz_value *v)
{
    static const char *const words[] = {"decimal", "dp", "d.p", "place", "digit", "位小数"};
    const qz_tok *t = &lx->toks[i];
    if (i != start + 1 || v->computed || v->percent || v->x < 1 || v->x > 9 || v->x != (int)v->x ||
        t->kind != T_WORD)
        return 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        if (!strncasecmp(t->s, words[w], strlen(words[w])))
            return 1;
    /* 保留2位是 0.14: 位 after 保留 or 取 */
    const qz_tok *b = start ? &lx->toks[start - 1] : NULL;
    return !strncmp(t->s, "位", strlen("位")) && b && b->kind == T_WORD && b->len >= 3 &&
           (!strncmp(b->s + b->len - 3, "取", 3) || (b->len >= 6 && !strncmp(b->s + b->len - 6, "保留", 6)));
}

/* Walk the tokens into items and values. */
/* A '(' that opens an aside of words, and the ')' that closes it: the group read
 * inside, and the one to return to (asides deeper than 8 keep the innermost group). */
typedef struct asides {
    int depth;
    int outer[8];
} asides;

static void aside_open(reader *r, asides *a)
{
    if (a->depth < 8)
        a->outer[a->depth] = r->group;
    a->depth++;
    r->group = ++r->groups;
}

static void aside_close(reader *r, asides *a)
{
    a->depth--;
    r->group = a->depth < 8 ? a->outer[a->depth] : r->group;
}

static int walk(reader *r)
{
    const qz_lexer *lx = r->lx;
    qz_numbers *out = r->out;
    const char *covered = NULL;
    asides open = {0};   /* '(' opened around words, not arithmetic */
    for (size_t i = 0; i < lx->n;) {
        const qz_tok *t = &lx->toks[i];
        if (covered && t->s < covered) {
            i++;
            continue;
        }
        if (qz_value_starts(lx, i)) {
            if (out->n == QZ_MAX_VALUES)
                return qz_lex_fail(lx, t, "too many numbers");
            qz_value *v = &out->v[out->n];
            memset(v, 0, sizeof *v);
            v->token = v->inherited = -1;
            size_t start = i;
            int soft = 0, rc = qz_parse_value(lx, &i, v, &soft);
            if (rc && soft) {
                /* "e^x ≈ 1+x": symbols, not numbers; read on from where it stopped */
                at_error_clear(lx->err);
                if (lx->err)
                    lx->err->offset = -1;
                if (i <= start)
                    i = start + 1;
                /* "e^{x_i}": a '(' the failed expression opened is still open */
                for (size_t j = start; j < i; j++) {
                    if (lx->toks[j].kind == T_LPAR)
                        aside_open(r, &open);
                    else if (lx->toks[j].kind == T_RPAR && open.depth)
                        aside_close(r, &open);
                }
                continue;
            }
            if (rc)
                return rc;
            if (precision_count(lx, start, i, v)) {   /* "to 2 decimals: 0.14 …" */
                add(r, IT_CONCL, -1, NULL, 0);
                r->it[r->n - 1].flex = 1;
                continue;
            }
            v->aside = open.depth > 0;
            if (glued_after_value(lx, i))
                return qz_lex_fail(lx, &lx->toks[i],
                                   "letters or digits glued to a number: write one number, then a space");
            r->it[r->n++] = (item){.kind = IT_VALUE, .value = out->n++, .group = r->group,
                                   .s = lx->toks[start].s,
                                   .len = (size_t)(lx->toks[i - 1].s + lx->toks[i - 1].len - lx->toks[start].s)};
            continue;
        }
        switch (t->kind) {
        case T_SEP:
            add(r, IT_SEP, -1, NULL, 0);
            r->it[r->n - 1].op = t->op;
            break;
        case T_LABELSEP:
            add(r, IT_LINK, -1, NULL, 0);
            r->it[r->n - 1].op = t->op;
            break;
        case T_CHAIN:
            if (t->op == '>') {   /* "→": a step's result, or what follows a named sum */
                add(r, IT_CONCL, -1, NULL, 0);
                r->it[r->n - 1].flex = 1;
                break;
            }
            /* "~0.17" after a space: "about", not a step's result */
            add(r, t->space_before && !t[1].space_before && qz_value_starts(lx, i + 1) ? IT_PREFIX : IT_LINK,
                -1, NULL, 0);
            break;
        case T_LPAR: aside_open(r, &open); break;
        case T_RPAR:
            /* a smiley, ":)", ":-)", ";)": no bracket ("0.14 0.17 (easy :-))") */
            if (!t->space_before && t->s > lx->text &&
                (t->s[-1] == ':' || t->s[-1] == ';' ||
                 (t->s[-1] == '-' && t->s - 1 > lx->text && (t->s[-2] == ':' || t->s[-2] == ';'))))
                break;
            if (!open.depth)
                return qz_lex_fail(lx, t, "a ')' without its '('");
            aside_close(r, &open);
            break;
        case T_WORD: covered = read_word(r, i); break;
        case T_PUNCT:
            if (t->op == '>' || t->op == '<')
                add(r, IT_COMPARE, -1, NULL, 0);
            else if (t->op == '-' && t->space_before) {
                /* "0.14 0.17 — like a Boltzmann distribution with kT = 1": a dash after
                 * a space parts what follows from the value before (no step of it) */
                add(r, IT_SEP, -1, NULL, 0);
                r->it[r->n - 1].op = '-';
            }
            break;
        default: break;   /* a lone operator, %, √ or punctuation */
        }
        i++;
    }
    if (!out->n)
        return at_error_set(lx->err, AT_EINVAL,
                            qz_tr(lx->lang, "the answer holds no number"));
    return AT_OK;
}

/* A step and its result ("e^0.3/9.75 ≈ 0.14", "1.35/9.75 = 0.1385 ≈ 0.14", "1.35/9.75
 * 约等于 0.14") are one value, the result: two values with only links (and words that
 * are no label, separator or concluding word) between them. A chain does not run into
 * a remark in parentheses that starts with words ("0.17 (I used e^0.3 ≈ 1.3)"), and a
 * chain that works out a named quantity ("分母 ≈ 1.11+…+3.32 = 9.76") stays named: what
 * "→" or "so" gives after it is the answer, not its next step. */
static void collapse_chains(reader *r, int flex_links)
{
    qz_numbers *out = r->out;
    size_t w = 0, last_value = (size_t)-1;
    int links = 0, hard = 0, broken = 0, named = 0, last_named = 0, words = 0;
    for (size_t k = 0; k < r->n; k++) {
        item it = r->it[k];
        if (it.kind == IT_VALUE) {
            int into_remark = last_value != (size_t)-1 && words && r->it[last_value].group != it.group;
            /* "sum = 9.75 → 0.14, 0.17": after a named quantity, "→" / "so" / 得 conclude */
            int step = last_value != (size_t)-1 && links && !broken && !into_remark && (hard || !last_named);
            if (step) {
                const qz_value *from = &out->v[r->it[last_value].value];
                out->v[it.value].steps = 1;
                out->v[it.value].quotient = from->divided || from->quotient;
                r->it[last_value].value = (size_t)-1;   /* dropped */
                w = last_value;                          /* the links go too */
            }
            r->it[w++] = it;
            last_value = w - 1;
            last_named = named || (step && last_named);
            links = hard = broken = named = words = 0;
            continue;
        }
        links += it.kind == IT_LINK || (it.kind == IT_CONCL && it.flex && flex_links);
        hard += it.kind == IT_LINK;
        words += it.kind == IT_WORD;
        named = it.kind == IT_OTHER ? 1 : it.kind == IT_SEP ? 0 : named;
        /* "total 9.75: 1.35/9.75 ≈ 0.14, …": a colon after a named value opens what
         * follows; it is no step from that value */
        broken |= it.kind == IT_LINK && it.op == ':' && last_named && last_value + 1 == w;
        broken |= it.kind == IT_SEP || it.kind == IT_LABEL || it.kind == IT_OTHER ||
                  (it.kind == IT_CONCL && (!it.flex || !flex_links)) || it.kind == IT_EACH ||
                  it.kind == IT_OR;
        r->it[w++] = it;
    }
    r->n = w;
    /* compact the values */
    size_t nv = 0;
    for (size_t k = 0; k < r->n; k++)
        if (r->it[k].kind == IT_VALUE) {
            out->v[nv] = out->v[r->it[k].value];
            r->it[k].value = nv++;
        }
    out->n = nv;
}

/* Does u round v ("0.138" to "0.14")? u a literal of fewer decimals than v. */
static int rounds(const qz_value *v, const qz_value *u)
{
    if (u->decimals < 0 || u->percent != v->percent || (v->decimals >= 0 && v->decimals <= u->decimals))
        return 0;
    double half = 0.5;
    for (int d = 0; d < u->decimals; d++)
        half /= 10;
    return fabs(v->x - u->x) <= half + 1e-9;
}

/* A list of values, a link, then the same values rounded ("0.138, 0.169 ≈ 0.14 0.17",
 * "0.1384 和 0.1691 约等于 0.14 和 0.17"): one chain a value, the rounded ones the
 * results. Only separators and filler stand among each list. */
static void collapse_list_chains(reader *r)
{
    qz_numbers *out = r->out;
    for (size_t k = 0; k < r->n; k++) {
        if (r->it[k].kind != IT_LINK)
            continue;
        size_t left[QZ_MAX_VALUES], right[QZ_MAX_VALUES], nl = 0, nr = 0;
        for (size_t j = k; j-- > 0 && nl < QZ_MAX_VALUES;) {
            enum item_kind kd = r->it[j].kind;
            if (kd == IT_VALUE)
                left[nl++] = j;
            else if (kd != IT_SEP && kd != IT_WORD && kd != IT_PREFIX)
                break;
        }
        if (nl < 2)
            continue;
        for (size_t j = k + 1; j < r->n && nr < nl; j++) {
            enum item_kind kd = r->it[j].kind;
            if (kd == IT_VALUE)
                right[nr++] = j;
            else if (kd != IT_SEP && kd != IT_WORD && kd != IT_PREFIX)
                break;
        }
        if (nr != nl)
            continue;
        /* left holds the values from the link back: pair the i-th from the left end */
        int all = 1;
        for (size_t i = 0; i < nl && all; i++)
            all = rounds(&out->v[r->it[left[nl - 1 - i]].value], &out->v[r->it[right[i]].value]);
        if (!all)
            continue;
        for (size_t i = 0; i < nl; i++) {
            out->v[r->it[right[i]].value].steps = 1;
            r->it[left[i]].kind = IT_WORD;   /* a step of the working, not a value */
        }
        r->it[k].kind = IT_SEP;   /* the link is no step of the next value's chain */
        r->it[k].op = ',';
    }
}

/* Is b the one value in parentheses right after a ("0.138 (0.14)", "0.14（≈0.1385）")?
 * Only spaces and a prefix may stand between the '(' and b. */
static int in_brackets(const item *a, const item *b)
{
    const char *p = a->s + a->len, *end = b->s + b->len;
    while (p < b->s && *p == ' ')
        p++;
    if (*p == '(')
        p++;
    else if (!strncmp(p, "\xef\xbc\x88", 3))   /* （ */
        p += 3;
    else
        return 0;
    if (p > b->s)   /* the '(' is the value's own: "(0.14)" read as one */
        return end[-1] == ')' || (end - b->s >= 3 && !strncmp(end - 3, "\xef\xbc\x89", 3));
    while (*end == ' ')
        end++;
    return *end == ')' || !strncmp(end, "\xef\xbc\x89", 3);
}

/* A value and the same value rounded in parentheses right after it ("0.138 (0.14)",
 * "0.14（0.1385）"): one value, the one of fewer decimals; the other is working. */
static void collapse_bracketed_rounding(reader *r)
{
    qz_numbers *out = r->out;
    for (size_t k = 0; k < r->n; k++) {
        if (r->it[k].kind != IT_VALUE)
            continue;
        size_t j = k + 1;
        while (j < r->n && r->it[j].kind == IT_PREFIX)
            j++;
        if (j >= r->n || r->it[j].kind != IT_VALUE || !in_brackets(&r->it[k], &r->it[j]))
            continue;
        /* the aside holds that one value ("(0.14)" is one value with its own brackets) */
        int alone = 1;
        for (size_t m = j + 1; m < r->n && alone && r->it[j].group != r->it[k].group; m++)
            alone = !(r->it[m].kind == IT_VALUE && r->it[m].group == r->it[j].group);
        if (!alone)
            continue;
        qz_value *a = &out->v[r->it[k].value], *b = &out->v[r->it[j].value];
        if (rounds(a, b)) {
            r->it[k].kind = IT_WORD;
            r->it[j].group = r->it[k].group;
            b->aside = a->aside;
            b->steps = 1;
        } else if (rounds(b, a)) {
            r->it[j].kind = IT_WORD;
        }
    }
}

static size_t next_value(const reader *r, size_t k)
{
    while (k < r->n && r->it[k].kind != IT_VALUE)
        k++;
    return k;
}

/* "下雨和没分别是 0.14 和 0.17", "0.14 and 0.17 for rains and didn't respectively":
 * k ≥ 2 labels then exactly k values (or the other way round), nothing but
 * separators, links and filler among them: paired in order. */
/* What may stand among the labels or values paired in order: separators, links and
 * filler; after the labels (leads) also a concluding word that leads to the values ("要算
 * 下雨和没的权重，答案是 0.14 0.17"; one that takes back does not). */
static int among(const item *it, int leads)
{
    return it->kind == IT_SEP || it->kind == IT_LINK || it->kind == IT_PREFIX || it->kind == IT_WORD ||
           (leads && it->kind == IT_CONCL && !it->retract && !it->disown);
}

/* Is the label at k in an aside of words with no value of its own ("(伞 is the largest)",
 * "（按 今天…伞 的顺序）")? It remarks; it labels nothing outside. */
static int remark_label(const reader *r, size_t k)
{
    int g = r->it[k].group, words = 0;
    if (!g)
        return 0;
    for (size_t j = 0; j < r->n; j++) {
        if (r->it[j].group != g)
            continue;
        if (r->it[j].kind == IT_VALUE)
            return 0;
        words |= r->it[j].kind == IT_WORD || r->it[j].kind == IT_LINK;
    }
    return words;
}

static void pair_respectively(reader *r)
{
    for (size_t k = 0; k < r->n; k++) {
        enum item_kind a = r->it[k].kind;
        if ((a != IT_LABEL && a != IT_VALUE) || (a == IT_LABEL && r->it[k].used))
            continue;
        enum item_kind b = a == IT_LABEL ? IT_VALUE : IT_LABEL;
        size_t first[QZ_MAX_VALUES], second[QZ_MAX_VALUES], n1 = 0, n2 = 0, j = k;
        for (; j < r->n && n1 < QZ_MAX_VALUES; j++) {
            if (r->it[j].kind == a)
                first[n1++] = j;
            else if (!among(&r->it[j], a == IT_LABEL))
                break;
        }
        if (n1 < 2 || j >= r->n || r->it[j].kind != b)
            continue;
        /* values, then labels over the end of a sentence: "… 0.14, 0.17. Makes sense, the
         * umbrella cares about the rain" (a remark after the values names no labels; labels
         * asked about before the values are theirs: "…“下雨”和“没”的权重。答案是 0.14 0.17") */
        int ended = 0;
        for (size_t e = first[n1 - 1] + 1; a == IT_VALUE && e < j; e++)
            ended |= r->it[e].kind == IT_SEP && r->it[e].op && strchr(".!?", r->it[e].op);
        if (ended)
            continue;
        for (; j < r->n && n2 < QZ_MAX_VALUES; j++) {
            enum item_kind c = r->it[j].kind;
            if (c == b)
                second[n2++] = j;
            else if (c == a || !among(&r->it[j], 0))
                break;
        }
        if (n1 != n2)
            continue;
        if (j < r->n && r->it[j].kind == a && a == IT_VALUE)
            continue;   /* "0.14 0.17 下雨 没 0.2": not a pairing */
        int remark = 0;   /* "0.11 … 0.34（按 今天…伞 的顺序）": the ends of an order, no labels */
        for (size_t m = 0; m < n1 && !remark; m++)
            remark = remark_label(r, a == IT_LABEL ? first[m] : second[m]);
        if (remark)
            continue;
        for (size_t m = 0; m < n1; m++) {
            item *lab = &r->it[a == IT_LABEL ? first[m] : second[m]];
            item *val = &r->it[a == IT_LABEL ? second[m] : first[m]];
            qz_value *v = &r->out->v[val->value];
            lab->used = 1;
            v->token = lab->token;
            snprintf(v->label, sizeof v->label, "%.*s", (int)lab->len, lab->s);
        }
        k = j;
    }
}

/* Labels before their values (1) or after them (0): before, unless no label stands
 * before the first value and one stands after the last. */
static int labels_before(const reader *r)
{
    size_t first = next_value(r, 0), last = r->n;
    for (size_t k = 0; k < r->n; k++)
        if (r->it[k].kind == IT_VALUE)
            last = k;
    int head = 0, tail = 0;
    for (size_t k = 0; k < first; k++)
        head |= r->it[k].kind == IT_LABEL;
    /* a label after the last value with words or a separator between is a remark ("…约
     * 0.34，其次才是没", "about 0.34, and 没 comes next"), not the side labels are written on */
    int parted = 0;
    for (size_t k = last + 1; k < r->n && !tail; k++) {
        parted |= r->it[k].kind == IT_WORD || r->it[k].kind == IT_SEP;
        tail |= r->it[k].kind == IT_LABEL && !parted;
    }
    return head || !tail;
}

/* Every other label goes to the value before or after it: the one not parted from it
 * by a separator, the one after when a link (= : 是) stands between, else the side the
 * answer writes its labels on; a value takes the nearest label given to it. */
static void pair_nearest(reader *r, int before)
{
    size_t *best = malloc(r->n * sizeof *best);
    if (!best)
        return;
    for (size_t k = 0; k < r->n; k++)
        best[k] = (size_t)-1;
    for (size_t k = 0; k < r->n; k++) {
        if (r->it[k].kind != IT_LABEL || r->it[k].used)
            continue;
        /* "(伞 gets about 0.34)": a label in an aside with a value labels only there */
        int g = r->it[k].group, own = 0;
        for (size_t j = 0; g && j < r->n && !own; j++)
            own = r->it[j].kind == IT_VALUE && r->it[j].group == g;
        size_t pv = (size_t)-1, nv = r->n;
        for (size_t j = k + 1; j < r->n && nv == r->n; j++)
            if (r->it[j].kind == IT_VALUE && (!own || r->it[j].group == g))
                nv = j;
        for (size_t j = k; j-- > 0;)
            if (r->it[j].kind == IT_VALUE && (!own || r->it[j].group == g)) {
                pv = j;
                break;
            }
        /* "0.14 0.17 (伞 is the largest)": a label in an aside of words with no value of
         * its own is a remark, it labels nothing outside ("w(下雨) = 0.14" does) */
        int remark = 0;
        for (size_t j = 0; g && !own && j < r->n && !remark; j++)
            remark = r->it[j].group == g && (r->it[j].kind == IT_WORD || r->it[j].kind == IT_LINK);
        if (remark)
            continue;
        int seps_before = 0, seps_after = 0, link_after = 0, concl_before = 0, concl_after = 0;
        int end_before = 0;   /* a sentence ends between the value before and the label */
        for (size_t j = pv == (size_t)-1 ? 0 : pv + 1; j < k; j++) {
            seps_before += r->it[j].kind == IT_SEP || r->it[j].kind == IT_CONCL;
            concl_before |= r->it[j].kind == IT_CONCL && !r->it[j].answer;
            end_before |= r->it[j].kind == IT_SEP && r->it[j].op && strchr(".;!?", r->it[j].op);
        }
        for (size_t j = k + 1; j < nv && j < r->n; j++) {
            /* "didn't -> e^0.5/9.75 = 0.17": an arrow right after a label maps it */
            if (j == k + 1 && r->it[j].kind == IT_CONCL && r->it[j].flex && !r->it[j].retract) {
                link_after = 1;
                continue;
            }
            seps_after += r->it[j].kind == IT_SEP || r->it[j].kind == IT_CONCL;
            link_after |= r->it[j].kind == IT_LINK;
            concl_after |= r->it[j].kind == IT_CONCL && !r->it[j].answer;
        }
        /* a label does not reach over "so" / "no wait" / 所以 to a value, nor back over
         * the end of a sentence ("0.14 0.17. 伞 is the largest": a remark after the
         * values) */
        if (concl_before || end_before)
            pv = (size_t)-1;
        if (concl_after)
            nv = r->n;
        /* a label after the last value, parted from it, where labels stand before
         * their values, labels nothing ("下雨约 0.14，没的算不出来了"); the same the other
         * way round */
        if ((nv >= r->n && before && seps_before) || (pv == (size_t)-1 && !before && seps_after))
            continue;
        size_t to;
        if (pv == (size_t)-1 && nv >= r->n)
            continue;
        else if (pv == (size_t)-1)
            to = nv;
        else if (nv >= r->n)
            to = pv;
        else if (link_after && !seps_after)
            to = nv;
        else if (seps_before && !seps_after)
            to = nv;
        else if (seps_after && !seps_before)
            to = pv;
        else
            to = before ? nv : pv;
        /* nearest wins; at equal distance, the side labels are written on */
        size_t dist = to > k ? to - k : k - to;
        if (best[to] != (size_t)-1) {
            size_t old = best[to], od = to > old ? to - old : old - to;
            int old_side_ok = (old < to) == (before != 0);
            if (od < dist || (od == dist && old_side_ok))
                continue;
        }
        best[to] = k;
    }
    for (size_t k = 0; k < r->n; k++) {
        if (best[k] == (size_t)-1)
            continue;
        item *lab = &r->it[best[k]];
        qz_value *v = &r->out->v[r->it[k].value];
        if (v->token >= 0)
            continue;
        lab->used = 1;
        v->token = lab->token;
        snprintf(v->label, sizeof v->label, "%.*s", (int)lab->len, lab->s);
    }
    free(best);
}

/* The bare values the answer opens with (out->opening): nothing before or between them
 * but words that name no token ("Answer:", 答：), "about"-words and the separators of a
 * list; a sentence ends right after the last of them (. ; , ! — -- or an aside) and
 * words follow, not another value. */
static void mark_opening(reader *r)
{
    qz_numbers *out = r->out;
    size_t k = 0, n = 0;
    const item *last = NULL;
    for (; k < r->n; k++) {
        const item *it = &r->it[k];
        if (it->group)
            break;
        if (it->kind == IT_VALUE) {
            const qz_value *v = &out->v[it->value];
            if (v->other || v->aside || v->each || v->steps || v->computed || v->inherited >= 0)
                return;
            n++;
            last = it;
        } else if (!(it->kind == IT_PREFIX || it->kind == IT_LINK ||
                     (it->kind == IT_SEP && !strchr(".;!?", it->op)) ||
                     (!n && it->kind == IT_CONCL && it->answer) || (!n && it->kind == IT_WORD))) {
            break;
        }
    }
    if (!n || k == r->n || r->it[k].kind == IT_VALUE)
        return;
    /* "0.17 0.14 (没, 下雨)": an aside of labels alone, one a value, names them: no remark */
    if (r->it[k].group) {
        size_t labels = 0, j = k;
        for (; j < r->n && r->it[j].group == r->it[k].group; j++)
            if (r->it[j].kind == IT_LABEL)
                labels++;
            else if (r->it[j].kind != IT_SEP)
                break;
        if (labels == n && (j == r->n || r->it[j].group != r->it[k].group))
            return;
    }
    const char *p = last->s + last->len;
    while (isspace((unsigned char)*p))
        p++;
    /* a particle or an "about" after the values, before the mark: "0.14 0.17 吧，…",
     * "0.14 0.17 左右，…", "0.14 0.17 or so, …" */
    static const char *const after[] = {"左右", "上下", "吧", "吗", "呢", "啊", "呀", "哦", "嘛",
                                        "or so", "ish"};
    for (size_t i = 0; i < sizeof after / sizeof after[0]; i++)
        if (!strncmp(p, after[i], strlen(after[i]))) {
            p += strlen(after[i]);
            while (isspace((unsigned char)*p))
                p++;
            break;
        }
    static const char *const ends[] = {".", ";", ",", "!", "-", "—", "–", "(", "。", "；", "，",
                                       "！", "（", "…"};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        if (!strncmp(p, ends[i], strlen(ends[i]))) {
            out->opening = n;
            return;
        }
}

/* Values named as another quantity ("sum 9.75", "exps: 1.105, 1.350"), the steps of a
 * labelled value's working, and where the concluding word stands. */
static void mark_values(reader *r, int before)
{
    qz_numbers *out = r->out;
    long cur = -1;
    int other = 0, fresh = 0;   /* fresh: the OTHER word is right before */
    int sum = 0;                /* that word names a sum */
    int disown = 0;             /* the last concluding word disowns the values before */
    size_t values = 0;
    /* the concluding word before the last one that values follow ("… → 0.14, 0.17. So 没
     * matters most": a remark after the answer does not take its conclusion away) */
    int had = 0, had_retract = 0;
    size_t had_at = 0;
    for (size_t k = 0; k < r->n; k++) {
        const item *it = &r->it[k];
        switch (it->kind) {
        case IT_OTHER:
            /* "with exp: 0.14", "除以总和：0.14": the step worked with, not a quantity */
            if (k >= 1 && k + 1 < r->n && r->it[k + 1].kind == IT_LINK && r->it[k - 1].kind == IT_WORD &&
                r->it[k - 1].with)
                break;
            other = fresh = 1;
            sum = it->sum;
            cur = -1;
            break;
        case IT_LABEL: other = 0; cur = -1; break;
        case IT_TURN:
            out->turned = values > 0 && next_value(r, k) >= r->n;
            break;
        case IT_CONCL:
            other = 0;
            cur = -1;
            if (it->group)
                break;   /* "(…, so the sum is ≈ 9.4)": the remark's own conclusion */
            if (out->concluded && out->conclusion_at < values) {
                had = 1;
                had_at = out->conclusion_at;
                had_retract = out->retracted;
            }
            out->concluded = 1;
            out->conclusion_at = values;
            out->retracted = it->retract;
            disown |= it->disown;
            break;
        case IT_WORD:
            /* "sum 9.75; weights 0.14 0.17"; but the words that name what is summed, before
             * its value ("加上其他词的权重应该等于 6"), keep the sum's */
            if (!(other && fresh && sum && k + 1 < r->n && r->it[k + 1].kind == IT_LINK))
                other = 0;
            /* "rains 0.14, I 0.13, didn't 0.17": in a list of pairs, a word of its own
             * before a value names another token; that value is not rains' next step */
            if (k >= 2 && r->it[k - 1].kind == IT_SEP && r->it[k - 2].kind == IT_VALUE && k + 1 < r->n &&
                r->it[k + 1].kind == IT_VALUE && (k + 2 >= r->n || r->it[k + 2].kind == IT_SEP))
                cur = -1;
            break;
        case IT_SEP:
            fresh = 0;
            if (it->op != ',')
                other = 0;   /* "sum ≈ 9.75; 1.35/9.75 ≈ 0.14" */
            break;
        case IT_OR:
            /* "0.14 or 0.17": between two values with no label between them */
            for (size_t a = k; a-- > 0 && r->it[a].kind != IT_LABEL;)
                if (r->it[a].kind == IT_VALUE) {
                    for (size_t b = k + 1; b < r->n && r->it[b].kind != IT_LABEL; b++)
                        if (r->it[b].kind == IT_VALUE) {
                            out->alternatives = 1;
                            break;
                        }
                    break;
                }
            break;
        case IT_EACH:
            if (k > 0 && r->it[k - 1].kind == IT_VALUE)
                out->v[r->it[k - 1].value].each = 1;   /* "0.2 each" */
            else if (k + 1 < r->n && r->it[k + 1].kind == IT_VALUE)
                out->v[r->it[k + 1].value].each = 1;   /* "都是0.2" */
            else if (k + 2 < r->n && r->it[k + 2].kind == IT_VALUE && r->it[k + 1].kind != IT_SEP)
                out->v[r->it[k + 2].value].each = 1;   /* "both about 0.2" */
            break;
        case IT_VALUE: {
            qz_value *v = &out->v[it->value];
            values++;
            disown = 0;
            v->other = other && v->token < 0 && (fresh || !v->steps);
            v->sum = v->other && fresh && sum;
            fresh = 0;
            if (v->token >= 0)
                cur = v->token;
            else if (before && !v->other && !v->aside && cur >= 0)
                v->inherited = cur;
            break;
        }
        default: break;
        }
    }
    out->disowned = out->n && out->concluded && out->conclusion_at >= out->n && disown;
    if (out->concluded && out->conclusion_at >= out->n && !out->disowned && had) {
        out->conclusion_at = had_at;   /* "Σ ≈ 9.75 → 0.14, 0.17. So 没 matters most." */
        out->retracted = had_retract;
    } else if (out->concluded && out->conclusion_at >= out->n) {
        out->concluded = 0;   /* "0.14 0.17, so." */
    }
    out->labelled = 0;
    for (size_t i = 0; i < out->n; i++)
        out->labelled += out->v[i].token >= 0;
}

/* Does the reading give as many values as asked: 3 after the concluding word, 2 in all,
 * 1 by distinct labels, 0 not. */
static int fits(const qz_numbers *out, size_t want)
{
    size_t after = 0, labels = 0;
    for (size_t i = out->concluded ? out->conclusion_at : out->n; i < out->n; i++)
        after += !out->v[i].other && !out->v[i].aside;
    if (!want || (out->concluded && after == want))
        return 3;
    if (qz_answer_count(out) == want)
        return 2;
    for (size_t i = 0; i < out->n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = out->v[j].token == out->v[i].token;
        labels += out->v[i].token >= 0 && !seen;
    }
    return after == want || labels >= want;
}

/* "不对，下雨应该是 0.12", "no wait, rains should be 0.12", "伞对自己的权重应该是 0.12": a
 * concluding word after a label (words between) concludes before it, and the label
 * reaches its value. */
static void conclude_before_labels(reader *r)
{
    for (size_t k = 1; k < r->n; k++) {
        if (r->it[k].kind != IT_CONCL || r->it[k].flex || r->it[k].answer || k + 1 >= r->n ||
            !(r->it[k + 1].kind == IT_VALUE || r->it[k + 1].kind == IT_PREFIX))
            continue;
        size_t j = k;
        while (j > 1 && r->it[j - 1].kind == IT_WORD)
            j--;
        if (r->it[j - 1].kind != IT_LABEL)
            continue;
        item concl = r->it[k];
        for (size_t m = k; m >= j; m--)
            r->it[m] = r->it[m - 1];
        r->it[j - 1] = concl;
    }
}

/* The token whose score (the question's, and no other token's) the literal value v is;
 * -1 when none. */
static long score_token(const reader *r, const qz_value *v)
{
    const qz_read_opts *o = r->o;
    if (!o->scores || v->computed || v->percent || v->decimals < 0)
        return -1;
    long k = -1;
    for (size_t i = 0; i < o->n_tokens; i++)
        if (fabs(o->scores[i] - v->x) < 1e-9) {
            if (k >= 0)
                return -1;   /* two tokens share the score: it names neither */
            k = (long)i;
        }
    return k;
}

/* Does item k open a part of the answer: at its start, after a separator or a concluding
 * word, or after "of" said of a function ("softmax of 0.3", not "exp of 0.3"), words
 * before it aside? */
static int opens_part(const reader *r, size_t k)
{
    while (k > 0 && r->it[k - 1].kind == IT_WORD)
        k--;
    if (k == 0)
        return 1;
    const item *b = &r->it[k - 1];
    if (b->kind == IT_SEP || b->kind == IT_CONCL)
        return 1;
    return b->kind == IT_OTHER && b->len == 2 && !strncasecmp(b->s, "of", 2) &&
           (k < 2 || r->it[k - 2].kind == IT_WORD || r->it[k - 2].kind == IT_SEP);
}

/* "softmax of 0.3 is about 0.57", "0.3 的 softmax 约 0.57", "0.3 → 0.57": a token's score
 * (the question's) opening a part, then only links, "about" or words, then a value: the
 * score says which token the value is computed for, and labels it; an arrow between them
 * links the two. */
static void label_by_scores(reader *r)
{
    for (size_t k = 0; k < r->n; k++) {
        if (r->it[k].kind != IT_VALUE)
            continue;
        long token = score_token(r, &r->out->v[r->it[k].value]);
        if (token < 0 || !opens_part(r, k))
            continue;
        size_t j = k + 1;
        while (j < r->n && (r->it[j].kind == IT_LINK || r->it[j].kind == IT_PREFIX ||
                            r->it[j].kind == IT_WORD || (r->it[j].kind == IT_CONCL && r->it[j].flex)))
            j++;
        if (j == k + 1 || j >= r->n || r->it[j].kind != IT_VALUE)
            continue;
        r->it[k].kind = IT_LABEL;
        r->it[k].token = token;
        for (size_t m = k + 1; m < j; m++)
            if (r->it[m].kind == IT_CONCL)
                r->it[m] = (item){.kind = IT_LINK, .group = r->it[m].group};
    }
}

/* "0.14 0.17, 没 gets more than 下雨", 没比下雨大, "没 > 下雨": two names compared with
 * no value between them and the comparing word are a remark about the values, not
 * their labels (the claim is checked apart, quiz/numclaims.c). A comparison of values
 * ("下雨 0.14 < 没 0.17", "没 0.17 比下雨 0.14 大") keeps its labels. */
static void compare_remarks(reader *r)
{
    for (size_t k = 0; k < r->n; k++) {
        if (r->it[k].kind != IT_COMPARE)
            continue;
        size_t side[2] = {r->n, r->n};
        for (int dir = 0; dir < 2; dir++)
            for (size_t j = k;;) {
                if (dir ? ++j >= r->n : j-- == 0)
                    break;
                enum item_kind c = r->it[j].kind;
                if (c == IT_VALUE || c == IT_SEP || c == IT_CONCL || r->it[j].group != r->it[k].group)
                    break;
                if (c == IT_LABEL) {
                    side[dir] = j;
                    break;
                }
            }
        if (side[0] < r->n && side[1] < r->n) {
            r->it[side[0]].kind = r->it[side[1]].kind = IT_WORD;
            continue;
        }
        /* "0.14 0.17 - both more than 今天 and 带": the values before are the subject, the
         * names after "than" what they are compared with; with no value of their own after
         * them in the clause they label nothing */
        if (side[1] < r->n) {
            size_t j = side[1];
            while (j < r->n && r->it[j].group == r->it[k].group &&
                   (r->it[j].kind == IT_LABEL || r->it[j].kind == IT_LINK ||
                    r->it[j].kind == IT_WORD || r->it[j].kind == IT_EACH ||
                    (r->it[j].kind == IT_SEP && r->it[j].op == ',')))
                j++;
            if (j < r->n && r->it[j].kind == IT_VALUE && r->it[j].group == r->it[k].group) {
                /* "…, which get 0.11": the names have a value of their own after them; they
                 * are a remark that starts there and reaches no value before */
                r->it[k].kind = IT_SEP;
                r->it[k].op = ';';
                continue;
            }
            for (size_t i = side[1]; i < j; i++)
                if (r->it[i].kind == IT_LABEL)
                    r->it[i].kind = IT_WORD;
        }
    }
}

/* "not 0.14 0.17; I get 0.21 0.29", "0.14, not 0.13", 不是0.14和0.17，而是0.21和0.29: the
 * values right after a negating word (links and "about" may stand between) are rejected,
 * as many as asked at most, up to the end of a sentence or the next word: they answer
 * nothing and no label reaches them. */
static void reject_negated(reader *r)
{
    size_t want = r->o->want ? r->o->want : 1;
    for (size_t k = 0; k < r->n; k++) {
        if (r->it[k].kind != IT_NOT)
            continue;
        size_t taken = 0;
        for (size_t j = k + 1; j < r->n && taken < want; j++) {
            item *it = &r->it[j];
            if (it->kind == IT_VALUE) {
                qz_value *v = &r->out->v[it->value];
                v->rejected = v->other = 1;
                v->token = -1;
                it->kind = IT_WORD;   /* what it stood for is said not to be the value */
                taken++;
            } else if (it->kind == IT_LINK || it->kind == IT_PREFIX ||
                       (it->kind == IT_SEP && (!it->op || it->op == ',' || it->op == '/'))) {
                continue;
            } else {
                break;
            }
        }
    }
}

/* "0.14 0.17. No, the opposite: 0.17 0.14": a turn that values follow is a correction,
 * like "no wait": the values after it answer, those before are taken back. A turn with no
 * value after it trades the two before (mark_values). */
static void turns_with_values(reader *r)
{
    for (size_t k = 0; k < r->n; k++)
        if (r->it[k].kind == IT_TURN && next_value(r, 0) < k && next_value(r, k) < r->n) {
            r->it[k].kind = IT_CONCL;
            r->it[k].retract = r->it[k].disown = 1;
        }
    /* "0.14 0.17. No, 0.17 0.14", "0.14 0.17，不，0.17 0.14": a "no" right before values
     * (separators between) after others corrects them; any other "no" says nothing here */
    size_t n = 0;
    for (size_t k = 0; k < r->n; k++) {
        item it = r->it[k];
        if (it.kind == IT_NO) {
            size_t j = k + 1;
            while (j < r->n &&
                   (r->it[j].kind == IT_SEP || r->it[j].kind == IT_PREFIX || r->it[j].kind == IT_LINK))
                j++;
            if (next_value(r, 0) >= k || j >= r->n || r->it[j].kind != IT_VALUE)
                continue;
            it.kind = IT_CONCL;
            it.retract = it.disown = 1;
        }
        r->it[n++] = it;
    }
    r->n = n;
}

/* One reading of values offered as alternatives (o->alt 1: the first of each choice, 2:
 * the last): "didn't 0.17 or maybe 0.21", "either 0.14 0.17 or 0.21 0.26". A choice is the
 * values on either side of the "or" up to a label, a concluding word or another "or"; the
 * values of the side not kept are rejected, as after "not". */
static void drop(reader *r, size_t k)
{
    qz_value *v = &r->out->v[r->it[k].value];
    v->rejected = v->other = 1;
    v->token = -1;
    r->it[k].kind = IT_OR;   /* removed below with the "or"s */
    r->it[k].dropped = 1;
}

static int run_edge(const item *it)
{
    return it->kind == IT_LABEL || it->kind == IT_CONCL || (it->kind == IT_OR && !it->dropped);
}

static void choose_alternative(reader *r)
{
    /* "or maybe", "or possibly", 或者可能是: one choice, said in two words */
    size_t kept = 0;
    for (size_t k = 0; k < r->n; k++)
        if (!(r->it[k].kind == IT_OR && kept && r->it[kept - 1].kind == IT_OR &&
              !r->it[k].dropped && !r->it[kept - 1].dropped))
            r->it[kept++] = r->it[k];
    r->n = kept;
    for (size_t k = 0; k < r->n; k++) {
        if (r->it[k].kind != IT_OR || r->it[k].dropped)
            continue;
        /* the values of each side; a side dropped by the choice before ("a or b or c") is
         * still a side */
        size_t a = k, b = k + 1, before = 0, after = 0;
        while (a > 0 && !run_edge(&r->it[a - 1]))
            before += r->it[--a].kind == IT_VALUE || r->it[a].dropped;
        while (b < r->n && !run_edge(&r->it[b]))
            after += r->it[b++].kind == IT_VALUE;
        if (!before || !after)
            continue;
        size_t from = r->o->alt == 1 ? k + 1 : a, to = r->o->alt == 1 ? b : k;
        for (size_t j = from; j < to; j++)
            if (r->it[j].kind == IT_VALUE)
                drop(r, j);
        k = to > k ? to - 1 : k;
    }
    /* the choice made, "either", "or" and the values not kept say nothing more */
    size_t n = 0;
    for (size_t k = 0; k < r->n; k++)
        if (r->it[k].kind != IT_OR)
            r->it[n++] = r->it[k];
    r->n = n;
}

/* A working whose values the readings cannot tell apart ("subtract the max first: exps
 * 0.333, 0.407, …; total 2.938; 0.407/2.938 = 0.14, 0.497/2.938 = 0.17", "≈0.14 / ≈0.17，
 * 计算器：1.3499÷9.7504=0.13844，1.6487÷9.7504=0.16909"): when exactly as many values
 * as asked end a division, they are the answer and the rest is working. */
static void keep_quotients(qz_numbers *out, size_t want)
{
    size_t q = 0;
    for (size_t i = 0; i < out->n; i++)
        q += out->v[i].quotient && !out->v[i].other && !out->v[i].rejected && !out->v[i].aside;
    if (!want || q != want)
        return;
    for (size_t i = 0; i < out->n; i++)
        if (!out->v[i].quotient)
            out->v[i].other = 1;
    out->concluded = 0;
}

#ifdef QZ_READER_DEBUG
static void dump(const reader *r, const char *when)
{
    static const char *const k[] = {"VAL", "LAB", "SEP", "LINK", "PRE", "CONCL", "OTHER", "WORD",
                                    "EACH", "OR", "TURN", "CMP", "NOT", "NO"};
    fprintf(stderr, "%s:", when);
    for (size_t i = 0; i < r->n; i++) {
        const item *it = &r->it[i];
        fprintf(stderr, " %s", k[it->kind]);
        if (it->kind == IT_VALUE && it->value != (size_t)-1)
            fprintf(stderr, "=%g/%ld", r->out->v[it->value].x, r->out->v[it->value].token);
        else if (it->kind == IT_LABEL)
            fprintf(stderr, "=%ld", it->token);
        else if (it->kind == IT_SEP)
            fprintf(stderr, "'%c'", it->op);
    }
    fprintf(stderr, "\n");
}
#else
#define dump(r, w) ((void)0)
#endif

static void interpret(reader *r, int flex_links)
{
    dump(r, "walk");
    if (r->o->alt)
        choose_alternative(r);
    turns_with_values(r);
    compare_remarks(r);
    label_by_scores(r);
    conclude_before_labels(r);
    collapse_list_chains(r);
    collapse_bracketed_rounding(r);
    collapse_chains(r, flex_links);
    reject_negated(r);
    pair_respectively(r);
    int before = labels_before(r);
    pair_nearest(r, before);
    dump(r, "paired");
    mark_values(r, before);
    mark_opening(r);
}

int qz_read_tokens(const qz_lexer *lx, const qz_read_opts *o, qz_numbers *out)
{
    size_t cap = strlen(lx->text) + lx->n + 2;
    reader r = {.lx = lx, .o = o, .out = out};
    r.it = malloc(2 * cap * sizeof *r.it);
    qz_numbers *first = malloc(sizeof *first);
    if (!r.it || !first) {
        free(r.it);
        free(first);
        return at_error_set(lx->err, AT_ENOMEM, "out of memory");
    }
    int rc = walk(&r);
    if (!rc) {
        /* "1.35/9.75 得 0.14" links a step to its result; "0.138 and 0.169 → 0.14, 0.17"
         * concludes: the second reading when it gives the count asked better than the
         * first (下雨 ≈ 0.1384，没 ≈ 0.1691 → 0.14 / 0.17: after the arrow) */
        item *saved = r.it + cap;
        size_t n = r.n;
        memcpy(saved, r.it, n * sizeof *r.it);
        *first = *out;
        interpret(&r, 1);
        int fit = fits(out, o->want);
        if (fit < 3) {
            qz_numbers *linked = malloc(sizeof *linked);
            if (linked) {
                *linked = *out;
                *out = *first;
                memcpy(r.it, saved, n * sizeof *r.it);
                r.n = n;
                interpret(&r, 0);
                if (fits(out, o->want) <= fit)
                    *out = *linked;
                free(linked);
            }
        }
        if (fits(out, o->want) < 2)
            keep_quotients(out, o->want);
    }
    free(first);
    free(r.it);
    return rc;
}
