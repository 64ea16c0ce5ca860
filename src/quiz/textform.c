/* What kind of answer a written one is, before what it states: the question said again,
 * a list of terms with spaces between them, text that cannot be read (the rules are in
 * quiz/statement.h; the verdicts they lead to in quiz/textgrade.c). */
#define _POSIX_C_SOURCE 200809L
#include "quiz/garble.h"
#include "quiz/lang.h"
#include "quiz/statement.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "quiz/compiled.h"

/* Are the answer's content words (four or more) at least 60% the prompt's own? Asked only
 * of an answer in which nothing the rubric knows was recognised: on the project's blind
 * sets, such answers at 60% or more were the question said again (its words with
 * nothing of the answer's), and the right half-answers the grader missed lay below. */
int qz_answer_restates(const qz_rubric_c *r, const qz_text *t)
{
    static const char *const function_words[] = {"在", "上", "有", "是", "了", "和", "与", "就", "都",
                                                 "也", "很", "is", "are", "of", "in", "and", "to",
                                                 "the", "a", "an", "it", "it's", "its", "there"};
    size_t words = 0, shared = 0;
    for (size_t i = 0; i < t->n; i++) {
        int function = 0;
        for (size_t w = 0; w < sizeof function_words / sizeof function_words[0]; w++)
            function |= !strcmp(t->t[i].raw ? t->t[i].raw : t->t[i].s, function_words[w]);
        if (t->t[i].kind == QZ_TK_MARK || qz_alts_at(t, i, &r->filler, NULL) || function)
            continue;
        words++;
        for (size_t j = 0; j < r->prompt.n; j++)
            if (!strcmp(r->prompt.t[j].s, t->t[i].s)) {
                shared++;
                break;
            }
    }
    return words >= 4 && shared * 100 >= words * 60;
}

/* The word at token i (a Latin word, or two Han characters): its length in tokens, 0 when
 * none. */
static size_t word_at(const qz_text *t, size_t i)
{
    if (i >= t->n)
        return 0;
    if (t->t[i].kind == QZ_TK_WORD && strlen(t->t[i].s) >= 3)
        return 1;
    return t->t[i].kind == QZ_TK_HAN && i + 1 < t->n && t->t[i + 1].kind == QZ_TK_HAN ? 2 : 0;
}

static int same_word(const qz_text *t, size_t i, size_t j, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (j + k >= t->n || strcmp(t->t[i + k].s, t->t[j + k].s))
            return 0;
    return 1;
}

/* A tautology: a short answer that says a thing is done and, of the case without it,
 * that it is not done ("The denominator divides the scores. Without it the scores are
 * not divided.", 分母起到缩放作用，不除就不缩放): one word stated and denied. */
int qz_answer_tautology(const qz_text *t)
{
    if (t->n > 40)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        size_t l = qz_neg_cue_at(t, i);
        if (!l)
            continue;
        size_t j = i + l;
        while (j < t->n && (qz_tok_is(t, j, "be") || qz_tok_is(t, j, "been") || qz_tok_is(t, j, "get") ||
                            qz_tok_is(t, j, "is") || qz_tok_is(t, j, "are") || qz_tok_is(t, j, "有") ||
                            qz_tok_is(t, j, "会") || qz_tok_is(t, j, "就")))
            j++;
        size_t w = word_at(t, j);
        for (size_t k = 0; w && k + w <= t->n; k++) {
            if (k == j || !same_word(t, j, k, w))
                continue;
            int denied = 0;   /* this one too after a negation */
            for (size_t c = k >= 3 ? k - 3 : 0; c < k && !denied; c++)
                denied = qz_neg_cue_at(t, c) && c + qz_neg_cue_at(t, c) <= k;
            if (!denied)
                return 1;
        }
    }
    return 0;
}

/* Is the item [a, b) one of the field's notations a term list holds: O(1), O(n²),
 * [CLS]? */
static int notation_item(const char *a, const char *b)
{
    size_t n = (size_t)(b - a);
    if (n >= 4 && (a[0] == 'O' || a[0] == 'o') && a[1] == '(' && b[-1] == ')')
        return 1;
    return n == 5 && !strncasecmp(a, "[cls]", 5);
}

/* Words that state something in English: a verb, an article, a preposition, a
 * conjunction of clauses. A list of the field's terms holds none of them. */
