/* A Python function in a formula answer read as the lines of its body: "def attn(Q, K,
 * V): S = Q @ K.T / np.sqrt(d); …; return W @ V" is diagnosed as the same lines written
 * without def. The header goes (name, parameters, annotations, defaults), a docstring
 * goes, each of the first three parameters becomes the matrix it is bound to (the call's
 * argument, or Q, K, V in order when the function is never called: a pasted function is
 * its own answer), and the call after the function (out = attn(Q, K, V), print(…)) goes.
 * The matrix languages' functions are read the same way: MATLAB's and Julia's function
 * [out =] attn(Q, K, V) … end, R's attn <- function(Q, K, V) { … }, MATLAB's attn =
 * @(Q, K, V) …, Mathematica's attn[q_, k_, v_] := Module[{s, w}, …]. A loop over the
 * queries (for i in range(n): … out[i] = w @ V) is read as the lines of its body too, a
 * row taken by its variable (Q[i], Q(i,:)) as the matrix, a row each turn. See
 * quiz/formula_impl.h. */
#define _GNU_SOURCE   /* memmem */
#include "quiz/formula_impl.h"
#include "quiz/lang.h"   /* QZ_N_ */

#include <stdlib.h>
#include <string.h>

/* The parts of one function, as token indices of T. */
typedef struct fdef {
    size_t def, colon;      /* the header: [def, colon), colon the ':' that ends it (or the
                             * token that ends another language's header, read as a
                             * separator) */
    size_t name;            /* the function's name */
    size_t end;             /* the body: (colon, end) */
    size_t close;           /* the token that closes the body (end, '}', ']'): it goes; T->n
                             * when none */
    size_t param[3];        /* the first three positional parameters' tokens */
    size_t plen[3];         /* their names' lengths as the body uses them (Mathematica's
                             * query_ is query) */
    int n_param;
    size_t call, call_end;  /* the statement that calls it: [call, call_end), equal: none */
    int arg[3];             /* the call's arguments that are a matrix alone (enum fvar), -1 */
    long doc_from, doc_to;  /* the docstring's bytes in the answer, equal: none */
} fdef;

static int is_name(const ftoken *t)
{
    return t->kind == F_NAME || t->kind == F_VAR;
}

static int same_text(const ftoken *a, const ftoken *b)
{
    return a->len == b->len && !strncmp(a->text, b->text, a->len);
}

/* `return` (a filler word to the tokenizer: what follows it is the formula). */
static int is_return(const ftoken *t)
{
    return t->len == 6 && !strncmp(t->text, "return", 6);
}

/* `def name (` at i. */
static int def_at(const ftokens *T, size_t i)
{
    return i + 2 < T->n && fq_name_is(&T->t[i], "def") && is_name(&T->t[i + 1]) && T->t[i + 2].kind == F_LPAR;
}

/* A call of the function named by token fn at k: `fn (`, not an attribute (np.fn). */
static int call_at(const ftokens *T, size_t k, const ftoken *fn)
{
    return k + 1 < T->n && is_name(&T->t[k]) && same_text(&T->t[k], fn) && T->t[k + 1].kind == F_LPAR &&
           !(k && T->t[k - 1].kind == F_DOT);
}

/* The parenthesis that closes the one at k (T->n when none). */
static size_t closing(const ftokens *T, size_t k)
{
    int depth = 0;
    for (; k < T->n; k++) {
        depth += (T->t[k].kind == F_LPAR) - (T->t[k].kind == F_RPAR);
        if (!depth)
            return k;
    }
    return T->n;
}

/* The parameters: the first token of each, but *args, **kwargs, self and those after a
 * bare * (passed by keyword only); annotations and defaults pass. Then [-> annotation] up
 * to the ':'. 0 when this is no header after all. */
