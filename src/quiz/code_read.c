/* Reading a code answer, second step: a recursive-descent parser of the Python subset of
 * quiz/code.h into the tree of quiz/code_impl.h (the tokens come from code_lex.c). */
#include "quiz/code_read.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the parser */

static const ctok *peek(const rd *r) { return &r->t[r->i]; }
static const ctok *peek_at(const rd *r, int k) { return &r->t[r->i + k < r->n ? r->i + k : r->n - 1]; }

static int is_op(const ctok *t, int op) { return t->kind == T_OP && t->op == op; }

static int is_word(const ctok *t, const char *w)
{
    return t->kind == T_NAME && t->len == strlen(w) && !strncmp(t->s, w, t->len);
}

static const char *const keywords[] = {
    "if", "else", "elif", "for", "in", "not", "and", "or", "is", "lambda", "def", "class", "while",
    "return", "import", "from", "as", "pass", "None", "True", "False", "with", "try", "except",
    "finally", "yield", "global", "nonlocal", "del", "assert", "raise", "async", "await", "break",
    "continue",
};

static int is_keyword(const ctok *t)
{
    for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
        if (is_word(t, keywords[k]))
            return 1;
    return 0;
}

static char *tok_text(rd *r, const ctok *t)
{
    return ce_strndup(r->ev->arena, t->s, t->len);
}

/* What a token is, for a message: "'foo'", "the end". */
static int unexpected(rd *r, const ctok *t)
{
    if (t->kind == T_END)
        return read_fail(r, t, "the code ends too early");
    if (t->kind == T_NEWLINE)
        return read_fail(r, t, "the line ends too early");
    char what[40];
    size_t l = t->len < sizeof what - 1 ? t->len : sizeof what - 1;
    memcpy(what, t->s, l);
    what[l] = '\0';
    if (t->kind == T_NAME && is_keyword(t))
        return read_fail(r, t, "'%s' is not read here: write the lines themselves, without it", what);
    return read_fail(r, t, "'%s' is not expected here", what);
}

static ce_node *new_node(rd *r, ce_nkind kind, const ctok *t)
{
    ce_node *n = ce_alloc(r->ev->arena, sizeof *n);
    if (!n) {
        ce_nomem(r->ev);
        return NULL;
    }
    n->kind = kind;
    n->at = t->at;
    return n;
}

/* A growing list of nodes. */
typedef struct nlist {
    ce_node **v;
    int n, cap;
} nlist;

static int push(rd *r, nlist *l, ce_node *x)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        ce_node **v = ce_alloc(r->ev->arena, (size_t)cap * sizeof *v);
        if (!v)
            return ce_nomem(r->ev);
        if (l->n)
            memcpy(v, l->v, (size_t)l->n * sizeof *v);
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

static ce_node *expr(rd *r);
static ce_node *exprlist(rd *r);
static ce_node *or_test(rd *r);

static int enter(rd *r)
{
    if (++r->depth > QZ_CODE_MAX_DEPTH) {
        read_fail(r, peek(r), "the code is nested too deeply");
        return -1;
    }
    return 0;
}

static int expect_close(rd *r, int op)
{
    if (is_op(peek(r), op)) {
        r->i++;
        return 0;
    }
    if (peek(r)->kind == T_END || peek(r)->kind == T_NEWLINE)
        return op == ')' ? read_fail(r, peek(r), "a closing parenthesis is missing")
                         : read_fail(r, peek(r), "a closing bracket ] is missing");
    return unexpected(r, peek(r));
}

/* `for v in xs [if c]` after the element of a comprehension. */
static ce_node *comprehension(rd *r, ce_node *elt, const ctok *start)
{
    ce_node *c = new_node(r, X_COMP, start);
    if (!c)
        return NULL;
    r->i++;   /* for */
    if (peek(r)->kind != T_NAME || is_keyword(peek(r))) {
        unexpected(r, peek(r));
        return NULL;
    }
    c->a = elt;
    c->name = tok_text(r, peek(r));
    r->i++;
    if (!is_word(peek(r), "in")) {
        if (is_op(peek(r), ','))
            read_fail(r, peek(r), "a comprehension over several names is not read");
        else
            unexpected(r, peek(r));
        return NULL;
    }
    r->i++;
    if (!(c->b = or_test(r)))
        return NULL;
    if (is_word(peek(r), "if")) {
        r->i++;
        if (!(c->c = or_test(r)))
            return NULL;
    }
    if (is_word(peek(r), "for")) {
        read_fail(r, peek(r), "a comprehension with two for is not read");
        return NULL;
    }
    return c;
}

