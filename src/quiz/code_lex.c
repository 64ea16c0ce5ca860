/* Reading a code answer, first step: the Unicode a Chinese input method types (full-width
 * forms, curly quotes, 。, ∞) as ASCII, then tokens that keep the bytes of the answer they
 * came from, with the indentation of their line. See quiz/code_read.h. */
#include "quiz/code_read.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- normalising */

typedef struct nbuf {
    char *s;
    long *at;           /* per byte of s: the byte of the answer it came from */
    size_t n, cap;
} nbuf;

/* Does a statement start after position i ("p = …", "return …"), spaces first? */
static int statement_after(const char *s, size_t i, size_t n)
{
    while (i < n && s[i] == ' ')
        i++;
    if (i + 7 <= n && !strncmp(s + i, "return ", 7))
        return 1;
    if (i >= n || !(isalpha((unsigned char)s[i]) || s[i] == '_'))
        return 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
        i++;
    while (i < n && s[i] == ' ')
        i++;
    return i < n && s[i] == '=' && (i + 1 >= n || s[i + 1] != '=');
}

size_t qz_comment_end(const char *s, size_t i, size_t n)
{
    int one_line = !memchr(s, '\n', n);
    /* on one line (code pasted where a line break became spaces), a comment also ends at
     * two spaces before a statement: "# q, k: [B, T, d_k]  scores = q @ k.T" */
    while (i < n && s[i] != '\n' && !(one_line && s[i] == ';' && statement_after(s, i + 1, n)) &&
           !(one_line && s[i] == ' ' && i + 1 < n && s[i + 1] == ' ' && statement_after(s, i, n)))
        i++;
    return i;
}

static void put(nbuf *b, const char *s, size_t len, long at)
{
    for (size_t i = 0; i < len && b->n + 1 < b->cap; i++) {
        b->s[b->n] = s[i];
        b->at[b->n++] = at;
    }
}

static uint32_t utf8_at(const unsigned char *s, size_t *len)
{
    int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
    uint32_t c = n == 4 ? s[0] & 7u : n == 3 ? s[0] & 15u : n == 2 ? s[0] & 31u : s[0];
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *len = 1;
            return 0xfffd;
        }
        c = c << 6 | (s[i] & 0x3fu);
    }
    *len = (size_t)n;
    return c;
}

/* What a character an input method types stands for in code, or NULL: itself. */
static const char *ascii_of(uint32_t c, char one[2])
{
    if (c >= 0xff01 && c <= 0xff5e) {   /* full width: （）＝，；：“ */
        one[0] = (char)(c - 0xfee0);
        one[1] = '\0';
        return one;
    }
    switch (c) {
    case 0x3000: case 0x00a0: case 0x2002: case 0x2003: case 0x2009: case 0x202f: return " ";
    case 0x200b: case 0xfeff: return "";
    case 0x2212: case 0x2013: return "-";
    case 0x201c: case 0x201d: case 0x201e: return "\"";
    case 0x2018: case 0x2019: return "'";
    case 0x3001: return ",";
    case 0x3002: return "\n";             /* 。 ends a statement */
    case 0x221e: return "inf";            /* ∞ */
    default: return NULL;
    }
}

static int normalise(ce_ev *ev, const char *code, nbuf *b)
{
    size_t len = strlen(code);
    b->cap = 3 * len + 8;
    b->s = ce_alloc(ev->arena, b->cap);
    b->at = ce_alloc(ev->arena, b->cap * sizeof *b->at);
    if (!b->s || !b->at)
        return ce_nomem(ev);
    const unsigned char *s = (const unsigned char *)code;
    for (size_t i = 0; i < len;) {
        if (s[i] < 0x80) {
            put(b, code + i, 1, (long)i);
            i++;
            continue;
        }
        size_t n;
        uint32_t c = utf8_at(s + i, &n);
        char one[2];
        const char *as = ascii_of(c, one);
        if (as)
            put(b, as, strlen(as), (long)i);
        else
            put(b, code + i, n, (long)i);
        i += n;
    }
    b->s[b->n] = '\0';
    b->at[b->n] = (long)len;
    return 0;
}

/* ---- tokens */

int read_fail(rd *r, const ctok *t, const char *msgid, ...)
{
    r->ev->at = t->at;
    if (r->ev->status != QZ_CODE_RAN)
        return -1;
    va_list ap;
    va_start(ap, msgid);
    r->ev->status = QZ_CODE_UNREADABLE;
    vsnprintf(r->ev->msg, sizeof r->ev->msg, qz_tr(r->ev->lang, msgid), ap);
    va_end(ap);
    return -1;
}

static int emit(rd *r, enum ctk kind, int op, long at, const char *s, size_t len, int indent)
{
    if (r->n + 1 >= r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        ctok *t = ce_alloc(r->ev->arena, (size_t)cap * sizeof *t);
        if (!t)
            return ce_nomem(r->ev);
        if (r->n)
            memcpy(t, r->t, (size_t)r->n * sizeof *t);
        r->t = t;
        r->cap = cap;
    }
    r->t[r->n++] = (ctok){.kind = kind, .op = op, .at = at, .s = s, .len = len, .indent = indent};
    return 0;
}

static const struct { const char *s; int op; } ops3[] = {
    {"...", OP_ELLIPSIS}, {"**", OP_POW}, {"//", OP_FLOORDIV}, {"==", OP_EQ}, {"!=", OP_NE},
    {"<=", OP_LE}, {">=", OP_GE}, {"+=", OP_IADD}, {"-=", OP_ISUB}, {"*=", OP_IMUL},
    {"/=", OP_IDIV}, {"@=", OP_IMATMUL}, {"->", OP_ARROW},
};

