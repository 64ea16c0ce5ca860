/* The lab screen: type any sentence, see the model's attention update on every edit. */
#ifndef AT_UI_LAB_H
#define AT_UI_LAB_H

#include "ui/screen.h"

typedef struct ui_lab_opts {
    int layer;        /* 0-based; -1 = the last layer */
    int head;         /* 0-based; -1 = the model's coreference head; -2 = all heads */
    int causal, unscaled;
    int focus;        /* 0-based query row to select; -1 = the first */
} ui_lab_opts;

/* A lab screen on `sentence` (NULL = an example in the UI language, with the input
 * line focused). opts may be NULL. Returns NULL when out of memory. */
ui_screen *ui_lab_new(ui_app *app, const char *sentence, const ui_lab_opts *opts);

#endif
