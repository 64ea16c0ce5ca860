/* The position pass (private to src/lesson): walks a YAML node tree alongside the
 * libcyaml schema tables and reports, at the offending key or value, everything
 * libcyaml would reject (unknown keys with a "did you mean", missing keys, wrong
 * types, bad enum words, list lengths) plus the format's own structural rules
 * (one kind per step, kind-specific question fields, matrix shapes, one source
 * per compute block, one assertion per expect entry). */
#ifndef AT_LESSON_CHECK_H
#define AT_LESSON_CHECK_H

#include "lesson/lesson.h"
#include "lesson/schema.h"
#include "lesson/ytree.h"

typedef struct at_checker {
    at_diag_list *diags;
    const char *file;
} at_checker;

/* Check node n against schema; name is the key it stands under (for messages). */
void at_check_value(at_checker *c, const ynode *n, const cyaml_schema_value_t *schema,
                    const char *name);

/* The closest of candidates (edit distance ≤ 2, or ≤ a third of the word), or NULL. */
const char *at_did_you_mean(const char *word, const char *const *candidates, size_t n);

#define at_err(c, node, ...) \
    at_diag_add((c)->diags, AT_DIAG_ERROR, (c)->file, (node) ? (node)->line : 1, \
                (node) ? (node)->col : 1, __VA_ARGS__)

#define at_warn(c, node, ...) \
    at_diag_add((c)->diags, AT_DIAG_WARNING, (c)->file, (node) ? (node)->line : 1, \
                (node) ? (node)->col : 1, __VA_ARGS__)

#endif