static int lex(rd *r, const nbuf *b)
{
    const char *s = b->s;
    size_t n = b->n, i = 0;
    int paren = 0, indent = 0, line_start = 1;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (line_start) {   /* the indentation of a new line */
            indent = 0;
            while (i < n && (s[i] == ' ' || s[i] == '\t'))
                indent = s[i++] == '\t' ? (indent / 8 + 1) * 8 : indent + 1;
            line_start = 0;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {   /* a line continued */
            i += 2;
            continue;
        }
        if (c == '#') {
            i = qz_comment_end(s, i, n);
            continue;
        }
        if (c == '\n') {
            if (!paren && r->n && r->t[r->n - 1].kind != T_NEWLINE &&
                emit(r, T_NEWLINE, 0, b->at[i], s + i, 1, indent))
                return -1;
            i++;
            line_start = 1;
            continue;
        }
        long at = b->at[i];
        if (isalpha(c) || c == '_') {
            size_t j = i;
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_'))
                j++;
            if ((j - i == 1 && (s[i] == 'r' || s[i] == 'b')) && j < n && (s[j] == '\'' || s[j] == '"')) {
                i = j;   /* r'…', b'…': the string itself */
                continue;
            }
            if (emit(r, T_NAME, 0, at, s + i, j - i, indent))
                return -1;
            i = j;
            continue;
        }
        if (isdigit(c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            size_t j = i;
            int is_int = 1;
            while (j < n && (isdigit((unsigned char)s[j]) || s[j] == '_'))
                j++;
            if (j < n && s[j] == '.' && !(j + 1 < n && s[j + 1] == '.')) {
                is_int = 0;
                for (j++; j < n && isdigit((unsigned char)s[j]); j++)
                    ;
            }
            if (j < n && (s[j] == 'e' || s[j] == 'E')) {
                size_t k = j + 1 + (j + 1 < n && (s[j + 1] == '-' || s[j + 1] == '+'));
                if (k < n && isdigit((unsigned char)s[k])) {
                    is_int = 0;
                    for (j = k; j < n && isdigit((unsigned char)s[j]); j++)
                        ;
                }
            }
            char tmp[64];
            size_t l = 0;
            for (size_t k = i; k < j && l + 1 < sizeof tmp; k++)
                if (s[k] != '_')
                    tmp[l++] = s[k];
            tmp[l] = '\0';
            if (emit(r, T_NUM, 0, at, s + i, j - i, indent))
                return -1;
            r->t[r->n - 1].num = strtod(tmp, NULL);
            r->t[r->n - 1].is_int = is_int;
            i = j;
            if (j < n && (isalpha((unsigned char)s[j]) || s[j] == '_'))
                return read_fail(r, &r->t[r->n - 1], "a number runs into a name");
            continue;
        }
        if ((c == '\'' || c == '"') && i + 2 < n && s[i + 1] == (char)c && s[i + 2] == (char)c) {
            /* """…""": a docstring, which may run over several lines */
            const char *close = strstr(s + i + 3, c == '"' ? "\"\"\"" : "'''");
            if (!close) {
                r->ev->at = at;
                return ce_unread(r->ev, "a string is not closed: its quotes %s are missing",
                                 c == '"' ? "\"\"\"" : "'''");
            }
            size_t j = (size_t)(close - s);
            if (emit(r, T_STR, 0, at, s + i + 3, j - i - 3, indent))
                return -1;
            i = j + 3;
            continue;
        }
        if (c == '\'' || c == '"') {
            size_t j = i + 1;
            while (j < n && s[j] != (char)c && s[j] != '\n')
                j += s[j] == '\\' && j + 1 < n ? 2 : 1;
            if (j >= n || s[j] != (char)c) {
                r->ev->at = at;
                return ce_unread(r->ev, "a string is not closed: its quote %s is missing", c == '"' ? "\"" : "'");
            }
            if (emit(r, T_STR, 0, at, s + i + 1, j - i - 1, indent))
                return -1;
            i = j + 1;
            continue;
        }
        int op = 0;
        size_t l = 1;
        for (size_t k = 0; k < sizeof ops3 / sizeof *ops3; k++) {
            size_t m = strlen(ops3[k].s);
            if (i + m <= n && !strncmp(s + i, ops3[k].s, m)) {
                op = ops3[k].op;
                l = m;
                break;
            }
        }
        if (!op) {
            if (!strchr("+-*/%@<>=()[]{},:.;~&|^", (char)c) || !c) {
                size_t m = 1;
                if (c >= 0x80)
                    utf8_at((const unsigned char *)s + i, &m);
                char what[8];
                memcpy(what, s + i, m < 7 ? m : 7);
                what[m < 7 ? m : 7] = '\0';
                r->ev->at = at;
                return ce_unread(r->ev, "'%s' is not Python", what);
            }
            op = c;
        }
        if (op == '(' || op == '[' || op == '{')
            paren++;
        else if ((op == ')' || op == ']' || op == '}') && paren > 0)
            paren--;
        if (emit(r, T_OP, op, at, s + i, l, indent))
            return -1;
        i += l;
    }
    if (emit(r, T_END, 0, b->at[n], s + n, 0, 0))
        return -1;
    return 0;
}

int ce_lex(rd *r, const char *code)
{
    nbuf b = {0};
    return normalise(r->ev, code, &b) || lex(r, &b) ? -1 : 0;
}
