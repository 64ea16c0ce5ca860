/* Numeric answers: the text made plain, a lexer over UTF-8 text and a small
 * recursive-descent parser for the arithmetic of a hand calculation; the sentence
 * around the values is read by reader.c. See quiz/answer.h. */
#define _GNU_SOURCE   /* strcasestr */
#include "quiz/lang.h"
#include "quiz/numlex.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- normalisation ---- */

typedef struct outbuf {
    char *s;
    long *orig;
    size_t n, cap;
} outbuf;

static int put(outbuf *b, const char *s, size_t n, long from)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *s2 = realloc(b->s, cap);
        if (!s2)
            return -1;
        b->s = s2;
        long *o2 = realloc(b->orig, cap * sizeof *o2);
        if (!o2)
            return -1;
        b->orig = o2;
        b->cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        b->s[b->n] = s[i];
        b->orig[b->n++] = from;
    }
    return 0;
}

/* Signs that mean minus, and superscripts (⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺). */
static const char *const minus_signs[] = {"\u2212", "\u2013", "\u2012", "\ufe63", "\uff0d"};
static const char *const superscripts[] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074", "\u2075",
                                           "\u2076", "\u2077", "\u2078", "\u2079", "\u207b", "\u207a"};

static size_t starts(const char *p, const char *w)
{
    size_t n = strlen(w);
    return strncmp(p, w, n) ? 0 : n;
}

static int superscript_at(const char *p, size_t *len)
{
    for (int i = 0; i < 12; i++)
        if ((*len = starts(p, superscripts[i])))
            return i;
    return -1;
}

/* The full stop 。 typed as a decimal point ("没0。17", as a Chinese input method gives
 * it): between digits, after a run of digits that is not already a decimal part. */
static int ideographic_point(const outbuf *b, const char *next)
{
    size_t k = b->n;
    while (k > 0 && isdigit((unsigned char)b->s[k - 1]))
        k--;
    int full_width_digit = (unsigned char)next[0] == 0xef && (unsigned char)next[1] == 0xbc &&
                           (unsigned char)next[2] >= 0x90 && (unsigned char)next[2] <= 0x99;
    return k < b->n && (k == 0 || b->s[k - 1] != '.') && (isdigit((unsigned char)*next) || full_width_digit);
}

/* LaTeX commands and what they become; others are dropped. */
static const struct {
    const char *cmd, *to;
} latex[] = {
    {"approx", "≈"}, {"simeq", "≈"}, {"sim", "≈"}, {"to", "→"}, {"rightarrow", "→"},
    {"Rightarrow", "→"}, {"times", "*"}, {"cdot", "*"}, {"div", "/"}, {"sqrt", "√"},
    {"exp", "exp"}, {"ln", "ln"}, {"%", "%"}, {"mathrm", ""}, {"text", ""}, {"left", ""},
    {"right", ""}, {"operatorname", ""}, {"mathit", ""},
};

/* "\frac{a}{b}": frac_depth[k] is the brace depth at which the k-th open \frac's
 * groups stand, frac_part[k] 0 before the numerator, 1 in it, 2 before the
 * denominator, 3 in it. */
typedef struct latex_state {
    int depth;
    int frac_depth[16], frac_part[16];
    int n_frac;
} latex_state;

static int latex_command(outbuf *b, latex_state *st, const char *p, long at, size_t *used)
{
    const char *q = p + 1;
    if (!isalpha((unsigned char)*q)) {              /* "\%", "\,", "\;", "\!" */
        *used = *q ? 2 : 1;
        return *q == '%' ? put(b, "%", 1, at) : put(b, " ", 1, at);
    }
    while (isalpha((unsigned char)*q))
        q++;
    size_t n = (size_t)(q - p - 1);
    *used = (size_t)(q - p);
    if ((n == 4 && !strncmp(p + 1, "frac", 4)) || (n == 5 && (!strncmp(p + 1, "dfrac", 5) ||
                                                             !strncmp(p + 1, "tfrac", 5)))) {
        if (st->n_frac < 16) {
            st->frac_depth[st->n_frac] = st->depth;
            st->frac_part[st->n_frac++] = 0;
        }
        return put(b, "(", 1, at);
    }
    for (size_t i = 0; i < sizeof latex / sizeof latex[0]; i++)
        if (strlen(latex[i].cmd) == n && !strncmp(p + 1, latex[i].cmd, n))
            return put(b, latex[i].to, strlen(latex[i].to), at);
    return put(b, " ", 1, at);
}

static int latex_brace(outbuf *b, latex_state *st, char c, long at)
{
    int k = st->n_frac - 1;
    if (c == '{') {
        if (k >= 0 && st->frac_depth[k] == st->depth && (st->frac_part[k] == 0 || st->frac_part[k] == 2))
            st->frac_part[k]++;
        st->depth++;
        return put(b, "(", 1, at);
    }
    if (st->depth > 0)
        st->depth--;
    if (put(b, ")", 1, at))
        return -1;
    if (k >= 0 && st->frac_depth[k] == st->depth) {
        if (st->frac_part[k] == 1) {
            st->frac_part[k] = 2;
            return put(b, "/", 1, at);
        }
        if (st->frac_part[k] == 3) {
            st->n_frac--;
            return put(b, ")", 1, at);
        }
    }
    return 0;
}

