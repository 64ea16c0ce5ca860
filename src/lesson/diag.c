/* Diagnostics: FILE:LINE:COL: error|warning: MESSAGE. */
#define _GNU_SOURCE
#include "lesson/lesson.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void at_diag_add(at_diag_list *d, at_diag_level level, const char *file, int line, int col,
                 const char *fmt, ...)
{
    if (!d)
        return;
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        at_diag *p = realloc(d->items, cap * sizeof *p);
        if (!p)
            return;
        d->items = p;
        d->cap = cap;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    at_diag *x = &d->items[d->count];
    x->level = level;
    x->line = line;
    x->col = col;
    x->file = strdup(file ? file : "<input>");
    x->msg = strdup(msg);
    if (!x->file || !x->msg) {
        free(x->file);
        free(x->msg);
        return;
    }
    d->count++;
    if (level == AT_DIAG_ERROR)
        d->errors++;
    else
        d->warnings++;
}

void at_diag_print(const at_diag_list *d, FILE *f)
{
    for (size_t i = 0; d && i < d->count; i++) {
        const at_diag *x = &d->items[i];
        const char *lvl = x->level == AT_DIAG_ERROR ? "error" : "warning";
        if (x->line > 0)
            fprintf(f, "%s:%d:%d: %s: %s\n", x->file, x->line, x->col, lvl, x->msg);
        else
            fprintf(f, "%s: %s: %s\n", x->file, lvl, x->msg);
    }
}

static int diag_cmp(const at_diag *x, const at_diag *y)
{
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

/* Insertion sort: stable, and lists are short. */
void at_diag_sort(at_diag_list *d)
{
    for (size_t i = 1; d && i < d->count; i++) {
        at_diag x = d->items[i];
        size_t j = i;
        for (; j > 0 && diag_cmp(&d->items[j - 1], &x) > 0; j--)
            d->items[j] = d->items[j - 1];
        d->items[j] = x;
    }
}

void at_diag_list_free(at_diag_list *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->count; i++) {
        free(d->items[i].file);
        free(d->items[i].msg);
    }
    free(d->items);
    memset(d, 0, sizeof *d);
}
