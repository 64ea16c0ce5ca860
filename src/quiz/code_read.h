/* Reading a code answer (private to code_lex.c and code_read.c): its tokens and the
 * parser's state. See quiz/code_impl.h for the tree they make. */
#ifndef AT_QUIZ_CODE_READ_H
#define AT_QUIZ_CODE_READ_H

#include <stddef.h>

#include "quiz/code_impl.h"

enum ctk { T_END, T_NEWLINE, T_NAME, T_NUM, T_STR, T_OP };

/* A token; its text points into the normalised copy of the code (in the run's arena). */

typedef struct ctok {
    enum ctk kind;
    int op;             /* T_OP: a character or an enum ce_op */
    long at;            /* byte of the answer */
    const char *s;      /* in the normalised text (T_STR: the string's contents), len bytes */
    size_t len;
    double num;
    int is_int;
    int indent;         /* the column its line starts at */
} ctok;

/* The parser's state: the tokens and where it is. */
typedef struct rd {
    ce_ev *ev;
    ctok *t;
    int n, i, cap;
    int depth;
    int in_def;         /* reading the body of a def */
} rd;

/* Normalise code and cut it into r->t[0 .. r->n) (the last T_END). 0, or -1 with the run
 * stopped (an unknown symbol, a string not closed, too long, out of memory). */
int ce_lex(rd *r, const char *code);

/* The code cannot be read at token t: msgid (an English printf format) in the run's
 * language. Returns -1. */
int read_fail(rd *r, const ctok *t, const char *msgid, ...) __attribute__((format(printf, 3, 4)));

#endif