/* A Chinese numeral digit at p (零 〇 一 … 九): its value, and *len its bytes; -1 when none. */
static int cn_digit(const char *p, size_t *len)
{
    static const char *const d[] = {"零", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    for (int i = 0; i < 10; i++)
        if ((*len = starts(p, d[i])))
            return i;
    if ((*len = starts(p, "〇")))
        return 0;
    return -1;
}

/* "零点一四" (0.14) read out digit by digit: the bytes it spans (0 when p starts no
 * such number), its ASCII digits in buf. Only a run of digits, 点, and a run of digits:
 * 一点 alone ("a little") and 十 are no such number. */
static size_t cn_decimal(const char *p, char *buf, size_t cap)
{
    const char *q = p;
    size_t n = 0, len = 0;
    int d, before = 0, after = 0;
    while ((d = cn_digit(q, &len)) >= 0 && n + 2 < cap) {
        buf[n++] = (char)('0' + d);
        q += len;
        before++;
    }
    if (!before || !((len = starts(q, "点")) || (*q == '.' && (len = 1))))
        return 0;   /* 零点一四; 〇.一四 with a dot */
    q += len;
    buf[n++] = '.';
    while ((d = cn_digit(q, &len)) >= 0 && n + 1 < cap) {
        buf[n++] = (char)('0' + d);
        q += len;
        after++;
    }
    if (!after || (before == 1 && buf[0] == '1' && after == 1 && !strncmp(p, "一点", 6)))
        return 0;   /* 一点一 is too like 一点一点 ("little by little") to read */
    static const char *const units[] = {"十", "百", "千", "万", "亿", "乘", "倍"};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
        if (starts(q, units[u]))
            return 0;   /* 零点一四亿, 零点一四乘十: not the number alone */
    buf[n] = '\0';
    return (size_t)(q - p);
}

/* An English digit word at p ("zero", "oh", "one" … "nine", any case) ending at a word's
 * end: its value, and *len its bytes; -1 when none. */
static int en_digit(const char *p, size_t *len)
{
    static const char *const d[] = {"zero", "one", "two", "three", "four", "five", "six",
                                    "seven", "eight", "nine", "oh", "nought", "naught"};
    for (int i = 0; i < 13; i++) {
        size_t n = strlen(d[i]);
        if (!strncasecmp(p, d[i], n) && !isalpha((unsigned char)p[n])) {
            *len = n;
            return i < 10 ? i : 0;
        }
    }
    return -1;
}

/* A decimal said aloud and typed by speech recognition, digit by digit: "zero point one
 * four", "point one four", "oh point one seven" (0.14, .14, 0.17). The bytes it spans
 * from p (0 when none), its ASCII digits in buf. p must start a word. "point one" alone
 * (a list's first point) is no number: without a whole part two digits must follow. */
static size_t en_decimal(const char *text, const char *p, char *buf, size_t cap)
{
    if ((p > text && isalpha((unsigned char)p[-1])) || cap < 8)
        return 0;
    const char *q = p;
    size_t n = 0, len = 0;
    int d = en_digit(q, &len), whole = d >= 0;
    if (whole) {
        buf[n++] = (char)('0' + d);
        q += len;
        while (*q == ' ')
            q++;
    }
    if (strncasecmp(q, "point", 5) || isalpha((unsigned char)q[5]))
        return 0;
    q += 5;
    buf[n++] = '.';
    size_t after = 0;
    const char *end = q;
    for (;;) {
        const char *r = end;
        while (*r == ' ')
            r++;
        if ((d = en_digit(r, &len)) < 0 || n + 1 >= cap)
            break;
        buf[n++] = (char)('0' + d);
        end = r + len;
        after++;
    }
    if (!after || (!whole && after < 2))
        return 0;
    buf[n] = '\0';
    return (size_t)(end - p);
}

/* "百分之十四" (14%), 百分之十七点五, 百分之九: a percentage in Chinese numerals, the
 * whole part up to 99 written with 十; the bytes it spans (0 when p starts none), its
 * ASCII form ("14%") in buf. */
static size_t cn_percent(const char *p, char *buf, size_t cap)
{
    size_t len = starts(p, "百分之");
    if (!len || cap < 16)
        return 0;
    const char *q = p + len;
    size_t l = 0;
    int tens = -1, ones = -1, d = cn_digit(q, &l);
    if (d >= 0) {
        q += l;
        ones = d;
    }
    if ((l = starts(q, "十"))) {
        q += l;
        tens = ones >= 0 ? ones : 1;
        ones = (d = cn_digit(q, &l)) >= 0 ? d : 0;
        if (d >= 0)
            q += l;
    }
    if (ones < 0 || starts(q, "百") || starts(q, "千") || starts(q, "万"))
        return 0;   /* 百分之一百: a larger number than this reads */
    int n = snprintf(buf, cap, "%d", (tens > 0 ? tens * 10 : 0) + ones);
    if ((l = starts(q, "点"))) {
        const char *r = q + l;
        size_t k = (size_t)n;
        buf[k++] = '.';
        while ((d = cn_digit(r, &l)) >= 0 && k + 2 < cap) {
            buf[k++] = (char)('0' + d);
            r += l;
        }
        if (k > (size_t)n + 1) {
            q = r;
            n = (int)k;
        }
    }
    buf[n] = '%';
    buf[n + 1] = '\0';
    return (size_t)(q - p);
}

int qz_normalise(const char *text, char **out, long **orig)
{
    outbuf b = {0};
    latex_state st = {0};
    int in_super = 0, rc = 0;
    for (const char *p = text; *p && !rc;) {
        const unsigned char *u = (const unsigned char *)p;
        long at = (long)(p - text);
        size_t len = 0;
        int sup = superscript_at(p, &len);
        if (sup >= 0) {
            char c = sup < 10 ? (char)('0' + sup) : sup == 10 ? '-' : '+';
            rc = (!in_super && put(&b, "^(", 2, at)) || put(&b, &c, 1, at);
            in_super = 1;
            p += len;
            continue;
        }
        if (in_super) {
            rc = put(&b, ")", 1, at);
            in_super = 0;
            if (rc)
                break;
        }
        char digits[32];
        size_t neg = starts(p, "负"), cn = cn_decimal(p + neg, digits, sizeof digits);
        if (cn) {   /* 零点一四, 负零点一四 */
            rc = (neg && put(&b, "-", 1, at)) || put(&b, digits, strlen(digits), at);
            p += neg + cn;
            continue;
        }
        if ((cn = en_decimal(text, p, digits, sizeof digits))) {   /* zero point one four */
            rc = put(&b, digits, strlen(digits), at);
            p += cn;
            continue;
        }
        if ((cn = cn_percent(p, digits, sizeof digits))) {   /* 百分之十四 */
            rc = put(&b, digits, strlen(digits), at);
            p += cn;
            continue;
        }
        if (u[0] == 0xef && u[1] == 0xbc && u[2] >= 0x90 && u[2] <= 0x99) {   /* ０ … ９ */
            char c = (char)('0' + (u[2] - 0x90));
            rc = put(&b, &c, 1, at);
            p += 3;
            continue;
        }
        if ((u[0] == 0xef && u[1] == 0xbc && u[2] == 0x8e) ||                  /* ． */
            ((len = starts(p, "。")) && ideographic_point(&b, p + len))) {
            rc = put(&b, ".", 1, at);
            p += 3;
            continue;
        }
        if ((len = starts(p, "\u2019")) && p > text && isalpha((unsigned char)p[-1]) &&
            isalpha((unsigned char)p[len])) {
            rc = put(&b, "'", 1, at);   /* didn’t */
            p += len;
            continue;
        }
        int minus = 0;
        for (size_t i = 0; i < sizeof minus_signs / sizeof minus_signs[0] && !minus; i++)
            if ((len = starts(p, minus_signs[i])))
                minus = 1;
        if (minus) {
            rc = put(&b, "-", 1, at);
            p += len;
        } else if (*p == '\\') {
            rc = latex_command(&b, &st, p, at, &len);
            p += len;
        } else if (*p == '{' || *p == '}') {
            rc = latex_brace(&b, &st, *p, at);
            p++;
        } else if (*p == '$') {
            rc = put(&b, " ", 1, at);
            p++;
        } else {
            rc = put(&b, p, 1, at);
            p++;
        }
    }
    if (!rc && in_super)
        rc = put(&b, ")", 1, (long)strlen(text));
    if (!rc)
        rc = put(&b, "", 0, 0);
    if (rc || !b.s) {
        free(b.s);
        free(b.orig);
        return -1;
    }
    b.s[b.n] = '\0';
    b.orig[b.n] = (long)strlen(text);
    *out = b.s;
    *orig = b.orig;
    return 0;
}

/* ---- lexer ---- */

/* Multibyte symbols students type, and what they mean. */
static const struct {
    const char *utf8;
    enum qz_tok_kind kind;
    char op;
} symbols[] = {
    {"，", T_SEP, ','}, {"；", T_SEP, ';'}, {"、", T_SEP, ','}, {"。", T_SEP, '.'}, {"！", T_SEP, '!'},
    {"？", T_SEP, '?'}, {"：", T_LABELSEP, ':'}, {"＝", T_LABELSEP, '='}, {"％", T_PCT, '%'},
    {"（", T_LPAR, '('}, {"）", T_RPAR, ')'}, {"×", T_OP, '*'}, {"·", T_OP, '*'}, {"⋅", T_OP, '*'},
    {"∙", T_OP, '*'}, {"＊", T_OP, '*'}, {"÷", T_OP, '/'}, {"／", T_OP, '/'}, {"∕", T_OP, '/'},
    {"＋", T_OP, '+'}, {"＾", T_OP, '^'}, {"√", T_ROOT, 0}, {"≈", T_CHAIN, '~'}, {"≒", T_CHAIN, '~'},
    {"≃", T_CHAIN, '~'}, {"≅", T_CHAIN, '~'}, {"～", T_CHAIN, '~'}, {"∼", T_CHAIN, '~'},
    {"→", T_CHAIN, '>'}, {"⇒", T_CHAIN, '>'}, {"⟹", T_CHAIN, '>'}, {"=>", T_CHAIN, '>'},
    {"->", T_CHAIN, '>'}, {"“", T_PUNCT, '"'}, {"”", T_PUNCT, '"'}, {"‘", T_PUNCT, '\''},
    {"’", T_PUNCT, '\''}, {"「", T_PUNCT, '"'}, {"」", T_PUNCT, '"'}, {"『", T_PUNCT, '"'},
    {"』", T_PUNCT, '"'}, {"《", T_PUNCT, '"'}, {"》", T_PUNCT, '"'}, {"【", T_PUNCT, '['},
    {"】", T_PUNCT, ']'}, {"〔", T_PUNCT, '['}, {"〕", T_PUNCT, ']'}, {"…", T_PUNCT, '.'},
    {"—", T_PUNCT, '-'}, {"〜", T_CHAIN, '~'}, {"＞", T_PUNCT, '>'}, {"＜", T_PUNCT, '<'},
};

static int is_space_at(const char *p, size_t *len)
{
    if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') {
        *len = 1;
        return 1;
    }
    if ((*len = starts(p, "\u3000")) || (*len = starts(p, "\u00a0")) || (*len = starts(p, "\u202f")) ||
        (*len = starts(p, "\u2009")))
        return 1;
    return 0;
}

