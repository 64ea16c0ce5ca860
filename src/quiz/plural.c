/* gettext's Plural-Forms expressions: the C subset msgfmt accepts (n, unsigned integer
 * constants, ! * / % + - < > <= >= == != && || ?: and parentheses), evaluated by
 * recursive descent over the text, in unsigned long arithmetic as GNU gettext does. */
#include "quiz/catalogue.h"

#include <ctype.h>

#define MAX_DEPTH 64

typedef struct plural_parser {
    const char *p;
    unsigned long n;
    int depth;
    int bad;
} plural_parser;

static unsigned long ternary(plural_parser *ps);

static void skip_space(plural_parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n')
        ps->p++;
}

/* Consume op when it comes next (and, for a one-character op, is not the start of a
 * longer one given in `not_before`). */
static int take(plural_parser *ps, const char *op, char not_before)
{
    skip_space(ps);
    size_t i = 0;
    while (op[i] && ps->p[i] == op[i])
        i++;
    if (op[i] || (not_before && ps->p[i] == not_before))
        return 0;
    ps->p += i;
    return 1;
}

static unsigned long primary(plural_parser *ps)
{
    skip_space(ps);
    if (++ps->depth > MAX_DEPTH) {
        ps->bad = 1;
        return 0;
    }
    unsigned long v = 0;
    if (take(ps, "!", '=')) {
        v = !primary(ps);
    } else if (take(ps, "(", 0)) {
        v = ternary(ps);
        if (!take(ps, ")", 0))
            ps->bad = 1;
    } else if (*ps->p == 'n' && !isalnum((unsigned char)ps->p[1]) && ps->p[1] != '_') {
        ps->p++;
        v = ps->n;
    } else if (isdigit((unsigned char)*ps->p)) {
        while (isdigit((unsigned char)*ps->p))
            v = v * 10 + (unsigned long)(*ps->p++ - '0');
    } else {
        ps->bad = 1;
    }
    ps->depth--;
    return v;
}

static unsigned long product(plural_parser *ps)
{
    unsigned long v = primary(ps);
    for (;;) {
        int op = take(ps, "*", 0) ? '*' : take(ps, "/", 0) ? '/' : take(ps, "%", 0) ? '%' : 0;
        if (!op || ps->bad)
            return v;
        unsigned long r = primary(ps);
        if (op != '*' && r == 0) {
            ps->bad = 1;
            return 0;
        }
        v = op == '*' ? v * r : op == '/' ? v / r : v % r;
    }
}

static unsigned long sum(plural_parser *ps)
{
    unsigned long v = product(ps);
    for (;;) {
        if (take(ps, "+", 0))
            v += product(ps);
        else if (take(ps, "-", 0))
            v -= product(ps);
        else
            return v;
    }
}

static unsigned long relation(plural_parser *ps)
{
    unsigned long v = sum(ps);
    for (;;) {
        if (take(ps, "<=", 0))
            v = v <= sum(ps);
        else if (take(ps, ">=", 0))
            v = v >= sum(ps);
        else if (take(ps, "<", 0))
            v = v < sum(ps);
        else if (take(ps, ">", 0))
            v = v > sum(ps);
        else
            return v;
    }
}

static unsigned long equality(plural_parser *ps)
{
    unsigned long v = relation(ps);
    for (;;) {
        if (take(ps, "==", 0))
            v = v == relation(ps);
        else if (take(ps, "!=", 0))
            v = v != relation(ps);
        else
            return v;
    }
}

static unsigned long conjunction(plural_parser *ps)
{
    unsigned long v = equality(ps);
    while (take(ps, "&&", 0)) {
        unsigned long r = equality(ps);
        v = v && r;
    }
    return v;
}

static unsigned long disjunction(plural_parser *ps)
{
    unsigned long v = conjunction(ps);
    while (take(ps, "||", 0)) {
        unsigned long r = conjunction(ps);
        v = v || r;
    }
    return v;
}

static unsigned long ternary(plural_parser *ps)
{
    if (++ps->depth > MAX_DEPTH) {
        ps->bad = 1;
        return 0;
    }
    unsigned long v = disjunction(ps);
    if (take(ps, "?", 0)) {
        unsigned long a = ternary(ps);
        if (!take(ps, ":", 0))
            ps->bad = 1;
        unsigned long b = ternary(ps);
        v = v ? a : b;
    }
    ps->depth--;
    return v;
}

int qz_plural_eval(const char *expr, unsigned long n, unsigned long *form)
{
    plural_parser ps = {.p = expr ? expr : "", .n = n};
    unsigned long v = ternary(&ps);
    skip_space(&ps);
    if (ps.bad || (*ps.p && *ps.p != ';'))
        return at_error_set(NULL, AT_EINVAL, "malformed plural expression");
    *form = v;
    return AT_OK;
}
