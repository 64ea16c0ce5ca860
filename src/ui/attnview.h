/* The attention of one sentence as the lab and the lesson player show it: tokens from
 * the engine's tokenizer, every layer's and head's scores and weights from the model
 * (at_model_attend), and which layer/head/mask/scaling the student picked. Computing
 * happens only in the engine; this keeps the results and hands them to the heatmap. */
#ifndef AT_UI_ATTNVIEW_H
#define AT_UI_ATTNVIEW_H

#include <stddef.h>
#include "engine/model.h"
#include "engine/tokenizer.h"
#include "ui/heatmap.h"

#define UI_HEAD_ALL (-1)

typedef struct ui_attn {
    at_tokens toks;           /* owned */
    at_model_run run;         /* owned; run.n == 0 when there is nothing to show */
    const char **labels;      /* [toks.n] borrowed from toks (owned array) */
    int layer;                /* 0-based */
    int head;                 /* 0-based, or UI_HEAD_ALL */
    int causal, unscaled;     /* the student's toggles */
    char error[512];         /* why there is nothing to show ("" when fine) */
    size_t n_total;           /* tokens of the whole sentence; > toks.n when only the
                                 first max_tokens (the model's limit) are shown */
    at_scope scope;           /* owned: the model's scope on these tokens (model.h) */
    unsigned char *untrained; /* owned [toks.n]: 1 = a row of the last layer that training
                                 never reached (trained model only; see at_scope) */
    size_t last_layer;        /* the model's last layer (the coreference head's) */
    size_t reused;            /* real causal model: tokens whose rows came from the
                                 key/value cache (engine/hf/hf.h), not computed again */
    size_t layers_done;       /* the first layers_done layers of run are complete; the
                                 ones above (a real causal model's, computed only when
                                 shown) must not be shown */
} ui_attn;

/* Tokenise `sentence`, run the model with the current toggles and take its scope
 * (a->scope: unseen words, trained rows). Keeps the chosen
 * layer and head when they still exist. A sentence longer than the model reads
 * (at_model_info.max_tokens) is cut to its first max_tokens tokens; a->n_total keeps
 * the whole count, for a note. On an error (bad UTF-8, too long in bytes) the previous
 * tokens are dropped and a->error says what is wrong and where.
 * Returns 0, or the AT_E* code. */
int ui_attn_compute(ui_attn *a, const at_model *m, const char *sentence);

struct at_hf_model;

/* The same with a real checkpoint (engine/hf/hf.h): its own tokens (labels as the
 * model sees them, spans in the sentence), every layer and head; no scope. The mask
 * is the model's own (a->causal is set to it); a->unscaled is ignored. A sentence of
 * more tokens than the model reads is cut as above. cache (may be NULL): the key/value
 * cache this ui_attn's runs go through (a causal model then computes only the tokens
 * after the first one that changed since the last call, a->reused says how many were
 * kept, and only the first `layers` layers, 0 for all; a->layers_done says how many
 * are complete). */
struct at_hf_cache;
int ui_attn_compute_hf(ui_attn *a, const struct at_hf_model *m, struct at_hf_cache *cache,
                       const char *sentence, size_t layers);

/* Point h at the current layer and head (head ≥ 0): weights, scores (for masked
 * cells), fully masked rows, labels, and on the last layer the rows training never
 * reached (dimmed). Keeps h's cursor and scroll. */
void ui_attn_heatmap(const ui_attn *a, int head, ui_heatmap *h);

/* Heads of the current layer (0 when nothing is computed). */
size_t ui_attn_heads(const ui_attn *a);

/* The per-head index of query i, key j, for the current layer (head ≥ 0). */
size_t ui_attn_index(const ui_attn *a, int head, size_t i, size_t j);

/* Write the current layer's weights as CSV (one matrix, or every head with a head
 * column when a->head is UI_HEAD_ALL) to path. Returns 0, or -1 with errno set. */
int ui_attn_export_csv(const ui_attn *a, const char *path);

void ui_attn_free(ui_attn *a);

#endif
