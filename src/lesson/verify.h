/* Checks of a loaded lesson that need its numbers (private): compute steps and
 * questions run through the engine, expect lists against the results, ids, and
 * line widths. Fills l->calc; diagnostics carry the node positions. */
#ifndef AT_LESSON_VERIFY_H
#define AT_LESSON_VERIFY_H

#include "lesson/lesson.h"
#include "lesson/ytree.h"

/* Longest line, in terminal columns, before lint warns. */
#define AT_LESSON_MAX_COLUMNS 100

/* m: the model lab steps run on to check their `expect` (NULL = not checked). */
void at_verify_lesson(at_lesson *l, const ynode *root, const char *data, size_t len,
                      const at_model *m, at_diag_list *diags);

/* Lines wider than AT_LESSON_MAX_COLUMNS (display width): one warning each. */
void at_verify_widths(const char *name, const char *data, size_t len, at_diag_list *diags);

#endif
