/* Numeric answers: a lexer over UTF-8 text and a small recursive-descent parser for
 * the arithmetic of a hand calculation. See quiz/answer.h. */
#include "quiz/answer.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum tok_kind { T_END, T_NUM, T_OP, T_LPAR, T_RPAR, T_PCT, T_SEP, T_LABELSEP, T_WORD, T_ROOT };

typedef struct tok {
    enum tok_kind kind;
    char op;              /* + - * / ^ for T_OP */
    double num;           /* T_NUM */
    int decimals;         /* T_NUM: digits after the decimal point */
    const char *s;        /* span in the answer */
    size_t len;
    int space_before;     /* whitespace (or the start) before this token */
} tok;

/* Multibyte symbols students type, and what they mean. */
static const struct {
    const char *utf8;
    enum tok_kind kind;
    char op;
} symbols[] = {
    {"，", T_SEP, ','}, {"；", T_SEP, ';'}, {"、", T_SEP, ','}, {"：", T_LABELSEP, ':'},
    {"＝", T_LABELSEP, '='}, {"％", T_PCT, '%'}, {"（", T_LPAR, '('}, {"）", T_RPAR, ')'},
    {"×", T_OP, '*'}, {"·", T_OP, '*'}, {"⋅", T_OP, '*'}, {"÷", T_OP, '/'}, {"−", T_OP, '-'},
    {"√", T_ROOT, 0}, {"和", T_SEP, ','}, {"与", T_SEP, ','},
};

typedef struct lexer {
    const char *text;
    tok *toks;
    size_t n;
    int comma_decimal;
    qz_lang lang;
    at_error *err;
} lexer;

static int is_space_at(const char *p, size_t *len)
{
    if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') {
        *len = 1;
        return 1;
    }
    if (!strncmp(p, "\u3000", 3) || !strncmp(p, "\u00a0", 2)) {   /* ideographic, no-break */
        *len = p[0] == '\xe3' ? 3 : 2;
        return 1;
    }
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

/* A number: digits [. digits] [e[+-]digits], or .digits; with comma_decimal a comma
 * between digits is the decimal point. */
static size_t lex_number(const lexer *lx, const char *p, tok *t)
{
    const char *q = p;
    char buf[128];
    size_t b = 0;
    int decimals = 0;
    while (isdigit((unsigned char)*q) && b < sizeof buf - 8)
        buf[b++] = *q++;
    int sep = *q == '.' || (lx->comma_decimal && *q == ',' && q > p && isdigit((unsigned char)q[1]));
    if (sep && (isdigit((unsigned char)q[1]) || (q > p && *q == '.'))) {
        buf[b++] = '.';
        q++;
        while (isdigit((unsigned char)*q) && b < sizeof buf - 8) {
            buf[b++] = *q++;
            decimals++;
        }
    }
    if ((*q == 'e' || *q == 'E') &&
        (isdigit((unsigned char)q[1]) || ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
        buf[b++] = 'e';
        q++;
        if (*q == '-' || *q == '+')
            buf[b++] = *q++;
        int exp_digits = 0;
        while (isdigit((unsigned char)*q)) {
            if (b < sizeof buf - 2)
                buf[b++] = *q;
            exp_digits++;
            q++;
        }
        /* 1.384e-1 has 4 decimals: the digits after the point minus the exponent. */
        long e = strtol(strchr(buf, 'e') + 1, NULL, 10);
        decimals = (int)(decimals - e < 0 ? 0 : decimals - e);
        (void)exp_digits;
    }
    buf[b] = '\0';
    t->kind = T_NUM;
    t->num = strtod(buf, NULL);
    t->decimals = decimals;
    return (size_t)(q - p);
}

/* "2e+1" inside arithmetic ("1/(2e+1)"): 2·e+1 or 2×10¹? An integer, a lower-case e
 * and a signed exponent, next to an operator or a parenthesis, is refused with a hint
 * rather than read either way; "1.384e-1", "1e-3" alone and "2E+1" stay scientific. */
static int ambiguous_e(const lexer *lx, const char *p)
{
    const char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q != 'e' || (q[1] != '+' && q[1] != '-') || !isdigit((unsigned char)q[2]))
        return 0;
    const char *end = q + 2;
    while (isdigit((unsigned char)*end))
        end++;
    const tok *prev = lx->n ? &lx->toks[lx->n - 1] : NULL;
    while (*end == ' ')
        end++;
    size_t l, w;
    int op_after = strchr("*/^)", *end) && *end ? 1 : symbol_at(end, &l, &w) &&
                   (symbols[w].kind == T_OP || symbols[w].kind == T_RPAR);
    return op_after || (prev && (prev->kind == T_OP || prev->kind == T_LPAR));
}