/* ( … ) [ … ]: a group, a tuple, a list, a comprehension. */
static ce_node *bracketed(rd *r)
{
    const ctok *open = peek(r);
    int close = open->op == '(' ? ')' : ']';
    r->i++;
    ce_node *seq = new_node(r, open->op == '(' ? X_TUPLE : X_LIST, open);
    if (!seq)
        return NULL;
    nlist items = {0};
    int comma = 0;
    while (!is_op(peek(r), close)) {
        ce_node *e;
        if (is_op(peek(r), '*')) {
            const ctok *st = peek(r);
            r->i++;
            ce_node *x = new_node(r, X_STAR, st);
            if (!x || !(x->a = expr(r)))
                return NULL;
            e = x;
        } else if (!(e = expr(r))) {
            return NULL;
        }
        if (is_word(peek(r), "for") && items.n == 0) {
            ce_node *c = comprehension(r, e, peek(r));
            if (!c || expect_close(r, close))
                return NULL;
            if (close == ']')
                return c;
            return c;   /* a generator: read as a list */
        }
        if (push(r, &items, e))
            return NULL;
        if (!is_op(peek(r), ','))
            break;
        comma = 1;
        r->i++;
    }
    if (expect_close(r, close))
        return NULL;
    if (close == ')' && items.n == 1 && !comma && items.v[0]->kind != X_STAR)
        return items.v[0];   /* (x): x */
    seq->items = items.v;
    seq->n_items = items.n;
    return seq;
}

static ce_node *atom(rd *r)
{
    const ctok *t = peek(r);
    ce_node *n;
    switch (t->kind) {
    case T_NUM:
        if (!(n = new_node(r, X_NUM, t)))
            return NULL;
        n->num = t->num;
        n->is_int = t->is_int;
        r->i++;
        return n;
    case T_STR: {
        /* adjacent strings are one */
        size_t len = 0;
        int k = r->i;
        for (; r->t[k].kind == T_STR; k++)
            len += r->t[k].len;
        char *s = ce_alloc(r->ev->arena, len + 1), *p = s;
        if (!s || !(n = new_node(r, X_STR, t))) {
            ce_nomem(r->ev);
            return NULL;
        }
        for (; r->i < k; r->i++)
            for (size_t j = 0; j < r->t[r->i].len; j++) {
                char c = r->t[r->i].s[j];
                if (c == '\\' && j + 1 < r->t[r->i].len)
                    c = r->t[r->i].s[++j];
                *p++ = c;
            }
        *p = '\0';
        n->name = s;
        return n;
    }
    case T_NAME:
        if (is_word(t, "None") || is_word(t, "True") || is_word(t, "False")) {
            n = new_node(r, is_word(t, "None") ? X_NONE : is_word(t, "True") ? X_TRUE : X_FALSE, t);
            r->i++;
            return n;
        }
        if (is_keyword(t)) {
            unexpected(r, t);
            return NULL;
        }
        if (!(n = new_node(r, X_NAME, t)) || !(n->name = tok_text(r, t)))
            return NULL;
        r->i++;
        return n;
    case T_OP:
        if (t->op == '(' || t->op == '[')
            return bracketed(r);
        if (t->op == OP_ELLIPSIS) {
            r->i++;
            return new_node(r, X_ELLIPSIS, t);
        }
        if (t->op == '{') {
            read_fail(r, t, "a dict or a set is not read");
            return NULL;
        }
        /* fall through */
    default:
        unexpected(r, t);
        return NULL;
    }
}