static int header(const ftokens *T, fdef *d)
{
    size_t close = closing(T, d->def + 2);
    int keyword_only = 0, first = 1;
    d->name = d->def + 1;
    d->close = T->n;
    for (size_t k = d->def + 3; k < close;) {
        int star = T->t[k].kind == F_MUL || T->t[k].kind == F_POW;
        keyword_only |= star;
        if (!star && is_name(&T->t[k]) && !keyword_only && d->n_param < 3 &&
            !(first && fq_name_is(&T->t[k], "self"))) {
            d->plen[d->n_param] = T->t[k].len;
            d->param[d->n_param++] = k;
        }
        first = 0;
        int depth = 0;
        for (; k < close && (depth || T->t[k].kind != F_COMMA); k++)
            depth += (T->t[k].kind == F_LPAR) - (T->t[k].kind == F_RPAR);
        k++;
    }
    for (size_t k = close + 1; k < T->n && k < close + 16; k++)
        if (T->t[k].kind == F_SEP) {
            d->colon = k;
            return T->t[k].len == 1 && T->t[k].text[0] == ':';
        }
    return 0;
}

/* A docstring right after the header: its bytes [doc_from, doc_to). */
static void docstring(const char *answer, const ftokens *T, fdef *d)
{
    const char *s = answer + T->t[d->colon].end, *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    if (*p != '"' && *p != '\'')
        return;
    char triple[4] = {*p, *p, *p, 0}, one[2] = {*p, 0};
    int three = !strncmp(p, triple, 3);
    const char *close = strstr(p + (three ? 3 : 1), three ? triple : one);
    if (!close || (!three && memchr(p, '\n', (size_t)(close - p))))
        return;
    d->doc_from = (long)(p - answer);
    d->doc_to = (long)(close - answer) + (three ? 3 : 1);
}

/* The indentation of the line token k starts, or -1 when another token comes first on it. */
static int line_indent(const char *answer, const ftoken *t)
{
    long a = t->at;
    while (a > 0 && (answer[a - 1] == ' ' || answer[a - 1] == '\t'))
        a--;
    if (a > 0 && answer[a - 1] != '\n')
        return -1;
    return (int)(t->at - a);
}

/* Does token k end an expression (so that a name after it starts a new statement)? */
static int ends_expression(const ftoken *t)
{
    return t->kind == F_VAR || t->kind == F_NAME || t->kind == F_NUM || t->kind == F_RPAR || t->kind == F_TRANS;
}

/* On one line (a one-line field turns line breaks into spaces) the body ends where a
 * statement after it starts: a def; the call of the function ([out =] attn(…)) after a
 * separator, words or a whole expression (after return or an operator it is a call of
 * itself); after the return, a name after a whole expression that opens the next
 * statement (print(…), x = …). */
static size_t one_line_end(const ftokens *T, const fdef *d)
{
    const ftoken *fn = &T->t[d->name];
    size_t ret = d->colon + 1;
    while (ret < T->n && !is_return(&T->t[ret]))
        ret++;
    int depth = 0;
    for (size_t k = d->colon + 1; k < T->n; k++) {
        const ftoken *t = &T->t[k];
        depth += (t->kind == F_LPAR) - (t->kind == F_RPAR);
        if (depth || !is_name(t))
            continue;
        if (def_at(T, k))
            return k;
        const ftoken *before = &T->t[k - 1];
        int after_expr = t->space_before && ends_expression(before);
        int after_words = before->kind == F_SEP || before->kind == F_COMMA || before->kind == F_HAN;
        if ((after_expr || after_words) &&
            (call_at(T, k, fn) || (T->t[k + 1].kind == F_ASSIGN && call_at(T, k + 2, fn))))
            return k;
        if (k > ret && (after_expr || before->kind == F_SEP) &&
            (T->t[k + 1].kind == F_ASSIGN || T->t[k + 1].kind == F_LPAR))
            return k;
    }
    return T->n;
}

/* Where the body ends: below the header, the first line indented no more than the def;
 * on the header's line, after the return. */