static int refuse_e(const lexer *lx, const char *p)
{
    const char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    const char *end = q + 2;
    while (isdigit((unsigned char)*end))
        end++;
    int n = (int)(end - p), m = (int)(q - p);
    int rc = at_error_set(lx->err, AT_EINVAL,
                          QZ_TR(lx->lang,
                                "'%.*s' (character %ld) is ambiguous: write %.*s*e%.*s for %.*s·e%.*s, or "
                                "%.*sE%.*s for %g",
                                "'%.*s'（第 %ld 个字符）有歧义：请写 %.*s*e%.*s 表示 %.*s·e%.*s，或写 "
                                "%.*sE%.*s 表示 %g"),
                          n, p, (long)(p - lx->text) + 1,
                          m, p, (int)(end - q - 1), q + 1, m, p, (int)(end - q - 1), q + 1,
                          m, p, (int)(end - q - 1), q + 1, strtod(p, NULL));
    if (lx->err)
        lx->err->offset = p - lx->text;
    return rc;
}

static int is_word_byte(unsigned char c)
{
    return isalpha(c) || c == '_' || c == '\'' || c >= 0x80;
}

static int lex(lexer *lx)
{
    const char *p = lx->text;
    int space = 1;
    while (*p) {
        size_t len, which;
        if (is_space_at(p, &len)) {
            p += len;
            space = 1;
            continue;
        }
        tok *t = &lx->toks[lx->n];
        memset(t, 0, sizeof *t);
        t->s = p;
        t->space_before = space;
        space = 0;
        if (isdigit((unsigned char)*p) && ambiguous_e(lx, p)) {
            return refuse_e(lx, p);
        } else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            len = lex_number(lx, p, t);
        } else if (symbol_at(p, &len, &which)) {
            t->kind = symbols[which].kind;
            t->op = symbols[which].op;
        } else if (strchr("+-*/^", *p)) {
            t->kind = T_OP;
            t->op = *p;
            len = 1;
            if (p[0] == '*' && p[1] == '*') {   /* Python's power */
                t->op = '^';
                len = 2;
            }
        } else if (*p == '(' || *p == ')' || *p == '%' || *p == ',' || *p == ';' ||
                   *p == '=' || *p == ':') {
            t->kind = *p == '(' ? T_LPAR : *p == ')' ? T_RPAR : *p == '%' ? T_PCT
                    : (*p == '=' || *p == ':') ? T_LABELSEP : T_SEP;
            t->op = *p;
            len = 1;
        } else if (is_word_byte((unsigned char)*p)) {
            /* A run of letters: stop at spaces, digits, symbols and punctuation. */
            const char *q = p;
            while (*q && is_word_byte((unsigned char)*q)) {
                size_t l2, w2;
                if (is_space_at(q, &l2) || symbol_at(q, &l2, &w2))
                    break;
                size_t l = utf8_len((unsigned char)*q);
                for (size_t i = 1; i < l; i++)
                    if (!q[i]) {
                        int rc = at_error_set(lx->err, AT_EINVAL,
                                              QZ_TR(lx->lang, "the answer ends in the middle of a character",
                                                    "答案在一个字符的中间结束了"));
                        if (lx->err)
                            lx->err->offset = q - lx->text;   /* where the cut character starts */
                        return rc;
                    }
                q += l;
            }
            t->kind = T_WORD;
            len = (size_t)(q - p);
            if (len == 3 && !strncasecmp(p, "and", 3)) {   /* "0.14 and 0.17" */
                t->kind = T_SEP;
                t->op = ',';
            }
        } else {
            int rc = at_error_set(lx->err, AT_EINVAL,
                                  QZ_TR(lx->lang, "'%c' (character %ld) is not part of a number",
                                        "'%c'（第 %ld 个字符）不是数字的一部分"),
                                  *p, (long)(p - lx->text) + 1);
            if (lx->err)
                lx->err->offset = p - lx->text;
            return rc;
        }
        t->len = len;
        p += len;
        lx->n++;
    }
    lx->toks[lx->n] = (tok){.kind = T_END, .s = p, .space_before = 1};
    return AT_OK;
}

/* ---- parser ---- */