static size_t utf8_len(unsigned char c)
{
    if (c < 0x80) return 1;
    if (c >= 0xf0) return 4;
    if (c >= 0xe0) return 3;
    if (c >= 0xc0) return 2;
    return 1;
}

static int symbol_at(const char *p, size_t *len, size_t *which)
{
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        size_t l = strlen(symbols[i].utf8);
        if (!strncmp(p, symbols[i].utf8, l)) {
            *len = l;
            *which = i;
            return 1;
        }
    }
    return 0;
}

/* Digit groups after the first: ",ddd" (or "_ddd", any length, as Python writes them)
 * as long as they last. Returns how many bytes they take (0: none); whole says whether
 * one ",ddd" group is enough. "0,155" is never grouped (no group starts with 0). */
static size_t digit_groups(const qz_lexer *lx, const char *p, size_t lead)
{
    const char *q = p + lead;
    size_t groups = 0, used = 0;
    if (lx->comma_decimal || lead > 3 || (lead > 1 && *p == '0') || (lead == 1 && *p == '0'))
        goto underscores;
    while (q[0] == ',' && isdigit((unsigned char)q[1]) && isdigit((unsigned char)q[2]) &&
           isdigit((unsigned char)q[3]) && !isdigit((unsigned char)q[4])) {
        groups++;
        q += 4;
    }
    if (groups >= 2 || (groups == 1 && lx->whole && *q != '.'))
        return (size_t)(q - (p + lead));
    /* "1 048 576" where one whole number is asked */
    q = p + lead;
    groups = 0;
    while (lx->space_groups && lead <= 3 && *p != '0' && q[0] == ' ' && isdigit((unsigned char)q[1]) &&
           isdigit((unsigned char)q[2]) && isdigit((unsigned char)q[3]) && !isdigit((unsigned char)q[4]) &&
           q[4] != '.' && q[4] != ',') {
        groups++;
        q += 4;
    }
    if (groups >= 1)
        return (size_t)(q - (p + lead));
underscores:
    q = p + lead;
    while (q[0] == '_' && isdigit((unsigned char)q[1])) {
        q++;
        while (isdigit((unsigned char)*q))
            q++;
        used = (size_t)(q - (p + lead));
    }
    return used;
}

/* A number: digits [groups] [. digits] [e[+-]digits], or .digits; with comma_decimal a
 * comma between digits is the decimal point. The exponent is clamped to
 * ±QZ_MAX_EXPONENT and the decimals to QZ_MAX_DECIMALS before any arithmetic. */
static size_t lex_number(const qz_lexer *lx, const char *p, qz_tok *t)
{
    const char *q = p;
    char buf[160];
    size_t b = 0;
    int decimals = 0;
    while (isdigit((unsigned char)*q)) {
        if (b < 100)
            buf[b++] = *q;
        q++;
    }
    size_t groups = digit_groups(lx, p, (size_t)(q - p));
    for (const char *g = q; g < q + groups; g++)   /* the digits of the groups */
        if (isdigit((unsigned char)*g) && b < 100)
            buf[b++] = *g;
    q += groups;
    int sep = *q == '.' || (lx->comma_decimal && *q == ',' && q > p && isdigit((unsigned char)q[1]));
    if (sep && (isdigit((unsigned char)q[1]) || (q > p && *q == '.'))) {
        buf[b++] = '.';
        q++;
        while (isdigit((unsigned char)*q)) {
            if (b < 140)
                buf[b++] = *q;
            decimals += decimals < 1000;
            q++;
        }
    }
    long e = 0;
    if ((*q == 'e' || *q == 'E') &&
        (isdigit((unsigned char)q[1]) || ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
        q++;
        int neg = *q == '-';
        if (*q == '-' || *q == '+')
            q++;
        while (isdigit((unsigned char)*q)) {
            if (e <= QZ_MAX_EXPONENT)
                e = e * 10 + (*q - '0');
            q++;
        }
        if (e > QZ_MAX_EXPONENT)
            e = QZ_MAX_EXPONENT;
        if (neg)
            e = -e;
        b += (size_t)snprintf(buf + b, sizeof buf - b, "e%ld", e);
    }
    buf[b] = '\0';
    /* 1.384e-1 has 4 decimals: the digits after the point minus the exponent. */
    long d = (long)decimals - e;
    t->kind = T_NUM;
    t->num = strtod(buf, NULL);
    t->decimals = (int)(d < 0 ? 0 : d > QZ_MAX_DECIMALS ? QZ_MAX_DECIMALS : d);
    return (size_t)(q - p);
}

/* "2e+1" inside arithmetic ("1/(2e+1)"): 2·e+1 or 2×10¹? An integer, a lower-case e
 * and a signed exponent, next to an operator or a parenthesis, is refused with a hint
 * rather than read either way; "1.384e-1", "1e-3" alone and "2E+1" stay scientific. */
static int ambiguous_e(const qz_lexer *lx, const char *p)
{
    const char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q != 'e' || (q[1] != '+' && q[1] != '-') || !isdigit((unsigned char)q[2]))
        return 0;
    const char *end = q + 2;
    while (isdigit((unsigned char)*end))
        end++;
    const qz_tok *prev = lx->n ? &lx->toks[lx->n - 1] : NULL;
    while (*end == ' ')
        end++;
    size_t l, w;
    int op_after = strchr("*/^)", *end) && *end ? 1 : symbol_at(end, &l, &w) &&
                   (symbols[w].kind == T_OP || symbols[w].kind == T_RPAR);
    return op_after || (prev && (prev->kind == T_OP || prev->kind == T_LPAR));
}