static size_t body_end(const char *answer, const ftokens *T, const fdef *d)
{
    const char *after = answer + T->t[d->colon].end;
    size_t k = d->colon + 1;
    while (k < T->n && T->t[k].kind == F_SEP && T->t[k].text[0] == '\n')
        k++;
    if (k == T->n || !memchr(after, '\n', (size_t)(T->t[k].at - T->t[d->colon].end)))
        return one_line_end(T, d);
    int indent = line_indent(answer, &T->t[d->def]);
    for (; k < T->n; k++) {   /* blank lines and line breaks end nothing */
        int in = T->t[k].kind == F_SEP ? -1 : line_indent(answer, &T->t[k]);
        if (in >= 0 && in <= indent && T->t[k].at >= d->doc_to)
            return k;
    }
    return T->n;
}

/* The statement after the body that calls the function: [out =] name(args) or
 * print(name(args)); the arguments that are a matrix alone. */
static void find_call(const ftokens *T, fdef *d)
{
    const ftoken *fn = &T->t[d->name];
    d->call = d->call_end = 0;
    for (int i = 0; i < 3; i++)
        d->arg[i] = -1;
    size_t k = d->end;
    while (k < T->n && !call_at(T, k, fn))
        k++;
    if (k == T->n)
        return;
    size_t close = closing(T, k + 1);
    for (size_t a = k + 2, i = 0; a < close && i < 3; i++) {
        size_t e = a;
        while (e < close && T->t[e].kind != F_COMMA)
            e += e < close && T->t[e].kind == F_LPAR ? closing(T, e) - e + 1 : 1;
        if (e == a + 1 && T->t[a].kind == F_VAR && T->t[a].var <= V_V)
            d->arg[i] = T->t[a].var;
        a = e + 1;
    }
    d->call = k;
    d->call_end = close < T->n ? close + 1 : T->n;
    if (k >= 2 && T->t[k - 1].kind == F_ASSIGN && is_name(&T->t[k - 2]))
        d->call = k - 2;
    else if (k >= 2 && T->t[k - 1].kind == F_LPAR && fq_name_is(&T->t[k - 2], "print")) {
        d->call = k - 2;
        d->call_end = closing(T, k - 1) < T->n ? closing(T, k - 1) + 1 : T->n;
    }
}

/* What the function's reader cannot take: a def in the body or after it (one function
 * is read), a class, a call of itself. The token at fault, or T->n. */
static size_t refused(const ftokens *T, const fdef *d, const char **why)
{
    for (size_t k = 0; k < d->def; k++)
        if (fq_name_is(&T->t[k], "class") && k + 1 < T->n && is_name(&T->t[k + 1])) {
            *why = QZ_N_("a class is not read: write a function (def) or the lines themselves");
            return k;
        }
    for (size_t k = d->colon; k < T->n; k++) {
        if (def_at(T, k)) {
            *why = k < d->end ? QZ_N_("a function defined inside another function is not read: define "
                                      "each function at the top, or write its lines in place")
                              : QZ_N_("a second function is not read here: write the formula in one "
                                      "function, or its lines alone");
            return k;
        }
        if (k < d->end && call_at(T, k, &T->t[d->name])) {
            *why = QZ_N_("the function '%.*s' calls itself: a recursive function is not read");
            return k;
        }
    }
    return T->n;
}

/* Parameter token p's use at k: the same name, not an attribute (x.q) or a keyword
 * (dim=…). */
static int param_use(const ftokens *T, size_t k, size_t p, size_t len)
{
    return is_name(&T->t[k]) && T->t[k].len == len && !strncmp(T->t[k].text, T->t[p].text, len) &&
           !(k && T->t[k - 1].kind == F_DOT) && T->t[k + 1].kind != F_ASSIGN;
}

/* Does a statement of the body start at k, though no separator came first? The body is
 * Python, where no expression follows another: a return or an assignment (x = …, w /= …)
 * after a whole expression starts one ("s = Q @ K.T   return …": the line breaks a
 * one-line field turned into spaces). */