/* One item of x[…]: an expression or a slice a:b:c. */
static ce_node *subscript(rd *r)
{
    const ctok *t = peek(r);
    ce_node *a = NULL;
    if (!is_op(t, ':') && !(a = expr(r)))
        return NULL;
    if (!is_op(peek(r), ':'))
        return a;
    ce_node *s = new_node(r, X_SLICE, t);
    if (!s)
        return NULL;
    s->a = a;
    r->i++;
    if (!is_op(peek(r), ':') && !is_op(peek(r), ',') && !is_op(peek(r), ']') && !(s->b = expr(r)))
        return NULL;
    if (is_op(peek(r), ':')) {
        r->i++;
        if (!is_op(peek(r), ',') && !is_op(peek(r), ']') && !(s->c = expr(r)))
            return NULL;
    }
    return s;
}

static ce_node *call_args(rd *r, ce_node *fn, const ctok *open)
{
    ce_node *c = new_node(r, X_CALL, open);
    if (!c)
        return NULL;
    c->a = fn;
    c->at = fn->at;
    r->i++;
    nlist args = {0};
    while (!is_op(peek(r), ')')) {
        const ctok *t = peek(r);
        ce_node *e;
        if (is_op(t, '*') || is_op(t, OP_POW)) {
            if (t->op == OP_POW) {
                read_fail(r, t, "**keyword arguments are not read");
                return NULL;
            }
            r->i++;
            if (!(e = new_node(r, X_STAR, t)) || !(e->a = expr(r)))
                return NULL;
        } else if (t->kind == T_NAME && !is_keyword(t) && is_op(peek_at(r, 1), '=')) {
            r->i += 2;
            if (!(e = new_node(r, X_KW, t)) || !(e->name = tok_text(r, t)) || !(e->a = expr(r)))
                return NULL;
        } else {
            if (!(e = expr(r)))
                return NULL;
            if (is_word(peek(r), "for")) {
                if (!(e = comprehension(r, e, peek(r))))
                    return NULL;
            }
        }
        if (push(r, &args, e))
            return NULL;
        if (!is_op(peek(r), ','))
            break;
        r->i++;
    }
    if (expect_close(r, ')'))
        return NULL;
    c->items = args.v;
    c->n_items = args.n;
    return c;
}

static ce_node *primary(rd *r)
{
    ce_node *x = atom(r);
    while (x) {
        const ctok *t = peek(r);
        if (is_op(t, '(')) {
            x = call_args(r, x, t);
        } else if (is_op(t, '[')) {
            ce_node *ix = new_node(r, X_INDEX, t);
            if (!ix)
                return NULL;
            r->i++;
            nlist items = {0};
            int comma = 0;
            while (!is_op(peek(r), ']')) {
                ce_node *e = subscript(r);
                if (!e || push(r, &items, e))
                    return NULL;
                if (!is_op(peek(r), ','))
                    break;
                comma = 1;
                r->i++;
            }
            if (expect_close(r, ']'))
                return NULL;
            if (!items.n) {
                read_fail(r, t, "an index is missing in []");
                return NULL;
            }
            ix->a = x;
            if (items.n == 1 && !comma) {
                ix->b = items.v[0];
            } else {
                if (!(ix->b = new_node(r, X_TUPLE, t)))
                    return NULL;
                ix->b->items = items.v;
                ix->b->n_items = items.n;
            }
            x = ix;
        } else if (is_op(t, '.')) {
            const ctok *name = peek_at(r, 1);
            if (name->kind != T_NAME) {
                unexpected(r, name);
                return NULL;
            }
            ce_node *a = new_node(r, X_ATTR, name);
            if (!a || !(a->name = tok_text(r, name)))
                return NULL;
            a->a = x;
            r->i += 2;
            x = a;
        } else {
            break;
        }
    }
    return x;
}

static ce_node *unary_or_power(rd *r);

static ce_node *power(rd *r)
{
    ce_node *x = primary(r);
    if (x && is_op(peek(r), OP_POW)) {
        ce_node *p = new_node(r, X_BIN, peek(r));
        if (!p)
            return NULL;
        p->op = OP_POW;
        r->i++;
        p->a = x;
        if (!(p->b = unary_or_power(r)))
            return NULL;
        return p;
    }
    return x;
}

