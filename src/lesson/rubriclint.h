/* Lint of a text question's rubric and misconceptions (private to src/lesson): the
 * statement fields (subject, claims with direction, polarity, with, unless; required;
 * misconception names), each problem at its FILE:LINE:COL. */
#ifndef AT_LESSON_RUBRICLINT_H
#define AT_LESSON_RUBRICLINT_H

#include "lesson/lesson.h"
#include "lesson/ytree.h"

/* q: a loaded text question; node: its mapping in the file. */
void at_lint_rubric(const at_question *q, const ynode *node, const char *file, at_diag_list *diags);

#endif