static int unseparated(const ftokens *T, size_t k, int depth)
{
    const ftoken *t = &T->t[k], *n = &T->t[k + 1];
    if (depth || !t->space_before || !ends_expression(&T->t[k - 1]))
        return 0;
    int aug = (n->kind == F_MUL || n->kind == F_DIV || n->kind == F_PLUS || n->kind == F_MINUS) &&
              T->t[k + 2].kind == F_ASSIGN && !T->t[k + 2].space_before;
    return is_return(t) || (is_name(t) && (n->kind == F_ASSIGN || aug));
}

/* The tokens without the header, the docstring and the call; the parameters as the
 * matrices they are bound to; a separator between the body's statements where the
 * answer has none. -1 out of memory. */
static int rewrite(ftokens *T, const fdef *d)
{
    static const char *const sym[3] = {"Q", "K", "V"};
    ftoken *t = malloc((2 * T->n + 3) * sizeof *t);
    if (!t)
        return -1;
    size_t n = 0;
    int depth = 0;
    for (size_t k = 0; k <= T->n; k++) {
        ftoken x = T->t[k];
        if ((k >= d->def && k < d->colon) || (x.at >= d->doc_from && x.at < d->doc_to && k < d->end) ||
            (k > d->call && k < d->call_end) || (k == d->close && k < T->n))
            continue;
        if (k == d->colon)
            x.kind = F_SEP;   /* the end of another language's header: "…(Q, K, V) {" */
        int in_body = k > d->colon && k < d->end;
        depth += in_body ? (x.kind == F_LPAR) - (x.kind == F_RPAR) : 0;
        if ((k == d->end && k < T->n && x.kind != F_SEP) || (in_body && k > d->colon + 1 && unseparated(T, k, depth))) {
            t[n] = x;   /* "… @ V  out = …": two statements */
            t[n].kind = F_SEP;
            t[n++].len = 0;
        }
        if (k == d->call && d->call < d->call_end) {
            x.kind = F_SEP;
            x.len = 0;
        }
        for (int i = 0; i < d->n_param && in_body; i++)
            if (param_use(T, k, d->param[i], d->plen[i])) {
                int var = d->arg[i] >= 0 ? d->arg[i] : i;
                x.kind = F_VAR;
                x.var = var;
                x.text = sym[var];
                x.len = 1;
                break;
            }
        t[n++] = x;
    }
    free(T->t);
    T->t = t;
    T->n = n - 1;
    return 0;
}

/* ---- the matrix languages' functions ---- */

/* The parameters in the brackets [open, close): the first name of each (Julia's Q::Matrix,
 * R's d = 64, Mathematica's q_ or q_?MatrixQ), at most three. */
static void parameters(const ftokens *T, size_t open, size_t close, fdef *d)
{
    for (size_t k = open + 1; k < close && d->n_param < 3;) {
        if (is_name(&T->t[k])) {
            size_t len = T->t[k].len;
            len -= len > 1 && T->t[k].text[len - 1] == '_';   /* Mathematica's query_ */
            d->plen[d->n_param] = len;
            d->param[d->n_param++] = k;
        }
        int depth = 0;
        for (; k < close && (depth || T->t[k].kind != F_COMMA); k++)
            depth += (T->t[k].kind == F_LPAR) - (T->t[k].kind == F_RPAR);
        k++;
    }
}

/* The end of one statement from k: the first separator outside brackets (T->n when none). */
static size_t statement_end(const ftokens *T, size_t k)
{
    for (int depth = 0; k < T->n; k++) {
        depth += (T->t[k].kind == F_LPAR) - (T->t[k].kind == F_RPAR);
        if (depth <= 0 && T->t[k].kind == F_SEP)
            return k;
    }
    return T->n;
}

/* Words that open a block MATLAB and Julia close with end. */
static int opens_block(const ftoken *t)
{
    static const char *const w[] = {"function", "for", "if", "while", "begin", "let", "do", "try",
                                    "switch", "parfor", NULL};
    for (size_t k = 0; w[k]; k++)
        if (fq_name_is(t, w[k]))
            return 1;
    return 0;
}