static ce_node *unary_or_power(rd *r)
{
    const ctok *t = peek(r);
    if (is_op(t, '-') || is_op(t, '+') || is_op(t, '~')) {
        if (enter(r))
            return NULL;
        r->i++;
        ce_node *u = new_node(r, X_UNARY, t);
        if (!u || !(u->a = unary_or_power(r)))
            return NULL;
        u->op = t->op;
        r->depth--;
        return u;
    }
    return power(r);
}

/* Left-associative binary levels, loosest first. */
static const int level_ops[][6] = {
    {'|', 0}, {'^', 0}, {'&', 0}, {'+', '-', 0}, {'*', '/', '%', '@', OP_FLOORDIV, 0},
};
#define N_LEVELS 5

static ce_node *binary(rd *r, int level)
{
    if (level == N_LEVELS)
        return unary_or_power(r);
    ce_node *x = binary(r, level + 1);
    for (;;) {
        const ctok *t = peek(r);
        int hit = 0;
        for (int k = 0; level_ops[level][k]; k++)
            hit |= is_op(t, level_ops[level][k]);
        if (!x || !hit)
            return x;
        ce_node *b = new_node(r, X_BIN, t);
        if (!b)
            return NULL;
        b->op = t->op;
        r->i++;
        b->a = x;
        if (!(b->b = binary(r, level + 1)))
            return NULL;
        x = b;
    }
}

static int comp_op(rd *r)
{
    const ctok *t = peek(r);
    if (t->kind == T_OP && (t->op == OP_EQ || t->op == OP_NE || t->op == '<' || t->op == '>' ||
                            t->op == OP_LE || t->op == OP_GE)) {
        r->i++;
        return t->op;
    }
    if (is_word(t, "in")) {
        r->i++;
        return OP_IN;
    }
    if (is_word(t, "is")) {
        r->i++;
        if (is_word(peek(r), "not")) {
            r->i++;
            return OP_NE;
        }
        return OP_EQ;
    }
    if (is_word(t, "not") && is_word(peek_at(r, 1), "in"))
        return read_fail(r, t, "'not in' is not read"), -1;
    return 0;
}

static ce_node *comparison(rd *r)
{
    ce_node *x = binary(r, 0);
    const ctok *t = peek(r);
    int op;
    ce_node *left = x, *result = x;
    while (x && (op = comp_op(r)) > 0) {
        ce_node *c = new_node(r, X_CMP, t);
        if (!c)
            return NULL;
        c->op = op;
        c->a = left;
        if (!(c->b = binary(r, 0)))
            return NULL;
        if (result == x && left == x) {
            result = c;
        } else {   /* a < b < c: (a < b) and (b < c) */
            ce_node *both = new_node(r, X_BOOL, t);
            if (!both)
                return NULL;
            both->op = OP_AND;
            both->a = result;
            both->b = c;
            result = both;
        }
        left = c->b;
        t = peek(r);
    }
    return r->ev->status != QZ_CODE_RAN ? NULL : result;
}

static ce_node *not_test(rd *r)
{
    const ctok *t = peek(r);
    if (is_word(t, "not")) {
        if (enter(r))
            return NULL;
        r->i++;
        ce_node *u = new_node(r, X_UNARY, t);
        if (!u || !(u->a = not_test(r)))
            return NULL;
        u->op = OP_NOT;
        r->depth--;
        return u;
    }
    return comparison(r);
}

static ce_node *bool_level(rd *r, int and)
{
    ce_node *x = and ? not_test(r) : bool_level(r, 1);
    while (x && is_word(peek(r), and ? "and" : "or")) {
        ce_node *b = new_node(r, X_BOOL, peek(r));
        if (!b)
            return NULL;
        b->op = and ? OP_AND : OP_OR;
        r->i++;
        b->a = x;
        if (!(b->b = and ? not_test(r) : bool_level(r, 1)))
            return NULL;
        x = b;
    }
    return x;
}

static ce_node *or_test(rd *r)
{
    return bool_level(r, 0);
}

