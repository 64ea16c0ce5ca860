/* A YAML document as a tree of nodes with their positions, read with libyaml's
 * event parser (private to src/lesson). The position pass of lint walks it next
 * to the libcyaml schema; the loader takes the lists of lists libcyaml cannot
 * hold from it. Aliases are refused and nesting is capped: a hostile file ends
 * in an error, never in unbounded memory or recursion. */
#ifndef AT_YTREE_H
#define AT_YTREE_H

#include <stddef.h>

#include "engine/error.h"

typedef enum yn_type { YN_SCALAR, YN_SEQ, YN_MAP } yn_type;

typedef struct ynode {
    yn_type type;
    int line, col;            /* 1-based start of the node */
    char *value;              /* scalar text (NUL-terminated), else NULL */
    int plain;                /* scalar written without quotes or block style */
    size_t start, end;        /* scalar: where its text starts and ends in the input
                                 (libyaml mark indexes; end is one past the last) */
    struct ynode **items;     /* SEQ: entries; MAP: key, value, key, value, … */
    size_t n;                 /* number of items (MAP: twice the pairs) */
} ynode;

/* Parse data[len] (one document). *root = NULL for an empty file.
 * Errors (AT_EINVAL) fill err->msg, err->line and err->col (1-based):
 * YAML syntax, an alias, nesting deeper than max_depth, a non-scalar key,
 * more than one document. Free with ynode_free. */
int ytree_parse(const char *data, size_t len, int max_depth, ynode **root, at_error *err);
void ynode_free(ynode *n);

/* The value node of key in a mapping (NULL if absent or n is not a mapping);
 * *key_node (may be NULL) receives the key node, for its position. */
const ynode *ynode_get(const ynode *map, const char *key, const ynode **key_node);

/* "a mapping", "a list", "a string" / "a number" / "empty" (for messages). */
const char *ynode_describe(const ynode *n);

#endif