static int stating_word(const char *a, const char *b)
{
    static const char *const w[] = {
        "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does",
        "did", "can", "could", "will", "would", "should", "may", "might", "must", "need",
        "needs", "needed", "the", "a", "an", "of", "to", "from", "in", "on", "at", "by", "with",
        "for", "as", "that", "this", "it", "its", "they", "them", "their", "which", "who",
        "what", "when", "where", "how", "why", "than", "then", "so", "because", "since", "but",
        "or", "not", "no", "only", "also", "just", "very", "more", "less", "use", "uses",
        "using", "used", "make", "makes", "get", "gets", "give", "gives", "come", "comes",
        "look", "looks", "see", "sees", "i", "we", "you", "there", "if", "into", "over",
        "between", "while", "via", "per", "like", "and", "vs", "versus", "instead", "each",
        "every", "read", "reads", "take", "takes", "goes", "go", "passes", "pass", "grows",
        "grow", "stays", "keeps", "keep", "enough", "don't", "doesn't", "isn't",
        "aren't", "can't", "cannot", "won't", "bc", "cuz", "coz", "bcuz", "bcoz", "bcz", "abt"};
    size_t n = (size_t)(b - a);
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (strlen(w[i]) == n && !strncasecmp(a, w[i], n))
            return 1;
    return 0;
}

/* Terms with spaces between them and nothing else, in any language, seven or more:
 * "query key value multi head attention long range positional encoding O(1)",
 * "encoder decoder CLS softmax pooling attention both", 长距离依赖 梯度消失 并行 全局
 * O(1) O(n) 位置编码 多头. No mark between them (a comma orders a terse answer: "RNN
 * O(n) steps, attention O(1)"), no word that states (stating_word), no Han verb
 * (han_verbs), no number outside a notation. */
static int spaced_words(const char *s, const char *const *han_verbs, size_t n_verbs)
{
    size_t items = 0;
    for (const char *p = s; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *a = p;
        while (*p && *p != ' ')
            p++;
        items++;
        if (notation_item(a, p))
            continue;
        if (stating_word(a, p))
            return 0;
        for (const unsigned char *q = (const unsigned char *)a; q < (const unsigned char *)p; q++) {
            if (*q < 0x80 && !((*q | 32) >= 'a' && (*q | 32) <= 'z') && *q != '-' && *q != '_')
                return 0;   /* digits, marks, signs */
            if (qz_han_len((const char *)q))
                for (size_t v = 0; v < n_verbs; v++)
                    if (!strncmp((const char *)q, han_verbs[v], strlen(han_verbs[v])))
                        return 0;
            if (*q >= 0x80 && (*q & 0xc0) != 0x80 && !qz_han_len((const char *)q))
                return 0;   /* punctuation and symbols outside ASCII: ，√ */
        }
    }
    return items >= 7;
}

/* Han terms with spaces between them and nothing else ("归一化 方差 softmax 梯度", "缩放 方差
 * 饱和 梯度"): four
 * or more short items, no verb among them, no number, no notation; or seven terms or more
 * in any language (spaced_words). */
/* Han characters that state something (a verb, a copula, a negation, a preposition): a
 * term that holds one is more than a term. */
static const char *const han_verbs[] = {"是", "有", "会", "要", "能", "让", "使", "把", "被", "来",
                                        "用", "从", "在", "给", "到", "就", "才", "比", "不", "没",
                                        "无", "随", "与", "和", "跟", "更", "很", "太", "对", "为",
                                        "做", "看", "传", "变", "可", "得", "需", "只", "都"};

int qz_answer_spaced_terms(const char *s)
{
    /* terms of the field that hold one of them and say nothing: 饱和 is no 和 */
    static const char *const words[] = {"饱和", "变量", "变换", "对数", "对角", "可学习", "得分"};
    if (spaced_words(s, han_verbs, sizeof han_verbs / sizeof han_verbs[0]))
        return 1;
    size_t items = 0, han_items = 0, width = 0;
    int han = 0;
    for (const unsigned char *p = (const unsigned char *)s;; p++) {
        if (!*p || *p == ' ' || *p == '\t' || *p == '\n' || *p == ',' || *p == '/') {
            if (width) {
                items++;
                han_items += han;
                if (width > 12)
                    return 0;
            }
            width = 0;
            han = 0;
            if (!*p)
                break;
            continue;
        }
        if (*p < 0x80 && !((*p | 32) >= 'a' && (*p | 32) <= 'z') && *p != '-' && *p != '_')
            return 0;   /* digits, brackets, =, :, punctuation: more than a term */
        if (qz_han_len((const char *)p)) {   /* Chinese characters */
            han = 1;
            size_t whole = 0;   /* a term that holds one of those characters: 饱和 */
            for (size_t w = 0; w < sizeof words / sizeof words[0] && !whole; w++)
                if (!strncmp((const char *)p, words[w], strlen(words[w])))
                    whole = strlen(words[w]);
            if (whole) {
                width += 2 * (whole / 3);
                p += whole - 1;
                continue;
            }
            for (size_t v = 0; v < sizeof han_verbs / sizeof han_verbs[0]; v++)
                if (!strncmp((const char *)p, han_verbs[v], strlen(han_verbs[v])))
                    return 0;
        } else if (*p >= 0xc0) {
            return 0;   /* another symbol or punctuation: √, ，, 。 */
        }
        if ((*p & 0xc0) != 0x80)
            width += *p >= 0xe0 ? 2 : 1;
    }
    return items >= 4 && han_items >= 2 && 2 * han_items >= items;
}