/* An expression: `a if c else b` and what it is made of. */
static ce_node *expr(rd *r)
{
    if (enter(r))
        return NULL;
    const ctok *t = peek(r);
    if (is_word(t, "lambda")) {
        read_fail(r, t, "'lambda' is not read: write the computation itself");
        return NULL;
    }
    ce_node *x = or_test(r);
    if (x && is_word(peek(r), "if")) {
        ce_node *c = new_node(r, X_IFELSE, peek(r));
        if (!c)
            return NULL;
        r->i++;
        c->a = x;
        if (!(c->b = or_test(r)))
            return NULL;
        if (!is_word(peek(r), "else")) {
            read_fail(r, peek(r), "'if' without 'else' in an expression");
            return NULL;
        }
        r->i++;
        if (!(c->c = expr(r)))
            return NULL;
        x = c;
    }
    r->depth--;
    return x;
}

/* e or e, e, … (a tuple). */
static ce_node *exprlist(rd *r)
{
    const ctok *t = peek(r);
    ce_node *x = expr(r);
    if (!x || !is_op(peek(r), ','))
        return x;
    ce_node *tup = new_node(r, X_TUPLE, t);
    nlist items = {0};
    if (!tup || push(r, &items, x))
        return NULL;
    while (is_op(peek(r), ',')) {
        r->i++;
        const ctok *n = peek(r);
        if (n->kind == T_END || n->kind == T_NEWLINE || is_op(n, ';') || is_op(n, '=') || is_op(n, ':'))
            break;
        ce_node *e = expr(r);
        if (!e || push(r, &items, e))
            return NULL;
    }
    tup->items = items.v;
    tup->n_items = items.n;
    return tup;
}

/* ---- statements */

static ce_stmt *new_stmt(rd *r, ce_skind kind, const ctok *t)
{
    ce_stmt *s = ce_alloc(r->ev->arena, sizeof *s);
    if (!s) {
        ce_nomem(r->ev);
        return NULL;
    }
    s->kind = kind;
    s->at = t->at;
    return s;
}

static int valid_target(rd *r, const ce_node *x)
{
    if (x->kind == X_NAME || x->kind == X_INDEX)
        return 0;
    if (x->kind == X_TUPLE || x->kind == X_LIST) {
        for (int k = 0; k < x->n_items; k++)
            if (x->items[k]->kind != X_NAME)
                break;
            else if (k == x->n_items - 1)
                return 0;
    }
    r->ev->at = x->at;
    return ce_unread(r->ev, "only a name, names or x[…] can be assigned to");
}

/* "torch.nn.functional": a dotted name. */
static const char *dotted(rd *r)
{
    const ctok *t = peek(r);
    if (t->kind != T_NAME)
        return unexpected(r, t), NULL;
    size_t len = t->len;
    const char *start = t->s;
    r->i++;
    while (is_op(peek(r), '.') && peek_at(r, 1)->kind == T_NAME) {
        len = (size_t)(peek_at(r, 1)->s + peek_at(r, 1)->len - start);
        r->i += 2;
    }
    return ce_strndup(r->ev->arena, start, len);
}

static ce_stmt *import_stmt(rd *r)
{
    const ctok *t = peek(r);
    ce_stmt *s = new_stmt(r, S_IMPORT, t);
    if (!s)
        return NULL;
    r->i++;
    if (is_word(t, "from")) {
        if (!(s->from = dotted(r)))
            return NULL;
        if (!is_word(peek(r), "import"))
            return unexpected(r, peek(r)), NULL;
        r->i++;
    }
    int cap = 8;
    s->names = ce_alloc(r->ev->arena, (size_t)cap * sizeof *s->names);
    s->aliases = ce_alloc(r->ev->arena, (size_t)cap * sizeof *s->aliases);
    if (!s->names || !s->aliases)
        return ce_nomem(r->ev), NULL;
    int paren = is_op(peek(r), '(');
    r->i += paren;
    for (;;) {
        if (is_op(peek(r), '*'))
            return read_fail(r, peek(r), "import * is not read: import the names"), NULL;
        if (s->n_names == cap)
            return read_fail(r, peek(r), "too many names in one import"), NULL;
        const char *name = s->from ? (peek(r)->kind == T_NAME ? tok_text(r, peek(r)) : NULL) : dotted(r);
        if (!name)
            return peek(r)->kind == T_NAME ? NULL : (unexpected(r, peek(r)), NULL);
        if (s->from)
            r->i++;
        const char *alias = NULL;
        if (is_word(peek(r), "as")) {
            r->i++;
            if (peek(r)->kind != T_NAME)
                return unexpected(r, peek(r)), NULL;
            alias = tok_text(r, peek(r));
            r->i++;
        }
        s->names[s->n_names] = name;
        s->aliases[s->n_names++] = alias;
        if (!is_op(peek(r), ','))
            break;
        r->i++;
    }
    if (paren && expect_close(r, ')'))
        return NULL;
    return s;
}