static int refuse_e(const qz_lexer *lx, const char *p)
{
    const char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    const char *end = q + 2;
    while (isdigit((unsigned char)*end))
        end++;
    int n = (int)(end - p), m = (int)(q - p), k = (int)(end - q - 1);
    const qz_tok at_end = {.s = p, .len = 0, .kind = T_END};   /* (xgettext counts braces' commas) */
    if (n > 40)
        return qz_lex_fail(lx, &at_end, "a number with e and a sign is ambiguous here: write 2*e+1 or 2E+1");
    int rc = at_error_set(lx->err, AT_EINVAL,
                          qz_tr(lx->lang,
                                "'%.*s' (character %ld) is ambiguous: write %.*s*e%.*s for %.*s·e%.*s, or "
                                "%.*sE%.*s for %g"),
                          n, p, lx->orig[p - lx->text] + 1, m, p, k, q + 1, m, p, k, q + 1,
                          m, p, k, q + 1, strtod(p, NULL));
    if (lx->err)
        lx->err->offset = lx->orig[p - lx->text];
    return rc;
}

static int is_word_byte(unsigned char c)
{
    return isalpha(c) || c == '_' || c == '\'' || c >= 0x80;
}

int qz_lex_fail(const qz_lexer *lx, const qz_tok *t, const char *msgid)
{
    at_error *err = lx->err;
    int len = (int)(t->kind == T_END ? 0 : t->len);
    int rc = at_error_set(err, AT_EINVAL, "%s", qz_tr(lx->lang, msgid));
    if (err) {
        err->offset = lx->orig[t->s - lx->text];
        size_t m = strlen(err->msg);
        if (len > 0 && len < 64 && m + (size_t)len + 32 < sizeof err->msg)
            snprintf(err->msg + m, sizeof err->msg - m,
                     qz_tr(lx->lang, " (at '%.*s')"), len, t->s);
    }
    return rc;
}

/* A run of letters: stops at spaces, digits, symbols and punctuation. */
static int lex_word(qz_lexer *lx, const char *p, size_t *len)
{
    const char *q = p;
    while (*q && is_word_byte((unsigned char)*q)) {
        size_t l2, w2;
        if (is_space_at(q, &l2) || symbol_at(q, &l2, &w2))
            break;
        size_t l = utf8_len((unsigned char)*q);
        for (size_t i = 1; i < l; i++)
            if (!q[i]) {
                int rc = at_error_set(lx->err, AT_EINVAL,
                                      qz_tr(lx->lang, "the answer ends in the middle of a character"));
                if (lx->err)
                    lx->err->offset = lx->orig[q - lx->text];   /* where the cut character starts */
                return rc;
            }
        q += l;
    }
    *len = (size_t)(q - p);
    return AT_OK;
}

static int is_function_name(const char *s, size_t n)
{
    return (n == 3 && !strncasecmp(s, "exp", 3)) || (n == 4 && !strncasecmp(s, "sqrt", 4)) ||
           (n == 2 && !strncasecmp(s, "ln", 2));
}

/* An ordinal at p ("1st", "2nd", "3rd", "4th"), a word of its own: its length, else 0. */
static size_t ordinal_at(const char *p)
{
    const char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    if (q == p || q - p > 2)
        return 0;
    static const char *const ends[] = {"st", "nd", "rd", "th"};
    for (size_t i = 0; i < 4; i++)
        if (!strncasecmp(q, ends[i], 2) && !isalnum((unsigned char)q[2]) && q[2] != '_')
            return (size_t)(q - p) + 2;
    return 0;
}

/* Does a Chinese character (a token's name) follow the spaces at p? */
static int after_spaces_han(const char *p)
{
    while (*p == ' ')
        p++;
    return qz_han_len(p) != 0;
}

/* The bytes of R's index before a printed vector at p ("[1] 0.14 0.17", "# [1] 0.1384
 * 0.1691"): "[" digits "]" then a space and a number, at the start of the answer or of a
 * line, or after a comment's #, an arrow or a colon. 0 otherwise. */
static size_t r_index_at(const char *text, const char *p)
{
    if (*p != '[' || !isdigit((unsigned char)p[1]))
        return 0;
    const char *q = p + 1;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q != ']' || q[1] != ' ')
        return 0;
    const char *v = q + 1;
    while (*v == ' ')
        v++;
    if (!isdigit((unsigned char)*v) && !(*v == '.' && isdigit((unsigned char)v[1])))
        return 0;
    const char *b = p;
    while (b > text && b[-1] == ' ')
        b--;
    return b == text || b[-1] == '\n' || b[-1] == '#' || b[-1] == '>' || b[-1] == ':'
           ? (size_t)(q + 1 - p) : 0;
}

int qz_lex(qz_lexer *lx)
{
    const char *p = lx->text;
    int space = 1;
    lx->n = 0;
    while (*p) {
        size_t len, which;
        if (is_space_at(p, &len)) {
            p += len;
            space = 1;
            continue;
        }
        qz_tok *t = &lx->toks[lx->n];
        memset(t, 0, sizeof *t);
        t->s = p;
        t->space_before = space;
        space = 0;
        qz_tok *w = lx->n ? &lx->toks[lx->n - 1] : NULL;
        size_t r_index = r_index_at(lx->text, p);
        if (r_index) {
            p += r_index;
            space = 1;
            continue;
        }
        if (isdigit((unsigned char)*p) && !t->space_before && w && w->kind == T_WORD &&
            isalpha((unsigned char)w->s[w->len - 1]) && !(w->len == 1 && tolower((unsigned char)*w->s) == 'e') &&
            !is_function_name(w->s, w->len)) {
            /* "w1", "k2", "d_k1": a name with digits, not a number */
            const char *q = p;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            w->len = (size_t)(q - w->s);
            p = q;
            continue;
        }
        size_t ord = ordinal_at(p);
        if (ord) {
            t->kind = T_WORD;   /* "2nd", "3rd": a rank, not a value */
            len = ord;
        } else if (isdigit((unsigned char)*p) && ambiguous_e(lx, p)) {
            return refuse_e(lx, p);
        } else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            len = lex_number(lx, p, t);
        } else if (symbol_at(p, &len, &which)) {
            t->kind = symbols[which].kind;
            t->op = symbols[which].op;
        } else if ((*p == 'x' || *p == 'X') && lx->n && lx->toks[lx->n - 1].kind == T_NUM &&
                   !t->space_before && isdigit((unsigned char)p[1])) {
            t->kind = T_OP;   /* "512x512" */
            t->op = '*';
            len = 1;
        } else if (*p == '/' && t->space_before && p[1] == ' ' && after_spaces_han(p + 1)) {
            t->kind = T_SEP;   /* "下雨 0.14 / 没 0.17": nothing divides by a word's name */
            t->op = ',';
            len = 1;
        } else if (*p == '/' && lx->slash_sep &&
                   ((t->space_before && (p[1] == ' ' || p[1] == '~')) ||
                    (!t->space_before && lx->n && lx->toks[lx->n - 1].kind == T_NUM &&
                     ((p[1] == '0' && p[2] == '.') || (p[1] == '.' && isdigit((unsigned char)p[2])))))) {
            t->kind = T_SEP;   /* "0.14 / 0.17", "0.14/0.17": a list, when read as one */
            t->op = ',';
            len = 1;
        } else if (strchr("+-*/^", *p)) {
            t->kind = T_OP;
            t->op = *p;
            len = 1;
            if (p[0] == '*' && p[1] == '*') {   /* Python's power */
                t->op = '^';
                len = 2;
            }
        } else if (strchr("()%,;=:.!?~", *p)) {
            t->kind = *p == '(' ? T_LPAR : *p == ')' ? T_RPAR : *p == '%' ? T_PCT
                    : (*p == '=' || *p == ':') ? T_LABELSEP : *p == '~' ? T_CHAIN : T_SEP;
            t->op = *p;
            len = 1;
        } else if (is_word_byte((unsigned char)*p)) {
            int rc = lex_word(lx, p, &len);
            if (rc)
                return rc;
            t->kind = T_WORD;
            if (len == 3 && !strncasecmp(p, "and", 3)) {   /* "0.14 and 0.17" */
                t->kind = T_SEP;
                t->op = ',';
            }
        } else {
            t->kind = T_PUNCT;   /* quotes, brackets, #, &, control bytes … */
            t->op = *p;
            len = 1;
        }
        t->len = len;
        p += len;
        lx->n++;
    }
    lx->toks[lx->n] = (qz_tok){.kind = T_END, .s = p, .space_before = 1};
    return AT_OK;
}