/* Terms between commas (or 、), three or more, each a word or two of letters or up to four
 * Han characters, and nothing else: "variance, saturation, gradients", "方差、饱和、梯度": a
 * list, nothing stated. No word that states (stating_word), no Han verb, no digit or
 * other mark; a full stop may end it. */
int qz_answer_comma_terms(const char *s)
{
    /* han_verbs but 和 (it joins the terms of a list: 方差和梯度), and Cantonese and more
     * verbs that say where a role comes from ("decoder 出 Q") */
    static const char *const more[] = {"係", "冇", "出", "产", "提", "算", "管", "负", "当", "作",
                                       "取", "读", "写", "查", "找"};
    size_t items = 0, words = 0, han = 0;
    int in_word = 0;
    for (const char *p = s;; p++) {
        size_t sep = *p == ',' ? 1 : !strncmp(p, "、", strlen("、")) ? strlen("、")
                   : !strncmp(p, "，", strlen("，")) ? strlen("，") : 0;
        int end = !*p || ((*p == '.' || !strncmp(p, "。", strlen("。"))) &&
                          !p[*p == '.' ? 1 : strlen("。")]);
        if (end || sep) {
            if (!words && !han)
                return 0;   /* an empty item */
            items++;
            words = han = 0;
            in_word = 0;
            if (end)
                break;
            p += sep - 1;
            continue;
        }
        if (*p == ' ') {
            in_word = 0;
            continue;
        }
        unsigned char c = (unsigned char)*p;
        if (c < 0x80) {
            if (!((c | 32) >= 'a' && (c | 32) <= 'z') && c != '-')
                return 0;   /* digits, brackets, =, :, a semicolon: more than a term */
            if (!in_word && words && han)
                return 0;   /* a word, Han, a word: "decoder 出 Q" says something */
            if (!in_word) {
                const char *b = p;
                while (*b && (isalpha((unsigned char)*b) || *b == '-' || *b == '\''))
                    b++;
                if (stating_word(p, b))
                    return 0;
                words++;
            }
            in_word = 1;
        } else if (qz_han_len(p)) {
            int statement = 0;
            for (size_t v = 0; v < sizeof han_verbs / sizeof han_verbs[0]; v++)
                statement |= strcmp(han_verbs[v], "和") &&
                             !strncmp(p, han_verbs[v], strlen(han_verbs[v]));
            for (size_t v = 0; v < sizeof more / sizeof more[0]; v++)
                statement |= !strncmp(p, more[v], strlen(more[v]));
            if (statement)   /* (饱和 holds 和 only, which is left out) */
                return 0;
            han++;
            p += qz_han_len(p) - 1;
        } else {
            return 0;   /* √, ∝, other marks */
        }
        if (words > 2 || han > 4)
            return 0;
    }
    if (items < 3)
        return 0;
    /* a term said twice gives each its place ("decoder, encoder, encoder": Q, K and V in
     * order): an answer by position, not a list */
    char buf[512];
    size_t o = 0;
    for (const char *p = s; *p && o + 1 < sizeof buf;) {
        size_t sep = !strncmp(p, "、", strlen("、")) ? strlen("、")
                   : !strncmp(p, "，", strlen("，")) ? strlen("，") : 0;
        buf[o++] = sep ? ',' : *p;
        p += sep ? sep : 1;
    }
    buf[o] = '\0';
    const char *item[16];
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < 16; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ')
            t++;
        size_t l = strlen(t);
        while (l && (t[l - 1] == ' ' || t[l - 1] == '.'))
            t[--l] = '\0';
        for (size_t k = 0; k < n; k++)
            if (!strcasecmp(item[k], t))
                return 0;
        item[n++] = t;
    }
    return 1;
}