static int statement(rd *r, ce_stmt ***list, int *n, int *cap);

/* Does a new statement start here, though no ; or line break came first? (A one-line
 * field turns the line breaks of pasted code into spaces: "a = x  b = y".) */
static int starts_statement(const rd *r)
{
    const ctok *t = peek(r), *n = peek_at(r, 1);
    if (t->kind != T_NAME)
        return 0;
    if (is_word(t, "return") || is_word(t, "for") || is_word(t, "import") || is_word(t, "from") ||
        is_word(t, "def"))
        return 1;
    return !is_keyword(t) && n->kind == T_OP &&
           (n->op == '=' || n->op == OP_IADD || n->op == OP_ISUB || n->op == OP_IMUL || n->op == OP_IDIV);
}

static int append(rd *r, ce_stmt ***list, int *n, int *cap, ce_stmt *s)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 8;
        ce_stmt **v = ce_alloc(r->ev->arena, (size_t)c * sizeof *v);
        if (!v)
            return ce_nomem(r->ev);
        if (*n)
            memcpy(v, *list, (size_t)*n * sizeof *v);
        *list = v;
        *cap = c;
    }
    (*list)[(*n)++] = s;
    return 0;
}

/* The body of a for or a def whose line (head) ends at the colon: the lines below it
 * indented more than head's, or else the statements after the colon on its line. On one
 * line a def's body ends after its return: what follows a return would never run in it,
 * and a one-line field puts the lines after the function (out = attn(Q, K, V)) there. */
static int block(rd *r, const ctok *head, ce_stmt ***body, int *n)
{
    int cap = 0;
    if (peek(r)->kind == T_NEWLINE) {
        r->i++;
        while (peek(r)->kind != T_END && peek(r)->indent > head->indent) {
            if (statement(r, body, n, &cap))
                return -1;
            while (peek(r)->kind == T_NEWLINE || is_op(peek(r), ';'))
                r->i++;
        }
        return 0;
    }
    while (peek(r)->kind != T_END && peek(r)->kind != T_NEWLINE) {
        if (statement(r, body, n, &cap))
            return -1;
        if (is_op(peek(r), ';'))
            r->i++;
        if (is_word(head, "def") && (*body)[*n - 1]->kind == S_RETURN)
            break;
    }
    return 0;
}

/* for name in xs: its body (block). */
static ce_stmt *for_stmt(rd *r)
{
    const ctok *t = peek(r);
    ce_stmt *s = new_stmt(r, S_FOR, t);
    if (!s)
        return NULL;
    r->i++;
    const ctok *v = peek(r);
    ce_node *target = NULL;
    if (v->kind == T_NAME && !is_keyword(v)) {
        if (!(target = new_node(r, X_NAME, v)) || !(target->name = tok_text(r, v)))
            return NULL;
        r->i++;
    }
    if (!target || !is_word(peek(r), "in")) {
        if (target && is_op(peek(r), ','))
            return read_fail(r, peek(r), "a for over several names is not read"), NULL;
        return unexpected(r, peek(r)), NULL;
    }
    r->i++;
    if (!(s->value = exprlist(r)))
        return NULL;
    if (!is_op(peek(r), ':'))
        return unexpected(r, peek(r)), NULL;
    r->i++;
    s->targets = ce_alloc(r->ev->arena, sizeof *s->targets);
    if (!s->targets)
        return ce_nomem(r->ev), NULL;
    s->targets[0] = target;
    s->n_targets = 1;
    if (block(r, t, &s->body, &s->n_body))
        return NULL;
    if (!s->n_body)
        return read_fail(r, peek(r), "the for has no body"), NULL;
    return s;
}

