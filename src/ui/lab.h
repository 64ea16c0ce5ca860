/* The lab screen: type any sentence, see the model's attention update on every edit. */
#ifndef AT_UI_LAB_H
#define AT_UI_LAB_H

#include "ui/screen.h"

typedef struct ui_lab_opts {
    int layer;        /* 0-based; -1 = the last layer (with head -1: the coreference
                         head's layer) */
    int head;         /* 0-based; -1 = the model's coreference head; -2 = all heads */
    int causal, unscaled;
    int focus;        /* 0-based query row to select; -1 = the row the model was trained
                         at (the pronoun), else the first */
} ui_lab_opts;

/* A lab screen on `sentence`: NULL = the pronoun sentence of lessons 1 and 4 in the UI
 * language ("The animal didn't cross the road because it was too tired.",
 * 小明今天没来学校，因为他生病了。), shown on its heatmap; "" = an empty sentence, the
 * input line focused. opts may be NULL. Returns NULL when out of memory. */
ui_screen *ui_lab_new(ui_app *app, const char *sentence, const ui_lab_opts *opts);

#endif
