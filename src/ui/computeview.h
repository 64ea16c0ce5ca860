/* A compute step of a lesson laid out for the tutor, with what `attn-tutor show`
 * prints for it, the result first: the header (n_q, n_k, d_k — per head too — d_v,
 * heads, scale), the weights per head and the output, the variance of the raw and of
 * the scaled scores and each row's largest weight (for a random demo these figures
 * come before any matrix); then how the engine got there: Q, K, V, the mask the lesson
 * gives, per head the raw and the scaled scores. Every number comes from the engine's
 * at_compute_result. A matrix wider than the document shows the columns that fit whole
 * and says which are left out; no number is ever split. */
#ifndef AT_UI_COMPUTEVIEW_H
#define AT_UI_COMPUTEVIEW_H

#include "lesson/lesson.h"
#include "ui/doc.h"

/* Append the whole step to d (laid out for d->width): header, results, then the
 * inputs under "How the engine got there:". c is the lesson's block (for the mask it
 * gives and whether it is a random demo; may be NULL), cr the engine's result; both
 * borrowed. */
void ui_compute_layout(ui_doc *d, const at_compute *c, const at_compute_result *cr);

/* The parts of it, for a step that shows its inputs before a prediction and its
 * results after: the header line; the weights, the output and the summary lines; the
 * inputs (Q, K, V, mask, raw and scaled scores). */
void ui_compute_layout_header(ui_doc *d, const at_compute_result *cr);
void ui_compute_layout_results(ui_doc *d, const at_compute *c, const at_compute_result *cr);
void ui_compute_layout_inputs(ui_doc *d, const at_compute *c, const at_compute_result *cr);

#endif