typedef struct parser {
    const lexer *lx;
    size_t i;
    int depth;            /* parentheses open */
    int literal;          /* the current value is one literal so far */
    int percent;
    int decimals;
} parser;

static const tok *peek(const parser *ps) { return &ps->lx->toks[ps->i]; }

static int fail_at(const parser *ps, const tok *t, const char *en, const char *zh)
{
    at_error *err = ps->lx->err;
    int len = (int)(t->kind == T_END ? 0 : t->len);
    int rc = at_error_set(err, AT_EINVAL, "%s", ps->lx->lang == QZ_ZH ? zh : en);
    if (err) {
        err->offset = t->s - ps->lx->text;
        size_t m = strlen(err->msg);
        if (len > 0 && m + (size_t)len + 32 < sizeof err->msg)
            snprintf(err->msg + m, sizeof err->msg - m,
                     QZ_TR(ps->lx->lang, " (at '%.*s')", "（在 '%.*s' 处）"), len, t->s);
    }
    return rc;
}

static int parse_sum(parser *ps, double *out);

static int is_word(const tok *t, const char *w)
{
    return t->kind == T_WORD && t->len == strlen(w) && !strncasecmp(t->s, w, t->len);
}

static int is_function_word(const tok *t)
{
    return is_word(t, "exp") || is_word(t, "sqrt") || is_word(t, "e") || is_word(t, "ln");
}

static int parse_unary(parser *ps, double *out);

static int parse_primary(parser *ps, double *out)
{
    const tok *t = peek(ps);
    lexer const *lx = ps->lx;
    if (t->kind == T_NUM) {
        ps->i++;
        ps->decimals = t->decimals;
        *out = t->num;
        return AT_OK;
    }
    ps->literal = 0;
    if (t->kind == T_LPAR) {
        ps->i++;
        ps->depth++;
        int rc = parse_sum(ps, out);
        if (rc)
            return rc;
        if (peek(ps)->kind != T_RPAR)
            return fail_at(ps, peek(ps), "a ')' is missing", "缺少一个 ')'");
        ps->i++;
        ps->depth--;
        return AT_OK;
    }
    if (t->kind == T_ROOT) {
        ps->i++;
        int rc = parse_unary(ps, out);
        if (rc)
            return rc;
        if (*out < 0)
            return fail_at(ps, t, "square root of a negative number", "负数不能开平方");
        *out = sqrt(*out);
        return AT_OK;
    }
    if (is_word(t, "e") && (peek(ps)[1].kind != T_LPAR)) {
        ps->i++;
        *out = M_E;
        return AT_OK;
    }
    if (is_function_word(t) && !is_word(t, "e")) {
        ps->i++;
        if (peek(ps)->kind != T_LPAR)
            return fail_at(ps, t, "a function needs its argument in parentheses: exp(0.3)",
                           "函数的参数要写在括号里：exp(0.3)");
        double x;
        int rc = parse_primary(ps, &x);
        if (rc)
            return rc;
        if (is_word(t, "exp"))
            *out = exp(x);
        else if (x < 0 || (is_word(t, "ln") && x == 0))
            return fail_at(ps, t, "the argument is out of range", "参数超出了定义域");
        else
            *out = is_word(t, "ln") ? log(x) : sqrt(x);
        return AT_OK;
    }
    (void)lx;
    if (t->kind == T_END)
        return fail_at(ps, t, "a number is missing at the end", "结尾缺少一个数");
    if (t->kind == T_WORD)
        return fail_at(ps, t, "a word where a number belongs", "这里应该是数字，不是文字");
    return fail_at(ps, t, "a number is missing here", "这里缺少一个数");
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
    const tok *t = peek(ps);
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
    const tok *t = peek(ps);
    return ps->i > 0 && ps->lx->toks[ps->i - 1].kind == T_NUM && !t->space_before && is_word(t, "e");
}

static int parse_product(parser *ps, double *out)
{
    int rc = parse_unary(ps, out);
    while (!rc && ((peek(ps)->kind == T_OP && (peek(ps)->op == '*' || peek(ps)->op == '/')) ||
                   euler_glued(ps))) {
        const tok *op = peek(ps);
        char how = op->kind == T_OP ? op->op : '*';
        if (op->kind == T_OP)
            ps->i++;
        ps->literal = 0;
        double y;
        if ((rc = parse_unary(ps, &y)))
            break;
        if (how == '/' && y == 0)
            return fail_at(ps, op, "division by zero", "除数为 0");
        *out = how == '*' ? *out * y : *out / y;
    }
    return rc;
}

