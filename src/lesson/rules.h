/* Structural rules of the lesson format checked on the node tree (private). */
#ifndef AT_LESSON_RULES_H
#define AT_LESSON_RULES_H

#include "lesson/check.h"

/* Steps (one kind each), questions (fields by kind), compute blocks, expect lists. */
void at_check_lesson_rules(at_checker *c, const ynode *root);
/* One compute block (a step's, or the whole `attn-tutor compute` file). */
void at_check_compute_rules(at_checker *c, const ynode *compute);

#endif