#define MAX_PARAMS 16

/* One parameter of a def: name[: annotation][= default], *args, **kwargs, or the bare *
 * and / that only say how it may be called. Annotations are read and passed over. */
static int param(rd *r, ce_stmt *s)
{
    const ctok *t = peek(r);
    int star = is_op(t, '*') ? 1 : is_op(t, OP_POW) ? 2 : 0;
    if (is_op(t, '/') || (star == 1 && (is_op(peek_at(r, 1), ',') || is_op(peek_at(r, 1), ')')))) {
        r->i++;
        return 0;
    }
    r->i += star > 0;
    const ctok *name = peek(r);
    if (name->kind != T_NAME || is_keyword(name))
        return unexpected(r, name);
    const char *text = tok_text(r, name);
    if (!text)
        return ce_nomem(r->ev);
    r->i++;
    if (is_op(peek(r), ':')) {
        r->i++;
        if (!expr(r))
            return -1;
    }
    ce_node *dflt = NULL;
    if (!star && is_op(peek(r), '=')) {
        r->i++;
        if (!(dflt = expr(r)))
            return -1;
    }
    if (star) {
        *(star == 1 ? &s->rest_args : &s->rest_kw) = text;
        return 0;
    }
    if (s->n_names == MAX_PARAMS)
        return read_fail(r, name, "the function has too many parameters (more than %d)", MAX_PARAMS);
    for (int k = 0; k < s->n_names; k++)
        if (!strcmp(s->names[k], text))
            return read_fail(r, name, "the parameter '%s' is named twice", text);
    s->names[s->n_names] = text;
    s->defaults[s->n_names++] = dflt;
    return 0;
}

/* def name(parameters) [-> annotation]: its body (block). The function runs when the
 * answer calls it; one never called is run on the question's tensors (ce_call_uncalled).
 * A def inside a def is refused: the grader keeps one level of names a call. */
static ce_stmt *def_stmt(rd *r)
{
    const ctok *t = peek(r);
    if (r->in_def)
        return read_fail(r, t, "a function defined inside another function is not read: define "
                               "each function at the top, or write its lines in place"), NULL;
    ce_stmt *s = new_stmt(r, S_DEF, t);
    if (!s)
        return NULL;
    r->i++;
    const ctok *name = peek(r);
    if (name->kind != T_NAME || is_keyword(name))
        return unexpected(r, name), NULL;
    if (!(s->from = tok_text(r, name)))
        return NULL;
    r->i++;
    if (!is_op(peek(r), '('))
        return unexpected(r, peek(r)), NULL;
    r->i++;
    s->names = ce_alloc(r->ev->arena, MAX_PARAMS * sizeof *s->names);
    s->defaults = ce_alloc(r->ev->arena, MAX_PARAMS * sizeof *s->defaults);
    if (!s->names || !s->defaults)
        return ce_nomem(r->ev), NULL;
    while (!is_op(peek(r), ')')) {
        if (param(r, s))
            return NULL;
        if (!is_op(peek(r), ','))
            break;
        r->i++;
    }
    if (expect_close(r, ')'))
        return NULL;
    if (is_op(peek(r), OP_ARROW)) {   /* -> np.ndarray: passed over */
        r->i++;
        if (!expr(r))
            return NULL;
    }
    if (!is_op(peek(r), ':'))
        return unexpected(r, peek(r)), NULL;
    r->i++;
    r->in_def = 1;
    int rc = block(r, t, &s->body, &s->n_body);
    r->in_def = 0;
    if (rc)
        return NULL;
    if (!s->n_body)
        return read_fail(r, peek(r), "the function has no body"), NULL;
    return s;
}

/* One statement into *list. After it: ;, a line break, the end, or the start of the next
 * statement. */