/* Terms between semicolons, four or more, each a word or two and nothing else: "variance;
 * softmax; saturation; gradients; stability": a list, nothing stated. Latin words only: four
 * Han characters (降低方差) often state something. */
int qz_answer_semicolon_terms(const char *s)
{
    size_t items = 0, seps = 0, words = 0, width = 0;
    int in_word = 0;
    for (const unsigned char *p = (const unsigned char *)s;; p++) {
        int full = !strncmp((const char *)p, "；", strlen("；"));
        int end = !*p || ((*p == '.' || !strncmp((const char *)p, "。", strlen("。"))) &&
                          !p[*p == '.' ? 1 : strlen("。")]);
        if (end || *p == ';' || full) {
            if (!width)
                return 0;   /* an empty item: ";;" is no list */
            items++;
            width = words = 0;
            in_word = 0;
            if (end)
                break;
            seps++;
            p += full ? strlen("；") - 1 : 0;
            continue;
        }
        if (*p == ' ') {
            in_word = 0;
            continue;
        }
        if (*p < 0x80 && !((*p | 32) >= 'a' && (*p | 32) <= 'z') && *p != '-' && *p != '_')
            return 0;   /* digits, brackets, =, :, a comma: more than a term */
        if (*p >= 0x80 && (*p & 0xc0) != 0x80)
            return 0;   /* Han (降低方差 states something), √, ，: more than a term */
        if (*p < 0x80) {
            width += 1;
            words += !in_word;
            in_word = 1;
        }
        if (words > 2 || width > 12)
            return 0;
    }
    return items >= 4 && seps >= 3;
}

/* Marks of text that cannot be read: struck out (~~), a character lost (▯, □, U+FFFD and
 * what it becomes read as GBK, 锟斤拷; 烫烫烫 and 屯屯屯 of unset memory; a
 * "?" inside a word: "?coder", "enc?dec"), keys hit at random (@#), doubled question
 * marks or semicolons of a broken input, or the answer cut off after a word that needs
 * more ("from the ...", "从 ……"). */
int qz_answer_garbled(const char *s)
{
    static const char *const marks[] = {"~~", "@#", "#@", "？？", "??", "；；", ";;"};
    if (qz_answer_lost_characters(s))
        return 1;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        for (const char *m = strstr(s, marks[i]); m; m = strstr(m + 1, marks[i])) {
            /* "can't cheat?? no wait": a doubt said twice after a word, not a lost character */
            size_t l = strlen(marks[i]);
            while (m[l] == '?')
                l++;
            int word_before = m > s && (((unsigned char)m[-1] | 32) >= 'a' && ((unsigned char)m[-1] | 32) <= 'z');
            int open_after = !m[l] || m[l] == ' ' || m[l] == ')' || m[l] == '\n';
            if (!strcmp(marks[i], "??") && word_before && open_after) {
                m += l - 1;
                continue;
            }
            return 1;
        }
    for (const char *p = s; *p; p++) {
        int before = p > s && (((unsigned char)p[-1] | 32) >= 'a' && ((unsigned char)p[-1] | 32) <= 'z');
        int after = ((unsigned char)p[1] | 32) >= 'a' && ((unsigned char)p[1] | 32) <= 'z';
        if ((*p == '?' || !strncmp(p, "？", 3)) && after && (before || p == s || p[-1] == ' '))
            return 1;
    }
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
        n--;
    static const char *const cut[] = {"...", "…"};
    for (size_t i = 0; i < 2; i++) {
        size_t l = strlen(cut[i]);
        if (n < l || strncmp(s + n - l, cut[i], l))
            continue;
        size_t e = n;
        while (e >= l && !strncmp(s + e - l, cut[i], l))
            e -= l;
        while (e && s[e - 1] == ' ')
            e--;
        static const char *const open[] = {" the", " a", " to", " from", " of", " is", " frm",
                                           "从", "会", "是", "的", "在", "用", "把", "让"};
        for (size_t k = 0; k < sizeof open / sizeof open[0]; k++) {
            size_t ol = strlen(open[k]);
            if (e >= ol && !strncmp(s + e - ol, open[k], ol))
                return 1;
        }
    }
    return 0;
}