/* MATLAB's and Julia's `function [out =] name(…)` at i; the body runs to its end. */
static int matlab_function(const ftokens *T, size_t i, fdef *d)
{
    if (!fq_name_is(&T->t[i], "function") || (i && T->t[i - 1].kind != F_SEP))
        return 0;
    size_t k = i + 1;
    if (T->t[k].kind == F_LPAR && *T->t[k].text == '[')   /* function [a, b] = name(…) */
        k = closing(T, k) + 1;
    else if (k + 1 < T->n && is_name(&T->t[k]) && T->t[k + 1].kind == F_ASSIGN)
        k++;                                               /* function out = name(…) */
    k += k < T->n && T->t[k].kind == F_ASSIGN;
    if (k + 1 >= T->n || !is_name(&T->t[k]) || T->t[k + 1].kind != F_LPAR)
        return 0;
    d->def = i;
    d->name = k;
    d->colon = closing(T, k + 1);
    if (d->colon >= T->n)
        return 0;
    parameters(T, k + 1, d->colon, d);
    d->end = d->close = T->n;
    int blocks = 0, depth = 0;
    for (size_t e = d->colon + 1; e < T->n; e++) {
        depth += (T->t[e].kind == F_LPAR) - (T->t[e].kind == F_RPAR);
        if (depth)
            continue;   /* x(end): an index, not a block's end */
        if (opens_block(&T->t[e]))
            blocks++;
        else if (fq_name_is(&T->t[e], "end") && blocks-- == 0) {
            d->end = d->close = e;
            break;
        }
    }
    return 1;
}

/* R's `name <- function(…) { … }` (or a body of one expression), and MATLAB's anonymous
 * `name = @(…) expr`, at i (the name). */
static int assigned_function(const ftokens *T, size_t i, fdef *d)
{
    if (i + 3 >= T->n || !is_name(&T->t[i]) || T->t[i + 1].kind != F_ASSIGN || (i && T->t[i - 1].kind != F_SEP))
        return 0;
    const ftoken *f = &T->t[i + 2];
    int r = fq_name_is(f, "function"), handle = f->kind == F_MUL && *f->text == '@';
    if ((!r && !handle) || T->t[i + 3].kind != F_LPAR)
        return 0;
    d->def = i;
    d->name = i;
    size_t close = closing(T, i + 3);
    if (close >= T->n)
        return 0;
    parameters(T, i + 3, close, d);
    d->colon = close;
    d->end = d->close = T->n;
    if (r && close + 1 < T->n && T->t[close + 1].kind == F_LPAR && *T->t[close + 1].text == '{') {
        d->colon = close + 1;   /* { … } */
        d->end = d->close = closing(T, close + 1);
    } else {
        d->end = statement_end(T, close + 1);
    }
    return 1;
}

/* Mathematica's `name[q_, k_, v_] := Module[{s, w}, …]` (or Block, With, or a body of one
 * expression) at i. */
static int mathematica_function(const ftokens *T, size_t i, fdef *d)
{
    if (i + 2 >= T->n || !is_name(&T->t[i]) || T->t[i + 1].kind != F_LPAR || *T->t[i + 1].text != '[' ||
        (i && T->t[i - 1].kind != F_SEP))
        return 0;
    size_t close = closing(T, i + 1), k = close + 1;
    if (close >= T->n || k >= T->n || T->t[k].kind != F_ASSIGN)
        return 0;
    int pattern = 0;   /* q_: a parameter's pattern, which no call has */
    for (size_t a = i + 2; a < close; a++)
        pattern |= is_name(&T->t[a]) && T->t[a].len && T->t[a].text[T->t[a].len - 1] == '_';
    if (!pattern)
        return 0;
    d->def = d->name = i;
    parameters(T, i + 1, close, d);
    d->colon = k;
    d->end = d->close = T->n;
    const ftoken *m = &T->t[k + 1];
    if (k + 3 < T->n && (fq_name_is(m, "Module") || fq_name_is(m, "Block") || fq_name_is(m, "With")) &&
        T->t[k + 2].kind == F_LPAR && T->t[k + 3].kind == F_LPAR && *T->t[k + 3].text == '{') {
        size_t locals = closing(T, k + 3);
        if (locals + 1 < T->n && T->t[locals + 1].kind == F_COMMA) {
            d->colon = locals + 1;
            d->end = d->close = closing(T, k + 2);
        }
    } else {
        d->end = statement_end(T, k + 1);
    }
    return 1;
}