static int statement(rd *r, ce_stmt ***list, int *n, int *cap)
{
    const ctok *t = peek(r);
    ce_stmt *s = NULL;
    if (is_word(t, "for") || is_word(t, "def")) {
        if (!(s = is_word(t, "for") ? for_stmt(r) : def_stmt(r)))
            return -1;
        return append(r, list, n, cap, s);
    }
    if (is_word(t, "class"))
        return read_fail(r, t, "a class is not read: write a function (def) or the lines themselves");
    if (is_word(t, "import") || is_word(t, "from")) {
        s = import_stmt(r);
    } else if (is_word(t, "pass")) {
        s = new_stmt(r, S_PASS, t);
        r->i++;
    } else if (is_word(t, "return")) {
        if ((s = new_stmt(r, S_RETURN, t))) {
            r->i++;
            const ctok *e = peek(r);
            if (e->kind != T_END && e->kind != T_NEWLINE && !is_op(e, ';') && !(s->value = exprlist(r)))
                return -1;
        }
    } else if (t->kind == T_NAME && is_keyword(t) && !is_word(t, "not") && !is_word(t, "lambda") &&
               !is_word(t, "None") && !is_word(t, "True") && !is_word(t, "False")) {
        char what[16];
        snprintf(what, sizeof what, "%.*s", (int)(t->len < 15 ? t->len : 15), t->s);
        return read_fail(r, t, "'%s' is not read here: write the lines themselves, without it", what);
    } else {
        ce_node *x = exprlist(r);
        if (!x)
            return -1;
        const ctok *op = peek(r);
        if (is_op(op, '=')) {
            if (!(s = new_stmt(r, S_ASSIGN, t)))
                return -1;
            nlist targets = {0};
            while (is_op(peek(r), '=')) {
                if (valid_target(r, x) || push(r, &targets, x))
                    return -1;
                r->i++;
                if (!(x = exprlist(r)))
                    return -1;
            }
            s->targets = targets.v;
            s->n_targets = targets.n;
            s->value = x;
        } else if (op->kind == T_OP && (op->op == OP_IADD || op->op == OP_ISUB || op->op == OP_IMUL ||
                                        op->op == OP_IDIV || op->op == OP_IMATMUL)) {
            if (!(s = new_stmt(r, S_AUG, t)) || valid_target(r, x) || x->kind == X_TUPLE)
                return x->kind == X_TUPLE ? read_fail(r, op, "only one name can be updated") : -1;
            r->i++;
            s->op = op->op == OP_IADD ? '+' : op->op == OP_ISUB ? '-' : op->op == OP_IMUL ? '*'
                  : op->op == OP_IDIV ? '/' : '@';
            s->targets = ce_alloc(r->ev->arena, sizeof *s->targets);
            if (!s->targets)
                return ce_nomem(r->ev);
            s->targets[0] = x;
            s->n_targets = 1;
            if (!(s->value = exprlist(r)))
                return -1;
        } else {
            if (!(s = new_stmt(r, S_EXPR, t)))
                return -1;
            s->value = x;
        }
    }
    if (!s)
        return -1;
    if (append(r, list, n, cap, s))
        return -1;
    const ctok *e = peek(r);
    if (e->kind == T_END || e->kind == T_NEWLINE || is_op(e, ';') || starts_statement(r))
        return 0;
    if (s->kind == S_RETURN && r->in_def && e->kind == T_NAME)
        return 0;   /* on one line: the lines after the function (print(attn(Q, K, V))) */
    return unexpected(r, e);
}

int ce_read(ce_ev *ev, const char *code, ce_program *out)
{
    memset(out, 0, sizeof *out);
    if (strlen(code) > QZ_CODE_MAX_BYTES) {
        ev->at = -1;
        return ce_unread(ev, "the code is too long (more than %d bytes)", QZ_CODE_MAX_BYTES);
    }
    rd r = {.ev = ev};
    if (ce_lex(&r, code))
        return -1;
    int cap = 0;
    for (;;) {
        while (peek(&r)->kind == T_NEWLINE || is_op(peek(&r), ';'))
            r.i++;
        if (peek(&r)->kind == T_END)
            break;
        /* an indented line that opens no block is read as if it were not indented (a
         * pasted line keeps its indentation; Python would refuse it) */
        if (statement(&r, &out->stmts, &out->n, &cap))
            return -1;
    }
    if (!out->n) {
        ev->at = -1;
        return ce_unread(ev, "there is no code");
    }
    return 0;
}
