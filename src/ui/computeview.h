/* A compute step of a lesson laid out for the tutor, with what `attn-tutor show`
 * prints for it: the header (n_q, n_k, d_k, d_v, heads, scale), the mask the lesson
 * gives, Q, K, V, per head the raw, scaled and softmax scores, the output, the
 * variance of the raw scores and each row's largest weight. Every number comes from
 * the engine's at_compute_result. A matrix wider than the document shows the columns
 * that fit whole and says which are left out; no number is ever split. */
#ifndef AT_UI_COMPUTEVIEW_H
#define AT_UI_COMPUTEVIEW_H

#include "lesson/lesson.h"
#include "ui/doc.h"

/* Append the step to d (laid out for d->width). c is the lesson's block (for the mask
 * it gives; may be NULL), cr the engine's result; both borrowed. */
void ui_compute_layout(ui_doc *d, const at_compute *c, const at_compute_result *cr);

#endif