int fq_unwrap_def(ftokens *T, const char *answer, fq_refusal *no)
{
    size_t i = 0;
    fdef d = {0};
    for (; i < T->n; i++) {
        memset(&d, 0, sizeof d);
        if (def_at(T, i) || matlab_function(T, i, &d) || assigned_function(T, i, &d) ||
            mathematica_function(T, i, &d))
            break;
    }
    if (i == T->n)
        return 0;
    int python = def_at(T, i);
    if (python) {
        d = (fdef){.def = i};
        if (!header(T, &d))
            return 0;
        docstring(answer, T, &d);
        d.end = body_end(answer, T, &d);
    }
    size_t bad = refused(T, &d, &no->why);
    if (bad < T->n) {
        no->at = T->t[bad].at;
        no->arg = T->t[d.name].text;
        no->arg_len = (int)T->t[d.name].len;
        return -2;
    }
    find_call(T, &d);
    return rewrite(T, &d) ? -1 : 1;
}

/* ---- a loop over the queries ---- */

/* The token at k, or the last one (F_END) past the end. */
static const ftoken *tok(const ftokens *T, size_t k)
{
    return &T->t[k < T->n ? k : T->n];
}

/* Is t the loop's variable v (the same name)? */
static int is_loop_var(const ftoken *t, const ftoken *v)
{
    return is_name(t) && same_text(t, v);
}

/* A row taken by the loop's variable v at k, right after a matrix's name: [i], [i, :],
 * [i, ], (i, :), (i,:), [[i]]. The count of its tokens, 0 when none stands there. */
static size_t row_index(const ftokens *T, size_t k, const ftoken *v)
{
    const ftoken *o = tok(T, k);
    if (o->kind != F_LPAR || o->space_before)
        return 0;
    if (*o->text == '[' && tok(T, k + 1)->kind == F_LPAR && *tok(T, k + 1)->text == '[' &&
        is_loop_var(tok(T, k + 2), v) && tok(T, k + 3)->kind == F_RPAR && tok(T, k + 4)->kind == F_RPAR)
        return 5;   /* Mathematica's Q[[i]] */
    if (!is_loop_var(tok(T, k + 1), v))
        return 0;
    size_t j = k + 2;
    if (tok(T, j)->kind == F_COMMA) {
        j++;
        j += tok(T, j)->kind == F_SEP && *tok(T, j)->text == ':';
    }
    return tok(T, j)->kind == F_RPAR ? j - k + 1 : 0;
}

/* A loop over the queries at i: Python's for i in range(n): (or enumerate(Q)), MATLAB's
 * for i = 1:n, Julia's for i in 1:n (each closed by end), R's for (i in 1:n) { … }. Sets
 * the variable's token, where the body starts and ends ([*body, *end)) and the token that
 * closes it (*close: end or '}', T->n none). 0 when no loop starts at i. */
