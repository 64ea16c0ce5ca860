/* The mini-model's scope in the tutor's words (gettext): what it was trained on, the
 * words of a sentence it never saw, the note that says when its weights are not
 * learned meaning, and which rows of the coreference head were trained. The facts come
 * from the engine (at_model_frames, at_model_scope); the lab and the lesson player
 * show them where they show the model's attention. */
#ifndef AT_UI_SCOPETEXT_H
#define AT_UI_SCOPETEXT_H

#include <stddef.h>
#include "ui/attnview.h"

/* "Trained only to tell which noun it/he/she…它/他/她… refers to, in 33 sentence frames"
 * (at most three pronouns of each language), and with
 * with_example ", such as “…”" (a training sentence, in the UI language when there is
 * one). Returns 0 (and says so in buf) when the model file does not record its training. */
int ui_scope_trained_on(const at_model *m, int with_example, char *buf, size_t cap);

/* When a shows the head training named (the previous-token head, at_model_named_head):
 * "Previous-token head (trained, any sentence) · here 0.97 on the token before, lowest
 * 0.81 (cat)" (the mean and the lowest over the rows), computed from a->run.
 * Returns 1 with the line in buf, else 0 with buf "". */
int ui_scope_named(const at_model *m, const ui_attn *a, char *buf, size_t cap);

/* The note when the weights of a->run are not learned meaning (a->scope.reasons, or
 * the query in row cur_row is a word the model never saw): "Not learned meaning here:
 * 59% of the tokens are words it never saw · the query “My” is unseen", the reasons
 * " · "-separated (ui_put_items drops the ones that do not fit). Returns 1 with the
 * note in buf, else 0 with buf "" — also on the named head, whose weights are what
 * its name says on any sentence (ui_scope_named). */
int ui_scope_note(const at_model *m, const ui_attn *a, int cur_row, char *buf, size_t cap);

/* " · "-separated items: the sentence cut (cut_bytes > 0), the model's token limit,
 * and the distinct unseen words with their share of the tokens ("unseen words (59% of
 * the tokens): My sister gave …"; narrow: "unseen (59%): My sister …"). buf "" when
 * there is nothing to say. */
void ui_scope_unseen(const ui_attn *a, int cut_bytes, int narrow, char *buf, size_t cap);

/* On the coreference layer: "trained row: it · the other rows of this head were never
 * trained (dimmed)"; "" on other layers and for demo weights. */
void ui_scope_rows(const at_model *m, const ui_attn *a, char *buf, size_t cap);

/* The i-th trained frame (cycling), its example sentence and pattern; the frames in
 * the UI language come first. Returns NULL when the model records none. */
const at_model_frame *ui_scope_frame(const at_model *m, size_t i, size_t *n_trained);

#endif