/* A '+' or '-' with a space before and none after starts a new value ("0.14 -0.17")
 * unless inside parentheses. */
static int starts_new_value(const parser *ps, const tok *t)
{
    return ps->depth == 0 && t->space_before && !t[1].space_before && t[1].kind != T_END;
}

static int parse_sum(parser *ps, double *out)
{
    int rc = parse_product(ps, out);
    while (!rc && peek(ps)->kind == T_OP && (peek(ps)->op == '+' || peek(ps)->op == '-') &&
           !starts_new_value(ps, peek(ps))) {
        const tok *op = peek(ps);
        ps->i++;
        ps->literal = 0;
        double y;
        if ((rc = parse_product(ps, &y)))
            break;
        *out = op->op == '+' ? *out + y : *out - y;
    }
    return rc;
}

static int can_start_value(const tok *t)
{
    return t->kind == T_NUM || t->kind == T_LPAR || t->kind == T_ROOT ||
           (t->kind == T_OP && (t->op == '-' || t->op == '+')) || is_function_word(t);
}

/* [LABEL (=|:)] expression */
static int parse_item(parser *ps, qz_numbers *out)
{
    const lexer *lx = ps->lx;
    const tok *start = peek(ps);
    qz_value *v = &out->v[out->n];
    memset(v, 0, sizeof *v);
    v->offset = start->s - lx->text;
    if (start->kind == T_WORD && !is_function_word(start)) {
        /* A label: one or more words, then '=' or ':' (or directly the number). */
        size_t used = 0;
        while (peek(ps)->kind == T_WORD) {
            const tok *w = peek(ps);
            size_t need = w->len + (used ? 1 : 0);
            if (used + need >= QZ_LABEL_MAX)
                return fail_at(ps, w, "this label is too long", "这个标签太长了");
            if (used)
                v->label[used++] = ' ';
            memcpy(v->label + used, w->s, w->len);
            used += w->len;
            ps->i++;
        }
        v->label[used] = '\0';
        if (peek(ps)->kind == T_LABELSEP)
            ps->i++;
        if (!can_start_value(peek(ps)))
            return fail_at(ps, start, "a word where a number belongs (to name a token, write token=0.14)",
                           "这里应该是数字（要标出词元，请写成 下雨=0.14）");
        out->labelled++;
    }
    ps->literal = 1;
    ps->percent = 0;
    ps->decimals = -1;
    int rc = parse_sum(ps, &v->x);
    if (rc)
        return rc;
    if (!isfinite(v->x))
        return fail_at(ps, start, "the value is too large to be a weight", "这个数值太大了");
    if (v->x == 0)
        v->x = 0.0;   /* -0 is 0 */
    v->percent = ps->percent;
    v->computed = !ps->literal;
    v->decimals = ps->literal ? ps->decimals : -1;
    out->n++;
    return AT_OK;
}

static int parse_all(parser *ps, qz_numbers *out)
{
    while (peek(ps)->kind != T_END) {
        const tok *t = peek(ps);
        if (t->kind == T_SEP) {
            ps->i++;
            continue;
        }
        if (out->n == QZ_MAX_VALUES)
            return fail_at(ps, t, "too many numbers", "数字太多了");
        if (t->kind == T_RPAR)
            return fail_at(ps, t, "a ')' without its '('", "多了一个 ')'");
        if (t->kind == T_LABELSEP)
            return fail_at(ps, t, "'=' or ':' needs a token before it (下雨=0.14)",
                           "'=' 或 ':' 前面要写词元（下雨=0.14）");
        int rc = parse_item(ps, out);
        if (rc)
            return rc;
        const tok *next = peek(ps);
        if (next->kind == T_END || next->kind == T_SEP)
            continue;
        if (!next->space_before && (next->kind == T_WORD || next->kind == T_NUM))
            return fail_at(ps, next, "letters or digits glued to a number: write one number, then a space",
                           "数字后面紧跟着字母或数字：每个数写完后请加空格");
        if (!next->space_before && next->kind != T_OP && next->kind != T_LPAR)
            return fail_at(ps, next, "this does not belong after a number", "数字后面不该出现这个");
        if (next->kind == T_RPAR)
            return fail_at(ps, next, "a ')' without its '('", "多了一个 ')'");
    }
    if (out->n == 0)
        return at_error_set(ps->lx->err, AT_EINVAL,
                            QZ_TR(ps->lx->lang, "the answer holds no number", "答案里没有数字"));
    return AT_OK;
}