/* ---- the arithmetic of one value ---- */

typedef struct parser {
    const qz_lexer *lx;
    size_t i;
    int soft;             /* failed where a number was missing: not arithmetic */
    int depth;            /* parentheses open */
    int literal;          /* the current value is one literal so far */
    int divides;          /* the value holds a division ("1.35/9.75") */
    int percent;
    int decimals;
} parser;

static const qz_tok *peek(const parser *ps) { return &ps->lx->toks[ps->i]; }

static int fail_at(const parser *ps, const qz_tok *t, const char *msgid)
{
    return qz_lex_fail(ps->lx, t, msgid);
}

static int parse_sum(parser *ps, double *out);
static int parse_unary(parser *ps, double *out);

static int is_word(const qz_tok *t, const char *w)
{
    return t->kind == T_WORD && t->len == strlen(w) && !strncasecmp(t->s, w, t->len);
}

static int is_function_word(const qz_tok *t)
{
    return is_word(t, "exp") || is_word(t, "sqrt") || is_word(t, "ln");
}

static int parse_primary(parser *ps, double *out)
{
    const qz_tok *t = peek(ps);
    if (t->kind == T_NUM) {
        ps->i++;
        ps->decimals = t->decimals;
        *out = t->num;
        return AT_OK;
    }
    int literal = ps->literal;
    ps->literal = 0;
    if (t->kind == T_LPAR) {
        size_t open = ps->i++;
        ps->depth++;
        int rc = parse_sum(ps, out);
        if (rc)
            return rc;
        if (peek(ps)->kind != T_RPAR)
            return fail_at(ps, peek(ps), "a ')' is missing");
        ps->i++;
        ps->depth--;
        /* "(0.14)": one number in brackets is still that number as written */
        if (ps->i == open + 3 && ps->lx->toks[open + 1].kind == T_NUM)
            ps->literal = literal;
        return AT_OK;
    }
    if (t->kind == T_ROOT) {
        ps->i++;
        int rc = parse_unary(ps, out);
        if (rc)
            return rc;
        if (*out < 0)
            return fail_at(ps, t, "square root of a negative number");
        *out = sqrt(*out);
        return AT_OK;
    }
    if (is_word(t, "e") && (peek(ps)[1].kind != T_LPAR)) {
        ps->i++;
        *out = M_E;
        return AT_OK;
    }
    if (is_function_word(t)) {
        ps->i++;
        if (peek(ps)->kind != T_LPAR)
            return fail_at(ps, t, "a function needs its argument in parentheses: exp(0.3)");
        double x;
        int rc = parse_primary(ps, &x);
        if (rc)
            return rc;
        if (is_word(t, "exp"))
            *out = exp(x);
        else if (x < 0 || (is_word(t, "ln") && x == 0))
            return fail_at(ps, t, "the argument is out of range");
        else
            *out = is_word(t, "ln") ? log(x) : sqrt(x);
        return AT_OK;
    }
    ps->soft = 1;
    if (t->kind == T_END)
        return fail_at(ps, t, "a number is missing at the end");
    if (t->kind == T_WORD)
        return fail_at(ps, t, "a word where a number belongs");
    return fail_at(ps, t, "a number is missing here");
}

/* primary [%] */
static int parse_postfix(parser *ps, double *out)
{
    int rc = parse_primary(ps, out);
    if (rc)
        return rc;
    if (peek(ps)->kind == T_PCT) {
        ps->i++;
        *out /= 100.0;
        ps->percent = 1;
        if (ps->decimals >= 0)
            ps->decimals += 2;
    }
    return AT_OK;
}

/* postfix [^ unary]  (right-associative; -2^2 = -4) */
static int parse_power(parser *ps, double *out)
{
    int rc = parse_postfix(ps, out);
    if (rc)
        return rc;
    if (peek(ps)->kind == T_OP && peek(ps)->op == '^') {
        ps->i++;
        ps->literal = 0;
        double y;
        if ((rc = parse_unary(ps, &y)))
            return rc;
        *out = pow(*out, y);
    }
    return AT_OK;
}

static int parse_unary(parser *ps, double *out)
{
    const qz_tok *t = peek(ps);
    if (t->kind == T_OP && (t->op == '-' || t->op == '+')) {
        ps->i++;
        int rc = parse_unary(ps, out);
        if (t->op == '-')
            *out = -*out;
        return rc;
    }
    return parse_power(ps, out);
}

/* "2e": a number glued to e is 2·e (Euler's number), as written by hand. */
static int euler_glued(const parser *ps)
{
    const qz_tok *t = peek(ps);
    return ps->i > 0 && ps->lx->toks[ps->i - 1].kind == T_NUM && !t->space_before && is_word(t, "e");
}

/* A '/' with spaces on both sides between two written weights ("0.14 / 0.17"): two
 * values, not a division (softmax divides by a sum, never by a weight below 1). */
static int list_slash(const parser *ps, const qz_tok *op, double left)
{
    const qz_tok *r = op + 1;
    return op->kind == T_OP && op->op == '/' && ps->depth == 0 && ps->literal &&
           op->space_before && r->space_before && left > 0 && left < 1 && r->kind == T_NUM &&
           r->num > 0 && r->num < 1 && !(r[1].kind == T_OP && (r[1].op == '*' || r[1].op == '/'));
}

static int parse_product(parser *ps, double *out)
{
    int rc = parse_unary(ps, out);
    while (!rc && ((peek(ps)->kind == T_OP && (peek(ps)->op == '*' || peek(ps)->op == '/') &&
                    !list_slash(ps, peek(ps), *out)) ||
                   euler_glued(ps))) {
        const qz_tok *op = peek(ps);
        char how = op->kind == T_OP ? op->op : '*';
        if (op->kind == T_OP)
            ps->i++;
        ps->literal = 0;
        ps->divides |= how == '/';
        double y;
        if ((rc = parse_unary(ps, &y)))
            break;
        if (how == '/' && y == 0)
            return fail_at(ps, op, "division by zero");
        *out = how == '*' ? *out * y : *out / y;
    }
    return rc;
}

