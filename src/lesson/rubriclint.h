/* Lint of a text question's rubric and misconceptions (private to src/lesson): the
 * statement fields (subject, claims with direction, polarity, with, unless; required;
 * misconception names), each problem at its FILE:LINE:COL. */
#ifndef AT_LESSON_RUBRICLINT_H
#define AT_LESSON_RUBRICLINT_H

#include "lesson/lesson.h"
#include "lesson/ytree.h"

/* q: a loaded text question; node: its mapping in the file. */
void at_lint_rubric(const at_question *q, const ynode *node, const char *file, at_diag_list *diags);

/* The lesson's own `misconceptions` (root: the lesson's mapping): names unique among
 * them, no `replaces`, claims that say something (a question's misconception of the
 * same name is its own wording of it, not an error). */
void at_lint_lesson_misconceptions(const at_lesson_doc *d, const ynode *root, const char *file,
                                   at_diag_list *diags);

#endif