static int run(const char *text, int comma_decimal, qz_lang lang, qz_numbers *out, at_error *err)
{
    size_t n = strlen(text);
    tok *toks = malloc((n + 2) * sizeof *toks);
    if (!toks)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    lexer lx = {.text = text, .toks = toks, .comma_decimal = comma_decimal, .lang = lang, .err = err};
    memset(out, 0, sizeof *out);
    out->comma_decimal = comma_decimal;
    int rc = lex(&lx);
    if (!rc) {
        parser ps = {.lx = &lx};
        rc = parse_all(&ps, out);
    }
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

static int parse_numbers(const char *text, size_t want, qz_lang lang, qz_numbers *out,
                         at_error *err);

/* Full-width digits and dot (０.１４) as ASCII; malloc'd. */
static char *ascii_digits(const char *text)
{
    char *s = malloc(strlen(text) + 1);
    size_t o = 0;
    for (const char *p = text; s && *p;) {
        const unsigned char *u = (const unsigned char *)p;
        if (u[0] == 0xef && u[1] == 0xbc && u[2] >= 0x90 && u[2] <= 0x99) {
            s[o++] = (char)('0' + (u[2] - 0x90));
            p += 3;
        } else if (u[0] == 0xef && u[1] == 0xbc && u[2] == 0x8e) {
            s[o++] = '.';
            p += 3;
        } else {
            s[o++] = *p++;
        }
    }
    if (s)
        s[o] = '\0';
    return s;
}

int qz_parse_numbers(const char *text, size_t want, qz_lang lang, qz_numbers *out,
                     at_error *err)
{
    char *ascii = ascii_digits(text);
    if (!ascii)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc = parse_numbers(ascii, want, lang, out, err);
    free(ascii);
    return rc;
}

static int parse_numbers(const char *text, size_t want, qz_lang lang, qz_numbers *out,
                         at_error *err)
{
    at_error_clear(err);
    if (err)
        err->offset = -1;
    int between, separating, dot, runs;
    count_commas(text, &between, &separating, &dot, &runs);
    if (between == 0 || dot > 0)
        return run(text, 0, lang, out, err);
    /* "1,2,3": a number holds one decimal comma at most, so these separate values. */
    if (runs && !separating) {
        int rc = run(text, 0, lang, out, err);
        if (rc || want == 0 || out->n == want)
            return rc;
    }
    if ((separating > 0 || runs) && want == 1)
        return at_error_set(err, AT_EINVAL,
                            QZ_TR(lang,
                                  "the commas are ambiguous: one number is asked, and a comma stands "
                                  "inside it and after it. Write the decimal with a dot (0.14)",
                                  "逗号有歧义：题目只要一个数，逗号却既在数字中间又在数字之后。"
                                  "请用小数点写小数（0.14）"));
    if (separating > 0 || runs)
        return at_error_set(err, AT_EINVAL,
                            QZ_TR(lang,
                                  "the commas are ambiguous: a comma stands both inside a number and "
                                  "between numbers. Write decimals with a dot (0.14, 0.17) or separate "
                                  "comma decimals with spaces (0,14 0,17)",
                                  "逗号有歧义：逗号既出现在数字中间又用来分隔数字。请用小数点写小数"
                                  "（0.14, 0.17），或用空格分隔逗号小数（0,14 0,17）"));
    /* Only "digit,digit" commas: read them as decimals unless that gives the wrong
     * count and reading them as separators gives the right one ("1,2" for two). */
    int rc = run(text, 1, lang, out, err);
    if (rc == AT_OK && (want == 0 || out->n == want))
        return rc;
    qz_numbers alt;
    at_error e2;
    if (run(text, 0, lang, &alt, &e2) == AT_OK && want && alt.n == want) {
        *out = alt;
        at_error_clear(err);
        return AT_OK;
    }
    if (rc == AT_OK)
        return rc;
    return run(text, 1, lang, out, err);
}

int qz_eval(const char *text, qz_lang lang, double *out, at_error *err)
{
    qz_numbers nums;
    int rc = qz_parse_numbers(text, 1, lang, &nums, err);
    if (rc)
        return rc;
    if (nums.n != 1 || nums.labelled)
        return at_error_set(err, AT_EINVAL, QZ_TR(lang, "one number is wanted, %zu were given",
                                                  "只要一个数，却写了 %zu 个"), nums.n);
    *out = nums.v[0].x;
    return AT_OK;
}