/* A '+' or '-' with a space before and none after starts a new value ("0.14 -0.17")
 * unless inside parentheses. */
static int starts_new_value(const parser *ps, const qz_tok *t)
{
    return ps->depth == 0 && t->space_before && !t[1].space_before && t[1].kind != T_END;
}

int qz_value_starts(const qz_lexer *lx, size_t i);

/* A '-' with spaces on both sides and no value after it ("0.17 - the umbrella gets the
 * most") is a dash, not a minus. */
static int dash_after_value(const parser *ps, const qz_tok *t)
{
    return t->op == '-' && t->space_before && t[1].space_before && t[1].kind != T_END &&
           !qz_value_starts(ps->lx, ps->i + 1);
}

static int parse_sum(parser *ps, double *out)
{
    int rc = parse_product(ps, out);
    while (!rc && peek(ps)->kind == T_OP && (peek(ps)->op == '+' || peek(ps)->op == '-') &&
           !starts_new_value(ps, peek(ps)) && !dash_after_value(ps, peek(ps))) {
        const qz_tok *op = peek(ps);
        ps->i++;
        ps->literal = 0;
        double y;
        if ((rc = parse_product(ps, &y)))
            break;
        *out = op->op == '+' ? *out + y : *out - y;
    }
    return rc;
}

/* A '(' that opens arithmetic: up to its ')' only numbers, operators, parentheses,
 * √, % and functions (or the end: the parser then says a ')' is missing). "(下雨)",
 * "(0.14, 0.17)" and "(0.14 0.17)" (a number right after a number or a percent) are
 * asides and lists, not arithmetic. */
static int arithmetic_paren(const qz_lexer *lx, size_t i)
{
    int depth = 0;
    for (size_t k = i; k < lx->n; k++) {
        const qz_tok *t = &lx->toks[k];
        if (t->kind == T_NUM && k > i &&
            (lx->toks[k - 1].kind == T_NUM || lx->toks[k - 1].kind == T_PCT))
            return 0;
        if (t->kind == T_LPAR)
            depth++;
        else if (t->kind == T_RPAR && --depth == 0)
            return 1;
        else if (t->kind == T_WORD && !is_function_word(t) && !is_word(t, "e"))
            return 0;
        else if (t->kind != T_NUM && t->kind != T_OP && t->kind != T_PCT && t->kind != T_ROOT &&
                 t->kind != T_WORD && t->kind != T_RPAR)
            return 0;
    }
    return 1;
}

int qz_value_starts(const qz_lexer *lx, size_t i)
{
    const qz_tok *t = &lx->toks[i];
    switch (t->kind) {
    case T_NUM: return 1;
    case T_LPAR: return arithmetic_paren(lx, i);
    case T_ROOT: return qz_value_starts(lx, i + 1);
    case T_OP: return (t->op == '-' || t->op == '+') && qz_value_starts(lx, i + 1);
    case T_WORD:
        if (is_function_word(t))
            return t[1].kind == T_LPAR && arithmetic_paren(lx, i + 1);
        /* Euler's e where arithmetic is around it: "e^0.3", "e*2", "e/9.75" */
        return is_word(t, "e") && t[1].kind == T_OP && t[1].op != '+' && t[1].op != '-';
    default: return 0;
    }
}

int qz_parse_value(const qz_lexer *lx, size_t *i, qz_value *v, int *soft)
{
    parser ps = {.lx = lx, .i = *i, .literal = 1, .decimals = -1};
    const qz_tok *start = &lx->toks[*i];
    int rc = parse_sum(&ps, &v->x);
    *soft = rc && ps.soft;
    if (rc) {
        if (*soft)
            *i = ps.i;
        return rc;
    }
    if (!isfinite(v->x))
        return fail_at(&ps, start, "the value is too large to be a weight");
    if (v->x == 0)
        v->x = 0.0;   /* -0 is 0 */
    v->percent = ps.percent;
    v->computed = !ps.literal;
    v->divided = ps.divides;
    v->decimals = ps.literal ? (ps.decimals > QZ_MAX_DECIMALS ? QZ_MAX_DECIMALS : ps.decimals) : -1;
    v->offset = lx->orig[start->s - lx->text];
    *i = ps.i;
    return AT_OK;
}

/* ---- the whole answer ---- */

static int run(const char *text, const long *orig, const qz_read_opts *o, int comma_decimal,
               int slash_sep, qz_lang lang, qz_numbers *out, at_error *err)
{
    size_t n = strlen(text);
    qz_tok *toks = malloc((n + 2) * sizeof *toks);
    if (!toks)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    qz_lexer lx = {.text = text, .orig = orig, .toks = toks, .comma_decimal = comma_decimal,
                   .whole = o->whole, .space_groups = o->whole && o->want == 1,
                   .slash_sep = slash_sep, .lang = lang, .err = err};
    memset(out, 0, sizeof *out);
    out->comma_decimal = comma_decimal;
    int rc = qz_lex(&lx);
    if (!rc)
        rc = qz_read_tokens(&lx, o, out);
    free(toks);
    return rc;
}

/* Commas: between digits ("0,14") they may be decimal commas; anywhere else
 * (after a space, before a space, at the end) they separate values. */
static void count_commas(const char *s, int *between_digits, int *separating, int *dot,
                         int *run_of_commas)
{
    *between_digits = *separating = *dot = *run_of_commas = 0;
    int in_run = 0;   /* commas in the current run of characters without spaces */
    for (const char *p = s; *p; p++) {
        in_run = *p == ' ' || *p == '\t' || *p == '\n' ? 0 : in_run + (*p == ',');
        if (in_run >= 2)
            *run_of_commas = 1;
        int before = p > s && isdigit((unsigned char)p[-1]);
        int after = isdigit((unsigned char)p[1]);
        if (*p == ',')
            (before && after ? (*between_digits)++ : (*separating)++);
        if (*p == '.' && after)
            (*dot)++;
    }
}

static int read_plain(const char *text, const long *orig, const qz_read_opts *o, int slash,
                      qz_lang lang, qz_numbers *out, at_error *err)
{
    size_t want = o->want;
    int between, separating, dot, runs;
    count_commas(text, &between, &separating, &dot, &runs);
    if (between == 0 || dot > 0)
        return run(text, orig, o, 0, slash, lang, out, err);
    /* "1,2,3" or "1,048,576": a number holds one decimal comma at most, so these
     * separate values or group digits; "21,000" when whole numbers are asked. */
    if ((runs && !separating) || o->whole) {
        int rc = run(text, orig, o, 0, slash, lang, out, err);
        if (rc || want == 0 || out->n == want)
            return rc;
    }
    if ((separating > 0 || runs) && want == 1)
        return at_error_set(err, AT_EINVAL,
                            qz_tr(lang,
                                  "the commas are ambiguous: one number is asked, and a comma stands "
                                  "inside it and after it. Write the decimal with a dot"));
    if (separating > 0 || runs)
        return at_error_set(err, AT_EINVAL,
                            qz_tr(lang,
                                  "the commas are ambiguous: a comma stands both inside a number and "
                                  "between numbers. Write decimals with a dot (0.5, 0.25) or separate "
                                  "comma decimals with spaces (0,5 0,25)"));
    /* Only "digit,digit" commas: read them as decimals unless that gives the wrong
     * count and reading them as separators gives the right one ("1,2" for two). */
    int rc = run(text, orig, o, 1, slash, lang, out, err);
    if (rc == AT_OK && (want == 0 || out->n == want))
        return rc;
    qz_numbers *alt = malloc(sizeof *alt);
    if (!alt)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    at_error e2;
    int ok = run(text, orig, o, 0, slash, lang, alt, &e2) == AT_OK && want && alt->n == want;
    if (ok) {
        *out = *alt;
        at_error_clear(err);
    }
    free(alt);
    if (ok || rc == AT_OK)
        return AT_OK;
    return run(text, orig, o, 1, slash, lang, out, err);
}

