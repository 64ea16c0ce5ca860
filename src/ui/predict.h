/* Predict, then reveal: the prediction a compute or lab step asks for (its `predict`)
 * before its result is shown. The student commits to an answer — a letter for a choice,
 * a number on an answer line, a key token chosen with ← → (in the lab's heatmap, or in a
 * row of the block's keys) — and the step then shows the engine's result and how close
 * the prediction was; r shows the result without a prediction. The engine's answer comes
 * from the step's computed attention (at_predict_answer_of), never from the lesson. */
#ifndef AT_UI_PREDICT_H
#define AT_UI_PREDICT_H

#include "lesson/lesson.h"
#include "ui/doc.h"
#include "ui/lineedit.h"
#include "ui/screen.h"

/* What is kept of a step's prediction while the student moves between steps. */
typedef struct ui_predict_memo {
    int revealed;             /* the result was shown */
    int predicted;            /* … after a prediction (else after r) */
    int choice;               /* choice: the option chosen */
    double number;            /* number: the value predicted */
    int token;                /* token: the key chosen */
} ui_predict_memo;

typedef struct ui_predict {
    const at_predict *p;      /* borrowed from the lesson */
    at_predict_answer ans;    /* the engine's answer */
    int ans_ok;
    char error[400];          /* why the engine cannot answer it ("" when it can) */
    const char *const *keys;  /* token: the keys' labels [n_keys] (borrowed), or NULL */
    const char *query;        /* token: the query's label (borrowed), or NULL */
    size_t n_keys;
    float row_w[256];         /* token: the asked row's weights (the first 256 keys) */
    ui_predict_memo m;
    int typing;               /* number: the answer line has the focus */
    ui_lineedit line;
    int cursor;               /* token: the key under the cursor */
    char note[256];           /* an answer that was refused, said under the prompt */
} ui_predict;

/* Set u up for p with the step's computed attention r (a compute step's result, or a
 * lab's weights as an at_compute_result: weights, tokens, key_tokens, n_q, n_k);
 * from_default is a lab's focus (or NULL); memo (or NULL) restores where the student
 * was. A prediction the engine cannot answer is shown with the reason, and revealed. */
void ui_predict_init(ui_predict *u, const at_predict *p, const at_compute_result *r,
                     const char *from_default, const ui_predict_memo *memo);

/* 1 while the result is hidden: the step shows the prompt, not the result. */
int ui_predict_pending(const ui_predict *u);

/* 1 while the student picks a token with ← → (the lab step's heatmap follows
 * u->cursor as its column). */
int ui_predict_picking(const ui_predict *u);

/* Lay out the prediction into d: before the reveal, the prompt, the options or the
 * answer line (one-line block field_block) or the row of keys (one-line block
 * keys_block, compute steps; a lab picks in its heatmap: keys_block 0); after it,
 * what was predicted beside the engine's answer and the explanation. */
void ui_predict_layout(ui_predict *u, ui_doc *d, int field_block, int keys_block);

/* Draw the answer line of a number prediction / the row of keys, in `where`. */
void ui_predict_draw_field(ui_predict *u, ui_app *app, WINDOW *w, ui_rect where);
void ui_predict_draw_keys(ui_predict *u, WINDOW *w, ui_rect where);

/* A key while the prediction is pending: a letter chooses an option, digits (or a, i,
 * Enter) open the answer line and Enter commits it, ← → h l move the token cursor and
 * Enter commits it, r reveals without a prediction. Returns UI_IGNORED for keys it
 * does not use (the lesson's navigation). */
int ui_predict_key(ui_predict *u, ui_app *app, ui_key k);

/* 1 while the answer line has the focus (then q and ? are typed). */
int ui_predict_typing(const ui_predict *u);

/* The keys of the status bar while pending (translated). */
const char *ui_predict_status(const ui_predict *u);

#endif