static int loop_at(const ftokens *T, size_t i, size_t *var, size_t *body, size_t *end, size_t *close)
{
    if (!fq_name_is(&T->t[i], "for") || (i && T->t[i - 1].kind != F_SEP))
        return 0;
    *close = T->n;
    if (tok(T, i + 1)->kind == F_LPAR) {   /* R: for (i in 1:n) */
        size_t c = closing(T, i + 1);
        if (c >= T->n || !is_name(tok(T, i + 2)) || !fq_name_is(tok(T, i + 3), "in"))
            return 0;
        *var = i + 2;
        if (tok(T, c + 1)->kind == F_LPAR && *tok(T, c + 1)->text == '{') {
            *body = c + 2;
            *end = *close = closing(T, c + 1);
        } else {
            *body = c + 1;
            *end = statement_end(T, c + 1);
        }
        return 1;
    }
    if (!is_name(tok(T, i + 1)))
        return 0;
    *var = i + 1;
    size_t k = i + 2;   /* to "in" or "=" (past Python's "i, q" of enumerate) */
    while (k < T->n && k < i + 5 && !fq_name_is(&T->t[k], "in") && T->t[k].kind != F_ASSIGN)
        k++;
    if (k >= T->n || k == i + 5)
        return 0;
    int depth = 0, python = 0;
    for (k++; k < T->n; k++) {
        const ftoken *t = &T->t[k];
        depth += (t->kind == F_LPAR) - (t->kind == F_RPAR);
        if (depth)
            continue;
        if (t->kind == F_SEP && *t->text == ':' && (T->t[k - 1].kind == F_RPAR || T->t[k - 1].kind == F_VAR ||
                                                  T->t[k - 1].kind == F_NAME)) {
            python = 1;   /* for i in range(n):, for q in Q: */
            break;
        }
        if ((t->kind == F_SEP && *t->text != ':') || t->kind == F_COMMA)
            break;        /* the line's end: MATLAB's for i = 1:n, Julia's for i in 1:n */
    }
    if (k >= T->n)
        return 0;
    *body = k + 1;
    *end = T->n;
    if (python)
        return 1;
    int blocks = 0;
    depth = 0;
    for (size_t e = *body; e < T->n; e++) {
        depth += (T->t[e].kind == F_LPAR) - (T->t[e].kind == F_RPAR);
        if (depth)
            continue;
        if (opens_block(&T->t[e]))
            blocks++;
        else if (fq_name_is(&T->t[e], "end") && blocks-- == 0) {
            *end = *close = e;
            break;
        }
    }
    return 1;
}

int fq_unwrap_loop(ftokens *T)
{
    size_t i = 0, var = 0, body = 0, end = 0, close = 0;
    while (i < T->n && !loop_at(T, i, &var, &body, &end, &close))
        i++;
    if (i >= T->n)
        return 0;
    const ftoken v = T->t[var];
    ftoken *t = malloc((T->n + 1) * sizeof *t);
    if (!t)
        return -1;
    size_t n = 0;
    for (size_t k = 0; k <= T->n; k++) {
        if ((k >= i && k < body) || (k == close && k < T->n))
            continue;
        size_t r = k >= body && k < end && is_name(&T->t[k]) ? row_index(T, k + 1, &v) : 0;
        /* K @ Q[i] (NumPy's 1-D row), K * q: the row's dot products with the keys, q Kᵀ */
        size_t q = k + 2;
        size_t rq = k >= body && k < end && T->t[k].kind == F_VAR && T->t[k].var == V_K &&
                    tok(T, k + 1)->kind == F_MUL && tok(T, q)->kind == F_VAR && tok(T, q)->var == V_Q
                        ? row_index(T, q + 1, &v) : 0;
        if (rq) {
            t[n++] = T->t[q];
            t[n] = T->t[k + 1];
            t[n++].kind = F_DOTMUL;
            t[n++] = T->t[k];
            k = q + rq;
            k += tok(T, k + 1)->kind == F_TRANS;
            continue;
        }
        t[n++] = T->t[k];
        if (r) {   /* Q[i], Q(i,:), out[i, :]: the matrix, a row each turn; a row's transpose
                    * (Julia's Q[i, :]') is the row */
            k += r;
            k += tok(T, k + 1)->kind == F_TRANS;
        }
    }
    /* a loop over the heads (for h in range(n_heads)) takes whole matrices, not rows */
    int heads = fq_name_is(&v, "h") || fq_name_is(&v, "head");
    for (size_t k = var; k < body && !heads; k++)
        heads = T->t[k].kind == F_NAME && memmem(T->t[k].text, T->t[k].len, "head", 4);
    free(T->t);
    T->t = t;
    T->n = n - 1;
    T->rows = !heads;
    return 1;
}