static int read_numbers(const char *text, const qz_read_opts *opts, qz_lang lang,
                        qz_numbers *out, at_error *err);

/* A second reading replaces a first that failed: *out = *alt, no error. AT_OK. */
static int take_reading(qz_numbers *out, const qz_numbers *alt, at_error *err)
{
    *out = *alt;
    at_error_clear(err);
    if (err)
        err->offset = -1;
    return AT_OK;
}

/* Where the answer's conclusion starts: after the last "so", "therefore", "thus",
 * "hence", "i.e.", "gives", "which is", "answer:", 所以, 因此, 于是, 得到, 结果是, 答案,
 * "→", "->", "=>" (byte offset), or 0 when none. */
static size_t conclusion_start(const char *text)
{
    static const char *const words[] = {"so ", "so,", "therefore", "thus", "hence", "i.e.",
                                        "gives", "giving", "which is", "answer:", "result:",
                                        "results:", "result is", "results are", "final answer",
                                        "所以", "因此", "于是", "得到", "结果是", "结果：", "结果:",
                                        "答案", "→", "->", "=>"};
    size_t at = 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t n = strlen(words[w]);
        for (const char *p = text; (p = strcasestr(p, words[w])); p += n) {
            int ascii = isalpha((unsigned char)words[w][0]);
            if (ascii && p > text && isalpha((unsigned char)p[-1]))
                continue;   /* "also ", "iso" */
            if ((size_t)(p - text) + n > at)
                at = (size_t)(p - text) + n;
        }
    }
    return at;
}

/* Each part between ",", ";", "，", "；", " and ", 和 or 及, reduced to what follows its
 * last "=", "≈", \\approx, \\simeq or 约: the results of a worked chain, without the working. NULL when no part
 * has either, or out of memory. Caller frees. */
static char *chain_results(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    int any = 0;
    for (const char *p = text; *p;) {
        const char *e = p;
        static const char *const seps[] = {",", ";", "，", "；", " and ", "和", "及"};
        size_t sl = 0;
        while (*e && !sl) {
            for (size_t k = 0; k < sizeof seps / sizeof seps[0] && !sl; k++)
                if (!strncmp(e, seps[k], strlen(seps[k])))
                    sl = strlen(seps[k]);
            if (!sl)
                e++;
        }
        const char *from = p;
        static const char *const marks[] = {"=", "≈", "\\approx", "\\simeq", "约"};
        for (const char *q = p; q < e; q++)
            for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
                if (!strncmp(q, marks[k], strlen(marks[k])) && q + strlen(marks[k]) <= e) {
                    from = q + strlen(marks[k]);
                    any = 1;
                }
        memcpy(out + o, from, (size_t)(e - from));
        o += (size_t)(e - from);
        if (sl) {
            memcpy(out + o, e, sl);
            o += sl;
        }
        p = e + sl;
    }
    out[o] = '\0';
    if (!any) {
        free(out);
        return NULL;
    }
    return out;
}

/* "e^0.3 / 9.75 ≈ 0.14": a slash whose divisor a result follows (≈ = →) divides, in any
 * reading; it lists nothing. */
static int slash_in_chain(const char *s)
{
    for (const char *p = s; (p = strstr(p, " /")); p += 2) {
        const char *q = p + 2;
        while (*q == ' ')
            q++;
        if (!isdigit((unsigned char)*q) && *q != '.')
            continue;
        while (isdigit((unsigned char)*q) || *q == '.')
            q++;
        while (*q == ' ')
            q++;
        if (*q == '=' || !strncmp(q, "≈", strlen("≈")) || !strncmp(q, "→", strlen("→")) ||
            !strncmp(q, "->", 2))
            return 1;
    }
    return 0;
}

/* The last "=" or "≈" of text, or NULL; *signs counts every "=", "≈", "→" and "->" in it
 * (the steps of a worked chain). */
static const char *last_equals(const char *text, size_t *signs)
{
    const char *last = NULL;
    *signs = 0;
    for (const char *p = text; *p; p++) {
        int eq = *p == '=' || !strncmp(p, "≈", strlen("≈"));
        last = eq ? p : last;
        *signs += eq || !strncmp(p, "→", strlen("→")) || !strncmp(p, "->", 2);
    }
    return last;
}

static int as_asked(const qz_numbers *nums, size_t want);

/* The last colon of text, ":" or the full-width "：", or NULL. */
static const char *last_colon(const char *text)
{
    const char *last = NULL;
    for (const char *p = text; *p; p++)
        if (*p == ':' || !strncmp(p, "：", strlen("：")))
            last = p;
    return last;
}

/* Does every value of the reading have its label ("下雨: 0.14, 没: 0.17, and 伞 gets
 * 0.34")? Then a reading of what follows the last colon alone, which cuts a label from its
 * value, says less. */
static int all_labelled(const qz_numbers *nums)
{
    for (size_t i = 0; i < nums->n; i++)
        if (nums->v[i].token < 0 && !nums->v[i].other)
            return 0;
    return nums->n > 0;
}

/* The length of the colon at p. */
static size_t colon_len(const char *p)
{
    return *p == ':' ? 1 : strlen("：");
}

/* Read what follows the sign at `sign` alone, into alt; taken into out (offsets in the
 * whole answer) when it gives as many answer values as asked and offers no alternatives
 * (`exact`: and no other value). Returns the reading's status: rc unchanged when not
 * taken. */
static int read_after(const char *text, const char *sign, const qz_read_opts *opts,
                      qz_lang lang, int exact, qz_numbers *alt, qz_numbers *out, at_error *err,
                      int rc)
{
    size_t from = (size_t)(sign - text) + (*sign == '=' ? 1
                                           : !strncmp(sign, "≈", strlen("≈")) ? strlen("≈")
                                                                              : colon_len(sign));
    at_error e2;
    if (read_numbers(text + from, opts, lang, alt, &e2) != AT_OK ||
        qz_answer_count(alt) != opts->want || alt->alternatives || (exact && alt->n != opts->want))
        return rc;
    for (size_t i = 0; i < alt->n; i++)
        alt->v[i].offset += (long)from;
    return take_reading(out, alt, err);
}

/* Working with values before the last colon, and after it as many values as asked and
 * nothing else: "sum 9.75: 0.14 0.17", "using 9.75 as the sum: 0.14 0.17", 分母取 10：0.13
 * 0.17. The values after it are the answer: 1 when so read into out. */
static int after_working_colon(const char *text, const qz_read_opts *opts, qz_lang lang,
                               qz_numbers *out, at_error *err)
{
    const char *colon = last_colon(text);
    int digits = 0;   /* a number, not a name with digits ("q3:", "k1:") */
    for (const char *p = text; colon && p < colon && !digits; p++)
        digits = isdigit((unsigned char)*p) &&
                 (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
    if (!digits)
        return 0;
    size_t from = (size_t)(colon - text) + colon_len(colon);
    /* nothing after it but values, separators and "about"/"and" words */
    static const char *const fill[] = {"and", "about", "approx", "和", "与", "及", "约", "大约",
                                       "、", "，", "。", "；", "～", "≈", "~", NULL};
    for (const char *p = text + from; *p;) {
        size_t l = 0;
        for (size_t w = 0; fill[w] && !l; w++)
            if (!strncmp(p, fill[w], strlen(fill[w])))
                l = strlen(fill[w]);
        if (!l && (isdigit((unsigned char)*p) || strchr(" .,;", *p)))
            l = 1;
        if (!l)
            return 0;
        p += l;
    }
    qz_numbers *alt = malloc(sizeof *alt);
    if (!alt)
        return 0;
    at_error e2;
    int ok = read_numbers(text + from, opts, lang, alt, &e2) == AT_OK &&
             qz_answer_count(alt) == opts->want && alt->n == opts->want && !alt->alternatives;
    if (ok) {
        for (size_t i = 0; i < alt->n; i++)
            alt->v[i].offset += (long)from;
        take_reading(out, alt, err);
    }
    free(alt);
    return ok;
}

int qz_read_numbers(const char *text, const qz_read_opts *opts, qz_lang lang,
                    qz_numbers *out, at_error *err)
{
    int rc = read_numbers(text, opts, lang, out, err);
    /* (values taken back or offered as choices keep their own reading) */
    if ((rc == AT_EINVAL || (rc == AT_OK && !out->retracted && !out->turned && !out->disowned &&
                             !out->alternatives)) &&
        opts && opts->want && text && after_working_colon(text, opts, lang, out, err))
        return AT_OK;
    /* more values than asked, as many after the one "≈" or "=" (a worked chain, with
     * several signs, is read as it is): "1/6 each ≈ 0.17 0.17" */
    if (rc == AT_OK && opts && opts->want && text && qz_answer_count(out) > opts->want) {
        size_t signs;
        const char *last = last_equals(text, &signs);
        qz_numbers *alt = malloc(sizeof *alt);
        if (alt && last && signs == 1 && !out->concluded)
            rc = read_after(text, last, opts, lang, 1, alt, out, err, rc);
        /* or after the last colon, as many values as asked and nothing else: "softmax
         * gives it ~1 and the rest ~0: 0.00 0.00" */
        const char *colon = alt && qz_answer_count(out) > opts->want && as_asked(out, opts->want) != 2 &&
                                    !all_labelled(out)
                                ? last_colon(text)
                                : NULL;
        if (colon)
            rc = read_after(text, colon, opts, lang, 1, alt, out, err, rc);
        free(alt);
        return rc;
    }
    if (rc != AT_EINVAL || !opts || !opts->want || !text)
        return rc;
    /* Working the reader cannot parse (np.exp([…]).sum(), \sum_i e^{s_i}) before the
     * values the answer ends on: read its conclusion alone ("…, so rains 0.14, didn't
     * 0.17"), or each worked chain's result ("\frac{1.35}{9.75}\approx 0.14 and …
     * \approx 0.17"); taken only when that gives as many values as asked. */
    qz_numbers *alt = malloc(sizeof *alt);
    if (!alt)
        return rc;
    size_t at = conclusion_start(text);
    char *results = at ? NULL : chain_results(text);
    const char *retry = at ? text + at : results;
    at_error e2;
    if (retry && read_numbers(retry, opts, lang, alt, &e2) == AT_OK &&
        qz_answer_count(alt) == opts->want && !alt->alternatives) {
        for (size_t i = 0; i < alt->n && at; i++)
            alt->v[i].offset += (long)at;   /* offsets in the whole answer */
        rc = take_reading(out, alt, err);
    }
    /* prose working with one result at its end: "exp each / sum(exp) = 1.35/9.75,
     * 1.65/9.75 = 0.14 0.17" (what follows the last "=" or "≈", as many values as asked) */
    size_t signs;
    const char *last = rc == AT_EINVAL ? last_equals(text, &signs) : NULL;
    if (last)
        rc = read_after(text, last, opts, lang, 0, alt, out, err, rc);
    free(results);
    free(alt);
    return rc;
}

/* How well a reading gives as many answer values as asked: 2 after its concluding word,
 * 1 in all, 0 not. */
static int as_asked(const qz_numbers *nums, size_t want)
{
    size_t after = 0;
    for (size_t i = nums->concluded ? nums->conclusion_at : nums->n; i < nums->n; i++)
        after += !nums->v[i].other && !nums->v[i].aside;
    return nums->concluded && after == want ? 2 : qz_answer_count(nums) == want;
}

static int read_numbers(const char *text, const qz_read_opts *opts, qz_lang lang,
                        qz_numbers *out, at_error *err)
{
    static const qz_read_opts none = {0};
    at_error_clear(err);
    if (err)
        err->offset = -1;
    memset(out, 0, sizeof *out);
    char *plain;
    long *orig;
    if (qz_normalise(text ? text : "", &plain, &orig))
        return at_error_set(err, AT_ENOMEM, "out of memory");
    const qz_read_opts *o = opts ? opts : &none;
    int rc = read_plain(plain, orig, o, 0, lang, out, err);
    /* "0.14 / 0.17", "~0.14 / ~0.17", "… = 9.76 → 0.14 / 0.17": a slash between spaces
     * may list values. Read so when that, and not a division, gives as many values as
     * asked (in all, or after the concluding word). */
    int fit = rc ? 0 : as_asked(out, o->want);
    if (o->want && fit < 2 && (strstr(plain, " /") || strstr(plain, "/0.") || strstr(plain, "/.")) &&
        !slash_in_chain(plain)) {
        qz_numbers *alt = malloc(sizeof *alt);
        at_error e2;
        if (alt && read_plain(plain, orig, o, 1, lang, alt, &e2) == AT_OK && as_asked(alt, o->want) > fit)
            rc = take_reading(out, alt, err);
        free(alt);
    }
    free(plain);
    free(orig);
    return rc;
}

size_t qz_answer_count(const qz_numbers *nums)
{
    size_t k = 0;
    for (size_t i = 0; i < nums->n; i++)
        k += !nums->v[i].other && !nums->v[i].aside;
    return k;
}

int qz_parse_numbers(const char *text, size_t want, qz_lang lang, qz_numbers *out,
                     at_error *err)
{
    qz_read_opts o = {.want = want};
    return qz_read_numbers(text, &o, lang, out, err);
}

int qz_eval(const char *text, qz_lang lang, double *out, at_error *err)
{
    qz_numbers *nums = malloc(sizeof *nums);
    if (!nums)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc = qz_parse_numbers(text, 1, lang, nums, err);
    if (!rc && (nums->n != 1 || nums->labelled))
        rc = at_error_set(err, AT_EINVAL, qz_tr(lang, "one number is wanted, %zu were given"), nums->n);
    if (!rc)
        *out = nums->v[0].x;
    free(nums);
    return rc;
}
